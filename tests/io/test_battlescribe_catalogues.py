"""Importing the 7th-edition BattleScribe catalogues copied into ``tests/data``.

Expected values come from the XML, not from the importer: counts are made
here with plain ElementTree queries, and the spot-checked characteristics were
read by hand from the files (the file and line are given with each).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.errors import UnknownNameError
from hammerlab.io.battlescribe import ImportResult, import_file, unit_from_file
from hammerlab.io.battlescribe.gear import named_count

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
CATALOGUES = (
    "Space Marines - Codex (2015).cat",
    "Orks - Codex.cat",
    "Astra Militarum - Codex.cat",
    "Tyranids - Codex.cat",
)
GAME_SYSTEM = "Warhammer40K.gst"
CAT = "{http://www.battlescribe.net/schema/catalogueSchema}"
GST = "{http://www.battlescribe.net/schema/gameSystemSchema}"
NINE = {"WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"}
FOUR = {"Range", "S", "AP", "Type"}


def shared(name: str) -> Path:
    """A data file copied into ``tests/data``; a missing one fails the test."""
    path = BSDATA / name
    assert path.is_file(), f"test data missing: {path}"
    return path


@cache
def xml_root(name: str) -> ET.Element:
    """The file parsed with the standard library, for independent counts."""
    return ET.parse(shared(name)).getroot()


def imported(name: str) -> ImportResult:
    """The importer's result (cached by the importer for the session)."""
    return import_file(shared(name))


def entry(sheet: Datasheet, profile_name: str) -> ModelEntry:
    return next(e for e in sheet.entries if e.profile.name == profile_name)


def weapon(sheet: Datasheet, name: str) -> Weapon:
    return next(w for w in sheet.weapons() if w.name == name)


WRAPPED_UNITS = {
    # Space Marines line 12167: "Dreadnoughts", an upgrade showing no profile, links
    # the Dreadnought model (line 12077) with min 1, max 3; line 11992: "Venerable
    # Dreadnoughts" links the Venerable Dreadnought (line 11888) the same way.
    "Space Marines - Codex (2015).cat": {"0ea4-8a62-96b6-77d0", "26d6-4c1c-d787-d28f"},
    # Orks line 33431: "Fighta-boma Flyer Wing (FW)", group "Fighta-Bomas" min 2,
    # max 4, default the Fighta-bomba (FW) model (line 33466).
    "Orks - Codex.cat": {"f29c-b880-0ae9-b1b8"},
    # Tyranids line 19150: "Meiotic Spore Brood" holds "Meiotic Spore" (min 3, max 9),
    # an upgrade showing a model profile (WS - BS - S 1 T 3 W 1 I 1 A - Ld 1).
    "Tyranids - Codex.cat": {"1d0e63a6-3fa9-6b5d-d65a-00c23827c9bf"},
}
"""Root entries that are units only through the models they hold by default
(read by hand). Every other root entry that is not typed unit or model and shows
no profile holds units (a formation, a detachment) or no model at all."""


@cache
def entries_by_id(name: str) -> dict[str | None, ET.Element]:
    """The selection entries of the catalogue and of the game system, by id."""
    targets = {e.get("id"): e for e in xml_root(name).iter(f"{CAT}selectionEntry")}
    return targets | {
        e.get("id"): e
        for e in xml_root(GAME_SYSTEM).iter(f"{GST}selectionEntry")
        if e.get("id") not in targets
    }


def root_entries(name: str) -> dict[str, str]:
    """Id → name of the root entries and of the entries the root links reach."""
    root = xml_root(name)
    found = {
        e.get("id", ""): e.get("name", "")
        for e in root.iterfind(f"./{CAT}selectionEntries/{CAT}selectionEntry")
    }
    for link in root.iterfind(f"./{CAT}entryLinks/{CAT}entryLink"):
        target = entries_by_id(name)[link.get("targetId")]
        found.setdefault(target.get("id", ""), target.get("name", ""))
    return found


def expected_unit_ids(name: str) -> set[str]:
    """Unit entries counted with XPath: every entry of type unit, root entries
    of type unit or model or showing a profile with a WS or Front
    characteristic (inline or linked), root links to such entries (here or
    in the .gst), and the :data:`WRAPPED_UNITS`."""
    root = xml_root(name)
    ids = {e.get("id", "") for e in root.iterfind(f".//{CAT}selectionEntry[@type='unit']")}
    ids |= WRAPPED_UNITS.get(name, set())
    targets = entries_by_id(name)
    profiles = {e.get("id"): e for e in root.iter(f"{CAT}profile")}
    profiles |= {
        e.get("id"): e
        for e in xml_root(GAME_SYSTEM).iter(f"{GST}profile")
        if e.get("id") not in profiles
    }

    def shows_a_body(*elements: ET.Element) -> bool:
        shown = []
        for element in elements:
            shown += element.findall(f"./{CAT}profiles/{CAT}profile")
            shown += [
                profiles[link.get("targetId")]
                for link in element.findall(f"./{CAT}infoLinks/{CAT}infoLink[@type='profile']")
                if link.get("targetId") in profiles
            ]
        names = {c.get("name") for profile in shown for c in profile.iter() if c.get("name")}
        return bool(names & {"WS", "Front"})

    for element in root.iterfind(f"./{CAT}selectionEntries/{CAT}selectionEntry"):
        if element.get("type") in {"unit", "model"} or shows_a_body(element):
            ids.add(element.get("id", ""))
    for link in root.iterfind(f"./{CAT}entryLinks/{CAT}entryLink"):
        target = targets.get(link.get("targetId"))
        if target is not None and (
            target.get("type") in {"unit", "model"} or shows_a_body(link, target)
        ):
            ids.add(target.get("id", ""))
    return ids


def expected_weapon_profiles(name: str) -> int:
    """Distinct profiles of the game system's Weapon type, by name and values
    (ranges compared without their inch mark)."""
    weapon_types = {
        t.get("id")
        for t in xml_root(GAME_SYSTEM).iter(f"{GST}profileType")
        if t.get("name") == "Weapon"
    }
    distinct = set()
    for profile in xml_root(name).iter(f"{CAT}profile"):
        if profile.get("typeName") != "Weapon" and profile.get("profileTypeId") not in weapon_types:
            continue
        values = {}
        for characteristic in profile.iter(f"{CAT}characteristic"):
            written = characteristic.get("value")
            text = characteristic.text if written is None else written
            values[characteristic.get("name")] = (text or "").strip()
        values["Range"] = values["Range"].removesuffix('"')
        distinct.add((profile.get("name"), tuple(sorted(values.items()))))
    return len(distinct)


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_unit_of_a_catalogue_imports_with_the_engine_keys(name: str) -> None:
    result = imported(name)
    assert result.kind == "catalogue"
    assert result.datasheets
    army = xml_root(name).get("name")
    for sheet in result.datasheets:
        assert sheet.army == army
        assert sheet.edition == "waffle"
        assert all(isinstance(note, str) and note for note in sheet.notes)
        for model in sheet.entries:
            keys = set(model.profile.characteristics)
            if model.profile.unit_type.startswith("Vehicle"):
                # 7th edition: a vehicle's BS, Armour Values and Hull Points; a Walker's
                # WS S I A too. Hulls are round bases: 60 mm for a Walker, else 100 mm.
                walker = {"WS", "S", "I", "A"} if "Walker" in model.profile.unit_type else set()
                assert keys == {"BS", "Front", "Side", "Rear", "HP"} | walker, sheet.name
                assert model.base_mm == (60.0 if walker else 100.0)
            else:
                assert keys == NINE, sheet.name
                assert model.base_mm == 25.0
            assert model.count >= 1
            assert all(set(w.characteristics) == FOUR for w in model.weapons), sheet.name
        if not sheet.entries:
            assert sheet.notes, f"{sheet.name} has no models and says nothing about it"


@pytest.mark.parametrize("name", CATALOGUES)
def test_unit_count_matches_an_independent_count(name: str) -> None:
    # A unit holding both vehicles and other models is imported as two datasheets,
    # the second noted "Split from ..." and named by the first.
    sheets = imported(name).datasheets
    split = [s for s in sheets if s.notes and s.notes[0].startswith("Split from ")]
    assert len(sheets) - len(split) == len(expected_unit_ids(name))
    splitting = [s for s in sheets if any("imported as the datasheet" in n for n in s.notes)]
    assert len(splitting) == len(split)


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_root_entry_is_a_unit_or_named_in_the_notes(name: str) -> None:
    # Before: root entries the importer did not take for units (the Dreadnoughts
    # among them) vanished without a word.
    others = {i: n for i, n in root_entries(name).items() if i not in expected_unit_ids(name)}
    notes = [n for n in imported(name).notes if "root entries are not imported as units" in n]
    assert len(notes) == (1 if others else 0)  # Tyranids: every root entry is a unit
    if others:
        assert notes[0].startswith(f"{len(others)} root entries are not imported as units: ")
        assert all(repr(other) in notes[0] for other in others.values())


def test_dreadnoughts_held_by_an_upgrade_entry_are_units() -> None:
    # Before: "Dreadnoughts" and "Venerable Dreadnoughts" (upgrades holding the
    # model through a link) were not imported. Space Marines line 12077: Dreadnought
    # WS 4 BS 4 S 6 Front 12 Side 12 Rear 10 I 4 A 4 HP 3, Vehicle (Walker), by
    # default its Left Hand's power fist with a built-in storm bolter and its Right
    # Hand's multi-melta (as the 2015 codex arms it); line 11888: the Venerable
    # Dreadnought has WS 5 BS 5. Min 1, max 3 of them.
    result = imported(CATALOGUES[0])
    for unit, skill in (("Dreadnoughts", "4"), ("Venerable Dreadnoughts", "5")):
        (dreadnought,) = result.find(unit).entries
        assert dict(dreadnought.profile.characteristics) == {
            "WS": skill, "BS": skill, "S": "6", "Front": "12", "Side": "12", "Rear": "10",
            "I": "4", "A": "4", "HP": "3",
        }  # fmt: skip
        assert dreadnought.profile.unit_type == "Vehicle (Walker)"
        assert (dreadnought.count, dreadnought.variable) == (1, True)
        assert sorted(w.name for w in dreadnought.weapons) == [
            "Multi-Melta", "Power Fist", "Storm Bolter",
        ]  # fmt: skip
        assert result.reasons(unit) == ()


def test_the_meiotic_spore_brood_is_a_unit() -> None:
    # Tyranids line 19150: three Meiotic Spores by default (min 3), each with a
    # Spore bomb (Range 6", Strength 5, AP 4).
    result = imported("Tyranids - Codex.cat")
    (spore,) = result.find("Meiotic Spore Brood").entries
    assert (spore.profile.name, spore.count, spore.variable) == ("Meiotic Spore", 3, True)
    assert [(w.name, w.get("Range"), w.get("S"), w.get("AP")) for w in spore.weapons] == [
        ("Spore bomb", "6", "5", "4")
    ]


def test_land_raiders_carry_both_weapons_of_a_pair() -> None:
    # Before: one weapon of each pair. Space Marines line 9209: the Land Raider
    # links "Twin-Linked Lascannon" (line 8508: one Lascannon profile, Type
    # appended ", Twin-Linked") with min 1, renamed "Two Twin-Linked Lascannons"
    # (line 9250), and a Twin-Linked Heavy Bolter with min 1: the 2015 codex's two
    # twin-linked lascannons and one twin-linked heavy bolter. Line 9296: the
    # Crusader's "Hurricane Bolter" (line 8877) renamed "Two Hurricane Bolters" and
    # a Twin-Linked Assault Cannon (line 8481); line 9391: the Redeemer's "Flamestorm
    # Cannon" (line 10878) renamed "Two Flamestorm Cannons" and the assault cannon.
    result = imported(CATALOGUES[0])
    for unit, pair, single in (
        ("Land Raider", "Lascannon", "Heavy Bolter"),
        ("Land Raider Crusader", "Hurricane Bolter", "Assault Cannon"),
        ("Land Raider Redeemer", "Flamestorm Cannon", "Assault Cannon"),
    ):
        sheet = result.find(unit)
        (raider,) = sheet.entries
        assert sorted(w.name for w in raider.weapons) == sorted([pair, pair, single]), unit
        read = f"is read as 2 of each weapon it shows ({pair!r})."
        assert any(note.endswith(read) for note in sheet.notes)
    lascannon = weapon(result.find("Land Raider"), "Lascannon")
    assert lascannon.get("Type") == "Heavy 1, Twin-linked"


def test_a_count_in_a_wargear_name_is_read_only_where_it_opens_the_name() -> None:
    # Names from the shared data: Orks "Pair of Killsaws", Astra Militarum
    # "4x Heavy Bomb Clusters", Tyranids "Two sets of Scything Talons" hold one
    # profile each; "Twin Big Shoota" and "Double Earthshaker Cannon" are one gun.
    names = {
        "Pair of Killsaws": 2,
        "4x Heavy Bomb Clusters": 4,
        "Two sets of Scything Talons": 2,
        "Three Hunter-Killer Missiles": 3,
        "Twin Big Shoota": 1,
        "Double Earthshaker Cannon": 1,
        "2 - Warpath": 1,  # a psychic power's number
        "Lascannon": 1,
        "99x Lascannon": 1,  # more than a model may carry (20)
    }
    assert {name: named_count(name) for name in names} == names
    # Orks line 19751: the Deff Dread's two power klaws are a "Power Klaw" with min 2.
    (dread,) = imported("Orks - Codex.cat").find("Deff Dread").entries
    assert [w.name for w in dread.weapons].count("Power Klaw") == 2


def rules_of(sheet: Datasheet, name: str, rules: tuple[str, ...]) -> set[str]:
    """Which of ``rules`` the Waffle Edition applies to the weapon ``name``."""
    return {rule for rule in rules if weapon_of(weapon(sheet, name)).has_rule(rule)}


def test_a_weapon_carries_only_its_own_rules_of_a_shared_selection() -> None:
    # Before: every rule linked on a selection went to each of its weapons, and the
    # engine applied them. Space Marines line 12282: "Seismic Hammer w/ Built-In
    # Meltagun" links the Seismic Hammer profile (line 32591: Type "Melee, Concussive,
    # Specialist Weapon, Unwieldy"), the Meltagun (Warhammer40K.gst line 10968:
    # "Assault 1, Melta") and the rules Concussive, Specialist Weapon, Unwieldy and
    # Melta (gst line 10299). Line 12104: the Dreadnought's "Powerfist w/ Built-in
    # Storm Bolter" links Unwieldy and Specialist Weapon, the power fist's. Line
    # 20463: Tyberos' "Hunger & Slake": Hunger "Melee, Armourbane, Specialist Weapon,
    # Unwieldy", Slake "Melee, Shred, Specialist Weapon".
    marines = imported(CATALOGUES[0])
    checked = ("Concussive", "Unwieldy", "Specialist Weapon", "Melta", "Armourbane", "Shred")
    ironclad = marines.find("Ironclad Dreadnoughts")
    assert rules_of(ironclad, "Meltagun", checked) == {"Melta"}
    assert rules_of(ironclad, "Seismic Hammer", checked) == {
        "Concussive", "Specialist Weapon", "Unwieldy",
    }  # fmt: skip
    assert rules_of(marines.find("Dreadnoughts"), "Storm Bolter", checked) == set()
    tyberos = marines.find("(FW) Tyberos the Red Wake")
    assert rules_of(tyberos, "Slake", checked) == {"Shred", "Specialist Weapon"}
    assert rules_of(tyberos, "Hunger", checked) == {"Armourbane", "Specialist Weapon", "Unwieldy"}


def test_a_rule_no_weapon_of_a_shared_selection_names_goes_to_none() -> None:
    # Warhammer40K.gst line 6327: Belisarius Cawl's "Mechadentrite Hive" shows the
    # Mechadendrite ("Melee") and the Dataspike ("Melee, Haywiire", misspelt) and links
    # the rule Haywire (gst line 10262), which neither Type names as written.
    cawl = imported(GAME_SYSTEM).find("Belisarius Cawl")
    assert rules_of(cawl, "Dataspike", ("Haywire",)) == set()
    assert (
        "Rule 'Haywire' of 'Mechadentrite Hive' is named by the Type of none of its weapons "
        "('Mechadendrite', 'Dataspike'); given to none of them."
    ) in cawl.notes


@pytest.mark.parametrize("name", CATALOGUES)
def test_weapon_profile_count_matches_an_independent_count(name: str) -> None:
    assert imported(name).weapon_profiles == expected_weapon_profiles(name)


@pytest.mark.parametrize("name", CATALOGUES)
def test_unit_names_are_unique_so_find_reaches_each(name: str) -> None:
    names = [sheet.name.casefold() for sheet in imported(name).datasheets]
    assert len(names) == len(set(names))


def test_tactical_squad() -> None:
    # Space Marines - Codex (2015).cat: the unit at line 7642 holds a Sergeant
    # (min 1) and a "Space Marines" group (min 4, max 9, default Space Marine);
    # profile 6244-… (line 32807) is WS4 BS4 S4 T4 W1 I4 A1 Ld8 Save 3+; the
    # Boltgun profile lives in the game system (Warhammer40K.gst line 11424).
    sheet = imported(CATALOGUES[0]).find("Tactical Squad")
    marine = entry(sheet, "Space Marine")
    assert dict(marine.profile.characteristics) == {
        "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1",
        "I": "4", "A": "1", "Ld": "8", "Sv": "3+",
    }  # fmt: skip
    assert marine.profile.unit_type == "Infantry"
    assert (marine.count, marine.variable) == (4, True)
    sergeant = entry(sheet, "Space Marine Sergeant")
    assert (sergeant.count, sergeant.variable) == (1, False)
    assert sheet.model_count == 5
    boltgun = weapon(sheet, "Boltgun")
    assert dict(boltgun.characteristics) == {
        "Range": "24", "S": "4", "AP": "5", "Type": "Rapid Fire",
    }  # fmt: skip
    assert "Boltgun" in {w.name for w in marine.weapons}
    assert "And They Shall Know No Fear" in sheet.rules


def test_ork_boyz() -> None:
    # Orks - Codex.cat: Boyz (line 18245), group "Mob" min 10; Ork Boy profile
    # (line 44083) WS4 BS2 S3 T4 W1 I2 A2 Ld7 Save 6+; Slugga (line 44625)
    # Range 12, Strength 4, AP 6, Type Pistol.
    sheet = imported("Orks - Codex.cat").find("boyz")
    boy = entry(sheet, "Ork Boy")
    assert dict(boy.profile.characteristics) == {
        "WS": "4", "BS": "2", "S": "3", "T": "4", "W": "1",
        "I": "2", "A": "2", "Ld": "7", "Sv": "6+",
    }  # fmt: skip
    assert (boy.count, boy.variable) == (10, True)
    assert dict(weapon(sheet, "Slugga").characteristics) == {
        "Range": "12", "S": "4", "AP": "6", "Type": "Pistol",
    }  # fmt: skip
    # 'Eavy armour sets the Save to 4+ only when taken; the Boyz take none by default,
    # so the condition is judged false: the 6+ stands and nothing is left to report.
    assert not any("Save" in note and "4+" in note for note in sheet.notes)


def test_infantry_squad_inside_its_platoon() -> None:
    # Astra Militarum - Codex.cat: Infantry Squad (line 5013) only exists
    # inside the Infantry Platoon; Sergeant min 1, group "Guardsmen" min 9 max 9
    # default Guardsman; Guardsman profile (line 61779) WS3 BS3 S3 T3 W1 I3 A1
    # Ld7 Save 5+; Lasgun (line 62476) 24 / 3 / - / Rapid Fire.
    result = imported("Astra Militarum - Codex.cat")
    sheet = result.find("Infantry Squad")
    guardsman = entry(sheet, "Guardsman")
    assert dict(guardsman.profile.characteristics) == {
        "WS": "3", "BS": "3", "S": "3", "T": "3", "W": "1",
        "I": "3", "A": "1", "Ld": "7", "Sv": "5+",
    }  # fmt: skip
    assert (guardsman.count, guardsman.variable) == (9, False)
    assert entry(sheet, "Sergeant").count == 1
    assert dict(weapon(sheet, "Lasgun").characteristics) == {
        "Range": "24", "S": "3", "AP": "-", "Type": "Rapid Fire",
    }  # fmt: skip
    platoon = result.find("Infantry Platoon")
    assert not platoon.entries
    assert any("Infantry Squad" in note for note in platoon.notes)


def test_termagant_brood() -> None:
    # Tyranids - Codex.cat: group "Termagants (10-30):" min 10 max 30, default
    # Fleshborer Termagant (line 3884): WS3 BS3 S3 T3 W1 I4 A1 Ld6 Save 6+;
    # Fleshborer (line 43820) Range 12", Strength 4, AP 5, Assault 1.
    sheet = imported("Tyranids - Codex.cat").find("Termagant Brood")
    termagant = entry(sheet, "Termagant")
    assert dict(termagant.profile.characteristics) == {
        "WS": "3", "BS": "3", "S": "3", "T": "3", "W": "1",
        "I": "4", "A": "1", "Ld": "6", "Sv": "6+",
    }  # fmt: skip
    assert (termagant.count, termagant.variable) == (10, True)
    assert dict(weapon(sheet, "Fleshborer").characteristics) == {
        "Range": "12", "S": "4", "AP": "5", "Type": "Assault 1",
    }  # fmt: skip


def test_invulnerable_save_written_in_the_save_characteristic() -> None:
    # Space Marines line 32859: the Captain's Save is "3+/4++".
    captain = imported(CATALOGUES[0]).find("Captain").entries[0].profile
    assert (captain.get("Sv"), captain.invulnerable) == ("3+", 4)


def test_invulnerable_save_granted_by_a_rule_text() -> None:
    # Tyranids line 19567: "Zoanthropes have a 3+ invulnerable save." while the
    # Zoanthrope profile (line 19526) has Save 5+.
    zoanthrope = entry(imported("Tyranids - Codex.cat").find("Zoanthrope Brood"), "Zoanthrope")
    assert (zoanthrope.profile.get("Sv"), zoanthrope.profile.invulnerable) == ("5+", 3)


def test_vehicles_import_with_their_armour_and_hull_points() -> None:
    """Issue 12 §2: the Rhino's profile (line 8057 of the catalogue: BS 4, Front 11,
    Side 11, Rear 10, HP 3, Type "Vehicle (Tank, Transport)") is a vehicle model;
    its Transport profile (line 8050: Capacity "10. No Bulky, Very Bulky, or
    Extremely Bulky") gives it the rule Transport Capacity (10), with a note."""
    result = imported(CATALOGUES[0])
    rhino = result.find("Rhino")
    (entry,) = rhino.entries
    assert dict(entry.profile.characteristics) == {
        "BS": "4",
        "Front": "11",
        "Side": "11",
        "Rear": "10",
        "HP": "3",
    }
    assert entry.profile.unit_type == "Vehicle (Tank, Transport)"
    assert result.reasons("Rhino") == ()
    assert "Transport Capacity (10)" in rhino.rules
    assert any(note.startswith("Rhino (Transport): Capacity ") for note in rhino.notes)


def test_find_and_unit_from_file() -> None:
    path = shared("Orks - Codex.cat")
    assert unit_from_file(path, "WARBOSS").name == "Warboss"
    with pytest.raises(UnknownNameError, match="Warbos"):
        import_file(path).find("Warbos")


def test_import_is_cached_per_file() -> None:
    path = shared("Orks - Codex.cat")
    assert import_file(path).datasheets is import_file(str(path)).datasheets


def test_the_game_system_imports() -> None:
    result = imported(GAME_SYSTEM)
    assert result.kind == "gamesystem"
    assert result.datasheets
    assert all(sheet.army == "Warhammer 40,000 7th Edition" for sheet in result.datasheets)
