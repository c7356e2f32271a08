"""The AI's Tank Shocks, Rams and Death or Glory attacks (``docs/ai.md``).

Every chance comes from the rules' own functions: the Morale check's
(:func:`plans.leadership_pass_chance`), the attacks a model may stand with
(:func:`tank_shock.death_or_glory_options`, :func:`tank_shock.death_or_glory_attack`),
what one hit does to a vehicle (:func:`tank_shock.stop_chance`) and a Ram's
Strength (:func:`ramming.ram_strength`).
"""

from __future__ import annotations

from typing import Any

from hammerlab.editions.waffle.plans import leadership_pass_chance
from hammerlab.editions.waffle.ramming import ram_hit, ram_strength
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tank_shock import (
    RAM,
    ShockTarget,
    death_or_glory_attack,
    death_or_glory_options,
    shock_targets,
    stop_chance,
)
from hammerlab.editions.waffle.vehicles import FRONT, facing_of, vehicle_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.geometry import centre_distance
from hammerlab.engine.units import Unit

TANK_SHOCK_WORTH = 0.3
"""A Tank Shock is made when the chance the unit breaks, less the chance it passes
and a Death or Glory attack stops the Tank, is at least this (a Guardsman squad at
Ld 7 breaks with 15/36 ≈ 0.42; Marines at Ld 8 with 10/36 ≈ 0.28 are left alone)."""
RAM_WORTH = 0.25
"""A Ram is made when the chance it stops (or wrecks) the rammed vehicle, less the
chance the collision stops the rammer, is at least this."""
DEATH_OR_GLORY_WORTH = 1 / 3
"""A model stands against the Tank when its best attack stops it at least this often
(else it would most likely be crushed for nothing)."""


def best_stand(battle: Battle, tank_unit: Unit, victim: Unit) -> float:
    """The chance the best Death or Glory attack a model of ``victim`` could make stops
    ``tank_unit``'s Tank (0 when it has none)."""
    tank = tank_unit.alive_models[0]
    return max(
        (
            stop_chance(battle, tank, *death_or_glory_attack(battle, model, victim, weapon))
            for model in victim.alive_models
            for weapon in death_or_glory_options(model, victim, tank_unit)
        ),
        default=0.0,
    )


def shock_value(battle: Battle, unit: Unit, victim: Unit) -> float:
    """The chance ``victim`` breaks (fails its Morale check: Fearless never does, a
    unit already falling back takes none), less the chance it stands and stops the Tank
    with Death or Glory."""
    if st(battle, victim).falling_back:
        return 0.0
    stands = leadership_pass_chance(battle, victim, 0)  # with its own penalty this turn
    return (1.0 - stands) - stands * best_stand(battle, unit, victim)


def ram_value(battle: Battle, unit: Unit, target: ShockTarget) -> float:
    """The chance the Ram stops the rammed vehicle (its hit on the facing the Tank
    strikes from where it stands), less the chance the collision stops the Tank (the
    rammed vehicle's hit on its Front)."""
    tank = unit.alive_models[0]
    victim = min(
        target.enemy.alive_models, key=lambda m: centre_distance(tank.position, m.position)
    )
    mine, theirs = vehicle_of(tank.profile), vehicle_of(victim.profile)
    assert mine is not None and theirs is not None
    struck = facing_of(battle, target.enemy, victim, tank.position)
    dealt = ram_strength(mine, FRONT, target.at)
    taken = ram_strength(theirs, struck, target.at)
    gain = stop_chance(battle, victim, ram_hit(dealt), dealt, struck)
    return gain - stop_chance(battle, tank, ram_hit(taken), taken, FRONT)


def tank_shock_choice(battle: Battle, decision: Decision[Any]) -> int:
    """The Tank Shock or Ram worth most, if it is worth enough; else moving normally
    (choice 0)."""
    unit = battle.unit(decision.context.unit)
    targets = {(t.kind, t.enemy.id): t for t in shock_targets(battle, unit)}
    margins: list[tuple[float, int]] = []
    for i, choice in enumerate(decision.choices):
        if choice.value is None or choice.value not in targets:
            continue
        target = targets[choice.value]
        if target.kind == RAM:
            margin = ram_value(battle, unit, target) - RAM_WORTH
        else:
            margin = shock_value(battle, unit, target.enemy) - TANK_SHOCK_WORTH
        if margin >= 0.0:
            margins.append((margin, -i))
    return -max(margins)[1] if margins else 0


def death_or_glory_choice(battle: Battle, decision: Decision[Any]) -> int:
    """The attack most likely to stop the Tank, when it does so at least
    :data:`DEATH_OR_GLORY_WORTH` of the time; else none (choice 0)."""
    victim = battle.unit(decision.context.unit)
    tank_unit = battle.unit(decision.context.target)
    tank = tank_unit.alive_models[0]
    best, index = DEATH_OR_GLORY_WORTH, 0
    for i, choice in enumerate(decision.choices):
        if choice.value is None:
            continue
        model_id, weapon = choice.value
        model = next(m for m in victim.alive_models if m.id == model_id)
        chance = stop_chance(battle, tank, *death_or_glory_attack(battle, model, victim, weapon))
        if chance >= best:
            best, index = chance, i
    return index
