"""The Movement phase (09.00–09.07) of the Core Rules, 11th edition.

"In the Movement phase, you will be able to move each of your units across the
battlefield. [...] The Movement phase is resolved by following these steps:
1. START OF MOVEMENT PHASE 2. MOVE UNITS 3. END OF MOVEMENT PHASE"

A unit moves as one block (every model by the same vector, ``engine/moves.py``),
in a straight line toward the enemy unit its player picks, or, falling back,
toward its own table edge. Reserves, transports and actions are not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hammerlab.editions.core11.events import MoveTypeSelected
from hammerlab.editions.core11.positions import ENGAGEMENT_RANGE, arrangement, is_engaged, placed
from hammerlab.editions.core11.profiles import unit_movement
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.windows import (
    END_OF_MOVEMENT_PHASE,
    START_OF_MOVEMENT_PHASE,
    UNIT_MOVED,
)
from hammerlab.editions.flow import Phase, Picks
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.geometry import Vec, near_path
from hammerlab.engine.moves import (
    centre_of,
    longest_allowed,
    path_clear,
    shift_unit,
    shifted_gap,
    toward,
)
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Model, Unit

DONE = "done"
"""The ``mover`` choice that ends the Move Units step (the rest remain stationary)."""
REMAIN, NORMAL, ADVANCE, FALL_BACK = "remain stationary", "normal", "advance", "fall back"


@dataclass(frozen=True)
class MoveType:
    """A move type: when a unit is eligible, and how it moves."""

    name: str
    rule: str
    eligible: Callable[[Core11Game, Unit], bool]
    resolve: Callable[[Core11Game, Unit], float]
    """Moves the unit; returns the distance moved."""


def _game(battle: Battle) -> Core11Game:
    state = battle.state
    assert isinstance(state, Core11Game), "core11 battle not started"
    return state


def ends_unengaged(battle: Battle, unit: Unit, vector: Vec) -> bool:
    """09.05–09.07 After moving: "Your unit must be unengaged." — no model of ``unit``
    moved by ``vector`` within engagement range (2") of an enemy model."""
    return _clear_of(unit.alive_models, vector, _enemy_models(battle, unit))


def _enemy_models(battle: Battle, unit: Unit) -> list[Model]:
    """The models alive of ``unit``'s enemies."""
    return [e for enemy in battle.enemies_of(unit) for e in enemy.alive_models]


def _clear_of(models: list[Model], vector: Vec, enemies: list[Model]) -> bool:
    """Whether ``models`` moved by ``vector`` stand farther than engagement range from
    every one of ``enemies``."""
    return all(shifted_gap(m, vector, e) > ENGAGEMENT_RANGE for m in models for e in enemies)


def move_toward(
    game: Core11Game, unit: Unit, goal: Vec, distance: float, through_enemies: bool = False
) -> Vec:
    """The longest straight move up to ``distance`` toward ``goal`` after which the
    unit is unengaged, whose path stays on the table and crosses no other model's
    base (enemy bases may be crossed ``through_enemies``: 09.07 Desperate Escape).

    The last answer is given again for the same question on the same table (the
    battlefield, every unit's side and models, :func:`positions.arrangement`, and the
    unit's own: all the move reads): an AI weighing a normal move asks it
    (``ai._move_type``), and the move made asks it again."""
    asked = (
        game.battle.battlefield,
        arrangement(game.battle),
        unit.id,
        placed(unit),  # the unit itself, whether or not the battle holds it
        goal,
        distance,
        through_enemies,
    )
    last = _LAST_MOVE.asked
    if last is not None and last[0] == asked:
        return last[1]
    found = _move_toward(game, unit, goal, distance, through_enemies)
    _LAST_MOVE.asked = (asked, found)  # one reference swapped: never a key with another's answer
    return found


class _LastMove:
    """The question :func:`move_toward` was last asked, and its answer."""

    asked: tuple[tuple[object, ...], Vec] | None = None


_LAST_MOVE = _LastMove()


def _move_toward(
    game: Core11Game, unit: Unit, goal: Vec, distance: float, through_enemies: bool
) -> Vec:
    """:func:`move_toward`, worked out."""
    battle = game.battle
    enemy_ids = {e.id for e in battle.enemies_of(unit)}
    blocking = [
        m
        for other in battle.units.values()
        if other is not unit and not (through_enemies and other.id in enemy_ids)
        for m in other.alive_models
    ]

    ours, full = unit.alive_models, toward(unit, goal, distance)
    enemies = near_path(ours, full, _enemy_models(battle, unit), ENGAGEMENT_RANGE)
    in_the_way = near_path(ours, full, blocking, 0.0)

    def allowed(vector: Vec) -> bool:  # ends_unengaged, its models listed once per move
        return _clear_of(ours, vector, enemies) and path_clear(battle, ours, vector, in_the_way)

    return longest_allowed(full, allowed)


def remain_stationary(game: Core11Game, unit: Unit) -> float:
    """09.04 Remain Stationary, eligible if "Any unit.": "No models are moved (either in
    straight lines or rotated). Units that remain stationary do not trigger any rules
    that are triggered when a unit starts or ends a move." """
    return 0.0


def normal_eligible(game: Core11Game, unit: Unit) -> bool:
    """09.05 and 09.06 Eligible if: "Your unit is on the battlefield and unengaged." """
    return not unit.destroyed and not is_engaged(game.battle, unit)


def normal_move(game: Core11Game, unit: Unit) -> float:
    """09.05 Normal Move: "Your unit moves as described in Moving (03)." Maximum
    distance: "Your unit's M characteristic." After moving: "Your unit must be
    unengaged." """
    goal = _heading(game, unit)
    moved = move_toward(game, unit, goal, unit_movement(unit)) if goal else (0.0, 0.0)
    distance = shift_unit(game.battle, unit, moved, "normal move")
    unit.status.moved = True
    return distance


def advance_move(game: Core11Game, unit: Unit) -> float:
    """09.06 Advance Move. Before moving: "Make an advance roll by rolling one D6."
    Maximum distance: "Advance roll + your unit's M characteristic." After moving:
    "Your unit must be unengaged." "Until the end of the turn, unless otherwise
    stated, your unit is not eligible to declare a charge or start an action." """
    roll = game.battle.dice.d6(f"advance roll ({unit.label})")
    game.battle.say("movement", f"  {unit.label}: advance roll {roll}")
    goal = _heading(game, unit)
    reach = unit_movement(unit) + roll
    moved = move_toward(game, unit, goal, reach) if goal else (0.0, 0.0)
    distance = shift_unit(game.battle, unit, moved, "advance move")
    unit.status.moved = unit.status.advanced = True
    game.no_charge.add(unit.id)
    return distance


def fall_back_eligible(game: Core11Game, unit: Unit) -> bool:
    """09.07 Eligible if: "Your unit is engaged." — and a fall-back route exists,
    since after moving "Your unit must be unengaged" (09.02.02: "if your unit does
    not meet the conditions of any of the modes, it cannot make that move").

    "Ordered Retreat: If your unit is not battle-shocked, you can select this mode."
    Desperate Escape is not modelled, so a battle-shocked unit cannot fall back."""
    if unit.destroyed or not is_engaged(game.battle, unit) or unit.id in game.battle_shocked:
        return False
    return ends_unengaged(game.battle, unit, _fall_back_vector(game, unit))


def _fall_back_vector(game: Core11Game, unit: Unit) -> Vec:
    """Straight toward the unit's own table edge, up to M (Ordered Retreat: through
    no enemy model)."""
    battle = game.battle
    edge = battle.player(unit.player).edge_point(battle.battlefield, centre_of(unit))
    return move_toward(game, unit, edge, unit_movement(unit))


def fall_back_move(game: Core11Game, unit: Unit) -> float:
    """09.07 Fall-Back Move. Before moving: "Select fall-back mode: Ordered Retreat: If
    your unit is not battle-shocked, you can select this mode." Maximum distance:
    "Your unit's M characteristic." After moving: "Your unit must be unengaged."
    "Until the end of the turn, unless otherwise stated, your unit is not eligible
    to shoot, declare a charge or start an action."

    A battle-shocked unit is not offered the move (:func:`fall_back_eligible`), so
    every fall-back is an Ordered Retreat (Desperate Escape is not modelled).
    """
    distance = shift_unit(game.battle, unit, _fall_back_vector(game, unit), "fall-back move")
    unit.status.moved = True
    game.no_shoot.add(unit.id)
    game.no_charge.add(unit.id)
    return distance


MOVE_TYPES: tuple[MoveType, ...] = (
    MoveType(REMAIN, "09.04", lambda game, unit: True, remain_stationary),
    MoveType(NORMAL, "09.05", normal_eligible, normal_move),
    MoveType(ADVANCE, "09.06", normal_eligible, advance_move),
    MoveType(FALL_BACK, "09.07", fall_back_eligible, fall_back_move),
)
"""09.02 step 2: "Remain stationary (09.04) ▫ Normal move (09.05) ▫ Advance move
(09.06) ▫ Fall-back move (09.07)", in that order (disembark and ingress moves are
not modelled)."""


def _heading(game: Core11Game, unit: Unit) -> Vec | None:
    """Where the unit moves: toward the enemy unit its player picks (``heading``)."""
    enemies = game.battle.enemies_of(unit)
    if not enemies:
        return None
    chosen: Unit = game.choose(
        Decision(
            "heading",
            unit.player,
            f"{unit.label}: move toward which enemy unit?",
            tuple(Choice(e.label, e) for e in enemies),
            DecisionContext(unit=unit.id),
        )
    )
    return centre_of(chosen)


def move_with(game: Core11Game, unit: Unit) -> None:
    """09.02 steps 1–2: "Select one friendly unit that has not been selected to move
    this phase. [...] That unit is selected to move." "Select one move type that unit
    is eligible to make, and resolve it with that unit." A unit that moved opens
    :data:`UNIT_MOVED` ("Units that remain stationary do not trigger any rules that
    are triggered when a unit starts or ends a move.")."""
    game.moved.add(unit.id)
    types = [t for t in MOVE_TYPES if t.eligible(game, unit)]
    chosen: MoveType = game.choose(
        Decision(
            "move-type",
            unit.player,
            f"{unit.label}: which move type?",
            tuple(Choice(t.name, t) for t in types),
            DecisionContext(unit=unit.id),
        )
    )
    distance = chosen.resolve(game, unit)
    game.battle.emit(MoveTypeSelected(unit.label, chosen.name, round(distance, 2)))
    if chosen.name != REMAIN:
        game.board.open(Occasion(UNIT_MOVED, actor=unit.id))


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """09.01: "Rules that are triggered at the start of the Movement phase are resolved
    now." What the scenario said a unit did this turn gives way to what it does."""
    battle.phase = "movement"
    battle.emit(PhaseChanged(phase="movement", player=player, turn=battle.turn, begins=True))
    for unit in battle.units_of(player):
        unit.status.moved = unit.status.advanced = False
    _game(battle).board.open(Occasion(START_OF_MOVEMENT_PHASE))
    return frozenset()


def _movers(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    game = _game(battle)
    return [u for u in battle.units_of(player) if u.id not in game.moved]


def _move(battle: Battle, unit: Unit) -> None:
    move_with(_game(battle), unit)


def _end(battle: Battle, player: str) -> None:
    """09.02.01: "Any units the active player does not select a move type for during
    this step will remain stationary." 09.03: "Rules that are triggered at the end of
    the Movement phase are resolved now." """
    game = _game(battle)
    for unit in battle.units_of(player):
        if unit.id not in game.moved:
            battle.emit(MoveTypeSelected(unit.label, REMAIN, 0.0))
    game.moved.clear()
    game.board.open(Occasion(END_OF_MOVEMENT_PHASE))
    battle.emit(PhaseChanged(phase="movement", player=player, turn=battle.turn, begins=False))


MOVEMENT = Phase(
    "movement",
    begin=_begin,
    picks=Picks("mover", "Select a unit to move (or done)", _movers, _move, DONE),
    end=_end,
)
"""09.02: "The active player moves their units one at a time, using the sequence
below, until all of their units have been selected to move and those moves have
ended." """
