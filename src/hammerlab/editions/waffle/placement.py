"""Where a model's base can stand: contact spots and free points on the table.

Shared by the charge move, Pile In and Consolidate, which all move models one
by one into base contact, or as close as they can get, without overlapping
another base.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec, base_distance, centre_distance, closest, step_toward
from hammerlab.engine.units import Model, Unit

EPSILON = 1e-6
"""Room for floating-point rounding in measurements (inches)."""
PILE_IN = 3.0
"""6th/7th-edition Pile In distance."""
CONTACT_ANGLE_STEP = 5
"""Degrees between the points tried around an enemy base for a contact spot."""


def contact_spot(
    battle: Battle, model: Model, enemy: Model, reach: float, avoid: Sequence[Model] = ()
) -> Vec | None:
    """The nearest free point touching ``enemy``'s base within ``reach`` of ``model``
    (and, with ``avoid``, at least 1" from each of those models: :func:`keeps_clear`).

    Points are tried around the enemy base, starting with the one on the
    straight line between the two and moving away on both sides: each is
    farther from the model than the last, so the first free one is the
    nearest, and the search stops at the first one out of reach.
    """
    gap = model.radius + enemy.radius
    ex, ey = enemy.position
    facing = math.atan2(model.position[1] - ey, model.position[0] - ex)
    for step in range(0, 180 // CONTACT_ANGLE_STEP + 1):
        for sign in (1, -1) if step else (1,):
            angle = facing + math.radians(sign * step * CONTACT_ANGLE_STEP)
            spot = (ex + gap * math.cos(angle), ey + gap * math.sin(angle))
            if centre_distance(model.position, spot) > reach + EPSILON:
                return None
            if is_free(battle, model, spot) and keeps_clear(model, spot, avoid):
                return spot
    return None


def closest_approach(
    battle: Battle, model: Model, target: Unit, reach: float, avoid: Sequence[Model] = ()
) -> Vec:
    """The farthest free point on the straight line toward the closest target model
    (and, with ``avoid``, at least 1" from each of those models)."""
    enemy = closest([model], target.alive_models)[0]
    room = min(reach, base_distance(model, enemy))
    for tenth in range(10, 0, -1):
        spot = step_toward(model.position, enemy.position, room * tenth / 10)
        if is_free(battle, model, spot) and keeps_clear(model, spot, avoid):
            return spot
    return model.position


COHERENCY = 2.0
"""6th/7th-edition unit coherency: each model within 2" of another model of its unit."""
RING_STEP = 15
"""Degrees between the points tried around a model of the unit for a coherent spot."""


def coherent_approach(
    battle: Battle,
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
    :data:`RING_STEP` degrees), that is free, keeps clear of ``avoid`` and is
    within 2" of a placed model;
    where none is (a model that started far from its unit), the straight way in.

    6th/7th edition: a charging unit ends its move in unit coherency. The model
    moved this way (a model whose straight way in is barred by the 1" around
    another enemy unit) may end short of where the charge would take it, but with
    its unit (a player's review: a Genestealer stopped 3.6" from the brood)."""
    straight = closest_approach(battle, model, target, reach, avoid)
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
    usable = [
        s
        for s in spots
        if is_free(battle, model, s)
        and base_on_table(battle, model, s)  # a spot around a friend may hang off the edge
        and keeps_clear(model, s, avoid)
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


def is_free(battle: Battle, model: Model, spot: Vec) -> bool:
    """Whether ``model``'s base at ``spot`` is on the table and overlaps no other base."""
    if not battle.battlefield.on_table(spot):
        return False
    for unit in battle.units.values():
        for other in unit.alive_models:
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
