"""Where a model's base can stand: contact spots and free points on the table.

Shared by the charge move, Pile In and Consolidate, which all move models one
by one into base contact, or as close as they can get, without overlapping
another base or passing through another unit's base on the way (:func:`in_the_way`,
the check a Fall Back's route and every block move make too).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import (
    Vec,
    base_distance,
    centre_distance,
    closest,
    near_path,
    segment_point_distance,
    step_toward,
)
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
) -> Vec | None:
    """The nearest free point touching the base of the first of ``enemies`` (tried in
    order) that has one that ``model`` (of ``unit``) can get to within ``reach``
    without passing through another unit's base (and, with ``avoid``, at least 1"
    from each of those models: :func:`keeps_clear`).

    Points are tried around the enemy base, starting with the one on the
    straight line between the two and moving away on both sides: each is
    farther from the model than the last, so the first one it can get to is
    the nearest, and the search stops at the first one out of reach.

    6th/7th edition: models may not move through other models. A point is got to
    straight from where the model stands, or round the enemy's base from the
    point before it on the same side, the way counted in the ``reach``
    (:func:`in_the_way`; the bases of the model's own unit do not bar it:
    :func:`bases_near`). A point behind a rank of bases set closer than the
    model's base is wide is never got to: a player's review saw Boyz charge into
    the 1" gaps inside a Tactical Squad, which was then Trapped! falling back.
    """
    bases = bases_near(battle, unit, model, reach)
    mates = (m for m in unit.alive_models if m is not model)
    crowd = [*bases, *near_path([model], (0.0, 0.0), mates, reach)]  # all it may not overlap
    for enemy in enemies:
        spot = _spot_round(battle, model, enemy, reach, avoid, bases, crowd)
        if spot is not None:
            return spot
    return None


def _spot_round(
    battle: Battle,
    model: Model,
    enemy: Model,
    reach: float,
    avoid: Sequence[Model],
    bases: Sequence[Model],
    crowd: Sequence[Model],
) -> Vec | None:
    """:func:`contact_spot` round one enemy's base: ``bases`` may not be passed
    through, ``crowd`` (every model near) not overlapped."""
    gap = model.radius + enemy.radius
    ex, ey = enemy.position
    start = model.position
    facing = math.atan2(start[1] - ey, start[0] - ex)
    # Beyond this angle off ``facing`` the straight line to a point crosses the enemy's
    # own base: such a point is got to only round the base from the point before it.
    tangent = math.degrees(math.acos(min(1.0, gap / max(centre_distance(start, (ex, ey)), gap))))
    beside = [b for b in bases if b is not enemy]  # going round the enemy's base hugs it
    # On each side: the point last tried, and how far the model went to stand there
    # (None: it cannot stand there).
    last: dict[int, tuple[Vec, float | None]] = {}
    for step in range(0, 180 // CONTACT_ANGLE_STEP + 1):
        behind = step * CONTACT_ANGLE_STEP > tangent + EPSILON
        if behind and all(last[side][1] is None for side in (1, -1)):
            return None  # neither side can be got round any farther
        for sign in (1, -1) if step else (1,):
            if behind and last[sign][1] is None:
                continue
            angle = facing + math.radians(sign * step * CONTACT_ANGLE_STEP)
            spot = (ex + gap * math.cos(angle), ey + gap * math.sin(angle))
            if centre_distance(start, spot) > reach + EPSILON:
                return None
            walked = None
            if is_free(battle, model, spot, crowd):
                walked = _way_to(model, spot, bases, last.get(sign), beside, reach)
            last[sign] = (spot, walked)
            if step == 0:
                last[-1] = last[1]
            if walked is not None and keeps_clear(model, spot, avoid):
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
    cannot get there): straight, passing none of ``bases``, else from the point
    ``before`` it on the enemy's base (where it stood, and how far it had gone),
    passing none of ``beside`` (``bases`` but the enemy's), within ``reach``
    (:func:`contact_spot`)."""
    if in_the_way(model, model.position, spot, bases) is None:
        return centre_distance(model.position, spot)
    if before is None or before[1] is None:
        return None
    way = before[1] + centre_distance(before[0], spot)
    if way > reach + EPSILON or in_the_way(model, before[0], spot, beside) is not None:
        return None
    return way


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
    :data:`RING_STEP` degrees), that is free, keeps clear of ``avoid``, is got to
    straight without passing through another unit's base (:func:`in_the_way`) and
    is within 2" of a placed model;
    where none is (a model that started far from its unit), the straight way in.

    6th/7th edition: a charging unit ends its move in unit coherency. The model
    moved this way (a model whose straight way in is barred by the 1" around
    another enemy unit) may end short of where the charge would take it, but with
    its unit (a player's review: a Genestealer stopped 3.6" from the brood)."""
    straight = closest_approach(battle, unit, model, target, reach, avoid)
    if not placed or _gap_to(model, straight, placed) <= COHERENCY + EPSILON:
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
    bases = bases_near(battle, unit, model, reach)
    usable = [
        s
        for s in spots
        if is_free(battle, model, s)  # the base wholly on the table, overlapping none
        and keeps_clear(model, s, avoid)
        and in_the_way(model, model.position, s, bases) is None
    ]
    together = [s for s in usable if _gap_to(model, s, placed) <= COHERENCY + EPSILON]
    if not together:
        return straight  # no move keeps it with its unit: it goes as far in as it can
    return min(together, key=lambda s: centre_distance(s, enemy.position))


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
