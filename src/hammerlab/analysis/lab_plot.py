"""A picture of a rules-lab report: models left per unit and win rates, baseline vs variant."""

from __future__ import annotations

from pathlib import Path

from matplotlib.backend_bases import FigureCanvasBase
from matplotlib.figure import Figure

from hammerlab.analysis.lab import LabReport

NEEDS_TEX = frozenset({"pgf"})
"""File types matplotlib lists but writes only with a LaTeX installation: refused
before playing rather than failing after."""


def chart_types() -> list[str]:
    """The file types a chart can be written as (matplotlib's, less :data:`NEEDS_TEX`)."""
    return sorted(set(FigureCanvasBase.get_supported_filetypes()) - NEEDS_TEX)


def chart_type_problem(path: Path) -> str | None:
    """Why no chart can be written to ``path`` (its file type), or ``None``: checked
    before the battles are played, so that a wrong type costs nothing."""
    kind = path.suffix.lstrip(".").lower()
    if kind in chart_types():
        return None
    listed = ", ".join(f".{k}" for k in chart_types())
    if not kind:
        return f"{path}: the name has no file type; end it in one of {listed}"
    return f"{path}: cannot draw a chart as .{kind}; end the name in one of {listed}"


def plot_report(report: LabReport, path: Path) -> None:
    """Write a PNG with two panels: mean models left (with the 95% interval of
    the variant's difference) and the players' win rates, baseline vs variant."""
    figure = Figure(figsize=(11, 4.5))
    units_ax, wins_ax = figure.subplots(1, 2, width_ratios=(3, 2))
    names = [u.unit for u in report.units]
    spots = range(len(names))
    width = 0.38
    units_ax.bar(
        [x - width / 2 for x in spots],
        [u.baseline_mean for u in report.units],
        width,
        label="baseline",
        color="#8c8c8c",
    )
    errors = [
        [u.difference - u.ci95[0] for u in report.units],
        [u.ci95[1] - u.difference for u in report.units],
    ]
    units_ax.bar(
        [x + width / 2 for x in spots],
        [u.variant_mean for u in report.units],
        width,
        yerr=errors,
        capsize=3,
        label=f"variant: {report.rule}",
        color="#d1495b",
    )
    units_ax.set_xticks(list(spots), names, rotation=20, ha="right", fontsize=8)
    units_ax.set_ylabel("mean models left")
    units_ax.set_title(f"{report.scenario}: {report.runs} paired runs")
    units_ax.legend(fontsize=8)
    outcomes = list(report.baseline_wins)
    wins_ax.bar(
        [x - width / 2 for x in range(len(outcomes))],
        [report.baseline_wins[o] for o in outcomes],
        width,
        color="#8c8c8c",
        label="baseline",
    )
    wins_ax.bar(
        [x + width / 2 for x in range(len(outcomes))],
        [report.variant_wins[o] for o in outcomes],
        width,
        color="#d1495b",
        label=f"variant: {report.rule}",
    )
    wins_ax.set_xticks(list(range(len(outcomes))), outcomes, fontsize=8)
    wins_ax.set_ylim(0, 1)
    wins_ax.set_ylabel("share of battles")
    wins_ax.set_title("winner")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
