"""Beam and Nova witchfire powers (7th-edition Psychic phase).

7th edition: a Beam power is a line drawn from the Psyker out to the power's
range, through the target, and it hits every unit it passes over, friend and
foe; a Nova power hits every enemy unit within range ("nova powers
automatically target and hit every unit within range", a 2014 answer on the
Bell of Lost Souls forum; docs/rules/waffle.md, Psychic phase, lists what was
checked and what is remembered). Each unit hit suffers the power's shots as
automatic hits (``ND6`` rolled for each unit, :attr:`PsychicPower.hit_dice`),
wounded, saved and allocated by the shooting procedure's own functions
(``wounds.roll_to_wound``, ``allocation.allocate_wounds``; against a vehicle
``vehicle_damage.resolve_vehicle_hits``), from the Psyker's position.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.psychic_events import PowerHits
from hammerlab.editions.waffle.psychic_powers import PsychicPower
from hammerlab.editions.waffle.vehicle_damage import resolve_vehicle_hits
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import roll_to_wound, weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance, closest, touched
from hammerlab.engine.units import Model, Unit


def beam_line(psyker: Model, target: Unit, reach: float) -> LineString:
    """The Beam's line: from the Psyker's centre toward the centre of the target's
    closest model, ``reach`` inches beyond the Psyker's base (a range is measured
    from the base)."""
    aim = closest([psyker], target.alive_models)[0].position
    (x, y), length = psyker.position, psyker.radius + reach
    dx, dy = aim[0] - x, aim[1] - y
    norm = math.hypot(dx, dy) or 1.0
    return LineString([(x, y), (x + dx / norm * length, y + dy / norm * length)])


def beam_units(battle: Battle, unit: Unit, psyker: Model, line: LineString) -> list[Unit]:
    """Every unit but the Psyker's own with a model under ``line``, friend or foe,
    the closest to the Psyker first."""
    under = [u for u in battle.units.values() if u is not unit and touched(line, u.alive_models)]
    return sorted(
        under, key=lambda u: (min(base_distance(psyker, m) for m in u.alive_models), u.id)
    )


def power_hits(
    battle: Battle,
    unit: Unit,
    psyker: Model,
    power: PsychicPower,
    victims: list[Unit],
    orders: FireOrders,
) -> VolleyResult:
    """Each unit of ``victims`` suffers the power's hits, resolved like shooting hits
    from the Psyker; what they caused (casualties, Pinning) is returned."""
    assert power.weapon is not None
    profile = weapon_of(power.weapon)
    result = VolleyResult()
    for victim in victims:
        if victim.destroyed:
            continue
        if power.hit_dice:
            count = battle.dice.total(power.hit_dice, f"{power.name} hits on {victim.label}")
        else:
            count = profile.shots
        battle.emit(PowerHits(power=power.name, unit=victim.label, hits=count))
        hits = [Hit(victim, weapon_strength(battle, unit, psyker, profile), psyker)] * count
        if is_vehicle(victim):
            resolve_vehicle_hits(battle, unit, victim, hits, profile, orders, result)
            continue
        wounds = roll_to_wound(battle, victim, hits, profile)
        allocate_wounds(battle, unit, victim, wounds, profile, orders, result, [psyker])
    return result
