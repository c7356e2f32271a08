"""Ramming (7th edition): a Tank's Tank Shock that meets an enemy vehicle.

7th edition, quoted from a public transcription of the rulebook's *Tanks*
page (scoolov.github.io/wh40000rules): "When moving a vehicle with the Tank
type, the player can declare that it is going to attempt to Tank Shock or Ram
instead of moving normally." The collision, from memory of the rulebook (no
public copy of its text was found): "each vehicle immediately suffers a hit
against the armour facing where the other vehicle has impacted (so the
rammer always uses its front armour)", at a Strength of

* Armour: +1 for each point of Armour Value above 10 on the facing that
  makes the impact;
* Speed: +1 for each full 3" the rammer moved before the impact;
* Mass: +1 if the vehicle is a Tank;

and "Ramming is a rather desperate manoeuvre … it … may only shoot Snap
Shots in that turn's Shooting phase". The hits are resolved like any hit on
a vehicle (``vehicle_damage.strike_vehicle``: armour penetration, an
invulnerable save, Hull Points and the Vehicle Damage table).
"""

from __future__ import annotations

from hammerlab.editions.waffle.armour import armour_attack
from hammerlab.editions.waffle.profiles import StrengthSpec, WeaponProfile, single_hit
from hammerlab.editions.waffle.tank_shock_events import RamCollision
from hammerlab.editions.waffle.vehicle_damage import strike_vehicle
from hammerlab.editions.waffle.vehicles import (
    FRONT,
    VehicleProfile,
    facing_of,
    vehicle_of,
    vehicle_status,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

ARMOUR_BASE = 10
"""Armour: +1 "for each point of Armour Value above 10"."""
SPEED_STEP = 3.0
"""Speed: +1 "for each full 3"" moved before the impact."""
MAX_STRENGTH = 10


def ram_strength(vehicle: VehicleProfile, facing: str, moved: float) -> int:
    """The Strength of the hit a vehicle deals with its ``facing`` in a Ram after the
    rammer moved ``moved`` inches: Armour + Speed + Mass (at least 0, at most 10)."""
    armour = max(0, vehicle.armour(facing) - ARMOUR_BASE)
    speed = int(moved // SPEED_STEP)
    mass = int(vehicle.has_type("Tank"))
    return min(MAX_STRENGTH, armour + speed + mass)


def ram_hit(strength: int) -> WeaponProfile:
    """The hit of a Ram: Strength ``strength``, no AP (so -1 on the damage table, as
    for any AP- hit), no weapon rules."""
    return single_hit("Ram", StrengthSpec(strength))


def ram(battle: Battle, rammer: Unit, rammed: Unit, target: Model, moved: float) -> None:
    """The collision of ``rammer``'s Tank with vehicle ``target`` of ``rammed`` after
    ``moved`` inches: both Strengths are worked out first, then the rammed vehicle
    suffers its hit (on the facing the rammer struck, by the rammer's position:
    ``vehicles.facing_of``), then the rammer suffers its hit on its Front armour if it
    is still there. The rammer fires only Snap Shots this turn."""
    tank = rammer.alive_models[0]
    mine, theirs = vehicle_of(tank.profile), vehicle_of(target.profile)
    assert mine is not None and theirs is not None
    struck = facing_of(battle, rammed, target, tank.position)
    on_target = ram_strength(mine, FRONT, moved)
    on_rammer = ram_strength(theirs, struck, moved)
    battle.emit(RamCollision(rammer.label, rammed.label, on_rammer, on_target, struck))
    vehicle_status(battle, tank).rammed = True
    hit = ram_hit(on_target)
    attack = armour_attack(hit, on_target, half_range=False, tank_hunters=False)
    strike_vehicle(battle, rammer, rammed, target, attack, struck, hit, tank, cover=False)
    if rammer.destroyed:
        return
    back = ram_hit(on_rammer)
    attack = armour_attack(back, on_rammer, half_range=False, tank_hunters=False)
    strike_vehicle(battle, rammed, rammer, tank, attack, FRONT, back, target, cover=False)
