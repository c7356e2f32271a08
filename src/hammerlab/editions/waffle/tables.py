"""The Waffle Edition's charts, as data.

The melee chart is transcribed cell by cell from seed 001/002 ("To Hit
Chart"; your Weapon Skill on the left column, enemy Weapon Skill on the top
row); where the prose under it disagrees, the chart wins (see
``docs/rules/waffle.md``). The ranged to-hit and to-wound charts are the
6th/7th-edition ones the seeds build on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

MELEE_TO_HIT: Final[tuple[tuple[str, ...], ...]] = (
    # enemy WS: 1     2     3     4     5     6     7     8     9     10
    ("4+", "5+", "5+", "5+", "6+", "6+", "6+", "6+", "6+", "6+"),  # WS 1
    ("3+", "4+", "4+", "5+", "5+", "5+", "6+", "6+", "6+", "6+"),  # WS 2
    ("2+", "3+", "4+", "4+", "4+", "5+", "5+", "5+", "6+", "6+"),  # WS 3
    ("2+", "3+", "3+", "4+", "4+", "4+", "4+", "5+", "5+", "5+"),  # WS 4
    ("2+", "2+", "3+", "3+", "4+", "4+", "4+", "4+", "4+", "5+"),  # WS 5
    ("2+", "2+", "3+", "3+", "3+", "4+", "4+", "4+", "4+", "4+"),  # WS 6
    ("2+", "2+", "2+", "3+", "3+", "3+", "4+", "4+", "4+", "4+"),  # WS 7
    ("2+", "2+", "2+", "3+", "3+", "3+", "3+", "4+", "4+", "4+"),  # WS 8
    ("2+", "2+", "2+", "2+", "3+", "3+", "3+", "3+", "4+", "4+"),  # WS 9
    ("A", "A", "A", "A", "3+", "3+", "3+", "3+", "3+", "4+"),  # WS 10
)
"""Seed 001 "To Hit Chart"; ``"A"`` is written in the chart and means an automatic hit."""


def melee_cell(attacker_ws: int, target_ws: int) -> str:
    """The chart's cell for WS ``attacker_ws`` attacking WS ``target_ws`` (1..10)."""
    return MELEE_TO_HIT[_clamp(attacker_ws) - 1][_clamp(target_ws) - 1]


def to_wound_cell(strength: int, toughness: int) -> str:
    """6th/7th-edition To Wound chart: ``"2+"``..``"6+"`` or ``"-"`` (cannot wound).

    S = T needs 4+; each point of S above T is one better, down to 2+; each
    point below is one worse, to 6+ at two or three below; four or more
    below cannot wound.
    """
    diff = _clamp(strength) - _clamp(toughness)
    if diff <= -4:
        return "-"
    return f"{min(6, max(2, 4 - diff))}+"


def to_wound_target(strength: int, toughness: int) -> int | None:
    """The D6 result needed to wound, or ``None`` if it cannot."""
    cell = to_wound_cell(strength, toughness)
    return None if cell == "-" else int(cell[0])


def overwhelming(strength: int, toughness: int, at: int = 10) -> bool:
    """Seed 000, Overwhelming Strength.

    "When an attack with S10 (And S10 only!) would need a 1+ or less to wound
    a target, it instead causes this wound automatically" — extending the
    chart's step of one per point, S10 needs 1+ or less against T7 or lower.
    ``at`` is the ruleset parameter ``overwhelming_strength``.
    """
    return strength == at and 4 - (strength - toughness) <= 1


@lru_cache(maxsize=256, typed=True)
def ballistic_target(bs: int) -> tuple[int, int | None]:
    """6th/7th-edition BS chart: (D6 needed, re-roll needed for a miss or ``None``).

    BS 1..5 hit on 6+..2+; from BS 6 a miss may be re-rolled, hitting on
    6+ (BS 6), 5+ (BS 7), 4+ (BS 8), 3+ (BS 9), 2+ (BS 10). Remembered (a function of
    the number): every model's dice to hit ask it twice (:func:`miss_reroll`); by type
    too, so a plug-in's ``4.0`` is given the ``3.0`` it works out, not an ``int``'s ``3``.
    """
    bs = _clamp(bs)
    if bs <= 5:
        return 7 - bs, None
    return 2, 12 - bs


@lru_cache(maxsize=256, typed=True)
def miss_reroll(bs: int, twin_linked: bool) -> int | None:
    """The score a re-rolled miss needs, or ``None`` when a miss is not re-rolled.

    6th/7th edition: from BS 6 a miss (a 1) is re-rolled on the chart's second
    number (:func:`ballistic_target`); Twin-linked: "re-roll failed To Hit
    rolls", needing the normal score. A die is re-rolled only once, so a
    twin-linked weapon at BS 6+ takes the better re-roll: its normal 2+.
    Higher BS therefore never hits less often (docs/rules/waffle.md). Remembered, as
    :func:`ballistic_target` is.
    """
    needed, reroll = ballistic_target(bs)
    return needed if twin_linked else reroll


def snap_shot_bs(bs: int, divisor: int = 2, minimum: int = 1) -> int:
    """Seed 000, Snap Shots: BS "divided by 2 (always round down) to a minimum of BS 1".

    ``divisor`` and ``minimum`` are the ruleset parameters ``snap_shot_divisor``
    and ``snap_shot_minimum_bs``.
    """
    return max(minimum, bs // divisor)


def _clamp(value: int) -> int:
    return min(10, max(1, value))
