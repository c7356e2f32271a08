"""``hammerlab sweep``, ``results`` and ``balance``: experiments at scale. Imported
only when one of them runs."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from rich.table import Table

from hammerlab.analysis.engine_version import plugins_line
from hammerlab.analysis.runners import DaskRunner, Runner
from hammerlab.analysis.stats import alike_note, interval, rounding_note
from hammerlab.analysis.sweep import seeds_past_store, sweep
from hammerlab.analysis.sweep_grid import (
    SameScenarioError,
    SweepError,
    alike_points,
    cases,
    check_distinct,
    parse_axes,
    point_label,
    switched_on,
)
from hammerlab.analysis.sweep_results import (
    NOTES_UNKNOWN,
    PointResult,
    ScenarioFile,
    choices_text,
    never_chosen_at_any_point,
    scenario_files,
    seeds_text,
)
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
from hammerlab.engine.dice import DICE_MODES, KEYED_METHOD
from hammerlab.engine.rules import RuleSettingError, UnknownRuleError
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

if TYPE_CHECKING:
    from hammerlab.analysis.balance import Balance
    from hammerlab.analysis.store import ResultStore


def runner_for(workers: int, scheduler: str | None) -> AbstractContextManager[Runner]:
    """A Dask cluster's runner when ``--scheduler`` is given, else local processes."""
    return DaskRunner(scheduler) if scheduler else Runner(workers)


def local_processes(workers: int | None, scheduler: str | None) -> int:
    """The local processes ``--workers`` asks for (1 when not given). Given with
    ``--scheduler``, which plays on a Dask cluster instead, it would be dropped
    without a word: a usage error, before anything is read or played."""
    if workers is not None and scheduler is not None:
        raise usage_error(
            "--workers", "cannot go with --scheduler, which plays on the Dask cluster instead"
        )
    return workers or 1


def run_sweep(
    *,
    scenarios: list[Path],
    vary: list[str],
    runs: int,
    precision: float | None,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    plugin: list[Path] | None,
    out: Path | None,
    resume: bool,
    report: Path | None,
    csv_file: Path | None,
    as_json: bool,
    dice: str = "single",
    stopping: Interruptible | None = None,
) -> None:
    """Check every input, play the grid (storing each battle under ``--out``), then
    print the table or the JSON document and write the report and CSV.

    The text, JSON, CSV and report say per point how often the choices of the rules
    varied were offered and chosen, which rules a varied parameter switches on, and
    warn of a choice offered but chosen at no point (:func:`never_chosen_at_any_point`).
    With ``--out``, what the store gave and took is said: in the JSON document's
    ``store``, else on standard error. A Ctrl-C ends the run with one line saying
    what the store kept (:func:`interrupted`); ``stopping``, the command's
    :class:`Interruptible`, is told the store once it is open, to count it for a Ctrl-C
    that comes later."""
    processes = local_processes(workers, scheduler)
    reads = [*scenarios, *(plugin or []), *store_files(out)]
    check_outputs({"--report": report, "--csv": csv_file}, reads)
    check_report_name(report)
    check_store_flags(out, resume, dice, seed, runs)
    try:
        axes = parse_axes(vary)
        loaded = [(load_scenario(p), str(p)) for p in scenarios]
        try:
            check_distinct(loaded)
        except SameScenarioError as error:
            raise usage_error("SCENARIO", error) from None
        sources = [
            f for p, (s, _) in zip(scenarios, loaded, strict=True) for f in source_files(p, s)
        ]
        check_outputs({"--report": report, "--csv": csv_file}, sources)
        plugins = load_plugins(plugin, {s.ruleset for s, _ in loaded})
        grid_cases = cases(loaded, axes, seed, dice, plugins)
    except RuleSettingError as error:
        raise vary_error(error) from None
    except HammerlabError as error:
        raise fail(error) from None
    try:
        with runner_for(processes, scheduler) as runner, store_at(out) as store:
            if stopping is not None:
                stopping.store = store
            try:
                with progress("battles", runs * len(grid_cases), quiet=as_json) as advance:
                    results = sweep(
                        grid_cases, runs, seed, runner, precision, store, resume, advance
                    )
            except KeyboardInterrupt as stop:
                raise interrupted(out, store, stop) from None
    except SweepError as error:
        raise usage_error("--out", error) from None
    except HammerlabError as error:
        raise fail(error) from None
    method = _method(runs, precision, seed, processes, scheduler)
    if dice == "keyed":
        method += f" {KEYED_METHOD}"
    files = scenario_files(grid_cases)
    reached = _precision_line(results, precision, runs)
    tally = store_tally(store, sum(r.runs for r in results))
    implied = switched_on(axes, [s for s, _ in loaded])
    rules_on = _switched_on_line(implied)
    warnings = [*alike_points(grid_cases), *never_chosen_at_any_point(results)]
    plugged = plugins_line(grid_cases[0].plugins)
    if as_json:
        document: dict[str, Any] = {
            "method": method,
            "precision": precision,
            "precision_reached": None if precision is None else not _unreached(results, precision),
            "switched_on": implied,
            "scenarios": [f.to_dict() for f in files],
            "points": [
                {**r.to_dict(), "precision_reached": _reached(r, precision)} for r in results
            ],
            "warnings": warnings,
        }
        if tally is not None:
            document["store"] = tally
        typer.echo(json.dumps(document, indent=1))
    else:
        console.print(method, markup=False)
        for line in (plugged, rules_on):
            if line:
                console.print(line, markup=False)
        print_files(files)
        print_points(results)
        if reached:
            console.print(reached, markup=False)
        for warning in warnings:
            console.print(warning, markup=False)
        tell_tally(tally)
    if csv_file is not None:
        write_file(csv_file, csv_text(results))
    if report is not None:
        from hammerlab.analysis.report import sweep_report  # matplotlib: only when asked

        noted = " ".join(line for line in (method, rules_on, reached) if line)
        write_file(report, sweep_report(results, files, vary, noted, warnings))
        typer.echo(f"report written to {report}", err=as_json)


def vary_error(error: RuleSettingError) -> typer.Exit:
    """A ``--vary`` mistake of ``sweep`` or ``balance`` as one usage error line; an
    unknown key's also names the form of the other kind of key they vary, a unit's
    size (a misspelt ``units.`` was answered with the rules alone)."""
    if isinstance(error, UnknownRuleError):
        error = UnknownRuleError(f"{error}; or a unit's size: units.ID.size")
    return usage_error("--vary", error)


def _switched_on_line(implied: Mapping[str, str], where: str = "point") -> str | None:
    """One sentence naming the rules on at every ``where`` (a sweep's point, a balance's
    probe) because a parameter of theirs is varied (``None``: none are)."""
    if not implied:
        return None
    named = ", ".join(f"{rule} (by {key})" for rule, key in implied.items())
    return f"On at every {where}, since a parameter of theirs is varied: {named}."


REPORT_SUFFIXES = (".html", ".htm")
"""What ``--report`` may be called: it writes one HTML page."""


def check_report_name(report: Path | None) -> None:
    """``--report`` (``sweep``, ``lab``) names an HTML page (:data:`REPORT_SUFFIXES`):
    another name is a usage error, before anything is played."""
    if report is not None and report.suffix.lower() not in REPORT_SUFFIXES:
        raise usage_error("--report", f"{report}: the report is a web page; name it .html")


def check_store_flags(out: Path | None, resume: bool, dice: str, seed: int, runs: int) -> None:
    """``--resume`` needs ``--out``, which names a folder (there or not yet), not a
    file; ``--dice`` is one of the modes; every seed the run
    may play, ``--seed`` to ``--seed`` + ``--runs`` - 1, is at most :data:`MAX_SEED`.

    The seeds are checked with or without ``--out``, before anything is played: a
    run without a store is the same run as with one, so it takes the same seeds."""
    if resume and out is None:
        raise usage_error("--resume", "needs --out DIR (the store to resume)")
    check_store_folder("--out", out)
    if dice not in DICE_MODES:
        raise usage_error("--dice", f"must be {' or '.join(DICE_MODES)}, not {dice!r}")
    problem = seeds_past_store(seed, runs, "--runs", "--seed")
    if problem is not None:
        raise usage_error("--seed", problem)


def check_store_folder(flag: str, folder: Path | None) -> None:
    """A store to write (``--out``, ``--merge-into``) is a folder, there or not yet:
    a file there is a usage error naming ``flag``."""
    if folder is not None and folder.exists() and not folder.is_dir():
        raise usage_error(flag, f"{folder} is a file; give the folder to keep the results in")


def store_at(out: Path | None) -> AbstractContextManager[ResultStore | None]:
    """The results store in ``out`` (nothing without ``--out``)."""
    from contextlib import nullcontext

    if out is None:
        return nullcontext(None)
    from hammerlab.analysis.store import ResultStore

    return ResultStore(out)


def store_tally(store: ResultStore | None, battles: int) -> dict[str, Any] | None:
    """What a run that used ``battles`` battles in all took from its store and added
    to it: ``folder``, ``reused`` and ``played`` (every battle played is stored, the
    rest were read back); ``None`` without ``--out``."""
    if store is None:
        return None
    return {"folder": str(store.folder), "reused": battles - store.added, "played": store.added}


def tell_tally(tally: dict[str, Any] | None) -> None:
    """Say on standard error what the run reused from its store and played (if it had one)."""
    if tally is not None:
        typer.echo(
            f"{tally['folder']}: {tally['reused']} battles reused from the store, "
            f"{tally['played']} played and stored",
            err=True,
        )


def _method(runs: int, precision: float | None, seed: int, workers: int, sched: str | None) -> str:
    where = f"Dask cluster {sched}" if sched else f"{workers} local process(es)"
    stop = (
        f"until every 95% interval is narrower than {precision} (rounds of 50 seeds, "
        f"at most {runs})"
        if precision is not None
        else f"{runs} battles"
    )
    return (
        f"Every grid point plays seeds {seed}, {seed + 1}, ... ({stop}) on {where}; "
        "95% intervals: Student's t for mean models left (cut to 0..the unit's "
        "models, what a count can be; a bound where every battle was alike), Wilson for rates."
    )


def _reached(result: PointResult, precision: float | None) -> bool | None:
    """Whether every interval of the point is narrower than ``precision`` (``None``
    without one): the sweep's own stopping rule."""
    return None if precision is None else result.widest < precision


def _unreached(results: Sequence[PointResult], precision: float) -> list[PointResult]:
    """The points whose rounds stopped at ``--runs`` before reaching ``precision``."""
    return [r for r in results if not _reached(r, precision)]


def _precision_line(
    results: Sequence[PointResult], precision: float | None, runs: int
) -> str | None:
    """One sentence: whether ``--precision`` was reached at every point, and if not,
    where --runs stopped it and how wide the widest interval stayed."""
    if precision is None:
        return None
    short = _unreached(results, precision)
    if not short:
        return f"Precision {precision:g} reached at every point: each interval is narrower."
    return (
        f"Precision {precision:g} not reached at {len(short)} of {len(results)} point(s): "
        f"--runs {runs} ran out with intervals up to {max(r.widest for r in short):.3g} wide; "
        "raise --runs."
    )


def print_note(note: str | None) -> None:
    """Print ``note`` (:func:`~hammerlab.analysis.stats.alike_note` or
    :func:`~hammerlab.analysis.stats.rounding_note`), if there is one."""
    if note is not None:
        console.print(note, markup=False)


def print_files(files: Sequence[ScenarioFile]) -> None:
    """Each scenario file a sweep played: its name and hash, its own ``[rules]``, what
    decides who wins (what the win rates count) and the special rules not implemented
    (as ``hammerlab battle`` notes them)."""
    for f in files:
        console.print(
            f"\n{f.source}: {f.name} (hash {f.scenario_hash}); its rules: {f.rules_text}",
            markup=False,
        )
        if f.victory_text is not None:
            console.print(f"Winner: {f.victory_text}", markup=False)
        if f.warnings is None:
            console.print(f"special rules not implemented: {NOTES_UNKNOWN}", markup=False)
        for warning in f.warnings or ():
            console.print(f"[yellow]note:[/yellow] {escape(warning)}")


def print_points(results: Sequence[PointResult], engine: bool = False) -> None:
    """One table per grid point: models left per unit, then win rates and how often the
    choices of the rules varied were offered and chosen. The heading
    names the scenario file (its hash where the file is not known, and beside its
    path where the results hold several versions of the file: a store of a file
    edited between two sweeps), so two files that share a name are told apart; the
    seeds (``N battles from seed S`` when they follow on, else their ranges); and,
    with ``engine``, the engine version that played them."""
    versions: dict[str, set[str]] = {}
    for result in results:
        versions.setdefault(result.source, set()).add(result.scenario_hash)
    for result in results:
        file = result.source or result.scenario_hash
        if result.source and len(versions[result.source]) > 1:
            file += f" (hash {result.scenario_hash})"
        seeds = (
            f" from seed {result.first_seed}"
            if len(result.seeds) == 1
            else f", seeds {seeds_text(result.seeds)}"
        )
        console.print(
            f"\n{file} ({result.scenario}) · "
            f"{point_label(result.point) or 'as written'} · "
            f"{result.runs} battles{seeds}"
            + (f" · engine {result.engine_version}" if engine else ""),
            markup=False,
        )
        table = Table("Unit", "Player", "Models", "Models left (95% CI)", "P(destroyed)")
        for s in result.units:
            table.add_row(
                escape(s.unit.label), escape(s.unit.player), str(s.unit.models_fielded),
                interval(s.models_left), interval(s.destroyed, percent=True),
            )  # fmt: skip
        print_table(table)
        console.print(
            "Win rate: "
            + ", ".join(f"{name} {interval(e, percent=True)}" for name, e in result.wins.items()),
            markup=False,
        )
        if result.choices:
            console.print(f"Choices: {choices_text(result.choices)}", markup=False)
    print_note(alike_note(s.models_left for result in results for s in result.units))
    print_note(rounding_note(result.runs for result in results))


def rows_csv(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A query's rows as CSV, under a header of its column names."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return buffer.getvalue()


def csv_text(results: Sequence[PointResult]) -> str:
    """Every metric of every point, one row each."""
    rows = [row for r in results for row in r.csv_rows()]
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    return rows_csv(columns, [[row.get(c, "") for c in columns] for row in rows])


def run_results(
    folders: list[Path],
    sql: str | None,
    merge_into: Path | None,
    csv_file: Path | None,
    as_json: bool,
) -> None:
    """Merge, query or summarize stored battles. ``--csv`` writes what is shown: the
    query's rows with ``--query``, else every metric; a merge shows neither, so
    ``--merge-into`` with ``--query`` or ``--csv`` is a usage error, as are a store
    given twice (as ``sweep`` refuses a scenario given twice), a ``--merge-into``
    that is a file or one of the stores read (checked before any is opened), and a
    ``--query`` with no statement (:func:`~hammerlab.analysis.store.no_statement`)
    or one that is not a read (:func:`~hammerlab.analysis.store.not_a_read`).
    A query shows at most :data:`~hammerlab.analysis.store.MAX_QUERY_ROWS` rows, and
    says on standard error when there were more.

    A summary says per point how often the choices of the rules its keys set were
    offered and chosen, and warns of one offered but chosen at no point
    (:func:`never_chosen_at_any_point`), as ``sweep`` does (in the JSON document's
    ``warnings``). A store that holds no battle is said to (a note on standard error;
    an error where every store given is empty, rather than an empty summary)."""
    from hammerlab.analysis.store import (
        MAX_QUERY_ROWS,
        MergeInterruptedError,
        empty_stores,
        merge,
        no_statement,
        not_a_read,
        query,
        stored_files,
        summaries,
    )

    read: dict[Path, Path] = {}
    for folder in folders:
        where = folder.resolve()
        if where in read:
            raise usage_error("DIR", f"{folder} is given twice; give each store once")
        read[where] = folder
    if merge_into is not None:
        for given, flag in ((sql, "--query"), (csv_file, "--csv")):
            if given is not None:
                raise usage_error(flag, "cannot go with --merge-into, which only copies battles")
        check_store_folder("--merge-into", merge_into)
        if merge_into.resolve() in read:
            raise usage_error(
                "--merge-into", f"{merge_into} is one of the stores read; give another folder"
            )
    if sql is not None and no_statement(sql):
        raise usage_error(
            "--query", "no SQL statement to run (it is empty, or only comments and ';')"
        )
    refused = None if sql is None else not_a_read(sql)
    if refused is not None:
        raise usage_error("--query", refused)
    check_outputs({"--csv": csv_file}, [f for folder in folders for f in store_files(folder)])
    try:
        if merge_into is not None:
            try:
                added = merge(folders, merge_into)
            except MergeInterruptedError as error:
                typer.echo(str(error), err=True)
                raise typer.Exit(130) from None
            message = f"{added} battles added to {merge_into}"
            if as_json:
                typer.echo(json.dumps({"merged_into": str(merge_into), "battles_added": added}))
            else:
                console.print(message, markup=False)
            return
        if sql is not None:
            columns, rows = query(folders, sql, MAX_QUERY_ROWS + 1)
            if len(rows) > MAX_QUERY_ROWS:
                rows = rows[:MAX_QUERY_ROWS]
                typer.echo(
                    f"--query: only the first {MAX_QUERY_ROWS} rows are shown (and written "
                    "with --csv): the query gives more; count or group them in SQL, or read "
                    "the store with DuckDB's own client",
                    err=True,
                )
            if as_json:
                typer.echo(json.dumps([dict(zip(columns, r, strict=True)) for r in rows],
                                      indent=1, default=str))  # fmt: skip
            else:
                table = Table(*columns)
                for row in rows:
                    table.add_row(*(escape(str(v)) for v in row))
                print_table(table)
            if csv_file is not None:
                write_file(csv_file, rows_csv(columns, rows))
            return
        empty = empty_stores(folders)
        if len(empty) == len(folders):
            names = ", ".join(str(f) for f in folders)
            holds = "the store holds" if len(folders) == 1 else "the stores hold"
            raise fail(
                f"{names}: {holds} no battles, nothing to summarize (a sweep or lab "
                "stopped before it stored its first batch leaves a store so)"
            )
        for folder in empty:
            typer.echo(f"note: {folder}: the store holds no battles", err=True)
        results = summaries(folders)
        files = stored_files(folders)
    except HammerlabError as error:
        raise fail(error) from None
    warnings = never_chosen_at_any_point(results)
    if as_json:
        document = {
            "scenarios": [f.to_dict() for f in files],
            "points": [r.to_dict() for r in results],
            "warnings": warnings,
        }
        typer.echo(json.dumps(document, indent=1))
    else:
        print_files(files)
        print_points(results, engine=True)
        for warning in warnings:
            console.print(warning, markup=False)
    if csv_file is not None:
        write_file(csv_file, csv_text(results))


def run_balance(
    *,
    scenario: Path,
    vary: str,
    target: str,
    player: str | None,
    runs: int,
    tolerance: float,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    plugin: list[Path] | None,
    as_json: bool,
) -> None:
    """Check the question (a mistake, or a goal no value can reach, is a usage error
    before any battle), run the solver with a spinner, print the answer (naming the
    player only for a win rate: a unit's models left is nobody's choice of player)."""
    from hammerlab.analysis.balance import ROUND_RUNS, balance_scenario, parse_question
    from hammerlab.analysis.lab import FlagError
    from hammerlab.analysis.sweep_grid import Axis, case_at

    processes = local_processes(workers, scheduler)
    try:
        spec = load_scenario(scenario)
        plugins = load_plugins(plugin, [spec.ruleset])
        question = parse_question(spec, str(scenario), vary, target, player, plugins)
        # What every probe plays but the value: the file, its [rules] and notes, the
        # plug-ins and the engine (a rules writer's review: balance said none of them).
        first = case_at(spec, str(scenario), ((question.key, question.text(question.low)),),
                        plugins=plugins)  # fmt: skip
    except FlagError as error:
        raise usage_error(error.flag, error) from None
    except RuleSettingError as error:
        raise vary_error(error) from None
    except HammerlabError as error:
        raise fail(error) from None
    try:
        with (
            runner_for(processes, scheduler) as runner,
            progress("battles", None, quiet=as_json) as advance,
        ):
            answer = balance_scenario(
                spec, str(scenario), question, runner, seed, min(ROUND_RUNS, runs), runs,
                tolerance, plugins, advance,
            )  # fmt: skip
    except HammerlabError as error:
        raise fail(error) from None
    (file,) = scenario_files([first])
    implied = switched_on([Axis(question.key, (question.text(question.low),))], [spec])
    if as_json:
        whose = {"player": question.player} if question.metric == "win_rate" else {}
        document = {"scenario": spec.name, "source": file.source,
                    "scenario_hash": file.scenario_hash, "rules": dict(file.rules),
                    "key": question.key, "metric": question.metric, **whose,
                    "first_seed": seed, "switched_on": implied,
                    "plugins": [p.to_dict() for p in first.plugins],
                    "engine_version": first.engine_version, **answer.to_dict(),
                    "warnings": list(file.warnings or ())}  # fmt: skip
        typer.echo(json.dumps(document, indent=1))
        return
    for line in (plugins_line(first.plugins), _switched_on_line(implied, "probe")):
        if line:
            console.print(line, markup=False)
    print_files([file])
    who = f" ({question.player})" if question.metric == "win_rate" else ""
    console.print(
        f"\n{spec.name}: {question.metric}{who} = {question.goal} over {question.key} in "
        f"{question.low:g}..{question.high:g}; {answer.battles} battles from seed {seed} · "
        f"engine {first.engine_version}",
        markup=False,
    )
    table = Table(question.key, f"{question.metric} (95% CI)", "Battles")
    for p in answer.probes:
        table.add_row(f"{p.value:g}", interval(p.estimate), str(p.estimate.n))
    print_table(table)
    print_note(alike_note(p.estimate for p in answer.probes))
    measured = f"{question.metric} {_measured_where(answer)}: {interval(answer.estimate)}"
    if not answer.found:
        console.print(
            f"no answer: {answer.why}; best estimate: {question.key} = {answer.value:g} "
            f"({measured})",
            markup=False,
        )
        return
    console.print(
        f"answer: {question.key} = {answer.value:g} (the root lies in "
        f"{answer.bracket[0]:g}..{answer.bracket[1]:g}; {measured})",
        markup=False,
    )


def _measured_where(answer: Balance) -> str:
    """Where the answer's estimate was measured, for people: ``there`` at the answer
    itself, else the probe it comes from (an interpolated answer was never played:
    a rules writer's review read a probe's estimate as the answer's)."""
    if answer.estimate_at == answer.value:
        return "there"
    return f"at {answer.estimate_at:g}, the probe nearer the goal (none was played at the answer)"
