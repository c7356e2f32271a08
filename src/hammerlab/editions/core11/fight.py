"""The Fight phase (12.00–12.08) of the Core Rules, 11th edition.

"In the Fight phase, both players get to act. First, units will pile in to
maximise the number of models that are engaged, then all the combatants will
make melee attacks, before units consolidate their position. The Fight phase is
resolved by following these steps: 1. START OF FIGHT PHASE 2. PILE IN 3. FIGHT
4. CONSOLIDATE 5. END OF FIGHT PHASE"

Pile-in and consolidation moves are block moves (``engine/moves.py``) in a
straight line toward the closest model of the closest target, up to 3", from the
unit's model closest to it or from its centre (:func:`close_move_vector`); in a
pile-in every model ends closer to the target closest to it, or the unit does not
move; a unit with a model in base contact with an enemy model does not move
("Models in base-contact with one or more enemy models cannot be moved."). Every choice of
the phase (which unit fights, its fight type, whether a unit piles in or
consolidates) is a decision inside the phase: the phase picks no units of one
player, since both players act.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from hammerlab.editions.core11.events import CloseMove, FightSelected
from hammerlab.editions.core11.melee import fight
from hammerlab.editions.core11.positions import (
    ENGAGEMENT_RANGE,
    closest_pair,
    distance_to,
    engaged_with,
    unit_distance,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.windows import END_OF_FIGHT_PHASE, START_OF_FIGHT_PHASE
from hammerlab.editions.flow import Phase
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import (
    OVERLAP_TOLERANCE,
    STEPS,
    best_line,
    path_clear,
    shift_unit,
    shifted_gap,
)
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Unit

PILE_IN_DISTANCE = 3.0
"""12.03 Maximum distance: 3"."""
PILE_IN_REACH = 5.0
"""12.03 Before moving: an unengaged unit selects "one or more enemy units within 5\"
of your unit"."""
CONSOLIDATION_DISTANCE = 3.0
"""12.07: "Each model moves up to 3\"." """
CONSOLIDATION_REACH = 3.0
"""12.08 Engaging Consolidation: "if your unit is within 3\" of one or more enemy units"."""
PILE_IN, CONSOLIDATE = "pile-in", "consolidate"
NORMAL, OVERRUN = "normal", "overrun"


@dataclass
class FightStep:
    """What the Fight step remembers (12.04)."""

    engaged_at_start: set[str] = field(default_factory=set)
    """Units engaged at the start of the step."""
    selected: set[str] = field(default_factory=set)
    """Units selected to fight this phase."""
    was_eligible: set[str] = field(default_factory=set)
    """Units that were eligible to fight this phase (12.08)."""


def _game(battle: Battle) -> Core11Game:
    state = battle.state
    assert isinstance(state, Core11Game), "core11 battle not started"
    return state


def _in_base_contact(battle: Battle, unit: Unit) -> bool:
    return any(
        shifted_gap(m, (0.0, 0.0), e) <= OVERLAP_TOLERANCE
        for enemy in battle.enemies_of(unit)
        for m in unit.alive_models
        for e in enemy.alive_models
    )


def _engaged_pairs(battle: Battle, unit: Unit, vector: Vec) -> set[tuple[str, str]]:
    """(model, enemy unit) pairs engaged after ``unit`` moves by ``vector``."""
    return {
        (m.id, enemy.id)
        for enemy in battle.enemies_of(unit)
        for m in unit.alive_models
        if any(shifted_gap(m, vector, e) <= ENGAGEMENT_RANGE for e in enemy.alive_models)
    }


def close_move_vector(
    game: Core11Game, unit: Unit, targets: list[Unit], distance: float, pile_in: bool
) -> Vec:
    """A pile-in (``pile_in``) or consolidation move: straight toward the closest model
    of the closest target, up to ``distance``; no model crosses another base.

    12.03 While moving: "Each model that is moved must end its move closer to the
    closest pile-in target, and engaged with it if possible."; After moving: "Your unit
    must be engaged. Each model that started this move engaged with an enemy unit must
    still be engaged with that enemy unit." 12.08 After moving, Ongoing Consolidation:
    "Each model that started this move engaged with an enemy unit must still be engaged
    with that enemy unit."; Engaging Consolidation: "Your unit must be engaged with all
    of the selected enemy units." The unit must end engaged with the closest target.

    Every model of the block moves, so in a pile-in each one must end closer to the
    target closest to it (:func:`_closer`); a move that would leave one of them no
    closer is cut until none is, or not made. As for the charge
    (``charge.charge_vector``), two lines are tried, from the unit's model closest to
    the target (first, and kept on a tie) and from its centre, and the one that ends
    with more of its models engaged is taken, then with more (model, enemy unit) pairs
    engaged, then the one that moves at all: from the centre alone a line of models
    facing another as close piled in diagonally, and the end model moved away (review
    s24, core11 2).

    A move shorter than one step of the search at the rule's ``distance`` (1/:data:`STEPS`
    of 3": 0.075") that engages no model anew is no move, ``(0, 0)``: the block move is
    found in 1/:data:`STEPS` steps of its length, so a unit that ended a hair short of
    base contact was asked to pile in 0.02-0.04" (review s23, core11 3), a move that
    changes nothing these rules read and that the log shows as 0.0".
    """
    battle = game.battle
    if not targets or _in_base_contact(battle, unit):
        return (0.0, 0.0)
    closest = min(targets, key=lambda t: unit_distance(unit, t))
    leader, goal = closest_pair(unit, closest)
    blocking = list(battle.other_models(unit))
    before = _engaged_pairs(battle, unit, (0.0, 0.0))
    nearer = _closer(unit, targets) if pile_in else None

    def allowed(vector: Vec) -> bool:
        after = _engaged_pairs(battle, unit, vector)
        return (
            any(enemy == closest.id for _, enemy in after)
            and before <= after
            and (nearer is None or nearer(vector))
            and path_clear(battle, unit.alive_models, vector, blocking)
        )

    def engaging(vector: Vec) -> tuple[int, int, bool]:
        pairs = _engaged_pairs(battle, unit, vector)
        return len({model for model, _ in pairs}), len(pairs), vector != (0.0, 0.0)

    vector = best_line(unit, leader.position, goal.position, distance, allowed, engaging)
    if math.hypot(*vector) < distance / STEPS and _engaged_pairs(battle, unit, vector) == before:
        return (0.0, 0.0)
    return vector


def _closer(unit: Unit, targets: list[Unit]) -> Callable[[Vec], bool]:
    """Whether, after ``unit`` moves by a vector, each of its models is closer to the
    one of ``targets`` that was closest to it (12.03 While moving: "Each model that is
    moved must end its move closer to the closest pile-in target")."""
    aims = []
    for model in unit.alive_models:
        enemies = min(targets, key=lambda t: distance_to(model, t)).alive_models
        aims.append((model, enemies, min(shifted_gap(model, (0.0, 0.0), e) for e in enemies)))

    def closer(vector: Vec) -> bool:
        return all(
            min(shifted_gap(model, vector, e) for e in enemies) < start
            for model, enemies, start in aims
        )

    return closer


def pile_in_targets(game: Core11Game, unit: Unit) -> list[Unit]:
    """12.03 Before moving: "If your unit is engaged, select every enemy unit it is
    engaged with. Otherwise, select one or more enemy units within 5\" of your unit."
    (hammerlab selects all of them)."""
    engaged = engaged_with(game.battle, unit)
    if engaged:
        return engaged
    return [e for e in game.battle.enemies_of(unit) if unit_distance(unit, e) <= PILE_IN_REACH]


def consolidation_targets(game: Core11Game, unit: Unit) -> list[Unit]:
    """12.08 Before moving: "Ongoing Consolidation: If your unit is engaged, you must
    select this mode and select every enemy unit it is engaged with. Engaging
    Consolidation: Otherwise, if your unit is within 3\" of one or more enemy units, you
    must select this mode and select one or more of those enemy units." (Objective
    Consolidation: hammerlab has no objectives.) In Engaging Consolidation hammerlab
    selects the closest of those units."""
    engaged = engaged_with(game.battle, unit)
    if engaged:
        return engaged
    near = [
        e for e in game.battle.enemies_of(unit) if unit_distance(unit, e) <= CONSOLIDATION_REACH
    ]
    return sorted(near, key=lambda e: unit_distance(unit, e))[:1]


def pile_in_eligible(game: Core11Game, unit: Unit) -> bool:
    """12.03 Eligible if: "It is the Fight phase and one or more of the following apply
    to your unit: It is engaged. It made a charge move this turn." """
    return not unit.destroyed and (
        bool(engaged_with(game.battle, unit)) or game.charged_this_turn(unit)
    )


def close_move(
    game: Core11Game, unit: Unit, move: str, targets: list[Unit], distance: float
) -> None:
    """Offer ``unit`` its pile-in or consolidation move (the player "choose[s] to move"),
    and make it."""
    vector = close_move_vector(game, unit, targets, distance, move == PILE_IN)
    if vector == (0.0, 0.0):
        return
    prompt = f"{unit.label}: make a {move} move?"
    if not game.yes_no(move, unit.player, prompt, DecisionContext(unit=unit.id)):
        return
    moved = shift_unit(game.battle, unit, vector, f"{move} move")
    game.battle.emit(CloseMove(unit.label, move, round(moved, 2)))


def _players_in_order(battle: Battle) -> list[str]:
    """The player whose turn it is, then the others in seating order."""
    names = [p.name for p in battle.players]
    start = names.index(battle.active_player)
    return names[start:] + names[:start]


def pile_in_step(game: Core11Game) -> None:
    """12.02: "Both players make pile-in moves (12.03) with all of their eligible units
    they choose to move. [...] The player whose turn it is resolves all of their moves
    first, followed by their opponent. Each unit cannot make more than one pile-in move
    during this step." """
    battle = game.battle
    for player in _players_in_order(battle):
        for unit in battle.units_of(player):
            if pile_in_eligible(game, unit):
                close_move(game, unit, PILE_IN, pile_in_targets(game, unit), PILE_IN_DISTANCE)


def eligible_to_fight(game: Core11Game, step: FightStep, unit: Unit) -> bool:
    """12.04: "A unit is eligible to fight if it has not already been selected to fight
    this phase and one or more of the following apply to it: It is engaged, or it was
    engaged at the start of this step. It made a charge move this turn." """
    if unit.destroyed or unit.id in step.selected:
        return False
    return (
        bool(engaged_with(game.battle, unit))
        or unit.id in step.engaged_at_start
        or game.charged_this_turn(unit)
    )


def fight_types(game: Core11Game, step: FightStep, unit: Unit) -> list[str]:
    """12.05 Normal Fight, eligible if "Your unit is engaged."; 12.06 Overrun Fight,
    eligible if "Your unit is unengaged, or was unengaged at the start of the Fight step
    but became engaged during the Fight phase." """
    engaged = bool(engaged_with(game.battle, unit))
    types = [NORMAL] if engaged else []
    if not engaged or unit.id not in step.engaged_at_start:
        types.append(OVERRUN)
    return types


def fight_with(game: Core11Game, step: FightStep, unit: Unit) -> None:
    """WHEN A UNIT IS SELECTED TO FIGHT: "select one fight type that unit is eligible to
    make, and resolve it with that unit." 12.05: "Your unit fights as described in
    Making Attacks (04)." 12.06: "Your unit can make one additional pile-in move, then
    fights as described in Making Attacks (04)." """
    step.selected.add(unit.id)
    chosen: str = game.choose(
        Decision(
            "fight-type",
            unit.player,
            f"{unit.label}: which fight type?",
            tuple(Choice(t, t) for t in fight_types(game, step, unit)),
            DecisionContext(unit=unit.id),
        )
    )
    game.battle.emit(FightSelected(unit.label, chosen, game.charged_this_turn(unit)))
    if chosen == OVERRUN:
        close_move(game, unit, PILE_IN, pile_in_targets(game, unit), PILE_IN_DISTANCE)
    fight(game, unit)


def _select(game: Core11Game, player: str, units: list[Unit]) -> Unit:
    chosen: Unit = game.choose(
        Decision(
            "fighter",
            player,
            "Select a unit to fight",
            tuple(Choice(u.label, u) for u in units),
            DecisionContext(),
        )
    )
    return chosen


def fight_step(game: Core11Game) -> FightStep:
    """12.04: "1. Resolve Fights First Combats: Starting with the player whose turn it is,
    players alternate selecting one friendly Fights First unit that is eligible to fight;
    that unit is selected to fight (see below). If this is not possible: If there are no
    Fights First units that are eligible to fight, move to the Resolve Remaining Combats
    step where this player will select their next unit. Otherwise, the other player
    selects their next unit. 2. Resolve Remaining Combats: Starting with the player who
    just moved this sequence onto this step, players alternate selecting one friendly
    unit that is eligible to fight; that unit is selected to fight. If this is not
    possible: If there are no units that are eligible to fight, the Fight step ends.
    Otherwise, the other player selects their next unit. After resolving a fight in the
    Resolve Remaining Combats step, if there are one or more Fights First units that are
    now eligible to fight, return to the Resolve Fights First Combats step."

    12.04.01's pass is not offered: a unit with no enemy in reach is selected and
    makes no attacks."""
    battle = game.battle
    engaged = {u.id for u in battle.units.values() if engaged_with(battle, u)}
    step = FightStep(engaged_at_start=engaged)
    order = _players_in_order(battle)
    chooser, first_step = 0, True
    while True:
        eligible = [u for u in battle.units.values() if eligible_to_fight(game, step, u)]
        step.was_eligible.update(u.id for u in eligible)
        if not eligible:
            return step
        first = [u for u in eligible if game.charged_this_turn(u)]  # Fights First (11.04)
        if first_step and not first:
            first_step = False
            continue
        pool = first if first_step else eligible
        mine = [u for u in pool if u.player == order[chooser]]
        if mine:
            fight_with(game, step, _select(game, order[chooser], mine))
            if not first_step and any(
                game.charged_this_turn(u) and eligible_to_fight(game, step, u)
                for u in battle.units.values()
            ):
                first_step = True
        chooser = (chooser + 1) % len(order)


def consolidate_step(game: Core11Game, step: FightStep) -> None:
    """12.07: "Both players make consolidation moves (12.08) with all of their eligible
    units they choose to move. [...] The player whose turn it is resolves all of their
    moves first, followed by their opponent." 12.08 Eligible if: "It is the Fight phase
    and your unit was eligible to fight this phase." """
    battle = game.battle
    for player in _players_in_order(battle):
        for unit in battle.units_of(player):
            if unit.id in step.was_eligible and not unit.destroyed:
                engaging = not engaged_with(battle, unit)
                targets = consolidation_targets(game, unit)
                close_move(game, unit, CONSOLIDATE, targets, CONSOLIDATION_DISTANCE)
                if engaging:
                    fight_back(game, step, unit)


def fight_back(game: Core11Game, step: FightStep, unit: Unit) -> None:
    """12.08 After moving, Engaging Consolidation: "If one or more enemy units engaged
    with your unit have not been selected to fight this phase, your opponent must select
    each of those units, one at a time; when each is selected, it becomes eligible to
    fight and is selected to fight (12.04)." """
    while waiting := [
        e for e in engaged_with(game.battle, unit) if e.id not in step.selected and not e.destroyed
    ]:
        fight_with(game, step, _select(game, waiting[0].player, waiting))


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """12.00 steps 1–4; step 5 is the phase's end."""
    game = _game(battle)
    battle.phase = "fight"
    battle.emit(PhaseChanged(phase="fight", player=player, turn=battle.turn, begins=True))
    game.board.open(Occasion(START_OF_FIGHT_PHASE))
    pile_in_step(game)
    step = fight_step(game)
    consolidate_step(game, step)
    return frozenset()


def _end(battle: Battle, player: str) -> None:
    _game(battle).board.open(Occasion(END_OF_FIGHT_PHASE))
    battle.emit(PhaseChanged(phase="fight", player=player, turn=battle.turn, begins=False))


FIGHT = Phase("fight", begin=_begin, picks=None, end=_end)
"""12.00: the Fight phase of a player's turn, in which both players' units fight."""
