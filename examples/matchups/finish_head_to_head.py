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
from collections import Counter
from pathlib import Path

from against_mirror import sign_test  # the scripts beside this one
from head_to_head import head_to_head

from hammerlab.editions.waffle.ai import WaffleAI


def main() -> None:
    """Play both sides of every scenario and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    total: Counter[str] = Counter()
    for path in args.files:
        tally = head_to_head(path, seeds, WaffleAI, ("finishing", "not"))
        print(f"{path.stem}: {dict(sorted(tally.items()))}", flush=True)
        total += tally
    wins, losses = total["finishing"], total["not"]
    print(
        f"all: finishing {wins}, not {losses}, draws {total['draws']}; "
        f"sign test p = {sign_test(wins, losses):.3f}"
    )


if __name__ == "__main__":
    main()
