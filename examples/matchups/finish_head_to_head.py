"""The heuristic AI finishing weakened enemy units against itself as it was (docs/ai.md).

Under kill points the heuristic weighs a model of an enemy unit at its share
of what is left of the unit's point (``WaffleAI(finish_units=True)``, the
default: :func:`victory_worth.model_worth`); until branch ``issue9-finish``
it weighed it at its starting share. This plays every scenario given, seeds
FIRST..FIRST+N-1, twice (each side once) with the heuristic AI on both
sides, one finishing and one not, and prints per scenario each side's wins
and the draws, then the totals and a two-sided sign test over the decisive
games.

    .venv/bin/python examples/matchups/finish_head_to_head.py FIRST N FILES...
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.io.scenario import load_scenario


def sign_test(wins: int, losses: int) -> float:
    """Two-sided p-value of ``wins`` against ``losses`` if either were as likely."""
    n = wins + losses
    tail = sum(math.comb(n, k) for k in range(max(wins, losses), n + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> None:
    """Play both sides of every scenario and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    total: Counter[str] = Counter()
    for path in args.files:
        scenario, tally = load_scenario(path), Counter[str]()
        for seed in range(args.first, args.first + args.seeds):
            for finishing_side in (0, 1):
                ready = prepare(scenario, str(path), seed)
                players = list(ready.battle.controllers)
                for index, player in enumerate(players):
                    ready.battle.controllers[player] = WaffleAI(index == finishing_side)
                play(ready.battle, ready.ruleset, ready.plan)
                best = winner(victory_scores(ready.battle, ready.plan.victory))
                side = players[finishing_side]
                won = "draws" if best is None else "finishing" if best == side else "not"
                tally[won] += 1
                tally[f"{side} finishing: {won}"] += 1
        print(f"{path.stem}: {dict(sorted(tally.items()))}", flush=True)
        total += tally
    wins, losses = total["finishing"], total["not"]
    print(
        f"all: finishing {wins}, not {losses}, draws {total['draws']}; "
        f"sign test p = {sign_test(wins, losses):.3f}"
    )


if __name__ == "__main__":
    main()
