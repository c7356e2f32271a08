"""The first commands a new user types: finding units, showing odd names.

Expected unit lists were read by hand from the built-in library files
(``src/hammerlab/library/waffle/*.toml``: the ``army`` line and each unit's
``name``).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hammerlab.cli.app import app

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
ORKS = ["Nobz", "Ork Boyz", "Warboss"]
"""src/hammerlab/library/waffle/orks.toml: army "Orks", three units."""


def listed(*args: str) -> list[str]:
    """The Unit column of ``hammerlab units ARGS`` (under its ``Unit  Army`` header and
    rule), or the lines it prints where it lists no unit."""
    result = CliRunner().invoke(app, ["units", *args])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    if not lines or lines[0].split() != ["Unit", "Army"]:
        return lines
    return [line.split("  ")[0] for line in lines[2:]]


def test_units_orks_finds_the_ork_army_by_its_name() -> None:
    # No unit name contains "orks"; the army's name does.
    assert listed("orks") == ORKS


def test_units_army_option_keeps_one_army() -> None:
    assert listed("--army", "orks") == ORKS
    assert listed("boyz", "--army", "Orks") == ["Ork Boyz"]
    assert listed("Squad", "--army", "orks") == ["no waffle unit matches 'Squad' in army 'orks'"]


def test_units_name_query_still_matches_names_across_armies() -> None:
    # "Squad": Infantry, Heavy Weapons, Mortar (Astra Militarum); Tactical (two
    # loadouts), Devastator, Terminator (Space Marines).
    assert listed("squad") == [
        "Devastator Squad",
        "Heavy Weapons Squad",
        "Infantry Squad",
        "Mortar Squad",
        "Tactical Squad",
        "Tactical Squad (meltagun, lascannon)",
        "Terminator Squad",
    ]


def test_units_core11_finds_ork_units_by_faction() -> None:
    # wh40kdc's embedded dataset: faction id "orks"; Boyz and Warboss are Ork units.
    names = listed("orks", "--ruleset", "core11")
    assert {"Boyz", "Warboss"} <= set(names)
    assert listed("--army", "orks", "--ruleset", "core11") == names
    # Intercessors are Adeptus Astartes, not Orks.
    assert "Intercessor Squad" not in names
    assert "Intercessor Squad" in listed("intercessor", "--ruleset", "core11")


def test_show_from_a_file_prints_markup_in_names_as_written(tmp_path: Path) -> None:
    # Before: "[/]" in a unit name raised rich's MarkupError (a traceback).
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in {
            **dict.fromkeys(("WS", "BS", "S", "T", "W", "I", "A", "Ld"), "4"),
            "Save": "[/]",
        }.items()
    )
    weapon = "".join(
        f'<characteristic name="{key}" typeId="w-{key}">{value}</characteristic>'
        for key, value in {"Range": "24", "Strength": "4", "AP": "5", "Type": "[bold]"}.items()
    )
    path = tmp_path / "army.cat"
    path.write_text(
        f'<catalogue id="c" name="Army [/red]" xmlns="{CAT_NS}"><sharedSelectionEntries>'
        '<selectionEntry id="u" name="Boss [/]" type="unit"><profiles>'
        f'<profile id="p" name="Boss [/]" typeName="Unit"><characteristics>{cells}'
        "</characteristics></profile>"
        f'<profile id="w" name="Gun [/x]" typeName="Weapon"><characteristics>{weapon}'
        "</characteristics></profile></profiles></selectionEntry>"
        "</sharedSelectionEntries></catalogue>"
    )
    result = CliRunner().invoke(app, ["show", "--from", str(path), "Boss [/]"])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    for text in ("Boss [/]", "Army [/red]", "Gun [/x]", "[bold]", "[/]"):
        assert text in result.stdout, text
