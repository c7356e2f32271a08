"""Estimates with 95% intervals: a mean (normal approximation) and a proportion (Wilson).

The sweep, the results store, the balance solver and the rules lab share them,
so a figure read back from the store is the figure the sweep reported, and the
lab's win rates are computed as the sweep's are.

Every mean here is of a bounded quantity (models left, 0 to those fielded; a
paired difference of them; a win indicator), which :func:`mean_interval` is
told. Where every battle gave the same value, the normal interval has zero
width, a certainty no number of battles gives: the interval is then a bound from
the chance that a battle would end otherwise (:func:`mean_interval`), and the
estimate says it was :attr:`Estimate.alike`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
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
    alike: bool = False
    """Whether every battle gave the same value (a mean's interval is then the bound of
    :func:`mean_interval`, not the normal approximation, which would have no width)."""

    @property
    def width(self) -> float:
        """The interval's width (what ``--precision`` bounds)."""
        return self.high - self.low

    def to_dict(self) -> dict[str, float | int | bool | list[float]]:
        """Plain data for JSON (``alike`` only where it is true)."""
        alike: dict[str, bool] = {"alike": True} if self.alike else {}
        return {"mean": self.mean, "ci95": [self.low, self.high], "n": self.n, **alike}


def mean_interval(values: Sequence[float], lowest: float, highest: float) -> Estimate:
    """Sample mean and its 95% interval, for a quantity that lies in ``lowest``..``highest``.

    Where the values vary: the normal approximation, mean ± 1.96·sd/√n, cut to
    ``lowest``..``highest`` (a count's interval can reach below zero, 1.50 models
    left from battles ending at 0 or 6 giving -1.44..4.44; the mean itself lies in
    the range, so the part outside it says nothing).

    Where all n are alike (or n is 1), at v, the normal interval would be v..v, as
    if n battles proved every battle ends at v. What they do show: the chance q
    that a battle ends otherwise is at most Wilson's upper bound for 0 of n (7.1%
    for 50), and such a battle lies at most ``v - lowest`` below v or
    ``highest - v`` above it, so the mean lies in v - q (v - lowest) ..
    v + q (highest - v). For a one-model unit's models left (0 or 1) this is
    exactly the Wilson interval of its being destroyed, turned round: 1.00
    (0.93..1.00) beside 0% (0%..7%) in 50 battles. The width shrinks about as 1/n,
    so ``--precision`` is reached only once the battles are enough to say so.
    """
    n = len(values)
    mean = fmean(values)
    alike = n < 2 or min(values) == max(values)
    if alike:
        chance = wilson_interval(0, n).high
        low, high = mean - chance * (mean - lowest), mean + chance * (highest - mean)
    else:
        half = Z_95 * stdev(values) / math.sqrt(n)
        low, high = mean - half, mean + half
    return Estimate(mean, float(max(lowest, low)), float(min(highest, high)), n, alike)


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


ALIKE = "all alike"
"""What an interval's text adds where every battle gave the same value
(:attr:`Estimate.alike`): its interval is a bound, not a spread seen."""

ALIKE_NOTE = (
    f"{ALIKE}: every battle gave the same value; the interval is how far the mean may "
    "lie from it, by Wilson's bound on the chance (seen 0 times in N) that a battle "
    "ends otherwise (docs/scale.md)"
)
"""The line a report prints under its tables where an interval is :data:`ALIKE`."""


def alike_note(estimates: Iterable[Estimate]) -> str | None:
    """:data:`ALIKE_NOTE` where one of ``estimates`` is :attr:`Estimate.alike`, else ``None``."""
    return ALIKE_NOTE if any(e.alike for e in estimates) else None


def figure(value: float, percent: bool = False, sign: str = "") -> str:
    """A mean for people: two decimals, or a whole percent; ``sign="+"`` signs it (a
    difference), and one that rounds to zero reads ``+0.00`` or ``+0%``, never
    ``-0.00``."""
    return f"{value:{sign}z.0%}" if percent else f"{value:{sign}z.2f}"


BOUND_DIGITS = 6
"""The most decimals :func:`bound` adds to show a small bound's sign."""


def bound(value: float, percent: bool = False, sign: str = "") -> str:
    """An interval's bound for people, as :func:`figure` writes a mean, except that a
    signed bound (``sign="+"``: a difference's) that is not zero but would read as
    zero is written to its first significant digit, ``-0.004`` or ``-0.4%``: its
    sign says whether the interval holds zero, which is why the interval is read (a
    rules writer's review: ``+0.03 (+0.00 .. +0.06)`` was -0.0036..0.0636). A bound
    of exactly zero reads ``+0.00``."""
    text = figure(value, percent, sign)
    if not sign or value == 0 or any(c in "123456789" for c in text):
        return text
    shown = value * 100 if percent else value
    digits = min(BOUND_DIGITS, -math.floor(math.log10(abs(shown))))
    return f"{shown:{sign}.{digits}f}" + ("%" if percent else "")
