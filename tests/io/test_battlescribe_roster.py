"""Importing the real roster HH_Test.ros (in ``tests/data``), plain and as a .rosz.

Expected model counts are summed here from the XML's ``number`` attributes;
the spot-checked values were read by hand from the file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from hammerlab.io.battlescribe import import_file

ROSTER = Path(__file__).resolve().parents[1] / "data" / "rosters" / "HH_Test.ros"
NS = "{http://www.battlescribe.net/schema/rosterSchema}"


@pytest.fixture(scope="module")
def roster() -> Path:
    assert ROSTER.is_file(), f"test data missing: {ROSTER}"
    return ROSTER


def shows_unit_profile(selection: ET.Element) -> bool:
    """Whether the selection or its upgrades show a profile of type Unit or Vehicle.

    Issue 12 §2: a vehicle is a model (the Karacnos Assault Tank: Tank, Transport), and
    so is a Super-heavy one (the Questoris Knight Warden, type Walker: Super-Heavy
    Walker); the Bunker (type Building: one Armour Value) is refused with a reason and
    no model.
    """
    kinds = {"Unit", "Vehicle", "Walker"}
    return any(p.get("typeName") in kinds for p in selection.iter(f"{NS}profile"))


def expected_models(roster: Path) -> dict[str, list[int]]:
    """Force-level unit name → model count of each such unit, from the XML."""
    counts: dict[str, list[int]] = {}
    for force in ET.parse(roster).getroot().iter(f"{NS}force"):
        for unit in force.iterfind(f"{NS}selections/{NS}selection"):
            if unit.get("type") not in {"unit", "model"} or not shows_unit_profile(unit):
                continue
            models = [
                int(s.get("number", "1"))
                for s in unit.iterfind(f"{NS}selections/{NS}selection[@type='model']")
                if shows_unit_profile(s)
            ]
            total = sum(models) if models else int(unit.get("number", "1"))
            counts.setdefault(unit.get("name", ""), []).append(total)
    return counts


def test_roster_units_and_model_counts_match_the_xml(roster: Path) -> None:
    result = import_file(roster)
    assert result.kind == "roster"
    imported: dict[str, list[int]] = {}
    for sheet in result.datasheets:
        if sheet.entries:
            imported.setdefault(sheet.name.split(" #")[0], []).append(sheet.model_count)
    assert imported == expected_models(roster)
    assert {sheet.army for sheet in result.datasheets} == {"Mechanicum: Taghmata Army List"}


def test_selected_wargear_and_counts(roster: Path) -> None:
    result = import_file(roster)
    # Adsecularis Covenant (line 810): 10 Tech-thralls (WS2 BS2 S4 T3 W1 I2 A1
    # LD7 Save 5+) and one unit-wide Las-lock (18", S4, AP6, Assault 1).
    covenant = result.find("Adsecularis Covenant")
    (thralls,) = covenant.entries
    assert thralls.count == 10
    assert dict(thralls.profile.characteristics) == {
        "WS": "2", "BS": "2", "S": "4", "T": "3", "W": "1",
        "I": "2", "A": "1", "Ld": "7", "Sv": "5+",
    }  # fmt: skip
    assert [dict(w.characteristics) for w in thralls.weapons] == [
        {"Range": "18", "S": "4", "AP": "6", "Type": "Assault 1"}
    ]
    assert any("Las-lock" in note and "unit as a whole" in note for note in covenant.notes)
    # Castellax (line 379): one model holding a "Bolter" selection with number 2.
    (castellax,) = result.find("Castellax Class Battle-Automata Maniple").entries
    assert [w.name for w in castellax.weapons].count("Boltgun") == 2
    assert castellax.profile.unit_type == "Monstrous Creature"


def test_roster_vehicles_and_super_heavies_are_read(roster: Path) -> None:
    result = import_file(roster)
    # HH_Test.ros line 1253: WS 4, BS 4, S 10, Front 13, Side 12, Rear 12, I 4, A 3,
    # HP 6, Type "Super-Heavy Walker".
    (knight,) = result.find("Questoris Knight Warden").entries
    assert knight.count == 1 and knight.profile.unit_type == "Vehicle (Super-Heavy Walker)"
    assert [knight.profile.get(k) for k in ("Front", "Side", "Rear", "HP", "WS", "A")] == [
        "13",
        "12",
        "12",
        "6",
        "4",
        "3",
    ]
    assert result.reasons("Questoris Knight Warden") == ()
    # The Karacnos (HH_Test.ros line 1442): BS 4, Front 14, Side 12, Rear 12, HP 4.
    (tank,) = result.find("Karacnos Assault Tank").entries
    assert [tank.profile.get(k) for k in ("BS", "Front", "Side", "Rear", "HP")] == [
        "4",
        "14",
        "12",
        "12",
        "4",
    ]
    assert tank.profile.unit_type == "Vehicle (Tank, Transport)"


def test_a_zipped_roster_reads_like_the_plain_one(roster: Path, tmp_path: Path) -> None:
    zipped = tmp_path / "HH_Test.rosz"
    with zipfile.ZipFile(zipped, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("HH_Test.ros", roster.read_bytes())
    plain, packed = import_file(roster), import_file(zipped)
    assert packed.kind == "roster"
    assert [s.name for s in packed.datasheets] == [s.name for s in plain.datasheets]
    assert [s.entries for s in packed.datasheets] == [s.entries for s in plain.datasheets]
