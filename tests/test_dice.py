"""The battle's dice draw what Python's seeded ``random.Random.randint`` draws.

Every saved log, replay and seed in the project was rolled by ``randint``;
:meth:`Dice._draws` draws the same bits without its layers of calls, so it must
give the same values, in the same order, leaving the generator where ``randint``
leaves it.
"""

from __future__ import annotations

import random

import pytest

from hammerlab.engine.dice import Dice


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 8, 10, 12, 20, 100])
@pytest.mark.parametrize("seed", [0, 1, 7, 123456])
def test_a_die_is_what_randint_draws_and_leaves_the_generator_as_it_does(
    sides: int, seed: int
) -> None:
    reference = random.Random(seed)
    expected = tuple(reference.randint(1, sides) for _ in range(500))
    dice = Dice(seed)
    assert dice.roll(500, "test", sides) == expected
    assert dice.state() == reference.getstate()


def test_rolls_of_a_battle_follow_one_another_in_one_stream() -> None:
    reference = random.Random(42)
    dice = Dice(42)
    rolled = [dice.roll(3, "to hit"), dice.roll(2, "to wound"), (dice.d6("leadership"),)]
    assert rolled == [
        tuple(reference.randint(1, 6) for _ in range(3)),
        tuple(reference.randint(1, 6) for _ in range(2)),
        (reference.randint(1, 6),),
    ]


@pytest.mark.parametrize("sides", [0, -6])
def test_a_die_with_no_side_is_refused_as_randint_refuses_it(sides: int) -> None:
    with pytest.raises(ValueError, match="at least one side"):
        Dice(1).roll(1, "test", sides)
