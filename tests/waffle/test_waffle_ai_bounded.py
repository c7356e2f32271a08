"""The Waffle AI asks fewer questions and decides the same (issue 14 §1).

Each shortcut is held to the slow path it replaces, the exhaustive
computation written out here as it stood before: a charge's gain
(:func:`plans.charge_gain`) against ``max(0, value)`` of the full charge
value, Dive for Cover and Fall Back decided by bounds of the next turn
against the decision with every term worked out, the shooting plan
remembered for the action decision against a plan worked out afresh, the
lone fireable weapon against the ranking of every weapon (the order of fire weighed
as the AI weighs it, :func:`shooting_plans.weapon_first`). On hand-built
positions (values argued from the seed's chart in the comments) and at
every decision of seeded battles of the examples.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    FRAG_MISSILE,
    GUARD,
    MARINE,
    TROOPER,
    A,
    B,
    make_battle,
    profile,
    row,
    squad,
)

from hammerlab.analysis.game import Game
from hammerlab.editions.base import VICTORY
from hammerlab.editions.schedule import still_to_play, turns_ahead
from hammerlab.editions.waffle import plans, reaction_plans
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.charge import END_CHARGES, NO_REACTION, charge_ban, charge_targets
from hammerlab.editions.waffle.expected import (
    expected_attack,
    expected_casualties,
    expected_melee,
    expected_per_model,
    melee_exchange,
)
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.morale import PINNING_TEST
from hammerlab.editions.waffle.move_plans import charge_threat
from hammerlab.editions.waffle.movement import move_allowance
from hammerlab.editions.waffle.orders import FireOrders, orders_against
from hammerlab.editions.waffle.plans import (
    best_charge,
    caught_chance,
    charge_chance,
    charge_gain,
    charge_keeping_weapons,
    charge_or_be_charged,
    charge_value,
    chased_chance,
    exposure,
    leadership_pass_chance,
    may_charge_after_firing,
    next_turn_value,
    off_table_chance,
)
from hammerlab.editions.waffle.reaction_plans import charge_reaction_bounds, dive_bounds, dive_gain
from hammerlab.editions.waffle.rules.reactions import (
    DIVE,
    FALL_BACK,
    OVERWATCH,
    RETURN_FIRE,
    RETURN_FIRE_ORDERS,
    overwatch_orders,
)
from hammerlab.editions.waffle.rules.suppressive_fire import (
    SUPPRESS,
    SUPPRESSION_TEST_WOULD_BE_TAKEN,
    SUPPRESSION_WOULD_APPLY,
)
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.shooting_plans import (
    ShotPlan,
    shooting_plan,
    target_value,
    weapon_first,
)
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.victory_worth import model_worth, weighing_for
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.memo import decision_scope, state_of_play
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]

SUPPRESSING = FireOrders(action=SUPPRESS)


def test_a_charge_that_wins_gains_its_value_and_one_that_loses_gains_nothing_unasked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Five Troopers 3" from five more (every model fights, any 2D6 reaches):
    # 5 x 2 Attacks x 1/2 (4+) x 1/2 (S3 v T3) = 2.5 slain, 5 x 1/2 x 1/2 =
    # 1.25 lost: +1.25, and the same charge back next turn forestalled: 2.5.
    own = squad("a", A, TROOPER, [], row(30, 10, 5))
    weak = squad("x", B, TROOPER, [], row(30, 13, 5))
    battle = make_battle(own, weak, seed=1)
    assert charge_gain(battle, own, weak) == pytest.approx(1.25)
    assert charge_gain(battle, own, weak, forestalling=True) == pytest.approx(2.5)
    # Against five Quick ones (I4, two Attacks) with Furious Charge striking
    # first: 10 x 1/2 x 1/2 = 2.5 Troopers slain first, the Troopers' 5 x 2 x
    # 1/2 x 1/3 (S3 v T4) = 5/3 scaled by the half left: 5/6. The charge loses
    # 5/6 - 2.5 before any Overwatch, so it gains nothing, forestalls nothing
    # (it loses its round), and the target's Overwatch need not be asked.
    quick = profile("Quick", s=3, t=4, i=4, a=2, sv="-")
    fierce = squad("y", B, quick, [], row(30, 7, 5), rules=["Furious Charge"])
    battle = make_battle(own, fierce, seed=1)
    assert charge_value(battle, own, fierce).value == pytest.approx(5 / 6 - 2.5)

    def unasked(*_: object) -> float:
        raise AssertionError("the Overwatch of a charge that gains nothing was asked")

    monkeypatch.setattr(plans, "overwatch_threat", unasked)
    assert charge_gain(battle, own, fierce) == 0.0
    assert charge_gain(battle, own, fierce, forestalling=True) == 0.0


def test_a_charge_that_wins_its_round_but_gains_nothing_forestalling_asks_no_overwatch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Five Troopers charge ten 3" away, under kill points (a model a fifth of
    # its unit's point, a tenth of theirs): of the ten the seven within 2" plus a
    # base of the closest fight, so 5 x 2 Attacks x 1/2 x 1/2 = 2.5 slain, 7 x
    # 1/4 = 1.75 lost (same Initiative): the round is won, 0.25 - 0.35 = -0.10
    # in points. The ten are locked in combat already, so they have no charge of
    # their own to forestall (nor shooting to spare: no guns). Winning its round,
    # the charge counts what it forestalls; that is nothing, so it gains nothing
    # before the Overwatch, and the target's Overwatch need not be asked.
    own = squad("a", A, TROOPER, [], row(30, 10, 5))
    ten = squad("x", B, TROOPER, [], row(30, 13, 10))
    battle = make_battle(own, ten, seed=1)
    battle.memory[VICTORY] = "kill_points"
    st(battle, ten).locked_in_combat = True
    assert melee_exchange(battle, own, ten) == pytest.approx((2.5, 1.75))
    assert charge_or_be_charged(battle, own, ten).value == pytest.approx(-0.10)

    def unasked(*_: object) -> float:
        raise AssertionError("the Overwatch of a charge that gains nothing was asked")

    monkeypatch.setattr(plans, "overwatch_threat", unasked)
    assert charge_gain(battle, own, ten, forestalling=True) == 0.0


def test_dive_gain_asks_whom_an_enemy_could_target_only_where_going_to_ground_saves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Five Guardsmen (T4, 5+) in the open at y 40, shot at by "a1". "a2": five Marines
    # with boltguns 30" off, beyond 24": they kill none, gone to ground or not, so
    # whom they could target is never asked. "a3": five more 20" off (beyond half
    # range: one shot each): 5 x 2/3 (BS4) x 1/2 (S4 v T4), AP5 leaving no 5+ save:
    # 5/3; gone to ground, a 6+ cover save: 5/3 x 5/6 = 25/18. Saved: 5/18.
    target = squad("b", B, GUARD, [], row(10, 40, 5))
    shooter = squad("a1", A, MARINE, [BOLTGUN], row(40, 10, 5))
    far = squad("a2", A, MARINE, [BOLTGUN], row(10, 10, 5))
    near = squad("a3", A, MARINE, [BOLTGUN], row(10, 20, 5))
    battle = make_battle(target, shooter, far, near, seed=1)
    asked: list[str] = []

    def targets(battle: Battle, unit: Unit, orders: FireOrders) -> list[Unit]:
        asked.append(unit.id)
        return targets_for(battle, unit, orders)

    monkeypatch.setattr(reaction_plans, "targets_for", targets)
    gain = dive_gain(battle, target, shooter)
    assert gain == pytest.approx(5 / 18 * model_worth(battle, target))
    assert asked == ["a3"]


def test_suppression_that_cannot_break_the_target_does_not_weigh_its_next_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A unit that always passes its Morale check is never broken: Suppressive
    # Fire is worth 0 whatever its next turn would have been.
    shooter = squad("a", A, TROOPER, [], row(30, 10, 5))
    target = squad("x", B, TROOPER, [], row(30, 20, 5))
    battle = make_battle(shooter, target, seed=1)

    def unasked(*_: object) -> float:
        raise AssertionError("the next turn of a unit that cannot break was asked")

    monkeypatch.setattr(plans, "leadership_pass_chance", lambda *_, **__: 1.0)
    monkeypatch.setattr(plans, "next_turn_value", unasked)
    assert plans.suppression_value(battle, shooter, target) == 0.0


def binomial(n: int, p: Fraction, models: int) -> list[float]:
    """P(k successes) of ``n`` trials at ``p``, k = 0..models, by the formula."""
    return [float(math.comb(n, k) * p**k * (1 - p) ** (n - k)) for k in range(models + 1)]


def test_suppression_counts_the_weapon_each_model_fires_not_every_weapon_it_carries() -> None:
    # Five Guardsmen (BS3) with a boltgun and a bolt pistol each, 10" from twenty
    # T3 models with no save. A model fires one weapon a phase: the boltgun's two
    # Rapid Fire shots within 12" beat the pistol's one, so ten shots at 4+ to hit
    # (1/2), S4 against T3 wounding on 3+ (2/3): each shot removes a model with
    # 1/3, ten of them binomially. Counting the pistols too would be fifteen shots.
    shooter = squad("a", A, GUARD, [BOLTGUN, BOLT_PISTOL], row(30, 10, 5))
    target = squad("x", B, TROOPER, [], row(30, 20, 20))
    battle = make_battle(shooter, target, seed=1)
    killed, unsaved = plans.would_be_casualties(battle, shooter, target)
    assert list(killed) == pytest.approx(binomial(10, Fraction(1, 3), 20))
    assert unsaved == pytest.approx(10 / 3)


def test_suppression_rolls_a_blast_marker_as_the_estimates_count_it() -> None:
    # One Guardsman (BS3) with a frag missile (S4 AP6 Blast) at twenty T3 models
    # with no save: the marker is counted as covering three of them, each hit
    # with the firer's 4+ To Hit (1/2) and wounded on 3+ (2/3), so the models
    # removed are three trials at 1/3; not three sure hits (three at 2/3).
    shooter = squad("a", A, GUARD, [FRAG_MISSILE], row(30, 10, 1))
    target = squad("x", B, TROOPER, [], row(30, 20, 20))
    battle = make_battle(shooter, target, seed=1)
    killed, _ = plans.would_be_casualties(battle, shooter, target)
    assert list(killed) == pytest.approx(binomial(3, Fraction(1, 3), 20))


def suppressing_two_boltguns(penalty: int) -> tuple[Battle, Unit, Unit]:
    """Two Guardsmen (BS3, boltguns) 20" from four T3 Troopers (Ld8, no save) with
    Suppressive Fire on at ``penalty`` Ld a wound."""
    shooter = squad("a", A, GUARD, [BOLTGUN], row(30, 10, 2))
    target = squad("x", B, TROOPER, [], row(30, 30, 4))
    rules = {"suppressive_fire": True, "suppressive_fire.ld_penalty_per_wound": penalty}
    return make_battle(shooter, target, seed=1, options=rules), shooter, target


def test_suppression_is_worth_only_the_break_chance_its_penalty_adds_to_shooting_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One shot each beyond 12", hitting on 4+ (1/2) and wounding T3 on 3+ (2/3):
    # the models removed are two trials at 1/3, and one of four is the 25% that
    # makes the Troopers test: 1 - (2/3)^2 = 5/9. Shooting forces that test at
    # the phase's end at Ld 8 (passed 26/36); Suppressive Fire forces it now at
    # -1 Ld for the wound it would have caused (2/3 expected, rounded to 1):
    # Ld 7, passed 21/36. Breaking them is made to cost 10 models, so the
    # suppression is worth 5/9 * (26 - 21)/36 * 10 more than the shooting.
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    battle, shooter, target = suppressing_two_boltguns(1)
    assert plans.suppression_value(battle, shooter, target) == pytest.approx(5 / 9 * 5 / 36 * 10)


def test_suppression_of_a_unit_that_took_its_25_percent_check_is_worth_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The unit took the phase's one 25% Morale check already (a Suppressive Fire's):
    # neither Suppressive Fire nor shooting makes it test again this phase.
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    battle, shooter, target = suppressing_two_boltguns(1)
    st(battle, target).casualty_check_taken = True
    assert plans.suppression_value(battle, shooter, target) == 0.0


def test_suppressive_pinning_is_worth_the_break_chance_of_its_penalty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With suppressive_pinning the test is a Pinning test at the same -1 Ld a wound:
    # the 25% is reached with 5/9 (as above), the Pinning test at Ld 7 fails 15/36 and
    # costs the next turn (10); shooting would force the Morale check at Ld 8, failed
    # 10/36, which costs 10 too: 5/9 * (15 - 10)/36 * 10.
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    shooter = squad("a", A, GUARD, [BOLTGUN], row(30, 10, 2))
    target = squad("x", B, TROOPER, [], row(30, 30, 4))
    rules = {"suppressive_fire": True, "suppressive_pinning": True}
    battle = make_battle(shooter, target, seed=1, options=rules)
    assert plans.suppression_value(battle, shooter, target) == pytest.approx(5 / 9 * 5 / 36 * 10)


@dataclass(frozen=True)
class PluggedIn:
    """A plug-in's rule at one of Suppressive Fire's points (docs/plugins.md): it takes
    over for the units named ``unit_ids``; ``test``: the test it gives instead."""

    unit_ids: tuple[str, ...]
    test: str | None = None

    def takes_over(self, battle: Battle, target: Unit) -> bool:
        return target.id in self.unit_ids

    def __call__(self, battle: Battle, target: Unit, wounds: int) -> None:
        battle.say("plug-in", f"{target.label}: taken over")


def test_a_plug_in_that_takes_suppressive_fire_over_is_seen_by_the_ai(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The case of test_suppression_is_worth_only_the_break_chance_its_penalty_adds...:
    # 5/9 * 5/36 * 10 where nothing takes over. A plug-in's rule at "suppression would
    # apply" that takes over for the target makes the rule skip the test, so the action
    # is worth nothing; one that takes over for another unit changes nothing. The AI
    # used to value the action by the name of the built-in option (shock_troops).
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    battle, shooter, target = suppressing_two_boltguns(1)
    battle.hooks.add(SUPPRESSION_WOULD_APPLY, PluggedIn(("someone else",)))
    assert plans.suppression_value(battle, shooter, target) == pytest.approx(5 / 9 * 5 / 36 * 10)
    battle, shooter, target = suppressing_two_boltguns(1)
    battle.hooks.add(SUPPRESSION_WOULD_APPLY, PluggedIn((target.id,)))
    assert plans.suppression_value(battle, shooter, target) == 0.0


def test_a_plug_in_that_gives_a_pinning_test_instead_is_valued_as_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A plug-in at "suppression test would be taken" giving a Pinning test instead of
    # the Morale check, with suppressive_pinning off: valued as that option is (the
    # test above it: 5/9 * (15 - 10)/36 * 10); one giving a test the AI does not know
    # (None) is worth nothing.
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    battle, shooter, target = suppressing_two_boltguns(1)
    battle.hooks.add(SUPPRESSION_TEST_WOULD_BE_TAKEN, PluggedIn((target.id,), PINNING_TEST))
    assert plans.suppression_value(battle, shooter, target) == pytest.approx(5 / 9 * 5 / 36 * 10)
    battle, shooter, target = suppressing_two_boltguns(1)
    battle.hooks.add(SUPPRESSION_TEST_WOULD_BE_TAKEN, PluggedIn((target.id,)))
    assert plans.suppression_value(battle, shooter, target) == 0.0


@pytest.mark.parametrize(("counted", "ld_lost"), [("unsaved", 1), ("lost", 2)])
def test_suppression_counts_the_wounds_as_the_rule_s_wounds_counted_says(
    monkeypatch: pytest.MonkeyPatch, counted: str, ld_lost: int
) -> None:
    # Two Guardsmen (BS3, boltguns S4) 20" from four T2 W2 models (Ld8, no save): one
    # shot each, hitting on 4+ (1/2), wounding T2 on 2+ (5/6), and S4 >= 2 x T2 is
    # Instant Death: each shot slays a model with 5/12, taking both its Wounds. The
    # 25% (one model of four) is reached with 1 - (7/12)^2 = 95/144. Expected unsaved
    # wounds 2 x 5/12 = 5/6, rounded to 1; wounds lost 5/6 x 2 = 5/3, rounded to 2:
    # under wounds_counted=lost the test is at Ld 8 - 2 = 6 (failed 21/36), as the rule
    # counts it, not at Ld 7 (failed 15/36). Shooting's own check at Ld 8 fails 10/36;
    # breaking is made to cost 10.
    monkeypatch.setattr(plans, "next_turn_value", lambda *_: 10.0)
    monkeypatch.setattr(plans, "off_table_chance", lambda *_: 0.0)
    shooter = squad("a", A, GUARD, [BOLTGUN], row(30, 10, 2))
    target = squad("x", B, profile("Grot", t=2, w=2, ld=8, sv="-"), [], row(30, 30, 4))
    rules = {"suppressive_fire": True, "suppressive_fire.wounds_counted": counted}
    battle = make_battle(shooter, target, seed=1, options=rules)
    failed = {1: 15, 2: 21}[ld_lost]
    expected = 95 / 144 * (failed - 10) / 36 * 10
    assert plans.suppression_value(battle, shooter, target) == pytest.approx(expected)


def test_suppression_without_a_penalty_is_worth_nothing_over_shooting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At 0 Ld a wound the test Suppressive Fire forces is the one shooting would
    # have forced at the phase's end, and shooting removes the models too.
    def unasked(*_: object) -> float:
        raise AssertionError("the next turn was weighed for a suppression worth nothing")

    monkeypatch.setattr(plans, "next_turn_value", unasked)
    battle, shooter, target = suppressing_two_boltguns(0)
    assert plans.suppression_value(battle, shooter, target) == 0.0


def slow_next_turn_value(battle: Battle, unit: Unit) -> float:
    """``plans.next_turn_value`` as it was: every part worked out, then the most (each
    part only where the game still plays its phases, ``editions/schedule.py``)."""
    move = plans.move_ahead(battle, unit)
    charges = turns_ahead(battle, unit.player, plans.ASSAULT_PHASE)
    enemies = battle.enemies_of(unit)

    def charge_at(closer: float) -> float:
        values = [
            charge_value(battle, unit, e, closer).value
            for e in enemies
            if not st(battle, e).locked_in_combat
        ]
        return max([0.0, *values])

    charge = charge_at(move) if charges else 0.0

    def worth(e: Unit, orders: FireOrders) -> float:
        return expected_attack(battle, unit, e, orders) * model_worth(battle, e)

    shots = max([0.0, *(worth(e, FireOrders()) for e in enemies)])
    snaps = max([0.0, *(worth(e, FireOrders(snap=True)) for e in enemies)])
    shooting = shots - snaps if plans.shoots_again(battle, unit) else 0.0
    exposed = exposure(battle, unit) * model_worth(battle, unit)
    closing = charges > 1 and move > 0 and charge <= 0 and charge_at(2 * move) > 0
    return max(charge, shooting, exposed if closing else 0.0)


def slow_plan(battle: Battle, unit: Unit) -> ShotPlan:
    """``shooting_plans.shooting_plan`` as it was: every charge's full value, nothing remembered."""
    may_charge = charge_ban(battle, unit) is None and still_to_play(battle, plans.ASSAULT_PHASE)
    charges = {
        t.id: charge_or_be_charged(battle, unit, t).value if may_charge else 0.0
        for t in charge_targets(battle, unit)
    }
    best = ShotPlan(None, False, max([0.0, *charges.values()]))
    every = ranged_weapons(unit)
    keeping = charge_keeping_weapons(unit)
    for target in targets_for(battle, unit, FireOrders()):
        charge = max(0.0, charges.get(target.id, 0.0))
        after = charge if may_charge_after_firing(unit, every) else 0.0
        options = [ShotPlan(target, False, target_value(battle, unit, target) + after)]
        if charge > 0 and keeping != every:
            kept = target_value(battle, unit, target, keeping) if keeping else 0.0
            options.append(ShotPlan(target, True, kept + charge))
        for option in options:
            if option.value > best.value:
                best = option
    return best


def slow_reaction(battle: Battle, decision: Decision[Any]) -> int:
    """Return Fire!, Dive for Cover or nothing, every term worked out."""
    labels = decision.labels()
    unit = battle.unit(decision.context.unit)
    attacker = battle.unit(decision.context.attacker)
    returned = 0.0
    if RETURN_FIRE in labels:
        returned = expected_attack(battle, unit, attacker, RETURN_FIRE_ORDERS)
    dive = -1.0
    if DIVE in labels:
        gain = dive_gain(battle, unit, attacker)
        dive = gain - slow_next_turn_value(battle, unit) if gain > 0 else gain
    if returned > 0 and returned * model_worth(battle, attacker) >= dive:
        return labels.index(RETURN_FIRE)
    if dive > 0:
        return labels.index(DIVE)
    return labels.index(NO_REACTION)


def slow_flee_and_stay(
    battle: Battle, unit: Unit, charger: Unit, overwatch: float
) -> tuple[float, float, bool]:
    """What falling back and staying cost, every term worked out (``charge_reaction_costs``
    as it was), with the edge risk."""
    models = len(unit.alive_models)
    own, theirs = model_worth(battle, unit), model_worth(battle, charger)
    reach = charge_chance(battle, charger, unit)
    lost, killed = melee_exchange(battle, charger, unit)
    off = off_table_chance(battle, unit)
    margin = lost - killed
    broken = 1 - leadership_pass_chance(battle, unit, round(margin)) if margin > 0 else 0.0
    net = lost * own - killed * theirs
    shot = exposure(battle, unit) * own
    stay = reach * (net + broken * off * max(0.0, models - lost) * own) + (1 - reach) * shot
    stay -= overwatch * theirs
    caught = caught_chance(battle, charger, unit)
    flee = off * models * own + (caught + chased_chance(battle, charger, unit)) * net
    flee += (1 - off - caught) * shot
    if not unit.has_rule("And They Shall Know No Fear"):
        flee += (1 - off) * slow_next_turn_value(battle, unit)
    return min(flee, models * own), min(stay, models * own), off > 0 and lost < models


def slow_charge_threat(battle: Battle, unit: Unit) -> float:
    """``move_plans.charge_threat`` as it was: the counter-charge's gain asked of every
    enemy not locked in combat, then the fight of each that gains."""
    costs = [0.0]
    for enemy in battle.enemies_of(unit):
        if st(battle, enemy).locked_in_combat or plans.counter_charge(battle, enemy, unit) <= 0:
            continue
        loss = -plans.fight_net(battle, enemy, unit)
        if loss > 0:
            costs.append(charge_chance(battle, enemy, unit, plans.move_ahead(battle, enemy)) * loss)
    return max(costs)


class Checked:
    """The Waffle AI, each of whose shortcut decisions is first checked against the
    slow path in the same state (counted in :attr:`seen`)."""

    def __init__(self) -> None:
        self.ai = WaffleAI()
        self.ai.answers_by_position = False  # every answer the shortcut's own
        self.seen: Counter[str] = Counter()

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        # The slow path weighs models as the AI does, for the player deciding.
        with weighing_for(decision.player):
            if decision.kind == "action":
                self._plan_taken_up(battle, battle.unit(decision.context.unit), decision.player)
                if SUPPRESS in decision.labels():
                    self._suppressors(battle, battle.unit(decision.context.unit))
            check = getattr(self, f"_{decision.kind}", None)
            expected = None
            if check is not None:
                with decision_scope():  # a fresh scope: nothing the AI worked out is taken up
                    expected = check(battle, decision)
        index = self.ai.choose(battle, decision)
        if expected is not None:
            assert index == expected, decision.kind
            self.seen[decision.kind] += 1
        return index

    def _shooter(self, battle: Battle, decision: Decision[Any]) -> None:
        for unit in (c.value for c in decision.choices if c.value is not None):
            assert shooting_plan(battle, unit) == slow_plan(battle, unit)
            for enemy in battle.enemies_of(unit):
                full = charge_or_be_charged(battle, unit, enemy).value
                assert charge_gain(battle, unit, enemy, forestalling=True) == max(0.0, full)
                for closer in (0.0, move_allowance(unit)):
                    plain = charge_value(battle, unit, enemy, closer).value
                    assert charge_gain(battle, unit, enemy, closer) == max(0.0, plain)
            assert next_turn_value(battle, unit) == slow_next_turn_value(battle, unit)
            best = best_charge(battle, unit)[1]
            assert best == max([0.0, *(charge_value(battle, unit, e).value
                                       for e in battle.enemies_of(unit)
                                       if not st(battle, e).locked_in_combat)])  # fmt: skip
            self.seen["charge gains"] += 1

    def _move(self, battle: Battle, decision: Decision[Any]) -> None:
        unit = battle.unit(decision.context.unit)
        assert charge_threat(battle, unit) == slow_charge_threat(battle, unit)
        self.seen["charge threats"] += 1

    def _suppressors(self, battle: Battle, unit: Unit) -> None:
        # Suppressive Fire's estimate asks who fires with regular orders: the same
        # models as with its own (``expected.volley_of``).
        for target in targets_for(battle, unit, FireOrders()):
            for name in ranged_weapons(unit):
                suppressing = firing_models(battle, unit, target, name, SUPPRESSING)
                assert suppressing == firing_models(battle, unit, target, name, FireOrders())
                self.seen["suppressing models"] += 1

    def _plan_taken_up(self, battle: Battle, unit: Unit, player: str) -> None:
        # The plan the action decision takes up (worked out by the shooter decision,
        # before the unit's shooting record was opened) is the plan afresh.
        with decision_scope():
            fresh = slow_plan(battle, unit)
        with decision_scope((player, state_of_play(battle))):  # the AI's own scope
            assert shooting_plan(battle, unit) == fresh
        self.seen["plans taken up"] += 1

    def _reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        if DIVE in decision.labels():
            unit = battle.unit(decision.context.unit)
            attacker = battle.unit(decision.context.attacker)
            bounds = list(dive_bounds(battle, unit, attacker))
            gain = dive_gain(battle, unit, attacker)
            exact = gain - slow_next_turn_value(battle, unit) if gain > 0 else gain
            assert all(b >= exact for b in bounds)
            assert bounds[-1] == exact
            self.seen["dive bounds"] += 1
        return slow_reaction(battle, decision)

    def _charge_reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context.unit)
        charger = battle.unit(decision.context.attacker)
        overwatch = 0.0
        if OVERWATCH in labels:
            overwatch = expected_attack(battle, unit, charger, overwatch_orders(battle))
        if FALL_BACK in labels:
            flee, stay, edge_risk = slow_flee_and_stay(battle, unit, charger, overwatch)
            bounds = list(charge_reaction_bounds(battle, unit, charger, overwatch))
            assert all(b.flee <= flee and b.stay == stay for b in bounds)
            assert bounds[-1].flee == flee
            self.seen["fall back bounds"] += 1
            if flee < stay and not edge_risk:
                return labels.index(FALL_BACK)
        return labels.index(OVERWATCH) if overwatch > 0 else labels.index(NO_REACTION)

    def _weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        target = battle.unit(decision.context.target)
        orders = orders_against(battle, target, FireOrders())
        plan = self.ai._plan_of(battle, unit)
        keeping = charge_keeping_weapons(unit) if plan is not None and plan.keep_charge else None

        def value(name: str) -> float:
            if not name:
                return -1.0
            if keeping is not None and name not in keeping:
                return -2.0
            return expected_per_model(battle, unit, target, name, orders)

        # The order of fire weighed as the AI weighs it (shooting_plans.weapon_first, no shortcut of
        # its own), from the worths worked out here.
        names = [c.value for c in decision.choices]
        worths = [value(name) for name in names]
        return names.index(weapon_first(battle, unit, target, names, worths, orders))

    def _charger(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return 0.0
            targets = charge_targets(battle, unit)
            return max((charge_or_be_charged(battle, unit, t).value for t in targets), default=0.0)

        values = [value(c.value) for c in decision.choices]
        best = max(values)
        return values.index(best) if best > 0 else decision.labels().index(END_CHARGES)


@pytest.mark.parametrize(
    ("example", "seed"),
    [
        ("whole_game_three_turns.toml", 1),
        ("guard_suppress_terminators.toml", 2),
        ("matchups/terminators_vs_guard_platoon.toml", 1),
        ("matchups/boyz_vs_tactical.toml", 2),
    ],
)
def test_every_shortcut_decides_as_the_slow_path_in_seeded_battles(example: str, seed: int) -> None:
    path = ROOT / "examples" / example
    game = Game.start(load_scenario(path), str(path), seed)
    checked = {player: Checked() for player in game.battle.controllers}
    for player, controller in checked.items():
        game.battle.controllers[player] = controller
    game.play()
    seen = sum((c.seen for c in checked.values()), Counter())
    assert seen["charge gains"] and seen["plans taken up"], seen
    assert seen["weapon"] and seen["reaction"] and seen["dive bounds"], seen
    assert seen["charge threats"] or "whole_game" not in example, seen
    assert seen["suppressing models"] or "suppress" not in example, seen


def test_the_estimates_count_preferred_enemy_s_rerolls_of_1_as_the_rules_roll_them() -> None:
    # One Marine (BS4) with Preferred Enemy, a boltgun 20" from a T4 model with no
    # save (one shot): a 3+ to hit, a 1 re-rolled, hits 2/3 + 1/6 * 2/3 = 7/9; a
    # 4+ to wound, a 1 re-rolled, 1/2 + 1/6 * 1/2 = 7/12; 49/108 in all, against
    # 2/3 * 1/2 = 1/3 without the rule. The rules roll it so: a 1 to hit
    # re-rolled to a 3, a 1 to wound re-rolled to a 4, the model slain.
    bare = profile("Bare", sv="-")
    # In close combat, one Attack WS4 against WS4: a 4+ to hit and a 4+ to wound,
    # each 1 re-rolled: 7/12 * 7/12 = 49/144, against 1/4.
    for rules, expected, blow in (((), 1 / 3, 1 / 4), (("Preferred Enemy",), 49 / 108, 49 / 144)):
        shooter = squad("a", A, MARINE, [BOLTGUN], row(30, 10, 1), rules=rules)
        target = squad("b", B, bare, [], row(30, 30, 1))
        battle = make_battle(shooter, target, dice=[1, 3, 1, 4])
        orders = FireOrders()
        assert expected_casualties(battle, shooter, target, BOLTGUN.name, orders) == (
            pytest.approx(expected)
        )
        killed, _ = plans.would_be_casualties(battle, shooter, target)
        assert killed[1] == pytest.approx(expected)
        close = expected_melee(battle, shooter, shooter.alive_models, target, False)
        assert close == pytest.approx(blow)
        if rules:
            assert fire_weapon(battle, shooter, target, BOLTGUN.name, orders).casualties["b"] == 1


def test_the_estimates_count_monster_hunter_s_rerolls_as_the_rules_roll_them() -> None:
    # A Monster Hunter (BS4, WS4) at a T6 WS4 Monstrous Creature (one wound, no
    # save): S4 wounds T6 on 6+ (1/6), every failure re-rolled: 1/6 + 5/6 * 1/6 =
    # 11/36. One boltgun shot 20" off hits 2/3 of the time: 22/108, against 2/3 *
    # 1/6 = 1/9 without the rule; one close combat Attack hits on 4+ (WS4 against
    # WS4): 11/72, against 1/12.
    beast = profile("Beast", t=6, sv="-", unit_type="Monstrous Creature")
    for rules, shot, blow in (((), 1 / 9, 1 / 12), (("Monster Hunter",), 22 / 108, 11 / 72)):
        hunter = squad("a", A, MARINE, [BOLTGUN], row(30, 10, 1), rules=rules)
        target = squad("b", B, beast, [], row(30, 30, 1))
        battle = make_battle(hunter, target, seed=1)
        orders = FireOrders()
        assert expected_casualties(battle, hunter, target, BOLTGUN.name, orders) == (
            pytest.approx(shot)
        )
        assert plans.would_be_casualties(battle, hunter, target)[0][1] == pytest.approx(shot)
        close = expected_melee(battle, hunter, hunter.alive_models, target, False)
        assert close == pytest.approx(blow)
