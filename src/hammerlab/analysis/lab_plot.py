"""A picture of a rules-lab report: models left per unit and win rates, baseline vs variant."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from hammerlab.analysis.lab import LabReport


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
        label="baseline (off)",
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
        label=f"{report.rule} on",
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
        label="baseline (off)",
    )
    wins_ax.bar(
        [x + width / 2 for x in range(len(outcomes))],
        [report.variant_wins[o] for o in outcomes],
        width,
        color="#d1495b",
        label=f"{report.rule} on",
    )
    wins_ax.set_xticks(list(range(len(outcomes))), outcomes, fontsize=8)
    wins_ax.set_ylim(0, 1)
    wins_ax.set_ylabel("share of battles")
    wins_ax.set_title("winner")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
