"""How a table's measures tell who wins: the odds the search can value a playout by.

The search values a playout where it stops, a turn or two ahead, by how much of each
army is destroyed (:func:`~hammerlab.analysis.search.value_for`). That margin is not
what the game is played for: a game is won on the score at its end, or by wiping the
other side out, and a model destroyed weighs more in a close game's last turn than in
the first turn of one already decided. With ``Budget.measure = "odds"`` the search
values a playout by the chance of winning from it instead: a logistic model of the
result (1 won, ½ drawn, 0 lost) on the two margins the search knows (the share of
each army destroyed and the victory points), each also divided by one more than the
player turns left, so that the model can weigh a margin more as the end nears.

The model is fitted for each scenario and player on :data:`GAMES` games of the
heuristic AI against itself (the scenario's own rules and plug-ins), the margins read
at the start of every player turn and at the end of each game, by Newton's method on
the log-likelihood with a small ridge (:data:`RIDGE`). The games' seeds are their own
(:data:`FIRST_SEED` on), so a game played with the search draws nothing of its dice
from them; the model depends on the scenario, its rules and the player alone, never on
which game asked first (:func:`odds_for` remembers it by them).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hammerlab.analysis.game import Game, Recipe
from hammerlab.editions.turns import game_winner
from hammerlab.io.scenario import Scenario

GAMES = 200
"""Heuristic games a model is fitted on, by default (``Budget.odds_games``)."""
FIRST_SEED = 1_000_001
"""The first of the fitting games' seeds: far from the seeds tournaments play."""
RIDGE = 1e-3
"""The ridge on the weights: keeps them finite where the margins tell the result apart
every time (at the end of a game, most often)."""

Measures = Callable[[Game, str], tuple[float, float]]
"""A game's two margins for a player: the share of each army destroyed, then the points."""


def player_turns_left(game: Game) -> int:
    """The player turns still to be played in ``game``, the one under way counted (0 once
    it is over)."""
    if game.is_over:
        return 0
    state = game.play_state
    seats = len(state.order)
    return (state.last - game.turn) * seats + seats - state.cursor.seat


def features(share: float, points: float, left: int) -> tuple[float, ...]:
    """The model's inputs: a constant, the two margins, and each divided by one more than
    the player turns left."""
    near = 1.0 / (1 + left)
    return (1.0, share, points, share * near, points * near)


@dataclass(frozen=True)
class WinOdds:
    """A fitted model: the chance of winning (a draw counted half) from two margins."""

    weights: tuple[float, ...]

    def of(self, share: float, points: float, left: int) -> float:
        """The chance of winning with these margins and ``left`` player turns to play."""
        z = sum(w * x for w, x in zip(self.weights, features(share, points, left), strict=True))
        if z < -500:  # math.exp would overflow
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))


def fit(rows: Sequence[tuple[float, ...]], results: Sequence[float]) -> WinOdds:
    """The logistic model of ``results`` (each 0, ½ or 1) on ``rows`` (:func:`features`),
    by Newton's method on the log-likelihood less :data:`RIDGE` times the squared weights
    (the constant's too)."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(results, dtype=float)
    w = np.zeros(x.shape[1])
    ridge = RIDGE * np.eye(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -500, 500)))
        gradient = x.T @ (p - y) + RIDGE * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return WinOdds(tuple(float(v) for v in w))


def mirror_rows(
    recipe: Recipe, player: str, games: int, measures: Measures
) -> tuple[list[tuple[float, ...]], list[float]]:
    """``player``'s :func:`features` at the start of every player turn and at the end of
    ``games`` games of the heuristic against itself, started from ``recipe`` with seeds
    :data:`FIRST_SEED` on, and each row's game result for ``player``."""
    scenario = Scenario.model_validate(recipe.scenario)
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        game = Game.start(
            scenario,
            recipe.source,
            seed,
            recipe.rules,
            recipe.plugins,
            scenario_path=recipe.scenario_path,
        )
        taken = []
        turn = (game.turn, game.play_state.cursor.seat)
        while not game.is_over:
            game.step()
            now = (game.turn, game.play_state.cursor.seat)
            if now != turn or game.is_over:
                taken.append(features(*measures(game, player), player_turns_left(game)))
            turn = now
        best = game_winner(game.battle, game.ready.plan.victory)
        result = 0.5 if best is None else 1.0 if best == player else 0.0
        rows.extend(taken)
        results.extend([result] * len(taken))
    return rows, results


_FITTED: dict[str, WinOdds] = {}
"""The models fitted in this process, by scenario, rules, plug-ins, player and games."""


def odds_for(recipe: Recipe, player: str, games: int, measures: Measures) -> WinOdds:
    """The model for ``player`` of ``recipe``'s scenario, rules and plug-ins, fitted on
    ``games`` heuristic games (:func:`mirror_rows`) the first time it is asked."""
    key = json.dumps(
        [recipe.scenario, recipe.source, recipe.rules, recipe.plugins, player, games],
        sort_keys=True,
        default=str,
    )
    known = _FITTED.get(key)
    if known is None:
        known = _FITTED[key] = fit(*mirror_rows(recipe, player, games, measures))
    return known
