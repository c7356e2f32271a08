"""How noisy the search's paired gains are with one dice stream per playout, with
keyed dice, and with keyed dice and the attacks' luck taken out (issue 9 §2).

Plays a scenario with the heuristic AI on both sides and, at the first
top-level decisions of one player that offer more than one action, plays the
heuristic's own pick and each other action on the same playout seeds
(:meth:`SearchController.playout`, the default budget's horizon), once with
each mode: one dice stream per copy (:data:`Budget.dice`) and keyed dice, both
valued as rolled (:data:`Budget.luck` ``kept``), and keyed dice with the luck
``subtracted`` (the default budget). For each (decision, action) pair it
prints the standard deviation of the paired gain (the action's value minus the
pick's, seed by seed); then the median over pairs per mode. The search's
paired test (:func:`paired_verdict`) needs the mean gain beyond two standard
errors, so this standard deviation is what decides how many challengers it can
accept at a given budget.

    .venv/bin/python benchmarks/search_noise.py SCENARIO.toml PLAYER [--seed 1]
        [--decisions 4] [--actions 4] [--seeds 12]

Not part of ``make bench``: it plays decisions x actions x seeds x 3 playouts (one per mode).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from statistics import fmean, median, pstdev

from hammerlab.analysis.game import Game
from hammerlab.analysis.search import Budget, SearchController
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

MODES = {
    "single": replace(Budget(), dice="single", luck="kept"),
    "keyed": replace(Budget(), luck="kept"),
    "keyed, luck out": Budget(),
}


def main() -> None:
    """Print one line per (decision, action) and the median per dice mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=4)
    parser.add_argument("--actions", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=12)
    args = parser.parse_args()
    try:
        game = Game.start(load_scenario(Path(args.scenario)), args.scenario, args.seed)
    except HammerlabError as error:
        parser.error(str(error))
    searchers = {m: SearchController(args.player, budget) for m, budget in MODES.items()}
    for searcher in searchers.values():
        searcher.attach(game)
    seeds = list(range(1000, 1000 + args.seeds))
    sds: dict[str, list[float]] = {m: [] for m in MODES}
    done = 0
    while done < args.decisions and not game.is_over:
        actions = game.legal_actions()
        if game.current_player == args.player and len(actions) > 1:
            done += 1
            pick = searchers["keyed"].heuristic_action(game, actions)
            others = [a for a in actions if a != pick][: args.actions]
            print(f"turn {game.turn}, {len(actions)} actions, the heuristic's pick: {pick}")
            for action in others:
                line = []
                for mode, searcher in searchers.items():
                    gains = [
                        searcher._playout(game, action, s) - searcher._playout(game, pick, s)
                        for s in seeds
                    ]
                    sds[mode].append(pstdev(gains))
                    line.append(f"{mode} mean {fmean(gains):+.2f} sd {pstdev(gains):.2f}")
                print(f"  {action}: " + "; ".join(line))
        game.step()
    for mode, values in sds.items():
        if values:
            print(f"{mode}: median sd of the paired gain {median(values):.2f} over {len(values)}")


if __name__ == "__main__":
    main()
