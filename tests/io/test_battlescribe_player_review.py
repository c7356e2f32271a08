"""A player's review of the BattleScribe import (session 21), one test (or a few) per finding.

Each reads the real catalogues copied into ``tests/data``; the expected values were
read from the XML by hand (file and line quoted) or worked out from the 7th-edition
rules, never copied from the importer's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_kit import one_line, run
from hammerlab.analysis.battles import prepare
from hammerlab.cli.app import app
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.psychic_powers import mastery_level
from hammerlab.engine.datasheet import Datasheet, ModelEntry
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import ImportResult, import_file
from hammerlab.io.scenario import parse_scenario

DATA = Path(__file__).resolve().parents[1] / "data"
BSDATA = DATA / "bsdata-7e"
MARINES = BSDATA / "Space Marines - Codex (2015).cat"
ORKS = BSDATA / "Orks - Codex.cat"
GUARD = BSDATA / "Astra Militarum - Codex.cat"
TYRANIDS = BSDATA / "Tyranids - Codex.cat"
HH_ROSTER = DATA / "rosters" / "HH_Test.ros"


def imported(path: Path) -> ImportResult:
    assert path.is_file(), f"test data missing: {path}"
    return import_file(path)


def twin_linked(sheet: Datasheet) -> dict[str, bool]:
    """Each weapon of ``sheet`` by name: whether the Waffle Edition plays it Twin-linked."""
    return {w.name: weapon_of(w).has_rule("Twin-linked") for e in sheet.entries for w in e.weapons}


def odds_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


# -- 1. "Twin-linked" written in a wargear selection's name ---------------------------


def test_a_weapon_its_selection_names_twin_linked_is_twin_linked() -> None:
    """Astra Militarum line 36382: the Vendetta's ``selectionEntry name="Twin-linked
    Lascannon"`` links the Lascannon profile (Range 48, S9, AP2, Type ``Heavy 1``: no
    Twin-linked) and no rule; line 37294, its "Wing-mounted Weapons" default, ``2x
    Twin-linked Lascannons``, the same profile. So each of its three lascannons is
    Twin-linked (7th edition: the Vendetta's three twin-linked lascannons). Orks line
    1805: the Warbikers' ``Twin-linked Dakkaguns`` links the Dakkagun (line 42165:
    ``Assault 3``), and the Warbike item (line 45053) says "Warbikes are fitted with a
    twin-linked dakkagun". Before, the name's "Twin-linked" was dropped silently."""
    vendetta = imported(GUARD).find("Vendetta Squadron")
    lascannons = [w for w in vendetta.entries[0].weapons if w.name == "Lascannon"]
    assert len(lascannons) == 3
    assert all(weapon_of(w).has_rule("Twin-linked") for w in lascannons)
    assert (
        "Weapon 'Lascannon' of 'Twin-linked Lascannon' is named twin-linked: given the rule "
        "Twin-linked, which its Type does not name."
    ) in vendetta.notes
    assert twin_linked(imported(ORKS).find("Warbikers"))["Dakkagun"]


def test_warbikers_dakkaguns_hit_as_twin_linked_in_the_odds() -> None:
    """Three Warbikers (the catalogue's minimum) fire a dakkagun each, Assault 3: 9 shots
    at BS2 (hit on 5+, 1/3), twin-linked re-rolling the misses: 1/3 + 2/3 * 1/3 = 5/9 a
    shot, 5 hits (before: 3). S5 against T4 wounds on 3+ (2/3); AP5 against the Space
    Marines' 3+ armour, saved 2/3."""
    answer = odds_json(
        "--from", str(ORKS), "--from", str(MARINES),
        "--attacker", "Warbikers", "--weapon", "Dakkagun", "--target", "Tactical Squad",
    )  # fmt: skip
    means = answer["means"]
    assert isinstance(means, dict)
    assert means["hits"] == pytest.approx(9 * 5 / 9)
    assert means["unsaved_wounds"] == pytest.approx(9 * 5 / 9 * 2 / 3 * 1 / 3)


def test_a_name_joining_weapons_twin_links_the_one_it_names() -> None:
    """Orks line 39631: the Meganobz' "PK & TL-Shoota" links the Shoota (line 44508,
    ``Assault 2``), the Power Klaw (line 44164, ``Melee, Specialist Weapon, Unwieldy``)
    and the rule Twin-Linked: "TL-Shoota" names the shoota (7th edition: Meganobz carry
    a twin-linked shoota and a power klaw), and a melee weapon is never twin-linked.
    Before, the rule went to neither, with a note. Space Marines: the "Reaper
    Chainfist w/ Twin-linked Heavy Bolter" shows the chainfist and holds a "Twin-Linked
    Heavy Bolter" selection whose Type is appended ", Twin-Linked": no false note."""
    meganobz = imported(ORKS).find("Meganobz")
    assert twin_linked(meganobz) == {"Stikkbombs": False, "Shoota": True, "Power Klaw": False}
    assert not [n for n in meganobz.notes if "given to none" in n]
    every_note = [n for sheet in imported(MARINES).datasheets for n in sheet.notes]
    assert not [n for n in every_note if "Reaper Chainfist" in n and "given to none" in n]


def test_a_profile_named_twin_linked_takes_the_rule_its_selection_links() -> None:
    """Space Marines line 21239: Bray'arth Ashmantle's "Two Dreadnought Fists w/ Built In
    Dreadfire Heavy Flamers" shows "Dreadfire Heavy Flamer (Heavy Flamer)" (Template,
    ``Assault 1``) and "Dreadfire Heavy Flamer (Twin-linked Meltagun)" (12", S8 AP1,
    ``Assault 1, Melta``) and links the rules Twin-Linked and Melta: the meltagun mode's
    own name says whose Twin-linked is. Before, it went to neither."""
    flags = twin_linked(imported(MARINES).find("(FW) Bray'arth Ashmantle"))
    assert flags["Dreadfire Heavy Flamer (Twin-linked Meltagun)"]
    assert not flags["Dreadfire Heavy Flamer (Heavy Flamer)"]


def test_a_twin_linked_weapon_and_a_plain_namesake_on_one_model_are_told_apart() -> None:
    """Orks line 29030: the Stompa holds "Twin-linked Big Shoota" (min 1) and "Big
    Shoota" (min 3), all four the Big Shoota profile (``Assault 3``). The engine finds a
    model's weapon by name, so the twin-linked one is named "Twin-linked Big Shoota"
    and the three others stay plain."""
    stompa = imported(ORKS).find("Stompa")
    names = [w.name for w in stompa.entries[0].weapons]
    assert names.count("Big Shoota") == 3 and names.count("Twin-linked Big Shoota") == 1
    flags = twin_linked(stompa)
    assert flags["Twin-linked Big Shoota"] and not flags["Big Shoota"]


# -- 2. Tyranid psykers' Mastery Level in a selection's name ---------------------------


def tyranid_psykers() -> str:
    """A scenario fielding the catalogue's Swarmlord and Hive Tyrant."""
    units = "".join(
        f"""
[[units]]
id = "{key}"
player = "Tyranids"
unit = "{name}"
source = "{TYRANIDS.resolve()}"
position = [{x}, 30]
"""
        for key, name, x in (("swarmlord", "The Swarmlord", 30), ("tyrant", "Hive Tyrant", 42))
    )
    return f"""
name = "Tyranid psykers"
ruleset = "waffle"
[[players]]
name = "Ultramarines"
edge = "south"
[[players]]
name = "Tyranids"
edge = "north"
[[units]]
id = "tactical"
player = "Ultramarines"
unit = "Tactical Squad"
position = [36, 8]
{units}"""


def test_a_tyranid_psyker_has_the_mastery_level_its_upgrade_is_named_after() -> None:
    """Tyranids line 13449: inside The Swarmlord (line 13388), the compulsory upgrade
    ``selectionEntry name="Psyker (Mastery Level 3)"`` (min 1, max 1) links the rule
    Psyker; line 6608, inside the Hive Tyrant (line 6484), "Psyker (Mastery Level 2)".
    So the Swarmlord is Mastery Level 3 and the Hive Tyrant 2, which the Psychic phase
    adds to its player's Warp Charge pool. Before, both read as a bare Psyker:
    Mastery Level 1."""
    tyranids = imported(TYRANIDS)
    assert "Psyker (Mastery Level 3)" in tyranids.find("The Swarmlord").rules
    assert "Psyker (Mastery Level 2)" in tyranids.find("Hive Tyrant").rules
    battle = prepare(parse_scenario(tyranid_psykers(), "psykers.toml"), "psykers.toml", 1).battle
    assert mastery_level(battle.unit("swarmlord")) == 3
    assert mastery_level(battle.unit("tyrant")) == 2


# -- 3. A group of models the data leaves to a choice -------------------------------


def sws_scenario(size: str) -> str:
    return f"""
name = "Special weapons"
ruleset = "waffle"
[[players]]
name = "Guard"
edge = "south"
[[players]]
name = "Orks"
edge = "north"
[[units]]
id = "sws"
player = "Guard"
unit = "Special Weapons Squad"
source = "{GUARD.resolve()}"
position = [36, 10]
{size}
[[units]]
id = "boyz"
player = "Orks"
unit = "Ork Boyz"
position = [36, 30]
"""


def test_a_unit_whose_models_a_group_leaves_unchosen_is_refused_saying_so() -> None:
    """Astra Militarum line 34000: the Special Weapons Squad holds "Guardsman w/ Lasgun"
    (min 3, max 3) and the group "Special Weapons" (min 3, max 3, no
    ``defaultSelectionEntryId``) of "Guard w/ Demolition Charge", "Guard w/ Plasma Gun"
    ... each showing the Guardsman profile: six Guardsmen, three of them chosen from
    the group. The data chooses none, so the squad would be half its models. Before, it
    played as three lasgun Guardsmen without a word, and ``size = 6`` was refused as "a
    fixed size of 3"; now it is not playable, for that reason, in ``show`` and when a
    scenario loads it."""
    guard = imported(GUARD)
    reasons = guard.reasons("Special Weapons Squad")
    assert len(reasons) == 1
    assert reasons[0].startswith(
        "models of it are left to a choice the data does not make: its group 'Special "
        "Weapons' needs 3 more ('Guard w/ Demolition Charge', 'Guard w/ Plasma Gun',"
    )
    shown = CliRunner().invoke(app, ["show", "--from", str(GUARD), "Special Weapons Squad"])
    assert "not playable: models of it are left to a choice" in " ".join(shown.stdout.split())
    for size in ("", "size = 6"):
        with pytest.raises(InputError) as refused:
            prepare(parse_scenario(sws_scenario(size), "sws.toml"), "sws.toml", 1)
        assert "cannot be played: models of it are left to a choice" in str(refused.value)
        assert "fixed size" not in str(refused.value)


# -- 4. Formations written as one unit ----------------------------------------------


def test_a_formation_of_units_is_no_playable_unit() -> None:
    """Space Marines line 8913: "Formation: Storm Wing" is ``type="unit"`` holding entry
    links to the Stormraven Gunship (min 1) and the Stormtalon Gunship (min 2), each a
    root entry the catalogue imports as a unit of its own; line 28873, "Formation:
    Triumvirate of the Primarch", links Cypher, Roboute Guilliman and Grand Master
    Voldus (min 1 each), three characters. In 7th edition a formation is made of
    units: before, each played as one unit (three flyers moving and shooting as one).
    Now each member is a unit the formation includes, and the formation has no
    models. The flyers stay playable on their own."""
    marines = imported(MARINES)
    wing = marines.find("Formation: Storm Wing")
    assert wing.entries == ()
    assert marines.reasons(wing.name) == ("it has no models",)
    assert {n for n in wing.notes if n.startswith("Includes unit")} == {
        "Includes unit 'Stormraven Gunship' (x1), imported as a datasheet of its own.",
        "Includes unit 'Stormtalon Gunship' (x2), imported as a datasheet of its own.",
    }
    assert marines.reasons("Stormraven Gunship") == ()
    assert marines.reasons("Stormtalon Gunship") == ()
    triumvirate = marines.find("Formation: Triumvirate of the Primarch")
    assert triumvirate.entries == ()
    assert marines.reasons(triumvirate.name) == ("it has no models",)


def test_a_formation_holding_models_of_its_own_is_refused_naming_them() -> None:
    """Tyranids line 25836: "Subterranean Swarm" (``type="unit"``) holds three Ravener
    Brood units and the models Trygon Prime, Mawloc and Trygon (``type="model"``, min 1
    each), three Monstrous Creatures that are each a unit in 7th edition, written
    inside the formation. Before, they played as one unit; now it is refused,
    naming them."""
    tyranids = imported(TYRANIDS)
    (reason,) = tyranids.reasons("Subterranean Swarm")
    assert reason.startswith("it is a formation of units (it includes 'Ravener Brood' (x3))")
    assert "'Trygon Prime' (x1), 'Mawloc' (x1), 'Trygon' (x1)" in reason


def test_one_entry_selected_several_times_stays_a_squadron() -> None:
    """Orks line 36869: the "Deff Dread Squadron" links the Deff Dread (min 1, max 3),
    also a root unit: one entry several times is a squadron of it, one unit."""
    orks = imported(ORKS)
    squadron = orks.find("Deff Dread Squadron")
    assert [(e.profile.name, e.count) for e in squadron.entries] == [("Deff Dread", 1)]
    assert orks.reasons(squadron.name) == ()


# -- 5. Odds of a model carrying a weapon twice -------------------------------------


def test_the_odds_fire_each_weapon_a_vehicle_carries_as_the_battle_does() -> None:
    """Orks line 38511: the Deff Dread's group "Deff Dread Weapons" (min 2, default
    "Big Shoota", Assault 3, S5 AP5) gives it two big shootas; its profile (line
    42224) is a Walker's, BS 2. A vehicle fires all its weapons (7th edition; the
    battle logs "fires 6 × Big Shoota"), so the odds fire two volleys, 6 shots: 6 x
    1/3 = 2 hits, S5 against T4 wounding on 3+ (4/3 wounds), AP5 against the Space
    Marines' 3+, 1 in 3 unsaved (4/9). Before, one volley: 3 shots, 1 hit."""
    answer = odds_json(
        "--from", str(ORKS), "--from", str(MARINES),
        "--attacker", "Deff Dread", "--weapon", "Big Shoota", "--target", "Tactical Squad",
    )  # fmt: skip
    assert str(answer["question"]).startswith("2x Big Shoota (Deff Dread)")
    means = answer["means"]
    assert isinstance(means, dict)
    assert means["hits"] == pytest.approx(2.0)
    assert means["unsaved_wounds"] == pytest.approx(4 / 9)


def test_the_odds_of_a_land_raider_fire_both_lascannons_and_name_twin_linked_once() -> None:
    """Space Marines line 9209: the Land Raider's "Two Twin-Linked Lascannons" (one
    Lascannon profile, Type "Heavy 1, Twin-linked", and the rule Twin-Linked linked): two
    lascannons, both fired by the vehicle. The question said "1 shots" and named the rule
    twice ("Twin-linked, Twin-linked": from the Type and the keyword)."""
    answer = odds_json(
        "--from", str(MARINES), "--from", str(ORKS),
        "--attacker", "Land Raider", "--weapon", "Lascannon", "--target", "Battlewagon",
    )  # fmt: skip
    question = str(answer["question"])
    assert question.startswith("2 shots of Lascannon (Land Raider)")
    assert question.count("Twin-linked") == 1


# -- 6. A hindering rule linked to a weapon its profile does not name ----------------


def test_a_force_stave_is_not_unwieldy_because_its_selection_links_the_rule() -> None:
    """Space Marines line 6856 on: the "Force Axe", "Force Stave" and "Force Sword"
    selections each link the rules Force (Warhammer40K.gst line 10234) and Unwieldy
    (gst line 10419); only the Force Axe's profile names Unwieldy (gst line 11592:
    "Melee, Force, Unwieldy"); the Force Stave's is "Melee, Force, Concussive" (line
    11604), the Force Sword's "Melee, Force" (line 11616). A 7th-edition force stave
    strikes at its bearer's Initiative: before, the Librarian struck at Initiative 1.
    A weapon whose profile names Unwieldy keeps it (the Meganobz' Power Klaw: Orks
    line 44164, "Melee, Specialist Weapon, Unwieldy")."""
    librarian = imported(MARINES).find("Librarian")
    stave = next(w for e in librarian.entries for w in e.weapons if w.name == "Force Stave")
    assert not weapon_of(stave).has_rule("Unwieldy")
    assert weapon_of(stave).has_rule("Force") and weapon_of(stave).has_rule("Concussive")
    assert (
        "Rule 'Unwieldy' of 'Force Stave' is not named by the Type of its weapon 'Force Stave' "
        "('Melee, Force, Concussive'); not given to it (a rule that hinders a weapon is read "
        "from its profile only)."
    ) in librarian.notes
    meganobz = imported(ORKS).find("Meganobz")
    klaw = next(w for e in meganobz.entries for w in e.weapons if w.name == "Power Klaw")
    assert weapon_of(klaw).has_rule("Unwieldy")


# -- 7. Invulnerable saves a one-sentence wargear text gives --------------------------


def model(sheet: Datasheet, name: str) -> ModelEntry:
    return next(e for e in sheet.entries if e.profile.name == name)


def test_a_wargear_text_granting_a_save_without_a_subject_is_applied() -> None:
    """HH_Test.ros line 915: the Magos Prime's "Mechanicum Protectiva" is described
    "Provides 4++ Invulnerable save" (no subject: it can only be the item's), line
    103, the Magos Dominus' "Refractor Field" "Confers 5++ Invulnerable Save". So the
    Magos Prime has a 4+ invulnerable save and the Magos Dominus a 5+, and neither
    item is left among the rules to resolve. Before, both were noted as describing
    a save "without naming itself" and not applied."""
    roster = imported(HH_ROSTER)
    prime = model(roster.find("Magos Prime"), "Magos Prime")
    assert prime.profile.invulnerable == 4
    assert "Mechanicum Protectiva" not in (*roster.find("Magos Prime").rules, *prime.rules)
    dominus = roster.find("Magos Dominus")
    assert model(dominus, "Magos Dominus").profile.invulnerable == 5


def test_a_save_the_model_has_is_not_reported_as_a_rule_not_implemented() -> None:
    """Astra Militarum line 63819: the "Refractor Field" wargear item is described "5+
    Invul Sv", the save alone. The Company Commander's Save is already "5+/5++"; the
    Lord Commissar's (line 62677) is "5+", so he gains the 5+ invulnerable save. Before,
    ``show`` and every battle said "special rule not implemented: Refractor Field" of the
    Company Commander, and the Lord Commissar had no invulnerable save."""
    guard = imported(GUARD)
    commander = model(guard.find("Company Command Squad"), "Company Commander")
    assert commander.profile.invulnerable == 5 and "Refractor Field" not in commander.rules
    shown = CliRunner().invoke(app, ["show", "--from", str(GUARD), "Company Command Squad"])
    text = " ".join(shown.stdout.split())
    assert "not implemented: Refractor Field" not in text
    assert "'Refractor Field': applied as a 5+ invulnerable save." in text
    assert model(guard.find("Lord Commissar"), "Lord Commissar").profile.invulnerable == 5


# -- 8. show --json and each model's own rules ---------------------------------------


def test_show_json_lists_each_model_s_own_rules() -> None:
    """Tyranids line 2862: the "Lictor" model entry of the Lictor Brood (line 2852) links
    the rules Hit and Run, Move Through Cover, Fleet, Instinctive Behaviour - Lurk,
    Stealth, Pheromone Trail, Deep Strike, Fear, Infiltrate and Very Bulky: the model's,
    not the unit's. ``show`` lists them under "Rules of 'Lictor'"; before, ``show
    --json`` had ``"rules": []`` and no rules in its model, so a tool saw a Lictor
    without Stealth or Deep Strike."""
    shown = CliRunner().invoke(app, ["show", "--from", str(TYRANIDS), "Lictor Brood", "--json"])
    assert shown.exit_code == 0, shown.output
    (lictor,) = json.loads(shown.stdout)["models"]
    linked = {
        "Hit and Run", "Move Through Cover", "Fleet", "Instinctive Behaviour - Lurk",
        "Stealth", "Pheromone Trail", "Deep Strike", "Fear", "Infiltrate", "Very Bulky",
    }  # fmt: skip
    assert linked <= set(lictor["rules"])


# -- 9. Errors that name the right thing ---------------------------------------------


def blob_catalogue(tmp_path: Path) -> Path:
    """A hostile one-unit catalogue: "Blob" shows a model profile of its own and holds
    the model entry "Gob", selected 1,000 times (``min`` 1e3): 1,001 models."""
    cells = "".join(
        f'<characteristic name="{key}">{value}</characteristic>'
        for key, value in zip(
            ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save"),
            ("3", "3", "3", "3", "1", "3", "1", "7", "5+"),
            strict=True,
        )
    )
    path = tmp_path / "blob.cat"
    path.write_text(
        '<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="x" '
        'name="Mini"><selectionEntries><selectionEntry id="a" name="Blob" type="unit">'
        f'<profiles><profile id="p" name="Blob" typeName="Unit"><characteristics>{cells}'
        '</characteristics></profile></profiles><selectionEntries><selectionEntry id="m" '
        'name="Gob" type="model"><constraints><constraint field="selections" scope="parent" '
        'value="1e3" type="min" id="c1"/></constraints><profiles><profile id="q" name="Gob" '
        f'typeName="Unit"><characteristics>{cells}</characteristics></profile></profiles>'
        "</selectionEntry></selectionEntries></selectionEntry></selectionEntries></catalogue>"
    )
    return path


def test_a_unit_of_more_models_than_a_scenario_fields_is_refused_for_that(
    tmp_path: Path,
) -> None:
    """A unit of 1,001 models is over the cap a scenario's ``size`` has (200 models in one
    unit, docs/scenarios.md *Caps*). Before, ``import`` called it playable, a scenario
    refused it for a model standing off the table, and ``odds`` for "target models
    must be between 1 and 100, not 1001", a value the user never gave."""
    path = blob_catalogue(tmp_path)
    assert import_file(path).reasons("Blob") == ("it has 1001 models; a unit has at most 200",)
    code, _, err = run("odds", "--from", str(path), "--from", str(ORKS), "--attacker", "Boyz",
                       "--weapon", "Slugga", "--target", "Blob")  # fmt: skip
    assert one_line(code, err, 2) == (  # the importer's reason, as a scenario gives it
        "error: --target: Blob cannot be played: it has 1001 models; a unit has at most 200"
    )
    scenario = f"""
name = "blob"
[[players]]
name = "A"
[[players]]
name = "B"
edge = "north"
[[units]]
id = "blob"
player = "A"
unit = "Blob"
source = "{path}"
position = [36, 20]
"""
    with pytest.raises(InputError) as refused:
        prepare(parse_scenario(scenario, "blob.toml"), "blob.toml", 1)
    assert "cannot be played: it has 1001 models; a unit has at most 200" in str(refused.value)


def test_a_directory_is_said_to_be_one(tmp_path: Path) -> None:
    """Before: "unsupported file type '(none)': expected .cat, .gst, .ros or .rosz"."""
    code, _, err = run("import", str(tmp_path))
    assert one_line(code, err, 1) == (
        f"error: {tmp_path}: is a directory, not a file (.cat, .gst, .ros or .rosz)"
    )


def test_the_odds_at_an_imported_unit_with_no_models_say_so() -> None:
    """The Storm Wing (finding 4) and the Astra Militarum Infantry Platoon (its squads
    are units of their own) have no models: before, ``odds --target`` at one ended in a
    traceback (``IndexError``)."""
    code, _, err = run("odds", "--from", str(MARINES), "--attacker", "Tactical Squad",
                       "--weapon", "Boltgun", "--target", "Formation: Storm Wing")  # fmt: skip
    assert one_line(code, err, 2) == (
        "error: --target: Formation: Storm Wing cannot be played: it has no models"
    )
    platoon = ["--from", str(GUARD), "--from", str(MARINES), "--target", "Infantry Platoon"]
    code, _, err = run("odds", *platoon, "--attacker", "Tactical Squad", "--weapon", "Boltgun")
    assert one_line(code, err, 2) == (
        "error: --target: Infantry Platoon cannot be played: it has no models"
    )
