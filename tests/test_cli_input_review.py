"""Flags a review found taken without a word: an empty player name, a precision
of infinity, and a grid point whose unit size breaks the scenario, reported as if
the file were wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_kit import one_line, run

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


def test_a_tournament_refuses_an_empty_player_name() -> None:
    code, _, err = run("tournament", str(GUARD), "--players", "heuristic,,random", "--games", "1")
    assert one_line(code, err, 2) == (
        "error: --players: 'heuristic,,random' has an empty name between its commas"
    )


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "0", "1001", "x"])
def test_a_precision_out_of_its_range_is_refused_saying_the_range(value: str) -> None:
    # A user review (session 20): nan was refused as "less than or equal to 1000".
    code, _, err = run("lab", str(GUARD), "--rule", "suppressive_fire", "--precision", value)
    assert one_line(code, err, 2) == (
        f"error: invalid value for '--precision': {value}: give a number from 0.001 to 1000 "
        "(see root lab --help)"
    )


def test_a_unit_size_that_puts_models_off_the_table_names_its_grid_point() -> None:
    # Squad 1 stands 10" from its edge in blocks of five: sixty Guardsmen (twelve
    # ranks) reach past the edge; the file itself plays.
    # A rules writer's review: the --vary value is what is wrong, so it is a usage error
    # naming the flag, as every other bad --vary value is.
    code, _, err = run("sweep", str(GUARD), "--vary", "units.squad1.size=10,60", "--runs", "2")
    line = one_line(code, err, 2)
    assert line.startswith(
        f"error: --vary: units.squad1.size=60: {GUARD}: units[0].position: model 1 would "
        "stand off the table"
    )


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("0", "a unit's size is at least 1 model"),
        ("x", "a unit's size is a whole number of models"),
    ],
)
def test_a_unit_size_that_is_no_size_says_so_in_words(value: str, problem: str) -> None:
    code, _, err = run("sweep", str(GUARD), "--vary", f"units.squad1.size={value}", "--runs", "2")
    assert one_line(code, err, 2) == f"error: --vary: units.squad1.size={value}: {problem}"


def test_a_difference_that_rounds_to_zero_never_reads_minus_zero() -> None:
    # A rules writer's review: the lab printed "-2% (-5%..-0%)". A mean that rounds
    # to zero reads +0; a bound keeps its sign, written to its first significant digit
    # (a second review, session 21: "+0.00" hid a bound below zero): -0.1% is -0.001,
    # -0.004 is itself, and a bound of exactly 0 reads +0.00.
    from hammerlab.analysis.report import _rate
    from hammerlab.analysis.stats import Estimate
    from hammerlab.cli.sweep_cmd import cell

    tiny = Estimate(-0.02, -0.05, -0.001, 100)
    assert cell(tiny, percent=True, sign="+") == "-2% (-5%..-0.1%)"
    assert cell(Estimate(-0.001, -0.004, 0.0, 100), sign="+") == "+0.00 (-0.004..+0.00)"
    assert _rate(tiny, "+") == "-2% [-5%, -0.1%]"


def test_an_interval_bound_below_zero_reads_negative() -> None:
    # The rules writer's review (session 21): `lab --rule final_shot --runs 100 --dice
    # keyed` printed the lascannon's difference "+0.03 (+0.00 .. +0.06)" while --json
    # gave -0.0036..0.0636: the interval holds zero, and the text must say so. To its
    # first significant digit, -0.0036 is -0.004 (and -0.36% is -0.4%); the other
    # bound, 0.0636, reads +0.06 as before.
    from hammerlab.analysis.report import _rate
    from hammerlab.analysis.stats import Estimate
    from hammerlab.cli.sweep_cmd import cell

    lascannon = Estimate(0.03, -0.0036, 0.0636, 100)
    assert cell(lascannon, sign="+") == "+0.03 (-0.004..+0.06)"
    assert cell(lascannon, percent=True, sign="+") == "+3% (-0.4%..+6%)"
    assert _rate(lascannon, "+") == "+3% [-0.4%, +6%]"
    assert cell(Estimate(0.03, 0.0036, 0.0636, 100), sign="+") == "+0.03 (+0.004..+0.06)"


def test_a_report_not_named_html_is_refused_before_any_battle(tmp_path: Path) -> None:
    # A rules writer's review: --report r.txt wrote an HTML page into a .txt file.
    page = tmp_path / "r.txt"
    args = ["sweep", str(GUARD), "--vary", "charge_dice=2", "--runs", "2", "--report", str(page)]
    code, out, err = run(*args)
    assert (
        one_line(code, err, 2)
        == f"error: --report: {page}: the report is a web page; name it .html"
    )
    assert out == "" and not page.exists()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("battle",), "error: SCENARIO: give a scenario file or --resume FILE (one of the two)"),
        (
            ("battle", str(GUARD), "--resume", str(GUARD)),
            "error: SCENARIO: give a scenario file or --resume FILE (one of the two)",
        ),
        (
            ("tournament", str(GUARD), "--players", "heuristic"),
            "error: --players: name two or more different players",
        ),
        (
            ("tournament", str(GUARD), "--players", "heuristic,chess"),
            "error: --players: 'chess' is not one of heuristic, search, random",
        ),
    ],
)
def test_a_usage_mistake_exits_2_as_every_usage_error_does(
    args: tuple[str, ...], line: str
) -> None:
    """A hostile-input review: these exited 1 where `--players ,,` and every other flag
    mistake exit 2."""
    code, _, err = run(*args)
    assert one_line(code, err, 2) == line


def test_a_plug_in_that_is_a_folder_says_so(tmp_path: Path) -> None:
    code, _, err = run("battle", str(GUARD), "--plugin", str(tmp_path))
    assert one_line(code, err, 1) == (
        f"error: {tmp_path}: a folder, not a plug-in file (give the .py file)"
    )
