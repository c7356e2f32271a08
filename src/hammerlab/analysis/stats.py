"""Estimates with 95% intervals: a mean (normal approximation) and a proportion (Wilson).

The sweep, the results store, the balance solver and the rules lab share them,
so a figure read back from the store is the figure the sweep reported, and the
lab's win rates are computed as the sweep's are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, stdev

Z_95 = 1.959964
"""Two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval and the number of battles behind it."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def width(self) -> float:
        """The interval's width (what ``--precision`` bounds)."""
        return self.high - self.low

    def within(self, lowest: float, highest: float) -> Estimate:
        """The interval cut to what the quantity can be (``lowest``..``highest``).

        A count's normal interval can reach below zero (1.50 models left from
        battles ending at 0 or 6 gives -1.44..4.44); the mean itself lies in the
        count's range, so the part of the interval outside it says nothing and
        is dropped.
        """
        return Estimate(self.mean, max(lowest, self.low), min(highest, self.high), self.n)

    def to_dict(self) -> dict[str, float | int | list[float]]:
        """Plain data for JSON."""
        return {"mean": self.mean, "ci95": [self.low, self.high], "n": self.n}


def mean_interval(values: Sequence[float]) -> Estimate:
    """Sample mean and its 95% normal-approximation interval (zero width below 2 values)."""
    mean = fmean(values)
    if len(values) < 2:
        return Estimate(mean, mean, mean, len(values))
    half = Z_95 * stdev(values) / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half, len(values))


def wilson_interval(successes: int, n: int) -> Estimate:
    """A proportion and its 95% Wilson score interval.

    Wilson rather than the normal approximation because win rates near 0 or 1
    are common, where the normal interval collapses to a point.
    """
    p = successes / n
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # At p = 0 or 1 one bound equals p exactly in arithmetic; rounding must not put
    # it on the wrong side (a report's error bar would be negative).
    return Estimate(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n)
