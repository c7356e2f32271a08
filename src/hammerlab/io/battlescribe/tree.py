"""The selection tree of one unit, the common ground of catalogues and rosters.

A catalogue unit is turned into the selections BattleScribe makes by default;
a roster unit already is a tree of selections. Both become :class:`Node` trees,
and one builder (:mod:`.datasheets`) turns a tree into a datasheet.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from hammerlab.errors import InputError
from hammerlab.io.battlescribe.profiles import BODY_KINDS, RawProfile, RawRule

MAX_COUNT = 10_000
"""Most copies of one selection in a unit; more means a broken or hostile file."""


@dataclass
class Node:
    """One selection with what it shows, and the selections inside it."""

    name: str
    type: str
    """The entry type: ``unit``, ``model`` or ``upgrade`` (``""`` if none)."""
    count: int
    """How many of this selection the whole unit holds (not per parent)."""
    profiles: list[RawProfile] = field(default_factory=list)
    rules: list[RawRule] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    variable: bool = False
    """Whether the data lets this selection's count change."""
    most: int | None = None
    """Where ``variable``: the most copies the data allows the whole unit (``None``:
    no maximum)."""
    notes: list[str] = field(default_factory=list)
    ident: str = ""
    """The id of the catalogue entry it was made from (``""`` in a roster)."""
    refusals: list[str] = field(default_factory=list)
    """Why the unit holding this selection cannot be played as the data describes it
    (its models are left to a choice the data does not make...), one reason each."""


def shows_body(node: Node) -> bool:
    """Whether ``node`` shows a model (or vehicle) profile of its own."""
    return any(raw.kind in BODY_KINDS for raw in node.profiles)


def subtree(node: Node) -> Iterator[Node]:
    """``node`` and the selections inside it, depth first in their order, leaving out
    the units nested in it (and what they hold)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in reversed(current.children) if child.type != "unit")


def checked_count(count: float, source: str, where: str) -> int:
    """A selection count as an int, refusing absurd ones."""
    if not 0 <= count <= MAX_COUNT:
        raise InputError(source, where, f"selection count {count:g} is outside 0..{MAX_COUNT}")
    return int(count)
