"""``hammerlab lab``: the rules lab from the command line. Imported only when it runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from hammerlab.analysis.engine_version import plugins_line
from hammerlab.analysis.lab import FlagError, LabReport, arms, compare
from hammerlab.analysis.sweep_grid import SweepError, in_ruleset
from hammerlab.cli.battle_cmd import load_plugins
from hammerlab.cli.common import (
    Interruptible,
    check_outputs,
    console,
    fail,
    interrupted,
    print_table,
    progress,
    source_files,
    store_files,
    usage_error,
    write_file,
)
from hammerlab.cli.sweep_cmd import (
    check_report_name,
    check_store_flags,
    local_processes,
    print_note,
    runner_for,
    store_at,
    store_tally,
    tell_tally,
)
from hammerlab.editions.plugins import load_plugin_files, plugins_in_play
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario


def run_lab(
    *,
    scenario: Path,
    rule: list[str],
    setting: list[str] | None,
    plugin: list[Path] | None,
    runs: int,
    seed: int,
    precision: float | None,
    workers: int | None,
    plot: Path | None,
    as_json: bool,
    ai: str = "heuristic",
    dice: str = "single",
    scheduler: str | None = None,
    out: Path | None = None,
    resume: bool = False,
    page: Path | None = None,
    stopping: Interruptible | None = None,
) -> None:
    """Play both arms, print the report, then (``--plot``) write the chart and
    (``--report``) the report as a self-contained web page, the one the web lab
    offers (:func:`~hammerlab.analysis.report.lab_report_html`).

    The chart's and the page's paths and file types are checked before the battles
    are played (as ``sweep`` checks its ``--report``), as are the ``--rule`` and
    ``--set`` settings, so a typo costs nothing; the report is printed before the
    chart and the page are written, so a failure to write them loses no results,
    and a Ctrl-C leaves neither. Where they went is said last (on standard
    error under ``--json``, whose standard output is the one JSON document).
    ``--out``, ``--resume`` and ``--scheduler`` work as for ``hammerlab sweep``
    (the same runners and store: the two arms are two points of the store; what
    the store gave and took is said the same way, and so is a Ctrl-C, ``stopping``
    told the store once it is open).
    """
    if ai not in ("heuristic", "search"):
        raise usage_error("--ai", f"must be heuristic or search, not {ai!r}")
    processes = local_processes(workers, scheduler)
    check_store_flags(out, resume, dice, seed, runs)
    if dice == "keyed" and ai == "search":
        raise usage_error("--dice", "keyed dice are for the heuristic AI (--ai heuristic)")
    outputs = {"--plot": plot, "--report": page}
    check_outputs(outputs, [scenario, *(plugin or []), *store_files(out)])
    check_report_name(page)
    if plot is not None:
        from hammerlab.analysis.lab_plot import chart_type_problem  # matplotlib: only when asked

        problem = chart_type_problem(plot)
        if problem is not None:
            raise usage_error("--plot", problem)
    try:
        spec = load_scenario(scenario)
        check_outputs(outputs, source_files(scenario, spec))
        plugins = load_plugins(plugin, [spec.ruleset])
        try:
            # The rules known are the built-in ones and the files given, as the battles
            # will play them (compare's plugins_in_play), whatever else was loaded.
            with plugins_in_play(load_plugin_files(plugins)):
                experiment = arms(spec, rule, setting or [], str(scenario))
        except FlagError as error:  # a rule of another ruleset? say the scenario's
            if not error.unknown_name:
                raise
            raise FlagError(error.flag, f"{in_ruleset(str(scenario), spec)}: {error}") from error
        with runner_for(processes, scheduler) as runner, store_at(out) as store:
            if stopping is not None:
                stopping.store = store
            try:
                with progress("paired battles", 2 * runs, quiet=as_json) as advance:
                    report = compare(
                        spec, str(scenario), experiment, runs, seed, processes, plugins, advance,
                        ai, precision, dice, runner, store, resume,
                    )  # fmt: skip
            except KeyboardInterrupt as stop:
                raise interrupted(out, store, stop) from None
    except SweepError as error:
        raise usage_error("--out", error) from None
    except FlagError as error:
        raise usage_error(error.flag, error) from None
    except HammerlabError as error:
        raise fail(error) from None
    tally = store_tally(store, 2 * report.runs)
    if as_json:
        document: dict[str, Any] = report.to_dict()
        if tally is not None:
            document["store"] = tally
        typer.echo(json.dumps(document, indent=1))
    else:
        _print_report(report)
        tell_tally(tally)
    if plot is not None:
        from hammerlab.analysis.lab_plot import plot_report  # matplotlib: only when asked

        try:
            plot_report(report, plot)
        except OSError as error:
            raise fail(f"{plot}: cannot write the chart: {error.strerror or error}") from None
        typer.echo(f"chart written to {plot}", err=as_json)
    if page is not None:
        from hammerlab.analysis.report import lab_report_html  # matplotlib: only when asked

        write_file(page, lab_report_html(report))
        typer.echo(f"report written to {page}", err=as_json)


def _print_report(report: LabReport) -> None:
    """The report for people: what was compared and what both arms share, what each
    arm played of it (against the scenario's own ``[rules]``), the notes
    on rules not implemented, then the tables (units, winners, choices) and whether
    ``--precision`` was reached."""
    both = ", ".join(f"{k}={v}" for k, v in report.shared.items())
    console.print(
        f"{report.scenario}: baseline vs variant ({report.rule})"
        + (f", both arms with {both}" if both else "")
        + f", {report.runs} paired battles from seed {report.first_seed}, {report.ai} AI"
        + (", keyed dice" if report.dice == "keyed" else ""),
        markup=False,
    )
    console.print(f"Scenario file: {report.file_text}", markup=False)
    console.print(report.arms_text, markup=False)
    loaded = plugins_line(report.plugins)
    if loaded:
        console.print(loaded, markup=False)
    for warning in report.warnings:
        console.print(f"[yellow]note:[/yellow] {escape(warning)}")
    table = Table(
        "Unit",
        "Models fielded",
        "Mean models left: baseline",
        "Mean models left: variant",
        "Difference (95% CI)",
        "P(destroyed) baseline → variant",
    )
    for u in report.units:
        table.add_row(escape(u.unit), str(u.models_fielded), *report.unit_cells(u))
    print_table(table)
    console.print(f"Winner: {report.victory_text}", markup=False)
    wins = Table("Winner", "Baseline (95% CI)", "Variant (95% CI)", "Difference (95% CI)")
    for w in report.wins:
        wins.add_row(escape(w.outcome), *w.cells())
    print_table(wins)
    print_note(report.alike_note)
    print_note(report.rounding_note)
    if report.precision_note is not None:
        console.print(report.precision_note, markup=False)
    alike = (
        f"Paired battles that ended alike (every unit's models left, and the winner): "
        f"{report.ended_alike} of {report.runs}."
    )
    if report.ended_alike == report.runs:
        alike += " The change made no difference to any of them: it may never come into play here."
    console.print(alike, markup=False)
    if report.choices:
        used = Table("Choice of a rule given to --rule or --set", "Baseline", "Variant")
        for c in report.choices:
            used.add_row(
                escape(c.choice),
                f"chosen {c.baseline_chosen} of {c.baseline_offered}",
                f"chosen {c.variant_chosen} of {c.variant_offered}",
            )
        print_table(used)
    for warning in report.unused:
        console.print(warning, markup=False)
