"""The Command phase (08.00–08.05) of the Core Rules, 11th edition.

"In the Command phase, both players gain Core CP, then you check the combat
readiness of your forces and use any strategic-level abilities you may have.
The Command phase is resolved by following these steps: 1. START OF COMMAND
PHASE 2. GAIN CORE CP 3. BATTLE-SHOCK 4. COMMAND ABILITIES 5. END OF COMMAND
PHASE"

01.07: "To make a battle-shock roll for a unit, its controlling player makes a
leadership roll for it (01.06). If that roll succeeds, that unit does not become
battle-shocked. If that roll fails, that unit, and each model in it, is
battle-shocked. While a unit is battle-shocked: The Objective Control (OC)
characteristic of all of its models is modified to '-' (02.02). Its controlling
player cannot target that unit with stratagems (15). It is not eligible to start
an action (16), and any action it has started cannot be completed."

What being battle-shocked does is modelled as far as the engine goes: its player
cannot target it with Fire Overwatch (``overwatch.py``), and it cannot fall back in
Ordered Retreat (09.07; Desperate Escape is not modelled, so it cannot fall back).
Actions (16) are not modelled: no unit starts one, battle-shocked or not.
Objective Control is not modelled (hammerlab has no objectives).
"""

from __future__ import annotations

from hammerlab.editions.core11.events import BattleShockRolled, CommandPointsGained
from hammerlab.editions.core11.profiles import defence_of
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.windows import END_OF_COMMAND_PHASE, START_OF_COMMAND_PHASE
from hammerlab.editions.flow import Phase
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Unit
from hammerlab.errors import ProfileError

CORE_CP = 1
"""08.02: "Both players gain 1 Command Point (CP)." """
LEADERSHIP_DICE = 2
"""01.06: "To make a leadership roll for a unit, its controlling player rolls 2D6: if the
result is equal to or greater than one or more of the Ld characteristics in that unit,
that roll succeeds. Otherwise, that roll fails." """


def _game(battle: Battle) -> Core11Game:
    state = battle.state
    assert isinstance(state, Core11Game), "core11 battle not started"
    return state


def gain_core_cp(game: Core11Game) -> None:
    """08.02 Gain Core CP: "Both players gain 1 Command Point (CP)." """
    for player in game.battle.players:
        total = game.command_points.get(player.name, 0) + CORE_CP
        game.command_points[player.name] = total
        game.battle.emit(CommandPointsGained(player.name, CORE_CP, total))


def at_or_below_half_strength(game: Core11Game, unit: Unit) -> bool:
    """01.02.01: with a starting strength of 1, "Model's remaining wounds are half of its
    W characteristic" (or less); with 2 or more, "Number of remaining models in the unit
    is half of its starting strength" (or less)."""
    alive = unit.alive_models
    start = game.starting_strength.get(unit.id, len(unit.models))
    if not alive:
        return False
    if start == 1:
        model = alive[0]
        return 2 * model.wounds_left <= defence_of(model.profile).wounds
    return 2 * len(alive) <= start


def leadership(unit: Unit) -> int:
    """The best (lowest) Ld of the unit's models alive, as the number before the plus: a
    leadership roll succeeds if it reaches "one or more of the Ld characteristics in
    that unit" (01.06)."""
    values = []
    for model in unit.alive_models:
        raw = model.profile.get("Ld").strip().rstrip("+")
        if not raw.isdigit():
            written = model.profile.get("Ld")
            raise ProfileError(f"{model.profile.name}: Ld {written!r} is not a number")
        values.append(int(raw))
    return min(values)


def battle_shock_roll(game: Core11Game, unit: Unit) -> bool:
    """01.07: make one battle-shock roll (a leadership roll, 01.06) for ``unit``; a
    failed roll leaves it battle-shocked, and a successful one ends it (08.03). Returns
    whether the roll succeeded."""
    need = leadership(unit)
    roll = game.battle.dice.total(LEADERSHIP_DICE, f"battle-shock roll ({unit.label})")
    passed = roll >= need
    if passed:
        game.battle_shocked.discard(unit.id)
    else:
        game.battle_shocked.add(unit.id)
    game.battle.emit(BattleShockRolled(unit.label, roll, need, passed))
    return passed


def battle_shock_step(game: Core11Game, player: str) -> None:
    """08.03: "The active player must now make one battle-shock roll (01.07) for each unit
    in their army that fulfils one or both of the following conditions: That unit is
    currently battle-shocked. That unit is at, or below, half-strength. If a unit was
    battle-shocked at the start of this step and its battle-shock roll during this step
    succeeds, it is no longer battle-shocked." """
    for unit in game.battle.units_of(player):
        if unit.id in game.battle_shocked or at_or_below_half_strength(game, unit):
            battle_shock_roll(game, unit)


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """08.01–08.05, in order; 08.04 Command Abilities: no rule of the engine is
    triggered then."""
    game = _game(battle)
    battle.phase = "command"
    battle.emit(PhaseChanged(phase="command", player=player, turn=battle.turn, begins=True))
    game.board.open(Occasion(START_OF_COMMAND_PHASE))
    gain_core_cp(game)
    battle_shock_step(game, player)
    return frozenset()


def _end(battle: Battle, player: str) -> None:
    _game(battle).board.open(Occasion(END_OF_COMMAND_PHASE))
    battle.emit(PhaseChanged(phase="command", player=player, turn=battle.turn, begins=False))


COMMAND = Phase("command", begin=_begin, picks=None, end=_end)
"""08.00: the Command phase of the active player (it picks no units)."""
