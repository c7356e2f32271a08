"""Scout (7th-edition base rules): a redeployment before the first turn.

``Warhammer40K.gst``, Scout: "After both sides have deployed (including
Infiltrators), but before the first player begins his first turn, a unit
containing at least one model with this special rule can choose to redeploy.
If the unit is Infantry, Artillery, a Walker or a Monstrous Creature, each
model can redeploy anywhere entirely within 6" of its current position. If it
is any other unit type, each model can instead redeploy anywhere entirely
within 12" of its current position. During this redeployment, Scouts can move
outside the owning player's deployment zone, but must remain more than 12"
away from any enemy unit. A unit that makes a Scout redeployment cannot
charge in the first game turn. [...] If both sides have Scouts, roll-off; the
winner decides who redeploys first. Then alternate redeploying Scout units."
"""

from __future__ import annotations

from hammerlab.editions.waffle.choice_details import describe_shift
from hammerlab.editions.waffle.deployment_events import ScoutRedeployed
from hammerlab.editions.waffle.movement import is_fast
from hammerlab.editions.waffle.placement import EPSILON, base_on_table, gaps_to_others
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.vehicles import face_the_enemy
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec, centre_distance, offset
from hammerlab.engine.moves import translate
from hammerlab.engine.units import Model, Unit

SCOUT = "scout"
"""The rule's key in ``battle.memory``: the units that redeployed (a list)."""

ENEMY_DISTANCE = 12.0
"""Scouts "must remain more than 12" away from any enemy unit"."""
SLOW_TYPES = ("Infantry", "Artillery", "Walker", "Monstrous Creature")
"""Unit types that redeploy 6"; "any other unit type" 12"."""
DIRECTIONS = 8
"""Directions offered for the redeployment (every 45 degrees)."""
STAY = "stay"


def scout_distance(unit: Unit) -> float:
    """6" for Infantry, Artillery, Walkers and Monstrous Creatures, else 12".

    Jump, Jetbike, Bike, Beast and Cavalry models are "any other unit type"
    (their type names may contain "Infantry"); Flying Monstrous Creatures too.
    """
    slow = all(_slow(m) for m in unit.alive_models)
    return 6.0 if slow else 12.0


def _slow(model: Model) -> bool:
    stats = stats_of(model.profile)
    if is_fast(model) or stats.has_type("Flying"):
        return False
    return any(stats.has_type(t) for t in SLOW_TYPES)


def legal_shift(battle: Battle, unit: Unit, shift: Vec) -> bool:
    """Whether the whole unit moved by ``shift`` stands on the table, overlaps no
    base, and is more than 12" from every enemy model."""
    spots = [(m.position[0] + shift[0], m.position[1] + shift[1]) for m in unit.alive_models]
    if not all(base_on_table(battle, m, s) for m, s in zip(unit.alive_models, spots, strict=True)):
        return False
    return not any(
        gap < -EPSILON or (enemy and gap <= ENEMY_DISTANCE)
        for _, _, enemy, gap in gaps_to_others(battle, unit, spots)
    )


def shifts(battle: Battle, unit: Unit) -> list[Vec]:
    """The redeployments offered: the whole unit moved its full distance or half of
    it, in each of :data:`DIRECTIONS` directions, where legal (:func:`legal_shift`).

    Moving every model by one vector keeps each "entirely within" the distance
    of where it stood, and the unit in coherency.
    """
    reach = scout_distance(unit)
    found: list[Vec] = []
    for fraction in (1.0, 0.5):
        for step in range(DIRECTIONS):
            dx, dy = offset((0.0, 0.0), 360.0 * step / DIRECTIONS, reach * fraction)
            shift = (round(dx, 1), round(dy, 1))
            if shift not in found and legal_shift(battle, unit, shift):
                found.append(shift)
    return found


def scout_units(battle: Battle, player: str) -> list[Unit]:
    """The player's units on the table with a model that has Scout."""
    return [u for u in battle.units_of(player) if u.has_rule("Scout")]


def redeploy(battle: Battle, unit: Unit) -> None:
    """Ask the unit's player whether and where it redeploys, and move it (a vehicle,
    set up anew, faces the enemy: :func:`vehicles.face_the_enemy`)."""
    offered = shifts(battle, unit)
    if not offered:
        return
    choices: list[Choice[Vec | None]] = [Choice(STAY, None)]
    choices += [Choice(f"shift ({dx:+.1f}, {dy:+.1f})", (dx, dy)) for dx, dy in offered]
    shift = battle.decide(
        Decision(
            kind="scout",
            player=unit.player,
            prompt=f"Scout: does {unit.label} redeploy, and where?",
            choices=tuple(choices),
            context=DecisionContext(unit=unit.id),
            describe=describe_shift(battle, unit, where=True),
        )
    )
    if shift is None:
        return
    translate(unit, shift)
    face_the_enemy(battle, unit, again=True)
    scouts: list[str] = battle.memory[SCOUT]
    scouts.append(unit.id)
    battle.emit(ScoutRedeployed(unit=unit.label, shift=shift))


def scout_redeployments(battle: Battle, player: str) -> None:
    """Before the first player's first turn: Scout units redeploy, alternating.

    Interpretation: instead of a roll-off, the first player (``player``, whose
    first Movement phase this is) redeploys first.
    """
    if battle.turn != 1 or SCOUT in battle.memory:
        return
    queues = [scout_units(battle, player), scout_units(battle, battle.opponent(player))]
    if not any(queues):
        return
    battle.memory[SCOUT] = []
    while any(queues):
        for queue in queues:
            if queue:
                redeploy(battle, queue.pop(0))


def closing_value(battle: Battle, unit: Unit, shift: Vec | None) -> float:
    """How much nearer the enemy ``shift`` brings the unit (inches, negative: farther):
    the AI's reason to Scout (its model closest to an enemy model, centre to centre)."""

    def nearest(dx: float, dy: float) -> float:
        return min(
            centre_distance((m.position[0] + dx, m.position[1] + dy), e.position)
            for m in unit.alive_models
            for enemy in battle.enemies_of(unit)
            for e in enemy.alive_models
        )

    if shift is None or not battle.enemies_of(unit):
        return 0.0
    return nearest(0.0, 0.0) - nearest(*shift)


def scouted(battle: Battle, unit: Unit) -> bool:
    """Whether the unit made a Scout redeployment and it is the first game turn
    (it "cannot charge in the first game turn")."""
    return battle.turn == 1 and unit.id in battle.memory.get(SCOUT, [])
