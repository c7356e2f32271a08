"""The compiled casualty step gives the vectorised definition's floats, bit for bit.

The AI reads these odds, so a last-bit difference could change a choice and a
log: the kernel is held to exact equality, not a tolerance. Expected values of
the hand-checked case are derived in the comments.
"""

from __future__ import annotations

import numpy as np
import pytest

from hammerlab.editions.casualty_kernel import COMPILED_WOUNDS, casualty_kernel, pairwise_sum
from hammerlab.editions.distributions import (
    binomial,
    casualties,
    vector,
    vectorised_casualties,
)


def test_casualty_kernel_two_wound_models_by_hand() -> None:
    # Two unsaved wounds of damage 1 or 2 (even chances) into two W2 models:
    # D2 first: 1 dead, then the second wound kills the next model only on a 2.
    # D1 first (wounds left 1): the second wound kills it whatever the damage.
    # So 2 dead = 1/2 · 1/2 = 1/4; 1 dead = 1/2 · 1/2 + 1/2 = 3/4.
    got = casualty_kernel(vector([0.0, 0.0, 1.0]), vector([0.0, 0.5, 0.5]), 2, 2)
    assert list(got) == [0.0, 0.75, 0.25]


@pytest.mark.parametrize("length", [1, 2, 7, 8, 9, 15, 16, 17, 64, 127, 128])
def test_pairwise_sum_adds_as_numpy_does(length: int) -> None:
    rng = np.random.default_rng(length)
    values = rng.random(length) * 10.0 ** rng.uniform(-8, 8, size=length)
    assert pairwise_sum(values, 0, length) == values.sum()
    assert pairwise_sum(values, 1, length) == values[1:].sum()


def test_casualty_kernel_equals_the_vectorised_definition_bit_for_bit() -> None:
    rng = np.random.default_rng(14)
    for _ in range(150):
        attacks = int(rng.integers(0, 70))
        wounds = int(rng.integers(1, 14))
        models = int(rng.integers(1, 12))
        damage = rng.random(int(rng.integers(1, 9)))
        damage[rng.random(len(damage)) < 0.3] = 0.0
        damage[-1] += 0.01
        damage /= damage.sum()
        unsaved = binomial(attacks, float(rng.random()))
        want = vectorised_casualties(unsaved, damage, wounds, models)
        assert np.array_equal(casualties(unsaved, damage, wounds, models), want)


def test_models_of_many_wounds_use_the_vectorised_form() -> None:
    # A model of COMPILED_WOUNDS wounds: two unsaved wounds of damage 1 kill nothing.
    got = casualties(vector([0.0, 0.0, 1.0]), vector([0.0, 1.0]), COMPILED_WOUNDS, 1)
    assert list(got) == [1.0, 0.0]
