"""The Command phase (08.00–08.05) of the Core Rules, 11th edition.

"In the Command phase, both players gain Core CP, then you check the combat
readiness of your forces and use any strategic-level abilities you may have.
The Command phase is resolved by following these steps: 1. START OF COMMAND
PHASE 2. GAIN CORE CP 3. BATTLE-SHOCK 4. COMMAND ABILITIES 5. END OF COMMAND
PHASE"

The battle-shock roll itself is defined in 01.07, whose text hammerlab does not
have; it follows the 10th edition's Battle-shock test (``BATTLE_SHOCK_DICE``).
What being battle-shocked does is modelled as far as the engine goes: the unit
cannot be the target of its player's stratagems (Fire Overwatch,
``overwatch.py``) and cannot fall back in Ordered Retreat (09.07; Desperate
Escape is not modelled, so it cannot fall back). Objective Control is not
modelled (hammerlab has no objectives).
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
BATTLE_SHOCK_DICE = 2
"""10th edition, Battle-shock tests: "roll 2D6: if the result is greater than or equal
to the best Leadership characteristic in that unit, that test is passed"."""


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
    """The best (lowest) Ld of the unit's models alive, as the number before the plus."""
    values = []
    for model in unit.alive_models:
        raw = model.profile.get("Ld").strip().rstrip("+")
        if not raw.isdigit():
            written = model.profile.get("Ld")
            raise ProfileError(f"{model.profile.name}: Ld {written!r} is not a number")
        values.append(int(raw))
    return min(values)


def battle_shock_roll(game: Core11Game, unit: Unit) -> bool:
    """Make one battle-shock roll for ``unit``; returns whether it succeeded, and
    records the unit as battle-shocked or not."""
    need = leadership(unit)
    roll = game.battle.dice.total(BATTLE_SHOCK_DICE, f"battle-shock roll ({unit.label})")
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


def is_battle_shocked(game: Core11Game, unit: Unit) -> bool:
    """Whether ``unit`` is battle-shocked."""
    return unit.id in game.battle_shocked


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
