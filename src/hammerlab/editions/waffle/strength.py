"""The Strength a model's attack hits at, as a rule may change it: one function the
rules (shooting, blast markers and templates, close combat, Sweeping Advance, Death
or Glory, psychic beams) and the AI's estimates all read (docs/plugins.md).

Its hook point lives here, beside :mod:`toughness`'s, and is named in :mod:`points`
too.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.hook_points import waffle_point
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Model, Unit

StrengthChange = Callable[[Battle, Unit, Model, WeaponProfile, int], int]
"""``(battle, unit, model, weapon, s)``: the Strength the model's attack with the
weapon hits at after the rule."""

STRENGTH: HookPoint[StrengthChange] = waffle_point(
    "strength",
    "The Strength a model's attack with a weapon hits at, shooting and in close combat "
    "(after User, x2, +N and Furious Charge); each handler is given it so far. What they "
    "give is kept within 1 to 10.",
    takes=("battle", "unit", "model", "weapon", "s"),
)


def hit_strength(
    battle: Battle, unit: Unit, model: Model, weapon: WeaponProfile, strength: int
) -> int:
    """``strength``, the Strength ``model`` (of ``unit``) hits at with ``weapon`` by its
    profiles, as the rules installed on :data:`STRENGTH` change it (kept within 1 to
    10 where one does)."""
    rules = battle.hooks.get(STRENGTH)
    if not rules:
        return strength
    for rule in rules:
        strength = rule(battle, unit, model, weapon, strength)
    return min(10, max(1, strength))
