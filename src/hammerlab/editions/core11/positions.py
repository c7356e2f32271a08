"""What core11 measures on the table: engagement, range, sight and cover.

All distances are base to base, in inches, as the engine measures them.
"""

from __future__ import annotations

from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

ENGAGEMENT_RANGE = 1.0
"""A unit is *engaged* while one of its models is within 1" of an enemy model.

The seed uses "engaged" without defining it; 1" is the engagement range of the
current edition's core rules (measured flat: the engine's table has no height).
"""


def engaged_with(battle: Battle, unit: Unit) -> list[Unit]:
    """Enemy units within engagement range of ``unit``."""
    return [
        enemy
        for enemy in battle.enemies_of(unit)
        if any(
            base_distance(m, e) <= ENGAGEMENT_RANGE
            for m in unit.alive_models
            for e in enemy.alive_models
        )
    ]


def is_engaged(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` is engaged."""
    return bool(engaged_with(battle, unit))


def distance_to(model: Model, unit: Unit) -> float:
    """Distance from ``model`` to the closest model alive of ``unit``."""
    return min((base_distance(model, m) for m in unit.alive_models), default=float("inf"))


def unit_distance(a: Unit, b: Unit) -> float:
    """Distance between the closest models of two units."""
    return min((distance_to(m, b) for m in a.alive_models), default=float("inf"))


def sees(battle: Battle, model: Model, unit: Unit) -> bool:
    """Whether ``model`` can see at least one model alive of ``unit``."""
    return any(battle.battlefield.can_see(model.position, m.position) for m in unit.alive_models)


def spotted(battle: Battle, player: str, unit: Unit) -> bool:
    """Whether ``unit`` is visible to one or more units of ``player``'s army."""
    return any(sees(battle, m, unit) for u in battle.units_of(player) for m in u.alive_models)


def has_cover(battle: Battle, model: Model, unit: Unit) -> bool:
    """Whether ``unit`` has the benefit of cover against ``model``'s attacks.

    13.08 is referred to by the seed without its text. hammerlab's reading:
    the target has the benefit of cover when every one of its models that the
    attacking model can see (all of them, if it sees none) is inside, or seen
    through, a terrain area that gives cover. A scenario's ``cover`` value on
    a terrain area only says *that* it gives cover in core11.
    """
    field = battle.battlefield
    seen = [m for m in unit.alive_models if field.can_see(model.position, m.position)]
    targets = seen or unit.alive_models
    return bool(targets) and all(field.cover_between(model.position, m.position) for m in targets)
