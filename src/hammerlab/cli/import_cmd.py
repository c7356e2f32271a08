"""``hammerlab import PATH [--json]``: what a BattleScribe file holds.

Lists each unit with its model profiles (and each model's own rules), weapons,
whether the Waffle Edition can play it (and why not), and the notes on what
could not be mapped, as rich tables or (``--json``) as a JSON list for tools.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from hammerlab.engine.datasheet import Datasheet
from hammerlab.errors import HammerlabError
from hammerlab.io.battlescribe import ImportResult, import_file
from hammerlab.io.battlescribe.profiles import MODEL_KEYS, WEAPON_KEYS
from hammerlab.io.battlescribe.source import printable

WEAPON_JSON_KEYS = dict(zip(WEAPON_KEYS, ("range", "strength", "ap", "type"), strict=True))
"""Weapon characteristic → key in the JSON output."""


def register(app: typer.Typer) -> None:
    """Add the ``import`` command to ``app``."""
    app.command("import")(import_command)


def import_command(
    path: Annotated[Path, typer.Argument(help="A BattleScribe .cat, .gst, .ros or .rosz file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the units as JSON.")] = False,
) -> None:
    """Import a BattleScribe file and show its units and what was not mapped."""
    try:
        result = import_file(path)
    except HammerlabError as error:
        typer.echo(f"error: {printable(str(error))}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(units_json(result), indent=2, ensure_ascii=False))
    else:
        print_result(result, Console())


def units_json(result: ImportResult) -> list[dict[str, Any]]:
    """The units of ``result`` as plain JSON data."""
    return [
        {
            "name": sheet.name,
            "army": sheet.army,
            "profiles": [
                {
                    "name": entry.profile.name,
                    "count": entry.count,
                    "unit_type": entry.profile.unit_type,
                    "invulnerable": entry.profile.invulnerable,
                    **{key: entry.profile.get(key) for key in MODEL_KEYS},
                    "rules": list(entry.rules),
                }
                for entry in sheet.entries
            ],
            "weapons": [
                {"name": weapon.name}
                | {label: weapon.get(key) for key, label in WEAPON_JSON_KEYS.items()}
                for weapon in sheet.weapons()
            ],
            "rules": list(sheet.rules),
            "playable": not result.reasons(sheet.name),
            **({"reasons": list(reasons)} if (reasons := result.reasons(sheet.name)) else {}),
            "notes": list(sheet.notes),
        }
        for sheet in result.datasheets
    ]


def print_result(result: ImportResult, console: Console) -> None:
    """Tables of each unit's profiles and weapons, its notes, then the totals."""
    for sheet in result.datasheets:
        console.rule(f"[bold]{escape(sheet.name)}[/bold]  ({escape(sheet.army)})")
        if sheet.entries:
            console.print(_profile_table(sheet))
        if sheet.weapons():
            console.print(_weapon_table(sheet))
        if sheet.rules:
            console.print(f"Rules: {', '.join(sheet.rules)}", markup=False)
        for line in model_rule_lines(sheet):
            console.print(line, markup=False)
        reasons = result.reasons(sheet.name)
        if reasons:
            console.print(f"Not playable: {'; '.join(reasons)}", style="red", markup=False)
        for note in sheet.notes:
            console.print(f"  note: {note}", style="yellow", markup=False)
    for note in result.notes:
        console.print(f"note: {note}", style="yellow", markup=False)
    notes = sum(len(sheet.notes) for sheet in result.datasheets)
    playable = sum(1 for sheet in result.datasheets if not result.reasons(sheet.name))
    console.print(
        f"{len(result.datasheets)} units ({playable} playable), "
        f"{result.weapon_profiles} weapon profiles, "
        f"{notes} notes on what was not mapped ({result.kind} {result.source})",
        markup=False,
    )


def model_rule_lines(sheet: Datasheet) -> list[str]:
    """``Rules of 'Veteran Sergeant': Feel No Pain`` for each model with rules of its own."""
    return [
        f"Rules of {entry.profile.name!r}: {', '.join(entry.rules)}"
        for entry in sheet.entries
        if entry.rules
    ]


def _profile_table(sheet: Datasheet) -> Table:
    table = Table("#", "Model", *MODEL_KEYS, "Inv", "Type", title_justify="left")
    for entry in sheet.entries:
        profile = entry.profile
        invulnerable = f"{profile.invulnerable}++" if profile.invulnerable else ""
        cells = (
            str(entry.count),
            profile.name,
            *(profile.get(key) for key in MODEL_KEYS),
            invulnerable,
            profile.unit_type,
        )
        table.add_row(*map(Text, cells))
    return table


def _weapon_table(sheet: Datasheet) -> Table:
    table = Table("Weapon", *WEAPON_KEYS)
    for weapon in sheet.weapons():
        table.add_row(*map(Text, (weapon.name, *(weapon.get(key) for key in WEAPON_KEYS))))
    return table
