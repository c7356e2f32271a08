"""``hammerlab serve``: the web pages and the JSON API (``docs/web.md``).

FastAPI, uvicorn and the web package are imported when the command runs, so
the other commands do not pay for them.
"""

from __future__ import annotations

import socket
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from hammerlab.cli.common import OnceCommand, usage_error

DEFAULT_SCENARIOS = Path("examples")
"""The scenario folder offered when ``--scenarios`` is not given (the project's
examples, where the server is started from a clone)."""


def check_address(host: str, port: int) -> None:
    """Refuse, before the server says it is serving, an address it cannot listen on
    (a host that does not resolve, a port taken): a usage error naming the flag.
    The port is tried by binding it and letting it go again, as the server will."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise usage_error(
            "--host", f"{host}: {getattr(error, 'strerror', None) or error}"
        ) from None
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise usage_error(
                "--port", f"cannot listen on {host}:{port}: {error.strerror}"
            ) from None


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
            Path | None,
            typer.Option(
                help="folder of scenario files the pages offer (default: examples, if here)"
            ),
        ] = None,
        plugin: Annotated[
            list[Path] | None,
            typer.Option(
                "--plugin", metavar="FILE.py", help="load rules from a plug-in file; repeatable"
            ),
        ] = None,
    ) -> None:
        """Serve the web pages (odds, rules lab, battle viewer, play) and the JSON API.

        At http://HOST:PORT/: the odds page, the rules lab, the battle viewer, a game
        against the AI and the JSON API (docs/web.md).

        Example: hammerlab serve --port 8000 --open
        """
        import uvicorn

        from hammerlab.errors import HammerlabError
        from hammerlab.web.app import create_app

        if scenarios is not None and not scenarios.is_dir():
            raise usage_error("--scenarios", f"{scenarios}: no such folder")
        offered = scenarios or DEFAULT_SCENARIOS
        if not offered.is_dir():
            typer.echo(
                f"note: no folder {offered}/ here: the pages offer no scenario file "
                "(give --scenarios DIR)",
                err=True,
            )
        try:
            web = create_app(offered if offered.is_dir() else None, tuple(plugin or ()))
        except HammerlabError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(1) from None
        check_address(host, port)
        url = f"http://{host}:{port}/"
        typer.echo(f"hammerlab serving on {url} (Ctrl+C stops it)")
        if open_browser:
            threading.Timer(1.0, webbrowser.open, (url,)).start()
        uvicorn.run(web, host=host, port=port, log_level="warning")
