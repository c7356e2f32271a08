"""The casualty step of the exact odds, compiled (numba).

:func:`hammerlab.editions.distributions.casualties` states the dynamic
programme; this module runs it as a compiled loop, the same arithmetic in the
same order as numpy's vectorised form (sums of a row are numpy's pairwise
summation), so every probability is the same float, to the last bit, as the
vectorised code gave: the AI's choices, which read these odds, and so every
log, stay the same. Compiled once per machine and cached on disk
(``cache=True``), so a fresh process loads it instead of compiling again.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

Vector = npt.NDArray[np.float64]
Table = npt.NDArray[np.float64]

_UNROLL = 8
"""numpy's pairwise summation adds blocks of up to 128 values through eight
running sums (``pairwise_sum`` in numpy's ``loops_utils.h``)."""
_BLOCK = 128

COMPILED_WOUNDS = _BLOCK
"""The kernel sums rows of ``wounds + 1`` values within one block; numpy
splits longer ones recursively, which numba cannot cache, so models of this
many wounds or more take the vectorised form."""


@njit(cache=True)
def pairwise_sum(values: Vector, start: int, stop: int) -> float:
    """``values[start:stop].sum()`` exactly as numpy adds it."""
    n = stop - start
    if n < _UNROLL:
        total: float = 0.0
        for i in range(start, stop):
            total += values[i]
        return total
    if n <= _BLOCK:
        r0: float = values[start]
        r1 = values[start + 1]
        r2 = values[start + 2]
        r3 = values[start + 3]
        r4 = values[start + 4]
        r5 = values[start + 5]
        r6 = values[start + 6]
        r7 = values[start + 7]
        i = start + _UNROLL
        last = start + n - n % _UNROLL
        while i < last:
            r0 += values[i]
            r1 += values[i + 1]
            r2 += values[i + 2]
            r3 += values[i + 3]
            r4 += values[i + 4]
            r5 += values[i + 5]
            r6 += values[i + 6]
            r7 += values[i + 7]
            i += _UNROLL
        total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < stop:
            total += values[i]
            i += 1
        return total
    raise ValueError("a row longer than one block: use the vectorised casualties")


@njit(cache=True)
def casualty_kernel(
    unsaved: Vector, damage: Vector, wounds: int, models: int
) -> tuple[Vector, Vector]:
    """Models destroyed and wounds lost; see
    :func:`hammerlab.editions.distributions.casualty_odds`."""
    state = np.zeros((models + 1, wounds + 1))
    state[0, wounds] = 1.0
    killed = np.zeros(models + 1)
    lost = np.zeros(models * wounds + 1)
    moved = np.zeros((models + 1, wounds + 1))
    for p in unsaved:
        for d in range(models + 1):
            killed[d] += p * pairwise_sum(state[d], 0, wounds + 1)
        for d in range(models):
            for w in range(1, wounds + 1):
                lost[d * wounds + wounds - w] += p * state[d, w]
        lost[models * wounds] += p * state[models, 0]
        moved[:, :] = 0.0
        moved[models] = state[models]
        for amount in range(damage.shape[0]):
            q = damage[amount]
            if q == 0.0:
                continue
            if amount == 0:
                for d in range(models):
                    for w in range(wounds + 1):
                        moved[d, w] += q * state[d, w]
                continue
            if amount < wounds:
                for d in range(models):
                    for w in range(1, wounds - amount + 1):
                        moved[d, w] += q * state[d, w + amount]
            top = min(amount + 1, wounds + 1)
            for d in range(models):
                dies = q * pairwise_sum(state[d], 1, top)
                if d < models - 1:
                    moved[d + 1, wounds] += dies
                else:
                    moved[models, 0] += dies
        state, moved = moved, state
    return killed, lost
