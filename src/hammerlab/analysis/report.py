"""Self-contained HTML reports: what was compared, how many battles, the seeds, the
method and every interval, with charts as inline SVG (no file or network needed).

A sweep's report has a section per scenario file (path and hash), with the
file's own ``[rules]`` and the special rules its datasheets have that the engine
does not implement, so two files that share a ``name`` stay apart and a reader
sees what differs between them.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from hammerlab.analysis.engine_version import plugins_line
from hammerlab.analysis.lab import PRECISION_ROUND, LabReport
from hammerlab.analysis.stats import Estimate, alike_note, interval, rounding_note
from hammerlab.analysis.sweep_grid import point_label
from hammerlab.analysis.sweep_results import (
    NOTES_UNKNOWN,
    PointResult,
    ScenarioFile,
    choices_text,
    seeds_text,
)
from hammerlab.editions.plugins import PluginFile
from hammerlab.engine.dice import KEYED_METHOD

STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.2em .5em}"
    "th{background:#eee}"
)


def _svg(points: Sequence[PointResult]) -> str:
    """Two panels for one scenario file: models left per unit and win rates, by grid point."""
    labels = [point_label(r.point) or "as written" for r in points]
    x = list(range(len(points)))
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for i, stat in enumerate(points[0].units):
        means = [r.units[i].models_left.mean for r in points]
        errors = [
            [r.units[i].models_left.mean - r.units[i].models_left.low for r in points],
            [r.units[i].models_left.high - r.units[i].models_left.mean for r in points],
        ]
        left.errorbar(x, means, yerr=errors, marker="o", capsize=3, label=stat.unit.id)
    left.set_title("Mean models left (95% CI)")
    for name in points[0].wins:
        means = [r.wins[name].mean for r in points]
        errors = [
            [r.wins[name].mean - r.wins[name].low for r in points],
            [r.wins[name].high - r.wins[name].mean for r in points],
        ]
        right.errorbar(x, means, yerr=errors, marker="o", capsize=3, label=name)
    right.set_title("Win rate (95% CI)")
    right.set_ylim(-0.05, 1.05)
    for axis in (left, right):
        axis.set_xticks(x, labels, rotation=30, ha="right", fontsize=8)
        axis.legend(fontsize=8)
    figure.tight_layout()
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg")
    plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    # Inline SVG in HTML needs neither namespaces nor RDF metadata, both written as
    # http URLs that nothing fetches: drop them, so the page names no URL at all.
    start, end = text.find("<metadata>"), text.find("</metadata>")
    if start >= 0 and end >= 0:
        text = text[:start] + text[end + len("</metadata>") :]
    for name in (
        'xmlns="http://www.w3.org/2000/svg"',
        'xmlns:xlink="http://www.w3.org/1999/xlink"',
    ):
        text = text.replace(" " + name, "")
    return text


def _table(result: PointResult) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(s.unit.label)} ({html.escape(s.unit.id)})</td>"
        f"<td>{html.escape(s.unit.player)}</td><td>{s.unit.models_fielded}</td>"
        f"<td>{interval(s.models_left, page=True)}</td>"
        f"<td>{_rate(s.destroyed)}</td></tr>"
        for s in result.units
    )
    wins = ", ".join(f"{html.escape(n)} {_rate(e)}" for n, e in result.wins.items())
    choices = f"; choices: {html.escape(choices_text(result.choices))}" if result.choices else ""
    return (
        f"<h3>{html.escape(result.source)} · "
        f"{html.escape(point_label(result.point) or 'as written')}</h3>"
        f"<p>{result.runs} battles, seeds {seeds_text(result.seeds)}"
        f"; win rate: {wins}{choices}</p><table><tr><th>Unit</th><th>Player</th><th>Models</th>"
        f"<th>Models left [95% CI]</th><th>P(destroyed) [95% CI]</th></tr>{rows}</table>"
    )


def _rate(e: Estimate) -> str:
    """A rate and its interval in percent, as every report writes it
    (:func:`~hammerlab.analysis.stats.interval`)."""
    return interval(e, percent=True, page=True)


def _winner(victory_text: str | None) -> str:
    """What decides who wins (the text's and JSON's ``victory_text``) as a paragraph, or
    nothing where it is not known: what the page's win rates count."""
    return f"<p><b>Winner:</b> {html.escape(victory_text)}</p>" if victory_text else ""


def _note(note: str | None) -> str:
    """``note`` (:func:`~hammerlab.analysis.stats.alike_note` or
    :func:`~hammerlab.analysis.stats.rounding_note`) as a paragraph, or nothing."""
    return "" if note is None else f"<p>{html.escape(note)}</p>"


def _plugins(plugins: Sequence[PluginFile]) -> str:
    """A paragraph naming the plug-in files that played (path and hash), or nothing."""
    line = plugins_line(plugins)
    return "" if line is None else f"<p>{html.escape(line)}</p>"


def _notes(warnings: Sequence[str] | None) -> str:
    """The datasheets' notes (special rules not implemented), as a list (``None``: not
    known, :attr:`~hammerlab.analysis.sweep_results.ScenarioFile.warnings`)."""
    if warnings is None:
        return f"<p><b>Not implemented:</b> {NOTES_UNKNOWN}.</p>"
    if not warnings:
        return "<p><b>Not implemented:</b> none noted.</p>"
    items = "".join(f"<li>{html.escape(w)}</li>" for w in warnings)
    return f"<p><b>Not implemented</b> (played without them):</p><ul>{items}</ul>"


def sweep_report(
    results: Sequence[PointResult],
    scenarios: Sequence[ScenarioFile],
    vary: Sequence[str],
    method: str,
    warnings: Sequence[str] = (),
) -> str:
    """The whole report as one HTML document: the ``warnings`` (a varied rule's choice
    never chosen), then a section per scenario file, with the points played on it
    (matched by the file's path and hash)."""
    battles = sum(r.runs for r in results)
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>hammerlab sweep</title><style>{STYLE}</style></head><body>",
        "<h1>hammerlab sweep</h1>",
        f"<p><b>Scenarios:</b> {html.escape(', '.join(f.source for f in scenarios))}</p>",
        f"<p><b>Varied:</b> {html.escape('; '.join(vary))}</p>",
        f"<p><b>Battles:</b> {battles} in all, {len(results)} grid points; engine "
        f"hammerlab {html.escape(', '.join(sorted({r.engine_version for r in results})))}</p>",
        _plugins(results[0].plugins if results else ()),
        f"<p><b>Method:</b> {html.escape(method)} Every point plays the same seeds, so points "
        "differ by their settings rather than by their dice.</p>",
        *(f"<p><b>{html.escape(w)}</b></p>" for w in warnings),
    ]
    for scenario in scenarios:
        key = (scenario.source, scenario.scenario_hash)
        points = [r for r in results if (r.source, r.scenario_hash) == key]
        parts += [
            f"<h2>{html.escape(scenario.source)}: {html.escape(scenario.name)} "
            f"<small>({scenario.scenario_hash})</small></h2>",
            f"<p><b>Its rules</b> (<code>[rules]</code>): {html.escape(scenario.rules_text)}</p>",
            _winner(scenario.victory_text),
            _notes(scenario.warnings),
            _svg(points),
            *(_table(r) for r in points),
            _note(alike_note(s.models_left for r in points for s in r.units)),
            _note(rounding_note(r.runs for r in points)),
        ]
    parts.append("</body></html>")
    return "\n".join(parts)


def lab_report_html(report: LabReport) -> str:
    """A lab report (``hammerlab lab``) as one self-contained HTML document: what was
    compared (and set in both arms, and what each arm played of it), how many paired
    battles from which seeds, the method, per unit the models left in each arm with
    the 95% interval of the paired difference, drawn as inline SVG bars, the win
    rates with their intervals, how many paired battles ended alike (as the CLI
    says), and the special rules not implemented."""
    seeds = f"{report.first_seed}..{report.first_seed + report.runs - 1}"
    rows = "".join(
        f"<tr><td>{html.escape(u.unit)}</td><td>{html.escape(u.player)}</td>"
        f"<td>{u.models_fielded}</td>{_cells(report.unit_cells(u, page=True))}</tr>"
        for u in report.units
    )
    wins = "".join(
        f"<tr><td>{html.escape(w.outcome)}</td>{_cells(w.cells(page=True))}</tr>"
        for w in report.wins
    )
    both = ", ".join(f"{k}={v}" for k, v in report.shared.items())
    return "\n".join(
        [
            "<!DOCTYPE html><html><head><meta charset='utf-8'>",
            f"<title>hammerlab lab</title><style>{STYLE}</style></head><body>",
            f"<h1>{html.escape(report.scenario)}</h1>",
            f"<p><b>Scenario file:</b> {html.escape(report.file_text)}</p>",
            f"<p><b>Compared:</b> {html.escape(report.rule)}"
            + (f", both arms with {html.escape(both)}" if both else "")
            + f"; {html.escape(report.arms_text)}.</p>",
            f"<p><b>Battles:</b> {report.runs} paired battles per arm, seeds {seeds}, "
            f"both sides played by the {html.escape(report.ai)} AI; engine hammerlab "
            f"{html.escape(report.engine_version)}.</p>",
            _plugins(report.plugins),
            f"<p><b>Method:</b> {html.escape(_lab_method(report))}</p>",
            _lab_svg(report),
            "<table><tr><th>Unit</th><th>Player</th><th>Models fielded</th>"
            "<th>Mean models left: baseline</th><th>Mean models left: variant</th>"
            "<th>Difference [95% CI]</th><th>P(destroyed)</th></tr>"
            f"{rows}</table>",
            _winner(report.victory_text),
            "<table><tr><th>Winner</th><th>Baseline [95% CI]</th><th>Variant [95% CI]</th>"
            f"<th>Difference [95% CI]</th></tr>{wins}</table>",
            _note(report.alike_note),
            _note(report.rounding_note),
            f"<p><b>Paired battles that ended alike</b> (every unit's models left, and the "
            f"winner): {report.ended_alike} of {report.runs}.</p>",
            _choices(report),
            *(f"<p><b>{html.escape(w)}</b></p>" for w in report.unused),
            _notes(report.warnings),
            "</body></html>",
        ]
    )


def _lab_method(report: LabReport) -> str:
    """How the lab's figures were made, all the text and ``--json`` say of it: the paired
    seeds and intervals, keyed dice (other dice give other battles), and a sequential
    stop at ``--precision`` and whether it was reached (docs/scale.md, "Sequential
    stopping")."""
    method = [
        "both arms play the same seeds (common random numbers); differences have 95% "
        "Student's t intervals of the paired differences, each arm's win rate a 95% "
        "Wilson interval."
    ]
    if report.dice == "keyed":
        method.append(KEYED_METHOD)
    if report.precision_note is not None:
        method.append(
            f"Seeds were played in rounds of {PRECISION_ROUND} until every unit's interval "
            f"of the paired difference was narrower than {report.precision:g}, or --runs "
            "ran out (intervals read at such a data-dependent stop are slightly "
            "optimistic)."
        )
        method.append(report.precision_note)
    return " ".join(method)


def _cells(texts: Sequence[str]) -> str:
    """``texts`` as a table row's cells."""
    return "".join(f"<td>{html.escape(text)}</td>" for text in texts)


def _choices(report: LabReport) -> str:
    """The choices of the rules ``--rule`` compares or ``--set`` sets (not those only the
    scenario file's ``[rules]`` set), how often each arm made each one (the
    CLI's table): the reason a change made no difference is often a choice never made."""
    if not report.choices:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(c.choice)}</td>"
        f"<td>chosen {c.baseline_chosen} of {c.baseline_offered}</td>"
        f"<td>chosen {c.variant_chosen} of {c.variant_offered}</td></tr>"
        for c in report.choices
    )
    return (
        "<table><tr><th>Choice of a rule given to --rule or --set</th><th>Baseline</th>"
        f"<th>Variant</th></tr>{rows}</table>"
    )


def _lab_svg(report: LabReport) -> str:
    """Mean models left per unit, baseline (grey) and variant (blue), as SVG bars."""
    width, label, bar = 640, 220, 12
    most = max([1, *(u.models_fielded for u in report.units)])
    scale = (width - label - 20) / most
    parts = []
    for row, u in enumerate(report.units):
        y = 10 + row * (2 * bar + 14)
        parts.append(f"<text x='0' y='{y + bar + 4}' font-size='12'>{html.escape(u.unit)}</text>")
        for shift, value, colour in ((0, u.baseline_mean, "#999"), (bar, u.variant_mean, "#36c")):
            parts.append(
                f"<rect x='{label}' y='{y + shift}' width='{value * scale:.1f}' "
                f"height='{bar}' fill='{colour}'><title>{value:.2f}</title></rect>"
            )
    height = 20 + len(report.units) * (2 * bar + 14)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"role='img' aria-label='models left, baseline and variant'>{''.join(parts)}</svg>"
    )
