"""Chances and values the AI plans with: charges, Fall Backs, Morale, going to ground.

Dice are counted exactly over their faces, through the rules' functions where
the rules have one: the charge dice (:func:`charge.charge_dice`,
:func:`charge.charge_range_of`, Fleet's :func:`charge.fleet_rerolls`,
difficult terrain by :func:`charge.slowed_by_terrain`, which Move Through Cover
spares), the distance
to a unit's own table edge (``Player.distance_to_edge``), a Fall Back's
dice (fast units roll 3D6: :func:`movement.is_fast`). The Leadership test
(2D6 at or under Leadership, a double 1 always passing, Stubborn ignoring
penalties to Morale) has no pure function in ``morale.py``:
:func:`leadership_pass_chance` counts its faces the way
:func:`morale.leadership_test` reads them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import product

import numpy as np

from hammerlab.editions.distributions import FACES, Vector, sum_chances, vector
from hammerlab.editions.schedule import turns_ahead
from hammerlab.editions.waffle.charge import (
    NO_CHARGE_AFTER,
    charge_dice,
    charge_distance,
    charge_range_of,
    fleet_rerolls,
    slowed_by_terrain,
    way_in,
)
from hammerlab.editions.waffle.combat import locks
from hammerlab.editions.waffle.expected import (
    PLAIN_ORDERS,
    attack_volleys,
    expected_attack,
    expected_melee,
    melee_exchange,
    volley_of,
)
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.morale import (
    MORALE_CHECK,
    PINNING_TEST,
    acts_normally_on_regrouping,
    morale_check_penalty,
    pass_chance,
    takes_pinning_test,
    takes_shooting_check,
)
from hammerlab.editions.waffle.movement import fall_back_dice, move_allowance
from hammerlab.editions.waffle.odds import shooting_odds
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.placement import EPSILON
from hammerlab.editions.waffle.points import REACTIONS_TO_CHARGE
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.rules.reactions import OVERWATCH, overwatch_orders
from hammerlab.editions.waffle.rules.suppressive_fire import (
    LD_PENALTY,
    SUPPRESS,
    SUPPRESSIVE_FIRE,
    suppression_test,
    wounds_counted,
)
from hammerlab.editions.waffle.special_rules import relentless
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import may_charge, may_move
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle
from hammerlab.engine.memo import per_decision
from hammerlab.engine.units import Unit

MOVEMENT_PHASE, SHOOTING_PHASE, ASSAULT_PHASE = "movement", "shooting", "assault"
"""The Waffle turn's phases (``ruleset.phases``) whose turns to come the values
read (:func:`schedule.turns_ahead`): a game's plan may leave any of them out."""


def move_ahead(battle: Battle, unit: Unit) -> float:
    """How far ``unit`` moves in its next turn before it charges: its move allowance
    (:func:`movement.move_allowance`) when its turns to come have a Movement
    phase, else nothing."""
    return move_allowance(unit) if turns_ahead(battle, unit.player, MOVEMENT_PHASE) else 0.0


def shoots_again(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit``'s side has a Shooting phase still to come after this turn."""
    return turns_ahead(battle, unit.player, SHOOTING_PHASE) > 0


def lock_spares_shooting(battle: Battle, shooter: Unit, foe: Unit) -> bool:
    """Whether a fight of ``shooter`` with ``foe`` spares ``foe`` ``shooter``'s shooting
    next turn: it has a Shooting phase to come (:func:`shoots_again`) and the two lock
    each other in combat (seed 001: a unit locked in combat cannot shoot), which a
    vehicle without a Weapon Skill never does (:func:`combat.locks`: "never locked in
    combat", the tank may drive off and shoot)."""
    return locks(shooter) and locks(foe) and shoots_again(battle, shooter)


@cache
def reach_chance(needed: int, dice: int, drop_highest: bool, fleet: bool) -> float:
    """Chance a charge roll of ``dice`` D6 reaches ``needed`` inches.

    Counted over every face: the range is :func:`charge.charge_range_of`; a
    Fleet unit whose roll falls short re-rolls the dice
    :func:`charge.fleet_rerolls` picks, as :func:`charge.roll_charge_range` does.
    Whole inches suffice: the range is a whole number.
    """
    reached = 0.0
    for roll in product(FACES, repeat=dice):
        if charge_range_of(roll, drop_highest) >= needed:
            reached += 1
            continue
        again = fleet_rerolls(roll, float(needed), drop_highest) if fleet else ()
        if not again:
            continue
        hits = 0
        for faces in product(FACES, repeat=len(again)):
            rolled = list(roll)
            for at, face in zip(again, faces, strict=True):
                rolled[at] = face
            hits += charge_range_of(rolled, drop_highest) >= needed
        reached += hits / float(6 ** len(again))
    return reached / float(6**dice)


def charge_chance(battle: Battle, unit: Unit, target: Unit, closer: float = 0.0) -> float:
    """Chance ``unit``'s charge at ``target`` reaches, standing ``closer`` inches nearer
    (negative: farther): the roll :func:`charge.roll_charge_range` makes, with
    its dice (the difficult-terrain dice unless Move Through Cover spares them:
    :func:`charge.slowed_by_terrain`) and Fleet's re-rolls.

    A target beyond the longest charge is out of reach whatever the dice, so
    whether the way crosses difficult terrain (a path traced past every
    terrain area per model) is asked only of one within it. Standing where it
    is (``closer`` 0), a target no charging model could touch even on the
    longest roll (:func:`charge.way_in`: ringed by other enemy units, every
    spot taken) is out of reach too; a move's ``closer`` is not traced so."""
    distance = charge_distance(unit, target) - closer
    if distance > battle.settings.number("max_charge_range") + EPSILON:
        return 0.0
    difficult = slowed_by_terrain(battle, unit, target)
    needed = max(0, math.ceil(distance - EPSILON))
    dice = charge_dice(battle, difficult)
    if not closer and not way_in(battle, unit, target, charge_range_of((6,) * dice, difficult)):
        return 0.0  # no model could touch the target even on the longest roll
    return reach_chance(needed, dice, difficult, unit.has_rule("Fleet"))


def edge_gap(battle: Battle, unit: Unit) -> float:
    """How far the unit's closest model is from its own table edge (as
    :func:`movement.fall_back` measures it: a roll this long takes it off)."""
    player = battle.player(unit.player)
    return min(
        player.distance_to_edge(battle.battlefield, m.position) - m.radius
        for m in unit.alive_models
    )


def off_table_chance(battle: Battle, unit: Unit) -> float:
    """Chance a Fall Back move from here reaches the unit's own table edge (the unit is lost)."""
    gap = edge_gap(battle, unit)
    return sum(p for total, p in sum_chances(fall_back_dice(unit)).items() if total >= gap)


def caught_chance(battle: Battle, charger: Unit, unit: Unit) -> float:
    """Chance ``charger`` still reaches ``unit`` after it Falls Back and stays on the
    table: its charge must cover the Fall Back distance too (the unit flees
    straight away from it, the shortest route to its edge being taken as such)."""
    gap = edge_gap(battle, unit)
    return sum(
        p * charge_chance(battle, charger, unit, closer=-total)
        for total, p in sum_chances(fall_back_dice(unit)).items()
        if total < gap
    )


def chased_chance(battle: Battle, charger: Unit, unit: Unit) -> float:
    """Chance ``charger`` misses ``unit`` as it Falls Back and stays on the table, then
    reaches it with its next charge, after a move toward it (its move allowance):
    a Fall Back only postpones a fight the charger can still bring next turn.
    None when the charger has no Assault phase to come (:func:`schedule.turns_ahead`).

    Counted over the Fall Back roll as :func:`caught_chance`; a Regroup test the
    unit may fail before then (falling back further) is not counted."""
    if not turns_ahead(battle, charger.player, ASSAULT_PHASE):
        return 0.0
    gap = edge_gap(battle, unit)
    move = move_ahead(battle, charger)
    return sum(
        p
        * (1 - charge_chance(battle, charger, unit, closer=-total))
        * charge_chance(battle, charger, unit, closer=move - total)
        for total, p in sum_chances(fall_back_dice(unit)).items()
        if total < gap
    )


def leadership_pass_chance(battle: Battle, unit: Unit, penalty: int, morale: bool = True) -> float:
    """Chance the unit passes a Morale check at ``penalty`` (with its own penalty this
    turn, :func:`morale.morale_check_penalty`), or else a Pinning test at ``penalty``,
    read off the rule's own test (:func:`morale.pass_chance`: Fearless passes
    without a roll, Stubborn ignores penalties, a double 1 passes)."""
    if morale:
        return pass_chance(battle, unit, MORALE_CHECK, -morale_check_penalty(battle, unit, penalty))
    return pass_chance(battle, unit, PINNING_TEST, -penalty)


def may_charge_after_firing(unit: Unit, weapons: list[str]) -> bool:
    """Whether ``unit`` may still charge after firing ``weapons`` (seed 004: not after
    Rapid Fire, Salvo, Ordnance or Heavy weapons, unless Relentless)."""
    return relentless(unit) or all(_leaves_charge(unit, w) for w in weapons)


def charge_keeping_weapons(unit: Unit) -> list[str]:
    """The unit's ranged weapons whose firing leaves its charge open
    (:func:`may_charge_after_firing` of each: Relentless, asked once, keeps them all)."""
    every = ranged_weapons(unit)
    if relentless(unit):
        return list(every)  # a list of its own, as for any other unit
    return [w for w in every if _leaves_charge(unit, w)]


def _leaves_charge(unit: Unit, weapon_name: str) -> bool:
    """Whether firing ``weapon_name`` leaves a unit that is not Relentless its charge:
    its type is none of those after which seed 004 bars it (:data:`charge.NO_CHARGE_AFTER`)."""
    return _base_type(unit, weapon_name) not in NO_CHARGE_AFTER


def _base_type(unit: Unit, weapon_name: str) -> str:
    weapon = next(w for m in unit.alive_models if (w := m.weapon(weapon_name)) is not None)
    return weapon_of(weapon).base_type


def overwatch_threat(battle: Battle, charger: Unit, target: Unit) -> float:
    """Expected casualties the charger would take from the target's Overwatch, when the
    installed reactions offer it."""
    offered = [
        r
        for r in battle.hooks.get(REACTIONS_TO_CHARGE)
        if r.label == OVERWATCH and r.available(battle, target, charger)
    ]
    if not offered or st(battle, target).reacted_this_turn or st(battle, target).locked_in_combat:
        return 0.0
    return expected_attack(battle, target, charger, overwatch_orders(battle))


@dataclass(frozen=True)
class ChargeValue:
    """What declaring a charge is worth, in models, each worth what the victory
    condition gives for it (:func:`victory_worth.model_worth`): the fields
    count models, :attr:`value` weighs them."""

    chance: float
    """Chance the charge reaches."""
    dealt: float
    """Models of the target the first round of the fight is expected to slay."""
    taken: float
    """Models of the charger it is expected to lose in that round."""
    spared: float
    """What the target's shooting would kill next turn of the charger's models that
    survive the fight: a unit locked in combat cannot shoot (seed 001), so a
    charge that reaches spares them (a charger wiped out in the fight spares
    nothing; nor does a charge at a target with no Shooting phase to come, nor
    one at a vehicle without a Weapon Skill, never locked:
    :func:`lock_spares_shooting`)."""
    overwatch: float
    """What the target's Overwatch is expected to kill first."""
    worths: tuple[float, float] = (1.0, 1.0)
    """What a model of the charger and one of the target are worth
    (:func:`victory_worth.model_worth`)."""
    forestalled: float = 0.0
    """What the target's own charge at the charger next turn is worth to it
    (:func:`counter_charge`): a charge that reaches locks both in combat, so
    the target cannot charge (it has Furious Charge, the charge's bonus
    Attack and the first blows no more); a charge not declared leaves it
    that."""

    @property
    def value(self) -> float:
        """Models gained, net, against not charging: if it reaches, the fight's
        edge, the shooting it spares and the enemy charge it forestalls; less
        the Overwatch it takes either way."""
        return self.against(self.overwatch)

    def against(self, overwatch: float) -> float:
        """:attr:`value` were the Overwatch it takes ``overwatch`` models (the same
        arithmetic, for :func:`charge_gain`, which asks the Overwatch only where it can
        matter: no copy of the record made to read it)."""
        return self.unopposed - overwatch * self.worths[0]

    @property
    def unopposed(self) -> float:
        """:attr:`value` before the Overwatch: what reaching is worth, times its chance."""
        own, theirs = self.worths
        edge = self.dealt * theirs - (self.taken - self.spared) * own + self.forestalled
        return self.chance * edge


def charge_value(battle: Battle, unit: Unit, target: Unit, closer: float = 0.0) -> ChargeValue:
    """The value of ``unit`` charging ``target`` (from ``closer`` inches nearer)
    against doing nothing."""
    before = _before_overwatch(battle, unit, target, closer)
    if before.chance <= 0.0:
        return before
    return replace(before, overwatch=overwatch_threat(battle, unit, target))


def _before_overwatch(
    battle: Battle, unit: Unit, target: Unit, closer: float, chance: float | None = None
) -> ChargeValue:
    """:func:`charge_value` with no Overwatch counted yet (``overwatch`` 0);
    ``chance``, where given, is :func:`charge_chance`'s answer for the same
    charge, asked by the caller in the same state."""
    if chance is None:
        chance = charge_chance(battle, unit, target, closer)
    if chance <= 0.0:
        return ChargeValue(0.0, 0.0, 0.0, 0.0, 0.0)
    dealt, taken = melee_exchange(battle, unit, target)
    survivors = 1 - taken / max(1, len(unit.alive_models))
    spared = 0.0
    if lock_spares_shooting(battle, target, unit):
        spared = expected_attack(battle, target, unit, PLAIN_ORDERS) * survivors
    worths = (model_worth(battle, unit), model_worth(battle, target))
    return ChargeValue(chance, dealt, taken, spared, 0.0, worths)


def charge_or_be_charged(battle: Battle, unit: Unit, target: Unit) -> ChargeValue:
    """The value of ``unit`` charging ``target`` now, weighed against being charged
    by ``target`` next turn (:func:`counter_charge`) instead of against doing
    nothing: what the charge decisions weigh.

    Only a charge that wins its own first round (more slain than lost) counts
    the charge it forestalls: a unit that loses either fight has other answers
    (its shooting, Fall Back when charged) that a round's exchange does not
    weigh, and counting it sent Guardsmen into Terminators (measured:
    docs/ai.md)."""
    return _forestalling(battle, unit, target, charge_value(battle, unit, target))


def _forestalling(battle: Battle, unit: Unit, target: Unit, plain: ChargeValue) -> ChargeValue:
    """``plain`` with the charge it forestalls, if it wins its first round
    (:func:`charge_or_be_charged`): what ``target``'s charge at ``unit`` next
    turn would be worth to it beyond the fight it gets anyway
    (:func:`fight_goes_on`), none below zero."""
    if plain.chance <= 0.0 or plain.dealt <= plain.taken:
        return plain
    counter = counter_charge(battle, target, unit)
    if counter <= 0.0:
        return plain
    return replace(plain, forestalled=max(0.0, counter - fight_goes_on(battle, target, unit)))


def fight_goes_on(battle: Battle, enemy: Unit, unit: Unit) -> float:
    """What ``enemy`` nets in its own next turn from a fight with ``unit`` that
    ``unit``'s charge started: a round with no charge bonus, every model of
    both sides fighting (as a pile-in brings them; :func:`fight_net`'s later
    rounds), plus ``unit``'s shooting at it that the lock spares it (seed 001:
    a unit locked in combat cannot shoot; none with no Shooting phase to
    come, nor where the two do not lock: :func:`lock_spares_shooting`). Its
    own charge would have brought it that shooting spared too, and the charge
    bonus on top: only the difference is forestalled.

    *Situation*: a Mortar Squad 7" from fourteen Hormagaunts, whose charge
    wins its first round (only the few Hormagaunts near them fight back);
    counting the Hormagaunts' whole charge next turn as forestalled made the
    mortars hold their fire to charge, though the fight goes on in the
    Tyranids' turn with every Hormagaunt striking."""
    theirs = expected_melee(battle, enemy, enemy.alive_models, unit, False)
    ours = expected_melee(battle, unit, unit.alive_models, enemy, False)
    # The shooting spared counts only ``enemy``'s models the round leaves, as
    # :func:`charge_value`'s does the charger's.
    survivors = 1 - ours / max(1, len(enemy.alive_models))
    spared = 0.0
    if lock_spares_shooting(battle, unit, enemy):
        spared = expected_attack(battle, unit, enemy, PLAIN_ORDERS) * survivors
    return theirs * model_worth(battle, unit) - (ours - spared) * model_worth(battle, enemy)


def charge_gain(
    battle: Battle,
    unit: Unit,
    target: Unit,
    closer: float = 0.0,
    *,
    forestalling: bool = False,
    chance: float | None = None,
) -> float:
    """What a charge gains, never below zero: ``max(0, value)`` of :func:`charge_value`
    (of :func:`charge_or_be_charged` when ``forestalling``), for the decisions
    that count only a gain (the shooting plan, the charger, the best charge,
    the counter-charge). ``chance``, where given, is the charge's
    :func:`charge_chance` (from ``closer``), already asked by the caller in the
    same state: it is not asked again.

    The same number with less work: the Overwatch it takes (never negative) is
    worked out only when it can matter. The charge it forestalls
    (:func:`_forestalling`) reads the chance and the first round's exchange, never
    the Overwatch, so it is counted first; a charge that gains nothing before the
    Overwatch (forestalling included) gains nothing after it either, and the
    answer is 0 without asking the target's Overwatch. Where it is asked, it is
    taken off :attr:`ChargeValue.unopposed` as :attr:`ChargeValue.value` takes it
    (the same arithmetic, without a copy of the record to read it from).
    """
    before = _before_overwatch(battle, unit, target, closer, chance)
    if before.chance <= 0.0:
        return 0.0
    if forestalling:
        before = _forestalling(battle, unit, target, before)
    if before.unopposed <= 0.0:
        return 0.0  # the Overwatch only lowers it
    return max(0.0, before.against(overwatch_threat(battle, unit, target)))


def counter_charge(
    battle: Battle, enemy: Unit, unit: Unit, nearer: float = 0.0, *, chance: float | None = None
) -> float:
    """What ``enemy`` charging ``unit`` next turn, after its move, is worth to it
    (its own :func:`charge_value`, with its charge bonus; none below zero: it
    would not declare it, nor when it may not charge: a vehicle, or locked in
    combat), with ``unit`` standing ``nearer`` inches closer first (a Run
    toward it). 0 also when it would rather shoot ``unit`` than charge it
    (:func:`shoots_rather_than_charges`). ``chance``, where given, is
    :func:`counter_charge_chance`'s answer for the same charge, asked by the
    caller in the same state: it is not worked out again (nor its
    :func:`charge_chance`, the same number where it is above 0)."""
    if chance is None:
        chance = counter_charge_chance(battle, enemy, unit, nearer)
    if chance <= 0.0:
        return 0.0
    closer = move_ahead(battle, enemy) + nearer
    gain = charge_gain(battle, enemy, unit, closer, chance=chance)
    if gain <= 0.0 or shoots_rather_than_charges(battle, enemy, unit, gain):
        return 0.0
    return gain


def shoots_rather_than_charges(battle: Battle, enemy: Unit, unit: Unit, gain: float) -> bool:
    """Whether ``enemy``, whose charge at ``unit`` would gain it ``gain``, would
    rather shoot ``unit`` with weapons that forbid the charge (seed 004: none
    after Rapid Fire, Salvo, Ordnance or Heavy weapons, unless Relentless), as
    its own shooting plan weighs it (``shooting_plans.shooting_plan``): its casualties
    with every weapon are worth more than with its charge-keeping weapons
    plus the charge.

    *Situation*: eleven Ork Boyz 14" from a Tactical Squad that stands and
    fires its boltguns, whose charge would win it the fight, but whose Rapid
    Fire is worth more to it: the Boyz need not step back from a charge that
    never comes (before, they retreated from it, and were shot all the
    same). Judged from where both stand now; an enemy out of range of
    ``unit``, or with no Shooting phase to come (:func:`shoots_again`), has no
    shooting to prefer, so its charge counts."""
    if not shoots_again(battle, enemy):
        return False
    every = ranged_weapons(enemy)
    if may_charge_after_firing(enemy, every):
        return False
    worth = model_worth(battle, unit)
    shooting = expected_attack(battle, enemy, unit, PLAIN_ORDERS) * worth
    keeping = charge_keeping_weapons(enemy)
    kept = expected_attack(battle, enemy, unit, PLAIN_ORDERS, keeping) * worth if keeping else 0.0
    return shooting > kept + gain


def counter_charge_chance(battle: Battle, enemy: Unit, unit: Unit, nearer: float = 0.0) -> float:
    """Chance ``enemy``'s charge at ``unit`` next turn, after its move, reaches
    (:func:`charge_chance`), ``unit`` standing ``nearer`` inches closer first:
    0 when it may not charge (a vehicle, locked in combat, or a Walker that cannot
    move: Immobilised for good, Crew Stunned until the end of its next turn,
    :func:`vehicles.may_move`) or its side has no Assault phase to come
    (:func:`schedule.turns_ahead`), as then :func:`counter_charge` is 0. The cheap
    part of the counter-charge, asked first (no fight is worked out for a charge
    that cannot happen). Its move first is :func:`move_ahead`."""
    if not may_charge(enemy) or st(battle, enemy).locked_in_combat:
        return 0.0
    if not may_move(battle, enemy):
        return 0.0
    if not turns_ahead(battle, enemy.player, ASSAULT_PHASE):
        return 0.0
    return charge_chance(battle, enemy, unit, move_ahead(battle, enemy) + nearer)


@per_decision
def fight_net(battle: Battle, charger: Unit, unit: Unit) -> float:
    """What the fight ``charger``'s charge brings ``unit`` nets it to its end, in
    models, each worth what the victory condition gives for it
    (:func:`victory_worth.model_worth`): the charger's models it slays less its
    own models slain, until one side is expected to be destroyed.

    The first round is the charge's (:func:`expected.melee_exchange`); each
    round after it is the same fight with no charge bonus
    (:func:`expected.expected_melee` with ``charged`` false, every model of
    both sides fighting, as a pile-in brings them), at the same rate to the
    end: neither side's losses slow its blows, and Morale (a Fall Back, a
    Sweeping Advance) is not counted. The fight ends when the side whose
    models left last the fewer such rounds is gone (both rates nil: after
    the first round)."""
    slain, lost = melee_exchange(battle, charger, unit)
    own = _Side(float(len(unit.alive_models)), slain)
    theirs = _Side(float(len(charger.alive_models)), lost)
    own_rate = expected_melee(battle, charger, charger.alive_models, unit, False)
    their_rate = expected_melee(battle, unit, unit.alive_models, charger, False)
    rounds = min(own.lasts(own_rate), theirs.lasts(their_rate))
    return theirs.lost(their_rate, rounds) * model_worth(battle, charger) - own.lost(
        own_rate, rounds
    ) * model_worth(battle, unit)


@dataclass(frozen=True)
class _Side:
    """One side of :func:`fight_net`'s fight: its models, and those the first round slays."""

    models: float
    first: float

    def lasts(self, rate: float) -> float:
        """Rounds after the first its models left last when ``rate`` are slain a round."""
        left = max(0.0, self.models - self.first)
        if left <= 0.0:
            return 0.0
        return left / rate if rate > 0.0 else math.inf

    def lost(self, rate: float, rounds: float) -> float:
        """Its models slain in the first round and ``rounds`` more (never more than it has)."""
        later = rate * rounds if rate > 0.0 else 0.0
        return min(self.models, self.first + later)


def best_charge(battle: Battle, unit: Unit, closer: float = 0.0) -> tuple[Unit | None, float]:
    """The enemy unit ``unit`` would best charge (ignoring what barred it now), and
    the value; ``(None, 0)`` when no charge is worth declaring."""
    best: tuple[Unit | None, float] = (None, 0.0)
    for enemy in battle.enemies_of(unit):
        if st(battle, enemy).locked_in_combat:
            continue
        value = charge_gain(battle, unit, enemy, closer)  # none below zero counts here
        if value > best[1]:
            best = (enemy, value)
    return best


def next_charge(battle: Battle, unit: Unit, nearer: float = 0.0) -> float:
    """What ``unit``'s best charge in its next turn gains (:func:`best_charge`),
    after the move it makes first (:func:`move_ahead`), standing ``nearer``
    inches closer to every enemy first (a Run toward them); nothing when its
    side has no Assault phase to come (:func:`schedule.turns_ahead`)."""
    if not turns_ahead(battle, unit.player, ASSAULT_PHASE):
        return 0.0
    return best_charge(battle, unit, closer=move_ahead(battle, unit) + nearer)[1]


def next_turn_value(battle: Battle, unit: Unit) -> float:
    """What the unit expects to do in its next turn if it is free to, in models
    (each worth what the victory condition gives for it:
    :func:`victory_worth.model_worth`).

    Going to ground or falling back loses it (the unit then cannot move or
    charge, and fires Snap Shots). The most of: its best charge after a move
    nearer; its shooting less the same as Snap Shots; and, for a unit still
    closing in on a charge worth declaring (within two moves), the turn of
    enemy fire a lost move adds before it gets there (what every enemy unit's
    shooting is expected to kill of it). Never negative (a charge not worth
    declaring counts 0). Only what the game still plays counts
    (:func:`schedule.turns_ahead`): no shooting without a Shooting phase to
    come, no charge without an Assault phase, no move before it without a
    Movement phase, no delay without a second turn to charge in; a unit whose
    side has no turn to come loses nothing.
    """
    return max(next_turn_parts(battle, unit))


def next_turn_parts(battle: Battle, unit: Unit) -> Iterator[float]:
    """The values :func:`next_turn_value` is the most of, the cheapest first (the
    shooting, then the charge, then the delay), one at a time: a caller that
    only needs to know whether the value reaches some bar stops at the first
    part that does, before the charges' fights are worked out."""
    if shoots_again(battle, unit):
        enemies = battle.enemies_of(unit)
        shots = max([0.0, *(_shot_worth(battle, unit, e, PLAIN_ORDERS) for e in enemies)])
        snaps = max([0.0, *(_shot_worth(battle, unit, e, FireOrders(snap=True)) for e in enemies)])
        yield shots - snaps
    else:
        yield 0.0
    charges = turns_ahead(battle, unit.player, ASSAULT_PHASE)
    if not charges:
        return
    charge = next_charge(battle, unit)
    yield charge
    move = move_ahead(battle, unit)
    if charges < 2 or move <= 0 or charge > 0:
        return
    if best_charge(battle, unit, closer=2 * move)[1] > 0:
        yield exposure(battle, unit) * model_worth(battle, unit)


def _shot_worth(battle: Battle, unit: Unit, enemy: Unit, orders: FireOrders) -> float:
    """``unit``'s expected casualties on ``enemy`` times what each is worth."""
    return expected_attack(battle, unit, enemy, orders) * model_worth(battle, enemy)


def exposure(battle: Battle, unit: Unit) -> float:
    """What every enemy unit's shooting is expected to kill of ``unit`` in a turn, as
    it stands (a unit locked in combat is spared it: seed 001, "models can
    shoot at units locked in close combat" only under the proposed rule, and
    then as Snap Shots); nothing when the enemy has no Shooting phase to come
    (:func:`schedule.turns_ahead`)."""
    if not turns_ahead(battle, battle.opponent(unit.player), SHOOTING_PHASE):
        return 0.0
    total = sum(expected_attack(battle, e, unit, PLAIN_ORDERS) for e in battle.enemies_of(unit))
    return min(total, float(len(unit.alive_models)))


def suppression_value(battle: Battle, unit: Unit, target: Unit) -> float:
    """What Suppressive Fire at ``target`` is worth, in models (each worth what the
    victory condition gives for it: :func:`victory_worth.model_worth`),
    against shooting it.

    Seed 000: nothing is removed, but "if the target unit would have suffered
    enough wounds to take a Morale check" it tests at -1 Ld per wound. The
    chance of reaching the threshold (parameter ``morale_threshold`` of the
    models it had at the start of the phase) is read off the exact
    distribution of would-be casualties (:func:`odds.shooting_odds`, one
    volley per weapon fired, added: :func:`expected.attack_volleys`, each
    model firing its quota of weapons, not every weapon it carries); the
    penalty is the expected Wounds the rule counts (unsaved, or lost under
    ``suppressive_fire.wounds_counted=lost``: :func:`would_be_casualties`) times the
    parameter ``ld_penalty_per_wound``. What counts is the chance of breaking the unit
    beyond what shooting it would give: the models shooting removes reach the
    same 25% as often, and make the unit test at the phase's end at its full
    Leadership (:func:`morale.phase_casualty_checks`), so a penalty of 0 is
    worth nothing, and Suppressive Fire's worth is the chance of reaching the
    threshold times the difference the penalty makes to the test. Breaking
    the unit is worth the models a Fall Back takes off its own table edge
    plus, unless it regroups at once (And They Shall Know No Fear), its next
    turn (:func:`next_turn_value`). The test is the one the installed rules say
    (:func:`suppressive_fire.suppression_test`, which asks each rule at Suppressive
    Fire's points whether it takes over): where a rule replaces the Morale check with
    a Pinning test (``suppressive_pinning``), a Pinning test at the same penalty, whose
    failure costs the unit its next turn, less what the Morale check shooting would
    have forced is worth; where a rule takes the action over (Shock Troops), or gives
    a test the AI cannot value, nothing. Worth nothing where the test is not
    taken at all (:func:`morale.takes_shooting_check`,
    :func:`morale.takes_pinning_test`): Fearless units, a unit locked in
    combat, and for a Morale check a unit already falling back or that took
    its one 25% check of the phase (``WaffleStatus.casualty_check_taken``:
    neither Suppressive Fire nor shooting makes it test again).

    *Situations*: Guardsmen shooting twenty Ork Boyz 14" off, two game
    turns (``examples/lab_suppressive_fire_horde.toml``). Valued at every
    weapon each model carries, and a blast marker's three models as sure
    hits, the first squad's Suppressive Fire was thought to reach the
    Boyz' 25% half the time (it did one time in fourteen), and the Guard lost
    4.9 models a decision for it (37 decisions, 29 worse by more than two
    standard errors, none better; ``examples/matchups/decision_duel.py
    --decline "action: suppressive fire" 1 20``); counting the weapons
    fired, 20 decisions, −0.41 ± 0.27 (64 playouts each). At a penalty of 0
    the Guard still suppressed after the first squad's shooting had brought
    the Boyz near their 25%, where shooting would have forced the same test
    and removed the models too: 17 decisions, 13 worse, −2.8 ± 0.4; since
    the test shooting forces is counted, none.

    *Situation*: Terminators whose Suppressive Fire was valued at breaking a
    Guard squad already falling back by its table edge (0.63 models against
    0.49 for shooting it), which takes no Morale check from shooting: played
    to the end, shooting was better each time (11 decisions in 200 games,
    ``examples/matchups/decision_duel.py --decline "action: suppressive
    fire"``).
    """
    settings = battle.settings
    test = suppression_test(battle, target)  # none where a rule takes over: Shock Troops
    if test not in (MORALE_CHECK, PINNING_TEST):
        return 0.0
    pinning = test == PINNING_TEST
    taken = takes_pinning_test if pinning else takes_shooting_check
    checked = st(battle, target).casualty_check_taken  # its one 25% check this phase
    if not taken(battle, target) or (checked and not pinning):
        return 0.0
    killed, wounds = would_be_casualties(battle, unit, target)
    start = st(battle, target).models_at_phase_start or len(target.alive_models)
    need = settings.number("morale_threshold") * start - st(battle, target).casualties_this_phase
    tested = float(sum(p for k, p in enumerate(killed) if k >= need - EPSILON))
    # Shooting it instead would remove those models, and the same 25% of them makes it
    # take a Morale check at the phase's end, at its full Leadership (unless it took
    # the phase's check already).
    shot = not checked and (not pinning or takes_shooting_check(battle, target))
    shot_breaks = tested * (1 - leadership_pass_chance(battle, target, 0)) if shot else 0.0
    penalty = round(wounds) * settings.integer(f"{SUPPRESSIVE_FIRE.name}.{LD_PENALTY.name}")
    # What the unit loses (never negative) is worked out only when it may be lost.
    if pinning:
        pinned = tested * (1 - leadership_pass_chance(battle, target, penalty, morale=False))
        value = pinned * next_turn_value(battle, target) if pinned > 0 else 0.0
        return value - shot_breaks * _breaking_cost(battle, target) if shot_breaks > 0 else value
    breaks = tested * (1 - leadership_pass_chance(battle, target, penalty)) - shot_breaks
    return breaks * _breaking_cost(battle, target) if breaks > 0 else 0.0


def _breaking_cost(battle: Battle, target: Unit) -> float:
    """What breaking ``target`` costs it, in models: those a Fall Back takes off its own
    table edge plus, unless it regroups at once (And They Shall Know No Fear), its
    next turn (:func:`next_turn_value`)."""
    lost = off_table_chance(battle, target) * len(target.alive_models) * model_worth(battle, target)
    if not acts_normally_on_regrouping(target):
        lost += next_turn_value(battle, target)
    return lost


def would_be_casualties(battle: Battle, unit: Unit, target: Unit) -> tuple[Vector, float]:
    """What a Suppressive Fire attack of ``unit`` at ``target`` would have done: the
    exact distribution of the models it would have removed, and the mean of the Wounds
    the rule counts (:func:`suppressive_fire.wounds_counted`: its unsaved wounds, or
    under ``wounds_counted=lost`` the wounds they would take off,
    ``ShootingOdds.mean_lost``); each volley the attack fires
    (:func:`expected.attack_volleys`) taken as :mod:`odds` takes it
    (:func:`expected.volley_of`), and the volleys added."""
    orders = FireOrders(action=SUPPRESS)
    killed = vector([1.0])
    unsaved = lost = 0.0
    for fired in attack_volleys(battle, unit, target, PLAIN_ORDERS):
        volley = volley_of(battle, unit, target, fired, orders)
        if volley is None:
            continue
        volley_odds = shooting_odds(*volley)
        killed = np.convolve(killed, vector(volley_odds.models_killed))
        unsaved += volley_odds.mean_unsaved
        lost += volley_odds.mean_lost
    return killed, wounds_counted(battle.settings, unsaved, lost)
