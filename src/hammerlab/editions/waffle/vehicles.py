"""Vehicles in the Waffle Edition: what a vehicle is, where its hull faces, what it may do.

The seeds name vehicles without rules of their own ("non-vehicle targets",
seed 000; "the non-vehicle enemy unit they charged", seed 004), so hammerlab
plays the 7th-edition vehicle rules (``docs/rules/waffle.md``, *Vehicles*).
A vehicle is a model whose profile has Armour Values
(:func:`profiles.is_vehicle_profile`): ``BS Front Side Rear HP`` and, for a
Walker, ``WS S I A``; its unit type names its vehicle types as a codex prints
them, ``Vehicle (Tank, Heavy)``. Armour penetration is ``armour``, the damage
table ``vehicle_damage``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from hammerlab.editions.waffle.profiles import is_vehicle_profile, stats_of
from hammerlab.editions.waffle.state import VehicleStatus, state_of
from hammerlab.editions.waffle.vehicle_events import LeftBehind
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import ModelEntry, Profile
from hammerlab.engine.geometry import Vec
from hammerlab.engine.memo import per_makeup, per_object
from hammerlab.engine.units import Model, Unit

FRONT, SIDE, REAR = "Front", "Side", "Rear"
ARC_HALF_WIDTH = 45.0
"""The 90° arcs of the hull: Front within 45° either side of the heading, Rear within
45° of the opposite way, Side between (7th edition draws the arcs through the hull's
corners; hammerlab's hulls are round, so a square hull's diagonals are used)."""
COMBAT_SPEED = 6.0
"""7th edition: "Combat Speed: up to 6"" (hammerlab moves vehicles at Combat Speed only)."""


@dataclass(frozen=True)
class VehicleProfile:
    """A vehicle's Armour Values, Hull Points and vehicle types."""

    front: int
    side: int
    rear: int
    hull_points: int
    types: tuple[str, ...]
    """``("Tank", "Heavy")`` for ``Vehicle (Tank, Heavy)``."""

    def has_type(self, word: str) -> bool:
        """Whether one of the vehicle types is ``word`` (``Walker``, ``Open-topped``...);
        a ``Super-heavy Walker`` is a Walker, a ``Super-heavy Flyer`` a Flyer (7th edition:
        they follow those types' rules as well as the Super-heavy ones)."""
        wanted = word.lower()
        return any(t.lower() in (wanted, f"super-heavy {wanted}") for t in self.types)

    @property
    def super_heavy(self) -> bool:
        """Whether it is a Super-heavy vehicle (``Super-heavy Vehicle``, ``Super-heavy
        Walker``, ``Super-Heavy Tank``, ``Super-heavy Flyer``...)."""
        return any(t.lower().startswith("super-heavy") for t in self.types)

    def armour(self, facing: str) -> int:
        """The Armour Value of ``facing`` (Front, Side or Rear)."""
        return {FRONT: self.front, SIDE: self.side, REAR: self.rear}[facing]


@per_object
def vehicle_of(profile: Profile) -> VehicleProfile | None:
    """``profile`` read as a vehicle, ``None`` when it is not one (cached)."""
    if not is_vehicle_profile(profile):
        return None
    stats = stats_of(profile)  # checks the numbers and reads the Hull Points
    inner = profile.unit_type.partition("(")[2].rpartition(")")[0]
    types = tuple(" ".join(t.split()) for t in inner.split(",") if t.strip())
    numbers = {k: int(profile.characteristics[k].strip()) for k in (FRONT, SIDE, REAR)}
    return VehicleProfile(numbers[FRONT], numbers[SIDE], numbers[REAR], stats.w, types)


@per_makeup
def has_vehicle_alive(profiles: tuple[Profile, ...]) -> bool:
    """Whether any model alive of a unit is a vehicle (called with the unit:
    :func:`memo.per_makeup`)."""
    return any(vehicle_of(p) is not None for p in profiles)


def is_vehicle(unit: Unit) -> bool:
    """Whether the unit is a vehicle (all its models have Armour Values; the importer
    splits units mixing vehicles and other models in two, and a scenario's hand-written
    mixed unit is played as a non-vehicle one).

    Seed 000, Suppressive Fire, is "against non-vehicle targets"; seed 004,
    Fiery Charge, "against the non-vehicle enemy unit they charged". 7th
    edition: vehicles have no Leadership, so they take no Morale checks and
    no Pinning tests.
    """
    return bool(unit.models) and all(vehicle_of(m.profile) is not None for m in unit.models)


def is_walker(unit: Unit) -> bool:
    """Whether the unit is a Walker (it moves, charges and fights like infantry)."""
    return any(
        (v := vehicle_of(m.profile)) is not None and v.has_type("Walker") for m in unit.models
    )


def vehicle_status(battle: Battle, model: Model) -> VehicleStatus:
    """The vehicle status of ``model``, to change (made and kept on first use): for the
    rules that change it (a move, a damage result, a Ram). A question asks
    :func:`vehicle_status_now`, which keeps nothing."""
    vehicles = state_of(battle).vehicles
    if model.id not in vehicles:
        vehicles[model.id] = VehicleStatus()
    return vehicles[model.id]


def vehicle_status_now(battle: Battle, model: Model) -> VehicleStatus:
    """The vehicle status of ``model``, to read: the one kept, or, for a vehicle no rule
    has changed yet, a fresh one that is not kept. Asking a question (an estimate, a
    rule's test) writes nothing, so the state of a game is what was played in it,
    never what a player asked along the way (a saved game replays without them)."""
    status = state_of(battle).vehicles.get(model.id)
    return VehicleStatus() if status is None else status


def _bearing(origin: Vec, point: Vec) -> float:
    return math.degrees(math.atan2(point[1] - origin[1], point[0] - origin[0]))


def heading_of(battle: Battle, unit: Unit, model: Model) -> float:
    """Where the hull of ``model`` faces, in degrees (a question: it keeps nothing).

    A vehicle is set up facing the centre of the enemy models (:func:`face_the_enemy`:
    when the battle starts, when it arrives from reserve, when Infiltrate or Scout set
    it up again); after it moves it faces the way it moved (:func:`turn_to_moves`).
    One never set up so (a battle built by hand, not begun) faces the enemy as they
    stand now (:func:`enemy_bearing`).
    """
    heading = vehicle_status_now(battle, model).heading
    return enemy_bearing(battle, unit, model) if heading is None else heading


def enemy_bearing(battle: Battle, unit: Unit, model: Model) -> float:
    """The bearing from ``model`` to the centre of the enemy models on the table
    (0 with none)."""
    foes = [m.position for e in battle.enemies_of(unit) for m in e.alive_models]
    if not foes:
        return 0.0
    centre = (sum(p[0] for p in foes) / len(foes), sum(p[1] for p in foes) / len(foes))
    return _bearing(model.position, centre)


def face_the_enemy(battle: Battle, unit: Unit, again: bool = False) -> None:
    """Each vehicle of ``unit`` set up on the table faces the centre of the enemy
    models (:func:`enemy_bearing`), unless it already faces somewhere (``again``:
    set up anew, it turns all the same).

    Interpretation: the 7th-edition rules let the owning player set a vehicle's
    facing as it is deployed; hammerlab turns it to the enemy, at a set moment of
    the game: when the battle begins (:meth:`WaffleRuleset.start`, after the
    scenario's units in reserve and aboard transports left the table), when it
    arrives from reserve (``reserves.put_on_table``; a Zooming Flyer comes in
    facing straight in: ``zooming.zoom_in``), and when Infiltrate or Scout set it
    up again (``again``). Never when a question is asked (:func:`heading_of`), so
    that a game's state is what was played in it.
    """
    for model in unit.alive_models:
        if vehicle_of(model.profile) is None:
            continue
        if again or vehicle_status_now(battle, model).heading is None:
            vehicle_status(battle, model).heading = enemy_bearing(battle, unit, model)


def facing_toward(heading: float, origin: Vec, point: Vec) -> str:
    """7th edition: the facing a shot from ``point`` strikes, by the firer's position
    relative to the hull's arcs (:data:`ARC_HALF_WIDTH`: 90° arcs). A firer exactly
    on an arc's edge strikes the Front or Rear, not the Side."""
    if point == origin:
        return FRONT
    off = abs((_bearing(origin, point) - heading + 180.0) % 360.0 - 180.0)
    if off <= ARC_HALF_WIDTH:
        return FRONT
    if off >= 180.0 - ARC_HALF_WIDTH:
        return REAR
    return SIDE


def facing_of(battle: Battle, unit: Unit, model: Model, source: Vec) -> str:
    """The facing of vehicle ``model`` (of ``unit``) a shot from ``source`` strikes."""
    return facing_toward(heading_of(battle, unit, model), model.position, source)


def turn_to_moves(battle: Battle, unit: Unit, starts: dict[str, Vec]) -> None:
    """After a move, each vehicle that moved faces the way it moved."""
    for model in unit.alive_models:
        start = starts.get(model.id)
        if vehicle_of(model.profile) is None or start is None or start == model.position:
            continue
        vehicle_status(battle, model).heading = _bearing(start, model.position)


IMMOBILE = "Immobile"
"""The rule, as the Space Marine catalogue of the shared data gives the Drop Pod's
(``Space Marines - Codex (2015).cat``; the Astra Militarum catalogue links a rule of
the name without a text to its Field Artillery and Platform Batteries): "An immobile
vehicle cannot move once it has entered play, and counts in all respects as a vehicle
that has suffered an immobilised damage result that cannot be repaired in any way.
Note that this does not cause it to lose a Hull Point."."""


def is_immobile(unit: Unit) -> bool:
    """Whether ``unit`` has the rule :data:`IMMOBILE` (its own, or a model's alive)."""
    return unit.has_rule(IMMOBILE)


def is_immobilised(battle: Battle, unit: Unit, model: Model) -> bool:
    """Whether vehicle ``model`` of ``unit`` is Immobilised: by a damage result, or by
    the rule :data:`IMMOBILE`, its own or its unit's ("counts in all respects as a
    vehicle that has suffered an immobilised damage result", which loses no Hull
    Point: nothing is kept, so a vehicle with the rule is Immobilised from the start,
    however the battle was set up)."""
    if vehicle_status_now(battle, model).immobilised:
        return True
    return IMMOBILE.lower() in (r.lower() for r in (*unit.rules, *model.rules))


def may_move(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` may move at all (:func:`held_still`): what its move in the
    Movement phase, a Tank Shock, its Run (``shooting.can_run``) and its charge
    (``charge.charge_ban``) ask."""
    return held_still(battle, unit) is None


def held_still(battle: Battle, unit: Unit) -> str | None:
    """Why ``unit`` may not move, if it may not.

    7th edition: an Immobilised vehicle "cannot move"; a Crew Stunned one "cannot
    move … until the end of its next turn". Each is said of the vehicle that suffered
    it, so in a squadron (a unit of several vehicles) of that vehicle alone; but a unit
    moves as a block (``movement``: every model by one vector), which keeps it in
    coherency. So a squadron with a Crew Stunned vehicle stays where it is that turn
    (its squadmates could only have moved within coherency of it); one whose Immobilised
    vehicles are not all of it moves, leaving them behind as units of their own
    (:func:`leave_behind`). A Walker's Run and charge are moves as well: "cannot move"
    bars them too.

    A unit with the rule :data:`IMMOBILE` "cannot move once it has entered play"
    (:func:`is_immobile`): a vehicle that has it counts as Immobilised; any other
    unit (the Astra Militarum Field Artillery) is held still all the same."""
    if not has_vehicle_alive(unit):  # asked of every unit that might Run or charge
        return "Immobile: it cannot move" if is_immobile(unit) else None
    vehicles = [m for m in unit.alive_models if vehicle_of(m.profile) is not None]
    if any(vehicle_status_now(battle, m).stunned_turns > 0 for m in vehicles):
        return "Crew Stunned: it cannot move"
    if vehicles and all(is_immobilised(battle, unit, m) for m in vehicles):
        return "Immobilised: it cannot move"
    return None


def leave_behind(battle: Battle, unit: Unit) -> None:
    """The squadron ``unit`` moves away from its Immobilised vehicles: each stays where
    it is, a unit of its own from then on (:class:`LeftBehind`).

    7th edition, Squadrons (as remembered; neither the seeds nor the shared data print
    it): "If a vehicle in a squadron is Immobilised, the rest of the squadron may move
    away, leaving it behind … the Immobilised vehicle is treated as a separate unit".
    Hammerlab asks it whenever the squadron moves of its own accord: in its Movement
    phase (``movement_phase.make_move``, any intent but ``hold``), when it Runs
    (``movement.run``, likewise) and when it charges (``charge.resolve_charge``,
    after the target's reaction, before the charge roll, which then counts the
    vehicles that go alone): it always leaves them (a block move cannot keep
    coherency with a vehicle that stays). The vehicle keeps its id, wargear, Hull
    Points and damage; the new unit, named after the squadron with the vehicle's
    model id as its own, counts one model from the start, the squadron one fewer,
    so that no model is counted slain or twice; under kill points it is a unit of
    its own, worth its own point (``turns.victory_scores``). Nothing happens when
    all the unit's vehicles are Immobilised (it does not move: :func:`may_move`) or
    none is."""
    alive = unit.alive_models
    stuck = [
        m for m in alive if vehicle_of(m.profile) is not None and is_immobilised(battle, unit, m)
    ]
    if not stuck or len(stuck) == len(alive):
        return
    for model in stuck:
        unit.models.remove(model)
        unit.starting_models -= 1
        entry = ModelEntry(
            model.profile, 1, model.weapons, model.base_mm, rules=model.rules, powers=model.powers
        )
        sheet = replace(unit.datasheet, entries=(entry,))
        alone = Unit(model.id, unit.name, unit.player, sheet, [model])
        battle.units[alone.id] = alone
        battle.emit(LeftBehind(squadron=unit.label, model=model.id, unit=alone.label))


def may_run(unit: Unit) -> bool:
    """7th edition: vehicles do not Run (they move Flat Out instead, which hammerlab
    does not play); Walkers Run like infantry."""
    return not is_vehicle(unit) or is_walker(unit)


def may_charge(unit: Unit) -> bool:
    """7th edition: vehicles cannot charge, except Walkers."""
    return not is_vehicle(unit) or is_walker(unit)


def fights_in_melee(model: Model) -> bool:
    """Whether the model strikes in close combat: vehicles other than Walkers have no
    WS and no Attacks (7th edition)."""
    vehicle = vehicle_of(model.profile)
    return vehicle is None or vehicle.has_type("Walker")


AUTOMATIC_HIT, MOVED_HIT = "A", "4+"


def melee_cell_against(battle: Battle, target: Unit) -> str | None:
    """The score close combat attacks need against a vehicle without WS, ``None``
    against any other unit (which uses the melee chart).

    7th edition: against a vehicle that "did not move" in its last turn (or is
    Immobilised) attacks hit automatically; against one that moved, on 4+
    (hammerlab moves vehicles at Combat Speed only; Cruising Speed's 6+ never
    arises).
    """
    vehicles = [m for m in target.alive_models if vehicle_of(m.profile) is not None]
    if not vehicles or not all(not fights_in_melee(m) for m in target.alive_models):
        return None
    moved = any(
        vehicle_status_now(battle, m).moved_last_turn and not is_immobilised(battle, target, m)
        for m in vehicles
    )
    return MOVED_HIT if moved else AUTOMATIC_HIT


def crew_snap_shots(battle: Battle, model: Model) -> bool:
    """Crew Shaken or Crew Stunned: the vehicle "can only fire Snap Shots"; so can a
    Tank that Rammed this turn ("it … may only shoot Snap Shots in that turn's
    Shooting phase": ``ramming``). Each is said of the vehicle: in a squadron, of
    ``model`` alone, its squadmates firing as they would (``snap_shots.snaps_of``). A
    model that is no vehicle never is."""
    if vehicle_of(model.profile) is None:
        return False
    status = vehicle_status_now(battle, model)
    return status.shaken_turns > 0 or status.stunned_turns > 0 or status.rammed


def whole_crew_snaps(battle: Battle, unit: Unit) -> bool:
    """Whether every model alive of ``unit`` is a vehicle that fires only Snap Shots
    (:func:`crew_snap_shots`): the unit as a whole does (a lone Shaken tank). A unit
    with no vehicle alive is answered from its make-up (:func:`has_vehicle_alive`,
    asked on every estimate) without reading a vehicle status."""
    return has_vehicle_alive(unit) and all(crew_snap_shots(battle, m) for m in unit.alive_models)


def vehicle_end_of_turn(battle: Battle, player: str) -> None:
    """Crew Shaken and Crew Stunned last "until the end of its next turn": each end of
    the controller's turn counts one down (``vehicle_damage`` sets 1 in the enemy's
    turn, 2 in the controller's own)."""
    for unit in battle.units_of(player):
        for model in unit.models:
            if vehicle_of(model.profile) is None:
                continue
            status = vehicle_status(battle, model)
            status.moved_last_turn = unit.status.moved
            status.rammed = False
            status.shaken_turns = max(0, status.shaken_turns - 1)
            status.stunned_turns = max(0, status.stunned_turns - 1)
