"""The wh40kdc adapter: datasheets in core11's spelling, and what it could not map."""

from __future__ import annotations

import pytest
from core11_kit import ruleset

from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.errors import UnknownNameError


def test_library_intercessor_squad_reads_as_its_datasheet() -> None:
    sheet = ruleset().find_unit("intercessor squad")
    assert (sheet.name, sheet.army, sheet.edition) == ("Intercessor Squad", "adeptus-astartes",
                                                       "core11")  # fmt: skip
    sergeant, troopers = sheet.entries
    assert (sergeant.profile.name, sergeant.count, troopers.count) == ("Intercessor Sergeant", 1, 4)
    assert troopers.variable and not sergeant.variable
    assert dict(troopers.profile.characteristics) == {
        "M": '6"', "T": "5", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "2"
    }  # fmt: skip
    assert "INFANTRY" in sheet.keywords and "INFANTRY" in troopers.profile.keywords
    rifle = next(w for w in sheet.weapons() if w.name == "Bolt Rifle (Focused Fire)")
    assert rifle.get("Weapon") == "Bolt Rifle" and rifle.keywords == ("HEAVY", "RAPID FIRE 1")
    view = read_weapon(rifle)
    assert (view.range, view.skill, view.strength, view.ap, str(view.damage)) == (24, 3, 5, -1, "2")
    assert ruleset().validate_datasheet(sheet) == []


def test_library_unit_sizes_are_the_datasets_and_bound_the_resized_entry() -> None:
    # The dataset's Intercessor Squad: model_count 5 to 10 (a Sergeant and 4 to 9
    # Intercessors, its unit composition). Before session 23 no size was read: the
    # Intercessors' entry had no bound (most_of None). A Spectrus Kill Team (3 to 21)
    # counts 0 of its Infiltrator with an occulus bolt carbine: that option stays
    # unbounded.
    sheet = ruleset().find_unit("intercessor squad")
    assert sheet.size_range == (5, 10)
    assert [sheet.most_of(e) for e in sheet.entries] == [1, 9]
    kill_team = ruleset().find_unit("Spectrus Kill Team")
    assert kill_team.size_range == (3, 21)
    occulus = next(e for e in kill_team.entries if "occulus" in e.profile.name)
    assert occulus.count == 0 and kill_team.most_of(occulus) is None


def test_library_names_query_and_shared_names() -> None:
    assert "Intercessor Squad" in ruleset().unit_names("intercessor")
    shared = [n for n in ruleset().unit_names("Rhino") if n.startswith("Rhino [")]
    assert len(shared) >= 2  # one Rhino per faction that has it
    assert ruleset().find_unit(shared[0]).army == shared[0].split("[")[1].rstrip("]")
    with pytest.raises(UnknownNameError, match="did you mean"):
        ruleset().find_unit("Intercessor")


def test_library_notes_say_what_could_not_be_mapped_and_why() -> None:
    boyz = ruleset().find_unit("Boyz")
    assert "model 'Nob' uses the profile 'Boss Nob'" in boyz.notes
    assert boyz.entries[0].profile.get("W") == "3"
    atv = ruleset().find_unit("Invader ATV")
    assert any("read as a" in n or "assumed" in n for n in atv.notes)


def test_library_unimplemented_weapon_keywords_are_reported() -> None:
    problems = ruleset().validate_datasheet(ruleset().find_unit("Fire Prism"))
    assert "weapon Prism cannon (Focused lances): keyword not implemented: LINKED FIRE" in problems
    eradicators = ruleset().validate_datasheet(ruleset().find_unit("Eradicator Squad"))
    assert any(p.endswith("keyword not implemented: HUNTER-MONSTER") for p in eradicators)


def test_library_maps_every_unit_of_the_dataset() -> None:
    sheets = list(ruleset().library.datasheets())
    assert len(sheets) > 1000
    weapons = sum(len(s.weapons()) for s in sheets)
    unmapped = [n for s in sheets for n in s.notes if "left out" in n]
    # What is left out is wargear the dataset lists among weapons without a profile.
    assert weapons > 2500 and len(unmapped) < 100
