"""The shortest way for a point round polygons: the corners a detour turns at.

Edition-neutral geometry for a move that goes round terrain rather than
through it. The point may not enter any obstacle (its interior or its edge);
the shortest such way between two points runs straight between corners of the
obstacles (a visibility graph), so the corners, pushed out by
:data:`CLEARANCE` so that a way along an edge stays off it, are the only
places it turns. The obstacles are convex (an edition builds each as a convex
hull), which keeps every corner one the way may turn at.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points
from shapely.prepared import prep

from hammerlab.engine.geometry import Vec

CLEARANCE = 0.01
"""Inches the corners of a way round stand off the obstacles' edges."""

Points = NDArray[np.float64]
"""Points as the rows ``(x, y)`` of an array."""
Lengths = NDArray[np.float64]
Flags = NDArray[np.bool_]


def way_round(
    start: Vec, goal: Vec, obstacles: Sequence[BaseGeometry], within: Polygon
) -> tuple[Vec, ...] | None:
    """The points the shortest way from ``start`` to ``goal`` passes through, ``goal``
    last, that touches none of ``obstacles`` and turns only inside ``within``; ``None``
    when ``start`` lies in an obstacle or no such way exists. A ``goal`` in an
    obstacle is replaced by the nearest point just outside it (:func:`outside`).

    :func:`shortest_ways` over the corners of the obstacles (each pushed out by
    :data:`CLEARANCE` with square corners: ``join_style="mitre"``) and the goal,
    joined where the straight line between them touches no obstacle.
    """
    blocks = [prep(o) for o in obstacles]

    def clear(a: Vec, b: Vec) -> bool:
        line = LineString([a, b]) if a != b else Point(a)
        return not any(block.intersects(line) for block in blocks)

    def clear_to(point: Vec, ends: Points) -> Flags:
        return np.array([clear(point, (float(x), float(y))) for x, y in ends], dtype=bool)

    goal = outside(goal, obstacles)
    if not (clear(start, start) and clear(goal, goal)):
        return None
    corners = [
        (float(x), float(y))
        for o in obstacles
        for x, y in o.buffer(CLEARANCE, join_style="mitre").exterior.coords[:-1]
        if within.covers(Point(x, y))
    ]
    points = np.array([*corners, goal], dtype=float)
    last = len(points) - 1
    found = shortest_ways(start, points, clear_to, goal=last)
    if not found.done[last]:
        return None
    way = [last]
    while found.came[way[-1]] >= 0:
        way.append(int(found.came[way[-1]]))
    return tuple((float(points[i, 0]), float(points[i, 1])) for i in reversed(way))


class Found(NamedTuple):
    """What :func:`shortest_ways` found, point by point."""

    far: Lengths
    """How long the shortest way found to each point is (``inf``: none found)."""
    came: NDArray[np.intp]
    """The point each way comes from last (``-1``: straight from the start)."""
    done: Flags
    """Whether the way to each point is the shortest there is (Dijkstra's settled
    points); the others were not reached within the limit, or not looked at after the
    goal was."""


def shortest_ways(
    start: Vec,
    points: Points,
    clear: Callable[[Vec, Points], Flags],
    limit: float = math.inf,
    goal: int | None = None,
) -> Found:
    """The shortest ways from ``start`` to ``points`` (an array of ``(x, y)`` rows) that
    run straight from point to point where ``clear(point, ends)`` says, for each of
    ``ends``, that the straight line from ``point`` to it is free: a visibility graph
    (Dijkstra). Points are settled nearest first (the first of them on a tie), until
    none is left within ``limit`` or ``goal`` (an index) is settled.

    The one search of a way round: :func:`way_round` (round polygons, such as
    terrain) and an edition's move round other models' bases each give it their
    corners and their own ``clear``."""
    count = len(points)
    far = np.full(count, np.inf)
    came = np.full(count, -1, dtype=np.intp)
    done = np.zeros(count, dtype=bool)
    if not count:
        return Found(far, came, done)
    sx, sy = start
    seen = clear(start, points)
    far[seen] = np.hypot(points[seen, 0] - sx, points[seen, 1] - sy)
    while True:
        open_far = np.where(done, np.inf, far)
        here = int(np.argmin(open_far))
        if math.isinf(open_far[here]) or open_far[here] > limit:
            break  # every point reached is settled, or none left is within the limit
        done[here] = True
        if here == goal:
            break
        rest = np.flatnonzero(~done)
        x, y = points[here]
        through = far[here] + np.hypot(points[rest, 0] - x, points[rest, 1] - y)
        shorter = through < far[rest]
        better = rest[shorter]
        free = np.asarray(clear((float(x), float(y)), points[better]), dtype=bool)
        far[better[free]] = through[shorter][free]
        came[better[free]] = here
    return Found(far, came, done)


def outside(point: Vec, obstacles: Sequence[BaseGeometry]) -> Vec:
    """``point``, or, in (or on) the first of ``obstacles`` it lies in, the nearest point
    of that obstacle's edge pushed out by :data:`CLEARANCE`."""
    spot = Point(point)
    for obstacle in obstacles:
        if obstacle.intersects(spot):
            edge = obstacle.buffer(CLEARANCE, join_style="mitre").exterior
            near = nearest_points(edge, spot)[0]
            return (near.x, near.y)
    return point
