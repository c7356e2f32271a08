"""Blast markers and templates: where they may be placed, scatter, and whom they hit."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from shapely.geometry.base import BaseGeometry

from hammerlab.editions.waffle.characteristics import ballistic_skill
from hammerlab.editions.waffle.choice_details import terrain_text
from hammerlab.editions.waffle.events import (
    BarrageMarkerUnplaced,
    MarkerPlaced,
)
from hammerlab.editions.waffle.orders import Hit
from hammerlab.editions.waffle.profiles import WeaponProfile, blast_name
from hammerlab.editions.waffle.scatter_odds import SCATTER_HIT_FACES
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.visibility import model_sees, visible_models
from hammerlab.editions.waffle.wounds import weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import (
    BLAST_DIAMETER,
    SURELY_APART,
    TEMPLATE_LENGTH,
    Vec,
    base_distance,
    flame_template,
    offset,
    step_toward,
    touched,
    touched_by_marker,
)
from hammerlab.engine.units import Model, Unit


def aim_points(
    battle: Battle,
    unit: Unit,
    firer: Model,
    target: Unit,
    profile: WeaponProfile,
    *,
    reach: bool = True,
    first: Vec | None = None,
) -> list[Model]:
    """Target models ``firer`` (of ``unit``) may place its blast marker or template over
    (toward, for a further marker of a barrage whose first came to rest at ``first``:
    :func:`barrage_point`).

    A marker or template goes over a model the firer sees; a Barrage weapon needs
    no line of sight (6th/7th edition), so its marker may go over any model of the
    target, seen or not: aimed out of sight it scatters the full 2D6
    (:func:`blast_hits`; docs/rules/waffle.md, interpretation 11).

    A template is placed "so that its narrow end is touching the base of the firing
    model" (7th edition), and is 8" long: it goes over a model only where, aimed at it
    from the firer's base (:func:`template_nozzle`), it reaches it (:func:`reaches`).
    Aimed at a model farther off it would hit nothing, or only what lies on the way.
    Without ``reach`` that is not asked: an estimate that counts the target as nearer
    than it stands (``orders.FireOrders.counts_within``) has measured the range so.

    Seed 001: "blast markers and templates cannot be deliberately placed such
    that they cover any models locked in combat, they may end up there after
    scattering". A marker centred on the model (a further marker of a barrage: where
    it is placed toward it), or a template aimed at it, must touch no model of a unit
    locked in combat.

    7th edition, Template weapons: the template is placed so that "the rest of the
    template covers as many models in the target unit as possible, without touching
    any other friendly models (including models from the firing model's unit) … A
    template weapon never hits the model firing it" (the rulebook's text as quoted in
    the Dakka thread "Template Special Rule"; Horus Heresy 2.0 prints the same). A
    template aimed at the model must touch no friendly model but its firer
    (:func:`_friends_in_reach`); where every aim would, the model does not fire it
    (``attacks.firing_models``). docs/rules/waffle.md, *Templates*.
    """
    seen = _in_sight_and_reach(battle, firer, target, profile, reach)
    barred = [
        m
        for u in battle.units.values()
        if st(battle, u).locked_in_combat
        for m in u.alive_models
        if m is not firer
    ]
    if profile.template:
        barred += _friends_in_reach(battle, unit, firer)
    if not barred:
        return seen
    return [m for m in seen if not _placed(firer, m, profile, first)(barred)]


def _in_sight_and_reach(
    battle: Battle, firer: Model, target: Unit, profile: WeaponProfile, reach: bool = True
) -> list[Model]:
    """The models of ``target`` ``firer``'s marker or template may go over before
    asking what else it would touch (:func:`aim_points`): those it sees (a Barrage's:
    all), and, with ``reach``, of a template those it reaches (:func:`reaches`)."""
    if profile.barrage:
        seen = target.alive_models
    else:
        seen = visible_models(battle, [firer], target) or target.alive_models
    if profile.template and reach:
        seen = [m for m in seen if reaches(firer, m, profile)]
    return seen


def friends_in_the_way(
    battle: Battle, unit: Unit, firer: Model, target: Unit, profile: WeaponProfile
) -> bool:
    """Whether ``firer``'s template could be aimed at some model of ``target`` it sees
    and reaches, but every such aim touches a friendly model (:func:`aim_points`): what
    a person is told of a template not offered."""
    seen = _in_sight_and_reach(battle, firer, target, profile)
    friends = _friends_in_reach(battle, unit, firer)
    return bool(seen) and all(_placed(firer, m, profile)(friends) for m in seen)


def _friends_in_reach(battle: Battle, unit: Unit, firer: Model) -> list[Model]:
    """The models of ``unit``'s side, ``firer`` aside, that its template might touch:
    those no farther from its base than the template's length (it lies within 8" of its
    narrow end, on the firer's base edge), :data:`SURELY_APART` spared."""
    return [
        m
        for u in battle.units_of(unit.player)
        for m in u.alive_models
        if m is not firer and base_distance(firer, m) <= TEMPLATE_LENGTH + SURELY_APART
    ]


def template_nozzle(firer: Model, toward: Vec) -> Vec:
    """Where the narrow end of ``firer``'s template goes, aimed at ``toward``.

    7th edition: the template is placed "so that its narrow end is touching the
    base of the firing model": the firer's centre moved out by its base radius
    toward the aim, so the template reaches as far from the base edge as the
    range check (``firepower.effective_range``, base to base) lets it fire.
    """
    x, y = firer.position
    angle = math.atan2(toward[1] - y, toward[0] - x)
    return (x + math.cos(angle) * firer.radius, y + math.sin(angle) * firer.radius)


def reaches(firer: Model, aim: Model, profile: WeaponProfile) -> bool:
    """Whether ``firer``'s template aimed at ``aim`` lies over ``aim``'s base: whether
    ``aim`` is at most the template's length (8") from ``firer``'s base, as the
    template's own shape finds it (no model farther, base to base, than the length
    plus :data:`SURELY_APART` is asked of the shape)."""
    if base_distance(firer, aim) > TEMPLATE_LENGTH + SURELY_APART:
        return False
    return bool(_placed(firer, aim, profile)([aim]))


def template_middle(firer: Model, aim: Model) -> Vec:
    """The middle of ``firer``'s template aimed at ``aim``: half its length out from its
    narrow end (:func:`template_nozzle`), where the log says it lies."""
    x, y = firer.position
    angle = math.atan2(aim.position[1] - y, aim.position[0] - x)
    out = firer.radius + TEMPLATE_LENGTH / 2
    return (x + math.cos(angle) * out, y + math.sin(angle) * out)


Under = Callable[[list[Model]], list[Model]]
"""Those of some models a placed marker or template touches, in their order."""


def _placed(firer: Model, aim: Model, profile: WeaponProfile, first: Vec | None = None) -> Under:
    """What the template from ``firer``'s base edge toward ``aim``
    (:func:`template_nozzle`), or the marker placed over ``aim`` (a further marker of a
    barrage whose first came to rest at ``first``: :func:`barrage_point`), touches."""
    if profile.template:
        return _under_shape(flame_template(template_nozzle(firer, aim.position), aim.position))
    diameter = profile.blast or BLAST_DIAMETER
    return _under_marker(barrage_point(first, aim.position, diameter), diameter)


def barrage_point(first: Vec | None, aim: Vec, diameter: float) -> Vec:
    """Where a blast marker aimed at ``aim`` is placed before it scatters: on it, or,
    a further marker of a barrage whose first marker came to rest at ``first``,
    touching that first marker, as near to ``aim`` as that allows: centred on it where
    it lies within one marker's ``diameter`` of the first's centre (the two overlap or
    meet edge to edge), else one diameter from the first's centre straight toward it
    (edge to edge). docs/rules/waffle.md, interpretation 20."""
    return aim if first is None else step_toward(first, aim, diameter)


def _under_shape(shape: BaseGeometry) -> Under:
    return lambda models: touched(shape, models)


def _under_marker(centre: Vec, diameter: float) -> Under:
    return lambda models: touched_by_marker(centre, diameter, models)


def _aim(
    battle: Battle,
    unit: Unit,
    target: Unit,
    firer: Model,
    profile: WeaponProfile,
    points: list[Model],
    first: Vec | None = None,
) -> Model:
    """Ask the firing player which of ``points`` (:func:`aim_points`) to place a marker
    or template on (a further marker of a barrage, whose first came to rest at
    ``first``: toward which, touching the first)."""
    what = "template" if profile.template else "blast marker"
    prompt = f"Place the {what} of {unit.label} over which model of {target.label}?"
    if first is not None:
        prompt = (
            f"Place the next blast marker of {unit.label}'s barrage touching the first, "
            f"toward which model of {target.label}?"
        )
    return battle.decide(
        Decision(
            kind="aim",
            player=unit.player,
            prompt=prompt,
            choices=tuple(Choice(m.id, m) for m in points),
            context=DecisionContext(
                unit=unit.id, target=target.id, weapon=profile.name, models=(firer.id,), what=what
            ),
            describe=describe_aim(battle, unit, firer, profile, first),
        )
    )


def describe_aim(
    battle: Battle, unit: Unit, firer: Model, profile: WeaponProfile, first: Vec | None = None
) -> Callable[[Model], str]:
    """What a person placing ``firer``'s marker or template over a model is told of
    each model: where it stands, how far from the firer (base to base), its terrain,
    and how many models of each unit the marker centred on it, or the template
    aimed at it, would cover before any scatter (the enemy's first, then the firer's
    own side's, marked ``your``): ``(31.5, 40.9), 14.2" away; covers 3 of Tactical
    Squad [tactical]``. A further marker of a barrage (``first``: where its first came
    to rest) covers what it would where it is placed (:func:`barrage_point`)."""

    def describe(aim: Model) -> str:
        x, y = aim.position
        where = f'({x:.1f}, {y:.1f}), {base_distance(firer, aim):.1f}" away'
        terrain = terrain_text(battle, [aim.position])
        counts = covered(battle, firer, aim, profile, first)
        units = [battle.unit(uid) for uid in counts]  # the enemy's first, then yours
        under = [
            f"{counts[u.id]} of {'your ' if u.player == unit.player else ''}{u.label}"
            for u in sorted(units, key=lambda u: u.player == unit.player)
        ]
        return "; ".join(
            part for part in (where, terrain, f"covers {', '.join(under)}" if under else "") if part
        )

    return describe


def covered(
    battle: Battle, firer: Model, aim: Model, profile: WeaponProfile, first: Vec | None = None
) -> Counter[str]:
    """How many models of each unit (by id, in the battle's order) ``firer``'s marker
    placed over ``aim`` (``first``: :func:`barrage_point`), or its template aimed at it,
    would cover before any scatter, friend or foe; the firer's template starts at its
    base, so never covers it."""
    everyone = [
        (u, m)
        for u in battle.units.values()
        for m in u.alive_models
        if not (profile.template and m is firer)
    ]
    under = set(map(id, _placed(firer, aim, profile, first)([m for _, m in everyone])))
    return Counter(u.id for u, m in everyone if id(m) in under)


def _hits_under(battle: Battle, under: Under, exclude: Model | None) -> list[Hit]:
    """One hit for each model (friend or foe) ``under`` the marker or template."""
    hits: list[Hit] = []
    for victim in battle.units.values():
        for model in under(victim.alive_models):
            if model is not exclude:
                hits.append(Hit(victim, 0, model))
    return hits


def _record_marker(
    battle: Battle,
    profile: WeaponProfile,
    shape: str,
    centre: Vec,
    scattered: float,
    hits: list[Hit],
) -> None:
    counts = Counter(h.unit.label for h in hits)
    battle.emit(
        MarkerPlaced(
            weapon=profile.name, shape=shape, centre=centre, scattered=scattered, hits=dict(counts)
        )
    )


def _with_strength(
    battle: Battle,
    unit: Unit,
    hits: list[Hit],
    source: Model,
    profile: WeaponProfile,
    marker: Vec | None = None,
) -> list[Hit]:
    """``hits`` from ``source`` at the weapon's Strength in its hands, made by the blast
    marker centred on ``marker`` (``None``: a template)."""
    strength = weapon_strength(battle, unit, source, profile)
    return [Hit(h.unit, strength, source, marker=marker) for h in hits]


def template_hits(
    battle: Battle, unit: Unit, target: Unit, models: list[Model], profile: WeaponProfile
) -> list[Hit]:
    """Templates "need no to-hit roll" and hit every model under them."""
    hits: list[Hit] = []
    for model in models:
        points = aim_points(battle, unit, model, target, profile)
        aim = _aim(battle, unit, target, model, profile, points)
        placed = _hits_under(battle, _placed(model, aim, profile), model)
        under = _with_strength(battle, unit, placed, model, profile)
        _record_marker(battle, profile, "template", template_middle(model, aim), 0.0, under)
        hits += under
    return hits


class Scatter(NamedTuple):
    """Where a scattered point came to rest (:func:`scatter`)."""

    point: Vec
    distance: float
    """How far it moved."""
    hit: bool
    """Whether the scatter die showed a HIT (it stayed where it was placed)."""


def scatter(battle: Battle, point: Vec, reduction: int = 0) -> Scatter:
    """Roll the scatter die at ``point``: where it ends up, how far it moved, and
    whether the die showed a HIT.

    6th/7th edition: "roll the scatter dice and 2D6": on a HIT symbol the
    point stays; otherwise it moves the 2D6 total, less ``reduction`` (a
    blast's firer's BS; never below 0), in the direction of the arrow. The
    point may leave the table: each caller says what that means (a blast
    marker is kept on it, a Deep Strike mishaps).
    """
    if battle.dice.d6("scatter die (1-2: HIT)") <= SCATTER_HIT_FACES:
        return Scatter(point, 0.0, True)
    direction = battle.dice.direction("scatter direction")
    roll = battle.dice.total(2, "scatter distance (2D6)")
    distance = float(max(0, roll - reduction))
    return Scatter(offset(point, direction, distance), distance, False)


@dataclass(frozen=True)
class ScatterChoice:
    """A choice of a Twin-linked Blast weapon's player whose scatter die did not roll a
    HIT (:func:`twin_linked_scatter`): keep the marker where it came to rest, or
    re-roll the scatter."""

    reroll: bool
    placed: Vec
    """Where the marker was placed before it scattered."""
    landed: Vec
    """Where it came to rest, on the table."""
    reduction: int
    """What a scatter's 2D6 lose (the firer's BS; 0 aimed out of its sight)."""
    diameter: float
    """The marker's size (3" a blast, 5" a large blast)."""


def twin_linked_scatter(
    battle: Battle,
    unit: Unit,
    firer: Model,
    profile: WeaponProfile,
    placed: Vec,
    reduction: int,
    diameter: float,
) -> Scatter:
    """Scatter a marker placed at ``placed`` (:func:`scatter`), brought back onto the
    table where it left it; a Twin-linked weapon's player may have it scatter again.

    7th edition, Twin-linked (``Warhammer40K.gst``): "For a Blast weapon, if the scatter
    dice does not roll a hit, you can choose to re-roll the dice with a Twin-linked
    Blast weapon. If you choose to do so, you must re-roll both the 2D6 and the
    scatter dice." The firing player is asked (a ``scatter_reroll`` decision, keep
    first) when the die showed no HIT; the re-roll's result stands."""
    landed = scatter(battle, placed, reduction)
    centre = battle.battlefield.clamp(landed.point)
    kept = landed._replace(point=centre)
    if landed.hit or not profile.has_rule("Twin-linked"):
        return kept
    keep = ScatterChoice(False, placed, centre, reduction, diameter)
    under = Counter(
        h.unit.label for h in _hits_under(battle, _under_marker(centre, diameter), None)
    )
    what = ", ".join(f"{n} of {label}" for label, n in under.items()) or "nothing"
    choice = battle.decide(
        Decision(
            kind="scatter_reroll",
            player=unit.player,
            prompt=(
                f"{unit.label}: the blast marker of {profile.name} scattered "
                f'{landed.distance:.1f}" to ({centre[0]:.1f},{centre[1]:.1f}), over {what}. '
                "Keep it, or re-roll the scatter die and the 2D6 (Twin-linked)?"
            ),
            choices=(Choice("keep", keep), Choice("re-roll", replace(keep, reroll=True))),
            context=DecisionContext(
                unit=unit.id, weapon=profile.name, models=(firer.id,), what="blast marker"
            ),
        )
    )
    if not choice.reroll:
        return kept
    again = scatter(battle, placed, reduction)
    return again._replace(point=battle.battlefield.clamp(again.point))


def blast_hits(
    battle: Battle, unit: Unit, target: Unit, models: list[Model], profile: WeaponProfile
) -> list[Hit]:
    """Blast markers scatter 2D6 minus BS unless the scatter die shows a hit.

    A Barrage weapon firing at a target it cannot see scatters the full 2D6.

    The markers of a Barrage weapon fired together (every model firing it, every
    shot) are one barrage, as the 6th/7th-edition "Multiple Barrages" rule plays it
    (as remembered; neither the seeds nor the shared data print it): the first marker
    is placed and scattered, then each further marker is placed touching the first
    where it came to rest (:func:`barrage_point`), and scatters in turn. The shared
    data's Tyranid catalogue speaks of it (Spore Burst, Codex: Tyranids p. 65): "If,
    when the final position of the first blast marker in the barrage is determined,
    there are no models (friend or foe) under it, place D3 Spore Mine models anywhere
    under the blast marker". docs/rules/waffle.md, interpretation 20.
    """
    hits: list[Hit] = []
    diameter = profile.blast or BLAST_DIAMETER
    first: Vec | None = None  # where the barrage's first marker came to rest (a Barrage)
    for model in models:
        for _ in range(profile.shots):
            points = aim_points(battle, unit, model, target, profile, first=first)
            if not points:  # a later marker of a barrage (firing_models fires none without)
                battle.emit(BarrageMarkerUnplaced(unit.label, profile.name))
                continue
            aim = _aim(battle, unit, target, model, profile, points, first)
            bs = ballistic_skill(battle, model) if model_sees(battle, model, aim) else 0
            placed = barrage_point(first, aim.position, diameter)
            centre, distance, _ = twin_linked_scatter(
                battle, unit, model, profile, placed, bs, diameter
            )
            if profile.barrage and first is None:
                first = centre
            covered = _hits_under(battle, _under_marker(centre, diameter), None)
            under = _with_strength(battle, unit, covered, model, profile, centre)
            name = blast_name(diameter).lower()
            _record_marker(battle, profile, name, centre, distance, under)
            hits += under
    return hits
