"""``hammerlab import PATH [--json]``: what a BattleScribe file holds.

Lists each unit with its model profiles (and each model's own rules and psychic
powers), weapons, whether the Waffle Edition can play it (and why not), and the notes on what
could not be mapped, as rich tables or (``--json``) as a JSON list for tools.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from hammerlab.cli.common import OnceCommand, console, progress

if TYPE_CHECKING:
    from rich.console import Console

    from hammerlab.editions.base import Ruleset
    from hammerlab.engine.datasheet import Datasheet
    from hammerlab.io.battlescribe import ImportResult

WEAPON_JSON_LABELS = ("range", "strength", "ap", "type")
"""Keys in the JSON output of the weapon characteristics ``Range S AP Type``."""


def register(app: typer.Typer) -> None:
    """Add the ``import`` command to ``app``."""
    app.command("import", cls=OnceCommand)(import_command)


def import_command(
    path: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="A BattleScribe .cat, .gst, .ros or .rosz file."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the units as JSON.")] = False,
) -> None:
    """Import a BattleScribe file and show its units and what was not mapped.

    Example: hammerlab import "tests/data/bsdata-7e/Orks - Codex.cat" --json

    (From the repository's root: a real catalogue kept for the tests.)
    """
    from hammerlab.errors import HammerlabError
    from hammerlab.io.battlescribe import import_file
    from hammerlab.io.battlescribe.source import printable

    try:
        with progress(f"importing {printable(path.name)}", None, quiet=as_json):
            result = import_file(path)
    except HammerlabError as error:
        typer.echo(f"error: {printable(str(error))}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(units_json(result), indent=2, ensure_ascii=False))
    else:
        print_result(result, console)


def units_json(result: ImportResult) -> list[dict[str, Any]]:
    """The units of ``result`` as plain JSON data."""
    from hammerlab.editions import get_ruleset
    from hammerlab.io.battlescribe.gear import GRENADE
    from hammerlab.io.battlescribe.profiles import MODEL_KEYS, VEHICLE_KEYS, WEAPON_KEYS

    labels = dict(zip(WEAPON_KEYS, WEAPON_JSON_LABELS, strict=True))
    armour = VEHICLE_KEYS[1:]  # a vehicle's Front Side Rear HP (its BS is a model key)
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
                    **{
                        key: entry.profile.get(key)
                        for key in armour
                        if key in entry.profile.characteristics
                    },
                    "rules": list(entry.rules),
                    "type_rules": list(get_ruleset(sheet.edition).type_rules(entry.profile)),
                    **({"powers": [p.name for p in entry.powers]} if entry.powers else {}),
                }
                for entry in sheet.entries
            ],
            "weapons": [
                {"name": weapon.name}
                | {label: weapon.get(key) for key, label in labels.items()}
                | ({"mode_of": weapon.mode_of} if weapon.mode_of else {})
                | ({"grenade": True} if GRENADE in weapon.keywords else {})
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
    """Each unit's profiles and weapons as plain-text tables, its notes, then the totals.

    A catalogue holds hundreds of units; rich tables (which measure and wrap
    every cell) took longer to draw than the import itself, so the tables are
    plain columns (:func:`render.plain_table`) written in one piece.
    """
    from hammerlab.cli.render import plain_table
    from hammerlab.editions import get_ruleset
    from hammerlab.io.battlescribe.profiles import MODEL_KEYS, VEHICLE_KEYS, WEAPON_KEYS

    lines: list[str] = []
    for sheet in result.datasheets:
        lines.append(f"== {sheet.name}  ({sheet.army})")
        if sheet.entries:
            rows = [
                (
                    str(e.count),
                    e.profile.name,
                    *(e.profile.get(key) for key in MODEL_KEYS),
                    f"{e.profile.invulnerable}++" if e.profile.invulnerable else "",
                    e.profile.unit_type,
                )
                for e in sheet.entries
            ]
            lines.append(plain_table(("#", "Model", *MODEL_KEYS, "Inv", "Type"), rows))
            lines += [
                f"Vehicle {e.profile.name}: "
                + ", ".join(f"{key} {e.profile.get(key)}" for key in VEHICLE_KEYS[1:])
                for e in sheet.entries
                if "Front" in e.profile.characteristics
            ]
        if sheet.weapons():
            rows = [(w.name, *(w.get(key) for key in WEAPON_KEYS)) for w in sheet.weapons()]
            lines.append(plain_table(("Weapon", *WEAPON_KEYS), rows))
        if sheet.rules:
            lines.append(f"Rules: {', '.join(sheet.rules)}")
        lines += model_rule_lines(sheet, get_ruleset(sheet.edition))
        for powers in power_tables(sheet):
            lines.append(f"Psychic powers of {powers.model!r}:")
            lines.append(plain_table(powers.headers, powers.rows))
            lines += powers.details
        reasons = result.reasons(sheet.name)
        if reasons:
            lines.append(f"Not playable: {'; '.join(reasons)}")
        lines += [f"  note: {note}" for note in sheet.notes]
    lines += [f"note: {note}" for note in result.notes]
    notes = sum(len(sheet.notes) for sheet in result.datasheets)
    playable = sum(1 for sheet in result.datasheets if not result.reasons(sheet.name))
    lines.append(
        f"{len(result.datasheets)} units ({playable} playable), "
        f"{result.weapon_profiles} weapon profiles, "
        f"{notes} notes on what was not mapped ({result.kind} {result.source})"
    )
    console.out("\n".join(lines), highlight=False)


def model_rule_lines(sheet: Datasheet, ruleset: Ruleset) -> list[str]:
    """``Rules of 'Veteran Sergeant': Feel No Pain`` for each model with rules of its
    own, then ``Rules of 'Carnifex' by its unit type (Monstrous Creature): Fear, ...``
    for each model ``ruleset`` gives rules by its unit type."""
    own = [
        f"Rules of {entry.profile.name!r}: {', '.join(entry.rules)}"
        for entry in sheet.entries
        if entry.rules
    ]
    return own + [
        f"Rules of {entry.profile.name!r} by its unit type ({entry.profile.unit_type}): "
        + ", ".join(given)
        for entry in sheet.entries
        if (given := ruleset.type_rules(entry.profile))
    ]


class PowerTable(NamedTuple):
    """The psychic powers one model knows, as ``import`` and ``show`` print them."""

    model: str
    headers: tuple[str, ...]
    """``Power``, then every characteristic its powers have but ``Details``, in the
    order first written (``Warp Charge``, ``Power Category``, ``Range``...)."""
    rows: list[tuple[str, ...]]
    """One per power; ``-`` where it lacks a characteristic (a Blessing's Strength)."""
    details: list[str]
    """``5 - Endurance: Whilst the power is in effect, ...`` for each power with
    ``Details``: a sentence too long for a column."""


POWER_DETAILS = "Details"
"""The characteristic of a psychic power that says, in words, what it does."""


def power_tables(sheet: Datasheet) -> list[PowerTable]:
    """A :class:`PowerTable` for each model of ``sheet`` that knows psychic powers
    (``ModelEntry.powers``). ``import`` and ``show`` print them as they print
    weapons: a roster's selected discipline is what its psyker can manifest, and
    ``--json`` alone showed it."""
    tables = []
    for entry in sheet.entries:
        if not entry.powers:
            continue
        keys: list[str] = []
        for power in entry.powers:
            keys += [k for k in power.characteristics if k not in keys and k != POWER_DETAILS]
        rows = [(power.name, *(power.get(k) or "-" for k in keys)) for power in entry.powers]
        details = [
            f"{power.name}: {power.get(POWER_DETAILS)}"
            for power in entry.powers
            if power.get(POWER_DETAILS)
        ]
        tables.append(PowerTable(entry.profile.name, ("Power", *keys), rows, details))
    return tables
