"""Tournaments: the JSON document's shape, Wilson intervals derived here
independently, ratings that order the players, and one-line errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

from typer.testing import CliRunner

from hammerlab.analysis.stats import wilson_interval
from hammerlab.analysis.tournament import Result, ratings
from hammerlab.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = [
    ROOT / "examples" / "sanity" / "terminators_vs_guardsmen.toml",
    ROOT / "examples" / "sanity" / "nobz_vs_terminators.toml",
]


def _wilson(k: int, n: int) -> tuple[float, float]:
    """Solve |p̂ - p| = 1.96·sqrt(p(1-p)/n) for p: a quadratic in p."""
    z2, phat = 1.959964**2, k / n
    a = 1 + z2 / n
    b = -(2 * phat + z2 / n)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


def test_wilson_interval_is_the_root_pair_of_the_score_test() -> None:
    for k, n in [(0, 10), (3, 10), (10, 10), (37, 40), (180, 360)]:
        interval = wilson_interval(k, n)  # the one the tournament's win rates use
        low, high = interval.low, interval.high
        want_low, want_high = _wilson(k, n)
        assert math.isclose(low, want_low, abs_tol=1e-9)
        assert math.isclose(high, want_high, abs_tol=1e-9)


def test_ratings_order_the_players_by_their_results_and_average_1500() -> None:
    games = [Result("s", seed, (("A", "strong"), ("B", "weak")), "strong") for seed in range(8)] + [
        Result("s", 9, (("A", "weak"), ("B", "strong")), None)
    ]
    elo = ratings(["strong", "weak"], games)
    assert elo["strong"] > 1500 > elo["weak"]
    assert math.isclose((elo["strong"] + elo["weak"]) / 2, 1500)
    # two players only: the fit is the observed score with the prior draw added
    share = (8 + 0.5 + 0.5) / (9 + 1)
    assert math.isclose(elo["strong"] - elo["weak"], 400 * math.log10(share / (1 - share)))


def test_tournament_json_has_a_record_and_an_interval_per_player() -> None:
    args = ["tournament", *map(str, SCENARIOS), "--players", "heuristic,random"]
    result = CliRunner().invoke(app, [*args, "--games", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document["players"]) == {"heuristic", "random"}
    for record in document["players"].values():
        assert record["games"] == 2 * 2 * 3  # two scenarios, both sides, three seeds
        assert record["wins"] + record["losses"] + record["draws"] == record["games"]
        assert math.isclose(record["win_rate"], record["wins"] / record["games"])
        low, high = record["win_rate_ci95"]
        want = _wilson(record["wins"], record["games"])
        assert math.isclose(low, want[0], abs_tol=1e-9)
        assert math.isclose(high, want[1], abs_tol=1e-9)
    h, r = document["players"]["heuristic"], document["players"]["random"]
    assert h["wins"] == r["losses"] and h["draws"] == r["draws"]
    (pairing,) = document["pairings"]
    assert pairing["heuristic_wins"] == h["wins"] and pairing["games"] == 12
    assert len(document["games"]) == 12
    for game in document["games"]:
        # the scenario's victory condition names the winner: the higher score
        (a, score_a), (b, score_b) = game["scores"].items()
        best = None if score_a == score_b else (a if score_a > score_b else b)
        assert game["winner"] == (None if best is None else game["sides"][best])
    again = CliRunner().invoke(app, [*args, "--games", "3", "--json"])
    assert json.loads(again.stdout) == document  # common, fixed seeds


def test_tournament_names_a_bad_player_in_one_line() -> None:
    args = ["tournament", str(SCENARIOS[0]), "--players", "heuristic,alphazero"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2  # a usage error of --players (session 14)
    assert result.stderr.startswith("error: --players: ") and result.stderr.count("\n") == 1
    assert "alphazero" in result.stderr
