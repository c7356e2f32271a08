"""Krak grenades and melta bombs in close combat (7th edition, issue 12 §2).

7th edition: a model attacking a vehicle (krak grenades: also a Monstrous
Creature) with krak grenades or melta bombs makes one Attack with the grenade's
profile instead of its normal Attacks. Profiles, from the shared game system file
(``Warhammer40K.gst``): ``Krak Grenades`` 8" S6 AP4 ``Assault 1``; ``Melta Bomb``
Range ``-`` S8 AP1 ``Armourbane, Unwieldy`` (imported as ``Melee, Armourbane,
Unwieldy``). Expectations are worked out by hand from those profiles.
"""

from __future__ import annotations

from dataclasses import replace

from conftest import (
    BOLT_PISTOL,
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    make_battle,
    of_kind,
    profile,
    squad,
    weapon,
)
from test_waffle_vehicles import LEMAN_RUSS, POWER_FIST, vehicle_unit

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.armour import GLANCING, PENETRATING
from hammerlab.editions.waffle.assault_results import FightRecord
from hammerlab.editions.waffle.combat import in_contact
from hammerlab.editions.waffle.fight import choose_weapons, fight_sub_phase, melee_options
from hammerlab.editions.waffle.vehicle_damage import CREW_SHAKEN
from hammerlab.editions.waffle.vehicles import REAR
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

KRAK = replace(weapon("Krak Grenades", "8", "6", "4", "Assault 1"), keywords=("Grenade",))
"""As the importer hands it over (a grenade of the 'Frag and Krak Grenades' item)."""
MELTA_BOMB = weapon("Melta Bomb", "-", "8", "1", "Melee, Armourbane, Unwieldy")
CARNIFEX = profile("Carnifex", ws=3, s=9, t=6, w=4, i=1, a=4, sv="3+",
                   unit_type="Monstrous Creature")  # fmt: skip

TOUCHING = 30.0 - (100.0 + 25.4) / 2 / 25.4
"""The y of a 25 mm base touching the south of the 100 mm hull at (30, 30)."""


def marine_at_the_tank(
    weapons: list[object], dice: list[int], script: list[tuple[str, str]] | None = None
) -> tuple[Battle, Unit, Unit]:
    marine = squad("a", A, MARINE, weapons, [(30.0, TOUCHING)], name="Marines")  # type: ignore[arg-type]
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    battle = make_battle(marine, tank, dice=dice, script_a=script or [], fallback=WaffleAI())
    return battle, marine, tank


def test_grenades_are_offered_only_against_vehicles_and_krak_against_monsters() -> None:
    marine = squad("a", A, MARINE, [BOLT_PISTOL, KRAK, MELTA_BOMB], [(10.0, 10.0)])
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    monster = squad("c", B, CARNIFEX, [], [(50.0, 30.0)])
    infantry = squad("d", B, MARINE, [], [(60.0, 30.0)])
    model = marine.models[0]

    def names(foes: list[Unit]) -> list[str]:
        return [w.name for w in melee_options(model, marine, foes)]

    # Grenades are never ordinary weapons: a bolt pistol gives the close combat weapon.
    assert names([]) == names([infantry]) == ["Close combat weapon"]
    assert names([tank]) == ["Close combat weapon", "Krak Grenades", "Melta Bomb"]
    assert names([monster]) == ["Close combat weapon", "Krak Grenades"]
    assert names([infantry, monster]) == ["Close combat weapon", "Krak Grenades"]


def test_a_krak_grenade_is_one_attack_at_s6_ap4_against_the_rear_armour() -> None:
    # The Marine charged (A1 + 1), yet throws one krak grenade. The tank did not
    # move: automatic hit. Rear AV10: D6 5 + S6 = 11 > 10, penetrating; damage
    # D6 3 + 0 (AP4 has no modifier) = 3, Crew Shaken.
    battle, marine, tank = marine_at_the_tank(
        [BOLT_PISTOL, KRAK], [5, 3], [("melee_weapon", "Krak Grenades")]
    )
    marine.status.charged = True
    fight_sub_phase(battle, A)
    (blows,) = [b for b in of_kind(battle, "blows") if b.attacks]
    assert (blows.weapon, blows.initiative, blows.attacks, blows.hits) == ("Krak Grenades", 4, 1, 1)
    (armour,) = of_kind(battle, "armour")
    assert (armour.facing, armour.armour, armour.result) == (REAR, 10, PENETRATING)
    assert of_kind(battle, "vehicle_damage")[0].result == CREW_SHAKEN
    assert tank.models[0].wounds_left == 2
    assert all_dice_used(battle)


def test_a_melta_bomb_strikes_at_initiative_1_with_armourbane() -> None:
    # Unwieldy: Initiative step 1. S8 + 1 + 1 (Armourbane's extra D6) = 10 = AV10: glancing.
    battle, _, tank = marine_at_the_tank([MELTA_BOMB], [1, 1], [("melee_weapon", "Melta Bomb")])
    fight_sub_phase(battle, A)
    (blows,) = [b for b in of_kind(battle, "blows") if b.attacks]
    assert (blows.weapon, blows.initiative, blows.attacks) == ("Melta Bomb", 1, 1)
    (armour,) = of_kind(battle, "armour")
    assert (armour.armour, armour.result) == (10, GLANCING)
    assert tank.models[0].wounds_left == 2
    assert all_dice_used(battle)


def test_a_grenade_blow_never_strikes_a_unit_it_may_not_attack() -> None:
    # The Marine touches the tank and an enemy Marine: the krak grenade can only go
    # to the tank, so no target is asked. Dice: armour 6 (penetrating), damage 3;
    # the enemy Marine's blow misses (1); its Morale check 1 + 1 passes.
    battle, marine, tank = marine_at_the_tank(
        [BOLT_PISTOL, KRAK], [6, 3, 1, 1, 1], [("melee_weapon", "Krak Grenades")]
    )
    other = squad("e", B, MARINE, [], [(29.0, TOUCHING)])
    battle.units[other.id] = other
    assert in_contact(marine.models[0], other.models[0])
    fight_sub_phase(battle, A)
    assert asked(battle, A, "melee_target") == []
    struck = [(b.weapon, b.target) for b in of_kind(battle, "blows") if b.unit == marine.label]
    assert struck == [("Krak Grenades", tank.label)]


def test_the_ai_throws_a_krak_grenade_unless_its_weapon_does_more() -> None:
    # At the rear AV10, one blow each (automatic hits): the close combat weapon (S4)
    # glances on a 6 only (1/6); a krak grenade (S6) glances on a 4 and penetrates on
    # 5-6 (1/2 in all); a power fist (S8, AP2) glances on a 2 and penetrates on 3+
    # (5/6 in all, more on the damage table).
    for weapons, expected in (
        ([BOLT_PISTOL, KRAK], "Krak Grenades"),
        ([POWER_FIST, KRAK], "Power fist"),
    ):
        battle, marine, tank = marine_at_the_tank(weapons, [])
        record = FightRecord()
        choose_weapons(battle, marine, record, [tank])
        assert record.weapons["a.1"].name == expected
