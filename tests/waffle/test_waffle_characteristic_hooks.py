"""The hook points a rule changes a characteristic or save through (docs/plugins.md):
Ballistic Skill, Weapon Skill, Leadership, Strength, Toughness, the cover, armour
and invulnerable saves. Each handler changes both what the rules roll against and what
the AI's estimates expect, since both read the same function; expected values are
worked out by hand from the 6th/7th-edition charts in the comments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import BOLTGUN, GUARD, LASGUN, A, B, box, make_battle, profile, row, squad, weapon

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.expected import expected_casualties, expected_melee
from hammerlab.editions.waffle.fear import majority_weapon_skill, weapon_skill
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON
from hammerlab.editions.waffle.morale import morale_check
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import leadership_pass_chance
from hammerlab.editions.waffle.points import (
    ARMOUR_SAVE,
    BALLISTIC_SKILL,
    COVER_SAVE,
    INVULNERABLE_SAVE,
    LEADERSHIP,
    STRENGTH,
    TOUGHNESS,
    WEAPON_SKILL,
    ArmourChange,
)
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.special_rules import close_combat_strength
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.visibility import cover_save
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Model, Unit

TROOPER = profile("Trooper", s=3, t=3, i=3, ld=8, sv="-")
ARMOURED = profile("Armoured", s=3, t=3, i=3, ld=8, sv="5+")


def steadier(battle: Battle, model: Model, bs: int) -> int:
    """A rule: +1 BS."""
    return bs + 1


def test_a_ballistic_skill_rule_changes_the_roll_to_hit_and_the_estimate() -> None:
    # One Guardsman (BS3) fires a lasgun 20" away (one shot) at a T3 Trooper
    # with no save. At BS3 a 3 misses (4+ to hit); at BS4 it hits (3+), and a 4
    # wounds S3 against T3 (4+). The estimate: BS4 hits 2/3 of the time, wounds
    # 1/2: 1/3 of a model, against 1/2 * 1/2 = 1/4 at BS3.
    for rule, hits, expected in ((False, 0, 1 / 4), (True, 1, 1 / 3)):
        guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 1))
        target = squad("b", B, TROOPER, [], row(30, 30, 1))
        battle = make_battle(guard, target, dice=[3, 4][: 1 + hits])
        if rule:
            battle.hooks.add(BALLISTIC_SKILL, steadier)
        assert expected_casualties(battle, guard, target, LASGUN.name, FireOrders()) == (
            pytest.approx(expected)
        )
        result = fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
        assert (result.hits["b"], result.casualties["b"]) == (hits, hits)


def test_a_leadership_rule_changes_the_test_and_its_chance() -> None:
    # Troopers at Ld 8 roll 9 on 2D6 (5 and 4) for a Morale check: failed, they
    # fall back. With a rule giving +1 Ld (Ld 9) the same roll passes. The
    # chance the AI reads: 2D6 <= 8 is 26/36, <= 9 is 30/36.
    def braver(battle: Battle, unit: Unit, ld: int) -> int:
        return ld + 1

    for rule, falls_back, chance in ((False, True, 26 / 36), (True, False, 30 / 36)):
        troopers = squad("b", B, TROOPER, [], row(30, 30, 5))
        other = squad("a", A, GUARD, [], row(30, 10, 1))
        battle = make_battle(other, troopers, dice=[5, 4] + [6] * 12)
        if rule:
            battle.hooks.add(LEADERSHIP, braver)
        assert leadership_pass_chance(battle, troopers, 0) == pytest.approx(chance)
        morale_check(battle, troopers, "a test")
        assert st(battle, troopers).falling_back is falls_back


def test_a_cover_rule_changes_the_cover_save_the_model_takes() -> None:
    # A Trooper in ruins (5+ cover) shot by a boltgun (AP5, so no armour save
    # here anyway): the rule makes every cover save 1 better (4+), and a 4
    # saves it. Without the rule the 4 fails the 5+ and it dies. Dice: to hit
    # 3 (BS4: 3+), to wound 3 (S4 against T3: 3+), cover save 4.
    def deeper(
        battle: Battle, shooter: Model, unit: Unit, model: Model, save: int | None
    ) -> int | None:
        return None if save is None else save - 1

    ruins = box("ruins", 25.0, 28.0, 35.0, 32.0, cover_save=5)
    for rule, dies in ((False, True), (True, False)):
        marine = squad("a", A, profile(), [BOLTGUN], row(30, 10, 1))
        target = squad("b", B, TROOPER, [], row(30, 30, 1))
        battle = make_battle(marine, target, dice=[3, 3, 4], terrain=[ruins])
        if rule:
            battle.hooks.add(COVER_SAVE, deeper)
        saved = cover_save(battle, marine.models[0], target, target.models[0], False)
        assert saved == (4 if rule else 5)
        result = fire_weapon(battle, marine, target, BOLTGUN.name, FireOrders())
        assert result.casualties["b"] == int(dies)


def better_save(battle: Battle, unit: Unit, model: Model, save: int | None) -> int | None:
    """A rule: every save of its kind one better."""
    return None if save is None else save - 1


@pytest.mark.parametrize(
    ("point", "defender"),
    [
        (ARMOUR_SAVE, ARMOURED),
        (INVULNERABLE_SAVE, profile("Shielded", s=3, t=3, i=3, ld=8, sv="-", inv=5)),
    ],
)
def test_a_save_rule_changes_the_save_and_the_estimate(
    point: HookPoint[ArmourChange], defender: Profile
) -> None:
    # A lasgun (AP -) at a Trooper with a 5+ save (armour, or an invulnerable one
    # and no armour): hit 4 (BS3: 4+), wound 4 (S3 against T3: 4+), save 4:
    # failed at 5+, saved with the rule's 4+. The estimate: 1/2 * 1/2 * 4/6 =
    # 1/6 at 5+, 1/2 * 1/2 * 3/6 = 1/8 at 4+.
    for rule, dies, expected in ((False, True, 1 / 6), (True, False, 1 / 8)):
        guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 1))
        target = squad("b", B, defender, [], row(30, 30, 1))
        battle = make_battle(guard, target, dice=[4, 4, 4])
        if rule:
            battle.hooks.add(point, better_save)
        assert expected_casualties(battle, guard, target, LASGUN.name, FireOrders()) == (
            pytest.approx(expected)
        )
        result = fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
        assert result.casualties["b"] == int(dies)


def test_a_weapon_skill_rule_changes_the_skill_and_the_melee_estimate() -> None:
    # WS4 against WS4 hits on 4+ on seed 001's chart; WS5 against WS4 on 3+. One
    # Attack at S4 against T4 (4+ to wound) with no save: 1/2 * 1/2 = 1/4 of a
    # model, and with the rule's +1 WS 2/3 * 1/2 = 1/3. The rule is A's alone.
    def keener(battle: Battle, unit: Unit, ws: int) -> int:
        return ws + 1 if unit.player == A else ws

    bare = profile("Bare", sv="-")
    for rule, ws, expected in ((False, 4, 1 / 4), (True, 5, 1 / 3)):
        fighter = squad("a", A, bare, [], row(30, 20, 1))
        enemy = squad("b", B, bare, [], row(31, 20, 1))
        battle = make_battle(fighter, enemy, seed=1)
        if rule:
            battle.hooks.add(WEAPON_SKILL, keener)
        assert weapon_skill(battle, fighter, fighter.models[0]) == ws
        assert majority_weapon_skill(battle, fighter) == ws
        assert majority_weapon_skill(battle, enemy) == 4
        melee = expected_melee(battle, fighter, fighter.alive_models, enemy, False)
        assert melee == pytest.approx(expected)


def tougher(battle: Battle, unit: Unit, model: Model, t: int) -> int:
    """A rule: +1 Toughness for player B's models."""
    return t + 1 if unit.player == B else t


def test_a_toughness_rule_changes_instant_death() -> None:
    # A S6 gun at a two-wound Trooper, T3: S6 is double T3, so an unsaved wound is
    # Instant Death and the model is removed; at T4 (the rule) it takes one wound.
    # Dice: hit 3 (BS4: 3+), wound 3 (S6 v T3: 2+, v T4: 3+), no save.
    gun = weapon("Heavy gun", "36", "6", "-", "Heavy 1")
    hardy = profile("Trooper", s=3, t=3, w=2, sv="-")
    for rule, left in ((False, 0), (True, 1)):
        marine = squad("a", A, profile(), [gun], row(30, 10, 1))
        target = squad("b", B, hardy, [], row(30, 30, 1))
        battle = make_battle(marine, target, dice=[3, 3])
        if rule:
            battle.hooks.add(TOUGHNESS, tougher)
        fire_weapon(battle, marine, target, gun.name, FireOrders())
        assert target.models[0].wounds_left == left


def stronger(battle: Battle, unit: Unit, model: Model, weapon: WeaponProfile, s: int) -> int:
    """A rule: +1 Strength to player A's attacks."""
    return s + 1 if unit.player == A else s


@pytest.mark.parametrize(
    ("point", "rule", "wound", "dies", "expected"),
    [
        # A lasgun (S3) at a Trooper (T3, no save): wounds on 4+, on 5+ at T4 (the
        # chart: S one below T). Dice: hit 4 (BS3: 4+), wound 4: a wound at T3, none
        # at T4. The estimate: 1/2 * 1/2 = 1/4 of a model at T3, 1/2 * 1/3 = 1/6 at T4.
        (TOUGHNESS, tougher, 4, (True, False), (1 / 4, 1 / 6)),
        # At S4 (the rule) it wounds on 3+: a wound roll of 3 wounds only at S4. The
        # estimate: 1/2 * 2/3 = 1/3 at S4.
        (STRENGTH, stronger, 3, (False, True), (1 / 4, 1 / 3)),
    ],
)
def test_a_strength_or_toughness_rule_changes_the_wound_roll_and_the_estimate(
    point: HookPoint[Any],
    rule: Callable[..., int],
    wound: int,
    dies: tuple[bool, bool],
    expected: tuple[float, float],
) -> None:
    for installed in (False, True):
        guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 1))
        target = squad("b", B, TROOPER, [], row(30, 30, 1))
        battle = make_battle(guard, target, dice=[4, wound])
        if installed:
            battle.hooks.add(point, rule)
        assert expected_casualties(battle, guard, target, LASGUN.name, FireOrders()) == (
            pytest.approx(expected[installed])
        )
        result = fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
        assert result.casualties["b"] == int(dies[installed])


def test_a_strength_rule_changes_a_blow_and_is_kept_within_10() -> None:
    # WS4 against WS4 hits on 4+; S4 against T4 wounds on 4+: 1/2 * 1/2 = 1/4 of a
    # model a blow. At S5 (the rule) it wounds on 3+: 1/2 * 2/3 = 1/3. A rule adding
    # 10 gives S10, the most there is.
    bare = profile("Bare", sv="-")
    for rule, strength, expected in ((None, 4, 1 / 4), (stronger, 5, 1 / 3)):
        fighter = squad("a", A, bare, [], row(30, 20, 1))
        enemy = squad("b", B, bare, [], row(31, 20, 1))
        battle = make_battle(fighter, enemy, seed=1)
        if rule is not None:
            battle.hooks.add(STRENGTH, rule)
        model = fighter.models[0]
        assert close_combat_strength(battle, fighter, model, CLOSE_COMBAT_WEAPON, False) == (
            strength
        )
        melee = expected_melee(battle, fighter, fighter.alive_models, enemy, False)
        assert melee == pytest.approx(expected)
    battle.hooks.add(STRENGTH, lambda battle, unit, model, weapon, s: s + 10)
    assert close_combat_strength(battle, fighter, model, CLOSE_COMBAT_WEAPON, False) == 10
