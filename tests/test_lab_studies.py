"""Every command docs/lab/README.md lists: its scenarios load and its variant is accepted.

The commands are read from the README's indented code blocks (``hammerlab sweep``
and ``hammerlab lab``, with ``\\`` continuations). For each, the scenarios are
loaded and the variant is built the way the command builds it before playing
any battle (:func:`hammerlab.analysis.sweep_grid.cases` for ``--vary``,
:func:`hammerlab.analysis.lab.arms` for ``--rule``); the reports it writes are
in docs/lab. The numbers themselves are not replayed here.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from hammerlab.analysis.lab import arms
from hammerlab.analysis.stats import wilson_interval
from hammerlab.analysis.sweep_grid import cases, parse_axes
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "docs" / "lab" / "README.md"


def _commands() -> list[list[str]]:
    """The README's ``hammerlab sweep|lab`` commands, split into words."""
    commands: list[list[str]] = []
    pending = ""
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("    "):
            pending = ""
            continue
        text = line.strip()
        if not pending and not text.startswith(("hammerlab sweep ", "hammerlab lab ")):
            continue
        pending += " " + text.rstrip("\\").strip()
        if not text.endswith("\\"):
            commands.append(shlex.split(pending))
            pending = ""
    return commands


def _values(words: list[str], flag: str) -> list[str]:
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w == flag]


def _scenarios(words: list[str]) -> list[Path]:
    return [ROOT / w for w in words if w.endswith(".toml")]


COMMANDS = _commands()


def test_the_readme_lists_the_studies() -> None:
    kinds = [words[1] for words in COMMANDS]
    assert kinds.count("sweep") >= 5 and kinds.count("lab") >= 3


@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w[1:3]))
def test_each_listed_command_loads_and_accepts_its_variant(words: list[str]) -> None:
    scenarios = _scenarios(words)
    assert scenarios and all(path.is_file() for path in scenarios)
    loaded = [(load_scenario(path), str(path)) for path in scenarios]
    if words[1] == "sweep":
        points = cases(loaded, parse_axes(_values(words, "--vary")))
        assert len(points) >= 2  # a grid, or one point on two scenarios
    else:
        ((scenario, _),) = loaded
        experiment = arms(scenario, _values(words, "--rule"))
        assert experiment.baseline != experiment.variant
    assert all(int(runs) <= 200 for runs in _values(words, "--runs"))
    for flag in ("--report", "--csv"):
        for written in _values(words, flag):
            assert (ROOT / written).is_file(), written


def test_a_rate_of_none_or_all_lies_inside_its_interval() -> None:
    """A draw rate of 100% (shooting_into_melee.html, the rule off) once gave a Wilson
    upper bound a rounding error below 1.0, and the report's chart a negative error
    bar (a traceback). The bound at 0 or 1 is the rate itself."""
    for n in range(1, 401):
        for successes in (0, n):
            estimate = wilson_interval(successes, n)
            assert estimate.low <= estimate.mean <= estimate.high, (successes, n)
