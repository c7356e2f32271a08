"""Transports (7th edition): Transport Capacity, embarking, disembarking, passengers of
a destroyed transport.

The seeds give no transport rules, so hammerlab plays the 7th-edition ones
(``docs/rules/waffle.md``, *Transports*). A transport is a vehicle of the
type ``Transport`` with a rule ``Transport Capacity (N)``. A unit aboard is
off the table: it leaves ``battle.units`` for the Waffle state
(:class:`state.Embarked`), so it cannot be targeted, shot at, hit by blasts
or counted, and it does not shoot (Fire Points and Open-topped firing are
not played). It comes back when it disembarks, or when its transport is
destroyed.
"""

from __future__ import annotations

import math

from hammerlab.editions.waffle.flyers import is_zooming
from hammerlab.editions.waffle.placement import EPSILON, is_free, keeps_clear
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.editions.waffle.state import Embarked, remove_casualty, st, state_of
from hammerlab.editions.waffle.transport_events import UnitDisembarked, UnitEmbarked
from hammerlab.editions.waffle.vehicles import is_vehicle, vehicle_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec, base_distance, centre_distance
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import IllegalActionError

CAPACITY_RULE = "Transport Capacity"
PLACES = (("Extremely Bulky", 5), ("Very Bulky", 3), ("Bulky", 2))
"""7th edition: "Bulky models count as two models for the purposes of Transport
Capacity." "Very Bulky models instead count as three models." "Extremely Bulky
models count as five models for the purposes of Transport Capacity."
(``Warhammer40K.gst``)."""
ACCESS_DISTANCE = 2.0
"""7th edition: a unit embarks when "all of its models" end their move within 2" of
the transport's Access Points, and disembarking models are placed "wholly within
2"" of one. Hammerlab's hulls are round, so the whole hull is its Access Point."""
ENEMY_GAP = 1.0
"""Disembarking models may not be placed within 1" of an enemy model."""
RING_STEP = 0.5
ANGLE_STEP = 10
"""Spots tried around the hull: rings 0.5" apart, points 10° apart."""
DISEMBARK, STAY_ABOARD = "disembark", "stay aboard"
EMBARK, STAY_OUT = "embark", "stay out"


def capacity_of(unit: Unit) -> int:
    """The Transport Capacity of a single-vehicle Transport unit, 0 for any other unit.

    7th edition: "Transport Capacity … the maximum number of models it can carry",
    written on the datasheet as the rule ``Transport Capacity (12)`` (or on its vehicle's
    model entry: an imported transport split from the squad it came with).
    """
    if len(unit.models) != 1 or not is_vehicle(unit):
        return 0
    vehicle = vehicle_of(unit.models[0].profile)
    if vehicle is None or not vehicle.has_type("Transport"):
        return 0
    for rule in (*unit.rules, *unit.models[0].rules):
        name, _, rest = rule.partition("(")
        if name.strip().lower() == CAPACITY_RULE.lower() and rest.rstrip(")").strip().isdigit():
            return int(rest.rstrip(")").strip())
    return 0


def places_of(unit: Unit, model: Model) -> int:
    """How many places of Transport Capacity ``model`` takes (:data:`PLACES`)."""
    return next((n for rule, n in PLACES if model_has(unit, model, rule)), 1)


def places_needed(unit: Unit) -> int:
    """Places the unit's models alive take."""
    return sum(places_of(unit, m) for m in unit.alive_models)


def passengers_of(battle: Battle, transport: Unit) -> list[Unit]:
    """The units aboard ``transport``, by id."""
    embarked = state_of(battle).embarked
    return [e.unit for _, e in sorted(embarked.items()) if e.transport == transport.id]


def room_left(battle: Battle, transport: Unit) -> int:
    """Places of the transport's capacity not taken."""
    taken = sum(places_needed(u) for u in passengers_of(battle, transport))
    return capacity_of(transport) - taken


def embark_problem(battle: Battle, unit: Unit, transport: Unit) -> str | None:
    """Why ``unit`` may not go aboard ``transport`` (``None`` when it may).

    7th edition (as remembered): unless a transport's own rules say otherwise, only
    Infantry models may embark (Jump and Jet Pack Infantry are Infantry, Bulky aboard:
    :data:`PLACES`): not vehicles, Bikes, Jetbikes, Monstrous or Gargantuan Creatures,
    Beasts, Cavalry or Artillery (docs/rules/waffle.md, *Transports*, interpretation 7).
    Nor may a unit embark in, or disembark from, a Zooming Flyer (7th edition, as
    remembered; only a Hovering one lets passengers in and out): hammerlab plays every
    Flyer Zooming (:mod:`flyers`), so none carries anyone, a scenario's ``embarked_in``
    included (interpretation 8)."""
    if transport.player != unit.player:
        return f"{transport.label} belongs to the other player"
    if transport.destroyed or transport.id not in battle.units:
        return f"{transport.label} is not on the table"
    if capacity_of(transport) == 0:
        return (
            f"{transport.label} is not a transport (a single vehicle of type Transport "
            f"with a rule {CAPACITY_RULE} (N))"
        )
    if is_vehicle(unit):
        return "vehicles cannot embark"
    other = next((m for m in unit.models if not stats_of(m.profile).has_type("Infantry")), None)
    if other is not None:
        return (
            f"only Infantry may embark, and its {other.profile.name} is of unit type "
            f"{other.profile.unit_type!r}"
        )
    if is_zooming(transport):
        return (
            "no unit may embark in (or disembark from) a Zooming Flyer, and hammerlab plays "
            "every Flyer Zooming"
        )
    needed, room = places_needed(unit), room_left(battle, transport)
    if needed > room:
        return (
            f"{unit.label} needs {needed} places (Bulky 2, Very Bulky 3, Extremely Bulky 5), "
            f"{transport.label} has {room} left of its Transport Capacity "
            f"{capacity_of(transport)}"
        )
    return None


def embark(battle: Battle, unit: Unit, transport: Unit) -> None:
    """Put ``unit`` aboard ``transport`` (off the table); an :class:`IllegalActionError`
    says why it may not."""
    problem = embark_problem(battle, unit, transport)
    if problem is not None:
        raise IllegalActionError(f"{unit.label} cannot embark in {transport.label}: {problem}")
    del battle.units[unit.id]
    state_of(battle).embarked[unit.id] = Embarked(unit, transport.id)
    battle.emit(
        UnitEmbarked(unit.label, transport.label, places_needed(unit), capacity_of(transport))
    )


def start_embarked(battle: Battle, unit_id: str, transport_id: str) -> None:
    """A scenario's ``embarked_in``: the unit starts the battle aboard the transport."""
    embark(battle, battle.unit(unit_id), battle.unit(transport_id))


def _spots(battle: Battle, unit: Unit, hull: Model) -> list[Vec]:
    """Free spots, one per model of ``unit`` in order, within 2" of the hull and at
    least 1" from enemy models, nearest the hull first, starting on the side facing
    the nearest enemy; fewer when room runs out.

    Around a hull on the table, each model goes in front of it (:func:`_ahead`)
    while there is room there, and round its other sides only when there is not. A
    unit moves as a block (``movement.move_along``: every model by the same vector),
    so a unit set down all round the hull could move in no direction without one of
    its models passing through it, and a hull ringed by the unit's bases could not
    move either (interpretation 1 in docs/rules/waffle.md, *Transports*). A
    destroyed transport's hull is off the table: its passengers are set down where
    it stood, nearest its centre first (interpretation 5)."""
    enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
    cx, cy = hull.position
    toward = 0.0
    if enemies:
        nearest = min(enemies, key=lambda m: base_distance(hull, m))
        toward = math.atan2(nearest.position[1] - cy, nearest.position[0] - cx)
    placed: list[tuple[Vec, float]] = []
    for model in unit.alive_models:
        spot = _first_spot(battle, model, hull, toward, enemies, placed, ahead=hull.alive)
        if spot is None and hull.alive:
            spot = _first_spot(battle, model, hull, toward, enemies, placed, ahead=False)
        if spot is None:
            break
        placed.append((spot, model.radius))
    return [spot for spot, _ in placed]


def _first_spot(
    battle: Battle,
    model: Model,
    hull: Model,
    toward: float,
    enemies: list[Model],
    placed: list[tuple[Vec, float]],
    ahead: bool,
) -> Vec | None:
    """The first spot for ``model`` on rings round the hull (:data:`RING_STEP`, from
    the centre out), each tried from the bearing ``toward`` outward on both sides
    (:data:`ANGLE_STEP`), that is free, clear of ``enemies`` by 1", overlaps no base
    ``placed`` before it and, with ``ahead``, lies in front of the hull
    (:func:`_ahead`); ``None`` when none does."""
    reach = hull.radius + model.radius + ACCESS_DISTANCE
    rings = int(reach / RING_STEP) + 1
    for ring in range(rings + 1):
        radius = min(reach, ring * RING_STEP)
        for step in range(0, 180 // ANGLE_STEP + 1):
            for sign in (1, -1) if 0 < step < 180 // ANGLE_STEP else (1,):
                angle = toward + math.radians(sign * step * ANGLE_STEP)
                spot = (
                    hull.position[0] + radius * math.cos(angle),
                    hull.position[1] + radius * math.sin(angle),
                )
                if (not ahead or _ahead(model, spot, hull, toward)) and _fits(
                    battle, model, spot, enemies, placed
                ):
                    return spot
    return None


def _ahead(model: Model, spot: Vec, hull: Model, toward: float) -> bool:
    """Whether ``model``'s base at ``spot`` lies wholly in front of the hull: beyond the
    line that touches the hull's front (the side facing the bearing ``toward``) square
    to that bearing. A unit whose bases all lie there can move as a block in any
    direction within 90° of ``toward`` without one passing through the hull, and the
    hull can move in any direction within 90° of the opposite one past them all."""
    along = (spot[0] - hull.position[0]) * math.cos(toward) + (
        spot[1] - hull.position[1]
    ) * math.sin(toward)
    return along >= hull.radius + model.radius - EPSILON


def _fits(
    battle: Battle, model: Model, spot: Vec, enemies: list[Model], placed: list[tuple[Vec, float]]
) -> bool:
    """Whether ``model``'s base at ``spot`` is free (:func:`placement.is_free`), 1" from
    every enemy and overlaps none of the bases ``placed`` (its unit's, not yet set down)."""
    return (
        is_free(battle, model, spot)
        and keeps_clear(model, spot, enemies)
        and all(centre_distance(spot, at) >= model.radius + r - EPSILON for at, r in placed)
    )


def _put_back(battle: Battle, unit: Unit, spots: list[Vec]) -> None:
    for model, spot in zip(unit.alive_models, spots, strict=False):
        model.position = spot
    del state_of(battle).embarked[unit.id]
    battle.units[unit.id] = unit


def may_disembark(battle: Battle, unit: Unit, transport: Unit) -> bool:
    """7th edition: a unit may disembark in its Movement phase if its transport has not
    moved more than Combat Speed (hammerlab's vehicles never do: ``vehicles.COMBAT_SPEED``)
    and there is room for every model within 2" of an Access Point, not within 1" of
    an enemy; it may not disembark in the phase it embarked."""
    if st(battle, unit).embarked_turn == battle.turn:
        return False
    return len(_spots(battle, unit, transport.alive_models[0])) == len(unit.alive_models)


def disembark(battle: Battle, unit: Unit, transport: Unit) -> None:
    """Set ``unit`` on the table around its transport's hull (:func:`may_disembark`).

    Hammerlab's reading: disembarking counts as the unit's move for its weapons
    (Heavy weapons fire Snap Shots), and it may still make its normal move.
    """
    spots = _spots(battle, unit, transport.alive_models[0])
    _put_back(battle, unit, spots)
    unit.status.moved = True
    st(battle, unit).disembarked_turn = battle.turn
    battle.emit(UnitDisembarked(unit.label, transport.label, DISEMBARK, len(spots), 0))


def offer_disembarking(battle: Battle, player: str) -> None:
    """At the start of ``player``'s Movement phase, before anything moves, each unit
    aboard one of its transports may disembark (the controller chooses). Passengers
    of a transport destroyed by a rule that did not set them down (anything but
    the Vehicle Damage rules) get out now, as from a wreck: never stranded."""
    for uid, entry in sorted(state_of(battle).embarked.items()):
        transport = battle.units[entry.transport]
        unit = entry.unit
        if unit.player != player:
            continue
        if transport.destroyed:
            bail_out(battle, transport, transport.models[0], "transport destroyed")
            continue
        if not may_disembark(battle, unit, transport):
            continue
        choice = battle.decide(
            Decision(
                kind="disembark",
                player=player,
                prompt=f"{unit.label} is aboard {transport.label}: disembark?",
                choices=(Choice(DISEMBARK, DISEMBARK), Choice(STAY_ABOARD, STAY_ABOARD)),
                context=DecisionContext(unit=uid, target=transport.id),
            )
        )
        if choice == DISEMBARK:
            disembark(battle, unit, transport)


def transports_in_reach(battle: Battle, unit: Unit) -> list[Unit]:
    """Friendly transports with room for ``unit`` whose hull every model of it is within
    2" of (7th edition: "all of its models" within 2" of an Access Point)."""
    if st(battle, unit).disembarked_turn == battle.turn or is_vehicle(unit):
        return []
    return [
        t
        for t in battle.units_of(unit.player)
        if t is not unit
        and embark_problem(battle, unit, t) is None
        and all(
            base_distance(m, t.alive_models[0]) <= ACCESS_DISTANCE + EPSILON
            for m in unit.alive_models
        )
    ]


def offer_embarking(battle: Battle, unit: Unit) -> None:
    """At the end of its move in the Movement phase, a unit within 2" of a friendly
    transport with room may embark (the controller chooses; staying out comes first)."""
    reachable = transports_in_reach(battle, unit)
    if not reachable:
        return
    choices: tuple[Choice[str | None], ...] = (
        Choice(STAY_OUT, None),
        *(Choice[str | None](f"{EMBARK} ({t.id})", t.id) for t in reachable),
    )
    chosen: str | None = battle.decide(
        Decision(
            kind="embark",
            player=unit.player,
            prompt=f'{unit.label} may embark in a transport within 2"',
            choices=choices,
            context=DecisionContext(unit=unit.id),
        )
    )
    if chosen is not None:
        embark(battle, unit, battle.unit(chosen))
        st(battle, unit).embarked_turn = battle.turn


def bail_out(battle: Battle, transport: Unit, hull: Model, how: str) -> list[tuple[Unit, int]]:
    """The passengers of a destroyed transport disembark around where its hull stood
    (7th edition: "Wrecked … the unit must immediately disembark"; Explodes!: the
    passengers disembark and suffer hits). Models with no room within 2" of the hull
    are removed as casualties, never left aboard. Returns each unit set down with the
    number of its models that were aboard (Explodes!: one hit each, ``vehicle_damage``)."""
    out: list[tuple[Unit, int]] = []
    for unit in passengers_of(battle, transport):
        aboard = list(unit.alive_models)
        spots = _spots(battle, unit, hull)
        _put_back(battle, unit, spots)
        for model in aboard[len(spots) :]:
            remove_casualty(battle, unit, model, f"no room to disembark from {transport.label}")
        battle.emit(
            UnitDisembarked(unit.label, transport.label, how, len(spots), len(aboard) - len(spots))
        )
        out.append((unit, len(aboard)))
    return out
