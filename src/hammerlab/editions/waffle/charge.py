"""The Waffle Edition charge sub-phase (seed 004, "Charge Sub-phase").

"First, pick one of your units, and declare which enemy unit it wishes to
charge. Then, the target enemy unit gets to make a Reaction to Charge … Once
Reaction to Charge is resolved, roll the charge distance for the unit and, if
it is in range, move it into contact with the enemy unit – this is sometimes
called ‘launching an assault’."

The fight sub-phase reads what this module leaves on the charging unit:
``status.charged`` (it charged this turn), and :func:`charge_bonus_attacks`.
Reactions to a charge and what follows a successful charge are installed rules
(``editions/waffle/rules/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from hammerlab.editions.flow import Picks
from hammerlab.editions.waffle.combat import in_contact, refresh_locks, units_in_contact
from hammerlab.editions.waffle.events import (
    ChargeBarred,
    ChargeBlocked,
    ChargeDeclared,
    ChargeReactionBarred,
    ChargeRolled,
)
from hammerlab.editions.waffle.flyers import may_be_charged
from hammerlab.editions.waffle.infiltrate import infiltrated
from hammerlab.editions.waffle.maledictions import all_terrain_difficult
from hammerlab.editions.waffle.movement import dangerous_terrain_tests, fall_back
from hammerlab.editions.waffle.placement import (
    EPSILON,
    coherent_approach,
    contact_spot,
)
from hammerlab.editions.waffle.points import (
    CHARGE_BONUS_ATTACKS,
    CHARGE_REACTED,
    CHARGE_REACTION_FORCED,
    CHARGE_SUCCEEDED,
    REACTIONS_TO_CHARGE,
    Reaction,
)
from hammerlab.editions.waffle.reserves import arrived_by_deep_strike
from hammerlab.editions.waffle.scout import scouted
from hammerlab.editions.waffle.special_rules import move_through_cover, relentless
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import held_still, leave_behind, may_charge
from hammerlab.editions.waffle.visibility import unit_can_see
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.geometry import Vec, centre_distance, closest, gap_table, nearest_each
from hammerlab.engine.memo import per_decision
from hammerlab.engine.units import Model, Unit

END_CHARGES = "end charges"
NO_REACTION = "no reaction"
NO_CHARGE_AFTER = frozenset({"Rapid Fire", "Salvo", "Ordnance", "Heavy"})
"""Seed 004: "The unit shot Rapid Fire weapons, Salvo weapons, Ordnance weapons
or Heavy weapons in the Shooting phase."""


def begin_charges(battle: Battle, player: str) -> frozenset[str]:
    """Read who is locked off the table, and name the units barred from charging."""
    refresh_locks(battle)
    for barred in battle.units_of(player):
        reason = charge_ban(battle, barred)
        if reason is not None:
            battle.emit(ChargeBarred(barred.label, reason))
    return frozenset()


def _chargers(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    """Each unit may declare one charge per sub-phase (a unit whose charge failed
    may not try again)."""
    return [
        u
        for u in battle.units_of(player)
        if u.id not in done and charge_ban(battle, u) is None and charge_targets(battle, u)
    ]


def charge(battle: Battle, unit: Unit) -> None:
    """Declare the unit's charge and resolve it."""
    resolve_charge(battle, unit, declare_charge(battle, unit))


def target_follow_ups(battle: Battle, unit: Unit) -> list[tuple[tuple[str, str], ...]]:
    """The charge targets a unit picked to charge may declare."""
    return [(("charge_target", t.label),) for t in charge_targets(battle, unit)]


CHARGES = Picks(
    "charger",
    "Pick a unit to declare a charge, or end the charges",
    _chargers,
    charge,
    END_CHARGES,
    target_follow_ups,
)
"""Seed 004: the active player's charges, one unit at a time, until they stop."""


def charge_ban(battle: Battle, unit: Unit) -> str | None:
    """Seed 004, Declare Charge: why the unit may not declare a charge, if it may not.

    "Some units are disallowed from charging": "already locked in close
    combat", "ran in the Shooting phase", "has gone to ground", "shot Rapid
    Fire weapons, Salvo weapons, Ordnance weapons or Heavy weapons in the
    Shooting phase. This even applies if Snap Shots were made with these
    weapons", "is falling back", "a Flying Monstrous Creature that changed
    flight modes during this turn" (only such units set that flag). 6th/7th-edition
    Regroup: a unit that regrouped this turn cannot "charge in Assault phase"
    (``movement_phase.regroup``). 7th-edition
    Deep Strike: units "cannot charge in that turn's Assault phase"; Scout: "A
    unit that makes a Scout redeployment cannot charge in the first game turn";
    Infiltrate: "A unit that deploys using these rules cannot charge in their
    first turn". A Walker that "cannot move" (Immobilised, Crew Stunned, 7th-edition
    Vehicle Damage: :func:`vehicles.held_still`) cannot charge either: a charge is a move.

    6th/7th-edition Relentless (and Slow and Purposeful, which counts as
    Relentless): "allowed to charge in the same turn they fire Heavy, Ordnance,
    Rapid Fire or Salvo weapons". Weapon types count only when the unit fired
    in its own Shooting phase (``has_shot``), not in Return Fire! or Overwatch.
    """
    status = st(battle, unit)
    if not may_charge(unit):
        return "vehicles other than Walkers cannot charge"
    stuck = held_still(battle, unit)
    if stuck is not None:
        return stuck
    if status.locked_in_combat:
        return "it is locked in close combat"
    if status.ran:
        return "it ran in the Shooting phase"
    if status.gone_to_ground:
        return "it has gone to ground"
    if status.falling_back:
        return "it is falling back"
    if status.regrouped:
        return "it regrouped this turn"
    if status.changed_flight_mode:
        return "it changed flight mode this turn"
    if arrived_by_deep_strike(battle, unit):
        return "it arrived by Deep Strike this turn"
    if scouted(battle, unit):
        return "it made a Scout redeployment (no charge in the first game turn)"
    if infiltrated(battle, unit):
        return "it deployed by Infiltrate (no charge in its first turn)"
    fired = status.fired_types & NO_CHARGE_AFTER if status.has_shot else set()
    if fired and not relentless(unit):
        return f"it shot {', '.join(sorted(fired))} weapons in the Shooting phase"
    return None


@per_decision
def charge_distance(unit: Unit, target: Unit) -> float:
    """Base to base, the closest charging model to the closest target model (the least
    :func:`geometry.base_distance` of the pairs, read off their remembered :func:`gap_table`)."""
    return min(min(row) for row in gap_table(unit.alive_models, target.alive_models))


def charge_targets(battle: Battle, unit: Unit) -> list[Unit]:
    """Seed 004: enemy units the unit may declare a charge against.

    "A unit can never declare a charge against a unit that it cannot reach,
    nor can it declare a charge against a unit that it cannot see" (reach: the
    closest models within 12", the parameter ``max_charge_range``). "In addition
    to the above, a unit that fired in the Shooting phase can only charge the
    unit that it targeted during that turn's Shooting phase" (``shot_target``,
    set when it shot in its own phase). 7th edition: Zooming Flyers "cannot be
    charged" (:func:`flyers.may_be_charged`).

    Reach is asked before sight: the distance is read off a remembered table,
    while sight traces lines past the terrain, and a unit out of reach is no
    target whatever it sees (a unit with no models left sees none: no target).
    """
    if unit.destroyed:
        return []
    only = st(battle, unit).shot_target if st(battle, unit).has_shot else None
    reach = battle.settings.number("max_charge_range")
    return [
        enemy
        for enemy in battle.enemies_of(unit)
        if (only is None or enemy.id == only)
        and charge_distance(unit, enemy) <= reach + EPSILON
        and unit_can_see(battle, unit, enemy)
        and may_be_charged(enemy)
    ]


def declare_charge(battle: Battle, unit: Unit) -> Unit:
    """Seed 004: "nominate the enemy unit(s) it is attempting to charge" (one unit here)."""
    target = battle.decide(
        Decision(
            kind="charge_target",
            player=unit.player,
            prompt=f"Which enemy unit does {unit.label} charge?",
            choices=tuple(Choice(t.label, t) for t in charge_targets(battle, unit)),
            context=DecisionContext(unit=unit.id),
        )
    )
    battle.emit(ChargeDeclared(unit=unit.label, target=target.label))
    return target


def resolve_charge(battle: Battle, unit: Unit, target: Unit) -> None:
    """Reaction to Charge, then the charge roll and, if in range, the charge move
    (and what installed rules do when a charge succeeds: a Fiery Charge); locks
    are refreshed after each.

    A charge whose charger or target is gone after the reaction (shot down by
    Overwatch, fallen back off the table) ends without a roll. A squadron that
    declared it leaves its Immobilised vehicles behind then, before the roll
    (:func:`vehicles.leave_behind`: they "cannot move"), which is made, and the
    charge moved, by the vehicles that go. A target that
    fell back out of reach makes the roll fail. A target charged while not
    locked in combat is marked ``charged_unlocked`` for the phase
    (:func:`special_rules.counter_attack_bonus`: "If, when charged, the unit
    was already locked in combat, the Counter-attack special rule has no
    effect").
    """
    unlocked = not st(battle, target).locked_in_combat
    reaction_to_charge(battle, unit, target)
    if unit.destroyed or target.destroyed:
        battle.say("charge", f"the charge of {unit.label} ends: nothing left to charge with or at")
        refresh_locks(battle)
        return
    leave_behind(battle, unit)  # a squadron charges away from its Immobilised vehicles
    difficult = through_difficult_terrain(battle, unit, target)
    roll = roll_charge_range(battle, unit, target)
    if roll.success:
        charge_move(battle, unit, target, float(roll.charge_range))
    refresh_locks(battle)
    unit.status.charged = roll.success and units_in_contact(unit, target)
    if unit.status.charged:
        st(battle, target).charged_unlocked |= unlocked
        st(battle, unit).charged_through_difficult |= difficult
        for rule in battle.hooks.get(CHARGE_SUCCEEDED):
            rule(battle, unit, target)
            refresh_locks(battle)


def reaction_to_charge(battle: Battle, charger: Unit, target: Unit) -> None:
    """Seed 004, Reaction to Charge: one of the reactions installed
    (:data:`points.REACTIONS_TO_CHARGE`: Fire Overwatch and Fall Back,
    ``editions/waffle/rules/reactions.py``), or none.

    "A unit that is charged can choose to react in two ways" (or not at all).
    "units that are locked in close combat cannot react to a charge", "a unit
    being charged may only react to a charge once per turn" (a unit that chose
    no reaction has not reacted), and "Units that are already fleeing must
    always declare Falling Back as their charge reaction" (not asked; the two
    restrictions above come first), as must a unit an installed rule forces to
    ("certain terrifying creature may force a unit to Fall Back instead of other
    options": :data:`points.CHARGE_REACTION_FORCED`). Then other units may act
    (:data:`points.CHARGE_REACTED`: Supporting Fire).
    """
    _charged_unit_reacts(battle, charger, target)
    for rule in battle.hooks.get(CHARGE_REACTED):
        rule(battle, charger, target)


def _charged_unit_reacts(battle: Battle, charger: Unit, target: Unit) -> None:
    """The charged unit's own reaction, where it may react (:func:`reaction_to_charge`)."""
    status = st(battle, target)
    if status.locked_in_combat or status.reacted_this_turn:
        why = "is locked in combat" if status.locked_in_combat else "has reacted this turn"
        battle.emit(ChargeReactionBarred(target.label, why))
        return
    against = f"the charge of {charger.label}"
    forced = "is already falling back" if status.falling_back else None
    for rule in battle.hooks.get(CHARGE_REACTION_FORCED):
        forced = forced or rule(battle, target, charger)
    if forced is not None:
        status.reacted_this_turn = True
        battle.say("charge", f"{target.label} {forced}: it must Fall Back")
        fall_back(battle, target, against)
        return
    available = [
        r for r in battle.hooks.get(REACTIONS_TO_CHARGE) if r.available(battle, target, charger)
    ]
    if available:
        _react(battle, charger, target, available)


def _react(battle: Battle, charger: Unit, target: Unit, available: list[Reaction]) -> None:
    """The charged unit's choice among the ``available`` reactions, or none."""
    status = st(battle, target)
    options: list[Choice[Reaction | None]] = [Choice(r.label, r) for r in available]
    options.append(Choice(NO_REACTION, None))
    reaction = battle.decide(
        Decision(
            kind="charge_reaction",
            player=target.player,
            prompt=f"{target.label} is charged by {charger.label}: react?",
            choices=tuple(options),
            context=DecisionContext(unit=target.id, attacker=charger.id),
        )
    )
    if reaction is None:
        return
    status.reacted_this_turn = True
    reaction.resolve(battle, target, charger)


@per_decision
def through_difficult_terrain(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether any charging model's straight path to its closest target model
    crosses (or starts in) difficult terrain (always, under Enfeeble:
    :func:`maledictions.all_terrain_difficult`)."""
    if all_terrain_difficult(battle, unit):
        return True
    field = battle.battlefield
    models = unit.alive_models
    for model, goal in zip(models, nearest_each(models, target.alive_models), strict=True):
        if any(area.difficult for area in field.crossed(model.position, goal.position)):
            return True
    return False


def slowed_by_terrain(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether ``unit``'s charge at ``target`` rolls the difficult-terrain dice
    (:func:`charge_dice`): its way crosses difficult terrain
    (:func:`through_difficult_terrain`) and it has no Move Through Cover
    (:func:`special_rules.move_through_cover`: "not slowed by charging through
    difficult terrain"). The roll (:func:`roll_charge_range`) and the AI's
    chance of it (:func:`plans.charge_chance`) both ask this; the rule is asked
    first, so a unit that has it traces no path."""
    return not move_through_cover(unit) and through_difficult_terrain(battle, unit, target)


def charge_dice(battle: Battle, difficult: bool) -> int:
    """How many D6 the charge range rolls: 2D6 (seed 004, parameter
    ``charge_dice``), or through difficult terrain 3D6 with the highest
    discarded, the 6th- and 7th-edition rule alike (parameter
    ``difficult_charge_dice``; docs/rules/waffle.md, base editions)."""
    name = "difficult_charge_dice" if difficult else "charge_dice"
    return battle.settings.integer(name)


def charge_range_of(dice: Sequence[int], drop_highest: bool) -> int:
    """The charge range the dice give: their sum, less the highest die through
    difficult terrain (``drop_highest``)."""
    return sum(dice) - (max(dice) if drop_highest and dice else 0)


def fleet_rerolls(dice: Sequence[int], distance: float, drop_highest: bool) -> tuple[int, ...]:
    """Positions of the charge dice a Fleet unit re-rolls.

    6th/7th-edition Fleet: the unit "can re-roll one or more of the dice when
    determining Run moves and charge ranges". None when the roll reaches;
    otherwise the set of dice that gives the best chance to reach ``distance``
    (counted exactly over the re-rolled dice; fewest dice on a tie), or none
    when no re-roll can reach.
    """
    if charge_range_of(dice, drop_highest) >= distance - EPSILON:
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
                hits += charge_range_of(rolled, drop_highest) >= distance - EPSILON
            if hits * 6 ** (len(dice) - size) > best_hits:
                best, best_hits = chosen, hits * 6 ** (len(dice) - size)
    return best


def roll_charge_range(battle: Battle, unit: Unit, target: Unit) -> ChargeRolled:
    """Seed 004, Roll Charge Range: "Roll 2D6. This is your charge range".

    "If a unit has models that roll differently for their charge range, the
    whole unit must charge at the speed of the slowest model." Here the only
    different roll is the 6th/7th-edition difficult-terrain charge: 3D6,
    highest discarded (:func:`charge_dice`), for the whole unit when any
    charging model's path crosses difficult terrain, unless it has Move Through
    Cover (:func:`special_rules.move_through_cover`: "not slowed by charging
    through difficult terrain"). A Fleet unit re-rolls the
    dice :func:`fleet_rerolls` picks. The charge reaches when the closest
    models are no farther apart than the charge range (exactly equal reaches)
    and a charging model can then end its move touching the target
    (:func:`way_in`; else :class:`events.ChargeBlocked` says why it fails).
    """
    difficult = slowed_by_terrain(battle, unit, target)
    count = charge_dice(battle, difficult)
    label = f"{count}D6, highest discarded" if difficult else f"{count}D6"
    dice = battle.dice.roll(count, f"charge range {label} ({unit.label})")
    distance = charge_distance(unit, target)
    again = fleet_rerolls(dice, distance, difficult) if unit.has_rule("Fleet") else ()
    if again:
        purpose = f"Fleet re-roll of charge dice ({unit.label})"
        rerolled = iter(battle.dice.roll(len(again), purpose))
        dice = tuple(next(rerolled) if k in again else d for k, d in enumerate(dice))
    charge_range = charge_range_of(dice, difficult)
    reached = distance <= charge_range + EPSILON
    blocked = reached and not way_in(battle, unit, target, float(charge_range))
    event = ChargeRolled(
        unit=unit.label,
        target=target.label,
        dice=dice,
        dropped=max(dice) if difficult else None,
        charge_range=charge_range,
        distance=round(distance, 3),
        success=reached and not blocked,
    )
    battle.emit(event)
    if blocked:
        battle.emit(ChargeBlocked(unit=unit.label, target=target.label, charge_range=charge_range))
    return event


@per_decision
def way_in(battle: Battle, unit: Unit, target: Unit, reach: float) -> bool:
    """Whether some model of ``unit`` can end a charge move of ``reach`` inches in base
    contact with ``target``, at a spot :func:`charge_move` would take (free, on the
    table, 1" clear of every other enemy unit).

    6th/7th edition: "charging models may not move within 1" of an enemy unit
    other than the one being charged", nor through or onto other models. A
    charge whose dice reach the distance between the closest models, but none of
    whose models can then touch the target (a transport ringed by its own
    passengers, a unit behind a screen), fails, and no model moves (docs/rules/
    waffle.md, interpretations): the roll gives how far the charge can go, and
    the charge is the move into base contact.
    """
    avoid = _other_enemies(battle, unit, target)
    return any(
        _contact_spot_in_target(battle, unit, model, target, reach, avoid) is not None
        for model in closest(target.alive_models, unit.alive_models)
    )


def _other_enemies(battle: Battle, unit: Unit, target: Unit) -> list[Model]:
    """The models of every enemy unit of ``unit`` but ``target``: a charge keeps 1" away."""
    return [e for foe in battle.enemies_of(unit) if foe is not target for e in foe.alive_models]


def charge_move(
    battle: Battle, unit: Unit, target: Unit, reach: float, movers: list[Model] | None = None
) -> None:
    """The 6th/7th-edition charge move, each model (of ``movers``, by default
    all) up to ``reach``, the charge range, by the shortest way that passes
    through no other unit's base (:class:`placement.Ways`).

    7th edition (the 2014 rulebook, p. 46, with its errata, as forums quote it):
    "Start each charge by moving the initial charger … the model nearest to the
    enemy (as measured by the shortest possible route, going around impassable
    terrain, friendly models and enemy models in other units)", then "you can
    move the others in any sequence you desire, providing you abide by the
    following conditions: If possible, a charging model must end its charge
    move in unit coherency with another model in its own unit that has already
    moved … If possible, a charging model must move into base contact with an
    enemy model within reach that is not already in base contact with another
    charging model. If there are no such enemy models in reach, the model must
    move into base contact with an enemy model that is already in base contact
    with a charging model. If a charging model cannot reach any enemy models, it
    must try to move within 2" … of one of its own unit's models that is already
    in base contact with an enemy. If this is impossible, it must simply stay in
    unit coherency." (6th edition alike, as remembered.)

    Here the initial charger is the closest model (base to base) that can reach
    base contact; it moves into contact with the nearest enemy model it can
    reach. Then each other model, closest first, moves into base contact with
    an enemy model of the target not yet in contact with the charging unit if
    it can, else with one already in contact, at a spot within 2" of a model of
    its unit that has already moved (or does not move); else it ends within 2"
    of one, as near the target as it can (:func:`placement.coherent_approach`).
    No model ends overlapping another base or off the table, nor within 1" of an
    enemy unit it is not charging (6th/7th edition: "charging models may not move
    within 1" of an enemy unit other than the one being charged"; where a model
    ends, as interpretation 6 reads it). Models moving through dangerous terrain
    test for it.
    """
    starts = {m.id: m.position for m in unit.alive_models}
    avoid = _other_enemies(battle, unit, target)
    moving = closest(target.alive_models, unit.alive_models if movers is None else movers)
    placed = [m for m in unit.alive_models if all(m is not x for x in moving)]
    lead, first = next(
        (
            (m, spot)
            for m in moving
            if (spot := _contact_spot_in_target(battle, unit, m, target, reach, avoid, placed))
        ),
        (None, None),
    )
    for model in [m for m in moving if m is lead] + [m for m in moving if m is not lead]:
        spot = first if model is lead else None
        if spot is None:
            spot = _contact_spot_in_target(battle, unit, model, target, reach, avoid, placed)
        if spot is None:
            spot = coherent_approach(battle, unit, model, target, reach, avoid, placed)
        if centre_distance(spot, model.position) > EPSILON:
            start, model.position = model.position, spot
            battle.emit(
                ModelMoved(unit=unit.label, model=model.id, start=start, end=spot, reason="charges")
            )
        placed.append(model)
    dangerous_terrain_tests(battle, unit, starts)


def _contact_spot_in_target(
    battle: Battle,
    unit: Unit,
    model: Model,
    target: Unit,
    reach: float,
    avoid: list[Model],
    together: Sequence[Model] = (),
) -> Vec | None:
    """Where ``model`` can touch an enemy model: unengaged enemies first, closest
    first; with ``together``, within 2" of one of those models of its unit."""
    others = [m for m in unit.alive_models if m is not model]
    engaged = [e for e in target.alive_models if any(in_contact(e, m) for m in others)]
    free = [e for e in target.alive_models if e not in engaged]
    enemies = [*closest([model], free), *closest([model], engaged)]
    return contact_spot(battle, unit, model, enemies, reach, avoid, together)


def charge_bonus_attacks(battle: Battle, unit: Unit) -> int:
    """Bonus Attacks a unit's models get in the fight (for the fight sub-phase): the
    :func:`charge_bonus` if it charged this turn, else none."""
    return charge_bonus(battle, unit) if unit.status.charged else 0


def charge_bonus(battle: Battle, unit: Unit) -> int:
    """The bonus Attacks of ``unit`` on the charge (also what the AI weighs before
    charging).

    6th/7th edition: +1 Attack on the charge, +2 with Rage; installed rules may
    change it (:data:`points.CHARGE_BONUS_ATTACKS`: a Fiery Charge costs one).
    """
    bonus = 2 if unit.has_rule("Rage") else 1
    for rule in battle.hooks.get(CHARGE_BONUS_ATTACKS):
        bonus = rule(battle, unit, bonus)
    return bonus
