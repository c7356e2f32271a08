"""Resolving attacks on a battle: the dice of Making Attacks (04), one weapon at a time.

What each die result means is decided by :class:`~hammerlab.editions.core11.rolls.AttackProfile`
(shared with the exact odds); this module rolls the battle's dice, asks the
players where they choose (which model an attack is allocated to, which model
a failed Hazardous test takes) and records every step.

Models whose attacks are identical (same situation: range, cover...) roll
together ("fast dice"); each wound is then saved and allocated one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from hammerlab.editions.core11.events import (
    AttacksLost,
    AttacksResolved,
    BatteryUnresolved,
    DevastatingWounds,
    HitRollNeeds,
    MortalWoundsSuffered,
    NoSavePossible,
    SaveRolled,
    Unresolved,
    WoundsIgnored,
)
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.odds import kill_odds
from hammerlab.editions.core11.positions import Sightlines, sightlines, spotted
from hammerlab.editions.core11.profiles import (
    best_feel_no_pain,
    defence_of,
    feel_no_pain,
    is_monster_or_vehicle,
    model_keywords,
    unit_defence,
    unit_keywords,
)
from hammerlab.editions.core11.rolls import (
    UNREACHABLE,
    AttackProfile,
    HitTerms,
    Roll,
    Situation,
    armour_ap,
    attack_profile,
    hit_terms,
    invulnerable_against,
    save_need,
    save_succeeds,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.weapons import WeaponProfile
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import WoundsLost
from hammerlab.engine.units import Model, Unit

HAZARD_FAILS_UP_TO = 2
"""06.03: "To make a hazard roll for a unit, roll one D6: on a 1-2, that roll fails"."""
HAZARD_MORTAL_WOUNDS = 1
HAZARD_MORTAL_WOUNDS_MONSTER_VEHICLE = 3
"""06.03: "1 mortal wound (06.02) Or 3 mortal wounds instead if each model in that unit
is a MONSTER/VEHICLE model." """
LETHAL = "lethal-hits"
"""The decision of [LETHAL HITS] when rolling the wound could be worth more."""


@dataclass
class Battery:
    """The models of a unit firing one weapon profile, and their target."""

    weapon: Weapon
    profile: WeaponProfile
    models: list[Model]
    target: str | None = None
    target_models: int = 0
    """Models in the target unit when it was selected ([BLAST] counts them then)."""
    fired: list[Model] = field(default_factory=list)
    """Models that made attacks with it."""


@dataclass
class _Tally:
    attacks: int = 0
    hits: int = 0
    critical_hits: int = 0
    wounds: int = 0
    critical_wounds: int = 0
    unsaved: int = 0
    damage: int = 0
    destroyed: int = 0
    devastating: int = 0
    """[DEVASTATING WOUNDS] critical wounds: their attack sequences ended unsaved, and
    their mortal wounds come after the weapon's normal damage (:func:`_devastating_wounds`)."""


def situations_for(
    game: Core11Game,
    unit: Unit,
    models: list[Model],
    profile: WeaponProfile,
    target: Unit,
    control: FireControl,
    target_models: int,
) -> list[Situation]:
    """What the table says about each of ``models``' attacks at ``target``
    (``target_models``: its models when it was selected as the target).

    [HEAVY] needs the unit to be unengaged, not set up this turn and moved no more
    than 3"; the engine records whether a unit moved, not how far, so any move
    (and reactive shooting, outside "your Shooting phase") loses it.

    What concerns the two units (engagement, keywords, whether the target is
    spotted) is the same for every model and asked once; range and cover are
    each model's own. Whether the target is spotted changes an [INDIRECT FIRE]
    attack alone (10.07), and is asked for those only (``False`` for the others)."""
    return situations_along(
        game, unit, sightlines(game.battle, unit, target), models, profile, control, target_models
    )


def situations_along(
    game: Core11Game,
    unit: Unit,
    lines: Sightlines,
    models: list[Model],
    profile: WeaponProfile,
    control: FireControl,
    target_models: int,
) -> list[Situation]:
    """:func:`situations_for`, read off the unit's ``lines`` to the target."""
    battle = game.battle
    status = unit.status
    engaged = lines.engaged
    ranged = not control.melee
    stationary = not (status.moved or status.advanced)
    heavy_steady = control.own_phase and stationary and not lines.unit_engaged
    cover_improves_save = battle.settings.text("cover_effect") == "improve_save"
    indirect = control.indirect_attack(profile)
    seen_by_friends = indirect and spotted(battle, unit.player, lines.target)
    engaged_target_penalty = ranged and control.engaged_target_penalty(
        profile, engaged, lines.target_engaged, lines.target_big
    )
    closest, big, half = lines.closest, lines.big, profile.range / 2
    cover = lines.cover if ranged else None
    penalties = [control.hit_penalty(b, profile, engaged) for b in (False, True)]
    return [
        _situation(
            ranged and closest[id(model)] <= half,
            cover is not None and cover[id(model)],
            cover_improves_save,
            stationary,
            heavy_steady,
            game.charged_this_turn(unit),
            indirect,
            seen_by_friends,
            penalties[big[id(model)]],
            engaged_target_penalty,
            target_models,
            control.overwatch,
        )
        for model in models
    ]


def expected_wounds_lost(
    game: Core11Game,
    unit: Unit,
    lines: Sightlines,
    profile: WeaponProfile,
    firing: list[Model],
    control: FireControl,
) -> float:
    """Expected wounds the target of ``lines`` loses to ``firing`` models attacking with
    ``profile`` under ``control``: the models in one situation (:func:`situations_along`)
    attack together, by the exact odds (:func:`odds.kill_odds`), excess damage lost.
    What the AI weighs an attack by (``shooting_worth``), and what a person choosing a
    target is told (``volley``)."""
    if not firing:
        return 0.0
    models = lines.target_models
    together: dict[Situation, int] = {}
    for situation in situations_along(game, unit, lines, firing, profile, control, models):
        together[situation] = together.get(situation, 0) + 1
    defence = lines.defence
    fnp = game.feel_no_pain.get(lines.target.id)
    return sum(
        kill_odds(profile, count, defence, models, situation, fnp).mean_wounds_lost
        for situation, count in together.items()
    )


@lru_cache(maxsize=4096)
def _situation(
    half_range: bool,
    cover: bool,
    cover_improves_save: bool,
    stationary: bool,
    heavy_steady: bool,
    charged: bool,
    indirect: bool,
    spotted: bool,
    close_quarters_penalty: bool,
    engaged_target_penalty: bool,
    target_models: int,
    overwatch: bool,
) -> Situation:
    """The :class:`Situation` of these facts: one object for the same facts (models in
    the same situation share it, volley after volley), made and hashed once."""
    return Situation(
        half_range=half_range,
        cover=cover,
        cover_improves_save=cover_improves_save,
        stationary=stationary,
        heavy_steady=heavy_steady,
        charged=charged,
        indirect=indirect,
        spotted=spotted,
        close_quarters_penalty=close_quarters_penalty,
        engaged_target_penalty=engaged_target_penalty,
        target_models=target_models,
        overwatch=overwatch,
    )


def unresolved(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    target: Unit | None,
    reason: Unresolved,
    melee: bool,
) -> None:
    """Log that ``unit``'s ``battery`` resolves no attacks at ``target``, for ``reason``
    (:class:`events.BatteryUnresolved`): what :func:`resolve_battery`, ``volley.fire`` and
    ``melee`` say when a weapon rolls no dice."""
    label = None if target is None else target.label
    game.battle.emit(BatteryUnresolved(unit.label, battery.weapon.name, label, reason, melee))


def resolve_battery(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    firing: list[Model],
    control: FireControl,
) -> None:
    """Resolve the attacks of ``firing`` models of ``battery`` at its target."""
    assert battery.target is not None
    target = game.battle.unit(battery.target)
    if not firing:  # a melee attack needs engagement range alone (``melee.may_fight``)
        why: Unresolved = "none_engaged" if control.melee else "none_in_range"
        unresolved(game, unit, battery, target, why, control.melee)
        return
    defence = unit_defence(target)
    groups: dict[AttackProfile, list[Model]] = {}
    terms: dict[AttackProfile, HitTerms] = {}  # the hit roll of each group, its rules named
    situations = situations_for(
        game, unit, firing, battery.profile, target, control, battery.target_models
    )
    joins: dict[int, list[Model]] = {}  # models in one situation share it (:func:`situations_for`)
    for model, situation in zip(firing, situations, strict=True):
        if id(situation) not in joins:
            attack = attack_profile(battery.profile, defence, situation)
            joins[id(situation)] = groups.setdefault(attack, [])
            terms.setdefault(attack, hit_terms(battery.profile, defence, situation))
        joins[id(situation)].append(model)
    devastating: list[tuple[AttackProfile, int]] = []
    for attack, models in groups.items():
        if target.destroyed:  # as a later weapon finds it (volley.fire): no dice rolled
            unresolved(game, unit, battery, target, "target_gone", control.melee)
            break
        tally = _attack(game, unit, battery, target, attack, models, terms[attack])
        if tally.devastating:
            devastating.append((attack, tally.devastating))
    if devastating:  # "after resolving any normal damage inflicted by those attacks"
        _devastating_wounds(game, unit, battery, target, devastating)
    battery.fired = firing
    if battery.profile.has("ONE SHOT"):
        game.one_shot_spent.update((m.id, battery.profile.group) for m in firing)


def _attack(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    target: Unit,
    attack: AttackProfile,
    models: list[Model],
    terms: HitTerms,
) -> _Tally:
    """Hit, wound, save and damage rolls for ``models`` firing one way at ``target``;
    before a hit roll that is not a plain roll against the skill, what it needs and why
    (``terms``: :func:`rolls.hit_terms`, whose numbers ``attack`` rolls against). The
    mortal wounds of [DEVASTATING WOUNDS] critical wounds are counted, not yet
    inflicted (:func:`_devastating_wounds`)."""
    dice = game.battle.dice
    name = battery.weapon.name
    tally = _Tally()
    count = len(models)
    tally.attacks = (
        attack.attacks.roll_many(dice, count, f"attacks ({name})")
        + attack.extra_attacks.roll_many(dice, count, f"rapid fire attacks ({name})")
        + attack.blast.roll_many(dice, attack.blast_blocks * count, f"blast attacks ({name})")
    )
    if attack.auto_hit:
        tally.hits = tally.attacks
    else:
        if terms.reasons:
            game.battle.emit(
                HitRollNeeds(
                    unit.label,
                    name,
                    target.label,
                    "WS" if battery.profile.melee else "BS",
                    terms.skill,
                    attack.hit_need,
                    attack.hit_modifier,
                    attack.hit_fails_up_to,
                    terms.reasons,
                )
            )
        need = f"{attack.hit_need}+, modifier {attack.hit_modifier:+d}"
        if attack.hit_fails_up_to > 1:  # 10.07: an unmodified 1-5 (or 1-3) fails
            need += f", unmodified 1-{attack.hit_fails_up_to} fail"
        reads = [attack.hit(r) for r in dice.roll(tally.attacks, f"hit rolls ({name}, {need})")]
        tally.critical_hits = reads.count(Roll.CRITICAL)
        tally.hits = tally.critical_hits + reads.count(Roll.SUCCESS)
    extra_hits = 0
    if attack.sustained is not None:
        extra_hits = attack.sustained.roll_many(dice, tally.critical_hits, "sustained hits")
    tally.hits += extra_hits
    automatic = tally.critical_hits if _wounds_automatically(game, unit, battery, attack) else 0
    to_roll = tally.hits - automatic
    need = f"{attack.wound_need}+, modifier {attack.wound_modifier:+d}"
    reads = [attack.wound(r) for r in dice.roll(to_roll, f"wound rolls ({name}, {need})")]
    again = [r for r in reads if attack.rerolls_wound(r)]
    if again:
        rolled = dice.roll(len(again), "wound re-rolls (twin-linked)")
        reads = [r for r in reads if not attack.rerolls_wound(r)] + [
            attack.wound(r) for r in rolled
        ]
    critical = [r == Roll.CRITICAL for r in reads if r != Roll.FAIL]
    tally.critical_wounds = sum(critical)
    wounds = [False] * automatic + critical
    tally.wounds = len(wounds)
    for at, is_critical in enumerate(wounds):
        if target.destroyed:
            lost = len(wounds) - at
            game.battle.emit(AttacksLost(unit.label, name, target.label, lost, False))
            break
        if is_critical and attack.devastating:  # its attack sequence ends: no save
            tally.unsaved += 1
            tally.devastating += 1
            continue
        _save_and_damage(game, unit, battery, target, attack, tally)
    game.battle.emit(
        AttacksResolved(
            unit.label,
            name,
            target.label,
            tally.attacks,
            tally.hits,
            tally.critical_hits,
            tally.wounds,
            tally.critical_wounds,
            tally.unsaved,
            tally.damage,
            tally.destroyed,
        )
    )
    return tally


def _wounds_automatically(
    game: Core11Game, unit: Unit, battery: Battery, attack: AttackProfile
) -> bool:
    """[LETHAL HITS]: "you can choose for that attack to automatically wound the
    target." Without [DEVASTATING WOUNDS] an automatic wound is never worth less
    than a wound roll, so it is taken; otherwise the attacking player is asked
    (once for the critical hits of one roll: they are alike)."""
    if not attack.lethal:
        return False
    if not attack.devastating:
        return True
    answer: bool = game.battle.decide(
        Decision(
            LETHAL,
            unit.player,
            f"{battery.weapon.name}: critical hits wound automatically, or roll to wound?",
            (Choice("wound automatically", True), Choice("roll to wound", False)),
            DecisionContext(unit=unit.id, weapon=battery.weapon.name, target=str(battery.target)),
        )
    )
    return answer


def _save_and_damage(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    target: Unit,
    attack: AttackProfile,
    tally: _Tally,
) -> None:
    """Allocate one wound, roll its save, then its damage."""
    dice = game.battle.dice
    model = allocate(game, unit, battery, target)
    stats = defence_of(model.profile)
    ap = armour_ap(battery.profile.ap, stats.save, attack.cover_improves_save)
    invulnerable = invulnerable_against(stats, battery.profile)
    need = save_need(stats.save, ap, invulnerable)
    if need >= UNREACHABLE:
        game.battle.emit(NoSavePossible(target.label, model.id, stats.save - ap))
    else:
        roll = dice.roll(1, f"save {model.id} ({need}+)")[0]
        saved = save_succeeds(roll, need)
        by_invulnerable = invulnerable is not None and invulnerable < stats.save - ap
        game.battle.emit(SaveRolled(target.label, model.id, need, roll, saved, by_invulnerable))
        if saved:
            return
    tally.unsaved += 1
    damage = attack.roll_damage(dice, f"damage ({battery.weapon.name})")
    done, destroyed = inflict(game, target, model, damage, battery.weapon.name)
    tally.damage += done
    tally.destroyed += destroyed


def _devastating_wounds(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    target: Unit,
    criticals: list[tuple[AttackProfile, int]],
) -> None:
    """[DEVASTATING WOUNDS] (11th-edition keyword text, game-datacards/datasources
    ``11th/gdc/keywords.json``): "Each time an attack made with a [DEVASTATING WOUNDS]
    weapon results in a critical wound, the attack sequence for that attack ends and
    the target unit suffers a number of mortal wounds equal to the D characteristic of
    that weapon. These are inflicted after resolving any normal damage inflicted by
    those attacks. Mortal wounds inflicted by [DEVASTATING WOUNDS] weapons can damage a
    maximum of one model for each critical wound; any remaining mortal wounds inflicted
    by that attack are lost."

    Called once the weapon's attacks at ``target`` (``battery``, all situations) have
    done their normal damage, with the critical wounds each way of attacking scored.
    For each: D is rolled (with [MELTA X] within half range: "that weapon has a D
    characteristic of D6+2"), the model is selected as for a mortal wound (06.02:
    :func:`mortal_wound_model`) and suffers them, each may be ignored by Feel No Pain,
    and those beyond that model are lost."""
    dice = game.battle.dice
    name = battery.weapon.name
    each = [attack for attack, count in criticals for _ in range(count)]
    mortal = damage = destroyed = 0
    for at, attack in enumerate(each):
        if target.destroyed:
            lost = len(each) - at
            game.battle.emit(AttacksLost(unit.label, name, target.label, lost, True))
            break
        wounds = attack.roll_damage(dice, f"mortal wounds ({name}, devastating wounds)")
        model = mortal_wound_model(game, target)
        game.battle.emit(MortalWoundsSuffered(target.label, model.id, wounds, name))
        done, slain = inflict(game, target, model, wounds, name)
        mortal, damage, destroyed = mortal + wounds, damage + done, destroyed + slain
    game.battle.emit(
        DevastatingWounds(unit.label, name, target.label, len(each), mortal, damage, destroyed)
    )


def allocate(game: Core11Game, unit: Unit, battery: Battery, target: Unit) -> Model:
    """The model of ``target`` an attack is allocated to.

    05.03: "One group for each CHARACTER model. One group for all other models
    with the same W, Sv and InSv characteristics." and the allocation order: "If
    a non-CHARACTER group contains a model that has lost one or more wounds, that
    group must be first in the allocation order. No CHARACTER group can be earlier
    in the allocation order than a non-CHARACTER group. CHARACTER groups
    containing a model that has lost one or more wounds must be earlier in the
    allocation order than CHARACTER groups containing no wounded models."; 05.04
    "this must be a model that has lost one or more wounds if possible".

    [PRECISION]: "the active player can select one allocation group that contains
    one of those visible CHARACTER models": the attacking player picks a
    CHARACTER first (a wounded one is taken without asking).
    """
    characters: list[Model] = []
    others: list[Model] = []
    for model in target.alive_models:
        is_character = "CHARACTER" in model_keywords(target, model)
        (characters if is_character else others).append(model)
    profile = battery.profile  # the target's keywords read only for a [PRECISION] weapon
    precise = (
        profile.has("PRECISION") and profile.against("PRECISION", unit_keywords(target)) is not None
    )
    if precise and characters and others:
        hurt = _wounded(characters)
        if hurt:
            return hurt[0]
        prompt = f"{battery.weapon.name}: allocate to a CHARACTER of {target.label}?"
        return _pick(game, "precision", unit.player, target, characters, prompt)
    group = others or characters
    hurt = _wounded(group)
    if hurt:
        return hurt[0]
    prompt = f"allocate an attack to {target.label}"
    return _pick(game, "allocate", target.player, target, group, prompt)


def _wounded(models: list[Model]) -> list[Model]:
    return [m for m in models if m.wounds_left < defence_of(m.profile).wounds]


def _pick(
    game: Core11Game, kind: str, player: str, unit: Unit, models: list[Model], prompt: str
) -> Model:
    """Ask ``player`` to pick one kind of model among ``models`` of ``unit``."""
    kinds: dict[str, Model] = {}
    for model in models:
        kinds.setdefault(model.name, model)
    choice: Model = game.choose(
        Decision(
            kind,
            player,
            prompt,
            tuple(Choice(f"{m.id} ({m.name})", m) for m in kinds.values()),
            DecisionContext(unit=unit.id),
        )
    )
    return choice


def inflict(game: Core11Game, unit: Unit, model: Model, damage: int, cause: str) -> tuple[int, int]:
    """Apply ``damage`` to ``model`` after Feel No Pain; excess is lost.

    Returns the wounds it lost and whether it was destroyed (0 or 1).
    """
    dice = game.battle.dice
    fnp = best_feel_no_pain(game.feel_no_pain.get(unit.id), feel_no_pain(model.rules))
    if fnp is not None and damage > 0:
        ignored = sum(r >= fnp for r in dice.roll(damage, f"feel no pain {fnp}+ ({model.id})"))
        game.battle.emit(WoundsIgnored(unit.label, model.id, fnp, damage, ignored))
        damage -= ignored
    lost = min(damage, model.wounds_left)
    if lost == 0:
        return 0, 0
    model.wounds_left -= lost
    game.battle.emit(WoundsLost(unit.label, model.id, lost, model.wounds_left))
    if model.wounds_left > 0:
        return lost, 0
    game.battle.remove_model(unit, model, cause)
    return lost, 1


def take_hazardous_tests(game: Core11Game, unit: Unit, batteries: list[Battery]) -> None:
    """[HAZARDOUS]: "Each time a unit is selected to shoot or selected to fight, after
    that unit has resolved all of its attacks, make a number of hazard rolls
    (06.03) for that unit equal to the number of [HAZARDOUS] weapons you selected
    in the Select Weapons step."; 06.03: "roll one D6: on a 1-2, that roll fails
    and that unit suffers: 1 mortal wound (06.02) Or 3 mortal wounds instead if
    each model in that unit is a MONSTER/VEHICLE model. If more than one hazard
    roll is required for a unit, make all of those rolls simultaneously."

    A weapon counts when its model made attacks with it (a weapon left without a
    target is read as not selected).
    """
    weapons = sum(len(b.fired) for b in batteries if b.profile.has("HAZARDOUS"))
    if not weapons or unit.destroyed:
        return
    rolls = game.battle.dice.roll(weapons, f"hazard rolls ({unit.label})")
    failed = sum(r <= HAZARD_FAILS_UP_TO for r in rolls)
    big = all(is_monster_or_vehicle(m, unit) for m in unit.alive_models)
    each = HAZARD_MORTAL_WOUNDS_MONSTER_VEHICLE if big else HAZARD_MORTAL_WOUNDS
    mortal_wounds(game, unit, failed * each, "hazardous")


def mortal_wounds(game: Core11Game, unit: Unit, count: int, cause: str) -> None:
    """06.02: for each mortal wound, "Select one model in that unit by following the
    first instruction below that applies: If a non-CHARACTER model in that unit has
    lost one or more wounds, you must select that model. Otherwise, if that unit
    contains one or more non-CHARACTER models, you must select one of those models.
    Otherwise, if one or more CHARACTER models in that unit have lost one or more
    wounds, you must select one of those models. Otherwise, you must select one
    CHARACTER model in that unit." then "The selected model loses 1 wound."
    (each wound may be ignored by Feel No Pain)."""
    for _ in range(count):
        if unit.destroyed:
            return
        model = mortal_wound_model(game, unit)
        game.battle.emit(MortalWoundsSuffered(unit.label, model.id, 1, cause))
        inflict(game, unit, model, 1, cause)


def mortal_wound_model(game: Core11Game, unit: Unit) -> Model:
    """The model of ``unit`` a mortal wound goes to (06.02, quoted in
    :func:`mortal_wounds`): a wounded non-CHARACTER model, else one its player picks
    among the non-CHARACTER models, else a wounded CHARACTER, else one it picks."""
    alive = unit.alive_models
    characters = [m for m in alive if "CHARACTER" in model_keywords(unit, m)]
    group = [m for m in alive if m not in characters] or characters
    hurt = _wounded(group)
    if hurt:
        return hurt[0]
    prompt = f"{unit.label}: which model suffers a mortal wound?"
    return _pick(game, "mortal-wound", unit.player, unit, group, prompt)
