"""How fast the Waffle engine plays each example scenario, whole.

Prints battles per second for each example and the ratio to a reference
measured in the same run: setting the same battle up without playing it.
"""

from __future__ import annotations

import time
from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
RUNS = 20


def main() -> None:
    """Time every Waffle example."""
    for path in sorted((ROOT / "examples").glob("*.toml")):
        scenario = load_scenario(path)
        if scenario.ruleset != "waffle":
            continue
        start = time.perf_counter()
        for seed in range(RUNS):
            prepare(scenario, str(path), seed)
        setup = (time.perf_counter() - start) / RUNS
        start = time.perf_counter()
        for seed in range(RUNS):
            ready = prepare(scenario, str(path), seed)
            play(ready.battle, ready.ruleset, ready.plan)
        full = (time.perf_counter() - start) / RUNS
        print(
            f"{path.name:40s} {1 / full:8.1f} battles/s  "
            f"play/setup ratio {full / setup:6.1f}"
        )


if __name__ == "__main__":
    main()
