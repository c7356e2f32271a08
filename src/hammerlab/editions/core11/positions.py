"""What core11 measures on the table: engagement, range, sight and cover.

All distances are base to base, in inches, as the engine measures them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from math import inf
from operator import is_
from typing import NamedTuple

from hammerlab.editions.core11.profiles import (
    BIG_KINDS,
    DefenceStats,
    estimated_defence,
    is_monster_or_vehicle,
    model_keywords,
    unit_keywords,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.geometry import MM_PER_INCH, Vec, base_distance, gap_table, out_of_reach
from hammerlab.engine.memo import per_decision
from hammerlab.engine.units import Model, Unit, models_edited

ENGAGEMENT_RANGE = 2.0
"""03.04: "A model's engagement range is the area of the battlefield within 2"
horizontally and 5" vertically of it. While a friendly model is within
engagement range of one or more enemy models, those models – and the units they
belong to – are engaged with each other. While a unit contains no engaged
models, that unit is unengaged."

Measured base to base on the flat table (the engine has no height, so the 5"
vertical part always holds).
"""
COVER_KINDS = frozenset({"INFANTRY", "BEASTS", "SWARM"})
"""13.08: "That model has the INFANTRY/BEASTS/SWARM keyword and is within a terrain area." """


def engaged_with(battle: Battle, unit: Unit) -> list[Unit]:
    """Enemy units within engagement range of ``unit``, in the battle's order of units
    (read off :func:`_engagements`, worked out once per arrangement of the table)."""
    pairs = engagements(battle)
    return [battle.units[enemy] for enemy in pairs.get(unit.id, ())]


def is_engaged(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` is engaged."""
    return unit.id in engagements(battle)


def engagements(battle: Battle) -> Mapping[str, tuple[str, ...]]:
    """Each engaged unit's id → the ids of the enemy units within engagement range of
    it, in the battle's order (:func:`_engagements` of the battle's arrangement; read
    it once where several units' engagement is asked at one moment).

    The last arrangement asked about is compared first: between two moves or
    casualties it is the same, and comparing it (the same position tuples, found
    by identity) is cheaper than hashing it for the cache."""
    arranged = arrangement(battle)
    last = _LAST.asked
    if last is not None and last[0] == arranged:
        return last[1]
    found = _engagements(arranged)
    _LAST.asked = (arranged, found)  # one reference swapped: never a key with another's answer
    return found


class _Last:
    """The arrangement :func:`engagements` was last asked about, and its answer."""

    asked: tuple[Arrangement, Mapping[str, tuple[str, ...]]] | None = None


_LAST = _Last()


Placement = tuple[tuple[Vec, float], ...]
"""The centres and base sizes (mm) of some models."""
Arrangement = tuple[tuple[str, str, Placement], ...]
"""Each unit's id, player and the centres and base sizes (mm) of its models alive."""


def arrangement(battle: Battle) -> Arrangement:
    """What engagement depends on: who stands where, on which base, for which side.

    Engagement is asked many times between two changes of the table (every
    eligibility, every model's attack): the answer is a function of this alone."""
    return tuple([(unit.id, unit.player, placed(unit)) for unit in battle.units.values()])


def placed(unit: Unit) -> Placement:
    """The centres and base sizes (mm) of the models alive of ``unit`` (what a
    distance to it depends on).

    Asked of every unit at every eligibility, engagement and distance, far more often
    than any model moves or is slain, so the answer is given again (:data:`_PLACED`)
    while no model anywhere has been edited (:func:`models_edited` reads the same: a
    model changes only by a field being set) and the unit holds the same models, in
    order (compared by identity, else by value: ``Model.__eq__`` compares every
    field, and the answer is a function of those fields alone). The number counts
    the edits of every battle in the process, so games played side by side (the web
    server's threads) answer afresh more often, never wrongly."""
    models = tuple(unit.models)
    edited = models_edited()
    known = _PLACED.get(id(unit))
    if known is not None and known[0] == edited and known[1] == models:
        return known[2]
    placement = tuple([(m.position, m.base_mm) for m in models if m.wounds_left > 0])
    if len(_PLACED) >= _PLACED_KEPT:
        _PLACED.clear()
    _PLACED[id(unit)] = (edited, models, placement)
    return placement


_PLACED: dict[int, tuple[int, tuple[Model, ...], Placement]] = {}
"""Each unit's last :func:`placed`, by the unit's identity: the :func:`models_edited`
number read then, its models and the answer. The answer is a function of the models'
fields alone, so a unit that comes to take another's identity (its models compared by
value) is answered rightly too."""
_PLACED_KEPT = 1024
"""Units :data:`_PLACED` keeps before it forgets them all (the units of the last few
hundred battles)."""


def _bases(placement: Placement) -> list[_Base]:
    """The bases of ``placement``, each radius as :attr:`Model.radius` works it out."""
    return [_Base(position, base_mm / MM_PER_INCH / 2.0) for position, base_mm in placement]


class _Base(NamedTuple):
    """A base on the table, as :mod:`geometry` measures it."""

    position: Vec
    radius: float


@lru_cache(maxsize=1024)
def _engagements(arranged: Arrangement) -> dict[str, tuple[str, ...]]:
    """Each engaged unit's id → the ids of the enemy units within engagement range of
    it, in the arrangement's order (every pair of models measured at once by
    :func:`geometry.gap_table`; units surely out of range,
    :func:`geometry.out_of_reach`, are not measured). Read, never changed."""
    bases = {unit: _bases(models) for unit, _, models in arranged}
    found: dict[str, tuple[str, ...]] = {}
    for unit, player, _ in arranged:
        ours = bases[unit]
        engaged = tuple(
            enemy
            for enemy, side, _ in arranged
            if side != player
            and (theirs := bases[enemy])
            and not out_of_reach(ours, theirs, ENGAGEMENT_RANGE)
            and any(gap <= ENGAGEMENT_RANGE for row in gap_table(ours, theirs) for gap in row)
        )
        if engaged:
            found[unit] = engaged
    return found


class Sightlines:
    """What the models alive of one unit have of one enemy unit at one moment, for
    every weapon at once: how far each stands from the target's closest model, whether
    it sees one, whether the target has the benefit of cover against it, whether it is
    a MONSTER/VEHICLE (:class:`Drawn`); and how the two units stand engaged
    (:func:`sightlines`)."""

    def __init__(self, battle: Battle, unit: Unit, target: Unit) -> None:
        drawn = _drawn(battle, unit, target)
        self.target = target
        self.target_models = drawn.target_models
        """The target's models alive."""
        self.nearest = drawn.nearest
        """The distance between the two units (:func:`unit_distance`)."""
        self.closest = drawn.closest
        """Each model's distance to the target's closest model alive, by its ``id``."""
        self.big = drawn.big
        """Whether each model is a MONSTER or a VEHICLE, by its ``id``."""
        self._drawn = drawn
        pairs = engagements(battle)
        self.unit_engaged = unit.id in pairs
        self.engaged = target.id in pairs.get(unit.id, ())
        """Whether the two units are engaged with each other."""
        self.target_engaged = target.id in pairs
        # whether the target is a MONSTER/VEHICLE unit matters only while it is engaged (17.03)
        self.target_big = self.target_engaged and not BIG_KINDS.isdisjoint(unit_keywords(target))

    @property
    def defence(self) -> DefenceStats:
        """The target's defence as an estimate reads it (:func:`profiles.estimated_defence`),
        read once for all the weapons weighed along these lines (:class:`Drawn`)."""
        return self._drawn.defence

    @property
    def sight(self) -> dict[int, bool]:
        """Whether each model sees a model alive of the target (:func:`seeing`), by its
        ``id``."""
        return self._drawn.sight

    @property
    def cover(self) -> dict[int, bool]:
        """Whether the target has the benefit of cover against each model's ranged
        attacks (:func:`has_cover`), by its ``id``."""
        return self._drawn.cover


class Drawn:
    """What each model alive of one unit has of the models alive of another, standing
    where they stand: the distance to the closest (:func:`geometry.gap_table`), whether
    it is a MONSTER/VEHICLE, and, worked out for all at the first question, whether it
    sees one (:func:`seeing`) and whether they have the benefit of cover against its
    ranged attacks (:func:`has_cover`); each by the model's ``id`` (the models are kept
    alive); and the other's defence as an estimate reads it
    (:func:`profiles.estimated_defence`). Read off the two units' models alone: the
    same while no model is edited (:func:`_drawn`)."""

    def __init__(self, battle: Battle, unit: Unit, target: Unit) -> None:
        self._field, self._target = battle.battlefield, target
        self._models = models = unit.alive_models
        aimed_at = target.alive_models
        self.target_models = len(aimed_at)
        self._ids = ids = [id(m) for m in models]
        rows = gap_table(models, aimed_at)  # distance_to, all at once
        self.closest = dict(zip(ids, [min(row, default=inf) for row in rows], strict=True))
        self.nearest = min(self.closest.values(), default=inf)
        self.big = dict(zip(ids, [is_monster_or_vehicle(m, unit) for m in models], strict=True))

    @cached_property
    def defence(self) -> DefenceStats:
        """See :class:`Drawn`."""
        return estimated_defence(self._target)

    @cached_property
    def sight(self) -> dict[int, bool]:
        """See :class:`Drawn`."""
        seen = _seeing(self._field, self._models, self._target)
        return dict(zip(self._ids, seen, strict=True))

    @cached_property
    def cover(self) -> dict[int, bool]:
        """See :class:`Drawn`."""
        covered = _covered(self._field, self._models, self._target)
        return dict(zip(self._ids, covered, strict=True))


def _drawn(battle: Battle, unit: Unit, target: Unit) -> Drawn:
    """The :class:`Drawn` lines of ``unit`` to ``target``, given again while both units
    stand as they stood (:data:`_DRAWN`): each one's :func:`placed` is the very tuple it
    was then (no model anywhere has been edited since, :func:`placed`'s own test) and
    ``unit`` holds the same model objects (the lines are kept by their ``id``). Between
    two moves or casualties the same lines are asked for by every weapon, decision and
    attack of a volley, and a move weighed before it is made is drawn again when made."""
    ours, theirs = placed(unit), placed(target)
    key = (id(unit), id(target))
    kept = _DRAWN.get(key)
    if kept is not None and kept[0] is ours and kept[1] is theirs:
        models, drawn = kept[2], kept[3]
        now = unit.models
        if len(models) == len(now) and all(map(is_, models, now)):
            return drawn
    drawn = Drawn(battle, unit, target)
    if len(_DRAWN) >= _DRAWN_KEPT:
        _DRAWN.clear()
    _DRAWN[key] = (ours, theirs, tuple(unit.models), drawn)
    return drawn


_DRAWN: dict[tuple[int, int], tuple[Placement, Placement, tuple[Model, ...], Drawn]] = {}
""":func:`_drawn`'s answers by the identities of the two units (each answer keeps both
alive, so no identity is reused meanwhile, and their battlefield, not their battle):
their placements and the unit's models then, and the lines."""
_DRAWN_KEPT = 512
"""Pairs of units :data:`_DRAWN` keeps before it forgets them all (a battle's pairs, and
the copies of units an AI moves in thought, of the last few battles)."""


@per_decision
def sightlines(battle: Battle, unit: Unit, target: Unit) -> Sightlines:
    """:class:`Sightlines` of ``unit`` to ``target`` now: drawn once per decision an AI
    weighs (:func:`memo.per_decision`: every weapon of the unit, every profile and
    shooting type weighed, asks the same of the same models), afresh elsewhere (the
    lines themselves, :func:`_drawn`, given again while the two units stand still)."""
    return Sightlines(battle, unit, target)


def distance_to(model: Model, unit: Unit) -> float:
    """Distance from ``model`` to the closest model alive of ``unit`` (base to base,
    read off :func:`geometry.gap_table`, remembered while they stand still)."""
    return min(gap_table((model,), unit.alive_models)[0], default=float("inf"))


def unit_distance(a: Unit, b: Unit) -> float:
    """Distance between the closest models of two units."""
    return _closest_gap(placed(a), placed(b))


@lru_cache(maxsize=1 << 14)
def _closest_gap(a: Placement, b: Placement) -> float:
    """The least of :func:`geometry.gap_table` between two placements (cached: asked
    for the same units standing still by every choice of a target or a heading)."""
    table = gap_table(_bases(a), _bases(b))
    return min((min(row) for row in table if row), default=float("inf"))


def closest_pair(unit: Unit, target: Unit) -> tuple[Model, Model]:
    """The model alive of ``unit`` and the model alive of ``target`` closest to each
    other (base to base; the first such pair where several are as close)."""
    pairs = [(m, t) for m in unit.alive_models for t in target.alive_models]
    return min(pairs, key=lambda pair: base_distance(*pair))


def sees(battle: Battle, model: Model, unit: Unit) -> bool:
    """Whether ``model`` can see at least one model alive of ``unit``."""
    return seeing(battle, [model], unit)[0]


def seeing(battle: Battle, models: Sequence[Model], unit: Unit) -> list[bool]:
    """For each of ``models``, whether it can see at least one model alive of ``unit``
    (every pair read at once off the battlefield's sight table, remembered by the
    points: :meth:`Battlefield.sight_table`)."""
    return _seeing(battle.battlefield, models, unit)


def _seeing(field: Battlefield, models: Sequence[Model], unit: Unit) -> list[bool]:
    """:func:`seeing` on ``field``."""
    lookers = tuple([m.position for m in models])
    targets = tuple([m.position for m in unit.alive_models])
    return [any(row) for row in field.sight_table(lookers, targets)]


def spotted(battle: Battle, player: str, unit: Unit) -> bool:
    """Whether ``unit`` is visible to one or more units of ``player``'s army."""
    return any(any(seeing(battle, u.alive_models, unit)) for u in battle.units_of(player))


def has_cover(battle: Battle, models: Sequence[Model], unit: Unit) -> list[bool]:
    """For each of ``models``, whether ``unit`` has the benefit of cover against its
    ranged attacks.

    13.08: "Each time a ranged attack targets a unit, if every model in that unit
    meets one or more of the following conditions, that unit has the benefit of
    cover against that attack: That model has the INFANTRY/BEASTS/SWARM keyword
    and is within a terrain area. That model is not fully visible to the
    attacking model due to one or more intervening terrain features and/or one or
    more intervening obscuring terrain areas (13.10)."

    On hammerlab's flat table a terrain area takes part when the scenario says it
    gives cover (``cover = N``); a model is "not fully visible due to intervening
    terrain" when the line from the attacking model to it crosses such an area
    that neither of them stands in.
    """
    return _covered(battle.battlefield, models, unit)


def _covered(field: Battlefield, models: Sequence[Model], unit: Unit) -> list[bool]:
    """:func:`has_cover` on ``field``."""
    targets = tuple(
        (m.position, bool(COVER_KINDS & model_keywords(unit, m))) for m in unit.alive_models
    )
    against = _cover_against(field, targets)
    known = against.known
    answers = []
    for model in models:
        shooter = model.position
        if shooter not in known:
            known[shooter] = _has_cover(field, shooter, against)
        answers.append(known[shooter])
    return answers


Targets = tuple[tuple[Vec, bool], ...]
"""The points of some target models, each with whether it is INFANTRY/BEASTS/SWARM."""


class _Against:
    """:func:`has_cover` against target models standing as a :data:`Targets` says: the
    points of those not in cover whoever shoots (13.08's first condition: an
    INFANTRY/BEASTS/SWARM model within a terrain area is), each with the areas it
    stands in; and each shooter's point's answer, filled in as it is asked about."""

    def __init__(self, field: Battlefield, targets: Targets) -> None:
        self.any = bool(targets)
        self.exposed: list[tuple[Vec, list[TerrainArea]]] = []
        for point, kind in targets:
            here = field.areas_at(point)
            if not (kind and any(a.cover_save is not None for a in here)):
                self.exposed.append((point, here))
        self.known: dict[Vec, bool] = {}


@lru_cache(maxsize=1 << 10)
def _cover_against(field: Battlefield, targets: Targets) -> _Against:
    """:class:`_Against` on ``field`` the target models standing as ``targets`` say
    (terrain never changes during a battle, and the same models shoot at the same
    targets from where they stand, volley after volley): the target models are hashed
    once per volley, not once per shooting model, and which of them stand in cover
    whoever shoots is worked out once."""
    return _Against(field, targets)


def _has_cover(field: Battlefield, shooter: Vec, against: _Against) -> bool:
    """:func:`has_cover` against a model at ``shooter`` of the target models of
    ``against``: each of them not in cover whoever shoots is not fully visible to it
    (13.08's second condition)."""
    return against.any and all(
        any(area not in here for area in field.cover_between(shooter, point))
        for point, here in against.exposed  # area.contains(point), read off the areas there
    )
