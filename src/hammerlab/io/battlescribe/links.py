"""Parsed BattleScribe documents and the id index that resolves their links.

BattleScribe data refers to shared entries, profiles and rules by id
(``entryLink``/``infoLink`` ``targetId``), and a catalogue's targets may live in
its game system (``gameSystemId``) or in catalogues it links
(``catalogueLinks``), found next to it in the same folder.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from hammerlab.errors import InputError
from hammerlab.io.battlescribe.source import load_root, local_name, read_root_attributes

LINKABLE_TAGS = frozenset({"selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup"})
"""Elements that links can target (other elements reuse ids freely)."""


@dataclass(frozen=True)
class Document:
    """One parsed file with its linkable elements indexed by id."""

    source: str
    root: Element
    by_id: Mapping[str, Element]
    profile_types: Mapping[str, str]
    """Profile type id → name (``Unit``, ``Weapon``...), declared by game systems."""

    @classmethod
    def load(cls, path: Path, source: str) -> Document:
        """Parse ``path``; strip namespaces and index ids in one pass."""
        root = load_root(path, source)
        by_id: dict[str, Element] = {}
        profile_types: dict[str, str] = {}
        for element in root.iter():
            tag = element.tag = local_name(element.tag)
            ident = element.get("id")
            if tag in LINKABLE_TAGS and ident:  # a link without a target finds nothing
                by_id.setdefault(ident, element)
            elif tag == "profileType":
                profile_types[element.get("id", "")] = element.get("name", "")
        return cls(source, root, by_id, profile_types)

    @property
    def name(self) -> str:
        """The catalogue, game system or roster name."""
        return self.root.get("name", "")


@dataclass(frozen=True)
class Library:
    """The documents a file's links may point into, searched in order."""

    documents: tuple[Document, ...]
    notes: tuple[str, ...] = ()
    """Documents that could not be found, one sentence each."""

    @property
    def main(self) -> Document:
        """The file being imported."""
        return self.documents[0]

    def find(self, target_id: str) -> Element | None:
        """The element a link targets, or ``None`` if no document defines it."""
        for document in self.documents:
            element = document.by_id.get(target_id)
            if element is not None:
                return element
        return None

    def profile_type(self, type_id: str) -> str:
        """The name of a profile type, or ``""`` if it is not declared."""
        for document in self.documents:
            name = document.profile_types.get(type_id)
            if name is not None:
                return name
        return ""


def open_library(path: Path, source: str) -> Library:
    """Load ``path`` with the linked catalogues and game system beside it."""
    main = Document.load(path, source)
    if main.root.tag != "catalogue":
        return Library((main,))
    neighbours = _Neighbours(path.parent)
    documents = [main]
    notes: list[str] = []
    for link in main.root.iterfind("catalogueLinks/catalogueLink"):
        wanted = link.get("targetId", "")
        found = neighbours.find(".cat", wanted)
        if found is None:
            notes.append(
                f"Linked catalogue {link.get('name') or wanted!r} was not found next to the "
                "file; links into it stay unresolved."
            )
        else:
            documents.append(Document.load(found, str(found)))
    system_id = main.root.get("gameSystemId", "")
    system = neighbours.find(".gst", system_id)
    if system is None:
        notes.append(
            f"Game system {system_id!r} (.gst) was not found next to the file; links into it "
            "stay unresolved."
        )
    else:
        documents.append(Document.load(system, str(system)))
    return Library(tuple(documents), tuple(notes))


class _Neighbours:
    """Files of a folder, identified by the id on their root element."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder

    def find(self, suffix: str, wanted_id: str) -> Path | None:
        """The file with ``suffix`` whose root ``id`` is ``wanted_id``."""
        try:
            candidates = sorted(self._folder.iterdir())
        except OSError:
            return None
        for candidate in candidates:
            if candidate.suffix.lower() != suffix or not candidate.is_file():
                continue
            attributes = read_root_attributes(candidate)
            if attributes is not None and attributes.get("id") == wanted_id:
                return candidate
        return None


def element_path(element: Element) -> str:
    """A short locator for messages: ``selectionEntry[@id='…']``."""
    ident = element.get("id")
    return f"{element.tag}[@id={ident!r}]" if ident else element.tag


def number(element: Element, attribute: str, source: str, default: float = 0.0) -> float:
    """A numeric attribute (``value="10.0"``), or an InputError naming it."""
    raw = element.get(attribute)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputError(source, element_path(element), f"{attribute}={raw!r} is not a number")
    return value
