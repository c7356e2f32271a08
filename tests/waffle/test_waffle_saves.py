"""Seed 000 step 6 saves, "Models with more than One Save", and the wound rules
that decide what an unsaved wound does (Overwhelming Strength, Instant Death,
Eternal Warrior, Feel No Pain)."""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    LASCANNON,
    LASGUN,
    MARINE,
    A,
    B,
    Placed,
    alive_ids,
    all_dice_used,
    box,
    dice_purposes,
    last,
    make_battle,
    make_unit,
    model,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.units import Unit

CAPTAIN = profile(
    "Captain",
    ws=6,
    bs=5,
    s=4,
    t=4,
    w=3,
    i=5,
    a=3,
    ld=10,
    sv="3+",
    inv=4,
    unit_type="Infantry (Character)",
)
PLASMA = weapon("Plasma gun", "24", "7", "2", "Rapid Fire")
KRAK = weapon("Missile launcher (krak)", "48", "8", "3", "Heavy 1")
HAMMER = weapon("Vortex cannon", "48", "10", "-", "Heavy 1")


def shoot_at(
    target_profile: Profile,
    gun: Weapon,
    dice: list[int],
    *,
    terrain: list[TerrainArea] | None = None,
    target_rules: tuple[str, ...] = (),
    model_rules: tuple[str, ...] = (),
    gone_to_ground: bool = False,
    count: int = 1,
) -> tuple[Battle, Unit]:
    """One marine at (30,10) fires ``gun`` at a unit standing at (30,30), (32,30)..."""
    shooter = squad("a", A, MARINE, [gun], [(30, 10)])
    target = make_unit(
        "b",
        B,
        [Placed(target_profile, [BOLTGUN], (30 + 2 * k, 30), model_rules) for k in range(count)],
        rules=target_rules,
    )
    battle = make_battle(shooter, target, dice=dice, terrain=terrain or [])
    st(battle, target).gone_to_ground = gone_to_ground
    fire_weapon(battle, shooter, target, gun.name, FireOrders())
    return battle, target


RUIN = box("Ruin", 28, 28, 32, 32, cover_save=5)
"""Around (30,30): the target stands in 5+ cover."""


def saves(battle: Battle) -> list[tuple[str, int, int, bool]]:
    return [(s.save, s.needed, s.roll, s.saved) for s in of_kind(battle, "save")]


def test_seed000_multiple_saves_captain_rolls_armour_invulnerable_and_cover_once_each() -> None:
    # "a model can use each type of save (armor, invulnerable and cover) once":
    # Boltgun (AP5) v a Captain with 3+ armour, 4+ invulnerable, in 5+ cover.
    battle, _ = shoot_at(CAPTAIN, BOLTGUN, [6, 6, 2, 3, 4], terrain=[RUIN])
    assert saves(battle) == [
        ("armour", 3, 2, False),
        ("invulnerable", 4, 3, False),
        ("cover", 5, 4, False),
    ]
    assert model(battle, "b.1").wounds_left == 2
    assert last(of_kind(battle, "wound")).lost == 1
    assert all_dice_used(battle)


def test_seed000_multiple_saves_stop_at_the_first_success() -> None:
    # Armour fails (1), the invulnerable save succeeds (4): no cover roll, no wound.
    battle, _ = shoot_at(CAPTAIN, BOLTGUN, [6, 6, 1, 4], terrain=[RUIN])
    assert saves(battle) == [("armour", 3, 1, False), ("invulnerable", 4, 4, True)]
    assert of_kind(battle, "wound") == []
    assert model(battle, "b.1").wounds_left == 3
    assert all_dice_used(battle)


def test_seed000_multiple_saves_best_of_the_same_type_is_used_once() -> None:
    # In 5+ ruins and behind a 4+ wall: "if a model has multiple saves of the same
    # type then it uses the best among them" -> one cover save, on 4+.
    wall = box("Barricade", 20, 20, 40, 22, cover_save=4)
    battle, _ = shoot_at(CAPTAIN, BOLTGUN, [6, 6, 1, 1, 4], terrain=[RUIN, wall])
    assert saves(battle) == [
        ("armour", 3, 1, False),
        ("invulnerable", 4, 1, False),
        ("cover", 4, 4, True),
    ]
    assert all_dice_used(battle)


def test_seed000_ap_removes_armour_save_only() -> None:
    # Plasma AP2 beats 3+ armour; the invulnerable and cover saves remain.
    # 19": 1 shot, hits on 3+; S7 v T4 wounds on 2+.
    battle, _ = shoot_at(CAPTAIN, PLASMA, [6, 2, 1, 1], terrain=[RUIN])
    assert saves(battle) == [("invulnerable", 4, 1, False), ("cover", 5, 1, False)]
    assert model(battle, "b.1").wounds_left == 2  # S7 < 2 x T4
    assert all_dice_used(battle)


def test_seed000_armour_save_allowed_when_ap_is_worse_than_the_save() -> None:
    # AP4 against 3+: the armour save is taken (AP must be equal or better to deny it).
    gun = weapon("Heavy bolter", "36", "5", "4", "Heavy 1")
    battle, _ = shoot_at(MARINE, gun, [6, 6, 3])
    assert saves(battle) == [("armour", 3, 3, True)]
    gun = weapon("Autocannon", "48", "7", "3", "Heavy 1")
    battle, target = shoot_at(MARINE, gun, [6, 6])
    assert saves(battle) == []
    assert alive_ids(target) == []


def test_seed000_ignores_cover_weapon_allows_no_cover_save() -> None:
    gun = weapon("Sniper rifle", "36", "4", "6", "Heavy 1, Ignores Cover")
    battle, _ = shoot_at(profile("Scout", sv="4+"), gun, [6, 6, 1], terrain=[RUIN])
    assert saves(battle) == [("armour", 4, 1, False)]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("terrain", "cover"),
    [([], 6), ([RUIN], 4)],
    ids=["open-ground-6+", "ruin-5+-becomes-4+"],
)
def test_seed000_go_to_ground_improves_cover_by_1_or_gives_6_plus(
    terrain: list[TerrainArea], cover: int
) -> None:
    battle, _ = shoot_at(MARINE, BOLTGUN, [6, 6, 1, 1], terrain=terrain, gone_to_ground=True)
    assert saves(battle) == [("armour", 3, 1, False), ("cover", cover, 1, False)]
    assert all_dice_used(battle)


# --- Overwhelming Strength ----------------------------------------------------------


def test_seed000_overwhelming_strength_auto_wounds_s10_no_roll_saves_still_taken() -> None:
    # S10 v T4 would need a 4 - 6 = -2+: "causes this wound automatically, with no
    # rolls required (Saves may still be taken if applicable)". Dice: hit 6, armour 2.
    battle, target = shoot_at(MARINE, HAMMER, [6, 2])
    assert last(of_kind(battle, "wounds")).needed == "auto (Overwhelming Strength)"
    assert not any(p.startswith("to wound") for p in dice_purposes(battle))
    assert saves(battle) == [("armour", 3, 2, False)]
    assert alive_ids(target) == []
    assert all_dice_used(battle)


def test_seed000_overwhelming_strength_counts_as_a_6_for_rending() -> None:
    # "counting the to-wound roll as if it were a 6": a Rending S10 AP- wound is AP2,
    # so the 3+ armour is gone and only the 4+ invulnerable is rolled (and fails).
    gun = weapon("Rending cannon", "48", "10", "-", "Heavy 1, Rending")
    battle, _ = shoot_at(CAPTAIN, gun, [6, 1])
    assert saves(battle) == [("invulnerable", 4, 1, False)]
    # S10 >= 2 x T4: Instant Death takes all three wounds.
    assert (last(of_kind(battle, "wound")).lost, last(of_kind(battle, "wound")).instant_death) == (
        3,
        True,
    )
    assert all_dice_used(battle)


def test_seed000_overwhelming_strength_s9_rolls_to_wound() -> None:
    # S9 never auto-wounds: against T1 it needs a 2+ and the 1 fails.
    gnat = profile("Gnat", t=1, sv="-")
    gun = weapon("Lascannon", "48", "9", "2", "Heavy 1")
    battle, target = shoot_at(gnat, gun, [6, 1])
    assert last(of_kind(battle, "wounds")).needed == "2+"
    assert alive_ids(target) == ["b.1"]
    assert all_dice_used(battle)


def test_seed000_overwhelming_strength_s10_v_t8_rolls_2_plus() -> None:
    # S10 v T8 needs a 2+ on the chart, not "1+ or less": rolled, and the 1 fails.
    wraithlord = profile("Wraithlord", t=8, w=3, sv="3+")
    battle, _ = shoot_at(wraithlord, HAMMER, [6, 1])
    assert last(of_kind(battle, "wounds")).needed == "2+"
    assert model(battle, "b.1").wounds_left == 3
    assert all_dice_used(battle)


# --- Instant Death, Eternal Warrior, Feel No Pain ------------------------------------


def test_seed000_instant_death_strength_double_toughness_removes_multi_wound_model() -> None:
    # Krak S8 = 2 x T4: hit 6, wound 2+ (6), AP3 beats 3+, invulnerable 4+ fails (1).
    battle, target = shoot_at(CAPTAIN, KRAK, [6, 6, 1])
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (3, 0, True)
    assert alive_ids(target) == []
    assert all_dice_used(battle)


def test_seed000_instant_death_needs_double_toughness() -> None:
    # Plasma S7 < 8: one wound only.
    battle, _ = shoot_at(CAPTAIN, PLASMA, [6, 6, 1])
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (1, 2, False)


def test_seed000_instant_death_is_logged_on_a_one_wound_model() -> None:
    # Krak S8 v a Marine's T4: 8 >= 2 x 4, so the wound inflicts Instant Death (6th/7th
    # edition) though the model had only one Wound to lose. Hit 6, wound 6 (2+), AP3
    # beats the 3+ armour: no save. The log said "instant_death: false" (it guessed
    # the flag from "more than one wound lost") and dropped "(Instant Death)".
    battle, target = shoot_at(profile("Marine", t=4, w=1, sv="3+"), KRAK, [6, 6])
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (1, 0, True)
    assert "(Instant Death)" in wound.text
    assert alive_ids(target) == []
    assert all_dice_used(battle)


def test_seed000_instant_death_is_logged_on_a_captain_with_one_wound_left() -> None:
    # The 3-wound Captain (T4, no armour save against AP3, 4+ invulnerable) has lost
    # two Wounds already: krak S8 (>= 2 x T4) inflicts Instant Death, which takes the
    # one Wound left. Hit 6, wound 6, invulnerable 4+ fails (1).
    shooter = squad("a", A, MARINE, [KRAK], [(30, 10)])
    target = make_unit("b", B, [Placed(CAPTAIN, [BOLTGUN], (30, 30), ())])
    target.models[0].wounds_left = 1
    battle = make_battle(shooter, target, dice=[6, 6, 1])
    fire_weapon(battle, shooter, target, KRAK.name, FireOrders())
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (1, 0, True)
    assert alive_ids(target) == []
    assert all_dice_used(battle)


def test_seed000_a_lost_wound_below_double_toughness_is_no_instant_death() -> None:
    # Plasma S7 v the same Captain on one Wound: 7 < 2 x 4, the Wound is lost, no
    # Instant Death (the flag is the rule's, not "the model died").
    shooter = squad("a", A, MARINE, [PLASMA], [(30, 10)])
    target = make_unit("b", B, [Placed(CAPTAIN, [BOLTGUN], (30, 30), ())])
    target.models[0].wounds_left = 1
    battle = make_battle(shooter, target, dice=[6, 6, 1])
    fire_weapon(battle, shooter, target, PLASMA.name, FireOrders())
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (1, 0, False)
    assert "Instant Death" not in wound.text


@pytest.mark.parametrize("where", ["unit", "model"])
def test_seed000_eternal_warrior_prevents_instant_death(where: str) -> None:
    rules = ("Eternal Warrior",)
    battle, _ = shoot_at(
        CAPTAIN,
        LASCANNON,  # S9 AP2
        [6, 6, 1],
        target_rules=rules if where == "unit" else (),
        model_rules=rules if where == "model" else (),
    )
    wound = last(of_kind(battle, "wound"))
    assert (wound.lost, wound.left, wound.instant_death) == (1, 2, False)


def test_seed000_feel_no_pain_ignores_an_unsaved_wound_on_5_plus() -> None:
    # Boltgun: hit, wound, armour 3+ fails (1), Feel No Pain 5+ succeeds (5).
    battle, target = shoot_at(MARINE, BOLTGUN, [6, 6, 1, 5], target_rules=("Feel No Pain",))
    assert saves(battle) == [("armour", 3, 1, False), ("Feel No Pain", 5, 5, True)]
    assert of_kind(battle, "wound") == []
    assert alive_ids(target) == ["b.1"]
    # A 4 fails it.
    battle, target = shoot_at(MARINE, BOLTGUN, [6, 6, 1, 4], target_rules=("Feel No Pain",))
    assert alive_ids(target) == []


def test_seed000_feel_no_pain_value_in_brackets() -> None:
    battle, target = shoot_at(MARINE, BOLTGUN, [6, 6, 1, 4], target_rules=("Feel No Pain (4+)",))
    assert saves(battle)[-1] == ("Feel No Pain", 4, 4, True)
    assert alive_ids(target) == ["b.1"]


@pytest.mark.parametrize("wounds", [1, 2])
def test_seed000_feel_no_pain_not_against_instant_death(wounds: int) -> None:
    # Krak S8 v T4: Instant Death, no Feel No Pain roll (the script has none left).
    biker = profile("Biker", t=4, w=wounds, sv="3+")
    battle, target = shoot_at(biker, KRAK, [6, 6], target_rules=("Feel No Pain",))
    assert saves(battle) == []
    assert alive_ids(target) == []
    assert all_dice_used(battle)


def test_seed000_cover_only_from_terrain_between_or_around_the_target() -> None:
    # A 5+ area that the line of fire does not cross gives nothing.
    aside = box("Crater", 40, 28, 44, 32, cover_save=5)
    battle, _ = shoot_at(MARINE, BOLTGUN, [6, 6, 1], terrain=[aside])
    assert saves(battle) == [("armour", 3, 1, False)]
    assert all_dice_used(battle)


def test_seed000_step6_saves_one_wound_at_a_time_with_lasguns() -> None:
    # 3 Guardsmen with Lasguns v 2 Marines; all within 12": 6 shots.
    guard = profile("Guardsman", bs=3, s=3, ld=7, sv="5+")
    shooters = squad("a", A, guard, [LASGUN], [(30, 10), (32, 10), (34, 10)])
    target = squad("b", B, MARINE, [BOLTGUN], [(32, 20), (32, 22)])
    battle = make_battle(
        shooters,
        target,
        dice=[
            *[4, 4],  # a.1: 2 hits (4+)
            *[1, 1],  # a.2: misses
            *[6, 3],  # a.3: 1 hit
            *[5, 6, 4],  # S3 v T4 wound on 5+: 2 wounds
            3,  # b.1 (closest) saves on 3+
            2,  # b.1 fails with the second wound
        ],
    )
    fire_weapon(battle, shooters, target, "Lasgun", FireOrders())
    assert [(s.model, s.roll, s.saved) for s in of_kind(battle, "save")] == [
        ("b.1", 3, True),
        ("b.1", 2, False),
    ]
    assert alive_ids(target) == ["b.2"]
    assert all_dice_used(battle)
