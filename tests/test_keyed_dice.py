"""Keyed dice (issue 14, section 2): one stream per (turn, player's turn, purpose).

The property that makes paired battles share dice: what a purpose rolls does
not depend on what other purposes rolled before it. Checked against the plain
single stream, which lacks it, and against the documented key (a stream is
``random.Random("SEED|TURN|PLAYER|PURPOSE")``), so logs reproduce anywhere.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.game import Game
from hammerlab.analysis.runners import Runner
from hammerlab.analysis.sweep import sweep
from hammerlab.analysis.sweep_grid import cases, parse_axes
from hammerlab.editions.base import play
from hammerlab.engine.dice import Dice, DiceModeError, KeyedDice, dice_for
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HIT = "to hit (Boltgun, Tactical Squad [tactical])"
MORALE = "Morale check (Ork Boyz [boyz])"


@dataclass
class Clock:
    turn: int = 1
    active_player: str = "Ultramarines"


def test_keyed_dice_roll_a_purpose_the_same_whatever_rolled_before() -> None:
    alone = KeyedDice(7).roll(10, HIT)
    after_other = KeyedDice(7)
    after_other.roll(3, MORALE)
    assert after_other.roll(10, HIT) == alone
    single = Dice(7)
    single.roll(3, MORALE)
    assert single.roll(10, HIT) != Dice(7).roll(10, HIT)  # one stream shifts


def test_keyed_dice_draw_from_the_stream_their_key_names() -> None:
    dice, clock = KeyedDice(3), Clock()
    dice.clock = clock
    first = dice.roll(4, HIT)
    clock.turn, clock.active_player = 2, "Orks"
    second = dice.roll(4, HIT) + dice.roll(2, HIT)  # a purpose's stream goes on
    one = random.Random(f"3|1|Ultramarines|{HIT}")
    two = random.Random(f"3|2|Orks|{HIT}")
    assert first == tuple(one.randint(1, 6) for _ in range(4))
    assert second == tuple(two.randint(1, 6) for _ in range(6))


def test_dice_for_names_the_modes() -> None:
    assert type(dice_for("single", 1)) is Dice
    assert type(dice_for("keyed", 1)) is KeyedDice
    with pytest.raises(DiceModeError, match="single, keyed"):
        dice_for("shuffled", 1)


def test_a_keyed_battle_is_the_same_battle_for_the_same_seed() -> None:
    path = EXAMPLES / "whole_game_three_turns.toml"
    scenario = load_scenario(path)

    def log() -> str:
        ready = prepare(scenario, str(path), 5, dice="keyed")
        play(ready.battle, ready.ruleset, ready.plan)
        return ready.battle.log.json_lines()

    keyed = log()
    assert keyed == log()
    single = prepare(scenario, str(path), 5)
    play(single.battle, single.ruleset, single.plan)
    assert keyed != single.battle.log.json_lines()


def test_a_cloned_keyed_battle_reads_its_own_turn() -> None:
    path = EXAMPLES / "whole_game_three_turns.toml"
    game = Game.start(load_scenario(path), str(path), 5)
    ready = prepare(load_scenario(path), str(path), 5, dice="keyed")
    assert isinstance(ready.battle.dice, KeyedDice)
    assert ready.battle.dice.clock is ready.battle
    twin = copy.deepcopy(ready.battle)
    assert isinstance(twin.dice, KeyedDice)
    assert twin.dice.clock is twin
    assert game.battle.dice.__class__ is Dice  # the plain game keeps one stream


def test_a_sweep_stores_keyed_battles_apart_from_single_ones() -> None:
    path = EXAMPLES / "guard_suppress_terminators.toml"
    loaded = [(load_scenario(path), str(path))]
    axes = parse_axes(["suppressive_fire=off,on"])
    single = cases(loaded, axes)
    keyed = cases(loaded, axes, dice="keyed")
    assert [json.loads(c.params) for c in single] == [
        {"suppressive_fire": "off"},
        {"suppressive_fire": "on"},
    ]
    assert [json.loads(c.params)["dice"] for c in keyed] == ["keyed", "keyed"]
    with Runner(1) as runner:
        results = sweep(keyed, 3, 1, runner)
    assert [r.runs for r in results] == [3, 3]
