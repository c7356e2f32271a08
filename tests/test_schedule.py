"""What is left of a game (``editions/schedule.py``): each player's turns to come, the
phases still to play in the turn under way, and the plan recorded at the start.

Every expected count is worked out by hand from the plan in the comment."""

from __future__ import annotations

from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.editions.schedule import (
    ENDLESS,
    SCHEDULE,
    Schedule,
    heeding_the_end,
    record_schedule,
    still_to_play,
    turns_ahead,
)
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.dice import Dice
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _battle() -> Battle:
    return Battle(
        battlefield=Battlefield(72.0, 48.0, ()),
        players=(Player("A", "south"), Player("B", "north")),
        units={},
        dice=Dice(1),
        ruleset="waffle",
    )


def test_turns_ahead_counts_each_players_turns_still_to_begin() -> None:
    # Three game turns of Movement and Shooting, A first. In A's turn 1, A has
    # turns 2 and 3 to come; B has its turn 1 and turns 2 and 3. No turn plays
    # an Assault phase.
    battle = _battle()
    record_schedule(battle, Schedule(3, ("movement", "shooting"), ("A", "B")))
    battle.turn, battle.active_player = 1, "A"
    assert turns_ahead(battle, "A", "shooting") == 2
    assert turns_ahead(battle, "B", "shooting") == 3
    assert turns_ahead(battle, "B", "assault") == 0
    # In B's turn 1, A has turns 2 and 3 to come, B turns 2 and 3.
    battle.active_player = "B"
    assert turns_ahead(battle, "A", "movement") == 2
    assert turns_ahead(battle, "B", "movement") == 2
    # In A's last turn B still has its own; in B's last turn nobody has any.
    battle.turn, battle.active_player = 3, "A"
    assert (turns_ahead(battle, "A", "shooting"), turns_ahead(battle, "B", "shooting")) == (0, 1)
    battle.active_player = "B"
    assert (turns_ahead(battle, "A", "shooting"), turns_ahead(battle, "B", "shooting")) == (0, 0)


def test_still_to_play_reads_the_phases_after_the_one_under_way() -> None:
    battle = _battle()
    record_schedule(battle, Schedule(1, ("movement", "shooting", "assault"), ("A", "B")))
    battle.phase = "shooting"
    assert still_to_play(battle, "assault")
    assert not still_to_play(battle, "movement")
    assert not still_to_play(battle, "shooting")
    battle.phase = ""  # before the turn's first phase: all of them are to come
    assert still_to_play(battle, "movement")
    record_schedule(battle, Schedule(1, ("shooting",), ("A", "B")))
    battle.phase = "shooting"
    assert not still_to_play(battle, "assault")


def test_a_battle_without_a_schedule_or_not_heeding_it_goes_on() -> None:
    battle = _battle()
    battle.phase = "shooting"
    assert turns_ahead(battle, "A", "assault") == ENDLESS
    assert still_to_play(battle, "assault")
    record_schedule(battle, Schedule(1, ("shooting",), ("A", "B")))
    battle.active_player = "B"
    with heeding_the_end(False):
        assert turns_ahead(battle, "A", "shooting") == ENDLESS
        assert still_to_play(battle, "assault")
    assert turns_ahead(battle, "A", "shooting") == 0
    # A player the schedule does not seat is taken to go on, not an error.
    assert turns_ahead(battle, "C", "shooting") == ENDLESS


def test_a_game_records_its_plan_as_its_schedule() -> None:
    # guard_suppress_terminators.toml: one turn of Shooting phases, the Cadians
    # first; core11_whole_game.toml plays its plan's phases in the flow's order.
    for name in ("guard_suppress_terminators.toml", "core11_whole_game.toml"):
        path = ROOT / "examples" / name
        scenario = load_scenario(path)
        game = Game.start(scenario, str(path), 1)
        schedule = game.ready.battle.memory[SCHEDULE]
        assert schedule.last_turn == scenario.plan.turns
        assert schedule.phases == tuple(scenario.plan.phases)
        first = scenario.first_player or scenario.players[0].name
        assert schedule.order[0] == first
        assert sorted(schedule.order) == sorted(p.name for p in scenario.players)
    guard = load_scenario(ROOT / "examples" / "guard_suppress_terminators.toml")
    game = Game.start(guard, "guard", 1)
    assert game.ready.battle.memory[SCHEDULE] == Schedule(
        1, ("shooting",), ("Cadians", "Ultramarines")
    )
