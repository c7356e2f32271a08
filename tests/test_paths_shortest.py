"""One shortest-way search (``paths.shortest_ways``) for a way round terrain
(``paths.way_round``) and a Waffle move round bases (``placement.Ways``), and one
table-edge test for a base and for many (code review s24, finding 7). Expected
ways worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import Polygon, box

from hammerlab.editions.waffle.placement import EPSILON, base_on_table, on_table
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.dice import ScriptedDice
from hammerlab.engine.paths import CLEARANCE, shortest_ways, way_round
from hammerlab.engine.units import Model

C = CLEARANCE


def test_the_way_round_a_wall_turns_at_its_near_corners() -> None:
    """From (0, 0) to (10, 0) past the box x 4..6, y -1..3: round its bottom, the
    shorter side, at the corners pushed out by the clearance, (4 - c, -1 - c) and
    (6 + c, -1 - c)."""
    table = Polygon.from_bounds(-20, -20, 30, 30)
    way = way_round((0.0, 0.0), (10.0, 0.0), [box(4, -1, 6, 3)], table)
    assert way is not None
    assert [c for point in way for c in point] == pytest.approx(
        [4 - C, -1 - C, 6 + C, -1 - C, 10.0, 0.0]
    )


def test_shortest_ways_settle_within_the_limit_only() -> None:
    """Three points on a line from the start (0, 0), all in sight of each other: 3, 5
    and 9 away. Within a limit of 6 the first two are settled at 3 and 5 (straight),
    the third not; without it, 9, reached straight (came -1). With the line from the
    start to (9, 0) blocked, it is reached through (5, 0): 5 + 4 = 9, from point 1."""
    points = np.array([(3.0, 0.0), (5.0, 0.0), (9.0, 0.0)])

    def all_clear(_: tuple[float, float], ends: np.ndarray) -> np.ndarray:
        return np.ones(len(ends), dtype=bool)

    near = shortest_ways((0.0, 0.0), points, all_clear, limit=6.0)
    assert near.done.tolist() == [True, True, False]
    assert near.far[:2].tolist() == [3.0, 5.0]
    whole = shortest_ways((0.0, 0.0), points, all_clear)  # no limit: it ends when all are
    assert whole.far.tolist() == [3.0, 5.0, 9.0] and whole.came.tolist() == [-1, -1, -1]

    def not_from_the_start_to_the_last(point: tuple[float, float], ends: np.ndarray) -> np.ndarray:
        blocked = [point == (0.0, 0.0) and end[0] == 9.0 for end in ends]
        return np.logical_not(np.array(blocked, dtype=bool))

    blocked = shortest_ways((0.0, 0.0), points, not_from_the_start_to_the_last)
    assert blocked.far[2] == 9.0
    assert blocked.came[2] == 0  # (3, 0) settled first, and 3 + 6 = 9 is not beaten by 5 + 4


def test_no_way_to_the_goal_is_none() -> None:
    """The goal (10, 0) inside a ring of boxes no way passes: every corner reachable
    is settled and the search ends with no way (it must not go on for ever)."""
    ring = [box(7, -3, 13, -2), box(7, 2, 13, 3), box(7, -3, 8, 3), box(12, -3, 13, 3)]
    table = Polygon.from_bounds(-20, -20, 30, 30)
    assert way_round((0.0, 0.0), (10.0, 0.0), ring, table) is None


def test_many_bases_are_on_the_table_where_one_is() -> None:
    """``on_table`` (many spots at once, for ``placement.Ways``' corners) and
    ``base_on_table`` agree, the EPSILON tolerance at the edge included: a 0.5" base
    on a 10" x 6" table, its centre 0.5" from an edge, a hair (EPSILON / 2) over it,
    and twice EPSILON over."""
    field = Battlefield(10.0, 6.0, ())
    battle = Battle(
        field, (Player("A", "south"), Player("B", "north")), {}, ScriptedDice([]), "waffle"
    )
    model = Model("m", Profile("Trooper", {"W": "1"}), (), (5.0, 3.0), base_mm=25.4)
    r = model.radius
    assert r == pytest.approx(0.5)
    edge = [r, r - EPSILON / 2, r - 2 * EPSILON, 10.0 - r + EPSILON / 2, 10.0 - r + 2 * EPSILON]
    spots = [(x, 3.0) for x in edge] + [(5.0, y) for y in (6.0 - r + EPSILON / 2, math.inf)]
    expected = [True, True, False, True, False, True, False]
    assert [base_on_table(battle, model, s) for s in spots] == expected
    assert on_table(field, np.array(spots), r).tolist() == expected
