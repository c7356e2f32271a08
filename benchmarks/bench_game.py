"""How cheap a copy of a game is: Game.clone() in the middle of the three-turn example.

Prints the median CPU time of a clone and of the reference measured in the
same run — rebuilding the same game by replaying its saved recipe
(``Game.from_json``), which is what a copy cost before the game state lived
in a cursor — and their ratio. The issue's target is a clone under 2 ms.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "whole_game_three_turns.toml"
REPEATS = 7
CLONES = 50


def _cpu_ms(action: object, count: int) -> float:
    """Median over ``REPEATS`` of the CPU milliseconds per call of ``action``."""
    samples = []
    for _ in range(REPEATS):
        start = time.process_time()
        for _ in range(count):
            action()  # type: ignore[operator]
        samples.append((time.process_time() - start) * 1000 / count)
    return statistics.median(samples)


def main() -> None:
    """Step into turn 2, then time a clone against a replay of the saved game."""
    game = Game.start(load_scenario(EXAMPLE), str(EXAMPLE), 3, stop_before_turn=2)
    game.play()
    saved = game.to_json()
    clone_ms = _cpu_ms(game.clone, CLONES)
    replay_ms = _cpu_ms(lambda: Game.from_json(saved), 3)
    print(
        f"clone of {EXAMPLE.name} at turn 2 ({len(game.battle.log.events)} events): "
        f"{clone_ms:.2f} ms CPU; replaying its saved game: {replay_ms:.1f} ms; "
        f"ratio {replay_ms / clone_ms:.0f}x"
    )


if __name__ == "__main__":
    main()
