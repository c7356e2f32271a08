"""Weapon Type strings as real 7th-edition data writes them, read by the Waffle edition."""

from __future__ import annotations

from pathlib import Path

import pytest

from hammerlab.editions.waffle.fight import second_weapon_bonus
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.ruleset import WaffleRuleset
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.units import Model
from hammerlab.errors import ProfileError
from hammerlab.io.battlescribe import import_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"


@pytest.mark.parametrize(
    ("type_text", "blast", "rules"),
    [
        ('Assault 1, 3" Blast, Assault grenades', 3.0, ("Assault grenades",)),
        ('Heavy 1, 5" Blast', 5.0, ()),
        ("Ordnance 1, Large Blast", 5.0, ()),
        ("Heavy 1, Blast, Pinning", 3.0, ("Pinning",)),
    ],
)
def test_base_weapon_types_with_marker_sizes(
    type_text: str, blast: float, rules: tuple[str, ...]
) -> None:
    weapon = Weapon("w", {"Range": "24", "S": "4", "AP": "5", "Type": type_text})
    profile = weapon_of(weapon)
    assert profile.blast == blast
    assert profile.rules == rules


@pytest.mark.parametrize(
    "catalogue",
    [
        "Space Marines - Codex (2015).cat",
        "Orks - Codex.cat",
        "Astra Militarum - Codex.cat",
        "Tyranids - Codex.cat",
    ],
)
def test_every_imported_unit_is_validated_without_crashing(catalogue: str) -> None:
    """Unreadable profiles and unknown rules are reported as problems, never raised."""
    ruleset = WaffleRuleset()
    result = import_file(DATA / catalogue)
    problems = [p for d in result.datasheets for p in ruleset.validate_datasheet(d)]
    assert all(isinstance(p, str) and p for p in problems)


@pytest.mark.parametrize(
    ("key", "value"),
    [("S", "²"), ("AP", "²"), ("Range", "nan"), ("Range", "inf"), ("Range", "1e3"), ("S", "x²")],
)
def test_unreadable_weapon_characteristics_are_profile_errors(key: str, value: str) -> None:
    chars = {"Range": "24", "S": "4", "AP": "5", "Type": "Assault 1", key: value}
    with pytest.raises(ProfileError):
        weapon_of(Weapon("odd", chars))


def test_unreadable_model_characteristic_is_a_profile_error() -> None:
    chars = dict.fromkeys(("WS", "BS", "S", "T", "W", "I", "A", "Ld"), "4") | {"Sv": "3²"}
    with pytest.raises(ProfileError):
        stats_of(Profile("odd", chars))


FRAG_KRAK = ("Frag grenades", "Krak grenades")
"""The Space Marines' "Frag and Krak Grenades" (min 1 on every Tactical Marine)."""


@pytest.mark.parametrize(
    ("unit", "model", "weapons"),
    [
        ("Tactical Squad", "Space Marine Sergeant", ["Boltgun", "Bolt pistol", *FRAG_KRAK]),
        ("Tactical Squad", "Space Marine", ["Boltgun", "Bolt pistol", *FRAG_KRAK]),
        (
            "Tactical Squad",
            "Space Marine (heavy bolter)",
            ["Heavy bolter", "Bolt pistol", *FRAG_KRAK],
        ),
        ("Tactical Squad", "Space Marine (flamer)", ["Flamer", "Bolt pistol", *FRAG_KRAK]),
        ("Infantry Squad", "Sergeant", ["Laspistol", "Close combat weapon", "Frag grenades"]),
        ("Infantry Squad", "Guardsman", ["Lasgun", "Frag grenades"]),
        (
            "Infantry Squad",
            "Guardsman (grenade launcher)",
            ["Grenade launcher (frag)", "Frag grenades"],
        ),
        ("Ogryns", "Ogryn", ["Ripper gun", "Frag grenades"]),
        ("Ogryns", "Ogryn Bone 'ead", ["Ripper gun", "Frag grenades"]),
    ],
)
def test_library_wargear_follows_the_7th_edition_codex(
    unit: str, model: str, weapons: list[str]
) -> None:
    """Issue 10 §4: 7th-edition codex wargear (Codex: Space Marines 2015, Codex: Astra
    Militarum 2014, as the BattleScribe catalogues list it): Tactical Marines carry a
    boltgun (or their special or heavy weapon), a bolt pistol and frag and krak
    grenades, no close combat weapon; Guardsmen a lasgun and frag grenades; Ogryns a
    ripper gun and frag grenades. So a Tactical Marine has no second close combat
    weapon and fights with 1 Attack, not 2 (grenades are no close combat weapon)."""
    sheet = WaffleRuleset().library.find(unit)
    entry = next(e for e in sheet.entries if e.profile.name == model)
    assert [w.name for w in entry.weapons] == weapons
    if model == "Space Marine":
        fighter = Model(
            id="m.1",
            profile=entry.profile,
            weapons=entry.weapons,
            position=(0.0, 0.0),
            base_mm=entry.base_mm,
            wounds_left=1,
        )
        assert second_weapon_bonus(fighter, weapon_of(entry.weapons[1])) == 0
