"""The Zooming Flyer's move (7th edition): at least 18", at most 36", off the table into
Ongoing Reserves.

7th edition, Zooming, quoted from memory of the rulebook (no public copy was
found): a Zooming Flyer "must move at least 18"" in its Movement phase and
"can move up to 36""; it "can make a single pivot on the spot of up to 90°"
before it moves, then moves straight ahead; it may move over other models;
"if a Zooming Flyer moves off the table … it is placed into Ongoing
Reserves", and a Flyer arriving from Reserves moves onto the table from its
controlling player's table edge. ``docs/rules/waffle.md``, *Vehicles*,
interpretation 13, says how hammerlab reads it.
"""

from __future__ import annotations

import math

from hammerlab.editions.waffle.movement import choose_intent, goal_of
from hammerlab.editions.waffle.reserves import put_on_table, to_ongoing_reserves
from hammerlab.editions.waffle.vehicles import heading_of, turn_to_moves, vehicle_status
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec, centre_distance
from hammerlab.engine.moves import OVERLAP_TOLERANCE, centre_of, shift_unit
from hammerlab.engine.units import Unit

ZOOM_MINIMUM = 18.0
"""Zooming: "must move at least 18""."""
ZOOM_MAXIMUM = 36.0
"""Zooming: "can move up to 36""."""
PIVOT_LIMIT = 90.0
"""Zooming: "a single pivot on the spot of up to 90°" before moving."""
ZOOM_STEP = 0.5
"""Inches between the lengths tried when the wanted end of the move is taken."""
ZOOM = "zoom"
"""How a Flyer in Ongoing Reserves arrives (``reserves.ReserveState.how``)."""


def _bearing(origin: Vec, point: Vec) -> float:
    return math.degrees(math.atan2(point[1] - origin[1], point[0] - origin[0]))


def zoom_bearing(heading: float, wanted: float) -> float:
    """The direction of the move: ``wanted``, pivoting at most :data:`PIVOT_LIMIT`
    degrees off ``heading``."""
    off = (wanted - heading + 180.0) % 360.0 - 180.0
    return heading + max(-PIVOT_LIMIT, min(PIVOT_LIMIT, off))


def zoom_lengths(wanted: float) -> list[float]:
    """The lengths tried, nearest ``wanted`` first: down to 18", then up to 36"."""
    steps = round((ZOOM_MAXIMUM - ZOOM_MINIMUM) / ZOOM_STEP)
    lengths = [ZOOM_MINIMUM + k * ZOOM_STEP for k in range(steps + 1)]
    return sorted(lengths, key=lambda d: (abs(d - wanted), d))


def zoom_vector(battle: Battle, unit: Unit, intent: str) -> Vec | None:
    """The Zooming move toward where ``intent`` leads (``movement.goal_of``): the Flyer
    pivots toward it (at most 90°) and flies straight ahead its distance to it, at least
    18" and at most 36" (18" when it holds). It flies over other models but ends clear
    of their bases, at the length nearest the wanted one that does. ``None`` when even
    the lengths that stay on the table leave it on another base, or none stays on it:
    the Flyer leaves the table."""
    goal = goal_of(battle, unit, intent)
    centre = centre_of(unit)
    heading = heading_of(battle, unit, unit.alive_models[0])
    wanted_bearing = heading if goal is None else _bearing(centre, goal)
    bearing = math.radians(zoom_bearing(heading, wanted_bearing))
    wanted = ZOOM_MINIMUM if goal is None else centre_distance(centre, goal)
    others = list(battle.other_models(unit))
    for length in zoom_lengths(wanted):
        vector = (math.cos(bearing) * length, math.sin(bearing) * length)
        ends = [
            (m, (m.position[0] + vector[0], m.position[1] + vector[1])) for m in unit.alive_models
        ]
        if not all(battle.battlefield.on_table(end) for _, end in ends):
            continue
        if all(
            centre_distance(end, o.position) >= m.radius + o.radius - OVERLAP_TOLERANCE
            for m, end in ends
            for o in others
        ):
            return vector
    return None


def zoom(battle: Battle, unit: Unit) -> None:
    """A Zooming Flyer's move: its player picks where to (the move's intent), and it
    makes its :func:`zoom_vector` move, or leaves the table (:func:`leave_table`)."""
    intent = choose_intent(battle, unit, 'zooms 18" to 36"', phase="movement")
    vector = zoom_vector(battle, unit, intent)
    if vector is None:
        leave_table(battle, unit)
        return
    starts = {m.id: m.position for m in unit.alive_models}
    shift_unit(battle, unit, vector, f"zooms ({intent})")
    unit.status.moved = True
    turn_to_moves(battle, unit, starts)


def leave_table(battle: Battle, unit: Unit) -> None:
    """The Flyer flies off the table: "it is placed into Ongoing Reserves" (it arrives,
    without a roll, at the start of its player's next Movement phase: :func:`zoom_in`)."""
    battle.say("movement", f"{unit.label} zooms off the table into Ongoing Reserves")
    unit.status.moved = True
    to_ongoing_reserves(battle, unit, ZOOM)


INWARD = {"south": 90.0, "north": -90.0, "west": 0.0, "east": 180.0}
"""The heading straight in from each table edge."""


def zoom_in(battle: Battle, unit: Unit) -> None:
    """A Flyer arriving from Ongoing Reserves enters at its player's table edge, at the
    point nearest where it left (its hull just on the table), facing straight in, and
    makes its Zooming move from there (:func:`zoom`)."""
    field = battle.battlefield
    player = battle.player(unit.player)
    centre = centre_of(unit)
    edge = player.edge_point(field, centre)
    inward = INWARD[player.edge]
    for model in unit.alive_models:
        reach = model.radius
        x = model.position[0] - centre[0] + edge[0] + math.cos(math.radians(inward)) * reach
        y = model.position[1] - centre[1] + edge[1] + math.sin(math.radians(inward)) * reach
        model.position = (
            min(field.width - reach, max(reach, x)),
            min(field.height - reach, max(reach, y)),
        )
        vehicle_status(battle, model).heading = inward
    put_on_table(battle, unit)
    battle.say("movement", f"{unit.label} zooms in from its table edge")
    zoom(battle, unit)
