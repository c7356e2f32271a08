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


DIFFERENCE_BAR = "error bar: 95% interval of variant − baseline, paired (drawn at the variant)"
"""What the units panel's error bars are, in its legend: not the variant mean's own
interval, but the paired difference's, placed so its ends read as models left."""

WILSON_BAR = "error bars: 95% Wilson interval of each arm's rate"
"""What the winner panel's error bars are, in its legend."""


LEGEND_ROOM = 1.4
"""Each panel's height as a multiple of the most its bars can reach (a unit's
starting models, a rate of 1), leaving room above them for the legend."""


def plot_report(report: LabReport, path: Path) -> None:
    """Write the report's chart (:func:`lab_figure`) to ``path``."""
    lab_figure(report).savefig(path, dpi=110)


def lab_figure(report: LabReport) -> Figure:
    """Two panels: mean models left per unit, baseline and variant, with the 95%
    interval of the paired difference (variant − baseline) drawn at the variant's
    bar, and each player's (and the draw's) win rate in each arm with its 95%
    Wilson interval; every error bar says in its legend what it is."""
    figure = Figure(figsize=(11, 5))
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
    variant_spots = [x + width / 2 for x in spots]
    units_ax.bar(
        variant_spots,
        [u.variant_mean for u in report.units],
        width,
        label=f"variant: {report.rule}",
        color="#d1495b",
    )
    units_ax.errorbar(
        variant_spots,
        [u.variant_mean for u in report.units],
        yerr=[
            [u.difference - u.ci95[0] for u in report.units],
            [u.ci95[1] - u.difference for u in report.units],
        ],
        fmt="none",
        ecolor="black",
        capsize=3,
        label=DIFFERENCE_BAR,
    )
    units_ax.set_xticks(list(spots), names, rotation=20, ha="right", fontsize=8)
    most = max([1, *(u.models_fielded for u in report.units)])
    units_ax.set_ylim(0, most * LEGEND_ROOM)
    units_ax.set_ylabel("mean models left")
    units_ax.set_title(f"{report.scenario}: {report.runs} paired runs")
    units_ax.legend(fontsize=8)
    outcomes = [w.outcome for w in report.wins]
    for shift, arm, colour in (
        (-width / 2, "baseline", "#8c8c8c"),
        (width / 2, "variant", "#d1495b"),
    ):
        rates = [getattr(w, arm) for w in report.wins]
        wins_ax.bar(
            [x + shift for x in range(len(outcomes))],
            [r.mean for r in rates],
            width,
            yerr=[[r.mean - r.low for r in rates], [r.high - r.mean for r in rates]],
            capsize=3,
            color=colour,
            label="baseline" if arm == "baseline" else f"variant: {report.rule}",
        )
    wins_ax.set_xticks(list(range(len(outcomes))), outcomes, fontsize=8)
    wins_ax.set_ylim(0, LEGEND_ROOM)
    wins_ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1])
    wins_ax.set_ylabel("share of battles")
    wins_ax.set_title(f"winner ({WILSON_BAR})", fontsize=9)
    wins_ax.legend(fontsize=8)
    figure.tight_layout()
    return figure
