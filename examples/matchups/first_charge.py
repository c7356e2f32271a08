"""Whose charge reached first, across difficult terrain or not, and how each game ended.

Plays one scenario ``--games`` times (seeds 1 to N), the heuristic AI on
``--side`` and the random player on the other, as a tournament pairs them,
and counts the games by their first successful charge: the charging player,
whether it went through difficult terrain (``charge.through_difficult_terrain``
as the charge roll reads it: such a charger without assault grenades strikes
at Initiative 1, ``difficult_charge.py``) and the heuristic side's result.
The numbers in docs/ai.md ("The last losses to random"):

    .venv/bin/python examples/matchups/first_charge.py \\
        examples/matchups/genestealers_vs_boyz.toml --side Tyranids --games 100
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from hammerlab.analysis.search import start_game
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.editions.waffle.charge import through_difficult_terrain
from hammerlab.editions.waffle.events import ChargeRolled
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.io.scenario import load_scenario


def unit_named(battle: Battle, label: str) -> str:
    """The id of the unit an event names by its label (``Name [id]``)."""
    return next(u.id for u in battle.units.values() if u.label == label)


def main() -> None:
    """Print one line per (first charger, through difficult terrain, result)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", type=Path)
    parser.add_argument("--side", required=True, help="the player the heuristic AI plays")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    players = [p.name for p in scenario.players]
    other = next(p for p in players if p != args.side)
    tally: Counter[tuple[str, str]] = Counter()
    for seed in range(1, args.games + 1):
        game = start_game(
            scenario, str(args.scenario), seed, {args.side: "heuristic", other: "random"}
        )
        battle = game.battle
        first: list[str] = []

        def charged(event: Event, battle: Battle = battle, first: list[str] = first) -> None:
            if first or not isinstance(event, ChargeRolled) or not event.success:
                return
            unit = battle.unit(unit_named(battle, event.unit))
            target = battle.unit(unit_named(battle, event.target))
            across = through_difficult_terrain(battle, unit, target)
            first.append(f"{unit.player}{' across difficult terrain' if across else ''}")

        battle.log.subscribe(charged)
        game.play()
        best = winner(victory_scores(battle, game.ready.plan.victory))
        result = "draw" if best is None else "win" if best == args.side else "loss"
        tally[(first[0] if first else "no charge", result)] += 1
    for (charge, result), games in sorted(tally.items()):
        print(f"{charge} | {result} | {games}")


if __name__ == "__main__":
    main()
