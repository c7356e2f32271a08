"""Steady Guard battles under callgrind: the instructions they take, not their time.

On the shared 2-core box a steady battle's CPU time (``guard_steady.py``) moves by
several percent from run to run with what the other core runs, more than most
single changes gain. The instructions executed do not: the same code, seeds and
hash seed count the same to a few instructions. This plays ``WARM`` battles of
``examples/guard_suppress_terminators.toml`` without counting (the tables of
answers by position fill), then switches callgrind's counting on for ``N`` more
(the next seeds) and off again; callgrind prints the count ("I refs") at exit. The
battles are played as a run's workers play them: in batches of ``runners.MAX_BATCH``
seeds, each batch's battle set up once (``lab.unplayed``; before the twenty-fifth
session every battle was prepared anew, docs/scale.md), in a block of
:func:`~hammerlab.engine.collector.fewer_collections` as a worker plays, and the
cycle collector run once before counting starts. Before the twenty-fifth session
the battles were played with the collector's default thresholds and its last round
wherever the warm battles had left it: a full collection (over the tables of
answers the warm battles filled) falling inside the counted battles or not moved a
count by some 6% between two trees that differed in nothing the battles do.

Run (about 45 s for 500 and 100)::

    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/guard.cg .venv/bin/python \\
        benchmarks/guard_instructions.py 500 100

A third argument names another example to play the same way: whole three-turn battles,
where the Waffle AI's estimates weigh most (``... guard_instructions.py 2 6
whole_game_three_turns.toml``, about 40 s).

An instruction is not a nanosecond (a digest's tight loop runs many a cycle, a
dictionary miss few): compare trees with it, then confirm with the clock.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from hammerlab.analysis.lab import play_once, unplayed
from hammerlab.analysis.runners import MAX_BATCH
from hammerlab.engine.collector import fewer_collections
from hammerlab.io.scenario import Scenario, load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def counting(on: bool) -> None:
    """Switch callgrind's counting of this process on or off."""
    switch = ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())]
    subprocess.run(switch, check=True, capture_output=True)


def main() -> None:
    """Warm up uncounted, then play the counted battles."""
    warm, n = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (500, 100)
    path = EXAMPLES / (sys.argv[3] if len(sys.argv) > 3 else "guard_suppress_terminators.toml")
    scenario = load_scenario(path)
    with fewer_collections():
        played(scenario, str(path), range(1, warm + 1))
        gc.collect()
        counting(True)
        played(scenario, str(path), range(warm + 1, warm + n + 1))
        counting(False)


def played(scenario: Scenario, source: str, seeds: range) -> None:
    """Play ``seeds`` as a run's workers do (``runners.play_batch``): in batches of
    ``MAX_BATCH``, each set up once (``lab.unplayed``) and each seed's battle made
    from it."""
    for first in range(0, len(seeds), MAX_BATCH):
        template = unplayed(scenario, source, {})
        for seed in seeds[first : first + MAX_BATCH]:
            play_once(scenario, source, {}, seed, template=template)


if __name__ == "__main__":
    main()
