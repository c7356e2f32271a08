"""The dependency rule of docs/architecture.md: imports point down only."""

from __future__ import annotations

import ast
import re
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


EDITIONS_USE_OF_IO = (
    "hammerlab.io.library",
    "hammerlab.io.wh40kdc_library",
    "hammerlab.io.bounds",
    "hammerlab.io.files",
)
"""The only ``io`` modules an edition may import (docs/architecture.md names them)."""
ARCHITECTURE = PACKAGE.parents[1] / "docs" / "architecture.md"


def test_editions_import_only_the_io_modules_the_architecture_names() -> None:
    """Code review s23, finding 10: the doc allowed editions three ``io`` modules while
    ``editions/plugins.py`` imported a fourth (``io.files``), and this file forbade
    none, so the BattleScribe importer or ``io.scenario`` would have passed too. The
    allowed list is checked against every edition module's imports, and is the list
    the doc's ``editions`` rule names, module for module."""
    broken = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted((PACKAGE / "editions").rglob("*.py"))
        for name in sorted(_imports(path))
        if (name == "hammerlab.io" or name.startswith("hammerlab.io."))
        and name not in EDITIONS_USE_OF_IO
    ]
    assert not broken
    text = ARCHITECTURE.read_text(encoding="utf-8")
    rule = text[text.index("- `editions` import `engine`") :].split("\n- ")[0]
    named = {f"hammerlab.{m}" for m in re.findall(r"`(io\.\w+)`", rule)}
    assert named == set(EDITIONS_USE_OF_IO)


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
