"""Sweeps, the results store, the balance solver, reports and Dask: issue 14, parts 2-4."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib.metadata import version as metadata_version
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from dask_kit import local_dask
from hammerlab.analysis.balance import solve
from hammerlab.analysis.engine_version import ENGINE_VERSION, source_fingerprint
from hammerlab.analysis.lab import Outcome, arms, compare, play_once
from hammerlab.analysis.report import sweep_report
from hammerlab.analysis.runners import Batch, Done, Runner
from hammerlab.analysis.store import ResultStore, StoreError, merge, query, summaries
from hammerlab.analysis.sweep import sweep
from hammerlab.analysis.sweep_grid import (
    SweepError,
    UnitInfo,
    alike_points,
    cases,
    grid,
    parse_axes,
    parse_vary,
    point_params,
    scenario_hash,
    switched_on,
)
from hammerlab.analysis.sweep_results import (
    point_rules,
    scenario_files,
    seed_ranges,
    seeds_text,
    summarize,
)
from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GUARD = EXAMPLES / "guard_suppress_terminators.toml"
LASCANNON = EXAMPLES / "lab_final_shot_lone_lascannon.toml"
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


def test_a_unit_s_size_varied_switches_no_rule_on() -> None:
    # A rule's parameter varied alone switches its rule on at every point; a unit's
    # size is no rule's parameter (a user's review read "On at every point ...: units").
    off = load_scenario(GUARD).model_copy(update={"rules": {}})  # suppressive_fire: off
    assert switched_on(parse_axes(["units.squad1.size=5,10"]), [off]) == {}
    both = parse_axes([f"{PENALTY}=0,3", "units.squad1.size=5,10"])
    assert switched_on(both, [off]) == {"suppressive_fire": PENALTY}


def test_a_parameter_varied_switches_on_no_rule_the_file_has_on() -> None:
    # A user review (session 20): the sweep said a varied parameter switched on a rule
    # the file's [rules] have on already (the lab's switched_on_by said nothing). Over
    # two files, one with the rule off, it is switched on at that one's points.
    guard = load_scenario(GUARD)  # [rules]: suppressive_fire = true
    axes = parse_axes([f"{PENALTY}=0,3"])
    assert switched_on(axes, [guard]) == {}
    off = guard.model_copy(update={"rules": {}})
    assert switched_on(axes, [guard, off]) == {"suppressive_fire": PENALTY}


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
        with pytest.raises(SweepError) as refused:
            sweep(grid_cases, 5, 1, again, store=store)
        resumed = sweep(grid_cases, 5, 1, again, store=store, resume=True)
    # Seeds 1..5 asked, 1..3 stored at both points: 6 battles held.
    assert "already holds 6 of the battles this run would play (seeds 1..3, at 2 of 2 points)" in (
        str(refused.value)
    )
    assert "give --resume to reuse them" in str(refused.value)
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
    grid_cases = _cases([f"{PENALTY}=0,3"])
    with Runner(1) as runner:
        here = sweep(grid_cases, 4, 1, runner)
    with local_dask() as dask:
        assert dask.slots == 2
        there = sweep(grid_cases, 4, 1, dask)
    assert there == here


def test_a_dask_worker_with_another_engine_is_refused_before_any_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from distributed import LocalCluster

    from hammerlab.analysis import runners

    monkeypatch.setattr(runners, "_engine_version", lambda: "0.1.0+0123456789ab")
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        pytest.raises(runners.EngineMismatchError) as refused,
        runners.DaskRunner(cluster.scheduler_address),
    ):  # fmt: skip
        pytest.fail("the runner should not start")
    message = str(refused.value)
    assert "runs engine 0.1.0+0123456789ab" in message and "(and 1 more)" in message
    assert f"this run needs {ENGINE_VERSION}" in message


def test_a_worker_refuses_a_batch_made_by_another_engine() -> None:
    from hammerlab.analysis.runners import EngineMismatchError, play_batch

    batch = Batch(load_scenario(GUARD), str(GUARD), {}, (1,), engine="0.1.0+0123456789ab")
    with pytest.raises(
        EngineMismatchError, match=re.escape(f"a worker runs engine {ENGINE_VERSION},")
    ):
        play_batch(batch)


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


def _falling(noisy_from: float) -> Callable[[float, Sequence[int]], list[float]]:
    """Mean models left 4.5 + 0.15 (5.4 - x): 4.5 at exactly x = 5.4, falling. Each
    battle adds -s or +s (odd or even seed), so 50 battles from seed 1 have exactly the
    true mean; s is 0.1 (every probe significant) below ``noisy_from`` and 3 from it
    (a 95% interval about 0.84 wide each side: it holds the goal)."""

    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        spread = 3.0 if x >= noisy_from else 0.1
        return [4.5 + 0.15 * (5.4 - x) + (spread if s % 2 else -spread) for s in seeds]

    return sample


def test_balance_bisects_when_only_an_end_holds_the_goal() -> None:
    # Ends: 2 gives 5.01 (significantly above 4.5), 7 gives 4.26 with an interval
    # that holds 4.5. The estimates straddle the goal, so the root is inside: 4 (4.71)
    # and 5 (4.56) are significantly above, 6 (4.41) significantly below.
    answer = solve(_falling(7), 2, 7, 4.5, integer=True, binary=False, max_runs=50)
    assert [p.value for p in answer.probes] == [2, 7, 4, 5, 6]
    assert answer.found and answer.why is None
    assert answer.bracket == (5, 6)
    assert answer.value == 5  # 4.56 is nearer 4.5 than 4.41
    below, above = (next(p for p in answer.probes if p.value == v) for v in answer.bracket)
    assert below.estimate.low > 4.5 > above.estimate.high  # the bracket's documented meaning


def test_balance_says_it_cannot_conclude_when_no_probe_is_significant_on_one_side() -> None:
    # As above, but 6 and 7 both hold the goal: no value is found significantly below
    # it, so the root is not bracketed, though the estimates cross it between 5 and 6.
    answer = solve(_falling(6), 2, 7, 4.5, integer=True, binary=False, max_runs=50)
    assert [p.value for p in answer.probes] == [2, 7, 4, 5, 6]
    assert not answer.found
    assert answer.value == 5
    assert answer.bracket == (2, 7)  # the range searched
    assert answer.why is not None
    assert "between 5 and 6" in answer.why and "significantly below the goal (at 7" in answer.why
    assert answer.to_dict()["why"] == answer.why


def test_balance_narrows_past_a_midpoint_that_holds_the_goal() -> None:
    # x / 10 exactly (each battle adds -s or +s); s is 1 at 4 to 6, enough to hold 0.5,
    # and 0.01 elsewhere. 0 and 10 are significant, 5 (0.5: not below) holds the goal,
    # 2 and 3 are significantly below, 4 (0.4) holds it: the estimates cross between
    # 4 and 5, and the nearest significant probes are 3 and 10.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        spread = 1.0 if 4 <= x <= 6 else 0.01
        return [x / 10 + (spread if s % 2 else -spread) for s in seeds]

    answer = solve(sample, 0, 10, 0.5, integer=True, binary=False, max_runs=50)
    assert [p.value for p in answer.probes] == [0, 10, 5, 2, 3, 4]
    assert answer.found and answer.value == 5 and answer.bracket == (3, 10)


def test_balance_does_not_answer_an_end_whose_estimate_lies_on_the_wrong_side() -> None:
    # A win rate of 0.025 x, flat at 0.45 from 18: 0.4 at exactly x = 16. Seed s wins
    # when (37 s) mod 100 < 100 p, so 100 battles from seed 1 win exactly 100 p times
    # (and a seed that wins at one value wins at every higher one). The end 40 (0.45)
    # holds 0.4 within its interval, and so do 14 to 23 over 100 battles: nothing is found
    # significantly above 0.4, but the estimates cross it between 15 and 16.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        p = min(0.45, 0.025 * x)
        return [float((37 * s) % 100 < round(100 * p)) for s in seeds]

    answer = solve(sample, 6, 40, 0.4, integer=True, binary=True, max_runs=100)
    assert answer.value == 16 and answer.estimate.mean == pytest.approx(0.4)
    assert not answer.found and answer.bracket == (6, 40)
    assert answer.why is not None and "significantly above the goal (at 40" in answer.why


def test_balance_reports_an_end_that_holds_the_goal_without_calling_it_found() -> None:
    # Mean 4.5 + 0.15 (5.4 - x) over 6..7 (4.41 and 4.26): both below 4.5, and 6's
    # interval holds it. No root inside by the estimates: nothing found, 6 reported.
    answer = solve(_falling(6), 6, 7, 4.5, integer=True, binary=False, max_runs=50)
    assert not answer.found and answer.value == 6
    assert answer.why is not None and "the root may lie at 6 or beyond it" in answer.why


def test_balance_says_an_end_s_estimate_is_the_goal_not_on_one_side_of_it() -> None:
    # A user review (session 20): both ends estimated at exactly the goal were said to
    # "lie on one side of the goal". Seeds 1, 2 and 3 of every ten win, at any value:
    # a win rate of exactly 3/10 = 0.3 at both ends.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        return [float(s % 10 in (1, 2, 3)) for s in seeds]

    answer = solve(sample, 0, 1, 0.3, integer=False, binary=True, max_runs=10, tolerance=0.2)
    assert not answer.found and answer.estimate.mean == 0.3
    assert answer.why == "the estimate at 0 is the goal itself: the root may lie at 0 or beyond it"


def test_balance_does_not_send_the_user_beyond_the_key_s_own_limit() -> None:
    # A rules writer's review (session 24): "the root may lie at 1 or beyond it" where
    # 1 is run_dice's minimum, a value beyond which --vary refuses. The same data as
    # above (6..7, 6's interval holds the goal 4.5), with 6 the least the key can be.
    limits = ("the least x can be", None)
    answer = solve(_falling(6), 6, 7, 4.5, integer=True, binary=False, max_runs=50,
                   limits=limits)  # fmt: skip
    assert not answer.found and answer.value == 6
    assert answer.why == (
        "the estimates at both ends lie on one side of the goal, but the interval at 6 "
        "holds it, and 6 is the least x can be: no value beyond it can be tried, so the "
        "goal is not reached within that limit, unless at 6 itself (raise --runs to tell)"
    )
    # The other end's limit changes nothing: the root may lie beyond 6 still.
    answer = solve(_falling(6), 6, 7, 4.5, integer=True, binary=False, max_runs=50,
                   limits=(None, "the most x can be"))  # fmt: skip
    assert answer.why is not None and answer.why.endswith("the root may lie at 6 or beyond it")


def test_balance_says_an_unsure_end_that_is_the_key_s_limit_has_no_beyond() -> None:
    # The crossing between 15 and 16 of the test above, with 40 the most the key can be:
    # a root "at or beyond" 40 can only be at 40.
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        p = min(0.45, 0.025 * x)
        return [float((37 * s) % 100 < round(100 * p)) for s in seeds]

    answer = solve(sample, 6, 40, 0.4, integer=True, binary=True, max_runs=100,
                   limits=(None, "the most x can be"))  # fmt: skip
    assert answer.why is not None
    assert "(at 40, the range's end and the most x can be, its interval " in answer.why
    assert answer.why.endswith("the data cannot rule out a root at that end; raise --runs")


@pytest.mark.parametrize(
    ("vary", "limits"),
    [
        # `hammerlab rulesets`: run_dice 1..3, morale_threshold 0..1, max_charge_range 0..48
        ("run_dice=1..3", (True, True)),
        ("run_dice=1..2", (True, False)),
        ("morale_threshold=0..1", (True, True)),
        ("max_charge_range=6..12.5", (False, False)),
        ("max_charge_range=0..48", (True, True)),
    ],
)
def test_balance_knows_which_end_is_the_key_s_own_limit(
    vary: str, limits: tuple[bool, bool]
) -> None:
    from hammerlab.analysis.balance import parse_question

    spec = load_scenario(GUARD)
    assert parse_question(spec, str(GUARD), vary, "win_rate=0.5", None).limits == limits


def test_balance_does_not_take_probes_all_alike_for_certain() -> None:
    # Models left of 0 in every battle below 5 and 10 (of 10) from 5: every probe's
    # battles are alike. 50 battles alike at 0 bound the mean by 10 × 3.8415 / 53.8415
    # = 0.71 (Wilson's 0 of 50 for a battle ending otherwise, times the 10 models it
    # could keep), which holds the goal 0.5: such a probe plays on to 100 battles
    # (0.37), where it is significant. At 10 models, 9.29..10 is significant at once.
    # (With the zero-width interval every probe stopped at 50.)
    def sample(x: float, seeds: Sequence[int]) -> list[float]:
        return [0.0 if x < 5 else 10.0 for _ in seeds]

    answer = solve(
        sample, 0, 10, 0.5, integer=True, binary=False, max_runs=100, span=lambda x: (0, 10)
    )
    assert [(p.value, p.estimate.n) for p in answer.probes] == [
        (0, 100), (10, 50), (5, 50), (2, 100), (3, 100), (4, 100)
    ]  # fmt: skip
    assert answer.found and answer.bracket == (4, 5) and answer.value == 4
    assert answer.estimate.alike and answer.estimate.high == pytest.approx(0.369935, abs=1e-6)


def test_sweep_a_unit_never_touched_gets_a_bound_not_a_zero_width(tmp_path: Path) -> None:
    # The review's case: with Final Shot off the lone lascannon never destroys the
    # one-model Carnifex in 50 battles. Its models left (1 - destroyed) and its
    # destruction rate are one quantity: Wilson's 0 of 50 gives 0..3.8415 / 53.8415 =
    # 0..0.0713 for the rate, so 0.9287..1 for the models left (was 1.00..1.00).
    args = ["sweep", str(LASCANNON), "--vary", "final_shot=off", "--runs", "50"]
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    (carnifex,) = [u for u in document["points"][0]["units"] if u["unit"] == "carnifex"]
    assert carnifex["models_left"]["alike"] is True
    assert carnifex["models_left"]["ci95"] == pytest.approx([0.928652, 1.0], abs=1e-6)
    assert carnifex["p_destroyed"]["ci95"] == pytest.approx([0.0, 0.071348], abs=1e-6)
    assert "alike" not in carnifex["p_destroyed"]  # a Wilson interval needs no bound
    text = " ".join(CliRunner().invoke(app, args, env={"COLUMNS": None}).stdout.split())
    assert "1.00 (0.93..1.00, all alike) │ 0% (0%..7%)" in text
    table = tmp_path / "points.csv"
    CliRunner().invoke(app, [*args, "--csv", str(table)])
    rows = {r["metric"]: r for r in csv.DictReader(table.open(encoding="utf-8"))}
    assert rows["models_left.carnifex"]["alike"] == "true"
    assert rows["p_destroyed.carnifex"]["alike"] == ""


def test_cli_balance_says_why_it_found_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from hammerlab.analysis import balance

    def fake(*_: Any, **__: Any) -> balance.Balance:
        return solve(_falling(6), 2, 7, 4.5, integer=True, binary=False, max_runs=50)

    monkeypatch.setattr(balance, "balance_scenario", fake)
    args = ["balance", str(GUARD), "--vary", "units.terminators.size=2..7",
            "--target", "models_left.squad1=4.5", "--runs", "50"]  # fmt: skip
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert document["found"] is False and document["bracket"] == [2, 7]
    assert "player" not in document  # a unit's models left: no player's (user review)
    assert "between 5 and 6" in document["why"]
    text = CliRunner().invoke(app, args).output
    assert "no answer: the estimates cross the goal between 5 and 6" in text
    assert "best estimate: units.terminators.size = 5" in text


def test_balance_names_the_probe_an_interpolated_answer_s_estimate_comes_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A rules writer's review: "answer: morale_threshold = 0.24951 (...; models_left.
    # squad1 there: 3.90 (2.76..5.04))", where 3.90 was measured at the probe 0.25625.
    # By hand, the mean 4.5 + 0.15 (5.4 - x) (spread 0.1: every probe significant)
    # over 2..7 to within 1: probes 2, 7, 4.5 (4.635), 5.75 (4.4475), 5.125 (4.54125);
    # the bracket 5.125..5.75 is 0.625 wide; the answer interpolates to 5.4, where no
    # battle was played, and the estimate is the probe nearer 4.5: 5.125's.
    from hammerlab.analysis import balance

    answer = solve(_falling(99), 2, 7, 4.5, integer=False, binary=False, max_runs=50,
                   tolerance=1.0)  # fmt: skip
    assert [p.value for p in answer.probes] == [2, 7, 4.5, 5.75, 5.125]
    assert answer.found and answer.value == pytest.approx(5.4)
    assert answer.estimate_at == 5.125 and answer.estimate.mean == pytest.approx(4.54125)
    monkeypatch.setattr(balance, "balance_scenario", lambda *_, **__: answer)
    args = ["balance", str(GUARD), "--vary", "morale_threshold=0.1..0.5",
            "--target", "models_left.squad1=4.5", "--runs", "50"]  # fmt: skip
    text = " ".join(CliRunner().invoke(app, args).output.split())
    assert (
        "answer: morale_threshold = 5.4 (the root lies in 5.125..5.75; models_left.squad1 "
        "at 5.125, the probe nearer the goal (none was played at the answer): 4.54 (" in text
    )
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert document["estimate_at"] == 5.125 and document["value"] == pytest.approx(5.4)


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


FIERY = EXAMPLES / "lab_fiery_charge_boyz.toml"


@pytest.mark.parametrize(
    ("vary", "target", "flag", "problem"),
    [
        ("charge_dice=1..4", "win_rate=1.5", "--target", "from 0 to 1"),
        ("charge_dice=1..4", "win_rate=-0.1", "--target", "from 0 to 1"),
        # the Tactical Squad is 10 Marines, the Boyz size = 30 (the file's, since session 14)
        ("charge_dice=1..4", "models_left.tactical=11", "--target", "0 to 10 models"),
        ("charge_dice=1..4", "models_left.tactical=-1", "--target", "0 to 10 models"),
        ("charge_dice=1..4", "models_left.boyz=31", "--target", "0 to 30 models"),
        # the Boyz' size is varied: 30 Boyz at the most
        ("units.boyz.size=10..30", "models_left.boyz=31", "--target", "0 to 30 models"),
        ("charge_dice=x..4", "win_rate=0.5", "--vary", "LO and HI must be numbers"),
        # a hostile-input review: these ended in OverflowError and ValueError tracebacks
        ("charge_dice=1..inf", "win_rate=0.5", "--vary", "LO and HI must be finite numbers"),
        ("units.boyz.size=nan..5", "win_rate=0.5", "--vary", "must be finite numbers"),
        ("charge_dice=1e400..1e401", "win_rate=0.5", "--vary", "must be finite numbers"),
        ("charge_dice=1..4", "win_rate=nan", "--target", "the goal must be a finite number"),
    ],
)
def test_balance_refuses_a_goal_it_cannot_reach_before_any_battle(
    vary: str, target: str, flag: str, problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_battles(*_: Any) -> None:
        raise AssertionError("a battle was played")

    monkeypatch.setattr(Runner, "run", no_battles)
    result = CliRunner().invoke(
        app, ["balance", str(FIERY), "--vary", vary, "--target", target, "--runs", "10"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {flag}: ") and problem in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_balance_takes_the_goals_at_the_ends_of_what_a_unit_can_keep() -> None:
    from hammerlab.analysis.balance import parse_question

    spec = load_scenario(FIERY)
    for vary, target in [
        ("charge_dice=1..4", "models_left.tactical=10"),
        ("charge_dice=1..4", "models_left.boyz=0"),
        ("units.boyz.size=10..30", "models_left.boyz=30"),
        ("charge_dice=1..4", "win_rate=1"),
    ]:
        question = parse_question(spec, str(FIERY), vary, target, None)
        assert question.goal == float(target.partition("=")[2])


def test_balance_knows_the_rules_of_the_plug_ins_it_is_given_and_no_other() -> None:
    # Once plug-ins were scoped to the games that name them (session 22), balance's
    # check of its --vary key ran with no plug-in in play: a plug-in's parameter, given
    # with --plugin, was refused as an unknown rule. And a file loaded earlier in the
    # process for something else must not make its rule known here.
    from hammerlab.analysis.balance import parse_question
    from hammerlab.editions.plugins import load_plugin_file
    from hammerlab.engine.rules import UnknownRuleError

    plugin = EXAMPLES / "rules" / "hold_the_line.py"
    load_plugin_file(plugin)  # loaded in this process, given to one question below
    spec = load_scenario(GUARD)
    vary, target = "hold_the_line.bonus=0..3", "win_rate=0.5"
    question = parse_question(spec, str(GUARD), vary, target, None, [str(plugin)])
    assert (question.key, question.low, question.high, question.integer) == (
        "hold_the_line.bonus",
        0,
        3,
        True,
    )
    with pytest.raises(UnknownRuleError, match="unknown rule 'hold_the_line'"):
        parse_question(spec, str(GUARD), vary, target, None)
    refused = CliRunner().invoke(app, ["balance", str(GUARD), "--vary", vary, "--target", target])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: --vary: unknown rule 'hold_the_line'")


def test_outcomes_read_back_are_the_outcomes_played(tmp_path: Path) -> None:
    (case,) = _cases([f"{PENALTY}=1"])
    played = [Outcome({"squad1": 3, "squad2": 10, "terminators": 0}, "Cadians")]
    with ResultStore(tmp_path) as store:
        store.add(case, [7], played)
        assert store.added == 1
        assert store.outcomes(case, range(7, 8)) == {7: played[0]}
        assert store.outcomes(case, range(1, 7)) == {}  # only the seeds asked for
        assert store.outcomes(case, range(8, 20)) == {}
        with pytest.raises(StoreError, match="cannot write the results store"):
            store.add(case, [8, 7], played * 2)  # 7 is stored: the whole batch is refused
        assert store.added == 1
        assert store.outcomes(case, range(1, 20)) == {7: played[0]}


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


def test_lab_precision_is_not_reached_by_battles_that_all_ended_alike() -> None:
    # In the Guard example the heuristic never takes Suppressive Fire (it beats
    # shooting nowhere there), so both arms play the same battles: every paired
    # difference is 0. That 50 pairs were alike does not prove every pair would be
    # (a rules writer's review: their zero-width intervals stopped the rounds at
    # once), so no precision is reached by it: the runs run out.
    spec = load_scenario(GUARD)
    experiment = arms(spec, ["suppressive_fire=off"])
    report = compare(spec, str(GUARD), experiment, runs=70, precision=1e-9)
    assert (report.runs, report.precision_reached) == (70, False)
    assert report.ended_alike == 70
    assert all(u.alike and u.ci95[0] < 0 < u.ci95[1] for u in report.units)


def test_lab_precision_on_battles_all_alike_is_reached_once_they_are_enough() -> None:
    # The lone lascannon's Final Shot earned by unsaved wounds plays the same battles
    # as by wound rolls (the Carnifex has no save against AP2: docs/lab/README.md,
    # study 2). Both units field one model, so each paired difference lies in -1..1,
    # and all being 0 in N pairs bounds the mean difference by ±z² / (N + z²): the
    # interval is 2 × 3.8415 / 53.8415 = 0.143 wide at 50 pairs, 2 × 3.8415 / 103.8415
    # = 0.074 at 100. A precision of 0.1 is reached at the second round, not the first.
    spec = load_scenario(LASCANNON)
    experiment = arms(spec, ["final_shot.earned_by=unsaved_wound"])
    report = compare(spec, str(LASCANNON), experiment, runs=200, precision=0.1)
    assert (report.runs, report.precision_reached) == (100, True)
    assert report.ended_alike == 100
    for unit in report.units:
        assert unit.alike
        assert unit.ci95 == pytest.approx((-0.036994, 0.036994), abs=1e-6)


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
    # Models left 0, 0, 0, 6 of 12: mean 1.5, sample sd 3, half-width
    # t * 3 / 2 = 4.773669, t = 3.182446 the 95% quantile of Student's t with 3 degrees
    # of freedom (the tables' 3.182): -3.273669..6.273669, cut at 0.
    # Models left 12, 12, 12, 6 of 12: mean 10.5, the same half-width:
    # 5.726331..15.273669, cut at the 12 models the unit has.
    low = UnitInfo("low", "Low", "A", 12, 12)
    high = UnitInfo("high", "High", "A", 12, 12)
    outcomes = [Outcome({"low": n, "high": 12 - n}, "A") for n in (0, 0, 0, 6)]
    result = summarize("s", "h", (), [low, high], ["A"], outcomes, range(1, 5))
    cut_low, cut_high = (s.models_left for s in result.units)
    assert (cut_low.mean, cut_low.low) == (1.5, 0.0)
    assert cut_low.high == pytest.approx(1.5 + 4.773669, abs=1e-5)
    assert cut_high.low == pytest.approx(10.5 - 4.773669, abs=1e-5)
    assert (cut_high.mean, cut_high.high) == (10.5, 12.0)


def test_seed_ranges_and_their_text() -> None:
    assert seed_ranges([5, 1, 2, 3, 50, 51, 2]) == ((1, 3), (5, 5), (50, 51))
    assert seed_ranges(range(4, 9)) == ((4, 8),)
    assert seeds_text(((1, 3), (5, 5), (50, 51))) == "1..3, 5, 50..51"
    # Six ranges: the first four written out, then the two left.
    assert seeds_text(seed_ranges([1, 3, 5, 7, 9, 11])) == "1, 3, 5, 7 and 2 more ranges"


def test_engine_version_is_the_package_version_and_its_sources_fingerprint() -> None:
    import hammerlab

    package = Path(hammerlab.__file__).parent  # the code that plays the battles
    version, plus, fingerprint = ENGINE_VERSION.partition("+")
    assert (version, plus) == (metadata_version("hammerlab"), "+")
    assert len(fingerprint) == 12 and int(fingerprint, 16) >= 0
    assert source_fingerprint(package) == source_fingerprint(package) == fingerprint


def test_source_fingerprint_hashes_the_paths_and_bytes_of_source_files(tmp_path: Path) -> None:
    tree = tmp_path / "pkg"
    (tree / "sub").mkdir(parents=True)
    (tree / "__pycache__").mkdir()
    (tree / "a.py").write_bytes(b"A = 1\n")
    (tree / "sub" / "b.toml").write_bytes(b"x = 2\n")
    (tree / "page.html").write_bytes(b"<p>not played</p>")
    (tree / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\x00compiled")
    # By hand: each source file by relative path, "PATH NUL SIZE NUL BYTES"; both are 6 bytes.
    expected = hashlib.sha256(b"a.py\x006\x00A = 1\n" + b"sub/b.toml\x006\x00x = 2\n")
    assert source_fingerprint(tree) == expected.hexdigest()[:12]

    clone = tmp_path / "clone"
    shutil.copytree(tree, clone)
    os.utime(clone / "a.py", (0, 0))  # another clone, another time: the same code
    (clone / "page.html").write_bytes(b"<p>changed, but not played</p>")
    assert source_fingerprint(clone) == source_fingerprint(tree)
    (clone / "a.py").write_bytes(b"A = 2\n")  # one byte changed
    assert source_fingerprint(clone) != source_fingerprint(tree)
    (clone / "a.py").write_bytes(b"A = 1\n")
    assert source_fingerprint(clone) == source_fingerprint(tree)
    (clone / "a.py").rename(clone / "c.py")  # the same bytes under another name
    assert source_fingerprint(clone) != source_fingerprint(tree)


def test_battles_of_another_engine_are_neither_refused_nor_reused(tmp_path: Path) -> None:
    grid_cases = _cases([f"{PENALTY}=0"])
    with Runner(1) as runner, ResultStore(tmp_path / "s") as store:
        sweep(grid_cases, 3, 1, runner, store=store)
        for table in ("battles", "models_left", "choices"):
            store.db.execute(f"UPDATE {table} SET engine_version = '0.1.0+0123456789ab'")
    first = CountingRunner()
    with ResultStore(tmp_path / "s") as store:
        sweep(grid_cases, 3, 1, first, store=store)  # not refused: none of this engine's
    again = CountingRunner()
    with ResultStore(tmp_path / "s") as store:
        sweep(grid_cases, 3, 1, again, store=store, resume=True)
    assert (first.played, again.played) == (3, 0)
    stored = summaries([tmp_path / "s"])
    assert sorted(r.engine_version for r in stored) == sorted(
        ["0.1.0+0123456789ab", ENGINE_VERSION]
    )
    assert [r.runs for r in stored] == [3, 3]


def _sweep_cli(*flags: str) -> Result:
    return CliRunner().invoke(
        app, ["sweep", str(GUARD), "--vary", f"{PENALTY}=0,2", "--runs", "3", *flags]
    )


def test_cli_store_counts_only_the_seeds_asked_for_and_says_what_it_reused(
    tmp_path: Path,
) -> None:
    out = ["--out", str(tmp_path / "s")]
    first = _sweep_cli(*out, "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["store"] == {
        "folder": str(tmp_path / "s"), "reused": 0, "played": 6,
    }  # fmt: skip
    later = _sweep_cli(*out, "--seed", "50")  # seeds 50..52: none stored, so not refused
    assert later.exit_code == 0, later.output
    assert (
        later.stderr == f"{tmp_path / 's'}: 0 battles reused from the store, 6 played and stored\n"
    )
    overlap = _sweep_cli(*out, "--seed", "2")  # seeds 2..4: 2 and 3 stored at both points
    assert overlap.exit_code == 2
    assert overlap.stderr.splitlines() == [
        f"error: --out: {tmp_path / 's'} already holds 4 of the battles this run would play "
        "(seeds 2..3, at 2 of 2 points); give --resume to reuse them and play only the rest, "
        "or another --out"
    ]
    resumed = _sweep_cli(*out, "--seed", "2", "--resume", "--json")
    assert resumed.exit_code == 0, resumed.output
    document = json.loads(resumed.stdout)
    assert document["store"]["reused"] == 4 and document["store"]["played"] == 2
    fresh = json.loads(_sweep_cli("--seed", "2", "--json").stdout)
    assert document["points"] == fresh["points"]  # battle for battle the same
    assert "store" not in fresh

    again = _sweep_cli(*out, "--seed", "2", "--resume")
    assert again.stderr.endswith("6 battles reused from the store, 0 played and stored\n")

    # The store now holds seeds 1..4 (the first run and the resumed one) and 50..52.
    listed = CliRunner().invoke(app, ["results", str(tmp_path / "s"), "--json"])
    assert listed.exit_code == 0, listed.output
    points = json.loads(listed.stdout)["points"]
    assert [(p["runs"], p["first_seed"], p["seeds"]) for p in points] == [
        (7, 1, [[1, 4], [50, 52]]), (7, 1, [[1, 4], [50, 52]]),
    ]  # fmt: skip
    assert {p["engine_version"] for p in points} == {ENGINE_VERSION}
    text = CliRunner().invoke(app, ["results", str(tmp_path / "s")])
    heading = f"7 battles, seeds 1..4, 50..52 · engine {ENGINE_VERSION}"
    assert " ".join(text.stdout.split()).count(heading) == 2  # lines wrapped as the console's


def _interrupting(monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """Make the battle after ``after`` battles raise KeyboardInterrupt, as a Ctrl-C would."""
    calls = 0

    def play(*args: Any) -> Outcome:
        nonlocal calls
        calls += 1
        if calls > after:
            raise KeyboardInterrupt
        return play_once(*args)

    monkeypatch.setattr("hammerlab.analysis.runners.play_once", play)


def test_cli_sweep_stopped_by_ctrl_c_says_what_was_saved_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "s"
    flags = ["sweep", str(GUARD), "--vary", f"{PENALTY}=0,2", "--runs", "8", "--json"]
    # 16 battles on one process: batches of ceil(16 / 8) = 2 seeds. The 6th battle is
    # interrupted: batches (1, 2) and (3, 4) of the first point are stored, the 5th
    # battle's batch is lost.
    with monkeypatch.context() as patch:
        _interrupting(patch, after=5)
        stopped = CliRunner().invoke(app, [*flags, "--out", str(out)])
    assert stopped.exit_code == 130
    assert stopped.stdout == ""  # no half JSON document
    assert stopped.stderr.splitlines() == [
        f"interrupted: 4 battles of this run saved to {out} (the store is written a batch at "
        "a time; the batches being played were lost); run the same command with --resume "
        "to continue"
    ]
    _, rows = query([out], "SELECT params, seed FROM battles ORDER BY seed")
    assert rows == [(json.dumps({PENALTY: "0"}), seed) for seed in (1, 2, 3, 4)]
    resumed = CliRunner().invoke(app, [*flags, "--out", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    document = json.loads(resumed.stdout)
    assert (document["store"]["reused"], document["store"]["played"]) == (4, 12)
    assert document["points"] == json.loads(CliRunner().invoke(app, flags).stdout)["points"]

    with monkeypatch.context() as patch:
        _interrupting(patch, after=0)
        unsaved = CliRunner().invoke(app, flags)
    assert unsaved.exit_code == 130
    assert unsaved.stderr.splitlines() == [
        "interrupted: nothing was saved (--out DIR stores every battle as it finishes)"
    ]


def test_cli_lab_stopped_by_ctrl_c_says_what_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 6 battles (3 seeds, 2 arms) on one process: batches of 1 seed, the baseline's
    # first; the 3rd battle is interrupted, so seeds 1 and 2 of the baseline are kept.
    _interrupting(monkeypatch, after=2)
    out = tmp_path / "s"
    result = CliRunner().invoke(
        app, ["lab", str(GUARD), "--rule", "suppressive_fire", "--runs", "3", "--out", str(out)]
    )
    assert result.exit_code == 130
    assert result.stderr.startswith(f"interrupted: 2 battles of this run saved to {out} ")
    assert len(result.stderr.splitlines()) == 1
    assert query([out], "SELECT count(*) FROM battles")[1] == [(2,)]


def _raises_ctrl_c(*args: Any) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("command", "where"),
    [
        ("sweep", "hammerlab.cli.sweep_cmd.load_scenario"),  # the files being read
        ("lab", "hammerlab.cli.lab_cmd.load_scenario"),
        ("sweep", "hammerlab.analysis.store._empty"),  # the store opening, its file made
        ("lab", "hammerlab.analysis.store._empty"),
    ],
)
def test_a_ctrl_c_before_any_battle_says_nothing_was_saved(
    command: str, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rules writer's review (session 24): a Ctrl-C in a sweep's first seconds (the
    # files read, the points checked, the store opened) ended it with status 130 and
    # nothing said, and once left the store's file it had begun behind.
    monkeypatch.setattr(where, _raises_ctrl_c)
    out = tmp_path / "made" / "s"
    flags = (
        ["sweep", str(GUARD), "--vary", f"{PENALTY}=0,2"]
        if command == "sweep"
        else ["lab", str(GUARD), "--rule", "suppressive_fire"]
    )
    stopped = CliRunner().invoke(app, [*flags, "--runs", "2", "--out", str(out)])
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines() == [
        f"interrupted: stopped before any battle was played; nothing was saved to {out}"
    ]
    assert not (tmp_path / "made").exists()
    if "store" in where:
        return  # no store without --out
    stopped = CliRunner().invoke(app, [*flags, "--runs", "2"])
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines() == [
        "interrupted: nothing was saved (--out DIR stores every battle as it finishes)"
    ]


def test_a_ctrl_c_after_the_battles_says_what_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every battle played (2 points of 2 seeds) and stored; the table being printed.
    monkeypatch.setattr("hammerlab.cli.sweep_cmd.print_points", _raises_ctrl_c)
    out = tmp_path / "s"
    args = ["sweep", str(GUARD), "--vary", f"{PENALTY}=0,2", "--runs", "2", "--out", str(out)]
    stopped = CliRunner().invoke(app, args)
    assert stopped.exit_code == 130
    assert stopped.stderr.splitlines()[-1].startswith(
        f"interrupted: 4 battles of this run saved to {out} "
    )


def test_results_of_a_store_with_no_battles_says_so(tmp_path: Path) -> None:
    # A store a run made, then stopped before its first batch (as a Ctrl-C between
    # the store's opening and the first batch leaves it): no battle in it.
    empty = tmp_path / "empty"
    with ResultStore(empty):
        pass
    said = CliRunner().invoke(app, ["results", str(empty)])
    assert said.exit_code == 1 and said.stdout == ""
    assert said.stderr.splitlines() == [
        f"error: {empty}: the store holds no battles, nothing to summarize (a sweep or lab "
        "stopped before it stored its first batch leaves a store so)"
    ]
    full = tmp_path / "full"
    args = ["sweep", str(GUARD), "--vary", f"{PENALTY}=1", "--runs", "2", "--out", str(full)]
    assert CliRunner().invoke(app, args).exit_code == 0
    said = CliRunner().invoke(app, ["results", str(empty), str(full), "--json"])
    assert said.exit_code == 0
    assert said.stderr.splitlines() == [f"note: {empty}: the store holds no battles"]
    assert [p["runs"] for p in json.loads(said.stdout)["points"]] == [2]


def test_a_ctrl_c_while_a_batch_is_written_comes_after_it(tmp_path: Path) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers belong to the main thread")
    (case,) = _cases([f"{PENALTY}=1"])
    played = Outcome({"squad1": 3, "squad2": 10, "terminators": 0}, "Cadians")

    class SignalledMidWrite:
        """The store's connection, with a SIGINT arriving during the first insert."""

        def __init__(self, db: Any) -> None:
            self.db = db

        def execute(self, *args: Any) -> Any:
            return self.db.execute(*args)

        def executemany(self, *args: Any) -> Any:
            signal.raise_signal(signal.SIGINT)
            return self.db.executemany(*args)

    # Python's own Ctrl-C handler, whatever a test before this one in the same
    # process left (a Dask cluster started and stopped may leave another).
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with ResultStore(tmp_path) as store:
            real = store.db
            store.db = SignalledMidWrite(real)  # type: ignore[assignment]
            with pytest.raises(KeyboardInterrupt):
                store.add(case, [7], [played])
            store.db = real
            assert store.added == 1
            assert store.outcomes(case, range(7, 8)) == {7: played}
    finally:
        signal.signal(signal.SIGINT, before)


def test_results_help_lists_every_table_and_its_columns(tmp_path: Path) -> None:
    with ResultStore(tmp_path) as store:
        columns = store.db.execute(
            "SELECT table_name, list(column_name ORDER BY ordinal_position) "
            "FROM information_schema.columns WHERE table_name != 'hammerlab_store' "
            "GROUP BY table_name"  # the store's format: not for --query
        ).fetchall()
    assert {table for table, _ in columns} == {"scenarios", "units", "battles", "models_left",
                                               "choices"}  # fmt: skip
    help_text = " ".join(CliRunner().invoke(app, ["results", "--help"]).stdout.split())
    for table, names in columns:
        assert f"{table}: {', '.join(names)}" in help_text


# --- whether the AI used the rule varied (review B, finding 4) ---------------------------


def test_a_sweep_says_per_point_how_often_the_varied_rule_s_choices_were_taken(
    tmp_path: Path,
) -> None:
    # The heuristic never takes Suppressive Fire in the Guard example (see the lab's
    # test above), whatever its penalty: each point offers it and never takes it, so
    # both points play the same battles, the counts are equal, and a warning says so.
    csv_path, report_path = tmp_path / "s.csv", tmp_path / "s.html"
    args = ["sweep", str(GUARD), "--vary", f"{PENALTY}=1,3", "--runs", "2", "--workers", "1"]
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    per_point = [p["rule_choices"] for p in document["points"]]
    assert per_point[0] == per_point[1]
    (suppress,) = [c for c in per_point[0] if c["choice"] == "action: suppressive fire"]
    assert suppress["offered"] > 0 and suppress["chosen"] == 0
    # the lab's arm with the same setting and seeds counts the same
    spec = load_scenario(GUARD)
    lab = compare(spec, str(GUARD), arms(spec, [f"{PENALTY}=3"]), runs=2)
    (row,) = [c for c in lab.choices if c.choice == "action: suppressive fire"]
    assert (row.variant_offered, row.variant_chosen) == (suppress["offered"], 0)
    warning = (
        f"warning: action: suppressive fire was offered {2 * suppress['offered']} times "
        "and chosen at no point"
    )
    assert [w for w in document["warnings"] if w.startswith(warning)]
    assert document["switched_on"] == {}  # the file's [rules] have it on already
    result = CliRunner().invoke(
        app, [*args, "--csv", str(csv_path), "--report", str(report_path)], terminal_width=300
    )
    assert result.exit_code == 0, result.output
    counted = f"Choices: action: suppressive fire offered {suppress['offered']}, chosen 0"
    assert result.stdout.count(counted) == 2
    assert warning in result.stdout
    rows = [
        r for r in csv_path.read_text().splitlines() if ",choice.action: suppressive fire," in r
    ]
    assert len(rows) == 2 and all(r.endswith(f",{suppress['offered']},0") for r in rows)
    page = report_path.read_text(encoding="utf-8")
    assert warning in page and page.count(counted.replace("Choices", "choices")) == 2
    assert "On at every point" not in result.stdout + page


def test_a_point_summarized_without_its_rules_has_no_choice_counts() -> None:
    # Not told which rules to count the choices of, nothing is claimed (a store's
    # point is told them: test_results_counts_the_choices_of_the_rules_a_stored_point_sets).
    result = summarize("s", "h", (), [], ["A", "B"], [Outcome({}, "A")], [1])
    assert result.choices is None and "rule_choices" not in result.to_dict()


# --- results reports the choices a sweep reported (user review, thirteenth session) ---


def test_the_rules_a_point_sets_are_its_keys_but_sizes_parameters_and_how_it_was_played() -> None:
    # A store's point is the sweep's grid point (with the AI or dice mode where they
    # were not the usual): its keys name the rules its choices are counted for. A
    # key that is neither a size, a ruleset parameter nor the AI or dice is an
    # option's, a plug-in's too (not loaded here).
    point = (
        ("final_shot.earned_by", "wound_roll"),
        ("fiery_charge", "on"),
        ("charge_dice", "3"),
        ("units.boyz.size", "20"),
        ("ai", "search"),
        ("dice", "keyed"),
        ("house_rule_not_loaded", "on"),
    )
    assert point_rules("waffle", point) == {"final_shot", "fiery_charge", "house_rule_not_loaded"}
    assert point_rules("waffle", ()) == set()


def test_results_counts_the_choices_of_the_rules_a_stored_point_sets(tmp_path: Path) -> None:
    # Two battles stored by hand: the point varies Suppressive Fire's penalty, so its
    # choices are counted (3 + 2 offered, 1 + 0 chosen); "action: shoot" names no
    # rule of the point and is left out, as a sweep leaves it out.
    (case,) = _cases([f"{PENALTY}=1"])
    left = {"squad1": 3, "squad2": 10, "terminators": 0}
    played = [
        Outcome(left, "Cadians", {"action: suppressive fire": (3, 1), "action: shoot": (3, 2)}),
        Outcome(left, "Cadians", {"action: suppressive fire": (2, 0), "action: shoot": (2, 2)}),
    ]
    with ResultStore(tmp_path) as store:
        store.add(case, [1, 2], played)
    (point,) = summaries([tmp_path])
    assert point.choices == {"action: suppressive fire": (5, 1)}
    assert point.to_dict()["rule_choices"] == [
        {"choice": "action: suppressive fire", "offered": 5, "chosen": 1}
    ]


@pytest.mark.parametrize(
    ("scenario", "vary", "warned"),
    [
        # The heuristic never takes Suppressive Fire here: both warn of it.
        (GUARD, f"{PENALTY}=1,3", True),
        # Fiery Charge is taken every time it is offered: neither warns (its decline
        # never taken is no rule never used).
        (EXAMPLES / "lab_fiery_charge_boyz.toml", "fiery_charge=off,on", False),
    ],
)
def test_results_reports_the_choices_and_warnings_the_sweep_reported(
    tmp_path: Path, scenario: Path, vary: str, warned: bool
) -> None:
    # The review: `results STORE` had no Choices lines, no warnings and no
    # rule_choices, though the store held the choices the sweep reported.
    store = tmp_path / "store"
    invoke = CliRunner().invoke
    command = ["sweep", str(scenario), "--vary", vary, "--runs", "2", "--workers", "1"]
    swept = json.loads(invoke(app, [*command, "--out", str(store), "--json"]).stdout)
    read = json.loads(invoke(app, ["results", str(store), "--json"]).stdout)

    def by_point(document: dict[str, Any]) -> dict[str, Any]:
        return {
            point_params(tuple(p["point"].items())): p["rule_choices"] for p in document["points"]
        }

    assert by_point(read) == by_point(swept)
    assert any(by_point(swept).values())  # some point counted some choice
    assert read["warnings"] == swept["warnings"]
    assert bool(swept["warnings"]) is warned
    # What the store holds, summed by hand, is what both report.
    _, rows = query([store], "SELECT params, choice, sum(offered), sum(chosen) FROM choices "
                             "GROUP BY ALL")  # fmt: skip
    for params, choices in by_point(read).items():
        for c in choices:
            assert (params, c["choice"], c["offered"], c["chosen"]) in rows
    # The text says it the same way: the same Choices and warning lines.
    text = invoke(app, command, terminal_width=300).stdout  # the same battles, not stored
    again = invoke(app, ["results", str(store)], terminal_width=300).stdout

    def said(output: str) -> list[str]:
        return sorted(
            line for line in output.splitlines() if line.startswith(("Choices:", "warning:"))
        )

    assert said(again) == said(text) and said(text)


@pytest.mark.parametrize(
    ("balance_vary", "sweep_vary", "problem"),
    [
        ("charge_dice=0..3", "charge_dice=0,3", "charge_dice=0: must be at least 1"),
        ("charge_dice=1..9", "charge_dice=1,9", "charge_dice=9: must be at most"),
        ("charge_dic=1..3", "charge_dic=1,3", "unknown rule or parameter 'charge_dic'"),
        ("nope.x=1..3", "nope.x=1,3", "unknown rule 'nope'"),
    ],
)
def test_balance_words_a_vary_mistake_as_sweep_does_before_any_battle(
    balance_vary: str, sweep_vary: str, problem: str
) -> None:
    target = ["--target", "win_rate=0.5"]
    refused = CliRunner().invoke(app, ["balance", str(GUARD), "--vary", balance_vary, *target])
    swept = CliRunner().invoke(app, ["sweep", str(GUARD), "--vary", sweep_vary])
    assert (refused.exit_code, swept.exit_code) == (2, 2)
    assert refused.stderr == swept.stderr
    assert (
        refused.stderr.startswith(f"error: --vary: {problem}") and refused.stderr.count("\n") == 1
    )


def test_a_scenario_given_twice_is_refused_before_any_battle(tmp_path: Path) -> None:
    # The same file twice, or two files saying the same scenario, would play the same
    # battles twice and report them as two; a store keyed by the scenario's content
    # failed on its primary key after playing them (a rules writer's review).
    copy = tmp_path / "copy.toml"
    copy.write_bytes(GUARD.read_bytes())
    for files, problem in (
        ([GUARD, GUARD], f"{GUARD} is given twice; give each scenario file once"),
        ([GUARD, copy], f"{GUARD} and {copy} say the same scenario (the same content)"),
    ):
        args = ["sweep", *map(str, files), "--vary", f"{PENALTY}=1", "--runs", "2"]
        result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "store")])
        assert result.exit_code == 2
        assert result.stderr.startswith(f"error: SCENARIO: {problem}")
        assert result.stdout == ""
        assert not (tmp_path / "store").exists()


def test_csv_rows_say_which_seeds_they_summarize(tmp_path: Path) -> None:
    # A rules writer's review: CSVs of runs on other seeds could not be told apart.
    csv_path = tmp_path / "s.csv"
    args = ["sweep", str(GUARD), "--vary", f"{PENALTY}=1", "--runs", "3", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--csv", str(csv_path)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    assert rows and {r["seeds"] for r in rows} == {"5..7"}


def test_points_that_play_the_same_battles_are_named_in_a_warning() -> None:
    # A rules writer's review: with Suppressive Fire off its penalty changes nothing,
    # so the two "off" points of this grid play the same battles; the file has the
    # rule on, so "on" at the penalty's default is the file as written, as is the
    # default itself set again. Points that differ in what they play raise nothing.
    grid = _cases(["suppressive_fire=off,on", f"{PENALTY}=1,2"])
    assert alike_points(grid) == [
        f"warning: {GUARD} at suppressive_fire=off, {PENALTY}=2 plays the same battles as "
        f"at suppressive_fire=off, {PENALTY}=1: the same rules once the file's [rules] and "
        "the defaults apply"
    ]
    assert alike_points(_cases([f"{PENALTY}=1,2,3"])) == []
    default = get_ruleset("waffle").options
    (option,) = [o for o in default if o.name == "suppressive_fire"]
    (parameter,) = [p for p in option.parameters if p.name == PENALTY.partition(".")[2]]
    same = _cases([f"{PENALTY}={parameter.default}", "charge_dice=2"])
    assert alike_points([*same, *_cases(["suppressive_fire=on", "charge_dice=2"])])


def test_one_scenario_text_beside_two_army_lists_is_two_scenarios(tmp_path: Path) -> None:
    # A review: the same scenario file beside two different BattleScribe catalogues was
    # refused as "the same scenario"; the hash a store keys scenarios by now covers the
    # catalogues the file names, so the two are played, and stored, apart.
    orks = (EXAMPLES.parent / "tests" / "data" / "bsdata-7e" / "Orks - Codex.cat").read_bytes()
    text = GUARD.read_text(encoding="utf-8") + (
        '\n[[units]]\nid = "boyz"\nplayer = "Ultramarines"\nunit = "Boyz"\n'
        'source = "army.cat"\nposition = [20, 40]\n'
    )
    files = []
    for folder, catalogue in (("one", orks), ("two", orks + b"<!-- edited -->\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "army.cat").write_bytes(catalogue)
        (tmp_path / folder / "s.toml").write_text(text, encoding="utf-8")
        files.append(str(tmp_path / folder / "s.toml"))
    store = tmp_path / "store"
    args = ["sweep", *files, "--vary", "charge_dice=2", "--runs", "2", "--out", str(store)]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    hashes = {p["scenario_hash"] for p in json.loads(result.stdout)["points"]}
    assert len(hashes) == 2
    plain = scenario_hash(load_scenario(GUARD), str(GUARD))  # no catalogue: as before
    assert plain == scenario_hash(load_scenario(GUARD))


def test_every_command_s_json_names_a_unit_by_id_and_label_alike(tmp_path: Path) -> None:
    # A rules writer's review: "unit" is the label in lab's and battle's JSON, the id in
    # sweep's and results' (a lab stored with --out is read back by results). "id" and
    # "label" now mean one thing in all four; "unit" stays as each wrote it. The lone
    # lascannon's unit: id "lascannon", label "Lascannon Team [lascannon]" (its
    # inline name and, in brackets, its id).
    lascannon = {"id": "lascannon", "label": "Lascannon Team [lascannon]"}
    out = tmp_path / "runs"

    def units(*args: str) -> list[dict[str, Any]]:
        result = CliRunner().invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.output
        document = json.loads(result.stdout)
        return document["units"] if "units" in document else document["points"][0]["units"]

    two = ["--runs", "2"]
    battle = units("battle", str(LASCANNON))
    lab = units("lab", str(LASCANNON), "--rule", "final_shot=off", *two, "--out", str(out))
    swept = units("sweep", str(LASCANNON), "--vary", "final_shot=off", *two)
    stored = units("results", str(out))
    for found in (battle, lab, swept, stored):
        assert {k: found[0][k] for k in ("id", "label")} == lascannon
    assert battle[0]["unit"] == lab[0]["unit"] == lascannon["label"]  # as they were
    assert swept[0]["unit"] == stored[0]["unit"] == lascannon["id"]


def test_a_choice_never_chosen_in_one_of_several_files_is_warned_of_for_that_file() -> None:
    # A rules writer's review: swept beside the horde, where the Guard take Suppressive
    # Fire, the Guard example (where no side ever does: docs/lab/README.md, study 1) got
    # no warning, the counts being pooled over both files. Each file's warning now
    # follows its own counts: one for a file whose points never chose it, none for one
    # whose points did, the file named.
    horde = EXAMPLES / "lab_suppressive_fire_horde.toml"
    args = ["sweep", str(GUARD), str(horde), "--vary", "suppressive_fire.ld_penalty_per_wound=1",
            "--runs", "4", "--json"]  # fmt: skip
    document = json.loads(CliRunner().invoke(app, args).stdout)
    counts = {
        p["source"]: next(c for c in p["rule_choices"] if c["choice"] == "action: suppressive fire")
        for p in document["points"]
    }
    assert counts[str(GUARD)]["offered"] > 0 and counts[str(GUARD)]["chosen"] == 0
    assert counts[str(horde)]["chosen"] > 0  # the horde's Guard took it
    offered = counts[str(GUARD)]["offered"]
    assert document["warnings"] == [
        f"warning: action: suppressive fire was offered {offered} times and chosen at no point "
        f"of {GUARD}; where it is what the rule offers, the rule never came into play"
    ]
