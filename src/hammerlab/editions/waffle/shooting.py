"""The Waffle Edition shooting phase (seed 000, "The Shooting Sequence").

1. Nominate Unit to Shoot. 2. Choose a Target. 3. Select a Weapon. 4. Roll To
Hit. 5. Roll To Wound. 6. Allocate Wounds & Remove Casualties. 7. Select
Another Weapon. 8. Reaction to Shooting. Steps 3-6 live in ``attacks``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache, partial

from hammerlab.editions.flow import Phase, Picks
from hammerlab.editions.waffle.attacks import able_weapons, fire_weapon, firing_each
from hammerlab.editions.waffle.charge import charge_distance
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.events import ReactionDeclared, ShootsIntoMelee
from hammerlab.editions.waffle.firepower import effective_range, ranged_weapons
from hammerlab.editions.waffle.morale import (
    phase_casualty_checks,
    pinning_test,
)
from hammerlab.editions.waffle.movement import run
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult, orders_against
from hammerlab.editions.waffle.points import (
    AFTER_SHOOTING_ATTACK,
    MAY_TARGET_LOCKED,
    REACTIONS_TO_SHOOTING,
    SHOOTING_ACTIONS,
    SHOOTING_ATTACK_BEGINS,
    Attack,
    Reaction,
    ShootingAction,
)
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.reserves import units_off_table
from hammerlab.editions.waffle.snap_shots import no_snap_shots
from hammerlab.editions.waffle.special_rules import battle_focus
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.unfired import left_unfired, not_offered, template_barred
from hammerlab.editions.waffle.vehicles import may_move, may_run
from hammerlab.editions.waffle.weapon_details import describe_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.transpositions import (
    Transpositions,
    position_key,
    standing_still,
)
from hammerlab.engine.units import Unit

SHOOT, RUN, HOLD = "shoot", "run", "hold"
NO_REACTION = "no reaction"


def start_phase(battle: Battle, phase: str, player: str) -> None:
    """Reset what units count per phase, read who is locked in combat off the
    table, and announce the phase.

    The units off the table (:func:`reserves.units_off_table`: in reserve, aboard a
    transport) are counted too: one that comes onto the table in the phase (a Deep
    Strike, passengers of a transport destroyed) brings its strength at the phase's
    start to the 25% of its casualties there (:func:`morale.phase_casualty_checks`),
    where a count left at 0 or from an earlier phase spared it its Morale check."""
    battle.phase = phase
    refresh_locks(battle)
    away = (unit for unit, _ in units_off_table(battle))
    for unit in (*battle.units.values(), *away):
        status = st(battle, unit)
        status.reacted_this_phase = False
        status.casualties_this_phase = 0
        status.models_at_phase_start = len(unit.alive_models)
        status.combat_score = 0
        status.charged_unlocked = False
        status.charged_through_difficult = False
        status.casualty_check_taken = False
    battle.emit(PhaseChanged(phase, player, battle.turn, True))  # phase, player, turn, begins


def _begin(battle: Battle, player: str) -> frozenset[str]:
    start_phase(battle, "shooting", player)
    return frozenset()


def _shooters(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    return [u for u in battle.units_of(player) if _may_act(battle, u)]


def _end(battle: Battle, player: str) -> None:
    phase_casualty_checks(battle, player)
    battle.emit(PhaseChanged("shooting", player, battle.turn, False))  # as start_phase's


def _may_act(battle: Battle, unit: Unit) -> bool:
    """Seed 000 step 1: "able to shoot but has yet to do so this turn".

    Seed 001, Shooting Into and out of Close Combat: "Models belonging to
    units locked in combat cannot fire weapons in the Shooting phase" (with
    or without the proposed rule: nothing lets them shoot out of a combat).
    """
    status = st(battle, unit)
    return not (status.has_shot or status.locked_in_combat or status.ran)


def can_run(battle: Battle, unit: Unit) -> bool:
    """Units gone to ground, falling back, that regrouped this turn
    (``movement_phase.regroup``) or Slow and Purposeful cannot Run; nor can vehicles
    other than Walkers (:func:`vehicles.may_run`), nor a Walker that "cannot move"
    (Immobilised, Crew Stunned: :func:`vehicles.may_move`)."""
    status = st(battle, unit)
    return (
        may_run(unit)
        and may_move(battle, unit)
        and not (
            status.gone_to_ground
            or status.falling_back
            or status.regrouped
            or unit.has_rule("Slow and Purposeful")
        )
    )


def targets_for(battle: Battle, unit: Unit, orders: FireOrders) -> list[Unit]:
    """Enemy units the unit can see and reach with at least one weapon.

    Units locked in combat are not targets (6th/7th-edition base rule), unless
    a rule allows it (:func:`may_target`).
    Sight is judged model by model in :func:`attacks.firing_models` (every
    weapon's at once: :func:`attacks.firing_each`), which lets Barrage weapons
    fire at targets out of sight (6th/7th edition), so a unit whose only weapons
    in reach are Barrage weapons may target a unit it cannot see.
    """
    found = []
    for enemy in battle.enemies_of(unit):
        if not may_target(battle, unit, enemy):
            continue
        aimed = orders_against(battle, enemy, orders)
        if any(firing_each(battle, unit, enemy, aimed).values()):
            found.append(enemy)
    return found


def may_target(battle: Battle, unit: Unit, enemy: Unit) -> bool:
    """Whether ``unit`` may choose ``enemy`` as a target at all.

    A unit locked in combat is not a target (6th/7th-edition base rule) unless
    an installed rule allows it (:data:`points.MAY_TARGET_LOCKED`: seed 001's
    Shooting into Close Combat).
    """
    if not st(battle, enemy).locked_in_combat:
        return True
    return any(allow(battle, unit, enemy) for allow in battle.hooks.get(MAY_TARGET_LOCKED))


@dataclass(frozen=True)
class _Regular:
    """The regular shooting action: fire at any legal target (a value: every
    battle's is equal, so a decision offering it reads alike in all of them)."""

    label: str = SHOOT

    def targets(self, battle: Battle, unit: Unit, targets: list[Unit]) -> list[Unit]:
        return targets

    def orders(self) -> FireOrders:
        return FireOrders()


Kept = tuple[tuple[int, tuple[str, ...]], ...]
"""Shooting actions offered, as :data:`OFFERED` keeps them."""

OFFERED: Transpositions[Kept] = Transpositions()
""":func:`shooting_actions`' answers by position (:mod:`engine.transpositions`): each
action offered by its place (0: the regular one; then the rules' actions, in the order
they were installed) with its targets' ids."""


def shooting_actions(battle: Battle, unit: Unit) -> list[tuple[ShootingAction, list[Unit]]]:
    """The shooting actions ``unit`` may take now, each with the targets it may take it
    against: a regular one, then those installed rules offer
    (:data:`points.SHOOTING_ACTIONS`: Suppressive Fire).

    A function of the position alone, asked as each unit is picked to shoot, in
    positions every battle of a scenario passes through: remembered by position
    (:data:`OFFERED`), the actions by their places and the targets by their ids."""
    every: tuple[ShootingAction, ...] = (_Regular(), *battle.hooks.get(SHOOTING_ACTIONS))

    def worked_out() -> list[tuple[ShootingAction, list[Unit]]]:
        targets = targets_for(battle, unit, FireOrders())
        if not targets:
            return []
        offered: list[tuple[ShootingAction, list[Unit]]] = [(every[0], targets)]
        for action in every[1:]:
            allowed = action.targets(battle, unit, targets)
            if allowed:
                offered.append((action, allowed))
        return offered

    def keep(offered: list[tuple[ShootingAction, list[Unit]]]) -> Kept:
        place = {id(a): p for p, a in enumerate(every)}
        return tuple((place[id(a)], tuple(u.id for u in units)) for a, units in offered)

    def give(kept: Kept) -> list[tuple[ShootingAction, list[Unit]]]:
        return [(every[place], [battle.units[i] for i in ids]) for place, ids in kept]

    return OFFERED.recall(lambda: (position_key(battle), unit.id), worked_out, keep, give)


def why_no_shot(battle: Battle, unit: Unit) -> tuple[str, ...]:
    """Why ``unit`` is not offered ``shoot`` (:func:`targets_for` found no target), for a
    person choosing its action, as the weapon prompt says why a weapon is left out
    (:func:`unfired.not_offered`): each enemy unit locked in combat that it may not
    target (:func:`may_target`), each weapon that would fire Snap Shots and cannot, with
    why it would (:func:`snap_shots.no_snap_shots`: a Heavy Blast after moving, a Template
    gone to ground), or a template that would touch a friendly model wherever aimed
    (:func:`unfired.template_barred`), each asked of the nearest enemy unit, then why
    none of the others is a target: all beyond the longest range of its other weapons
    (base to base, :func:`charge.charge_distance`), or none
    in range seen by a model able to fire at it (:func:`attacks.firing_models`). Seed
    000: "Some weapon types, such as Template and Ordnance) or those that have certain
    special rules, such as Blast, cannot be fired as Snap Shots"; step 2: the target is
    "an enemy unit that it can see"; step 3: "Models that cannot see the target, or are
    not in range, cannot shoot"."""
    enemies = battle.enemies_of(unit)
    if not enemies:
        return ("shoot: no enemy unit is on the table",)
    free = [enemy for enemy in enemies if may_target(battle, unit, enemy)]
    lines = [
        f"shoot: {enemy.label} is locked in combat: not a target"
        for enemy in enemies
        if enemy not in free
    ]
    if not free:
        return tuple(lines)
    other = "other " if lines else ""
    nearest = min(free, key=lambda enemy: charge_distance(unit, enemy))
    barred = {
        name: why
        for name in ranged_weapons(unit)
        if (
            why := no_snap_shots(battle, unit, nearest, name, FireOrders())
            or template_barred(battle, unit, nearest, name)
        )
        is not None
    }
    lines += [f"shoot: {why}" for why in barred.values()]
    reach = max(
        (
            effective_range(unit, weapon_of(weapon))
            for name in ranged_weapons(unit)
            if name not in barred
            for model in unit.alive_models
            if (weapon := model.weapon(name)) is not None
        ),
        default=None,
    )
    if reach is None:
        return tuple(lines) if barred else (*lines, "shoot: it has no ranged weapon")
    gap = charge_distance(unit, nearest)
    if gap > reach:
        far = f'the nearest, {nearest.label}, is {gap:.1f}" away'
        return (*lines, f'shoot: no {other}enemy unit in range ({reach:g}" at most; {far})')
    return (*lines, f"shoot: no {other}enemy unit in range is seen by a model able to fire at it")


def unit_shooting_action(battle: Battle, unit: Unit) -> None:
    """Shoot (regularly or as an action a rule offers), Run, or hold."""
    st(battle, unit).has_shot = True
    with standing_still(battle):  # the actions offered, chosen, and a target: one position
        offered = shooting_actions(battle, unit)
        actions: list[Choice[tuple[ShootingAction, list[Unit]] | str]] = [
            Choice(action.label, (action, targets)) for action, targets in offered
        ]
        if can_run(battle, unit):
            actions.append(Choice(RUN, RUN))
        actions.append(Choice(HOLD, HOLD))
        picked = battle.decide(
            Decision(  # kind, player, prompt, choices, context, describe, not_offered
                "action",
                unit.player,
                f"What does {unit.label} do?",
                tuple(actions),
                DecisionContext(unit.id),
                None,
                None if offered else partial(why_no_shot, battle, unit),
            )
        )
        if not isinstance(picked, str):
            action, targets = picked
            target = choose_target(battle, unit, targets)
    if picked == RUN:
        run(battle, unit)
        return
    if isinstance(picked, str):
        battle.say("shooting", f"{unit.label} holds its fire")
        return
    orders = orders_against(battle, target, action.orders())
    if orders.into_melee:
        battle.emit(ShootsIntoMelee(unit.label, target.label))
    result = shooting_attack(battle, unit, target, orders)
    st(battle, unit).shot_target = target.id
    after_shooting(battle, unit, target, result, orders)
    if battle_focus(unit) and can_run(battle, unit) and not unit.destroyed:
        run_after_shooting(battle, unit)


def run_after_shooting(battle: Battle, unit: Unit) -> None:
    """Battle Focus (:func:`special_rules.battle_focus`): the unit that shot may Run."""
    ran = battle.decide(
        Decision(
            kind="battle_focus",
            player=unit.player,
            prompt=f"Battle Focus: does {unit.label} Run after shooting?",
            choices=(Choice(HOLD, False), Choice(RUN, True)),
            context=DecisionContext(unit=unit.id),
        )
    )
    if ran:
        run(battle, unit)


def choose_target(battle: Battle, unit: Unit, targets: list[Unit]) -> Unit:
    """Seed 000 step 2: "Choose a Target".

    Into a melee (seed 001, Proposed Rule) this is the declaration of "which
    of the engaged units they are trying to hit".
    """
    return battle.decide(
        Decision(  # kind, player, prompt, choices, context: no keywords (docs/scale.md)
            "target",
            unit.player,
            f"Choose a target for {unit.label}",
            tuple(Choice(t.label, t) for t in targets),
            DecisionContext(unit.id),
        )
    )


def shooting_attack(battle: Battle, unit: Unit, target: Unit, orders: FireOrders) -> VolleyResult:
    """Seed 000 steps 3-7: fire weapon after weapon until none is left.

    "Select a weapon the firing unit is equipped with. All models equipped
    with a weapon with the same name can now shoot that weapon at the target."
    Each model fires one weapon (two for a Monstrous Creature), as in the
    6th/7th-edition rules.
    """
    result = VolleyResult()
    spent: Counter[str] = Counter()
    fired: set[str] = set()
    left: list[str] = []  # the weapons able to fire when one was last selected
    attack = Attack(unit, target, orders)
    for begin in battle.hooks.get(SHOOTING_ATTACK_BEGINS):
        begin(battle, attack)
    while not target.destroyed:
        with standing_still(battle):  # until the weapon is chosen: one position asked twice
            able = able_weapons(battle, unit, target, orders, spent, fired)
            dropped = [name for name in left if name not in fired and name not in able]
            for lost in left_unfired(unit, target, spent, dropped):
                battle.emit(lost)
            left = list(able)
            if not left:
                break
            choice = battle.decide(
                Decision(  # kind, player, prompt, choices, context, describe, not_offered
                    "weapon",
                    unit.player,
                    f"Select a weapon for {unit.label} against {target.label}",
                    weapon_choices(tuple(left)),
                    DecisionContext(unit.id, target.id),
                    describe_weapon(battle, unit, target, orders, spent),
                    partial(not_offered, battle, unit, target, orders, spent, fired, able),
                )
            )
        if not choice:
            break
        fired.add(choice)
        # Answering the decision changes nothing: the models found able fire.
        result.merge(fire_weapon(battle, unit, target, choice, orders, spent, able[choice]))
    return result


@lru_cache(maxsize=1024)
def weapon_choices(names: tuple[str, ...]) -> tuple[Choice[str], ...]:
    """The choices of a ``weapon`` decision: each of the weapons ``names`` by its name,
    then ``stop``. Remembered by the names (choices are frozen, so one tuple serves every
    decision that offers those weapons: one a weapon of every shooting attack)."""
    return (*(Choice(w, w) for w in names), Choice("stop", ""))


def after_shooting(
    battle: Battle, unit: Unit, target: Unit, result: VolleyResult, orders: FireOrders
) -> None:
    """Pinning tests, what installed rules do after the attack (Suppressive Fire's
    Morale check), then step 8: reactions."""
    for unit_id in sorted(result.pinning):
        pinning_test(battle, battle.unit(unit_id), f"pinning weapons of {unit.label}")
    attack = Attack(unit, target, orders)
    for after in battle.hooks.get(AFTER_SHOOTING_ATTACK):
        after(battle, attack, result)
    reactions_to_shooting(battle, unit, result)


OPEN: Transpositions[tuple[int, ...]] = Transpositions()
""":func:`reactions_open`'s answers by position: the places of the reactions open."""


def reactions_open(battle: Battle, unit: Unit, shooter: Unit) -> list[Reaction]:
    """The reactions to shooting installed (:data:`points.REACTIONS_TO_SHOOTING`) that
    ``unit``, hit by ``shooter``, may take now; remembered by position (:data:`OPEN`),
    each by its place among them, as :func:`shooting_actions` is."""
    every = battle.hooks.get(REACTIONS_TO_SHOOTING)
    return OPEN.recall(
        lambda: (position_key(battle), unit.id, shooter.id),
        lambda: [r for r in every if r.available(battle, unit, shooter)],
        lambda open_: tuple(p for p, r in enumerate(every) if any(r is o for o in open_)),
        lambda places: [every[place] for place in places],
    )


def reactions_to_shooting(battle: Battle, shooter: Unit, result: VolleyResult) -> None:
    """Seed 000 step 8 and "Reaction to shooting".

    "After the nominated unit has resolved all of its shooting attacks. Any
    unit hit by the attacks may react" with one of the reactions installed
    (:data:`points.REACTIONS_TO_SHOOTING`: Return Fire! and Dive for Cover,
    ``editions/waffle/rules/reactions.py``). "A unit may only use a single
    Reaction to Shooting per shooting phase." Units locked in combat cannot
    react. A unit with no reaction available is not asked.
    """
    for unit_id in result.hits:
        unit = battle.units[unit_id]
        status = st(battle, unit)
        if unit.player == shooter.player or unit.destroyed or shooter.destroyed:
            continue
        if status.locked_in_combat or status.reacted_this_phase:
            continue
        with standing_still(battle):  # the reactions open to it, and its answer
            available = reactions_open(battle, unit, shooter)
            if not available:
                continue
            options: list[Choice[Reaction | None]] = [Choice(r.label, r) for r in available]
            options.append(Choice(NO_REACTION, None))
            reaction = battle.decide(
                Decision(  # kind, player, prompt, choices, context: no keywords (scale.md)
                    "reaction",
                    unit.player,
                    f"{unit.label} was hit by {shooter.label}: react?",
                    tuple(options),
                    DecisionContext(unit.id, "", shooter.id),  # unit, target, attacker
                )
            )
        if reaction is None:
            continue
        status.reacted_this_phase = True
        # unit, reaction, against: in field order, no keywords (docs/scale.md)
        battle.emit(ReactionDeclared(unit.label, reaction.label, shooter.label))
        reaction.resolve(battle, unit, shooter)


def snap_fire_weapons(unit: Unit) -> list[str]:
    """The unit's ranged weapons that can be fired as Snap Shots.

    Seed 000, Snap Shots: "Some weapon types, such as Template and Ordnance)
    or those that have certain special rules, such as Blast, cannot be fired
    as Snap Shots."
    """
    names = []
    for name in ranged_weapons(unit):
        weapon = next(w for m in unit.alive_models if (w := m.weapon(name)) is not None)
        if weapon_of(weapon).can_snap_fire:
            names.append(name)
    return names


def action_follow_ups(battle: Battle, unit: Unit) -> list[tuple[tuple[str, str], ...]]:
    """What a unit picked to shoot may do (the ``action`` decision it is asked first)
    and, when it shoots, at whom (the ``target`` decision :func:`choose_target`
    asks next): one shooting action and target each, then Run and hold."""
    shots = [
        (("action", action.label), ("target", target.label))
        for action, targets in shooting_actions(battle, unit)
        for target in targets
    ]
    others = [RUN] * can_run(battle, unit) + [HOLD]
    return [*shots, *((("action", label),) for label in others)]


SHOOTING = Phase(
    "shooting",
    begin=_begin,
    picks=Picks(
        "shooter",
        "Nominate a unit to shoot (or run), or end the phase",
        _shooters,
        unit_shooting_action,
        follow_ups=action_follow_ups,
    ),
    end=_end,
)
"""Seed 000: "Once you've completed this shooting sequence with one of your
units, select another and repeat the sequence" until the player is done."""
