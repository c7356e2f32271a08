"""The README's short tour runs as written from the repository's root, and so does the
example of ``hammerlab import --help``: a newcomer's review found the tour's
``odds --from "Orks - Codex.cat"`` refused (``file not found``) in a fresh clone, the
catalogue being in ``tests/data/bsdata-7e/``."""

from __future__ import annotations

import inspect
import json
import re
import shlex
from pathlib import Path

import pytest
import typer
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


def help_example(command: str) -> str:
    """The first ``Example:`` of ``command``'s help, its continued lines joined."""
    group = typer.main.get_command(app)
    text = inspect.cleandoc(group.commands[command].help or "")  # type: ignore[attr-defined]
    example = re.search(r"Example: (hammerlab .*)", re.sub(r"\\\n\s*", "", text))
    assert example is not None, text
    return example.group(1)


def lab_examples() -> list[list[str]]:
    """The ``hammerlab lab`` commands of the README's rules-lab block and of ``lab
    --help``'s example, each as its words after ``lab``, made quick (:func:`_short`),
    once each."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## Rules lab", 1)[1].split("```", 2)[1]
    lines = [*re.sub(r"\\\n\s*", "", block).splitlines(), help_example("lab")]
    commands: list[list[str]] = []
    for line in lines:
        words = shlex.split(line.removeprefix("$ "), comments=True)
        if words[:2] == ["hammerlab", "lab"] and _short(words[2:]) not in commands:
            commands.append(_short(words[2:]))
    return commands


def _short(words: list[str]) -> list[str]:
    """``words`` with 10 runs for ``--runs`` and no ``--plot``: the same comparison,
    quickly, as JSON."""
    out: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("--runs", "--plot"):
            skip = True
            out += ["--runs", "10"] if word == "--runs" else []
            continue
        out.append(word)
    return [*out, "--json"]


def test_the_readme_s_lab_examples_are_read_whole() -> None:
    commands = lab_examples()
    assert len(commands) == 3  # the README's three; lab --help's is its first
    assert all("--rule" in words for words in commands)


@pytest.mark.parametrize("words", lab_examples(), ids=lambda words: " ".join(words)[:60])
def test_each_lab_example_compares_a_rule_that_comes_into_play(
    words: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A newcomer's review (s23): the README's first two lab commands, `lab --help`'s
    # example and the first sweep compared Suppressive Fire against Terminators, which
    # the AI never suppresses: 100 of 100 paired battles alike, a table of zeros. Each
    # example now changes some battles, and where the rule is a choice (Suppressive
    # Fire's action) the AI takes it. 10 paired battles, to be quick: the seeds 1-10
    # (at 100, the penalty's comparison ended 73 pairs in 100 alike).
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, ["lab", *words])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["paired_battles_ended_alike"] < report["runs"]
    chosen = [c["baseline_chosen"] + c["variant_chosen"] for c in report["rule_choices"]]
    assert all(n > 0 for n in chosen), report["rule_choices"]


def test_the_sweep_help_example_s_rule_comes_into_play(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same review: `sweep --help`'s example warned "offered ... and chosen at no point".
    monkeypatch.chdir(ROOT)
    words = shlex.split(help_example("sweep"))[1:]
    at = words.index("--report")
    words = [*words[:at], *words[at + 2 :]]
    at = words.index("--runs")
    words[at + 1] = "3"
    result = CliRunner().invoke(app, [*words, "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["warnings"] == []
