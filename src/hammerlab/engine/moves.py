"""Moving a unit as a block: every model by the same vector, which keeps its shape.

Edition-neutral geometry: how far a unit may go toward a point while a test
(``allowed``) holds for the shifted unit, and carrying the move out with one
:class:`~hammerlab.engine.events.ModelMoved` per model. What an edition forbids
(ending near enemies, moving through them) is its ``allowed`` test.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from hammerlab.engine.battle import Battle
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.geometry import Vec, segment_point_distance, step_toward
from hammerlab.engine.units import Model, Unit

OVERLAP_TOLERANCE = 1e-6
"""Bases that touch do not overlap (rounding of the geometry)."""
STEPS = 40
"""A move is shortened in steps of 1/STEPS of its length until it is allowed."""
LIMIT_PRECISION = 1e-7
"""How near (inches) a move taken to the limit (:func:`longest_allowed`) ends to the
first place it is not allowed: well under :data:`OVERLAP_TOLERANCE`, so bases it
stops against touch."""


def centre_of(unit: Unit) -> Vec:
    """The middle of the unit's models alive."""
    models = unit.alive_models
    return (
        sum(m.position[0] for m in models) / len(models),
        sum(m.position[1] for m in models) / len(models),
    )


def toward(unit: Unit, goal: Vec, distance: float, start: Vec | None = None) -> Vec:
    """The vector that moves the unit's centre (or the point ``start`` of it, such as
    one model's place) up to ``distance`` inches toward ``goal``."""
    origin = centre_of(unit) if start is None else start
    end = step_toward(origin, goal, distance)
    return (end[0] - origin[0], end[1] - origin[1])


def longest_allowed(vector: Vec, allowed: Callable[[Vec], bool], to_the_limit: bool = False) -> Vec:
    """The longest part of ``vector`` (in steps of 1/:data:`STEPS`) for which ``allowed``
    holds; ``(0, 0)`` when none does. With ``to_the_limit``, a move cut short goes on
    past its last whole step, the step after it halved until it is under
    :data:`LIMIT_PRECISION` long: a move stopped by a base ends touching it (a charge
    whose roll reaches ends in base contact, not up to a step short of it)."""
    for step in range(STEPS, 0, -1):
        scale = step / STEPS
        if allowed(_scaled(vector, scale)):
            if to_the_limit and step < STEPS:
                scale = _limit(vector, allowed, scale, (step + 1) / STEPS)
            return _scaled(vector, scale)
    return (0.0, 0.0)


def best_line(
    unit: Unit,
    leader: Vec,
    goal: Vec,
    distance: float,
    allowed: Callable[[Vec], bool],
    score: Callable[[Vec], tuple[int, ...]],
    to_the_limit: bool = False,
) -> Vec:
    """The block move of ``unit`` up to ``distance`` toward ``goal`` along the better of
    two lines, each as far as ``allowed`` lets it go (:func:`longest_allowed`, with
    ``to_the_limit`` as there): from ``leader`` (a point of the unit, such as its
    model closest to the goal) and from the unit's centre. The better is the one
    ``score`` rates higher, its tuples compared in order (the line from ``leader``
    kept on a tie).

    From the centre alone, a unit in a line facing another as close moves
    diagonally toward the first end's model; from the leader it goes straight ahead.
    A unit in a blob coming in at an angle may do better from its centre."""

    def along(start: Vec | None) -> Vec:
        return longest_allowed(toward(unit, goal, distance, start), allowed, to_the_limit)

    return max((along(leader), along(None)), key=score)


def _scaled(vector: Vec, scale: float) -> Vec:
    return (vector[0] * scale, vector[1] * scale)


def _limit(vector: Vec, allowed: Callable[[Vec], bool], low: float, high: float) -> float:
    """The part of ``vector`` between ``low`` (allowed) and ``high`` (not) found by
    halving, to within :data:`LIMIT_PRECISION` inches: the last allowed."""
    length = math.hypot(*vector)
    while (high - low) * length > LIMIT_PRECISION:
        middle = (low + high) / 2
        if allowed(_scaled(vector, middle)):
            low = middle
        else:
            high = middle
    return low


def path_clear(battle: Battle, models: Iterable[Model], vector: Vec, blocking: list[Model]) -> bool:
    """Whether every model of ``models`` can move by ``vector`` in a straight line:
    it stays on the table and its base passes through no base of ``blocking``."""
    for model in models:
        start = model.position
        end = (start[0] + vector[0], start[1] + vector[1])
        if not battle.battlefield.on_table(end):
            return False
        for other in blocking:
            gap = segment_point_distance(start, end, other.position) - model.radius - other.radius
            if gap < -OVERLAP_TOLERANCE:
                return False
    return True


def shifted_gap(model: Model, vector: Vec, other: Model) -> float:
    """The distance between the bases of ``model`` moved by ``vector`` and ``other``."""
    x, y = model.position[0] + vector[0], model.position[1] + vector[1]
    centres = math.hypot(x - other.position[0], y - other.position[1])
    return centres - model.radius - other.radius


def shifted_copy(unit: Unit, shift: Vec) -> Unit:
    """A copy of ``unit`` with every model alive shifted by ``shift``: a move weighed
    before it is made (:meth:`Unit.copy`). Keep it alive while it is weighed: the
    estimates' answers may be remembered by the identity of the units asked about
    (``engine.memo``), as for a landing probed before it is made."""
    copied = unit.copy()
    for model in copied.alive_models:
        model.position = (model.position[0] + shift[0], model.position[1] + shift[1])
    return copied


def translate(unit: Unit, vector: Vec) -> None:
    """Set every model alive of ``unit`` down ``vector`` away, unlogged: a placement
    (deployment, redeployment, arrival), not a move."""
    for model in unit.alive_models:
        model.position = (model.position[0] + vector[0], model.position[1] + vector[1])


def shift_unit(battle: Battle, unit: Unit, vector: Vec, reason: str) -> float:
    """Move every model alive of ``unit`` by ``vector``; returns the distance moved
    (nothing is moved or logged under 0.01")."""
    length = math.hypot(*vector)
    if length < 0.01:
        return 0.0
    for model in unit.alive_models:
        shift_model(battle, unit, model, vector, reason)
    return length


def shift_model(battle: Battle, unit: Unit, model: Model, vector: Vec, reason: str) -> float:
    """Move one model of ``unit`` by ``vector`` (a unit's models moved one by one);
    returns the distance moved (nothing is moved or logged under 0.01")."""
    length = math.hypot(*vector)
    if length < 0.01:
        return 0.0
    start = model.position
    model.position = (start[0] + vector[0], start[1] + vector[1])
    battle.emit(
        ModelMoved(unit=unit.label, model=model.id, start=start, end=model.position, reason=reason)
    )
    return length
