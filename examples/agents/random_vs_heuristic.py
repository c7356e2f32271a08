"""A random agent against the heuristic AI, through the Gymnasium wrapper.

Run: .venv/bin/python examples/agents/random_vs_heuristic.py [--games N] [--seed S]
[--scenario FILE] [--player NAME]
The agent picks uniformly among the legal actions (the action mask); the other
side is the edition's heuristic AI. Prints one line per game and the tally.
Every episode takes at least one step: a game the other side won before the
agent's first choice ends at that step, with its outcome (docs/ai.md, "Agents").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from hammerlab.agents.env import HammerlabGym

SCENARIO = Path(__file__).resolve().parents[1] / "matchups" / "carnifex_vs_guard.toml"


def main() -> None:
    """Play the games and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", type=Path, default=SCENARIO)
    parser.add_argument("--player", help="the agent's side (the scenario's first player)")
    args = parser.parse_args()
    env = HammerlabGym(args.scenario, args.player)
    rng = np.random.default_rng(args.seed)  # the agent's own seeded generator
    tally = {1.0: 0, 0.0: 0, -1.0: 0}
    for game in range(args.games):
        _, info = env.reset(seed=args.seed + game)
        over = False
        while not over:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, over, _, info = env.step(int(rng.choice(legal)))
        tally[reward] += 1
        print(f"game {game + 1} (seed {args.seed + game}): {info['scores']}, reward {reward:+.0f}")
    print(f"random agent ({env.player}): {tally[1.0]} won, {tally[0.0]} drawn, {tally[-1.0]} lost")


if __name__ == "__main__":
    main()
