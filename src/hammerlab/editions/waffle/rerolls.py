"""The re-rolls a rule may give a unit against its foe: its To Hit rolls of 1, its To
Wound rolls of 1, every failed To Wound roll. Read here by the rules that roll the dice
(shooting, close combat, a Sweeping Advance's hits) and by the AI's estimates and the
exact odds alike, so that a plug-in giving one (docs/plugins.md) changes all of them.

Each gives the name of the rule that re-rolls (the log names it where the dice are
re-rolled), or ``""`` for none: the unit's own rule first (Preferred Enemy, Monster
Hunter), then the handlers installed on its hook point
(:data:`points.HIT_ONES_REROLLED`, :data:`points.WOUND_ONES_REROLLED`,
:data:`points.FAILED_WOUNDS_REROLLED`) in turn.
"""

from __future__ import annotations

from typing import TypedDict

from hammerlab.editions.waffle.points import (
    FAILED_WOUNDS_REROLLED,
    HIT_ONES_REROLLED,
    WOUND_ONES_REROLLED,
    RerollChange,
)
from hammerlab.editions.waffle.special_rules import monster_hunter, preferred_enemy
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Unit

PREFERRED_ENEMY = "Preferred Enemy"
MONSTER_HUNTER = "Monster Hunter"


def hit_ones_rerolled(battle: Battle, unit: Unit, foe: Unit) -> str:
    """The rule by which ``unit`` re-rolls its To Hit rolls of 1 against ``foe``:
    Preferred Enemy (:func:`special_rules.preferred_enemy`), as the rules installed
    change it (``""``: none)."""
    return _changed(battle, HIT_ONES_REROLLED, unit, foe, _preferred(unit))


def wound_ones_rerolled(battle: Battle, unit: Unit, foe: Unit) -> str:
    """The rule by which ``unit`` re-rolls its To Wound rolls of 1 against ``foe``:
    Preferred Enemy, as the rules installed change it (``""``: none)."""
    return _changed(battle, WOUND_ONES_REROLLED, unit, foe, _preferred(unit))


def failed_wounds_rerolled(battle: Battle, unit: Unit, foe: Unit) -> str:
    """The rule by which ``unit`` re-rolls every failed To Wound roll against ``foe``:
    Monster Hunter at a Monstrous Creature (:func:`special_rules.monster_hunter`), as
    the rules installed change it (``""``: none)."""
    own = MONSTER_HUNTER if monster_hunter(unit, foe) else ""
    return _changed(battle, FAILED_WOUNDS_REROLLED, unit, foe, own)


def _preferred(unit: Unit) -> str:
    return PREFERRED_ENEMY if preferred_enemy(unit) else ""


def _changed(
    battle: Battle, point: HookPoint[RerollChange], unit: Unit, foe: Unit, rule: str
) -> str:
    for handler in battle.hooks.get(point):
        rule = handler(battle, unit, foe, rule)
    return rule


class WoundRerolls(TypedDict):
    """:func:`wounds.roll_to_wound`'s re-roll arguments."""

    ones_by: str
    all_failed: bool


def wound_rerolls(battle: Battle, unit: Unit, foe: Unit) -> WoundRerolls:
    """The To Wound re-rolls ``unit`` has against ``foe``, as
    :func:`wounds.roll_to_wound` takes them (the rule re-rolling the 1s, and whether
    every failed roll is)."""
    return {
        "ones_by": wound_ones_rerolled(battle, unit, foe),
        "all_failed": bool(failed_wounds_rerolled(battle, unit, foe)),
    }


class VolleyRerolls(TypedDict):
    """:class:`odds.Volley`'s re-roll fields."""

    hit_ones: bool
    wound_ones: bool
    failed_wounds: bool


def volley_rerolls(battle: Battle, unit: Unit, foe: Unit) -> VolleyRerolls:
    """The re-rolls ``unit`` has against ``foe``, as an :class:`odds.Volley` counts them."""
    wound = wound_rerolls(battle, unit, foe)
    return {
        "hit_ones": bool(hit_ones_rerolled(battle, unit, foe)),
        "wound_ones": bool(wound["ones_by"]),
        "failed_wounds": wound["all_failed"],
    }
