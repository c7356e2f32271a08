"""Every imported unit is playable in the Waffle Edition, or refused saying why.

For each catalogue and the roster in ``tests/data``, every datasheet with models
must either

(a) have no reasons (``ImportResult.reasons``), pass ``stats_of`` for every
    profile and ``weapon_of`` for every weapon, load into a scenario and play
    one shooting phase (both players shoot) against built-in Ork Boyz without
    an exception, the unit taken from the file (``source = ...``); or
(b) have reasons, and be refused when a scenario loads it, with an error
    naming the unit and the reasons.

Weapons the readers reject are never handed over (each is dropped with a
note); ``test_mutated_catalogue_changes_no_unit_silently`` checks that on a
catalogue whose weapons and saves are rewritten into forms they reject.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.engine.datasheet import Datasheet
from hammerlab.errors import InputError, ProfileError
from hammerlab.io.battlescribe import ImportResult, import_file
from hammerlab.io.battlescribe.catalogue import UNCHOSEN
from hammerlab.io.battlescribe.datasheets import FORMATION, NO_MODELS
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


def reading_problems(sheet: Datasheet) -> list[str]:
    """What ``stats_of`` and ``weapon_of`` refuse in ``sheet``.

    Only ``ProfileError`` counts as a refusal: any other exception from the
    readers is a crash, and fails the test as one.
    """
    found = []
    for entry in sheet.entries:
        try:
            stats_of(entry.profile)
        except ProfileError as error:
            found.append(str(error))
        for weapon in entry.weapons:
            try:
                weapon_of(weapon)
            except ProfileError as error:
                found.append(str(error))
    return found


def with_models(result: ImportResult) -> list[Datasheet]:
    """The units that have (or had, before a vehicle was left out) models; a formation (a
    datasheet of units, not a unit) is none."""
    return [
        sheet
        for sheet in result.datasheets
        if NO_MODELS not in result.reasons(sheet.name)
        and not any(r.startswith(FORMATION) for r in result.reasons(sheet.name))
    ]


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
def test_a_unit_is_called_playable_exactly_when_its_profiles_and_weapons_read(
    name: str,
) -> None:
    result = import_file(shared(name))
    sheets = with_models(result)
    assert sheets
    wrong = []
    for sheet in sheets:
        problems, reasons = reading_problems(sheet), result.reasons(sheet.name)
        weapons = [p for p in problems if p.startswith("weapon ")]
        if weapons:  # unreadable weapons are dropped, never handed over
            wrong.append(f"{sheet.name}: {weapons}")
        if problems and not reasons:
            wrong.append(f"{sheet.name}: called playable, but {problems}")
        if reasons and not problems and sheet.entries:
            # a model refused for what it is (a Flyer, a Super-heavy), not for how it reads
            # or for what the data leaves out (a formation, models left to a choice)
            unreadable = [
                r
                for r in reasons
                if "has no" not in r
                and "not modelled" not in r
                and not r.startswith((FORMATION, UNCHOSEN))
            ]
            if unreadable:
                wrong.append(f"{sheet.name}: refused for {unreadable}, yet it reads")
    assert not wrong, "\n".join(wrong)


FLOOR = {
    "Space Marines - Codex (2015).cat": (148, 157),
    "Orks - Codex.cat": (102, 104),
    "Astra Militarum - Codex.cat": (122, 134),
    "Tyranids - Codex.cat": (120, 120),
}
"""Playable units and units with models per shared catalogue, as measured: a floor,
never to fall below. Before issue 12 the importer claimed 264 of 547 (48%), some
of them wrong units (Veterans as one sergeant); after §1: 300 of 555 (54%); after
§2 (vehicles): 400 of 555 (72%); with Flyers and Super-heavy vehicles: 513 of
555; with units of vehicles and other models split in two: 537 of 567; with WS,
BS and A written '-' read: 546 of 567 (96.3%); with Artillery (guns' S, I and Ld
written '-' read, crew firing the guns): 548 of 567 (96.6%); with the 6th/7th-edition
bounds of ``io.bounds`` (Armour Values 10 to 14), 547 of 567 (96.5%): the Deimos
Pattern Vindicator's data writes Side and Rear armour 1; with the units an upgrade
entry wraps (Dreadnoughts, Venerable Dreadnoughts, Fighta-boma Flyer Wing, Meiotic
Spore Brood), 551 of 571 (96.5%). Session 21 (a player's review) found some of
them wrong units: formations written as one unit (a Storm Wing of three flyers,
Guilliman, Cypher and Voldus as one unit) are no units, and a unit whose models a
group leaves to a choice the data does not make (the Special Weapons Squad's three
special weapon Guardsmen) is refused: 492 of 515 (95.5%). Of the rest, most are
artillery guns whose crew profile the importer does not use, and models without
a profile."""
SHARE_FLOOR = 0.95
"""Issue 12's contract: at least 95% of the units with models play."""


def test_the_playable_share_of_the_shared_catalogues_loads_into_scenarios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    counted = {}
    for name in FLOOR:
        path = shared(f"bsdata-7e/{name}")
        result = import_file(path)
        playable = 0
        for sheet in with_models(result):
            reasons = result.reasons(sheet.name)
            spec = scenario(path, sheet.name)
            if reasons:
                with pytest.raises(InputError) as refused:
                    prepare(spec, str(path.parent / "usable.toml"))
                message = str(refused.value)
                assert sheet.name in message and reasons[0] in message
                assert "\n" not in message
            else:
                ready = prepare(spec, str(path.parent / "usable.toml"))
                assert ready.battle.unit("imported").datasheet is sheet
                playable += 1
        counted[name] = (playable, len(with_models(result)))
    playable, total = map(sum, zip(*counted.values(), strict=True))
    with capsys.disabled():
        for name, (played, units) in counted.items():
            print(f"\n{name}: {played}/{units}", end="")
        print(f"\nplayable units with models: {playable}/{total} ({playable / total:.1%})")
    assert playable / total >= SHARE_FLOOR
    for name, (was_playable, was_total) in FLOOR.items():
        assert counted[name][0] >= was_playable and counted[name][1] >= was_total, name


@pytest.mark.parametrize("name", FILES)
def test_every_playable_unit_plays_a_shooting_phase(name: str) -> None:
    path = shared(name)
    result = import_file(path)
    playable = [s for s in with_models(result) if not result.reasons(s.name)]
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
    # Astra Militarum - Codex.cat: the Tarantula profile is WS - BS 3 S - T 6 W 2 I -
    # A (empty) Ld - (an Artillery gun may write '-' for WS BS S I A Ld, not nothing);
    # Orks - Codex.cat: the Snazzgun's AP is "D6".
    guard = import_file(shared("bsdata-7e/Astra Militarum - Codex.cat"))
    unreadable = "A '' is not a number"
    assert (
        f"Model 'Tarantula' cannot be played by the Waffle Edition: {unreadable}; kept as written."
        in guard.find("Sentry Gun Battery (FW)").notes
    )
    assert guard.reasons("Sentry Gun Battery (FW)") == (f"model 'Tarantula': {unreadable}",)
    orks = import_file(shared("bsdata-7e/Orks - Codex.cat"))
    flash_gitz = orks.find("Flash Gitz")
    assert any(
        note.startswith("Weapon 'Snazzgun' cannot be used by the Waffle Edition: AP 'D6'")
        and note.endswith("dropped.")
        for note in flash_gitz.notes
    )
    assert "Snazzgun" not in {weapon.name for weapon in flash_gitz.weapons()}
    assert orks.reasons("Flash Gitz") == ()  # they fight with what they can use


MUTATIONS = (
    ("Type", "Assault D3"),
    ("AP", "D6"),
    ("Strength", "D"),
    ("Range", '5"-10"'),
    ("Range", "Unlimited"),
    ("Strength", "X"),
    ("Type", "Heavy 4D6"),
    ("Strength", "-"),
)
"""Unreadable forms seen in unseen 7th-edition catalogues; weapon profile number
``n`` of the file gets ``MUTATIONS[n % 9]`` (the ninth of every nine is kept)."""


def mutate(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target``, its weapons and saves rewritten unreadably."""
    namespace = "http://www.battlescribe.net/schema/catalogueSchema"
    ET.register_namespace("", namespace)
    tree = ET.parse(source)
    weapons = saves = 0
    for profile in tree.iter(f"{{{namespace}}}profile"):
        cells = {c.get("name"): c for c in profile.iter(f"{{{namespace}}}characteristic")}
        if {"Range", "Strength", "AP", "Type"} <= set(cells):
            if weapons % 9 < len(MUTATIONS):
                key, value = MUTATIONS[weapons % 9]
                cells[key].set("value", value)
            weapons += 1
        elif "Save" in cells:
            if saves % 4 == 0:
                cells["Save"].set("value", "2+/4++*")
            saves += 1
    tree.write(target, encoding="utf-8", xml_declaration=True)


def _models_by_profile(sheet: Datasheet) -> dict[str, int]:
    totals: dict[str, int] = {}
    for entry in sheet.entries:
        totals[entry.profile.name] = totals.get(entry.profile.name, 0) + entry.count
    return totals


def _profile_name(sheet: Datasheet, weapon: str) -> str:
    """The profile name of ``sheet``'s weapon ``weapon``: a twin-linked weapon whose
    model carries a plain namesake is renamed, with a note ("Weapon 'Big Shoota' is
    twin-linked and its model carries a plain one too: named 'Twin-linked Big
    Shoota'."), and a note on the profile names it as written."""
    renamed = re.compile(rf"Weapon '(.+)' is twin-linked and .*: named {re.escape(repr(weapon))}\.")
    found = next(filter(None, map(renamed.fullmatch, sheet.notes)), None)
    return weapon if found is None else found[1]


def test_mutated_catalogue_changes_no_unit_silently(tmp_path: Path) -> None:
    name = "Orks - Codex.cat"
    mutate(shared(f"bsdata-7e/{name}"), tmp_path / name)
    shutil.copy(shared("bsdata-7e/Warhammer40K.gst"), tmp_path / "Warhammer40K.gst")
    original = import_file(shared(f"bsdata-7e/{name}"))
    mutated = import_file(tmp_path / name)
    assert [s.name for s in mutated.datasheets] == [s.name for s in original.datasheets]
    silent, dropped = [], 0
    for before, after in zip(original.datasheets, mutated.datasheets, strict=True):
        kept = {weapon.name for weapon in after.weapons()}
        for weapon in before.weapons():
            if weapon.name in kept:
                continue
            dropped += 1
            shown = _profile_name(before, weapon.name)
            if not any(f"Weapon {shown!r}" in note for note in after.notes):
                silent.append(f"{after.name}: {weapon.name!r} lost without a note")
        # Models of each profile, in all: two Killa Kans whose different guns were both
        # dropped (with notes) become one entry of two identical Kans, not a change.
        if _models_by_profile(after) != _models_by_profile(before):
            silent.append(f"{after.name}: models changed")
        if not mutated.reasons(after.name) and reading_problems(after):
            silent.append(f"{after.name}: playable but {reading_problems(after)}")
    print(f"\n{dropped} weapons dropped, {len(silent)} units changed silently")
    assert not silent, "\n".join(silent)
    assert dropped > 100  # the mutations reached the units
    starred = [n for s in mutated.datasheets for n in s.notes if "'2+/4++*' is marked" in n]
    assert starred
