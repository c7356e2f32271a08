"""The built-in unit library against the BattleScribe catalogues it cites (session 14).

Each file of ``hammerlab/library/waffle`` says its profiles are the catalogue's in
``tests/data/bsdata-7e`` (real BSData files nobody here wrote). A user review found
they were not (Ork Boys at S4, a Tactical Sergeant at A2 Ld9, a Carnifex at I1
Ld10, an Ogryn at BS2), so this test compares, for every library unit, each
model's characteristics (WS BS S T W I A Ld Sv, invulnerable save, unit type;
Armour Values and Hull Points for vehicles) and each weapon's profile (Range S AP
Type) with the catalogue, read through the project's importer
(:func:`hammerlab.io.battlescribe.import_file`).

Both sides are compared as the Waffle Edition reads them (``stats_of`` and
``weapon_of``), so spellings that play alike are alike: ``3" Blast`` and
``Blast``, ``5" Blast`` and ``Large Blast``, a Template written in the Range or
in the Type, the order and case of a weapon's rules. What is compared is the
catalogue's value: the expected side is the BSData file, never the library.

Where a library model or weapon is the catalogue's under another name (a heavy
weapon Marine is a catalogue ``Space Marine`` with an option taken) the tables
below say so. A weapon the catalogue unit carries by default is compared with the
unit's imported weapon; an option the library takes (a shoota, a heavy bolter) is
compared with the catalogue's definition of that profile (the file's own first,
then its game system's), read by the importer's own profile mapping. Every
deliberate difference is in :data:`ALLOWED`, with its reason, and
:func:`test_every_allowed_difference_is_still_a_difference` keeps that list from
outliving the differences it excuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path

import pytest

from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.engine.datasheet import Datasheet, Profile, Weapon
from hammerlab.io.battlescribe import ImportResult, import_file
from hammerlab.io.battlescribe.links import open_library
from hammerlab.io.battlescribe.profiles import (
    Kind,
    model_profile,
    read_definition,
    vehicle_profile,
    weapon,
)
from hammerlab.io.library import ModelSpec, UnitSpec, builtin_library, datasheets_from, parse_army

BSDATA = Path(__file__).resolve().parent / "data" / "bsdata-7e"

CATALOGUES = {
    "Orks": "Orks - Codex.cat",
    "Space Marines": "Space Marines - Codex (2015).cat",
    "Astra Militarum": "Astra Militarum - Codex.cat",
    "Tyranids": "Tyranids - Codex.cat",
}
"""Library army → the catalogue its file's header cites."""

UNITS: dict[str, str | None] = {
    "Ork Boyz": "Boyz",
    "Nobz": "Nobz",
    "Warboss": "Warboss",
    "Tactical Squad": "Tactical Squad",
    "Tactical Squad (meltagun, lascannon)": "Tactical Squad",
    "Devastator Squad": "Devastator Squad",
    "Terminator Squad": "Terminator Squad",
    "Space Marine Captain": "Captain",
    "Infantry Squad": "Infantry Squad",
    # The catalogue's Heavy Weapons Squad has no default teams (a group of 3 with no
    # default entry): its models and weapons are compared with the profiles it links.
    "Heavy Weapons Squad": "Heavy Weapons Squad",
    "Mortar Squad": "Heavy Weapons Squad",
    "Ogryns": "Ogryns",
    "Leman Russ Battle Tank": "Leman Russ Squadron",
    # The Chimera is a Dedicated Transport in the catalogue, not a unit of its own:
    # compared with its "Chimera" profile and the weapon profiles the file defines.
    "Chimera": None,
    "Armoured Sentinel": "Armoured Sentinel Squadron",
    "Termagants": "Termagant Brood",
    "Hormagaunts": "Hormagaunt Brood",
    "Genestealers": "Genestealer Brood",
    "Carnifex": "Carnifex Brood",
}
"""Library unit → the catalogue unit (its imported datasheet's name), or ``None``."""

MODELS = {
    # A library entry per loadout; the catalogue has one model with options.
    "Ork Boy (big shoota)": "Ork Boy",
    "Ork Boy (rokkit launcha)": "Ork Boy",
    "Space Marine (heavy bolter)": "Space Marine",
    "Space Marine (flamer)": "Space Marine",
    "Space Marine (lascannon)": "Space Marine",
    "Space Marine (meltagun)": "Space Marine",
    "Space Marine (missile launcher)": "Space Marine",
    "Terminator (assault cannon)": "Terminator",
    "Guardsman (grenade launcher)": "Guardsman",
    # The Infantry Squad's heavy weapon is a two-man Heavy Weapons Team.
    "Guardsman (heavy bolter team)": "Heavy Weapons Team",
    "Heavy Weapons Team (lascannon)": "Heavy Weapons Team",
    "Heavy Weapons Team (mortar)": "Heavy Weapons Team",
    # The catalogue names the model's profile in the plural.
    "Genestealer": "Genestealers",
}
"""Library model → the catalogue's model profile, where the names differ."""

WEAPONS = {
    ("Orks", "Choppa"): "Close Combat Weapon",  # the Boy's choppa links this profile
    ("Space Marines", "Frag grenades"): "Assault Grenades",  # the game system's name
    ("Space Marines", "Missile launcher (frag)"): "Frag Missiles",
    ("Space Marines", "Missile launcher (krak)"): "Krak Missiles",
}
"""(army, library weapon) → the catalogue's weapon profile, where the names differ."""

ALLOWED: dict[tuple[str, str, str], tuple[object, object, str]] = {
    # Options taken, as the files' headers say.
    ("Warboss", "Warboss", "Sv"): (
        4,
        6,
        "'eavy armour taken: the catalogue sets Save 4+ under the condition that it is "
        "selected (a conditional modifier the importer notes and does not apply)",
    ),
}
"""(library unit, library model or weapon, field) → (library value, catalogue value,
why the library keeps its value). Nothing else may differ."""

VEHICLE_FIELDS = ("WS", "BS", "S", "I", "A", "Front", "Side", "Rear", "HP")
"""A vehicle's characteristics (a Walker's WS S I A too), compared as written."""


def model_view(profile: Profile) -> dict[str, object]:
    """A model's characteristics as the Waffle Edition reads them."""
    if "Front" in profile.characteristics:  # a vehicle: its Armour Values as written
        raw = profile.characteristics
        return {key: raw.get(key, "") for key in VEHICLE_FIELDS} | {"type": profile.unit_type}
    stats = stats_of(profile)
    return {
        "WS": stats.ws,
        "BS": stats.bs,
        "S": stats.s,
        "T": stats.t,
        "W": stats.w,
        "I": stats.i,
        "A": stats.a,
        "Ld": stats.ld,
        "Sv": stats.sv,
        "inv": stats.invulnerable,
        "type": profile.unit_type,
    }


def weapon_view(item: Weapon, grenade: bool = True) -> dict[str, object]:
    """A weapon's profile as the Waffle Edition reads it, its name aside; rules as a
    set (the importer repeats a Type's rules as keywords). ``grenade=False`` leaves
    out the rule Grenade, which the importer gives a unit's grenade selection and a
    profile's definition does not carry."""
    read = weapon_of(item)
    rules = {rule.casefold() for rule in read.rules}
    if not grenade:
        rules.discard("grenade")
    return {
        "Range": read.range,
        "S": (read.strength.mode, read.strength.value),
        "AP": read.ap,
        "Type": (read.base_type, read.salvo_moving_shots, read.shots),
        "blast": read.blast,
        "template": read.template,
        "barrage": read.barrage,
        "rules": tuple(sorted(rules)),
    }


@cache
def catalogue(army: str) -> ImportResult:
    """The imported catalogue of ``army``."""
    return import_file(BSDATA / CATALOGUES[army])


@cache
def definitions(army: str) -> tuple[dict[str, list[Profile]], dict[str, list[Weapon]]]:
    """Every model (or vehicle) and weapon profile the catalogue of ``army`` defines,
    by lower-case name, each read by the importer's profile mapping: the file's own
    where it defines the name, else its game system's (a catalogue's profile
    overrides the shared one, as BattleScribe links resolve in the file first)."""
    library = open_library(BSDATA / CATALOGUES[army], CATALOGUES[army])
    models: dict[str, list[Profile]] = {}
    weapons: dict[str, list[Weapon]] = {}
    for document in library.documents:  # the catalogue first, then the game system
        own_models: dict[str, list[Profile]] = {}
        own_weapons: dict[str, list[Weapon]] = {}
        for element in document.root.iter("profile"):
            raw = read_definition(element, library)
            key = raw.name.casefold()
            if raw.kind is Kind.WEAPON:
                own_weapons.setdefault(key, []).append(weapon(raw))
            elif raw.kind is Kind.MODEL:
                own_models.setdefault(key, []).append(model_profile(raw)[0])
            elif raw.kind is Kind.VEHICLE:
                own_models.setdefault(key, []).append(vehicle_profile(raw)[0])
        for key, found in own_models.items():
            models.setdefault(key, found)
        for key, items in own_weapons.items():
            weapons.setdefault(key, items)
    return models, weapons


def library_sheets() -> list[Datasheet]:
    """Every datasheet of the built-in waffle library."""
    library = builtin_library("waffle")
    return [library.find(name) for name in library.names()]


def catalogue_unit(sheet: Datasheet) -> Datasheet | None:
    """The imported catalogue datasheet matching library unit ``sheet``."""
    name = UNITS[sheet.name]
    return None if name is None else catalogue(sheet.army).find(name)


def catalogue_model(sheet: Datasheet, model: str) -> Profile:
    """The catalogue's profile for library model ``model`` of ``sheet``: the matching
    unit's own model, else the profile of that name the catalogue defines (one
    reading only: several differing ones would make the comparison a choice)."""
    wanted = MODELS.get(model, model).casefold()
    unit = catalogue_unit(sheet)
    found = [e.profile for e in unit.entries if e.profile.name.casefold() == wanted] if unit else []
    if found:
        return found[0]
    defined = definitions(sheet.army)[0].get(wanted, [])
    assert defined, f"{sheet.name}: the catalogue has no model {wanted!r}"
    assert len({str(model_view(p)) for p in defined}) == 1, f"{wanted!r} has differing profiles"
    return defined[0]


def catalogue_weapon(sheet: Datasheet, item: Weapon) -> tuple[Weapon, bool]:
    """The catalogue's profile for library weapon ``item`` of ``sheet``, and whether
    it is a unit's imported weapon (else a definition, read without its grenade
    rule: see :func:`weapon_view`)."""
    wanted = WEAPONS.get((sheet.army, item.name), item.name).casefold()
    unit = catalogue_unit(sheet)
    carried = [w for e in (unit.entries if unit else ()) for w in e.weapons]
    found = [w for w in carried if w.name.casefold() == wanted]
    if found:
        return found[0], True
    defined = definitions(sheet.army)[1].get(wanted, [])
    assert defined, f"{sheet.name}: the catalogue defines no weapon {wanted!r}"
    readings = {str(weapon_view(w, grenade=False)) for w in defined}
    assert len(readings) == 1, f"{wanted!r}: the catalogue defines differing profiles"
    return defined[0], False


def differences(sheet: Datasheet) -> Iterator[tuple[tuple[str, str, str], object, object]]:
    """Every ((unit, model or weapon, field), library value, catalogue value) that
    differs between library unit ``sheet`` and its catalogue counterpart."""
    for entry in sheet.entries:
        mine = model_view(entry.profile)
        theirs = model_view(catalogue_model(sheet, entry.profile.name))
        for key in mine:
            if mine[key] != theirs[key]:
                yield (sheet.name, entry.profile.name, key), mine[key], theirs[key]
        for item in entry.weapons:
            other, carried = catalogue_weapon(sheet, item)
            mine_w, theirs_w = weapon_view(item, carried), weapon_view(other, carried)
            for key in mine_w:
                if mine_w[key] != theirs_w[key]:
                    yield (sheet.name, item.name, key), mine_w[key], theirs_w[key]


SHEETS = library_sheets()


def test_every_library_unit_has_a_catalogue_counterpart() -> None:
    """A unit added to the library must be added here, with its catalogue unit."""
    assert sorted(s.name for s in SHEETS) == sorted(UNITS)
    assert {s.army for s in SHEETS} == set(CATALOGUES)


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: s.name)
def test_library_unit_matches_its_catalogue(sheet: Datasheet) -> None:
    """Each model's characteristics and each weapon's profile are the catalogue's,
    but for the differences :data:`ALLOWED` gives a reason for."""
    unexpected = [
        f"{unit} / {thing}: {field} is {mine!r}, the catalogue has {theirs!r}"
        for (unit, thing, field), mine, theirs in differences(sheet)
        if ALLOWED.get((unit, thing, field), (None, None))[:2] != (mine, theirs)
    ]
    assert unexpected == []


def test_every_allowed_difference_is_still_a_difference() -> None:
    """An allow-list entry whose difference is gone (fixed in the library, or the
    catalogue changed) must go too."""
    found = {key: (mine, theirs) for sheet in SHEETS for key, mine, theirs in differences(sheet)}
    stale = [
        key for key, (mine, theirs, _why) in ALLOWED.items() if found.get(key) != (mine, theirs)
    ]
    assert stale == []


def test_weapons_no_unit_carries_match_too() -> None:
    """A weapon a library file declares and no unit carries (the Orks' kustom
    mega-blasta) is the catalogue's profile as well."""
    checked = 0
    for item in (resources.files("hammerlab") / "library" / "waffle").iterdir():
        if not item.name.endswith(".toml"):
            continue
        source = f"hammerlab/library/waffle/{item.name}"
        spec = parse_army(item.read_text(encoding="utf-8"), source)
        carried = {w for unit in spec.units for model in unit.models for w in model.weapons}
        loose = sorted(set(spec.weapons) - carried)
        if not loose:
            continue
        holder = UnitSpec(name="holder", models=[ModelSpec(name="m", profile={}, weapons=loose)])
        sheet = datasheets_from(spec.model_copy(update={"units": [holder]}), source, "waffle")[0]
        for declared in sheet.entries[0].weapons:
            wanted = WEAPONS.get((spec.army, declared.name), declared.name).casefold()
            defined = definitions(spec.army)[1].get(wanted, [])
            assert defined, f"{spec.army}: the catalogue defines no weapon {wanted!r}"
            expected = weapon_view(defined[0], grenade=False)
            assert weapon_view(declared, grenade=False) == expected, declared.name
            checked += 1
    assert checked >= 1  # the kustom mega-blasta, at least
