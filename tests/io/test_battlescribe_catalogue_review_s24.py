"""A player's review of real catalogues (session 24), a few tests per finding.

Each reads the real catalogues copied into ``tests/data``; expected values were read
from the XML by hand (file and line quoted) or from the rule texts (the game system's
``Warhammer40K.gst``, or the 7th-edition rules as remembered), never copied from the
program's output.
"""

from __future__ import annotations

import json
from math import isclose
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.cli.app import app
from hammerlab.editions.waffle.firepower import firing_quota
from hammerlab.editions.waffle.ruleset import WaffleRuleset
from hammerlab.editions.waffle.special_rules import type_rules
from hammerlab.engine.datasheet import Datasheet, ModelEntry
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import import_file
from hammerlab.io.scenario import Scenario

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
MARINES = BSDATA / "Space Marines - Codex (2015).cat"
ORKS = BSDATA / "Orks - Codex.cat"
TYRANIDS = BSDATA / "Tyranids - Codex.cat"


def only_entry(sheet: Datasheet, name: str) -> ModelEntry:
    return next(entry for entry in sheet.entries if entry.profile.name == name)


# -- 1. a condition on a selection the importer made -----------------------------------


@pytest.mark.parametrize(
    ("unit", "model"),
    [("Warboss w/ Mega Armour", "Warboss"), ("Big Mek w/ Mega Armour", "Big Mek")],
)
def test_a_boss_in_mega_armour_saves_on_2_plus(unit: str, model: str) -> None:
    """Orks - Codex.cat line 31362 (Warboss w/ Mega Armour) and line 17054 (Big Mek w/
    Mega Armour): the profile link sets Save to ``2+`` when the unit's "Mega Armour"
    child is selected exactly once (conditions at lines 31374 and 17066); that child
    (lines 31437, 17146) has min 1 and max 1, so the default selections always hold it
    once. Mega armour's own text: "2+ Armour Sv, Bulky, Slow & Purposeful". Before:
    kept 6+, with a note."""
    sheet = import_file(ORKS).find(unit)
    assert only_entry(sheet, model).profile.characteristics["Sv"] == "2+"
    assert not any("2+" in note for note in sheet.notes)


def test_a_condition_judged_false_leaves_the_profile_and_no_note() -> None:
    """The Nobz' Nob (Orks) would set Save ``4+`` when "'Eavy Armour for Mob" or
    "Warbikes for Mob" is selected once (an ``or`` group); neither is a default
    selection, so the 6+ stands, as BattleScribe shows a Nob without them."""
    sheet = import_file(ORKS).find("Nobz")
    assert only_entry(sheet, "Nob").profile.characteristics["Sv"] == "6+"
    assert not any("Save" in note and "4+" in note for note in sheet.notes)


def test_a_modifier_that_cannot_be_judged_is_noted_for_the_battle_too() -> None:
    """Space Marines line 26402 on: the Relic Leviathan's profile decrements A by 1 with
    ``<repeats>`` (one per selection of two weapon entries): a repeat is never judged,
    so its A 4 is kept, and the note is one a battle repeats (``battle_notes``).
    Before: only ``show`` said so."""
    sheet = import_file(MARINES).find("(FW) Relic Leviathan Dreadnought")
    assert only_entry(sheet, "Relic Leviathan Dreadnought").profile.characteristics["A"] == "4"
    kept = [note for note in sheet.battle_notes if "'4' is kept in play." in note]
    assert len(kept) == 1 and "it repeats" in kept[0]


# -- 2. Gargantuan Creatures -------------------------------------------------------------


def test_a_harridan_fires_both_bio_cannons() -> None:
    """Tyranids - Codex.cat line 35120: the Harridan (a Flying Gargantuan Creature)
    selects "Bio-cannon" min 2 max 2 (line 35148), the profile at line 43526: 48" S10
    AP3 ``Assault 6``. Gargantuan Creatures follow the Monstrous Creature rules and fire
    all their weapons: 2 x 6 = 12 shots (before: 6, one cannon)."""
    result = CliRunner().invoke(
        app,
        ["odds", "--from", str(TYRANIDS), "--from", str(MARINES), "--attacker", "Harridan",
         "--weapon", "Bio-cannon", "--target", "Tactical Squad", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert isclose(json.loads(result.stdout)["means"]["shots"], 12.0)


def test_a_gargantuan_creature_fires_every_weapon_a_monstrous_creature_two() -> None:
    """The firing quota of a model carrying three weapons: a Gargantuan Creature all
    three, a Monstrous Creature two (7th edition), an Infantry model one."""
    hierophant = import_file(TYRANIDS).find("Hierophant Bio-titan").entries[0].profile
    carnifex = import_file(TYRANIDS).find("Carnifex Brood").entries[0].profile
    assert hierophant.unit_type.lower().startswith("gargantuan")
    assert firing_quota(hierophant, 3, 0) == 3
    assert firing_quota(carnifex, 3, 0) == 2


def test_a_gargantuan_creature_has_its_unit_type_s_rules() -> None:
    """Warhammer40K.gst, rule "Gargantuan Creature": "Fear, Fearless, Feel No Pain,
    Hammer of Wrath, Move Through Cover, Relentless, Smash, Strikedown, Vector Strike
    (Flying Gargantuan Creatures Only)". The Hierophant links no Smash (so it struck at
    its talons' AP6): it has it, and the rest hammerlab plays, by its type."""
    hierophant = import_file(TYRANIDS).find("Hierophant Bio-titan")
    rules = type_rules(hierophant.entries[0].profile)
    assert set(rules) == {
        "Fear", "Fearless", "Feel No Pain", "Hammer of Wrath", "Move Through Cover",
        "Relentless", "Smash",
    }  # fmt: skip


def test_what_a_gargantuan_creature_does_not_play_is_noted() -> None:
    """Strikedown (and a flyer's Vector Strike), Stomp and Unstoppable are not played:
    ``show`` and a battle's warnings say so (the ruleset's problems)."""
    ruleset = WaffleRuleset()
    harridan = ruleset.validate_datasheet(import_file(TYRANIDS).find("Harridan"))
    hierophant = ruleset.validate_datasheet(import_file(TYRANIDS).find("Hierophant Bio-titan"))
    assert any("Gargantuan Creature: its Strikedown and Vector Strike" in p for p in harridan)
    assert any("Gargantuan Creature: its Strikedown (its" in p for p in hierophant)


# -- 3 and 4. who may embark -------------------------------------------------------------


def aboard(unit: str, source: Path, transport: str) -> Scenario:
    return Scenario.model_validate(
        {
            "name": "aboard",
            "ruleset": "waffle",
            "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
            "units": [
                {"id": "ride", "player": "A", "unit": transport, "source": str(MARINES),
                 "position": [36, 10]},
                {"id": "x", "player": "A", "unit": unit, "source": str(source),
                 "position": [36, 4], "embarked_in": "ride"},
                {"id": "boyz", "player": "B", "unit": "Ork Boyz", "position": [36, 40]},
            ],
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    ("unit", "source", "model", "kind"),
    [
        ("Attack Bike Squad", MARINES, "Attack Bike", "Bike"),
        ("Carnifex Brood", TYRANIDS, "Carnifex", "Monstrous Creature"),
    ],
)
def test_only_infantry_may_start_aboard_a_rhino(
    unit: str, source: Path, model: str, kind: str
) -> None:
    """7th edition (as remembered; docs/rules/waffle.md row 128: "a Bike may not
    board"): only Infantry may embark. The Rhino (Capacity 10) is refused an Attack Bike
    Squad and a Carnifex with one error naming the unit and the transport (before: they
    boarded, one place each)."""
    with pytest.raises(InputError) as error:
        prepare(aboard(unit, source, "Rhino"), "s.toml")
    assert str(error.value) == (
        f"s.toml: units[1].embarked_in: {unit} [x] cannot embark in Rhino [ride]: only "
        f"Infantry may embark, and its {model} is of unit type {kind!r}"
    )


def test_no_unit_starts_aboard_a_zooming_stormraven() -> None:
    """7th edition (as remembered): passengers may neither embark in nor disembark from
    a Zooming Flyer; hammerlab plays every Flyer Zooming, so a Stormraven carries no
    one (before: the Tactical Squad stepped out at the start of turn 1)."""
    with pytest.raises(InputError) as error:
        prepare(aboard("Tactical Squad", MARINES, "Stormraven Gunship"), "s.toml")
    assert str(error.value) == (
        "s.toml: units[1].embarked_in: Tactical Squad [x] cannot embark in Stormraven "
        "Gunship [ride]: no unit may embark in (or disembark from) a Zooming Flyer, and "
        "hammerlab plays every Flyer Zooming"
    )


def test_a_bad_passenger_is_one_error_line_from_the_cli(tmp_path: Path) -> None:
    """``battle`` on such a scenario: one ``error:`` line, exit 1, no traceback."""
    path = tmp_path / "s.toml"
    path.write_text(
        f"""name = "aboard"
ruleset = "waffle"
[[players]]
name = "A"
[[players]]
name = "B"
edge = "north"
[[units]]
id = "rhino"
player = "A"
unit = "Rhino"
source = {json.dumps(str(MARINES))}
position = [36, 10]
[[units]]
id = "x"
player = "A"
unit = "Attack Bike Squad"
source = {json.dumps(str(MARINES))}
position = [36, 4]
embarked_in = "rhino"
[[units]]
id = "boyz"
player = "B"
unit = "Ork Boyz"
position = [36, 40]
"""
    )
    result = CliRunner().invoke(app, ["battle", str(path), "--seed", "1"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "only Infantry" in lines[0]
