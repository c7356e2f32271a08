"""Codex rules of issue 12 §3 that are plain modifiers, kept as data: Reanimation
Protocols (a Feel No Pain-like roll that also works against Instant Death) and
Blacksun Filter (Night Vision).

Reanimation Protocols is the 7th-edition Codex: Necrons (2015) rule, which is not
in the shared data; it is taken from the 1d4chan summary quoted in
``special_rules.IGNORE_WOUND``: "On a d6 roll of 5+ (suffering a -1 penalty if
against ID), your guy negates the wound".
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from conftest import LASGUN, A, B, all_dice_used, dice_purposes, make_battle, profile, squad, weapon

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.odds import Defence, Firing, shooting_odds, volley
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.special_rules import ignore_wound_roll, unsupported_unit_rules
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
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
    assert dice_purposes(battle)[-1] == "Reanimation Protocols 5+ (b.1)"
    assert target.models[0].wounds_left == 2
    assert all_dice_used(battle)


def test_reanimation_protocols_against_instant_death_needs_a_6() -> None:
    # Lascannon S9 v T4: Instant Death (S at least double T), AP2: no armour save.
    # Feel No Pain could not be taken; Reanimation Protocols is, at 5+ +1 = 6+.
    battle, target = shoot(LASCANNON, [3, 2, 6], ("Reanimation Protocols",))
    assert dice_purposes(battle)[-1] == "Reanimation Protocols 6+ (b.1)"
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
