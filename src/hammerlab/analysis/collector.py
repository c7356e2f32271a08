"""Python's cycle collector, run less often while a batch of battles is played.

A battle makes and drops hundreds of thousands of small objects (events, dice,
the tuples of positions), nearly none of them in reference cycles, so they are
freed as they are dropped; but the cycle collector runs whenever 700 more have
been made than freed since it last ran, and then looks at every young object,
and every tenth time at older ones, the tables of answers by position included
(:mod:`hammerlab.engine.transpositions`). Measured on 500 Guard battles at
once, alternated in one process (``docs/scale.md``): a tenth of those runs,
with the first threshold at 20,000, is 4 to 5% less CPU. Cycles are still
collected, only in larger rounds.
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
            first, *older = _batches.saved
            if 0 < first < BATCH_THRESHOLD:
                gc.set_threshold(BATCH_THRESHOLD, *older)
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
