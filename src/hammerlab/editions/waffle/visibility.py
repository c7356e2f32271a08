"""Who can see and reach whom: line of sight, range and cover for shooting."""

from __future__ import annotations

from functools import lru_cache

from hammerlab.editions.waffle.points import COVER_SAVE
from hammerlab.editions.waffle.special_rules import cover_bonus
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.geometry import Bases, Vec, gap_table, segment_point_distance
from hammerlab.engine.units import Model, Unit


def model_sees(battle: Battle, looker: Model, target: Model) -> bool:
    """True line of sight between two models' centres through the terrain."""
    return battle.battlefield.can_see(looker.position, target.position)


def visible_models(battle: Battle, shooters: list[Model], target: Unit) -> list[Model]:
    """Models of ``target`` that at least one of ``shooters`` can see (:func:`model_sees`,
    every pair at once: :meth:`Battlefield.sight_table`)."""
    return seen_among(battle, shooters, target.alive_models)


def seen_among(battle: Battle, lookers: list[Model], models: list[Model]) -> list[Model]:
    """Those of ``models`` that at least one of ``lookers`` can see (:func:`model_sees`),
    in their order, from one remembered sight table; on a table with no terrain every
    point sees every other (:meth:`Battlefield.sight_table`): all of them, where there is
    a looker, without the table's key (asked at every volley's allocation)."""
    if not battle.battlefield.terrain:
        return list(models) if lookers else []
    seen = _seen(
        battle.battlefield, tuple(s.position for s in lookers), tuple(m.position for m in models)
    )
    return [models[j] for j in seen]


@lru_cache(maxsize=1 << 14)
def _seen(
    field: Battlefield, lookers: tuple[Vec, ...], targets: tuple[Vec, ...]
) -> tuple[int, ...]:
    """Which of ``targets`` (their indices) some point of ``lookers`` sees: remembered
    by the points, as the sight table is (the terrain never changes in a battle)."""
    sight = field.sight_table(lookers, targets)
    return tuple(j for j in range(len(targets)) if any(row[j] for row in sight))


def seen_by_each(
    battle: Battle, shooters: list[Model], target: Unit
) -> tuple[tuple[int, ...], ...]:
    """For each of ``shooters``, the indices (in ``target.alive_models``) of the
    models it sees: :func:`visible_models` of each shooter alone, from one
    sight table for them all (on a table with no terrain, every one of them, as
    :func:`seen_among` finds)."""
    if not battle.battlefield.terrain:
        return (tuple(range(len(target.alive_models))),) * len(shooters)
    return _seen_each(
        battle.battlefield,
        tuple(s.position for s in shooters),
        tuple(t.position for t in target.alive_models),
    )


@lru_cache(maxsize=1 << 14)
def _seen_each(
    field: Battlefield, lookers: tuple[Vec, ...], targets: tuple[Vec, ...]
) -> tuple[tuple[int, ...], ...]:
    """Which of ``targets`` each point of ``lookers`` sees, remembered as :func:`_seen` is."""
    sight = field.sight_table(lookers, targets)
    return tuple(tuple(j for j in range(len(targets)) if row[j]) for row in sight)


def unit_can_see(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Seed 000, step 2: "The unit can shoot at an enemy unit that it can see"."""
    return bool(visible_models(battle, unit.alive_models, target))


def within(model: Model, targets: list[Model], inches: float) -> bool:
    """Whether ``model`` is within ``inches`` of at least one of ``targets``."""
    return any(gap <= inches for gap in gap_table([model], targets)[0])


JINK_COVER = 4
"""7th edition, Jink: "all models in the unit with this special rule gain a 4+ cover
save until the start of their next Movement phase"."""


INTERVENING_COVER = 5
"""6th/7th edition (as remembered; the seeds leave the base rule in force): a model
obscured by models of a unit other than its own, friend or foe, has a 5+ cover save
(7th edition's cover chart: "Intervening models 5+"); its own unit's models give it
none, and the firing unit's models are shot through (:func:`screening`)."""


def cover_save(
    battle: Battle,
    shooter: Model,
    target_unit: Unit,
    target: Model,
    gone_to_ground: bool,
    jinking: bool | None = None,
    from_point: Vec | None = None,
    screens: Bases | None = None,
) -> int | None:
    """The best cover save ``target`` (of ``target_unit``) has against shots from ``shooter``
    (seen from ``from_point`` where the shot counts as coming from elsewhere: a Barrage
    marker's centre, :func:`allocation.shot_origin`).

    A model in, or seen through, a terrain area with a cover save gets that
    save (the base rules' "25% obscured" judged by the line between the two
    models' centres). A model whose line from the firer crosses the base of a model
    of a third unit (``screens``: :func:`screening`, worked out here where not given)
    has the 5+ of intervening models (:data:`INTERVENING_COVER`). Going to Ground
    improves cover by 1, or gives 6+ where
    there is none (6th/7th-edition Go to Ground); Stealth and Shrouded
    improve it further (:func:`special_rules.cover_bonus`). A unit that Jinked
    has a 4+ cover save (:data:`JINK_COVER`, ``rules/jink.py``) if it has none
    better; ``jinking`` asks "what if" (``None``: as it is). Last, the rules
    installed on :data:`points.COVER_SAVE` change it in turn.
    """
    seen_from = shooter.position if from_point is None else from_point
    field = battle.battlefield  # no terrain, no terrain's cover: the table's key not made
    values = list(terrain_covers(field, seen_from, target.position)) if field.terrain else []
    if screens is None:
        screens = screening(battle, shooter, target_unit)
    if crosses_a_base(seen_from, target.position, screens):
        values.append(INTERVENING_COVER)
    if st(battle, target_unit).jinking if jinking is None else jinking:
        values.append(JINK_COVER)
    best = min(values) if values else None
    save = counted_cover(best, gone_to_ground, cover_bonus(target_unit))
    for rule in battle.hooks.get(COVER_SAVE):
        save = rule(battle, shooter, target_unit, target, save)
    return save


def screening(battle: Battle, shooter: Model, target_unit: Unit) -> Bases:
    """The bases that may stand between ``shooter`` and a model of ``target_unit`` and
    give it cover (:data:`INTERVENING_COVER`): every model alive on the table but those
    of ``target_unit`` and of the shooter's own unit (each known by its id, so a copy
    an estimate moves in thought is known as its unit). A volley works it out once for
    all its wounds (:func:`allocation.allocate_wounds`): only the target's models fall
    while they are allocated, and those screen nothing of their own unit.

    7th edition, as remembered: "models in the same unit can always see through each
    other", so a firer's squad-mates give no cover against its shots."""
    bases: list[tuple[Vec, float]] = []
    firer, victims = shooter.id, target_unit.id
    for unit in battle.units.values():
        if unit.id == victims:
            continue
        models = unit.models
        for model in models:  # a loop, not any() of a generator: asked of every volley
            if model.id == firer:
                break
        else:
            bases += [(m.position, m.radius) for m in models if m.wounds_left > 0]
    return tuple(bases)


def crosses_a_base(start: Vec, end: Vec, bases: Bases) -> bool:
    """Whether the line from ``start`` to ``end`` passes over one of ``bases`` (nearer its
    centre than its radius): the project's centre-to-centre sight line obscured by a
    model (docs/rules/waffle.md, interpretation 23). The bases clear of the box round the
    line are passed over without measuring."""
    (ax, ay), (bx, by) = start, end
    low_x, high_x = (ax, bx) if ax < bx else (bx, ax)
    low_y, high_y = (ay, by) if ay < by else (by, ay)
    for centre, radius in bases:
        x, y = centre
        if x + radius < low_x or x - radius > high_x or y + radius < low_y or y - radius > high_y:
            continue
        if segment_point_distance(start, end, centre) < radius:
            return True
    return False


@lru_cache(maxsize=1 << 14)
def terrain_covers(field: Battlefield, shooter: Vec, target: Vec) -> tuple[int, ...]:
    """The cover saves of the terrain areas a model at ``target`` is in or behind, seen
    from ``shooter`` (:func:`cover_save`'s terrain). Remembered by the points, as sight
    is (the terrain never changes in a battle): every wound's save asks it."""
    areas = field.cover_between(shooter, target)
    areas += [a for a in field.areas_at(target) if a.cover_save]
    return tuple([a.cover_save for a in areas if a.cover_save is not None])


def counted_cover(cover: int | None, gone_to_ground: bool, bonus: int) -> int | None:
    """The cover save a model counts, from the best it has (``cover``: terrain, Jink;
    ``None`` in the open): 1 better if its unit has gone to ground, and ``bonus``
    better (:func:`special_rules.cover_bonus`: Stealth, Shrouded), as
    :func:`improved_cover` improves it; unchanged where neither applies. What a
    battle's wound is saved with (:func:`cover_save`) and the exact odds' target
    counts (``analysis.odds_waffle``)."""
    better = int(gone_to_ground) + bonus
    return improved_cover(cover, better) if better else cover


def improved_cover(cover: int | None, better: int) -> int:
    """A cover save ``better`` points better, at best 2+; in the open (no cover)
    as if it were 7+, so 1 better gives 6+ (Go to Ground, Stealth, Shrouded)."""
    return max(2, (7 if cover is None else cover) - better)
