"""CPU milliseconds of one steady-state battle of the Guard example (issue 14).

Plays ``examples/guard_suppress_terminators.toml`` ``WARM`` times (seeds 1..WARM)
so that the tables of answers by position fill as in a long sweep, then times
``N`` more battles (the next seeds) on the CPU clock. Compare two trees by
running each in turn on the same box: single readings move by a few percent.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/guard_steady.py [WARM N]``
(default 1000 2000).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from hammerlab.analysis.lab import play_once
from hammerlab.io.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"


def main() -> None:
    """Warm up, then print the mean CPU time of one battle."""
    warm, n = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (1000, 2000)
    scenario = load_scenario(SCENARIO)
    for seed in range(1, warm + 1):
        play_once(scenario, str(SCENARIO), {}, seed)
    start = time.process_time()
    for seed in range(warm + 1, warm + n + 1):
        play_once(scenario, str(SCENARIO), {}, seed)
    print(f"{(time.process_time() - start) / n * 1e3:.3f} ms CPU a battle ({n} after {warm})")


if __name__ == "__main__":
    main()
