"""BattleScribe modifiers: which ones apply without a roster, and their effect.

A modifier changes a field of its parent (a characteristic, a name, a
constraint's value...) with ``set``, ``append``, ``increment`` or
``decrement``. One with conditions or repeats depends on what a roster has
selected; an importer of datasheets cannot evaluate those, so only
unconditional modifiers are applied and the others are reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element

_CONDITION_TAGS = ("conditions", "conditionGroups", "repeats")


@dataclass(frozen=True)
class Modifier:
    """One modifier, flattened out of any modifier groups."""

    kind: str
    field: str
    value: str
    conditional: bool


def modifiers_of(*elements: Element | None) -> Iterator[Modifier]:
    """The modifiers declared on ``elements`` (a link, then its target)."""
    for element in elements:
        if element is not None:
            yield from _collect(element, conditional=False)


def _collect(element: Element, conditional: bool) -> Iterator[Modifier]:
    for modifier in element.iterfind("modifiers/modifier"):
        yield Modifier(
            kind=modifier.get("type", ""),
            field=modifier.get("field", ""),
            value=modifier.get("value", ""),
            conditional=conditional or _has_conditions(modifier),
        )
    for group in element.iterfind("modifierGroups/modifierGroup"):
        yield from _collect(group, conditional or _has_conditions(group))


def _has_conditions(element: Element) -> bool:
    return any(len(child) for child in element if child.tag in _CONDITION_TAGS)


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
