"""The luck of attacks (``editions/waffle/luck.py``): what a volley or a group's
blows did beyond what they were expected to do, the search AI's control
variate. Expected values are worked out by hand from the 6th/7th-edition
charts; the zero mean that makes the control variate fair is checked against
the rules' own resolution over many seeded volleys and fights."""

from __future__ import annotations

from statistics import fmean, stdev

import pytest
from conftest import LASGUN, MARINE, A, B, make_battle, profile, row, squad
from fight_kit import GUARD as GUARD_T3
from fight_kit import north, south

from hammerlab.editions import get_ruleset
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON, Blows, strike
from hammerlab.editions.waffle.luck import Luck, watch_luck
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.special_rules import close_combat_weapon
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

GUARDSMAN = profile("Guardsman", bs=3, s=3, ld=7, sv="5+")
STARTING_WOUNDS = get_ruleset("waffle").starting_wounds

# Five Guardsmen (BS3) fire lasguns (S3, Rapid Fire 24") at five Marines (T4, 3+)
# 20" away, beyond half range: one shot each. To hit 4+ (1/2), to wound 5+
# (S3 against T4: 1/3), the 3+ armour fails on a 1 or 2 (1/3): 5/18 Marines.
LASGUN_VOLLEY = 5 * (1 / 2) * (1 / 3) * (1 / 3)


def _volley(dice: list[int] | None = None, seed: int | None = None) -> tuple[Battle, Unit, Unit]:
    guards = squad("a", A, GUARDSMAN, [LASGUN], row(10, 4, 5))
    marines = squad("b", B, MARINE, [LASGUN], row(10, 25, 5))  # 20" apart, base to base
    battle = make_battle(guards, marines, dice=dice or [], seed=seed)
    return battle, guards, marines


def test_a_volley_s_luck_is_the_models_it_slew_less_those_it_was_expected_to() -> None:
    # Hits 6 6 6 1 1 (three), wounds 6 6 1 (two), saves 1 1 (both fail): two
    # Marines slain where 5/18 were expected.
    battle, guards, marines = _volley(dice=[6, 6, 6, 1, 1, 6, 6, 1, 1, 1])
    luck = watch_luck(battle, "models_destroyed", STARTING_WOUNDS)
    fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
    assert len(marines.alive_models) == 3
    assert luck.by_player == {A: pytest.approx(2 - LASGUN_VOLLEY)}
    assert luck.margin(A) == pytest.approx(2 - LASGUN_VOLLEY)
    assert luck.margin(B) == pytest.approx(-(2 - LASGUN_VOLLEY))


def test_with_a_scale_the_luck_against_a_side_counts_as_a_share_of_its_army() -> None:
    # The same dice, the search's "share" value: the Marines' side is worth 5
    # models and the Guard's 5, so the luck against the Marines counts a fifth.
    # With the Marines' side worth 10 instead, a tenth.
    battle, guards, marines = _volley(dice=[6, 6, 6, 1, 1, 6, 6, 1, 1, 1])
    luck = watch_luck(battle, "models_destroyed", STARTING_WOUNDS)
    fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
    assert luck.margin(A, {A: 5.0, B: 5.0}) == pytest.approx((2 - LASGUN_VOLLEY) / 5)
    assert luck.margin(A, {A: 5.0, B: 10.0}) == pytest.approx((2 - LASGUN_VOLLEY) / 10)
    assert luck.margin(B, {A: 5.0, B: 10.0}) == pytest.approx(-(2 - LASGUN_VOLLEY) / 10)


def test_under_kill_points_a_volley_s_luck_is_in_shares_of_the_target_s_point() -> None:
    # The same dice: two of five Marines are 2/5 of their unit's kill point,
    # where 5/18 of a Marine, a fifth of the point each, were expected.
    battle, guards, marines = _volley(dice=[6, 6, 6, 1, 1, 6, 6, 1, 1, 1])
    luck = watch_luck(battle, "kill_points", STARTING_WOUNDS)
    fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
    assert luck.margin(A) == pytest.approx(2 / 5 - LASGUN_VOLLEY / 5)


def test_a_volley_that_misses_has_the_bad_luck_of_what_it_was_expected_to_slay() -> None:
    battle, guards, marines = _volley(dice=[1, 1, 1, 1, 1])
    luck = watch_luck(battle, "models_destroyed", STARTING_WOUNDS)
    fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
    assert len(marines.alive_models) == 5
    assert luck.margin(A) == pytest.approx(-LASGUN_VOLLEY)


def test_a_volley_s_luck_averages_zero_over_the_rules_own_dice() -> None:
    # What makes the control variate fair: the rules' own resolution slays on
    # average what the expectation says (5/18), so the luck's mean is zero.
    lucks = []
    for seed in range(3000):
        battle, guards, marines = _volley(seed=seed)
        luck = watch_luck(battle, "models_destroyed", STARTING_WOUNDS)
        fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
        lucks.append(luck.margin(A))
    error = stdev(lucks) / len(lucks) ** 0.5
    assert abs(fmean(lucks)) < 4 * error


def _blows(seed: int) -> tuple[Battle, Blows, Luck]:
    marines = squad("a", A, MARINE, [], south([10, 11, 12, 13, 14]))
    guards = squad("b", B, GUARD_T3, [], north([10, 11, 12, 13, 14]))
    battle = make_battle(marines, guards, seed=seed)
    for unit in (marines, guards):
        st(battle, unit).locked_in_combat = True
    model = marines.models[0]
    armed = close_combat_weapon(marines, model, CLOSE_COMBAT_WEAPON)
    plan = Blows(marines, tuple(marines.alive_models), armed, guards, target_ws=3)
    return battle, plan, watch_luck(battle, "models_destroyed", STARTING_WOUNDS)


def test_blows_luck_averages_zero_over_the_rules_own_dice() -> None:
    # Five Marines (WS4 S4 A1) strike five Guardsmen (WS3 T3 5+) in a combat
    # already fought (no charge bonus): the blows' luck has mean zero.
    lucks = []
    for seed in range(3000):
        battle, plan, luck = _blows(seed)
        strike(battle, plan, 4, list(plan.unit.alive_models))
        lucks.append(luck.margin(A))
    assert any(luck != lucks[0] for luck in lucks)
    error = stdev(lucks) / len(lucks) ** 0.5
    assert abs(fmean(lucks)) < 4 * error


def test_blows_in_a_challenge_are_not_counted() -> None:
    # A challenge's blows may wound one model only, which the estimate does not
    # know: their luck is left in the value, not counted.
    battle, plan, luck = _blows(seed=1)
    only = plan.target.models[0]
    strike(battle, Blows(plan.unit, plan.models[:1], plan.weapon, plan.target, 3, only=only), 4, [])
    assert luck.by_player == {}


def test_watching_changes_nothing_the_dice_decide() -> None:
    # The same seeded volley with and without a watcher: the same log.
    logs = []
    for watched in (False, True):
        battle, guards, marines = _volley(seed=5)
        if watched:
            watch_luck(battle, "models_destroyed", STARTING_WOUNDS)
        fire_weapon(battle, guards, marines, "Lasgun", FireOrders())
        logs.append(battle.log.json_lines())
    assert logs[0] == logs[1]
