"""What core11 measures on the table: engagement, range, sight and cover.

All distances are base to base, in inches, as the engine measures them.
"""

from __future__ import annotations

from hammerlab.editions.core11.profiles import model_keywords
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance, gap_table, out_of_reach
from hammerlab.engine.units import Model, Unit

ENGAGEMENT_RANGE = 2.0
"""03.04: "A model's engagement range is the area of the battlefield within 2"
horizontally and 5" vertically of it. While a friendly model is within
engagement range of one or more enemy models, those models – and the units they
belong to – are engaged with each other. While a unit contains no engaged
models, that unit is unengaged."

Measured base to base on the flat table (the engine has no height, so the 5"
vertical part always holds).
"""
COVER_KINDS = frozenset({"INFANTRY", "BEASTS", "SWARM"})
"""13.08: "That model has the INFANTRY/BEASTS/SWARM keyword and is within a terrain area." """


def engaged_with(battle: Battle, unit: Unit) -> list[Unit]:
    """Enemy units within engagement range of ``unit`` (every pair of models measured
    at once and remembered while they stand still: :func:`geometry.gap_table`;
    units surely out of range, :func:`geometry.out_of_reach`, are not measured)."""
    ours = unit.alive_models
    return [
        enemy
        for enemy in battle.enemies_of(unit)
        if not out_of_reach(ours, theirs := enemy.alive_models, ENGAGEMENT_RANGE)
        and any(gap <= ENGAGEMENT_RANGE for row in gap_table(ours, theirs) for gap in row)
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


def closest_model(unit: Unit, target: Unit) -> Model:
    """The model alive of ``target`` closest to any model alive of ``unit``."""
    pairs = [(m, t) for m in unit.alive_models for t in target.alive_models]
    return min(pairs, key=lambda pair: base_distance(*pair))[1]


def sees(battle: Battle, model: Model, unit: Unit) -> bool:
    """Whether ``model`` can see at least one model alive of ``unit``."""
    return any(battle.battlefield.can_see(model.position, m.position) for m in unit.alive_models)


def spotted(battle: Battle, player: str, unit: Unit) -> bool:
    """Whether ``unit`` is visible to one or more units of ``player``'s army."""
    return any(sees(battle, m, unit) for u in battle.units_of(player) for m in u.alive_models)


def has_cover(battle: Battle, model: Model, unit: Unit) -> bool:
    """Whether ``unit`` has the benefit of cover against ``model``'s ranged attacks.

    13.08: "Each time a ranged attack targets a unit, if every model in that unit
    meets one or more of the following conditions, that unit has the benefit of
    cover against that attack: That model has the INFANTRY/BEASTS/SWARM keyword
    and is within a terrain area. That model is not fully visible to the
    attacking model due to one or more intervening terrain features and/or one or
    more intervening obscuring terrain areas (13.10)."

    On hammerlab's flat table a terrain area takes part when the scenario says it
    gives cover (``cover = N``); a model is "not fully visible due to intervening
    terrain" when the line from the attacking model to it crosses such an area
    that neither of them stands in.
    """
    field = battle.battlefield

    def covered(target: Model) -> bool:
        inside = [a for a in field.areas_at(target.position) if a.cover_save is not None]
        if inside and COVER_KINDS & model_keywords(unit, target):
            return True
        return any(
            not area.contains(target.position)
            for area in field.cover_between(model.position, target.position)
        )

    models = unit.alive_models
    return bool(models) and all(covered(m) for m in models)
