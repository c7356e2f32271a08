"""How throughput grows from 1 to 2 workers, on a local Dask cluster of processes.

Plays the same sweep (Suppressive Fire's penalty 0..3 on the Guard example)
on a cluster of 1 worker, then of 2 (one thread each), and prints battles per
second for each and their ratio; the 1-worker figure is the same-run
reference. It also checks that both runs gave the same battles. The clusters
are started before the clock starts: what is timed is the playing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from distributed import LocalCluster

from hammerlab.analysis.runners import DaskRunner
from hammerlab.analysis.sweep import PointResult, cases, parse_axes, sweep
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "guard_suppress_terminators.toml"
RUNS = 40
"""Battles per grid point (4 points)."""


def timed(workers: int) -> tuple[float, list[PointResult]]:
    """Battles per second on a local cluster of ``workers`` processes, and the results."""
    grid_cases = cases(
        [(load_scenario(SCENARIO), str(SCENARIO))],
        parse_axes(["suppressive_fire.ld_penalty_per_wound=0,1,2,3"]),
    )
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        DaskRunner(cluster.scheduler_address) as runner,
    ):
        start = time.perf_counter()
        results = sweep(grid_cases, RUNS, 1, runner)
        elapsed = time.perf_counter() - start
    return RUNS * len(grid_cases) / elapsed, results


def main() -> None:
    """Time 1 and 2 workers; print both rates and the speed-up."""
    one, first = timed(1)
    two, second = timed(2)
    print(f"CPUs on this machine: {os.cpu_count()}")
    print(f"1 worker : {one:6.1f} battles/s (reference)")
    print(f"2 workers: {two:6.1f} battles/s")
    print(f"ratio    : {two / one:.2f}x")
    print(f"same battles: {first == second}")


if __name__ == "__main__":
    main()
