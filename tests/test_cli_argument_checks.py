"""Flags and files that were silently accepted are one ``error:`` line (a user review).

Usage mistakes (flags that do not go together, a turn the game does not have)
exit with status 2 naming the flag, as ``cli/common.usage_error`` does; a
mistake in a file exits with status 1 naming the file and the key. Expected
numbers are worked out by hand from the 6th/7th-edition rules.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cli_kit import one_line, run

ROOT = Path(__file__).resolve().parents[1]
THREE_TURNS = ROOT / "examples" / "whole_game_three_turns.toml"
"""Three game turns; players Ultramarines and Orks."""
POISONED = ["odds", "--shots", "10", "--type", "Assault", "--bs", "4", "--strength", "3",
            "--ap", "-", "--toughness", "6", "--save", "3", "--wounds", "1",
            "--target-models", "10"]  # fmt: skip
"""The reviewer's question: 10 shots at BS4, S3 against T6 (6+ on the chart), Sv3+."""


# --- battle -----------------------------------------------------------------------------


def test_side_without_a_controller_that_plays_one_is_a_usage_error() -> None:
    code, out, err = run("battle", str(THREE_TURNS), "--side", "Orks", "--json")
    line = one_line(code, err, 2)
    assert line.startswith("error: --side: ") and "--controller prompt, search or random" in line
    assert out == ""


def test_an_unknown_controller_or_side_is_a_usage_error() -> None:
    # A player's review: these two exited 1 where the parser's other usage errors exit 2.
    code, out, err = run("battle", str(THREE_TURNS), "--controller", "human")
    assert one_line(code, err, 2) == (
        "error: --controller: must be heuristic, prompt, search or random, not 'human'"
    )
    code, out, err = run("battle", str(THREE_TURNS), "--controller", "search", "--side", "Eldar")
    assert one_line(code, err, 2) == (
        f"error: --side: {THREE_TURNS} has no player 'Eldar'; its players: Ultramarines, Orks"
    )
    assert out == ""


@pytest.mark.parametrize("name", ["heuristic", "ai"])
def test_the_heuristic_ai_is_called_as_the_header_calls_it(name: str) -> None:
    # A newcomer's review (s23): the battle's header says "Players: Cadians: heuristic
    # AI", `lab --ai` and `tournament --players` say `heuristic`, but `--controller
    # heuristic` was refused ("must be ai, ..."). Both names play the heuristic AI on
    # both sides (ai, the older name, is kept), and so refuse --side as the default does.
    code, out, err = run(
        "battle", str(THREE_TURNS), "--controller", name, "--stop-after", "1", "--no-dice"
    )  # fmt: skip
    assert code == 0, err
    assert "Players: Ultramarines: heuristic AI; Orks: heuristic AI" in out
    code, _, err = run("battle", str(THREE_TURNS), "--controller", name, "--side", "Orks")
    assert one_line(code, err, 2).startswith("error: --side: ")


def test_side_with_the_search_controller_is_taken() -> None:
    code, _, err = run(
        "battle", str(THREE_TURNS), "--controller", "search", "--side", "Orks",
        "--playouts", "1", "--stop-after", "1", "--json",
    )  # fmt: skip
    assert code == 0, err


@pytest.mark.parametrize("controller", ["heuristic", "ai", "prompt", "random"])
def test_playouts_without_the_search_ai_is_a_usage_error(controller: str) -> None:
    # A newcomer's review: --playouts 50 without --controller search was taken and
    # changed nothing (the heuristic AI played both sides), where --side is refused.
    code, out, err = run(
        "battle", str(THREE_TURNS), "--controller", controller, "--playouts", "50"
    )  # fmt: skip
    assert one_line(code, err, 2) == (
        "error: --playouts: is the search AI's budget; give it with --controller search"
    )
    assert out == ""


def test_tournament_playouts_without_a_search_player_is_a_usage_error() -> None:
    matchup = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
    code, out, err = run(
        "tournament", str(matchup), "--players", "heuristic,random", "--playouts", "50",
        "--games", "1",
    )  # fmt: skip
    assert one_line(code, err, 2) == (
        "error: --playouts: is the search player's budget; 'heuristic,random' has no search player"
    )
    assert out == ""


def test_the_introduction_says_who_plays_each_side() -> None:
    # The same review: --controller search never said which side the search AI plays.
    # --side defaults to the first player listed (Ultramarines, then Orks), the other
    # side is the heuristic AI; the search's budget is 8 playouts unless --playouts.
    def players_line(*flags: str) -> str:
        code, out, err = run("battle", str(THREE_TURNS), "--stop-after", "1", *flags)
        assert code == 0, err
        return next(line for line in out.splitlines() if line.startswith("Players: "))

    assert players_line("--controller", "search", "--playouts", "1") == (
        "Players: Ultramarines: search AI (1 playout a decision); Orks: heuristic AI"
    )
    assert players_line() == "Players: Ultramarines: heuristic AI; Orks: heuristic AI"


def test_the_introduction_names_the_side_a_person_plays() -> None:
    code, out, _ = run(
        "battle", str(THREE_TURNS), "--controller", "prompt", "--side", "Orks", "--no-dice"
    )  # the input ends at once: the game stops at the first question (exit 1)
    assert code == 1
    assert "Players: Ultramarines: heuristic AI; Orks: you (--controller prompt)" in out


@pytest.mark.parametrize("turn", ["4", "10"])
def test_stop_after_a_turn_the_scenario_does_not_have_is_a_usage_error(turn: str) -> None:
    code, out, err = run("battle", str(THREE_TURNS), "--stop-after", turn, "--json")
    line = one_line(code, err, 2)
    assert line == (
        f"error: --stop-after: {THREE_TURNS} plays 3 game turn(s); give 1 to 3, not {turn}"
    )
    assert out == ""


def test_stop_after_the_last_turn_plays_the_whole_game() -> None:
    code, out, _ = run("battle", str(THREE_TURNS), "--stop-after", "3", "--json")
    assert code == 0
    assert json.loads(out)["stopped_before_turn"] is None


def test_stop_after_a_turn_already_played_by_a_saved_game_is_a_usage_error(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "game.json"
    code, _, err = run(
        "battle", str(THREE_TURNS), "--stop-after", "2", "--save", str(saved), "--json"
    )
    assert code == 0, err
    code, _, err = run("battle", "--resume", str(saved), "--stop-after", "1", "--json")
    line = one_line(code, err, 2)
    assert line == (
        f"error: --stop-after: the game in {saved} resumes at game turn 3 of 3; give 3 to 3, not 1"
    )
    # Without --json the same: the error alone, no "Resuming ..." printed before it.
    code, out, err = run("battle", "--resume", str(saved), "--stop-after", "1")
    assert one_line(code, err, 2) == line
    assert out == ""


def test_both_players_on_the_same_edge_is_one_error_line(tmp_path: Path) -> None:
    text = THREE_TURNS.read_text(encoding="utf-8").replace('edge = "north"', 'edge = "south"')
    assert text.count('edge = "south"') == 2
    path = tmp_path / "same.toml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run("battle", str(path))
    line = one_line(code, err, 1)
    assert line.startswith(f"error: {path}: players[1].edge: 'south' is the table edge of ")


# --- odds -------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", [["--shots", "3"], ["--bs", "4"], ["--models", "5"]])
def test_odds_hits_with_shots_bs_or_models_is_a_usage_error(flag: list[str]) -> None:
    code, out, err = run(
        "odds", "--type", "Heavy, Blast", "--hits", "5", *flag, "--strength", "4", "--ap", "-",
        "--toughness", "4", "--save", "4", "--wounds", "1", "--target-models", "10",
    )  # fmt: skip
    line = one_line(code, err, 2)
    assert line.startswith(f"error: {flag[0]}: not used with --hits")
    assert out == ""


def test_odds_poisoned_1_plus_wounds_on_2_plus() -> None:
    # Hits: 10 x 2/3 (BS4: 3+) = 20/3. Poisoned (1+) would wound on any roll, but
    # a To Wound roll of 1 always fails: 5/6 of the hits wound, 50/9 (5.556);
    # S3 is not above T6, so nothing is re-rolled.
    code, out, err = run(*POISONED, "--keyword", "poisoned 1+", "--json")
    assert code == 0, err
    means = json.loads(out)["means"]
    assert means["hits"] == pytest.approx(float(Fraction(20, 3)))
    assert means["wounds"] == pytest.approx(float(Fraction(50, 9)))


@pytest.mark.parametrize("keyword", ["poisoned 0+", "poisoned 7+", "poisoned 99+"])
def test_odds_poisoned_outside_1_to_6_is_one_clear_line(keyword: str) -> None:
    code, _, err = run(*POISONED, "--keyword", keyword)
    line = one_line(code, err, 2)
    value = keyword.split()[1]
    assert line == f"error: --keyword: 'poisoned ({value})': Poisoned wounds on 1+ to 6+"


def test_odds_library_form_hits_with_models_is_a_usage_error() -> None:
    code, _, err = run(
        "odds", "--attacker", "Heavy Weapons Squad", "--weapon", "Lascannon",
        "--target", "Space Marine Captain", "--hits", "2", "--models", "3",
    )  # fmt: skip
    assert one_line(code, err, 2).startswith("error: --models: not used with --hits")


def test_stop_after_on_a_game_a_side_was_wiped_out_of_is_a_usage_error(tmp_path: Path) -> None:
    # 20 Boyz against 10 Tactical Marines, seed 24: the Marines are wiped out in game
    # turn 4 of 5 (found by playing it, not derived), which ends the game there
    # (Sudden Death); a saved copy has nothing left to stop, at turn 3 or any other.
    boyz = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
    saved = tmp_path / "game.json"
    code, out, err = run("battle", str(boyz), "--seed", "24", "--save", str(saved), "--json")
    assert code == 0, err
    assert json.loads(out)["wiped_out"] == ["Ultramarines"]
    for turn in ("2", "3"):
        code, _, err = run("battle", "--resume", str(saved), "--stop-after", turn, "--json")
        line = one_line(code, err, 2)
        assert line == f"error: --stop-after: the game in {saved} is over: nothing to stop"
