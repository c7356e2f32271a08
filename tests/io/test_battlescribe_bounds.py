"""The importer holds its units to the 6th/7th-edition bounds the scenario loader uses
(``src/hammerlab/io/bounds.py``; ``docs/importers.md``, *Bounds*), and reads a
transport's Capacity.

A weapon outside the bounds is dropped with a note (the importer's policy for a
weapon it cannot use: the unit plays with the rest), a model outside them makes
its unit unplayable, and no imported unit ever stops a battle. Each catalogue is
a small hand-made one; the expected values are read off the snippet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_battlescribe_wrong_units import body, catalogue, entry, gun, imported, vehicle, wrapped
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.cli.app import app
from hammerlab.editions.base import play
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import import_file
from hammerlab.io.scenario import Scenario

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"


def scenario(path: Path, unit: str, **more: object) -> Scenario:
    """The file's ``unit`` (player A, at the south) against built-in Ork Boyz 12" north."""
    return Scenario.model_validate(
        {
            "name": "bounds",
            "ruleset": "waffle",
            "seed": 3,
            "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
            "units": [
                {"id": "it", "player": "A", "unit": unit, "source": str(path), "position": [36, 16]}
                | more,
                {"id": "boyz", "player": "B", "unit": "Ork Boyz", "position": [36, 28]},
            ],
            "plan": {"turns": 1, "phases": ["shooting"]},
        }
    )


# --- weapons outside the bounds are dropped with a note -------------------------------


@pytest.mark.parametrize(
    ("kind", "strength", "ap", "why"),
    [
        ("Heavy 1000000000", "4", "4", "1000000000 shots; a weapon fires 1 to 50 shots a model"),
        ("Salvo 2/99", "4", "4", "99 shots; a weapon fires 1 to 50 shots a model"),
        ("Assault 1", "11", "4", "Strength '11' is not 1 to 10"),
        ("Assault 1", "4", "7", "AP '7' is not 1 to 6 or '-'"),
        ("Assault 1, Poisoned (9+)", "4", "4", "'Poisoned (9+)': Poisoned wounds on 1+ to 6+"),
    ],
)
def test_a_weapon_out_of_bounds_is_dropped_and_the_unit_plays(
    tmp_path: Path, kind: str, strength: str, ap: str, why: str
) -> None:
    weapons = gun("Big Gun", strength=strength, ap=ap, kind=kind) + gun("Shoota")
    path = catalogue(tmp_path, entry("Weird", "unit", body("Weird") + weapons))
    result = import_file(path)
    sheet = result.find("Weird")
    assert [w.name for w in sheet.weapons()] == ["Shoota"]
    assert any(
        note.startswith("Weapon 'Big Gun' cannot be used by the Waffle Edition: ")
        and why in note
        and note.endswith("; dropped.")
        for note in sheet.notes
    ), sheet.notes
    assert result.reasons("Weird") == ()
    ready = prepare(scenario(path, "Weird"), str(tmp_path / "s.toml"))
    play(ready.battle, ready.ruleset, ready.plan)  # it shoots with what it kept


def test_ap_0_is_read_as_no_ap_with_a_note(tmp_path: Path) -> None:
    # The reviewer's catalogue: Range 24", S4, AP 0, Heavy 1000000000.
    path = catalogue(tmp_path, entry("Weird", "unit", body("Weird") + gun("Gun", ap="0")))
    sheet = import_file(path).find("Weird")
    (weapon,) = sheet.weapons()
    assert weapon.get("AP") == "-"
    assert weapon_of(weapon).ap is None  # no AP: a 3+ save is taken as usual
    assert (
        "Weapon 'Gun': AP '0' is no 6th/7th-edition AP (1 to 6, or '-' for none); read as '-'."
        in sheet.notes
    )


# --- models outside the bounds make their unit unplayable ------------------------------


def test_a_model_with_w_0_cannot_be_played_and_is_refused_by_a_scenario(tmp_path: Path) -> None:
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in {
            "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "0", "I": "4", "A": "1",
            "Ld": "7", "Save": "4+",
        }.items()
    )  # fmt: skip
    path = catalogue(tmp_path, entry("Ghost", "unit", wrapped("Ghost", "Unit", cells)))
    result = import_file(path)
    assert result.reasons("Ghost") == ("model 'Ghost': W must be 1 to 20, not 0",)
    with pytest.raises(InputError) as refused:
        prepare(scenario(path, "Ghost"), str(tmp_path / "s.toml"))
    assert str(refused.value) == (
        f"{tmp_path / 's.toml'}: units[0].unit: {path}: unit 'Ghost': cannot be played: "
        "model 'Ghost': W must be 1 to 20, not 0"
    )


def test_a_vehicle_with_armour_1_cannot_be_played(tmp_path: Path) -> None:
    side = 'name="Side" typeId="t-Side">'
    hull = vehicle("Hull").replace(f"{side}12", f"{side}1")
    result = imported(tmp_path, entry("Hull", "unit", hull))
    assert result.reasons("Hull") == ("model 'Hull': Side must be 10 to 14, not 1",)


def test_the_deimos_vindicators_armour_1_is_refused_with_its_reason() -> None:
    # Space Marines - Codex (2015).cat writes its Side and Rear armour "1".
    result = import_file(DATA / "Space Marines - Codex (2015).cat")
    name = "(FW) Deimos Pattern Vindicator Tank Destroyer"
    assert result.reasons(name) == (
        "model 'Deimos Pattern Vindicator Tank Destroyer': Side must be 10 to 14, not 1",
    )


def test_the_dimachaerons_misspelt_unit_type_is_read_as_a_monstrous_creature() -> None:
    result = import_file(DATA / "Tyranids - Codex.cat")
    sheet = result.find("Dimachaeron")
    assert sheet.entries[0].profile.unit_type == "Monstrous Creature (Leaper)"
    assert stats_of(sheet.entries[0].profile).has_type("Monstrous Creature")
    assert result.reasons("Dimachaeron") == ()
    assert any("read as 'Monstrous Creature (Leaper)'" in note for note in sheet.notes)


def test_an_unknown_unit_type_cannot_be_played(tmp_path: Path) -> None:
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in (dict.fromkeys(("WS", "BS", "S", "T", "W", "I", "A", "Ld"), "4")
                           | {"Save": "4+", "Unit Type": "Dragon"}).items()
    )  # fmt: skip
    result = imported(tmp_path, entry("Wyrm", "unit", wrapped("Wyrm", "Unit", cells)))
    (reason,) = result.reasons("Wyrm")
    assert reason.startswith("model 'Wyrm': unit type 'Dragon' is not one of Infantry")


def test_a_model_with_a_thousand_bolters_cannot_be_played(tmp_path: Path) -> None:
    bolters = entry("Boltgun", "upgrade", gun("Boltgun"), count=1000)
    result = imported(tmp_path, entry("Hoarder", "unit", body("Hoarder"), bolters))
    assert result.reasons("Hoarder") == (
        "model 'Hoarder': it carries 1000 weapons; a model carries at most 20",
    )


def test_a_mastery_level_out_of_bounds_cannot_be_played(tmp_path: Path) -> None:
    psyker = wrapped(
        "Psyker",
        "Psyker",
        '<characteristic name="Mastery Level" typeId="t-ml">9</characteristic>'
        '<characteristic name="Disciplines" typeId="t-d">Biomancy</characteristic>',
    )
    result = imported(tmp_path, entry("Seer", "unit", body("Seer") + psyker))
    assert result.reasons("Seer") == ("'Psyker (Mastery Level 9)': a Mastery Level is 1 to 5",)


def test_a_characteristic_written_as_a_roll_cannot_be_played(tmp_path: Path) -> None:
    # BS "4+" would be read as BS 4, which hits on 3+ (a scenario's inline profile
    # refuses it: stats_of); no shared catalogue writes a plus on WS to Ld.
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in (dict.fromkeys(("WS", "S", "T", "W", "I", "A", "Ld"), "4")
                           | {"BS": "4+", "Save": "4+"}).items()
    )  # fmt: skip
    result = imported(tmp_path, entry("Gunner", "unit", wrapped("Gunner", "Unit", cells)))
    assert result.reasons("Gunner") == ("model 'Gunner': BS '4+' is not a number",)


@pytest.mark.parametrize("rule", ["Feel No Pain (0+)", "Feel No Pain (7+)"])
def test_a_feel_no_pain_roll_out_of_bounds_cannot_be_played(tmp_path: Path, rule: str) -> None:
    # A (0+) discounted every Wound (a model nothing could kill), a (7+) none.
    ghoul = entry("Ghoul", "unit", body("Ghoul")).replace(
        "</profiles>", f'</profiles><rules><rule id="r-fnp" name="{rule}"/></rules>'
    )
    result = imported(tmp_path, ghoul)
    assert result.reasons("Ghoul") == (f"{rule!r}: Feel No Pain discounts a Wound on 2+ to 6+",)


def test_a_feel_no_pain_roll_in_bounds_plays(tmp_path: Path) -> None:
    ghoul = entry("Ghoul", "unit", body("Ghoul")).replace(
        "</profiles>", '</profiles><rules><rule id="r-fnp" name="Feel No Pain (2+)"/></rules>'
    )
    result = imported(tmp_path, ghoul)
    assert (result.reasons("Ghoul"), result.find("Ghoul").rules) == ((), ("Feel No Pain (2+)",))


# --- transports carry units --------------------------------------------------------------


def test_an_imported_rhino_carries_a_squad_from_the_start() -> None:
    # Space Marines - Codex (2015).cat: the Rhino's Transport profile says "Capacity
    # 10. No Bulky, Very Bulky, or Extremely Bulky"; a Tactical Squad is 10 models.
    path = DATA / "Space Marines - Codex (2015).cat"
    rhino = import_file(path).find("Rhino")
    assert "Transport Capacity (10)" in rhino.rules
    assert any("the rest ('No Bulky, Very Bulky, or Extremely Bulky') is not applied" in n
               for n in rhino.notes)  # fmt: skip
    spec = Scenario.model_validate(
        {
            "name": "aboard",
            "ruleset": "waffle",
            "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
            "units": [
                {"id": "rhino", "player": "A", "unit": "Rhino", "source": str(path),
                 "position": [36, 10]},
                {"id": "squad", "player": "A", "unit": "Tactical Squad", "position": [36, 4],
                 "embarked_in": "rhino"},
                {"id": "boyz", "player": "B", "unit": "Ork Boyz", "position": [36, 40]},
            ],
        }
    )  # fmt: skip
    ready = prepare(spec, "s.toml")
    assert "squad" not in ready.battle.units  # aboard: off the table
    assert [e.text for e in ready.battle.log.of_kind("embarked")] == [
        "Tactical Squad [squad] embarks in Rhino [rhino] (10 of 10 places)"
    ]


def test_a_chimera_without_capacity_data_says_it_carries_no_one() -> None:
    path = DATA / "Astra Militarum - Codex.cat"
    sheet = import_file(path).find("Infantry Squad (Infantry Platoon): Chimera")
    assert (
        "Chimera: Transport: the data gives no Transport Capacity, so it carries no one "
        "(a scenario cannot embark a unit in it)." in sheet.notes
    )
    assert not any("plays no embarking" in note for note in sheet.notes)


# --- rules applied as the invulnerable save: show and battle notes -------------------


@pytest.mark.parametrize(
    ("catalogue", "unit", "rule", "save"),
    [
        # "An iron halo confers a 4+ Invulnerable Save." (Space Marines, the Iron Halo profile)
        ("Space Marines - Codex (2015).cat", "Captain", "Iron Halo", 4),
        # "Zoanthropes have a 3+ invulnerable save." (Tyranids, the Warp Field rule)
        ("Tyranids - Codex.cat", "Zoanthrope Brood", "Warp Field", 3),
    ],
)
def test_show_and_battle_notes_say_the_save_rule_is_applied_not_missing(
    tmp_path: Path, catalogue: str, unit: str, rule: str, save: int
) -> None:
    path = DATA / catalogue
    shown = CliRunner().invoke(app, ["show", "--from", str(path), unit, "--json"])
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.stdout)
    assert {model["invulnerable"] for model in document["models"]} == {save}
    assert f"'{rule}': applied as a {save}+ invulnerable save." in document["notes"]
    assert not [p for p in document["not_implemented"] if rule in p]
    ready = prepare(scenario(path, unit), str(tmp_path / "s.toml"))
    assert ready.warnings and not [w for w in ready.warnings if rule in w]
