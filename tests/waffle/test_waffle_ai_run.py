"""A Run toward the enemy goes only as far as it pays: the enemy charge it walks
into next turn must cost no more than it adds to the unit's own charge
(docs/ai.md, "Run"; ``move_plans.run_pays``).

Expected values are worked out by hand in the comments. Bases are 1" across,
so units whose centres stand ``c`` inches apart in a row are ``c - 1`` apart.
"""

from __future__ import annotations

import pytest
from conftest import A, B, make_battle, profile, row, squad, weapon
from test_waffle_ai_victory_worth import BRUTE, TROOPER, action, run_intent

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import melee_exchange
from hammerlab.editions.waffle.move_plans import charge_threat, run_pays, wants_to_run
from hammerlab.editions.waffle.movement import run, run_distances
from hammerlab.editions.waffle.plans import best_charge, fight_net, overwatch_threat
from hammerlab.editions.waffle.shooting import HOLD, RUN
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import centre_distance
from hammerlab.engine.moves import centre_of
from hammerlab.engine.units import Unit

LASPISTOL = weapon("Laspistol", "12", "3", "-", "Pistol")
HOUND = profile("Hound", s=3, t=3, i=3, sv="-", unit_type="Beasts")
"""A Trooper that moves 12" (Beasts: ``movement.is_fast``)."""


def test_a_run_that_walks_into_a_losing_charge_goes_only_as_far_as_it_adds_no_threat() -> None:
    # Five Troopers with laspistols 20" from five Brutes (19" between the
    # bases): the pistols (12") reach no target, so the Troopers want to Run;
    # the Brutes' charge after their 6" move cannot reach (13"). Charging, the
    # Brutes slay all five Troopers (5 x 4 Attacks x 1/2 x 5/6, S5 v T3: 2+,
    # capped at five) for 5 x 1/2 x 1/3 (S3 v T4: 5+) = 5/6 of a Brute, and
    # the Troopers slay none after the first round (test_waffle_ai_victory_worth):
    # a net loss of 5 - 5/6. The pistols' Overwatch, Snap Shots at BS 2 (5+),
    # takes 5 x 1/3 x 1/3 = 5/9 Brutes, so they declare only a charge that
    # reaches more than (5/9) / (5 - 5/6) = 2/15 of the time. A Run of d" leaves
    # them 13 - d" to roll on 2D6: 1" or 2" (12", 1/36; 11", 3/36) adds no
    # charge they would declare; 3" (10", 6/36) one that costs 6/36 x 25/6;
    # 6" (7", 21/36) 21/36 x 25/6. The Troopers' own charge, which loses its
    # fight, gains nothing from any distance. So they declare the Run, go 2"
    # and stay put on a 6.
    troopers = squad("a", A, TROOPER, [LASPISTOL], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 30, 5))
    battle = make_battle(troopers, brutes, seed=1)
    assert wants_to_run(battle, troopers)
    assert overwatch_threat(battle, brutes, troopers) == pytest.approx(5 / 9)
    assert fight_net(battle, brutes, troopers) == pytest.approx(5 / 6 - 5)
    assert charge_threat(battle, troopers) == 0.0
    assert charge_threat(battle, troopers, 2.0) == 0.0
    assert charge_threat(battle, troopers, 3.0) == pytest.approx(6 / 36 * 25 / 6)
    assert charge_threat(battle, troopers, 6.0) == pytest.approx(21 / 36 * 25 / 6)
    assert best_charge(battle, troopers, 6.0 + 6.0)[1] == 0.0
    assert [run_pays(battle, troopers, d) for d in run_distances(battle, troopers)] == [
        True, True, False, False, False, False,
    ]  # fmt: skip
    ai = WaffleAI()
    assert action(battle, "a", ai) == RUN
    assert run_intent(battle, "a", ai, 2) == "advance"
    assert run_intent(battle, "a", ai, 6) == "hold"


def test_a_unit_already_in_a_losing_charge_s_reach_does_not_run_deeper_into_it() -> None:
    # The same Troopers 14" from the Brutes (13" between the bases): the
    # Brutes need 7" after their move (21/36, a charge they declare). Every
    # inch of a Run adds to that chance (1": 6" to roll, 26/36) and the
    # Troopers' own charge still gains nothing: no distance pays, so they
    # hold rather than Run (before, they Ran straight at the Brutes).
    troopers = squad("a", A, TROOPER, [LASPISTOL], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    battle = make_battle(troopers, brutes, seed=1)
    assert wants_to_run(battle, troopers)
    assert charge_threat(battle, troopers) == pytest.approx(21 / 36 * 25 / 6)
    assert charge_threat(battle, troopers, 1.0) == pytest.approx(26 / 36 * 25 / 6)
    assert not any(run_pays(battle, troopers, d) for d in run_distances(battle, troopers))
    assert action(battle, "a") == HOLD


def hounds_and_troopers() -> tuple[Battle, Unit, Unit]:
    """Five Hounds 20" from five Troopers (19" between the bases), neither with guns."""
    hounds = squad("a", A, HOUND, [], row(30, 10, 5))
    troopers = squad("b", B, TROOPER, [], row(30, 30, 5))
    return make_battle(hounds, troopers, seed=1), hounds, troopers


def test_a_run_that_brings_a_charge_worth_more_than_the_threat_goes_on() -> None:
    # Five Hounds (12" move) 20" from five Troopers (6"), the same WS4 S3 T3
    # I3 A1: whoever charges slays 5 x 2 x 1/2 x 1/2 = 5/2 for 5 x 1 x 1/4 =
    # 5/4 (both strike together), so each side's charge gains it 5/4 when it
    # reaches (no guns: no Overwatch, nothing spared). Charged, the Hounds
    # lose the fight: 5/2 of them fall in the first round, 5/4 a round after
    # it on either side, so the 5/2 left last two rounds, the Troopers' 15/4
    # three: the Hounds lose all five for 5/4 + 5/2 = 15/4, a net 5/4. A Run
    # of d" leaves the Troopers 13 - d" to roll after their move and the
    # Hounds 7 - d" after theirs: 4" adds 10/36 to the Troopers' chance (9")
    # and 14/36 to the Hounds' (3", 35/36, from 7", 21/36): it pays. 6" adds
    # 21/36 (7") against 15/36 (the Hounds then cannot miss): it does not.
    battle, hounds, troopers = hounds_and_troopers()
    assert melee_exchange(battle, hounds, troopers) == pytest.approx((5 / 2, 5 / 4))
    assert fight_net(battle, troopers, hounds) == pytest.approx(-5 / 4)
    assert wants_to_run(battle, hounds)
    assert charge_threat(battle, hounds) == 0.0
    assert charge_threat(battle, hounds, 4.0) == pytest.approx(10 / 36 * 5 / 4)
    assert charge_threat(battle, hounds, 6.0) == pytest.approx(21 / 36 * 5 / 4)
    assert best_charge(battle, hounds, 12.0)[1] == pytest.approx(21 / 36 * 5 / 4)
    assert best_charge(battle, hounds, 12.0 + 4.0)[1] == pytest.approx(35 / 36 * 5 / 4)
    assert best_charge(battle, hounds, 12.0 + 6.0)[1] == pytest.approx(5 / 4)
    assert run_pays(battle, hounds, 4.0)
    assert not run_pays(battle, hounds, 6.0)
    ai = WaffleAI()
    assert action(battle, "a", ai) == RUN
    assert run_intent(battle, "a", ai, 4) == "advance"
    assert run_intent(battle, "a", ai, 6) == "hold"


@pytest.mark.parametrize(("rolled", "moved"), [(4, 4.0), (6, 0.0)])
def test_the_run_rolled_tells_the_player_how_far_it_may_go(rolled: int, moved: float) -> None:
    # The Hounds above Run (movement.run) with the heuristic choosing where:
    # on a 4 they go 4" toward the Troopers (their centre toward the closest
    # Trooper), on a 6 they stay put (and have Run: no charge this turn).
    battle, hounds, _ = hounds_and_troopers()
    scripted = make_battle(*battle.units.values(), dice=[rolled], fallback=WaffleAI())
    start = centre_of(hounds)
    run(scripted, hounds)
    assert centre_distance(start, centre_of(hounds)) == pytest.approx(moved)
    assert centre_of(hounds)[1] >= start[1]
    assert st(scripted, hounds).ran


@pytest.mark.parametrize(
    ("dice", "fleet", "distances"),
    [
        (1, False, range(1, 7)),
        (1, True, range(1, 7)),
        (2, False, range(2, 13)),
        (2, True, range(1, 13)),
    ],
)
def test_a_run_may_roll_its_dice_s_totals_and_fleet_s_one_die(
    dice: int, fleet: bool, distances: range
) -> None:
    # run_dice D6 total n to 6n; Fleet re-rolls a total below 4 as one D6.
    hounds = squad("a", A, HOUND, [], row(30, 10, 5), rules=["Fleet"] if fleet else [])
    troopers = squad("b", B, TROOPER, [], row(30, 30, 5))
    battle = make_battle(hounds, troopers, seed=1, options={"run_dice": dice})
    assert run_distances(battle, hounds) == distances
