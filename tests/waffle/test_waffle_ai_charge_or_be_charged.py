"""The heuristic AI's charge weighed against being charged back, and its view of the
Initiative 1 step a charge across difficult terrain will strike at (issue 9 §1).

Each position is built by hand; the expected values and choices are worked out
in the comments from the rules (the 7th-edition chart: WS4 against WS4 hits on
4+; S3 against T3 wounds on 4+, against T4 on 5+, S4 against T3 on 3+), not read
off the AI.
"""

from __future__ import annotations

import pytest
from conftest import TROOPER, A, B, box, make_battle, profile, row, squad, weapon
from fight_kit import CHAINSWORD, GUARD, MARINE

from hammerlab.editions.waffle.expected import strikes_first
from hammerlab.editions.waffle.plans import (
    charge_or_be_charged,
    charge_value,
    counter_charge,
    fight_goes_on,
)
from hammerlab.editions.waffle.shooting_plans import shooting_plan
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

WALL = box("wall", 25, 12, 35, 14, difficult=True)
"""Difficult ground across the 5" between a charger at (30, 10) and its target at (30, 16)."""
FRAG = weapon("Frag Grenades", "8", "3", "-", "Assault 1, Blast")


@pytest.mark.parametrize(
    ("wall", "grenades", "charger_first"),
    [(False, False, True), (True, False, False), (True, True, True)],
)
def test_a_charge_still_to_be_declared_across_difficult_ground_strikes_at_initiative_one(
    wall: bool, grenades: bool, charger_first: bool
) -> None:
    # 7th edition: models that charge through difficult terrain fight at
    # Initiative 1, unless they have assault grenades. A Marine (I4) about to
    # charge a Guardsman (I3): across open ground he strikes first (4 > 3);
    # across the wall at 1, after the Guardsman (3 > 1); with frag grenades at
    # 4 again. Nothing has been declared yet: the estimate must foresee it.
    gear = [CHAINSWORD, FRAG] if grenades else [CHAINSWORD]
    charger = squad("a", A, MARINE, gear, [(30, 10)])
    target = squad("b", B, GUARD, [CHAINSWORD], [(30, 16)])
    battle = make_battle(charger, target, seed=1, terrain=[WALL] if wall else [])
    assert strikes_first(battle, charger, target, True) is charger_first
    assert strikes_first(battle, target, charger, False) is not charger_first


TOUGH = profile("Tough", s=3, t=4, i=3, sv="-")


def three_lines() -> tuple[Battle, Unit, Unit, Unit]:
    """Five Troopers (no guns: no Overwatch, nothing spared) between five more
    Troopers 3" to the north and five Tough ones with Furious Charge 3" to the
    south, each line face to face, so every model of either side fights and any
    charge (2" between bases, 2D6) reaches."""
    own = squad("a", A, TROOPER, [], row(30, 10, 5))
    weak = squad("x", B, TROOPER, [], row(30, 13, 5), name="Weak")
    fierce = squad("y", B, TOUGH, [], row(30, 7, 5), name="Fierce", rules=["Furious Charge"])
    return make_battle(own, weak, fierce, seed=1), own, weak, fierce


def test_a_charge_is_weighed_against_the_charge_it_forestalls() -> None:
    # All strike at Initiative 3, so both sides strike in full; a blow hits on
    # 4+ (1/2). Charging the Weak Troopers: 5 x 2 Attacks (1 + the charge's) x
    # 1/2 x 1/2 (S3 v T3) = 2.5 slain, against 5 x 1 x 1/2 x 1/2 = 1.25 lost:
    # +1.25. Charging the Tough ones: 10 x 1/2 x 1/3 (S3 v T4) = 5/3 slain,
    # 1.25 lost: +5/12. Against doing nothing the Weak are the better charge.
    battle, own, weak, fierce = three_lines()
    assert charge_value(battle, own, weak).value == pytest.approx(1.25)
    assert charge_value(battle, own, fierce).value == pytest.approx(5 / 12)
    # But each would charge the Troopers next turn: the Weak for the same
    # +1.25; the Fierce with Furious Charge (S4 v T3, 3+): 10 x 1/2 x 2/3 =
    # 10/3 slain, 5 x 1/2 x 1/3 (S3 v T4) = 5/6 lost: +2.5.
    assert counter_charge(battle, weak, own) == pytest.approx(1.25)
    assert counter_charge(battle, fierce, own) == pytest.approx(2.5)
    # A charge that reaches forestalls that charge, not the fight: it goes on
    # in the enemy's turn, one Attack each, no Furious Charge. The Weak net 5
    # x 1/2 x 1/2 - 5 x 1/2 x 1/2 = 0 of it, the Fierce 5 x 1/2 x 1/2 (S3 v
    # T3) - 5 x 1/2 x 1/3 = 5/12. Forestalled: 1.25 - 0 for the Weak, 2.5 -
    # 5/12 = 25/12 for the Fierce (their charge bonus), so 1.25 + 1.25 = 2.5
    # and 5/12 + 25/12 = 2.5: the two charges are worth the same.
    assert fight_goes_on(battle, weak, own) == pytest.approx(0.0)
    assert fight_goes_on(battle, fierce, own) == pytest.approx(5 / 12)
    assert charge_or_be_charged(battle, own, weak).value == pytest.approx(2.5)
    assert charge_or_be_charged(battle, own, fierce).value == pytest.approx(2.5)


def test_a_fight_that_goes_on_is_not_forestalled_so_a_gunline_shoots_the_horde() -> None:
    # Five Troopers with Heavy 2 guns (BS4, S4 AP-) 3" from a horde of ten
    # gunless Troopers in two ranks of five (the back rank 6" behind the
    # front). Their charge reaches (2" between bases) and wins its round: the
    # charge move meets the front rank only (the back rank is 8" away, beyond
    # the front's 2" plus 2" plus a base), so 5 x 2 x 1/4 = 2.5 slain against
    # 5 x 1/4 = 1.25 lost: +1.25, and nothing spared or taken in Overwatch
    # (the horde has no guns). Next turn the horde's own charge: all ten with
    # the bonus Attack, 10 x 2 x 1/4 = 5 slain (all five), 1.25 lost, the
    # Troopers' shooting spared (10 shots x 2/3 (3+) x 2/3 (S4 v T3, 3+) =
    # 40/9, by the 7/8 of the horde left: 35/9), less their Overwatch (10
    # Snap Shots at half their BS, seed 000: BS2, 5+: 10 x 1/3 x 2/3 =
    # 20/9): 3.75 + 35/9 - 20/9 = 3.75 + 5/3.
    troopers = profile("Trooper", s=3, t=3, i=3, sv="-")
    gun = weapon("Heavy gun", "36", "4", "-", "Heavy 2")
    own = squad("a", A, troopers, [gun], row(30, 10, 5))
    horde = squad("h", B, troopers, [], row(30, 13, 5) + row(30, 19, 5), name="Horde")
    battle = make_battle(own, horde, seed=1)
    assert charge_value(battle, own, horde).value == pytest.approx(1.25)
    assert counter_charge(battle, horde, own) == pytest.approx(3.75 + 5 / 3)
    # The fight the charge starts goes on in the horde's turn all the same,
    # every model fighting, one Attack each: 10 x 1/4 - 5 x 1/4 = 1.25, and the
    # Troopers' shooting spared as before: 1.25 + 35/9. What is forestalled is
    # only the difference, 2.5 - 20/9 = 5/18; before, all of the horde's
    # charge was (the charge then worth 1.25 + 3.75 + 5/3 = 6.67, and the
    # Troopers held their fire for it).
    assert fight_goes_on(battle, horde, own) == pytest.approx(1.25 + 35 / 9)
    assert charge_or_be_charged(battle, own, horde).value == pytest.approx(1.25 + 5 / 18)
    # Shooting the horde (Heavy: no charge after it) is worth 40/9 = 4.44 > 1.53.
    plan = shooting_plan(battle, own)
    assert plan.target is horde
    assert not plan.keep_charge
    assert plan.value == pytest.approx(40 / 9)


def test_a_charge_that_loses_its_own_round_is_not_made_to_forestall_another() -> None:
    # Five Troopers charging five Tough ones with Furious Charge that strike
    # first (I4, two Attacks): they slay 10 x 1/2 x 1/2 = 2.5 Troopers first;
    # the Troopers' 5 x 2 x 1/2 x 1/3 = 5/3 blows' worth is scaled by the half
    # left: 5/6. Only a charge that wins its own first round counts the enemy
    # charge it forestalls (an interpretation: a unit losing either fight has
    # its shooting and Fall Back, which a round's exchange does not weigh).
    own = squad("a", A, TROOPER, [], row(30, 10, 5))
    quick = profile("Quick", s=3, t=4, i=4, a=2, sv="-")
    fierce = squad("y", B, quick, [], row(30, 7, 5), rules=["Furious Charge"])
    battle = make_battle(own, fierce, seed=1)
    plain = charge_value(battle, own, fierce)
    assert (plain.dealt, plain.taken) == pytest.approx((5 / 6, 2.5))
    assert counter_charge(battle, fierce, own) > 0
    assert charge_or_be_charged(battle, own, fierce) == plain
