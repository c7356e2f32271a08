"""Tank Shock and Death or Glory (7th edition), played in the Movement phase.

The seeds give no vehicle rules, so hammerlab plays the 7th-edition ones
(``docs/rules/waffle.md``, *Tank Shock and Ramming*). The texts quoted here
are the 7th-edition rulebook's as public copies give them (a transcription
of the *Tanks* page, scoolov.github.io/wh40000rules; a forum quote of the
rule, bolterandchainsword.com topic 285164); the Death or Glory text is
quoted from memory of the rulebook.

"When moving a vehicle with the Tank type, the player can declare that it is
going to attempt to Tank Shock or Ram instead of moving normally. … turn the
vehicle on the spot to face the direction you intend to move it and … declare
how many inches the vehicle is going to move, up to its maximum speed. The
vehicle must move at least Combat Speed. … move the Tank straight forwards
until it comes into contact with an enemy unit or it reaches the distance
declared – no other changes of direction are allowed in a Tank Shock."

hammerlab's vehicles move at Combat Speed only (6"), so "at least Combat
Speed" and "up to its maximum speed" leave one distance: 6". The Tank is
aimed at the closest model of the enemy unit its player names
(:func:`shock_targets`); what its hull meets on that line is found on the
table's real geometry (:func:`first_contact`). Ramming, the collision with an
enemy vehicle, is ``ramming``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hammerlab.editions.waffle.armour import (
    GLANCING,
    PENETRATING,
    armour_attack,
    effective_armour,
    penetration_chances,
)
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.fight import melee_options
from hammerlab.editions.waffle.flyers import is_zooming
from hammerlab.editions.waffle.melee_grenades import is_melee_grenade
from hammerlab.editions.waffle.morale import morale_check
from hammerlab.editions.waffle.movement import dangerous_terrain_tests
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.ramming import ram
from hammerlab.editions.waffle.special_rules import close_combat_strength, close_combat_weapon
from hammerlab.editions.waffle.state import remove_casualty, st
from hammerlab.editions.waffle.tank_shock_events import (
    DeathOrGlory,
    TankShockDeclared,
    TankShockReached,
)
from hammerlab.editions.waffle.vehicle_damage import (
    CREW_STUNNED,
    EXPLODES,
    IMMOBILISED,
    damage_chances,
    damage_modifier,
    strike_vehicle,
)
from hammerlab.editions.waffle.vehicles import (
    COMBAT_SPEED,
    FRONT,
    is_vehicle,
    may_move,
    vehicle_of,
    vehicle_status,
    vehicle_status_now,
)
from hammerlab.editions.waffle.wounds import weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.geometry import Vec, centre_distance, segment_point_distance
from hammerlab.engine.moves import OVERLAP_TOLERANCE, shift_unit
from hammerlab.engine.units import Model, Unit

TANK_SHOCK_DISTANCE = COMBAT_SPEED
"""The distance declared: "at least Combat Speed", "up to its maximum speed" (6" in
hammerlab, whose vehicles move at Combat Speed only)."""
KEEP_AWAY = 1.0
"""7th edition: "If the Tank would move into contact with a friendly model, enemy vehicle,
impassable terrain or a board edge, it immediately stops moving 1" away"; models
moved out of its way end "at least 1"" from it."""
TANK_SHOCK = "tank_shock"
"""The decision asked before a Tank moves (:func:`offer_tank_shock`)."""
MOVE_NORMALLY = "move normally"
SHOCK, RAM, STOP = "shock", "ram", "stop"
NO_DEATH_OR_GLORY = "no Death or Glory"
OUT_OF_THE_WAY_TURNS = (0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90)
"""Degrees off the straight line away from the hull that a model moved out of the
Tank's way may take when the straight line is blocked."""


@dataclass(frozen=True)
class Contact:
    """The first thing the hull meets on its line: ``what`` (:data:`SHOCK`, :data:`RAM`
    or :data:`STOP`) after ``at`` inches, with the unit met (``None``: a table edge)."""

    at: float
    what: str
    unit: Unit | None
    model: Model | None


def the_tank(unit: Unit) -> Model | None:
    """The vehicle that may Tank Shock: the one model of a unit of one vehicle of the
    Tank type, not a Zooming Flyer (``None`` for any other unit)."""
    if len(unit.alive_models) != 1 or not is_vehicle(unit) or is_zooming(unit):
        return None
    model = unit.alive_models[0]
    vehicle = vehicle_of(model.profile)
    return model if vehicle is not None and vehicle.has_type("Tank") else None


def heading_to(origin: Vec, point: Vec) -> Vec:
    """The unit vector from ``origin`` toward ``point``."""
    gap = centre_distance(origin, point) or 1.0
    return ((point[0] - origin[0]) / gap, (point[1] - origin[1]) / gap)


def _meets(tank: Model, direction: Vec, other: Model, clearance: float) -> float | None:
    """How far the hull moves along ``direction`` before its base comes within
    ``clearance`` of ``other`` (0: it is already there), or ``None`` if its line never
    brings the bases into contact or ``other`` is behind it."""
    wx, wy = other.position[0] - tank.position[0], other.position[1] - tank.position[1]
    along = wx * direction[0] + wy * direction[1]
    across2 = wx * wx + wy * wy - along * along
    touch = tank.radius + other.radius
    if along <= 0.0 or across2 >= (touch - OVERLAP_TOLERANCE) ** 2:
        return None
    reach = touch + clearance
    return max(0.0, along - math.sqrt(max(0.0, reach * reach - across2)))


def _edge_limit(battle: Battle, start: Vec, direction: Vec, distance: float) -> float:
    """How far the hull's centre may go along ``direction`` and stay on the table (moves
    keep a model's centre on the table, as every other hammerlab move does)."""
    field = battle.battlefield
    limit = distance
    for axis, size in ((0, field.width), (1, field.height)):
        step = direction[axis]
        if step > 0:
            limit = min(limit, (size - start[axis]) / step)
        elif step < 0:
            limit = min(limit, -start[axis] / step)
    return max(0.0, limit)


def _kind_of(battle: Battle, tank_unit: Unit, other: Unit, ram_declared: bool) -> str:
    """What meeting ``other`` means: an enemy unit not locked in combat, other than a
    vehicle, is Tank Shocked; an enemy vehicle is rammed by a Ram (not a Zooming Flyer);
    anything else stops the Tank."""
    if other.player == tank_unit.player or st(battle, other).locked_in_combat:
        return STOP
    if not is_vehicle(other):
        return SHOCK
    return RAM if ram_declared and not is_zooming(other) else STOP


def first_contact(
    battle: Battle,
    unit: Unit,
    direction: Vec,
    distance: float,
    passed: frozenset[str],
    ram_declared: bool,
) -> Contact | None:
    """The first unit (or table edge) the Tank of ``unit`` meets within ``distance``
    along ``direction``; ``None`` when it meets nothing. Units in ``passed`` were Tank
    Shocked already: the Tank moves through them ("A Tank Shock is an exception to the
    rule that enemy models cannot be moved through"). "Friendly models still cannot be
    moved through"; "a Tank Shock cannot be attempted against enemies that are locked
    in combat": those stop it 1" away, as enemy vehicles do when it is not a Ram."""
    tank = unit.alive_models[0]
    found: list[tuple[float, int, Contact]] = []
    for other in battle.units.values():
        if other is unit or other.id in passed or other.destroyed:
            continue
        what = _kind_of(battle, unit, other, ram_declared)
        clearance = KEEP_AWAY if what == STOP else 0.0
        for model in other.alive_models:
            at = _meets(tank, direction, model, clearance)
            if at is not None and at <= distance:
                found.append((at, len(found), Contact(at, what, other, model)))
    edge = _edge_limit(battle, tank.position, direction, distance)
    if edge < distance:
        found.append((edge, len(found), Contact(edge, STOP, None, None)))
    return min(found, key=lambda f: (f[0], f[1]))[2] if found else None


@dataclass(frozen=True)
class ShockTarget:
    """A Tank Shock or Ram ``unit`` may declare: ``kind`` (:data:`SHOCK` or :data:`RAM`)
    at ``enemy``, reached after ``at`` inches."""

    kind: str
    enemy: Unit
    at: float


def shock_targets(battle: Battle, unit: Unit) -> list[ShockTarget]:
    """The Tank Shocks and Rams ``unit`` may declare: one for each enemy unit its hull
    would reach within :data:`TANK_SHOCK_DISTANCE` when aimed at that unit's closest
    model, before anything stops it (units Tank Shocked on the way are passed
    through); a Ram for an enemy vehicle. Empty for a unit that is not a Tank."""
    tank = the_tank(unit)
    if tank is None or not may_move(battle, unit):
        return []
    options: list[ShockTarget] = []
    for enemy in battle.enemies_of(unit):
        aim = min(enemy.alive_models, key=lambda m: centre_distance(tank.position, m.position))
        direction = heading_to(tank.position, aim.position)
        ram_declared = is_vehicle(enemy)
        passed: set[str] = set()
        while True:
            contact = first_contact(
                battle, unit, direction, TANK_SHOCK_DISTANCE, frozenset(passed), ram_declared
            )
            if contact is None or contact.what == STOP or contact.unit is None:
                break
            if contact.unit is enemy:
                options.append(ShockTarget(RAM if ram_declared else SHOCK, enemy, contact.at))
                break
            if contact.what == RAM:
                break
            passed.add(contact.unit.id)
    return options


def shock_choices(battle: Battle, unit: Unit) -> list[Choice[tuple[str, str] | None]]:
    """The answers to the ``tank_shock`` decision before a Tank moves: moving
    normally, then each Tank Shock or Ram it could make (:func:`shock_targets`);
    none when it could make none, and then nothing is asked."""
    options = shock_targets(battle, unit)
    if not options:
        return []
    choices: list[Choice[tuple[str, str] | None]] = [Choice(MOVE_NORMALLY, None)]
    choices += [Choice(f"{o.kind} {o.enemy.label}", (o.kind, o.enemy.id)) for o in options]
    return choices


def offer_tank_shock(battle: Battle, unit: Unit) -> bool:
    """Before a Tank moves, its player may declare a Tank Shock or a Ram instead of
    moving normally; the choice is asked only when one is possible
    (:func:`shock_choices`). Returns whether the Tank made one."""
    choices = shock_choices(battle, unit)
    if not choices:
        return False
    picked = battle.decide(
        Decision(
            kind=TANK_SHOCK,
            player=unit.player,
            prompt=f"{unit.label}: Tank Shock, Ram, or move normally?",
            choices=tuple(choices),
            context=DecisionContext(unit=unit.id),
        )
    )
    if picked is None:
        return False
    kind, enemy_id = picked
    tank_shock(battle, unit, battle.unit(enemy_id), ram_declared=kind == RAM)
    return True


def tank_shock(battle: Battle, unit: Unit, target: Unit, *, ram_declared: bool = False) -> None:
    """Carry out a Tank Shock (or a Ram) of ``unit`` aimed at ``target``.

    The Tank turns to face the closest model of ``target`` and moves straight
    ahead :data:`TANK_SHOCK_DISTANCE`. "If an enemy unit other than another
    vehicle is reached, that enemy unit must take a Morale check and
    immediately Fall Back if it fails. If the test is passed, the unit simply
    lets the Tank move through, as if it was not there. Regardless of the
    result of the test, the Tank keeps moving straight on, possibly Tank
    Shocking more enemy units until it reaches its final position"
    (:func:`shock_unit`). A Ram meeting an enemy vehicle collides with it and
    stops there (``ramming.ram``). At the end, enemy models under the hull are
    moved out of its way (:func:`clear_the_way`); the Tank counts as having
    moved, faces the way it went, and tests for dangerous terrain it crossed.
    """
    tank = unit.alive_models[0]
    start = tank.position
    aim = min(target.alive_models, key=lambda m: centre_distance(start, m.position))
    direction = heading_to(start, aim.position)
    heading = math.degrees(math.atan2(direction[1], direction[0]))
    vehicle_status(battle, tank).heading = heading
    battle.emit(
        TankShockDeclared(
            unit=unit.label,
            model=tank.id,
            toward=target.label,
            ram=ram_declared,
            distance=TANK_SHOCK_DISTANCE,
            heading=heading,
        )
    )
    travelled = 0.0
    passed: set[str] = set()
    while not unit.destroyed:
        left = TANK_SHOCK_DISTANCE - travelled
        contact = first_contact(battle, unit, direction, left, frozenset(passed), ram_declared)
        step = left if contact is None else contact.at
        _advance(battle, unit, direction, step)
        travelled += step
        if contact is None:
            break
        reached = contact.unit.label if contact.unit is not None else "the table edge"
        battle.emit(TankShockReached(unit.label, reached, contact.what, round(travelled, 2)))
        if contact.what == STOP or contact.unit is None:
            break
        if contact.what == RAM:
            assert contact.model is not None
            ram(battle, unit, contact.unit, contact.model, travelled)
            break
        passed.add(contact.unit.id)
        if shock_unit(battle, unit, contact.unit, direction, TANK_SHOCK_DISTANCE - travelled):
            break
    unit.status.moved = True
    if not unit.destroyed:
        clear_the_way(battle, unit, passed)
        dangerous_terrain_tests(battle, unit, {tank.id: start})
    refresh_locks(battle)


def _advance(battle: Battle, unit: Unit, direction: Vec, step: float) -> None:
    """Move the Tank ``step`` inches along ``direction``."""
    shift_unit(battle, unit, (direction[0] * step, direction[1] * step), "Tank Shock")


def shock_unit(battle: Battle, unit: Unit, victim: Unit, direction: Vec, left: float) -> bool:
    """``victim`` is reached: it takes a Morale check (``morale.morale_check``: Fearless
    passes, a failure Falls Back). If it passed and stands, one of its models in the
    Tank's path may attempt Death or Glory (:func:`death_or_glory`). Returns whether the
    Tank was stopped."""
    passed = morale_check(battle, victim, f"Tank Shocked by {unit.label}")
    if not passed or victim.destroyed or st(battle, victim).falling_back:
        return False
    return death_or_glory(battle, unit, victim, direction, left)


def in_path(tank: Model, direction: Vec, left: float, models: list[Model]) -> list[Model]:
    """Models whose bases the hull's line over the next ``left`` inches passes over."""
    end = (tank.position[0] + direction[0] * left, tank.position[1] + direction[1] * left)
    return [
        m
        for m in models
        if segment_point_distance(tank.position, end, m.position)
        < tank.radius + m.radius - OVERLAP_TOLERANCE
    ]


def death_or_glory_options(model: Model, unit: Unit, tank_unit: Unit) -> list[WeaponProfile]:
    """What ``model`` may make its single attack with: each of its shooting weapons, and
    each close combat attack it could make against the Tank (``fight.melee_options``:
    melee weapons, Smash, krak grenades and melta bombs)."""
    ranged = [
        weapon_of(w)
        for w in model.weapons
        if not is_melee_grenade(w) and weapon_of(w).base_type != "Melee"
    ]
    return [*ranged, *melee_options(model, unit, [tank_unit])]


def death_or_glory_attack(
    battle: Battle, model: Model, unit: Unit, weapon: WeaponProfile
) -> tuple[WeaponProfile, int]:
    """The profile and Strength of ``model``'s Death or Glory attack with ``weapon``: a
    close combat attack as the fight resolves it (``special_rules.close_combat_weapon``
    with the model's own rules, ``close_combat_strength``, not charging), a shooting
    weapon at its Strength in the model's hands (``wounds.weapon_strength``)."""
    if weapon.base_type != "Melee":
        return weapon, weapon_strength(battle, unit, model, weapon)
    armed = close_combat_weapon(unit, model, weapon)
    return armed, close_combat_strength(battle, unit, model, armed, False)


def death_or_glory(
    battle: Battle, tank_unit: Unit, victim: Unit, direction: Vec, left: float
) -> bool:
    """Death or Glory (7th edition, from memory of the rulebook): after a passed
    Morale check, one model of the unit in the Tank's path may stand and make a single
    attack against it, a shooting attack or a close combat attack; it "hits
    automatically" and is resolved against the vehicle's Front armour. If the vehicle
    is Immobilised, Crew Stunned, Wrecked or Explodes! it stops where it is
    (``vehicles.may_move``); if not, "the model is crushed": it is removed as a
    casualty, with no save of any kind. Returns whether the Tank was stopped."""
    tank = tank_unit.alive_models[0]
    standing = in_path(tank, direction, left, victim.alive_models)
    choices: list[Choice[tuple[str, WeaponProfile] | None]] = [Choice(NO_DEATH_OR_GLORY, None)]
    for model in standing:
        for weapon in death_or_glory_options(model, victim, tank_unit):
            choices.append(Choice(f"{model.id} with {weapon.name}", (model.id, weapon)))
    if len(choices) == 1:
        return False
    picked = battle.decide(
        Decision(
            kind="death_or_glory",
            player=victim.player,
            prompt=f"{victim.label}: a model stands in the path of {tank_unit.label}?",
            choices=tuple(choices),
            context=DecisionContext(unit=victim.id, target=tank_unit.id),
        )
    )
    if picked is None:
        return False
    model_id, weapon = picked
    hero = next(m for m in victim.alive_models if m.id == model_id)
    profile, strength = death_or_glory_attack(battle, hero, victim, weapon)
    attack = armour_attack(
        profile, strength, half_range=True, tank_hunters=victim.has_rule("Tank Hunters")
    )
    strike_vehicle(battle, victim, tank_unit, tank, attack, FRONT, profile, hero, cover=False)
    stopped = tank_unit.destroyed or not may_move(battle, tank_unit)
    battle.emit(
        DeathOrGlory(victim.label, hero.id, profile.name, strength, tank_unit.label, stopped)
    )
    if not stopped:
        remove_casualty(battle, victim, hero, f"crushed by {tank_unit.label} (Death or Glory)")
    return stopped


def stop_chance(
    battle: Battle, tank: Model, profile: WeaponProfile, strength: int, facing: str = FRONT
) -> float:
    """The chance one hit on ``facing`` stops vehicle ``tank`` (the AI's estimate for a
    Death or Glory attack or a Ram, saves not counted): a glancing or penetrating hit on
    its last Hull Point wrecks it; a penetrating hit stops it on a Crew Stunned,
    Immobilised or Explodes! result (``armour.penetration_chances``,
    ``vehicle_damage.damage_chances``); a Super-heavy rolls nothing on the table."""
    vehicle = vehicle_of(tank.profile)
    assert vehicle is not None
    attack = armour_attack(profile, strength, half_range=True, tank_hunters=False)
    chances = penetration_chances(attack, effective_armour(attack, vehicle.armour(facing)))
    glancing, penetrating = float(chances[GLANCING]), float(chances[PENETRATING])
    if tank.wounds_left <= 1:
        return glancing + penetrating
    if vehicle.super_heavy:
        return 0.0
    table = damage_chances(damage_modifier(profile.ap, vehicle.has_type("Open-topped")))
    stops = sum(float(table.get(r, 0)) for r in (CREW_STUNNED, IMMOBILISED, EXPLODES))
    immobilised = vehicle_status_now(battle, tank).immobilised
    return penetrating * (1.0 if immobilised else stops)


def clear_the_way(battle: Battle, unit: Unit, shocked: set[str]) -> None:
    """7th edition: "If some enemy models in the enemy unit would end up underneath the vehicle when
    it reaches its final position …, these models must be moved out of the way by the
    shortest distance, leaving at least 1" between them and the vehicle and
    maintaining unit coherency." Each model of a unit the Tank Shocked whose base the
    hull overlaps moves straight away from the hull's centre until 1" clear (turned
    up to 90° when that spot is taken or off the table: :data:`OUT_OF_THE_WAY_TURNS`);
    one with nowhere to go is removed as a casualty. Models only touching the hull
    (a Death or Glory hero who stopped it) stay. Coherency is not checked again."""
    tank = unit.alive_models[0]
    for victim in [battle.unit(uid) for uid in sorted(shocked)]:
        for model in victim.alive_models:
            gap = centre_distance(tank.position, model.position)
            if gap - tank.radius - model.radius >= -OVERLAP_TOLERANCE:
                continue
            spot = _spot_out_of_the_way(battle, tank, model)
            if spot is None:
                remove_casualty(battle, victim, model, f"no room to get out of {unit.label}'s way")
                continue
            start, model.position = model.position, spot
            battle.emit(ModelMoved(victim.label, model.id, start, spot, "out of the Tank's way"))


def _spot_out_of_the_way(battle: Battle, tank: Model, model: Model) -> Vec | None:
    """Where ``model`` goes to leave 1" between it and the hull."""
    away = heading_to(tank.position, model.position)
    if model.position == tank.position:
        away = (1.0, 0.0)
    base = math.atan2(away[1], away[0])
    reach = tank.radius + model.radius + KEEP_AWAY
    others = [m for u in battle.units.values() for m in u.alive_models if m is not model]
    for turn in OUT_OF_THE_WAY_TURNS:
        angle = base + math.radians(turn)
        spot = (
            tank.position[0] + math.cos(angle) * reach,
            tank.position[1] + math.sin(angle) * reach,
        )
        if not battle.battlefield.on_table(spot):
            continue
        if all(
            centre_distance(spot, o.position) >= model.radius + o.radius - OVERLAP_TOLERANCE
            for o in others
        ):
            return spot
    return None
