"""The heuristic AI with one of its levers on against itself with it off (docs/ai.md).

Each lever is a flag of ``WaffleAI`` that keeps the heuristic as it was
before a change, for weighing that change:

- ``finish_units``: under kill points a model of an enemy unit is worth its
  share of what is left of the unit's point (:func:`victory_worth.model_worth`);
  off, its starting share, as until branch ``issue9-finish``.
- ``heeds_the_end``: only the turns and phases the game still plays count
  (:mod:`hammerlab.editions.schedule`); off, every game is taken to go on,
  as until branch ``issue9-end``.
- ``escapes_only``: a retreat weighs only the enemy charges it can escape,
  not those of an enemy that follows and charges a turn later
  (:func:`move_plans.retreat_escapes`); off, every charge, as until branch
  ``issue9-declines``.
- ``weighs_the_move``: a unit with Heavy weapons in range holds only when a
  move costs its shooting this turn more than it brings, the enemy charges
  it walks into and the next turn's volley counted
  (:func:`move_plans.holds_for_its_guns`); off, whenever one of them
  reaches a target, as until branch ``issue9-gun-line``.
- ``weighs_the_order``: a unit weighs the order of its weapons pair by
  pair, the second at what the first leaves of the target
  (:func:`shooting_plans.weapon_first`: a long gun's casualties may take the only models
  a shorter one reaches); off, the most expected casualties per firing model
  first, as until branch ``s23-sense``.

This plays every scenario given, seeds FIRST..FIRST+N-1, twice (each side
once) with the heuristic AI on both sides, the lever on for one and off for
the other, and prints per scenario each side's wins and the draws, then the
totals and a two-sided sign test over the decisive games.

    .venv/bin/python examples/matchups/lever_head_to_head.py LEVER FIRST N FILES...
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from against_mirror import sign_test  # the scripts beside this one
from head_to_head import head_to_head

from hammerlab.editions.waffle.ai import WaffleAI

LEVERS = ("finish_units", "heeds_the_end", "escapes_only", "weighs_the_move", "weighs_the_order")


def main() -> None:
    """Play both sides of every scenario and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lever", choices=LEVERS)
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)

    def ai(on: bool) -> WaffleAI:
        return WaffleAI(**{args.lever: on})

    total: Counter[str] = Counter()
    for path in args.files:
        tally = head_to_head(path, seeds, ai, ("on", "off"))
        print(f"{path.stem}: {dict(sorted(tally.items()))}", flush=True)
        total += tally
    wins, losses = total["on"], total["off"]
    print(
        f"all: {args.lever} on {wins}, off {losses}, draws {total['draws']}; "
        f"sign test p = {sign_test(wins, losses):.3f}"
    )


if __name__ == "__main__":
    main()
