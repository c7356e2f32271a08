"""Resolving one weapon's shots: seed 000 steps 3 to 6.

"Select a Weapon … Roll To Hit … Roll To Wound … Allocate Wounds & Remove
Casualties", with the Waffle Edition's Snap Shots, Overwhelming Strength,
multiple saves and Final Shot, and the 6th/7th-edition weapon types; and the
seed 001 rules for shooting near and into close combats (markers kept off
locked models; the proposed Snap Shots into a melee, whose 1s and 2s stray).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from shapely.geometry.base import BaseGeometry

from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.events import (
    MarkerPlaced,
    SaveTaken,
    ShotsFired,
    StrayShots,
    WoundsRolled,
)
from hammerlab.editions.waffle.profiles import Stats, WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.special_rules import (
    feel_no_pain,
    is_independent_character,
    model_has,
)
from hammerlab.editions.waffle.tables import (
    ballistic_target,
    overwhelming,
    snap_shot_bs,
    to_wound_target,
)
from hammerlab.editions.waffle.visibility import cover_save, model_sees, visible_models, within
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.events import WoundsLost
from hammerlab.engine.geometry import (
    BLAST_DIAMETER,
    TEMPLATE_LENGTH,
    Vec,
    base_distance,
    blast_marker,
    flame_template,
    offset,
    touched,
)
from hammerlab.engine.units import Model, Unit

FINAL_SHOT_LIMIT = 60
"""Extra attacks one Final Shot or Final Blow chain may make; a guard, far above
any real chain."""
STRAY_ROLL = 2
"""Seed 001, Shooting Into Close Combat: "any rolls of 1 or 2 … hit one of your
engaged units instead!"."""


@dataclass(frozen=True)
class FireOrders:
    """How a unit is firing: the circumstances the rules distinguish."""

    snap: bool = False
    """Forced Snap Shots (Return Fire!, Overwatch, shooting into combat)."""
    suppressive: bool = False
    """Seed 000 (Proposed Rule) Suppressive Fire: nothing is removed."""
    overwatch: bool = False
    """Seed 004: "the target … counts as being within 1" of the models … firing"."""
    weapon_types: frozenset[str] | None = None
    """Only weapons of these base types may fire (Fiery Charge: Assault and Pistol)."""
    purpose: str = "shooting"
    into_melee: bool = False
    """Seed 001 (Proposed Rule): shooting at a unit locked in combat, with Snap
    Shots whose rolls of 1-2 hit another unit of the combat."""


def orders_against(target: Unit, orders: FireOrders) -> FireOrders:
    """``orders`` for firing at ``target``: into a melee when it is locked in combat.

    Seed 001 (Proposed Rule): "Units wishing to shoot into a melee must declare
    which of the engaged units they are trying to hit, and then perform a snap
    shot against that unit." Only :func:`shooting.targets_for` with the option
    ``shooting_into_combat`` offers such targets.
    """
    return replace(orders, into_melee=True) if target.status.locked_in_combat else orders


@dataclass
class Hit:
    """One hit on a unit, from ``source``."""

    unit: Unit
    strength: int
    source: Model


@dataclass
class WoundRoll:
    """One successful wound roll, waiting for allocation."""

    strength: int
    ap: int | None
    source: Model


@dataclass
class VolleyResult:
    """What one weapon's shots did, per unit id."""

    hits: Counter[str] = field(default_factory=Counter)
    wounds: Counter[str] = field(default_factory=Counter)
    unsaved: Counter[str] = field(default_factory=Counter)
    casualties: Counter[str] = field(default_factory=Counter)
    pinning: set[str] = field(default_factory=set)
    """Units that suffered unsaved wounds from a Pinning weapon."""
    fired: bool = False

    def merge(self, other: VolleyResult) -> None:
        """Add ``other``'s counts into this one."""
        self.hits.update(other.hits)
        self.wounds.update(other.wounds)
        self.unsaved.update(other.unsaved)
        self.casualties.update(other.casualties)
        self.pinning |= other.pinning
        self.fired = self.fired or other.fired


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
    model it may be placed over (:func:`aim_points`); into a melee only weapons
    that can fire Snap Shots fire (seed 001).
    """
    chosen: list[Model] = []
    for model in unit.alive_models:
        weapon = model.weapon(weapon_name)
        if weapon is None or (spent and spent[model.id] >= weapons_per_phase(model)):
            continue
        profile = weapon_of(weapon)
        if orders.weapon_types is not None and profile.base_type not in orders.weapon_types:
            continue
        if orders.into_melee and not profile.can_snap_fire:
            continue
        seen = visible_models(battle, [model], target)
        if not seen and not profile.barrage:
            continue
        if (profile.blast or profile.template) and not aim_points(battle, model, target, profile):
            continue
        reach = effective_range(unit, profile)
        if orders.overwatch or within(model, seen or target.alive_models, reach):
            chosen.append(model)
    return chosen


def ranged_weapons(unit: Unit) -> list[str]:
    """Names of the unit's shooting weapons."""
    names = []
    for name in unit.weapon_names():
        model = next(m for m in unit.alive_models if m.weapon(name))
        weapon = model.weapon(name)
        if weapon is not None and weapon_of(weapon).is_ranged:
            names.append(name)
    return names


def weapons_per_phase(model: Model) -> int:
    """Ranged weapons a model may fire in one shooting attack (6th/7th edition).

    One, or two for Monstrous Creatures.
    """
    return 2 if stats_of(model.profile).has_type("Monstrous") else 1


def effective_range(unit: Unit, profile: WeaponProfile) -> float:
    """Range in inches after the weapon type's rules (a moving Salvo: half)."""
    if profile.template:
        return TEMPLATE_LENGTH
    reach = profile.range or 0.0
    if profile.base_type == "Salvo" and moved_for_weapons(unit):
        reach /= 2
    return reach


def moved_for_weapons(unit: Unit) -> bool:
    """Whether the unit counts as moved for Heavy/Salvo/Ordnance (Relentless does not)."""
    relentless = unit.has_rule("Relentless") or unit.has_rule("Slow and Purposeful")
    return unit.status.moved and not relentless


def fires_snap(unit: Unit, profile: WeaponProfile, orders: FireOrders) -> bool:
    """Whether this weapon fires Snap Shots.

    Seed 000: "a model with a Heavy weapon … moves and shoots in the same
    turn"; 6th/7th-edition: units gone to ground or falling back snap fire;
    seed 001: shooting into a melee is "a snap shot".
    """
    status = unit.status
    return (
        orders.snap
        or orders.into_melee
        or status.gone_to_ground
        or status.falling_back
        or (profile.is_heavy_like and moved_for_weapons(unit))
    )


def shots_of(unit: Unit, model: Model, profile: WeaponProfile, target: Unit) -> int:
    """Shots for one model by weapon type (Rapid Fire doubles at half range)."""
    if profile.base_type == "Rapid Fire":
        half = (profile.range or 0.0) / 2
        return 2 if within(model, target.alive_models, half) else 1
    if profile.base_type == "Salvo" and moved_for_weapons(unit):
        return profile.salvo_moving_shots
    return profile.shots


def fire_weapon(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    spent: Counter[str] | None = None,
    shadow: dict[str, int] | None = None,
) -> VolleyResult:
    """Fire every eligible model's ``weapon_name`` at ``target`` and resolve it.

    ``spent`` counts the weapons each model has fired in this shooting attack;
    it is updated with the models that fire. ``shadow`` carries the wounds
    models would have left under Suppressive Fire from one weapon to the next
    of the same shooting attack.
    """
    result = VolleyResult()
    models = firing_models(battle, unit, target, weapon_name, orders, spent)
    weapon = models[0].weapon(weapon_name) if models else None
    if weapon is None:
        battle.say("shooting", f"{unit.label}: no model can fire {weapon_name} at {target.label}")
        return result
    profile = weapon_of(weapon)
    snap = fires_snap(unit, profile, orders)
    if snap and not profile.can_snap_fire:
        battle.say("shooting", f"{unit.label}: {weapon_name} cannot be fired as Snap Shots")
        return result
    if snap and orders.suppressive:
        # Seed 000, Suppressive Fire: "Snap shots cannot be used as Suppressive Fire."
        battle.say(
            "shooting",
            f"{unit.label}: {weapon_name} would fire Snap Shots, "
            "which cannot be used as Suppressive Fire",
        )
        return result
    result.fired = True
    if spent is not None:
        spent.update(m.id for m in models)
    unit.status.fired_types.add(profile.base_type)
    if profile.blast or profile.template:
        unit.status.fired_types.add("Template" if profile.template else "Blast")
    if profile.template:
        hits = _template_hits(battle, unit, target, models, profile)
    elif profile.blast:
        hits = _blast_hits(battle, unit, target, models, profile)
    else:
        hits = _rolled_hits(battle, unit, target, models, profile, snap, orders.into_melee)
    for hit in hits:
        result.hits[hit.unit.id] += 1
    by_unit: dict[str, list[Hit]] = {}
    for hit in hits:
        by_unit.setdefault(hit.unit.id, []).append(hit)
    for unit_id, unit_hits in by_unit.items():
        victim = battle.unit(unit_id)
        wounds = roll_to_wound(battle, victim, unit_hits, profile)
        # Final Shot's extra attacks are not made into a melee (docs/rules/waffle.md).
        if victim is target and not (profile.template or profile.blast or orders.into_melee):
            wounds += _final_shot(battle, unit, target, profile, snap, len(wounds))
        result.wounds[unit_id] += len(wounds)
        allocate_wounds(battle, unit, victim, wounds, profile, orders, result, models, shadow)
    if orders.into_melee:
        _friendly_fire_penalty(battle, unit, result)
    return result


def _friendly_fire_penalty(battle: Battle, shooter: Unit, result: VolleyResult) -> None:
    """Seed 001 (Proposed Rule): friendly casualties worsen Morale checks.

    "if you cause any casualties to a friendly unit, they will suffer a
    penalty to any Morale checks they might need to make!" The seed gives no
    size: -1 Ld per model removed, until the end of the turn
    (``UnitStatus.morale_penalty``, which ``morale.morale_check`` applies).
    """
    for unit_id, lost in sorted(result.casualties.items()):
        victim = battle.unit(unit_id)
        if lost and victim.player == shooter.player:
            victim.status.morale_penalty += lost
            battle.say(
                "morale",
                f"{victim.label}: -{lost} Ld to Morale checks this turn "
                f"({lost} casualt{'y' if lost == 1 else 'ies'} from friendly fire)",
            )


def _ballistic_skill(model: Model, snap: bool) -> int:
    bs = stats_of(model.profile).bs
    return snap_shot_bs(bs) if snap else bs


def roll_hits(battle: Battle, bs: int, shots: int, twin_linked: bool, purpose: str) -> int:
    """Roll ``shots`` to hit with ``bs``; re-roll misses for BS 6+ or twin-linked."""
    return roll_to_hit(battle, bs, shots, twin_linked, purpose).hits


@dataclass(frozen=True)
class HitRolls:
    """What the To Hit dice of some shots did."""

    hits: int
    strays: int = 0
    """Into a melee: dice of 1 or 2, which hit another unit of the combat."""


def roll_to_hit(
    battle: Battle, bs: int, shots: int, twin_linked: bool, purpose: str, into_melee: bool = False
) -> HitRolls:
    """Roll ``shots`` to hit with ``bs``; re-roll misses for BS 6+ or twin-linked.

    Into a melee (seed 001, Proposed Rule) "any rolls of 1 or 2, even if they
    would normally be hits, hit one of your engaged units instead!": every
    die showing 1 or 2 strays, a re-rolled one included. A stray is not a
    miss, so it is not re-rolled; a miss (3 up to the score needed) is, and
    strays if the re-roll shows 1 or 2.
    """
    needed, reroll_needed = ballistic_target(bs)
    stray = STRAY_ROLL if into_melee else 0
    note = f", 1-{stray} stray" if stray else ""
    rolls = battle.dice.roll(shots, f"to hit ({purpose}, {needed}+{note})")
    hits, strays = _hit_counts(rolls, needed, stray)
    misses = shots - hits - strays
    if misses and (reroll_needed is not None or twin_linked):
        again = reroll_needed if reroll_needed is not None else needed
        rerolls = battle.dice.roll(misses, f"re-roll misses ({purpose}, {again}+{note})")
        more_hits, more_strays = _hit_counts(rerolls, again, stray)
        hits, strays = hits + more_hits, strays + more_strays
    return HitRolls(hits, strays)


def _hit_counts(rolls: tuple[int, ...], needed: int, stray: int) -> tuple[int, int]:
    """(hits, strays) among ``rolls``: a stray is ``stray`` or less, a hit ``needed`` or more."""
    strays = sum(1 for r in rolls if r <= stray)
    return sum(1 for r in rolls if r > stray and r >= needed), strays


def _rolled_hits(
    battle: Battle,
    unit: Unit,
    target: Unit,
    models: list[Model],
    profile: WeaponProfile,
    snap: bool,
    into_melee: bool = False,
) -> list[Hit]:
    """Seed 000, step 4: "Roll a D6 for each shot fired".

    Into a melee, the hits of the rolls of 1-2 follow the hits on the target
    (:func:`_stray_hits`).
    """
    hits: list[Hit] = []
    strays: list[Model] = []
    total_shots = 0
    needed_seen: set[str] = set()
    for model in models:
        shots = shots_of(unit, model, profile, target)
        total_shots += shots
        bs = _ballistic_skill(model, snap)
        needed_seen.add(f"{ballistic_target(bs)[0]}+")
        twin = profile.has_rule("Twin-linked")
        rolled = roll_to_hit(battle, bs, shots, twin, profile.name, into_melee)
        strength = _strength(model, profile)
        hits += [Hit(target, strength, model) for _ in range(rolled.hits)]
        strays += [model] * rolled.strays
    battle.emit(
        ShotsFired(
            unit=unit.label,
            weapon=profile.name,
            target=target.label,
            models=len(models),
            shots=total_shots,
            snap=snap,
            needed="/".join(sorted(needed_seen)),
            hits=len(hits),
        )
    )
    if strays:
        hits += _stray_hits(battle, unit, target, profile, strays)
    return hits


def melee_stray_units(battle: Battle, shooter: Unit, target: Unit) -> list[Unit]:
    """Units the rolls of 1-2 of ``shooter``'s shots into ``target``'s melee may hit.

    Seed 001 (Proposed Rule): "hit one of your engaged units instead! (In the
    case of shooting at a melee which has no units you control, the 1s and 2s
    hit a squad from a different player than the controlling player of the
    nominated squad)". The combat is the group of units linked by base
    contact (:func:`combat.combats`). With two players the shooter always has
    a unit in the combat; none is found only when the target is marked locked
    without an enemy in base contact on the table.
    """
    combat = next((c for c in combats(battle) if any(u is target for u in c.units)), None)
    if combat is None:
        return []
    return combat.side(shooter.player) or [u for u in combat.units if u.player != target.player]


def _stray_hits(
    battle: Battle, unit: Unit, target: Unit, profile: WeaponProfile, sources: list[Model]
) -> list[Hit]:
    """The rolls of 1-2 of one weapon into a melee: one hit each on another unit.

    Where several units may take them, the shooting player chooses one for the
    weapon's strays (a ``melee_stray`` decision); where none may, they miss.
    """
    candidates = melee_stray_units(battle, unit, target)
    victim = candidates[0] if len(candidates) == 1 else None
    if len(candidates) > 1:
        victim = battle.decide(
            Decision(
                kind="melee_stray",
                player=unit.player,
                prompt=(
                    f"{len(sources)} roll(s) of 1-2 of {profile.name} into the melee: "
                    "which engaged unit do they hit?"
                ),
                choices=tuple(Choice(u.label, u) for u in candidates),
                context={"unit": unit.id, "target": target.id, "weapon": profile.name},
            )
        )
    battle.emit(
        StrayShots(
            unit=unit.label,
            weapon=profile.name,
            target=target.label,
            strays=len(sources),
            victim=victim.label if victim else "",
        )
    )
    if victim is None:
        return []
    return [Hit(victim, _strength(m, profile), m) for m in sources]


def aim_points(battle: Battle, firer: Model, target: Unit, profile: WeaponProfile) -> list[Model]:
    """Target models ``firer`` may place its blast marker or template over.

    Seed 001: "blast markers and templates cannot be deliberately placed such
    that they cover any models locked in combat, they may end up there after
    scattering". A marker centred on the model, or a template aimed at it,
    must touch no model of a unit locked in combat.
    """
    seen = visible_models(battle, [firer], target) or target.alive_models
    locked = [
        m
        for u in battle.units.values()
        if u.status.locked_in_combat
        for m in u.alive_models
        if m is not firer
    ]
    if not locked:
        return seen
    return [m for m in seen if not touched(_placed_shape(firer, m, profile), locked)]


def _placed_shape(firer: Model, aim: Model, profile: WeaponProfile) -> BaseGeometry:
    """The template from ``firer`` toward ``aim``, or the marker centred on ``aim``."""
    if profile.template:
        return flame_template(firer.position, aim.position)
    return blast_marker(aim.position, profile.blast or BLAST_DIAMETER)


def _aim(battle: Battle, unit: Unit, target: Unit, firer: Model, profile: WeaponProfile) -> Model:
    """Ask the firing player which target model to place a marker or template on."""
    what = "template" if profile.template else "blast marker"
    return battle.decide(
        Decision(
            kind="aim",
            player=unit.player,
            prompt=f"Place the {what} of {unit.label} over which model of {target.label}?",
            choices=tuple(Choice(m.id, m) for m in aim_points(battle, firer, target, profile)),
            context={"unit": unit.id, "target": target.id, "what": what},
        )
    )


def _hits_under(battle: Battle, shape: BaseGeometry, exclude: Model | None) -> list[Hit]:
    """One hit for each model (friend or foe) under ``shape``."""
    hits: list[Hit] = []
    for victim in battle.units.values():
        for model in touched(shape, victim.alive_models):
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


def _strength(source: Model, profile: WeaponProfile) -> int:
    """The weapon's Strength in ``source``'s hands (``User``, ``x2``, ``+N``)."""
    return profile.strength.resolve(stats_of(source.profile).s)


def _with_strength(hits: list[Hit], source: Model, profile: WeaponProfile) -> list[Hit]:
    strength = _strength(source, profile)
    return [Hit(h.unit, strength, source) for h in hits]


def _template_hits(
    battle: Battle, unit: Unit, target: Unit, models: list[Model], profile: WeaponProfile
) -> list[Hit]:
    """Templates "need no to-hit roll" and hit every model under them."""
    hits: list[Hit] = []
    for model in models:
        aim = _aim(battle, unit, target, model, profile)
        shape = _placed_shape(model, aim, profile)
        under = _with_strength(_hits_under(battle, shape, model), model, profile)
        _record_marker(battle, profile, "template", model.position, 0.0, under)
        hits += under
    return hits


def _blast_hits(
    battle: Battle, unit: Unit, target: Unit, models: list[Model], profile: WeaponProfile
) -> list[Hit]:
    """Blast markers scatter 2D6 minus BS unless the scatter die shows a hit.

    A Barrage weapon firing at a target it cannot see scatters the full 2D6.
    """
    hits: list[Hit] = []
    diameter = profile.blast or BLAST_DIAMETER
    for model in models:
        for _ in range(profile.shots):
            aim = _aim(battle, unit, target, model, profile)
            centre = aim.position
            distance = 0.0
            if battle.dice.d6("scatter die (1-2: HIT)") > 2:
                direction = battle.dice.direction("scatter direction")
                roll = battle.dice.total(2, "scatter distance (2D6)")
                sighted = model_sees(battle, model, aim)
                bs = stats_of(model.profile).bs if sighted else 0
                distance = float(max(0, roll - bs))
                centre = battle.battlefield.clamp(offset(centre, direction, distance))
            shape = blast_marker(centre, diameter)
            under = _with_strength(_hits_under(battle, shape, None), model, profile)
            name = "large blast" if diameter > 3.0 else "blast"
            _record_marker(battle, profile, name, centre, distance, under)
            hits += under
    return hits


def majority(unit: Unit, read: Callable[[Stats], int]) -> int:
    """The value of a characteristic most models alive have (the highest on a tie)."""
    counts = Counter(read(stats_of(m.profile)) for m in unit.alive_models)
    best = max(counts.values())
    return max(value for value, n in counts.items() if n == best)


def majority_toughness(unit: Unit) -> int:
    """The Toughness most models alive have (the highest on a tie)."""
    return majority(unit, lambda stats: stats.t)


def roll_to_wound(
    battle: Battle,
    victim: Unit,
    hits: list[Hit],
    profile: WeaponProfile,
    toughness: int | None = None,
) -> list[WoundRoll]:
    """Seed 000, step 5, with Overwhelming Strength, Rending, Poisoned and Shred.

    Overwhelming Strength: "it instead causes this wound automatically … counting
    the to-wound roll as if it were a 6" — so it also rends. Rending (6th/7th
    edition): a To Wound roll of 6 wounds regardless of Toughness, at AP2.
    Hits roll against the victim's majority Toughness unless ``toughness`` is
    given (a hit on one model: a Sweeping Advance's randomly distributed hit).
    """
    if toughness is None:
        toughness = majority_toughness(victim)
    wounds: list[WoundRoll] = []
    by_strength = Counter(h.strength for h in hits)
    sources = {h.strength: h.source for h in hits}
    needed_seen: list[str] = []
    for strength, count in sorted(by_strength.items()):
        source = sources[strength]
        if overwhelming(strength, toughness):
            needed_seen.append("auto (Overwhelming Strength)")
            wounds += [_wound(strength, profile, 6, source) for _ in range(count)]
            continue
        needed = _wound_target(strength, toughness, profile)
        needed_seen.append("-" if needed is None else f"{needed}+")
        rending = profile.has_rule("Rending")
        if needed is None and not rending:
            continue
        # 6th/7th-edition Rending: a To Wound roll of 6 wounds "regardless of its
        # Toughness", so a Rending weapon rolls even where the chart says "-".
        chart = 7 if needed is None else needed
        label = "6 (Rending)" if needed is None else f"{needed}+"
        rolls = list(battle.dice.roll(count, f"to wound ({profile.name}, {label})"))
        failed = sum(1 for r in rolls if not _wounds_on(r, chart, rending))
        if failed and _rerolls_wounds(profile, strength, toughness):
            rolls = [r for r in rolls if _wounds_on(r, chart, rending)]
            rolls += battle.dice.roll(failed, f"re-roll failed wounds ({profile.name})")
        wounds += [
            _wound(strength, profile, r, source) for r in rolls if _wounds_on(r, chart, rending)
        ]
    battle.emit(
        WoundsRolled(
            weapon=profile.name,
            target=victim.label,
            hits=len(hits),
            needed="/".join(needed_seen),
            wounds=len(wounds),
        )
    )
    return wounds


def _wounds_on(roll: int, needed: int, rending: bool) -> bool:
    """Whether a To Wound ``roll`` wounds: ``needed`` or more, or a Rending 6."""
    return roll >= needed or (rending and roll == 6)


def _wound_target(strength: int, toughness: int, profile: WeaponProfile) -> int | None:
    poisoned = profile.rule_value("Poisoned")
    if poisoned is not None or profile.has_rule("Poisoned"):
        chart = to_wound_target(strength, toughness)
        value = poisoned or 4
        return value if chart is None else min(chart, value)
    return to_wound_target(strength, toughness)


def _rerolls_wounds(profile: WeaponProfile, strength: int, toughness: int) -> bool:
    poisoned = profile.has_rule("Poisoned") and strength >= toughness
    return (
        profile.has_rule("Shred")
        or poisoned
        or (profile.template and profile.has_rule("Twin-linked"))
    )


def _wound(strength: int, profile: WeaponProfile, roll: int, source: Model) -> WoundRoll:
    """A wound; Rending (a 6 to wound) resolves at AP2."""
    ap = profile.ap
    if roll == 6 and profile.has_rule("Rending"):
        ap = 2 if ap is None else min(ap, 2)
    return WoundRoll(strength, ap, source)


def final_chain(
    battle: Battle,
    unit: Unit,
    target: Unit,
    rule: str,
    weapon: str,
    wounds: int,
    strike: Callable[[Model, int], list[WoundRoll]],
) -> list[WoundRoll]:
    """The chain Final Shot (seed 000) and Final Blow (seed 001) share; option ``rule``.

    "If a multiple-model unit has been reduced to only a single model with
    only a single wound …, for every successful wound this model causes it may
    immediately make an additional attack … If these additional attacks cause
    wounds, they gain another attack against that target, and so on." Neither
    can "be made by Independent Characters". The player is asked once (a
    decision of kind ``rule``); ``strike(last, n)`` makes ``n`` extra attacks
    of the last model and returns the wounds they cause.
    """
    alive = unit.alive_models
    if not (battle.option(rule) and wounds and unit.starting_models > 1):
        return []
    if len(alive) != 1 or alive[0].wounds_left != 1:
        return []
    last = alive[0]
    if is_independent_character(unit, last):
        return []
    name = rule.replace("_", " ").title()
    accept = battle.decide(
        Decision(
            kind=rule,
            player=unit.player,
            prompt=f"{last.id} may make {wounds} {name}(s) with {weapon}",
            choices=(Choice(name, True), Choice("No", False)),
            context={"unit": unit.id, "target": target.id},
        )
    )
    extra: list[WoundRoll] = []
    pending, made = wounds, 0
    while accept and pending and made < FINAL_SHOT_LIMIT:
        made += pending
        battle.say(rule.replace("_", "-"), f"{last.id} makes {pending} {name}(s)")
        new = strike(last, pending)
        extra += new
        pending = len(new)
    return extra


def _final_shot(
    battle: Battle, unit: Unit, target: Unit, profile: WeaponProfile, snap: bool, wounds: int
) -> list[WoundRoll]:
    """Seed 000, (Proposed Rule) Final Shot: :func:`final_chain` with the weapon's shots.

    "A model may not make a Final Shot with a Blast, Template, Barrage, or
    Ordnance weapon" (Blast and Template hits never come here).
    """
    if profile.barrage or profile.base_type == "Ordnance":
        return []

    def strike(last: Model, count: int) -> list[WoundRoll]:
        twin = profile.has_rule("Twin-linked")
        purpose = f"{profile.name} Final Shot"
        hits = roll_hits(battle, _ballistic_skill(last, snap), count, twin, purpose)
        shots = [Hit(target, _strength(last, profile), last)] * hits
        return roll_to_wound(battle, target, shots, profile)

    return final_chain(battle, unit, target, "final_shot", profile.name, wounds, strike)


def allocate_wounds(
    battle: Battle,
    shooter: Unit,
    victim: Unit,
    wounds: list[WoundRoll],
    profile: WeaponProfile,
    orders: FireOrders,
    result: VolleyResult,
    firers: list[Model],
    shadow: dict[str, int] | None = None,
    *,
    melee: bool = False,
    only: Model | None = None,
) -> None:
    """Seed 000, step 6: each wound goes to the closest model, which saves or suffers.

    "Any Wounds caused … must now be allocated, one at a time, to the closest
    model in the target unit. … If a model is reduced to 0 Wounds, it is removed
    as a casualty. Wounds are then allocated to the next closest model."
    Only models the firers can see may be chosen (6th/7th-edition "out of
    sight"), except for Blast and Template hits, which struck the models under
    them. Under Suppressive Fire nothing is removed: wounds are counted against
    a shadow copy of the unit's wounds (``shadow``, shared by the weapons of one
    shooting attack, so wounds that would have been lost add up).

    In close combat (``melee``) every model may be chosen, the closest to the
    attacking models first, and no cover save is taken (6th/7th edition);
    ``only`` sends every wound to that one model (a Sweeping Advance's randomly
    distributed hit), the wounds being lost once it is dead.
    """
    if shadow is None or not orders.suppressive:
        shadow = {}
    for victim_model in victim.models:
        shadow.setdefault(victim_model.id, victim_model.wounds_left)
    scatter = profile.template or profile.blast is not None
    for wound in wounds:
        alive = [m for m in victim.models if shadow[m.id] > 0]
        if only is not None:
            pool = [m for m in alive if m is only]
        elif scatter or melee:
            pool = alive
        else:
            pool = [m for m in alive if any(model_sees(battle, f, m) for f in firers)]
        if not pool:
            battle.say("allocation", f"remaining wounds on {victim.label} are lost: none in sight")
            return
        model = min(pool, key=lambda m: min(base_distance(f, m) for f in firers))
        if _saved(battle, victim, model, wound, profile, cover=not melee):
            continue
        lost = _wounds_lost(battle, victim, model, wound, profile, shadow[model.id])
        if not lost:
            continue
        result.unsaved[victim.id] += 1
        if profile.has_rule("Pinning"):
            result.pinning.add(victim.id)
        shadow[model.id] -= lost
        if orders.suppressive:
            battle.say("suppressive", f"  {model.id} would lose {lost} wound(s) (Suppressive Fire)")
            if shadow[model.id] <= 0:
                result.casualties[victim.id] += 1
            continue
        model.wounds_left = shadow[model.id]
        battle.emit(
            WoundsLost(
                unit=victim.label,
                model=model.id,
                lost=lost,
                left=max(0, model.wounds_left),
                instant_death=lost > 1 and model.wounds_left <= 0,
            )
        )
        if model.wounds_left <= 0:
            battle.remove_model(victim, model, f"{profile.name} from {shooter.label}")
            result.casualties[victim.id] += 1


def _saved(
    battle: Battle,
    victim: Unit,
    model: Model,
    wound: WoundRoll,
    profile: WeaponProfile,
    cover: bool = True,
) -> bool:
    """Seed 000, Models with more than One Save: each type of save once.

    A model "can use each type of save (armor, invulnerable and cover) once
    to avoid harm … if a model has multiple saves of the same type then it
    uses the best among them." Without ``cover`` (close combat, 6th/7th
    edition) no cover save is taken.
    """
    stats = stats_of(model.profile)
    saves: list[tuple[str, int]] = []
    if stats.sv is not None and (wound.ap is None or wound.ap > stats.sv):
        saves.append(("armour", stats.sv))
    if stats.invulnerable is not None:
        saves.append(("invulnerable", stats.invulnerable))
    if cover and not profile.has_rule("Ignores Cover"):
        value = cover_save(battle, wound.source, model, victim.status.gone_to_ground)
        if value is not None:
            saves.append(("cover", value))
    for name, needed in saves:
        roll = battle.dice.d6(f"{name} save {needed}+ ({model.id})")
        saved = roll >= needed
        battle.emit(
            SaveTaken(
                unit=victim.label,
                model=model.id,
                save=name,
                needed=needed,
                roll=roll,
                saved=saved,
            )
        )
        if saved:
            return True
    return False


def _wounds_lost(
    battle: Battle,
    victim: Unit,
    model: Model,
    wound: WoundRoll,
    profile: WeaponProfile,
    wounds_left: int,
) -> int:
    """Wounds an unsaved wound takes: all of them on Instant Death, else one.

    Instant Death (6th/7th edition): Strength at least double the model's
    Toughness, or an Instant Death weapon; Eternal Warrior is immune. Feel No
    Pain may ignore the wound unless it inflicts Instant Death.
    """
    toughness = stats_of(model.profile).t
    instant = (wound.strength >= 2 * toughness or profile.has_rule("Instant Death")) and not (
        model_has(victim, model, "Eternal Warrior")
    )
    if instant and wounds_left > 1:
        return wounds_left
    fnp = feel_no_pain(victim, model)
    if fnp is not None and not instant:
        roll = battle.dice.d6(f"Feel No Pain {fnp}+ ({model.id})")
        ignored = roll >= fnp
        battle.emit(
            SaveTaken(
                unit=victim.label,
                model=model.id,
                save="Feel No Pain",
                needed=fnp,
                roll=roll,
                saved=ignored,
            )
        )
        if ignored:
            return 0
    return 1
