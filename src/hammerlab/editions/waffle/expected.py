"""Expected values of attacks for the AI, read through the rules' own functions.

Averages, not distributions: cheap enough to run for every choice, good
enough to rank them. Nothing here re-implements a rule; every step asks the
function the battle resolves it with:

- who fires, with how many shots, and whether as Snap Shots:
  :func:`attacks.firing_models`, :func:`firepower.shots_of_each`,
  :func:`snap_shots.fires_snap`, and the rules installed on "weapon would fire"
  (Suppressive Fire forbids Snap Shots);
- the BS of a Snap Shot: :func:`tables.snap_shot_bs` with the battle's
  parameters ``snap_shot_divisor`` and ``snap_shot_minimum_bs``;
- a hit: :func:`estimate.p_hit` (:func:`tables.ballistic_target`,
  :func:`tables.miss_reroll`); a blow: :func:`estimate.p_blow`, the seed's chart;
- a wound, by the AP it has: :func:`odds.wound_chances` (``wounds.wound_target``,
  Poisoned, Shred, Rending, Overwhelming Strength);
- its fate: :func:`odds.wound_fate` (``allocation.saves_against`` with armour,
  invulnerable and cover saves, ``allocation.instant_death`` with Eternal
  Warrior and Instant Death weapons, Feel No Pain);
- the models a blast marker hits: those of the target it covers placed over the
  model the AI would aim it at (:func:`marker_covers`: :func:`markers.barrage_point`,
  :func:`geometry.touched_by_marker`, as :func:`markers.blast_hits` finds them);
- cover: :func:`visibility.cover_save` from a firing model to the closest
  target model (gone to ground counted); for a Barrage weapon, from the centre of
  its marker to the model closest to it, as the wounds are allocated
  (:func:`allocation.shot_origin`, :func:`allocation.wounds_from`), the marker
  expected over the model the AI would aim it at (:func:`likely_aim`);
- who fights a charge's first round: the 6th/7th-edition engagement rule
  :func:`combat.engaged_models` reads off the table (base contact, or within
  :data:`combat.ENGAGED_SUPPORT` of a friend in contact), read ahead of the
  charge move by :func:`charged_fighters`.

The exact distribution of one volley is :func:`odds.shooting_odds`; the AI uses
it where a threshold matters (:mod:`suppression`), not for ranking.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from hammerlab.editions.waffle.allocation import shot_origin, wounds_from
from hammerlab.editions.waffle.artillery import is_gun
from hammerlab.editions.waffle.attacks import firing_each, firing_models, longest_reach, shot_bs
from hammerlab.editions.waffle.characteristics import armour_save, invulnerable_save
from hammerlab.editions.waffle.charge import charge_bonus, through_difficult_terrain
from hammerlab.editions.waffle.combat import ENGAGED_SUPPORT
from hammerlab.editions.waffle.difficult_charge import (
    has_assault_grenades,
    strikes_at_initiative_one,
)
from hammerlab.editions.waffle.estimate import p_blow, p_cell, p_hit
from hammerlab.editions.waffle.fear import failed_fear, majority_weapon_skill, weapon_skill
from hammerlab.editions.waffle.fight import (
    initiative,
    melee_options,
    second_weapon_bonus,
)
from hammerlab.editions.waffle.firepower import (
    shots_of_each,
    weapons_per_phase,
)
from hammerlab.editions.waffle.firing_modes import is_grenade, may_fire, spend
from hammerlab.editions.waffle.hatred import blow_reroll, first_round
from hammerlab.editions.waffle.markers import aim_points, barrage_point, covered
from hammerlab.editions.waffle.odds import Defence, Volley, wound_chances, wound_fate
from hammerlab.editions.waffle.odds_vehicles import hit_value
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import (
    ARMOUR_SAVE,
    FAILED_WOUNDS_REROLLED,
    HIT_ONES_REROLLED,
    INVULNERABLE_SAVE,
    STRENGTH,
    TOUGHNESS,
    WEAPON_SKILL,
    WEAPON_WOULD_FIRE,
    WOUND_ONES_REROLLED,
)
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.rerolls import (
    failed_wounds_rerolled,
    hit_ones_rerolled,
    volley_rerolls,
    wound_ones_rerolled,
    wound_rerolls,
)
from hammerlab.editions.waffle.scatter_odds import OWN_MODEL_WEIGHT
from hammerlab.editions.waffle.snap_shots import fires_snap, snaps_of
from hammerlab.editions.waffle.special_rules import (
    close_combat_strength,
    close_combat_weapon,
    feel_no_pain,
    model_has,
    single_attack,
)
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import fights_in_melee, is_vehicle, melee_cell_against
from hammerlab.editions.waffle.visibility import cover_save, screening
from hammerlab.editions.waffle.wounds import (
    typical_profile,
    unit_toughness,
    weapon_strength,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import (
    BLAST_DIAMETER,
    Bases,
    Vec,
    base_distance,
    centre_distance,
    closest,
    gap_table,
    touched_by_marker,
)
from hammerlab.engine.memo import per_decision
from hammerlab.engine.records import quick_init
from hammerlab.engine.units import Model, Unit

TEMPLATE_HITS = 3
"""Models a template is expected to hit (fewer if the unit has fewer): where it lies
depends on where its firer stands when it fires, which an estimate made "as if
nearer" (``FireOrders.counts_within``) does not know."""


def per_marker(
    battle: Battle, unit: Unit, firer: Model, target: Unit, profile: WeaponProfile, models: int
) -> int:
    """Models of ``target`` one shot of ``profile`` fired by ``firer`` (of ``unit``) is
    counted as striking: a template :data:`TEMPLATE_HITS` (at most the ``models`` its
    defence counts), a blast marker those of ``target``'s models it covers placed over
    the model the AI would aim it at (:func:`marker_covers`), any other shot one.

    A marker at what an earlier volley leaves of the target (:func:`thinned`, for
    :func:`first_then_rest`) covers what it would at the target as it stands, at most
    the models left: the kills come off the models closest to the firers, the AI aims
    again where the most are left, and a count read off the thinned copy's gaps made
    every blast look best fired first, whatever it cost (a Tactical Squad's heavy
    bolter gunner threw a frag grenade at a line of Boyz instead of firing)."""
    if profile.template:
        return min(TEMPLATE_HITS, models)
    if profile.blast:
        source = _thinned_from.get(id(target), (target, target))[1]
        return min(marker_covers(battle, unit, firer, source, profile), models)
    return 1


@per_decision  # asked for each weapon estimate of a blast at the same target
def marker_covers(
    battle: Battle, unit: Unit, firer: Model, target: Unit, profile: WeaponProfile
) -> int:
    """How many of ``target``'s models ``firer``'s blast marker covers where the rules
    place it before it scatters: centred over the model the AI would aim it at
    (:func:`likely_aim`; :func:`markers.barrage_point`, the first marker of a barrage),
    a base under it wholly or partly (:func:`geometry.touched_by_marker`, as
    :func:`markers.blast_hits` finds the models hit). Terminators 2.57" apart (40 mm
    bases, 1" gaps) under a 3" marker: one; Boyz 1.98" apart (25 mm bases): three in a
    line. A marker that cannot be placed covers none."""
    aim = likely_aim(battle, unit, firer, target, profile)
    if aim is None:
        return 0
    diameter = profile.blast or BLAST_DIAMETER
    centre = barrage_point(None, aim.position, diameter)
    return len(touched_by_marker(centre, diameter, target.alive_models))


@per_decision
def defence_of(
    battle: Battle,
    target: Unit,
    source: Model | None,
    gone_to_ground: bool | None = None,
    jinking: bool | None = None,
    origin: Vec | None = None,
    shooters: Unit | None = None,
) -> Defence:
    """``target`` as identical models, as :mod:`odds` takes it.

    Its most common model at the unit's majority Toughness, with that model's
    Feel No Pain and Eternal Warrior. The cover save is the one
    :func:`visibility.cover_save` gives the target model closest to
    ``source`` (``None``: close combat, no cover), or to ``origin`` where the shot
    counts as coming from there (a Barrage marker's centre: :func:`volley_defence`),
    judged from there; ``gone_to_ground`` and ``jinking`` ask "what if" (``None``: as
    it is).

    With a ``source``, the rest is the defence without cover (``source``
    ``None``), remembered: it does not depend on who shoots, and one volley
    after another asks it with a different first firing model.

    The target model closest to the one point the shot comes from is the first of
    the least :func:`geometry.base_distance` (as :func:`geometry.nearest` finds it,
    the same floats), measured directly: nearest's distance table is remembered by
    every base's place, a key that costs more to build and hash than the one row.

    ``shooters``: the unit ``source`` belongs to, where the caller knows it
    (:func:`volley_defence`): the bases that may screen the model
    (:func:`visibility.screening`) are then read once per decision for the unit
    (:func:`_uncovered`, with the defence without cover), not once per firing model.
    It must be ``source``'s own unit, with a model alive: the screens left out are its
    models' (another unit would leave the wrong ones out).
    """
    alive = target.alive_models
    if source is not None:
        if shooters is None:
            bare, screens = defence_of(battle, target, None), None
        else:
            bare, screens = _uncovered(battle, shooters, target)
        down = st(battle, target).gone_to_ground if gone_to_ground is None else gone_to_ground
        (origin_of,) = wounds_from(origin, [source])
        first = min(alive, key=lambda model: base_distance(origin_of, model))
        cover = cover_save(battle, source, target, first, down, jinking, origin, screens)
        return bare if cover is None else replace(bare, cover=cover)
    profile = typical_profile(target)
    model = next(m for m in alive if m.profile is profile)
    stats = stats_of(profile)
    return Defence(
        toughness=unit_toughness(battle, target),
        wounds=stats.w,
        models=len(alive),
        save=armour_save(battle, target, model),
        invulnerable=invulnerable_save(battle, target, model),
        cover=None,
        feel_no_pain=feel_no_pain(target, model),
        eternal_warrior=model_has(target, model, "Eternal Warrior"),
        against_instant_death=feel_no_pain(target, model, instant=True),
    )


@per_decision
def _uncovered(battle: Battle, unit: Unit, target: Unit) -> tuple[Defence, Bases]:
    """:func:`defence_of` ``target`` without cover, and :func:`visibility.screening` of
    ``target`` from a model of ``unit``: the same for every one of them (it leaves out
    the models of ``target`` and of the unit the firing model's id is found in, which
    is ``unit``'s for each), so asked once per decision for every volley's cover
    (:func:`defence_of`) at ``target``, where it was asked for each volley's first
    firing model (some 2,000 times in ten whole battles). The two are one question,
    asked by every volley at ``target`` that is no repeat: two remembered questions
    were a lookup more for each (729 in six whole battles). No model moves or falls
    while a decision's answers are kept (:func:`memo.per_decision`)."""
    return defence_of(battle, target, None), screening(battle, unit.alive_models[0], target)


def volley_defence(
    battle: Battle,
    unit: Unit,
    target: Unit,
    firer: Model,
    profile: WeaponProfile,
    gone_to_ground: bool | None = None,
    jinking: bool | None = None,
) -> Defence:
    """:func:`defence_of` ``target`` against ``profile`` fired by ``firer`` (of ``unit``),
    the cover taken where the rules take it (:func:`allocation.shot_origin`): from
    ``firer``, or for a Barrage weapon from the centre of its marker, expected over the
    model the AI would aim it at (:func:`likely_aim`), before any scatter."""
    aim = likely_aim(battle, unit, firer, target, profile) if profile.barrage else None
    origin = shot_origin(profile, None if aim is None else aim.position)
    return defence_of(battle, target, firer, gone_to_ground, jinking, origin, unit)


def aim_value(
    battle: Battle, unit: Unit, firer: Model, profile: WeaponProfile, aim: Model
) -> float:
    """What ``firer``'s blast marker centred on ``aim``, or its template aimed at it, is
    worth to ``unit``'s player: the enemy models it would cover less twice its own.

    A template covers what :func:`markers.covered` finds under it (what a person is
    told of the aim), all of them enemy models: it is aimed only where it touches no
    friendly model (:func:`markers.aim_points`). A marker may scatter: it is worth the
    enemy models within 2.5" of ``aim`` (centre to centre), less twice the own models
    within 3.5" (:data:`scatter_odds.OWN_MODEL_WEIGHT`)."""
    return aim_values(battle, unit, firer, profile, [aim])[0]


def aim_values(
    battle: Battle, unit: Unit, firer: Model, profile: WeaponProfile, aims: Sequence[Model]
) -> list[float]:
    """:func:`aim_value` of each of ``aims``, the models on the table a marker's worth
    counts (every unit's models alive) gathered once for them all, not once an aim: the
    AI weighs every aim point of a target (:func:`likely_aim`, ``ai._aim``)."""
    if profile.template:
        return [float(sum(covered(battle, firer, aim, profile).values())) for aim in aims]
    friends = [m for u in battle.units_of(unit.player) for m in u.alive_models]
    foes = [m for e in battle.enemies_of(unit) for m in e.alive_models]
    values = []
    for aim in aims:
        near = [f for f in foes if centre_distance(f.position, aim.position) <= 2.5]
        risk = [f for f in friends if centre_distance(f.position, aim.position) <= 3.5]
        values.append(len(near) - OWN_MODEL_WEIGHT * len(risk))
    return values


# asked for a Barrage's cover (volley_defence) and its worth (shooting_plans.weapon_worth)
@per_decision
def likely_aim(
    battle: Battle, unit: Unit, firer: Model, target: Unit, profile: WeaponProfile
) -> Model | None:
    """The model of ``target`` the AI would place ``firer``'s marker or template over:
    the aim point (:func:`markers.aim_points`) worth most (:func:`aim_value`), the first
    on a tie; ``None`` where there is none."""
    points = aim_points(battle, unit, firer, target, profile)
    if not points:
        return None
    values = aim_values(battle, unit, firer, profile, points)
    return points[values.index(max(values))]


@lru_cache(maxsize=4096)
def slain_per_hit(
    profile: WeaponProfile,
    strength: int,
    defence: Defence,
    wound_ones: bool = False,
    failed_wounds: bool = False,
) -> float:
    """Expected models slain by one hit: each wound's chance by AP times its fate
    (slain outright, or one wound of the model's Wounds). Cached: a function of
    immutable values only, asked for the same few weapons and targets all game."""
    fired = Volley(profile, strength, wound_ones=wound_ones, failed_wounds=failed_wounds)
    total = 0.0
    for ap, chance in wound_chances(fired, defence.toughness).items():
        one, slain = wound_fate(fired, defence, ap)
        total += chance * (slain + one / max(1, defence.wounds))
    return total


def would_fire(battle: Battle, unit: Unit, profile: WeaponProfile, orders: FireOrders) -> bool:
    """Whether no installed rule forbids the weapon to fire (:data:`points.WEAPON_WOULD_FIRE`).

    Whether it fires Snap Shots, which each rule is told, is asked only where a rule is
    installed (Suppressive Fire's): with none, nothing forbids it, and every volley
    estimated asks this."""
    vetoes = battle.hooks.get(WEAPON_WOULD_FIRE)
    if not vetoes:
        return True
    snap = fires_snap(battle, unit, profile, orders)
    return not any(veto(battle, unit, profile, snap, orders) for veto in vetoes)


@per_decision
def expected_casualties(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    gone_to_ground: bool | None = None,
    jinking: bool | None = None,
    spent: Counter[str] | None = None,
) -> float:
    """Expected models removed from ``target`` by one weapon of ``unit``.

    ``gone_to_ground`` and ``jinking`` ask what the target would suffer if it
    had (or had not) gone to ground or Jinked. With ``spent`` (the shooting
    attack's so far), only the models :func:`firing_models` finds still able to
    fire it are counted, as the volley fires them.
    """
    models = firing_models(battle, unit, target, weapon_name, orders, spent)
    return _casualties(
        battle, unit, target, weapon_name, models, orders, gone_to_ground, jinking, None
    )


def _casualties(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    models: list[Model],
    orders: FireOrders,
    gone_to_ground: bool | None,
    jinking: bool | None,
    rerolls: list[tuple[bool, bool, bool]] | None,
) -> float:
    """:func:`expected_casualties` worked out, ``models`` the weapon's firing models
    (:func:`attacks.firing_models` with the same arguments; read, not changed), for it
    and for :func:`attack_volleys`, which holds every ranged weapon's models already
    (:func:`attacks.firing_each`). ``rerolls``: where :func:`attack_volleys` asks for
    each of its weapons, a list holding :func:`_shot_rerolls`'s answer once a weapon has
    asked it (empty before: a weapon that fires nothing asks nothing), read by the
    weapons after it; ``None``: asked for this weapon alone."""
    if not models or target.destroyed:
        return 0.0
    weapon = models[0].weapon(weapon_name)
    if weapon is None:
        return 0.0
    profile = weapon_of(weapon)
    if not would_fire(battle, unit, profile, orders):
        return 0.0
    snap = fires_snap(battle, unit, profile, orders, target)
    defence = volley_defence(battle, unit, target, models[0], profile, gone_to_ground, jinking)
    twin = profile.has_rule("Twin-linked")
    if rerolls is None:
        ones, wound_ones, failed_wounds = _shot_rerolls(battle, unit, target)
    else:
        if not rerolls:
            rerolls.append(_shot_rerolls(battle, unit, target))
        ones, wound_ones, failed_wounds = rerolls[0]
    covered = per_marker(battle, unit, models[0], target, profile, defence.models)
    total = 0.0
    vehicle = is_vehicle(target)
    slain: dict[int, float] = {}  # by Strength: the models' answers are the same
    # By profile and whether it fires Snap Shots: To Hit and Strength (not a gun's)
    alike: dict[tuple[int, bool], tuple[float, int]] = {}
    each = shots_of_each(battle, unit, models, profile, target, orders.counts_within)
    snaps = snaps_of(battle, unit, models, snap)  # a squadron's Shaken vehicle: its own
    for model, shots, snapping in zip(models, each, snaps, strict=True):
        kind = (id(model.profile), snapping)
        known = alike.get(kind)
        if known is None:
            bs = shot_bs(battle, model, snapping)
            hit = 1.0 if profile.template else p_hit(bs, twin, ones)
            known = (hit, weapon_strength(battle, unit, model, profile))
            if not is_gun(model):  # a gun fires with its crewman's BS (shot_bs)
                alike[kind] = known
        hit, strength = known
        if vehicle:  # armour penetration, Hull Points: the vehicle rules' odds
            total += shots * hit * covered * hit_value(battle, target, model, profile, strength)
            continue
        if strength not in slain:
            slain[strength] = slain_per_hit(profile, strength, defence, wound_ones, failed_wounds)
        total += shots * hit * covered * slain[strength]
    return min(total, float(defence.models))


def can_hurt(battle: Battle, unit: Unit, target: Unit, weapon_name: str) -> bool:
    """Whether a hit of ``weapon_name`` from a model of ``unit`` carrying it could do
    anything to ``target``: slay or wound its typical model (:func:`slain_per_hit`:
    the weapon's Strength against the unit's Toughness on the wound chart, Poisoned,
    Rending and the like), or at a vehicle glance or penetrate the armour that model
    faces (:func:`odds_vehicles.hit_value`). Range, sight, Ballistic Skill and the
    orders are not asked: a weapon out of reach may still hurt, one that cannot is
    harmless wherever it is fired from (a Stikkbomb, S3, at any facing of a Leman
    Russ; a lasgun, S3, at Toughness 7)."""
    if target.destroyed:
        return False
    vehicle = is_vehicle(target)
    defence = None if vehicle else defence_of(battle, target, None)
    rerolls = _wound_rerolls(battle, unit, target)
    for model in unit.alive_models:
        weapon = model.weapon(weapon_name)
        if weapon is None:
            continue
        profile = weapon_of(weapon)
        strength = weapon_strength(battle, unit, model, profile)
        if defence is None:
            harm = hit_value(battle, target, model, profile, strength)
        else:
            harm = slain_per_hit(profile, strength, defence, *rerolls)
        if harm > 0:
            return True
    return False


def expected_per_model(
    battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders
) -> float:
    """Expected casualties per firing model: which weapon a model should fire first."""
    models = firing_models(battle, unit, target, weapon_name, orders)
    return per_firing_model(battle, unit, target, weapon_name, orders, models)


def per_firing_model(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    models: list[Model],
) -> float:
    """:func:`expected_per_model` given its firing models (:func:`attacks.firing_models`
    with the same arguments), for a caller that reads them too
    (:func:`shooting_plans.weapon_worth`): the remembered question asked once."""
    if not models:
        return 0.0
    return expected_casualties(battle, unit, target, weapon_name, orders) / len(models)


@quick_init  # a few hundred made a whole battle: one per weapon of every attack estimated
@dataclass(frozen=True)
class Fired:
    """One weapon of a shooting attack, as :func:`attack_volleys` expects it fired."""

    name: str
    models: list[Model]
    """The models that fire it: those able to, less those that spent their shot."""
    each: float
    """Expected casualties per firing model (:func:`expected_casualties`)."""


@per_decision
def attack_volleys(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    weapons: list[str] | None = None,
    gone_to_ground: bool | None = None,
    jinking: bool | None = None,
    spent: Counter[str] | None = None,
) -> list[Fired]:
    """The volleys of a shooting attack of the unit's weapons (all, or those named) on
    ``target``, as the AI fires them.

    Each model fires as many weapons as :func:`firepower.weapons_per_phase`
    allows (one; two for a Monstrous Creature), the best first: weapons are
    taken in order of expected casualties per firing model, as the AI selects
    them, and a model that has fired its quota (or another mode of the same
    item, or the unit's grenade: :mod:`firing_modes`) fires none of the later
    ones. A weapon no model fires is left out. ``spent``: what the attack has
    fired already (:func:`firing_modes.spend`): each weapon is counted for the
    models that may still fire it (:func:`attacks.firing_models` with it).

    Orders that count the target farther off than any weapon of the unit reaches
    (:func:`out_of_reach`) fire none: no volley, and no model's sight traced.
    """
    if out_of_reach(unit, orders):
        return []
    every = firing_each(battle, unit, target, orders, spent)  # read, not changed: copied
    # The unit's ranged weapons are the mapping's names, in their order (firing_each
    # answers each of firepower.ranged_weapons, and only those): read off it rather than
    # asked again, a remembered question for every attack weighed (1,075 in six whole
    # battles).
    names = every if weapons is None else weapons
    # A plain attack's volleys are asked with the defaults left off, as the plans ask one
    # weapon's (shooting_plans.weapon_worth, first_then_rest): the memo keys a question
    # by the arguments given, so written out they were another key, and the same volley
    # was worked out twice in a decision (0.7% of a whole Waffle battle's instructions).
    plain = gone_to_ground is None and jinking is None and spent is None
    # A volley no plan asks alone (the attack's "what if", or at a thinned copy of the
    # target: a new object, a question never asked again) is worked out here
    # (_casualties) from the models the mapping holds, not asked of the remembered
    # expected_casualties, which asked the weapon's firing models (a lookup and a copy
    # of the list held here) and the re-rolls at the target (_shot_rerolls, the same
    # for every weapon: here asked once, by the first that needs it). A plain attack's
    # volley is asked as before: the plans ask it again weapon by weapon
    # (weapon_worth, the AI's weapon choice), and worked out here it was worked out
    # twice (steady Guard +0.24%: docs/scale.md, the twenty-seventh session).
    rerolls: list[tuple[bool, bool, bool]] = []
    volleys = []
    for name in names:
        able = every.get(name)  # a weapon named that is no ranged one: asked alone
        models = (
            list(able)
            if able is not None
            else firing_models(battle, unit, target, name, orders, spent)
        )
        if models:
            if able is not None and (not plain or id(target) in _thinned_from):
                total = _casualties(
                    battle, unit, target, name, models, orders, gone_to_ground, jinking, rerolls
                )
            elif plain:
                total = expected_casualties(battle, unit, target, name, orders)
            else:
                total = expected_casualties(
                    battle, unit, target, name, orders, gone_to_ground, jinking, spent
                )
            volleys.append(Fired(name, models, total / len(models)))
    volleys.sort(key=lambda v: v.each, reverse=True)
    # Before anything is spent every firing model may fire (it has the weapon, and a
    # quota of one or more: firepower.weapons_per_phase), so the first volley is asked no
    # more; and what the last volley spends no volley after it reads, so it is not
    # counted (one volley of a fresh attack, as the orders of fire weighed ask, counts
    # nothing at all).
    if not volleys or (len(volleys) == 1 and not spent):
        return volleys
    spent = Counter(spent)
    fired = []
    last = volleys[-1]
    for volley in volleys:
        name = volley.name
        free = (
            [m for m in volley.models if may_fire(spent, unit, m, name, weapons_per_phase(unit, m))]
            if spent
            else volley.models
        )
        if free:  # a volley every model of which fires is kept as it is, not copied
            fired.append(volley if free is volley.models else Fired(name, free, volley.each))
        if volley is not last:
            spend(spent, unit, free, name)
    return fired


PLAIN_ORDERS = FireOrders()
"""The orders of a plain shooting attack, made once for every estimate that asks one.
Orders key the estimates' remembered answers (:func:`memo.per_decision`): one object
keeps its hash (:func:`records.kept_hash`) and is found by identity, where orders made
afresh for each question are hashed anew and compared field by field."""


def out_of_reach(unit: Unit, orders: FireOrders) -> bool:
    """Whether ``orders`` count the target as farther off
    (:attr:`orders.FireOrders.counts_within`: the estimates' "a move nearer",
    :func:`move_plans.fire_from`) than any weapon a model of ``unit`` alive carries
    may reach (:func:`attacks.longest_reach`: the range :func:`attacks.firing_models`
    compares with that distance is at most that): then no model fires.

    A cheap bound asked before the volleys are worked out: a shooter a move from
    the target's guns is often still beyond their reach. The firing pass itself
    drops such a model before tracing sight (:func:`attacks._armed_in_reach`, since
    the twenty-sixth session's third round); this bound spares the pass and its
    remembered answer as well (0.15% of a whole Waffle battle's instructions,
    measured then). Every weapon carried is asked, ranged or not (a melee weapon
    reaches 0"), so the bound never rules out a model that would fire; a moved Salvo
    weapon, whose range is halved, is bounded by its whole range (the pass drops it)."""
    within = orders.counts_within
    return within is not None and longest_reach(unit.alive_models) < within


def expected_attack(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    weapons: list[str] | None = None,
    gone_to_ground: bool | None = None,
    jinking: bool | None = None,
    spent: Counter[str] | None = None,
) -> float:
    """Expected casualties of a shooting attack of the unit's weapons (all, or those
    named) on ``target``: its volleys (:func:`attack_volleys`, ``spent`` the attack's
    shots fired already) added, never more than the target's models.

    Not remembered itself: its volleys are (:func:`attack_volleys`, asked with every
    argument in place, so one question whether its defaults are written out or left
    off), and adding a few volleys up costs less than a remembered call's key: when it
    was remembered too, nearly every question was keyed and missed twice."""
    fired = attack_volleys(battle, unit, target, orders, weapons, gone_to_ground, jinking, spent)
    expected = sum(volley.each * len(volley.models) for volley in fired)
    return min(expected, float(len(target.alive_models)))


@per_decision
def thinned(target: Unit, shooter: Unit, slain: int) -> Unit:
    """A copy of ``target`` without its ``slain`` models closest to ``shooter``, as
    wounds are allocated (seed 000, step 6: "to the closest model"; 6th edition: "the
    enemy model closest to the firing unit", :func:`allocation.allocate_wounds`):
    what a volley that slays that many leaves of it. Remembered per decision, never
    changed: the estimates asked of one copy (who fires at it, and with what) are
    asked once for all the orders of fire weighed (:func:`first_then_rest`)."""
    copied = target.copy()
    alive = closest(shooter.alive_models, copied.alive_models)  # allocation's order
    for model in alive[:slain]:
        model.wounds_left = 0
    if len(_thinned_from) >= KEPT:
        _thinned_from.clear()
    _thinned_from[id(copied)] = (copied, _thinned_from.get(id(target), (target, target))[1])
    return copied


_thinned_from: dict[int, tuple[Unit, Unit]] = {}
"""Each copy :func:`thinned` made (by identity, kept alive with it) and the target as
it stands it was thinned from, for :func:`per_marker`."""


@per_decision
def alone(unit: Unit, model: Model) -> Unit:
    """A copy of ``unit`` with ``model`` its only model alive: a Character in a
    challenge, the one model its foe's blows may strike (:mod:`challenges`), read by
    the estimates as a unit of one (its own Weapon Skill, Toughness, save and Wounds;
    at most one model slain). Remembered per decision and never changed, as
    :func:`thinned`'s copies are."""
    copied = unit.copy()
    for kept, own in zip(copied.models, unit.models, strict=True):
        if own is not model:
            kept.wounds_left = 0
    return copied


def first_then_rest(
    battle: Battle, unit: Unit, target: Unit, first: str, rest: list[str], orders: FireOrders
) -> float:
    """Expected casualties of a shooting attack that fires ``first`` at ``target``, then
    the weapons ``rest`` (:func:`expected_attack`, its models that fire ``first``
    spent) at what the first volley leaves of the target: its expected casualties
    ``c`` removed, the closest to the firers first (:func:`thinned`). Seed 000 asks
    range and sight when each weapon is selected ("Every model that wishes to shoot
    must be within range of at least one visible model in the target unit"), after
    the casualties of the weapons before it: a long gun that slays the only models a
    shorter one reaches leaves it nothing to fire at. The rest is read off the
    target less ``floor(c)`` models and less one more, weighed by ``c``'s fraction
    (the mean of the two where ``c`` is 1.5). Where no model firing ``first``
    carries a weapon of ``rest`` and ``first`` is no grenade, spending its shots
    changes nothing the rest asks (:func:`firing_modes.may_fire`): the rest is
    asked as of a fresh attack, the estimates asked of it for every weapon alike."""
    casualties = expected_casualties(battle, unit, target, first, orders)
    if not rest:
        return casualties
    spent = _spent_by(battle, unit, target, first, rest, orders)

    def after(slain: int) -> float:
        left = target if slain == 0 else thinned(target, unit, slain)
        return expected_attack(battle, unit, left, orders, rest, spent=spent)

    whole = int(casualties)
    part = casualties - whole
    later = after(whole) if part == 0 else (1 - part) * after(whole) + part * after(whole + 1)
    return casualties + later


def _spent_by(
    battle: Battle, unit: Unit, target: Unit, first: str, rest: list[str], orders: FireOrders
) -> Counter[str] | None:
    """What firing ``first`` at ``target`` spends that the weapons ``rest`` ask
    (:func:`firing_modes.spend`), or ``None`` where it spends nothing they ask: no
    model firing ``first`` carries a weapon of ``rest``, and ``first`` is no grenade."""
    firers = firing_models(battle, unit, target, first, orders)
    weapon = firers[0].weapon(first) if firers else None
    if (weapon is None or not is_grenade(weapon)) and all(
        m.weapon(name) is None for m in firers for name in rest
    ):
        return None
    spent: Counter[str] = Counter()
    spend(spent, unit, firers, first)
    return spent


def even_either_way(
    battle: Battle, unit: Unit, target: Unit, one: str, other: str, orders: FireOrders
) -> bool:
    """Whether :func:`first_then_rest` is sure to estimate ``one`` then ``other`` and
    ``other`` then ``one`` alike at ``target`` (rounding aside), without asking it:
    ``target`` has one model alive, and neither weapon's firing spends anything the
    other asks (:func:`_spent_by` ``None`` both ways).

    Then, ``a`` and ``b`` the two weapons' expected casualties (:func:`expected_casualties`,
    at most 1), ``a`` first is ``a + (1 - a) * b``: the rest is read off the target
    less no model, weighed ``1 - a``, and less one, weighed ``a`` (``a`` 1: that one
    alone). Less no model is the target itself, and ``b``'s attack at it, nothing
    spent, is ``b`` (:func:`expected_attack` adds the one volley
    :func:`expected_casualties` gives, capped at the one model); less one it has no
    model alive, and an attack at it is capped at none. So ``b`` first is
    ``b + (1 - b) * a``, the same sum. Nothing here reads which model is left, the
    weapons' range, cover or rules: the only copy asked has no model. Where a weapon
    spends what the other asks (a model firing it carries the other; a grenade), the
    second volley is not the one :func:`expected_casualties` gives, and the pair is
    weighed."""
    if len(target.alive_models) != 1:
        return False
    return (
        _spent_by(battle, unit, target, one, [other], orders) is None
        and _spent_by(battle, unit, target, other, [one], orders) is None
    )


@per_decision
def blow_value(
    battle: Battle, unit: Unit, model: Model, weapon: WeaponProfile, target: Unit, charged: bool
) -> float:
    """Expected models of ``target`` slain by one blow of ``model`` with ``weapon``.

    The chart against the target's majority WS; the blow's Strength
    (:func:`special_rules.close_combat_strength`, Furious Charge when
    ``charged``) and the weapon as the model strikes with it
    (:func:`special_rules.close_combat_weapon`: Smash's AP2, the model's own
    Fleshbane, Poisoned, Rending, Shred); then wound, save (no cover) and
    Instant Death as the fight resolves them. To Hit re-rolls are the fight's
    (:func:`hatred.blow_reroll`: Hatred, Preferred Enemy); a unit not yet locked
    in combat would fight the first round of a new one.
    """
    if target.destroyed:
        return 0.0
    strength = close_combat_strength(battle, unit, model, weapon, charged)
    armed = close_combat_weapon(unit, model, weapon)
    ws = majority_weapon_skill(battle, target)
    first = not st(battle, unit).locked_in_combat or first_round(battle, unit)
    reroll = blow_reroll(battle, unit, model, target, first)
    if is_vehicle(target):  # the vehicle rules: their to-hit score and armour odds
        cell = melee_cell_against(battle, target)
        own = weapon_skill(battle, unit, model)
        hit = p_blow(own, ws, reroll) if cell is None else p_cell(cell, reroll)
        return hit * hit_value(battle, target, model, armed, strength, melee=True)
    hit = p_blow(weapon_skill(battle, unit, model), ws, reroll)
    rerolls = _wound_rerolls(battle, unit, target)
    return hit * slain_per_hit(armed, strength, defence_of(battle, target, None), *rerolls)


@per_decision
def _wound_rerolls(battle: Battle, unit: Unit, target: Unit) -> tuple[bool, bool]:
    """Whether ``unit`` re-rolls its To Wound rolls of 1 against ``target``, and every
    failed one (:mod:`rerolls`), as :func:`slain_per_hit` takes them. Remembered per
    decision (:func:`memo.per_decision`), as the estimates that ask it are: it reads the
    two units and the rules installed, none of which changes while a decision's answers
    are kept (taken up again only in an equal :func:`memo.state_of_play`); asked for
    every weapon estimated at ``target`` (:func:`expected_casualties`, :func:`can_hurt`)
    and every blow (:func:`blow_value`), some 3,600 times in ten whole battles."""
    return _wound_pair(battle, unit, target)


def _wound_pair(battle: Battle, unit: Unit, target: Unit) -> tuple[bool, bool]:
    """:func:`_wound_rerolls` worked out (:func:`rerolls.wound_rerolls`): for it, and for
    :func:`_shot_rerolls`, itself remembered, which asked it through a second remembered
    question on each of its misses (729 in six whole battles, 105 of them repeats)."""
    rerolls = wound_rerolls(battle, unit, target)
    return bool(rerolls["ones_by"]), rerolls["all_failed"]


@per_decision
def _shot_rerolls(battle: Battle, unit: Unit, target: Unit) -> tuple[bool, bool, bool]:
    """Whether ``unit`` re-rolls its To Hit rolls of 1 against ``target``
    (:func:`rerolls.hit_ones_rerolled`), then :func:`_wound_rerolls` (worked out, not
    asked: :func:`_wound_pair`): what every weapon's :func:`expected_casualties` at
    ``target`` asks, in one question remembered per decision, as :func:`_wound_rerolls`
    is."""
    return (bool(hit_ones_rerolled(battle, unit, target)), *_wound_pair(battle, unit, target))


def attacks_with(model: Model, weapon: WeaponProfile, bonus: int) -> int:
    """The Attacks ``model`` strikes with ``weapon`` given a charge ``bonus``, as
    :func:`fight.attacks_of` counts them: one for a Smash Attack
    (:func:`special_rules.single_attack`), else profile, bonus and second weapon."""
    if single_attack(weapon):
        return 1
    return stats_of(model.profile).a + bonus + second_weapon_bonus(model, weapon)


@per_decision
def best_melee_weapon(
    battle: Battle, unit: Unit, model: Model, target: Unit, charged: bool
) -> WeaponProfile:
    """The weapon ``model`` does most with against ``target`` (Attacks times blow value)."""

    def value(weapon: WeaponProfile) -> float:
        attacks = attacks_with(model, weapon, 0)
        return attacks * blow_value(battle, unit, model, weapon, target, charged)

    return max(melee_options(model, unit), key=value)


def expected_melee(
    battle: Battle, unit: Unit, models: list[Model], defender: Unit, charged: bool
) -> float:
    """Expected casualties ``models`` of ``unit`` cause ``defender`` in one round.

    Each model fights with its best weapon (:func:`best_melee_weapon`) and the
    Attacks the fight gives it (profile, :func:`charge.charge_bonus`
    when ``charged``, :func:`fight.second_weapon_bonus`). The best weapon and
    its blow's worth are remembered for good for each kind of model
    (:func:`_best_blow`).
    """
    if defender.destroyed or not models:
        return 0.0
    total = 0.0
    alike: dict[tuple[int, int, tuple[str, ...]], float] = {}
    bonus = charge_bonus(battle, unit) if charged else 0
    known = _blows_against(battle, unit, defender, charged)
    for model in models:
        if not fights_in_melee(model):
            continue
        key = _kind(model)
        if key not in alike:
            weapon, blow = _best_blow(battle, unit, model, defender, charged, known)
            attacks = attacks_with(model, weapon, bonus)
            alike[key] = attacks * blow
        total += alike[key]
    return min(total, float(len(defender.alive_models)))


def _best_blow(
    battle: Battle,
    unit: Unit,
    model: Model,
    foe: Unit,
    charged: bool,
    known: dict[Hashable, tuple[tuple[WeaponProfile, float], object]] | None,
) -> tuple[WeaponProfile, float]:
    """``model``'s best weapon against ``foe`` (:func:`best_melee_weapon`) and one
    blow's worth with it (:func:`blow_value`), remembered for good by the model's kind
    (:func:`_kind`: its profile, wargear and rules) among ``known``, the blows
    remembered against ``foe`` as it stands (:func:`_blows_against`; ``None``:
    worked out each time).

    The same kind of model meets the same make-up of foe in state after state and
    battle after battle (a lab run plays thousands of battles of the same armies),
    and a blow worked out afresh is a few dozen rule reads for every weapon the
    model may choose; the answer remembered is the one these two functions gave,
    so the same float. The model's profile and wargear, named by identity, are kept
    alive with it.
    """
    if known is None:
        weapon = best_melee_weapon(battle, unit, model, foe, charged)
        return weapon, blow_value(battle, unit, model, weapon, foe, charged)
    kind = _kind(model)
    found = known.get(kind)
    if found is None:
        if len(known) >= KINDS_KEPT:
            known.clear()
        weapon = best_melee_weapon(battle, unit, model, foe, charged)
        answer = (weapon, blow_value(battle, unit, model, weapon, foe, charged))
        found = known[kind] = (answer, (model.profile, model.weapons))
    return found[0]


KEPT = 4096
"""Foes :func:`_blows_against` remembers before it forgets them all (a bound on memory
over a sweep's thousands of battles, each foe's make-up changing as it loses models)."""

KINDS_KEPT = 256
"""Kinds of model :func:`_best_blow` remembers against one foe before it forgets them
(an army has a few dozen kinds)."""

_blows: dict[
    Hashable, tuple[dict[Hashable, tuple[tuple[WeaponProfile, float], object]], object]
] = {}
"""The remembered blows: :func:`_fighting_key` → (the blows by kind of model, the
foe's profiles, named by identity in the key and kept alive)."""


@per_decision
def _blows_against(
    battle: Battle, unit: Unit, foe: Unit, charged: bool
) -> dict[Hashable, tuple[tuple[WeaponProfile, float], object]] | None:
    """The blows of ``unit``'s models at ``foe`` remembered by :func:`_best_blow`, by
    everything they read besides the model's kind (:func:`_fighting_key`); ``None``
    against a vehicle. Its key is built and looked up once per fight, the kinds of
    model after it (a foe's make-up is the longest part of a key).

    Found once per decision (:func:`memo.per_decision`): a charge's weighing asks the
    same fight's blows for its damage (:func:`expected_melee`) and its Initiative
    (:func:`_striking_step`), and the plans ask both of one charge again (about half of
    a whole battle's questions were repeats). It cannot go stale: the key reads the
    battle as the decision sees it and the rules installed (which play never changes),
    so it is the one the decision would build again; the mapping given is the one
    :data:`_blows` keeps for it (its callers add to it, as they did), and if
    :data:`_blows` forgets it meanwhile (:data:`KEPT`) it still holds answers for that
    key only."""
    key = _fighting_key(battle, unit, foe, charged)
    if key is None:
        return None
    found = _blows.get(key)
    if found is None:
        if len(_blows) >= KEPT:
            _blows.clear()
        found = _blows[key] = ({}, [m.profile for m in foe.alive_models])
    return found[0]


def changed_in_melee(battle: Battle) -> bool:
    """Whether a rule is installed on a hook point a blow's worth reads: Weapon Skill
    (:func:`fear.weapon_skill`), Strength (:func:`strength.hit_strength`), Toughness
    (:func:`toughness.toughness`), a save
    (:func:`characteristics.armour_save`, :func:`characteristics.invulnerable_save`)
    or a re-roll (:mod:`rerolls`)."""
    hooks = battle.hooks
    return bool(
        hooks.get(WEAPON_SKILL)
        or hooks.get(STRENGTH)
        or hooks.get(TOUGHNESS)
        or hooks.get(ARMOUR_SAVE)
        or hooks.get(INVULNERABLE_SAVE)
        or hooks.get(HIT_ONES_REROLLED)
        or hooks.get(WOUND_ONES_REROLLED)
        or hooks.get(FAILED_WOUNDS_REROLLED)
    )


def _fighting_key(
    battle: Battle, unit: Unit, foe: Unit, charged: bool
) -> tuple[Hashable, ...] | None:
    """Everything the blows of a model of ``unit`` at ``foe`` read besides the model's
    own kind, so that they can be remembered across decisions and battles
    (:func:`_blows_against`, :func:`_best_blow`); ``None`` against a vehicle, whose
    blows read its vehicle status (:func:`vehicles.melee_cell_against`) and armour
    (:func:`odds_vehicles.hit_value`), so they are worked out each time.

    ``charged`` (Furious Charge); ``unit``'s rules, its re-rolls against ``foe``
    (:mod:`rerolls`: Preferred Enemy and Monster Hunter, which any of its models alive
    may give it), whether it would fight a first round
    (:func:`hatred.first_round`: Hatred) and whether it failed a Fear test;
    ``foe``'s models alive, each its profile (by identity: immutable, kept alive
    with the answer) and its rules, in order (its majority WS and Toughness, its
    typical model's save, Wounds, Feel No Pain and Eternal Warrior, Hatred (X) by
    profile name, Ancient Doom), its rules, army and name (Hatred (X)) and whether
    it failed a Fear test. These are all :func:`best_melee_weapon` and
    :func:`blow_value` read of the battle and the two units (:func:`defence_of`
    without a source reads no cover), unless a rule changes Weapon Skill, Strength,
    Toughness, a save or a re-roll (:func:`changed_in_melee`): its handlers may read anything of the
    battle, so then nothing is remembered (``None``).
    """
    if is_vehicle(foe) or changed_in_melee(battle):
        return None
    return (
        charged,
        unit.rules,
        hit_ones_rerolled(battle, unit, foe),
        wound_ones_rerolled(battle, unit, foe),
        failed_wounds_rerolled(battle, unit, foe),
        not st(battle, unit).locked_in_combat or first_round(battle, unit),
        failed_fear(battle, unit),
        tuple([(id(m.profile), m.rules) for m in foe.alive_models]),
        foe.rules,
        foe.datasheet.army,
        foe.datasheet.name,
        failed_fear(battle, foe),
    )


def _kind(model: Model) -> tuple[int, int, tuple[str, ...]]:
    """Models of one kind (the same profile, wargear and rules) fight alike: what is
    worked out for one is reused for the others."""
    return id(model.profile), id(model.weapons), model.rules


def strikes_first(
    battle: Battle, unit: Unit, foe: Unit, charged: bool, in_the_open: bool = False
) -> bool:
    """Whether most of ``unit``'s models strike before most of ``foe``'s in a
    charge's fight (:func:`fight.initiative`, Unwieldy weapons at 1): ``unit``
    is the charger when ``charged``, else ``foe`` is (a charger's step is
    :func:`_striking_step`'s with ``charged``). ``in_the_open``: as if the
    charge crossed no difficult terrain (one the charger could make from round
    it: :func:`move_plans.wants_to_flank`)."""
    own = _striking_step(battle, unit, foe, charged, in_the_open)
    return own > _striking_step(battle, foe, unit, not charged, in_the_open)


def _striking_step(
    battle: Battle, side: Unit, other: Unit, charged: bool, in_the_open: bool
) -> int:
    """The Initiative step most of ``side``'s models strike at against ``other``
    (their median), each with its best weapon (:func:`best_melee_weapon`, remembered
    by :func:`_best_blow`) and at Initiative 1 where the rules say so
    (:func:`difficult_charge.strikes_at_initiative_one`) or, for a charge
    still to be made (``charged``), where :func:`_charges_through_difficult`
    says it will (never ``in_the_open``).

    Not remembered: it was for :func:`melee_exchange`, which asked each side's step
    twice (through :func:`strikes_first` both ways) and now asks each once; remembered,
    none of its 506 questions in six whole battles was a repeat, each keyed and kept
    for nothing. What it reads is (:func:`_blows_against`, :func:`_best_blow`)."""
    alike: dict[tuple[int, int, tuple[str, ...]], int] = {}
    ahead = charged and not in_the_open and _charges_through_difficult(battle, side, other)
    known = _blows_against(battle, side, other, charged)
    for m in side.alive_models:
        if _kind(m) not in alike:
            weapon = _best_blow(battle, side, m, other, charged, known)[0]
            slowed = strikes_at_initiative_one(battle, side, m)
            slowed = slowed or (ahead and not has_assault_grenades(side, m))
            alike[_kind(m)] = initiative(m, weapon, slowed)
    steps = [alike[_kind(m)] for m in side.alive_models]
    return sorted(steps)[len(steps) // 2]


def _charges_through_difficult(battle: Battle, side: Unit, other: Unit) -> bool:
    """Whether a charge ``side`` is still to make at ``other`` crosses difficult
    terrain (:func:`charge.through_difficult_terrain`), so that its models
    without assault grenades would strike at Initiative 1
    (:mod:`difficult_charge`: "models that charge through difficult terrain
    fight at Initiative 1"). A unit already locked in combat charges no one:
    what it did is read off its state by
    :func:`difficult_charge.strikes_at_initiative_one`."""
    if st(battle, side).locked_in_combat:
        return False
    return through_difficult_terrain(battle, side, other)


def charged_fighters(defender: Unit, charger: Unit) -> list[Model]:
    """The models of ``defender`` expected to fight the first round when ``charger``
    charges it.

    6th/7th edition (:func:`combat.engaged_models`): a model fights when it is
    in base contact with an enemy model, or within 2" of a friend of its unit
    that is. The charge move brings the charger's models into contact with
    the defender's models closest to it; so a defender's model fights if it
    is no farther from the charger than the defender's closest model, plus
    2" (:data:`combat.ENGAGED_SUPPORT`) and the base of the friend in contact
    in front of it. A horde charged by a few models fights with its front
    ranks only. Pile-in moves are not counted. Each model's distance to the charger
    is the least :func:`geometry.base_distance` of its row of the remembered
    :func:`geometry.gap_table`.
    """
    models = defender.alive_models
    table = gap_table(models, charger.alive_models)
    gaps = [(m, min(row)) for m, row in zip(models, table, strict=True)]
    front = min(gap for _, gap in gaps)
    return [m for m, gap in gaps if gap <= front + ENGAGED_SUPPORT + 2 * m.radius]


@per_decision
def melee_exchange(
    battle: Battle, attacker: Unit, defender: Unit, in_the_open: bool = False
) -> tuple[float, float]:
    """One round of a charge: (defender's models slain, attacker's models slain);
    ``in_the_open``: as if the charge crossed no difficult terrain (as
    :func:`strikes_first` takes it).

    The attacker charged: all its models fight (the charge move brings each
    into contact or within 2" of a friend that is); of the defender, those
    :func:`charged_fighters` gives. The side striking first
    (:func:`strikes_first`: the charger with the Initiative 1 step of a
    charge across difficult terrain, the defender as it stands) kills
    before the other strikes, so the other's blows are scaled by the share of
    its models left; at the same step both strike in full.
    """
    if attacker.destroyed or defender.destroyed:
        return 0.0, 0.0
    dealt = expected_melee(battle, attacker, attacker.alive_models, defender, True)
    fighters = charged_fighters(defender, attacker)
    taken = expected_melee(battle, defender, fighters, attacker, False)
    # Either side's strikes_first compares the same two steps: each asked once.
    charger = _striking_step(battle, attacker, defender, True, in_the_open)
    struck = _striking_step(battle, defender, attacker, False, in_the_open)
    if charger > struck:
        taken *= 1 - dealt / max(1, len(defender.alive_models))
    elif struck > charger:
        dealt *= 1 - taken / max(1, len(attacker.alive_models))
    return dealt, taken


def volley_of(
    battle: Battle, unit: Unit, target: Unit, fired: Fired, orders: FireOrders
) -> tuple[Volley, Defence] | None:
    """One volley of ``unit``'s attack at ``target`` (:func:`attack_volleys`)
    as :mod:`odds` takes it, if it fires under ``orders``: shots grouped by the BS
    they are fired at (:func:`attacks.shot_bs`), with the re-rolls the unit has
    against ``target`` (:mod:`rerolls`: Preferred Enemy, Monster Hunter). A marker is rolled for as
    :func:`expected_casualties` counts it: one roll To Hit for each model
    it is expected to cover (:func:`per_marker`), so a marker that
    misses hits fewer; a template hits them all.

    The volleys are asked with regular orders: who fires, and with which
    weapon, reads of the orders only their Snap Shots, a range counted and the
    weapon types, none of which Suppressive Fire's action changes, so the answer
    is the one the shooting plan's estimates already asked for (remembered).
    (Suppressive Fire's estimates: :func:`plans.would_be_casualties` for the AI, and
    the weapon prompt's, ``rules.suppressive_fire``.)"""
    models = fired.models
    weapon = models[0].weapon(fired.name)
    if weapon is None:
        return None
    profile = weapon_of(weapon)
    if not would_fire(battle, unit, profile, orders):
        return None
    snap = fires_snap(battle, unit, profile, orders, target)
    defence = volley_defence(battle, unit, target, models[0], profile)
    strength = weapon_strength(battle, unit, models[0], profile)
    covered = per_marker(battle, unit, models[0], target, profile, defence.models)
    rerolls = volley_rerolls(battle, unit, target)
    if profile.template:
        hits = len(models) * covered
        return Volley(profile, strength, hits=hits, snap=snap, **rerolls), defence
    shots: Counter[int] = Counter()
    each = shots_of_each(battle, unit, models, profile, target, orders.counts_within)
    snaps = snaps_of(battle, unit, models, snap)  # a squadron's Shaken vehicle: its own
    for model, count, snapping in zip(models, each, snaps, strict=True):
        shots[shot_bs(battle, model, snapping)] += count * covered
    grouped = tuple((n, bs) for bs, n in sorted(shots.items()))
    return Volley(profile, strength, grouped, snap=snap, **rerolls), defence
