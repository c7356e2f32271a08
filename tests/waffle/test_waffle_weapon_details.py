"""What a person choosing a weapon is told of each one offered (``Decision.describe``).

From a player's review: the weapon prompt named the weapons able to fire and
nothing more, so a player learned only from the dice that a lasgun cannot hurt
a Toughness 7 monster or a Walker. Seed 000 step 3: "Select a weapon the firing
unit is equipped with"; each weapon offered is now described by how many models
would fire it and what it may do, or that it cannot hurt the target and why.

Expected figures are worked out by hand from the 6th/7th-edition charts: ten
Guardsmen (BS3: hits on 4+) 20" from Space Marines, out of a lasgun's half range
(Rapid Fire: one shot each), Strength 3 against Toughness 4 wounds on 5+, and a
3+ armour save (a lasgun's AP is '-') fails on 1-2: 10 x 1/2 x 1/3 x 1/3 = 0.556
models. Strength 3 against Toughness 7 is four below: "cannot wound" (chart
'-'). A Walker's armour is 12 front, 10 side and rear: S3 + D6 reaches 9 at most.
"""

from __future__ import annotations

from conftest import GUARD, LASGUN, MARINE, WALKER, A, B, asked, make_battle, profile, row, squad

from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import shooting_attack
from hammerlab.engine.units import Unit


def _details_against(target: Unit) -> dict[str, str]:
    """The weapon decision's choices, each with what it says, of ten Guardsmen with
    lasguns 20" south of ``target``, who stop without firing."""
    guard = squad("guard", A, GUARD, [LASGUN], row(20.0, 10.0, 10))
    battle = make_battle(guard, target, script_a=[("weapon", "stop")])
    shooting_attack(battle, guard, target, FireOrders())
    decision = asked(battle, A, "weapon")[0]
    return dict(zip(decision.labels(), decision.details(), strict=True))


def test_a_weapon_offered_says_how_many_fire_it_and_what_it_is_expected_to_slay() -> None:
    marines = squad("marines", B, MARINE, [], row(20.0, 31.0, 5))  # 21" centre to centre
    details = _details_against(marines)
    assert details == {"Lasgun": "10 models fire; about 0.56 models slain expected", "stop": ""}


def test_a_weapon_that_cannot_wound_the_target_s_toughness_says_so() -> None:
    monsters = squad("beasts", B, profile("Beast", t=7), [], row(20.0, 31.0, 5), name="Beasts")
    details = _details_against(monsters)
    assert details["Lasgun"] == "10 models fire; cannot hurt Beasts [beasts]: S3 cannot wound T7"


def test_a_weapon_that_cannot_beat_a_vehicle_s_armour_says_so() -> None:
    walker = squad("walker", B, WALKER, [], row(30.0, 31.0, 1), name="Sentinel")
    details = _details_against(walker)
    assert details["Lasgun"] == (
        "10 models fire; cannot hurt Sentinel [walker]: S3 cannot beat its armour from here"
    )
