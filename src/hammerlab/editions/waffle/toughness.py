"""The Toughness a model has, as a rule may change it: one function the rules that
roll To Wound and Instant Death and the AI's estimates all read (docs/plugins.md).

Its hook point lives here rather than among the others (:mod:`points`, which names
it too) because the Artillery rules read a gun's Toughness, and the module of hook
points depends, through the orders and the edition's state, on the Artillery rules.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.hook_points import waffle_point
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Model, Unit

ToughnessChange = Callable[[Battle, Unit, Model, int], int]
"""``(battle, unit, model, t)``: the Toughness the model has after the rule."""

TOUGHNESS: HookPoint[ToughnessChange] = waffle_point(
    "toughness",
    "The Toughness a model is wounded at (its unit's majority, shooting and close combat; "
    "its own for Instant Death and a hit on it alone); each handler is given it so far.",
    takes=("battle", "unit", "model", "t"),
)


def toughness(battle: Battle, unit: Unit, model: Model) -> int:
    """The Toughness ``model`` (of ``unit``) has, as the rules installed on
    :data:`TOUGHNESS` change it: what Instant Death, a hit on the model alone (a
    Sweeping Advance's) and a unit's majority Toughness (:func:`wounds.unit_toughness`)
    read."""
    value = stats_of(model.profile).t
    for rule in battle.hooks.get(TOUGHNESS):
        value = rule(battle, unit, model, value)
    return value
