"""``hammerlab serve``: the web pages and the JSON API (``docs/web.md``).

FastAPI, uvicorn and the web package are imported when the command runs, so
the other commands do not pay for them.
"""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from hammerlab.cli.common import OnceCommand


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""

    @app.command(cls=OnceCommand)
    def serve(
        host: Annotated[
            str, typer.Option(help="address to listen on (loopback only by default)")
        ] = ("127.0.0.1"),
        port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
        open_browser: Annotated[
            bool, typer.Option("--open", help="open the pages in a web browser")
        ] = False,
        scenarios: Annotated[
            Path, typer.Option(help="folder of scenario files the pages offer")
        ] = Path("examples"),
        plugin: Annotated[
            list[Path] | None,
            typer.Option("--plugin", metavar="FILE.py", help="load rules from a plug-in file"),
        ] = None,
    ) -> None:
        """Serve the odds page, the rules lab, the battle viewer, play against the AI and
        the JSON API at http://HOST:PORT/ (docs/web.md)."""
        import uvicorn

        from hammerlab.errors import HammerlabError
        from hammerlab.web.app import create_app

        try:
            web = create_app(scenarios if scenarios.is_dir() else None, tuple(plugin or ()))
        except HammerlabError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(1) from None
        url = f"http://{host}:{port}/"
        typer.echo(f"hammerlab serving on {url} (Ctrl+C stops it)")
        if open_browser:
            threading.Timer(1.0, webbrowser.open, (url,)).start()
        uvicorn.run(web, host=host, port=port, log_level="warning")
