"""What the search's playouts say of each action at one decision, at several horizons
(issue 9 §2: where a horizon stops before an action pays).

Plays a scenario with the heuristic AI on both sides up to the ``--nth``
top-level decision of ``PLAYER`` of kind ``KIND`` (``mover``, ``shooter``,
``charger``) that offers more than one action; there it plays the heuristic's
own pick and every other action on the same playout seeds, for each horizon
(``rounds`` 1, 2, 3 and 5, ending before and after the player's own turn:
:data:`Budget.until`; a move's ``move_rounds`` set alike) and each way of
valuing (:data:`Budget.luck`), and prints each action's mean gain over the
pick with its standard error.

    .venv/bin/python benchmarks/search_horizon.py SCENARIO.toml PLAYER KIND \\
        [--nth 1] [--seed 1] [--seeds 16]

Not part of ``make bench``: it plays actions x seeds x 16 budgets.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from statistics import fmean, stdev

from hammerlab.analysis.game import Game
from hammerlab.analysis.search import LUCK, UNTIL, Budget, SearchController
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

ROUNDS = (1, 2, 3, 5)


def main() -> None:
    """Print one line per budget: the pick's mean value, each other action's gain."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("player")
    parser.add_argument("kind")
    parser.add_argument("--nth", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=16)
    args = parser.parse_args()
    try:
        game = Game.start(load_scenario(Path(args.scenario)), args.scenario, args.seed)
    except HammerlabError as error:
        parser.error(str(error))
    seen = 0
    while not game.is_over:
        actions = game.legal_actions()
        mine = game.current_player == args.player and len(actions) > 1
        if mine and actions[0].kind == args.kind:
            seen += 1
            if seen == args.nth:
                break
        game.step()
    else:
        parser.error(f"no decision {args.nth} of kind {args.kind!r} for {args.player}")
    probe = SearchController(args.player)
    probe.attach(game)
    pick = probe.heuristic_action(game, actions)
    others = [a for a in actions if a != pick]
    print(f"turn {game.turn}: the heuristic's pick {pick}; others: {'; '.join(map(str, others))}")
    seeds = list(range(2000, 2000 + args.seeds))
    for luck in LUCK:
        for until in UNTIL:
            for rounds in ROUNDS:
                budget = replace(
                    Budget(), rounds=rounds, move_rounds=rounds, until=until, luck=luck
                )
                searcher = SearchController(args.player, budget)
                searcher.attach(game)
                base = [searcher._playout(game, pick, s) for s in seeds]
                line = [f"luck {luck}, until {until}, rounds {rounds}: pick {fmean(base):+.2f}"]
                for action in others:
                    gains = [
                        searcher._playout(game, action, s) - b
                        for s, b in zip(seeds, base, strict=True)
                    ]
                    error = stdev(gains) / len(gains) ** 0.5
                    line.append(
                        f"{action.then[-1][1] if action.then else action.label} "
                        f"{fmean(gains):+.2f}±{error:.2f}"
                    )
                print("; ".join(line), flush=True)


if __name__ == "__main__":
    main()
