"""Sweeps, the results store, the balance solver, reports and Dask: issue 14, parts 2-4."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.balance import solve
from hammerlab.analysis.lab import Outcome, arms, compare
from hammerlab.analysis.report import sweep_report
from hammerlab.analysis.runners import Batch, Done, Runner
from hammerlab.analysis.store import ResultStore, merge, query, summaries
from hammerlab.analysis.sweep import (
    SweepError,
    UnitInfo,
    cases,
    grid,
    parse_axes,
    parse_vary,
    scenario_files,
    summarize,
    sweep,
)
from hammerlab.cli.app import app
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GUARD = EXAMPLES / "guard_suppress_terminators.toml"
PENALTY = "suppressive_fire.ld_penalty_per_wound"


class CountingRunner(Runner):
    """Plays here, and counts the battles it was asked to play."""

    def __init__(self) -> None:
        super().__init__(1)
        self.played = 0

    def run(self, batches: Sequence[Batch], done: Done) -> None:
        self.played += sum(len(b.seeds) for b in batches)
        super().run(batches, done)


def _cases(vary: Sequence[str]) -> list:  # type: ignore[type-arg]
    return cases([(load_scenario(GUARD), str(GUARD))], parse_axes(vary))


def test_grid_is_every_combination_last_axis_fastest() -> None:
    axes = parse_axes([f"{PENALTY}=0,3", "units.squad1.size=5,10"])
    assert grid(axes) == [
        ((PENALTY, "0"), ("units.squad1.size", "5")),
        ((PENALTY, "0"), ("units.squad1.size", "10")),
        ((PENALTY, "3"), ("units.squad1.size", "5")),
        ((PENALTY, "3"), ("units.squad1.size", "10")),
    ]
    assert parse_vary(" charge_dice = 2, 3 ").values == ("2", "3")


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["charge_dice"], "write KEY=V1,V2"),
        (["charge_dice=2,,3"], "an empty value"),
        (["charge_dice=2,2"], "given twice"),
        (["charge_dice=2", "charge_dice=3"], "varied twice"),
        ([], "at least one --vary"),
    ],
)
def test_malformed_vary_flags_are_refused(flags: list[str], problem: str) -> None:
    with pytest.raises(SweepError, match=problem):
        parse_axes(flags)


@pytest.mark.parametrize(
    ("flag", "problem"),
    [
        ("bogus=1,2", "unknown rule or parameter 'bogus'"),
        ("units.nope.size=5", "has no unit 'nope'"),
        ("units.squad1.models=5", "units.ID.size"),
        (f"{PENALTY}=99", "99"),
    ],
)
def test_cli_sweep_names_a_bad_vary_in_one_line(flag: str, problem: str) -> None:
    result = CliRunner().invoke(app, ["sweep", str(GUARD), "--vary", flag, "--runs", "2"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: --vary:")
    assert problem in lines[0]


def test_a_sweep_point_equals_the_labs_arm_for_the_same_seeds() -> None:
    spec = load_scenario(GUARD)
    report = compare(spec, str(GUARD), arms(spec, [f"{PENALTY}=3"]), runs=4, first_seed=5)
    with Runner(1) as runner:
        default, three = sweep(_cases([f"{PENALTY}=1,3"]), 4, 5, runner)
    for unit, at_default, at_three in zip(report.units, default.units, three.units, strict=True):
        assert at_default.models_left.mean == unit.baseline_mean
        assert at_three.models_left.mean == unit.variant_mean
        assert at_three.destroyed.mean == unit.variant_destroyed
    assert {k: v.mean for k, v in three.wins.items()} == report.variant_wins
    assert {k: v.mean for k, v in default.wins.items()} == report.baseline_wins


def test_unit_sizes_override_the_scenario_and_are_validated() -> None:
    small, large = _cases(["units.squad1.size=5,10"])
    assert {u.id: u.starting_models for u in small.units}["squad1"] == 5
    assert {u.id: u.starting_models for u in large.units}["squad1"] == 10
    with pytest.raises(SweepError, match="size=0"):
        _cases(["units.squad1.size=0"])


def test_precision_stops_in_deterministic_rounds() -> None:
    with Runner(1) as runner:
        coarse = sweep(_cases([f"{PENALTY}=1"]), 60, 1, runner, precision=100.0)
        capped = sweep(_cases([f"{PENALTY}=1"]), 60, 1, runner, precision=1e-9)
    assert coarse[0].runs == 50  # one round was narrow enough
    assert capped[0].runs == 60  # never narrow enough: stopped at --runs


def test_store_round_trip_and_resume_skips_stored_battles(tmp_path: Path) -> None:
    grid_cases = _cases([f"{PENALTY}=0,2"])
    first = CountingRunner()
    with ResultStore(tmp_path / "s") as store:
        played = sweep(grid_cases, 3, 1, first, store=store)
    assert first.played == 6
    assert sorted(summaries([tmp_path / "s"]), key=lambda r: r.point) == played
    again = CountingRunner()
    with ResultStore(tmp_path / "s") as store:
        with pytest.raises(SweepError, match="--resume"):
            sweep(grid_cases, 5, 1, again, store=store)
        resumed = sweep(grid_cases, 5, 1, again, store=store, resume=True)
    assert again.played == 4  # seeds 4 and 5 at both points
    with Runner(1) as runner:
        assert resumed == sweep(grid_cases, 5, 1, runner)
    columns, rows = query([tmp_path / "s"], "SELECT count(*) AS n FROM battles")
    assert (columns, rows) == (["n"], [(10,)])


def test_merging_two_stores_is_the_whole_run(tmp_path: Path) -> None:
    grid_cases = _cases([f"{PENALTY}=2"])
    with Runner(1) as runner:
        with ResultStore(tmp_path / "a") as store:
            sweep(grid_cases, 3, 1, runner, store=store)
        with ResultStore(tmp_path / "b") as store:
            sweep(grid_cases, 3, 4, runner, store=store)
        whole = sweep(grid_cases, 6, 1, runner)
    assert merge([tmp_path / "a", tmp_path / "b"], tmp_path / "m") == 6
    assert summaries([tmp_path / "m"]) == whole
    assert summaries([tmp_path / "a", tmp_path / "b"]) == whole


def test_cli_results_query_and_json(tmp_path: Path) -> None:
    out = tmp_path / "store"
    runner = CliRunner()
    swept = runner.invoke(
        app, ["sweep", str(GUARD), "--vary", f"{PENALTY}=0", "--runs", "2", "--out", str(out),
              "--json"],
    )  # fmt: skip
    assert swept.exit_code == 0, swept.output
    result = runner.invoke(
        app, ["results", str(out), "--query", "SELECT seed FROM battles ORDER BY seed", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"seed": 1}, {"seed": 2}]
    bad = runner.invoke(app, ["results", str(out), "--query", "SELECT nope FROM battles"])
    assert bad.exit_code == 1
    assert len(bad.output.strip().splitlines()) == 1
    missing = runner.invoke(app, ["results", str(tmp_path / "none")])
    assert missing.exit_code == 1
    assert "no results store" in missing.output


def test_html_report_is_self_contained(tmp_path: Path) -> None:
    grid_cases = _cases([f"{PENALTY}=0,3"])
    with Runner(1) as runner:
        results = sweep(grid_cases, 3, 1, runner)
    page = sweep_report(results, scenario_files(grid_cases), [f"{PENALTY}=0,3"], "3 per point")
    assert "<svg" in page
    assert "http" not in page
    assert "seeds 1..3" in page


def test_dask_local_cluster_gives_the_same_battles() -> None:
    from distributed import LocalCluster

    from hammerlab.analysis.runners import DaskRunner

    grid_cases = _cases([f"{PENALTY}=0,3"])
    with Runner(1) as runner:
        here = sweep(grid_cases, 4, 1, runner)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        DaskRunner(cluster.scheduler_address) as dask,
    ):  # fmt: skip
        assert dask.slots == 2
        there = sweep(grid_cases, 4, 1, dask)
    assert there == here


def _crn_win(p: float, seed: int) -> float:
    """A win with probability ``p``, from the seed's one uniform draw, so the same seed
    wins at every value where it wins at a lower one (common random numbers)."""
    return float(random.Random(seed).random() < p)


def test_balance_finds_a_known_whole_number_root() -> None:
    # P(win) = x / 10 on 0..10: it is 0.5 at exactly x = 5.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        return [_crn_win(x / 10, s) for s in seeds]

    answer = solve(sample, 0, 10, 0.5, integer=True, binary=True, max_runs=400)
    assert answer.found
    assert answer.bracket[0] <= 5 <= answer.bracket[1]
    assert abs(answer.value - 5) <= 1


def test_balance_finds_a_known_real_root() -> None:
    # Mean models left 2x + noise on [0, 4]: it is 3 at x = 1.5.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        return [2 * x + random.Random(s).gauss(0, 1) for s in seeds]

    answer = solve(sample, 0, 4, 3.0, integer=False, binary=False, tolerance=0.05)
    assert answer.found
    assert answer.bracket[0] <= 1.5 <= answer.bracket[1]
    assert answer.value == pytest.approx(1.5, abs=0.2)


def test_balance_says_when_the_goal_is_out_of_range() -> None:
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        return [_crn_win(0.1 + x / 100, s) for s in seeds]

    answer = solve(sample, 0, 10, 0.9, integer=True, binary=True, max_runs=100)
    assert not answer.found
    assert answer.value == 10


def test_cli_balance_on_a_scenario_within_a_budget() -> None:
    result = CliRunner().invoke(
        app, ["balance", str(GUARD), "--vary", "units.terminators.size=2..6",
              "--target", "models_left.squad1=6", "--runs", "10", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert 2 <= answer["value"] <= 6
    assert answer["battles"] <= 10 * 5  # at most every whole value probed once
    assert all(p["n"] <= 10 for p in answer["probes"])


def test_outcomes_read_back_are_the_outcomes_played(tmp_path: Path) -> None:
    (case,) = _cases([f"{PENALTY}=1"])
    played = [Outcome({"squad1": 3, "squad2": 10, "terminators": 0}, "Cadians")]
    with ResultStore(tmp_path) as store:
        store.add(case, [7], played)
        assert store.outcomes(case) == {7: played[0]}


def test_lab_precision_plays_rounds_until_narrow_enough() -> None:
    # Final Shot changes what the lone lascannon Marine does in most battles, so the
    # paired differences spread and no interval is ever narrower than 1e-9.
    final_shot = EXAMPLES / "lab_final_shot_lone_lascannon.toml"
    spec = load_scenario(final_shot)
    experiment = arms(spec, ["final_shot=off"])
    loose = compare(spec, str(final_shot), experiment, runs=70, precision=100.0)
    assert (loose.runs, loose.precision_reached) == (50, True)
    fixed = compare(spec, str(final_shot), experiment, runs=50)
    assert replace(loose, precision=None, precision_reached=None) == fixed
    tight = compare(spec, str(final_shot), experiment, runs=70, precision=1e-9)
    assert (tight.runs, tight.precision_reached) == (70, False)


def test_lab_precision_stops_at_once_when_every_paired_battle_ends_alike() -> None:
    # In the Guard example the heuristic never takes Suppressive Fire (it beats
    # shooting nowhere there), so both arms play the same 50 battles: every paired
    # difference is 0, every interval is 0 wide, and the first round is enough.
    spec = load_scenario(GUARD)
    experiment = arms(spec, ["suppressive_fire=off"])
    report = compare(spec, str(GUARD), experiment, runs=70, precision=1e-9)
    assert report.runs == 50
    assert report.ended_alike == 50


# --- two scenario files of one name; rules not implemented; precision; counts ---------------

BOYZ = EXAMPLES / "matchups" / "boyz_vs_tactical.toml"


def _two_files_of_one_name() -> tuple[Path, Path]:
    """A copy of the Boyz matchup with Fiery Charge on in its [rules], and one without,
    in the working folder (short names: the text is wrapped at 80 columns)."""
    plain = Path("plain.toml")
    plain.write_text(BOYZ.read_text(encoding="utf-8"), encoding="utf-8")
    fiery = Path("fiery.toml")
    fiery.write_text(plain.read_text(encoding="utf-8") + "\n[rules]\nfiery_charge = true\n")
    return fiery, plain


def test_a_report_keeps_two_files_of_one_name_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    fiery, plain = _two_files_of_one_name()
    page_path = tmp_path / "out.html"
    args = ["sweep", str(fiery), str(plain), "--vary", "units.boyz.size=20", "--runs", "2"]
    result = CliRunner().invoke(app, [*args, "--report", str(page_path)])
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf-8")
    sections = page.split("<h2>")[1:]
    assert len(sections) == 2 and page.count("<svg") == 2
    first, second = sections
    assert first.startswith(f"{fiery}: ") and second.startswith(f"{plain}: ")
    assert "fiery_charge = true" in first and "fiery_charge" not in second
    assert "none (the ruleset&#x27;s defaults)" in second
    assert f"<h3>{fiery} · units.boyz.size=20</h3>" in first
    assert f"<h3>{plain} · units.boyz.size=20</h3>" in second
    for section in sections:
        assert "special rule not implemented: Mob Rule" in section
    # the text names each point's file, and the JSON each point's source and each file
    text = " ".join(result.stdout.split())
    assert f"{fiery} (20 Ork Boyz" in text and f"{plain} (20 Ork Boyz" in text
    assert "its rules: fiery_charge = true" in text
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert [p["source"] for p in document["points"]] == [str(fiery), str(plain)]
    files = {f["source"]: f for f in document["scenarios"]}
    assert files[str(fiery)]["rules"] == {"fiery_charge": True}
    assert files[str(plain)]["rules"] == {}
    assert files[str(fiery)]["scenario_hash"] != files[str(plain)]["scenario_hash"]
    battle = json.loads(CliRunner().invoke(app, ["battle", str(plain), "--json"]).stdout)
    assert files[str(plain)]["warnings"] == battle["warnings"]  # what battle notes


def test_sweep_says_whether_the_precision_was_reached() -> None:
    base = ["sweep", str(GUARD), "--vary", f"{PENALTY}=1", "--runs", "3"]
    loose = CliRunner().invoke(app, [*base, "--precision", "100", "--json"])
    document = json.loads(loose.stdout)
    assert (document["precision"], document["precision_reached"]) == (100.0, True)
    assert document["points"][0]["precision_reached"] is True
    # three battles: a Wilson interval of 3 is wider than 0.01 whatever they give
    tight = CliRunner().invoke(app, [*base, "--precision", "0.01"])
    assert tight.exit_code == 0, tight.output
    assert "Precision 0.01 not reached at 1 of 1 point(s): --runs 3 ran out" in " ".join(
        tight.stdout.split()
    )
    plain = json.loads(CliRunner().invoke(app, [*base, "--json"]).stdout)
    assert plain["precision_reached"] is None and plain["points"][0]["precision_reached"] is None


def test_a_count_s_interval_is_cut_to_what_the_count_can_be() -> None:
    # Models left 0, 0, 0, 6 of 6: mean 1.5, sample sd 3, half-width
    # 1.959964 * 3 / 2 = 2.939946: -1.439946..4.439946, cut at 0.
    # Models left 6, 6, 6, 0 of 6: mean 4.5, the same half-width: 1.560054..7.439946,
    # cut at the 6 models the unit has.
    low = UnitInfo("low", "Low", "A", 6)
    high = UnitInfo("high", "High", "A", 6)
    outcomes = [Outcome({"low": n, "high": 6 - n}, "A") for n in (0, 0, 0, 6)]
    result = summarize("s", "h", (), [low, high], ["A"], outcomes, 1)
    cut_low, cut_high = (s.models_left for s in result.units)
    assert (cut_low.mean, cut_low.low) == (1.5, 0.0)
    assert cut_low.high == pytest.approx(1.5 + 2.939946, abs=1e-5)
    assert cut_high.low == pytest.approx(4.5 - 2.939946, abs=1e-5)
    assert (cut_high.mean, cut_high.high) == (4.5, 6.0)
