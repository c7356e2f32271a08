"""The order a unit fires its weapons in (``ai.weapon_first``, ``expected.first_then_rest``),
and the log's word for a weapon the casualties left with nothing to fire at
(``events.WeaponLeftUnfired``).

Seed 000, step 3: "Every model that wishes to shoot must be within range of at least
one visible model in the target unit", asked as each weapon is selected, after the
casualties of those before it (step 6 removes "the closest model" first). The
reviewer's case (session 23): a heavy bolter fired first slew the one Guardsman within
the boltguns' 24", and the eight boltguns never fired.

Every test below stands one heavy bolter Marine and four boltgun Marines in a row at
y = 10 (x = 30 to 38) on an open table, against Guardsmen (T4, 5+). Bases are 1" across,
so a gap is the centres' distance less 1". By hand: a boltgun beyond 12" fires one shot,
BS4 hits on 3+ (2/3), S4 wounds T4 on 4+ (1/2), AP5 leaves a 5+ no save: 1/3 of a
Guardsman per boltgun, 4/3 for four. The heavy bolter: 3 shots x 2/3 x (S5 on T4: 3+,
2/3), AP4, no save: 4/3 for its one model.
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    GUARD,
    HEAVY_BOLTER,
    MARINE,
    A,
    B,
    Placed,
    all_dice_used,
    make_battle,
    make_unit,
    of_kind,
    row,
    squad,
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import first_then_rest
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import shooting_attack, weapon_choices
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision, DecisionContext
from hammerlab.engine.memo import decision_scope
from hammerlab.engine.units import Unit

THIRDS = 4 / 3
"""Expected Guardsmen slain by the heavy bolter, and by the four boltguns (module doc)."""


def marines(sidearm: bool = False) -> Unit:
    """The heavy bolter at (30, 10), boltguns at x = 32 to 38 (with bolt pistols)."""
    guns = [BOLTGUN, BOLT_PISTOL] if sidearm else [BOLTGUN]
    return make_unit(
        "m",
        A,
        [Placed(MARINE, [HEAVY_BOLTER], (30.0, 10.0))]
        + [Placed(MARINE, guns, at) for at in row(32.0, 10.0, 4)],
    )


def column_at_the_edge() -> Unit:
    """One Guardsman at (34, 33): 22" to 22.4" from every Marine (within 24"); four
    more at y = 38, 27" or more from every Marine (beyond 24", within 36")."""
    return make_unit(
        "g",
        B,
        [Placed(GUARD, [], (34.0, 33.0))] + [Placed(GUARD, [], at) for at in row(30.0, 38.0, 4)],
    )


def first_choice(battle: Battle) -> str:
    """The AI's first weapon for the Marines at the Guardsmen."""
    decision = Decision(
        kind="weapon",
        player=A,
        prompt="Select a weapon",
        choices=weapon_choices(("Heavy bolter", "Boltgun")),
        context=DecisionContext(unit="m", target="g"),
    )
    return decision.labels()[WaffleAI().choose(battle, decision)]


def test_a_volley_then_the_rest_is_read_off_the_target_it_leaves() -> None:
    # The heavy bolter first: 4/3 slain, then none of the boltguns fires (with one
    # Guardsman slain, or two, the nearest left is 27" away): 4/3 in all. The boltguns
    # first: 4/3, and the heavy bolter reaches the rest (36"): 8/3.
    shooter, target = marines(), column_at_the_edge()
    battle = make_battle(shooter, target)
    with decision_scope():
        hb_first = first_then_rest(
            battle, shooter, target, "Heavy bolter", ["Boltgun"], FireOrders()
        )
        boltguns_first = first_then_rest(
            battle, shooter, target, "Boltgun", ["Heavy bolter"], FireOrders()
        )
    assert hb_first == pytest.approx(THIRDS)
    assert boltguns_first == pytest.approx(2 * THIRDS)


def test_the_ai_fires_first_the_guns_the_first_kill_would_put_out_of_range() -> None:
    # Per firing model the heavy bolter is worth 4/3 and a boltgun 1/3, so the AI fired
    # the heavy bolter first; its expected kill is the one Guardsman the boltguns reach.
    battle = make_battle(marines(), column_at_the_edge())
    assert first_choice(battle) == "Boltgun"


def test_with_every_target_in_reach_the_most_per_firing_model_still_goes_first() -> None:
    # Five Guardsmen 15" off: whoever is slain first, every gun still reaches the rest,
    # beyond the boltguns' half range: either order is worth 8/3, and the heavy bolter
    # (4/3 a model) goes first, as before.
    battle = make_battle(marines(), squad("g", B, GUARD, [], row(30.0, 26.0, 5)))
    assert first_choice(battle) == "Heavy bolter"


def test_a_weapon_the_casualties_left_out_of_range_is_logged_unfired() -> None:
    # The heavy bolter fired first, as a player may: to-hit 6, 1, 1 (one hit on 3+),
    # to-wound 6 (3+), AP4 against 5+: no save. The Guardsman at (34, 33) is the closest
    # and is removed; the boltguns' nearest target is now (32, 38) from (32, 10): 28"
    # between centres, a 27" gap, beyond their 24", and their models have fired nothing.
    shooter, target = marines(), column_at_the_edge()
    battle = make_battle(shooter, target, dice=[6, 1, 1, 6], script_a=[("weapon", "Heavy bolter")])
    shooting_attack(battle, shooter, target, FireOrders())
    assert all_dice_used(battle)
    assert len(target.alive_models) == 4
    [unfired] = of_kind(battle, "unfired")
    assert (unfired.unit, unfired.weapon, unfired.target) == ("M [m]", "Boltgun", "G [g]")
    assert unfired.weapon_range == 24
    assert unfired.nearest == pytest.approx(27.0)
    assert unfired.text == (
        '  M [m] cannot fire Boltgun: no model of G [g] is within 24" any more '
        '(the nearest is 27.0" away)'
    )


def test_a_weapon_its_models_have_no_shot_left_for_is_not_logged_unfired() -> None:
    # Marines 10" from the Guardsmen with boltguns and bolt pistols: once the boltguns
    # fire (Rapid Fire within 12": two shots each, eight to-hit 1s) the pistols are not
    # offered, their models having fired their one weapon; the heavy bolter's three
    # shots miss too. No range was lost, so no word of it.
    shooter = marines(sidearm=True)
    target = squad("g", B, GUARD, [], row(30.0, 21.0, 5))
    battle = make_battle(
        shooter,
        target,
        dice=[1] * 8 + [1, 1, 1],
        script_a=[("weapon", "Boltgun"), ("weapon", "Heavy bolter")],
    )
    shooting_attack(battle, shooter, target, FireOrders())
    assert all_dice_used(battle)
    assert of_kind(battle, "unfired") == []


def test_the_rest_is_counted_for_the_models_the_first_weapon_left_a_shot() -> None:
    # Four Marines with boltguns and bolt pistols: two 10" from five Guardsmen (Rapid
    # Fire's two shots, the pistol in range), two 19" off (one boltgun shot, the pistol
    # out of range). Bolt pistols first: the near two fire them, 2 x 1/3; then only the
    # far two may fire their boltguns, 2 x 1/3: 4/3 in all (averaged over all four
    # boltguns, 6 shots / 4, the far two were credited 1/2 each: 5/3). Boltguns first:
    # 6 shots x 1/3 = 2, and no model has a shot left for its pistol.
    near, far = row(30.0, 10.0, 2), row(30.0, 1.0, 2)
    shooter = squad("m", A, MARINE, [BOLTGUN, BOLT_PISTOL], near + far)
    target = squad("g", B, GUARD, [], row(30.0, 21.0, 5))
    battle = make_battle(shooter, target)
    with decision_scope():
        pistols_first = first_then_rest(
            battle, shooter, target, "Bolt pistol", ["Boltgun"], FireOrders()
        )
        boltguns_first = first_then_rest(
            battle, shooter, target, "Boltgun", ["Bolt pistol"], FireOrders()
        )
    assert pistols_first == pytest.approx(4 / 3)
    assert boltguns_first == pytest.approx(2.0)
