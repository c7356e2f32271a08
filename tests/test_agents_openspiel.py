"""The OpenSpiel game (``hammerlab.agents.spiel``): OpenSpiel's own random-simulation
test on one scenario of each ruleset, exact clones, the bound on a game's length,
and bad parameters as input errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import hammerlab.agents.spiel  # noqa: F401 (registers the game)
from agents_kit import plugin_file
from hammerlab.agents.env import MAX_ACTIONS, OBSERVATION_SIZE, UNIT_FEATURES
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _load(scenario: Path, seed: int = 1) -> pyspiel.Game:
    return pyspiel.load_game("python_hammerlab", {"scenario": str(scenario), "seed": seed})


@pytest.mark.parametrize("scenario", ["vehicles_tank_shock.toml", "core11_normal_shooting.toml"])
def test_the_game_passes_openspiels_random_simulation_test(scenario: str) -> None:
    pyspiel.random_sim_test(_load(EXAMPLES / scenario), num_sims=2, serialize=False, verbose=False)


def _random_game(state: pyspiel.State, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    played = []
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        played.append(action)
        state.apply_action(action)
    return played


def test_a_clone_given_the_same_actions_plays_the_same_game_and_leaves_the_original() -> None:
    game = _load(EXAMPLES / "matchups" / "carnifex_vs_guard.toml", seed=4)
    state = game.new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    before = str(state)
    played = _random_game(clone, seed=7)
    assert str(state) == before  # playing the clone did not touch the original
    for action in played:
        state.apply_action(action)
    assert state.is_terminal()
    assert str(state) == str(clone)
    assert state.returns() == clone.returns()
    assert state.history() == clone.history()


@pytest.mark.parametrize(
    "scenario",
    [
        "whole_game_three_turns.toml",
        "matchups/terminators_vs_guard_platoon.toml",
        "core11_whole_game.toml",
    ],
)
def test_random_games_end_within_the_bound_with_zero_sum_returns(scenario: str) -> None:
    game = _load(EXAMPLES / scenario)
    spec = load_scenario(EXAMPLES / scenario)
    first = [p.name for p in spec.players].index(spec.first_player or spec.players[0].name)
    for seed in range(3):
        state = game.new_initial_state()
        assert state.current_player() == first  # players in the scenario's order
        played = _random_game(state, seed)
        assert len(played) <= game.max_game_length()
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
        assert np.asarray(state.observation_tensor(0)).shape == (OBSERVATION_SIZE,)
        assert game.num_distinct_actions() == MAX_ACTIONS


def test_an_observation_is_the_players_own_view() -> None:
    game = _load(EXAMPLES / "matchups" / "carnifex_vs_guard.toml")
    state = game.new_initial_state()
    mine, theirs = (np.asarray(state.observation_tensor(p)) for p in (0, 1))
    # carnifex_vs_guard: the Tyranids (player 0) have 1 unit, the Cadians 3; each
    # view puts its own units first, marked +1 (the second number of a unit's slot).
    assert mine[1] == 1.0 and mine[UNIT_FEATURES + 1] == -1.0
    assert theirs[1] == 1.0 and theirs[3 * UNIT_FEATURES + 1] == -1.0
    assert "Carnifex [carnifex] → advance" in state.observation_string(0)
    assert "legal_actions': []" in state.observation_string(1)


def test_a_game_without_a_scenario_or_with_a_missing_one_is_an_input_error(
    tmp_path: Path,
) -> None:
    with pytest.raises(InputError, match="scenario"):
        pyspiel.load_game("python_hammerlab")
    with pytest.raises(InputError, match=r"missing\.toml"):
        pyspiel.load_game("python_hammerlab", {"scenario": str(tmp_path / "missing.toml")})


def test_the_openspiel_mcts_example_runs() -> None:
    script = ROOT / "examples" / "agents" / "openspiel_mcts.py"
    done = subprocess.run(
        [sys.executable, str(script), "--games", "2", "--simulations", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("game ") == 2 and "MCTS bot: " in done.stdout
    assert "MCTS in seat 0" in done.stdout and "MCTS in seat 1" in done.stdout


def test_an_action_out_of_range_and_a_seed_below_minus_one_are_refused() -> None:
    # A tool builder's review: apply_action(63) raised IndexError; seed -5 played as -1.
    from hammerlab.errors import IllegalActionError

    scenario = str(Path(__file__).resolve().parents[1] / "examples" / "core11_whole_turn.toml")
    state = pyspiel.load_game("python_hammerlab", {"scenario": scenario}).new_initial_state()
    with pytest.raises(IllegalActionError, match="action 63 is not one of the"):
        state.apply_action(63)
    with pytest.raises(InputError, match="seed: -5: a seed is 0 or more, or -1"):
        pyspiel.load_game("python_hammerlab", {"scenario": scenario, "seed": -5})


def test_the_game_takes_rule_settings_and_plug_ins_as_game_start_does(tmp_path: Path) -> None:
    # A tool builder's review: the OpenSpiel game took only a scenario and a seed, so an
    # agent could not be searched or trained under a plug-in's rule. ``plugins`` names
    # the files as PATH does (os.pathsep between them); the rule's name is new here.
    from hammerlab.engine.rules import RuleSettingError

    files = [plugin_file(tmp_path, name) for name in ("spiel_armour", "spiel_cover")]
    scenario = str(EXAMPLES / "psychic_duel.toml")
    rules = {"spiel_armour": True, "spiel_cover": True, "charge_dice": 3}
    params = {"scenario": scenario, "rules": rules, "plugins": os.pathsep.join(map(str, files))}
    settings = (
        pyspiel.load_game("python_hammerlab", params).new_initial_state().game.battle.settings
    )
    assert settings.options["spiel_armour"] and settings.options["spiel_cover"]
    assert settings.values["charge_dice"] == 3
    missing = {"scenario": scenario, "plugins": str(tmp_path / "missing.py")}
    with pytest.raises(InputError, match=r"missing\.py: no such plug-in file"):
        pyspiel.load_game("python_hammerlab", missing)
    with pytest.raises(RuleSettingError, match="charge_dice=99: must be at most"):
        pyspiel.load_game("python_hammerlab", {"scenario": scenario, "rules": {"charge_dice": 99}})
