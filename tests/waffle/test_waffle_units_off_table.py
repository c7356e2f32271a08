"""Units off the table (in reserve, aboard a transport) in a game's summary, its
``battle --json`` and the lab, and a unit still in reserve when the game ends.

A referee review (session 22) found a unit still in reserve missing from all
three when the game ended early (Sudden Death) or was stopped: a reader could not
tell "still in reserve" from "never existed". 7th edition, Reserves: "any unit that
has not arrived by the end of the game counts as destroyed" (the project's quote,
``reserves.lose_reserves``) - at any end of the game, Sudden Death included.
"""

from __future__ import annotations

from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    STORM_BOLTER,
    TROOPER,
    A,
    B,
    make_battle,
    of_kind,
    row,
    squad,
)
from test_waffle_transports import transport

from hammerlab.analysis.game import Game
from hammerlab.analysis.lab import arms, compare, play_once
from hammerlab.analysis.search import army_worth, value_for
from hammerlab.cli.battle_cmd import battle_document
from hammerlab.editions import get_ruleset
from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.reserves import set_reserves
from hammerlab.editions.waffle.sudden_death import game_over
from hammerlab.editions.waffle.transports import embark
from hammerlab.io.scenario import Scenario, parse_scenario

SCENARIO = """
name = "Off the table"
seed = 1
[plan]
turns = 1
phases = ["assault"]
[[players]]
name = "Cadians"
edge = "south"
[[players]]
name = "Ultramarines"
edge = "north"
[[units]]
id = "chimera"
player = "Cadians"
unit = "Chimera"
position = [36, 8]
[[units]]
id = "guard"
player = "Cadians"
unit = "Infantry Squad"
position = [36, 8]
embarked_in = "chimera"
[[units]]
id = "tactical"
player = "Ultramarines"
unit = "Tactical Squad"
position = [34, 38]
[[units]]
id = "terminators"
player = "Ultramarines"
unit = "Terminator Squad"
position = [36, 30]
reserve = "deep_strike"
"""
"""Ten Guardsmen aboard a Chimera, five Terminators in reserve; one game turn of
Assault phases only, the armies 30" apart: nobody moves, shoots or reaches a charge,
so the Guardsmen stay aboard and the Terminators never arrive (no Reserve Roll in
turn 1)."""


def _scenario() -> Scenario:
    return parse_scenario(SCENARIO, "t.toml")


def _units(document: dict[str, object]) -> dict[str, tuple[int, int, str | None]]:
    units = document["units"]
    assert isinstance(units, list)
    return {u["id"]: (u["models_left"], u["models_destroyed"], u["off_table"]) for u in units}


def test_a_stopped_game_lists_its_units_in_reserve_and_aboard() -> None:
    game = Game.start(_scenario(), "t.toml", 1, stop_before_turn=1)
    game.play()
    ready = game.ready
    lines = ready.ruleset.summary(game.battle, ready.plan, over=False)
    assert "Ultramarines: Terminator Squad [terminators]: 5/5 models, in reserve" in lines
    assert "Cadians: Infantry Squad [guard]: 10/10 models, aboard Chimera [chimera]" in lines
    assert _units(battle_document(game)) == {
        "chimera": (1, 0, None),
        "tactical": (10, 0, None),
        "terminators": (5, 0, "in reserve"),
        "guard": (10, 0, "aboard Chimera [chimera]"),
    }


def test_at_the_end_a_unit_in_reserve_is_destroyed_and_one_aboard_still_listed() -> None:
    game = Game.start(_scenario(), "t.toml", 1)
    game.play()
    assert _units(battle_document(game)) == {
        "chimera": (1, 0, None),
        "tactical": (10, 0, None),
        "terminators": (0, 5, None),  # never arrived: counts as destroyed, on the table
        "guard": (10, 0, "aboard Chimera [chimera]"),
    }
    assert game.scores == {"Cadians": 1, "Ultramarines": 0}  # the Terminators' kill point


def test_the_lab_counts_the_units_in_reserve_and_aboard() -> None:
    scenario = _scenario()
    outcome = play_once(scenario, "t.toml", {}, seed=1)
    assert outcome.models_left == {"chimera": 1, "tactical": 10, "terminators": 0, "guard": 10}
    report = compare(scenario, "t.toml", arms(scenario, ["fiery_charge"]), runs=1)
    assert [(u.id, u.baseline_mean) for u in report.units] == [
        ("chimera", 1.0),
        ("tactical", 10.0),
        ("terminators", 0.0),
        ("guard", 10.0),
    ]


def test_a_unit_still_in_reserve_when_sudden_death_ends_the_game_counts_as_destroyed() -> None:
    # A's Marines wiped out at the end of a game turn, B's Troopers still in reserve:
    # B wins (Sudden Death), and its unit that never arrived counts as destroyed, a
    # kill point to A (one to B for the Marines).
    marines = squad("m", A, MARINE, [LASGUN], row(30, 10, 2))
    troopers = squad("t", B, TROOPER, [STORM_BOLTER], row(30, 30, 5), rules=["Deep Strike"])
    battle = make_battle(marines, troopers, seed=1)
    set_reserves(battle, {"t": "deep_strike"}, 5)
    for model in marines.models:
        model.wounds_left = 0
    assert game_over(battle)
    assert [e.unit for e in of_kind(battle, "lost_in_reserve")] == ["T [t]"]
    assert battle.units["t"].destroyed
    assert victory_scores(battle, "kill_points") == {A: 1, B: 1}


def test_the_models_a_unit_lost_before_it_embarked_count_while_it_is_aboard() -> None:
    # Five Marines of A lose two models on the table, then embark in A's Chimera and
    # are aboard when the game ends. Models destroyed: B scores those 2 (5 fielded, 3
    # left), A nothing; kill points: nobody (no unit destroyed). The search AI values
    # the position alike (2 models to B, damage short of a kill: none), and A's army is
    # worth its 5 Marines and its Chimera (6 models), B's its 3 Guardsmen.
    marines = squad("m", A, MARINE, [LASGUN], row(30, 10, 5))
    chimera = transport("c", A, (34, 14))
    guard = squad("g", B, GUARD, [LASGUN], row(30, 40, 3))
    battle = make_battle(marines, chimera, guard, seed=1)
    for model in marines.models[3:]:
        model.wounds_left = 0
    embark(battle, marines, chimera)
    assert "m" not in battle.units  # off the table
    assert victory_scores(battle, "models_destroyed") == {A: 0, B: 2}
    assert victory_scores(battle, "kill_points") == {A: 0, B: 0}
    assert value_for(battle, "models_destroyed", B, get_ruleset("waffle")) == 2.0
    assert army_worth(battle, "models_destroyed") == {A: 6.0, B: 3.0}
