"""Outflank (7th-edition special rule): a unit in Reserve arrives from a side table edge.

BattleScribe ``Warhammer40K.gst``, rule "Outflank": "During deployment,
players can declare that any unit that contains at least one model with this
special rule is attempting to Outflank the enemy. [...] When an Outflanking
unit arrives from Reserves, but not Ongoing Reserve, the controlling player
rolls a D6: on a 1-2, the unit comes in from the table edge to the left of
their controlling player's own table edge; on a 3-4, they come on from the
right; on a 5-6, the player can choose left or right. Models move onto the
table as described for other Reserves."

A scenario declares it with ``reserve = "outflank"``; the Reserve Roll is the
other reserves' (:func:`reserves.reserve_roll`), and
:func:`deep_strike.arrive_from_reserves` brings the unit on here.
"""

from __future__ import annotations

from hammerlab.editions.waffle.choice_details import describe_shift
from hammerlab.editions.waffle.deployment_events import OutflankEntered, OutflankRolled
from hammerlab.editions.waffle.movement import dangerous_terrain_tests, move_allowance
from hammerlab.editions.waffle.placement import EPSILON, base_on_table, gaps_to_others
from hammerlab.editions.waffle.reserves import put_on_table
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import centre_of, translate
from hammerlab.engine.units import Unit

OUTFLANK = "outflank"
"""How a unit in reserve arrives (a scenario's ``reserve = "outflank"``)."""

SIDES = {1: "left", 2: "left", 3: "right", 4: "right"}
"""The gst's D6: "on a 1-2 [...] left [...] on a 3-4 [...] right; on a 5-6, the
player can choose left or right" (rolls not listed are the player's choice)."""

LEFT_RIGHT = {
    "south": ("west", "east"),
    "north": ("east", "west"),
    "west": ("north", "south"),
    "east": ("south", "north"),
}
"""A player's own table edge → the edges to its left and right, as seen by the
player looking across the table from it (south is y = 0, west x = 0)."""

INWARD = {"west": (1.0, 0.0), "east": (-1.0, 0.0), "south": (0.0, 1.0), "north": (0.0, -1.0)}
"""Each table edge's direction into the table."""

ENTRY_SPACING = 6.0
"""Inches between the points along an edge offered for the unit to come on at:
the rule lets it come on anywhere along the edge; a finite list lets the AI, a
person and a script choose among the same labels."""

ENEMY_GAP = 1.0
"""A moving model may not come within 1" of an enemy model (6th/7th-edition
movement)."""


def edge_of(battle: Battle, player: str, side: str) -> str:
    """The table edge to the ``side`` (``left``/``right``) of ``player``'s own edge."""
    left, right = LEFT_RIGHT[battle.player(player).edge]
    return left if side == "left" else right


def outflank_edge(battle: Battle, unit: Unit) -> str:
    """Roll the D6 for the edge (:data:`SIDES`); on a 5-6 the unit's player chooses
    (an ``outflank_edge`` decision: left or right). Returns the compass edge."""
    roll = battle.dice.d6(f"Outflank ({unit.label})")
    side = SIDES.get(roll)
    if side is None:
        side = battle.decide(
            Decision(
                kind="outflank_edge",
                player=unit.player,
                prompt=f"{unit.label} outflanks: from the left or the right?",
                choices=tuple(
                    Choice(f"{s} ({edge_of(battle, unit.player, s)})", s) for s in ("left", "right")
                ),
                context=DecisionContext(unit=unit.id),
            )
        )
    edge = edge_of(battle, unit.player, side)
    battle.emit(
        OutflankRolled(unit=unit.label, roll=roll, side=side, edge=edge, chose=roll not in SIDES)
    )
    return edge


def entry_shifts(battle: Battle, unit: Unit, edge: str) -> list[Vec]:
    """Where the unit may come on along ``edge``: the shift of its formation (as it
    stands in reserve) to each place that fits.

    "Models move onto the table as described for other Reserves" (7th edition,
    as remembered: each model moves on as if it stood just off the table edge,
    up to its move). The formation keeps its shape; its centre is put every
    :data:`ENTRY_SPACING` inches along the edge, and into the table so that its
    model farthest from the edge ends its move (:func:`movement.move_allowance`)
    from it, or, for a formation deeper than that, so that its nearest base
    touches the edge. A place fits when every base is on the table, overlaps
    no other base and is at least 1" from every enemy base.
    """
    inward = INWARD[edge]
    centre = centre_of(unit)
    models = unit.alive_models
    offsets = [
        (m.position[0] - centre[0]) * inward[0] + (m.position[1] - centre[1]) * inward[1]
        for m in models
    ]
    reach = move_allowance(unit) - max(o + m.radius for o, m in zip(offsets, models, strict=True))
    depth = max(reach, *(m.radius - o for o, m in zip(offsets, models, strict=True)))
    field = battle.battlefield
    length = field.height if inward[0] else field.width
    shifts: list[Vec] = []
    for step in range(1, int(length // ENTRY_SPACING)):
        along = step * ENTRY_SPACING
        if inward[0]:
            x = depth if inward[0] > 0 else field.width - depth
            point = (x, along)
        else:
            y = depth if inward[1] > 0 else field.height - depth
            point = (along, y)
        shift = (round(point[0] - centre[0], 3), round(point[1] - centre[1], 3))
        if _fits(battle, unit, shift):
            shifts.append(shift)
    return shifts


def _fits(battle: Battle, unit: Unit, shift: Vec) -> bool:
    spots = [(m.position[0] + shift[0], m.position[1] + shift[1]) for m in unit.alive_models]
    if not all(base_on_table(battle, m, s) for m, s in zip(unit.alive_models, spots, strict=True)):
        return False
    return all(
        gap >= (ENEMY_GAP if enemy else 0.0) - EPSILON
        for _, _, enemy, gap in gaps_to_others(battle, unit, spots)
    )


def outflank(battle: Battle, unit: Unit) -> None:
    """The unit arrives by Outflank: the edge (:func:`outflank_edge`), then its player
    chooses where along it (an ``outflank`` decision among :func:`entry_shifts`).

    Coming on is the unit's move: it counts as having moved and moves no further
    this Movement phase; it may shoot, Run and charge as normal (interpretation,
    as remembered: only Deep Strike forbids the charge). Models ending in
    dangerous terrain test (:func:`movement.dangerous_terrain_tests`). If no
    place on the edge fits, the unit stays in reserve (interpretation) and rolls
    again next turn.
    """
    edge = outflank_edge(battle, unit)
    shifts = entry_shifts(battle, unit, edge)
    if not shifts:
        battle.emit(OutflankEntered(unit=unit.label, edge=edge, centre=None))
        return
    centre = centre_of(unit)
    shift = battle.decide(
        Decision(
            kind="outflank",
            player=unit.player,
            prompt=f"Where along the {edge} edge does {unit.label} come on?",
            choices=tuple(
                Choice(f"({centre[0] + dx:.1f}, {centre[1] + dy:.1f})", (dx, dy))
                for dx, dy in shifts
            ),
            context=DecisionContext(unit=unit.id, why=edge),
            describe=describe_shift(battle, unit),
        )
    )
    translate(unit, shift)
    put_on_table(battle, unit)
    unit.status.moved = True
    battle.emit(OutflankEntered(unit=unit.label, edge=edge, centre=centre_of(unit)))
    dangerous_terrain_tests(battle, unit)
