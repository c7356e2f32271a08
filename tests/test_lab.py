"""The rules lab: paired baseline/variant runs of the real engine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.lab import arms, compare, paired_interval, play_once
from hammerlab.analysis.runners import Batch, Done, Runner
from hammerlab.analysis.store import ResultStore
from hammerlab.analysis.sweep import SweepError
from hammerlab.cli.app import app
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RUINS = EXAMPLES / "marines_vs_orks_ruins.toml"
GUARD = EXAMPLES / "guard_suppress_terminators.toml"


def test_paired_interval_by_hand() -> None:
    # Differences 1, 2, 3: mean 2, sample sd 1, half-width 1.959964 / sqrt(3) = 1.1316.
    mean, low, high = paired_interval([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert low == pytest.approx(2.0 - 1.131586, abs=1e-5)
    assert high == pytest.approx(2.0 + 1.131586, abs=1e-5)


def test_a_rule_that_cannot_act_changes_nothing_with_common_random_numbers() -> None:
    # Fiery Charge only acts in the assault phase; the ruins scenario plays the
    # shooting phase only, so with the same seeds both arms play identical battles.
    spec = load_scenario(RUINS)
    report = compare(spec, str(RUINS), arms(spec, ["fiery_charge"]), runs=6)
    for unit in report.units:
        assert unit.difference == 0.0
        assert unit.ci95 == (0.0, 0.0)
        assert unit.baseline_mean == unit.variant_mean
    assert report.baseline_wins == report.variant_wins
    assert sum(report.baseline_wins.values()) == pytest.approx(1.0)
    assert report.ended_alike == 6


def test_the_battles_that_ended_alike_are_counted_seed_by_seed() -> None:
    # Each seed played in both arms on its own (play_once), compared here: the
    # report counts the seeds whose models left and winner agree.
    spec = load_scenario(GUARD)
    experiment = arms(spec, ["suppressive_fire"])
    report = compare(spec, str(GUARD), experiment, runs=8)
    pairs = [
        (play_once(spec, str(GUARD), experiment.baseline, seed),
         play_once(spec, str(GUARD), experiment.variant, seed))
        for seed in range(1, 9)
    ]  # fmt: skip
    alike = [b.models_left == v.models_left and b.winner == v.winner for b, v in pairs]
    assert report.ended_alike == sum(alike)
    assert report.to_dict()["paired_battles_ended_alike"] == sum(alike)


def test_cli_lab_says_when_the_change_made_no_difference() -> None:
    args = ["lab", str(RUINS), "--rule", "fiery_charge", "--runs", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "ended alike (every unit's models left, and the winner): 3 of 3." in text
    assert "made no difference to any of them" in text


def test_workers_give_the_same_report_as_one_process() -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    one = compare(spec, str(RUINS), experiment, runs=4)
    two = compare(spec, str(RUINS), experiment, runs=4, workers=2)
    assert one == two


def test_cli_lab_json_and_plot(tmp_path: Path) -> None:
    chart = tmp_path / "lab.png"
    result = CliRunner().invoke(
        app,
        [
            "lab",
            str(RUINS),
            "--rule",
            "suppressive_fire",
            "--runs",
            "3",
            "--json",
            "--plot",
            str(chart),
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["runs"] == 3 and report["rule"] == "suppressive_fire"
    assert {u["unit"] for u in report["units"]} >= {"Tactical Squad [tactical]"}
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_lab_unknown_rule_is_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["lab", str(RUINS), "--rule", "no_such_rule", "--runs", "2"])
    assert result.exit_code == 2  # a usage error, as the issue asks: never silently "off"
    assert result.stderr.strip().startswith("error: --rule: unknown rule or parameter")
    assert len(result.stderr.strip().splitlines()) == 1


class _NothingToPlay(Runner):
    """A runner that fails if asked to play any battle (a resume must read them all)."""

    def run(self, batches: Sequence[Batch], done: Done) -> None:
        assert not batches


def test_lab_out_stores_both_arms_and_resume_reads_them_back(tmp_path: Path) -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    plain = compare(spec, str(RUINS), experiment, runs=4)
    with ResultStore(tmp_path / "store") as store:
        stored = compare(spec, str(RUINS), experiment, runs=4, store=store)
    assert stored == plain
    with ResultStore(tmp_path / "store") as store:
        # Seeds 1..4 in both arms: 8 battles.
        with pytest.raises(
            SweepError, match=r"already holds 8 of the battles .* \(seeds 1\.\.4, at 2 of 2"
        ):
            compare(spec, str(RUINS), experiment, runs=4, store=store)
        again = compare(
            spec, str(RUINS), experiment, runs=4, store=store, resume=True,
            runner=_NothingToPlay(1),
        )  # fmt: skip
    assert again == plain


def test_lab_with_keyed_dice_says_so_and_stores_them_apart(tmp_path: Path) -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    with ResultStore(tmp_path / "store") as store:
        compare(spec, str(RUINS), experiment, runs=3, store=store)
        keyed = compare(spec, str(RUINS), experiment, runs=3, store=store, dice="keyed")
    assert keyed.dice == "keyed" and keyed.to_dict()["dice"] == "keyed"


def test_cli_lab_out_resume_and_dice_flags(tmp_path: Path) -> None:
    base = ["lab", str(RUINS), "--rule", "suppressive_fire", "--runs", "3", "--json"]
    out = ["--out", str(tmp_path / "store")]
    first = CliRunner().invoke(app, [*base, *out])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(app, [*base, *out, "--resume"])
    assert again.exit_code == 0, again.output
    played, reused = json.loads(first.stdout), json.loads(again.stdout)
    # 3 seeds in 2 arms: 6 battles, played the first time and read back the second.
    assert (played.pop("store")["played"], reused.pop("store")["reused"]) == (6, 6)
    assert reused == played
    assert "store" not in json.loads(CliRunner().invoke(app, base).stdout)
    refused = CliRunner().invoke(app, [*base, *out])
    assert refused.exit_code == 2 and "give --resume" in refused.stderr
    for flags, message in (
        (["--resume"], "--resume: needs --out DIR"),
        (["--dice", "loaded"], "--dice: must be single or keyed"),
        (["--dice", "keyed", "--ai", "search"], "--dice: keyed dice are for the heuristic AI"),
    ):
        result = CliRunner().invoke(app, [*base, *flags])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().startswith(f"error: {message}"), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_lab_on_a_dask_local_cluster_gives_the_same_report() -> None:
    from distributed import LocalCluster

    from hammerlab.analysis.runners import DaskRunner

    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    here = compare(spec, str(RUINS), experiment, runs=4)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        DaskRunner(cluster.scheduler_address) as dask,
    ):  # fmt: skip
        there = compare(spec, str(RUINS), experiment, runs=4, runner=dask)
    assert there == here
