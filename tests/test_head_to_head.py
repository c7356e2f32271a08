"""examples/matchups/head_to_head.py: two versions of the heuristic, each on both sides."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from hammerlab.editions.waffle.ai import WaffleAI

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = ROOT / "examples" / "matchups"


def _module() -> ModuleType:
    sys.path.insert(0, str(MATCHUPS))  # as when the script runs beside its neighbours
    try:
        spec = importlib.util.spec_from_file_location("head_to_head", MATCHUPS / "head_to_head.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(MATCHUPS))
    return module


def test_the_same_ai_on_both_sides_wins_as_often_as_it_loses() -> None:
    # The two battles of a seed roll the same dice; with the same AI in both
    # seats they are the same game, so the winning side is the "changed" AI in
    # one and the other AI in the other: as many wins each, and every battle
    # counted once (two per seed), by side too.
    head = _module()
    tally = head.head_to_head(
        MATCHUPS / "carnifex_vs_guard.toml", [1, 2], lambda changed: WaffleAI(), ("new", "old")
    )
    assert tally["new"] == tally["old"]
    assert tally["new"] + tally["old"] + tally["draws"] == 4
    per_side = [n for key, n in tally.items() if ":" in key]
    assert sum(per_side) == 4
