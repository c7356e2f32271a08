"""The heuristic weighs casualties by what the battle's victory condition gives for
them, and a unit stays out of a charge it would rather not take (docs/ai.md,
"Kill points: what a model is worth", "Retreat from a charge", "Run").

Expected values are worked out by hand from the charts in the comments.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy

import pytest
from conftest import BRUTE, MARINE, TROOPER, A, B, make_battle, profile, row, squad, weapon

from hammerlab.editions.base import VICTORY
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import melee_exchange
from hammerlab.editions.waffle.move_plans import (
    charge_threat,
    escaping_only,
    wants_to_retreat,
    wants_to_run,
)
from hammerlab.editions.waffle.movement_phase import move_one
from hammerlab.editions.waffle.plans import (
    best_charge,
    charge_gain,
    charge_value,
    counter_charge,
    fight_net,
)
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import HOLD, RUN
from hammerlab.editions.waffle.shooting_plans import target_value
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.victory_worth import model_worth, weighing_for
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.moves import shift_unit
from hammerlab.engine.units import Unit

BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")


@pytest.fixture(autouse=True)
def _every_charge_weighed() -> Iterator[None]:
    """The retreats here weigh a charge's threat against the unit's own charge with
    every enemy charge counted (:func:`move_plans.escaping_only` off, as the AIs
    here are made); which charges a retreat can escape rather than put off is
    tested apart (``test_waffle_ai_escape.py``)."""
    with escaping_only(False):
        yield


def kill_points(battle: Battle) -> Battle:
    """``battle`` scored by kill points, as ``begin_play`` records a plan's victory."""
    battle.memory[VICTORY] = "kill_points"
    return battle


def test_a_model_is_worth_its_share_of_its_units_kill_point() -> None:
    # Kill points: "one per enemy unit destroyed", so each of ten models is a
    # tenth of its unit's point and a lone model is a whole one; counting
    # models destroyed, or with no victory condition recorded, each is one.
    ten = squad("a", A, TROOPER, [], row(30, 10, 10))
    one = squad("b", B, TROOPER, [], [(30, 30)])
    battle = make_battle(ten, one, seed=1)
    assert model_worth(battle, ten) == model_worth(battle, one) == 1.0
    battle.memory[VICTORY] = "models_destroyed"
    assert model_worth(battle, ten) == 1.0
    kill_points(battle)
    assert model_worth(battle, ten) == pytest.approx(0.1)
    assert model_worth(battle, one) == 1.0


def test_under_kill_points_a_charge_that_wins_models_can_lose_the_points() -> None:
    # Five Troopers charge ten 3" away (a row of 2" pitch): of the ten, those
    # no farther from the chargers than the closest one (2") plus 2" and a
    # base (1") fight: the seven at x = 30..42 (the one at 44 stands 5.7" off).
    # Slain: 5 x 2 Attacks x 1/2 (WS4 v WS4: 4+) x 1/2 (S3 v T3: 4+) = 2.5;
    # lost: 7 x 1 x 1/4 = 1.75 (same Initiative: both strike in full). In
    # models the charge gains 2.5 - 1.75 = 0.75; by kill points a tenth of a
    # point each against a fifth: 0.25 - 0.35 = -0.10, so it gains nothing.
    own = squad("a", A, TROOPER, [], row(30, 10, 5))
    ten = squad("x", B, TROOPER, [], row(30, 13, 10))
    battle = make_battle(own, ten, seed=1)
    assert charge_value(battle, own, ten).value == pytest.approx(0.75)
    kill_points(battle)
    assert charge_value(battle, own, ten).value == pytest.approx(-0.10)
    assert charge_gain(battle, own, ten) == 0.0


def test_under_kill_points_a_unit_shoots_the_lone_model_over_the_crowd() -> None:
    # Five Marines 18" from ten Troopers and from one: one Boltgun shot each
    # (Rapid Fire beyond 12"), hitting on 3+ (BS4) and wounding on 3+ (S4 v
    # T3), no save: 5 x 2/3 x 2/3 = 20/9 wounds, as many models of the ten; of
    # the lone Trooper at most his one model (the estimate is capped at the
    # models there are). Counting models the crowd is worth more; by kill
    # points 20/9 tenths of a point (2/9) is worth less than the lone model's
    # whole point.
    marines = squad("a", A, MARINE, [BOLTGUN], row(30, 10, 5))
    crowd = squad("x", B, TROOPER, [], row(20, 28, 10))
    lone = squad("y", B, TROOPER, [], [(50, 28)])
    battle = make_battle(marines, crowd, lone, seed=1)
    assert target_value(battle, marines, crowd) == pytest.approx(20 / 9)
    assert target_value(battle, marines, lone) == pytest.approx(1.0)
    kill_points(battle)
    assert target_value(battle, marines, crowd) == pytest.approx(2 / 9)
    assert target_value(battle, marines, lone) == pytest.approx(1.0)


def answer(battle: Battle, ai: WaffleAI, kind: str, labels: list[str], **context: str) -> str:
    """``ai``'s answer to a decision of ``kind`` about ``context["unit"]``: its label."""
    decision = Decision(
        kind=kind,
        player=battle.unit(context["unit"]).player,
        prompt="?",
        choices=tuple(Choice(label, label) for label in labels),
        context=DecisionContext(**context),
    )
    return labels[ai.choose(battle, decision)]


INTENTS = ["advance", "take cover", "retreat", "hold"]


def move_intent(battle: Battle, unit: str, ai: WaffleAI | None = None) -> str:
    """The AI's (by default a fresh one's) answer to the Movement phase's "where to?"."""
    return answer(
        battle,
        ai or WaffleAI(escapes_only=False),
        "move",
        INTENTS,
        unit=unit,
        why="moves",
        phase="movement",
    )


def action(battle: Battle, unit: str, ai: WaffleAI | None = None) -> str:
    """The AI's answer to a Shooting-phase action offering only Run and hold."""
    return answer(battle, ai or WaffleAI(escapes_only=False), "action", [RUN, HOLD], unit=unit)


def run_intent(battle: Battle, unit: str, ai: WaffleAI, inches: int = 4) -> str:
    """The AI's answer to its Run's "where to?" with ``inches`` rolled (as
    ``movement.run`` asks it)."""
    return answer(
        battle, ai, "move", INTENTS, unit=unit, why=f'runs up to {inches}"', what=str(inches)
    )


def test_a_unit_retreats_from_a_charge_it_would_lose_and_advances_when_none_can_come() -> None:
    # Five Troopers 14" from five Brutes (13" between the 1" bases). Next
    # turn the Brutes move 6" and need 7" on 2D6 (21/36) to charge; charging,
    # they strike 5 x 4 Attacks x 1/2 x 5/6 (S5 v T3: 2+) and lose at most
    # the Troopers' 1/2 x 1/3 (S3 v T4: 5+) per Attack: a gain, so the charge
    # is a threat. The Troopers' own charge after their move (7" away) loses
    # its fight (it gains nothing): they retreat. 40" apart no charge can
    # come: they advance.
    # The fight costs them, net, all five for the 5/6 of a Brute they slay
    # (none of them lasts a round after the first): 21/36 x 25/6 expected.
    troopers = squad("a", A, TROOPER, [], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    battle = make_battle(troopers, brutes, seed=1)
    assert charge_value(battle, brutes, troopers, 6.0).chance == pytest.approx(21 / 36)
    assert fight_net(battle, brutes, troopers) == pytest.approx(5 / 6 - 5)
    assert charge_threat(battle, troopers) == pytest.approx(21 / 36 * 25 / 6)
    assert charge_gain(battle, troopers, brutes, 6.0) == 0.0
    assert wants_to_retreat(battle, troopers)
    assert move_intent(battle, "a") == "retreat"
    far = squad("b", B, BRUTE, [], row(30, 50, 5))
    battle = make_battle(troopers, far, seed=1)
    assert charge_threat(battle, troopers) == 0.0
    assert move_intent(battle, "a") == "advance"


def test_a_unit_whose_own_charge_is_worth_more_than_the_threat_advances() -> None:
    # Five Brutes 14" from five Troopers: the Troopers' charge at them (21/36
    # to reach after a move) loses its fight, so it gains them nothing; the
    # Brutes' own charge after their 6" move gains them more: they advance.
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    troopers = squad("a", A, TROOPER, [], row(30, 10, 5))
    battle = make_battle(troopers, brutes, seed=1)
    assert charge_threat(battle, brutes) == 0.0
    assert not wants_to_retreat(battle, brutes)
    assert move_intent(battle, "b") == "advance"


def test_under_kill_points_a_lone_model_does_not_run_at_a_fight_it_wins_only_in_models() -> None:
    # A lone Brute (no guns) 30" from five Troopers: no charge this turn, so
    # whether it Runs is whether it would win the fight. Charging: 4 Attacks
    # (3 + 1 for the charge) x 1/2 (WS4 v WS4: 4+) x 5/6 (S5 v T3: 2+), no
    # save: 5/3 Troopers slain; all five fight back (no farther than the
    # closest plus 2" and a base): 5 x 1/2 x 1/3 (S3 v T4: 5+) = 5/6 of the
    # Brute (same Initiative: both strike in full). In models it wins (5/3 >
    # 5/6) and Runs at them; by kill points 5/3 fifths of a point (1/3) is
    # less than 5/6 of its own whole point: it holds.
    brute = squad("a", A, BRUTE, [], [(34, 10)])
    five = squad("x", B, TROOPER, [], row(30, 40, 5))
    battle = make_battle(brute, five, seed=1)
    assert melee_exchange(battle, brute, five) == pytest.approx((5 / 3, 5 / 6))
    assert wants_to_run(battle, brute)
    assert action(battle, "a") == RUN
    kill_points(battle)
    assert not wants_to_run(battle, brute)
    assert action(battle, "a") == HOLD


def test_under_kill_points_a_lone_model_runs_at_a_fight_it_wins_in_points() -> None:
    # The same Brute 30" from a lone Trooper, a point each: the Trooper is
    # slain (5/3 capped at its one model) for 1 x 1/2 x 1/3 = 1/6 of the
    # Brute: it Runs at him, straight (nothing in the way).
    brute = squad("a", A, BRUTE, [], [(34, 10)])
    lone = squad("y", B, TROOPER, [], [(34, 40)])
    battle = kill_points(make_battle(brute, lone, seed=1))
    assert melee_exchange(battle, brute, lone) == pytest.approx((1.0, 1 / 6))
    ai = WaffleAI(escapes_only=False)
    assert action(battle, "a", ai) == RUN
    assert run_intent(battle, "a", ai) == "advance"


def test_a_unit_that_retreated_runs_on_toward_its_edge_and_holds_once_out_of_reach() -> None:
    # Five Troopers with laspistols (12") 14" from five Brutes: the Brutes'
    # charge next turn is a threat the Troopers' own charge does not match
    # (the retreat test above), so they retreat. Their pistols reach no
    # target, so before they would Run at the Brutes, undoing the retreat;
    # now they Run on toward their edge while the threat holds. Once the
    # Brutes stand 36" off (6" of move and 12" of charge at most) no charge
    # can come: they hold. (A unit that did not retreat holds here too: a
    # Run toward the Brutes only adds to their charge's reach,
    # test_waffle_ai_run.py.)
    laspistol = weapon("Laspistol", "12", "3", "-", "Pistol")
    troopers = squad("a", A, TROOPER, [laspistol], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    battle = make_battle(troopers, brutes, seed=1)
    assert wants_to_retreat(battle, troopers) and wants_to_run(battle, troopers)
    ai = WaffleAI(escapes_only=False)
    assert move_intent(battle, "a", ai) == "retreat"
    st(battle, troopers).retreated = True  # as move_one records that move (where they stand)
    assert action(battle, "a", ai) == RUN
    assert run_intent(battle, "a", ai) == "retreat"
    shift_unit(battle, brutes, (0.0, 22.0), "test")
    assert charge_threat(battle, troopers) == 0.0
    assert action(battle, "a", ai) == HOLD


BEAST = profile("Beast", s=6, t=6, w=4, i=1, a=3, sv="-", unit_type="Monstrous Creature")
"""WS4 S6 T6 W4 I1 A3, no save: a monster that outlasts a few Troopers."""
HOUND = profile("Hound", s=3, t=3, i=3, sv="-", unit_type="Beasts")
"""A Trooper that moves 12" (Beasts: ``movement.is_fast``)."""


def test_under_kill_points_a_monster_does_not_retreat_from_a_charge_whose_fight_it_wins() -> None:
    # A lone Beast 22" from five Hounds (21" between the bases). Next turn the
    # Hounds move 12" and need 9" on 2D6 (10/36); the Beast's own charge
    # after its 6" move (15") cannot reach. Charging, the Hounds strike first
    # (I3 v I1): 5 x 2 Attacks x 1/2 (WS4 v WS4) x 1/6 (S3 v T6: 6+) = 5/6
    # wounds, 5/24 of the Beast; it strikes back with what is left of it:
    # 3 x 1/2 x 5/6 (S6 v T3: 2+) x 19/24 = 95/96 Hounds. By kill points (a
    # Hound a fifth of a point, the Beast a whole one) that round is the
    # Hounds': 95/96 x 1/5 < 5/24, so they would declare it
    # (plans.counter_charge: 10/36 x (5/24 - 95/96 x 1/5) = 5/1728), and the
    # retreat that weighed that gain alone took the Beast back (the
    # Carnifex's scenario, docs/ai.md). The fight goes on: a round without
    # the charge, the Hounds slay 5 x 1/2 x 1/6 / 4 = 5/48 of the Beast, the
    # Beast 3 x 1/2 x 5/6 = 5/4 Hounds; the Hounds left (5 - 95/96) last
    # 77/24 rounds, the Beast's 19/24 38/5: all five fall for 5/24 + 77/24 x
    # 5/48 = 625/1152 of the Beast, a point won for 0.54 lost. It advances.
    beast = squad("a", A, BEAST, [], [(30, 10)])
    hounds = squad("b", B, HOUND, [], row(26, 32, 5))
    battle = kill_points(make_battle(beast, hounds, seed=1))
    assert melee_exchange(battle, hounds, beast) == pytest.approx((5 / 24, 95 / 96))
    assert counter_charge(battle, hounds, beast) == pytest.approx(5 / 1728)
    assert best_charge(battle, beast, 6.0)[1] == 0.0
    assert fight_net(battle, hounds, beast) == pytest.approx(1 - 625 / 1152)
    assert charge_threat(battle, beast) == 0.0
    assert not wants_to_retreat(battle, beast)
    assert move_intent(battle, "a") == "advance"


def test_under_kill_points_a_lone_model_retreats_from_a_fight_it_wins_only_in_models() -> None:
    # A lone Brute 14" from five Troopers (the retreat test's distance: 21/36
    # for their charge after a move). Charging, the Troopers strike 5 x 2 x
    # 1/2 x 1/3 (S3 v T4: 5+) = 5/3 wounds: the Brute (one Wound) is slain,
    # striking back in full at the same Initiative 3 x 1/2 x 5/6 = 5/4
    # Troopers. Counting models the Brute wins the fight (5/4 for 1) and the
    # Troopers would not declare it (it gains them nothing): it advances. By
    # kill points 5/4 fifths of a point is a quarter of one for his whole
    # point: the charge costs him 21/36 x 3/4 and his own (5/3 fifths for
    # 5/6 of him: melee_exchange above) gains nothing: he retreats.
    brute = squad("a", A, BRUTE, [], [(34, 10)])
    five = squad("x", B, TROOPER, [], row(30, 24, 5))
    battle = make_battle(brute, five, seed=1)
    assert melee_exchange(battle, five, brute) == pytest.approx((1.0, 5 / 4))
    assert fight_net(battle, five, brute) == pytest.approx(1 / 4)
    assert charge_threat(battle, brute) == 0.0
    assert move_intent(battle, "a") == "advance"
    kill_points(battle)
    assert fight_net(battle, five, brute) == pytest.approx(5 / 4 / 5 - 1)
    assert charge_threat(battle, brute) == pytest.approx(21 / 36 * 3 / 4)
    assert move_intent(battle, "a") == "retreat"


def test_a_unit_that_retreated_to_its_edge_holds_rather_than_run_nowhere() -> None:
    # The Troopers with laspistols of the test above, at their own (south)
    # table edge, 14" from the Brutes: the threat holds, so they retreat, but
    # a Run toward the edge cannot take them farther: they hold. An inch off
    # the edge (the Brutes an inch farther too) they Run on toward it.
    laspistol = weapon("Laspistol", "12", "3", "-", "Pistol")
    troopers = squad("a", A, TROOPER, [laspistol], row(30, 0.5, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 14.5, 5))
    battle = make_battle(troopers, brutes, seed=1)
    ai = WaffleAI(escapes_only=False)
    assert move_intent(battle, "a", ai) == "retreat"
    st(battle, troopers).retreated = True  # as move_one records that move
    assert wants_to_retreat(battle, troopers)
    assert action(battle, "a", ai) == HOLD
    shift_unit(battle, troopers, (0.0, 1.0), "test")
    shift_unit(battle, brutes, (0.0, 1.0), "test")
    assert action(battle, "a", ai) == RUN


def test_a_fight_neither_side_can_wound_nets_nothing() -> None:
    # S1 cannot wound T8 (no roll on the chart): neither side slays a model in
    # the first round or any after it, so neither is ever destroyed. The fight
    # nets nothing, however many models each side has (three against five):
    # no models lost at a rate of nothing, not infinity times nothing.
    stone = profile("Stone", s=1, t=8, i=3, sv="-")
    these = squad("a", A, stone, [], row(30, 10, 3))
    those = squad("b", B, stone, [], row(30, 24, 5))
    battle = make_battle(these, those, seed=1)
    assert melee_exchange(battle, those, these) == (0.0, 0.0)
    assert fight_net(battle, those, these) == 0.0
    assert charge_threat(battle, these) == 0.0


def test_a_retreat_is_the_battle_s_record_of_the_move_until_the_end_of_its_turn() -> None:
    # The Troopers with laspistols of the tests above: the Movement phase's
    # procedure records the intent they moved with (WaffleStatus.retreated), so
    # any AI reading the battle knows it: a fresh one, or one playing a copy of
    # the game (the search's playouts), Runs them on toward their edge, not
    # back at the Brutes. The end of their player's turn clears it; a unit that
    # advanced or held has none.
    laspistol = weapon("Laspistol", "12", "3", "-", "Pistol")
    troopers = squad("a", A, TROOPER, [laspistol], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    battle = make_battle(troopers, brutes, script_a=[("move", "retreat")], seed=1)
    battle.active_player = A
    move_one(battle, troopers)
    assert st(battle, troopers).retreated
    assert all(m.position[1] == pytest.approx(4.0) for m in troopers.models)  # 6" back
    copy = deepcopy(battle)
    assert run_intent(copy, "a", WaffleAI(escapes_only=False)) == "retreat"
    end_of_turn(battle, A)
    assert not st(battle, troopers).retreated
    still = squad("a", A, TROOPER, [laspistol], row(30, 10, 5))
    held = make_battle(still, squad("b", B, BRUTE, [], row(30, 24, 5)), script_a=[("move", "hold")])
    move_one(held, still)
    assert not st(held, still).retreated


def weakened(unit_id: str, player: str, starting: int, left: int, y: float, x: float = 20) -> Unit:
    """A Trooper squad of ``starting`` models in a row from (x, y), of which only the
    first ``left`` stand."""
    unit = squad(unit_id, player, TROOPER, [], row(x, y, starting))
    for model in unit.models[left:]:
        model.wounds_left = 0
    return unit


def test_an_enemy_model_is_worth_its_share_of_what_is_left_of_its_units_kill_point() -> None:
    # Kill points: the point comes with a unit's last model. Weighed for A, a
    # model of B's squad of twenty with three left is a third of the point
    # still to take; A's own squad of ten with four left keeps its starting
    # tenth (its losses are counted as the search counts them), and so does
    # every model when nobody is weighed for. Counting models, each is one.
    own = weakened("a", A, 10, 4, 10)
    enemy = weakened("x", B, 20, 3, 40)
    battle = kill_points(make_battle(own, enemy, seed=1))
    assert model_worth(battle, enemy) == pytest.approx(1 / 20)
    with weighing_for(A):
        assert model_worth(battle, enemy) == pytest.approx(1 / 3)
        assert model_worth(battle, own) == pytest.approx(1 / 10)
    with weighing_for(B):
        assert model_worth(battle, own) == pytest.approx(1 / 4)
        assert model_worth(battle, enemy) == pytest.approx(1 / 20)
    battle.memory[VICTORY] = "models_destroyed"
    with weighing_for(A):
        assert model_worth(battle, enemy) == 1.0


def test_under_kill_points_the_ai_finishes_a_weakened_unit_over_a_fresh_one() -> None:
    # Five Marines 18" from ten fresh Troopers and from a squad of twenty with
    # three left: one Boltgun shot each (Rapid Fire beyond 12"), 3+ to hit,
    # 3+ to wound (S4 v T3), no save: 20/9 casualties expected of either
    # (under the three left). By starting shares the fresh squad is worth
    # 20/9 x 1/10 = 2/9 and the weakened one 20/9 x 1/20 = 1/9; weighed for
    # the Marines the weakened one is 20/9 x 1/3 = 20/27, more than 2/9. The
    # AI that finishes units shoots the three; as it was, it shot the fresh ten.
    marines = squad("a", A, MARINE, [BOLTGUN], row(30, 10, 5))
    fresh = weakened("x", B, 10, 10, 28)
    worn = weakened("y", B, 20, 3, 28, x=44)  # the three 19" to 23" from the Marines
    battle = kill_points(make_battle(marines, fresh, worn, seed=1))
    with weighing_for(A):
        assert target_value(battle, marines, fresh) == pytest.approx(2 / 9)
        assert target_value(battle, marines, worn) == pytest.approx(20 / 27)
    decision = Decision(
        kind="target",
        player=A,
        prompt="?",
        choices=(Choice("x", fresh), Choice("y", worn)),
        context=DecisionContext(unit="a"),
    )
    assert WaffleAI(escapes_only=False).choose(battle, decision) == 1
    assert WaffleAI(finish_units=False).choose(battle, decision) == 0
