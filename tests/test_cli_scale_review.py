"""A user review of the experiments at scale (session 20): refusals that named no
file, or the wrong reason; flags taken together without a word; ``results``
leaving out the scenario file the store holds; the search AI's budget said where
it does not play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.analysis.tournament import TournamentReport
from hammerlab.cli import tournament_cmd
from hammerlab.cli.common import PLUGIN_HINT, console

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GUARD = EXAMPLES / "guard_suppress_terminators.toml"  # units squad1, squad2, terminators
OPEN_GROUND = EXAMPLES / "lab_charge_over_open_ground.toml"  # has a unit boyz
CORE11 = EXAMPLES / "core11_whole_turn.toml"  # ruleset core11: no charge_dice
SIZE_FORM = "; or a unit's size: units.ID.size"


def _refusal(code: int, err: str) -> str:
    """The one usage error line, less the plug-in hint, which is said only while no
    plug-in is loaded in this process (another test may have loaded one)."""
    return one_line(code, err, 2).removesuffix(PLUGIN_HINT)


# --- a multi-file sweep's refusal names the file -------------------------------------


def test_a_unit_one_of_several_files_lacks_is_refused_naming_that_file() -> None:
    code, _, err = run(
        "sweep", str(GUARD), str(OPEN_GROUND), "--vary", "units.boyz.size=10,12", "--runs", "2"
    )
    assert one_line(code, err, 2) == (
        f"error: --vary: {GUARD} (ruleset waffle): units.boyz.size: 'Guardsmen lay down "
        "Suppressive Fire on Terminators' has no unit 'boyz'; units: squad1, squad2, terminators"
    )


def test_a_key_one_file_s_ruleset_lacks_is_refused_naming_that_file_and_ruleset() -> None:
    # charge_dice is a Waffle parameter, valid for the second file; core11 has one
    # ruleset parameter of its own, cover_effect (hammerlab rulesets).
    code, _, err = run("sweep", str(CORE11), str(GUARD), "--vary", "charge_dice=2,3")
    assert _refusal(code, err) == (
        f"error: --vary: {CORE11} (ruleset core11): unknown rule or parameter 'charge_dice'; "
        f"known: cover_effect{SIZE_FORM}"
    )


# --- an unknown key lists the parameters too, and says how a size is written ---------


@pytest.mark.parametrize("command", ["sweep", "balance"])
def test_a_misspelt_units_prefix_lists_rules_and_parameters_and_the_size_form(
    command: str,
) -> None:
    vary = "unit.squad1.size=5,6" if command == "sweep" else "unit.squad1.size=5..6"
    extra = ["--target", "win_rate=0.5"] if command == "balance" else []
    code, _, err = run(command, str(GUARD), "--vary", vary, *extra)
    line = _refusal(code, err)
    assert line.startswith("error: --vary: unknown rule 'unit'; known: ")
    assert line.endswith(SIZE_FORM)
    known = line.removeprefix("error: --vary: unknown rule 'unit'; known: ")
    names = known.removesuffix(SIZE_FORM).split(", ")
    # A rule option and a ruleset parameter (hammerlab rulesets: both Waffle's).
    assert "suppressive_fire" in names and "charge_dice" in names and names == sorted(names)


@pytest.mark.parametrize("flag", ["--rule", "--set"])
def test_the_lab_says_unit_sizes_are_varied_by_sweep_or_balance(flag: str) -> None:
    extra = ["--rule", "charge_dice=3"] if flag == "--set" else []
    code, _, err = run("lab", str(GUARD), flag, "units.squad1.size=5", *extra)
    assert one_line(code, err, 2) == (
        f"error: {flag}: units.squad1.size: the lab compares rules; a unit's size is varied "
        "with sweep --vary units.squad1.size=V1,V2 or balance --vary units.squad1.size=LO..HI"
    )


# --- --scheduler with --workers ------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["sweep", str(GUARD), "--vary", "charge_dice=2,3"],
        ["lab", str(GUARD), "--rule", "suppressive_fire"],
        ["balance", str(GUARD), "--vary", "charge_dice=1..3", "--target", "win_rate=0.5"],
    ],
)
def test_scheduler_and_workers_together_are_a_usage_error(command: list[str]) -> None:
    # An address nothing listens at: the refusal comes before any connection is tried.
    code, out, err = run(*command, "--scheduler", "tcp://127.0.0.1:1", "--workers", "2")
    assert one_line(code, err, 2) == (
        "error: --workers: cannot go with --scheduler, which plays on the Dask cluster instead"
    )
    assert out == ""


# --- results: --merge-into and a store given twice -----------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of a two-point sweep of the Guard example, two battles a point."""
    folder = tmp_path_factory.mktemp("results") / "s"
    code, _, err = run(
        "sweep", str(GUARD), "--vary", "charge_dice=3,2", "--runs", "2", "--out", str(folder)
    )
    assert code == 0, err
    return folder


def _database(folder: Path) -> bytes:
    return (folder / "battles.duckdb").read_bytes()


def test_merging_into_a_store_read_is_refused_before_anything_is_opened(store: Path) -> None:
    before = _database(store)
    for target in (store, store / ".." / store.name):
        code, _, err = run("results", str(store), "--merge-into", str(target))
        assert one_line(code, err, 2) == (
            f"error: --merge-into: {target} is one of the stores read; give another folder"
        )
    assert _database(store) == before


def test_merging_into_a_file_is_refused(store: Path, tmp_path: Path) -> None:
    plain = tmp_path / "bad.toml"
    plain.write_text("x = 1\n")
    code, _, err = run("results", str(store), "--merge-into", str(plain))
    assert one_line(code, err, 2) == (
        f"error: --merge-into: {plain} is a file; give the folder to keep the results in"
    )
    assert plain.read_text() == "x = 1\n"


def test_a_store_given_twice_is_refused_as_sweep_refuses_a_scenario_given_twice(
    store: Path,
) -> None:
    code, _, err = run("results", str(store), f"{store}/")
    assert one_line(code, err, 2) == f"error: DIR: {store} is given twice; give each store once"


# --- results names each point by its scenario file -----------------------------------


def test_results_names_the_scenario_file_the_store_holds(store: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "r.csv"
    code, out, err = run("results", str(store), "--json", "--csv", str(sheet))
    assert code == 0, err
    points = json.loads(out)["points"]
    assert [p["source"] for p in points] == [str(GUARD), str(GUARD)]
    # Ordered by file, then by the point's settings as stored (not the --vary order 3, 2).
    assert [p["point"] for p in points] == [{"charge_dice": "2"}, {"charge_dice": "3"}]
    rows = sheet.read_text().splitlines()
    column = rows[0].split(",").index("source")
    assert {row.split(",")[column] for row in rows[1:]} == {str(GUARD)}
    code, text, err = run("results", str(store))
    assert code == 0, err
    said = " ".join(text.split())  # the console wraps long lines
    name = "Guardsmen lay down Suppressive Fire on Terminators"
    for dice in (2, 3):
        assert f"{GUARD} ({name}) · charge_dice={dice} · 2 battles from seed 1" in said


# --- tournament: the search budget only where the search AI plays --------------------


@pytest.mark.parametrize(("players", "said"), [(("heuristic", "random"), False),
                                               (("heuristic", "search"), True)])  # fmt: skip
def test_the_search_budget_is_said_only_where_the_search_ai_plays(
    players: tuple[str, str], said: bool
) -> None:
    report = TournamentReport(("a.toml",), players, 2, 1, 8, (), ())
    assert ("search_playouts" in report.to_dict()) is said
    with console.capture() as captured:
        tournament_cmd._print_report(report)
    assert ("(search: 8 playouts)" in captured.get()) is said


def test_a_tournament_without_the_search_ai_says_no_budget() -> None:
    args = ["tournament", str(GUARD), "--players", "heuristic,random", "--games", "1"]
    code, out, err = run(*args, "--json")
    assert code == 0, err
    assert "search_playouts" not in json.loads(out)
    code, out, err = run(*args)
    assert code == 0, err
    assert out.splitlines()[0] == "1 scenarios, 1 games per side of each pairing from seed 1"
