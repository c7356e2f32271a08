"""How throughput grows from 1 to 2 workers, on a local Dask cluster of processes.

Plays the same sweep (Suppressive Fire's penalty 0..3 on the Guard example)
on a cluster of 1 worker, then of 2 (one thread each), ``WORKER_PAIRS``
times in turn, and prints the median battles per second of each and the
median of the pairs' ratios, then every pair; the 1-worker figure is the
same-run reference. Each timed sweep is 1,000 battles (10 to 20 s of wall
clock): with 160 the batches' tail and the scheduler's start took a large
share of a sweep of one or two seconds, and the ratio moved from 1.6x to 2x
between runs. Pairs taken in turn see the box's slow spells alike. It also
checks that every run gave the same battles. Each cluster is started, and
each worker has played a warm-up battle (imports, compiled kernels), before
the clock starts: what is timed is the playing.
Last, issue 14's run itself, played outright as the ``sweep`` command plays it
(10,000 paired runs of the Guard example, Suppressive Fire off and on), on a
local pool of two processes (``--workers 2``), then on one (``--workers 1``, the
same-run reference): the two-worker wall clock against the target of 30 s, the
CPU it took, beside the estimate from one battle's CPU time, and the ratio of
the two runs against the target of 1.8x "on that run". The Dask pairs read a
lower ratio than the run does because each of their sweeps is short: every worker
fills its own tables of answers by position (:mod:`engine.transpositions`), and a
worker's first few hundred battles cost about half as much again as later ones,
so two workers pay that start twice in 1,000 battles, and once in 20,000 barely.
(With both clusters kept up at once, the 1-worker one played 42 to 47
battles a second against about 100 alone, on this 2-core box, so each sweep
starts a cluster of its own.)
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from distributed import LocalCluster

from hammerlab.analysis.lab import play_once
from hammerlab.analysis.runners import DaskRunner, Runner
from hammerlab.analysis.sweep import sweep
from hammerlab.analysis.sweep_grid import cases, parse_axes
from hammerlab.analysis.sweep_results import PointResult
from hammerlab.editions.waffle.ai import ANSWERS
from hammerlab.engine.transpositions import forget_all
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "guard_suppress_terminators.toml"
RUNS = 250
"""Battles per grid point (4 points): 1,000 battles a timed sweep."""


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
        sweep(grid_cases, workers, 1, runner)  # warm-up: every worker imports and compiles first
        start = time.perf_counter()
        results = sweep(grid_cases, RUNS, 1, runner)
        elapsed = time.perf_counter() - start
    return RUNS * len(grid_cases) / elapsed, results


WORKER_PAIRS = 3
"""Pairs of timed sweeps (1 worker, then 2), each on clusters of its own."""

PAIRED_RUNS = 10_000
"""Issue 14's target: 10,000 paired runs of the Guard example in <= 30 s on 2 cores."""
SAMPLE = 200
"""Battles of one repetition: a sweep's first ones (the tables of answers by position,
:mod:`engine.transpositions`, start empty in each, as in a fresh worker, and fill as
a sweep of 10,000 would in its first battles)."""
REPEATS = 3


def cpu_per_battle() -> tuple[float, float]:
    """Median CPU seconds of one battle of the Guard example (``SAMPLE`` seeds of its
    own for each repetition, in process, the tables of answers emptied first), and the
    share of the AI's decisions answered from the table."""
    scenario = load_scenario(SCENARIO)
    play_once(scenario, str(SCENARIO), {}, 0)  # warm up: imports, compiled kernels
    times, found = [], []
    for repetition in range(REPEATS):
        forget_all()
        first = 1 + repetition * SAMPLE
        start = time.process_time()
        for seed in range(first, first + SAMPLE):
            play_once(scenario, str(SCENARIO), {}, seed)
        times.append((time.process_time() - start) / SAMPLE)
        found.append(ANSWERS.found / max(1, ANSWERS.asked))
    return statistics.median(times), statistics.median(found)


def main() -> None:
    """Time 1 and 2 workers in turn; print both rates and the speed-up, then the
    estimate of 10,000 paired runs on 2 cores from the CPU time of one battle."""
    ones, twos, seen = [], [], []
    for _ in range(WORKER_PAIRS):
        for workers, rates in ((1, ones), (2, twos)):
            rate, results = timed(workers)
            rates.append(rate)
            seen.append(results)
    one, two = statistics.median(ones), statistics.median(twos)
    ratios = [b / a for a, b in zip(ones, twos, strict=True)]
    ratio = statistics.median(ratios)
    print(f"CPUs on this machine: {os.cpu_count()}")
    print(f"1 worker : {one:6.1f} battles/s (reference, wall clock; median of {len(ones)})")
    print(f"2 workers: {two:6.1f} battles/s (median of {len(twos)}, in turn with 1 worker)")
    print(
        f"ratio    : {ratio:.2f}x (target >= 1.8x; median of {len(ratios)} pairs, "
        f"{min(ratios):.2f}x to {max(ratios):.2f}x)"
    )
    for number, (a, b) in enumerate(zip(ones, twos, strict=True), 1):
        print(f"  pair {number}: {a:6.1f} -> {b:6.1f} battles/s, {b / a:.2f}x")
    print(f"same battles: {all(r == seen[0] for r in seen)}")
    each, found = cpu_per_battle()
    ideal = 2 * PAIRED_RUNS * each / 2
    print(
        f"{PAIRED_RUNS:,} paired runs of {SCENARIO.name}: {each * 1e3:.1f} ms CPU per battle "
        f"({SAMPLE} battles from an empty table of answers, {found:.0%} of the AI's "
        f"decisions found in it), so {ideal:.0f} s on 2 cores at 2x, "
        f"{ideal * 2 / ratio:.0f} s at the measured {ratio:.2f}x (target <= 30 s)"
    )
    wall, used, results = outright(2)
    print(
        f"played outright ({len(results)} points x {PAIRED_RUNS:,} runs, 2 workers): "
        f"{wall:.1f} s wall clock (target <= 30 s), {used:.1f} s CPU, "
        f"{used / (len(results) * PAIRED_RUNS) * 1e3:.2f} ms CPU a battle"
    )
    alone, used_alone, same = outright(1)
    print(
        f"the same run on 1 worker (reference): {alone:.1f} s wall clock, {used_alone:.1f} s "
        f"CPU; 2 workers {alone / wall:.2f}x as fast on that run (target >= 1.8x); "
        f"same battles: {same == results}"
    )


def outright(workers: int = 2) -> tuple[float, float, list[PointResult]]:
    """Issue 14's run played outright, as ``hammerlab sweep SCENARIO --vary
    suppressive_fire=off,on --runs 10000 --workers N`` plays it (with 2, a local pool
    of two processes, started inside the clock as the command starts it; with 1, in
    this process): its wall-clock seconds, the CPU seconds of this process and the
    workers, and the results."""
    grid_cases = cases(
        [(load_scenario(SCENARIO), str(SCENARIO))], parse_axes(["suppressive_fire=off,on"])
    )
    forget_all()  # a one-worker run starts with empty tables, as a fresh worker does
    before = os.times()
    start = time.perf_counter()
    with Runner(workers) as runner:
        results = sweep(grid_cases, PAIRED_RUNS, 1, runner)
    wall = time.perf_counter() - start
    after = os.times()
    used = sum(after[:4]) - sum(before[:4])  # user and system, here and in the workers
    return wall, used, results


if __name__ == "__main__":
    main()
