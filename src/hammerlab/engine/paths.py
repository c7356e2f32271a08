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

import heapq
from collections.abc import Sequence

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points
from shapely.prepared import prep

from hammerlab.engine.geometry import Vec, centre_distance

CLEARANCE = 0.01
"""Inches the corners of a way round stand off the obstacles' edges."""


def way_round(
    start: Vec, goal: Vec, obstacles: Sequence[BaseGeometry], within: Polygon
) -> tuple[Vec, ...] | None:
    """The points the shortest way from ``start`` to ``goal`` passes through, ``goal``
    last, that touches none of ``obstacles`` and turns only inside ``within``; ``None``
    when ``start`` lies in an obstacle or no such way exists. A ``goal`` in an
    obstacle is replaced by the nearest point just outside it (:func:`outside`).

    Dijkstra over the corners of the obstacles (each pushed out by :data:`CLEARANCE`
    with square corners: ``join_style="mitre"``) and the two ends, joined where the
    straight line between them touches no obstacle.
    """
    blocks = [prep(o) for o in obstacles]

    def clear(a: Vec, b: Vec) -> bool:
        line = LineString([a, b]) if a != b else Point(a)
        return not any(block.intersects(line) for block in blocks)

    goal = outside(goal, obstacles)
    if not (clear(start, start) and clear(goal, goal)):
        return None
    corners = [
        (float(x), float(y))
        for o in obstacles
        for x, y in o.buffer(CLEARANCE, join_style="mitre").exterior.coords[:-1]
        if within.covers(Point(x, y))
    ]
    points = [start, *corners, goal]
    last = len(points) - 1
    best = {0: 0.0}
    came: dict[int, int] = {}
    queue = [(0.0, 0)]
    done: set[int] = set()
    while queue:
        length, here = heapq.heappop(queue)
        if here in done:
            continue
        if here == last:
            return _walk(points, came, last)
        done.add(here)
        for there in range(1, len(points)):
            if there in done or not clear(points[here], points[there]):
                continue
            through = length + centre_distance(points[here], points[there])
            if through < best.get(there, float("inf")):
                best[there], came[there] = through, here
                heapq.heappush(queue, (through, there))
    return None


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


def _walk(points: list[Vec], came: dict[int, int], last: int) -> tuple[Vec, ...]:
    """The points from the one after the start to ``last``, following ``came`` back."""
    way = [last]
    while way[-1] in came:
        way.append(came[way[-1]])
    return tuple(points[i] for i in reversed(way[:-1]))
