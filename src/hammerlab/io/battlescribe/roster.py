"""Units of a roster, as the player selected them.

A roster holds forces (one per catalogue used), each holding selections.
Units are the selections of type ``unit`` (at any depth) and the force-level
selections of type ``model`` (characters). A selection's ``number`` counts
all its copies in the unit: nine Legionaries with a bolt pistol each are a
``number="9"`` model selection holding a ``number="9"`` bolt pistol.
Profiles and rules are written inline, with BattleScribe's modifiers already
applied, so no game system is needed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from hammerlab.io.battlescribe.infos import read_infos
from hammerlab.io.battlescribe.links import Library, element_path, number
from hammerlab.io.battlescribe.tree import Node, checked_count


@dataclass(frozen=True)
class RosterUnit:
    """A unit selection of a roster, with where it was found."""

    selection: Element
    army: str
    """The name of the catalogue its force comes from."""
    depth: int
    container: str


def roster_units(library: Library) -> list[RosterUnit]:
    """Every unit selection of the roster, force-level ones first."""
    units: list[RosterUnit] = []
    forces = list(library.main.root.iterfind("forces/force"))
    while forces:
        force = forces.pop(0)
        forces.extend(force.iterfind("forces/force"))
        army = force.get("catalogueName") or library.main.name
        force_level = set(force.iterfind("selections/selection"))
        for selection, depth, container in _selections_in_order(force):
            kind = selection.get("type")
            if kind == "unit" or (kind == "model" and selection in force_level):
                units.append(RosterUnit(selection, army, depth, container))
    return sorted(units, key=lambda unit: unit.depth)


def _selections_in_order(force: Element) -> Iterator[tuple[Element, int, str]]:
    """A force's selections in document order, with the depth of units around them."""
    stack = [(selection, 0, "") for selection in reversed(force.findall("selections/selection"))]
    while stack:
        selection, depth, container = stack.pop()
        yield selection, depth, container
        if selection.get("type") == "unit":
            depth, container = depth + 1, selection.get("name", "")
        stack.extend(
            (child, depth, container)
            for child in reversed(selection.findall("selections/selection"))
        )


def selection_tree(selection: Element, library: Library, nested: bool = False) -> Node:
    """The node tree of a selection; units inside it are left as bare nodes."""
    source = library.main.source
    count = checked_count(number(selection, "number", source, 1.0), source, element_path(selection))
    node = Node(selection.get("name", ""), selection.get("type", ""), count)
    if nested and node.type == "unit":
        return node
    infos = read_infos((selection,), library)
    node.profiles, node.rules, node.notes = infos.profiles, infos.rules, infos.notes
    node.children = [
        selection_tree(child, library, nested=True)
        for child in selection.iterfind("selections/selection")
    ]
    return node
