"""examples/matchups/value_predicts.py: which of the search's two values tells the
winner of a game in progress better (docs/ai.md, "Losses measured as a share of
each army")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from matchup_kit import load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "matchups" / "value_predicts.py"


def test_ranked_above_by_hand() -> None:
    predicts = load_script("value_predicts")
    # Won 3 and 1 against lost 2 and 0: of the four pairs, 3>2, 3>0, 1>0 win and
    # 1<2 loses: 3/4. A tie counts half; values that tell nothing give 1/2.
    assert predicts.ranked_above([3.0, 1.0], [2.0, 0.0]) == 3 / 4
    assert predicts.ranked_above([1.0], [1.0]) == 1 / 2
    assert predicts.ranked_above([0.0, 1.0], [0.0, 1.0]) == 1 / 2
    assert predicts.ranked_above([5.0], [1.0, 2.0]) == 1.0


def test_it_values_the_first_player_turns_of_a_mirror() -> None:
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(scenario), "--games", "8"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    lines = run.stdout.splitlines()
    assert lines[0] == "carnifex_vs_guard"
    turns = [line for line in lines[1:] if line.startswith("  after player turn")]
    assert turns and all("points" in line and "share" in line for line in turns)
