"""A blast that scatters back onto its own firing unit and wipes it out, then wounds
the target: the target's wounds still go to its model closest to where the firing
unit stood (seed 000, step 6: "to the closest model in the target unit"). Found by
the search AI's playouts, which crashed on it once the library's units threw frag
grenades (a 3" Blast, 8" range)."""

from __future__ import annotations

import pytest
from conftest import GUARD, A, B, all_dice_used, make_battle, of_kind, squad, weapon

from hammerlab.editions.waffle.shooting import shooting_phase

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
