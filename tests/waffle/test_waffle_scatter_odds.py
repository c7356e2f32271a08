"""The scatter die's odds, written once (code review s24, finding 1): the AI's estimates
of a scatter (a Twin-linked blast's re-roll, a Deep Strike landing) and the rule that
rolls it read the same faces and the same 2D6 table."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import make_battle

from hammerlab.editions.distributions import sum_chances
from hammerlab.editions.waffle.markers import scatter
from hammerlab.editions.waffle.scatter_odds import SCATTER_HIT_FACES, scatter_outcomes

THREE_D6_WAYS = {
    3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27,
    11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3, 18: 1,
}  # fmt: skip
"""Ways of rolling each total on 3D6, counted by hand (the coefficients of (x + ... + x^6)^3)."""


def test_the_chance_of_a_total_is_its_ways_over_the_rolls() -> None:
    """3D6: the chance of each total is exactly its ways over 216 (the Fall Back
    estimate's dice). Adding 1/216 once per way, as the old ``plans.sum_chances`` did,
    missed the totals 8 to 13 in the last bit (and 2D6's 7: 6/36)."""
    assert sum_chances(3) == {total: ways / 216 for total, ways in THREE_D6_WAYS.items()}
    assert sum_chances(2) == {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}


@pytest.mark.parametrize("face", range(1, 7))
def test_the_faces_the_odds_count_as_a_hit_are_the_faces_the_rule_reads_as_one(
    face: int,
) -> None:
    """``markers.scatter`` rolls a D6: 1-2 is a HIT (the point stays), 3-6 an arrow
    and 2D6. The odds' ``SCATTER_HIT_FACES`` must say the same for every face."""
    battle = make_battle(dice=[face, 3, 4], directions=[90.0])
    landed = scatter(battle, (10.0, 10.0))
    assert landed.hit == (face <= SCATTER_HIT_FACES)
    assert SCATTER_HIT_FACES == 2
    if not landed.hit:
        assert landed.point == pytest.approx((10.0, 17.0))  # 3 + 4 = 7" north


def test_the_scatter_outcomes_worked_out_by_hand() -> None:
    """From (10, 10), a blast of a BS 3 firer (3 off the 2D6), over 4 directions
    (0, 90, 180, 270 degrees): a HIT is 2 in 6; each arrow and total is 4/6 * ways/36 * 1/4.
    Totals 2 and 3 take it nowhere (never below 0); a 7 along 0 degrees takes it to
    (14, 10), with 6 ways of 36: 4/6 * 6/36 / 4 = 1/36."""
    odds = scatter_outcomes((10.0, 10.0), 3, 4)
    assert odds.hit_chance == pytest.approx(1 / 3)
    assert len(odds.moves) == 4 * 11
    assert odds.hit_chance + sum(chance for _, chance in odds.moves) == pytest.approx(1.0)
    chances: dict[tuple[float, float], Fraction] = {}
    for point, chance in odds.moves:
        key = (round(point[0], 9) + 0.0, round(point[1], 9) + 0.0)
        chances[key] = chances.get(key, Fraction(0)) + Fraction(chance).limit_denominator(10**6)
    assert chances[(14.0, 10.0)] == Fraction(1, 36)
    # it stays at (10, 10) on totals 2 and 3 (1 + 2 ways), along each direction alike
    assert chances[(10.0, 10.0)] == Fraction(4, 6) * Fraction(3, 36)
