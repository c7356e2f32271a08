"""An enemy charge counts as a threat only when the enemy would rather charge than
shoot: a gunline whose Rapid Fire is worth more to it than its charge forbids
that charge itself (seed 004), so the unit it would charge need not step back
from it (docs/ai.md, "Retreat from a charge"; ``plans.shoots_rather_than_charges``).

Expected values are worked out by hand in the comments. Bases are 1" across,
so units whose centres stand ``c`` inches apart in a row are ``c - 1`` apart.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import BOLTGUN, BRUTE, STORM_BOLTER, TROOPER, A, B, make_battle, row, squad
from test_waffle_ai_victory_worth import move_intent

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.move_plans import charge_threat, escaping_only
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import counter_charge, fight_net, shoots_rather_than_charges
from hammerlab.editions.waffle.shooting_plans import shooting_plan
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

# Five Brutes (BS4 S5 A3, no save) firing at five Troopers (T3, no save) hit on
# 3+ (2/3) and wound on 3+ (S4 v T3: 2/3): 4/9 of a Trooper a shot. Charging
# them the Brutes slay all five (5 x 4 Attacks x 1/2 x 5/6, capped) for 5/6
# of a Brute (5 x 1/2 x 1/3, S3 v T4: 5+), and the Troopers have no guns (no
# Overwatch, nothing spared): a charge that reaches gains the Brutes 5 - 5/6
# = 25/6, and costs the Troopers as much (none of them lasts beyond the
# first round: test_waffle_ai_victory_worth).
SHOT = 4 / 9
FIGHT = 25 / 6


@pytest.fixture(autouse=True)
def _every_charge_weighed() -> Iterator[None]:
    """As in ``test_waffle_ai_victory_worth.py``: every enemy charge counted
    (:func:`move_plans.escaping_only` off)."""
    with escaping_only(False):
        yield


def troopers_facing(gap: float, *, assault: bool = False) -> tuple[Battle, Unit, Unit]:
    """Five Troopers and, ``gap`` inches between the bases to the north, five
    Brutes with boltguns (or storm bolters when ``assault``)."""
    troopers = squad("a", A, TROOPER, [], row(30, 10, 5))
    gun = STORM_BOLTER if assault else BOLTGUN
    brutes = squad("b", B, BRUTE, [gun], row(30, 11 + gap, 5))
    return make_battle(troopers, brutes, seed=1), troopers, brutes


def test_a_gunline_whose_rapid_fire_is_worth_more_than_its_charge_threatens_no_charge() -> None:
    # 11" apart: within half the boltguns' 24", two shots each, 10 x 4/9 =
    # 40/9 Troopers. After their 6" move the Brutes need 5" on 2D6 (30/36):
    # the charge gains them 30/36 x 25/6 = 125/36, less than the 40/9 their
    # Rapid Fire kills (and after Rapid Fire no charge, seed 004): they
    # shoot, no charge comes, and the Troopers, who would lose their own
    # charge, no longer retreat from it.
    battle, troopers, brutes = troopers_facing(11.0)
    assert expected_attack(battle, brutes, troopers, FireOrders()) == pytest.approx(10 * SHOT)
    assert fight_net(battle, brutes, troopers) == pytest.approx(-FIGHT)
    assert shoots_rather_than_charges(battle, brutes, troopers, 30 / 36 * FIGHT)
    assert counter_charge(battle, brutes, troopers) == 0.0
    assert charge_threat(battle, troopers) == 0.0
    assert move_intent(battle, "a") == "advance"


def test_a_gunline_with_no_shooting_phase_to_come_would_charge_after_all() -> None:
    # The same gunline in a game of Movement and Assault phases only
    # (editions/schedule.py): it has no shooting to prefer, so its charge
    # counts: 5" left after its 6" move, 2D6 >= 5 (30/36), times the fight's
    # 25/6 (no Overwatch, nothing spared).
    battle, troopers, brutes = troopers_facing(11.0)
    record_schedule(battle, Schedule(2, ("movement", "assault"), (A, B)))
    assert not shoots_rather_than_charges(battle, brutes, troopers, 30 / 36 * FIGHT)
    assert counter_charge(battle, brutes, troopers) == pytest.approx(30 / 36 * FIGHT)


def test_the_gunline_s_own_shooting_plan_agrees_once_it_has_moved_in() -> None:
    # The Brutes 5" away, where the counter-charge pictures them after their
    # 6" move: the same 30/36 to reach, the same two shots each.
    # Their own shooting plan (shooting_plans.shooting_plan) fires every boltgun at the
    # Troopers (40/9) rather than charging (125/36; the Troopers' charge they
    # would forestall loses its fight and gains them nothing).
    battle, troopers, brutes = troopers_facing(5.0)
    plan = shooting_plan(battle, brutes)
    assert plan.target is troopers
    assert not plan.keep_charge
    assert plan.value == pytest.approx(10 * SHOT)


def test_a_gunline_whose_charge_is_worth_more_than_its_shooting_still_threatens() -> None:
    # 13" apart: beyond half range, one shot each, 5 x 4/9 = 20/9; after the
    # move the Brutes need 7" (21/36), a charge worth 21/36 x 25/6 = 175/72
    # to them, more than 20/9: the charge counts, and the Troopers retreat.
    battle, troopers, brutes = troopers_facing(13.0)
    assert expected_attack(battle, brutes, troopers, FireOrders()) == pytest.approx(5 * SHOT)
    assert not shoots_rather_than_charges(battle, brutes, troopers, 21 / 36 * FIGHT)
    assert counter_charge(battle, brutes, troopers) == pytest.approx(21 / 36 * FIGHT)
    assert charge_threat(battle, troopers) == pytest.approx(21 / 36 * FIGHT)
    assert move_intent(battle, "a") == "retreat"


def test_assault_weapons_leave_the_charge_open_so_it_still_threatens() -> None:
    # Storm bolters (Assault 2) 11" away: 10 shots for the same 40/9, but
    # firing them leaves the charge open (seed 004 bars it only after Rapid
    # Fire, Salvo, Ordnance or Heavy), so the Brutes may shoot and charge:
    # the threat is the charge's 30/36 x 25/6, and the Troopers retreat.
    battle, troopers, brutes = troopers_facing(11.0, assault=True)
    assert expected_attack(battle, brutes, troopers, FireOrders()) == pytest.approx(10 * SHOT)
    assert not shoots_rather_than_charges(battle, brutes, troopers, 30 / 36 * FIGHT)
    assert charge_threat(battle, troopers) == pytest.approx(30 / 36 * FIGHT)
    assert move_intent(battle, "a") == "retreat"


def test_a_gunline_out_of_range_has_no_shooting_to_prefer() -> None:
    # 25" apart, beyond the boltguns' 24": nothing to shoot, so the charge
    # (whatever it gains) is not set aside for shooting.
    battle, troopers, brutes = troopers_facing(25.0)
    assert expected_attack(battle, brutes, troopers, FireOrders()) == 0.0
    assert not shoots_rather_than_charges(battle, brutes, troopers, 0.01)
