"""The dependency rule of docs/architecture.md: imports point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "hammerlab"
INTERFACES = ("hammerlab.cli", "hammerlab.web", "hammerlab.agents")
FORBIDDEN = {
    "engine": ("hammerlab.editions", "hammerlab.io", "hammerlab.analysis", *INTERFACES),
    "io": ("hammerlab.editions", "hammerlab.analysis", *INTERFACES),
    "editions": ("hammerlab.analysis", *INTERFACES),
    "analysis": INTERFACES,
    "web": ("hammerlab.cli", "hammerlab.agents"),
    "agents": ("hammerlab.cli", "hammerlab.web"),
}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_point_down_only(layer: str) -> None:
    broken = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for name in sorted(_imports(path))
        if name.startswith(FORBIDDEN[layer])
    ]
    assert not broken


def test_nothing_below_the_cli_prints() -> None:
    printing = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "cli" not in path.relative_to(PACKAGE).parts
        and any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("print", "input")
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        )
    ]
    assert not printing


EDITIONS = ("waffle", "core11")


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_edition_imports_another(edition: str) -> None:
    others = tuple(f"hammerlab.editions.{e}" for e in EDITIONS if e != edition)
    broken = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted((PACKAGE / "editions" / edition).rglob("*.py"))
        for name in sorted(_imports(path))
        if name.startswith(others)
    ]
    assert not broken


WAFFLE_WORDS = (
    "suppressive",
    "overwatch",
    "final_shot",
    "fiery",
    "sweeping",
    "pinning",
    "instant death",
)
CORE11_WORDS = ("core11", "battle-shock", "lethal hits", "stratagem")


def test_the_engine_names_no_edition_concept() -> None:
    named = [
        f"{path.relative_to(PACKAGE)}: {word}"
        for path in sorted((PACKAGE / "engine").rglob("*.py"))
        for word in (*WAFFLE_WORDS, *CORE11_WORDS, "waffle")
        if word in path.read_text(encoding="utf-8").lower()
    ]
    assert not named
