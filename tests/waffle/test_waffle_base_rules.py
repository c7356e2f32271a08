"""6th/7th-edition base rules the Waffle seeds rely on: Poisoned, Regroup, a
fleeing unit that loses a combat."""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    A,
    B,
    make_battle,
    movement_phase,
    of_kind,
    profile,
    row,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.morale import morale_check
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.state import st

TARGET_T6 = profile("Brute", t=6, sv="-")
TARGET_T4 = profile("Trooper", t=4, sv="-")


def _poisoned_volley(
    strength: str, target_profile: object, dice: list[int], rule: str = "Poisoned (4+)"
) -> int:
    gun = weapon("Needler", "24", strength, "-", f"Assault 1, {rule}")
    shooter = squad("a", A, profile(), [gun], row(30, 10, 1))
    target = squad("b", B, target_profile, [BOLTGUN], row(30, 20, 1))  # type: ignore[arg-type]
    battle = make_battle(shooter, target, dice=dice)
    result = fire_weapon(battle, shooter, target, "Needler", FireOrders())
    assert battle.dice.remaining == 0  # type: ignore[attr-defined]
    return result.unsaved["b"]


def test_base_poisoned_wounds_on_its_value_where_the_chart_cannot() -> None:
    # S3 against T6 cannot wound on the chart ("-"); Poisoned (4+) wounds on 4+.
    # Dice: to hit 3 (BS4: 3+), to wound 4.
    assert _poisoned_volley("3", TARGET_T6, [3, 4]) == 1


def test_base_poisoned_rerolls_failed_wounds_when_strength_beats_toughness() -> None:
    # S5 against T4: the chart's 3+ is better than Poisoned's 4+; S > T, so a
    # failed wound (a 2) is re-rolled (a 3: wounds). Dice: hit 3, wound 2, re-roll 3.
    assert _poisoned_volley("5", TARGET_T4, [3, 2, 3]) == 1


@pytest.mark.parametrize(("wound_roll", "wounds"), [(1, 0), (2, 1)])
def test_base_poisoned_1_plus_wounds_on_2_plus_a_roll_of_1_always_fails(
    wound_roll: int, wounds: int
) -> None:
    # 6th/7th edition: a To Wound roll of 1 always fails, so Poisoned (1+) wounds
    # as 2+ (S3 against T6, where the chart says 6+). Dice: to hit 3 (BS4: 3+), then
    # the wound roll; S3 is not higher than T6, so a failed roll is not re-rolled.
    assert _poisoned_volley("3", TARGET_T6, [3, wound_roll], "Poisoned (1+)") == wounds


def test_base_poisoned_does_not_reroll_when_strength_equals_toughness() -> None:
    # S4 against T4: 4+ either way; S is not higher than T: a failed 3 stays failed.
    assert _poisoned_volley("4", TARGET_T4, [3, 3]) == 0


def test_base_regroup_below_25_percent_needs_a_double_one() -> None:
    # 1 model left of 5 (20%, below 25%): a 2D6 of 2+1 = 3 would pass Ld 8, but
    # only a double 1 regroups; it falls back again 2D6 = 3 + 3 = 6".
    unit = squad("m", A, profile(ld=8), [BOLTGUN], row(30, 20, 5))
    for model in unit.models[1:]:
        model.wounds_left = 0
    enemy = squad("e", B, profile(), [BOLTGUN], row(30, 44, 1))
    battle = make_battle(unit, enemy, dice=[2, 1, 3, 3])
    st(battle, unit).falling_back = True
    movement_phase(battle, A)
    assert st(battle, unit).falling_back
    assert unit.models[0].position[1] == 14.0


def test_a_failed_morale_check_names_itself_in_the_fall_back_line() -> None:
    # The same unit as above, failing a Morale check from shooting (Ld8: 5 + 6 = 11
    # fails) and falling back 2D6 = 3 + 3: the line says what it reacts to as a
    # thing, not a verb ("reacts to lost 8 of 10 models" read badly).
    unit = squad("m", A, profile(ld=8), [BOLTGUN], row(30, 20, 5))
    enemy = squad("e", B, profile(), [BOLTGUN], row(30, 44, 1))
    battle = make_battle(unit, enemy, dice=[5, 6, 3, 3])
    assert morale_check(battle, unit, "lost 2 of 5 models this phase") is False
    (declared,) = of_kind(battle, "reaction")
    assert declared.against == "a failed Morale check (lost 2 of 5 models this phase)"
    assert declared.text == (
        'M [m] reacts to a failed Morale check (lost 2 of 5 models this phase): falls back 6"'
    )


def test_base_regroup_below_25_percent_on_a_double_one() -> None:
    unit = squad("m", A, profile(ld=8), [BOLTGUN], row(30, 20, 5))
    for model in unit.models[1:]:
        model.wounds_left = 0
    enemy = squad("e", B, profile(), [BOLTGUN], row(30, 44, 1))
    battle = make_battle(unit, enemy, dice=[1, 1], script_a=[("move", "hold")])
    st(battle, unit).falling_back = True
    movement_phase(battle, A)  # regroups; its 3" Regroup move declined
    assert not st(battle, unit).falling_back


def test_seed001_a_fleeing_unit_that_loses_a_combat_breaks_without_a_test() -> None:
    unit = squad("m", A, profile(ld=10), [BOLTGUN], row(30, 20, 2))
    battle = make_battle(unit, dice=[])
    st(battle, unit).falling_back = True
    assert morale_check(battle, unit, "lost the combat by 1", 1, assault=True) is False
    assert morale_check(battle, unit, "shooting casualties") is True  # no test from shooting
    # the log says the unit broke again, once (the check from shooting says nothing)
    broken = [(e.unit, e.reason) for e in of_kind(battle, "broken_again")]
    assert broken == [("M [m]", "lost the combat by 1")]


def test_a_fearless_unit_passes_its_morale_check_without_a_roll() -> None:
    """Fearless units pass Morale checks automatically (6th/7th edition): no die, and
    the log names the rule and the check."""
    unit = squad("m", A, profile(ld=2), [BOLTGUN], row(30, 20, 2), rules=("Fearless",))
    battle = make_battle(unit, dice=[])
    assert morale_check(battle, unit, "lost the combat by 5", 5, assault=True) is True
    passed = [(e.unit, e.rule, e.reason) for e in of_kind(battle, "morale_auto_passed")]
    assert passed == [("M [m]", "Fearless", "lost the combat by 5")]
