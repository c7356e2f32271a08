"""The Waffle Edition fight sub-phase (seeds 001/002, "Fighting Sub-phase").

Every combat on the table is fought one at a time: weapons are chosen, then
Initiative steps 10 to 1 (Pile In, then every model of that Initiative strikes
at once), then the assault result (``assault_results.py``). To Wound, saves
and wound allocation are the shooting ones (``attacks.py``) in their close
combat form: every model may be allocated wounds, closest first, and no cover
save is taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.assault_results import FightRecord, pile_in, resolve_assault
from hammerlab.editions.waffle.challenges import (
    barred,
    end_challenges,
    forget_refusals,
    in_challenge,
    open_challenges,
    opponent,
)
from hammerlab.editions.waffle.charge import charge_bonus_attacks
from hammerlab.editions.waffle.combat import (
    ENGAGED_SUPPORT,
    Combat,
    combats,
    engaged_models,
    in_contact,
    refresh_locks,
)
from hammerlab.editions.waffle.difficult_charge import (
    strikes_at_initiative_one,
    tell_slowed_charge,
)
from hammerlab.editions.waffle.events import (
    BlowsLost,
    BlowsStruck,
    CombatBegun,
    InitiativeStep,
)
from hammerlab.editions.waffle.fear import fear_tests, majority_weapon_skill, weapon_skill
from hammerlab.editions.waffle.fear import forget as forget_fear
from hammerlab.editions.waffle.hammer_of_wrath import STEP as HAMMER_STEP
from hammerlab.editions.waffle.hammer_of_wrath import Hammer, hammers, strike_hammers
from hammerlab.editions.waffle.hatred import BlowReroll, blow_reroll, first_round
from hammerlab.editions.waffle.icy_aura import STEP as ICY_STEP
from hammerlab.editions.waffle.icy_aura import strike_icy_auras
from hammerlab.editions.waffle.melee_grenades import grenade_options, is_melee_grenade, may_attack
from hammerlab.editions.waffle.one_use import spend_struck_one_use
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult, WoundRoll
from hammerlab.editions.waffle.points import (
    ATTACK_WATCHERS,
    MELEE_WOUNDS_CAUSED,
    MELEE_WOUNDS_UNSAVED,
    WoundsCaused,
)
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.rerolls import wound_rerolls
from hammerlab.editions.waffle.special_rules import (
    close_combat_strength,
    close_combat_weapon,
    counter_attack_bonus,
    single_attack,
    smash_options,
)
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tables import melee_cell
from hammerlab.editions.waffle.vehicle_damage import resolve_blows_on_vehicle
from hammerlab.editions.waffle.vehicles import fights_in_melee, is_vehicle, melee_cell_against
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

AUTOMATIC = "A"
"""The chart's automatic hit: no dice are rolled."""
CLOSE_COMBAT_WEAPON = weapon_of(
    Weapon("Close combat weapon", {"Range": "-", "S": "User", "AP": "-", "Type": "Melee"})
)
"""6th/7th edition: what a model without a melee weapon fights with (a pistol
in close combat counts as one)."""
MELEE_ORDERS = FireOrders(purpose="close combat")


def fight_sub_phase(battle: Battle, player: str) -> None:
    """Seeds 001/002: fight every combat on the table, one at a time.

    Each combat (:func:`combat.combats`) is fought (:func:`fight`), then its
    assault result is determined and its units Fall Back, Pile In or
    Consolidate (:func:`assault_results.resolve_assault`); before blows are
    struck, its units take their Fear tests (:func:`fear.fear_tests`). ``player`` is the
    player whose turn it is: their units move first where order matters. The
    refusals of challenges last to the end of the phase (:func:`challenges.forget_refusals`).
    """
    forget_fear(battle)
    for combat in combats(battle):
        if len({u.player for u in combat.units if not u.destroyed}) < 2:
            continue
        battle.emit(CombatBegun(tuple(u.label for u in combat.units)))
        fear_tests(battle, combat)
        resolve_assault(battle, combat, fight(battle, combat, player), player)
    forget_fear(battle)
    forget_refusals(battle)
    refresh_locks(battle)


def fight(battle: Battle, combat: Combat, player: str) -> FightRecord:
    """Initiative steps 10 to 1 of one combat.

    6th/7th edition, as the seeds use it: at the start of each step, models
    of that Initiative that are not engaged Pile In (:func:`pile_in`, the
    player whose turn it is first); then every engaged model of that
    Initiative strikes, all at once: casualties of the step still strike in
    it, and models killed in an earlier step never do. Challenges
    (:mod:`challenges`) are issued once weapons are chosen, and end with the
    fight if one of their models was slain. Once all blows are struck, a model
    that struck with a One Use Only weapon has spent it
    (:func:`one_use.spend_struck_one_use`).
    """
    units = sorted(combat.units, key=lambda u: u.player != player)
    record = FightRecord()
    for unit in units:
        choose_weapons(battle, unit, record, _foes(unit, units))
    open_challenges(battle, units, player)
    for unit in units:
        tell_slowed_charge(battle, unit)
    record.note_contacts(units)
    owed = hammers(battle, units)
    struck: dict[str, tuple[Unit, list[Model]]] = {}
    for step in range(10, 0, -1):
        heading = StepHeading(battle, step)  # said before the step's first Pile In move
        for unit in units:
            engaged = engaged_models(battle, unit)
            waiting = [
                m
                for m in unit.alive_models
                if m not in engaged
                and fights_in_melee(m)  # a vehicle without WS makes no Pile In
                and initiative(m, record.weapons[m.id], strikes_at_initiative_one(battle, unit, m))
                == step
            ]
            if waiting:
                pile_in(battle, unit, waiting, _foes(unit, units), heading)
        record.note_contacts(units)
        hammer = owed if step == HAMMER_STEP else []
        for plan in _initiative_step(battle, units, step, record, hammer, heading):
            struck.setdefault(plan.unit.id, (plan.unit, []))[1].extend(plan.models)
    end_challenges(battle, units)
    spend_struck_one_use(battle, struck, record.weapons)
    return record


def _foes(unit: Unit, units: Sequence[Unit]) -> list[Unit]:
    return [u for u in units if u.player != unit.player and not u.destroyed]


def melee_options(
    model: Model, unit: Unit | None = None, foes: Sequence[Unit] = ()
) -> list[WeaponProfile]:
    """The weapons ``model`` may fight with: each melee weapon it carries, and a
    close combat weapon if it has a pistol or no melee weapon (6th/7th edition);
    with Smash (its own or ``unit``'s), the Smash Attack
    (:func:`special_rules.smash_options`); against ``foes`` with a vehicle (or a
    Monstrous Creature), its krak grenades or melta bombs
    (:func:`melee_grenades.grenade_options`), which are never ordinary weapons."""
    return [
        *_carried_options(model.weapons),
        *smash_options(unit, model),
        *grenade_options(model, foes),
    ]


@lru_cache(maxsize=1024)
def _carried_options(weapons: tuple[Weapon, ...]) -> tuple[WeaponProfile, ...]:
    """The melee weapons among ``weapons``, and a close combat weapon with a pistol
    or none (:func:`melee_options`); cached: a function of the immutable wargear,
    asked for every model on every estimate of a fight."""
    profiles = [weapon_of(w) for w in weapons if not is_melee_grenade(w)]
    options = {p.name: p for p in profiles if p.base_type == "Melee"}
    if not options or any(p.base_type == "Pistol" for p in profiles):
        options.setdefault(CLOSE_COMBAT_WEAPON.name, CLOSE_COMBAT_WEAPON)
    return tuple(options.values())


def choose_weapons(
    battle: Battle, unit: Unit, record: FightRecord, foes: Sequence[Unit] = ()
) -> None:
    """The weapon each model fights with in this combat (6th/7th edition: chosen
    at the start of the fight) against the enemy units ``foes``. Models with the
    same profile and wargear are asked together, and only when they have more
    than one to choose from."""
    groups: dict[tuple[object, ...], list[Model]] = {}
    for model in unit.alive_models:
        groups.setdefault((model.profile, model.weapons, model.rules), []).append(model)
    for models in groups.values():
        options = melee_options(models[0], unit, foes)
        chosen = options[0]
        if len(options) > 1:
            ids = tuple(m.id for m in models)
            chosen = battle.decide(
                Decision(
                    kind="melee_weapon",
                    player=unit.player,
                    prompt=f"Which weapon {_do(ids)} of {unit.label} fight with?",
                    choices=tuple(Choice(o.name, o) for o in options),
                    context=DecisionContext(unit=unit.id, models=ids),
                )
            )
        for model in models:
            record.weapons[model.id] = chosen


def _do(ids: tuple[str, ...]) -> str:
    """``does a.1`` for one model, ``do a.1, a.2`` for several: the verb and subject
    of a question asked of the models ``ids`` ("Which weapon does a.1 ... fight with?")."""
    return f"{'does' if len(ids) == 1 else 'do'} {', '.join(ids)}"


def initiative(model: Model, weapon: WeaponProfile, at_one: bool = False) -> int:
    """The Initiative step the model strikes at: its Initiative, or 1 with an
    Unwieldy weapon (6th/7th edition) or when ``at_one``: Concussive, or a charge
    through difficult terrain without assault grenades
    (:func:`difficult_charge.strikes_at_initiative_one`)."""
    if weapon.has_rule("Unwieldy") or at_one:
        return 1
    return min(10, max(1, stats_of(model.profile).i))


def attacks_of(battle: Battle, unit: Unit, model: Model, weapon: WeaponProfile) -> int:
    """The model's Attacks: profile, charge bonus, Counter-attack and a second weapon.

    The charge bonus (+1, +2 with Rage, one fewer after a Fiery Charge) is
    :func:`charge.charge_bonus_attacks`; Counter-attack's +1 when charged is
    :func:`special_rules.counter_attack_bonus`; :func:`second_weapon_bonus` adds 1.
    A Smash Attack is one Attack, whatever these say (:func:`special_rules.single_attack`);
    a vehicle other than a Walker makes none (:func:`vehicles.fights_in_melee`).
    """
    if not fights_in_melee(model):
        return 0
    if single_attack(weapon):
        return 1
    bonus = charge_bonus_attacks(battle, unit)
    bonus += counter_attack_bonus(unit, model, st(battle, unit).charged_unlocked)
    return stats_of(model.profile).a + bonus + second_weapon_bonus(model, weapon)


def second_weapon_bonus(model: Model, weapon: WeaponProfile) -> int:
    """6th/7th edition: +1 Attack for fighting with two close combat weapons.

    Melee weapons and pistols count (a pistol is a close combat weapon in
    close combat). A Two-handed weapon never gets it; a Specialist Weapon only
    when the model has two or more Specialist Weapons.
    """
    held = [p for p in map(weapon_of, model.weapons) if p.base_type in ("Melee", "Pistol")]
    if len(held) < 2 or weapon.has_rule("Two-handed"):
        return 0
    if weapon.has_rule("Specialist Weapon"):
        return int(sum(p.has_rule("Specialist Weapon") for p in held) >= 2)
    return 1


def foes_within_reach(battle: Battle, unit: Unit, model: Model, foes: list[Unit]) -> list[Unit]:
    """Enemy units ``model`` may attack: those in base contact with it, or with a
    model of its unit within 2" of it (6th/7th edition, engaged models)."""
    near = [model, *(f for f in unit.alive_models if base_distance(model, f) <= ENGAGED_SUPPORT)]
    return [e for e in foes if any(in_contact(n, x) for n in near for x in e.alive_models)]


@dataclass(frozen=True)
class Blows:
    """Models of one unit striking one target with one weapon at one step."""

    unit: Unit
    models: tuple[Model, ...]
    weapon: WeaponProfile
    target: Unit
    target_ws: int
    """The target's majority Weapon Skill when the step began."""
    only: Model | None = None
    """The one model the blows may wound (a challenge's foe)."""
    spare: frozenset[str] = frozenset()
    """Models the blows may not wound (those fighting a challenge)."""


@dataclass
class StepHeading:
    """The heading "Initiative step N" (:class:`events.InitiativeStep`), said once,
    before the step's first Pile In move or blow (a step with neither has none)."""

    battle: Battle
    step: int
    said: bool = False

    def __call__(self) -> None:
        if not self.said:
            self.battle.emit(InitiativeStep(self.step))
            self.said = True


def _initiative_step(
    battle: Battle,
    units: list[Unit],
    step: int,
    record: FightRecord,
    owed: list[Hammer],
    heading: StepHeading,
) -> list[Blows]:
    """Everyone engaged with this Initiative picks a target, then all strike; the
    Hammer of Wrath hits ``owed`` (at Initiative 10) and the Icy Aura hits (at
    Initiative 1, :func:`icy_aura.strike_icy_auras`) first, but the models they
    slay still strike in this step (:func:`hammer_of_wrath.strike_hammers`). The
    step's ``heading`` comes first, unless its Pile In moves already said it.
    Returns the blows struck at a target still standing (blows at a target wiped
    out earlier in the step are lost: no weapon is used)."""
    plans: list[Blows] = []
    for unit in units:
        foes = _foes(unit, units)
        groups: dict[tuple[WeaponProfile, tuple[str, ...]], list[Model]] = {}
        for model in _strikers(battle, unit, units):
            weapon = record.weapons[model.id]
            at_one = strikes_at_initiative_one(battle, unit, model)
            if initiative(model, weapon, at_one) != step or barred(battle, model):
                continue
            if not fights_in_melee(model):  # a vehicle other than a Walker strikes no blow
                continue
            duel = opponent(battle, model, units)
            near = [duel[0]] if duel else foes_within_reach(battle, unit, model, foes)
            reach = tuple(f.id for f in near if may_attack(weapon, f))
            if reach:
                armed = close_combat_weapon(unit, model, weapon)
                groups.setdefault((armed, reach), []).append(model)
        for (weapon, reach), models in groups.items():
            target = _choose_target(battle, unit, models, weapon, [battle.unit(i) for i in reach])
            ws = majority_weapon_skill(battle, target)
            plans += _in_challenge(battle, Blows(unit, tuple(models), weapon, target, ws), units)
    if plans or owed:
        heading()
    strike_hammers(battle, owed, units)
    if step == ICY_STEP:
        strike_icy_auras(battle, units)
    attackers = {u.id: u.alive_models for u in units}
    struck: list[Blows] = []
    for plan in plans:
        if not plan.target.destroyed:
            struck.append(plan)
        strike(battle, plan, step, attackers[plan.unit.id])
    return struck


def _strikers(battle: Battle, unit: Unit, units: list[Unit]) -> list[Model]:
    """Models of ``unit`` that may strike: the engaged ones
    (:func:`combat.engaged_models`), and a model fighting a challenge, which
    strikes its foe "whether or not in base contact" (docs/rules/waffle.md,
    *Challenges*), as its foe strikes it."""
    engaged = engaged_models(battle, unit)
    duelling = [m for m in unit.alive_models if m not in engaged and opponent(battle, m, units)]
    return [*engaged, *duelling]


def _in_challenge(battle: Battle, plan: Blows, units: list[Unit]) -> list[Blows]:
    """7th-edition challenges (:mod:`challenges`): a model fighting one strikes
    only its foe (at the foe's own Weapon Skill); no other blow may wound them."""
    spare = in_challenge(battle)
    if not spare:
        return [plan]
    rest = tuple(m for m in plan.models if m.id not in spare)
    plans = [replace(plan, models=rest, spare=spare)] if rest else []
    for model in plan.models:
        foe = opponent(battle, model, units)
        if foe is not None:
            ws = weapon_skill(battle, *foe)
            plans.append(Blows(plan.unit, (model,), plan.weapon, foe[0], ws, only=foe[1]))
    return plans


def _choose_target(
    battle: Battle, unit: Unit, models: list[Model], weapon: WeaponProfile, options: list[Unit]
) -> Unit:
    """Which enemy unit a group of models attacks, when it may attack several."""
    if len(options) == 1:
        return options[0]
    ids = tuple(m.id for m in models)
    return battle.decide(
        Decision(
            kind="melee_target",
            player=unit.player,
            prompt=f"Which unit {_do(ids)} of {unit.label} attack with {weapon.name}?",
            choices=tuple(Choice(o.label, o) for o in options),
            context=DecisionContext(unit=unit.id, models=ids, weapon=weapon.name),
        )
    )


def strike(battle: Battle, plan: Blows, step: int, attackers: list[Model]) -> None:
    """Seed 001, Rolling to Hit, then To Wound, extra blows (Final Blow) and allocation.

    "roll a D6 for each Attack a model gets to make and compare the WS of the
    attacking model with the WS of the target unit" on the seed's chart
    (:func:`tables.melee_cell`; ``A`` hits without a roll); the target's WS
    is the one most of its models have (the highest on a tie, 6th/7th
    edition). Wounds are rolled with the Strength after the weapon and
    Furious Charge; each unsaved wound counts for the unit's combat result.
    Wounds go to the closest model of the target to the attacking unit (the
    models it had when the step began), one at a time. Blows at a target that
    other blows of the same step already wiped out are lost (no model is left
    to take them). Against a vehicle: :func:`vehicles.melee_cell_against` and
    :func:`vehicle_damage.resolve_blows_on_vehicle` (armour penetration).
    """
    unit, weapon, target = plan.unit, plan.weapon, plan.target
    if target.destroyed:
        battle.emit(BlowsLost(unit.label, weapon.name, target.label))
        return
    watched = [
        w.blows(battle, unit, plan.models, weapon, target)
        for w in battle.hooks.get(ATTACK_WATCHERS)
        if plan.only is None and not plan.spare
    ]
    _strike(battle, plan, step, attackers)
    for resolved in watched:
        resolved()


def _strike(battle: Battle, plan: Blows, step: int, attackers: list[Model]) -> None:
    """:func:`strike`'s dice and wounds, once its target is known to stand."""
    unit, weapon, target = plan.unit, plan.weapon, plan.target
    batches: dict[tuple[str, int, BlowReroll], list[Model]] = {}
    against = melee_cell_against(battle, target)
    first = first_round(battle, unit)
    for model in plan.models:
        cell = against or melee_cell(weapon_skill(battle, unit, model), plan.target_ws)
        strength = close_combat_strength(battle, unit, model, weapon, unit.status.charged)
        reroll = blow_reroll(battle, unit, model, target, first)
        batches.setdefault((cell, strength, reroll), []).append(model)
    hits: list[Hit] = []
    blows = 0
    for (cell, strength, reroll), models in batches.items():
        count = sum(attacks_of(battle, unit, m, weapon) for m in models)
        blows += count
        landed = roll_blows(battle, cell, count, weapon.name, reroll)
        hits += [Hit(target, strength, models[0])] * landed
    battle.emit(
        BlowsStruck(
            unit=unit.label,
            weapon=weapon.name,
            target=target.label,
            initiative=step,
            models=len(plan.models),
            attacks=blows,
            needed="/".join(dict.fromkeys(cell for cell, _, _ in batches)),
            hits=len(hits),
        )
    )
    if not hits:
        return
    if is_vehicle(target):
        strengths = [hit.strength for hit in hits]
        scored, _ = resolve_blows_on_vehicle(battle, unit, target, strengths, weapon, plan.models)
        st(battle, unit).combat_score += scored
        return
    wounds = roll_to_wound(battle, target, hits, weapon, **wound_rerolls(battle, unit, target))
    result = VolleyResult()
    caused = _caused(battle, plan, result, attackers)
    if wounds:
        for rule in battle.hooks.get(MELEE_WOUNDS_CAUSED):
            wounds += rule(battle, replace(caused, wounds=len(wounds)))
    caused.allocate(wounds)
    unsaved = result.unsaved[target.id]
    if unsaved:
        for after in battle.hooks.get(MELEE_WOUNDS_UNSAVED):
            after(battle, replace(caused, wounds=unsaved))
    st(battle, unit).combat_score += result.unsaved[target.id]


def roll_blows(battle: Battle, cell: str, count: int, purpose: str, reroll: BlowReroll) -> int:
    """Hits from ``count`` Attacks needing ``cell`` (``A``: all hit, no dice); the
    dice ``reroll`` names are re-rolled once (:func:`hatred.blow_reroll`: every
    miss with Hatred in the first round, 1s for Preferred Enemy)."""
    if cell == AUTOMATIC:
        return count
    needed = int(cell.rstrip("+"))
    rolls = battle.dice.roll(count, f"to hit ({purpose}, {cell})")
    again = sum(1 for r in rolls if r < reroll.limit(needed))
    if again:
        why = f"({reroll.rule}, {purpose}, {cell})"
        rolls += battle.dice.roll(again, f"re-roll {reroll.dice} to hit {why}")
    return sum(1 for r in rolls if r >= needed)


def _caused(
    battle: Battle, plan: Blows, result: VolleyResult, attackers: list[Model]
) -> WoundsCaused:
    """What rules that answer a model group's wounds get (Final Blow): how to strike
    more blows at the same Initiative step, and how to allocate their wounds. Each
    extra attack rolls to hit on the chart and to wound like the model's blows."""
    unit, weapon, target = plan.unit, plan.weapon, plan.target

    def blow(last: Model, count: int, rule: str) -> list[WoundRoll]:
        cell = melee_cell(weapon_skill(battle, unit, last), plan.target_ws)
        reroll = blow_reroll(battle, unit, last, target, first_round(battle, unit))
        landed = roll_blows(battle, cell, count, f"{weapon.name} {rule}", reroll)
        strength = close_combat_strength(battle, unit, last, weapon, unit.status.charged)
        hits = [Hit(target, strength, last)] * landed
        return roll_to_wound(battle, target, hits, weapon, **wound_rerolls(battle, unit, target))

    def allocate(wounds: list[WoundRoll]) -> int:
        before = result.unsaved[target.id]
        allocate_wounds(
            battle,
            unit,
            target,
            wounds,
            weapon,
            MELEE_ORDERS,
            result,
            attackers,
            melee=True,
            only=plan.only,
            spare=plan.spare,
            overkill=plan.only is not None,
        )
        return result.unsaved[target.id] - before

    return WoundsCaused(
        unit, plan.models, target, weapon, MELEE_ORDERS, 0, blow, allocate, melee=True
    )
