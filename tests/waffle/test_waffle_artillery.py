"""Artillery (7th-edition unit type): guns fired by their crew.

The rule text is quoted in ``editions/waffle/artillery.py``. Every test uses the
7th-edition gun profile the shared catalogues write (``WS - BS - S - T 7 W 2 I -
A - Ld - Sv 3+``, unit type Artillery) and Guardsmen (BS3 T4) as crew; bases
are 1" across, so two models 1.5" apart (centre to centre) are 0.5" apart.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    BOLTGUN,
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    Placed,
    all_dice_used,
    dice_purposes,
    make_battle,
    make_unit,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.artillery import (
    crewed_to_move,
    gunners,
    guns,
    is_gun,
    shooting_toughness,
)
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models, shot_bs
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import remove_casualty, st
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.units import Unit
from hammerlab.errors import ProfileError
from hammerlab.io.battlescribe import import_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"

GUN_STATS = {
    "WS": "-",
    "BS": "-",
    "S": "-",
    "T": "7",
    "W": "2",
    "I": "-",
    "A": "-",
    "Ld": "-",
    "Sv": "3+",
}
GUN = Profile(name="Gun", characteristics=GUN_STATS, unit_type="Artillery")
CANNON = weapon("Cannon", "48", "8", "3", "Heavy 1")


def battery(gun_at: list[tuple[float, float]], crew_at: list[tuple[float, float]]) -> Unit:
    """A's guns (with a Cannon) and Guardsmen crew (with Lasguns)."""
    return make_unit(
        "art",
        A,
        [Placed(GUN, [CANNON], at) for at in gun_at]
        + [Placed(GUARD, [LASGUN], at) for at in crew_at],
        name="Battery",
    )


def test_a_gun_reads_without_strength_initiative_or_leadership() -> None:
    gun = stats_of(GUN)
    assert (gun.ws, gun.bs, gun.s, gun.t, gun.w, gun.i, gun.a, gun.ld, gun.sv) == (
        0,
        0,
        0,
        7,
        2,
        0,
        0,
        0,
        3,
    )
    infantry = Profile(name="Odd", characteristics=GUN_STATS, unit_type="Infantry")
    with pytest.raises(ProfileError):
        stats_of(infantry)  # only an Artillery model may lack S, I and Ld


def test_a_crewman_within_2_inches_fires_the_gun_with_his_bs_and_not_his_lasgun() -> None:
    # Crewman 1 is 0.5" from the gun: he fires it (at his BS 3) and not his Lasgun;
    # crewman 2, 8" away, fires his Lasgun.
    unit = battery([(30.0, 10.0)], [(31.5, 10.0), (39.0, 10.0)])
    target = squad("b", B, MARINE, [], [(30.0, 30.0)])
    battle = make_battle(unit, target)
    gun, near, far = unit.models
    assert is_gun(gun) and not is_gun(near)
    assert gunners(unit) == {gun.id: near}
    assert firing_models(battle, unit, target, "Cannon", FireOrders()) == [gun]
    assert firing_models(battle, unit, target, "Lasgun", FireOrders()) == [far]
    assert shot_bs(battle, gun, False) == 3


def test_two_guns_of_one_profile_fire_each_with_its_own_crewman_s_bs() -> None:
    # Two guns of one profile, crewed by a Guardsman (BS3: 4+ to hit) and a Veteran
    # (BS4: 3+), each 1.5" from his gun: each gun rolls at its own crewman's score,
    # though the guns are alike (a volley reads a BS once per profile only where no
    # gun fires: attacks._fire_alike).
    veteran = profile("Veteran", bs=4, s=3, t=3, sv="5+")
    unit = make_unit(
        "art",
        A,
        [
            Placed(GUN, [CANNON], (30.0, 10.0)),
            Placed(GUN, [CANNON], (40.0, 10.0)),
            Placed(GUARD, [LASGUN], (31.5, 10.0)),
            Placed(veteran, [LASGUN], (41.5, 10.0)),
        ],
        name="Battery",
    )
    target = squad("b", B, MARINE, [], [(30.0, 30.0), (32.0, 30.0)])
    battle = make_battle(unit, target, dice=[3, 3] + [1] * 20)
    fire_weapon(battle, unit, target, "Cannon", FireOrders())
    to_hit = [p for p in dice_purposes(battle) if p.startswith("to hit")]
    assert to_hit == ["to hit (Cannon, 4+)", "to hit (Cannon, 3+)"]


def test_a_gun_with_no_crewman_within_2_inches_does_not_fire() -> None:
    # The only crewman is 2.5" from the gun's base: nobody fires the Cannon, he
    # fires his Lasgun.
    unit = battery([(30.0, 10.0)], [(33.5, 10.0)])
    target = squad("b", B, MARINE, [], [(30.0, 30.0)])
    battle = make_battle(unit, target)
    assert firing_models(battle, unit, target, "Cannon", FireOrders()) == []
    assert firing_models(battle, unit, target, "Lasgun", FireOrders()) == [unit.models[1]]


def test_one_crewman_fires_one_gun() -> None:
    # Two guns, one crewman 0.5" from both: the first gun in the unit's order is fired.
    unit = battery([(30.0, 10.0), (33.0, 10.0)], [(31.5, 10.0)])
    first, second, crewman = unit.models
    assert gunners(unit) == {first.id: crewman}
    battle = make_battle(unit, squad("b", B, MARINE, [], [(30.0, 30.0)]))
    assert firing_models(battle, unit, battle.unit("b"), "Cannon", FireOrders()) == [first]
    assert second.id not in gunners(unit)


@pytest.mark.parametrize(("gun_alive", "needed"), [(True, "6+"), (False, "4+")])
def test_shooting_at_artillery_uses_the_guns_toughness(gun_alive: bool, needed: str) -> None:
    # A Marine's Boltgun (S4) at a gun and two Guardsmen (majority T4): while the gun
    # is left, T7: S4 v T7 wounds on 6+ (6th/7th-edition chart); with the gun gone,
    # the Guardsmen's T4: S4 v T4 wounds on 4+. The hit (4 on 3+) wounds on a 1: no.
    unit = battery([(30.0, 10.0)], [(31.5, 10.0), (28.5, 10.0)])
    if not gun_alive:
        unit.models[0].wounds_left = 0
    marine = squad("b", B, MARINE, [BOLTGUN], [(30.0, 30.0)])
    battle = make_battle(unit, marine, dice=[4, 1])
    start_phase(battle, "shooting", B)
    fire_weapon(battle, marine, unit, BOLTGUN.name, FireOrders())
    assert f"to wound (Boltgun, {needed})" in dice_purposes(battle)
    assert shooting_toughness(battle, unit) == (7 if gun_alive else None)
    assert all_dice_used(battle)


def test_when_the_last_crewman_dies_the_guns_are_removed() -> None:
    unit = battery([(30.0, 10.0), (34.0, 10.0)], [(31.5, 10.0), (35.5, 10.0)])
    battle = make_battle(unit, squad("b", B, MARINE, [], [(30.0, 30.0)]))
    gun1, gun2, crew1, crew2 = unit.models
    remove_casualty(battle, unit, crew1, "shot")
    assert gun1.alive and gun2.alive  # one crewman is left
    remove_casualty(battle, unit, crew2, "shot")
    assert not gun1.alive and not gun2.alive
    assert st(battle, unit).casualties_this_phase == 4


def test_artillery_moves_only_with_a_crewman_per_gun() -> None:
    two_guns = battery([(30.0, 10.0), (34.0, 10.0)], [(31.5, 10.0), (35.5, 10.0)])
    assert crewed_to_move(two_guns)
    two_guns.models[3].wounds_left = 0
    assert not crewed_to_move(two_guns)  # two guns, one crewman
    assert crewed_to_move(squad("g", A, GUARD, [LASGUN], [(10.0, 10.0)]))  # no guns


def test_imported_artillery_with_crew_plays_and_without_crew_is_refused() -> None:
    marines = import_file(DATA / "Space Marines - Codex (2015).cat")
    assert marines.reasons("Thunderfire Cannon") == ()
    thunderfire = marines.find("Thunderfire Cannon")
    names = [(e.profile.name, is_gun_profile(e.profile)) for e in thunderfire.entries]
    assert names == [("Techmarine Gunner", False), ("Thunderfire Cannon (Main Gun)", True)]
    guard = import_file(DATA / "Astra Militarum - Codex.cat")
    assert guard.reasons("Field Artillery") == ()
    orks = import_file(DATA / "Orks - Codex.cat")  # the Gretchin crew profile is not imported
    assert orks.reasons("Mek Gunz") == (
        "the unit has no crew model for its Artillery guns (guns without crew are removed)",
    )


def is_gun_profile(profile: Profile) -> bool:
    """An Artillery profile without Strength (``artillery.is_gun`` on a model)."""
    return profile.unit_type.startswith("Artillery") and profile.get("S").strip() == "-"


def test_a_gun_s_blast_scatters_2d6_less_its_crewman_s_bs() -> None:
    # A gun fires "at the crewman's BS" (the crewman is BS 3): its blast marker,
    # missing on the scatter die (a 4) and rolling 7 on 2D6 (4 and 3), moves
    # 7 - 3 = 4"; the gun's own BS ("-") would have taken nothing off.
    mortar = weapon("Mortar", "48", "4", "6", "Heavy 1, Blast")
    unit = make_unit(
        "art", A, [Placed(GUN, [mortar], (30.0, 10.0)), Placed(GUARD, [LASGUN], (31.5, 10.0))]
    )
    target = squad("b", B, MARINE, [], [(30.0, 30.0)])
    battle = make_battle(unit, target, dice=[4, 4, 3], directions=[0.0], script_a=[("aim", "b.1")])
    fire_weapon(battle, unit, target, "Mortar", FireOrders())
    (marker,) = of_kind(battle, "marker")
    assert marker.scattered == 4.0


def test_the_guns_are_found_model_by_model_where_the_make_up_has_any() -> None:
    """``guns`` answers "none" from the unit's make-up before asking any model; where
    it has guns they are the models alive that are guns, in order, as a model-by-model
    reading finds them (this fails if the make-up's answer outlives the last gun)."""
    unit = battery([(10.0, 10.0), (14.0, 10.0)], [(10.0, 12.0), (14.0, 12.0)])
    gun_one, gun_two = unit.models[0], unit.models[1]

    def read() -> list[str]:
        return [m.id for m in unit.alive_models if is_gun(m)]

    assert [m.id for m in guns(unit)] == read() == [gun_one.id, gun_two.id]
    gun_one.wounds_left = 0
    assert [m.id for m in guns(unit)] == read() == [gun_two.id]
    gun_two.wounds_left = 0
    assert guns(unit) == [] and read() == []
    battle = make_battle(unit)
    assert shooting_toughness(battle, unit) is None  # no gun left: the crew's own Toughness
    gun_two.wounds_left = 1  # back (a test's edit): found again
    assert guns(unit) == [gun_two] and shooting_toughness(battle, unit) == 7
    marines = squad("tac", A, MARINE, [BOLTGUN], [(30.0, 30.0), (31.0, 30.0)])
    assert guns(marines) == []
