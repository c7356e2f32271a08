"""Which measure of a game in progress tells its winner better: the search's two values.

Plays heuristic mirrors of each scenario (seeds 1 to N) and, at the end of
each of the first player turns, values the table for the first player both
ways the search AI can (:func:`hammerlab.analysis.search.value_for`): the
victory ``points`` margin (models destroyed or kill points, damage short of
a kill pro rata) and the margin of the ``share`` of each army destroyed
(:func:`~hammerlab.analysis.search.army_worth`). For each player turn it
prints, over the games that had a winner, the chance that a game the first
player went on to win was valued above one it lost (the area under the ROC
curve: 0.5 tells nothing, 1 tells the winner every time). The numbers in
docs/ai.md, "Losses measured as a share of each army":

    .venv/bin/python examples/matchups/value_predicts.py examples/matchups/*.toml --games 60
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.analysis.search import army_worth, start_game, value_for
from hammerlab.editions.turns import game_winner
from hammerlab.io.scenario import load_scenario

PLAYER_TURNS = 6
"""How many player turns from the start are valued (three game turns of two players)."""


def ranked_above(won: Sequence[float], lost: Sequence[float]) -> float:
    """The chance a value drawn from ``won`` is above one drawn from ``lost`` (ties half)."""
    pairs = [1.0 if w > v else 0.5 if w == v else 0.0 for w in won for v in lost]
    return sum(pairs) / len(pairs) if pairs else float("nan")


def values(game: Game, player: str) -> tuple[float, float]:
    """``player``'s value of ``game`` as it stands: by points, then by shares."""
    battle, victory, ruleset = game.battle, game.ready.plan.victory, game.ready.ruleset
    points = value_for(battle, victory, player, ruleset)
    return points, value_for(battle, victory, player, ruleset, army_worth(battle, victory))


def main() -> None:
    """Print, per scenario and player turn, how well each value tells the winner."""
    parser = argparse.ArgumentParser()
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    for path in args.files:
        scenario = load_scenario(path)
        # Per player turn: the values of the games the first player won, and lost.
        seen: list[tuple[list[tuple[float, float]], list[tuple[float, float]]]] = [
            ([], []) for _ in range(PLAYER_TURNS)
        ]
        for seed in range(1, args.games + 1):
            game = start_game(scenario, str(path), seed, {})
            first = game.battle.players[0].name
            taken: list[tuple[float, float]] = []
            turn = (game.turn, game.play_state.cursor.seat)
            while not game.is_over:
                game.step()
                now = (game.turn, game.play_state.cursor.seat)
                if now != turn and not game.is_over and len(taken) < PLAYER_TURNS:
                    taken.append(values(game, first))
                turn = now
            best = game_winner(game.battle, game.ready.plan.victory)
            if best is None:
                continue
            for index, value in enumerate(taken):
                seen[index][0 if best == first else 1].append(value)
        print(path.stem)
        for index, (won, lost) in enumerate(seen):
            if won and lost:
                by_points = ranked_above([w[0] for w in won], [v[0] for v in lost])
                by_share = ranked_above([w[1] for w in won], [v[1] for v in lost])
                print(
                    f"  after player turn {index + 1} ({len(won) + len(lost)} games): "
                    f"points {by_points:.3f}, share {by_share:.3f}"
                )


if __name__ == "__main__":
    main()
