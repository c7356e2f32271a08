"""What the Waffle AI weighs a shooting phase by: the plan of a unit's activation
(:func:`shooting_plan`: whom it shoots, with which weapons, and the charge it keeps),
what a target is worth (:func:`target_value`, net of the shots that stray into a
melee: :func:`stray_risk`), which weapon to fire first (:func:`weapon_worth`,
:func:`weapon_first`) and what losing one costs (:func:`weapon_loss`), each in models
weighed by the victory condition."""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.schedule import still_to_play
from hammerlab.editions.waffle.attacks import firing_models, shot_bs
from hammerlab.editions.waffle.charge import charge_ban, charge_targets
from hammerlab.editions.waffle.estimate import p_hit
from hammerlab.editions.waffle.expected import (
    PLAIN_ORDERS,
    aim_value,
    can_hurt,
    even_either_way,
    expected_attack,
    expected_per_model,
    first_then_rest,
    likely_aim,
    per_firing_model,
)
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.melee_strays import melee_stray_units, stray_chance
from hammerlab.editions.waffle.orders import FireOrders, orders_against
from hammerlab.editions.waffle.plans import (
    ASSAULT_PHASE,
    charge_gain,
    charge_keeping_weapons,
    may_charge_after_firing,
)
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import may_target, targets_for
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.editions.waffle.wounds import typical_profile
from hammerlab.engine.battle import Battle
from hammerlab.engine.memo import per_decision
from hammerlab.engine.units import Unit

MELEE_RISK_RATIO = 4.0
"""Expected enemy casualties wanted per expected friendly one to shoot into a melee."""


def target_value(
    battle: Battle, unit: Unit, enemy: Unit, weapons: list[str] | None = None
) -> float:
    """What shooting ``enemy`` (with ``weapons``, default all) is worth: expected
    casualties, each worth what the victory condition gives for it
    (:func:`victory_worth.model_worth`), net of friendly fire.

    A unit locked in combat is worth -1 (never preferred) unless the rules let
    it be targeted (:func:`shooting.may_target`: the option
    ``shooting_into_combat``) and the expected enemy casualties' worth is at
    least :data:`MELEE_RISK_RATIO` times the friendly ones'.
    """
    worth = model_worth(battle, enemy)
    if not st(battle, enemy).locked_in_combat:
        return expected_attack(battle, unit, enemy, PLAIN_ORDERS, weapons) * worth
    if not may_target(battle, unit, enemy):
        return -1.0
    orders = orders_against(battle, enemy, PLAIN_ORDERS)
    gain = expected_attack(battle, unit, enemy, orders, weapons) * worth
    risk = stray_risk(battle, unit, enemy, orders)
    return gain - risk if gain > 0 and gain >= MELEE_RISK_RATIO * risk else -1.0


def stray_risk(battle: Battle, unit: Unit, enemy: Unit, orders: FireOrders) -> float:
    """What ``unit``'s own side loses (casualties times :func:`victory_worth.model_worth`)
    from its rolls that stray into ``enemy``'s melee.

    The shooter sends them to its engaged unit that would lose least. A Snap Shot hits
    with chance ``p`` (:func:`estimate.p_hit` at the BS :func:`attacks.shot_bs` gives the
    unit's most common model) and strays with chance ``s`` (:func:`melee_strays.stray_chance`,
    the rule's own count: a Twin-linked miss re-rolled may stray too), so the friendly
    casualties are those of snap-shooting that unit scaled by ``s``/``p``. Both are
    read Twin-linked where every ranged weapon the unit carries is (the estimate of the
    volley counts each weapon's own re-rolls; a unit mixing them is weighed as if none
    were). Strays hitting another player's unit cost nothing.
    """
    friends = [u for u in melee_stray_units(battle, unit, enemy) if u.player == unit.player]
    if not friends or unit.destroyed:
        return 0.0
    typical = typical_profile(unit)
    model = next(m for m in unit.alive_models if m.profile is typical)
    bs = shot_bs(battle, model, True)
    twin = all(
        weapon_of(weapon).has_rule("Twin-linked")
        for m in unit.alive_models
        for weapon in m.weapons
        if weapon_of(weapon).is_ranged
    )
    scale = stray_chance(bs, twin) / p_hit(bs, twin)
    return scale * min(
        expected_attack(battle, unit, f, orders) * model_worth(battle, f) for f in friends
    )


def weapon_worth(
    battle: Battle, unit: Unit, target: Unit, name: str, orders: FireOrders
) -> float | None:
    """What firing ``name`` at ``target`` is worth per firing model
    (:func:`expected.expected_per_model`), or ``None`` where it is not worth firing at
    all: it cannot hurt ``target`` (:func:`expected.can_hurt`: its Strength cannot
    wound the Toughness or beat the armour it faces, wherever it is fired from), or it
    is a blast whose aim the AI would take (:func:`expected.likely_aim`) is worth less
    than nothing (:func:`expected.aim_value`: its own models within a scatter's reach
    of the marker outweigh the enemy ones; a template is aimed only where it touches
    no friendly model, :func:`markers.aim_points`).

    The worth is asked with regular orders (``orders``): an Overwatch's weapon, fired
    as if the charger were within 1", may be worth 0 by them (out of its range) and is
    still fired, as any weapon worth 0 is, rather than stopping."""
    if not can_hurt(battle, unit, target, name):
        return None
    firers = firing_models(battle, unit, target, name, orders)
    worth = per_firing_model(battle, unit, target, name, orders, firers)
    if not firers:
        return worth
    weapon = firers[0].weapon(name)
    assert weapon is not None  # the firer's own weapon (attacks.firing_models)
    profile = weapon_of(weapon)
    if profile.blast:
        aim = likely_aim(battle, unit, firers[0], target, profile)
        if aim is not None and aim_value(battle, unit, firers[0], profile, aim) < 0:
            return None
    return worth


ORDER_TIE = 1e-9
"""Two orders of fire whose expected casualties differ by no more than this are even:
the same two volleys taken the other way round, rounding aside."""


def weapon_first(
    battle: Battle,
    unit: Unit,
    target: Unit,
    names: list[str],
    worths: list[float],
    orders: FireOrders,
) -> str:
    """Which of the weapons ``names`` (``""``: stop) to fire first at ``target``, each
    with its worth per firing model (:func:`weapon_worth`; below 0: not fired).

    Each weapon asks its range and sight when it is selected, after the casualties of
    those before it (seed 000, step 3), so a long gun fired first may slay the only
    models a shorter one reaches (a heavy bolter that slays the one Guardsman within
    24" of the boltguns). Of the weapons worth firing, each pair is weighed both ways:
    one, then the other at what it leaves of the target (:func:`expected.first_then_rest`),
    but for a pair sure to weigh alike either way (:func:`expected.even_either_way`: a
    target of one model), which is even.
    A weapon goes first only where no other is expected to slay more fired before it
    (by more than :data:`ORDER_TIE`); of those, the most expected casualties per firing
    model. Weighed pair by pair, each order is read whole: a weapon weighed against the
    rest of the volley at once would be read against a target the rest's own kills do
    not thin, which favours whichever weapon slays least. Where every weapon has one
    that goes better before it (no order is best pair by pair), the most per firing
    model, as with none in the way. With none worth firing, the most worth: stopping
    before a weapon never fired."""
    firing = [name for name, worth in zip(names, worths, strict=True) if name and worth >= 0]
    if len(firing) < 2:
        return names[worths.index(max(worths))]
    slain: dict[tuple[str, str], float] = {}

    def beaten(name: str, other: str) -> bool:  # ``other`` slays more fired before ``name``
        if even_either_way(battle, unit, target, name, other, orders):
            return False  # the two orders are estimated alike: not weighed
        for pair in ((other, name), (name, other)):
            if pair not in slain:
                slain[pair] = first_then_rest(battle, unit, target, pair[0], [pair[1]], orders)
        return slain[(other, name)] > slain[(name, other)] + ORDER_TIE

    def unbeaten(name: str) -> bool:
        return not any(beaten(name, other) for other in firing if other != name)

    def worth(name: str) -> float:
        return worths[names.index(name)]

    # The most per firing model first, unless another goes better before it: then
    # every pair is weighed (the answer is the same, most often for fewer pairs).
    most = max(firing, key=worth)
    if unbeaten(most):
        return most
    return max([name for name in firing if unbeaten(name)] or firing, key=worth)


def weapon_loss(battle: Battle, unit: Unit, name: str) -> float:
    """What losing one weapon called ``name`` costs ``unit``'s shooting (a Weapon
    Destroyed result: the attacker picks the weapon): the most one weapon of that
    name is expected to slay of an enemy unit from where it stands now
    (:func:`expected.expected_per_model`, each model weighed by
    :func:`victory_worth.model_worth`); 0 where it reaches none."""
    return max(
        [
            expected_per_model(battle, unit, foe, name, orders_against(battle, foe, PLAIN_ORDERS))
            * model_worth(battle, foe)
            for foe in battle.enemies_of(unit)
        ],
        default=0.0,
    )


@dataclass(frozen=True)
class ShotPlan:
    """What a unit means to do in its shooting phase, and what that is worth in models."""

    target: Unit | None
    """Whom it shoots (``None``: it holds its fire)."""
    keep_charge: bool
    """It fires only the weapons that leave its charge open."""
    value: float


def shooting_plan(battle: Battle, unit: Unit) -> ShotPlan:
    """The unit's best plan for its shooting phase, counting the charge that follows.

    Holding keeps every charge target (its value is the best
    :func:`plans.charge_or_be_charged`). Shooting a target limits the charge to that
    target (seed 004), and firing Rapid Fire, Salvo, Ordnance or Heavy weapons
    forbids it unless the unit is Relentless; so a target is worth its
    expected casualties with every weapon (plus its charge, if still allowed),
    or with the charge-keeping weapons plus its charge, whichever is more.

    No charge counts when the turn plays no Assault phase after this one
    (:func:`schedule.still_to_play`).

    Worked out once per activation: the plan is remembered (:func:`_plan`) by
    what it reads of the unit's shooting record (whether it may charge, and
    whom), so the shooter decision's plan serves the unit's action decision
    that follows in the same state.
    """
    may_charge = charge_ban(battle, unit) is None and still_to_play(battle, ASSAULT_PHASE)
    return _plan(battle, unit, may_charge, charge_targets(battle, unit))


@per_decision
def _plan(battle: Battle, unit: Unit, may_charge: bool, reachable: list[Unit]) -> ShotPlan:
    """:func:`shooting_plan` given whether the unit may charge and the units it could
    charge: the only things it reads of the shooting record
    (``state.SHOOTING_RECORD``), so it may be remembered per decision. Only a
    charge's gain counts (:func:`plans.charge_gain`): a charge worth nothing
    or less is worth holding or shooting instead."""
    charges = {
        t.id: charge_gain(battle, unit, t, forestalling=True) if may_charge else 0.0
        for t in reachable
    }
    best = ShotPlan(None, False, max([0.0, *charges.values()]))
    every = ranged_weapons(unit)
    keeping = charge_keeping_weapons(unit)
    for target in targets_for(battle, unit, PLAIN_ORDERS):
        charge = charges.get(target.id, 0.0)
        after = charge if may_charge_after_firing(unit, every) else 0.0
        plans = [ShotPlan(target, False, target_value(battle, unit, target) + after)]
        if charge > 0 and keeping != every:
            kept = target_value(battle, unit, target, keeping) if keeping else 0.0
            plans.append(ShotPlan(target, True, kept + charge))
        for plan in plans:
            if plan.value > best.value:
                best = plan
    return best
