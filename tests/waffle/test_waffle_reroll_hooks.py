"""The hook points a rule gives a re-roll through (docs/plugins.md): To Hit rolls of 1,
To Wound rolls of 1, every failed To Wound roll. A handler changes the dice the rules
roll, the log's reason for the re-roll and the AI's estimates alike, since all read
``editions/waffle/rerolls.py``; expected values are worked out by hand from the
6th/7th-edition charts in the comments."""

from __future__ import annotations

import pytest
from conftest import GUARD, LASGUN, A, B, all_dice_used, dice_purposes, make_battle, profile, row
from conftest import squad as make_squad
from fight_kit import CHAINSWORD, north, south

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.expected import expected_casualties, expected_melee
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import (
    FAILED_WOUNDS_REROLLED,
    HIT_ONES_REROLLED,
    WOUND_ONES_REROLLED,
    RerollChange,
)
from hammerlab.editions.waffle.rerolls import hit_ones_rerolled
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Unit

TROOPER = profile("Trooper", s=3, t=3, i=3, ld=8, sv="-")


def take_aim(battle: Battle, unit: Unit, foe: Unit, rule: str) -> str:
    """A rule: player A's units re-roll against unit ``b`` only."""
    return rule or ("Take Aim" if unit.player == A and foe.id == "b" else "")


@pytest.mark.parametrize(
    ("point", "dice", "plain", "purpose", "chance"),
    [
        # A Guardsman (BS3: 4+) fires one lasgun shot (S3) at a Trooper (T3: 4+ to
        # wound, no save). Without a re-roll, 1/2 * 1/2 = 1/4 of a model.
        # To Hit 1s re-rolled: the 1 again shows 4, a hit; 4 wounds. The chance to
        # hit is 1/2 + 1/6 * 1/2 = 7/12: 7/12 * 1/2 = 7/24.
        (HIT_ONES_REROLLED, [1, 4, 4], [1], "re-roll 1s (Take Aim) (Lasgun, 4+)", 7 / 24),
        # To Wound 1s re-rolled: 4 hits, the wound's 1 again shows 4: 1/2 * 7/12.
        (WOUND_ONES_REROLLED, [4, 1, 4], [4, 1], "re-roll 1s to wound (Take Aim, Lasgun)", 7 / 24),
        # Every failed wound re-rolled: 4 hits, the 3 fails and again shows 4:
        # 1/2 * (1/2 + 1/2 * 1/2) = 3/8.
        (FAILED_WOUNDS_REROLLED, [4, 3, 4], [4, 3], "re-roll failed wounds (Lasgun)", 3 / 8),
    ],
)
def test_a_reroll_rule_changes_the_dice_the_log_and_the_estimate(
    point: HookPoint[RerollChange], dice: list[int], plain: list[int], purpose: str, chance: float
) -> None:
    for rule in (False, True):
        guard = make_squad("a", A, GUARD, [LASGUN], row(30, 10, 1))
        target = make_squad("b", B, TROOPER, [], row(30, 30, 1))
        battle = make_battle(guard, target, dice=dice if rule else plain)
        if rule:
            battle.hooks.add(point, take_aim)
        expected = expected_casualties(battle, guard, target, LASGUN.name, FireOrders())
        assert expected == pytest.approx(chance if rule else 1 / 4)
        result = fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
        assert (result.casualties["b"], purpose in dice_purposes(battle)) == (rule, rule)
        assert all_dice_used(battle)


def test_a_reroll_rule_reads_the_foe() -> None:
    # take_aim re-rolls against unit b alone: at unit c the 1 to hit stands.
    guard = make_squad("a", A, GUARD, [LASGUN], row(30, 10, 1))
    other = make_squad("c", B, TROOPER, [], row(30, 30, 1))
    battle = make_battle(guard, other, dice=[1])
    battle.hooks.add(HIT_ONES_REROLLED, take_aim)
    assert hit_ones_rerolled(battle, guard, other) == ""
    result = fire_weapon(battle, guard, other, LASGUN.name, FireOrders())
    assert result.hits["c"] == 0 and all_dice_used(battle)


def test_a_handler_is_given_the_rule_so_far_and_may_take_it_away() -> None:
    # A unit with Preferred Enemy re-rolls its 1s to hit; a rule that answers "" for
    # every unit takes the re-roll away: the 1 stands, nothing more is rolled.
    def no_rerolls(battle: Battle, unit: Unit, foe: Unit, rule: str) -> str:
        seen.append(rule)
        return ""

    seen: list[str] = []
    guard = make_squad("a", A, GUARD, [LASGUN], row(30, 10, 1), rules=("Preferred Enemy",))
    target = make_squad("b", B, TROOPER, [], row(30, 30, 1))
    battle = make_battle(guard, target, dice=[1])
    battle.hooks.add(HIT_ONES_REROLLED, no_rerolls)
    fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
    assert seen == ["Preferred Enemy"]
    assert dice_purposes(battle) == ["to hit (Lasgun, 4+)"] and all_dice_used(battle)


def test_a_reroll_rule_counts_in_close_combat_and_its_estimate() -> None:
    # A Marine (WS4) strikes a Trooper (WS4: 4+ on the chart, T3, no save) with a
    # chainsword (S4: 3+ to wound). Its 1 to hit is re-rolled (Take Aim): 4, a hit,
    # then 3 wounds, before the Trooper (I3) strikes (the Marine consolidates D6": 1,
    # and holds where it stands); without the rule the 1 misses and
    # the Trooper's one blow misses too (a 1). The estimate of its one Attack:
    # (1/2 + 1/6 * 1/2) * 4/6 = 7/18, against 1/2 * 4/6 = 1/3 without the rule.
    marine = profile("Marine", sv="-")
    for rule, chance in ((False, 1 / 3), (True, 7 / 18)):
        fighter = make_squad("a", A, marine, [CHAINSWORD], south([10]))
        foe = make_squad("b", B, TROOPER, [], north([10]))
        battle = make_battle(
            fighter, foe, dice=[1, 4, 3, 1] if rule else [1, 1], script_a=[("move", "hold")]
        )
        if rule:
            battle.hooks.add(HIT_ONES_REROLLED, take_aim)
        melee = expected_melee(battle, fighter, fighter.alive_models, foe, False)
        assert melee == pytest.approx(chance)
        fight_sub_phase(battle, A)
        assert foe.destroyed is rule
        assert ("re-roll 1s to hit (Take Aim, Chainsword, 4+)" in dice_purposes(battle)) is rule
