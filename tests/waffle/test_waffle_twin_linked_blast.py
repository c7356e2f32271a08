"""Twin-linked Blast weapons may re-roll a scatter that rolled no HIT (7th edition,
``Warhammer40K.gst``: "For a Blast weapon, if the scatter dice does not roll a hit,
you can choose to re-roll the dice with a Twin-linked Blast weapon. If you choose to do
so, you must re-roll both the 2D6 and the scatter dice.")."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import (
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    dice_purposes,
    last,
    make_battle,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.markers import ScatterChoice
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit

TWIN_FRAG = weapon("Twin frag", "48", "4", "6", "Heavy 1, Blast, Twin-linked")
FRAG = weapon("Frag", "48", "4", "6", "Heavy 1, Blast")
BARE = profile("Unarmoured", sv="6+")
SCATTER_DIE = "scatter die (1-2: HIT)"


def blast_at(gun: object, dice: list[int], directions: list[float], answer: str = "") -> Battle:
    """A BS4 Marine at (30,10) aims its blast at b.1 (30,30); b.2 stands 11" east."""
    shooter = squad("a", A, MARINE, [gun], [(30, 10)])  # type: ignore[list-item]
    target = squad("b", B, BARE, [], [(30, 30), (41, 30)])
    script = [("aim", "b.1")] + ([("scatter_reroll", answer)] if answer else [])
    battle = make_battle(shooter, target, dice=dice, directions=directions, script_a=script)
    fire_weapon(battle, shooter, target, gun.name, FireOrders())  # type: ignore[attr-defined]
    return battle


def test_a_twin_linked_blast_that_scattered_may_re_roll_both_dice() -> None:
    """Scatter die 3 (no HIT), arrow 0° (+x), 2D6 = 6 + 6 = 12 less BS4: 8", to
    (38,30): over nothing (b.2 at (41,30) is 3" off, beyond the 1.5" + 0.5" a marker
    reaches). The player re-rolls: the scatter die shows 1, a HIT, so the marker stays
    on b.1, which is hit; wounds on 4+ (S4 v T4): 4; AP6 leaves its 6+ armour no save."""
    battle = blast_at(TWIN_FRAG, [3, 6, 6, 1, 4], [0.0], answer="re-roll")
    (question,) = asked(battle, A, "scatter_reroll")
    assert question.labels() == ["keep", "re-roll"]
    assert 'scattered 8.0" to (38.0,30.0), over nothing' in question.prompt
    assert dice_purposes(battle).count(SCATTER_DIE) == 2
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((30, 30))
    assert marker.hits == {"B [b]": 1}
    assert all_dice_used(battle)


def test_a_player_who_keeps_the_scatter_rolls_nothing_more() -> None:
    battle = blast_at(TWIN_FRAG, [3, 6, 6], [0.0], answer="keep")
    assert dice_purposes(battle).count(SCATTER_DIE) == 1
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((38, 30))
    assert marker.hits == {}
    assert all_dice_used(battle)


def test_no_re_roll_is_offered_after_a_hit_or_without_twin_linked() -> None:
    """A HIT (1) leaves nothing to re-roll; a Blast weapon without Twin-linked scatters
    once (3, 0°, 12 - 4 = 8")."""
    hit = blast_at(TWIN_FRAG, [1, 4], [])
    assert asked(hit, A, "scatter_reroll") == []
    plain = blast_at(FRAG, [3, 6, 6], [0.0])
    assert asked(plain, A, "scatter_reroll") == []
    assert all_dice_used(hit) and all_dice_used(plain)


def ai_answer(battle: Battle, unit: Unit, landed: tuple[float, float]) -> str:
    """The AI's answer for a marker placed on (30,30) (BS4) that came to rest at ``landed``."""
    keep = ScatterChoice(False, (30.0, 30.0), landed, 4, 3.0)
    decision = Decision(
        kind="scatter_reroll",
        player=A,
        prompt="",
        choices=(Choice("keep", keep), Choice("re-roll", replace(keep, reroll=True))),
        context=DecisionContext(unit=unit.id, weapon="Twin frag", models=("a.1",)),
    )
    return decision.choices[WaffleAI().choose(battle, decision)].label


def test_the_ai_re_rolls_a_landing_worth_less_than_a_re_roll() -> None:
    """Marines' enemies: a lone model at (30,30), where the marker was placed, and three
    in a clump at (50,40). Landed on nothing (worth 0), a re-roll is worth at least the
    HIT's 1 in 3 of the lone model: 1/3 > 0, so it re-rolls. Landed on the clump (worth
    3: each of the clump's bases lies within 0.7" of (50.5,40.3), inside the 1.5" + 0.5"
    a marker reaches), a re-roll is worth at most 1/3 x 1 + 2/3 x 3 = 7/3 < 3 (a 3"
    marker covers the lone model or the clump, 22" apart, never both), so it keeps."""
    shooter = squad("a", A, MARINE, [TWIN_FRAG], [(30, 10)])
    lone = squad("b", B, BARE, [], [(30, 30)])
    clump = squad("c", B, BARE, [], [(50, 40), (51, 40), (50.5, 41)])
    battle = make_battle(shooter, lone, clump)
    assert ai_answer(battle, shooter, (20.0, 45.0)) == "re-roll"
    assert ai_answer(battle, shooter, (50.5, 40.3)) == "keep"
