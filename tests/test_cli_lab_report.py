"""``hammerlab lab --report FILE.html`` (a user review, session 20: only the web lab
offered the paired comparison as a page): the web lab's self-contained page, its
name checked before playing as ``sweep --report``'s is, written only at the end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_kit import one_line, run

ROOT = Path(__file__).resolve().parents[1]
LASCANNON = ROOT / "examples" / "lab_final_shot_lone_lascannon.toml"
LAB = ["lab", str(LASCANNON), "--rule", "final_shot", "--runs", "6"]


def _percent(rate: float) -> str:
    """A rate as the page writes it: whole percent."""
    return f"{rate:.0%}"


def test_the_report_is_self_contained_and_holds_the_run_s_numbers(tmp_path: Path) -> None:
    page_path = tmp_path / "lab.html"
    code, out, err = run(*LAB, "--report", str(page_path), "--json")
    assert code == 0, err
    document = json.loads(out)  # the page's path is said on standard error, not in the JSON
    assert err == f"report written to {page_path}\n"
    page = page_path.read_text(encoding="utf-8")
    # Self-contained: no script, nothing fetched (the SVG namespace is a name, not a fetch).
    assert "<script" not in page.lower()
    assert not re.search(r"https?://", page.replace("http://www.w3.org/2000/svg", ""))
    assert not re.search(r"\b(src|href)\s*=", page)
    text = re.sub(r"<[^>]+>", " ", page)
    assert document["scenario"] in text and "seeds 1..6" in text
    for unit in document["units"]:
        low, high = unit["ci95"]
        alike = ", all alike" if unit.get("alike") else ""  # every pair's difference the same
        cells = [
            unit["unit"],
            unit["player"],
            str(unit["models_fielded"]),  # its casualties = 4: it fields 1 of 5
            f"{unit['baseline_mean_models_left']:.2f}",
            f"{unit['variant_mean_models_left']:.2f}",
            f"{unit['difference']:+.2f} [{low:+.2f}, {high:+.2f}{alike}]".replace("-0.00", "+0.00"),
        ]
        row = "".join(f"<td>{c}</td>" for c in cells)
        assert row in page, row
    for rate in document["win_rates"]:
        baseline, variant = rate["baseline"], rate["variant"]
        for arm in (baseline, variant):
            low, high = arm["ci95"]
            assert f"{_percent(arm['mean'])} [{_percent(low)}, {_percent(high)}]" in page
    alike = "ended alike</b> (every unit's models left, and the winner): "
    assert f"{alike}{document['paired_battles_ended_alike']} of 6." in page


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("nowhere/lab.html", "no such folder"),
        ("lab.png", "the report is a web page; name it .html"),
    ],
)
def test_a_report_name_is_checked_before_playing(tmp_path: Path, name: str, problem: str) -> None:
    page = tmp_path / name
    code, out, err = run(*LAB, "--report", str(page))
    line = one_line(code, err, 2)
    assert line.startswith(f"error: --report: {page}") and problem in line, line
    assert out == "" and not page.exists()


def test_a_report_over_the_scenario_or_the_chart_is_refused(tmp_path: Path) -> None:
    scenario = tmp_path / "lab.html"
    scenario.write_bytes(LASCANNON.read_bytes())
    code, _, err = run("lab", str(scenario), "--rule", "final_shot", "--report", str(scenario))
    assert one_line(code, err, 2) == (
        f"error: --report: {scenario} is a file this run reads; give another"
    )
    assert scenario.read_bytes() == LASCANNON.read_bytes()
    both = tmp_path / "out.html"
    code, _, err = run(*LAB, "--plot", str(both), "--report", str(both))
    assert one_line(code, err, 2) == f"error: --report: {both} is the --plot file too; give another"


def test_a_ctrl_c_leaves_no_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("hammerlab.analysis.runners.play_once", stopped)
    page = tmp_path / "lab.html"
    code, _, err = run(*LAB, "--report", str(page))
    assert code == 130 and err.startswith("interrupted: nothing was saved")
    assert list(tmp_path.iterdir()) == []
