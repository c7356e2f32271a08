"""Helpers of the web tests: a live server on a free loopback port, and the CLI's JSON."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from typer.testing import CliRunner

from hammerlab.cli.app import app as cli
from hammerlab.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server() -> Iterator[str]:
    """The base URL of a server running in a background thread while in the block."""
    port = _free_port()
    config = uvicorn.Config(
        create_app(EXAMPLES), host="127.0.0.1", port=port, log_level="warning", backlog=512
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=10)


def cli_json(*args: str) -> Any:
    """What ``hammerlab ARGS --json`` prints, parsed: the expected values of the tests."""
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
