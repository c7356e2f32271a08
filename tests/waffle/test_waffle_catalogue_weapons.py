"""Weapon Types a player's real catalogues write (session 23 review): ``Rapid Fire N``,
7" and 10" blast markers, markers the edition cannot place, the ``Unwieldly`` spelling.

Expected values are worked out by hand from the rule texts quoted (the arithmetic is in
the comments), never copied from the engine's output.
"""

from __future__ import annotations

from fractions import Fraction
from math import isclose

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    alive_ids,
    all_dice_used,
    last,
    make_battle,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.expected import expected_casualties
from hammerlab.editions.waffle.fight import initiative
from hammerlab.editions.waffle.flyers import snap_against
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.units import Unit
from hammerlab.errors import ProfileError
from hammerlab.io.battlescribe.playable import weapon_problems

HURRICANE = weapon("Hurricane bolter", "24", "4", "5", "Rapid Fire 3")
"""Space Marines - Codex (2015).cat line 32475: Range 24, S4, AP5, Type ``Rapid Fire 3``."""
BARE = profile("Unarmoured", sv="6+")
"""6+ armour: AP6 or better weapons leave no save, which keeps the scripts short."""


def _hurricane_at(points: list[tuple[float, float]], dice: list[int]) -> tuple[Battle, Unit, Unit]:
    """A Marine (BS4) with a hurricane bolter at (30,10), Guardsmen at ``points``."""
    shooter = squad("a", A, MARINE, [HURRICANE], [(30, 10)], name="Crusader")
    target = squad("b", B, GUARD, [LASGUN], points, name="Guard")
    return make_battle(shooter, target, dice=dice), shooter, target


def test_rapid_fire_3_fires_3_shots_and_6_within_half_range() -> None:
    """7th edition, Rapid Fire: "one shot at a target that is up to its maximum range
    away ... two shots at a target that is up to half its maximum range away";
    ``Rapid Fire 3`` (three boltguns as one weapon) is 3 shots, 6 within half range
    (12"). The Guardsman at (30,20) is 9" away base to base (1" bases): 6 shots; at
    (30,30), 19": 3 shots. Every To Hit die a 1 (a miss), so no other die is rolled.
    Before, 2 and 1."""
    for point, shots in (((30.0, 20.0), 6), ((30.0, 30.0), 3)):
        battle, shooter, target = _hurricane_at([point], [1] * shots)
        fire_weapon(battle, shooter, target, "Hurricane bolter", FireOrders())
        assert last(of_kind(battle, "shots")).shots == shots
        assert all_dice_used(battle)


def test_the_ai_counts_rapid_fire_3_as_6_shots_within_half_range() -> None:
    """The AI's estimate of the same volley: 6 shots at BS4 (3+: 2/3), S4 v T4 (the test
    Guardsman's) wounds on 4+ (1/2), AP5 denies the 5+ save: 6 * 2/3 * 1/2 = 2 of the 5
    models (before: 2 shots, 2/3)."""
    points = [(30.0 + 2 * k, 20.0) for k in range(5)]
    battle, shooter, target = _hurricane_at(points, [])
    got = expected_casualties(battle, shooter, target, "Hurricane bolter", FireOrders())
    assert isclose(got, float(6 * Fraction(2, 3) * Fraction(1, 2)))


def test_a_7_inch_blast_marker_is_7_inches_across() -> None:
    """Astra Militarum - Codex.cat: the Macharius battle cannon, ``Ordnance 1, 7" Blast``.
    A 7" marker (radius 3.5") on b.1 touches a 1"-base model whose centre is within
    4": b.2 at 3.8" is under it (a 5" Large Blast would reach 3"), b.3 at 4.2" is not.
    Dice: the scatter die 1 (HIT: the marker stays), then b.1's and b.2's wounds, S8 v
    T4 on 2+, AP3 against no save. Before, the weapon fired one shot with no marker."""
    cannon = weapon("Macharius Battle Cannon", "72", "8", "3", 'Ordnance 1, 7" Blast')
    shooter = squad("a", A, MARINE, [cannon], [(30, 10)])
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (33.8, 30), (34.2, 30)], name="Mob")
    battle = make_battle(shooter, target, dice=[1, 2, 2], script_a=[("aim", "b.1")])
    fire_weapon(battle, shooter, target, "Macharius Battle Cannon", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert (marker.shape, marker.hits) == ("massive blast", {"Mob [b]": 2})
    assert alive_ids(target) == ["b.3"]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("kind", "inches"),
    [
        ('Ordnance 1, 7" Blast', 7.0),  # the Macharius battle cannon, the Supa-lobba
        ("Ordnance 1, Massive Blast, Twin-linked", 7.0),  # the Fellblade's HE shell
        ("Ordnance 1, Apocalyptic Blast", 10.0),  # the Warhound's plasma blastgun
        ('Ordnance 1, 10" Apocalyptic Blast', 10.0),
        ('Heavy 1, Large Blast (5")', 5.0),
        ('Heavy 1, 3" Blast', 3.0),
    ],
)
def test_blast_markers_are_read_with_their_size(kind: str, inches: float) -> None:
    """Apocalypse (7th edition, as remembered): the Massive Blast marker is 7" across,
    the Apocalyptic Blast 10"; the shared data writes both ways (``7" Blast``,
    ``10" Apocalyptic Blast``). No word of them is left as a rule not resolved."""
    read = weapon_of(weapon("gun", "72", "8", "3", kind))
    assert read.blast == inches
    assert [r for r in read.unsupported_rules() if "blast" in r.lower()] == []


@pytest.mark.parametrize(
    "marker", ['3D6" Blast', "Apocalyptic Mega-blast", '5" Blast (No scatter)', '4" Blast']
)
def test_a_blast_marker_the_edition_cannot_place_drops_the_weapon(marker: str) -> None:
    """docs/importers.md: "A weapon the Waffle Edition cannot read ... is not handed
    over". A marker of no size it places is such a weapon: the reader refuses it, and
    the importer's playable check (which must agree) drops it with a reason. Before, the
    word was a rule "not implemented" and the weapon fired as one shot."""
    gun = weapon("Big gun", "72", "8", "3", f"Ordnance 1, {marker}")
    with pytest.raises(ProfileError, match="no blast marker it places"):
        weapon_of(gun)
    assert any("no blast marker it places" in p for p in weapon_problems(gun))


def test_unwieldly_in_the_data_is_unwieldy() -> None:
    """Tyranids - Codex.cat line 43670: Crushing Claws, ``Melee, Armourbane, Unwieldly``:
    the 7th-edition crushing claws are "Melee, Armourbane, Unwieldy". Seed 001/002:
    Unwieldy strikes at Initiative 1, so a Haruspex (I3) with them strikes at I1."""
    claws = weapon_of(weapon("Crushing Claws", "-", "+1", "2", "Melee, Armourbane, Unwieldly"))
    assert claws.has_rule("Unwieldy") and claws.unsupported_rules() == []
    haruspex = squad("h", B, profile("Haruspex", i=3), [], [(10, 10)]).models[0]
    assert initiative(haruspex, claws) == 1


def test_the_odds_and_the_battle_ask_one_rule_of_a_flyer_s_models() -> None:
    """``flyers.snap_against`` of a unit and of its models' profiles (the odds' form)
    agree: a Flyer is hit by Snap Shots only, a Skyfire weapon fires Snap Shots at a
    target that is neither a Flyer nor a Skimmer."""
    flyer = Profile(
        name="Jet",
        characteristics={"BS": "2", "Front": "10", "Side": "10", "Rear": "10", "HP": "3"},
        unit_type="Vehicle (Flyer)",
    )
    jet = squad("j", B, flyer, [], [(30, 30)])
    foot = squad("f", B, GUARD, [], [(30, 30)])
    skyfire = weapon_of(weapon("Flakk", "48", "7", "4", "Heavy 2, Skyfire"))
    plain = weapon_of(LASGUN)
    for unit, weapon_profile, snaps in (
        (jet, plain, True),
        (jet, skyfire, False),
        (foot, plain, False),
        (foot, skyfire, True),
    ):
        models = tuple(m.profile for m in unit.models)
        assert snap_against(unit, weapon_profile) is snaps
        assert snap_against(models, weapon_profile) is snaps
