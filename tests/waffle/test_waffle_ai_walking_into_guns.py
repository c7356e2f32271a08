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
    TROOPER,
    A,
    B,
    Placed,
    make_battle,
    make_unit,
    profile,
    row,
    squad,
    weapon,
)
from test_waffle_ai_victory_worth import action, kill_points, move_intent

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle import move_plans
from hammerlab.editions.waffle.move_plans import (
    ahead_of_it,
    fire_taken,
    guns_brought,
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


def boss_facing(
    *,
    screened: bool,
    boss: Unit | None = None,
    screen: Unit | None = None,
) -> tuple[Battle, Unit, Unit]:
    """Ten Marines in a row at y = 10 (nine boltguns, the heavy bolter at x = 38)
    and the Boss (or ``boss``) at (38, 37); when ``screened``, five Troopers of
    his army (or ``screen``) at y = 30, nearer the Marines, from x = 42: off the
    lines from the Marines to the Boss, which cross y = 30 between x = 35.9 and
    40.6, so they give him no cover from intervening models (a 1" base at
    x = 42 lies 1.3" from the nearest line, from (48, 10))."""
    guns = [HEAVY_BOLTER if x == 38 else BOLTGUN for x, _ in row(30, 10, 10)]
    tactical = make_unit(
        "t", A, [Placed(MARINE, [gun], at) for gun, at in zip(guns, row(30, 10, 10), strict=True)]
    )
    boss = boss or squad("w", B, BOSS, [], [(38.0, 37.0)])
    units = [tactical, boss]
    if screened:
        units.append(screen or squad("s", B, TROOPER, [], row(42, 30, 5)))
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


# The same Boss with six Wounds: each wound is a sixth of him, so the fire he
# takes where he stands is 1/6 and on the way 1/3. Advancing adds
# 2 x (1/3 - 1/6) = 1/3 of him, and two volleys of 1/3 leave 1 - 2/3 = 1/3 of
# him to charge: he holds when 1/3 > 1/3 x the charge's gain, a gain below 1.
BIG_BOSS = profile("Big Boss", ws=5, s=5, t=5, w=6, a=4, sv="4+")


@pytest.mark.parametrize(
    ("gain", "holds"),
    [
        # A third of a gain of 1/2 is 1/6, less than the 1/3 he adds: he holds
        # (counting the gain whole, as if all of him arrived, he would go).
        (0.5, True),
        # A third of 3/2 is 1/2, more than the 1/3 he adds: he goes (counting
        # the whole fire on the way, 2/3, not what it adds to the fire he takes
        # holding, he would hold).
        (1.5, False),
    ],
)
def test_he_weighs_the_share_of_him_left_to_charge_against_the_fire_his_advance_adds(
    monkeypatch: pytest.MonkeyPatch, gain: float, holds: bool
) -> None:
    battle, _, boss = boss_facing(screened=True, boss=squad("w", B, BIG_BOSS, [], [(38.0, 37.0)]))
    assert fire_taken(battle, boss) == pytest.approx(1 / 6)
    assert fire_taken(battle, boss, 9.5) == pytest.approx(1 / 3)
    asked: list[tuple[str, float]] = []

    def charge_gain(battle: Battle, unit: Unit, target: Unit, closer: float = 0.0) -> float:
        asked.append((target.id, closer))
        return gain

    monkeypatch.setattr(move_plans, "charge_gain", charge_gain)
    assert shot_down_on_the_way(battle, boss) is holds
    # The gain of his charge at the Marines once in reach: 25" nearer.
    assert asked == [("t", 25.0)]


@pytest.mark.parametrize(("last_turn", "holds"), [(3, False), (2, True)])
def test_he_walks_into_the_guns_only_if_the_game_leaves_him_his_charge(
    monkeypatch: pytest.MonkeyPatch, last_turn: int, holds: bool
) -> None:
    # The Big Boss of the test above, his charge taken to gain 3/2: with the
    # game going on he goes. He moves first in turn 1 and charges in his turn
    # after two of the Marines' volleys: turn 3. A game of three turns has it;
    # one of two ends after both volleys (the Marines' turns 1 and 2) and
    # before it, so his advance adds 2 x (1/3 - 1/6) = 1/3 of him to the fire
    # for no charge at all: he holds.
    big = squad("w", B, BIG_BOSS, [], [(38.0, 37.0)])
    battle, _, boss = boss_facing(screened=True, boss=big)
    record_schedule(battle, Schedule(last_turn, ("movement", "shooting", "assault"), (B, A)))
    battle.active_player = B
    monkeypatch.setattr(move_plans, "charge_gain", lambda *_args: 1.5)
    assert shot_down_on_the_way(battle, boss) is holds


def test_in_his_side_s_last_turn_no_volley_is_left_to_walk_into(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The Big Boss whose charge gains 1/2 holds as the game goes on (above);
    # in the last turn, the Marines first, no volley of theirs is left: his
    # advance adds no fire (0 x (1/3 - 1/6)), so he does not hold.
    big = squad("w", B, BIG_BOSS, [], [(38.0, 37.0)])
    battle, _, boss = boss_facing(screened=True, boss=big)
    record_schedule(battle, Schedule(1, ("movement", "shooting", "assault"), (A, B)))
    battle.active_player = B
    monkeypatch.setattr(move_plans, "charge_gain", lambda *_args: 0.5)
    assert not shot_down_on_the_way(battle, boss)
    # No volley left, the fire on the way and where he stands is not worked out.
    asked: list[float] = []

    def fire_taken(_battle: Battle, _unit: Unit, closer: float = 0.0) -> float:
        asked.append(closer)
        return 0.0

    monkeypatch.setattr(move_plans, "fire_taken", fire_taken)
    assert not shot_down_on_the_way(battle, boss)
    assert asked == []


@pytest.mark.parametrize(("by_kill_points", "holds"), [(False, True), (True, False)])
def test_the_fire_is_weighed_by_what_a_model_is_worth_to_the_victory(
    monkeypatch: pytest.MonkeyPatch, by_kill_points: bool, holds: bool
) -> None:
    # Two Big Bosses side by side: the fire is that at one (1/6 where they
    # stand, 1/3 on the way), the walk adds 1/3 of a Boss and leaves
    # 1 - (2/3) / 2 = 2/3 of them to make a charge taken to gain 0.3. Scored by
    # models, 1/3 > 2/3 x 0.3 = 0.2: they hold. Scored by kill points a Boss
    # is half of his unit's point: 1/3 x 1/2 = 1/6 < 0.2: they go.
    pair = squad("w", B, BIG_BOSS, [], [(37.5, 37.0), (38.5, 37.0)])
    battle, _, bosses = boss_facing(screened=True, boss=pair)
    if by_kill_points:
        kill_points(battle)
    assert fire_taken(battle, bosses) == pytest.approx(1 / 6)
    assert fire_taken(battle, bosses, 9.5) == pytest.approx(1 / 3)
    monkeypatch.setattr(move_plans, "charge_gain", lambda *_args: 0.3)
    assert shot_down_on_the_way(battle, bosses) is holds


def test_a_mob_whose_survivors_charge_is_worth_the_fire_goes_in() -> None:
    # Ten Bosses in a row at y = 37: where they stand only the heavy bolter
    # reaches them (the nearest boltgun is 26" away), a third of a Boss; on
    # the way all nine boltguns too: 2/3 of a Boss a volley, as for the one.
    # The walk adds 2/3 of a Boss, and leaves 1 - (4/3) / 10 of the mob to
    # charge; ten Bosses' five attacks each (four and the charge's) kill
    # 50 x 2/3 x 2/3 x 1/3 = 7.4 Marines in the first round, a gain far
    # beyond the 0.77 that would make the walk not worth it.
    mob = squad("w", B, BOSS, [], row(29, 37, 10))
    battle, _, boss = boss_facing(screened=True, boss=mob)
    assert fire_taken(battle, boss) == pytest.approx(1 / 3)
    assert fire_taken(battle, boss, 9.5) == pytest.approx(2 / 3)
    assert not shot_down_on_the_way(battle, boss)
    assert move_intent(battle, "w") == "advance"


# Heavy 9 at 36": where he stands each shot kills 2/3 (BS4) x 2/3 (S5 v T4)
# x 1/3 (a 3+ save against AP4) = 4/27 of a Marine: 9 x 4/27 = 4/3, more than
# the 5 x 4/27 = 20/27 his first round of blows (four and the charge's) kills.
BIG_GUN = weapon("Big gun", "36", "5", "4", "Heavy 9")
# Assault 6 at 24": out of reach where he stands (26"), 6 x 4/27 = 8/9 of a
# Marine a move nearer.
SHORT_GUN = weapon("Short gun", "24", "5", "4", "Assault 6")


def test_a_boss_there_to_shoot_does_not_hold_out_of_the_guns() -> None:
    # His gun reaches the Marines from where he stands (nothing brought by an
    # advance), and the walk adds 2/3 of him to the fire he takes, which would
    # make him hold; but his shooting kills more than his blows would: he is
    # not there to charge, and the rule is not his.
    battle, tactical, boss = boss_facing(
        screened=True, boss=squad("w", B, BOSS, [BIG_GUN], [(38.0, 37.0)])
    )
    assert guns_brought(battle, boss, tactical) == 0.0
    assert not shot_down_on_the_way(battle, boss)


def test_the_guns_his_advance_brings_in_reach_can_pay_for_the_walk() -> None:
    # Scored by models: his gun brings 8/9 of a Marine a turn, more than the
    # 2/3 of him the walk adds to the fire (his charge buys nothing: two
    # volleys are expected to kill him first): he advances.
    battle, tactical, boss = boss_facing(
        screened=True, boss=squad("w", B, BOSS, [SHORT_GUN], [(38.0, 37.0)])
    )
    assert guns_brought(battle, boss, tactical) == pytest.approx(8 / 9)
    assert not shot_down_on_the_way(battle, boss)


def test_under_kill_points_a_lone_boss_is_worth_more_than_the_marines_his_gun_brings() -> None:
    # Scored by kill points, he is a unit of one, his whole kill point; a
    # Marine is a tenth of his squad's: the 8/9 of a Marine his gun brings is
    # worth 8/90, less than the 2/3 of his point the walk adds: he holds.
    battle, tactical, boss = boss_facing(
        screened=True, boss=squad("w", B, BOSS, [SHORT_GUN], [(38.0, 37.0)])
    )
    kill_points(battle)
    assert guns_brought(battle, boss, tactical) == pytest.approx(8 / 90)
    assert shot_down_on_the_way(battle, boss)
    assert move_intent(battle, "w") == "hold"


def test_behind_a_gun_line_that_will_never_lock_the_marines_he_goes_in() -> None:
    # Waiting is for the unit in front to tie the Marines' guns up in combat.
    # Five heavy bolters in front of him kill 5 x 3 x 4/27 = 20/9 Marines a
    # volley at 19", more than their 5 x 2 x 1/2 x 1/3 x 1/3 = 5/9 of blows
    # (WS4 v WS4, S3 v T4, the Marines' 3+): a gun line, there to shoot, that
    # does not charge them; holding behind it only puts off the walk.
    gun_line = squad("s", B, TROOPER, [HEAVY_BOLTER], row(42, 30, 5))
    battle, tactical, boss = boss_facing(screened=True, screen=gun_line)
    assert not ahead_of_it(battle, boss, tactical)
    assert not shot_down_on_the_way(battle, boss)
    assert move_intent(battle, "w") == "advance"
