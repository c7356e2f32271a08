"""The rules traceability tables name code and tests that exist."""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_NAMES = {
    m.group(1)
    for path in (ROOT / "tests").rglob("test_*.py")
    for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
}
PACKAGES = {"waffle": "hammerlab.editions.waffle", "core11": "hammerlab.editions.core11"}


def _cells(doc: str) -> list[str]:
    return re.findall(r"`([^`]+)`", doc)


TEST_FILES = {path.name for path in (ROOT / "tests").rglob("test_*.py")}


def _test_exists(name: str) -> bool:
    """A test file, a test, or a family of tests written as a glob or ``..._suffix``."""
    if name.endswith(".py"):
        return name.rsplit("/", maxsplit=1)[-1] in TEST_FILES
    if "*" in name or name.endswith("…"):
        pattern = name.replace("…", "*")
        return any(fnmatch.fnmatchcase(t, pattern) for t in TEST_NAMES)
    if name.startswith("..."):
        return any(t.endswith(name.lstrip(".")) for t in TEST_NAMES)
    return name in TEST_NAMES


@pytest.mark.parametrize("edition", ["waffle", "core11"])
def test_every_test_named_in_the_rules_doc_exists(edition: str) -> None:
    doc = (ROOT / "docs" / "rules" / f"{edition}.md").read_text(encoding="utf-8")
    named = [part for c in _cells(doc) if "test_" in c for part in c.split("::")]
    missing = [name for name in named if not _test_exists(name.split(" (")[0])]
    assert not missing


@pytest.mark.parametrize("edition", ["waffle", "core11"])
def test_every_function_named_in_the_rules_doc_exists(edition: str) -> None:
    doc = (ROOT / "docs" / "rules" / f"{edition}.md").read_text(encoding="utf-8")
    missing = []
    for cell in _cells(doc):
        match = re.fullmatch(r"([a-z_]+)\.([A-Za-z_]+)(\(.*\))?", cell)
        if not match or "test_" in cell or cell.endswith(".py"):
            continue
        module_name, attr = match.group(1), match.group(2)
        homes = [
            f"{PACKAGES[edition]}.{module_name}",
            f"hammerlab.engine.{module_name}",
            f"hammerlab.editions.{module_name}",
        ]
        if importlib.util.find_spec(f"{PACKAGES[edition]}.rules"):
            homes.append(f"{PACKAGES[edition]}.rules.{module_name}")
        modules = [importlib.import_module(h) for h in homes if importlib.util.find_spec(h)]
        if not any(hasattr(m, attr) for m in modules):
            missing.append(cell)
    assert not missing
