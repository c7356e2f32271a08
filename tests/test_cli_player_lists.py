"""What a player reads in the lists: each unit's army, each model's weapons, tables
whole in a pipe, and why a weapon is not offered.

From a player's findings (review 2, item 8): ``hammerlab units`` printed bare names,
so ``units -r core11 --army "space marines"`` listed Abaddon the Despoiler (Chaos
Space Marines) with nothing to tell him from a loyal Marine; ``show`` never said
which model carries which weapon; rich tables piped into a file were cut at 80
columns (``CLOSE-QUAR…``, ``Bolt Rifle (Saturatio…``).

The expected values are read from the data by hand: the Orks library file's three
units (``src/hammerlab/library/waffle/orks.toml``: Ork Boyz, Nobz, Warboss, army
Orks); the Tactical Squad's entries in ``space_marines.toml`` (each ``weapons =``
list); the wh40kdc dataset's Abaddon the Despoiler, of the faction Chaos Space
Marines, and the Intercessor Squad's Bolt Pistol (keyword CLOSE-QUARTERS) and Bolt
Rifle (Saturation) (keywords ASSAULT, RAPID FIRE 1).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from cli_kit import run
from hammerlab.cli.app import app

RUINS = Path(__file__).resolve().parents[1] / "examples" / "marines_vs_orks_ruins.toml"
THREE_TURNS = RUINS.parent / "whole_game_three_turns.toml"
PROMPTED = ["--controller", "prompt", "--side", "Ultramarines"]


def _rows(text: str) -> list[list[str]]:
    """The rows of a plain two-column listing, split on runs of two or more spaces."""
    return [[cell for cell in line.split("  ") if cell.strip()] for line in text.splitlines()]


def test_units_lists_each_unit_with_its_army() -> None:
    code, out, err = run("units", "--army", "orks")
    assert code == 0, err
    rows = [[cell.strip() for cell in row] for row in _rows(out)]
    assert rows[0] == ["Unit", "Army"]
    assert rows[2:] == [["Nobz", "Orks"], ["Ork Boyz", "Orks"], ["Warboss", "Orks"]]
    assert "part of the name" not in out  # 'orks' names the Orks whole


def test_units_says_which_army_a_partial_army_name_matched() -> None:
    code, out, err = run("units", "-r", "core11", "--army", "space marines")
    assert code == 0, err
    abaddon = next(line for line in out.splitlines() if line.startswith("Abaddon"))
    assert abaddon.split("  ")[-1].strip() == "Chaos Space Marines"
    assert out.rstrip().splitlines()[-1] == (
        "--army 'space marines' is part of the name of: Chaos Space Marines"
    )
    code, out, err = run("units", "-r", "core11", "--army", "space marines", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert {"name": "Abaddon the Despoiler", "army": "Chaos Space Marines"} in document["units"]
    assert document["armies_matched_in_part"] == ["Chaos Space Marines"]


def test_units_json_gives_each_unit_its_army() -> None:
    code, out, err = run("units", "--army", "orks", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["units"] == [
        {"name": "Nobz", "army": "Orks"},
        {"name": "Ork Boyz", "army": "Orks"},
        {"name": "Warboss", "army": "Orks"},
    ]
    assert document["armies_matched_in_part"] == []


def test_show_says_which_model_carries_which_weapon() -> None:
    code, out, err = run("show", "Tactical Squad")
    assert code == 0, err
    flat = " ".join(out.split())  # lines wrapped at the width of the terminal
    for model, weapons in [
        ("Space Marine Sergeant", "Boltgun, Bolt pistol, Frag grenades, Krak grenades"),
        ("Space Marine (heavy bolter)", "Heavy bolter, Bolt pistol, Frag grenades, Krak grenades"),
        ("Space Marine (flamer)", "Flamer, Bolt pistol, Frag grenades, Krak grenades"),
    ]:
        assert f"Weapons of '{model}': {weapons}" in flat
    code, out, err = run("show", "Tactical Squad", "--json")
    assert code == 0, err
    carried = {m["name"]: m["weapons"] for m in json.loads(out)["models"]}
    assert carried["Space Marine (heavy bolter)"] == [
        "Heavy bolter",
        "Bolt pistol",
        "Frag grenades",
        "Krak grenades",
    ]


def test_a_table_piped_into_a_file_is_not_cut_at_80_columns() -> None:
    result = CliRunner().invoke(
        app, ["show", "-r", "core11", "Intercessor Squad"], env={"COLUMNS": None}
    )
    assert result.exit_code == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│ Bolt ")]
    assert any("Bolt Rifle (Saturation)" in r and "ASSAULT, RAPID FIRE 1" in r for r in rows)
    assert any("Bolt Pistol" in r and "CLOSE-QUARTERS" in r for r in rows)
    assert "…" not in result.stdout


def test_the_weapon_prompt_says_why_a_weapon_is_not_offered() -> None:
    # The ruins example's Devastators have moved (status moved = true): their
    # missile launcher's frag mode is a Blast (space_marines.toml), which cannot fire
    # Snap Shots (docs/rules/waffle.md: "Snap Shots: Template, Ordnance, Blast and no-BS
    # attacks cannot"), so only the
    # krak mode and the Sergeant's boltgun are offered; the frag mode's reason is
    # said under the choices, where the player reads them. The Tactical Squad's
    # grenades (range 8") are left out while no Ork stands within 8".
    result = CliRunner().invoke(
        app,
        ["battle", str(RUINS), "--seed", "1", "--no-dice", *PROMPTED],
        input="\n" * 40,
        env={"COLUMNS": "300"},
    )
    out = result.stdout
    devastators = out[out.index("Select a weapon for Devastator Squad") :]
    asked = devastators[: devastators.index("choice [")]
    assert "Missile launcher (krak)" in asked
    assert "  not offered: Missile launcher (frag) cannot be fired as Snap Shots" in asked
    assert '  not offered: Frag grenades: out of range (8"; the nearest target model is ' in out


def test_the_shooting_prompts_begin_with_words_not_seed_step_numbers() -> None:
    # A stranger's review (s24): "Orks: 8. Nobz [nobz] was hit by ...: react?" sat over
    # the numbered choices "1."/"2.", and read as one of them: 8 was step 8 of seed
    # 000's Shooting Sequence (Reaction to Shooting), as 1, 2 and 3 prefixed
    # Nominate, Choose a Target and Select a Weapon. The other prompts of a game carry
    # no number; now none does. The reaction prompt is the one the review met (seed 2,
    # the Orks played by hand), its words kept; the Ultramarines meet the other three.
    orks = CliRunner().invoke(
        app,
        ["battle", str(THREE_TURNS), "--seed", "2", "--no-dice", *PROMPTED[:2], "--side", "Orks"],
        input="1\n1\n",
        env={"COLUMNS": "300"},
    )
    marines = CliRunner().invoke(
        app,
        ["battle", str(RUINS), "--seed", "1", "--no-dice", *PROMPTED],
        input="\n" * 40,
        env={"COLUMNS": "300"},
    )
    asked = [
        line
        for line in (orks.stdout + marines.stdout).splitlines()
        if line.startswith(("Orks: ", "Ultramarines: "))
    ]
    assert "Orks: Nobz [nobz] was hit by Tactical Squad [tactical]: react?" in asked
    for words in ("Nominate a unit to shoot", "Choose a target for", "Select a weapon for"):
        assert any(line.startswith(f"Ultramarines: {words}") for line in asked), words
    assert not [line for line in asked if re.match(r"\w+: \d+\. ", line)]
