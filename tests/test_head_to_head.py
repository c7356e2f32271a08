"""examples/matchups/head_to_head.py: two versions of the heuristic, each on both sides."""

from __future__ import annotations

from pathlib import Path

from hammerlab.editions.waffle.ai import WaffleAI
from matchup_kit import load_script

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = ROOT / "examples" / "matchups"


def test_the_same_ai_on_both_sides_wins_as_often_as_it_loses() -> None:
    # The two battles of a seed roll the same dice; with the same AI in both
    # seats they are the same game, so the winning side is the "changed" AI in
    # one and the other AI in the other: as many wins each, and every battle
    # counted once (two per seed), by side too.
    head = load_script("head_to_head")
    tally = head.head_to_head(
        MATCHUPS / "carnifex_vs_guard.toml", [1, 2], lambda changed: WaffleAI(), ("new", "old")
    )
    assert tally["new"] == tally["old"]
    assert tally["new"] + tally["old"] + tally["draws"] == 4
    per_side = [n for key, n in tally.items() if ":" in key]
    assert sum(per_side) == 4
