"""The scatter die and its 2D6 as odds: where a scattered point may come to rest, and
with what chance (``markers.scatter`` rolls them).

6th/7th edition: "roll the scatter dice and 2D6": on a HIT symbol the point stays;
otherwise it moves the 2D6 total, less the firer's BS for a blast, in the direction
of the arrow. The Waffle Edition's scatter die is a D6 read as a HIT on 1-2
(``markers.scatter``). The AI's estimates of a scatter, a Twin-linked blast's
re-roll (``scatter_plans``) and a Deep Strike landing (``deep_strike``), sum over
:func:`scatter_outcomes` rather than working the odds out again.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from hammerlab.editions.distributions import sum_chances
from hammerlab.engine.geometry import Vec, offset

SCATTER_HIT_FACES: Final = 2
"""The faces of the scatter die (a D6) that show a HIT: a roll of 1-2 (``markers.scatter``)."""

SCATTER_HIT_CHANCE: Final = SCATTER_HIT_FACES / 6
"""The chance the scatter die shows a HIT."""

SCATTER_MOVE_CHANCE: Final = (6 - SCATTER_HIT_FACES) / 6
"""The chance the scatter die shows an arrow (the point moves the 2D6)."""

SCATTER_DISTANCE_DICE: Final = 2
"""The point moves the total of 2D6 (less a blast's firer's BS, never below 0)."""

OWN_MODEL_WEIGHT: Final = 2.0
"""How much more one of its own models under a marker or template counts against a
player's aim than one enemy model counts for it: the AI's weighing of a marker
(``scatter_plans.marker_worth``, ``expected.aim_value``)."""


class ScatterOdds(NamedTuple):
    """Where a scatter from a point may come to rest (:func:`scatter_outcomes`)."""

    hit_chance: float
    """The chance of a HIT: the point stays where it is."""
    moves: list[tuple[Vec, float]]
    """Each place an arrow may take it, with its chance (their sum and ``hit_chance`` make 1)."""


def scatter_outcomes(point: Vec, reduction: int, directions: int) -> ScatterOdds:
    """The odds of a scatter at ``point``: a HIT (:data:`SCATTER_HIT_CHANCE`) leaves it
    there; otherwise it moves each 2D6 total less ``reduction`` (never below 0) along
    each of ``directions`` directions evenly spread (every 360°/``directions``, from
    0°), all alike. A point may leave the table: each caller says what that means.

    The moves are listed direction by direction, each over the totals 2 to 12."""
    two_d6 = sum_chances(SCATTER_DISTANCE_DICE)
    moves = [
        (
            offset(point, 360.0 * step / directions, float(max(0, total - reduction))),
            chance * SCATTER_MOVE_CHANCE / directions,
        )
        for step in range(directions)
        for total, chance in sorted(two_d6.items())
    ]
    return ScatterOdds(SCATTER_HIT_CHANCE, moves)
