"""Python's cycle collector, run less often while battles are played.

A battle makes and drops a great many small objects (events, dice, the tuples
of positions), nearly none of them in reference cycles, so they are freed as
they are dropped; but the cycle collector runs whenever 700 more container
objects have been made than freed since it last ran, and every tenth and
hundredth time it looks at older objects too, the tables of answers by
position among them (:mod:`hammerlab.engine.transpositions`): in a sweep's
worker, the full collections alone took 83 µs a Guard battle (three of 55 ms
in 2,000 battles). With the first threshold at 20,000 they are rare, and the
collector takes 30 µs a battle in all; the battles took 4 to 5% less CPU
(``docs/scale.md``, thirteenth session). Cycles are still collected, in
larger rounds.

A batch of the lab's runners plays its battles in such a block (blocks nest), a run
played in this process plays all its batches in one, a worker process of the lab's
pool runs so for good (:func:`fewer_collections_for_good`), and each repetition of
``benchmarks/bench_throughput.py`` plays in one: a battle of a whole
game spent 7 to 8% of its CPU in the collector played with the default
thresholds, and 3% in such a block (``docs/scale.md``, the seventeenth session's
second round). A block per battle does not pay for short battles: the thresholds
put back at its end, the next allocation runs a collection over all the battle
made (a steady Guard battle took 3.7% more instructions so).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = 20_000
"""The collector's first threshold while battles are played (Python's default: 700)."""


class _Batches:
    """How many blocks of :func:`fewer_collections` are running, and the thresholds the
    first found (threads share them: the collector's thresholds are the process's)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inside = 0
        self.saved: tuple[int, int, int] | None = None


_batches = _Batches()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """A block that runs the cycle collector less often (:data:`BATCH_THRESHOLD`), the
    process's thresholds put back when the last such block ends (a Dask worker plays
    batches in several threads). A collector switched off (a threshold of 0) or
    already set higher is left as it is, and so is a threshold someone else set
    during the block."""
    with _batches.lock:
        if _batches.inside == 0:
            _batches.saved = gc.get_threshold()
            _raise_first_threshold()
        _batches.inside += 1
    try:
        yield
    finally:
        with _batches.lock:
            _batches.inside -= 1
            saved = _batches.saved
            if _batches.inside == 0 and saved is not None:
                if gc.get_threshold()[0] == BATCH_THRESHOLD:
                    gc.set_threshold(*saved)
                _batches.saved = None


def fewer_collections_for_good() -> None:
    """Run the cycle collector at :data:`BATCH_THRESHOLD` from now on, in a process that
    plays battles and nothing else: a worker of the lab's pool of local processes
    (:class:`~hammerlab.analysis.runners.Runner`, its initializer).

    A block of :func:`fewer_collections` per batch put Python's threshold back at each
    batch's end, so the next allocation collected all the batch had made, and every
    tenth and hundredth time the older generations too (the whole heap the worker
    inherited from the process that forked it among them): in issue 14's Guard run, 1.1
    s of each worker's 30 (322 young collections of 1.4 ms, 30 middle ones of 12 ms,
    3 full ones of 100 ms), 3.7% of its CPU (``docs/scale.md``, the nineteenth
    session). A collector switched off or set higher is left as it is."""
    _raise_first_threshold()


def _raise_first_threshold() -> None:
    """Set the collector's first threshold to :data:`BATCH_THRESHOLD`, unless it is off
    (0) or already as high."""
    first, *older = gc.get_threshold()
    if 0 < first < BATCH_THRESHOLD:
        gc.set_threshold(BATCH_THRESHOLD, *older)
