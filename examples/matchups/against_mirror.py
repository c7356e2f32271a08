"""Did a player change the result the heuristic AI would have had in its seat? (docs/ai.md)

A tournament's win rate mixes the player's skill with the scenario's balance:
a seed the armies decide is lost from one side whoever plays it. This reads a
tournament report (``hammerlab tournament ... --json``) of ``PLAYER`` against
``heuristic`` and replays each of its games' seeds as the heuristic mirror
(the heuristic AI on both sides, the same seed). Where ``PLAYER`` played just
as the heuristic would, the result is the mirror's; so every game it scored
better in (a draw turned into a win, a loss into a draw or a win) or worse in
is a result its own decisions changed. It prints, per scenario and side, how
many games went better, the same and worse, then the totals and a two-sided
sign test over the games that changed.

    .venv/bin/python examples/matchups/against_mirror.py REPORT.json search \\
        [--scenarios examples/matchups/*.toml]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from hammerlab.analysis.search import Budget
from hammerlab.analysis.tournament import play_game
from hammerlab.editions.turns import winner
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario, load_scenario

HERE = Path(__file__).parent


def outcome(scores: dict[str, int], side: str) -> int:
    """1, 0 or -1: ``side`` won, drew or lost these scores (:func:`turns.winner`)."""
    best = winner(scores)
    return 0 if best is None else 1 if best == side else -1


def sign_test(better: int, worse: int) -> float:
    """Two-sided p-value of ``better`` against ``worse`` changed games, if either way
    were as likely (the binomial with p = 1/2)."""
    n, k = better + worse, min(better, worse)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def main() -> None:
    """Print one line per scenario and side, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("player")
    parser.add_argument("--scenarios", nargs="+", type=Path, default=sorted(HERE.glob("*.toml")))
    args = parser.parse_args()
    try:
        specs: dict[str, tuple[Scenario, str]] = {}
        for path in args.scenarios:
            spec = load_scenario(path)
            specs[spec.name] = (spec, str(path))
        games: list[dict[str, Any]] = json.loads(args.report.read_text(encoding="utf-8"))["games"]
    except (HammerlabError, OSError, ValueError, KeyError) as error:
        parser.error(f"{args.report}: {error}")
    mirrors: dict[tuple[str, int], dict[str, int]] = {}
    rows: dict[tuple[str, str], Counter[str]] = {}
    for game in games:
        seats = {p: s for s, p in game["sides"].items()}
        if set(seats) != {args.player, "heuristic"}:
            continue
        if game["scenario"] not in specs:
            parser.error(f"{args.report}: scenario {game['scenario']!r} is in no --scenarios file")
        key = (game["scenario"], game["seed"])
        if key not in mirrors:
            spec, source = specs[game["scenario"]]
            both = dict.fromkeys(game["sides"], "heuristic")
            mirrors[key] = dict(play_game(spec, source, game["seed"], both, Budget()).scores)
        side = seats[args.player]
        change = outcome(game["scores"], side) - outcome(mirrors[key], side)
        tally = rows.setdefault((game["scenario"], side), Counter())
        tally["better" if change > 0 else "worse" if change < 0 else "same"] += 1
    total: Counter[str] = Counter()
    for (scenario, side), tally in rows.items():
        total.update(tally)
        print(f"{scenario} | {side} | {tally['better']} | {tally['same']} | {tally['worse']}")
    p = sign_test(total["better"], total["worse"])
    print(
        f"all | {total['better']} better, {total['same']} the same, {total['worse']} worse "
        f"(sign test p = {p:.3f})"
    )


if __name__ == "__main__":
    main()
