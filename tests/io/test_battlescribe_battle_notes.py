"""Which importer notes a battle repeats is chosen where each note is written, by its
type (``notes.BattleNote``), not read off how its sentence ends (code review s24,
finding 4). Before, ``Datasheet.battle_notes`` kept the notes ending in one of five
phrases: a reworded note silently left every battle's warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_battlescribe_wrong_units import body, catalogue, entry, gun

from hammerlab.io.battlescribe import gear, import_file
from hammerlab.io.battlescribe.importer import clear_cache
from hammerlab.io.battlescribe.notes import BattleNote, battle_notes


def test_a_reworded_dropped_weapon_note_is_still_a_battle_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'Big Gun' (Strength 11, out of the 1-10 bound) is dropped with a note. Its
    closing words reworded ("dropped." to "left behind."), the note is still one a
    battle repeats, and the only one (the unit's other notes stay out)."""
    monkeypatch.setattr(gear, "DROPPED", "left behind.")
    clear_cache()
    weapons = gun("Big Gun", strength="11", kind="Assault 1") + gun("Shoota")
    sheet = import_file(catalogue(tmp_path, entry("Weird", "unit", body("Weird") + weapons))).find(
        "Weird"
    )
    clear_cache()
    assert [w.name for w in sheet.weapons()] == ["Shoota"]
    assert sheet.battle_notes == (
        "Weapon 'Big Gun' cannot be used by the Waffle Edition: Strength '11' is not 1 to 10; "
        "left behind.",
    )


def test_only_battle_notes_are_kept_whatever_their_words() -> None:
    """A note is kept by its type: a plain note ending in "dropped." is not kept."""
    notes = ("Profile 'X' is not used; dropped.", BattleNote("Model 'Y' carries no weapon."))
    assert battle_notes(notes) == ("Model 'Y' carries no weapon.",)
