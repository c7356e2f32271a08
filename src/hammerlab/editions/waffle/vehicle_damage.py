"""Hits on vehicles: facing, saves, Hull Points and the Vehicle Damage table (7th edition).

Shooting (:func:`resolve_vehicle_hits`) and close combat
(:func:`resolve_blows_on_vehicle`) both end in :func:`damage_vehicle`. The
table and its modifiers are :func:`damage_result` and :func:`damage_modifier`;
the chances built on them (odds, AI) are :func:`damage_chances`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from hammerlab.editions.waffle.allocation import (
    allocate_wounds,
    save_taken,
    shot_origin,
    wounds_from,
)
from hammerlab.editions.waffle.armour import (
    NONE,
    PENETRATING,
    ArmourAttack,
    armour_attack,
    effective_armour,
    roll_penetration,
)
from hammerlab.editions.waffle.morale import pinning_test
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult, WoundRoll
from hammerlab.editions.waffle.profiles import StrengthSpec, WeaponProfile, single_hit
from hammerlab.editions.waffle.state import remove_casualty
from hammerlab.editions.waffle.transports import bail_out
from hammerlab.editions.waffle.vehicle_events import (
    ArmourPenetration,
    VehicleDamaged,
    VehicleDestroyed,
)
from hammerlab.editions.waffle.vehicles import (
    FRONT,
    REAR,
    SIDE,
    VehicleProfile,
    facing_of,
    is_immobilised,
    is_vehicle,
    vehicle_of,
    vehicle_status,
)
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec, base_distance
from hammerlab.engine.units import Model, Unit

CREW_SHAKEN, CREW_STUNNED = "Crew Shaken", "Crew Stunned"
WEAPON_DESTROYED, IMMOBILISED, EXPLODES = "Weapon Destroyed", "Immobilised", "Explodes!"
WRECKED = "Wrecked"
DAMAGE_TABLE = ((3, CREW_SHAKEN), (4, CREW_STUNNED), (5, WEAPON_DESTROYED), (6, IMMOBILISED))
"""7th-edition Vehicle Damage table, D6 (modified): "1-3 Crew Shaken, 4 Crew Stunned,
5 Weapon Destroyed, 6 Immobilised, 7+ Explodes!" (highest score of each row)."""
EXPLOSION_STRENGTH = 4
"""Explodes!: "Nearby units suffer a Strength 4, AP- hit for each of their models within
D6"" (7th edition; 6th edition's was Strength 3)."""
EXPLOSION = single_hit("Explosion", StrengthSpec(EXPLOSION_STRENGTH), base_type="Assault")
"""The hits of an exploding vehicle, resolved "just like hits from shooting"."""


def damage_result(score: int) -> str:
    """The Vehicle Damage table's result for a modified roll of ``score``."""
    return next((result for top, result in DAMAGE_TABLE if score <= top), EXPLODES)


def damage_modifier(ap: int | None, open_topped: bool) -> int:
    """Vehicle Damage table modifiers (7th edition): "AP2 +1, AP1 +2, AP- −1,
    Open-topped +1" (cumulative)."""
    by_ap = -1 if ap is None else {1: 2, 2: 1}.get(ap, 0)
    return by_ap + int(open_topped)


def damage_chances(modifier: int) -> dict[str, Fraction]:
    """Exact chance of each Vehicle Damage table result for one penetrating hit."""
    chances: dict[str, Fraction] = {}
    for die in range(1, 7):
        result = damage_result(die + modifier)
        chances[result] = chances.get(result, Fraction(0)) + Fraction(1, 6)
    return chances


def resolve_vehicle_hits(
    battle: Battle,
    shooter: Unit,
    victim: Unit,
    hits: list[Hit],
    profile: WeaponProfile,
    orders: FireOrders,
    result: VolleyResult,
) -> None:
    """Shooting hits on a vehicle unit, one at a time (7th edition).

    Each hit strikes the closest vehicle of the unit to its firer (a Barrage hit's: to
    its marker's centre, whence its cover is judged too: :func:`allocation.shot_origin`),
    on the facing the firer stands in (:func:`vehicles.facing_of`; Barrage weapons
    always strike the Side armour, as the 7th edition has it). The firer's
    range for Melta is measured to that vehicle. A glancing or penetrating hit
    may be saved by a cover save (7th edition: a vehicle 25% obscured, as
    hammerlab judges cover for every model, ``visibility.cover_save``) or an
    invulnerable save; Ignores Cover stops the cover save.
    """
    tank_hunters = shooter.has_rule("Tank Hunters")
    for hit in hits:
        alive = victim.alive_models
        if not alive:
            return
        origin = shot_origin(profile, hit.marker)
        (measured,) = wounds_from(origin, [hit.source])
        model = min(alive, key=lambda m: base_distance(measured, m))
        facing = SIDE if profile.barrage else facing_of(battle, victim, model, hit.source.position)
        half = profile.range is not None and base_distance(hit.source, model) <= profile.range / 2
        attack = armour_attack(profile, hit.strength, half_range=half, tank_hunters=tank_hunters)
        scored, destroyed = strike_vehicle(
            battle, shooter, victim, model, attack, facing, profile, hit.source, cover=True,
            origin=origin,
        )  # fmt: skip
        result.unsaved[victim.id] += int(scored)
        result.casualties[victim.id] += int(destroyed)


def resolve_blows_on_vehicle(
    battle: Battle,
    attacker: Unit,
    victim: Unit,
    strengths: list[int],
    profile: WeaponProfile,
    strikers: Sequence[Model],
) -> tuple[int, int]:
    """Close combat hits on a vehicle: 7th edition, "armour penetration … against the
    vehicle's rear armour" (Walkers: the facing the attacker stands in, as shooting —
    hammerlab uses the Front, the facing a Walker turns to its foes); no saves but an
    invulnerable one. Returns (glancing or penetrating hits, vehicles destroyed).

    ``strikers`` are the models whose blows these are, as the Initiative step began:
    models slain in the same step still strike (seed 001's simultaneous blows), so
    their unit may have no model left by now; the hits go to the vehicle nearest them.
    """
    tank_hunters = attacker.has_rule("Tank Hunters")
    scored = destroyed = 0
    for strength in strengths:
        alive = victim.alive_models
        if not alive:
            break
        model = min(alive, key=lambda m: min(base_distance(a, m) for a in strikers))
        vehicle = vehicle_of(model.profile)
        assert vehicle is not None
        facing = blow_facing(vehicle)
        attack = armour_attack(profile, strength, half_range=False, tank_hunters=tank_hunters)
        source = strikers[0]
        hit, wrecked = strike_vehicle(
            battle, attacker, victim, model, attack, facing, profile, source, cover=False
        )
        scored += hit
        destroyed += wrecked
    return scored, destroyed


def strike_vehicle(
    battle: Battle,
    attacker: Unit,
    victim: Unit,
    model: Model,
    attack: ArmourAttack,
    facing: str,
    profile: WeaponProfile,
    source: Model,
    *,
    cover: bool,
    origin: Vec | None = None,
) -> tuple[bool, bool]:
    """One hit on vehicle ``model`` on ``facing``: armour penetration, then a save (an
    invulnerable one; a cover save too with ``cover``, judged from ``origin`` where the
    shot counts as coming from there: :func:`allocation.shot_origin`), then
    :func:`damage_vehicle`.
    Returns (a glancing or penetrating hit not saved, the vehicle destroyed). Shooting,
    close combat, Death or Glory and Ramming all strike through this."""
    outcome = _penetrate(battle, victim, model, attack, facing, profile.name)
    if outcome == NONE:
        return False, False
    wound = WoundRoll(attack.strength, profile.ap, source)
    if save_taken(battle, victim, model, wound, profile, cover, origin):
        return False, False
    return True, damage_vehicle(battle, attacker, victim, model, outcome, profile.ap)


def blow_facing(vehicle: VehicleProfile) -> str:
    """The facing close combat blows strike: the Rear (7th edition), a Walker's Front
    (hammerlab: a Walker turns to face its foes)."""
    return FRONT if vehicle.has_type("Walker") else REAR


def _penetrate(
    battle: Battle, victim: Unit, model: Model, attack: ArmourAttack, facing: str, weapon: str
) -> str:
    vehicle = vehicle_of(model.profile)
    assert vehicle is not None
    armour = vehicle.armour(facing)
    roll = roll_penetration(battle.dice, attack, armour, f"{weapon} on {model.id}")
    battle.emit(
        ArmourPenetration(
            unit=victim.label,
            model=model.id,
            weapon=weapon,
            facing=facing,
            armour=effective_armour(attack, armour),
            strength=attack.strength,
            dice=roll.dice,
            result=roll.result,
        )
    )
    return roll.result


def damage_vehicle(
    battle: Battle, attacker: Unit, victim: Unit, model: Model, outcome: str, ap: int | None
) -> bool:
    """A glancing or penetrating hit on vehicle ``model``; whether it was destroyed.

    7th edition: "every glancing or penetrating hit … the vehicle loses a Hull
    Point"; a penetrating hit also rolls on the Vehicle Damage table
    (:func:`damage_result`, :func:`damage_modifier`). "Wrecked: a vehicle
    reduced to 0 Hull Points"; Explodes! destroys it whatever its Hull Points
    (:func:`explode`). Hammerlab removes a wreck from the table.

    7th edition, Super-heavy vehicles (the rule paraphrased from memory of
    the rulebook): they do not roll on the Vehicle Damage table; a glancing or
    penetrating hit takes one Hull Point and nothing else (no Crew Shaken,
    Crew Stunned, Weapon Destroyed, Immobilised or Explodes!). Their
    Catastrophic Damage table at 0 Hull Points is not played: the vehicle is
    Wrecked.
    """
    vehicle = vehicle_of(model.profile)
    assert vehicle is not None
    model.wounds_left -= 1
    result, roll = "hull point", None
    if outcome == PENETRATING and not vehicle.super_heavy:
        modifier = damage_modifier(ap, vehicle.has_type("Open-topped"))
        roll = battle.dice.d6(f"Vehicle Damage table ({model.id}, {modifier:+d})") + modifier
        result = damage_result(roll)
    battle.emit(
        VehicleDamaged(
            unit=victim.label,
            model=model.id,
            hull_points=max(0, model.wounds_left),
            roll=roll,
            result=result,
        )
    )
    if result == EXPLODES:
        explode(battle, victim, model, attacker)
        return True
    _suffer(battle, attacker, victim, model, result)
    if model.wounds_left <= 0:
        battle.emit(VehicleDestroyed(unit=victim.label, model=model.id, how=WRECKED))
        remove_casualty(battle, victim, model, f"{WRECKED} by {attacker.label}")
        bail_out(battle, victim, model, WRECKED)
        return True
    return False


def _suffer(battle: Battle, attacker: Unit, victim: Unit, model: Model, result: str) -> None:
    """The lasting effects of a damage result (7th edition).

    Crew Shaken: "can only fire Snap Shots until the end of its next turn".
    Crew Stunned: that, and it "cannot move". Weapon Destroyed: "one weapon
    (attacker's choice) … is destroyed" (:func:`_destroy_weapon`); with none left,
    Immobilised instead.
    Immobilised: "cannot move"; an Immobilised vehicle that is Immobilised
    again "loses an additional Hull Point" (one with the rule Immobile is
    Immobilised already: :func:`vehicles.is_immobilised`). "Until the end of its next turn"
    counts the end of this turn when it is the vehicle's own.
    """
    status = vehicle_status(battle, model)
    turns = 2 if battle.active_player == victim.player else 1
    if result == CREW_SHAKEN:
        status.shaken_turns = max(status.shaken_turns, turns)
    elif result == CREW_STUNNED:
        status.stunned_turns = max(status.stunned_turns, turns)
    elif result == WEAPON_DESTROYED:
        if not _destroy_weapon(battle, attacker, victim, model):
            _suffer(battle, attacker, victim, model, IMMOBILISED)
    elif result == IMMOBILISED:
        if is_immobilised(battle, victim, model):
            model.wounds_left -= 1
            battle.say("vehicle", f"{model.id} is already Immobilised: it loses another Hull Point")
        status.immobilised = True


def _destroy_weapon(battle: Battle, attacker: Unit, victim: Unit, model: Model) -> bool:
    """The attacker picks one of the vehicle's weapons; ``False`` when it has none.

    7th edition: "one weapon (attacker's choice) … is destroyed": the attacker names a
    weapon, and one weapon of that name goes; a vehicle carrying it twice (a Land
    Raider's pair of twin-linked lascannons, which every other rule fires as two
    weapons: ``attacks.firing_models``) keeps the other."""
    names = list(dict.fromkeys(w.name for w in model.weapons))
    if not names:
        return False
    lost = battle.decide(
        Decision(
            kind="weapon_destroyed",
            player=attacker.player,
            prompt=f"Weapon Destroyed: which weapon of {model.id} ({victim.label}) is destroyed?",
            choices=tuple(Choice(name, name) for name in names),
            context=DecisionContext(unit=attacker.id, target=victim.id),
        )
    )
    gone = next(i for i, w in enumerate(model.weapons) if w.name == lost)
    model.weapons = model.weapons[:gone] + model.weapons[gone + 1 :]
    battle.say("vehicle", f"{model.id}: {lost} is destroyed")
    return True


def explode(battle: Battle, victim: Unit, model: Model, attacker: Unit) -> None:
    """Explodes!: "The vehicle is destroyed. Nearby units suffer a Strength 4, AP- hit for
    each of their models within D6"" (of the hull), resolved like shooting hits from
    the vehicle's position, friend or foe; then its passengers disembark, suffer a hit
    for each model embarked and take a Pinning test (:func:`explosion_hits`)."""
    radius = battle.dice.d6(f"Explodes! radius ({model.id})")
    caught: Counter[str] = Counter()
    for unit in battle.units.values():
        for other in unit.alive_models:
            if other is not model and base_distance(model, other) <= radius:
                caught[unit.id] += 1
    remove_casualty(battle, victim, model, f"{EXPLODES} ({attacker.label})")
    battle.emit(
        VehicleDestroyed(
            unit=victim.label,
            model=model.id,
            how=EXPLODES,
            radius=radius,
            hits=tuple((battle.unit(uid).label, n) for uid, n in sorted(caught.items())),
        )
    )
    for unit_id, count in sorted(caught.items()):
        explosion_hits(battle, victim, model, battle.unit(unit_id), count)
    for passengers, aboard in bail_out(battle, victim, model, EXPLODES):
        explosion_hits(battle, victim, model, passengers, aboard)
        pinning_test(battle, passengers, f"its transport {victim.label} exploded")


def explosion_hits(battle: Battle, victim: Unit, model: Model, unit: Unit, count: int) -> None:
    """``count`` Strength 4, AP- hits on ``unit`` from the exploding ``model``.

    7th edition, passengers of a transport that Explodes!: "the unit suffers a
    Strength 4, AP- hit for each model embarked", then takes a Pinning test
    (:func:`explode`, ``transports.bail_out``).
    """
    if unit.destroyed:
        return
    hits = [Hit(unit, EXPLOSION_STRENGTH, model)] * count
    result = VolleyResult()
    orders = FireOrders(purpose="explosion")
    if is_vehicle(unit):
        resolve_vehicle_hits(battle, victim, unit, hits, EXPLOSION, orders, result)
        return
    wounds = roll_to_wound(battle, unit, hits, EXPLOSION)
    allocate_wounds(battle, victim, unit, wounds, EXPLOSION, orders, result, [model])
