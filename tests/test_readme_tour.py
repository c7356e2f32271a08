"""The README's short tour runs as written from the repository's root, and so does the
example of ``hammerlab import --help``: a newcomer's review found the tour's
``odds --from "Orks - Codex.cat"`` refused (``file not found``) in a fresh clone, the
catalogue being in ``tests/data/bsdata-7e/``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def tour() -> list[list[str]]:
    """The ``$ hammerlab ...`` commands of the README's "A short tour" block, each as its
    words (continued lines joined, comments left out)."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("```", 2)[1]
    joined = re.sub(r"\\\n\s*", "", block)
    commands = []
    for line in joined.splitlines():
        words = shlex.split(line.removeprefix("$ "), comments=True)
        if words[:1] == ["hammerlab"]:
            commands.append(words[1:])
    return commands


def test_the_tour_is_read_whole() -> None:
    # The tour names these commands (README, "A short tour"); a misread block would
    # pass the test below with nothing run.
    firsts = [words[0] for words in tour()]
    assert firsts.count("odds") == 3 and {"import", "show", "battle", "tables"} <= set(firsts)
    assert any("tests/data/bsdata-7e/Orks - Codex.cat" in words for words in tour())


@pytest.mark.parametrize("words", tour(), ids=lambda words: " ".join(words)[:60])
def test_each_tour_command_runs_as_written_from_the_root(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, words)
    assert result.exit_code == 0, result.stderr


def test_the_import_help_s_example_runs_from_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    shown = CliRunner().invoke(app, ["import", "--help"], terminal_width=200).stdout
    example = re.search(r"Example: hammerlab (import .*)", shown)
    assert example is not None, shown
    result = CliRunner().invoke(app, shlex.split(example.group(1)))
    assert result.exit_code == 0, result.stderr
