"""Every imported unit is usable in the Waffle Edition, or says why not.

For each catalogue and the roster in ``tests/data``, every datasheet with model
entries must either

(a) pass ``stats_of`` for every profile and ``weapon_of`` for every weapon, and
    play one shooting phase (both players shoot) against built-in Ork Boyz
    without an exception, the unit taken from the file (``source = ...``); or
(b) carry a note naming each profile or weapon those readers reject.

The check also runs the other way: no "cannot be played/used" note on a
profile or weapon the readers accept. Both directions are checked statically
for every unit; every unit in (a) is played (about 7 ms a battle, a few
seconds in all).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.engine.datasheet import Datasheet
from hammerlab.errors import ProfileError
from hammerlab.io.battlescribe import import_file
from hammerlab.io.scenario import Scenario

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = (
    "bsdata-7e/Space Marines - Codex (2015).cat",
    "bsdata-7e/Orks - Codex.cat",
    "bsdata-7e/Astra Militarum - Codex.cat",
    "bsdata-7e/Tyranids - Codex.cat",
    "rosters/HH_Test.ros",
)
ENEMY = "Ork Boyz"
"""A built-in Waffle Edition unit."""


def shared(name: str) -> Path:
    """A data file copied into ``tests/data``; a missing one fails the test."""
    path = DATA / name
    assert path.is_file(), f"test data missing: {path}"
    return path


def model_note(sheet: Datasheet, name: str) -> bool:
    return any(n.startswith(f"Model {name!r} cannot be played by") for n in sheet.notes)


def weapon_note(sheet: Datasheet, name: str) -> bool:
    return any(n.startswith(f"Weapon {name!r} cannot be used by") for n in sheet.notes)


def problems(sheet: Datasheet) -> list[str]:
    """Why ``sheet`` breaks the (a)-or-(b) rule; empty when it keeps it.

    Only ``ProfileError`` counts as a refusal: any other exception from the
    readers is a crash, and fails the test as one.
    """
    found = []
    for entry in sheet.entries:
        name = entry.profile.name
        try:
            stats_of(entry.profile)
        except ProfileError as error:
            if not model_note(sheet, name):
                found.append(f"{sheet.name}: {error} (no note)")
        else:
            if model_note(sheet, name):
                found.append(f"{sheet.name}: model {name!r} is noted unplayable but reads")
        for weapon in entry.weapons:
            try:
                weapon_of(weapon)
            except ProfileError as error:
                if not weapon_note(sheet, weapon.name):
                    found.append(f"{sheet.name}: {error} (no note)")
            else:
                if weapon_note(sheet, weapon.name):
                    found.append(f"{sheet.name}: weapon {weapon.name!r} noted unusable, but reads")
    return found


def readable(sheet: Datasheet) -> bool:
    try:
        for entry in sheet.entries:
            stats_of(entry.profile)
            for weapon in entry.weapons:
                weapon_of(weapon)
    except ProfileError:
        return False
    return True


def scenario(path: Path, unit: str) -> Scenario:
    """The imported unit (first player) facing built-in Ork Boyz, one shooting phase."""
    return Scenario.model_validate(
        {
            "name": f"{unit} against {ENEMY}",
            "ruleset": "waffle",
            "seed": 7,
            "first_player": "Imported",
            "players": [{"name": "Imported", "edge": "south"}, {"name": "Orks", "edge": "north"}],
            "units": [
                {
                    "id": "imported",
                    "player": "Imported",
                    "unit": unit,
                    "source": str(path),
                    "position": [36, 16],
                },
                {"id": "enemy", "player": "Orks", "unit": ENEMY, "position": [36, 28]},
            ],
            "plan": {"turns": 1, "phases": ["shooting"]},
        }
    )


@pytest.mark.parametrize("name", FILES)
def test_every_unit_reads_or_has_a_note_saying_why_not(name: str) -> None:
    sheets = [sheet for sheet in import_file(shared(name)).datasheets if sheet.entries]
    assert sheets
    broken = [problem for sheet in sheets for problem in problems(sheet)]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("name", FILES)
def test_every_readable_unit_plays_a_shooting_phase(name: str) -> None:
    path = shared(name)
    playable = [s for s in import_file(path).datasheets if s.entries and readable(s)]
    assert len(playable) >= 8  # most units of each file are playable
    shots = 0
    for sheet in playable:
        ready = prepare(scenario(path, sheet.name), str(path.parent / "usable.toml"))
        battle = ready.battle
        assert battle.unit("imported").datasheet is sheet
        play(battle, ready.ruleset, ready.plan)
        assert battle.log.of_kind("phase"), sheet.name
        shots += len(battle.log.of_kind("shots"))
    assert shots > len(playable)  # shots were fired, not just phases started


def test_units_the_readers_reject_are_named_in_the_notes() -> None:
    # Orks - Codex.cat: the Mek Gun profile is WS - BS - S - T 7 W 2 I - A - Ld -,
    # and the Snazzgun's AP is "D6".
    orks = import_file(shared("bsdata-7e/Orks - Codex.cat"))
    assert any(
        note.startswith("Model 'Mek Gun' cannot be played by the Waffle Edition: WS '-'")
        for note in orks.find("Mek Gunz").notes
    )
    assert any(
        note.startswith("Weapon 'Snazzgun' cannot be used by the Waffle Edition: AP 'D6'")
        for note in orks.find("Flash Gitz").notes
    )
