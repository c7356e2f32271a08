"""A blast that scatters back onto its own firing unit and wipes it out, then wounds
the target: the target's wounds still go to its model closest to where the firing
unit stood (seed 000, step 6: "to the closest model in the target unit"). Found by
the search AI's playouts, which crashed on it once the library's units threw frag
grenades (a 3" Blast, 8" range)."""

from __future__ import annotations

import pytest
from conftest import GUARD, A, B, all_dice_used, make_battle, of_kind, shooting_phase, squad, weapon

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import aim_value, expected_per_model
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import weapon_choices
from hammerlab.engine.decisions import Decision, DecisionContext
from hammerlab.engine.memo import decision_scope

BOMB = weapon("Bomb", "12", "6", "1", "Assault 1, Large Blast")
"""S6 AP1: wounds a Guardsman (T4) on 2+ and leaves him no save."""


def test_a_blast_that_slays_its_own_firer_still_allocates_the_target_s_wounds() -> None:
    # The lone Guardsman (BS3) at (30,10) aims the 5" marker at b.1 (30,14). It
    # scatters (3: an arrow) 270 degrees, 2D6 = 2 + 3 = 5 less BS3 = 2", to (30,12):
    # 2" from both models, under the 2.5" radius. His own unit is hit first (it came
    # first onto the table): 2+ to wound (6), no save at AP1: he dies. Then b.1: 2+ (4),
    # no save: slain, the wound going to the model closest to where he stood.
    firer = squad("a", A, GUARD, [BOMB], [(30, 10)], name="Bombers")
    target = squad("b", B, GUARD, [BOMB], [(30, 14)], name="Target")
    battle = make_battle(
        firer,
        target,
        dice=[3, 2, 3, 6, 4],
        directions=[270.0],
        script_a=[
            ("shooter", "Bombers [a]"),
            ("action", "shoot"),
            ("target", "Target [b]"),
            ("weapon", "Bomb"),
            ("aim", "b.1"),
        ],
    )
    shooting_phase(battle, A)
    (marker,) = of_kind(battle, "marker")
    assert marker.centre == pytest.approx((30, 12))
    assert marker.hits == {"Bombers [a]": 1, "Target [b]": 1}
    assert firer.destroyed and target.destroyed
    assert all_dice_used(battle)


FRAG = weapon("Frag grenades", "8", "3", "-", "Assault 1, Blast")
"""The Astra Militarum catalogue's Frag Grenades: 8" S3 AP- Assault 1, 3" Blast."""


def test_the_ai_throws_no_blast_whose_aim_risks_more_of_its_own_than_of_the_enemy() -> None:
    # Three Guardsmen (a) 6" from a lone enemy Guardsman (b.1 at (32,16)), two of their
    # own (f) 2.83" either side of him (sqrt(2^2 + 2^2)), out of base contact. The
    # grenade could hurt him (S3 wounds T4 on 5+, AP- against Sv5+), but the marker's only
    # aim is b.1, worth 1 enemy within 2.5" less twice the 2 friends within 3.5" (a
    # scatter's reach, expected.aim_value): -3. The AI stops rather than throw it.
    throwers = squad("a", A, GUARD, [FRAG], [(30, 10), (32, 10), (34, 10)], name="Throwers")
    friends = squad("f", A, GUARD, [], [(30, 18), (34, 18)], name="Friends")
    target = squad("b", B, GUARD, [], [(32, 16)], name="Target")
    battle = make_battle(throwers, friends, target)
    orders = FireOrders()
    firer = throwers.models[0]
    with decision_scope():
        assert expected_per_model(battle, throwers, target, "Frag grenades", orders) > 0
        aim = aim_value(battle, throwers, firer, weapon_of(FRAG), target.models[0])
    assert aim == -3
    decision = Decision(
        kind="weapon",
        player=A,
        prompt="Select a weapon",
        choices=weapon_choices(("Frag grenades",)),
        context=DecisionContext(unit="a", target="b"),
    )
    assert decision.labels()[WaffleAI().choose(battle, decision)] == "stop"
