"""Judging the conditions of a profile's modifiers by the selections a unit holds.

A catalogue import makes a unit's default selections (:mod:`.catalogue`), and
once they are made a condition that counts the selections of an entry inside
the unit is known: the Orks' "Warboss w/ Mega Armour" sets its Save to ``2+``
when its "Mega Armour" is selected once (``Orks - Codex.cat`` line 31362), and
that compulsory selection (min 1, max 1) is always made. Such a modifier applies,
or not, as BattleScribe would apply it to the unit as the import builds it.

What the unit's selections cannot tell is left unjudged, with the reason: a
modifier that repeats, a condition on anything but a count of selections, one
whose scope lies outside the unit (``force``, ``roster``), one counting a
category (no entry of the data), and one counting a selection whose number a
scenario may change (a unit's models, which ``size`` sets).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from functools import partial

from hammerlab.io.battlescribe.links import Library
from hammerlab.io.battlescribe.modifiers import Condition, Conditions, Modifier
from hammerlab.io.battlescribe.tree import Node

_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "equalTo": operator.eq,
    "notEqualTo": operator.ne,
    "atLeast": operator.ge,
    "atMost": operator.le,
    "greaterThan": operator.gt,
    "lessThan": operator.lt,
}


def judge_tree(tree: Node, library: Library) -> None:
    """Apply (or leave out) the conditional modifiers of the profiles in ``tree``,
    the unit's selections as made, judging each by the selections around it."""
    stack: list[tuple[Node, tuple[Node, ...]]] = [(tree, ())]
    while stack:
        node, above = stack.pop()
        path = (*above, node)
        judge = partial(_judge, path=path, library=library)
        node.profiles = [raw.judged(judge) for raw in node.profiles]
        stack.extend((child, path) for child in node.children)


def _judge(modifier: Modifier, path: tuple[Node, ...], library: Library) -> bool | str:
    """Whether ``modifier``'s conditions hold for the selection ``path[-1]`` (its
    profile's holder), ``path`` leading to it from the unit; or why that is unknown."""
    if modifier.repeats:
        return "it repeats"
    return True if modifier.when is None else _holds(modifier.when, path, library)


def _holds(when: Condition | Conditions, path: tuple[Node, ...], library: Library) -> bool | str:
    if isinstance(when, Condition):
        return _condition(when, path, library)
    verdicts = [_holds(member, path, library) for member in when.members]
    unknown = next((verdict for verdict in verdicts if isinstance(verdict, str)), None)
    if when.kind == "and":
        return False if False in verdicts else unknown or True
    if when.kind == "or":
        return True if True in verdicts else unknown or False
    return f"a condition group of type {when.kind!r}"


def _condition(condition: Condition, path: tuple[Node, ...], library: Library) -> bool | str:
    """Whether one condition holds: the selections of ``condition.child`` counted within
    its scope, per copy of the scope's selection, compared with its value."""
    compare = _COMPARE.get(condition.kind)
    if condition.field != "selections" or compare is None:
        return f"a condition on {condition.field!r} of type {condition.kind!r}"
    scope = _scope(condition.scope, path)
    if scope is None:
        return f"its scope {condition.scope!r} is outside the unit"
    entries = _entry_ids(condition.child, library)
    if not entries:
        return f"it counts {condition.child!r}, which is no entry of the data"
    try:
        value = float(condition.value)
    except ValueError:
        return f"its value {condition.value!r} is not a number"
    count = 0
    for node, moving in _below(scope, condition.deep):
        if node.ident in entries:
            if moving:
                return f"it counts {node.name!r}, whose number a scenario may change"
            count += node.count
    return compare(count / scope.count if scope.count else 0.0, value)


def _scope(scope: str, path: tuple[Node, ...]) -> Node | None:
    """The selection a condition counts within: the holder (``self``), its parent, or
    the nearest selection around it made from the entry ``scope``."""
    if scope == "self":
        return path[-1]
    if scope == "parent":
        return path[-2] if len(path) > 1 else None
    return next((node for node in reversed(path) if scope and node.ident == scope), None)


def _below(scope: Node, deep: bool) -> Iterator[tuple[Node, bool]]:
    """The selections inside ``scope`` (its own, or at any depth where ``deep``), each
    with whether its number may change (it, or a selection between, is variable)."""
    stack = [(child, child.variable) for child in scope.children]
    while stack:
        node, moving = stack.pop()
        yield node, moving
        if deep:
            stack.extend((child, moving or child.variable) for child in node.children)


def _entry_ids(child: str, library: Library) -> frozenset[str]:
    """The ids of the entries a condition's ``childId`` names: the entry itself, or
    every entry inside the group it names (links followed)."""
    found: set[str] = set()
    stack = [library.find(child)]
    seen: set[int] = set()
    while stack:
        element = stack.pop()
        if element is None or id(element) in seen:
            continue
        seen.add(id(element))
        if element.tag == "selectionEntry":
            found.add(element.get("id", ""))
        elif element.tag == "selectionEntryGroup":
            stack.extend(element.iterfind("selectionEntries/selectionEntry"))
            stack.extend(element.iterfind("selectionEntryGroups/selectionEntryGroup"))
            stack.extend(
                library.find(link.get("targetId", ""))
                for link in element.iterfind("entryLinks/entryLink")
            )
    return frozenset(found - {""})
