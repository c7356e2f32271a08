"""Two ways of moving some units, each forced for a whole run of games (docs/ai.md).

``decision_duel.py`` weighs single decisions, each played on from where the
heuristic made it; this plays whole games with one policy forced at a kind of
decision and the heuristic everywhere else. In every game of seeds
FIRST..FIRST+N-1 (keyed dice, so the two runs of a seed roll alike wherever
they play alike), the Movement-phase ``move`` decision (or, with ``--kind``, another kind of
decision: ``disembark``) of each unit of PLAYER whose id starts with PREFIX,
in the game turns TURNS, is answered LABEL_A in one run and LABEL_B in the
other (where offered). It prints each run's mean
victory-score margin for PLAYER, the paired difference A - B with its standard
error and each run's wins, then the models each side lost, by cause, summed
over the seeds.

    .venv/bin/python examples/matchups/forced_moves.py FILE PLAYER PREFIX TURNS \\
        LABEL_A LABEL_B FIRST N
    # the Cadian squads' first move against the Hormagaunts:
    .venv/bin/python examples/matchups/forced_moves.py \\
        examples/matchups/hormagaunts_vs_guard_cover.toml Cadians squad 1 \\
        advance hold 1 200
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.movement import ADVANCE_ON, INTENTS
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.events import ModelRemoved
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario, load_scenario


class Forced:
    """Answers as ``inner`` does, but for the forced moves."""

    def __init__(
        self, inner: Controller, prefix: str, turns: set[int], label: str, kind: str = "move"
    ) -> None:
        self.inner, self.prefix, self.turns, self.label = inner, prefix, turns, label
        self.kind = kind

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """``label`` at a forced decision where it is offered; else the inner answer."""
        context = decision.context
        if (
            decision.kind == self.kind
            and (self.kind != "move" or context.phase == "movement")
            and battle.turn in self.turns
            and context.unit.startswith(self.prefix)
            and self.label in decision.labels()
        ):
            return decision.labels().index(self.label)
        return self.inner.choose(battle, decision)


def run(
    scenario: Scenario,
    source: str,
    player: str,
    prefix: str,
    turns: set[int],
    label: str,
    seeds: range,
    kind: str = "move",
) -> tuple[list[int], Counter[tuple[str, str]]]:
    """Each seed's margin for ``player``, and the models lost by (owner, cause)."""
    margins: list[int] = []
    causes: Counter[tuple[str, str]] = Counter()
    for seed in seeds:
        ready = prepare(scenario, source, seed, dice="keyed")
        battle = ready.battle
        battle.controllers[player] = Forced(battle.controllers[player], prefix, turns, label, kind)
        play(battle, ready.ruleset, ready.plan)
        scores = victory_scores(battle, ready.plan.victory)
        margins.append(scores[player] - scores[battle.opponent(player)])
        owners = {u.label: u.player for u in battle.units.values()}
        for event in battle.log.events:
            if isinstance(event, ModelRemoved):
                causes[(owners[event.unit], re.sub(r" from .*", "", event.cause))] += 1
    return margins, causes


def main() -> None:
    """Play both runs and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("player")
    parser.add_argument("prefix")
    parser.add_argument("turns", help="game turns, comma-separated")
    parser.add_argument("label_a")
    parser.add_argument("label_b")
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument(
        "--kind",
        default="move",
        help="the kind of decision forced (default: move; e.g. disembark, with the "
        "labels disembark and 'stay aboard')",
    )
    args = parser.parse_args()
    try:  # a scenario that cannot be read is one line, as on the command line
        scenario = load_scenario(args.file)
    except HammerlabError as error:
        parser.exit(2, f"error: {error}\n")
    players = [p.name for p in scenario.players]
    if args.player not in players:
        parser.exit(
            2, f"error: player {args.player!r}: not in {args.file} ({', '.join(players)})\n"
        )
    if not any(u.id.startswith(args.prefix) and u.player == args.player for u in scenario.units):
        parser.exit(
            2, f"error: no unit of {args.player} in {args.file} starts with {args.prefix!r}\n"
        )
    if not re.fullmatch(r"\d+(,\d+)*", args.turns):
        parser.exit(2, f"error: turns {args.turns!r}: game turns, comma-separated (1,2)\n")
    for label in (args.label_a, args.label_b) if args.kind == "move" else ():
        if label not in (*INTENTS, FLANK) and not label.startswith(ADVANCE_ON):
            parser.exit(2, f"error: {label!r}: a move is one of {', '.join((*INTENTS, FLANK))}\n")
    if args.seeds < 2:  # a paired difference's standard error needs two
        parser.exit(2, f"error: {args.seeds} seeds: use 2 or more\n")
    seeds = range(args.first, args.first + args.seeds)
    turns = {int(t) for t in args.turns.split(",")}
    results = {
        label: run(
            scenario, str(args.file), args.player, args.prefix, turns, label, seeds, args.kind
        )
        for label in (args.label_a, args.label_b)
    }
    (a, causes_a), (b, causes_b) = results[args.label_a], results[args.label_b]
    paired = [x - y for x, y in zip(a, b, strict=True)]
    error = statistics.stdev(paired) / len(paired) ** 0.5
    print(f"{args.label_a}: mean margin {statistics.fmean(a):+.3f}, wins {sum(m > 0 for m in a)}")
    print(f"{args.label_b}: mean margin {statistics.fmean(b):+.3f}, wins {sum(m > 0 for m in b)}")
    print(
        f"{args.label_a} - {args.label_b}: {statistics.fmean(paired):+.3f} ± {error:.3f} "
        f"over {len(paired)} seeds"
    )
    print("models lost, by owner and cause:")
    for key in sorted(set(causes_a) | set(causes_b)):
        print(f"  {key[0]}, {key[1]}: {causes_a[key]} | {causes_b[key]}")


if __name__ == "__main__":
    main()
