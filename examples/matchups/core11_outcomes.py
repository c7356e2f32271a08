"""How the core11 examples come out with the heuristic AI on both sides.

Plays each core11 example (``examples/core11_*.toml``, or the files given)
with seeds 1 to ``--games``, and prints per example and player the games won,
the draws and the models lost per game (those destroyed in play). Run from a
tree's root; run it in two trees to compare the AI of two versions, as
docs/ai.md does ("The core11 AI weighs kills, range and standing still"):

    PYTHONPATH=src .venv/bin/python examples/matchups/core11_outcomes.py --games 20
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.cli.battle_cmd import battle_document
from hammerlab.io.scenario import load_scenario


def main() -> None:
    """Print one line per example and player: wins, draws and models lost per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    files = args.files or sorted(Path("examples").glob("core11_*.toml"))
    print("example | player | won | drawn | models lost per game")
    for path in files:
        spec = load_scenario(path)
        wins: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        draws = 0
        for seed in range(1, args.games + 1):
            game = Game.start(spec, str(path), seed, scenario_path=str(path))
            game.play()
            document = battle_document(game)
            if document["winner"] is None:
                draws += 1
            else:
                wins[document["winner"]] += 1
            for unit in document["units"]:
                lost[unit["player"]] += unit["models_destroyed"]
        for player in [p.name for p in spec.players]:
            share = lost[player] / args.games
            print(f"{path.stem} | {player} | {wins[player]} | {draws} | {share:.2f}")


if __name__ == "__main__":
    main()
