"""The battlefield and its terrain areas."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely import prepare
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from hammerlab.engine.geometry import Vec, sight_line


@dataclass(frozen=True)
class TerrainArea:
    """An area of terrain and what it does to models in or behind it."""

    name: str
    outline: tuple[Vec, ...]
    """Polygon corners in inches."""
    cover_save: int | None = None
    """Cover save it grants (the number before the plus), if any."""
    difficult: bool = False
    dangerous: bool = False
    blocks_sight: bool = False
    """Whether it blocks line of sight drawn through it."""

    @cached_property
    def shape(self) -> BaseGeometry:
        """The area as a shapely polygon (built once, prepared for fast tests)."""
        polygon = Polygon(self.outline)
        prepare(polygon)
        return polygon

    def contains(self, point: Vec) -> bool:
        """Whether ``point`` lies inside or on the edge of the area."""
        return bool(self.shape.intersects(Point(point)))


@dataclass(frozen=True)
class Battlefield:
    """A rectangular table with terrain, in inches; (0, 0) is a corner."""

    width: float = 72.0
    height: float = 48.0
    terrain: tuple[TerrainArea, ...] = field(default=())

    def __post_init__(self) -> None:
        # Terrain never changes during a battle: hash once, and remember what was
        # seen from where (the same pairs of points are asked about again and again).
        content = (self.width, self.height, self.terrain)
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.clear()
        object.__setattr__(self, "_same", _TABLES.setdefault(content, content))
        object.__setattr__(self, "_hash", hash(content))
        object.__setattr__(self, "_sight", {})
        object.__setattr__(self, "_open", not any(a.blocks_sight for a in self.terrain))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __getstate__(self) -> dict[str, object]:
        """A copy or a pickle holds the size and terrain alone: its hash (a string's
        hash differs between processes), the sight it remembered and the contents
        :meth:`__eq__` compares are made again where it is loaded."""
        return {"width": self.width, "height": self.height, "terrain": self.terrain}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def __eq__(self, other: object) -> bool:
        """The same size and terrain. Every battle of a scenario builds a table of its
        own, and the answers remembered by table (sight, cover, areas crossed) are
        keyed by it: each battle's tables are found equal to the first one's thousands
        of times. The first table built with equal contents is kept
        (:data:`_TABLES`), so an equal table is mostly known by that identity, not by
        comparing every terrain area's corners."""
        if not isinstance(other, Battlefield):
            return NotImplemented
        mine, theirs = self._same, other._same  # type: ignore[attr-defined]
        return mine is theirs or bool(mine == theirs)

    def on_table(self, point: Vec) -> bool:
        """Whether ``point`` lies on the table."""
        return 0.0 <= point[0] <= self.width and 0.0 <= point[1] <= self.height

    def clamp(self, point: Vec) -> Vec:
        """``point`` moved onto the table."""
        return (min(max(point[0], 0.0), self.width), min(max(point[1], 0.0), self.height))

    def areas_at(self, point: Vec) -> list[TerrainArea]:
        """Terrain areas that contain ``point`` (cached, as :meth:`crossed` is)."""
        terrain = self.terrain
        return [terrain[at] for at in _areas_at(self, point)] if terrain else []

    def crossed(self, a: Vec, b: Vec) -> list[TerrainArea]:
        """Terrain areas the straight line from ``a`` to ``b`` passes through.

        Cached: terrain never changes during a battle, and the same pairs of
        points are asked about again and again: remembered as the areas' places in
        :attr:`terrain`, which are the same on every equal table (this table's own areas
        are given back, not the equal ones of the table first asked).
        """
        terrain = self.terrain
        return [terrain[at] for at in _crossed(self, a, b)] if terrain else []

    def can_see(self, a: Vec, b: Vec) -> bool:
        """True line of sight between two points.

        Sight is blocked by an area that blocks sight and that the line passes
        through, unless the looker or the target stands inside that area
        (models in ruins see out and can be seen).
        """
        if self._open:  # type: ignore[attr-defined]
            return True  # nothing on the table blocks sight
        sight: dict[tuple[Vec, Vec], bool] = self._sight  # type: ignore[attr-defined]
        seen = sight.get((a, b))
        if seen is None:
            if len(sight) > SIGHT_CACHE:
                sight.clear()
            terrain = self.terrain
            seen = not terrain or not any(
                terrain[at].blocks_sight and not (self._inside(at, a) or self._inside(at, b))
                for at in _crossed(self, a, b)
            )
            sight[(a, b)] = seen
        return seen

    def sight_table(
        self, lookers: tuple[Vec, ...], targets: tuple[Vec, ...]
    ) -> tuple[tuple[bool, ...], ...]:
        """:meth:`can_see` from every point of ``lookers`` to every one of ``targets``.

        Remembered by the points (terrain never changes during a battle), so
        the models of two units that stand still are checked once; on a table where
        nothing blocks sight, every point sees every other, and nothing is measured.
        """
        if self._open:  # type: ignore[attr-defined]
            row = (True,) * len(targets)
            return (row,) * len(lookers)
        return _sight_table(self, lookers, targets)

    def cover_between(self, shooter: Vec, target: Vec) -> list[TerrainArea]:
        """Cover-granting areas the target is in or behind, seen from ``shooter``."""
        terrain = self.terrain
        if not terrain:
            return []
        return [
            terrain[at]
            for at in _crossed(self, shooter, target)
            if terrain[at].cover_save is not None and not self._inside(at, shooter)
        ]

    def learn_sight(self, pairs: list[tuple[Vec, Vec]]) -> list[bool]:
        """What :meth:`can_see` answers for each of ``pairs`` (looker, target), worked
        out at once and remembered.

        The same test as :meth:`can_see` (a sight-blocking area the line crosses,
        neither point inside it), the lines built and tested against each area in
        one vectorised shapely call rather than one line at a time: the same GEOS
        predicate on the same coordinates, so the same answers.
        """
        sight: dict[tuple[Vec, Vec], bool] = self._sight  # type: ignore[attr-defined]
        if len(sight) + len(pairs) > SIGHT_CACHE:
            sight.clear()
        seen = [True] * len(pairs)
        walls = [(at, area) for at, area in enumerate(self.terrain) if area.blocks_sight]
        if walls and pairs:
            # The corners of every line in one flat list, then one array: numpy reads a
            # list of floats far faster than a list of pairs of points.
            corners: list[float] = []
            for a, b in pairs:
                corners += a
                corners += b
            lines = shapely.linestrings(np.array(corners, dtype=float).reshape(-1, 2, 2))
            for at, area in walls:
                for i in np.flatnonzero(shapely.intersects(area.shape, lines)):
                    a, b = pairs[i]
                    if not (self._inside(at, a) or self._inside(at, b)):
                        seen[i] = False
        sight.update(zip(pairs, seen, strict=True))
        return seen

    def _inside(self, at: int, point: Vec) -> bool:
        """Whether the area at place ``at`` of :attr:`terrain` contains ``point``, read
        off the places remembered at ``point`` (:meth:`areas_at`): no shapely point
        built for a point already asked about."""
        return at in _areas_at(self, point)


SIGHT_CACHE = 1 << 17
"""Pairs of points whose sight a battlefield remembers (cleared when full)."""

TABLES_KEPT = 256
"""Contents of tables :data:`_TABLES` keeps before it forgets them all (a sweep plays
thousands of battles on a few tables)."""

_TABLES: dict[tuple[float, float, tuple[TerrainArea, ...]], tuple[object, ...]] = {}
"""Each size and terrain, as the first table built with them holds them
(:meth:`Battlefield.__eq__`)."""


@lru_cache(maxsize=1 << 14)
def _sight_table(
    field: Battlefield, lookers: tuple[Vec, ...], targets: tuple[Vec, ...]
) -> tuple[tuple[bool, ...], ...]:
    """:meth:`Battlefield.sight_table`: every pair read from what
    :meth:`Battlefield.can_see` remembers, and those it does not yet know learnt at
    once (:meth:`Battlefield.learn_sight`)."""
    known = field._sight.get  # type: ignore[attr-defined]
    table = [[known((a, b)) for b in targets] for a in lookers]
    unknown = [
        (a, b)
        for a, row in zip(lookers, table, strict=True)
        for b, seen in zip(targets, row, strict=True)
        if seen is None
    ]
    if unknown:
        learnt = iter(field.learn_sight(unknown))
        table = [[next(learnt) if seen is None else seen for seen in row] for row in table]
    return tuple(map(tuple, table))


@lru_cache(maxsize=1 << 16)
def _areas_at(field: Battlefield, point: Vec) -> tuple[int, ...]:
    """The places in ``field.terrain`` of the areas that contain ``point``."""
    return tuple(at for at, area in enumerate(field.terrain) if area.contains(point))


@lru_cache(maxsize=1 << 16)
def _crossed(field: Battlefield, a: Vec, b: Vec) -> tuple[int, ...]:
    """The places in ``field.terrain`` of the areas the line from ``a`` to ``b`` crosses."""
    line = sight_line(a, b)
    return tuple(at for at, area in enumerate(field.terrain) if area.shape.intersects(line))
