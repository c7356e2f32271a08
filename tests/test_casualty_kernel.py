"""The compiled casualty step gives the vectorised definition's floats, bit for bit:
the models destroyed and the wounds the unit loses.

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
    casualty_odds,
    vector,
    vectorised_casualties,
)


def test_casualty_kernel_two_wound_models_by_hand() -> None:
    # Two unsaved wounds of damage 1 or 2 (even chances) into two W2 models:
    # D2 first: 1 dead, then the second wound kills the next model only on a 2.
    # D1 first (wounds left 1): the second wound kills it whatever the damage.
    # So 2 dead = 1/2 · 1/2 = 1/4; 1 dead = 1/2 · 1/2 + 1/2 = 3/4.
    # Wounds lost: D1 first, the second wound takes the first model's last wound
    # whatever its damage (a D2's second point lost): 2 (1/2); D2 then D1: 3 (1/4);
    # D2 then D2: 4 (1/4).
    killed, lost = casualty_kernel(vector([0.0, 0.0, 1.0]), vector([0.0, 0.5, 0.5]), 2, 2)
    assert list(killed) == [0.0, 0.75, 0.25]
    assert list(lost) == [0.0, 0.0, 0.5, 0.25, 0.25]


def test_excess_damage_is_lost_in_the_wounds_a_unit_loses() -> None:
    # One unsaved wound of damage 3 into ten one-wound models takes one wound (a
    # Krak grenade at a Boy), not three; into one model of 2 wounds it takes both.
    killed, lost = casualty_odds(vector([0.0, 1.0]), vector([0.0, 0.0, 0.0, 1.0]), 1, 10)
    assert list(killed[:3]) == [0.0, 1.0, 0.0] and list(lost[:3]) == [0.0, 1.0, 0.0]
    killed, lost = casualty_odds(vector([0.0, 1.0]), vector([0.0, 0.0, 0.0, 1.0]), 2, 1)
    assert list(killed) == [0.0, 1.0] and list(lost) == [0.0, 0.0, 1.0]


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
        want_killed, want_lost = vectorised_casualties(unsaved, damage, wounds, models)
        killed, lost = casualty_odds(unsaved, damage, wounds, models)
        assert np.array_equal(killed, want_killed) and np.array_equal(lost, want_lost)
        assert np.array_equal(casualties(unsaved, damage, wounds, models), want_killed)


def test_models_of_many_wounds_use_the_vectorised_form() -> None:
    # A model of COMPILED_WOUNDS wounds: two unsaved wounds of damage 1 kill nothing
    # and take two wounds.
    killed, lost = casualty_odds(vector([0.0, 0.0, 1.0]), vector([0.0, 1.0]), COMPILED_WOUNDS, 1)
    assert list(killed) == [1.0, 0.0]
    assert lost[2] == 1.0 and lost.sum() == 1.0
