"""Measurements on the battlefield, in inches.

Models are circles (their bases); distances are measured base to base, as
the rules measure them. Terrain and markers are shapely polygons.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol, TypeVar

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

MM_PER_INCH = 25.4
BLAST_DIAMETER = 3.0
LARGE_BLAST_DIAMETER = 5.0
MASSIVE_BLAST_DIAMETER = 7.0
APOCALYPTIC_BLAST_DIAMETER = 10.0
"""The blast markers' diameters: 3" and 5" (6th/7th edition), 7" (the Massive Blast)
and 10" (the Apocalyptic Blast), the 7th-edition Apocalypse markers as remembered (the
shared data writes ``10" Apocalyptic Blast`` and, for a Massive Blast, ``7" Blast``)."""
TEMPLATE_LENGTH = 8.0
"""The flame template: a teardrop about 8" long and 2" wide at its far end."""

Vec = tuple[float, float]


class Placed(Protocol):
    """Anything with a base on the table."""

    @property
    def position(self) -> Vec: ...

    @property
    def radius(self) -> float: ...


def centre_distance(a: Vec, b: Vec) -> float:
    """Distance between two points."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def segment_point_distance(start: Vec, end: Vec, point: Vec) -> float:
    """Distance from ``point`` to the segment ``start``–``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return centre_distance(start, point)
    t = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / length2
    t = (t if t < 1.0 else 1.0) if t > 0.0 else 0.0  # min(1.0, max(0.0, t)) without the calls
    return math.hypot(start[0] + t * dx - point[0], start[1] + t * dy - point[1])


def base_distance(a: Placed, b: Placed) -> float:
    """Distance between the closest points of two bases (0 when touching)."""
    return _gap(a.position, a.radius, b.position, b.radius)


def _gap(a: Vec, a_radius: float, b: Vec, b_radius: float) -> float:
    """``max(0.0, centre_distance(a, b) - a_radius - b_radius)``, the same float, with
    no call but ``hypot``: every distance table is made of these."""
    gap = math.hypot(a[0] - b[0], a[1] - b[1]) - a_radius - b_radius
    return gap if gap > 0.0 else 0.0


Bases = tuple[tuple[Vec, float], ...]
"""Where some bases stand: each one's centre and radius."""


def bases(models: Iterable[Placed]) -> Bases:
    """The bases of ``models`` (what a distance between them depends on)."""
    return tuple([(m.position, m.radius) for m in models])  # a list first: quicker than a generator


def gap_table(rows: Iterable[Placed], columns: Iterable[Placed]) -> tuple[tuple[float, ...], ...]:
    """:func:`base_distance` from every model of ``rows`` to every one of ``columns``.

    The same bases are measured again and again (every estimate an AI makes,
    every check for base contact), while models stand still far more often
    than they move: the table is remembered by the bases' positions and radii,
    so it is measured once per arrangement. Each entry is the same float
    :func:`base_distance` gives.
    """
    return _gap_table(bases(rows), bases(columns))


@lru_cache(maxsize=1 << 14)
def _gap_table(rows: Bases, columns: Bases) -> tuple[tuple[float, ...], ...]:
    """:func:`gap_table` of the bases: each row made as a list first, then a tuple (a
    generator is resumed once per entry, a list comprehension runs in one frame)."""
    return tuple([tuple([_gap(a, ra, b, rb) for b, rb in columns]) for a, ra in rows])


SURELY_APART = 1e-6
"""Inches of slack :func:`out_of_reach` and :func:`near_path` keep, far above any rounding
of a distance."""


def out_of_reach(rows: Sequence[Placed], columns: Sequence[Placed], inches: float) -> bool:
    """Whether every base of ``rows`` is surely more than ``inches`` from every base of
    ``columns``: the boxes around the two groups of bases lie farther apart than
    that (plus :data:`SURELY_APART`) along x or y.

    A quick, sure "no" before a :func:`gap_table` is measured: every pair is
    then at least that far apart along one axis, so its :func:`base_distance`
    exceeds ``inches``; any other case (``False``) is left to the table.
    """
    if not rows or not columns:
        return True
    reach = inches + SURELY_APART
    ours, theirs = _box(rows), _box(columns)
    for axis in (0, 1):
        low, high = theirs[axis]
        if low - ours[axis][1] > reach:
            return True
        if ours[axis][0] - high > reach:
            return True
    return False


def near_path(models: Sequence[Placed], vector: Vec, others: Iterable[P], reach: float) -> list[P]:
    """The bases of ``others`` that may come within ``reach`` of one of ``models``
    while they move by ``vector`` or by any part of it (the vector scaled by 0 to 1).

    Every base left out lies farther than ``reach`` (plus :data:`SURELY_APART`, far
    above any rounding) along x or y from the box swept by the moving bases, so no
    step of the move can bring it within ``reach`` nor make it overlap: a check of
    each step against the bases kept answers as one against every base. A move
    made of legs of total length at most ``d`` in any direction is covered by
    ``vector`` ``(0, 0)`` and ``reach`` plus ``d``."""
    if not models:
        return []
    margin = reach + SURELY_APART
    dx, dy = vector
    low_x = min(m.position[0] + min(dx, 0.0) - m.radius for m in models) - margin
    high_x = max(m.position[0] + max(dx, 0.0) + m.radius for m in models) + margin
    low_y = min(m.position[1] + min(dy, 0.0) - m.radius for m in models) - margin
    high_y = max(m.position[1] + max(dy, 0.0) + m.radius for m in models) + margin
    return [
        o
        for o in others
        if o.position[0] + o.radius >= low_x
        and o.position[0] - o.radius <= high_x
        and o.position[1] + o.radius >= low_y
        and o.position[1] - o.radius <= high_y
    ]


def _box(models: Sequence[Placed]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The box around the bases of ``models``: (lowest, highest) edge along x, then y,
    each the same float as ``position[axis] -/+ radius`` of the model at that edge;
    one pass over the models."""
    (x, y), r = models[0].position, models[0].radius
    low_x, high_x, low_y, high_y = x - r, x + r, y - r, y + r
    for model in models:  # comparisons, not min() and max(): a third of the time
        (x, y), r = model.position, model.radius
        low_x = x - r if x - r < low_x else low_x
        high_x = x + r if x + r > high_x else high_x
        low_y = y - r if y - r < low_y else low_y
        high_y = y + r if y + r > high_y else high_y
    return (low_x, high_x), (low_y, high_y)


def closest(origin: Sequence[Placed], candidates: Iterable[P]) -> list[P]:
    """``candidates`` ordered by their distance to the nearest of ``origin`` (ties in
    their given order; distances from :func:`gap_table`)."""
    items = list(candidates)
    return [items[i] for i in _ranking(bases(origin), bases(items))]


@lru_cache(maxsize=1 << 12)
def _ranking(rows: Bases, columns: Bases) -> tuple[int, ...]:
    """The places of the ``columns`` bases, nearest to the ``rows`` bases first (ties in
    their given order): :func:`closest`'s order, remembered by the bases as the distance
    tables are. Wounds are allocated in this order (every volley asks it of the same
    arrangements again and again), and reading each column's least gap and sorting
    them cost three times the table's own look-up."""
    gaps = _least_gaps(_gap_table(rows, columns), len(columns))
    return tuple(sorted(range(len(columns)), key=gaps.__getitem__))


def nearest(origin: Sequence[Placed], candidates: Iterable[P]) -> P:
    """The first of :func:`closest` (the earliest on a tie), found without sorting."""
    items = list(candidates)
    gaps = _least_gaps(gap_table(origin, items), len(items))
    return items[min(range(len(items)), key=gaps.__getitem__)]


def nearest_each(origin: Sequence[Placed], candidates: Sequence[P]) -> list[P]:
    """:func:`nearest` of each model of ``origin`` alone, in order, from one
    :func:`gap_table` (a row of it is the table of that model alone: the same
    floats)."""
    every = range(len(candidates))
    return [candidates[min(every, key=row.__getitem__)] for row in gap_table(origin, candidates)]


def _least_gaps(table: tuple[tuple[float, ...], ...], count: int) -> Sequence[float]:
    """The least entry of each of the ``count`` columns of a :func:`gap_table` (each
    candidate's distance to the nearest of the origin): the same floats as a
    ``min`` over the rows per candidate, read column by column; a single row
    (one origin, the commonest question) is its own answer. No origin and some
    candidates: the ``ValueError`` of a ``min`` of nothing, as that gave."""
    if len(table) == 1:
        return table[0]
    if not table and count:
        raise ValueError("min() arg is an empty sequence")
    return [min(column) for column in zip(*table, strict=True)]


@lru_cache(maxsize=1 << 12)
def base_shapes(placed: Bases) -> NDArray[np.object_]:
    """Every base of ``placed`` as a shapely circle (its centre buffered by its radius,
    16 segments a quarter), built in one vectorised call and remembered by the bases, as the
    distance tables are: a blast or template is tested against the same bases
    again and again while the models stand still. Read-only."""
    shapes: NDArray[np.object_] = shapely.buffer(
        shapely.points([centre for centre, _ in placed]),
        [radius for _, radius in placed],
        quad_segs=16,
    )
    shapes.flags.writeable = False
    return shapes


def blast_marker(centre: Vec, diameter: float) -> BaseGeometry:
    """A circular blast marker: its centre buffered by its radius, 16 segments a
    quarter (the same circle as ``Point(centre).buffer``, built by shapely's
    vectorised functions: the geometry classes' argument checks took three
    quarters of the time in a battle)."""
    marker: BaseGeometry = shapely.buffer(shapely.points(centre), diameter / 2.0, quad_segs=16)
    return marker


def flame_template(apex: Vec, toward: Vec) -> BaseGeometry:
    """The teardrop template: narrow end at ``apex``, pointing at ``toward``."""
    angle = math.atan2(toward[1] - apex[1], toward[0] - apex[0])
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = -uy, ux
    bulb_at = TEMPLATE_LENGTH - 1.0
    points = [
        (apex[0] + px * 0.2, apex[1] + py * 0.2),
        (apex[0] + ux * bulb_at + px * 1.0, apex[1] + uy * bulb_at + py * 1.0),
        (apex[0] + ux * bulb_at - px * 1.0, apex[1] + uy * bulb_at - py * 1.0),
        (apex[0] - px * 0.2, apex[1] - py * 0.2),
    ]
    bulb = blast_marker((apex[0] + ux * bulb_at, apex[1] + uy * bulb_at), 2.0)
    template: BaseGeometry = shapely.union(shapely.polygons(points), bulb)
    return template


P = TypeVar("P", bound=Placed)


def touched(shape: BaseGeometry, models: Iterable[P]) -> list[P]:
    """Models whose bases are wholly or partly under ``shape`` (shapely's ``intersects``
    of ``shape`` and each base's circle, :func:`base_shapes`, asked of them all at once)."""
    items = list(models)
    if not items:
        return []
    under = shapely.intersects(shape, base_shapes(bases(items)))
    return [m for m, hit in zip(items, under, strict=True) if hit]


INSCRIBED = math.cos(math.pi / 64) - 1e-9
"""Of a circle buffered at 16 segments a quarter (a 64-gon with its corners on the
circle: a blast marker, a base), the share of its radius it surely covers: the
polygon's inner circle, less a margin far above rounding (its corners lie within
1e-14 of the circle, its inner circle within 2e-14 of ``cos(pi / 64)``)."""
CIRCUMSCRIBED = 1.0 + 1e-9
"""The share of such a circle's radius its polygon surely stays within."""


def touched_by_marker(centre: Vec, diameter: float, models: Iterable[P]) -> list[P]:
    """:func:`touched` by :func:`blast_marker` ``(centre, diameter)``: the same models.

    Marker and bases are 64-gons, each within its circle and around the circle's
    inner part (:data:`INSCRIBED`): a base whose centre lies nearer than the two
    inner circles' radii is surely under the marker, one farther than the two
    circles' surely clear of it. Only the bases in between, a band a thousandth of
    the reach wide, and any of no size (an empty polygon, which touches nothing),
    are asked of shapely, which answers as before: a shapely call
    inside a battle costs 30 to 100 µs (its code has left the processor's caches),
    a distance a fraction of one."""
    items = list(models)
    radius = diameter / 2.0
    cx, cy = centre
    under: list[P] = []
    unsure: list[P] = []
    for model in items:
        reach = radius + model.radius
        (x, y) = model.position
        gap = math.hypot(x - cx, y - cy)
        if gap < reach * INSCRIBED and model.radius > 0.0 < radius:  # no size: no polygon
            under.append(model)
        elif gap <= reach * CIRCUMSCRIBED:
            unsure.append(model)
    if not unsure:
        return under
    hit = {id(m) for m in under} | {id(m) for m in touched(blast_marker(centre, diameter), unsure)}
    return [m for m in items if id(m) in hit]


def offset(point: Vec, angle_degrees: float, distance: float) -> Vec:
    """``point`` moved ``distance`` inches in direction ``angle_degrees``."""
    rad = math.radians(angle_degrees)
    return (point[0] + math.cos(rad) * distance, point[1] + math.sin(rad) * distance)


def step_toward(start: Vec, goal: Vec, distance: float) -> Vec:
    """The point ``distance`` inches from ``start`` toward ``goal`` (not past it)."""
    gap = centre_distance(start, goal)
    if gap <= distance or gap == 0.0:
        return goal
    t = distance / gap
    return (start[0] + (goal[0] - start[0]) * t, start[1] + (goal[1] - start[1]) * t)


def sight_line(a: Vec, b: Vec) -> LineString:
    """The straight line between two points, built by shapely's vectorised function (the
    same line as ``LineString([a, b])`` without the class's argument checks, some 40%
    of the call: every area a line may cross asks one)."""
    line: LineString = shapely.linestrings([a, b])
    return line
