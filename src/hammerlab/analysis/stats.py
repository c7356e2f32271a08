"""Estimates with 95% intervals: a mean (Student's t) and a proportion (Wilson).

The sweep, the results store, the balance solver and the rules lab share them,
so a figure read back from the store is the figure the sweep reported, and the
lab's win rates are computed as the sweep's are.

Every mean here is of a bounded quantity (models left, 0 to those fielded; a
paired difference of them; a win indicator), which :func:`mean_interval` is
told. Where every battle gave the same value, the t interval has zero
width, a certainty no number of battles gives: the interval is then a bound from
the chance that a battle would end otherwise (:func:`mean_interval`), and the
estimate says it was :attr:`Estimate.alike`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import fmean, stdev

Z_95 = 1.959964
"""Two-sided 95% quantile of the normal distribution."""

_FRACTION_STEPS = 10_000
"""The most steps :func:`_beta_fraction` takes (it converges in about √a; a cap, never reached
at the degrees of freedom of any number of battles a run plays)."""


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function I_x(a, b), by
    the modified Lentz method (Numerical Recipes, ``betacf``), for x < (a + 1)/(a + b + 2),
    where it converges fast."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, _FRACTION_STEPS):
        for term in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + term * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + term / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return fraction


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1."""
    if x <= 0.0 or x >= 1.0:
        return max(0.0, min(1.0, x))
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_tail(t: float, dof: int) -> float:
    """P(|T| > t) for Student's t with ``dof`` degrees of freedom (t >= 0):
    I_{dof/(dof + t²)}(dof/2, 1/2) (Abramowitz and Stegun 26.7.1, 26.5.27)."""
    return _regularized_beta(dof / 2, 0.5, dof / (dof + t * t))


@cache
def t_95(dof: int) -> float:
    """Two-sided 95% quantile of Student's t with ``dof`` degrees of freedom: the t with
    P(|T| > t) = 5% (12.706 for 1, 2.262 for 9, 2.045 for 29, 1.984 for 99; Z_95 as
    ``dof`` grows), by bisection of :func:`t_tail` between Z_95 and 13 (the quantile
    falls as ``dof`` grows, from tan(0.475π) = 12.706 at 1)."""
    low, high = Z_95, 13.0
    while high - low > 1e-12:
        middle = (low + high) / 2
        low, high = (middle, high) if t_tail(middle, dof) > 0.05 else (low, middle)
    return (low + high) / 2


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

    Where the values vary: Student's t interval, mean ± t·sd/√n with t the 95% quantile
    of n - 1 degrees of freedom (:func:`t_95`: 2.262 for 10 battles, 1.972 for 200),
    cut to ``lowest``..``highest`` (a count's interval can reach below zero, 1.50
    models left from battles ending at 0 or 6 giving -1.44..4.44; the mean itself
    lies in the range, so the part outside it says nothing). Not the normal quantile
    1.96 at every n, as until session 23: at 10 pairs, 3 discordant in one
    direction, that interval left out 0 (p = 0.25 by the exact sign test), and with
    nothing changed it left out 0 about twice as often as 5% at 10 to 30 pairs (a
    rules writer's review, by exact enumeration; ``tests/test_stats.py``).

    Where all n are alike (or n is 1), at v, the t interval would be v..v, as
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
        half = t_95(n - 1) * stdev(values) / math.sqrt(n)
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


EXACT_DIGITS = 4
"""The most decimals (of a fraction: 2 writes a whole percent, 4 a percent to two
decimals) :func:`digits` gives a figure to write it exactly."""

ROUNDED_DIGITS = 3
"""The decimals (one of a percent) of a figure of a number of battles that no
:data:`EXACT_DIGITS` write exactly (:func:`rounding_note`)."""


def exact(n: int) -> bool:
    """Whether every mean of ``n`` battles is written exactly by :func:`figure`."""
    scale: int = 10**EXACT_DIGITS
    return scale % n == 0


def digits(n: int) -> int:
    """The decimals (of a fraction: 2 writes a whole percent) of a figure of ``n`` battles.

    Every figure a report prints is a mean of whole numbers over its ``n`` battles
    (models left; a win or a destruction, 1 or 0; a paired difference of them), so
    a multiple of 1/n, which d decimals write exactly where n divides 10^d: a whole
    percent (two decimals) for 50 or 100 battles, a percent to one decimal (three)
    for 200, 40 or 1000, to two (four) for 400. Written exactly, the figures shown
    agree with each other: a difference (computed from the battles, never from
    rounded figures) is the variant less the baseline as printed, and the rates of
    a column add up to 100% (a user review, session 21: 200 battles printed
    ``7% → 16%``, ``+10%`` for 0.07 → 0.165, +0.095, and a column of 99%). Where
    no :data:`EXACT_DIGITS` do (150 battles: 1/150 = 0.00666...), the figures are
    rounded to :data:`ROUNDED_DIGITS` and the report says so (:func:`rounding_note`).
    """
    return next((d for d in range(2, EXACT_DIGITS + 1) if 10**d % n == 0), ROUNDED_DIGITS)


def figure(value: float, n: int, percent: bool = False, sign: str = "") -> str:
    """A mean of ``n`` battles for people, to its :func:`digits` (``0.165`` or
    ``16.5%`` for 200 battles, ``0.17`` or ``17%`` for 100); ``sign="+"`` signs it (a
    difference), and one that rounds to zero reads ``+0.00`` or ``+0%``, never
    ``-0.00``."""
    decimals = digits(n)
    return f"{value:{sign}z.{decimals - 2}%}" if percent else f"{value:{sign}z.{decimals}f}"


BOUND_DIGITS = 6
"""The most decimals :func:`bound` adds to show a small bound's sign."""


def bound(value: float, n: int, percent: bool = False, sign: str = "") -> str:
    """An interval's bound for people, as :func:`figure` writes a mean of ``n`` battles,
    except that a signed bound (``sign="+"``: a difference's) that is not zero but
    would read as zero is written to its first significant digit, ``-0.004`` or
    ``-0.4%``: its sign says whether the interval holds zero, which is why the
    interval is read (a rules writer's review: ``+0.03 (+0.00 .. +0.06)`` was
    -0.0036..0.0636). A bound of exactly zero reads ``+0.00``."""
    text = figure(value, n, percent, sign)
    if not sign or value == 0 or any(c in "123456789" for c in text):
        return text
    shown = value * 100 if percent else value
    places = min(BOUND_DIGITS, -math.floor(math.log10(abs(shown))))
    return f"{shown:{sign}.{places}f}" + ("%" if percent else "")


def interval(e: Estimate, percent: bool = False, sign: str = "", page: bool = False) -> str:
    """An estimate and its interval for people, every figure as :func:`figure` and
    :func:`bound` write one of its ``n`` battles: ``2.15 (1.85..2.46)``, in percent
    ``33% (27%..40%)``; ``sign="+"`` signs them (a difference: ``-2% (-5%..-0.1%)``);
    ``page`` writes them as the HTML reports do, ``2.15 [1.85, 2.46]``. Where every
    battle gave the same value, it says so (``1.00 (0.93..1.00, all alike)``:
    :data:`ALIKE_NOTE`). What the CLI, the HTML reports and the web lab print."""
    low, high = bound(e.low, e.n, percent, sign), bound(e.high, e.n, percent, sign)
    alike = f", {ALIKE}" if e.alike else ""
    mean = figure(e.mean, e.n, percent, sign)
    return f"{mean} [{low}, {high}{alike}]" if page else f"{mean} ({low}..{high}{alike})"


def rounding_note(counts: Iterable[int]) -> str | None:
    """Where a report's figures of some of its ``counts`` of battles cannot be written
    exactly (:func:`digits`), a line saying so, else ``None``."""
    rounded = sorted({n for n in counts if not exact(n)})
    if not rounded:
        return None
    return (
        f"rounded: a mean of {' or '.join(map(str, rounded))} battles is no whole number of "
        f"{10 ** (2 - EXACT_DIGITS):g}%, so figures are rounded to {10 ** (2 - ROUNDED_DIGITS):g}% "
        f"({10**-ROUNDED_DIGITS:g}) and may not add up: a difference (computed from the "
        "battles) may be one in its last digit off the variant less the baseline shown, and "
        f"rates may not make 100%; --runs that divide {10**EXACT_DIGITS} (such as 200) print "
        "every figure exactly"
    )
