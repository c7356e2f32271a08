"""How much keyed dice shrink the noise of a paired comparison (issue 14, section 2).

For three examples and a rule change each, both arms (rule as it is, rule
changed) are played on the same seeds, once with one dice stream per battle
(``single``) and once with streams keyed by turn, unit and roll (``keyed``).
For two metrics per battle — models destroyed in all (the kill metric) and
whether the first player won (the win metric) — it prints the standard
deviation of the paired difference (variant − baseline on the same seed)
beside the unpaired one, sqrt(var(baseline) + var(variant)), which is what
independent seeds would give. Their ratio is the share of the noise pairing
leaves; its square, the share of the battles needed for the same interval.

Run: ``.venv/bin/python benchmarks/crn_variance.py [RUNS] [WORKERS]`` (default 200, 2).
Not part of ``make bench``: it plays 2 x 2 x RUNS battles per example.
"""

from __future__ import annotations

import sys
from pathlib import Path
from statistics import fmean, pstdev

from hammerlab.analysis.lab import Outcome, arm_point, arms
from hammerlab.analysis.runners import Runner
from hammerlab.analysis.sweep import play_seeds
from hammerlab.analysis.sweep_grid import case_at
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = (
    ("guard_suppress_terminators.toml", "suppressive_fire"),
    ("whole_game_three_turns.toml", "return_fire=off"),
    ("assault_charge_into_overwatch.toml", "fiery_charge"),
)


def _sds(base: list[float], variant: list[float]) -> tuple[float, float]:
    paired = pstdev([v - b for b, v in zip(base, variant, strict=True)])
    unpaired = (pstdev(base) ** 2 + pstdev(variant) ** 2) ** 0.5
    return paired, unpaired


def main() -> None:
    """Print one line per example, metric and dice mode."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    print(f"{runs} seeds per arm; sd of the paired difference / unpaired sd (ratio)")
    with Runner(workers) as runner:
        for name, rule in EXPERIMENTS:
            path = ROOT / "examples" / name
            scenario = load_scenario(path)
            experiment = arms(scenario, [rule])
            first = scenario.players[0].name
            for dice in ("single", "keyed"):
                pair = [
                    case_at(scenario, str(path), arm_point(s), 1, dice=dice)
                    for s in (experiment.baseline, experiment.variant)
                ]
                played: list[dict[int, Outcome]] = [{}, {}]
                seeds = range(1, runs + 1)
                play_seeds(pair, {0: seeds, 1: seeds}, played, runner)
                start = sum(u.starting_models for u in pair[0].units)

                def kills(o: Outcome, start: int = start) -> float:
                    return float(start - sum(o.models_left.values()))

                def won(o: Outcome, first: str = first) -> float:
                    return float(o.winner == first)

                for metric, read in (("kills", kills), ("win", won)):
                    base = [read(played[0][s]) for s in seeds]
                    variant = [read(played[1][s]) for s in seeds]
                    paired, unpaired = _sds(base, variant)
                    ratio = paired / unpaired if unpaired else 0.0
                    print(
                        f"{name:36} {rule:18} {metric:5} {dice:6} paired {paired:6.3f} "
                        f"unpaired {unpaired:6.3f} ratio {ratio:5.2f}"
                        f"  mean difference {fmean(variant) - fmean(base):+.3f}"
                    )


if __name__ == "__main__":
    main()
