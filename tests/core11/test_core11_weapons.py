"""Weapon keywords and characteristics as core11 reads them; the rules of one attack."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from core11_kit import gun

from hammerlab.editions.core11.dice_expr import DiceExpr, DiceExpressionError
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import Roll, Situation, attack_profile, save_need, wound_need
from hammerlab.editions.core11.weapons import (
    WeaponError,
    parse_keyword,
    read_weapon,
    weapon_problems,
)

REQUIRED = [
    "RAPID FIRE 1", "BLAST", "HEAVY", "ASSAULT", "PISTOL", "CLOSE-QUARTERS", "TORRENT",
    "LETHAL HITS", "SUSTAINED HITS 2", "DEVASTATING WOUNDS", "ANTI-INFANTRY 4+", "TWIN-LINKED",
    "IGNORES COVER", "MELTA 2", "PRECISION", "HAZARDOUS", "LANCE", "INDIRECT FIRE", "ONE SHOT",
]  # fmt: skip


@pytest.mark.parametrize("text", REQUIRED)
def test_weapon_keywords_of_the_issue_are_implemented(text: str) -> None:
    assert parse_keyword(text) is not None
    assert parse_keyword(text.lower()) is not None


def test_weapon_keyword_parameters_and_conditions() -> None:
    anti = parse_keyword("ANTI-MONSTER/VEHICLE 4+")
    assert anti is not None and anti.threshold == 4 and anti.kinds == {"MONSTER", "VEHICLE"}
    sustained = parse_keyword("SUSTAINED HITS D3 (not vs MONSTER/VEHICLE)")
    assert sustained is not None and sustained.value == DiceExpr(1, 3, 0)
    assert not sustained.active_against({"VEHICLE"}) and sustained.active_against({"INFANTRY"})
    pistol = parse_keyword("PISTOL")
    assert pistol is not None and pistol.name == "CLOSE-QUARTERS"
    for unknown in ("CLEAVE 1", "HUNTER-MONSTER", "RAPID FIRE", "TARGETS ORKS"):
        assert parse_keyword(unknown) is None


def test_weapon_target_restrictions() -> None:
    weapon = read_weapon(gun(keywords=["TARGETS MONSTER/VEHICLE ONLY"]))
    assert weapon.may_target({"VEHICLE"}) and not weapon.may_target({"INFANTRY"})


def test_weapon_characteristics_and_problems() -> None:
    assert read_weapon(gun(attacks="2D6", damage="D3+1")).attacks == DiceExpr(2, 6, 0)
    weapon = gun()
    broken = replace(weapon, characteristics={**weapon.characteristics, "S": "x"})
    with pytest.raises(WeaponError, match="S 'x' is not a number"):
        read_weapon(broken)
    assert weapon_problems(gun(keywords=["CONVERSION"])) == [
        "weapon gun: keyword not implemented: CONVERSION"
    ]


def test_dice_expressions() -> None:
    assert (DiceExpr.parse("D6+1").low, DiceExpr.parse("D6+1").high) == (2, 7)
    assert DiceExpr.parse("3").fixed and DiceExpr.parse("2D3").mean == 4
    assert abs(sum(DiceExpr.parse("2D6+3").distribution()) - 1) < 1e-12
    assert DiceExpr.parse("D6-1").distribution()[0] == pytest.approx(1 / 6)
    with pytest.raises(DiceExpressionError):
        DiceExpr.parse("lots")
    assert DiceExpr.parse("D6 + 2") == DiceExpr(1, 6, 2) and DiceExpr.parse("2D6") == DiceExpr(2, 6)
    for text in ("D36", "D612", "D60", "2D610", "D6 1"):  # a number after a die needs its sign
        with pytest.raises(DiceExpressionError, match="not a number or dice expression"):
            DiceExpr.parse(text)


def test_wound_roll_table() -> None:
    # S >= 2T 2+, S > T 3+, S = T 4+, S < T 5+, S <= T/2 6+.
    assert [wound_need(s, 4) for s in (8, 5, 4, 3, 2)] == [2, 3, 4, 5, 6]
    assert wound_need(3, 6) == 6 and wound_need(4, 7) == 5


def test_save_uses_ap_or_a_better_invulnerable() -> None:
    assert save_need(3, -1, None) == 4
    assert save_need(3, -3, 4) == 4
    assert save_need(6, -2, None) == 7


def test_attack_profile_modifiers_are_capped_and_read_the_dice() -> None:
    target = DefenceStats(4, 3, 1, keywords=frozenset({"VEHICLE"}))
    heavy = read_weapon(gun(bs=3, keywords=["HEAVY", "LANCE"]))
    attack = attack_profile(heavy, target, Situation(heavy_steady=True, charged=True))
    assert (attack.hit_modifier, attack.wound_modifier) == (1, 1)
    assert attack.hit(1) is Roll.FAIL and attack.hit(2) is Roll.SUCCESS
    assert attack.hit(6) is Roll.CRITICAL
    both = Situation(close_quarters_penalty=True, engaged_target_penalty=True)
    penalised = attack_profile(heavy, target, both)
    assert penalised.hit_modifier == -1  # -2, capped
    anti = read_weapon(gun(keywords=["ANTI-VEHICLE 2+"]))
    assert attack_profile(anti, target, Situation()).wound(2) is Roll.CRITICAL


@pytest.mark.parametrize(
    ("key", "written", "problem"),
    [
        ("S", "0", "S must be 1 to 30, not 0"),
        ("BS", "0+", "BS must be 2 to 6, not 0+"),
        ("Range", "-24", "Range must be 1 to 240, not -24"),
        ("AP", "-7", "AP must be -6 to 6, not -7"),
        ("A", "0", "A must be at least 1, not 0"),
        ("D", "0", "D must be at least 1, not 0"),
    ],
)
def test_a_weapon_number_out_of_bounds_is_refused(key: str, written: str, problem: str) -> None:
    """A hostile-input review: S 0, BS 0+, Range -24", A 0 and D 0 all played. The
    bounds hold every weapon of the embedded dataset (Range 3-240, BS 2+-5+, S 1-26,
    AP 0 to -6, A and D at least 1)."""
    weapon = gun()
    broken = replace(weapon, characteristics={**weapon.characteristics, key: written})
    with pytest.raises(WeaponError, match=re.escape(problem)):
        read_weapon(broken)
