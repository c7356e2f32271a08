"""``hammerlab units``, ``show`` and ``rulesets``: what the unit libraries and the
rulesets hold. Imported only when one of those commands runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from hammerlab.cli.battle_cmd import load_plugins
from hammerlab.cli.common import console, fail, print_table
from hammerlab.cli.import_cmd import model_rule_lines, power_tables
from hammerlab.cli.render import plain_table
from hammerlab.editions import get_ruleset, ruleset_names
from hammerlab.editions.base import Ruleset, describe_ruleset
from hammerlab.engine.datasheet import Datasheet, edition_problem
from hammerlab.engine.rules import Parameter, written_value
from hammerlab.errors import HammerlabError


def run_units(query: str, ruleset: str, army: str, as_json: bool) -> None:
    """The library's units whose name or army matches, each with its army.

    ``--army`` matches part of an army's name (``marines`` finds the Space Marines),
    so it may match armies with like names (``space marines`` is part of Chaos
    Space Marines): a line under the list names each army it matched only in part.
    """
    try:
        units = get_ruleset(ruleset).unit_armies(query, army)
    except HammerlabError as error:
        raise fail(error) from None
    partly = _armies_matched_in_part(army, [a for _, a in units])
    if as_json:
        document = {
            "ruleset": ruleset,
            "query": query,
            "army": army,
            "units": [{"name": name, "army": side} for name, side in units],
            "armies_matched_in_part": partly,
        }
        typer.echo(json.dumps(document, indent=1, ensure_ascii=False))
        return
    if units:
        console.print(plain_table(("Unit", "Army"), units), markup=False)
    else:
        wanted = f"{query!r}" + (f" in army {army!r}" if army else "")
        console.print(f"no {ruleset} unit matches {wanted}", markup=False)
    if partly:
        console.print(f"--army {army!r} is part of the name of: {', '.join(partly)}", markup=False)


def _armies_matched_in_part(army: str, armies: list[str]) -> list[str]:
    """The armies of ``armies`` that ``--army`` names only in part (``space marines``:
    Chaos Space Marines), sorted; none when no ``--army`` was given. Case, hyphens
    and spaces aside (``adeptus-astartes`` names Adeptus Astartes whole)."""

    def words(text: str) -> str:
        return " ".join(text.lower().replace("-", " ").split())

    return sorted({a for a in armies if army and words(a) != words(army)})


def run_show(unit: str, ruleset: str, source: Path | None, as_json: bool) -> None:
    """One datasheet, from the library or a BattleScribe file, with what is not implemented."""
    try:
        rules = get_ruleset(ruleset)
        problems: list[str] = []
        if source is not None:
            from hammerlab.io.battlescribe import import_file

            imported = import_file(source)  # any unit, playable or not: say why not
            sheet = imported.find(unit)
            wrong = edition_problem(sheet, rules.name, f"the {rules.name} ruleset")
            if wrong is not None:
                raise fail(f"{wrong}: show it with --ruleset {sheet.edition}")
            problems += [f"not playable: {reason}" for reason in imported.reasons(sheet.name)]
        else:
            sheet = rules.find_unit(unit)
        problems += rules.validate_datasheet(sheet)
        problems += rules.rule_limits(sheet)
    except HammerlabError as error:
        raise fail(error) from None
    if as_json:
        document = datasheet_document(sheet, problems, rules)
        typer.echo(json.dumps(document, indent=1, ensure_ascii=False))
        return
    _datasheet_table(sheet, problems, rules)


def datasheet_document(sheet: Datasheet, problems: list[str], ruleset: Ruleset) -> dict[str, Any]:
    """A datasheet as plain data: what ``show --json`` prints.

    Keys: ``name``, ``army``, ``edition``, ``source``, ``rules`` (the unit's),
    ``models`` (``name``, ``count``, ``characteristics``, ``invulnerable``,
    ``unit_type``, ``rules``: the model's own, a sergeant's or a Lictor's,
    ``type_rules``: the rules ``ruleset`` gives it by its unit type, ``weapons``: the
    names of the weapons each model of the entry carries),
    ``weapons`` (``name``, ``characteristics``, ``keywords``), ``notes`` (from the
    file) and ``not_implemented`` (what the ruleset does not resolve).
    """
    return {
        "name": sheet.name,
        "army": sheet.army,
        "edition": sheet.edition,
        "source": sheet.source,
        "rules": list(sheet.rules),
        "models": [
            {
                "name": e.profile.name,
                "count": e.count,
                "characteristics": dict(e.profile.characteristics),
                "invulnerable": e.profile.invulnerable,
                "unit_type": e.profile.unit_type,
                "rules": list(e.rules),
                "type_rules": list(ruleset.type_rules(e.profile)),
                "weapons": [w.name for w in e.weapons],
                **(
                    {"powers": [dict(p.characteristics, name=p.name) for p in e.powers]}
                    if e.powers
                    else {}
                ),
            }
            for e in sheet.entries
        ],
        "weapons": [
            {
                "name": w.name,
                "characteristics": dict(w.characteristics),
                "keywords": list(w.keywords),
            }
            for w in sheet.weapons()
        ],
        "notes": list(sheet.notes),
        "not_implemented": problems,
    }


def _datasheet_table(sheet: Datasheet, problems: list[str], ruleset: Ruleset) -> None:
    """Print a datasheet (its rules, models, weapons and each model's psychic powers);
    every text from a file is escaped, so ``[/]`` in a name prints as is."""
    about = f"({sheet.army}, {sheet.edition}; {sheet.source})"
    console.print(f"[bold]{escape(sheet.name)}[/bold] {escape(about)}")
    if sheet.rules:
        console.print("Rules: " + ", ".join(sheet.rules), markup=False)
    for line in model_rule_lines(sheet, ruleset):
        console.print(line, markup=False)
    keys: list[str] = []
    for entry in sheet.entries:
        keys += [k for k in entry.profile.characteristics if k not in keys]
    table = Table("Model", "#", *map(escape, keys), "Inv", "Type")
    for entry in sheet.entries:
        p = entry.profile
        inv = f"{p.invulnerable}+" if p.invulnerable else "-"
        cells = (p.name, str(entry.count), *(p.get(k, "-") for k in keys), inv, p.unit_type)
        table.add_row(*map(escape, cells))
    print_table(table)
    for line in _carried_lines(sheet):
        console.print(line, markup=False)
    weapon_keys: list[str] = []
    for weapon in sheet.weapons():
        weapon_keys += [k for k in weapon.characteristics if k not in weapon_keys]
    weapons = Table("Weapon", *map(escape, weapon_keys), "Keywords")
    for weapon in sheet.weapons():
        keywords = ", ".join(weapon.keywords)
        cells = (weapon.name, *(weapon.get(k, "-") for k in weapon_keys), keywords)
        weapons.add_row(*map(escape, cells))
    print_table(weapons)
    for powers in power_tables(sheet):
        console.print(f"Psychic powers of {powers.model!r}:", markup=False)
        table = Table(*map(escape, powers.headers))
        for power_row in powers.rows:
            table.add_row(*map(escape, power_row))
        print_table(table)
        for line in powers.details:
            console.print(line, markup=False)
    for line in (*sheet.notes, *problems):
        console.print(f"[yellow]note:[/yellow] {escape(line)}")


def _carried_lines(sheet: Datasheet) -> list[str]:
    """``Weapons of 'Space Marine (flamer)': Bolt pistol, Flamer, ...``: what each
    model entry carries, which the unit's weapon table does not say (a Tactical
    Squad's one heavy bolter, a Devastator Squad's missile launchers)."""
    return [
        f"Weapons of {entry.profile.name!r}: "
        + (", ".join(w.name for w in entry.weapons) or "none")
        for entry in sheet.entries
    ]


def run_rulesets(plugin: list[Path] | None, as_json: bool) -> None:
    """The rulesets, their rule options and parameters."""
    try:
        load_plugins(plugin)
    except HammerlabError as error:
        raise fail(error) from None
    if as_json:
        document = {n: describe_ruleset(get_ruleset(n)) for n in ruleset_names()}
        typer.echo(json.dumps(document, indent=1))
        return
    for name in ruleset_names():
        rules = get_ruleset(name)
        console.print(f"[bold]{name}[/bold]: {rules.title}; phases: {', '.join(rules.phases)}")
        for option in rules.options:
            state = "on" if option.default else "off"
            needs = f"; needs {option.requires}" if option.requires else ""
            line = f"  {option.name} (default {state}{needs}): {option.summary}"
            console.print(line, markup=False)
            for p in option.parameters:
                console.print(f"    .{_parameter_line(p)}", markup=False)
        if rules.parameters:
            console.print("  parameters:")
        for p in rules.parameters:
            console.print(f"    {_parameter_line(p)}", markup=False)


def _parameter_line(parameter: Parameter) -> str:
    """``name = default (what it takes): summary``; a switch's default as on/off, as
    ``--rule`` writes it."""
    shown = written_value(parameter.default)
    return f"{parameter.name} = {shown} ({parameter.accepted()}): {parameter.summary}"
