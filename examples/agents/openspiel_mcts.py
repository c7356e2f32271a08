"""OpenSpiel's own MCTS bot against its uniform random bot, on the OpenSpiel game.

Run: .venv/bin/python examples/agents/openspiel_mcts.py [--games N] [--simulations S]
The bots take turns in the two seats; both answer the top-level decisions of
``python_hammerlab`` (hammerlab.agents.spiel), the inner ones are the heuristic
AI's. Prints one line per game and the MCTS bot's tally. A clone keeps its dice
(docs/ai.md, "Agents"), so the MCTS bot's rollouts draw on the real game's dice
stream: a demonstration of the interface, not a fair player.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import hammerlab.agents.spiel  # noqa: F401 (registers python_hammerlab)

SCENARIO = Path(__file__).resolve().parents[1] / "matchups" / "carnifex_vs_guard.toml"


def main() -> None:
    """Play the games and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = {1.0: 0, 0.0: 0, -1.0: 0}
    for game_number in range(args.games):
        seed = args.seed + game_number
        game = pyspiel.load_game("python_hammerlab", {"scenario": str(SCENARIO), "seed": seed})
        rng = np.random.RandomState(seed)
        searcher = mcts.MCTSBot(
            game, 2.0, args.simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        seat = game_number % 2  # the MCTS bot plays each side in turn
        bots = [searcher, pyspiel.make_uniform_random_bot(1 - seat, seed)]
        if seat == 1:
            bots.reverse()
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        tally[returns[seat]] += 1
        print(f"game {game_number + 1} (seed {seed}): MCTS in seat {seat}, returns {returns}")
    print(f"MCTS bot: {tally[1.0]} won, {tally[0.0]} drawn, {tally[-1.0]} lost")


if __name__ == "__main__":
    main()
