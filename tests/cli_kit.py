"""The command line as the CLI tests drive it: run a command, read its one error line."""

from __future__ import annotations

from typer.testing import CliRunner

from hammerlab.cli.app import app


def run(*args: str) -> tuple[int, str, str]:
    """``hammerlab ARGS...`` in process: the exit code, standard output and standard error."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_line(code: int, err: str, expected_code: int) -> str:
    """The one ``error:`` line a refused command prints (no traceback), stripped."""
    assert code == expected_code, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()
