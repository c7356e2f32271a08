"""The heuristic AI on one side against the random player, game by game: what
``first_charge.py`` and ``losses.py`` read (the numbers in docs/ai.md, "The last
losses to random")."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path

from hammerlab.analysis.search import start_game
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.engine.battle import Battle
from hammerlab.io.scenario import load_scenario


def arguments(description: str | None) -> argparse.Namespace:
    """The scenario, the heuristic's ``--side`` and ``--games``, from the command line."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("scenario", type=Path)
    parser.add_argument("--side", required=True, help="the player the heuristic AI plays")
    parser.add_argument("--games", type=int, default=100)
    return parser.parse_args()


def played(
    args: argparse.Namespace, watch: Callable[[Battle], None] = lambda battle: None
) -> Iterator[tuple[Battle, str]]:
    """Each game of seeds 1 to ``--games``, as a tournament pairs the players, with the
    heuristic side's result (win, draw or loss); ``watch`` sees each battle before play."""
    scenario = load_scenario(args.scenario)
    other = next(p.name for p in scenario.players if p.name != args.side)
    for seed in range(1, args.games + 1):
        game = start_game(
            scenario, str(args.scenario), seed, {args.side: "heuristic", other: "random"}
        )
        watch(game.battle)
        game.play()
        best = winner(victory_scores(game.battle, game.ready.plan.victory))
        yield game.battle, "draw" if best is None else "win" if best == args.side else "loss"
