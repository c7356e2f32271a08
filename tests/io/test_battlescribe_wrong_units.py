"""Issue 12: the importer never hands over a wrong unit.

Each test is a small hand-made catalogue holding one case seen in unseen
7th-edition catalogues; the expected values are read off the snippet.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.cli import import_cmd
from hammerlab.editions import get_ruleset
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import ImportResult, clear_cache, import_file
from hammerlab.io.battlescribe.saves import invulnerable_in_text
from hammerlab.io.scenario import Scenario

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"


def body(name: str, save: str = "3+", ws: str = "4") -> str:
    """A model profile: WS ``ws``, the rest 4, Save ``save``."""
    values = {"WS": ws} | dict.fromkeys(("BS", "S", "T", "W", "I", "A", "Ld"), "4")
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in (values | {"Save": save}).items()
    )
    return wrapped(name, "Unit", cells)


def wrapped(name: str, type_name: str, cells: str) -> str:
    return (
        f'<profile id="p-{name}" name="{name}" typeName="{type_name}">'
        f"<characteristics>{cells}</characteristics></profile>"
    )


def vehicle(name: str, kind: str = "Tank") -> str:
    values = {"BS": "4", "Front": "12", "Side": "12", "Rear": "10", "HP": "3", "Type": kind}
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in values.items()
    )
    return wrapped(name, "Vehicle", cells)


def gun(
    name: str, range_: str = '24"', strength: str = "4", ap: str = "5", kind: str = "Rapid Fire"
) -> str:
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in {"Range": range_, "Strength": strength, "AP": ap, "Type": kind}.items()
    )
    return wrapped(name, "Weapon", cells)


def text(name: str, description: str) -> str:
    return (
        f'<profile id="p-{name}" name="{name}" typeName="Wargear Item"><characteristics>'
        f'<characteristic name="Description" typeId="t-d">{description}</characteristic>'
        "</characteristics></profile>"
    )


def entry(name: str, kind: str, profiles: str = "", children: str = "", count: int = 1) -> str:
    """A selection entry selected ``count`` times by default (a min constraint)."""
    constraint = (
        f'<constraints><constraint id="min-{name}" field="selections" scope="parent" '
        f'value="{count}" type="min"/></constraints>'
    )
    return (
        f'<selectionEntry id="e-{name}" name="{name}" type="{kind}">'
        f"<profiles>{profiles}</profiles>{constraint}"
        f"<selectionEntries>{children}</selectionEntries></selectionEntry>"
    )


def catalogue(tmp_path: Path, *roots: str) -> Path:
    path = tmp_path / "army.cat"
    path.write_text(
        f'<catalogue id="c" name="Army" xmlns="{CAT_NS}"><selectionEntries>'
        f"{''.join(roots)}</selectionEntries></catalogue>",
        encoding="utf-8",
    )
    clear_cache()
    return path


def imported(tmp_path: Path, *roots: str) -> ImportResult:
    return import_file(catalogue(tmp_path, *roots))


def test_a_root_upgrade_with_a_model_profile_is_a_unit(tmp_path: Path) -> None:
    result = imported(
        tmp_path,
        entry(
            "Daemon Prince",
            "upgrade",
            body("Daemon Prince", "3+/5++"),
            entry("Claws", "upgrade", gun("Claws", "-", "User", "2", "Melee")),
        ),
        entry("Mark of Slaanesh", "upgrade"),  # no model profile: not a unit
    )
    assert [sheet.name for sheet in result.datasheets] == ["Daemon Prince"]
    prince = result.find("Daemon Prince")
    assert [(e.profile.name, e.count, e.profile.invulnerable) for e in prince.entries] == [
        ("Daemon Prince", 1, 5)
    ]
    assert [w.name for w in prince.weapons()] == ["Claws"]
    assert result.reasons("Daemon Prince") == ()


def test_a_unit_with_its_own_profile_and_model_children_keeps_both(tmp_path: Path) -> None:
    # Aun'Va shows his own profile and holds two Honour Guard models; his
    # staff is his, not theirs.
    honour_guard = entry(
        "Honour Guard",
        "model",
        body("Honour Guard"),
        entry("Blade", "upgrade", gun("Blade", "-", "User", "-", "Melee"), count=1),
        count=2,
    )
    result = imported(
        tmp_path,
        entry(
            "Aun'Va",
            "unit",
            body("Aun'Va", ws="2"),
            entry("Staff", "upgrade", gun("Staff", "12", "5", "4", "Assault 1")) + honour_guard,
        ),
    )
    sheet = result.find("Aun'Va")
    assert [(e.profile.name, e.count, [w.name for w in e.weapons]) for e in sheet.entries] == [
        ("Aun'Va", 1, ["Staff"]),
        ("Honour Guard", 2, ["Blade"]),
    ]
    assert sheet.entries[0].profile.get("WS") == "2"


def test_models_named_after_the_units_profile_wear_it(tmp_path: Path) -> None:
    # Astra Militarum Veterans: the unit shows "Veteran", holds nine
    # "Veteran w/ Lasgun" (no profile) and a Veteran Sergeant model.
    veterans = entry(
        "Veteran w/ Lasgun",
        "upgrade",
        children=entry("Lasgun", "upgrade", gun("Lasgun", '24"', "3", "-")),
        count=9,
    )
    sergeant = entry(
        "Veteran Sergeant",
        "upgrade",
        body("Veteran Sergeant"),
        entry("Laspistol", "upgrade", gun("Laspistol", '12"', "3", "-", "Pistol")),
    )
    sheet = imported(
        tmp_path, entry("Veterans", "unit", body("Veteran"), veterans + sergeant)
    ).find("Veterans")
    assert [(e.profile.name, e.count, [w.name for w in e.weapons]) for e in sheet.entries] == [
        ("Veteran", 9, ["Lasgun"]),
        ("Veteran Sergeant", 1, ["Laspistol"]),
    ]


def test_a_vehicle_with_drones_keeps_its_gun_and_its_drones_become_a_unit_of_their_own(
    tmp_path: Path,
) -> None:
    drones = entry(
        "Gun Drone",
        "model",
        body("Gun Drone"),
        entry("Carbine", "upgrade", gun("Carbine", '18"', "5", "5", "Assault 2")),
        count=2,
    )
    result = imported(
        tmp_path,
        entry(
            "Devilfish",
            "unit",
            vehicle("Devilfish", "Tank, Fast, Skimmer, Transport"),
            entry("Burst Cannon", "upgrade", gun("Burst Cannon", '18"', "5", "5", "Assault 4"))
            + drones,
        ),
    )
    sheet, drones = result.find("Devilfish"), result.find("Devilfish: Gun Drone")
    assert [(e.profile.name, e.count, [w.name for w in e.weapons]) for e in sheet.entries] == [
        ("Devilfish", 1, ["Burst Cannon"]),
    ]
    assert [(e.profile.name, e.count, [w.name for w in e.weapons]) for e in drones.entries] == [
        ("Gun Drone", 2, ["Carbine"]),
    ]
    devilfish = sheet.entries[0].profile
    assert devilfish.unit_type == "Vehicle (Tank, Fast, Skimmer, Transport)"
    assert {k: devilfish.get(k) for k in ("BS", "Front", "Side", "Rear", "HP")} == {
        "BS": "4",
        "Front": "12",
        "Side": "12",
        "Rear": "10",
        "HP": "3",
    }
    # the hull and its drones are two units (7th edition: detached drones are a unit of
    # their own), both playable, each with a note naming the other
    assert result.reasons("Devilfish") == result.reasons("Devilfish: Gun Drone") == ()
    assert (
        "Its models other than vehicles ('Gun Drone', x2) are a unit of their own (7th "
        "edition has no unit of both): imported as the datasheet 'Devilfish: Gun Drone'."
    ) in sheet.notes
    assert drones.notes[0] == (
        "Split from 'Devilfish', which holds both vehicles and other models (7th edition "
        "has no unit of both); that unit's rules stay with 'Devilfish'."
    )
    assert [s.name for s in result.datasheets] == ["Devilfish", "Devilfish: Gun Drone"]


def test_an_invulnerable_save_in_another_items_description_is_not_applied(tmp_path: Path) -> None:
    reactor = entry(
        "Nova Reactor",
        "upgrade",
        text("Nova Reactor", "Nova-charge: the Riptide has a 3+ invulnerable save."),
    )
    shield = entry(
        "Shield Generator",
        "upgrade",
        text("Shield Generator", "A shield generator confers a 5+ invulnerable save."),
    )
    sheet = imported(
        tmp_path, entry("Riptide", "unit", body("Riptide", "2+"), reactor + shield)
    ).find("Riptide")
    assert (
        sheet.entries[0].profile.invulnerable == 5
    )  # the generator's own text, not the reactor's 3+
    assert any(
        n.startswith("'Nova Reactor' describes an invulnerable save without naming itself")
        for n in sheet.notes
    )


def test_twin_linked_without_the_hyphen_is_read(tmp_path: Path) -> None:
    sheet = imported(
        tmp_path,
        entry(
            "Hero",
            "model",
            body("Hero"),
            entry("Gun", "upgrade", gun("Twin Gun", kind="Assault 2, Twin Linked")),
        ),
    ).find("Hero")
    twin = sheet.weapons()[0]
    assert twin.get("Type") == "Assault 2, Twin-linked"
    assert weapon_of(twin).has_rule("Twin-linked") and not weapon_of(twin).unsupported_rules()


def test_dice_shots_are_dropped_with_a_note_and_the_unit_plays_with_the_rest(
    tmp_path: Path,
) -> None:
    result = imported(
        tmp_path,
        entry(
            "Lootas",
            "unit",
            children=entry(
                "Loota",
                "model",
                body("Loota"),
                entry("Deffgun", "upgrade", gun("Deffgun", "48", "7", "4", "Assault D3"))
                + entry("Choppa", "upgrade", gun("Choppa", "-", "User", "-", "Melee")),
                count=5,
            ),
        ),
    )
    sheet = result.find("Lootas")
    assert [w.name for w in sheet.weapons()] == ["Choppa"]
    assert (
        "Weapon 'Deffgun' cannot be used by the Waffle Edition: its shots 'D3' are dice, "
        "which it does not roll; dropped." in sheet.notes
    )
    assert result.reasons("Lootas") == ()


def test_a_range_written_as_modes_keeps_the_first(tmp_path: Path) -> None:
    sheet = imported(
        tmp_path,
        entry(
            "Hero",
            "model",
            body("Hero"),
            entry("Whip", "upgrade", gun("Whip", '8" / -', "4", "5", "Assault 1")),
        ),
    ).find("Hero")
    assert sheet.weapons()[0].get("Range") == "8"
    assert (
        "Weapon 'Whip' is written with several modes (Range '8\" / -'); only the first is read."
        in sheet.notes
    )


def test_firing_modes_and_grenades_are_kept_as_modes_and_grenades(tmp_path: Path) -> None:
    launcher = entry(
        "Missile Launcher",
        "upgrade",
        gun("Frag Missile", '48"', "4", "6", "Heavy 1, Blast")
        + gun("Krak Missile", '48"', "8", "3", "Heavy 1"),
    )
    nova = entry(
        "Burst Cannon",
        "upgrade",
        gun("Burst Cannon (Nova)", '18"', "5", "5", "Assault 8")
        + gun("Burst Cannon (Standard)", '18"', "5", "5", "Assault 4"),
    )
    grenades = entry(
        "Frag and Krak Grenades",
        "upgrade",
        gun("Frag Grenades", '8"', "3", "-", "Assault 1, Blast")
        + gun("Krak Grenades", '8"', "6", "4", "Assault 1"),
    )
    sheet = imported(
        tmp_path,
        entry(
            "Squad",
            "unit",
            children=entry("Marine", "model", body("Marine"), launcher + nova + grenades, count=5),
        ),
    ).find("Squad")
    modes = {w.name: (w.mode_of, "Grenade" in w.keywords) for w in sheet.weapons()}
    assert modes == {
        "Frag Missile": ("Missile Launcher", False),
        "Krak Missile": ("Missile Launcher", False),
        "Burst Cannon (Nova)": ("Burst Cannon", False),
        "Burst Cannon (Standard)": ("Burst Cannon", False),
        "Frag Grenades": ("Frag and Krak Grenades", True),
        "Krak Grenades": ("Frag and Krak Grenades", True),
    }
    assert any(
        n.startswith("'Missile Launcher' has several firing modes ('Frag Missile', 'Krak Missile')")
        for n in sheet.notes
    )
    assert any(n.startswith("Weapon 'Krak Grenades' is a grenade") for n in sheet.notes)


def test_a_starred_save_reads_its_armour_save_only(tmp_path: Path) -> None:
    sheet = imported(tmp_path, entry("Hero", "model", body("Hero", "2+/4++*"))).find("Hero")
    profile = sheet.entries[0].profile
    assert (profile.get("Sv"), profile.invulnerable) == ("2+", None)
    assert (
        "Hero: save '2+/4++*' is marked '*' (a condition stated elsewhere): armour save '2+' "
        "read; its 4++ is not applied." in sheet.notes
    )


def test_a_scenario_refuses_an_unplayable_unit_at_load_time(tmp_path: Path) -> None:
    path = catalogue(tmp_path, entry("Mek Gun", "unit", body("Mek Gun", ws="D6")))
    spec = Scenario.model_validate(
        {
            "name": "refused",
            "ruleset": "waffle",
            "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
            "units": [
                {
                    "id": "gun",
                    "player": "A",
                    "unit": "Mek Gun",
                    "source": path.name,
                    "position": [36, 16],
                },
                {"id": "boyz", "player": "B", "unit": "Ork Boyz", "position": [36, 28]},
            ],
        }
    )
    with pytest.raises(InputError) as refused:
        prepare(spec, str(tmp_path / "scenario.toml"))
    assert str(refused.value) == (
        f"{tmp_path / 'scenario.toml'}: units[0].unit: "
        f"{path}: unit 'Mek Gun': cannot be played: model 'Mek Gun': WS 'D6' is not a number"
    )


def test_import_json_says_whether_each_unit_plays_and_lists_model_rules(tmp_path: Path) -> None:
    rule = (
        '<rules><rule id="r-fnp" name="Feel No Pain">'
        "<description>A 5+ roll.</description></rule></rules>"
    )
    sergeant = (
        '<selectionEntry id="e-sgt" name="Sergeant" type="model">'
        f"<profiles>{body('Sergeant')}</profiles>{rule}<constraints>"
        '<constraint id="m" field="selections" scope="parent" value="1" type="min"/>'
        "</constraints>"
        "</selectionEntry>"
    )
    path = catalogue(
        tmp_path,
        entry(
            "Squad", "unit", children=sergeant + entry("Trooper", "model", body("Trooper"), count=4)
        ),
        entry("Tank", "unit", vehicle("Tank")),
        entry("Jet", "unit", vehicle("Jet", "Flyer, Hover")),
        entry("Bunker", "unit", vehicle("Bunker", "Building")),
    )
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """A stand-in for the hammerlab app."""

    import_cmd.register(app)
    result = CliRunner().invoke(app, ["import", str(path), "--json"])
    assert result.exit_code == 0, result.output
    units = {unit["name"]: unit for unit in json.loads(result.stdout)}
    assert (units["Squad"]["playable"], "reasons" in units["Squad"]) == (True, False)
    assert [(p["name"], p["rules"]) for p in units["Squad"]["profiles"]] == [
        ("Sergeant", ["Feel No Pain"]),
        ("Trooper", []),
    ]
    tank = units["Tank"]["profiles"][0]
    assert units["Tank"]["playable"] is True
    assert (tank["unit_type"], tank["Front"], tank["Side"], tank["Rear"], tank["HP"]) == (
        "Vehicle (Tank)",
        "12",
        "12",
        "10",
        "3",
    )
    assert (units["Jet"]["playable"], units["Jet"]["profiles"][0]["unit_type"]) == (
        True,
        "Vehicle (Flyer, Hover)",
    )
    assert (units["Bunker"]["playable"], units["Bunker"]["reasons"]) == (
        False,
        ["building vehicles are not modelled"],
    )
    text = CliRunner().invoke(app, ["import", str(path)], env={"COLUMNS": "200"})
    assert "Rules of 'Sergeant': Feel No Pain" in text.stdout
    assert "Vehicle Tank: Front 12, Side 12, Rear 10, HP 3" in text.stdout
    assert "Not playable: building vehicles are not modelled" in text.stdout


# --- a rule wholly applied as the invulnerable save is not "not implemented" -------------

HALO = entry(
    "Iron Halo", "upgrade", text("Iron Halo", "An iron halo confers a 4+ invulnerable save.")
)


def test_a_rule_that_only_grants_the_invulnerable_save_is_applied_not_reported(
    tmp_path: Path,
) -> None:
    sheet = imported(tmp_path, entry("Hero", "unit", body("Hero", "3+"), HALO)).find("Hero")
    assert sheet.entries[0].profile.invulnerable == 4
    assert "Iron Halo" not in [*sheet.rules, *sheet.entries[0].rules]
    assert "'Iron Halo': applied as a 4+ invulnerable save." in sheet.notes
    assert get_ruleset("waffle").validate_datasheet(sheet) == []


def test_a_rule_that_does_more_than_the_save_stays_among_the_rules(tmp_path: Path) -> None:
    # The 7th-edition storm shield: its 3+ is applied, the rest of its text is not,
    # so it stays a rule the Waffle Edition reports; the halo's 4+ is bettered by it.
    shield = entry(
        "Storm Shield",
        "upgrade",
        text(
            "Storm Shield",
            "A storm shield confers a 3+ invulnerable save. In addition, a model with a "
            "storm shield can never claim the +1 Attack for two Melee weapons.",
        ),
    )
    hero = entry("Hero", "unit", body("Hero", "3+"), HALO + shield)
    sheet = imported(tmp_path, hero).find("Hero")
    assert sheet.entries[0].profile.invulnerable == 3
    assert "Storm Shield" in sheet.rules and "Iron Halo" not in sheet.rules
    assert "'Iron Halo': its 4+ invulnerable save is applied, bettered by a 3+." in sheet.notes
    assert get_ruleset("waffle").validate_datasheet(sheet) == [
        "special rule not implemented: Storm Shield"
    ]


@pytest.mark.parametrize(
    ("sentence", "whole"),
    [
        ("An iron halo confers a 4+ Invulnerable Save.", True),
        ("Zoanthropes have a 3+ invulnerable save.", True),
        ("A model with this special rule has a 5+ invulnerable save.", True),
        (
            "A model in Tartaros Terminator Armour has the Deep Strike, Relentless and Bulky "
            "special rules and a 5+ invulnerable save.",
            False,
        ),
        ("Terminator armour confers a 2+ Armour Save and a 5+ Invulnerable save.", False),
        ("A rosarius confers a 4+ invulnerable save. It glows.", False),
    ],
)
def test_a_text_is_wholly_a_save_only_when_it_grants_nothing_else(
    sentence: str, whole: bool
) -> None:
    assert invulnerable_in_text(sentence).whole is whole
