"""``make test`` (and so CI: ``.ci/run`` is ``make test``) runs the checks the project
holds its code to: ``ruff check`` and ``ruff format --check`` on every tree of Python
code it ships (``src``, ``tests``, ``benchmarks``, ``examples``; the README's
Development section), ``mypy --strict`` and the tests. A newcomer's review found the
lint target leaving out ``examples`` and never checking the format, so a lint error in
``examples/*.py`` or an unformatted file passed CI."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = ROOT / "Makefile"
TREES = {"src", "tests", "benchmarks", "examples"}
"""The project's standard: ``ruff check src tests benchmarks examples`` and ``ruff format
--check src tests benchmarks examples``."""


def _variables(text: str) -> dict[str, str]:
    """The Makefile's simple ``NAME := value`` (or ``NAME = value``) assignments."""
    found = re.findall(r"^([A-Z_]+)\s*:?=\s*(.*)$", text, flags=re.MULTILINE)
    return {name: value.strip() for name, value in found}


def _expand(line: str, variables: dict[str, str]) -> str:
    return re.sub(r"\$\((\w+)\)", lambda m: _expand(variables.get(m[1], m[0]), variables), line)


def _rule(target: str) -> tuple[list[str], list[str]]:
    """``target``'s prerequisites and its recipe's commands, variables expanded."""
    text = MAKEFILE.read_text(encoding="utf-8")
    variables = _variables(text)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    prerequisites = lines[start].split(":", 1)[1].split()
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(_expand(line.strip(), variables))
    return prerequisites, recipe


def _trees(commands: list[str], tool: str) -> set[str]:
    """The folders the command of ``commands`` that starts with ``tool`` reads."""
    command = next(c for c in commands if c.split("/")[-1].startswith(tool))
    return set(command.split("/")[-1].removeprefix(tool).split())


def test_make_test_lints_and_checks_the_format_of_every_python_tree() -> None:
    prerequisites, _ = _rule("test")
    assert "lint" in prerequisites and "typecheck" in prerequisites
    _, lint = _rule("lint")
    assert _trees(lint, "ruff check ") == TREES
    assert _trees(lint, "ruff format --check ") == TREES
    for tree in TREES:  # each is there and holds Python code
        assert any((ROOT / tree).rglob("*.py")), tree
