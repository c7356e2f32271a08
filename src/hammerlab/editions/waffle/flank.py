"""Flank: a move round difficult terrain toward the enemy, where going straight at
it would cross (or end in) that terrain.

Moving round terrain is ordinary movement (6th/7th edition: a model may move
in any direction up to its Move; only a move that enters difficult terrain
is slowed). The unit moves as a block, as every move here does (so it stays
in coherency), along the shortest way for its centre that keeps every base
out of difficult and dangerous terrain (:func:`paths.way_round`): each area
widened by the largest base's radius, then by where each model stands from
the centre (the Minkowski sum, as a convex hull: a little wider than the
area wherever the models do not fill the hull). The way ends at the point
``advance`` heads for (the closest enemy model), so it passes the terrain on
the side nearer that way.

Offered (a choice beside ``advance``) only where some model's straight way to
that point crosses difficult terrain and a way round exists, so that every
other move offers the same choices as before.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import centre_of
from hammerlab.engine.paths import way_round
from hammerlab.engine.units import Unit

FLANK = "flank"
"""The movement intent round difficult terrain toward the enemy."""


def flank_route(battle: Battle, unit: Unit, goal: Vec | None) -> tuple[Vec, ...] | None:
    """The points the centre of ``unit`` passes through on its way round difficult
    terrain to ``goal`` (the advance's goal), ``goal`` last; ``None`` where no model's
    straight way to ``goal`` crosses difficult terrain, where a base already overlaps
    difficult or dangerous terrain, or where there is no way round on the table."""
    field = battle.battlefield
    models = unit.alive_models
    if goal is None or not any(
        area.difficult for m in models for area in field.crossed(m.position, goal)
    ):
        return None
    centre = centre_of(unit)
    offsets = tuple([(m.position[0] - centre[0], m.position[1] - centre[1]) for m in models])
    return _way_round_from(field, centre, offsets, max(m.radius for m in models), goal)


@lru_cache(maxsize=1 << 12)
def _way_round_from(
    field: Battlefield, centre: Vec, offsets: tuple[Vec, ...], radius: float, goal: Vec
) -> tuple[Vec, ...] | None:
    """:func:`flank_route`'s way round, for the unit's centre, its models' offsets from
    it and their largest radius: remembered by them (the terrain never changes in a
    battle), since the same unit standing still is asked its way round by the moves
    offered, the AI's choice and the move made, each footprint a shapely buffer and
    hull and the way a search of the corners."""
    walls = [a for a in field.terrain if a.difficult or a.dangerous]
    obstacles = [_footprint(area, offsets, radius) for area in walls]
    xs, ys = [x for x, _ in offsets], [y for _, y in offsets]
    within = Polygon.from_bounds(-min(xs), -min(ys), field.width - max(xs), field.height - max(ys))
    return way_round(centre, goal, obstacles, within)


def _footprint(area: TerrainArea, offsets: tuple[Vec, ...], radius: float) -> BaseGeometry:
    """Where the unit's centre may not stand lest a base overlap ``area``: the area
    widened by ``radius`` (square corners, so never narrower than the bases'
    circles), moved back by each model's offset from the centre, as one convex hull.

    The points (each corner less each offset, corner by corner) are made as one array
    and one shapely multipoint, not a Python tuple and a point object each: the same
    points in the same order (a float's difference is the same in numpy), so the same
    hull; some 100 points for a squad, a tenth of a whole battle's way round."""
    wide = area.shape.buffer(radius, join_style="mitre")
    corners = np.asarray(wide.exterior.coords)[:-1]
    points = (corners[:, np.newaxis, :] - np.asarray(offsets)[np.newaxis, :, :]).reshape(-1, 2)
    return shapely.multipoints(points).convex_hull
