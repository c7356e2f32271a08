"""Did a player change the result the heuristic AI would have had in its seat? (docs/ai.md)

A tournament's win rate mixes the player's skill with the scenario's balance:
a seed the armies decide is lost from one side whoever plays it. This reads
tournament reports (``hammerlab tournament ... --json``, one or more: a sample
played in parts) of ``PLAYER`` against ``heuristic`` and replays each of their
games' seeds as the heuristic mirror (the heuristic AI on both sides, the same
seed). Where ``PLAYER`` played just as the heuristic would, the result is the
mirror's; so every game it scored better in (a draw turned into a win, a loss
into a draw or a win) or worse in is a result its own decisions changed. It
prints, per scenario and side, the mirror's wins and the player's on those
games, how many games went better, the same and worse, then the totals and a
two-sided sign test over the games that changed.

A result is who won the game as it is won: the one side left when the other
was wiped out (Sudden Death), whatever the scores, else the higher score (the
report's ``winner``, the mirror's :attr:`Game.winner`). Until the
twenty-seventh session both were read off the scores alone, so a game decided
by Sudden Death on a lower score was counted the other way.

    .venv/bin/python examples/matchups/against_mirror.py REPORT.json [REPORT.json ...] search \\
        [--scenarios examples/matchups/*.toml]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from hammerlab.analysis.search import start_game
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario, load_scenario

HERE = Path(__file__).parent


def outcome(winner: str | None, me: str) -> int:
    """1, 0 or -1: ``me`` won, drew (no ``winner``) or lost."""
    return 0 if winner is None else 1 if winner == me else -1


def mirror_winner(spec: Scenario, source: str, seed: int) -> str | None:
    """The scenario player who wins ``seed`` with the heuristic AI on both sides
    (``None``: a draw), as the tournament plays a game (:func:`tournament.play_game`)."""
    both = dict.fromkeys((p.name for p in spec.players), "heuristic")
    game = start_game(spec, source, seed, both)
    game.play()
    return game.winner


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
    parser.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    parser.add_argument("player")
    parser.add_argument("--scenarios", nargs="+", type=Path, default=sorted(HERE.glob("*.toml")))
    args = parser.parse_args()
    specs: dict[str, tuple[Scenario, str]] = {}
    games: list[tuple[Path, dict[str, Any]]] = []
    try:
        for path in args.scenarios:
            spec = load_scenario(path)
            specs[spec.name] = (spec, str(path))
    except HammerlabError as error:
        parser.error(str(error))
    for report in args.reports:
        try:
            read = json.loads(report.read_text(encoding="utf-8"))["games"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"{report}: {error}")
        games.extend((report, game) for game in read)
    mirrors: dict[tuple[str, int], str | None] = {}
    rows: dict[tuple[str, str], Counter[str]] = {}
    for report, game in games:
        seats = {p: s for s, p in game["sides"].items()}
        if set(seats) != {args.player, "heuristic"}:
            continue
        if game["scenario"] not in specs:
            parser.error(f"{report}: scenario {game['scenario']!r} is in no --scenarios file")
        key = (game["scenario"], game["seed"])
        if key not in mirrors:
            spec, source = specs[game["scenario"]]
            mirrors[key] = mirror_winner(spec, source, game["seed"])
        side = seats[args.player]
        mine, theirs = outcome(game["winner"], args.player), outcome(mirrors[key], side)
        tally = rows.setdefault((game["scenario"], side), Counter())
        tally["mirror won"] += theirs > 0
        tally["won"] += mine > 0
        tally["better" if mine > theirs else "worse" if mine < theirs else "same"] += 1
    total: Counter[str] = Counter()
    print("scenario | side | the mirror won | the player won | better | the same | worse")
    for (scenario, side), tally in sorted(rows.items()):
        total.update(tally)
        print(
            f"{scenario} | {side} | {tally['mirror won']} | {tally['won']} | "
            f"{tally['better']} | {tally['same']} | {tally['worse']}"
        )
    p = sign_test(total["better"], total["worse"])
    print(
        f"all | the mirror won {total['mirror won']}, the player {total['won']} | "
        f"{total['better']} better, {total['same']} the same, {total['worse']} worse "
        f"(sign test p = {p:.3f})"
    )


if __name__ == "__main__":
    main()
