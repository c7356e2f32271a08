"""Exact distributions the editions' odds share: sums of independent draws, and casualties.

A distribution is a vector of probabilities indexed by value (index 0: the
probability of 0). Both editions roll the same way at this level: a number of
independent dice, each adding what it caused, and unsaved wounds resolved one
at a time against identical models, excess damage lost — so the code is one.
Results are floating point: exact up to rounding, not estimates.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

import numpy as np
import numpy.typing as npt

from hammerlab.editions.casualty_kernel import COMPILED_WOUNDS, casualty_kernel

FACES = range(1, 7)
"""The faces of a D6."""

Vector = npt.NDArray[np.float64]


def sum_chances(dice: int) -> dict[int, float]:
    """The chance of each total of ``dice`` D6, from the lowest total up: the number
    of ways of rolling it over the ``6**dice`` ways of rolling the dice."""
    ways: dict[int, int] = {}
    for roll in product(FACES, repeat=dice):
        ways[sum(roll)] = ways.get(sum(roll), 0) + 1
    return {total: count / 6**dice for total, count in ways.items()}


def vector(probabilities: Iterable[float]) -> Vector:
    """A distribution from its probabilities, value 0 first."""
    return np.asarray(list(probabilities), dtype=np.float64)


SQUARED_FROM = 8
"""Copies from which :func:`times` squares its way up (about 2·log2 of them
convolutions, not one per copy: 60 attacks at once in 11, not 60). Fewer are added
one at a time, as they always were, so the few attacks of one model, which the
core11 AI's estimates read, keep the very floats they had (a different order of
the same sums can differ in the last bit). The Waffle AI's Suppressive Fire
estimate reads whole volleys, some of 8 shots or more, whose last bits may move:
the logs of every example, 20 seeds each, came out the same (docs/scale.md)."""


def times(dist: Vector, copies: int) -> Vector:
    """The distribution of the sum of ``copies`` independent draws of ``dist``."""
    if copies < SQUARED_FROM:
        out = vector([1.0])
        for _ in range(copies):
            out = np.convolve(out, dist)
        return out
    total: Vector | None = None  # binary powering: the sum of the copies' bits
    power, left = dist, copies
    while left:
        if left & 1:
            total = power if total is None else np.convolve(total, power)
        left >>= 1
        if left:
            power = np.convolve(power, power)
    assert total is not None  # copies >= SQUARED_FROM > 0
    return total


def binomial(n: int, p: float) -> Vector:
    """Successes in ``n`` independent tries of chance ``p``."""
    return times(vector([1.0 - p, p]), n)


def compound(count: Vector, each: Vector) -> Vector:
    """Σ_n P(count = n) · each^{*n}: the sum of a random number of draws.

    The powers of ``each`` are taken from the least count that can happen
    (:func:`times`), then one draw at a time up to the greatest: ten models'
    sixty attacks need the sixtieth power alone, not the fifty-nine below it."""
    out = np.zeros(1)
    possible = np.flatnonzero(count > 0.0)
    if not len(possible):
        return out
    least, most = int(possible[0]), int(possible[-1])
    power = times(each, least)
    for n in range(least, most + 1):
        p = count[n]
        if p > 0.0:
            out = add(out, p * power)
        if n < most:
            power = np.convolve(power, each)
    return out


def add(a: Vector, b: Vector) -> Vector:
    """The element-wise sum of two vectors of different lengths (a mixture's parts)."""
    if len(a) < len(b):
        a, b = b, a
    out = a.copy()  # the longer one's tail plus nothing: itself (np.pad made the zeros)
    out[: len(b)] += b
    return out


def mean(dist: Vector) -> float:
    """The expected value."""
    return float(np.dot(np.arange(len(dist)), dist))


def casualties(unsaved: Vector, damage: Vector, wounds: int, models: int) -> Vector:
    """Models destroyed: the first of :func:`casualty_odds`."""
    return casualty_odds(unsaved, damage, wounds, models)[0]


def casualty_odds(
    unsaved: Vector, damage: Vector, wounds: int, models: int
) -> tuple[Vector, Vector]:
    """Models destroyed and wounds lost: DP over (destroyed, wounds left on the model
    being damaged).

    ``unsaved`` is the distribution of the number of unsaved wounds, each
    doing ``damage`` (a distribution over amounts, drawn independently) to
    one model of ``models`` identical models of ``wounds`` wounds. Damage
    goes to the damaged model until it is destroyed and the excess is lost;
    then the next model takes the next unsaved wound.

    ``state[d, w]`` is the probability that ``d`` models are destroyed and the
    next one has ``w`` wounds left; row ``models`` (all destroyed) absorbs.
    The unit has then lost ``d * wounds + wounds - w`` wounds (``models *
    wounds`` once all are destroyed): the second distribution, indexed by the
    wounds lost, is what the attacks take off the unit, damage beyond a
    model's wounds lost.

    Runs compiled (:func:`~hammerlab.editions.casualty_kernel.casualty_kernel`,
    the same floats) for models of fewer than ``COMPILED_WOUNDS`` wounds, which
    is every model of both games; this vectorised form is the definition, and
    the tests hold the kernel to it bit for bit.
    """
    if wounds < COMPILED_WOUNDS:
        killed, lost = casualty_kernel(
            np.ascontiguousarray(unsaved, dtype=np.float64),
            np.ascontiguousarray(damage, dtype=np.float64),
            wounds,
            models,
        )
        return killed, lost
    return vectorised_casualties(unsaved, damage, wounds, models)


def vectorised_casualties(
    unsaved: Vector, damage: Vector, wounds: int, models: int
) -> tuple[Vector, Vector]:
    """:func:`casualty_odds` as numpy operations: the definition the kernel follows."""
    state = np.zeros((models + 1, wounds + 1))
    state[0, wounds] = 1.0
    killed = np.zeros(models + 1)
    lost = np.zeros(models * wounds + 1)
    for p in unsaved:
        killed += p * state.sum(axis=1)
        lost[:-1] += p * state[:models, wounds:0:-1].ravel()  # wounds left w: lost W - w
        lost[-1] += p * state[models, 0]
        moved = np.zeros_like(state)
        moved[models] = state[models]
        alive = state[:models]
        for amount, q in enumerate(damage):
            if q == 0.0:
                continue
            if amount == 0:
                moved[:models] += q * alive
                continue
            if amount < wounds:
                moved[:models, 1 : wounds - amount + 1] += q * alive[:, amount + 1 :]
            dies = q * alive[:, 1 : amount + 1].sum(axis=1)
            moved[1:models, wounds] += dies[:-1]
            moved[models, 0] += dies[-1]
        state = moved
    return killed, lost
