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


FILE_SUFFIXES = {"gst", "cat", "ros", "rosz", "java", "json", "toml", "md", "py"}
"""Extensions of the files the rules docs name (``Warhammer40K.gst``): not class members."""
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


def _defined_in(file_name: str, test: str) -> bool:
    """Whether a test file of that name defines ``test`` (a family written with ``*``)."""
    pattern = test.replace("…", "*")
    for path in (ROOT / "tests").rglob(file_name.rsplit("/", maxsplit=1)[-1]):
        names = re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
        if any(fnmatch.fnmatchcase(n, pattern) for n in names):
            return True
    return False


@pytest.mark.parametrize("edition", ["waffle", "core11"])
def test_every_test_named_with_its_file_is_in_that_file(edition: str) -> None:
    doc = (ROOT / "docs" / "rules" / f"{edition}.md").read_text(encoding="utf-8")
    pairs = re.findall(r"(test_\w+\.py)::(test_[\w*…]+)", doc)
    assert [pair for pair in pairs if not _defined_in(*pair)] == []


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
            f"hammerlab.{module_name}",
        ]
        if importlib.util.find_spec(f"{PACKAGES[edition]}.rules"):
            homes.append(f"{PACKAGES[edition]}.rules.{module_name}")
        modules = [importlib.import_module(h) for h in homes if importlib.util.find_spec(h)]
        if not any(hasattr(m, attr) for m in modules):
            missing.append(cell)
    assert not missing


def _has_member(kind: type, name: str) -> bool:
    """A class's attribute, method or (dataclass or annotated) field, its bases' included."""
    return hasattr(kind, name) or any(
        name in vars(base).get("__annotations__", {}) for base in kind.__mro__
    )


def _classes(package: str) -> dict[str, list[type]]:
    """Every class defined in ``package``'s modules and those outside any edition, by name."""
    found: dict[str, list[type]] = {}
    outside = ("engine", "analysis", "game", "io", "editions/base", "editions/flow")
    for root in (package, "hammerlab"):
        folder = Path(importlib.import_module(root).__file__ or "").parent
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if root == "hammerlab" and not "/".join(parts).startswith(outside):
                continue
            name = ".".join((root, *parts)).removesuffix(".__init__")
            for value in vars(importlib.import_module(name)).values():
                if isinstance(value, type) and value.__module__ == name:
                    found.setdefault(value.__name__, []).append(value)
    return found


@pytest.mark.parametrize("edition", ["waffle", "core11"])
def test_every_class_member_named_in_the_rules_doc_exists(edition: str) -> None:
    """``Class.member`` and ``module.Class.member`` (not a file name such as
    ``Warhammer40K.gst``): the class is the edition's or one outside the editions,
    and has that member."""
    doc = (ROOT / "docs" / "rules" / f"{edition}.md").read_text(encoding="utf-8")
    classes = _classes(PACKAGES[edition])
    named = [
        (m.group(1), m.group(2))
        for cell in _cells(doc)
        if (m := re.fullmatch(r"(?:[a-z_]+\.)?([A-Z]\w*)\.([A-Za-z_]\w*)(\(.*\))?", cell))
        and m.group(2) not in FILE_SUFFIXES
    ]
    assert named
    missing = [
        f"{kind}.{member}"
        for kind, member in named
        if not any(_has_member(c, member) for c in classes.get(kind, []))
    ]
    assert missing == []
