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
    assert mirror.outcome({"A": 2, "B": 1}, "A") == 1
    assert mirror.outcome({"A": 1, "B": 1}, "B") == 0
    assert mirror.outcome({"A": 0, "B": 3}, "A") == -1
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
    last = done.stdout.splitlines()[-1]
    counts = [int(word) for word in last.replace(",", " ").split() if word.isdigit()]
    assert sum(counts) == 1  # better + the same + worse: the one game against the heuristic


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
