"""The odds of winning the search can value a playout by (``Budget.measure = "odds"``):
the model's fit, the player turns left, the fitting games, and the value it gives."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hammerlab.analysis import win_odds
from hammerlab.analysis.game import Game
from hammerlab.analysis.search import Budget, SearchController, army_worth, margins, value_for
from hammerlab.analysis.win_odds import WinOdds, features, fit, odds_for, player_turns_left
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"


def test_the_model_is_the_logistic_curve_of_its_weighted_features() -> None:
    # Weights (0.5, 2, 0, 1, 0), share 0.25, points 3, 1 player turn left: the
    # features are (1, 0.25, 3, 0.125, 1.5), z = 0.5 + 0.5 + 0.125 = 1.125.
    odds = WinOdds((0.5, 2.0, 0.0, 1.0, 0.0))
    assert features(0.25, 3.0, 1) == (1.0, 0.25, 3.0, 0.125, 1.5)
    assert odds.of(0.25, 3.0, 1) == pytest.approx(1 / (1 + math.exp(-1.125)))
    assert WinOdds((-1000.0, 0.0, 0.0, 0.0, 0.0)).of(0, 0, 0) == 0.0  # no overflow


def test_the_fit_finds_the_weights_the_results_were_drawn_with() -> None:
    # 40,000 rows of random margins and turns left, each result drawn as a win with
    # the chance a known model gives: the fit finds that model's weights again,
    # within a few standard errors (about 0.03 at this size).
    rng = np.random.default_rng(3)
    truth = np.array([-0.4, 3.0, 0.2, 1.5, -0.1])
    share = rng.uniform(-1, 1, 40_000)
    points = rng.uniform(-10, 10, 40_000)
    left = rng.integers(0, 11, 40_000)
    rows = [features(s, p, int(n)) for s, p, n in zip(share, points, left, strict=True)]
    chance = 1 / (1 + np.exp(-(np.asarray(rows) @ truth)))
    results = (rng.uniform(size=40_000) < chance).astype(float).tolist()
    found = np.asarray(fit(rows, results).weights)
    assert np.allclose(found, truth, atol=0.15)


def test_a_draw_counts_half_a_win_in_the_fit() -> None:
    # One feature, the constant: every result a draw, the fitted chance is 1/2.
    rows = [features(0.0, 0.0, 5)] * 10
    assert fit(rows, [0.5] * 10).of(0.0, 0.0, 5) == pytest.approx(0.5, abs=1e-6)


def test_the_player_turns_left_count_the_one_under_way() -> None:
    # The Carnifex scenario plays five game turns of two players: at the first
    # decision (game turn 1, the first seat) all ten player turns are left; once the
    # game is over none.
    spec = load_scenario(SMALL)
    game = Game.start(spec, str(SMALL), seed=1)
    assert (game.turn, game.play_state.cursor.seat, game.play_state.last) == (1, 0, 5)
    assert player_turns_left(game) == 10
    game.play()
    assert game.is_over and player_turns_left(game) == 0


def test_the_model_is_fitted_once_per_scenario_and_player_whatever_the_game() -> None:
    # Two games of the scenario on other seeds ask for the same model: fitted once,
    # on the fitting games' own seeds, so the game that asks first changes nothing.
    spec = load_scenario(SMALL)
    first = Game.start(spec, str(SMALL), seed=1)
    second = Game.start(spec, str(SMALL), seed=9)
    win_odds._FITTED.clear()
    odds = odds_for(first.recipe, "Tyranids", 3, margins)
    assert odds_for(second.recipe, "Tyranids", 3, margins) is odds
    assert len(win_odds._FITTED) == 1
    win_odds._FITTED.clear()
    assert odds_for(second.recipe, "Tyranids", 3, margins) == odds


def test_the_fitting_rows_are_each_player_turn_s_start_and_the_end() -> None:
    # One heuristic game: a row at the start of every player turn after the first and
    # one at its end, the end's with no turn left (each margin over 1 + 0); every
    # row's result the game's for the player (1, 1/2 or 0). Two games: the first
    # game's rows, then the second's.
    spec = load_scenario(SMALL)
    game = Game.start(spec, str(SMALL), seed=1)
    rows, results = win_odds.mirror_rows(game.recipe, "Cadians", 1, margins)
    assert 2 <= len(rows) <= 10 and len(results) == len(rows)
    last = rows[-1]
    assert (last[3], last[4]) == (last[1], last[2])
    assert len(set(results)) == 1 and results[0] in {0.0, 0.5, 1.0}
    more, also = win_odds.mirror_rows(game.recipe, "Cadians", 2, margins)
    assert more[: len(rows)] == rows and also[: len(rows)] == results
    assert len(more) > len(rows)


def test_a_playout_is_worth_its_odds_with_the_luck_taken_out_of_each_margin() -> None:
    # The value is the model's chance from the two margins, each less the luck its
    # attacks' dice had counted the same way (the share's luck divided by each army).
    spec = load_scenario(SMALL)
    game = Game.start(spec, str(SMALL), seed=2)
    budget = Budget(measure="odds", odds_games=3)
    searcher = SearchController("Tyranids", budget)
    searcher.attach(game)
    copy = searcher.playout(game, game.legal_actions()[0], seed=7)
    luck = searcher._luck[id(copy.battle)]
    odds = odds_for(game.recipe, "Tyranids", 3, margins)
    battle, victory, ruleset = copy.battle, copy.ready.plan.victory, copy.ready.ruleset
    scale = army_worth(battle, victory)
    share = value_for(battle, victory, "Tyranids", ruleset, scale) - luck.margin("Tyranids", scale)
    points = value_for(battle, victory, "Tyranids", ruleset) - luck.margin("Tyranids")
    expected = odds.of(share, points, player_turns_left(copy))
    assert searcher._value(copy) == pytest.approx(expected)
    kept = SearchController("Tyranids", replace(budget, luck="kept"))
    kept.attach(game)
    copy = kept.playout(game, game.legal_actions()[0], seed=7)
    assert kept._value(copy) == pytest.approx(
        odds.of(*margins(copy, "Tyranids"), player_turns_left(copy))
    )


def test_a_budget_fitting_the_odds_on_no_game_is_refused() -> None:
    with pytest.raises(InputError, match="odds_games"):
        Budget(odds_games=0)
