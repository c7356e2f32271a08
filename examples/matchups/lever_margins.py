"""One player's heuristic with one of its levers on, then off, seed by seed (docs/ai.md).

``lever_head_to_head.py`` counts games won with the lever on against it off,
each on both sides; most games are decided by the armies and the dice, and a
scenario one side always wins (a short scenario built for one decision)
reads the same either way. This plays every scenario given, seeds
FIRST..FIRST+N-1, twice: PLAYER's heuristic with LEVER on, then off, the
other player the heuristic as it is, on keyed dice (the two runs of a seed
roll alike wherever they play alike). It prints per scenario PLAYER's mean
victory-score margin each way and the paired difference (on - off) with
its standard error, then the same over all the games.

    .venv/bin/python examples/matchups/lever_margins.py LEVER PLAYER FIRST N FILES...
    # the order of fire, the Ultramarines' at the Guard column:
    .venv/bin/python examples/matchups/lever_margins.py weighs_the_order Ultramarines \\
        1 100 order3.toml
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from lever_head_to_head import LEVERS  # the scripts beside this one

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario, load_scenario


def margin(scenario: Scenario, source: str, player: str, seed: int, ai: WaffleAI) -> int:
    """``player``'s victory-score margin in one game, ``ai`` playing it."""
    ready = prepare(scenario, source, seed, dice="keyed")
    battle = ready.battle
    battle.controllers[player] = ai
    play(battle, ready.ruleset, ready.plan)
    scores = victory_scores(battle, ready.plan.victory)
    return scores[player] - scores[battle.opponent(player)]


def summary(name: str, on: list[int], off: list[int]) -> str:
    """One line: the mean margins and the paired difference with its standard error."""
    paired = [a - b for a, b in zip(on, off, strict=True)]
    error = statistics.stdev(paired) / len(paired) ** 0.5
    return (
        f"{name}: on {statistics.fmean(on):+.3f}, off {statistics.fmean(off):+.3f}, "
        f"on - off {statistics.fmean(paired):+.3f} ± {error:.3f} over {len(paired)} "
        f"(better in {sum(d > 0 for d in paired)}, worse in {sum(d < 0 for d in paired)})"
    )


def main() -> None:
    """Play both runs of every seed of every scenario and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lever", choices=LEVERS)
    parser.add_argument("player")
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    if args.seeds < 2:  # a paired difference's standard error needs two
        parser.exit(2, f"error: {args.seeds} seeds: use 2 or more\n")
    seeds = range(args.first, args.first + args.seeds)
    every_on: list[int] = []
    every_off: list[int] = []
    for path in args.files:
        try:  # a scenario that cannot be read is one line, as on the command line
            scenario = load_scenario(path)
        except HammerlabError as error:
            parser.exit(2, f"error: {error}\n")
        if args.player not in [p.name for p in scenario.players]:
            parser.exit(2, f"error: player {args.player!r}: not in {path}\n")
        on = [
            margin(scenario, str(path), args.player, s, WaffleAI(**{args.lever: True}))
            for s in seeds
        ]
        off = [
            margin(scenario, str(path), args.player, s, WaffleAI(**{args.lever: False}))
            for s in seeds
        ]
        print(summary(path.name, on, off))
        every_on += on
        every_off += off
    if len(args.files) > 1:
        print(summary("all", every_on, every_off))


if __name__ == "__main__":
    main()
