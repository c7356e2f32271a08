"""The rules lab: paired baseline/variant runs of the real engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.lab import arms, compare, paired_interval
from hammerlab.cli.app import app
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RUINS = EXAMPLES / "marines_vs_orks_ruins.toml"


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
