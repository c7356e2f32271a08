"""The heuristic AI counting the Pile In in a charge's first round against it as it is (docs/ai.md).

The fight sub-phase Piles In 3" every model not yet engaged at the start of
its Initiative step, before it strikes; :func:`expected.charged_fighters`
does not count that move. This plays every scenario given, seeds 1..N,
twice (each side once) with the heuristic AI on both sides, one of them
estimating a charge's first round with the models a 3" Pile In brings up
(:data:`placement.PILE_IN` added to the reach) and one without, and prints
each side's wins and the draws. Each AI's estimates are remembered apart
(a decision scope of its own).

    .venv/bin/python examples/matchups/pile_in_head_to_head.py SEEDS FILES...
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from fighters import fighting  # the scripts beside this one
from head_to_head import head_to_head

from hammerlab.editions.waffle import expected
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.placement import PILE_IN
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.memo import decision_scope, state_of_play
from hammerlab.engine.units import Model, Unit

NAMES = ("with the Pile In", "without")
"""How the tally names the games won by each AI."""
COUNTING = [False]
"""Whether the AI deciding now counts the Pile In."""
WITHOUT = expected.charged_fighters


def with_pile_in(defender: Unit, charger: Unit) -> list[Model]:
    """:func:`expected.charged_fighters`, 3" farther when the AI deciding counts the Pile In."""
    if not COUNTING[0]:
        return WITHOUT(defender, charger)
    return fighting(defender, charger, PILE_IN)


class Estimating:
    """The heuristic AI, counting the Pile In or not."""

    def __init__(self, pile_in: bool) -> None:
        self.pile_in = pile_in
        self.ai = WaffleAI()
        # The lever is a flag the AI's table of answers by position cannot see: the
        # two AIs would be handed each other's answers in the positions they share.
        self.ai.answers_by_position = False

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The AI's answer, with its own estimates."""
        COUNTING[0] = self.pile_in
        # An outer scope overrides the AI's own (by player, the end heeded and the
        # state), so it names the player too: the worth of a model depends on it.
        with decision_scope((decision.player, self.pile_in, state_of_play(battle))):
            return self.ai.choose(battle, decision)


def main() -> None:
    """Play both sides of every scenario and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    expected.charged_fighters = with_pile_in
    total: Counter[str] = Counter()
    for path in args.files:
        tally = head_to_head(path, range(1, args.seeds + 1), Estimating, NAMES)
        print(f"{path.stem}: {dict(tally)}", flush=True)
        total += tally
    print(f"all: {dict(total)}")


if __name__ == "__main__":
    main()
