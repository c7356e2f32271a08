"""``hammerlab tournament``: AI players against each other. Imported only when it runs."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from hammerlab.analysis.engine_version import plugins_line
from hammerlab.analysis.search import Budget
from hammerlab.analysis.sweep_grid import SameScenarioError
from hammerlab.analysis.tournament import (
    TournamentReport,
    games_in,
    players_problem,
    tournament,
)
from hammerlab.cli.battle_cmd import load_plugins
from hammerlab.cli.common import console, fail, print_table, progress, usage_error
from hammerlab.engine.rules import RuleSettingError, rule_flags
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario


def run_tournament(
    *,
    scenarios: list[Path],
    players: str,
    games: int,
    seed: int,
    playouts: int | None,
    as_json: bool,
    rule: list[str] | None = None,
    plugin: list[Path] | None = None,
) -> None:
    """Play the tournament, every game with the ``--rule`` settings and ``--plugin``
    files (read as ``battle`` reads them); a table, or one JSON document. ``--playouts``
    (the search player's budget) without ``search`` among the players is a usage error:
    it would change nothing."""
    names = [p.strip() for p in players.split(",")]
    if not all(names):
        raise usage_error("--players", f"{players!r} has an empty name between its commas")
    problem = players_problem(names)
    if problem is not None:
        raise usage_error("--players", problem)
    if playouts is not None and "search" not in names:
        raise usage_error(
            "--playouts", f"is the search player's budget; {players!r} has no search player"
        )
    budget = Budget() if playouts is None else Budget(playouts)
    try:
        rules = rule_flags(rule or [])
        specs = [(load_scenario(path), str(path)) for path in scenarios]
        plugins = load_plugins(plugin, [spec.ruleset for spec, _ in specs])
        total = games_in(len(specs), len(names), games)
        with progress("games", total, quiet=as_json) as advance:
            report = tournament(
                specs, names, games, seed, budget, advance, rules=rules, plugins=plugins
            )
    except RuleSettingError as error:
        raise usage_error("--rule", error) from None
    except SameScenarioError as error:
        raise usage_error("SCENARIO", error) from None
    except HammerlabError as error:
        raise fail(error) from None
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=1))
        return
    _print_report(report)


def _print_report(report: TournamentReport) -> None:
    console.print(
        f"{len(report.scenarios)} scenarios, {report.games_per_side} games per side of each "
        f"pairing from seed {report.first_seed}"
        + (f" (search: {report.playouts} playouts)" if report.search_plays else ""),
        markup=False,
    )
    if report.rules:
        console.print(
            "Every game with " + ", ".join(f"{k}={v}" for k, v in report.rules), markup=False
        )
    loaded = plugins_line(report.plugins)
    if loaded:
        console.print(loaded, markup=False)
    table = Table("Player", "Games", "Wins", "Draws", "Losses", "Win rate (95% CI)", "Elo")
    for s in sorted(report.standings, key=lambda s: -s.rating):
        low, high = s.win_rate_ci95
        table.add_row(
            s.player,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{s.win_rate:.0%} ({low:.0%} .. {high:.0%})",
            f"{s.rating:.0f}",
        )
    print_table(table)
