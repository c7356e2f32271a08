"""A game's state is what was played in it, never what was asked along the way.

A saved game (``Game.to_json``) is replayed by answering its decisions without
asking the controllers, then its state digest is compared (docs/api.md, *Saved
games*). So a question — an AI estimate, ``legal_actions``, a search's
look-ahead — must write nothing into the battle's state: a vehicle's heading
filled in the first time an estimate asked where its hull faced made every
game with a vehicle refuse to resume (``digest: the replayed game differs``).

The expected values here come from independent runs of the same game (played
through, or stopped and resumed) and from the scenario's positions, never
from the code's own answer.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.game import Game
from hammerlab.cli.app import app
from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.reserves import put_on_table, to_ongoing_reserves
from hammerlab.editions.waffle.rules.fiery_charge import NAME as FIERY_CHARGE
from hammerlab.editions.waffle.rules.fiery_charge import made_fiery_charge
from hammerlab.editions.waffle.state import state_of
from hammerlab.editions.waffle.vehicles import (
    crew_snap_shots,
    face_the_enemy,
    facing_of,
    heading_of,
    may_move,
    melee_cell_against,
    vehicle_status_now,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RUSS = EXAMPLES / "vehicles_leman_russ.toml"
TRANSPORT = EXAMPLES / "vehicles_transport.toml"
WHOLE = EXAMPLES / "whole_game_three_turns.toml"


def start(path: Path, seed: int, stop_before_turn: int | None = None) -> Game:
    return Game.start(load_scenario(path), str(path), seed, stop_before_turn=stop_before_turn)


def events(game: Game) -> str:
    return game.battle.log.json_lines()


def snapshot(battle: Battle) -> str:
    """The edition state and the rules' memory, as plain text to compare."""
    assert battle.state is not None
    memory = sorted((k, repr(v)) for k, v in battle.memory.items())
    return json.dumps([battle.state.snapshot(), memory], sort_keys=True, default=str)


def bearing_to_centre(origin: Vec, units: list[Unit]) -> float:
    """Degrees from ``origin`` to the centre of the models alive of ``units``."""
    spots = [m.position for u in units for m in u.alive_models]
    cx = sum(p[0] for p in spots) / len(spots)
    cy = sum(p[1] for p in spots) / len(spots)
    return math.degrees(math.atan2(cy - origin[1], cx - origin[0]))


# --- the review's case: a vehicle game saved after turn 1 ------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", [RUSS, TRANSPORT], ids=["leman_russ", "transport"])
def test_a_vehicle_game_saved_after_turn_1_resumes_to_the_uninterrupted_game(
    path: Path, seed: int
) -> None:
    whole = start(path, seed)
    whole.play()
    first = start(path, seed, stop_before_turn=2)
    first.play()
    assert first.is_over and first.turn == 2
    loaded = Game.from_json(first.to_json(), stop_before_turn=2)  # refused if the digests differ
    assert loaded.digest() == first.digest()
    assert loaded.decisions() == first.decisions()
    assert events(loaded) == events(first)
    loaded.stop_before_turn = None
    loaded.play()
    assert events(loaded) == events(whole)


def test_the_reviewed_cli_commands_resume_a_vehicle_game(tmp_path: Path) -> None:
    runner = CliRunner()
    whole, rest = tmp_path / "whole.jsonl", tmp_path / "rest.jsonl"
    saved = tmp_path / "v.json"
    args = ["battle", str(RUSS), "--seed", "1"]
    assert runner.invoke(app, [*args, "--log-json", str(whole)]).exit_code == 0
    stopped = runner.invoke(app, [*args, "--stop-after", "1", "--save", str(saved)])
    assert stopped.exit_code == 0, stopped.output
    resumed = runner.invoke(app, ["battle", "--resume", str(saved), "--log-json", str(rest)])
    assert resumed.exit_code == 0, resumed.output
    tail = rest.read_text(encoding="utf-8").split("\n", 1)[1]
    assert tail == whole.read_text(encoding="utf-8").split("\n", 1)[1]


# --- where a hull faces: set at a game event, never by a question ----------------------


def test_a_vehicle_is_set_up_facing_the_enemy_when_the_battle_begins() -> None:
    game = start(RUSS, 1)
    battle = game.battle
    marines = battle.units_of("Ultramarines")
    for uid in ("russ", "sentinel"):
        model = battle.unit(uid).models[0]
        expected = bearing_to_centre(model.position, marines)
        assert state_of(battle).vehicles[model.id].heading == pytest.approx(expected)


def test_asking_about_a_vehicle_keeps_nothing() -> None:
    # A battle made but not begun: no vehicle has been set up facing anywhere, so
    # each question below is the first about the Leman Russ (the AI's estimate of a
    # shot at it was what wrote its heading).
    ready = prepare(load_scenario(RUSS), str(RUSS), 1)
    battle = ready.battle
    russ, tactical = battle.unit("russ"), battle.unit("tactical")
    hull = russ.models[0]
    before = snapshot(battle)
    assert state_of(battle).vehicles == {}
    expected = bearing_to_centre(hull.position, battle.units_of("Ultramarines"))
    assert heading_of(battle, russ, hull) == pytest.approx(expected)
    facing_of(battle, russ, hull, tactical.models[0].position)
    assert expected_attack(battle, tactical, russ, FireOrders()) > 0
    assert vehicle_status_now(battle, hull).heading is None
    assert not crew_snap_shots(battle, hull)
    assert may_move(battle, russ)
    assert melee_cell_against(battle, russ) == "A"  # it has not moved: hit automatically
    assert state_of(battle).vehicles == {}
    assert snapshot(battle) == before


def test_the_ais_choice_at_every_decision_of_turn_1_keeps_the_state() -> None:
    game = start(RUSS, 1, stop_before_turn=2)
    ai = game.ready.ruleset.ai()
    asked = 0
    while not game.is_over:
        before = game.digest()
        game.legal_actions()
        decision = game._pending
        assert decision is not None
        ai.choose(game.battle, decision)
        assert game.digest() == before
        asked += 1
        game.step()
    assert asked >= 5


def test_a_vehicle_arriving_from_reserve_faces_the_enemy_as_they_stand_then() -> None:
    ready = prepare(load_scenario(RUSS), str(RUSS), 1)
    battle = ready.battle
    russ = battle.unit("russ")
    to_ongoing_reserves(battle, russ, "deep_strike")
    ready.ruleset.start(battle)  # the battle begins: the Russ is off the table
    assert russ.models[0].id not in state_of(battle).vehicles
    for model in battle.unit("tactical").models:  # the Marines advance meanwhile
        model.position = (model.position[0] + 10.0, model.position[1] - 12.0)
    put_on_table(battle, russ)
    hull = russ.models[0]
    expected = bearing_to_centre(hull.position, battle.units_of("Ultramarines"))
    assert state_of(battle).vehicles[hull.id].heading == pytest.approx(expected)


def test_a_vehicle_set_up_again_turns_to_the_enemy_and_one_set_up_keeps_its_facing() -> None:
    game = start(RUSS, 1)
    battle = game.battle
    russ = battle.unit("russ")
    hull = russ.models[0]
    deployed = state_of(battle).vehicles[hull.id].heading
    for model in battle.unit("tactical").models:
        model.position = (model.position[0] - 20.0, model.position[1])
    face_the_enemy(battle, russ)  # already facing somewhere: it keeps its heading
    assert state_of(battle).vehicles[hull.id].heading == deployed
    face_the_enemy(battle, russ, again=True)  # Infiltrate or Scout set it up anew
    expected = bearing_to_centre(hull.position, battle.units_of("Ultramarines"))
    assert state_of(battle).vehicles[hull.id].heading == pytest.approx(expected)
    assert expected != pytest.approx(deployed)


def test_asking_a_chargers_attacks_makes_no_fiery_charge_memory() -> None:
    # The AI weighs a charge's bonus Attacks (charge.charge_bonus, through the Fiery
    # Charge's hook) long before anyone makes a Fiery Charge.
    game = start(WHOLE, 1)
    battle = game.battle
    assert FIERY_CHARGE not in battle.memory
    boyz = battle.unit("boyz")
    assert not made_fiery_charge(battle, boyz)
    from hammerlab.editions.waffle.charge import charge_bonus

    assert charge_bonus(battle, boyz) == 1
    assert FIERY_CHARGE not in battle.memory


# --- the general property: save and load anywhere in turn 1 ----------------------------


def test_a_game_saved_as_it_starts_or_just_after_a_step_loads() -> None:
    # The Cadians' squad is asked whether to disembark before their first pick: the
    # replay answers that, then stops at the pick, as the saved game did.
    game = start(TRANSPORT, 1)
    loaded = Game.from_json(game.to_json())
    assert game.decisions() and loaded.decisions() == game.decisions()
    assert loaded.digest() == game.digest()
    game.step()
    loaded = Game.from_json(game.to_json())
    assert loaded.decisions() == game.decisions()
    assert loaded.digest() == game.digest()


SAVED_ANYWHERE = [
    "vehicles_leman_russ.toml",  # vehicles
    "vehicles_transport.toml",  # a transport, and a decision before the first pick
    "vehicles_tank_shock.toml",
    "whole_game_three_turns.toml",  # a whole game (Fiery Charge)
    "deep_strike_terminators.toml",  # reserves
    "psychic_duel.toml",
    "core11_whole_game.toml",
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", SAVED_ANYWHERE)
def test_a_game_saved_at_any_decision_of_turn_1_loads_to_the_same_state(
    name: str, seed: int
) -> None:
    game = start(EXAMPLES / name, seed, stop_before_turn=2)
    saves = 0
    while True:
        loaded = Game.from_json(game.to_json(), name, stop_before_turn=2)  # refused if they differ
        assert loaded.digest() == game.digest()
        assert loaded.decisions() == game.decisions()  # no controller was asked
        saves += 1
        if game.is_over:
            break
        game.step()
    assert game.turn == 2 and saves > 1
