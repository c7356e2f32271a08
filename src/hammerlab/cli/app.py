"""hammerlab: rules engine and rules lab for 40K-style wargames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hammerlab.analysis.game import Game, check_log, saved_players
from hammerlab.analysis.lab import LabReport, arms, compare
from hammerlab.cli import import_cmd, odds_cmd, serve_cmd
from hammerlab.cli.import_cmd import model_rule_lines
from hammerlab.cli.prompt import PromptController
from hammerlab.cli.render import show_event
from hammerlab.editions import get_ruleset, ruleset_names
from hammerlab.editions.base import Ruleset, describe_ruleset
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.editions.waffle.tables import MELEE_TO_HIT, to_wound_cell
from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.decisions import Controller
from hammerlab.engine.events import to_json_line, to_json_line_of
from hammerlab.engine.rules import ParamValue, RuleSettingError, RuleSettings, parse_rule_flag
from hammerlab.errors import HammerlabError, InputError
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
    for line in model_rule_lines(sheet):
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
        problems: list[str] = []
        if source is not None:
            from hammerlab.io.battlescribe import import_file

            imported = import_file(source)  # any unit, playable or not: say why not
            sheet = imported.find(unit)
            problems += [f"not playable: {reason}" for reason in imported.reasons(sheet.name)]
        else:
            sheet = rules.find_unit(unit)
        _datasheet_table(sheet, problems + rules.validate_datasheet(sheet))
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
    scenario: Annotated[Path | None, typer.Argument(help="scenario TOML file")] = None,
    seed: Annotated[int | None, typer.Option(help="dice seed (overrides the file)")] = None,
    rule: RuleOpt = None,
    plugin: PluginOpt = None,
    controller: Annotated[str, typer.Option(help="ai, or prompt to play one side yourself")] = "ai",
    side: Annotated[
        str | None, typer.Option(help="the player you play with --controller prompt")
    ] = None,
    log_json: Annotated[
        Path | None, typer.Option(metavar="FILE", help="write the event log as JSON Lines")
    ] = None,
    dice: Annotated[bool, typer.Option(help="show every dice roll")] = True,
    save: Annotated[
        Path | None, typer.Option(metavar="FILE", help="write the saved game here at the end")
    ] = None,
    stop_after: Annotated[
        int | None, typer.Option(min=1, metavar="TURN", help="stop at the end of game turn TURN")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(metavar="FILE", help="continue a saved game (--save)")
    ] = None,
) -> None:
    """Play a scenario (or resume a saved game) and print the step log and a summary.

    Example: hammerlab battle examples/whole_game_three_turns.toml --seed 3 --stop-after 1
    --save game.json, then hammerlab battle --resume game.json.
    """
    if controller not in ("ai", "prompt"):
        raise fail(ValueError(f"--controller must be ai or prompt, not {controller!r}"))
    if (scenario is None) == (resume is None):
        raise fail(ValueError("give a scenario file or --resume FILE (one of the two)"))
    stop = None if stop_after is None else stop_after + 1
    try:
        if resume is not None:
            game = _resumed(resume, controller, side, stop)
        else:
            assert scenario is not None
            spec = load_scenario(scenario)
            people = _people(controller, side, [p.name for p in spec.players], str(scenario))
            plugins = _load_plugins(plugin)
            rules = _rule_settings(rule)
            game = Game.start(spec, str(scenario), seed, rules, plugins, people, stop)
            _introduce(game)
        game.battle.log.subscribe(lambda event: show_event(console, event, dice))
        game.play()
    except RuleSettingError as error:
        raise _rule_error(error) from None
    except HammerlabError as error:
        raise fail(error) from None
    console.rule("Summary" if game.play_state.over else f"Stopped before turn {game.turn}")
    for line in game.ready.ruleset.summary(game.battle, game.ready.plan):
        console.print(line, markup=False)
    if log_json is not None:
        header = to_json_line_of(game.header())
        _write(log_json, header + "\n" + game.battle.log.json_lines())
    if save is not None:
        _write(save, game.to_json() + "\n")
        console.print(f"saved game written to {save}", markup=False)


def _people(
    controller: str, side: str | None, players: list[str], where: str
) -> dict[str, Controller]:
    """The prompt controller for the side a person plays (``--controller prompt``)."""
    if controller != "prompt":
        return {}
    you = side or players[0]
    if you not in players:
        raise InputError(where, "--side", f"{you!r} is not a player ({', '.join(players)})")
    return {you: PromptController(console)}


def _resumed(path: Path, controller: str, side: str | None, stop: int | None) -> Game:
    """The saved game in ``path``, replayed to where it stopped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(str(path), "", f"cannot read: {error}") from None
    players = saved_players(text, str(path))
    people = _people(controller, side, players, str(path))
    game = Game.from_json(text, str(path), people, stop)
    spec = game.ready
    console.print(
        f"Resuming {game.recipe.scenario.get('name', '')} — {spec.ruleset.title}, "
        f"seed {game.battle.dice.seed}, turn {game.turn}",
        markup=False,
    )
    return game


def _introduce(game: Game) -> None:
    """The battle's title, description and the rules in force."""
    ready, battle = game.ready, game.battle
    name, description = (
        game.recipe.scenario.get("name", ""),
        game.recipe.scenario.get("description"),
    )
    console.print(f"{name} — {ready.ruleset.title}, seed {battle.dice.seed}", markup=False)
    if description:
        console.print(description, markup=False)
    on = [n for n, v in battle.options.items() if v]
    console.print("Rule options on: " + (", ".join(on) if on else "none"), markup=False)
    changed = _changed_parameters(ready.ruleset, battle.settings)
    if changed:
        console.print("Rule parameters: " + ", ".join(changed), markup=False)


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed into place)."""
    if path.is_dir():
        raise fail(ValueError(f"{path}: is a directory"))
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise fail(ValueError(f"{path}: cannot write: {error.strerror}")) from None


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(metavar="LOG.jsonl", help="a log written by --log-json")],
) -> None:
    """Re-play a JSON Lines battle log (its seed, rules and decisions) and check that
    every event comes out the same; exit 1 at the first one that differs.

    Example: hammerlab battle EX.toml --seed 3 --log-json L.jsonl; hammerlab replay L.jsonl
    """
    try:
        text = log.read_text(encoding="utf-8")
        differs = check_log(text, str(log))
    except (OSError, UnicodeDecodeError) as error:
        raise fail(ValueError(f"{log}: cannot read: {error}")) from None
    except HammerlabError as error:
        raise fail(error) from None
    if differs is None:
        console.print(f"{log}: replays identically", markup=False)
        return
    typer.echo(
        f"error: {log}: line {differs.line} differs: logged {differs.logged} "
        f"but the replay gives {differs.replayed}",
        err=True,
    )
    raise typer.Exit(1)


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
serve_cmd.register(app)


def main() -> None:
    """Entry point."""
    app()


__all__ = ["app", "main", "to_json_line"]
