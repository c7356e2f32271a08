"""hammerlab: rules engine and rules lab for 40K-style wargames."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from hammerlab.cli import import_cmd, odds_cmd, serve_cmd
from hammerlab.cli.common import (
    DEFAULT_RULESET,
    Interruptible,
    OnceCommand,
    OneLineGroup,
    usage_error,
)

# Every command imports what it needs when it runs (the ``*_cmd`` modules), so
# that ``--help``, ``tables`` and a mistyped option answer at once.

app = typer.Typer(no_args_is_help=True, add_completion=True, help=__doc__, cls=OneLineGroup)


def _version(value: bool) -> None:
    """``--version``: the installed package's version, from its metadata."""
    if value:
        from importlib.metadata import version

        typer.echo(f"hammerlab {version('hammerlab')}")
        raise typer.Exit()


@app.callback()
def _main(
    _: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """hammerlab: rules engine and rules lab for 40K-style wargames."""


RulesetOpt = Annotated[
    str,
    typer.Option(
        "--ruleset", "-r", metavar="NAME", help=f"waffle or core11 (default {DEFAULT_RULESET})"
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON document")]


@app.command(cls=OnceCommand)
def units(
    query: Annotated[
        str, typer.Argument(metavar="QUERY", help="part of a unit's or its army's name")
    ] = "",
    ruleset: RulesetOpt = DEFAULT_RULESET,
    army: Annotated[
        str, typer.Option("--army", "-a", metavar="ARMY", help="only this army (part of a name)")
    ] = "",
    as_json: JsonOpt = False,
) -> None:
    """List the unit library: units whose name or army matches.

    Example: hammerlab units --army orks
    """
    from hammerlab.cli.library_cmd import run_units

    run_units(query, ruleset, army, as_json)


@app.command(cls=OnceCommand)
def show(
    unit: Annotated[str, typer.Argument(metavar="UNIT", help="unit name")],
    ruleset: RulesetOpt = DEFAULT_RULESET,
    source: Annotated[
        Path | None, typer.Option("--from", metavar="FILE", help="a BattleScribe file")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show a datasheet: profiles, weapons and what hammerlab does not implement.

    Example: hammerlab show "Tactical Squad"
    """
    from hammerlab.cli.library_cmd import run_show

    run_show(unit, ruleset, source, as_json)


PlayoutsOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        max=10_000,
        metavar="N",
        help="the search AI's playouts per decision (its deterministic thinking budget; "
        "default 8); only where the search AI plays",
    ),
]
RuleOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME[=on|off]|NAME.PARAM=VALUE",
        help="switch a rule on (NAME, NAME=on) or off, or set a parameter (see `rulesets`); "
        "repeatable",
    ),
]
PluginOpt = Annotated[
    list[Path] | None,
    typer.Option("--plugin", metavar="FILE.py", help="load rules from a plug-in file; repeatable"),
]


@app.command(cls=OnceCommand)
def battle(
    scenario: Annotated[
        Path | None, typer.Argument(metavar="SCENARIO.toml", help="scenario TOML file")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(min=0, metavar="N", help="dice seed (overrides the file)")
    ] = None,
    rule: RuleOpt = None,
    plugin: Annotated[
        list[Path] | None,
        typer.Option(
            "--plugin",
            metavar="FILE.py",
            help="load rules from a plug-in file; with --resume, name each plug-in the saved "
            "game plays with (none runs unless named); repeatable",
        ),
    ] = None,
    controller: Annotated[
        str,
        typer.Option(
            metavar="heuristic|prompt|search|random",
            help="heuristic: the heuristic AI plays both sides (ai is another name for it); "
            "prompt to play one side yourself; search: one side is the search AI; "
            "random: one side is the random player, seeded as a tournament seeds it",
        ),
    ] = "heuristic",
    side: Annotated[
        str | None,
        typer.Option(
            metavar="PLAYER",
            help="the player --controller prompt, search or random plays (default: the first)",
        ),
    ] = None,
    playouts: PlayoutsOpt = None,
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
        Path | None,
        typer.Option(
            metavar="FILE",
            help="continue a saved game (--save), with its own seed, rules and plug-ins "
            "(name its plug-ins with --plugin to run them)",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="print only a JSON summary (units, scores, winner), no step log"
        ),
    ] = False,
) -> None:
    """Play a scenario (or resume a saved game) and print the step log and a summary.

    Example: hammerlab battle examples/whole_game_three_turns.toml --seed 3 --stop-after 1 \\
    --save game.json

    Then: hammerlab battle --resume game.json
    """
    from hammerlab.cli.battle_cmd import run_battle

    run_battle(
        scenario=scenario, seed=seed, rule=rule, plugin=plugin, controller=controller,
        side=side, log_json=log_json, dice=dice, save=save, stop_after=stop_after,
        resume=resume, as_json=as_json, playouts=playouts,
    )  # fmt: skip


@app.command(cls=OnceCommand)
def replay(
    log: Annotated[Path, typer.Argument(metavar="LOG.jsonl", help="a log written by --log-json")],
    plugin: Annotated[
        list[Path] | None,
        typer.Option(
            "--plugin",
            metavar="FILE.py",
            help="a plug-in the log plays with (none runs unless named); repeatable",
        ),
    ] = None,
) -> None:
    """Re-play a battle log (--log-json) and check that every event comes out the same.

    The log's seed, rules and decisions are played again; exit 1 at the first event
    that differs.

    Example: hammerlab battle EX.toml --seed 3 --log-json L.jsonl; hammerlab replay L.jsonl
    """
    from hammerlab.cli.battle_cmd import run_replay

    run_replay(log, plugin)


def _precision(text: str) -> float:
    """``--precision``: a number from 0.001 to 1000 (no interval of a rate or of a unit's
    models left is wider). ``nan`` and ``inf`` are refused for what they are, not as
    "less than or equal to 1000" (a NaN is no more than it, nor less)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.001 <= value <= 1000:  # False for a NaN too
        raise typer.BadParameter(f"{text}: give a number from 0.001 to 1000")
    return value


PrecisionOpt = Annotated[
    float | None,
    typer.Option(
        parser=_precision,
        metavar="X",
        help="play in rounds until every 95% interval is narrower than X (or --runs is reached)",
    ),
]


SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS", help="play on this Dask cluster (tcp://HOST:8786) instead of --workers"
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(min=1, max=64, metavar="N", help="local processes to use (default 1)"),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(metavar="DIR", help="store every battle here (DuckDB), to resume or query"),
]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", help="with --out: reuse the battles already stored")
]
DiceOpt = Annotated[
    str,
    typer.Option(
        metavar="single|keyed",
        help="keyed: a dice stream per turn, unit and roll, so paired battles share dice "
        "after they first differ (common random numbers; docs/scale.md)",
    ),
]


@app.command(cls=OnceCommand)
def lab(
    scenario: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="scenario TOML file")],
    rule: Annotated[
        list[str],
        typer.Option(
            metavar="NAME[=on|off]|NAME.PARAM=VALUE",
            help=(
                "what the variant changes: NAME (or NAME=on) compares a rule off with on, "
                "NAME=off on with off; NAME.PARAM=VALUE (NAME on in both arms) or "
                "PARAM=VALUE compares the scenario's value of the parameter (its default "
                "where the file sets none) with VALUE; repeatable"
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
    runs: Annotated[
        int, typer.Option(min=2, max=100_000, metavar="N", help="paired battles per arm")
    ] = 200,
    seed: Annotated[
        int, typer.Option(min=0, metavar="N", help="first dice seed; runs use seed, seed+1, ...")
    ] = 1,
    precision: PrecisionOpt = None,
    workers: WorkersOpt = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.png",
            help="write a chart here; its type from the name (.png, .svg, .pdf...), "
            "checked before playing",
        ),
    ] = None,
    page: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE.html",
            help="write the report as a self-contained web page (the web lab's), at the end",
        ),
    ] = None,
    ai: Annotated[
        str,
        typer.Option(
            metavar="heuristic|search", help="the AI playing both sides (search: much slower)"
        ),
    ] = "heuristic",
    dice: DiceOpt = "single",
    scheduler: SchedulerOpt = None,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Rules lab: play a scenario many times with a rule off and on, and compare.

    Example: hammerlab lab examples/lab_suppressive_fire_horde.toml --rule suppressive_fire \\
    --runs 100 --plot lab.png
    """
    with Interruptible(out) as stopping:
        from hammerlab.cli.lab_cmd import run_lab

        run_lab(
            scenario=scenario, rule=rule, setting=setting, plugin=plugin, runs=runs, seed=seed,
            precision=precision, workers=workers, plot=plot, as_json=as_json, ai=ai, dice=dice,
            scheduler=scheduler, out=out, resume=resume, page=page, stopping=stopping,
        )  # fmt: skip


RunsOpt = Annotated[
    int, typer.Option(min=2, max=100_000, metavar="N", help="battles per grid point (at most)")
]
VaryOpt = Annotated[
    list[str],
    typer.Option(
        metavar="KEY=V1,V2,...",
        help="an axis of the grid: a rule (NAME=on,off), a parameter (NAME.PARAM=0,1,2 or "
        "charge_dice=2,3) or a unit's size (units.ID.size=5,10); repeatable",
    ),
]


@app.command(cls=OnceCommand)
def sweep(
    scenarios: Annotated[
        list[Path], typer.Argument(metavar="SCENARIO.toml...", help="one or more scenario files")
    ],
    vary: VaryOpt,
    runs: RunsOpt = 100,
    precision: PrecisionOpt = None,
    seed: Annotated[
        int, typer.Option(min=0, metavar="N", help="first dice seed of every point")
    ] = 1,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    plugin: PluginOpt = None,
    out: OutOpt = None,
    resume: ResumeOpt = False,
    dice: DiceOpt = "single",
    report: Annotated[
        Path | None, typer.Option(metavar="FILE.html", help="write a self-contained report")
    ] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", metavar="FILE.csv", help="write every metric as CSV")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a grid of rule settings and unit sizes across scenarios; report every metric.

    Example: hammerlab sweep examples/lab_suppressive_fire_horde.toml \\
    --vary suppressive_fire.ld_penalty_per_wound=0,1,2,3 --runs 50 --report sweep.html
    """
    with Interruptible(out) as stopping:
        from hammerlab.cli.sweep_cmd import run_sweep

        run_sweep(
            scenarios=scenarios, vary=vary, runs=runs, precision=precision, seed=seed,
            workers=workers, scheduler=scheduler, plugin=plugin, out=out, resume=resume,
            report=report, csv_file=csv_file, as_json=as_json, dice=dice, stopping=stopping,
        )  # fmt: skip


@app.command(cls=OnceCommand)
def tournament(
    scenarios: Annotated[
        list[Path], typer.Argument(metavar="SCENARIO.toml...", help="scenario TOML files")
    ],
    players: Annotated[
        str,
        typer.Option(
            metavar="P,Q,...",
            help="the players, comma-separated: heuristic, search, random (built-in only: "
            "rate your own agent with the library's tournament(..., controllers=), docs/api.md)",
        ),
    ] = "heuristic,random",
    games: Annotated[
        int,
        typer.Option(
            min=1, max=10_000, metavar="N", help="games per side of each pairing per scenario"
        ),
    ] = 10,
    seed: Annotated[
        int, typer.Option(min=0, metavar="N", help="first dice seed; games use seed, seed+1, ...")
    ] = 1,
    playouts: PlayoutsOpt = None,
    rule: RuleOpt = None,
    plugin: PluginOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play AI players against each other: win/draw/loss rates, 95% intervals and Elo.

    Every pairing plays both sides of every scenario, with common seeds;
    every game plays with the --rule settings and --plugin rules.

    Example: hammerlab tournament examples/matchups/*.toml --players heuristic,random --games 20
    """
    from hammerlab.cli.tournament_cmd import run_tournament

    run_tournament(
        scenarios=scenarios, players=players, games=games, seed=seed, playouts=playouts,
        as_json=as_json, rule=rule, plugin=plugin,
    )  # fmt: skip


@app.command(cls=OnceCommand)
def results(
    folders: Annotated[
        list[Path], typer.Argument(metavar="DIR...", help="results stores (sweep --out)")
    ],
    sql: Annotated[
        str | None,
        typer.Option(
            "--query",
            metavar="SQL",
            help="run SQL on the tables scenarios, units, battles, models_left and choices "
            "(their columns: above)",
        ),
    ] = None,
    merge_into: Annotated[
        Path | None,
        typer.Option(
            "--merge-into",
            metavar="DIR",
            help="copy every battle into this store (all or, should anything fail, nothing)",
        ),
    ] = None,
    csv_file: Annotated[
        Path | None,
        typer.Option(
            "--csv", metavar="FILE.csv", help="write every metric (with --query: its rows) as CSV"
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-analyse stored battles without playing them (several DIRs: their union).

    Without --query, every stored grid point is summarized as sweep does,
    by its scenario file (those of one file together),
    with the seeds stored (as ranges) and the engine version that played them,
    how often the choices of the rules it sets were offered and chosen,
    and the warning of a choice chosen at no point.

    --query SQL reads these tables, no other file, and writes nothing:
    a statement that is not a read (SELECT, WITH ... SELECT, VALUES...) is refused.
    A battle's key: scenario_hash, params (the grid point as JSON), seed and engine_version.
    It shows at most 10,000 rows (saying so when there are more),
    and DuckDB may use 2GB of memory for it:

    scenarios: scenario_hash, name, source, players, scenario (JSON)

    units: scenario_hash, params, position, unit, label, player, starting_models

    battles: scenario_hash, params, seed, engine_version, winner

    models_left: scenario_hash, params, seed, engine_version, unit, models_left

    choices: scenario_hash, params, seed, engine_version, choice, offered, chosen
    (per battle, each choice offered, "kind: label", and how many times it was offered
    and chosen)

    Example: hammerlab results runs/ --query "SELECT winner, count(*) FROM battles GROUP BY 1"
    """
    from hammerlab.cli.sweep_cmd import run_results

    run_results(folders, sql, merge_into, csv_file, as_json)


@app.command(cls=OnceCommand)
def balance(
    scenario: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="scenario TOML file")],
    vary: Annotated[
        str,
        typer.Option(
            metavar="KEY=LO..HI",
            help="a numeric rule parameter (NAME.PARAM or e.g. charge_dice) or units.ID.size, "
            "and the range to search",
        ),
    ],
    target: Annotated[
        str,
        typer.Option(metavar="METRIC=GOAL", help="win_rate=G or models_left.UNIT=G"),
    ],
    player: Annotated[
        str | None, typer.Option(metavar="NAME", help="whose win rate (default: the first player)")
    ] = None,
    runs: Annotated[
        int, typer.Option(min=10, max=100_000, metavar="N", help="most battles per probed value")
    ] = 400,
    tolerance: Annotated[
        float,
        typer.Option(min=1e-6, metavar="X", help="resolution for a non-integer parameter"),
    ] = 0.05,
    seed: Annotated[
        int, typer.Option(min=0, metavar="N", help="first dice seed of every probe")
    ] = 1,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    plugin: PluginOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find the value of a parameter or unit size that brings a metric to a goal.

    A stochastic bisection: the answer comes with its bracket and interval.

    Example: hammerlab balance examples/guard_suppress_terminators.toml \\
    --vary units.terminators.size=2..10 --target win_rate=0.1 --player Ultramarines
    """
    from hammerlab.cli.sweep_cmd import run_balance

    run_balance(
        scenario=scenario, vary=vary, target=target, player=player, runs=runs,
        tolerance=tolerance, seed=seed, workers=workers, scheduler=scheduler, plugin=plugin,
        as_json=as_json,
    )  # fmt: skip


@app.command(cls=OnceCommand)
def tables(
    positional: Annotated[
        str | None, typer.Argument(metavar="RULESET", help="waffle or core11 (as --ruleset)")
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset", "-r", metavar="NAME", help=f"waffle or core11 (default {DEFAULT_RULESET})"
        ),
    ] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=VALUE",
            help="a rule parameter the charts read (overwhelming_strength: the Strength "
            "that wounds automatically); repeatable",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print an edition's charts (waffle: melee to hit, to wound; core11: wound roll).

    The ruleset is named as other commands take it (--ruleset, -r) or as an argument.

    Example: hammerlab tables waffle --rule overwhelming_strength=9 --json
    """
    from hammerlab.cli.tables_cmd import run_tables

    if positional is not None and ruleset is not None and positional != ruleset:
        problem = f"{ruleset!r} differs from the RULESET argument {positional!r}; name it once"
        raise usage_error("--ruleset", problem)
    run_tables(ruleset or positional or DEFAULT_RULESET, as_json, tuple(rule or ()))


@app.command(cls=OnceCommand)
def rulesets(plugin: PluginOpt = None, as_json: JsonOpt = False) -> None:
    """List the rulesets, their rule options and parameters (with defaults and quotes).

    Example: hammerlab rulesets --json
    """
    from hammerlab.cli.library_cmd import run_rulesets

    run_rulesets(plugin, as_json)


import_cmd.register(app)
odds_cmd.register(app)
serve_cmd.register(app)


def main() -> None:
    """Entry point."""
    app()


__all__ = ["app", "main"]
