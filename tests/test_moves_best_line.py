"""``moves.best_line``: the "try two lines" block move that core11's charge and its
pile-in and consolidation share (code review s24, finding 7: each wrote it out, and
they had drifted). Expected vectors worked out by hand."""

from __future__ import annotations

import math

import pytest

from hammerlab.engine.datasheet import Datasheet, Profile
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import LIMIT_PRECISION, best_line
from hammerlab.engine.units import Model, Unit


def _pair() -> Unit:
    """Two models abreast, at (0, 0) and (4, 0): their centre is (2, 0)."""
    profile = Profile("Trooper", {"W": "1"})
    models = [Model(f"m{i}", profile, (), (4.0 * i, 0.0)) for i in range(2)]
    return Unit("u", "Pair", "A", Datasheet("Pair", "test", "core11", ()), models)


def _anywhere(_: Vec) -> bool:
    return True


def test_the_line_from_the_leader_and_the_line_from_the_centre_are_weighed() -> None:
    """Toward (0, 10), 5": from the leader at (0, 0) straight up, (0, 5); from the
    centre (2, 0) along (-2, 10), of length sqrt(104): 5 * (-2, 10) / sqrt(104)."""
    unit = _pair()
    centre_line = (-10 / math.sqrt(104), 50 / math.sqrt(104))

    def leftmost(vector: Vec) -> tuple[int, ...]:
        return (round(-vector[0] * 1000),)

    def rightmost(vector: Vec) -> tuple[int, ...]:
        return (round(vector[0] * 1000),)

    assert best_line(unit, (0.0, 0.0), (0.0, 10.0), 5.0, _anywhere, leftmost) == pytest.approx(
        centre_line
    )
    assert best_line(unit, (0.0, 0.0), (0.0, 10.0), 5.0, _anywhere, rightmost) == pytest.approx(
        (0.0, 5.0)
    )
    # a tie keeps the line from the leader
    assert best_line(unit, (0.0, 0.0), (0.0, 10.0), 5.0, _anywhere, lambda _: (0,)) == (0.0, 5.0)


def test_only_a_move_taken_to_the_limit_goes_past_its_last_whole_step() -> None:
    """Allowed up to 3.3" of a 5" move: in steps of 5/40 = 0.125" the last allowed is
    3.25"; taken to the limit (the charge's), 3.3" to within LIMIT_PRECISION."""
    unit = _pair()

    def short(vector: Vec) -> bool:
        return math.hypot(*vector) <= 3.3

    def straight(vector: Vec) -> tuple[int, ...]:
        return (round(-abs(vector[0]) * 1000),)

    stepped = best_line(unit, (0.0, 0.0), (0.0, 10.0), 5.0, short, straight)
    assert stepped == pytest.approx((0.0, 3.25))
    limit = best_line(unit, (0.0, 0.0), (0.0, 10.0), 5.0, short, straight, to_the_limit=True)
    assert limit[0] == 0.0 and 3.3 - LIMIT_PRECISION <= limit[1] <= 3.3
