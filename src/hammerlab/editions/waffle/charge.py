"""The Waffle Edition charge sub-phase (seed 004, "Charge Sub-phase").

"First, pick one of your units, and declare which enemy unit it wishes to
charge. Then, the target enemy unit gets to make a Reaction to Charge … Once
Reaction to Charge is resolved, roll the charge distance for the unit and, if
it is in range, move it into contact with the enemy unit – this is sometimes
called ‘launching an assault’."

The fight sub-phase reads two things this module leaves on the charging unit:
``status.charged`` (it charged this turn) and ``status.fiery_charged`` (it
made a Fiery Charge, so :func:`charge_bonus_attacks` drops one bonus Attack).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from hammerlab.editions.waffle.attacks import firing_models, ranged_weapons
from hammerlab.editions.waffle.combat import in_contact, refresh_locks, units_in_contact
from hammerlab.editions.waffle.events import ChargeDeclared, ChargeRolled, ReactionDeclared
from hammerlab.editions.waffle.movement import dangerous_terrain_tests, fall_back
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.placement import (
    EPSILON,
    PILE_IN,
    closest_approach,
    contact_spot,
)
from hammerlab.editions.waffle.shooting import is_vehicle, shooting_attack, snap_fire_weapons
from hammerlab.editions.waffle.special_rules import relentless
from hammerlab.editions.waffle.visibility import unit_can_see
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, units_in_turn
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.geometry import Vec, base_distance, centre_distance, closest
from hammerlab.engine.units import Model, Unit

MAX_CHARGE_RANGE = 12.0
"""Seed 004: "a charge can usually only be declared on a unit up to 12" away"."""
END_CHARGES = "end charges"
OVERWATCH, FALL_BACK, NO_REACTION = "Fire Overwatch", "Fall Back", "no reaction"
FIERY, NO_FIERY = "Fiery Charge", "no Fiery Charge"
NO_CHARGE_AFTER = frozenset({"Rapid Fire", "Salvo", "Ordnance", "Heavy"})
"""Seed 004: "The unit shot Rapid Fire weapons, Salvo weapons, Ordnance weapons
or Heavy weapons in the Shooting phase."""
OVERWATCH_ORDERS = FireOrders(snap=True, overwatch=True, purpose="overwatch")
FIERY_ORDERS = FireOrders(weapon_types=frozenset({"Assault", "Pistol"}), purpose="fiery charge")


def charge_sub_phase(battle: Battle, player: str) -> None:
    """Seed 004: the active player's charges, one unit at a time, until they stop.

    Each unit may declare one charge per sub-phase (a unit whose charge failed
    may not try again). Units barred from charging are named in the log once.
    """
    refresh_locks(battle)
    for barred in battle.units_of(player):
        reason = charge_ban(barred)
        if reason is not None:
            battle.say("charge", f"{barred.label} may not charge: {reason}")
    declared: set[str] = set()
    ready = units_in_turn(
        battle,
        player,
        "charger",
        "Pick a unit to declare a charge, or end the charges",
        lambda: [
            u
            for u in battle.units_of(player)
            if u.id not in declared and charge_ban(u) is None and charge_targets(battle, u)
        ],
        END_CHARGES,
    )
    for unit in ready:
        declared.add(unit.id)
        resolve_charge(battle, unit, declare_charge(battle, unit))


def charge_ban(unit: Unit) -> str | None:
    """Seed 004, Declare Charge: why the unit may not declare a charge, if it may not.

    "Some units are disallowed from charging": "already locked in close
    combat", "ran in the Shooting phase", "has gone to ground", "shot Rapid
    Fire weapons, Salvo weapons, Ordnance weapons or Heavy weapons in the
    Shooting phase. This even applies if Snap Shots were made with these
    weapons", "is falling back", "a Flying Monstrous Creature that changed
    flight modes during this turn" (only such units set that flag).

    6th/7th-edition Relentless (and Slow and Purposeful, which counts as
    Relentless): "allowed to charge in the same turn they fire Heavy, Ordnance,
    Rapid Fire or Salvo weapons". Weapon types count only when the unit fired
    in its own Shooting phase (``has_shot``), not in Return Fire! or Overwatch.
    """
    status = unit.status
    if status.locked_in_combat:
        return "it is locked in close combat"
    if status.ran:
        return "it ran in the Shooting phase"
    if status.gone_to_ground:
        return "it has gone to ground"
    if status.falling_back:
        return "it is falling back"
    if status.changed_flight_mode:
        return "it changed flight mode this turn"
    fired = status.fired_types & NO_CHARGE_AFTER if status.has_shot else set()
    if fired and not relentless(unit):
        return f"it shot {', '.join(sorted(fired))} weapons in the Shooting phase"
    return None


def charge_distance(unit: Unit, target: Unit) -> float:
    """Base to base, the closest charging model to the closest target model."""
    return min(base_distance(m, e) for m in unit.alive_models for e in target.alive_models)


def charge_targets(battle: Battle, unit: Unit) -> list[Unit]:
    """Seed 004: enemy units the unit may declare a charge against.

    "A unit can never declare a charge against a unit that it cannot reach,
    nor can it declare a charge against a unit that it cannot see" (reach: the
    closest models within 12"). "In addition to the above, a unit that fired
    in the Shooting phase can only charge the unit that it targeted during that
    turn's Shooting phase" (``shot_target``, set when it shot in its own phase).
    """
    only = unit.status.shot_target if unit.status.has_shot else None
    return [
        enemy
        for enemy in battle.enemies_of(unit)
        if (only is None or enemy.id == only)
        and unit_can_see(battle, unit, enemy)
        and charge_distance(unit, enemy) <= MAX_CHARGE_RANGE + EPSILON
    ]


def declare_charge(battle: Battle, unit: Unit) -> Unit:
    """Seed 004: "nominate the enemy unit(s) it is attempting to charge" (one unit here)."""
    target = battle.decide(
        Decision(
            kind="charge_target",
            player=unit.player,
            prompt=f"Which enemy unit does {unit.label} charge?",
            choices=tuple(Choice(t.label, t) for t in charge_targets(battle, unit)),
            context={"unit": unit.id},
        )
    )
    battle.emit(ChargeDeclared(unit=unit.label, target=target.label))
    return target


def resolve_charge(battle: Battle, unit: Unit, target: Unit) -> None:
    """Reaction to Charge, then the charge roll and, if in range, the charge move
    (and a Fiery Charge, when the option is on); locks are refreshed after each.

    A charge whose charger or target is gone after the reaction (shot down by
    Overwatch, fallen back off the table) ends without a roll. A target that
    fell back out of reach makes the roll fail.
    """
    reaction_to_charge(battle, unit, target)
    if unit.destroyed or target.destroyed:
        battle.say("charge", f"the charge of {unit.label} ends: nothing left to charge with or at")
        refresh_locks(battle)
        return
    roll = roll_charge_range(battle, unit, target)
    if roll.success:
        charge_move(battle, unit, target, float(roll.charge_range))
    refresh_locks(battle)
    unit.status.charged = roll.success and units_in_contact(unit, target)
    if unit.status.charged:
        fiery_charge(battle, unit, target)
        refresh_locks(battle)


def reaction_to_charge(battle: Battle, charger: Unit, target: Unit) -> None:
    """Seed 004, Reaction to Charge: Fire Overwatch or Fall Back.

    "A unit that is charged can choose to react in two ways" (or not at all).
    "units that are locked in close combat cannot react to a charge", "a unit
    being charged may only react to a charge once per turn" (a unit that chose
    no reaction has not reacted), and "Units that are already fleeing must
    always declare Falling Back as their charge reaction" (not asked; the two
    restrictions above come first). Overwatch is offered only when at least
    one weapon could fire it.
    """
    status = target.status
    if status.locked_in_combat or status.reacted_this_turn:
        why = "is locked in combat" if status.locked_in_combat else "has reacted this turn"
        battle.say("charge", f"{target.label} {why}: it cannot react to the charge")
        return
    against = f"the charge of {charger.label}"
    if status.falling_back:
        status.reacted_this_turn = True
        battle.say("charge", f"{target.label} is already falling back: it must Fall Back")
        fall_back(battle, target, against)
        return
    options = [FALL_BACK, NO_REACTION]
    if any(
        firing_models(battle, target, charger, w, OVERWATCH_ORDERS)
        for w in snap_fire_weapons(target)
    ):
        options.insert(0, OVERWATCH)
    reaction = battle.decide(
        Decision(
            kind="charge_reaction",
            player=target.player,
            prompt=f"{target.label} is charged by {charger.label}: react?",
            choices=tuple(Choice(o, o) for o in options),
            context={"unit": target.id, "attacker": charger.id},
        )
    )
    if reaction == NO_REACTION:
        return
    status.reacted_this_turn = True
    if reaction == FALL_BACK:
        fall_back(battle, target, against)
        return
    battle.emit(ReactionDeclared(unit=target.label, reaction=OVERWATCH, against=charger.label))
    fire_overwatch(battle, target, charger)


def fire_overwatch(battle: Battle, unit: Unit, charger: Unit) -> VolleyResult:
    """Seed 004, Overwatch.

    "An Overwatch attack is resolved like a normal shooting attack … and uses
    all the normal rules for range, line of sight, cover saves and so on.
    Unlike a normal shooting attack, Overwatch cannot cause Morale checks or
    Pinning tests. Any shots fired as Overwatch can only be fired as Snap
    Shots. Therefore, weapons and models that cannot fire Snap Shots cannot
    fire Overwatch. For the purposes of range, the target of the Overwatch
    attack counts as being within 1” of the models that are firing Overwatch."

    No Pinning test and no Suppressive/Return Fire! follow-up is made, and the
    charger's casualties are taken off its phase count so that no later
    end-of-phase 25% Morale check counts them.
    """
    counted = charger.status.casualties_this_phase
    result = _fire_outside_shooting_phase(battle, unit, charger, OVERWATCH_ORDERS)
    charger.status.casualties_this_phase = counted
    return result


def _fire_outside_shooting_phase(
    battle: Battle, unit: Unit, target: Unit, orders: FireOrders
) -> VolleyResult:
    """A shooting attack that does not count as firing in the unit's Shooting phase.

    The weapon types it fires are not added to ``fired_types``, so Overwatch
    with a Heavy weapon does not stop the unit charging in its own next turn.
    """
    fired = set(unit.status.fired_types)
    result = shooting_attack(battle, unit, target, orders)
    unit.status.fired_types = fired
    return result


def through_difficult_terrain(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether any charging model's straight path to its closest target model
    crosses (or starts in) difficult terrain."""
    field = battle.battlefield
    for model in unit.alive_models:
        goal = closest([model], target.alive_models)[0]
        if any(area.difficult for area in field.crossed(model.position, goal.position)):
            return True
    return False


DIFFICULT_CHARGE_DICE = 3
"""Dice a charge through difficult terrain rolls, the highest discarded: the
6th- and 7th-edition rule alike ("roll 3D6 and discard the highest"); see
:func:`charge_dice` and docs/rules/waffle.md (base editions)."""


def charge_dice(difficult: bool) -> int:
    """How many D6 the charge range rolls: 2D6 (seed 004), or
    :data:`DIFFICULT_CHARGE_DICE` through difficult terrain."""
    return DIFFICULT_CHARGE_DICE if difficult else 2


def charge_range_of(dice: Sequence[int]) -> int:
    """The charge range the dice give: their sum, less the highest die when
    more than two are rolled (difficult terrain)."""
    return sum(dice) - (max(dice) if len(dice) > 2 else 0)


def fleet_rerolls(dice: Sequence[int], distance: float) -> tuple[int, ...]:
    """Positions of the charge dice a Fleet unit re-rolls.

    6th/7th-edition Fleet: the unit "can re-roll one or more of the dice when
    determining Run moves and charge ranges". None when the roll reaches;
    otherwise the set of dice that gives the best chance to reach ``distance``
    (counted exactly over the re-rolled dice; fewest dice on a tie), or none
    when no re-roll can reach.
    """
    if charge_range_of(dice) >= distance - EPSILON:
        return ()
    best: tuple[int, ...] = ()
    best_hits = 0
    positions = range(len(dice))
    for size in range(1, len(dice) + 1):
        for chosen in combinations(positions, size):
            hits = 0
            for faces in product(range(1, 7), repeat=size):
                rolled = list(dice)
                for at, face in zip(chosen, faces, strict=True):
                    rolled[at] = face
                hits += charge_range_of(rolled) >= distance - EPSILON
            if hits * 6 ** (len(dice) - size) > best_hits:
                best, best_hits = chosen, hits * 6 ** (len(dice) - size)
    return best


def roll_charge_range(battle: Battle, unit: Unit, target: Unit) -> ChargeRolled:
    """Seed 004, Roll Charge Range: "Roll 2D6. This is your charge range".

    "If a unit has models that roll differently for their charge range, the
    whole unit must charge at the speed of the slowest model." Here the only
    different roll is the 6th/7th-edition difficult-terrain charge: 3D6,
    highest discarded (:func:`charge_dice`), for the whole unit when any
    charging model's path crosses difficult terrain. A Fleet unit re-rolls the
    dice :func:`fleet_rerolls` picks. The charge reaches when the closest
    models are no farther apart than the charge range (exactly equal reaches).
    """
    count = charge_dice(through_difficult_terrain(battle, unit, target))
    label = "3D6, highest discarded" if count == 3 else f"{count}D6"
    dice = battle.dice.roll(count, f"charge range {label} ({unit.label})")
    distance = charge_distance(unit, target)
    again = fleet_rerolls(dice, distance) if unit.has_rule("Fleet") else ()
    if again:
        purpose = f"Fleet re-roll of charge dice ({unit.label})"
        rerolled = iter(battle.dice.roll(len(again), purpose))
        dice = tuple(next(rerolled) if k in again else d for k, d in enumerate(dice))
    charge_range = charge_range_of(dice)
    event = ChargeRolled(
        unit=unit.label,
        target=target.label,
        dice=dice,
        dropped=max(dice) if count > 2 else None,
        charge_range=charge_range,
        distance=round(distance, 3),
        success=distance <= charge_range + EPSILON,
    )
    battle.emit(event)
    return event


def charge_move(
    battle: Battle, unit: Unit, target: Unit, reach: float, movers: list[Model] | None = None
) -> None:
    """The 6th/7th-edition charge move, each model (of ``movers``, by default
    all) up to ``reach``, the charge range.

    The charging model closest to the target moves first, straight into base
    contact with the closest enemy model. Then each other model, closest
    first, moves into base contact with an enemy model of the target not yet
    in contact with the charging unit if it can, else with one already in
    contact, else straight toward the closest target model as far as it can.
    No model ends overlapping another base or off the table, nor within 1" of
    an enemy unit it is not charging (6th/7th edition: "charging models may
    not move within 1" of an enemy unit other than the one being charged";
    where a model ends, as interpretation 6 reads it). Models moving through
    dangerous terrain test for it.
    """
    starts = {m.id: m.position for m in unit.alive_models}
    avoid = [e for foe in battle.enemies_of(unit) if foe is not target for e in foe.alive_models]
    for model in closest(target.alive_models, unit.alive_models if movers is None else movers):
        spot = _contact_spot_in_target(battle, unit, model, target, reach, avoid)
        if spot is None:
            spot = closest_approach(battle, model, target, reach, avoid)
        if centre_distance(spot, model.position) > EPSILON:
            start, model.position = model.position, spot
            battle.emit(
                ModelMoved(unit=unit.label, model=model.id, start=start, end=spot, reason="charges")
            )
    dangerous_terrain_tests(battle, unit, starts)


def _contact_spot_in_target(
    battle: Battle, unit: Unit, model: Model, target: Unit, reach: float, avoid: list[Model]
) -> Vec | None:
    """Where ``model`` can touch an enemy model: unengaged enemies first, closest first."""
    others = [m for m in unit.alive_models if m is not model]
    engaged = [e for e in target.alive_models if any(in_contact(e, m) for m in others)]
    free = [e for e in target.alive_models if e not in engaged]
    for group in (free, engaged):
        for enemy in closest([model], group):
            spot = contact_spot(battle, model, enemy, reach, avoid)
            if spot is not None:
                return spot
    return None


def fiery_charge(battle: Battle, unit: Unit, target: Unit) -> None:
    """Seed 004, (Proposed Rule) Fiery Charge (option ``fiery_charge``).

    "Any models that have made a successful Charge may immediately make a
    Fiery Charge shooting attack against the non-vehicle enemy unit they
    charged. Resolve it as a normal Shooting attack, with only Assault and
    Pistol type weapons able to fire. Any casualties caused from this attack
    are added to the combat result for this side." Casualties are the models
    removed; they go to ``status.combat_score``. The attack, like Overwatch,
    is not the unit's Shooting phase; the target is locked in combat, so it
    takes no Morale check or Pinning test from it.

    Its casualties are the closest models, often the ones the chargers touch:
    charging models left out of base contact then close in again, up to 3"
    (as a 6th/7th-edition Pile In), so that the charge still ends in combat.
    """
    if not battle.option("fiery_charge") or is_vehicle(target):
        return
    if not any(firing_models(battle, unit, target, w, FIERY_ORDERS) for w in ranged_weapons(unit)):
        return
    accept = battle.decide(
        Decision(
            kind="fiery_charge",
            player=unit.player,
            prompt=f"{unit.label} may make a Fiery Charge at {target.label}",
            choices=(Choice(FIERY, True), Choice(NO_FIERY, False)),
            context={"unit": unit.id, "target": target.id},
        )
    )
    if not accept:
        return
    unit.status.fiery_charged = True
    removed = _fire_outside_shooting_phase(battle, unit, target, FIERY_ORDERS).casualties[target.id]
    unit.status.combat_score += removed
    battle.say("fiery-charge", f"{unit.label} adds {removed} casualties to its combat result")
    loose = [m for m in unit.alive_models if not any(in_contact(m, e) for e in target.alive_models)]
    if loose and not target.destroyed:
        charge_move(battle, unit, target, PILE_IN, loose)


def charge_bonus_attacks(unit: Unit) -> int:
    """Bonus Attacks a charging unit's models get in the fight (for the fight sub-phase).

    6th/7th edition: +1 Attack on the charge, +2 with Rage. Seed 004, Fiery
    Charge: "units choosing to make a Fiery charge lose their bonus attack
    from a charge, if any. Units with the Rage USR only lose one of their two
    attacks."
    """
    if not unit.status.charged:
        return 0
    bonus = 2 if unit.has_rule("Rage") else 1
    return bonus - 1 if unit.status.fiery_charged else bonus
