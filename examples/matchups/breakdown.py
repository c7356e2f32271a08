"""Per scenario and side: one player's wins, draws (and how many at 0-0) and losses.

Reads the JSON a tournament prints (``hammerlab tournament ... --json``) and
breaks one player's record down by scenario and by the side it played, so a
matchup where one side wins whoever plays it stands out. The numbers in
docs/ai.md:

    .venv/bin/hammerlab tournament examples/matchups/*.toml \\
        --players heuristic,random --games 20 --json > tournament.json
    .venv/bin/python examples/matchups/breakdown.py tournament.json heuristic
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def main() -> None:
    """Print one line per scenario and side."""
    parser = argparse.ArgumentParser()
    parser.add_argument("report", type=Path)
    parser.add_argument("player")
    args = parser.parse_args()
    games = json.loads(args.report.read_text(encoding="utf-8"))["games"]
    rows: dict[tuple[str, str], Counter[str]] = {}
    for game in games:
        side = next((s for s, p in game["sides"].items() if p == args.player), None)
        if side is None:
            continue
        tally = rows.setdefault((game["scenario"], side), Counter())
        if game["winner"] is None:
            tally["draws"] += 1
            tally["draws at 0-0"] += not any(game["scores"].values())
        else:
            tally["wins" if game["winner"] == args.player else "losses"] += 1
    for (scenario, side), tally in rows.items():
        print(
            f"{scenario} | {side} | {tally['wins']} | {tally['draws']} "
            f"({tally['draws at 0-0']} at 0-0) | {tally['losses']}"
        )


if __name__ == "__main__":
    main()
