"""Where a model's base can stand: contact spots and free points on the table.

Shared by the charge move, Pile In and Consolidate, which all move models one
by one into base contact, or as close as they can get, without overlapping
another base or passing through another unit's base on the way (:func:`in_the_way`,
the check a Fall Back's route and every block move make too; :class:`Ways`, the
way round such bases).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.geometry import (
    Vec,
    base_distance,
    centre_distance,
    closest,
    near_path,
    segment_point_distance,
    step_toward,
)
from hammerlab.engine.paths import CLEARANCE, shortest_ways
from hammerlab.engine.units import Model, Unit

EPSILON = 1e-6
"""Room for floating-point rounding in measurements (inches)."""
PILE_IN = 3.0
"""6th/7th-edition Pile In distance."""
CONTACT_ANGLE_STEP = 5
"""Degrees between the points tried around an enemy base for a contact spot."""


def contact_spot(
    battle: Battle,
    unit: Unit,
    model: Model,
    enemies: Sequence[Model],
    reach: float,
    avoid: Sequence[Model] = (),
    together: Sequence[Model] = (),
) -> Vec | None:
    """The nearest free point touching the base of the first of ``enemies`` (tried in
    order) that has one that ``model`` (of ``unit``) can get to within ``reach``
    without passing through another unit's base (and, with ``avoid``, at least 1"
    from each of those models: :func:`keeps_clear`; with ``together``, within 2" of
    one of those models of its unit: :data:`COHERENCY`).

    Points are tried around the enemy base, starting with the one on the
    straight line between the two and moving away on both sides: each is
    farther from the model than the last, so the first one it can get to is
    the nearest, and the search stops at the first one out of reach.

    6th/7th edition: models may not move through other models. A point is got to
    straight from where the model stands, or round the enemy's base from the
    point before it on the same side, the way counted in the ``reach``
    (:func:`in_the_way`; the bases of the model's own unit do not bar it:
    :func:`bases_near`), or else by the shortest way round the other units'
    bases in its way (:class:`Ways`: 7th edition, "models may not move through
    friendly or enemy models", they go round them). A point behind a rank of
    bases set closer than the model's base is wide is never got to: a player's
    review saw Boyz charge into the 1" gaps inside a Tactical Squad, which was
    then Trapped! falling back.
    """
    bases = bases_near(battle, unit, model, reach)
    mates = (m for m in unit.alive_models if m is not model)
    crowd = [*bases, *near_path([model], (0.0, 0.0), mates, reach)]  # all it may not overlap
    ways = Ways(battle, model, bases, reach)
    for enemy in enemies:
        spot = _spot_round(battle, model, enemy, reach, avoid, crowd, ways, together)
        if spot is not None:
            return spot
    return None


def _spot_round(
    battle: Battle,
    model: Model,
    enemy: Model,
    reach: float,
    avoid: Sequence[Model],
    crowd: Sequence[Model],
    ways: Ways,
    together: Sequence[Model],
) -> Vec | None:
    """:func:`contact_spot` round one enemy's base: the bases of ``ways`` may not be
    passed through, ``crowd`` (every model near) not overlapped."""
    gap = model.radius + enemy.radius
    ex, ey = enemy.position
    start = model.position
    facing = math.atan2(start[1] - ey, start[0] - ex)
    beside = [b for b in ways.bases if b is not enemy]  # going round the enemy's base hugs it
    # On each side: the point last tried, and how far the model went to stand there
    # (None: it cannot stand there, or got there by no way tried).
    last: dict[int, tuple[Vec, float | None]] = {}
    for step in range(0, 180 // CONTACT_ANGLE_STEP + 1):
        for sign in (1, -1) if step else (1,):
            angle = facing + math.radians(sign * step * CONTACT_ANGLE_STEP)
            spot = (ex + gap * math.cos(angle), ey + gap * math.sin(angle))
            if centre_distance(start, spot) > reach + EPSILON:
                return None
            free = is_free(battle, model, spot, crowd)
            walked = (
                _way_to(model, spot, ways.bases, last.get(sign), beside, reach) if free else None
            )
            wanted = free and keeps_clear(model, spot, avoid) and coherent(model, spot, together)
            if walked is None and wanted:
                walked = ways.detour(spot)  # round the other bases in the way
            last[sign] = (spot, walked)
            if step == 0:
                last[-1] = last[1]
            if walked is not None and wanted:
                return spot
    return None


def _way_to(
    model: Model,
    spot: Vec,
    bases: Sequence[Model],
    before: tuple[Vec, float | None] | None,
    beside: Sequence[Model],
    reach: float,
) -> float | None:
    """How far ``model`` goes to the free ``spot`` touching an enemy base (``None``: it
    cannot get there this way): straight, passing none of ``bases``, else from the
    point ``before`` it on the enemy's base (where it stood, and how far it had
    gone), passing none of ``beside`` (``bases`` but the enemy's), within ``reach``
    (:func:`contact_spot`)."""
    if in_the_way(model, model.position, spot, bases) is None:
        return centre_distance(model.position, spot)
    if before is None or before[1] is None:
        return None
    way = before[1] + centre_distance(before[0], spot)
    if way > reach + EPSILON or in_the_way(model, before[0], spot, beside) is not None:
        return None
    return way


DETOUR_CORNERS = 12
"""Corners of the polygon drawn round each base that a way round bases turns at
(:class:`Ways`). Its sides touch the circle the moving model's centre keeps out
of, so a way along them is at most 1 / cos 15°, 3.5 %, longer than the way
hugging the base."""


class Ways:
    """How far ``model`` goes to a spot within ``reach`` passing through none of
    ``bases`` (the other units' bases near it: :func:`bases_near`); ``None`` where
    it cannot.

    6th/7th edition: models may not move through other models, friend or foe;
    they go round them (the 7th-edition charge move: "Charging models still cannot
    move through friendly or enemy models"; its initial charger is the model
    nearest the enemy "as measured by the shortest possible route, going around
    impassable terrain, friendly models and enemy models in other units", as
    forums quote the 2014 rulebook, p. 46). Straight where nothing is in the way
    (:func:`in_the_way`); else the shortest way that keeps the model's centre out
    of the circle round each base (its radius and the model's, so that the bases
    never overlap), turning only at the corners of the polygons of
    :data:`DETOUR_CORNERS` sides drawn round those circles, :data:`paths.CLEARANCE`
    out (a visibility graph searched by :func:`paths.shortest_ways`, the search
    :func:`paths.way_round` makes round terrain). Corners where the model's base
    would overlap another base or hang over the table edge (:func:`on_table`) are
    not turned at, so a gap narrower than its base is never passed. The ways to
    every corner within the reach are found once, when first asked.
    """

    def __init__(self, battle: Battle, model: Model, bases: Sequence[Model], reach: float) -> None:
        self.bases = bases
        self._battle, self._model, self._reach = battle, model, reach
        self._centres = np.array([b.position for b in bases], dtype=float).reshape(-1, 2)
        self._radii = np.array([model.radius + b.radius for b in bases], dtype=float)
        self._corners: NDArray[np.float64] | None = None
        self._far: NDArray[np.float64] = np.zeros(0)

    def length(self, spot: Vec) -> float | None:
        """How far the model goes to ``spot``: straight, else :meth:`detour`."""
        start = self._model.position
        if in_the_way(self._model, start, spot, self.bases) is None:
            way = centre_distance(start, spot)
            return way if way <= self._reach + EPSILON else None
        return self.detour(spot)

    def detour(self, spot: Vec) -> float | None:
        """The shortest way to ``spot`` through the corners round the bases."""
        corners = self._graph()
        if not len(corners):
            return None
        seen = self._clear(spot, corners)
        if not seen.any():
            return None
        legs = np.hypot(corners[seen, 0] - spot[0], corners[seen, 1] - spot[1])
        way = float(np.min(self._far[seen] + legs))
        return way if way <= self._reach + EPSILON else None

    def _clear(self, point: Vec, ends: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether the model's base, moving straight from ``point`` to each of ``ends``,
        passes through none of the bases (touching is fine, as in :func:`in_the_way`)."""
        ax, ay = point
        dx, dy = ends[:, 0:1] - ax, ends[:, 1:2] - ay
        wx, wy = self._centres[:, 0] - ax, self._centres[:, 1] - ay
        length = dx * dx + dy * dy
        along = np.clip((dx * wx + dy * wy) / np.where(length > 0, length, 1.0), 0.0, 1.0)
        miss = np.hypot(wx - along * dx, wy - along * dy)
        clear: NDArray[np.bool_] = np.all(miss >= self._radii - EPSILON, axis=1)
        return clear

    def _graph(self) -> NDArray[np.float64]:
        """The corners got to within the reach; ``_far``: how far the model goes to each."""
        if self._corners is None:
            self._corners, self._far = self._shortest()
        return self._corners

    def _shortest(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        model, reach = self._model, self._reach
        turns = np.arange(DETOUR_CORNERS) * (2 * math.pi / DETOUR_CORNERS)
        ring = self._radii / math.cos(math.pi / DETOUR_CORNERS) + CLEARANCE
        xs = self._centres[:, 0:1] + ring[:, None] * np.cos(turns)
        ys = self._centres[:, 1:2] + ring[:, None] * np.sin(turns)
        corners = np.stack([xs.ravel(), ys.ravel()], axis=1)
        sx, sy = model.position
        field, r = self._battle.battlefield, model.radius
        gaps = np.hypot(
            corners[:, 0:1] - self._centres[:, 0], corners[:, 1:2] - self._centres[:, 1]
        )
        keep = (
            (np.hypot(corners[:, 0] - sx, corners[:, 1] - sy) <= reach + EPSILON)
            & on_table(field, corners, r)
            & np.all(gaps >= self._radii - EPSILON, axis=1)
        )
        corners = corners[keep]
        found = shortest_ways(model.position, corners, self._clear, limit=reach + EPSILON)
        return corners[found.done], found.far[found.done]


def closest_approach(
    battle: Battle,
    unit: Unit,
    model: Model,
    target: Unit,
    reach: float,
    avoid: Sequence[Model] = (),
) -> Vec:
    """The farthest free point on the straight line toward the closest target model
    that ``model`` (of ``unit``) gets to without passing through another unit's base
    (:func:`in_the_way`; and, with ``avoid``, at least 1" from each of those models)."""
    enemy = closest([model], target.alive_models)[0]
    room = min(reach, base_distance(model, enemy))
    bases = bases_near(battle, unit, model, room)
    for tenth in range(10, 0, -1):
        spot = step_toward(model.position, enemy.position, room * tenth / 10)
        if (
            is_free(battle, model, spot)
            and keeps_clear(model, spot, avoid)
            and in_the_way(model, model.position, spot, bases) is None
        ):
            return spot
    return model.position


COHERENCY = 2.0
"""6th/7th-edition unit coherency: each model within 2" of another model of its unit."""
RING_STEP = 15
"""Degrees between the points tried around a model of the unit for a coherent spot."""


def coherent_approach(
    battle: Battle,
    unit: Unit,
    model: Model,
    target: Unit,
    reach: float,
    avoid: Sequence[Model],
    placed: Sequence[Model],
) -> Vec:
    """Where a charging model that cannot reach base contact ends: as
    :func:`closest_approach`, unless that leaves it out of coherency with every
    model of its unit in ``placed`` (those that have already ended their move);
    then the point nearest the target, of those on the straight lines toward the
    target and toward each placed model (in tenths of the way, up to ``reach``),
    and of those around each placed model 1" from its base (every
    :data:`RING_STEP` degrees), that is free, keeps clear of ``avoid``, is within
    2" of a placed model and is got to within ``reach`` without passing through
    another unit's base (straight, or round such bases: :class:`Ways`);
    where none is (a model that started far from its unit), the straight way in.

    6th/7th edition: a charging unit ends its move in unit coherency (7th edition,
    as forums quote the 2014 rulebook, p. 46, with its errata: "If possible, a
    charging model must end its charge move in unit coherency with another model
    in its own unit that has already moved"; one that "cannot reach any enemy
    models, it must try to move within 2" … of one of its own unit's models that
    is already in base contact with an enemy", which the point nearest the target
    stands for). The model moved this way (a model whose straight way in is
    barred by the 1" around another enemy unit, or by a friendly unit already in
    the combat) may end short of where the charge would take it, but with its
    unit (a player's review: a Genestealer stopped 3.6" from the brood)."""
    straight = closest_approach(battle, unit, model, target, reach, avoid)
    if not placed or coherent(model, straight, placed):
        return straight
    enemy = closest([model], target.alive_models)[0]
    spots = [straight, model.position]
    for goal in [enemy.position, *(m.position for m in placed)]:
        room = min(reach, centre_distance(model.position, goal))
        spots += [step_toward(model.position, goal, room * k / 10) for k in range(1, 11)]
    for friend in placed:  # and around each placed model, 1" from its base
        ring = model.radius + friend.radius + 1.0
        x, y = friend.position
        for step in range(0, 360, RING_STEP):
            angle = math.radians(step)
            spot = (x + ring * math.cos(angle), y + ring * math.sin(angle))
            if centre_distance(model.position, spot) <= reach + EPSILON:
                spots.append(spot)
    together = [
        s
        for s in spots
        if is_free(battle, model, s)  # the base wholly on the table, overlapping none
        and keeps_clear(model, s, avoid)
        and coherent(model, s, placed)
    ]
    ways = Ways(battle, model, bases_near(battle, unit, model, reach), reach)
    for spot in sorted(together, key=lambda s: centre_distance(s, enemy.position)):
        if ways.length(spot) is not None:
            return spot
    return straight  # no move keeps it with its unit: it goes as far in as it can


def coherent(model: Model, spot: Vec, others: Sequence[Model]) -> bool:
    """Whether ``model``'s base at ``spot`` is within 2" of one of ``others``
    (:data:`COHERENCY`), or ``others`` is empty."""
    return not others or _gap_to(model, spot, others) <= COHERENCY + EPSILON


def _gap_to(model: Model, spot: Vec, others: Sequence[Model]) -> float:
    """The gap between ``model``'s base at ``spot`` and the nearest base of ``others``."""
    return min(centre_distance(spot, o.position) - model.radius - o.radius for o in others)


def keeps_clear(model: Model, spot: Vec, avoid: Sequence[Model]) -> bool:
    """Whether ``model``'s base at ``spot`` is at least 1" from every base of ``avoid``
    (6th/7th edition: a charging model may not move within 1" of an enemy unit
    it is not charging)."""
    return all(
        centre_distance(spot, other.position) - model.radius - other.radius >= 1.0 - EPSILON
        for other in avoid
    )


def bases_near(battle: Battle, unit: Unit, model: Model, reach: float) -> list[Model]:
    """The other units' models (friend or foe) whose bases ``model`` of ``unit`` may
    pass through moving up to ``reach`` inches (:func:`geometry.near_path`): what
    :func:`in_the_way` checks its move against. The models of its own unit are
    left out, as a block move leaves them out: a player moves his models round
    each other, and the straight line checked would often cross them (a Marine
    piling in past the squad-mate beside it)."""
    return near_path([model], (0.0, 0.0), battle.other_models(unit), reach)


def path_gap(start: Vec, end: Vec, model: Model, other: Model) -> float:
    """The closest the two bases come while ``model`` moves straight from ``start`` to
    ``end`` (negative: they overlap)."""
    return segment_point_distance(start, end, other.position) - model.radius - other.radius


def in_the_way(model: Model, start: Vec, end: Vec, others: Sequence[Model]) -> Model | None:
    """The first base of ``others`` that ``model``'s base passes through moving
    straight from ``start`` to ``end`` (touching is fine), ``None`` where none is.

    6th/7th edition: models may not move through other models. A block move's
    path (:func:`movement.fall_back_route`, a Run, a move) and each model's
    charge, Pile In and Consolidate move are checked by it."""
    radius = model.radius
    for other in others:  # path_gap(start, end, model, other) < -EPSILON, in one call
        if segment_point_distance(start, end, other.position) < radius + other.radius - EPSILON:
            return other
    return None


def is_free(battle: Battle, model: Model, spot: Vec, near: Sequence[Model] | None = None) -> bool:
    """Whether ``model``'s base at ``spot`` lies wholly on the table (:func:`base_on_table`:
    a charge, a pile-in, a consolidation or a disembarkation never leaves a base hanging
    over the edge) and overlaps no other base: every model's on the table, or only
    those ``near`` (where a caller trying many spots has kept those that can overlap
    one: :func:`contact_spot`)."""
    if not base_on_table(battle, model, spot):
        return False
    others = (m for u in battle.units.values() for m in u.alive_models) if near is None else near
    for other in others:
        if other is model:
            continue
        if centre_distance(spot, other.position) < model.radius + other.radius - EPSILON:
            return False
    return True


def base_on_table(battle: Battle, model: Model, spot: Vec) -> bool:
    """Whether ``model``'s base at ``spot`` lies wholly on the table."""
    field, r = battle.battlefield, model.radius
    x, y = spot
    return (
        r - EPSILON <= x <= field.width - r + EPSILON
        and r - EPSILON <= y <= field.height - r + EPSILON
    )


def on_table(field: Battlefield, spots: NDArray[np.float64], radius: float) -> NDArray[np.bool_]:
    """:func:`base_on_table` for a base of ``radius`` at each of ``spots`` (rows
    ``(x, y)``), in one call: whether it lies wholly on the table (within
    :data:`EPSILON`)."""
    x, y = spots[:, 0], spots[:, 1]
    inside: NDArray[np.bool_] = (
        (x >= radius - EPSILON)
        & (x <= field.width - radius + EPSILON)
        & (y >= radius - EPSILON)
        & (y <= field.height - radius + EPSILON)
    )
    return inside


def gaps_to_others(
    battle: Battle, unit: Unit, spots: Sequence[Vec]
) -> Iterator[tuple[Vec, Model, bool, float]]:
    """For the unit's models set at ``spots`` (in order): the spot, each other unit's
    model on the table, whether it is an enemy, and the gap between the two bases
    (negative: they overlap). Deep Strike, Infiltrate and Scout place a whole unit at once."""
    others = [
        (other, u.player != unit.player)
        for u in battle.units.values()
        if u.id != unit.id
        for other in u.alive_models
    ]
    for model, spot in zip(unit.alive_models, spots, strict=True):
        for other, enemy in others:
            gap = centre_distance(spot, other.position) - model.radius - other.radius
            yield spot, other, enemy, gap
