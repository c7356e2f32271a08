"""hammerlab: rules engine and rules lab for 40K-style wargames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.lab import LabReport, arms, compare
from hammerlab.cli import import_cmd, odds_cmd
from hammerlab.cli.prompt import PromptController
from hammerlab.cli.render import show_event
from hammerlab.editions import get_ruleset, ruleset_names
from hammerlab.editions.base import Ruleset, describe_ruleset, play
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.editions.waffle.tables import MELEE_TO_HIT, to_wound_cell
from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.decisions import Controller
from hammerlab.engine.events import to_json_line
from hammerlab.engine.rules import ParamValue, RuleSettingError, RuleSettings, parse_rule_flag
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

app = typer.Typer(no_args_is_help=True, add_completion=False, help=__doc__)
console = Console(highlight=False)


def fail(error: Exception) -> typer.Exit:
    """Print one error line and give the exit to raise."""
    typer.echo(f"error: {error}", err=True)
    return typer.Exit(1)


RulesetOpt = Annotated[str, typer.Option("--ruleset", "-r", help="waffle or core11")]


@app.command()
def units(
    query: Annotated[str, typer.Argument(help="part of a unit's or its army's name")] = "",
    ruleset: RulesetOpt = "waffle",
    army: Annotated[str, typer.Option("--army", "-a", help="only this army (part of a name)")] = "",
) -> None:
    """List the unit library: units whose name or army matches."""
    try:
        names = get_ruleset(ruleset).unit_names(query, army)
    except HammerlabError as error:
        raise fail(error) from None
    for name in names:
        console.print(name, markup=False)
    if not names:
        wanted = f"{query!r}" + (f" in army {army!r}" if army else "")
        console.print(f"no {ruleset} unit matches {wanted}", markup=False)


def _datasheet_table(sheet: Datasheet, problems: list[str]) -> None:
    """Print a datasheet; every text from a file is escaped, so ``[/]`` in a name prints as is."""
    about = f"({sheet.army}, {sheet.edition}; {sheet.source})"
    console.print(f"[bold]{escape(sheet.name)}[/bold] {escape(about)}")
    if sheet.rules:
        console.print("Rules: " + ", ".join(sheet.rules), markup=False)
    keys: list[str] = []
    for entry in sheet.entries:
        keys += [k for k in entry.profile.characteristics if k not in keys]
    table = Table("Model", "#", *map(escape, keys), "Inv", "Type")
    for entry in sheet.entries:
        p = entry.profile
        inv = f"{p.invulnerable}+" if p.invulnerable else "-"
        cells = (p.name, str(entry.count), *(p.get(k, "-") for k in keys), inv, p.unit_type)
        table.add_row(*map(escape, cells))
    console.print(table)
    weapon_keys: list[str] = []
    for weapon in sheet.weapons():
        weapon_keys += [k for k in weapon.characteristics if k not in weapon_keys]
    weapons = Table("Weapon", *map(escape, weapon_keys), "Keywords")
    for weapon in sheet.weapons():
        keywords = ", ".join(weapon.keywords)
        cells = (weapon.name, *(weapon.get(k, "-") for k in weapon_keys), keywords)
        weapons.add_row(*map(escape, cells))
    console.print(weapons)
    for line in (*sheet.notes, *problems):
        console.print(f"[yellow]note:[/yellow] {escape(line)}")


@app.command()
def show(
    unit: Annotated[str, typer.Argument(help="unit name")],
    ruleset: RulesetOpt = "waffle",
    source: Annotated[Path | None, typer.Option("--from", help="a BattleScribe file")] = None,
) -> None:
    """Show a datasheet: profiles, weapons and what hammerlab does not implement."""
    try:
        rules = get_ruleset(ruleset)
        if source is not None:
            from hammerlab.io.battlescribe import unit_from_file

            sheet = unit_from_file(source, unit)
        else:
            sheet = rules.find_unit(unit)
        _datasheet_table(sheet, rules.validate_datasheet(sheet))
    except HammerlabError as error:
        raise fail(error) from None


RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=on|off|NAME.PARAM=VALUE",
        help="switch a rule on/off or set a parameter (see `rulesets`); repeatable",
    ),
]
PluginOpt = Annotated[
    list[Path] | None,
    typer.Option("--plugin", metavar="FILE.py", help="load rules from a plug-in file; repeatable"),
]


def _load_plugins(files: list[Path] | None) -> list[str]:
    """Load each plug-in file; their absolute paths (for worker processes)."""
    for path in files or []:
        load_plugin_file(path)
    return [str(p.resolve()) for p in files or []]


def _rule_settings(flags: list[str] | None) -> dict[str, ParamValue]:
    return dict(parse_rule_flag(f) for f in flags or [])


def _rule_error(error: RuleSettingError) -> typer.Exit:
    """One line naming the flag; exit 2, a usage error like typer's own."""
    typer.echo(f"error: --rule: {error}", err=True)
    return typer.Exit(2)


@app.command()
def battle(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    seed: Annotated[int | None, typer.Option(help="dice seed (overrides the file)")] = None,
    rule: RuleOpt = None,
    plugin: PluginOpt = None,
    controller: Annotated[str, typer.Option(help="ai, or prompt to play one side yourself")] = "ai",
    side: Annotated[
        str | None, typer.Option(help="the player you play with --controller prompt")
    ] = None,
    log_json: Annotated[Path | None, typer.Option(help="write the event log as JSON Lines")] = None,
    dice: Annotated[bool, typer.Option(help="show every dice roll")] = True,
) -> None:
    """Play a scenario and print the step log and a summary."""
    if controller not in ("ai", "prompt"):
        raise fail(ValueError(f"--controller must be ai or prompt, not {controller!r}"))
    try:
        spec = load_scenario(scenario)
        people: dict[str, Controller] = {}
        if controller == "prompt":
            you = side or spec.first_player or spec.players[0].name
            if you not in [p.name for p in spec.players]:
                raise fail(ValueError(f"--side {you!r} is not a player of {scenario}"))
            people[you] = PromptController(console)
        _load_plugins(plugin)
        ready = prepare(spec, str(scenario), seed, _rule_settings(rule), people)
        game = ready.battle
        console.print(f"{spec.name} — {ready.ruleset.title}, seed {game.dice.seed}", markup=False)
        if spec.description:
            console.print(spec.description, markup=False)
        on = [n for n, v in game.options.items() if v]
        console.print("Rule options on: " + (", ".join(on) if on else "none"), markup=False)
        changed = _changed_parameters(ready.ruleset, game.settings)
        if changed:
            console.print("Rule parameters: " + ", ".join(changed), markup=False)
        game.log.subscribe(lambda event: show_event(console, event, dice))
        play(game, ready.ruleset, ready.plan)
    except RuleSettingError as error:
        raise _rule_error(error) from None
    except HammerlabError as error:
        raise fail(error) from None
    console.rule("Summary")
    for line in ready.ruleset.summary(game, ready.plan):
        console.print(line, markup=False)
    if log_json is not None:
        try:
            log_json.write_text(game.log.json_lines(), encoding="utf-8")
        except OSError as error:
            raise fail(ValueError(f"{log_json}: cannot write: {error.strerror}")) from None


def _changed_parameters(ruleset: Ruleset, settings: RuleSettings) -> list[str]:
    """``name=value`` for every parameter not at its default."""
    defaults = {p.name: p.default for p in ruleset.parameters}
    for option in ruleset.options:
        defaults.update({f"{option.name}.{p.name}": p.default for p in option.parameters})
    return [f"{k}={v}" for k, v in settings.values.items() if defaults.get(k) != v]


@app.command()
def lab(
    scenario: Annotated[Path, typer.Argument(help="scenario TOML file")],
    rule: Annotated[
        list[str],
        typer.Option(
            metavar="NAME|NAME.PARAM=VALUE",
            help=(
                "what the variant changes: NAME compares a rule off with on; "
                "NAME.PARAM=VALUE (or PARAM=VALUE) compares the default with VALUE; repeatable"
            ),
        ),
    ],
    setting: Annotated[
        list[str] | None,
        typer.Option(
            "--set", metavar="NAME=VALUE", help="a rule setting both arms play with; repeatable"
        ),
    ] = None,
    plugin: PluginOpt = None,
    runs: Annotated[int, typer.Option(min=2, max=100_000, help="paired battles per arm")] = 200,
    seed: Annotated[int, typer.Option(help="first dice seed; runs use seed, seed+1, ...")] = 1,
    workers: Annotated[int, typer.Option(min=1, max=64, help="processes to use")] = 1,
    plot: Annotated[Path | None, typer.Option(help="write a PNG chart here")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Rules lab: play a scenario many times with a rule off and on, and compare."""
    try:
        spec = load_scenario(scenario)
        plugins = _load_plugins(plugin)
        experiment = arms(spec, rule, setting or [])
        report = compare(spec, str(scenario), experiment, runs, seed, workers, plugins)
        if plot is not None:
            from hammerlab.analysis.lab_plot import plot_report  # matplotlib: only when asked

            plot_report(report, plot)
    except RuleSettingError as error:
        raise _rule_error(error) from None
    except HammerlabError as error:
        raise fail(error) from None
    except OSError as error:
        raise fail(ValueError(f"{plot}: cannot write: {error.strerror}")) from None
    if as_json:
        print(json.dumps(report.to_dict(), indent=1))
        return
    _print_report(report)


def _print_report(report: LabReport) -> None:
    console.print(
        f"{report.scenario}: baseline vs variant ({report.rule}), "
        f"{report.runs} paired battles from seed {report.first_seed}",
        markup=False,
    )
    table = Table(
        "Unit", "Models", "Baseline", "Variant", "Difference (95% CI)", "P(destroyed) off → on"
    )
    for u in report.units:
        table.add_row(
            escape(u.unit),
            str(u.starting_models),
            f"{u.baseline_mean:.2f}",
            f"{u.variant_mean:.2f}",
            f"{u.difference:+.2f} ({u.ci95[0]:+.2f} .. {u.ci95[1]:+.2f})",
            f"{u.baseline_destroyed:.0%} → {u.variant_destroyed:.0%}",
        )
    console.print(table)
    wins = Table("Winner", "Baseline", "Variant")
    for name, share in report.baseline_wins.items():
        wins.add_row(escape(name), f"{share:.0%}", f"{report.variant_wins[name]:.0%}")
    console.print(wins)


@app.command()
def tables(
    ruleset: Annotated[str, typer.Argument(help="waffle")] = "waffle",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Print an edition's charts (melee to hit, to wound)."""
    if ruleset != "waffle":
        raise fail(ValueError(f"no tables for {ruleset!r}; known: waffle"))
    scale = [str(n) for n in range(1, 11)]
    melee = {a: {t: MELEE_TO_HIT[int(a) - 1][int(t) - 1] for t in scale} for a in scale}
    wound = {s: {t: to_wound_cell(int(s), int(t)) for t in scale} for s in scale}
    if as_json:
        print(json.dumps({"melee_to_hit": melee, "to_wound": wound}, indent=1))
        return
    for title, chart, rows, cols in (
        ("Melee To Hit (attacker WS down, target WS across)", melee, "WS", "WS"),
        ("To Wound (Strength down, Toughness across)", wound, "S", "T"),
    ):
        table = Table(f"{rows} \\ {cols}", *scale, title=title)
        for key in scale:
            table.add_row(key, *(chart[key][c] for c in scale))
        console.print(table)


@app.command()
def rulesets(
    plugin: PluginOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the rulesets, their rule options and parameters (with defaults and quotes)."""
    try:
        _load_plugins(plugin)
    except HammerlabError as error:
        raise fail(error) from None
    if as_json:
        print(json.dumps({n: describe_ruleset(get_ruleset(n)) for n in ruleset_names()}, indent=1))
        return
    for name in ruleset_names():
        rules = get_ruleset(name)
        console.print(f"[bold]{name}[/bold]: {rules.title}; phases: {', '.join(rules.phases)}")
        for option in rules.options:
            state = "on" if option.default else "off"
            console.print(f"  {option.name} (default {state}): {option.summary}", markup=False)
            for p in option.parameters:
                console.print(f"    .{p.name} = {p.default}: {p.summary}", markup=False)
        if rules.parameters:
            console.print("  parameters:")
        for p in rules.parameters:
            console.print(f"    {p.name} = {p.default}: {p.summary}", markup=False)


import_cmd.register(app)
odds_cmd.register(app)


def main() -> None:
    """Entry point."""
    app()


__all__ = ["app", "main", "to_json_line"]
