"""Infiltrate (7th-edition base rules): Infiltrators set up last, close to the enemy.

``Warhammer40K.gst``, Infiltrate: "Units that contain at least one model with
this special rule are deployed last, after all other units (friend and foe)
have been deployed. If both sides have Infiltrators, the players roll-off and
the winner decides who goes first, then alternate deploying these units.
Infiltrators can be set up anywhere on the table that is more than 12" from
any enemy unit, as long as no deployed enemy unit can draw line of sight to
them. [...] Alternatively, they can be set up anywhere on the table more than
18" from any enemy unit, even in plain sight. [...] A unit that deploys using
these rules cannot charge in their first turn."

A scenario marks a unit ``infiltrate = true``; its ``position`` is where it
deploys if its player does not infiltrate. Before the first turn (at the
start of the first Movement phase, before Scout redeployments) each such unit
may be set up again at a point offered (:func:`infiltration_points`).
"""

from __future__ import annotations

from hammerlab.editions.waffle.choice_details import describe_shift
from hammerlab.editions.waffle.deployment_events import Infiltrated
from hammerlab.editions.waffle.placement import EPSILON, base_on_table, gaps_to_others
from hammerlab.editions.waffle.vehicles import face_the_enemy
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import centre_of, translate
from hammerlab.engine.units import Model, Unit

INFILTRATE = "infiltrate"
"""The rule's key in ``battle.memory``: units that may infiltrate, then those that did."""

HIDDEN_DISTANCE = 12.0
"""More than 12" from any enemy unit, out of its sight."""
OPEN_DISTANCE = 18.0
"""More than 18" from any enemy unit, "even in plain sight"."""
GRID = 6.0
"""Spacing in inches of the points offered (a grid over the whole table)."""
DEPLOY_NORMALLY = "deploy normally"


def set_infiltrators(battle: Battle, unit_ids: list[str]) -> None:
    """Note the units a scenario lets infiltrate (none: nothing is remembered)."""
    if unit_ids:
        battle.memory[INFILTRATE] = {"waiting": list(unit_ids), "done": []}


def may_set_up(battle: Battle, unit: Unit, shift: Vec) -> bool:
    """Whether the unit moved by ``shift`` may be set up by Infiltrate: on the table,
    overlapping no base, and either of the rule's two places, each judged against
    every enemy at once: more than 12" from every enemy model where no enemy model
    can see any of the unit's models (centre to centre), or more than 18" from every
    enemy model, seen or not. (Until session 22 each enemy model was judged alone,
    more than 18" off or more than 12" off and unable to see, so a spot 17" from one
    enemy out of its sight and in plain sight of another 33" away was taken; a
    referee review.)"""
    spots = [(m.position[0] + shift[0], m.position[1] + shift[1]) for m in unit.alive_models]
    if not all(base_on_table(battle, m, s) for m, s in zip(unit.alive_models, spots, strict=True)):
        return False
    near = False
    enemies: list[tuple[Vec, Model]] = []
    for spot, other, enemy, gap in gaps_to_others(battle, unit, spots):
        if gap < -EPSILON or (enemy and gap <= HIDDEN_DISTANCE):
            return False
        if enemy:
            near = near or gap <= OPEN_DISTANCE
            enemies.append((spot, other))
    if not near:  # "more than 18" from any enemy unit, even in plain sight"
        return True
    field = battle.battlefield  # "as long as no deployed enemy unit can draw line of sight"
    return not any(field.can_see(other.position, spot) for spot, other in enemies)


def infiltration_points(battle: Battle, unit: Unit) -> list[Vec]:
    """The shifts offered: the unit's formation centred on each point of a
    :data:`GRID`-inch grid over the table where it may be set up (:func:`may_set_up`)."""
    field = battle.battlefield
    cx, cy = centre_of(unit)
    shifts: list[Vec] = []
    for j in range(1, int(field.height // GRID)):
        for i in range(1, int(field.width // GRID)):
            shift = (round(GRID * i - cx, 1), round(GRID * j - cy, 1))
            if may_set_up(battle, unit, shift):
                shifts.append(shift)
    return shifts


def infiltrate(battle: Battle, unit: Unit) -> None:
    """Ask the unit's player where it sets up (or to deploy normally), and place it (a
    vehicle, set up anew, faces the enemy: :func:`vehicles.face_the_enemy`)."""
    offered = infiltration_points(battle, unit)
    if not offered:
        return
    cx, cy = centre_of(unit)
    choices: list[Choice[Vec | None]] = [Choice(DEPLOY_NORMALLY, None)]
    choices += [Choice(f"({cx + dx:.1f}, {cy + dy:.1f})", (dx, dy)) for dx, dy in offered]
    shift = battle.decide(
        Decision(
            kind="infiltrate",
            player=unit.player,
            prompt=f"Infiltrate: where does {unit.label} set up?",
            choices=tuple(choices),
            context=DecisionContext(unit=unit.id),
            describe=describe_shift(battle, unit),
        )
    )
    if shift is None:
        return
    translate(unit, shift)
    face_the_enemy(battle, unit, again=True)
    done: list[str] = battle.memory[INFILTRATE]["done"]
    done.append(unit.id)
    battle.emit(Infiltrated(unit=unit.label, centre=centre_of(unit)))


def infiltration(battle: Battle, player: str) -> None:
    """Before the first turn, the Infiltrators set up, alternating.

    Interpretation: instead of a roll-off, the first player (``player``, whose
    first Movement phase this is) goes first.
    """
    memory = battle.memory.get(INFILTRATE)
    if battle.turn != 1 or memory is None or not memory["waiting"]:
        return
    waiting = [battle.unit(u) for u in memory["waiting"]]
    memory["waiting"] = []
    queues = [
        [u for u in waiting if u.player == player],
        [u for u in waiting if u.player != player],
    ]
    while any(queues):
        for queue in queues:
            if queue:
                infiltrate(battle, queue.pop(0))


def infiltrated(battle: Battle, unit: Unit) -> bool:
    """Whether the unit deployed by Infiltrate and it is the first game turn (it
    "cannot charge in their first turn")."""
    memory = battle.memory.get(INFILTRATE)
    return battle.turn == 1 and memory is not None and unit.id in memory["done"]
