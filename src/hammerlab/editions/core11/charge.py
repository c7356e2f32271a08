"""The Charge phase (11.00–11.04) of the Core Rules, 11th edition.

"In the Charge phase, you will be able to make charge moves with your units. [...]
The Charge phase is resolved by following these steps: 1. START OF CHARGE PHASE
2. CHARGE 3. END OF CHARGE PHASE"

A charging unit moves as one block (every model by the same vector,
``engine/moves.py``) in a straight line toward the closest model of the charge
target its player selects, from its own closest model or from its centre,
whichever line ends with more of its models engaged, as far as the charge roll
allows while no model's path crosses another model's base: the leading model
ends in base contact with the target when the roll reaches it (the move is taken
to the limit, ``moves.longest_allowed``; until session 24 it stopped at the last
1/40 of the roll that fit, up to 0.3" short, review s24 core11 2). The move is made
only if, after it, the unit is engaged with its charge target and with no other
enemy unit (11.04 After moving); otherwise the unit does not move.
"""

from __future__ import annotations

from hammerlab.editions.core11.events import ChargeResolved
from hammerlab.editions.core11.positions import (
    ENGAGEMENT_RANGE,
    closest_pair,
    is_engaged,
    unit_distance,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.windows import (
    CHARGE_DECLARED,
    END_OF_CHARGE_PHASE,
    START_OF_CHARGE_PHASE,
)
from hammerlab.editions.flow import Phase, Picks
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import (
    best_line,
    path_clear,
    shift_unit,
    shifted_gap,
)
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Unit

DONE = "done"
"""The ``charger`` choice that ends the Charge step."""
CHARGE_REACH = 12.0
"""11.02: a unit is not eligible to declare a charge if "It is not within 12\" of one or
more enemy units."; 11.04: charge targets are "within 12\" of your unit"."""
CHARGE_DICE = 2
"""11.02 step 2: "Make a charge roll by rolling 2D6: the result is the maximum distance
for the charge move." """


def _game(battle: Battle) -> Core11Game:
    state = battle.state
    assert isinstance(state, Core11Game), "core11 battle not started"
    return state


def eligible_to_charge(game: Core11Game, unit: Unit) -> bool:
    """11.02: "A unit is eligible to declare a charge if it is on the battlefield, unless
    otherwise stated. Here are some rules that prevent a unit from being eligible to
    declare a charge: It is not within 12\" of one or more enemy units. It is engaged.
    It made an advance or fall-back move this turn." (09.06, 09.07: ``no_charge``); and
    step 1: it "has not declared a charge this phase"."""
    battle = game.battle
    return (
        not unit.destroyed
        and unit.id not in game.declared
        and unit.id not in game.no_charge
        and not unit.status.advanced
        and not is_engaged(battle, unit)
        and any(unit_distance(unit, e) <= CHARGE_REACH for e in battle.enemies_of(unit))
    )


def charge_targets(game: Core11Game, unit: Unit, maximum: float) -> list[Unit]:
    """11.04 Before moving: "Select one or more enemy units that are within 12\" of your
    unit and within the maximum distance of your unit", closest first."""
    reach = min(CHARGE_REACH, maximum)
    found = [e for e in game.battle.enemies_of(unit) if unit_distance(unit, e) <= reach]
    return sorted(found, key=lambda e: unit_distance(unit, e))


def charge_vector(game: Core11Game, unit: Unit, target: Unit, maximum: float) -> Vec:
    """The block move toward ``target``: up to ``maximum`` inches straight toward its
    closest model, no path crossing another model's base, along whichever of two lines
    ends with more of the unit's models engaged with ``target`` (11.04 While moving:
    "Each model that can end its move engaged with one or more charge targets must do
    so."), the move allowed first (:func:`move_ends_well`): from the charging model
    closest to it (first, and kept on a tie) or from the unit's centre.

    From the centre alone, two lines facing each other, every pair as close, charged
    diagonally toward the first end's model and could leave the other end unengaged
    (review s22, note 2); from the closest model they go straight ahead. A unit in a
    blob coming in at an angle may do better from its centre."""
    blocking = list(game.battle.other_models(unit))
    leader, goal = closest_pair(unit, target)

    def allowed(vector: Vec) -> bool:
        return path_clear(game.battle, unit.alive_models, vector, blocking)

    def engaging(vector: Vec) -> tuple[bool, int]:
        engaged = sum(
            any(shifted_gap(m, vector, e) <= ENGAGEMENT_RANGE for e in target.alive_models)
            for m in unit.alive_models
        )
        return move_ends_well(game, unit, vector, [target]), engaged

    # to the limit: a charge whose roll reaches ends in base contact (review s24, core11)
    return best_line(
        unit, leader.position, goal.position, maximum, allowed, engaging, to_the_limit=True
    )


def move_ends_well(game: Core11Game, unit: Unit, vector: Vec, targets: list[Unit]) -> bool:
    """11.04 After moving: "Your unit must be engaged with all of the charge targets.
    Your unit cannot be engaged with one or more enemy units that are not charge
    targets." """
    ids = {t.id for t in targets}
    for enemy in game.battle.enemies_of(unit):
        engaged = any(
            shifted_gap(m, vector, e) <= ENGAGEMENT_RANGE
            for m in unit.alive_models
            for e in enemy.alive_models
        )
        if engaged != (enemy.id in ids):
            return False
    return True


def charge_with(game: Core11Game, unit: Unit) -> None:
    """11.02 steps 1–3: "Declare Charge", "Make Charge Roll", "Attempt Charge: If it is
    possible to make a charge move, and if you still want to, make a charge move with
    that unit (11.04). Otherwise, your unit does not make a charge move. In either
    case, the charge is then resolved."

    11.02.01: "a result of 2 (a double 1) is never sufficient for a unit to complete a
    charge move, as a unit cannot be within engagement range (2\") when it attempts a
    charge." hammerlab's player selects one charge target (the rules allow several).
    """
    battle = game.battle
    game.declared.add(unit.id)
    game.board.open(Occasion(CHARGE_DECLARED, actor=unit.id))
    if unit.destroyed:
        return
    roll = battle.dice.total(CHARGE_DICE, f"charge roll ({unit.label})")
    options = charge_targets(game, unit, float(roll))
    if not options:
        near = charge_targets(game, unit, CHARGE_REACH)  # eligible: one is within 12"
        nearest = (near[0].label, round(unit_distance(unit, near[0]), 2)) if near else (None, None)
        battle.emit(ChargeResolved(unit.label, roll, (), False, 0.0, *nearest))
        return
    target: Unit = game.choose(
        Decision(
            "charge-target",
            unit.player,
            f"{unit.label}: charge roll {roll}; charge which unit?",
            tuple(Choice(t.label, t) for t in options),
            DecisionContext(unit=unit.id),
        )
    )
    vector = charge_vector(game, unit, target, float(roll))
    if not move_ends_well(game, unit, vector, [target]):
        battle.emit(ChargeResolved(unit.label, roll, (target.label,), False, 0.0))
        return
    distance = shift_unit(battle, unit, vector, "charge move")
    after_charge_move(game, unit)
    battle.emit(ChargeResolved(unit.label, roll, (target.label,), True, round(distance, 2)))


def after_charge_move(game: Core11Game, unit: Unit) -> None:
    """11.04 After moving: "Until the end of the turn, each model in your unit has the
    Fights First ability (24.13)." It made a charge move this turn, which
    :meth:`Core11Game.charged_this_turn` reads for Fights First, [LANCE], 12.03 and
    12.04."""
    unit.status.charged = True


def _begin(battle: Battle, player: str) -> frozenset[str]:
    battle.phase = "charge"
    battle.emit(PhaseChanged(phase="charge", player=player, turn=battle.turn, begins=True))
    _game(battle).board.open(Occasion(START_OF_CHARGE_PHASE))
    return frozenset()


def _chargers(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    game = _game(battle)
    return [u for u in battle.units_of(player) if eligible_to_charge(game, u)]


def _charge(battle: Battle, unit: Unit) -> None:
    charge_with(_game(battle), unit)


def _end(battle: Battle, player: str) -> None:
    """11.03: "Rules that are triggered at the end of the Charge phase are resolved now." """
    game = _game(battle)
    game.board.open(Occasion(END_OF_CHARGE_PHASE))
    game.declared.clear()
    battle.emit(PhaseChanged(phase="charge", player=player, turn=battle.turn, begins=False))


CHARGE = Phase(
    "charge",
    begin=_begin,
    picks=Picks("charger", "Select a unit to declare a charge (or done)", _chargers, _charge, DONE),
    end=_end,
)
"""11.02: "The active player resolves charges with their eligible units one at a time,
using the sequence below, until all of their units they choose to charge with have
declared a charge and those charges have been resolved." """
