"""Deep Strike (7th-edition base rules): arriving from reserve anywhere on the table.

7th edition, Deep Strike: "first place one model from the unit anywhere on
the table, in the position you would like the unit to arrive, and roll for
scatter to determine the model's final position. If a Deep Striking unit
scatters, roll 2D6 [...] the model moves that many inches in the direction
of the arrow. [...] The remaining models are placed around the first one, in
base contact with it and forming a circle around it. When the first circle
is complete, a further circle should be placed with each model in base
contact with the circle inside it. [...] If any model in a Deep Striking unit
cannot be deployed because it would land off the table, in impassable
terrain, on top of a friendly model, or on top of or within 1" of an enemy
model, something has gone wrong": roll on the Deep Strike Mishap table
(:func:`mishap`). "In the turn in which they arrive, Deep Striking units may
not move any further, other than to disembark [...]. Units Deep Striking
count as having moved in the previous Movement phase [...] can shoot (or
Run) as normal [...] but cannot charge in that turn's Assault phase."
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from hammerlab.editions.waffle.choice_details import describe_spots, percent
from hammerlab.editions.waffle.deployment_events import DeepStrikeMishap, DeepStrikeScattered
from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.markers import scatter
from hammerlab.editions.waffle.movement import dangerous_terrain_tests
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.outflank import OUTFLANK, outflank
from hammerlab.editions.waffle.placement import EPSILON, base_on_table, gaps_to_others
from hammerlab.editions.waffle.reserves import (
    arrives_as,
    back_to_reserves,
    put_on_table,
    reserve_roll,
    reserve_state,
    waiting_units,
)
from hammerlab.editions.waffle.scatter_odds import scatter_outcomes
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.zooming import ZOOM, zoom_in
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec, offset
from hammerlab.engine.moves import centre_of
from hammerlab.engine.units import Unit

ENEMY_GAP = 1.0
"""7th edition: a Deep Striking model may not land "within 1" of an enemy model"."""

AIM_DISTANCES = (6.0, 9.0, 12.0, 18.0, 24.0)
"""Inches from an enemy unit's centre of the points offered to place the first
model (with :data:`AIM_DIRECTIONS`): the rule allows "anywhere on the table";
a finite list lets every controller, the AI and a person, choose."""
AIM_DIRECTIONS = 8
"""Directions around each enemy unit of the points offered (every 45 degrees)."""
AIM_GRID = 6.0
"""Spacing in inches of the grid of points over the whole table also offered."""
DESCRIBED_DIRECTIONS = 36
"""Directions of the scatter arrow (every 10 degrees) over which a person choosing a
point is told its chance of a mishap (:func:`describe_landing`). The arrow points
anywhere; the AI's eight (:data:`AIM_DIRECTIONS`) rank a hundred points fast enough,
but near an edge or an enemy they can miss or double a whole eighth of the circle."""

MISHAPS = {1: "terrible accident", 2: "misplaced", 3: "misplaced"}
"""The ``Warhammer40K.gst`` Deep Strike Mishap table: "1: Terrible Accident! -
The entire unit is destroyed! 2-3: Misplaced - Your opponent may deploy the
unit anywhere on the table [...] in a valid Deep Strike formation, without
rolling for scatter. 4-6: Delayed - The unit is placed in Ongoing Reserves."
Rolls not listed (4-6) are ``delayed``."""


def ring_positions(unit: Unit, centre: Vec) -> list[Vec]:
    """Where the unit's models stand when the first lands at ``centre``.

    The first model at ``centre``; circle ``k`` has ``floor(2 pi k)`` places
    spaced evenly, ``k`` base widths out (the widest base of the unit), so each
    model touches the circle inside it and its neighbours do not overlap.
    """
    pitch = 2 * max(m.radius for m in unit.alive_models)
    spots = [centre]
    ring = 1
    while len(spots) < len(unit.alive_models):
        places = math.floor(2 * math.pi * ring)
        spots += [offset(centre, 360.0 * j / places, ring * pitch) for j in range(places)]
        ring += 1
    return spots[: len(unit.alive_models)]


def landing_problem(battle: Battle, unit: Unit, spots: list[Vec]) -> str | None:
    """Why the unit cannot be placed at ``spots`` (``None``: it can).

    "Off the table", "on top of a friendly model", "on top of or within 1" of an
    enemy model". The engine's terrain has no impassable areas (interpretation:
    every terrain area may be landed in).
    """
    if not all(base_on_table(battle, m, s) for m, s in zip(unit.alive_models, spots, strict=True)):
        return "off the table"
    for _, other, enemy, gap in gaps_to_others(battle, unit, spots):
        if enemy and gap < ENEMY_GAP - EPSILON:
            return f'within 1" of enemy model {other.id}'
        if gap < -EPSILON:
            return f"on top of {other.id}"
    return None


def landings_blocked(battle: Battle, unit: Unit, centres: Sequence[Vec]) -> list[bool]:
    """Whether the unit landing at each of ``centres`` (its circles:
    :func:`ring_positions`) has a :func:`landing_problem`, all asked at once.

    The AI weighs a point by its chance of a mishap over the scatter's outcomes
    (about ninety for each of a hundred points), which a loop over every pair of
    models made most of a Deep Striking battle's time; here one table of base
    gaps answers them all, with the same comparisons and tolerances.
    """
    if not centres:
        return []
    models = unit.alive_models
    circle = np.array(ring_positions(unit, (0.0, 0.0)))  # offsets from the first model
    spots = np.asarray(centres, dtype=float)[:, None, :] + circle[None, :, :]
    radii = np.array([m.radius for m in models])
    x, y = spots[..., 0], spots[..., 1]
    field = battle.battlefield
    on_table = (
        (radii - EPSILON <= x)
        & (x <= field.width - radii + EPSILON)
        & (radii - EPSILON <= y)
        & (y <= field.height - radii + EPSILON)
    ).all(axis=1)
    others = [
        (other, u.player != unit.player)
        for u in battle.units.values()
        if u.id != unit.id
        for other in u.alive_models
    ]
    if not others:
        return [bool(b) for b in ~on_table]
    where = np.array([other.position for other, _ in others])
    gaps = (
        np.hypot(
            spots[:, :, None, 0] - where[None, None, :, 0],
            spots[:, :, None, 1] - where[None, None, :, 1],
        )
        - radii[None, :, None]
        - np.array([other.radius for other, _ in others])[None, None, :]
    )
    enemy = np.array([is_enemy for _, is_enemy in others])[None, None, :]
    clash = ((gaps < -EPSILON) | (enemy & (gaps < ENEMY_GAP - EPSILON))).any(axis=(1, 2))
    return [bool(b) for b in ~on_table | clash]


def aim_points(battle: Battle, unit: Unit) -> list[Vec]:
    """Points where the whole unit could land (first offered, nearest enemies first).

    :data:`AIM_DISTANCES` in :data:`AIM_DIRECTIONS` around each enemy unit's
    centre, and a grid every :data:`AIM_GRID` inches over the table; only those
    where the unit's circles fit (:func:`landing_problem`), rounded to 0.1" and
    each once.
    """
    field = battle.battlefield
    centres = [centre_of(enemy) for enemy in battle.enemies_of(unit)]
    candidates: list[Vec] = []
    for distance in AIM_DISTANCES:
        for centre in centres:
            for step in range(AIM_DIRECTIONS):
                candidates.append(offset(centre, 360.0 * step / AIM_DIRECTIONS, distance))
    columns, rows = int(field.width // AIM_GRID), int(field.height // AIM_GRID)
    candidates += [(AIM_GRID * i, AIM_GRID * j) for j in range(1, rows) for i in range(1, columns)]
    rounded = list(dict.fromkeys((round(x, 1), round(y, 1)) for x, y in candidates))
    blocked = landings_blocked(battle, unit, rounded)
    return [point for point, no in zip(rounded, blocked, strict=True) if not no]


SCATTER_NOTE = (
    ' It scatters 2D6" unless the scatter die shows a HIT (2 in 6); it mishaps if it '
    'lands off the table, on a model or within 1" of an enemy model.'
)
"""What the question of an arriving unit's point adds: what its ``mishap`` chances
(:func:`describe_landing`) are the chances of."""


def choose_point(
    battle: Battle, unit: Unit, player: str, why: str, scatters: bool = True
) -> Vec | None:
    """Ask ``player`` where to place the unit's first model (``None``: nowhere fits).

    Each point is labelled by its coordinates (the answer's name in the record); a
    person is also told what it means (:func:`describe_landing`): with ``scatters``
    (the unit arriving, not Misplaced), its chance of a mishap.
    """
    points = aim_points(battle, unit)
    if not points:
        return None
    return battle.decide(
        Decision(
            kind="deep_strike",
            player=player,
            prompt=f"Where does {unit.label} Deep Strike ({why})?"
            + (SCATTER_NOTE if scatters else ""),
            choices=tuple(Choice(f"({x:.1f}, {y:.1f})", (x, y)) for x, y in points),
            context=DecisionContext(unit=unit.id, why=why),
            describe=describe_landing(battle, unit, scatters),
        )
    )


def describe_landing(battle: Battle, unit: Unit, scatters: bool) -> Callable[[Vec], str]:
    """What a person choosing where the unit Deep Strikes is told of each point:
    how far its circles (:func:`ring_positions`) would stand from the nearest enemy
    unit and in what terrain (:func:`choice_details.describe_spots`), and, if it
    ``scatters``, its chance of a mishap (:func:`mishap_chance` over
    :data:`DESCRIBED_DIRECTIONS`): ``9.5" from Ork Boyz [boyz], mishap 23%``."""

    def describe(point: Vec) -> str:
        text = describe_spots(battle, unit, ring_positions(unit, point))
        if not scatters:
            return text
        chance = mishap_chance(battle, unit, point, DESCRIBED_DIRECTIONS)
        return f"{text}, mishap {percent(chance)}"

    return describe


def land(battle: Battle, unit: Unit, spots: list[Vec]) -> None:
    """Place the unit: it counts as having moved, and may not charge this turn.

    Models landing in dangerous terrain take Dangerous Terrain tests
    (:func:`movement.dangerous_terrain_tests`).
    """
    for model, spot in zip(unit.alive_models, spots, strict=True):
        model.position = spot
    put_on_table(battle, unit)
    state = reserve_state(battle)
    assert state is not None
    state.arrived[unit.id] = battle.turn
    unit.status.moved = True
    dangerous_terrain_tests(battle, unit)


def mishap(battle: Battle, unit: Unit, reason: str) -> None:
    """Roll on the Deep Strike Mishap table (:data:`MISHAPS`).

    Misplaced: the opponent chooses among the points where the unit fits
    (:func:`choose_point`), and it lands there without scatter; if none fits
    (interpretation) it is Delayed instead.
    """
    roll = battle.dice.d6(f"Deep Strike Mishap ({unit.label})")
    result = MISHAPS.get(roll, "delayed")
    battle.emit(DeepStrikeMishap(unit=unit.label, reason=reason, roll=roll, result=result))
    if result == "terrible accident":
        for model in unit.alive_models:
            battle.remove_model(unit, model, "Deep Strike Mishap: Terrible Accident!")
        put_on_table(battle, unit)
        return
    if result == "misplaced":
        point = choose_point(
            battle, unit, battle.opponent(unit.player), "misplaced", scatters=False
        )
        if point is not None:
            land(battle, unit, ring_positions(unit, point))
            return
    back_to_reserves(battle, unit)


def deep_strike(battle: Battle, unit: Unit) -> None:
    """The unit arrives by Deep Strike: its player places it, it scatters, it lands or mishaps.

    The scatter is the blast markers' (:func:`markers.scatter`): a HIT, or 2D6"
    in the arrow's direction.
    """
    aimed = choose_point(battle, unit, unit.player, "arrives from reserve")
    if aimed is None:
        mishap(battle, unit, "no room on the table")
        return
    landed, distance, _ = scatter(battle, aimed)
    battle.emit(
        DeepStrikeScattered(unit=unit.label, aimed=aimed, landed=landed, scattered=distance)
    )
    spots = ring_positions(unit, landed)
    problem = landing_problem(battle, unit, spots)
    if problem is None:
        land(battle, unit, spots)
    else:
        mishap(battle, unit, problem)


def arrive_from_reserves(battle: Battle, player: str) -> frozenset[str]:
    """Start of the movement phase: Reserve Rolls, then each arriving unit Deep Strikes
    (a Zooming Flyer back from Ongoing Reserves zooms in: ``zooming.zoom_in``; an
    Outflanking unit comes on from a side edge: ``outflank.outflank``).

    Returns the units that arrived: "Deep Striking units may not move any
    further" this Movement phase (a Flyer made its move coming in, an
    Outflanking unit its move onto the table).
    """
    arrived: set[str] = set()
    for unit in waiting_units(battle, player):
        if reserve_roll(battle, unit):
            if arrives_as(battle, unit) == ZOOM:
                zoom_in(battle, unit)
            elif arrives_as(battle, unit) == OUTFLANK:
                outflank(battle, unit)
            else:
                deep_strike(battle, unit)
            if unit.id in battle.units:
                arrived.add(unit.id)
    return frozenset(arrived)


def landing_values(battle: Battle, unit: Unit, points: list[Vec]) -> list[float]:
    """What Deep Striking at each of ``points`` is worth to the unit's player, in models.

    The expected casualties of its shooting from there (as having moved:
    :func:`expected.expected_attack` at its best target), times the chance
    it lands, less the chance of a Terrible Accident times its models: the
    chance of a mishap is counted over the scatter's outcomes (a HIT 1/3;
    otherwise each of :data:`AIM_DIRECTIONS` directions alike and the 2D6
    distance), and a mishap destroys the unit on a 1 in 6.

    Each point is weighed with a copy of the unit standing there; the copies
    live until all are weighed, as the AI's answers are remembered by the
    identity of the units asked about (``engine.memo``).
    """
    probes = [unit.copy() for _ in points]
    return [
        _landing_value(battle, probe, point) for probe, point in zip(probes, points, strict=True)
    ]


def _landing_value(battle: Battle, probe: Unit, point: Vec) -> float:
    for model, spot in zip(probe.alive_models, ring_positions(probe, point), strict=True):
        model.position = spot
    probe.status.moved = True
    shooting = max(
        (
            expected_attack(battle, probe, enemy, FireOrders())
            for enemy in targets_for(battle, probe, FireOrders())
        ),
        default=0.0,
    )
    p_mishap = mishap_chance(battle, probe, point)
    return (1 - p_mishap) * shooting - p_mishap * len(probe.alive_models) / 6


def mishap_chance(
    battle: Battle, unit: Unit, point: Vec, directions: int = AIM_DIRECTIONS
) -> float:
    """The chance that the unit, its first model placed at ``point``, mishaps.

    A HIT on the scatter die (2 in 6) lands it at ``point``, taken to fit (as every
    point :func:`aim_points` offers does); otherwise it moves the 2D6 total in the
    arrow's direction, counted as ``directions`` directions alike
    (:func:`scatter_odds.scatter_outcomes`, with nothing taken off), and mishaps
    where it lands off the table, on a model or within 1" of an enemy model
    (:func:`landings_blocked`).
    """
    moves = scatter_outcomes(point, 0, directions).moves
    blocked = landings_blocked(battle, unit, [spot for spot, _ in moves])
    return sum(chance for (_, chance), off in zip(moves, blocked, strict=True) if off)
