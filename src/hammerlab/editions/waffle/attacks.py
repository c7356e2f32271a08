"""Firing one weapon: seed 000 steps 3 and 4, and what the weapon types change.

"Select a Weapon … All models equipped with a weapon with the same name can
now shoot that weapon at the target … Roll To Hit", with Snap Shots, the
6th/7th-edition weapon types, Final Shot and the seed 001 rules for shooting
into a melee (1s and 2s stray). Markers and templates are ``markers``,
wounding is ``wounds``, allocation and saves are ``allocation``; a unit's ranged
weapons, how many a model fires and each one's range and shots are
``firepower``; when a weapon fires Snap Shots, and why, is ``snap_shots``; the
dice To Hit (their re-rolls and strays) are ``hit_rolls``; which unit a stray
hits, and the Morale penalty of friendly casualties, is ``melee_strays``; why a
weapon is not offered or was left unfired, for a person, is ``unfired``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from hammerlab.editions.waffle.allocation import allocate_wounds, shot_origin
from hammerlab.editions.waffle.artillery import firers, has_gun_alive, shooting_toughness
from hammerlab.editions.waffle.characteristics import ballistic_skill
from hammerlab.editions.waffle.events import (
    PrecisionShotsRolled,
    ShotsFired,
    WeaponNotFired,
)
from hammerlab.editions.waffle.firepower import (
    effective_range,
    longest_range,
    ranged_weapons,
    shots_of_each,
    weapons_per_phase,
)
from hammerlab.editions.waffle.firing_modes import is_grenade, may_fire, spend, throwers
from hammerlab.editions.waffle.flyers import snap_against
from hammerlab.editions.waffle.gets_hot import gets_hot, shots_fired, suffer
from hammerlab.editions.waffle.hit_rolls import roll_hits, roll_to_hit
from hammerlab.editions.waffle.markers import (
    aim_points,
    blast_hits,
    template_hits,
)
from hammerlab.editions.waffle.melee_strays import friendly_fire_penalty, stray_hits
from hammerlab.editions.waffle.one_use import is_one_use, spend_one_use
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult, WoundRoll
from hammerlab.editions.waffle.points import (
    ATTACK_WATCHERS,
    BALLISTIC_SKILL,
    SHOOTING_WOUNDS_CAUSED,
    SHOOTING_WOUNDS_UNSAVED,
    WEAPON_WOULD_FIRE,
    WoundsCaused,
)
from hammerlab.editions.waffle.precision_shots import fires_precision_shots
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.rerolls import hit_ones_rerolled, wound_rerolls
from hammerlab.editions.waffle.snap_shots import (
    fires_snap,
    no_snap_shots,
    snaps_of,
)
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.strength import STRENGTH
from hammerlab.editions.waffle.tables import (
    ballistic_target,
    snap_shot_bs,
)
from hammerlab.editions.waffle.vehicle_damage import resolve_vehicle_hits
from hammerlab.editions.waffle.vehicles import (
    crew_snap_shots,
    has_vehicle_alive,
    is_vehicle,
)
from hammerlab.editions.waffle.visibility import seen_by_each, visible_models
from hammerlab.editions.waffle.wounds import roll_to_wound, weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.geometry import Vec, gap_table
from hammerlab.engine.memo import deciding, per_decision
from hammerlab.engine.transpositions import (
    Transpositions,
    frozen,
    position_key,
)
from hammerlab.engine.units import Model, Unit


def firing_models(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    spent: Counter[str] | None = None,
) -> list[Model]:
    """Seed 000, step 3: models with the weapon that see and reach the target.

    "Every model that wishes to shoot must be within range of at least one
    visible model in the target unit. Models that cannot see the target, or
    are not in range, cannot shoot." A blast marker or template needs a target
    model it may be placed over (:func:`aim_points`). A weapon that would fire
    Snap Shots but cannot (Template, Blast, Ordnance: seed 000) does not fire —
    on Overwatch, into a melee, after moving with it. With ``spent``, a model
    past its quota, or that fired another mode of the same item, does not fire,
    and of a grenade one model throws (:mod:`firing_modes`).

    A model carrying the weapon more than once (a vehicle's pair of sponson
    weapons) fires as many of them as its quota left allows (7th edition: a
    vehicle "can fire all of its weapons"; a Monstrous Creature two), and is
    listed once per weapon it fires: each is a volley of its own shots or its
    own marker, and each counts against the quota when it is spent.

    Range is asked before sight: an armed model with no target model at all, seen
    or not, within its range does not fire (the nearest model it sees is no
    nearer), and when no armed model is left the lines of sight (traced past the
    terrain) are not asked for.

    Inside a decision (:func:`memo.deciding`) an AI weighing a shooting attack asks
    about each of the unit's ranged weapons in turn: every one of them is worked out
    at once, in one pass over the models (:func:`_firing_each`), and remembered for
    the decision (:func:`_every_ranged_weapon`). A weapon that is none of those (a
    psychic power fired as a weapon by a unit made for it, a melee weapon asked
    about) is worked out alone, as outside a decision, and not remembered.
    """
    if deciding():
        every = _every_ranged_weapon(battle, unit, target, orders, spent)
        if weapon_name in every:
            return list(every[weapon_name])
    return _firing_each(battle, unit, target, orders, spent, (weapon_name,))[weapon_name]


def firing_each(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    spent: Counter[str] | None = None,
) -> Mapping[str, list[Model]]:
    """:func:`firing_models` of each of the unit's ranged weapons
    (:func:`firepower.ranged_weapons`), by name, for a caller that reads them (and
    changes neither the mapping nor its lists): inside a decision the answer
    :func:`_every_ranged_weapon` remembers, itself, else worked out in one pass.

    The estimates and :func:`shooting.targets_for` ask about every ranged weapon of
    a unit in turn: asked weapon by weapon, each question was a remembered call of
    its own (its arguments keyed, the answer found) and a copy of its list, some
    14,000 a ten whole battles, where one question answers them all."""
    if deciding():
        return _every_ranged_weapon(battle, unit, target, orders, spent)
    return _firing_each(battle, unit, target, orders, spent, ranged_weapons(unit))


@per_decision
def _every_ranged_weapon(
    battle: Battle, unit: Unit, target: Unit, orders: FireOrders, spent: Counter[str] | None
) -> dict[str, list[Model]]:
    """:func:`firing_models` of each of the unit's ranged weapons
    (:func:`firepower.ranged_weapons`), by name: remembered per decision, and read by
    each weapon's question (never changed)."""
    return _firing_each(battle, unit, target, orders, spent, ranged_weapons(unit))


# What a model's wargear gives to fire, for one shooter's profile: for each weapon asked
# about that it carries, its name, the first weapon of that name, how many it carries, and
# the profile it fires, that profile's range and whether it cannot fire Snap Shots (None
# where it fires nothing).
_Armament = tuple[tuple[str, Weapon, int, tuple[WeaponProfile, float, bool] | None], ...]


def _firing_each(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    spent: Counter[str] | None,
    names: Sequence[str],
) -> dict[str, list[Model]]:
    """:func:`firing_models` of each weapon of ``names``, by name, in one pass over the
    unit's models, each name's answer the one it would get alone. ``names`` holds no
    name twice (a name given twice would list its models twice): the callers give one
    name, or the unit's ranged weapons (:func:`firepower.ranged_weapons`, each named once), or
    some of them."""
    armed, copies, throws, tables = _armed_in_reach(battle, unit, target, orders, spent, names)
    chosen = {name: list[Model]() for name in names}
    if not armed:
        return chosen  # none in range (or none armed): sight need not be traced
    sight = _seen_by_each(battle, unit, target)
    within = orders.counts_within
    for name, models in armed.items():
        firing = _in_sight_and_range(
            battle, unit, target, name, models, copies, within, tables, sight, throws[name]
        )
        chosen[name] = throwers(name, firing)
    return chosen


# A model armed with a weapon, as _firing_each lists it: its index among the models alive,
# the model, who fires it (a gun's crewman: artillery.firers), the profile it fires and
# that profile's range.
_Armed = tuple[int, Model, Model, WeaponProfile, float]

# The gap tables _firing_each reads (gaps_to): every model's gaps to the target models,
# and to the nearest of them; both empty where no model needed them.
_Gaps = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]


def _armed_in_reach(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    spent: Counter[str] | None,
    names: Sequence[str],
) -> tuple[dict[str, list[_Armed]], dict[tuple[str, str], int], dict[str, bool], _Gaps]:
    """The first pass of :func:`_firing_each` over the unit's models: by name of
    ``names``, the models armed with it that may fire it (a Ballistic Skill, the orders'
    weapon types, Snap Shots it can fire, its quota with ``spent``) and in range: a
    target model, seen or not, within its range, or where the orders count a range of
    their own, that range within its reach; how many of it each model carrying more
    than one fires (by name and model id); whether each is a grenade (the first armed
    model's weapon: of a grenade one model throws, :func:`firing_modes.throwers`); and
    the gap tables read."""
    # By name: (index among the models alive, model, who fires it, profile, its range)
    armed: dict[str, list[_Armed]] = {}
    copies: dict[tuple[str, str], int] = {}  # (name, model id): how many of it the model fires
    throws: dict[str, bool] = {}  # the first armed model's weapon is a grenade (throwers)
    # Sight and range of every model alive at once (one table each for the unit and
    # target, whichever weapon is asked about), read for the armed models: each model's
    # gaps to the target models and to the nearest of them, seen or not (unless the
    # orders count a range of their own), read where a model is armed. Inside a
    # decision, where the tables are remembered for every pass at the target
    # (gaps_to), they are read first: where the target's nearest model is beyond the
    # longest range any weapon the models carry may have (asked about or not), no
    # model is in range and none is looked at (three passes in ten of a whole battle's,
    # counted in four, found nothing in range). Outside one the tables are worked out
    # afresh, and only where some model is armed (a Guard battle's shooting asks again
    # after every weapon fired, its models mostly spent): there the pass is made. With
    # no weapon asked about (a unit with no ranged weapon) nothing is read: the pass
    # below arms no model, and a table worked out for it would be thrown away.
    within = orders.counts_within
    gaps: tuple[tuple[float, ...], ...] = ()
    least: tuple[float, ...] = ()
    models = unit.alive_models
    if names and within is None and deciding():
        gaps, least = gaps_to(unit, target)
        if least and min(least) > longest_reach(models):
            return armed, copies, throws, (gaps, least)
    # What each wargear gives each shooter's profile to fire, whatever the target
    # (_armaments: remembered for the decision, asked of every target weighed), and
    # whether a weapon that cannot fire Snap Shots would fire them at this target (by
    # the profile's identity: flyers.snap_against, the one cause of Snap Shots that
    # reads the target). The last model's armament, known by identity, serves its
    # neighbours.
    kinds, snaps = _armaments(battle, unit, orders, tuple(names))
    at_target: dict[int, bool] = {}
    last: tuple[object, object, bool] = (None, None, False)
    armament: _Armament = ()
    vehicles = has_vehicle_alive(unit)
    crewed = firers(unit)  # Artillery: a gun fires with its crewman (artillery.py)
    for at, model in enumerate(models):
        shooter = model if crewed is None else crewed[model.id]
        if shooter is None:
            continue
        wargear = model.weapons
        crew = vehicles and crew_snap_shots(battle, model)
        if wargear is not last[0] or shooter.profile is not last[1] or crew != last[2]:
            last = (wargear, shooter.profile, crew)
            key = (id(wargear), id(shooter.profile), crew)
            known = kinds.get(key)
            if known is None:
                carries = _carried(wargear)[0]
                known = kinds[key] = tuple(
                    (
                        name,
                        weapon,
                        carried,
                        _fired(battle, unit, (model, shooter), weapon, orders, crew, snaps),
                    )
                    for name in names
                    if name in carries
                    for weapon, carried in (carries[name],)
                )
            armament = known
        # The weapons it may fire in the attack, read once for all its weapons (only once
        # something is spent is it asked: may_fire, and the copies it has left below).
        quota = weapons_per_phase(unit, model) if spent and armament else 0
        for name, weapon, carried, fired in armament:
            if fired is None:
                continue
            profile, reach, no_snaps = fired
            if no_snaps:  # would it fire Snap Shots at the target?
                barred = at_target.get(id(profile))
                if barred is None:
                    barred = at_target[id(profile)] = snap_against(target, profile)
                if barred:
                    continue
            if spent and not may_fire(spent, unit, model, name, quota):
                continue
            if name not in throws:
                throws[name] = is_grenade(weapon)
            if within is None:
                if not gaps:  # every model's gaps to the target models, and to the nearest
                    gaps, least = gaps_to(unit, target)
                if least[at] > reach:
                    continue  # no target model, seen or not, is in its range: it cannot fire
            elif reach < within:
                continue  # the range the orders count is beyond its reach: it cannot fire
            armed.setdefault(name, []).append((at, model, shooter, profile, reach))
            if carried > 1:
                left = quota - spent[model.id] if spent else weapons_per_phase(unit, model)
                copies[(name, model.id)] = min(carried, left)
    return armed, copies, throws, (gaps, least)


def _in_sight_and_range(
    battle: Battle,
    unit: Unit,
    target: Unit,
    name: str,
    models: list[_Armed],
    copies: dict[tuple[str, str], int],
    within: float | None,
    tables: _Gaps,
    sight: tuple[tuple[int, ...], ...],
    one_thrower: bool,
) -> list[Model]:
    """The second pass of :func:`_firing_each`, for the weapon ``name``: of the models
    armed with it (:func:`_armed_in_reach`), those that see a target model (a Barrage
    needs none; a gun's crewman must see it too), may aim a blast or template at one,
    and have one they see within range (where the orders count a range of their own,
    ``within``, every model armed is), each listed once per copy of the weapon it
    fires (``copies``). Of a grenade (``one_thrower``) the first model able to throws
    (:func:`firing_modes.throwers`): no other is asked."""
    gaps, least = tables
    count = len(gaps[0]) if gaps else 0  # the target's models alive (a row of the table)
    firing: list[Model] = []
    for at, model, shooter, profile, reach in models:
        if one_thrower and firing:
            break  # of a grenade the first model able to throws (throwers): no other is asked
        seen = sight[at]
        if not seen and not profile.barrage:
            continue
        # The gun's crewman must see it too (a Barrage needs no sight).
        crew_must_see = not profile.barrage and shooter is not model
        if crew_must_see and not visible_models(battle, [shooter], target):
            continue
        # In range first, the cheap test: a model out of range is asked no aim points.
        # Where the orders count a range of their own, every model armed is within it.
        if within is None:
            # visibility.within of the models it sees (all of them for a Barrage, which
            # needs no sight: interpretation 11): within reach of one of them, that is
            # the nearest of them within it.
            if len(seen) == count or not seen or profile.barrage:
                nearest_seen = least[at]
            else:
                row = gaps[at]
                nearest_seen = min([row[j] for j in seen])
            if nearest_seen > reach:
                continue
        # A range counted as another distance (within) stands for where the template
        # would reach from too: only where the models stand is its reach asked.
        if (profile.blast or profile.template) and not aim_points(
            battle, unit, model, target, profile, reach=within is None
        ):
            continue
        firing += [model] * copies.get((name, model.id), 1)
    return firing


@per_decision
def _armaments(
    battle: Battle, unit: Unit, orders: FireOrders, names: tuple[str, ...]
) -> tuple[dict[tuple[int, int, bool], _Armament], dict[tuple[int, bool], bool]]:
    """Two tables :func:`_armed_in_reach` fills as it meets the unit's models, for the
    weapons ``names``, whatever the target: what each wargear (by identity: models of
    one entry share one tuple) gives each shooter's profile to fire, by the wargear's
    and the profile's identities and whether the carrier is a vehicle whose own crew
    fires Snap Shots (:data:`_Armament`: each weapon's profile, range and whether it
    cannot fire Snap Shots, or ``None`` where it fires nothing: no Ballistic Skill, a
    weapon type the orders leave out, or Snap Shots it would fire and cannot); and
    whether each weapon fires Snap Shots for a cause other than its target
    (:func:`_fired`), by the weapon's identity and that.

    Empty where worked out; inside a decision the same two tables, filled, are handed to
    every question about the unit with these orders and weapons, each target weighed
    (a third of the passes over a unit's models in a whole battle's decisions asked
    again what another target's pass had found). Every entry is a function of its key
    and of what a decision never changes (the unit's state, the orders), so a table
    filled by one question answers the next as it would have answered itself. The
    identities are those of the wargear, profiles and weapons of the unit's models
    (the unit kept alive with the answer); a decision in an equal state
    (:func:`memo.state_of_play` compares every model's wargear and profile) that takes
    the tables up again meets only equal ones, whose answers are the same."""
    return {}, {}


def _fired(
    battle: Battle,
    unit: Unit,
    firer: tuple[Model, Model],
    weapon: Weapon,
    orders: FireOrders,
    crew: bool,
    snaps: dict[tuple[int, bool], bool],
) -> tuple[WeaponProfile, float, bool] | None:
    """The profile ``firer`` (the model carrying ``weapon`` and the one who fires it: a
    gun's crewman) fires ``weapon`` with under ``orders``, its range and whether it
    cannot fire Snap Shots (read once here, not per model and target), or ``None``
    where it fires nothing (:func:`_fired_profile`, or it would fire Snap Shots and
    cannot); ``crew``: whether the carrier is a vehicle whose own crew fires Snap
    Shots (:func:`vehicles.crew_snap_shots`, of a unit with a vehicle alive), as
    :func:`_firing_each` read it of the model; ``snaps`` keeps whether each weapon fires
    Snap Shots, by that.

    Asked of no target: :func:`snap_shots.snap_cause`'s one cause that reads the
    target, the last it asks (:func:`flyers.snap_against`), is asked by
    :func:`_armed_in_reach` of each target, of the weapons that cannot fire Snap
    Shots; a weapon fires Snap Shots at a target where another cause holds or that
    one does, so the two questions answer as the one did. Whether it fires them is
    asked only of a weapon that cannot (seed 000: "Some weapon types, such as Template
    and Ordnance) or those that have certain special rules, such as Blast, cannot be
    fired as Snap Shots"): it bars no other, and most weapons can (a lasgun, a
    boltgun), so most were asked it for nothing."""
    model, shooter = firer
    profile = _fired_profile(shooter, weapon, orders)
    if profile is None:
        return None
    no_snaps = not profile.can_snap_fire
    if no_snaps:  # only a weapon that cannot fire Snap Shots is barred by firing them
        key = (id(weapon), crew)
        snap = snaps.get(key)
        if snap is None:
            snap = snaps[key] = fires_snap(battle, unit, profile, orders, None, model)
        if snap:
            return None
    return profile, effective_range(unit, profile), no_snaps


ABLE: Transpositions[tuple[tuple[str, tuple[str, ...]], ...]] = Transpositions()
""":func:`able_weapons`' answers by position (:mod:`engine.transpositions`), by model id."""


def able_weapons(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    spent: Counter[str],
    fired: set[str],
) -> dict[str, list[Model]]:
    """Seed 000, step 3 for each of the unit's weapons not yet ``fired``: the models
    that may fire it at ``target`` (:func:`firing_models`), those able to fire one.

    A function of the position and its arguments only, asked before every weapon
    of every shooting attack, and the same in the positions every battle of a
    scenario passes through: remembered by position (:data:`ABLE`), the models by
    their ids."""

    def worked_out() -> dict[str, list[Model]]:  # every weapon in one pass over the models
        names = [name for name in ranged_weapons(unit) if name not in fired]
        each = _firing_each(battle, unit, target, orders, spent, names)
        return {name: chosen for name, chosen in each.items() if chosen}

    def key() -> tuple[object, ...]:  # small: kept as it is, not digested (the position is)
        done = (tuple(sorted(spent.items())), tuple(sorted(fired)))
        return (position_key(battle), unit.id, target.id, frozen(orders), *done)

    def keep(able: dict[str, list[Model]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple((name, tuple(m.id for m in chosen)) for name, chosen in able.items())

    def give(kept: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, list[Model]]:
        models = {model.id: model for model in unit.models}
        return {name: [models[i] for i in ids] for name, ids in kept}

    return ABLE.recall(key, worked_out, keep, give)


def _carried(weapons: tuple[Weapon, ...]) -> _Carried:
    """By the name of each of ``weapons``: the first of them called so and how many are
    (a Land Raider's two twin-linked lascannons, a Deff Dread's two big shootas); the
    longest range any of them may have (:func:`firepower.longest_range`; 0 where none
    shoots); and ``weapons`` (kept alive with its answer). Read, never changed, by its
    callers.

    Remembered (:data:`_CARRIED`): a function of the wargear, which never changes (a
    tuple of frozen weapons), asked for every wargear of every pass over a unit's
    models. Remembered by the tuple's identity, not its value: hashing a tuple of
    weapons calls each weapon's ``__hash__``. Each answer keeps its tuple alive, so no
    identity is reused while it is remembered. One answer for every name, not one per
    name asked: a pass asks about each of the unit's ranged weapons, and most are not
    in a given model's wargear."""
    known = _CARRIED.get(id(weapons))
    if known is None:
        if len(_CARRIED) >= CARRIED_KEPT:
            _CARRIED.clear()
        each: dict[str, tuple[Weapon, int]] = {}
        for weapon in weapons:
            first = each.get(weapon.name)
            each[weapon.name] = (weapon, 1) if first is None else (first[0], first[1] + 1)
        longest = max([longest_range(weapon_of(weapon)) for weapon in weapons], default=0.0)
        known = _CARRIED[id(weapons)] = (each, longest, weapons)
    return known


def longest_reach(models: list[Model]) -> float:
    """The longest range any weapon of ``models`` may have (:func:`_carried`): a model
    fires only at a target model within its weapon's range
    (:func:`firepower.effective_range`, at most :func:`firepower.longest_range`), so
    none of them fires at a unit whose every model is farther, nor where orders count
    the target farther off (:func:`expected.out_of_reach`). Models of one entry share
    one wargear tuple: each is read once where neighbours share it."""
    longest = 0.0
    last: tuple[Weapon, ...] | None = None
    for model in models:
        if model.weapons is not last:
            last = model.weapons
            reach = _carried(last)[1]
            if reach > longest:  # noqa: PLR1730 (max() of two: a builtin's call, dearer)
                longest = reach
    return longest


CARRIED_KEPT = 4096
"""Answers :func:`_carried` remembers before it forgets them all (a bound on memory over
a sweep, each scenario loaded bringing wargear of its own)."""

# What a wargear carries (_carried): by name, the first weapon of that name and how many;
# the longest range of any; the wargear itself.
_Carried = tuple[Mapping[str, tuple[Weapon, int]], float, tuple[Weapon, ...]]

_CARRIED: dict[int, _Carried] = {}
""":func:`_carried`'s answers by the wargear's identity, each with its wargear."""


@per_decision
def gaps_to(unit: Unit, target: Unit) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """The :func:`geometry.gap_table` from every model alive of ``unit`` to every one
    of ``target``, and each row's least gap (``inf`` for no target model).

    :func:`_firing_each` reads the rows of the models armed with each weapon: one
    table for the unit, which each of its weapons asks about in one decision, not
    one per set of models carrying a weapon. Remembered per decision
    (:func:`memo.per_decision`), in which no model moves or dies, or across
    decisions whose :func:`memo.state_of_play` (every model's position and wounds
    among it) is equal."""
    gaps = gap_table(unit.alive_models, target.alive_models)
    return gaps, tuple([min(row) if row else math.inf for row in gaps])


@per_decision
def _seen_by_each(battle: Battle, unit: Unit, target: Unit) -> tuple[tuple[int, ...], ...]:
    """:func:`visibility.seen_by_each` of every model alive of ``unit``, for
    :func:`_firing_each` to read as it reads :func:`gaps_to`."""
    return seen_by_each(battle, unit.alive_models, target)


def _fired_profile(shooter: Model, weapon: Weapon, orders: FireOrders) -> WeaponProfile | None:
    """``weapon`` as ``shooter`` would fire it under ``orders``, or ``None`` where it
    fires nothing: a BS of '-' (no Ballistic Skill), or a weapon type the orders
    leave out."""
    if stats_of(shooter.profile).bs == 0:
        return None
    profile = weapon_of(weapon)
    if orders.weapon_types is not None and profile.base_type not in orders.weapon_types:
        return None
    return profile


def not_fired(
    battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders
) -> WeaponNotFired:
    """Why no model of ``unit`` fires ``weapon_name`` at ``target``, as the log's event:
    it cannot fire Snap Shots (:func:`snap_shots.no_snap_shots`), else no model can fire
    it there."""
    snap = no_snap_shots(battle, unit, target, weapon_name, orders)
    if snap is not None:
        return WeaponNotFired(unit.label, weapon_name, target.label, "no_snap_shots", snap)
    why = f"no model can fire {weapon_name} at {target.label}"
    return WeaponNotFired(unit.label, weapon_name, target.label, "no_model_can_fire", why)


def fire_weapon(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    spent: Counter[str] | None = None,
    able: list[Model] | None = None,
) -> VolleyResult:
    """Fire every eligible model's ``weapon_name`` at ``target`` and resolve it.

    ``spent`` counts the weapons each model has fired in this shooting attack;
    it is updated with the models that fire. Rules may forbid the weapon to
    fire (:data:`points.WEAPON_WOULD_FIRE`) or answer the wounds it causes on
    its target with more attacks (:data:`points.SHOOTING_WOUNDS_CAUSED`).
    ``able``: the eligible models (:func:`firing_models` of these arguments),
    where the caller has just found them with nothing changed since (the
    shooting attack, which offered the weapon because some model may fire it).
    """
    result = VolleyResult()
    firing = _to_fire(battle, unit, target, weapon_name, orders, spent, able)
    if firing is None:
        return result
    models, profile, snap = firing
    result.fired = True
    watchers = battle.hooks.get(ATTACK_WATCHERS)
    watched = (
        [w.volley(battle, unit, target, weapon_name, orders, models) for w in watchers]
        if watchers
        else []
    )
    if spent is not None:
        spend(spent, unit, models, weapon_name)
    if orders.counts_as_fired:
        fired_types = st(battle, unit).fired_types
        fired_types.add(profile.base_type)
        if profile.blast or profile.template:
            fired_types.add("Template" if profile.template else "Blast")
    if gets_hot(profile) and (profile.template or profile.blast):
        bs_of = {m.id: shot_bs(battle, m, snap) for m in models}
        shooting = shots_fired(battle, unit, models, profile, bs_of, orders)
        one_each = replace(profile, shots=1)
    else:
        shooting, one_each = models, profile
    if profile.template:
        hits = template_hits(battle, unit, target, shooting, one_each)
    elif profile.blast:
        hits = blast_hits(battle, unit, target, shooting, one_each)
    else:
        hits = []
        for snapping, group in _by_snap(battle, unit, models, snap):
            hits += _rolled_hits(battle, unit, target, group, profile, snapping, orders)
    _resolve_hits(battle, unit, target, hits, profile, snap, orders, result, models)
    if orders.into_melee:
        friendly_fire_penalty(battle, unit, result)
    for resolved in watched:
        resolved()
    if is_one_use(profile):  # fired once in a battle
        spend_one_use(battle, unit, models, weapon_name)
    return result


def _to_fire(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    spent: Counter[str] | None,
    able: list[Model] | None,
) -> tuple[list[Model], WeaponProfile, bool] | None:
    """The step of :func:`fire_weapon` before its dice: the models that fire
    ``weapon_name`` (``able``, else :func:`firing_models`), the profile they fire and
    whether it fires Snap Shots; ``None``, the log told why (:class:`events.WeaponNotFired`),
    where no model may fire it (:func:`not_fired`) or a rule forbids it
    (:data:`points.WEAPON_WOULD_FIRE`)."""
    models = (
        firing_models(battle, unit, target, weapon_name, orders, spent) if able is None else able
    )
    weapon = models[0].weapon(weapon_name) if models else None
    if weapon is None:
        battle.emit(not_fired(battle, unit, target, weapon_name, orders))
        return None
    profile = weapon_of(weapon)
    snap = fires_snap(battle, unit, profile, orders, target)
    for veto in battle.hooks.get(WEAPON_WOULD_FIRE):
        why = veto(battle, unit, profile, snap, orders)
        if why is not None:
            detail = f"{weapon_name} {why}"
            battle.emit(WeaponNotFired(unit.label, weapon_name, target.label, "vetoed", detail))
            return None
    return models, profile, snap


def _resolve_hits(
    battle: Battle,
    unit: Unit,
    target: Unit,
    hits: list[Hit],
    profile: WeaponProfile,
    snap: bool,
    orders: FireOrders,
    result: VolleyResult,
    models: list[Model],
) -> None:
    """The step of :func:`fire_weapon` after its dice To Hit: the ``hits`` counted in
    ``result``, then each hit unit's wounds rolled (a vehicle's hits resolved on its
    Armour Value: :func:`vehicle_damage.resolve_vehicle_hits`), the rules that answer
    the wounds on the target given them (:data:`points.SHOOTING_WOUNDS_CAUSED`,
    :data:`points.SHOOTING_WOUNDS_UNSAVED`), and the wounds allocated."""
    # A Barrage weapon's wounds are allocated from the centre of the marker that caused
    # them (allocation.shot_origin): each marker's hits on a unit are resolved apart.
    by_unit: dict[tuple[str, Vec | None], list[Hit]] = {}
    for hit in hits:
        by_unit.setdefault((hit.unit.id, shot_origin(profile, hit.marker)), []).append(hit)
    # Counted by group, the units in the order of their first hit, as hit by hit. A
    # count is added to with ``get``: ``+=`` on a unit not yet counted calls
    # ``Counter.__missing__``, a Python method (so do ``wounds`` and ``unsaved`` below).
    counted = result.hits
    for (unit_id, _), unit_hits in by_unit.items():
        counted[unit_id] = counted.get(unit_id, 0) + len(unit_hits)
    for (unit_id, origin), unit_hits in by_unit.items():
        victim = battle.unit(unit_id)
        if victim.destroyed:  # an earlier Barrage marker's wounds slew them all
            continue
        if is_vehicle(victim):
            resolve_vehicle_hits(battle, unit, victim, unit_hits, profile, orders, result)
            continue
        wounds = roll_to_wound(
            battle,
            victim,
            unit_hits,
            profile,
            toughness=shooting_toughness(battle, victim),
            **wound_rerolls(battle, unit, victim),
        )
        # What rules that answer the wounds on the target get: made where one listens
        # (the rules' hooks are fixed before the first turn).
        listening = bool(battle.hooks.get(SHOOTING_WOUNDS_CAUSED)) or bool(
            battle.hooks.get(SHOOTING_WOUNDS_UNSAVED)
        )
        caused = (
            _caused(battle, unit, target, profile, snap, orders, result, models)
            if victim is target and listening
            else None
        )
        if caused is not None and wounds:
            wounds += _more_attacks(battle, caused, len(wounds))
        result.wounds[unit_id] = result.wounds.get(unit_id, 0) + len(wounds)
        saved_before = result.unsaved.get(target.id, 0)
        allocate_wounds(
            battle, unit, victim, wounds, profile, orders, result, models,
            closest_to=unit.alive_models, marker=origin,
        )  # fmt: skip
        unsaved = result.unsaved.get(target.id, 0) - saved_before
        if caused is not None and unsaved:
            for rule in battle.hooks.get(SHOOTING_WOUNDS_UNSAVED):
                rule(battle, replace(caused, wounds=unsaved))


def _by_snap(
    battle: Battle, unit: Unit, models: list[Model], snap: bool
) -> list[tuple[bool, list[Model]]]:
    """``models`` as they roll To Hit: all together, or, where some fire Snap Shots and
    others not (a squadron with one Crew Shaken vehicle: :func:`snap_shots.snaps_of`), those at
    their own BS, then those firing Snap Shots, each a volley of its own."""
    each = snaps_of(battle, unit, models, snap)
    if all(each) or not any(each):
        return [(snap or each[0], models)]
    pairs = list(zip(models, each, strict=True))
    return [(want, [m for m, snapping in pairs if snapping is want]) for want in (False, True)]


def shot_bs(battle: Battle, model: Model, snap: bool) -> int:
    """The BS ``model`` fires at: its own (an Artillery gun's crewman's, as the rules
    installed change it: :func:`characteristics.ballistic_skill`), or a Snap Shot's
    with the battle's parameters."""
    bs = ballistic_skill(battle, model)
    if not snap:
        return bs
    settings = battle.settings
    return snap_shot_bs(
        bs, settings.integer("snap_shot_divisor"), settings.integer("snap_shot_minimum_bs")
    )


def _rolled_hits(
    battle: Battle,
    unit: Unit,
    target: Unit,
    models: list[Model],
    profile: WeaponProfile,
    snap: bool,
    orders: FireOrders,
) -> list[Hit]:
    """Seed 000, step 4: "Roll a D6 for each shot fired".

    Into a melee, the hits of the rolls of 1-2 follow the hits on the target
    (:func:`melee_strays.stray_hits`).
    """
    hits: list[Hit] = []
    strays: list[Model] = []
    hot: list[tuple[Model, int]] = []  # each model's 1s, where the weapon Gets Hot
    hot_weapon = gets_hot(profile)
    total_shots = precise = 0
    twin, ones_by = profile.has_rule("Twin-linked"), hit_ones_rerolled(battle, unit, target)
    # Nothing moves or dies while the dice to hit are rolled: every model's shots at once.
    each = shots_of_each(battle, unit, models, profile, target, orders.counts_within)
    # What a model fires with: its BS, its Strength, whether its 6s are Precision Shots.
    # Read once for the models of one profile and rules (a squad's lasguns) where no
    # model's own is asked (:func:`_fire_alike`), else for each model: its BS before its
    # dice to hit and the rest after them, as each was always read (a rule installed on
    # a Strength may roll dice of its own: they come after the model's dice to hit).
    alike = len(models) > 1 and _fire_alike(battle, unit)  # one model: nothing shared
    kinds: dict[tuple[int, int], tuple[int, int, bool]] = {}
    skills: set[int] = set()  # the BS of each model, for the scores needed
    for model, shots in zip(models, each, strict=True):
        total_shots += shots
        kind = (id(model.profile), id(model.rules))
        known = kinds.get(kind) if alike else None
        bs = known[0] if known is not None else shot_bs(battle, model, snap)
        rolled = roll_to_hit(battle, bs, shots, twin, profile.name, orders.into_melee, ones_by)
        if known is None:
            known = (
                bs,
                weapon_strength(battle, unit, model, profile),
                fires_precision_shots(unit, model, profile, snap),
            )
            if alike:
                kinds[kind] = known
        _, strength, precision = known
        # Each step only where it has something to add: every model of every volley
        # passes here, and a comprehension is a function made and called.
        if rolled.hits:
            sixes = rolled.sixes if precision else 0  # its first hits are its Precision Shots
            hits += [Hit(target, strength, model, k < sixes) for k in range(rolled.hits)]
            precise += min(sixes, rolled.hits)
        if rolled.strays:
            strays += [model] * rolled.strays
        if hot_weapon:
            hot.append((model, rolled.ones))
        skills.add(bs)
    needed_seen = {f"{ballistic_target(bs)[0]}+" for bs in skills}
    battle.emit(
        # The fields in order, no keywords (unit, weapon, target, models, shots, snap,
        # needed, hits): a class called with keywords is handed a dict made of them,
        # about 2,300 instructions a call, and every volley reports (docs/scale.md).
        ShotsFired(
            unit.label,
            profile.name,
            target.label,
            len({id(m) for m in models}),  # a model firing two of the weapon: one
            total_shots,
            snap,
            "/".join(sorted(needed_seen)),
            len(hits),
        )
    )
    if precise:
        battle.emit(PrecisionShotsRolled(unit=unit.label, weapon=profile.name, hits=precise))
    for model, ones in hot:
        suffer(battle, unit, model, profile, ones, orders)
    if strays:
        hits += stray_hits(battle, unit, target, profile, strays)
    return hits


def _fire_alike(battle: Battle, unit: Unit) -> bool:
    """Whether the models of ``unit`` with one profile and rules fire with one BS and
    Strength (:func:`shot_bs`, :func:`wounds.weapon_strength`): none is an Artillery gun,
    which fires with its own crewman's BS (:func:`artillery.crewman_of`), and no rule
    installed changes a BS or a Strength (each handler is given the model). Whether its
    6s are Precision Shots is a function of those and the unit's rules alone
    (:func:`precision_shots.fires_precision_shots`)."""
    hooks = battle.hooks
    return not hooks.get(BALLISTIC_SKILL) and not hooks.get(STRENGTH) and not has_gun_alive(unit)


def _caused(
    battle: Battle,
    unit: Unit,
    target: Unit,
    profile: WeaponProfile,
    snap: bool,
    orders: FireOrders,
    result: VolleyResult,
    firers: list[Model],
) -> WoundsCaused:
    """What rules that answer a weapon's wounds on its target get: how to make more
    attacks with the same weapon and orders, and how to allocate their wounds."""

    def strike(model: Model, count: int, rule: str) -> list[WoundRoll]:
        twin = profile.has_rule("Twin-linked")
        purpose = f"{profile.name} {rule}"
        ones_by = hit_ones_rerolled(battle, unit, target)
        (snapping,) = snaps_of(battle, unit, [model], snap)
        hits = roll_hits(battle, shot_bs(battle, model, snapping), count, twin, purpose, ones_by)
        shots = [Hit(target, weapon_strength(battle, unit, model, profile), model)] * hits
        return roll_to_wound(
            battle,
            target,
            shots,
            profile,
            shooting_toughness(battle, target),
            **wound_rerolls(battle, unit, target),
        )

    def allocate(wounds: list[WoundRoll]) -> int:
        before = result.unsaved[target.id]
        result.wounds[target.id] += len(wounds)
        allocate_wounds(
            battle, unit, target, wounds, profile, orders, result, firers,
            closest_to=unit.alive_models,
        )  # fmt: skip
        return result.unsaved[target.id] - before

    return WoundsCaused(unit, tuple(firers), target, profile, orders, 0, strike, allocate)


def _more_attacks(battle: Battle, caused: WoundsCaused, wounds: int) -> list[WoundRoll]:
    """Wounds of the extra attacks rules grant for the wounds a weapon caused on its
    target (Final Shot), allocated with the weapon's own."""
    extra: list[WoundRoll] = []
    for rule in battle.hooks.get(SHOOTING_WOUNDS_CAUSED):
        extra += rule(battle, replace(caused, wounds=wounds))
    return extra
