"""Units of a catalogue (or game system) and their default selections.

Which entries are units: every selection entry of type ``unit`` in the file,
wherever it sits (an Astra Militarum Infantry Squad only exists inside its
Platoon), plus the root entries (and what the root entry links reach) of type
``model`` (characters are written that way), showing a model (or vehicle)
profile whatever their type (Marneus Calgar is an ``upgrade``), or whose default
selections hold models and no unit (the Space Marine "Dreadnoughts", an
``upgrade`` holding 1 to 3 ``Dreadnought`` models). The other root entries
(formations, detachments, army-wide choices) are named in a file-level note.

What a unit holds by default is what BattleScribe selects when the unit is
added: each child entry with a ``min`` constraint (scope ``parent``) that many
times, and in each group with a ``min`` the group's default entry
(``defaultSelectionEntryId``) as often as the minimum still needs. Hidden
entries are skipped; constraint modifiers apply only when unconditional. Once
the selections are made, the conditional modifiers of their profiles are
judged by them (:mod:`.conditions`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from hammerlab.errors import InputError
from hammerlab.io.battlescribe.conditions import judge_tree
from hammerlab.io.battlescribe.infos import read_infos
from hammerlab.io.battlescribe.links import Library, element_path, number
from hammerlab.io.battlescribe.modifiers import Modifier, apply_unconditional, modifiers_of
from hammerlab.io.battlescribe.profiles import BODY_KINDS, is_hidden
from hammerlab.io.battlescribe.tree import Node, checked_count, shows_body

MAX_DEPTH = 64
"""Deepest chain of entries followed (real data nests about ten deep)."""

MAX_UNIT_SELECTIONS = 10_000
MAX_FILE_SELECTIONS = 100_000
"""Most default selections made for one unit, and for all the units of a file
(the shared catalogues need at most 38 and about 1,000): links can fan out
exponentially, an entry linking another twice, that one a third twice..."""

UNIT_TYPES = frozenset({"unit", "model"})

UNCHOSEN = "models of it are left to a choice the data does not make"
"""How the reason opens why a unit is not playable when a group of its models needs
selections and names no default (the Special Weapons Squad's "Special Weapons")."""


@dataclass(frozen=True)
class Ref:
    """An entry or group, and the link it was reached through (if any)."""

    element: Element
    link: Element | None = None

    @property
    def ids(self) -> frozenset[str]:
        """The ids a ``defaultSelectionEntryId`` may use to name this entry."""
        return frozenset(ident for ident in (self.element.get("id"), self.link_attr("id")) if ident)

    def link_attr(self, name: str) -> str | None:
        """An attribute of the link, ``None`` without a link."""
        return None if self.link is None else self.link.get(name)

    def modifiers(self) -> list[Modifier]:
        """The modifiers of the link and of the entry."""
        return list(modifiers_of(self.link, self.element))


@dataclass(frozen=True)
class UnitEntry:
    """A unit entry found in a file, with where it was found."""

    ref: Ref
    depth: int
    """How many entries contain it (0 at the root or among shared entries)."""
    container: str
    """The name of the entry containing it, ``""`` at the top."""
    tree: Node
    """The unit with its default selections (:class:`DefaultSelections`)."""


def unit_entries(
    library: Library, selections: DefaultSelections, notes: list[str]
) -> list[UnitEntry]:
    """Every unit entry of the imported file, each once, top-level ones first.

    The root entries that are not units are named in ``notes``, so that none
    vanishes silently.
    """
    root = library.main.root
    found: dict[int, UnitEntry] = {}
    skipped: dict[int, str] = {}

    def add(ref: Ref, depth: int, container: str, tree: Node | None = None) -> None:
        if id(ref.element) not in found:
            made = selections.tree(ref) if tree is None else tree
            found[id(ref.element)] = UnitEntry(ref, depth, container, made)

    for ref in _root_refs(library, notes):
        if id(ref.element) in found or id(ref.element) in skipped:
            continue
        tree = selections.tree(ref) if ref.element.tag == "selectionEntry" else None
        if tree is not None and _is_root_unit(ref, tree):
            add(ref, 0, "", tree)
        else:
            skipped[id(ref.element)] = ref.element.get("name") or ref.element.get("id") or ""
    for element, depth, container in _entries_in_order(root):
        if element.get("type") == "unit":
            add(Ref(element), depth, container)
    if skipped:
        names = ", ".join(map(repr, skipped.values()))
        notes.append(
            f"{len(skipped)} root entries are not imported as units: {names}: none is typed "
            "unit or model, shows a model profile or holds models (and no unit) by default "
            "(a formation or detachment holds units, imported on their own; an army-wide "
            "choice holds no model)."
        )
    _members_are_units(list(found.values()))
    return sorted(found.values(), key=lambda entry: entry.depth)


def _members_are_units(units: list[UnitEntry]) -> None:
    """In a formation written as a unit, make each member the file imports as a unit of
    its own a unit.

    The data types some formations ``unit`` and writes their members as its
    models: the Space Marines' "Formation: Storm Wing" links a Stormraven Gunship
    and two Stormtalon Gunships, "Formation: Triumvirate of the Primarch" three
    characters, each of them a root entry the file imports as a unit on its own.
    In 7th edition a formation is made of units, which move, shoot and are
    destroyed apart: played as one unit it would be wrong (three flyers shooting
    one target, one kill point). A unit holding members of two or more such
    entries, or one such member next to a unit entry of its own (the "Formation:
    Raptor Wing": Land Speeders and two Stormtalon Gunships), is a formation: each
    member is typed ``unit`` in its tree, as a nested unit entry is, a datasheet
    of its own that the formation's datasheet names in a note ("Includes unit
    'Stormraven Gunship' (x1), imported as a datasheet of its own."). One entry
    selected several times alone (the Orks' "Deff Dread Squadron", 1 to 3 Deff
    Dreads) is a squadron of it, one unit, and stays so.
    """
    own = {entry.ref.element.get("id") for entry in units} - {None, ""}
    for entry in units:
        members: list[Node] = []
        nested = False
        stack = list(entry.tree.children)
        while stack:
            node = stack.pop()
            if node.type == "unit":
                nested = True
            elif node.ident in own:
                members.append(node)
            else:
                stack.extend(node.children)
        if len({node.ident for node in members}) > 1 or (members and nested):
            for node in members:
                node.type = "unit"


def _root_refs(library: Library, notes: list[str]) -> Iterator[Ref]:
    """The file's root entries, then what its root entry links reach (groups too)."""
    root = library.main.root
    for element in root.iterfind("selectionEntries/selectionEntry"):
        yield Ref(element)
    for link in root.iterfind("entryLinks/entryLink"):
        target = library.find(link.get("targetId", ""))
        if target is None:
            notes.append(f"Root entry link {link.get('targetId')!r} could not be resolved.")
        else:
            yield Ref(target, link)


def _is_root_unit(ref: Ref, tree: Node) -> bool:
    """Whether a root entry is a unit: typed ``unit`` or ``model``, showing a body, or
    holding models and no unit by default.

    Old catalogues type characters and squads ``upgrade`` (a Daemon Prince,
    Marneus Calgar); what makes them units is their model profile. Some wrap a
    unit's models in an ``upgrade`` that shows nothing itself: the Space Marine
    "Dreadnoughts" holds 1 to 3 ``Dreadnought`` models (and the option of a
    Dedicated Transport), the Tyranid "Meiotic Spore Brood" 3 to 9 Meiotic
    Spores. An entry whose defaults hold a unit is a formation or a detachment
    instead: its units are imported on their own.
    """
    return ref.element.get("type") in UNIT_TYPES or shows_body(tree) or _holds_models(tree)


def _holds_models(tree: Node) -> bool:
    """Whether the selections below ``tree`` hold a model and no unit."""
    models = False
    stack = list(tree.children)
    while stack:
        node = stack.pop()
        if node.type == "unit":
            return False
        models = models or node.type == "model" or shows_body(node)
        stack.extend(node.children)
    return models


def _least(first: int | None, second: int | None) -> int | None:
    """The smaller of two maximums, ``None`` standing for none."""
    if first is None or second is None:
        return second if first is None else first
    return min(first, second)


def _entries_in_order(root: Element) -> Iterator[tuple[Element, int, str]]:
    """Every selection entry in document order, with its depth and container."""
    stack: list[tuple[Element, int, str]] = [(root, 0, "")]
    while stack:
        element, depth, container = stack.pop()
        if element.tag == "selectionEntry":
            yield element, depth, container
            depth, container = depth + 1, element.get("name", "")
        stack.extend((child, depth, container) for child in reversed(list(element)))


class DefaultSelections:
    """Builds the tree of selections BattleScribe makes by default for a unit."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self._source = library.main.source
        self._unit_selections = self._file_selections = 0

    def tree(self, ref: Ref) -> Node:
        """The unit entry ``ref`` with its default selections, the conditional modifiers
        of its profiles judged by them (:func:`.conditions.judge_tree`)."""
        self._unit_selections = 0
        made = self._node(ref, count=1, most=1, path=())
        judge_tree(made, self._library)
        return made

    def _node(self, ref: Ref, count: int, most: int | None, path: tuple[int, ...]) -> Node:
        """``ref`` and its default selections; ``path`` holds the entries above it.

        ``count`` is how many the unit holds by default, ``most`` how many the
        data allows it (``None``: no maximum); the count can vary when they differ.
        """
        if len(path) > MAX_DEPTH:
            raise InputError(
                self._source,
                element_path(ref.element),
                f"entries nest more than {MAX_DEPTH} deep",
            )
        self._unit_selections += 1
        self._file_selections += 1
        for made, limit, scope in (
            (self._unit_selections, MAX_UNIT_SELECTIONS, "for one unit"),
            (self._file_selections, MAX_FILE_SELECTIONS, "for the whole file"),
        ):
            if made > limit:
                raise InputError(
                    self._source,
                    element_path(ref.element),
                    f"more than {limit} default selections {scope} (links fanning out?)",
                )
        name = apply_unconditional(ref.element.get("name", ""), "name", ref.modifiers())
        variable = most is None or most > count
        node = Node(name, ref.element.get("type", ""), count, ident=ref.element.get("id", ""))
        node.variable, node.most = variable, most if variable else None
        if path and node.type == "unit":
            return node  # a unit inside a unit is a datasheet of its own
        infos = read_infos((ref.link, ref.element), self._library)
        node.profiles, node.rules, node.notes = infos.profiles, infos.rules, infos.notes
        here = (*path, id(ref.element))
        for child, per_parent, most_per_parent in self._defaults(ref, node):
            if id(child.element) in here:
                node.notes.append(
                    f"{child.element.get('name')!r} links back to an entry containing it; "
                    "not followed."
                )
                continue
            total = checked_count(count * per_parent, self._source, element_path(child.element))
            child_most = None if most_per_parent is None else count * most_per_parent
            node.children.append(self._node(child, total, child_most, here))
        return node

    def _defaults(
        self, ref: Ref, node: Node, groups: tuple[int, ...] = ()
    ) -> list[tuple[Ref, int, int | None]]:
        """Children selected by default: (child, count per parent, most per parent or
        ``None`` for no maximum).

        ``groups`` holds the groups being expanded around ``ref``: a group
        that links back to one of them is a cycle, noted and not followed
        (entry cycles are caught by :meth:`_node`'s path).
        """
        chosen: list[tuple[Ref, int, int | None]] = []
        for child in self._children(ref, node.notes):
            modifiers = child.modifiers()
            if is_hidden(child.element, child.link, modifiers):
                continue
            low, high = self._limits(child, modifiers)
            if child.element.tag == "selectionEntryGroup":
                if id(child.element) in groups:
                    node.notes.append(
                        f"Group {child.element.get('name')!r} links back to a group containing "
                        "it; not followed."
                    )
                    continue
                inside = (*groups, id(child.element))
                chosen.extend(self._group_defaults(child, low, high, node, inside))
            elif low >= 1:
                chosen.append((child, low, high))
        return chosen

    def _group_defaults(
        self, group: Ref, low: int, high: int | None, node: Node, groups: tuple[int, ...]
    ) -> list[tuple[Ref, int, int | None]]:
        """A group's own defaults, topped up with its default entry to its minimum.

        The group's maximum bounds its entries together: each may hold what the
        others leave of it, within its own maximum (the Scouts group of a Scout
        Squad, 4 to 9, holds the Scout entry, at least 4 and no maximum of its own).
        """
        chosen = self._defaults(group, node, groups)
        missing = low - sum(count for _, count, _ in chosen)
        choice = self._default_choice(group) if missing > 0 else None
        if missing > 0 and choice is None:
            node.notes.append(
                f"Group {group.element.get('name')!r} needs {low} selection(s) but names no "
                "default entry; none made."
            )
            models = [child for child in self._visible(group) if self._is_model(child)]
            if models:
                node.refusals.append(
                    f"{UNCHOSEN}: its group {group.element.get('name')!r} needs {missing} more "
                    f"({', '.join(repr(m.element.get('name')) for m in models)}) and names no "
                    "default among them (a roster, .ros or .rosz, chooses them)"
                )
        if choice is not None:
            index = next(
                (i for i, (ref, _, _) in enumerate(chosen) if ref.element is choice.element), None
            )
            if index is None:
                chosen.append((choice, missing, self._limits(choice, choice.modifiers())[1]))
            else:
                ref, count, most = chosen[index]
                chosen[index] = (ref, count + missing, most)
        if high is None:
            return chosen
        total = sum(count for _, count, _ in chosen)
        return [(ref, count, _least(most, high - total + count)) for ref, count, most in chosen]

    def _default_choice(self, group: Ref) -> Ref | None:
        """The group's default entry, or its only visible entry (a forced choice)."""
        default_id = group.link_attr("defaultSelectionEntryId") or group.element.get(
            "defaultSelectionEntryId"
        )
        visible = self._visible(group)
        if default_id:
            return next((child for child in visible if default_id in child.ids), None)
        return visible[0] if len(visible) == 1 else None

    def _visible(self, group: Ref) -> list[Ref]:
        """The entries and groups directly inside ``group`` that are not hidden."""
        return [
            child
            for child in self._children(group, [])
            if not is_hidden(child.element, child.link, child.modifiers())
        ]

    def _is_model(self, ref: Ref) -> bool:
        """Whether the entry ``ref`` is a model: typed ``model``, or showing a model (or
        vehicle) profile (the Special Weapons Squad's "Guard w/ Plasma Gun", an
        ``upgrade`` showing the Guardsman)."""
        if ref.element.tag != "selectionEntry":
            return False
        profiles = read_infos((ref.link, ref.element), self._library).profiles
        return ref.element.get("type") == "model" or any(p.kind in BODY_KINDS for p in profiles)

    def _children(self, ref: Ref, notes: list[str]) -> Iterator[Ref]:
        """The entries and groups directly inside ``ref``, links resolved."""
        for container in (ref.link, ref.element):
            if container is None:
                continue
            for element in container.iterfind("selectionEntries/selectionEntry"):
                yield Ref(element)
            for element in container.iterfind("selectionEntryGroups/selectionEntryGroup"):
                yield Ref(element)
            for link in container.iterfind("entryLinks/entryLink"):
                target = self._library.find(link.get("targetId", ""))
                if target is None or target.tag not in {"selectionEntry", "selectionEntryGroup"}:
                    label = link.get("name") or link.get("targetId")
                    notes.append(f"Linked entry {label!r} could not be resolved; left out.")
                else:
                    yield Ref(target, link)

    def _limits(self, ref: Ref, modifiers: list[Modifier]) -> tuple[int, int | None]:
        """The ``min`` and ``max`` selections per parent (``None``: no maximum)."""
        low, high = 0, None
        for container in (ref.link, ref.element):
            if container is None:
                continue
            for constraint in container.iterfind("constraints/constraint"):
                if (
                    constraint.get("field") != "selections"
                    or constraint.get("scope") != "parent"
                    or constraint.get("percentValue") == "true"
                ):
                    continue
                value = self._constraint_value(constraint, modifiers)
                if value < 0:
                    continue  # BattleScribe writes -1 for "no limit", min or max
                if constraint.get("type") == "min":
                    low = max(low, checked_count(value, self._source, element_path(constraint)))
                elif constraint.get("type") == "max":
                    high = int(value) if high is None else min(high, int(value))
        return low, high

    def _constraint_value(self, constraint: Element, modifiers: list[Modifier]) -> float:
        """A constraint's value after its unconditional modifiers."""
        written = str(number(constraint, "value", self._source))
        modified = apply_unconditional(written, constraint.get("id", ""), modifiers)
        try:
            value = float(modified)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise InputError(
                self._source,
                element_path(constraint),
                f"constraint value {modified!r} is not a number",
            )
        return value
