"""Sums of draws: squared up for many copies, one at a time for few, and mixtures
added without padding.

The AIs read the odds of one model's few attacks, so below
``SQUARED_FROM`` copies the floats must stay those of the draw-by-draw
convolution, bit for bit (a last-bit difference could change a choice and a
log). Many copies are held to the exact binomial, computed in rational numbers.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from hammerlab.editions.distributions import SQUARED_FROM, add, compound, times, vector


def _one_at_a_time(dist: np.ndarray, copies: int) -> np.ndarray:
    """The definition: ``copies`` convolutions, one draw each."""
    out = vector([1.0])
    for _ in range(copies):
        out = np.convolve(out, dist)
    return out


def _padded(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The mixture's sum as it was made: both padded with zeros to one length."""
    size = max(len(a), len(b))
    return np.pad(a, (0, size - len(a))) + np.pad(b, (0, size - len(b)))


@pytest.mark.parametrize("copies", range(SQUARED_FROM))
def test_few_copies_are_added_one_at_a_time_bit_for_bit(copies: int) -> None:
    rng = np.random.default_rng(copies)
    for _ in range(20):
        dist = rng.dirichlet(np.ones(int(rng.integers(2, 8))))
        assert times(dist, copies).tobytes() == _one_at_a_time(dist, copies).tobytes()


@pytest.mark.parametrize("copies", [SQUARED_FROM, 9, 31, 60, 64, 101])
def test_many_copies_are_the_exact_binomial(copies: int) -> None:
    # Hits of ``copies`` shots at 2/3 each: C(n, k) (2/3)^k (1/3)^(n-k), in fractions.
    p = Fraction(2, 3)
    exact = [comb(copies, k) * p**k * (1 - p) ** (copies - k) for k in range(copies + 1)]
    got = times(vector([1 / 3, 2 / 3]), copies)
    assert len(got) == copies + 1
    for value, want in zip(got, exact, strict=True):
        assert value == pytest.approx(float(want), rel=1e-11, abs=1e-300)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_many_copies_of_a_die_agree_with_one_at_a_time() -> None:
    d6 = vector([0.0] + [1 / 6] * 6)
    squared, added = times(d6, 20), _one_at_a_time(d6, 20)
    assert len(squared) == len(added) == 121
    assert np.allclose(squared, added, rtol=1e-12, atol=1e-300)


def test_a_random_count_of_draws_is_its_mixture_of_powers() -> None:
    # Two or three draws of a coin (heads 1/4), each with even chances: by hand,
    # P(0) = 1/2 (3/4)^2 + 1/2 (3/4)^3, and so on; the zero chances below two
    # draws are never convolved.
    count = vector([0.0, 0.0, 0.5, 0.5])
    coin = vector([0.75, 0.25])
    q, h = Fraction(3, 4), Fraction(1, 4)
    two = [q * q, 2 * q * h, h * h, Fraction(0)]
    three = [q**3, 3 * q * q * h, 3 * q * h * h, h**3]
    want = [(a + b) / 2 for a, b in zip(two, three, strict=True)]
    got = compound(count, coin)
    assert [float(w) for w in want] == pytest.approx(list(got), abs=1e-15)


def test_sixty_attacks_at_once_are_the_sixtieth_power() -> None:
    # The exact odds' 60 attacks into a unit: a count certain to be 60.
    count = np.zeros(61)
    count[60] = 1.0
    each = vector([0.5, 0.5])
    got = compound(count, each)
    exact = [comb(60, k) * Fraction(1, 2) ** 60 for k in range(61)]
    assert list(got) == pytest.approx([float(w) for w in exact], rel=1e-11, abs=1e-300)


def test_no_possible_count_is_no_draw_at_all() -> None:
    assert list(compound(vector([0.0, 0.0]), vector([0.5, 0.5]))) == [0.0]


def test_a_mixture_is_added_as_padding_added_it_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        a, b = rng.random(int(rng.integers(1, 30))), rng.random(int(rng.integers(1, 30)))
        for x, y in ((a, b), (b, a)):
            got = add(x, y)
            assert got.tobytes() == _padded(x, y).tobytes()
            assert got is not x and got is not y
    first = vector([0.25, 0.5])
    add(first, vector([1.0]))
    assert list(first) == [0.25, 0.5]  # the parts are left as they were
