"""Codex rules of issue 12 §3 that are plain modifiers, kept as data: Reanimation
Protocols (a Feel No Pain-like roll that also works against Instant Death) and
Blacksun Filter (Night Vision).

Reanimation Protocols is the 7th-edition Codex: Necrons (2015) rule, which is not
in the shared data; it is taken from the 1d4chan summary quoted in
``special_rules.IGNORE_WOUND``: "On a d6 roll of 5+ (suffering a -1 penalty if
against ID), your guy negates the wound".
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from conftest import (
    LASGUN,
    A,
    B,
    all_dice_used,
    asked,
    charge_sub_phase,
    dice_purposes,
    last,
    make_battle,
    model,
    of_kind,
    profile,
    row,
    shooting_phase,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.firepower import weapons_per_phase
from hammerlab.editions.waffle.odds import Defence, Firing, shooting_odds, volley
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.special_rules import (
    feel_no_pain,
    ignore_wound_roll,
    unsupported_unit_rules,
)
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.dice import ScriptedDice
from hammerlab.engine.units import Unit

NECRON = profile("Necron Warrior", w=2, sv="4+")
"""T4 W2 4+ (W2 so that Instant Death takes more than one wound)."""
LASCANNON = weapon("Lascannon", "48", "9", "2", "Heavy 1")
BOLTGUN = weapon("Boltgun", "24", "4", "5", "Assault 1")


def shoot(gun: Weapon, dice: list[int], rules: tuple[str, ...]) -> tuple[Battle, Unit]:
    shooter = squad("a", A, profile("Marine"), [gun], [(30, 10)])
    target = squad("b", B, NECRON, [LASGUN], [(30, 30)], rules=rules)
    battle = make_battle(shooter, target, dice=dice)
    fire_weapon(battle, shooter, target, gun.name, FireOrders())
    return battle, target


def test_reanimation_protocols_discounts_an_unsaved_wound_on_5_plus() -> None:
    # Boltgun: hit (3), wound S4 v T4 (4); AP5 is worse than the 4+ save, which is
    # taken (1, failed); the Reanimation Protocols roll of 5 discounts the wound.
    battle, target = shoot(BOLTGUN, [3, 4, 1, 5], ("Reanimation Protocols",))
    roll = last(of_kind(battle, "save"))
    assert (roll.save, roll.model, roll.needed, roll.saved) == (
        "Reanimation Protocols",
        "b.1",
        5,
        True,
    )
    assert target.models[0].wounds_left == 2
    assert all_dice_used(battle)


def test_reanimation_protocols_against_instant_death_needs_a_6() -> None:
    # Lascannon S9 v T4: Instant Death (S at least double T), AP2: no armour save.
    # Feel No Pain could not be taken; Reanimation Protocols is, at 5+ +1 = 6+.
    battle, target = shoot(LASCANNON, [3, 2, 6], ("Reanimation Protocols",))
    roll = last(of_kind(battle, "save"))
    assert (roll.save, roll.model, roll.needed, roll.saved) == (
        "Reanimation Protocols",
        "b.1",
        6,
        True,
    )
    assert target.models[0].wounds_left == 2
    battle, target = shoot(LASCANNON, [3, 2, 5], ("Reanimation Protocols",))
    assert target.destroyed  # the 5 fails: both wounds lost at once
    battle, target = shoot(LASCANNON, [3, 2], ("Feel No Pain",))
    assert target.destroyed  # no roll: "may not be taken … against … Instant Death"
    assert all_dice_used(battle)


def test_ignore_wound_roll_takes_the_best_rule_that_may_be_used() -> None:
    both = ("Feel No Pain (4+)", "Reanimation Protocols")
    assert ignore_wound_roll(both) == ("Feel No Pain", 4)
    assert ignore_wound_roll(both, instant=True) == ("Reanimation Protocols", 6)
    assert ignore_wound_roll(("Feel No Pain",), instant=True) is None


def test_ignore_wound_roll_reads_the_value_the_loader_checked() -> None:
    # The loader's bounds check (io.bounds.roll_problem) reads "( 4+ )" as 4; the
    # roll read it as no value (5+), a different rule from the one checked.
    assert ignore_wound_roll(("Feel No Pain ( 4+ )",)) == ("Feel No Pain", 4)
    assert ignore_wound_roll(("Feel No Pain (4)",)) == ("Feel No Pain", 4)


def test_odds_reanimation_protocols_against_instant_death_match_brute_force() -> None:
    # One BS4 lascannon shot at W2 T4 4+ Necrons: hit 3+, wound 2+ (S9 v T4), AP2 no
    # save, Instant Death, then 6+ discounts it. Enumerate the three dice.
    gun = weapon_of(LASCANNON)
    target = Defence(4, 2, 5, 4, feel_no_pain=5, against_instant_death=6)
    odds = shooting_odds(volley(gun, 9, [4], Firing()), target)
    killed = Fraction(0)
    for hit, wound, reanimate in product(range(1, 7), repeat=3):
        if hit >= 3 and wound >= 2 and reanimate < 6:
            killed += Fraction(1, 6**3)
    assert abs(odds.models_killed[1] - float(killed)) < 1e-12
    assert abs(odds.models_killed[0] - float(1 - killed)) < 1e-12


def test_blacksun_filter_is_night_vision_and_not_reported() -> None:
    # Codex: Tau Empire (7th edition): the filter gives Night Vision; hammerlab plays no
    # Night Fighting, so it cannot change anything.
    assert unsupported_unit_rules(("Blacksun Filter", "Reanimation Protocols")) == []


# --- Supporting Fire -----------------------------------------------------------------


def supported_charge(support_at: tuple[float, float]) -> Battle:
    """A Marine at (30,10) charges a Guardsman at (35,20); a Fire Warrior with
    Supporting Fire (BS3, one Lasgun here) stands at ``support_at``."""
    charger = squad("a", A, profile("Marine"), [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, profile("Guardsman", bs=3), [LASGUN], [(35, 20)], name="Target")
    friend = squad(
        "c",
        B,
        profile("Fire Warrior", bs=3),
        [LASGUN],
        [support_at],
        name="Friend",
        rules=("Supporting Fire",),
    )
    return make_battle(
        charger,
        target,
        friend,
        dice=[
            *[6, 6],  # Supporting Fire: a Lasgun's 2 Snap Shots (BS3 -> BS1: 6+): 2 hits
            *[4, 1],  # S3 v T4 wounds on 5+: none
            *[6, 6],  # charge range 12" against 10.18": home
        ],
        script_a=[("charger", "Charger [a]"), ("charge_target", "Target [b]")],
        script_b=[
            ("charge_reaction", "no reaction"),
            ("charge_reaction", "Fire Overwatch"),
            ("weapon", "Lasgun"),
        ],
    )


def test_supporting_fire_a_friend_within_6_inches_fires_overwatch_at_the_charger() -> None:
    # Codex: Tau Empire: "each friendly unit with this special rule that is within 6" of
    # the unit being charged can choose to fire Overwatch as if it were also the target
    # of the charge". The Friend, 4" from the Target, is asked after the Target.
    battle = supported_charge((40, 20))
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    asked_b = [d.context.unit for d in asked(battle, B, "charge_reaction")]
    assert asked_b == ["b", "c"]
    assert [e.reaction for e in of_kind(battle, "reaction")] == ["Fire Overwatch"]
    (overwatch,) = of_kind(battle, "shots")
    assert (overwatch.weapon, overwatch.snap, overwatch.needed) == ("Lasgun", True, "6+")
    assert all_dice_used(battle)


def test_supporting_fire_not_offered_beyond_6_inches() -> None:
    battle = supported_charge((50, 20))  # 14" away
    battle.dice = ScriptedDice(values=[6, 6], directions=[])
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    assert [d.context.unit for d in asked(battle, B, "charge_reaction")] == ["b"]
    assert all_dice_used(battle)


# --- Battle Focus --------------------------------------------------------------------


def focused(rules: tuple[str, ...], script: list[tuple[str, str]], dice: list[int]) -> Battle:
    """A Guardian (BS4, Boltgun here) at (30,10) shoots a Guardsman at (30,30)."""
    shooter = squad(
        "a", A, profile("Guardian"), [BOLTGUN], [(30, 10)], name="Guardians", rules=rules
    )
    target = squad("b", B, profile("Guardsman", sv="5+"), [LASGUN], [(30, 30)], name="Target")
    battle = make_battle(shooter, target, dice=dice, script_a=script)
    shooting_phase(battle, A)
    return battle


def test_battle_focus_runs_after_shooting() -> None:
    # Battle Focus: a unit may shoot and Run in the same Shooting phase. The Guardian
    # fires (miss: 1), then Runs 4" toward the enemy.
    battle = focused(
        ("Battle Focus",),
        [
            ("shooter", "Guardians [a]"),
            ("action", "shoot"),
            ("target", "Target [b]"),
            ("weapon", "Boltgun"),
            ("battle_focus", "run"),
            ("move", "advance"),
        ],
        [1, 4],
    )
    assert dice_purposes(battle) == ["to hit (Boltgun, 3+)", "run distance (Guardians [a])"]
    assert model(battle, "a.1").position == pytest.approx((30, 14))
    assert st(battle, battle.unit("a")).ran
    assert all_dice_used(battle)


def test_without_battle_focus_a_unit_that_shot_is_not_asked_to_run() -> None:
    battle = focused(
        (),
        [
            ("shooter", "Guardians [a]"),
            ("action", "shoot"),
            ("target", "Target [b]"),
            ("weapon", "Boltgun"),
        ],
        [1],
    )
    assert asked(battle, A, "battle_focus") == []
    assert all_dice_used(battle)


def test_the_rules_of_issue_12_are_no_longer_reported_and_the_others_still_are() -> None:
    done = (
        "Monster Hunter",
        "Smash",
        "Fear",
        "Hammer of Wrath",
        "Move Through Cover",
        "Reanimation Protocols",
        "Supporting Fire",
        "Battle Focus",
        "Precision Shots",
        "Poisoned (2+)",
        "Fleshbane",
        "Hit and Run",
        "Hit & Run",
        "Deep Strike",
        "Outflank",
        "Scout",
        "Infiltrate",
        "The Aegis",
        "Power from Pain",
        "Ancient Doom",
        "Hatred",
        "Hatred (Orks)",
        "Champion of Chaos",
    )
    assert unsupported_unit_rules(done) == []
    still = ("Precision Strikes", "Preferred Enemy (Orks)")
    assert unsupported_unit_rules(still) == list(still)


@pytest.mark.parametrize(
    ("unit_type", "rules", "weapons"),
    [
        ("Infantry", (), 1),
        ("Infantry", ("Multi-tracker",), 2),
        ("Monstrous Creature", (), 2),
        ("Monstrous Creature", ("Multi-tracker",), 3),
    ],
)
def test_multi_tracker_fires_an_additional_weapon(
    unit_type: str, rules: tuple[str, ...], weapons: int
) -> None:
    """Codex: Tau Empire: "A model with a multi-tracker can fire an additional weapon in
    each Shooting phase": one weapon for Infantry, two for a Monstrous Creature
    (7th-edition base rules), one more with the rule."""
    suit = squad("a", A, profile("Crisis", unit_type=unit_type), [BOLTGUN], [(30, 10)])
    suit.models[0].rules = rules
    assert weapons_per_phase(suit, suit.models[0]) == weapons


@pytest.mark.parametrize(("rules", "killed"), [((), 1), (("Multi-tracker",), 2)])
def test_multi_tracker_second_weapon_fires_in_the_same_shooting_attack(
    rules: tuple[str, ...], killed: int
) -> None:
    # Boltgun: hit 3 (BS4), wound S4 v T3 on 3+ (3), AP5 beats the 5+ save: dead.
    # Lascannon (Multi-tracker only): hit 3, wound S9 v T3 on 2+ (2), AP2: dead.
    suit = squad("a", A, profile("Crisis"), [BOLTGUN, LASCANNON], [(30, 10)], rules=rules)
    guard = squad("b", B, profile("Guardsman", t=3, sv="5+"), [LASGUN], row(30, 30, 3))
    battle = make_battle(suit, guard, dice=[3, 3, 3, 2][: 2 * killed])
    spent: Counter[str] = Counter()
    fire_weapon(battle, suit, guard, "Boltgun", FireOrders(), spent)
    fire_weapon(battle, suit, guard, "Lascannon", FireOrders(), spent)
    assert len(guard.alive_models) == 3 - killed
    assert all_dice_used(battle)


# --- Power from Pain -------------------------------------------------------------------


def test_power_from_pain_gives_the_rules_of_the_game_turn_table() -> None:
    """Codex: Dark Eldar (7th edition): "At the start of each game turn, look up the game
    turn number on the Power from Pain table. All models with the Power from Pain special
    rule gain the special rules listed on the table": 1 none; 2 Feel No Pain (6+); 3 Feel
    No Pain; 4 and Furious Charge; 5 and Fearless; 6+ and Rage."""
    wyches = squad("b", B, profile("Wych"), [LASGUN], row(30, 30, 2), rules=["Power from Pain"])
    guard = squad("a", A, profile("Guardsman"), [LASGUN], row(30, 10, 1))
    battle = make_battle(guard, wyches)
    wych = wyches.models[0]
    expected = {
        1: (None, ()),
        2: (6, ()),
        3: (5, ()),
        4: (5, ("Furious Charge",)),
        5: (5, ("Furious Charge", "Fearless")),
        6: (5, ("Furious Charge", "Fearless", "Rage")),
        7: (5, ("Furious Charge", "Fearless", "Rage")),
    }
    for turn in range(1, 8):
        fnp, others = expected[turn]
        assert feel_no_pain(wyches, wych) == fnp, turn
        assert all(wyches.has_rule(r) for r in others), turn
        assert not any(
            wyches.has_rule(r) for r in {"Furious Charge", "Fearless", "Rage"} - set(others)
        )
        assert "Feel No Pain (6+)" not in wych.rules or turn == 2
        assert guard.models[0].rules == ()  # no Power from Pain: nothing given
        end_of_turn(battle, A)
        end_of_turn(battle, B)
