"""Sudden Death (7th edition: "If at the end of any game turn, one player has no
models on the battlefield, his opponent automatically wins"): the game ends at
the end of that game turn, and the player left wins whatever the score
(``sudden_death.game_over``, ``turns.game_winner``, ``flow.Flow.game_over``).
"""

from __future__ import annotations

import pytest
from conftest import GUARD, LASGUN, MARINE, TROOPER, A, B, make_battle, row, squad
from test_waffle_transports import transport

from hammerlab.analysis.search import Budget, value_for, wiped_out_bonus
from hammerlab.editions.flow import Flow, Phase, Play
from hammerlab.editions.turns import WIPED_OUT, WipedOut, game_winner, victory_lines
from hammerlab.editions.waffle.reserves import set_reserves
from hammerlab.editions.waffle.ruleset import WaffleRuleset
from hammerlab.editions.waffle.sudden_death import game_over
from hammerlab.editions.waffle.transports import start_embarked
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit
from hammerlab.errors import InputError


def _slay(unit: Unit, count: int | None = None) -> None:
    """Remove ``count`` of the unit's models (all of them by default)."""
    for model in unit.models[:count]:
        model.wounds_left = 0


def _battle() -> tuple[Battle, Unit, Unit]:
    marines = squad("m", A, MARINE, [LASGUN], row(30, 10, 2))
    troopers = squad("t", B, TROOPER, [], row(30, 30, 10))
    return make_battle(marines, troopers, seed=1), marines, troopers


def test_the_game_goes_on_while_both_players_have_models() -> None:
    battle, marines, troopers = _battle()
    _slay(marines, 1)
    _slay(troopers, 9)
    assert not game_over(battle)
    assert WIPED_OUT not in battle.memory


def test_a_wiped_out_player_loses_whatever_the_score() -> None:
    # Models destroyed: the two Marines killed five Troopers before the last fell,
    # so the scores read Marines 5, Troopers 2; but the Marines are wiped out.
    battle, marines, troopers = _battle()
    _slay(troopers, 5)
    _slay(marines)
    assert game_winner(battle, "models_destroyed") == A  # the score alone, before the rule
    assert game_over(battle)
    assert battle.memory[WIPED_OUT] == (A,)
    assert game_winner(battle, "models_destroyed") == B
    assert game_winner(battle, "kill_points") == B
    told = [e for e in battle.log.events if isinstance(e, WipedOut)]
    assert [(e.players, e.turn) for e in told] == [((A,), 1)]
    assert victory_lines(battle, "models_destroyed") == [
        f"Enemy models destroyed: {A} 5, {B} 2: {B} wins ({A} wiped out)"
    ]


def test_both_players_wiped_out_is_a_draw() -> None:
    battle, marines, troopers = _battle()
    _slay(marines)
    _slay(troopers)
    assert game_over(battle)
    assert battle.memory[WIPED_OUT] == (A, B)
    assert game_winner(battle, "models_destroyed") is None


def test_a_unit_in_reserve_keeps_its_player_in_the_game() -> None:
    battle, marines, _troopers = _battle()
    set_reserves(battle, {"t": "deep_strike"}, 5)  # every model of B off the table
    assert not battle.units_of(B)
    assert not game_over(battle)
    _slay(marines)
    assert game_over(battle)
    assert battle.memory[WIPED_OUT] == (A,)


def test_a_unit_aboard_a_transport_keeps_its_player_in_the_game() -> None:
    chimera = transport("c", B, (36.0, 30.0))
    passengers = squad("g", B, GUARD, [LASGUN], row(5, 5, 5))
    marines = squad("m", A, MARINE, [LASGUN], row(30, 10, 2))
    battle = make_battle(chimera, passengers, marines, seed=1)
    start_embarked(battle, "g", "c")
    _slay(chimera)  # the hull gone, its passengers not yet out
    assert not battle.units_of(B)
    assert not game_over(battle)


def test_the_flow_asks_at_the_end_of_each_game_turn_and_stops_there() -> None:
    # A flow of one phase whose beginning slays the other player's unit in game
    # turn 2, for three game turns: the game ends after game turn 2 (both players'
    # turns played), not after the slaying player's own turn, nor after turn 3.
    battle, _marines, troopers = _battle()
    seen: list[tuple[int, str]] = []

    def begin(battle: Battle, player: str) -> frozenset[str]:
        seen.append((battle.turn, player))
        if battle.turn == 2 and player == A:
            _slay(troopers)
        return frozenset()

    play = Play(
        battle, Flow((Phase("test", begin, None, lambda b, p: None),), game_over=game_over), 1, 3
    )
    play.run()
    assert play.over
    assert seen == [(1, A), (1, B), (2, A), (2, B)]
    assert battle.memory[WIPED_OUT] == (B,)


def test_a_wiped_out_side_is_valued_on_points_unless_the_search_counts_the_game_decided() -> None:
    # The two Marines killed five Troopers, then fell: on points A's margin is
    # 5 - 2 = 3, before the game ends by Sudden Death and after. With
    # Budget(sudden_death="decided") the winner gains and the loser loses every
    # unit's whole worth, the twelve models on the table: A 3 - 12 = -9, B -3 + 12
    # = 9. Under kill points (pro rata, as the search counts damage) A has half the
    # Troopers' point and B the Marines' whole one, -0.5, then -0.5 - 2 = -2.5 with
    # the two units' kill points; B 0.5 + 2 = 2.5.
    battle, marines, troopers = _battle()
    _slay(troopers, 5)
    _slay(marines)
    ruleset = WaffleRuleset()
    assert value_for(battle, "models_destroyed", A, ruleset) == 3.0
    assert wiped_out_bonus(battle, "models_destroyed", A) == 0.0  # not over yet
    assert game_over(battle)
    assert value_for(battle, "models_destroyed", A, ruleset) == 3.0
    assert Budget().sudden_death == "points"

    def decided(victory: str, player: str) -> float:
        return value_for(battle, victory, player, ruleset) + wiped_out_bonus(
            battle, victory, player
        )

    assert decided("models_destroyed", A) == -9.0
    assert decided("models_destroyed", B) == 9.0
    assert decided("kill_points", A) == -2.5
    assert decided("kill_points", B) == 2.5
    with pytest.raises(InputError, match="sudden_death"):
        Budget(sudden_death="always")
