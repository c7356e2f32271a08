"""Close combat and movement special rules of issue 12 §3: Smash, Fear, Hammer of
Wrath, Move Through Cover, and the weapon rules a model has itself (Fleshbane,
Poisoned, Rending, Shred: "If a model has this special rule, or is attacking
with a Melee weapon that has …").

The rule texts quoted are the 7th-edition rulebook's, as the BattleScribe game
system file ``tests/data/bsdata-7e/Warhammer40K.gst`` gives them.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from conftest import (
    BOLTGUN,
    GUARD,
    LASGUN,
    A,
    B,
    all_dice_used,
    asked,
    box,
    charge_sub_phase,
    dice_purposes,
    make_battle,
    of_kind,
    profile,
    weapon,
)
from conftest import squad as make_squad
from fight_kit import CHAINSWORD, MARINE, POWER_FIST, north, south

from hammerlab.editions.waffle.charge import charge_distance
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.expected import attacks_with
from hammerlab.editions.waffle.fight import attacks_of, fight_sub_phase, melee_options
from hammerlab.editions.waffle.hit_and_run import hit_and_run
from hammerlab.editions.waffle.movement import dangerous_terrain_tests
from hammerlab.editions.waffle.plans import charge_chance
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.snap_shots import moved_for_weapons
from hammerlab.editions.waffle.special_rules import (
    SMASH_ATTACK,
    close_combat_weapon,
    difficult_terrain_dice,
    model_has,
    relentless,
)
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.units import Unit

BEAST = profile("Beast", ws=4, s=6, t=6, w=4, i=1, a=3, sv="3+", unit_type="Monstrous Creature")
"""A Monstrous Creature: WS4 S6 T6 W4 I1 A3."""
POWER_AXE = weapon("Power axe", "-", "+1", "2", "Melee, Unwieldy")
LANCE = weapon("Lance", "-", "User", "1", "Melee")


def duel(
    attacker: Profile,
    weapons: list[Weapon],
    defender: Profile,
    rules: tuple[str, ...],
    dice: list[int],
    script: list[tuple[str, str]] | None = None,
    defender_rules: tuple[str, ...] = (),
) -> tuple[Battle, Unit, Unit]:
    """One model of A with ``rules`` (a.1) against one of B (b.1) touching it."""
    a = make_squad("a", A, attacker, weapons, south([10]), name="Attackers", rules=rules)
    b = make_squad(
        "b", B, defender, [CHAINSWORD], north([10]), name="Defenders", rules=defender_rules
    )
    script = [*(script or []), ("move", "hold")]  # the winner's consolidation: stay put
    return make_battle(a, b, dice=dice, script_a=script), a, b


# --- Smash -------------------------------------------------------------------------


def test_smash_close_combat_attacks_are_ap2_unless_ap1() -> None:
    # "All of the close combat attacks … of a model with this special rule are resolved
    # at AP2 (unless it's attacking with an AP1 weapon)."
    _, beast, _ = duel(BEAST, [CHAINSWORD], MARINE, ("Smash",), [])
    model = beast.models[0]
    assert close_combat_weapon(beast, model, weapon_of(CHAINSWORD)).ap == 2  # AP- -> 2
    assert close_combat_weapon(beast, model, weapon_of(POWER_AXE)).ap == 2
    assert close_combat_weapon(beast, model, weapon_of(LANCE)).ap == 1  # AP1 stays
    _, marine, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    assert close_combat_weapon(marine, marine.models[0], weapon_of(CHAINSWORD)).ap is None


def test_smash_chainsword_blows_deny_a_marine_its_3_plus_save() -> None:
    # The Beast is a Monstrous Creature, so it causes Fear: the Marine passes his Fear
    # test (3 + 3 against Ld8). The Marine (I4) misses (1). The Beast (I1) fights with
    # its Chainsword, A3: hits on 4+ (WS4 v WS4) with 4, 4, 1; S6 v T4 wounds on 2+: 3
    # and 2, two wounds. AP2: no armour save, so the Marine dies; the Beast consolidates 1".
    battle, _, marine = duel(
        BEAST,
        [CHAINSWORD],
        MARINE,
        ("Smash",),
        [3, 3, 1, 4, 4, 1, 3, 2, 1],
        script=[("melee_weapon", "Chainsword")],
    )
    fight_sub_phase(battle, A)
    assert marine.destroyed
    assert not any(p.startswith("armour save") for p in dice_purposes(battle))
    assert all_dice_used(battle)


def test_smash_attack_is_one_attack_at_double_strength() -> None:
    # "it can choose instead to make a single Smash Attack … resolve the Attack at double
    # the model's Strength (to a maximum of 10)": S6 x2 = 12 -> 10, which wounds without
    # a roll (the seed's Overwhelming Strength, at S10), and S10 is double T4 or more:
    # Instant Death. One Attack although the Beast has A3. The W3 Captain passes his
    # Fear test (3 + 3 against Ld8: a Monstrous Creature causes Fear), misses (1); the
    # Smash Attack hits (4) and slays it; the Beast consolidates 1".
    battle, beast, marine = duel(
        BEAST,
        [CHAINSWORD],
        profile("Captain", w=3),
        ("Smash",),
        [3, 3, 1, 4, 1],
        script=[("melee_weapon", "Smash Attack")],
    )
    options = [w.name for w in melee_options(beast.models[0], beast)]
    assert options == ["Chainsword", "Smash Attack"]
    fight_sub_phase(battle, A)
    mine = [e for e in of_kind(battle, "blows") if e.unit == "Attackers [a]"]
    assert [(e.weapon, e.attacks) for e in mine] == [("Smash Attack", 1)]
    wounds = [e for e in of_kind(battle, "wounds") if e.weapon == "Smash Attack"]
    assert [(e.needed, e.wounds) for e in wounds] == [("auto (Overwhelming Strength)", 1)]
    assert marine.destroyed
    assert len(asked(battle, A, "melee_weapon")) == 1
    assert attacks_of(battle, beast, beast.models[0], SMASH_ATTACK) == 1
    assert all_dice_used(battle)


def test_ai_estimate_counts_one_attack_for_a_smash_attack() -> None:
    # The AI's estimates count Attacks as the fight does: A3 + 1 (charging) with the
    # Chainsword, one with the Smash Attack.
    _, beast, _ = duel(BEAST, [CHAINSWORD], MARINE, ("Smash",), [])
    model = beast.models[0]
    assert attacks_with(model, weapon_of(CHAINSWORD), 1) == 4
    assert attacks_with(model, SMASH_ATTACK, 1) == 1


def test_without_smash_no_smash_attack_is_offered() -> None:
    _, marine, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    assert [w.name for w in melee_options(marine.models[0], marine)] == ["Chainsword"]


# --- a model's own weapon rules in close combat ---------------------------------------


def test_a_model_with_fleshbane_wounds_on_2_plus_in_close_combat() -> None:
    # "If a model has this special rule … they always Wound on a 2+ in close combat."
    # The Marine (I4) strikes first: 4 hits (4+ v WS4); S4 v T8 would be "-": 2 wounds.
    # The T8 giant (3+) fails its save (1), W1: it dies; the Marine consolidates 1".
    giant = profile("Giant", t=8, i=1, sv="3+")
    battle, _, defender = duel(MARINE, [CHAINSWORD], giant, ("Fleshbane",), [4, 2, 1, 1])
    fight_sub_phase(battle, A)
    assert dice_purposes(battle)[:2] == ["to hit (Chainsword, 4+)", "to wound (Chainsword, 2+)"]
    assert defender.destroyed
    assert all_dice_used(battle)


def test_a_model_with_poisoned_wounds_on_the_value_given_in_close_combat() -> None:
    # "it always wounds on a fixed number (generally shown in brackets), unless a lower
    # result would be required": Poisoned (2+) S4 v T4 wounds on 2+, not the chart's 4+.
    _, gaunt, _ = duel(MARINE, [CHAINSWORD], MARINE, ("Poisoned (2+)",), [])
    armed = close_combat_weapon(gaunt, gaunt.models[0], weapon_of(CHAINSWORD))
    assert armed.rule_value("Poisoned") == 2
    assert not close_combat_weapon(gaunt, gaunt.models[0], weapon_of(POWER_FIST)).has_rule(
        "Rending"
    )


# --- Fear --------------------------------------------------------------------------

HORROR = profile("Horror", ws=4, i=3)
"""WS4 I3: strikes after a Marine (I4)."""


def test_fear_failed_test_fights_at_weapon_skill_1() -> None:
    # "a unit in base contact with one or more enemy models that cause Fear must take a
    # Leadership test … If the test is failed … Weapon Skill reduced to 1". The Marine
    # (Ld8) rolls 11: failed. Seed chart: WS1 v WS4 hits on 5+ (the Marine's 4 misses);
    # the Horror's WS4 v WS1 on 2+ (its 1 misses). The Horror, not facing Fear, does not test.
    battle, _, _ = duel(MARINE, [CHAINSWORD], HORROR, (), [6, 5, 4, 1], defender_rules=("Fear",))
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [
        "Fear test (Attackers [a])",
        "to hit (Chainsword, 5+)",
        "to hit (Chainsword, 2+)",
    ]
    assert battle.memory.get("Fear") is None  # "for the remainder of that Fight sub-phase"
    assert all_dice_used(battle)


def test_fear_passed_test_has_no_effect() -> None:
    battle, _, _ = duel(MARINE, [CHAINSWORD], HORROR, (), [3, 3, 1, 1], defender_rules=("Fear",))
    fight_sub_phase(battle, A)
    assert dice_purposes(battle)[1:] == ["to hit (Chainsword, 4+)", "to hit (Chainsword, 4+)"]
    assert all_dice_used(battle)


def test_fear_fearless_and_atsknf_pass_automatically() -> None:
    # Fearless and And They Shall Know No Fear "automatically pass … Fear … tests".
    for immune in ("Fearless", "And They Shall Know No Fear"):
        battle, _, _ = duel(
            MARINE, [CHAINSWORD], HORROR, (immune,), [1, 1], defender_rules=("Fear",)
        )
        fight_sub_phase(battle, A)
        assert dice_purposes(battle) == ["to hit (Chainsword, 4+)", "to hit (Chainsword, 4+)"]
        assert all_dice_used(battle)


# --- Hammer of Wrath -----------------------------------------------------------------


def hammer_charge(dice: list[int], rules: tuple[str, ...]) -> tuple[Battle, Unit, Unit]:
    """A Marine with ``rules`` at (30,10) charges a Guardsman (WS4 S3 T4 I4 A1, 5+) at
    (35,20) and rolls 6+6: 12" against 10.18", home."""
    charger = make_squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger", rules=rules)
    target = make_squad("b", B, GUARD, [LASGUN], [(35, 20)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[6, 6, *dice],
        script_a=[("charger", "Charger [a]"), ("charge_target", "Target [b]"), ("move", "hold")],
        script_b=[("charge_reaction", "no reaction")],
    )
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    return battle, charger, target


def test_hammer_of_wrath_hits_automatically_at_initiative_10_at_unmodified_strength() -> None:
    # "one additional Attack that hits automatically and is resolved at the model's
    # unmodified Strength with AP- … at the Initiative 10 step": S4 v T4 wounds on 4+ (5),
    # the Guardsman's 5+ save fails (2): it dies before anyone strikes at I4; the
    # Marine's blows are lost and it consolidates 1".
    battle, _, target = hammer_charge([5, 2, 1], ("Hammer of Wrath", "Furious Charge"))
    fight_sub_phase(battle, A)
    blows = [(e.weapon, e.initiative, e.attacks, e.hits) for e in of_kind(battle, "blows")]
    assert blows == [("Hammer of Wrath", 10, 1, 1)]
    # no bonus from Furious Charge: S4, so 4+ to wound, not S5's 3+
    assert dice_purposes(battle)[1:3] == [
        "to wound (Hammer of Wrath, 4+)",
        "armour save 5+ (b.1)",
    ]
    assert target.destroyed
    assert all_dice_used(battle)


def test_without_hammer_of_wrath_no_extra_hit() -> None:
    # Both strike at I4 on 4+ (WS4 v WS4): the Marine's two Attacks (A1, +1 for the
    # charge) roll 1, 1 and the Guardsman's one rolls 1: a draw, nothing else rolled.
    battle, _, target = hammer_charge([1, 1, 1], ())
    fight_sub_phase(battle, A)
    assert "Hammer of Wrath" not in [e.weapon for e in of_kind(battle, "blows")]
    assert not target.destroyed
    assert all_dice_used(battle)


# --- Move Through Cover ----------------------------------------------------------------


def test_move_through_cover_rolls_an_extra_d6_through_difficult_terrain() -> None:
    # "rolls an extra D6 when rolling to move through difficult terrain … the unit rolls
    # 3D6 and picks the highest roll".
    _, walker, _ = duel(MARINE, [CHAINSWORD], MARINE, ("Move Through Cover",), [])
    _, plain, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    assert (difficult_terrain_dice(walker), difficult_terrain_dice(plain)) == (3, 2)


def test_move_through_cover_charge_is_not_slowed_by_difficult_terrain() -> None:
    # "is not slowed by charging through difficult terrain": 2D6, not 3D6 less the highest.
    woods = box("woods", 25, 12, 45, 14, difficult=True)
    charger = make_squad(
        "a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger", rules=("Move Through Cover",)
    )
    target = make_squad("b", B, GUARD, [LASGUN], [(30, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[2, 2],  # 4" against 5": short, and nothing more is rolled
        terrain=[woods],
        script_a=[("charger", "Charger [a]"), ("charge_target", "Target [b]")],
        script_b=[("charge_reaction", "no reaction")],
    )
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    assert dice_purposes(battle) == ["charge range 2D6 (Charger [a])"]
    assert all_dice_used(battle)


def test_move_through_cover_passes_dangerous_terrain_tests() -> None:
    # "a model with the Move Through Cover special rule automatically passes Dangerous
    # Terrain tests": no die for it; a model without the rule rolls (5: passes).
    swamp = box("Swamp", 5, 15, 15, 25, dangerous=True)  # both models stand in it
    _, walker, _ = duel(MARINE, [CHAINSWORD], MARINE, ("Move Through Cover",), [])
    battle = make_battle(walker, terrain=[swamp])
    dangerous_terrain_tests(battle, walker)
    assert dice_purposes(battle) == []
    _, plain, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    battle = make_battle(plain, terrain=[swamp], dice=[5])
    dangerous_terrain_tests(battle, plain)
    assert dice_purposes(battle) == ["dangerous terrain (a.1)"]
    assert all_dice_used(battle)


def test_a_model_with_concussive_strikes_concussive_blows() -> None:
    # The data gives Chaplain Cassius "Concussive" (his crozius's): his close combat
    # attacks carry it; his shooting weapons do not (they are not close combat weapons).
    _, chaplain, _ = duel(MARINE, [CHAINSWORD], MARINE, ("Concussive",), [])
    assert close_combat_weapon(chaplain, chaplain.models[0], weapon_of(CHAINSWORD)).has_rule(
        "Concussive"
    )


# --- Hit and Run ---------------------------------------------------------------------


def locked_pair(dice: list[int], script_b: list[tuple[str, str]]) -> tuple[Battle, Unit, Unit]:
    """A Marine with Hit and Run (I4) at (10,20) locked with a Marine at (10,21)."""
    a = make_squad(
        "a", A, MARINE, [CHAINSWORD], south([10]), name="Raiders", rules=("Hit and Run",)
    )
    b = make_squad("b", B, MARINE, [CHAINSWORD], north([10]), name="Holders")
    battle = make_battle(
        a, b, dice=dice, script_a=[("hit_and_run", "leave combat")], script_b=script_b
    )
    refresh_locks(battle)
    return battle, a, b


def test_hit_and_run_passed_initiative_test_breaks_away_3d6_and_the_enemy_consolidates() -> None:
    # "must take an Initiative test … If the test is passed, choose a direction - then
    # roll 3D6 … the unit breaks away from combat and must immediately move … Enemy
    # units that are no longer locked in combat immediately Consolidate D6".
    # Initiative test: 3 against I4, passed; 3D6 = 2+2+2: 6" straight away from the
    # enemy (south): (10,20) -> (10,14). The Holders consolidate 1" (holding).
    battle, raiders, holders = locked_pair([3, 2, 2, 2, 1], [("move", "hold")])
    hit_and_run(battle, A)
    assert raiders.models[0].position == pytest.approx((10, 14))
    assert not st(battle, raiders).locked_in_combat
    assert not st(battle, holders).locked_in_combat
    assert dice_purposes(battle) == [
        "Initiative test 4 (Raiders [a])",
        "Hit and Run distance 3D6 (Raiders [a])",
        "consolidate distance (Holders [b])",
    ]
    assert all_dice_used(battle)


def test_hit_and_run_failed_initiative_test_stays_locked() -> None:
    # "If the test is failed, nothing happens and the models remain locked in the fight."
    battle, raiders, _ = locked_pair([5], [])  # 5 against I4: failed
    hit_and_run(battle, A)
    assert raiders.models[0].position == (10, 20)
    assert st(battle, raiders).locked_in_combat
    assert all_dice_used(battle)


def test_hit_and_run_blocked_way_stays_locked() -> None:
    # The move passes through "the models they were locked in combat with" only: a
    # friend standing at (10,16), in the way of the 6" move south, keeps the unit there.
    a = make_squad(
        "a", A, MARINE, [CHAINSWORD], south([10]), name="Raiders", rules=("Hit and Run",)
    )
    friend = make_squad("c", A, MARINE, [CHAINSWORD], [(10, 16)], name="Friend")
    b = make_squad("b", B, MARINE, [CHAINSWORD], north([10]), name="Holders")
    battle = make_battle(
        a, friend, b, dice=[3, 2, 2, 2], script_a=[("hit_and_run", "leave combat")]
    )
    refresh_locks(battle)
    hit_and_run(battle, A)
    assert a.models[0].position == (10, 20)
    assert st(battle, a).locked_in_combat
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("horror_rules", "ws1"),
    [(("Fear", "Daemon of Slaanesh"), True), (("Fear",), False)],
)
def test_ancient_doom_fear_test_at_minus_1_ld_against_a_daemon_of_slaanesh(
    horror_rules: tuple[str, ...], ws1: bool
) -> None:
    # Ancient Doom (Codex: Craftworlds, from memory): "must take Fear tests at -1 Ld
    # against" units with the Daemon of Slaanesh rule. The Marine (Ld8) rolls 4 4 = 8:
    # at Ld 7 it fails (WS1 hits on 5+), at Ld 8 it passes (4+): its 3 misses either way;
    # the Horror hits on 2+ against WS1, 4+ against WS4, and misses with its 1.
    battle, _, _ = duel(
        MARINE, [CHAINSWORD], HORROR, ("Ancient Doom",), [4, 4, 3, 1], defender_rules=horror_rules
    )
    fight_sub_phase(battle, A)
    test = of_kind(battle, "morale")[0]
    assert (test.modifier, test.passed) == ((-1, False) if ws1 else (0, True))
    assert dice_purposes(battle)[1:] == (
        ["to hit (Chainsword, 5+)", "to hit (Chainsword, 2+)"]
        if ws1
        else ["to hit (Chainsword, 4+)", "to hit (Chainsword, 4+)"]
    )
    assert all_dice_used(battle)


def test_the_ai_s_charge_chance_rolls_the_dice_move_through_cover_rolls() -> None:
    # The AI's chance of a charge is the roll the rules make: with Move Through Cover
    # the charge through the woods rolls 2D6
    # (test_move_through_cover_charge_is_not_slowed_by_difficult_terrain), without it
    # 3D6 with the highest discarded. Both counted here by hand over the faces, the
    # bases 5" apart (the same table as that test).
    woods = box("woods", 25, 12, 45, 14, difficult=True)
    target = make_squad("b", B, GUARD, [LASGUN], [(30, 16)], name="Target")
    chances = {}
    for rules in (("Move Through Cover",), ()):
        charger = make_squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger", rules=rules)
        battle = make_battle(charger, target, terrain=[woods])
        assert charge_distance(charger, target) == pytest.approx(5.0)
        chances[rules] = charge_chance(battle, charger, target)
    two_d6 = sum(a + b >= 5 for a, b in product(range(1, 7), repeat=2)) / 36
    lowest_two_of_3d6 = sum(sum(sorted(r)[:2]) >= 5 for r in product(range(1, 7), repeat=3)) / 216
    assert two_d6 == 30 / 36  # all but 1-1, 1-2, 2-1, 1-3, 3-1 and 2-2
    assert chances[("Move Through Cover",)] == pytest.approx(two_d6)
    assert chances[()] == pytest.approx(lowest_two_of_3d6)


# --- Monstrous Creatures: the rules of their unit type --------------------------------


@pytest.mark.parametrize("unit_type", ["Monstrous Creature", "Flying Monstrous Creature"])
def test_a_monstrous_creature_has_its_unit_type_s_five_special_rules(unit_type: str) -> None:
    # 7th edition: "Monstrous Creatures have the Fear, Hammer of Wrath, Move Through
    # Cover, Relentless and Smash special rules" (a Flying Monstrous Creature is one).
    # The model and its unit name no rule; an Infantry model gets none of them.
    monster = replace(BEAST, unit_type=unit_type)
    beast = make_squad("a", A, monster, [CHAINSWORD], [(10, 10)])
    marine = make_squad("b", B, MARINE, [CHAINSWORD], [(30, 30)])
    for rule in ("Fear", "Hammer of Wrath", "Move Through Cover", "Relentless", "Smash"):
        assert model_has(beast, beast.models[0], rule)
        assert not model_has(marine, marine.models[0], rule)
    assert (relentless(beast), relentless(marine)) == (True, False)
    assert (difficult_terrain_dice(beast), difficult_terrain_dice(marine)) == (3, 2)
    assert close_combat_weapon(beast, beast.models[0], weapon_of(CHAINSWORD)).ap == 2
    assert [w.name for w in melee_options(beast.models[0], beast)] == [
        "Chainsword",
        "Smash Attack",
    ]


@pytest.mark.parametrize("unit_type", ["Bike", "Bike (Character)", "Jetbike"])
def test_a_bike_has_hammer_of_wrath_and_relentless_by_its_unit_type(unit_type: str) -> None:
    # 7th edition: Bikes and Jetbikes have "the Hammer of Wrath, Jink, Relentless and
    # Very Bulky special rules". A Bike that moved fires its Heavy weapons as if it had
    # not (Relentless), and has neither Fear nor Smash (a Monstrous Creature's).
    biker = make_squad("a", A, replace(MARINE, unit_type=unit_type), [BOLTGUN], [(10, 10)])
    biker.status.moved = True
    assert model_has(biker, biker.models[0], "Hammer of Wrath")
    assert relentless(biker) and not moved_for_weapons(biker)
    assert not model_has(biker, biker.models[0], "Fear")
    assert not model_has(biker, biker.models[0], "Smash")
    walker = make_squad("b", B, MARINE, [BOLTGUN], [(30, 30)])
    walker.status.moved = True
    assert not relentless(walker) and moved_for_weapons(walker)


def test_a_monstrous_creature_with_no_rules_listed_causes_fear() -> None:
    # The Beast names no rule; touching it, the Marine takes a Fear test and rolls 6 + 5
    # = 11 against Ld8: failed, WS1. He (I4) hits the WS4 Beast on 5+ (the seed's chart,
    # WS1 v WS4): his 4 misses. The Beast (I1, A3) hits WS1 on 2+: 1, 1, 1 miss. A draw.
    battle, _, _ = duel(
        BEAST, [CHAINSWORD], MARINE, (), [6, 5, 4, 1, 1, 1], script=[("melee_weapon", "Chainsword")]
    )
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [
        "Fear test (Defenders [b])",
        "to hit (Chainsword, 5+)",
        "to hit (Chainsword, 2+)",
    ]
    assert all_dice_used(battle)


def test_a_charging_monstrous_creature_strikes_its_hammer_of_wrath_hit() -> None:
    # The Beast (no rule named, S6) charges the Guardsman as in hammer_charge (6 + 6:
    # 12" against the 10.18" between centres, less the bases). The Guardsman (Ld7)
    # passes his Fear test (3 + 3). At I10 the Hammer of Wrath hit: S6 (unmodified) v
    # T4 wounds on 2+ (5); AP-, "these hits do not benefit from any of the model's
    # special rules", so not Smash's AP2: the 5+ save is taken and fails (2); he dies
    # and the Beast consolidates 1".
    charger = make_squad("a", A, BEAST, [CHAINSWORD], [(30, 10)], name="Charger")
    target = make_squad("b", B, GUARD, [LASGUN], [(35, 20)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[6, 6, 3, 3, 5, 2, 1],
        script_a=[
            ("charger", "Charger [a]"),
            ("charge_target", "Target [b]"),
            ("melee_weapon", "Chainsword"),
            ("move", "hold"),
        ],
        script_b=[("charge_reaction", "no reaction")],
    )
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    fight_sub_phase(battle, A)
    blows = [(e.weapon, e.initiative, e.attacks, e.hits) for e in of_kind(battle, "blows")]
    assert blows == [("Hammer of Wrath", 10, 1, 1)]
    assert dice_purposes(battle)[1:4] == [
        "Fear test (Target [b])",
        "to wound (Hammer of Wrath, 2+)",
        "armour save 5+ (b.1)",
    ]
    assert target.destroyed
    assert all_dice_used(battle)
