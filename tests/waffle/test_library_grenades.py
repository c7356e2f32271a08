"""The bundled unit library's default grenades (``src/hammerlab/library/waffle/*.toml``).

Expected values come from the BattleScribe 7th-edition catalogues in
``tests/data/bsdata-7e`` (read here with the standard XML parser, not with
hammerlab's importer) and from the 7th-edition grenade rules quoted in
docs/rules/waffle.md, *Firing modes and grenades*:

* each catalogue unit entry below gives its models a grenade selection of
  min 1 / max 1 (the Orks' "Stikkbombs", the Space Marines' "Frag and Krak
  Grenades", the Astra Militarum's "Frag Grenades" and, for a two-crew weapons
  team, "Frag Grenades T" of min 2); Terminators and the Tyranid broods have
  none;
* the profiles are those the catalogue (or the game system file it links)
  prints: Stikkbombs 8 S3 AP- ``Assault 1, 3" Blast, Assault grenades``
  (Orks - Codex.cat); Assault Grenades 8" S3 AP- ``Assault 1, Blast`` and Krak
  Grenades 8" S6 AP4 ``Assault 1`` (Warhammer40K.gst, linked by the Space
  Marine catalogue); Frag Grenades 8" S3 AP- ``Assault 1, 3" Blast`` (Astra
  Militarum - Codex.cat);
* one grenade is thrown per unit per phase; frag grenades and stikkbombs are
  assault grenades (no Initiative 1 after a charge through difficult
  terrain), krak grenades are not; krak grenades strike vehicles and
  Monstrous Creatures in close combat, nothing else.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from conftest import A, B, Placed, box, charge_sub_phase, make_battle, make_unit, of_kind, row
from fight_kit import CHAINSWORD

from hammerlab.editions import get_ruleset
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.difficult_charge import has_assault_grenades
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.firing_modes import is_grenade, may_fire, spend, throwers
from hammerlab.editions.waffle.melee_grenades import grenade_options
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import shooting_attack
from hammerlab.engine.controllers import FirstChoiceController
from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Unit
from hammerlab.io.library import builtin_library

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
LIBRARY = builtin_library("waffle")

STIKKBOMBS = frozenset({"Stikkbombs"})
FRAG_AND_KRAK = frozenset({"Frag grenades", "Krak grenades"})
FRAG = frozenset({"Frag grenades"})
NONE: frozenset[str] = frozenset()

GRENADES_BY_UNIT = {
    "Ork Boyz": STIKKBOMBS,
    "Nobz": STIKKBOMBS,
    "Warboss": STIKKBOMBS,
    "Tactical Squad": FRAG_AND_KRAK,
    "Tactical Squad (meltagun, lascannon)": FRAG_AND_KRAK,
    "Devastator Squad": FRAG_AND_KRAK,
    "Space Marine Captain": FRAG_AND_KRAK,
    "Terminator Squad": NONE,
    "Infantry Squad": FRAG,
    "Heavy Weapons Squad": FRAG,
    "Mortar Squad": FRAG,
    "Ogryns": FRAG,
    "Leman Russ Battle Tank": NONE,
    "Chimera": NONE,
    "Armoured Sentinel": NONE,
    "Termagants": NONE,
    "Hormagaunts": NONE,
    "Genestealers": NONE,
    "Carnifex": NONE,
}
"""Every model of each library unit carries these grenades (the catalogue entries
below give them to every model entry the library takes)."""


def test_every_library_unit_is_in_the_table() -> None:
    assert sorted(GRENADES_BY_UNIT) == LIBRARY.names()


@pytest.mark.parametrize(("name", "grenades"), sorted(GRENADES_BY_UNIT.items()))
def test_each_model_carries_the_grenades_its_catalogue_entry_gives(
    name: str, grenades: frozenset[str]
) -> None:
    sheet = LIBRARY.find(name)
    for entry in sheet.entries:
        carried = {w.name for w in entry.weapons if is_grenade(w)}
        assert carried == grenades, entry.profile.name


# --- The catalogues, read as XML ---------------------------------------------------


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


@cache
def _catalogue(file: str) -> tuple[ET.Element, dict[str, ET.Element]]:
    """The catalogue's root and every element with an id, the game system's too
    (a catalogue links shared profiles and entries by id)."""
    root = ET.parse(BSDATA / file).getroot()
    ids: dict[str, ET.Element] = {}
    for source in (ET.parse(BSDATA / "Warhammer40K.gst").getroot(), root):
        ids.update({e.attrib["id"]: e for e in source.iter() if "id" in e.attrib})
    return root, ids


def _characteristics(profile: ET.Element) -> dict[str, str]:
    """A profile's characteristics, in either of the data's two encodings."""
    found = {}
    for c in profile.iter():
        if _tag(c) == "characteristic":
            found[c.attrib["name"]] = c.attrib.get("value", c.text or "")
    return found


def _minimum(element: ET.Element) -> float:
    """The entry's min constraint on its parent's selections (0 if none)."""
    return max(
        (
            float(c.attrib["value"])
            for c in element.iter()
            if _tag(c) == "constraint"
            and c.attrib.get("type") == "min"
            and c.attrib.get("scope") == "parent"
            and c.attrib.get("field") == "selections"
        ),
        default=0.0,
    )


_GRENADE_NAME = re.compile(r"grenade|bomb", re.IGNORECASE)
_CHILD_LISTS = {"selectionEntries", "selectionEntryGroups", "entryLinks"}


def _grenade_selections(file: str, entry_id: str) -> set[tuple[str, str, float]]:
    """(the entry holding it, grenade selection, its min) for every grenade
    selection under the unit entry ``entry_id``, entry links followed."""
    _, ids = _catalogue(file)
    found: set[tuple[str, str, float]] = set()

    def walk(element: ET.Element, holder: str, seen: frozenset[str]) -> None:
        for group in element:
            if _tag(group) not in _CHILD_LISTS:
                continue
            for child in group:
                target = child
                if _tag(child) == "entryLink":
                    if child.attrib["targetId"] in seen:
                        continue
                    target = ids[child.attrib["targetId"]]
                    seen = seen | {child.attrib["targetId"]}
                name = target.attrib.get("name", "")
                if _tag(target) == "selectionEntry" and _GRENADE_NAME.search(name):
                    least = max(_minimum_here(child), _minimum_here(target))
                    found.add((holder, name, least))
                inner = name if _tag(target) == "selectionEntry" else holder
                walk(target, inner, seen)

    walk(ids[entry_id], ids[entry_id].attrib["name"], frozenset())
    return found


def _minimum_here(element: ET.Element) -> float:
    """The min constraint of ``element`` itself (not of its children)."""
    for group in element:
        if _tag(group) == "constraints":
            holder = ET.Element("x")
            holder.extend(list(group))
            return _minimum(holder)
    return 0.0


def _always(file: str, entry_id: str, selection: str) -> set[str]:
    """The entries under ``entry_id`` that always have ``selection`` (min 1 or more)."""
    return {h for h, s, least in _grenade_selections(file, entry_id) if s == selection and least}


ORKS = "Orks - Codex.cat"
MARINES = "Space Marines - Codex (2015).cat"
GUARD = "Astra Militarum - Codex.cat"
TYRANIDS = "Tyranids - Codex.cat"


@pytest.mark.parametrize(
    ("file", "entry_id", "selection", "holders"),
    [
        (
            ORKS,
            "4dd6a3f9-9019-bd72-8327-51fce1801b0c",  # Boyz
            "Stikkbombs",
            {"Boss Nob", "Boy", "Boy w/ Big Shoota", "Boy w/ Rokkit Launcha"},
        ),
        (ORKS, "c6137555-9b9a-1b5f-32a2-e6856fbdb75b", "Stikkbombs", {"Boss Nob", "Nob"}),
        (ORKS, "7fdf-dcae-ea4d-5e40", "Stikkbombs", {"Warboss"}),
        (
            MARINES,
            "5dc8-7589-0feb-bdda",  # Tactical Squad
            "Frag and Krak Grenades",
            {
                "Space Marine Sergeant",
                "Space Marine",
                "Space Marine (Heavy Weapon)",
                "Space Marine (Special Weapon)",
            },
        ),
        (
            MARINES,
            "aae9-8c44-9063-93f8",  # Devastator Squad
            "Frag and Krak Grenades",
            {"Space Marine Sergeant", "Space Marine (Heavy Weapon)"},
        ),
        (MARINES, "5d06-fec0-cdb5-f771", "Frag and Krak Grenades", {"Power Armour"}),  # Captain
        (
            GUARD,
            "6227-acbe-8b5d-d36d",  # Infantry Squad
            "Frag Grenades",
            {"Sergeant", "Guardsman", "Guardsman w/ Grenade Launcher"},
        ),
        (GUARD, "6227-acbe-8b5d-d36d", "Frag Grenades T", {"Heavy Bolter Team"}),
        (
            GUARD,
            "917aa583-af28-913a-a901-ccfa31726e75",  # Heavy Weapons Squad
            "Frag Grenades T",
            {"Lascannon Team", "Mortar Team"},
        ),
        (GUARD, "1dd3-90aa-6789-cb84", "Frag Grenades", {"Ogryn", "Ogryn Bone 'ead"}),
    ],
)
def test_the_catalogue_gives_these_models_their_grenades(
    file: str, entry_id: str, selection: str, holders: set[str]
) -> None:
    assert holders <= _always(file, entry_id, selection)


def test_krak_grenades_are_only_an_option_for_guardsmen() -> None:
    """The Infantry Squad's "Krak Grenades for Squad" has no minimum: not taken."""
    held = _grenade_selections(GUARD, "6227-acbe-8b5d-d36d")
    assert ("Infantry Squad", "Krak Grenades for Squad", 0.0) in held


@pytest.mark.parametrize(
    ("file", "entry_id"),
    [
        (MARINES, "b5e9-0208-9699-7ed2"),  # Terminator Squad
        (TYRANIDS, "4fffaa9b-b655-5560-b546-2bb3e95c3456"),  # Termagant Brood
        (TYRANIDS, "179cc37d-1d1a-ecbe-0289-12cb8c72b204"),  # Hormagaunt Brood
        (TYRANIDS, "e186fbf2-d4dd-13da-7554-9a199aec26dd"),  # Genestealer Brood
        (TYRANIDS, "3ba7450d-ec7d-c29e-cb76-39872a9c8ead"),  # Carnifex Brood
    ],
)
def test_terminators_and_tyranids_have_no_grenades(file: str, entry_id: str) -> None:
    assert {(s, least) for _, s, least in _grenade_selections(file, entry_id) if least} == set()


def _printed(file: str, profile_id: str) -> dict[str, str]:
    """A profile's Range (inch mark dropped), Strength, AP and Type as printed."""
    _, ids = _catalogue(file)
    chars = _characteristics(ids[profile_id])
    return {
        "Range": chars["Range"].rstrip('"'),
        "S": chars["Strength"],
        "AP": chars["AP"],
        "Type": chars["Type"],
    }


@pytest.mark.parametrize(
    ("unit", "weapon", "file", "profile_id"),
    [
        ("Ork Boyz", "Stikkbombs", ORKS, "10ac3ee4-c530-de10-eed0-253b125b7cf0"),
        ("Tactical Squad", "Frag grenades", MARINES, "fdd8-1a5f-5722-d6ee"),  # .gst
        ("Tactical Squad", "Krak grenades", MARINES, "3bf6-b4f7-6b2f-bb7b"),  # .gst
        ("Infantry Squad", "Frag grenades", GUARD, "6504b864-90fa-59cc-1102-95134a06a894"),
    ],
)
def test_loading_the_library_gives_the_profile_the_catalogue_prints(
    unit: str, weapon: str, file: str, profile_id: str
) -> None:
    (item,) = {w for w in LIBRARY.find(unit).weapons() if w.name == weapon}
    assert dict(item.characteristics) == _printed(file, profile_id)
    assert item.keywords == ("Grenade",)


def test_the_grenades_raise_no_rule_not_implemented_note() -> None:
    """Stikkbombs' "Assault grenades" is resolved by the charge rule: no note."""
    ruleset = get_ruleset("waffle")
    for name in GRENADES_BY_UNIT:
        notes = ruleset.validate_datasheet(LIBRARY.find(name))
        assert not [n for n in notes if "grenade" in n.lower() or "stikk" in n.lower()], name


# --- What the engine does with them -------------------------------------------------


def _unit(uid: str, player: str, sheet: Datasheet, at: list[Vec]) -> Unit:
    """The datasheet's first ``len(at)`` models, its entries in order (each as
    many times as its count), one at each point."""
    models = [e for e in sheet.entries for _ in range(e.count)]
    placed = [Placed(e.profile, e.weapons, p) for e, p in zip(models, at, strict=False)]
    return make_unit(uid, player, placed, name=sheet.name, rules=sheet.rules)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ork Boyz", True),
        ("Nobz", True),
        ("Warboss", True),
        ("Tactical Squad", True),
        ("Space Marine Captain", True),
        ("Infantry Squad", True),
        ("Ogryns", True),
        ("Terminator Squad", False),
        ("Genestealers", False),
        ("Hormagaunts", False),
        ("Carnifex", False),
    ],
)
def test_assault_grenades_for_the_charge_through_difficult_terrain(
    name: str, expected: bool
) -> None:
    """Stikkbombs and frag grenades are assault grenades; krak grenades are not."""
    sheet = LIBRARY.find(name)
    at = row(10.0, 10.0, len(sheet.entries))
    placed = [Placed(e.profile, e.weapons, p) for e, p in zip(sheet.entries, at, strict=True)]
    unit = make_unit("u", A, placed, name=sheet.name, rules=sheet.rules)
    assert [has_assault_grenades(unit, m) for m in unit.models] == [expected] * len(unit.models)


WOODS = box("woods", 25, 12, 35, 14, difficult=True)
"""Across the 6" between a charger at (30, 10) and its target at (30, 16)."""


def _charge_through_the_woods(charger_name: str) -> list[tuple[str, int]]:
    """One model of ``charger_name`` (the library's first model entry) charges a
    library Guardsman (I3) through the woods: 3D6, 6 2 3, highest dropped, 5"; then
    the fight, every To Hit roll a 1. The (unit, Initiative) of each strike."""
    sheet = LIBRARY.find(charger_name)
    charger = _unit("a", A, sheet, [(30.0, 10.0)])
    guard = LIBRARY.find("Infantry Squad").entries[1]  # a Guardsman: I3
    target = make_unit("b", B, [Placed(guard.profile, (CHAINSWORD,), (30.0, 16.0))], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[6, 2, 3, *[1] * 12],
        terrain=[WOODS],
        script_a=[("charger", f"{sheet.name} [a]"), ("charge_target", "Target [b]")],
        script_b=[("charge_reaction", "no reaction")],
        fallback=FirstChoiceController(),
    )
    charge_sub_phase(battle, A)
    fight_sub_phase(battle, A)
    return [(e.unit, e.initiative) for e in of_kind(battle, "blows")]


def test_a_boss_nob_with_stikkbombs_strikes_at_his_initiative_through_the_woods() -> None:
    # The Boss Nob (I3) with stikkbombs: I3, in the same step as the Guardsman (I3).
    assert sorted(_charge_through_the_woods("Ork Boyz")) == [("Ork Boyz [a]", 3), ("Target [b]", 3)]


def test_a_marine_sergeant_with_frag_grenades_strikes_first_through_the_woods() -> None:
    # The Sergeant (I4) with frag grenades strikes before the Guardsman (I3).
    assert _charge_through_the_woods("Tactical Squad") == [
        ("Tactical Squad [a]", 4),
        ("Target [b]", 3),
    ]


@pytest.mark.parametrize("name", ["Genestealers", "Terminator Squad"])
def test_a_charger_without_grenades_strikes_at_initiative_1_through_the_woods(name: str) -> None:
    # A Genestealer (I6) or Terminator Sergeant (I4), no grenades: Initiative 1, after
    # the Guardsman (I3).
    assert _charge_through_the_woods(name) == [("Target [b]", 3), (f"{name} [a]", 1)]


def test_one_marine_of_the_squad_throws_a_grenade_and_only_one() -> None:
    """The first able model throws; after it, neither grenade is offered again."""
    sheet = LIBRARY.find("Tactical Squad")
    squad = _unit("a", A, sheet, row(30.0, 10.0, 10))
    able = list(squad.models)
    assert throwers("Krak grenades", able) == [squad.models[0]]
    assert throwers("Boltgun", able) == able
    spent: Counter[str] = Counter()
    spend(spent, squad, throwers("Krak grenades", able), "Krak grenades")
    assert not any(may_fire(spent, squad, m, "Frag grenades", 1) for m in squad.models)
    assert all(may_fire(spent, squad, m, "Bolt pistol", 1) for m in squad.models[1:])


def test_krak_grenades_are_offered_in_close_combat_only_against_vehicles_and_monsters() -> None:
    marine = _unit("a", A, LIBRARY.find("Tactical Squad"), [(30.0, 10.0)]).models[0]
    boy = _unit("o", A, LIBRARY.find("Ork Boyz"), [(40.0, 10.0)]).models[0]
    foes = {
        name: _unit("b", B, LIBRARY.find(name), [(30.0, 11.0)])
        for name in ("Carnifex", "Leman Russ Battle Tank", "Ork Boyz", "Genestealers")
    }
    offered = {name: [b.name for b in grenade_options(marine, [foe])] for name, foe in foes.items()}
    assert offered == {
        "Carnifex": ["Krak grenades"],
        "Leman Russ Battle Tank": ["Krak grenades"],
        "Ork Boyz": [],
        "Genestealers": [],
    }
    assert grenade_options(boy, [foes["Leman Russ Battle Tank"]]) == []  # stikkbombs: no


def test_the_ai_throws_a_krak_grenade_at_a_carnifex_and_fires_boltguns_at_boyz() -> None:
    """Per firing model, 8" or less from a Carnifex (T6, W4, 3+): the heavy bolter 3 × 2/3
    × 1/3 (S5 v T6) × 1/3 (AP4, 3+) = 0.222 wounds; a krak grenade 2/3 × 1/2 × 1/3
    = 0.111; a boltgun 2 × 2/3 × 1/6 × 1/3 = 0.074; the flamer 1 × 1/6 × 1/3 =
    0.056; a frag grenade 2/3 × 1/6 (S3 v T6) × 1/3 = 0.037, and after the krak
    grenade no second grenade. Not the flamer, whose template aimed at the Carnifex
    would cover the Marine beside its bearer too (worth 1 enemy less twice 1 friend,
    -1: ``shooting_plans.weapon_worth``; until session 22 it fired and hit him). The heavy
    bolter first; then the krak grenade and the boltguns weighed both ways
    (``shooting_plans.weapon_first``, session 23): the krak grenade first is thrown by the
    Sergeant (the first model), who then fires no boltgun: 0.111 + 7 × 0.074; the
    boltguns first, all eight, and the grenade after by a Marine with no boltgun:
    8 × 0.074 + 0.111, more. So: heavy bolter, boltguns (the eight Marines), the
    krak grenade thrown by the flamer's bearer (the heavy bolter's has fired), where
    until session 23 the Sergeant threw it and the flamer's bearer fired his bolt
    pistol, 2/3 × 1/6 × 1/3 = 0.037. 4" from ten Ork Boyz (T4,
    6+): the flamer (three models under a template, the estimate's count) 3 × 1/2
    = 1.5, the heavy bolter 3 × 2/3 × 2/3 = 1.33, a boltgun 2 × 2/3 × 1/2 = 0.667,
    more than a krak grenade (2/3 × 5/6 = 0.556) or a frag grenade (three models
    under the marker, 3 × 2/3 × 1/3 × 5/6 = 0.556 at most): every Marine with a
    boltgun fires it and nobody is left to throw a grenade. Every die rolls 1:
    nothing is hurt."""
    sheet = LIBRARY.find("Tactical Squad")
    for foe, order, shots in [
        (
            "Carnifex",
            ["Heavy bolter", "Boltgun", "Krak grenades"],
            [("Heavy bolter", 1), ("Boltgun", 8), ("Krak grenades", 1)],
        ),
        (
            "Ork Boyz",
            ["Flamer", "Heavy bolter", "Boltgun"],
            [("Heavy bolter", 1), ("Boltgun", 8)],
        ),
    ]:
        marines = _unit("a", A, sheet, row(28.25, 12.0, 10, pitch=1.5))
        at = [(35.0, 16.0)] if foe == "Carnifex" else row(27.0, 16.0, 10)
        target = _unit("b", B, LIBRARY.find(foe), at)
        battle = make_battle(marines, target, dice=[1] * 60, fallback=WaffleAI())
        shooting_attack(battle, marines, target, FireOrders())
        chosen = [e.answer for e in of_kind(battle, "decision") if e.decision == "weapon"]
        assert [c for c in chosen if c != "stop"] == order, foe
        # A template is not a shots event; the others say how many models fired.
        assert [(e.weapon, e.models) for e in of_kind(battle, "shots")] == shots, foe
