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

from hammerlab.editions.core11.events import AttacksResolved
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import distance_to, engaged_with, has_cover, spotted
from hammerlab.editions.core11.profiles import (
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
    Roll,
    Situation,
    attack_profile,
    save_need,
    save_succeeds,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.weapons import WeaponProfile
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.events import WoundsLost
from hammerlab.engine.units import Model, Unit

HAZARDOUS_MORTAL_WOUNDS = 3
"""A CHARACTER, MONSTER or VEHICLE failing a Hazardous test suffers 3 mortal wounds."""


@dataclass
class Battery:
    """The models of a unit firing one weapon profile, and their target."""

    weapon: Weapon
    profile: WeaponProfile
    models: list[Model]
    target: str | None = None
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


def situation_for(
    game: Core11Game,
    unit: Unit,
    model: Model,
    profile: WeaponProfile,
    target: Unit,
    control: FireControl,
) -> Situation:
    """What the table says about ``model``'s attacks at ``target``."""
    battle = game.battle
    status = unit.status
    return Situation(
        half_range=distance_to(model, target) <= profile.range / 2,
        cover=has_cover(battle, model, target),
        stationary=not (status.moved or status.advanced),
        charged=status.charged,
        indirect=control.indirect_attack(profile),
        spotted=spotted(battle, unit.player, target),
        close_quarters_penalty=control.hit_penalty(
            is_monster_or_vehicle(model, unit), profile, target in engaged_with(battle, unit)
        ),
        target_models=len(target.alive_models),
    )


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
    if not firing:
        game.battle.say("shooting", f"  {battery.weapon.name}: no model in range and sight")
        return
    defence = unit_defence(target)
    groups: dict[AttackProfile, list[Model]] = {}
    for model in firing:
        situation = situation_for(game, unit, model, battery.profile, target, control)
        groups.setdefault(attack_profile(battery.profile, defence, situation), []).append(model)
    for attack, models in groups.items():
        _attack(game, unit, battery, target, attack, models)
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
) -> None:
    """Hit, wound, save and damage rolls for ``models`` firing one way at ``target``."""
    dice = game.battle.dice
    name = battery.weapon.name
    tally = _Tally()
    count = len(models)
    tally.attacks = (
        attack.attacks.roll_many(dice, count, f"attacks ({name})")
        + attack.extra_attacks.roll_many(dice, count, f"rapid fire attacks ({name})")
        + attack.blast_attacks * count
    )
    if attack.auto_hit:
        tally.hits = tally.attacks
    else:
        need = f"{attack.hit_need}+, modifier {attack.hit_modifier:+d}"
        reads = [attack.hit(r) for r in dice.roll(tally.attacks, f"hit rolls ({name}, {need})")]
        tally.critical_hits = reads.count(Roll.CRITICAL)
        tally.hits = tally.critical_hits + reads.count(Roll.SUCCESS)
    extra_hits = 0
    if attack.sustained is not None:
        extra_hits = attack.sustained.roll_many(dice, tally.critical_hits, "sustained hits")
    tally.hits += extra_hits
    automatic = tally.critical_hits if attack.lethal else 0
    to_roll = tally.hits - automatic
    need = f"{attack.wound_need}+, modifier {attack.wound_modifier:+d}"
    reads = [attack.wound(r) for r in dice.roll(to_roll, f"wound rolls ({name}, {need})")]
    if attack.reroll_failed_wounds:
        failed = reads.count(Roll.FAIL)
        again = dice.roll(failed, "wound re-rolls (twin-linked)")
        reads = [r for r in reads if r != Roll.FAIL] + [attack.wound(r) for r in again]
    critical = [r == Roll.CRITICAL for r in reads if r != Roll.FAIL]
    tally.critical_wounds = sum(critical)
    wounds = [False] * automatic + critical
    tally.wounds = len(wounds)
    for is_critical in wounds:
        if target.destroyed:
            game.battle.say("shooting", f"  {target.label} is destroyed: remaining wounds lost")
            break
        _save_and_damage(game, unit, battery, target, attack, is_critical, tally)
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


def _save_and_damage(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    target: Unit,
    attack: AttackProfile,
    critical: bool,
    tally: _Tally,
) -> None:
    """Allocate one wound, roll its save, then its damage."""
    dice = game.battle.dice
    model = allocate(game, unit, battery, target)
    stats = defence_of(model.profile)
    need = save_need(stats.save, battery.profile.ap, stats.best_ranged_invulnerable)
    if critical and attack.devastating:
        game.battle.say("save", f"  {model.id}: no saving throw (devastating wounds)")
    elif need >= UNREACHABLE:
        game.battle.say("save", f"  {model.id}: no save possible")
    elif save_succeeds(dice.roll(1, f"save {model.id} ({need}+)")[0], need):
        return
    tally.unsaved += 1
    damage = attack.damage.roll(dice, f"damage ({battery.weapon.name})")
    damage += attack.melta.roll(dice, "melta")
    done, destroyed = inflict(game, target, model, damage, battery.weapon.name)
    tally.damage += done
    tally.destroyed += destroyed


def allocate(game: Core11Game, unit: Unit, battery: Battery, target: Unit) -> Model:
    """The model of ``target`` an attack is allocated to.

    A model that has already lost wounds takes it. Otherwise, with [PRECISION]
    against a unit mixing CHARACTER and other models, the attacking player
    chooses; else the defending player chooses among the kinds of model left
    (identical models make no choice: the first one is taken).
    """
    alive = target.alive_models
    wounded = [m for m in alive if m.wounds_left < defence_of(m.profile).wounds]
    if wounded:
        return wounded[0]
    characters = [m for m in alive if "CHARACTER" in model_keywords(target, m)]
    precise = battery.profile.against("PRECISION", unit_keywords(target)) is not None
    if precise and characters and len(characters) < len(alive):
        prompt = f"{battery.weapon.name}: allocate to a CHARACTER of {target.label}?"
        return _pick(game, "precision", unit.player, target, characters, prompt)
    prompt = f"allocate an attack to {target.label}"
    return _pick(game, "allocate", target.player, target, alive, prompt)


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
            {"unit": unit.id},
        )
    )
    return choice


def inflict(game: Core11Game, unit: Unit, model: Model, damage: int, cause: str) -> tuple[int, int]:
    """Apply ``damage`` to ``model`` after Feel No Pain; excess is lost.

    Returns the wounds it lost and whether it was destroyed (0 or 1).
    """
    dice = game.battle.dice
    fnp = feel_no_pain((*unit.rules, *model.rules))
    if fnp is not None and damage > 0:
        ignored = sum(r >= fnp for r in dice.roll(damage, f"feel no pain {fnp}+ ({model.id})"))
        damage -= ignored
    lost = min(damage, model.wounds_left)
    if lost == 0:
        game.battle.say("wound", f"  {model.id} loses no wounds")
        return 0, 0
    model.wounds_left -= lost
    game.battle.emit(WoundsLost(unit.label, model.id, lost, model.wounds_left, False))
    if model.wounds_left > 0:
        return lost, 0
    game.battle.remove_model(unit, model, cause)
    return lost, 1


def take_hazardous_tests(game: Core11Game, unit: Unit, batteries: list[Battery]) -> None:
    """[HAZARDOUS]: after the unit has shot, one test (a D6; a 1 fails) for each
    model that fired such a weapon. For each failed test the owning player
    selects a model that fired it: a CHARACTER, MONSTER or VEHICLE suffers 3
    mortal wounds, any other model is destroyed."""
    for battery in batteries:
        if not battery.profile.has("HAZARDOUS") or not battery.fired:
            continue
        purpose = f"hazardous tests ({battery.weapon.name})"
        rolls = game.battle.dice.roll(len(battery.fired), purpose)
        for _ in range(rolls.count(1)):
            left = [m for m in battery.fired if m.alive]
            if not left:
                break
            model = _pick(game, "hazardous", unit.player, unit, left, "which model fails the test?")
            if {"CHARACTER", "MONSTER", "VEHICLE"} & model_keywords(unit, model):
                inflict(game, unit, model, HAZARDOUS_MORTAL_WOUNDS, "hazardous")
            else:
                game.battle.remove_model(unit, model, "hazardous")
