"""A unit there to charge does not walk ahead of its army into guns that are expected
to shoot it dead before its charge (docs/ai.md, "Out of the guns";
``move_plans.shot_down_on_the_way``).

The situation: a lone Warboss, 26" from a Tactical Squad, behind a unit of his
own army nearer the Marines. Expected values are worked out by hand in the
comments. Bases are 1" across, so models whose centres stand ``c`` inches apart
are ``c - 1`` apart.
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    HEAVY_BOLTER,
    MARINE,
    A,
    B,
    Placed,
    make_battle,
    make_unit,
    profile,
    row,
    squad,
)
from test_waffle_ai_victory_worth import TROOPER, action, move_intent

from hammerlab.editions.waffle.move_plans import (
    fire_taken,
    shot_down_on_the_way,
    turns_under_fire,
)
from hammerlab.editions.waffle.shooting import HOLD, RUN
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

# WS5 S5 T5 W3 I4 A4, 4+ save, no guns: there to charge whatever it heads for.
BOSS = profile("Boss", ws=5, s=5, t=5, w=3, a=4, sv="4+")

# Where he stands, 26" from the nearest Marine, only the heavy bolter (36")
# reaches him: 3 shots x 2/3 to hit x 1/2 to wound (S5 v T5) and no save
# (AP4 v 4+): 1 wound, a third of him.
HERE = 1 / 3
# Advancing, he is 9.5" nearer when they next fire (his 6" move and a Run of
# 3.5", the mean of a D6): 16.5", in range of the nine boltguns (24", one shot
# each beyond half range): 9 x 2/3 x 1/3 (S4 v T5: 5+) x 1/2 (his 4+ save
# against AP5) = 1 wound, and the heavy bolter's 1: two thirds of him.
ON_THE_WAY = 2 / 3


def boss_facing(*, screened: bool) -> tuple[Battle, Unit, Unit]:
    """Ten Marines in a row at y = 10 (nine boltguns, the heavy bolter at x = 38)
    and the Boss at (38, 37); when ``screened``, five Troopers of his army at
    y = 30, nearer the Marines."""
    guns = [HEAVY_BOLTER if x == 38 else BOLTGUN for x, _ in row(30, 10, 10)]
    tactical = make_unit(
        "t", A, [Placed(MARINE, [gun], at) for gun, at in zip(guns, row(30, 10, 10), strict=True)]
    )
    boss = squad("w", B, BOSS, [], [(38.0, 37.0)])
    units = [tactical, boss]
    if screened:
        units.append(squad("s", B, TROOPER, [], row(34, 30, 5)))
    return make_battle(*units, seed=1), tactical, boss


def test_his_approach_walks_him_through_two_volleys_before_his_charge() -> None:
    # 26" away: after his 6" move 20" are left, beyond the 12" a charge may
    # go; he Runs (9.5" in all) and the Marines fire. Next turn his move
    # leaves 10.5": 11 on 2D6 is 3/36, short of even chances, so he Runs
    # again (19") and they fire again; the turn after, his move leaves 1".
    battle, tactical, boss = boss_facing(screened=True)
    assert turns_under_fire(battle, boss, tactical) == (2, 9.5, 25.0)


def test_the_fire_on_the_way_counts_the_boltguns_his_advance_brings_in_reach() -> None:
    battle, _, boss = boss_facing(screened=True)
    assert fire_taken(battle, boss) == pytest.approx(HERE)
    assert fire_taken(battle, boss, 9.5) == pytest.approx(ON_THE_WAY)


def test_behind_his_army_he_holds_rather_than_be_shot_dead_on_the_way() -> None:
    # Two volleys of 2/3 are expected to kill him (4/3 of a model) before he
    # charges, so the charge buys nothing; the advance adds 2 x (2/3 - 1/3)
    # = 2/3 of him to the fire he takes holding: he holds, and does not Run.
    battle, _, boss = boss_facing(screened=True)
    assert shot_down_on_the_way(battle, boss)
    assert move_intent(battle, "w") == "hold"
    assert action(battle, "w") == HOLD


def test_alone_he_advances_since_no_one_else_will_draw_the_fire() -> None:
    # Nothing of his army nearer the Marines: holding only puts off the walk.
    battle, _, boss = boss_facing(screened=False)
    assert not shot_down_on_the_way(battle, boss)
    assert move_intent(battle, "w") == "advance"
    assert action(battle, "w") == RUN


def test_once_the_guns_are_locked_in_combat_he_goes_in() -> None:
    # A unit locked in combat does not shoot: no fire either way, nothing
    # added by the advance.
    battle, tactical, boss = boss_facing(screened=True)
    st(battle, tactical).locked_in_combat = True
    assert fire_taken(battle, boss, 9.5) == 0.0
    assert move_intent(battle, "w") == "advance"
