"""BattleScribe modifiers: which ones apply without a roster, and their effect.

A modifier changes a field of its parent (a characteristic, a name, a
constraint's value...) with ``set``, ``append``, ``increment`` or
``decrement``. One with conditions depends on what is selected: its conditions
are kept (:class:`Conditions`) for the catalogue importer to evaluate against
the selections it made (:mod:`.conditions`); one with repeats is never
evaluated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element


@dataclass(frozen=True)
class Condition:
    """One ``<condition>``: how a count (``field``: ``selections``...) of the selections
    of the entry or group ``child`` within ``scope`` (``self``, ``parent``, an entry's
    id, ``force``...) compares (``kind``: ``equalTo``, ``atLeast``...) with ``value``."""

    field: str
    scope: str
    child: str
    kind: str
    value: str
    deep: bool
    """``includeChildSelections``: count selections at any depth below the scope,
    not only its own."""


@dataclass(frozen=True)
class Conditions:
    """Conditions and condition groups joined by ``kind`` (``and``, ``or``)."""

    kind: str
    members: tuple[Condition | Conditions, ...]


@dataclass(frozen=True)
class Modifier:
    """One modifier, flattened out of any modifier groups."""

    kind: str
    field: str
    value: str
    when: Conditions | None = None
    """Its conditions (and those of the groups around it); ``None``: none."""
    repeats: bool = False
    """Whether it (or a group around it) repeats: never evaluated."""

    @property
    def conditional(self) -> bool:
        """Whether it depends on what is selected (conditions or repeats)."""
        return self.when is not None or self.repeats


def modifiers_of(*elements: Element | None) -> Iterator[Modifier]:
    """The modifiers declared on ``elements`` (a link, then its target)."""
    for element in elements:
        if element is not None:
            yield from _collect(element, None, False)


def _collect(element: Element, when: Conditions | None, repeats: bool) -> Iterator[Modifier]:
    """The modifiers of ``element``, each under the groups around it: their conditions
    ``when`` (``None``: none) joined to its own, and repeating if ``repeats`` (a group
    around it repeats) or it does."""
    for modifier in element.iterfind("modifiers/modifier"):
        yield Modifier(
            kind=modifier.get("type", ""),
            field=modifier.get("field", ""),
            value=modifier.get("value", ""),
            when=_joined(when, _conditions(modifier)),
            repeats=repeats or _repeats(modifier),
        )
    for group in element.iterfind("modifierGroups/modifierGroup"):
        yield from _collect(group, _joined(when, _conditions(group)), repeats or _repeats(group))


def _conditions(element: Element, kind: str = "and") -> Conditions | None:
    """The conditions and condition groups of ``element`` joined by ``kind``; ``None``:
    it has none."""
    members: list[Condition | Conditions] = [
        Condition(
            field=condition.get("field", ""),
            scope=condition.get("scope", ""),
            child=condition.get("childId", ""),
            kind=condition.get("type", ""),
            value=condition.get("value", ""),
            deep=condition.get("includeChildSelections") == "true",
        )
        for condition in element.iterfind("conditions/condition")
    ]
    for group in element.iterfind("conditionGroups/conditionGroup"):
        inner = _conditions(group, group.get("type", ""))
        if inner is not None:
            members.append(inner)
    return Conditions(kind, tuple(members)) if members else None


def _joined(outer: Conditions | None, inner: Conditions | None) -> Conditions | None:
    if outer is None or inner is None:
        return inner if outer is None else outer
    return Conditions("and", (outer, inner))


def _repeats(element: Element) -> bool:
    return any(len(child) for child in element if child.tag == "repeats")


def apply(value: str, modifier: Modifier) -> str | None:
    """``value`` as an unconditional ``modifier`` changes it.

    ``append`` joins with a space unless the appended text starts with
    punctuation (``", One Use Only"``). Returns ``None`` when the modifier
    cannot act on this value (``increment`` on ``"3+"``, an unknown type).
    """
    if modifier.kind == "set":
        return modifier.value
    if modifier.kind == "append":
        addition = modifier.value
        if not value or addition[:1] in {",", ";", ".", ")", " "}:
            return value + addition
        return f"{value} {addition}"
    if modifier.kind in {"increment", "decrement"}:
        try:
            current, step = float(value), float(modifier.value)
        except ValueError:
            return None
        result = current + step if modifier.kind == "increment" else current - step
        return str(int(result)) if result.is_integer() else str(result)
    return None


def apply_unconditional(value: str, field: str, modifiers: list[Modifier]) -> str:
    """``value`` after the unconditional modifiers of ``field`` that can apply."""
    for modifier in modifiers:
        if field and modifier.field == field and not modifier.conditional:
            value = apply(value, modifier) or value
    return value
