"""examples/matchups/against_mirror.py: a player's results against the heuristic
mirror's on the same seeds (docs/ai.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from matchup_kit import load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "matchups" / "against_mirror.py"


def test_outcome_and_the_sign_test_by_hand() -> None:
    mirror = load_script("against_mirror")
    assert mirror.outcome("A", "A") == 1
    assert mirror.outcome(None, "B") == 0
    assert mirror.outcome("B", "A") == -1
    # Binomial(n, 1/2), both tails: 5 of 5 one way is 2 * 1/32; 3 against 1 is
    # 2 * (1 + 4) / 16; 2 against 2 is the whole distribution (capped at 1).
    assert mirror.sign_test(5, 0) == 2 / 32
    assert mirror.sign_test(1, 3) == 2 * 5 / 16
    assert mirror.sign_test(2, 2) == 1.0
    assert mirror.sign_test(0, 0) == 1.0


def test_each_game_against_the_heuristic_is_counted_once(tmp_path: Path) -> None:
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    games = [
        {
            "scenario": "A Carnifex against a Guard platoon",
            "seed": 1,
            "sides": {"Tyranids": "search", "Cadians": "heuristic"},
            "scores": {"Tyranids": 0, "Cadians": 0},
            "winner": None,
        },
        {  # not against the heuristic: left out
            "scenario": "A Carnifex against a Guard platoon",
            "seed": 1,
            "sides": {"Tyranids": "search", "Cadians": "random"},
            "scores": {"Tyranids": 1, "Cadians": 0},
            "winner": "search",
        },
    ]
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"games": games}), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(report), "search", "--scenarios", str(scenario)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[1:-1]
    assert len(rows) == 1  # the one scenario and side played against the heuristic
    assert sum(int(n) for n in rows[0].split(" | ")[4:]) == 1  # better + the same + worse


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, check=False
    )


def test_a_game_won_by_sudden_death_counts_as_won_whatever_the_scores(tmp_path: Path) -> None:
    # The search's Tyranids scored more but were wiped out: the heuristic's Cadians won
    # (7th edition's Sudden Death, the report's "winner"). Read off the scores, as the
    # script did until the twenty-seventh session, it was a win for the search.
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    game = {
        "scenario": "A Carnifex against a Guard platoon",
        "seed": 1,
        "sides": {"Tyranids": "search", "Cadians": "heuristic"},
        "scores": {"Tyranids": 5, "Cadians": 1},
        "winner": "heuristic",
        "wiped_out": ["Tyranids"],
    }
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"games": [game]}), encoding="utf-8")
    done = _run(str(report), "search", "--scenarios", str(scenario))
    assert done.returncode == 0, done.stderr
    row = done.stdout.splitlines()[1].split(" | ")
    assert row[:2] == ["A Carnifex against a Guard platoon", "Tyranids"]
    assert row[3] == "0"  # the player won no game


def test_several_reports_are_read_as_one_sample(tmp_path: Path) -> None:
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    reports = []
    for seed in (1, 2):
        game = {
            "scenario": "A Carnifex against a Guard platoon",
            "seed": seed,
            "sides": {"Tyranids": "heuristic", "Cadians": "search"},
            "scores": {"Tyranids": 0, "Cadians": 2},
            "winner": "search",
        }
        report = tmp_path / f"report{seed}.json"
        report.write_text(json.dumps({"games": [game]}), encoding="utf-8")
        reports.append(str(report))
    done = _run(*reports, "search", "--scenarios", str(scenario))
    assert done.returncode == 0, done.stderr
    row = done.stdout.splitlines()[1].split(" | ")
    assert row[1] == "Cadians" and row[3] == "2"  # both games, both won
    assert sum(int(n) for n in row[4:]) == 2  # better + the same + worse


def test_a_report_naming_an_unknown_scenario_is_refused(tmp_path: Path) -> None:
    game = {
        "scenario": "No such scenario",
        "seed": 1,
        "sides": {"A": "search", "B": "heuristic"},
        "scores": {"A": 0, "B": 0},
        "winner": None,
    }
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"games": [game]}), encoding="utf-8")
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(report), "search", "--scenarios", str(scenario)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0 and "No such scenario" in done.stderr
    assert "Traceback" not in done.stderr
