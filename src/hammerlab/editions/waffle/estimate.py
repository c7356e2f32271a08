"""Quick expected values for the AI: average casualties of a shooting attack.

Averages, not distributions: good enough to rank targets, cheap enough to run
for every choice. Exact odds live in ``hammerlab.analysis``.
"""

from __future__ import annotations

from hammerlab.editions.waffle.attacks import fires_snap, firing_models, ranged_weapons, shots_of
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.tables import (
    ballistic_target,
    miss_reroll,
    overwhelming,
    to_wound_target,
)
from hammerlab.editions.waffle.wounds import majority_toughness, typical_profile
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def p_at_least(needed: int) -> float:
    """Chance of rolling ``needed`` or more on a D6."""
    return max(0.0, min(1.0, (7 - needed) / 6))


def p_hit(bs: int, twin_linked: bool = False) -> float:
    """Chance one shot hits with ``bs``: a miss is re-rolled from BS 6, or when
    the weapon is twin-linked (:func:`tables.miss_reroll`), as
    :func:`attacks.roll_to_hit` does."""
    needed = ballistic_target(bs)[0]
    reroll = miss_reroll(bs, twin_linked)
    first = p_at_least(needed)
    return first if reroll is None else first + (1 - first) * p_at_least(reroll)


def expected_casualties(
    battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders
) -> float:
    """Expected models removed from ``target`` by one weapon of ``unit``."""
    models = firing_models(battle, unit, target, weapon_name, orders)
    if not models or target.destroyed:
        return 0.0
    typical = typical_profile(target)
    tstats = stats_of(typical)
    toughness = majority_toughness(target)
    expected_wounds = 0.0
    for model in models:
        weapon = model.weapon(weapon_name)
        if weapon is None:
            continue
        profile = weapon_of(weapon)
        snap = fires_snap(unit, profile, orders)
        if snap and not profile.can_snap_fire:
            continue
        bs = stats_of(model.profile).bs
        bs = max(1, bs // 2) if snap else bs
        shots = shots_of(battle, unit, model, profile, target)
        hits = shots * (1.0 if profile.template else p_hit(bs))
        if profile.blast or profile.template:
            hits *= min(3, len(target.alive_models))
        strength = profile.strength.resolve(stats_of(model.profile).s)
        needed = to_wound_target(strength, toughness)
        wound = 1.0 if overwhelming(strength, toughness) else p_at_least(needed or 7)
        saves = [tstats.invulnerable or 7]
        if tstats.sv is not None and (profile.ap is None or profile.ap > tstats.sv):
            saves.append(tstats.sv)
        unsaved = 1 - p_at_least(min(saves))
        per_model = 1.0 if strength >= 2 * tstats.t else 1.0 / max(1, tstats.w)
        expected_wounds += hits * wound * unsaved * per_model
    return min(expected_wounds, float(len(target.alive_models)))


def expected_per_model(
    battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders
) -> float:
    """Expected casualties per firing model: which weapon a model should fire first."""
    models = firing_models(battle, unit, target, weapon_name, orders)
    if not models:
        return 0.0
    return expected_casualties(battle, unit, target, weapon_name, orders) / len(models)


def expected_attack(battle: Battle, unit: Unit, target: Unit, orders: FireOrders) -> float:
    """Expected casualties of all the unit's weapons (each model's best weapon)."""
    return sum(expected_casualties(battle, unit, target, w, orders) for w in ranged_weapons(unit))
