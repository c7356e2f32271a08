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

from collections import Counter

from against_random import arguments, played

from hammerlab.editions.waffle.charge import through_difficult_terrain
from hammerlab.editions.waffle.events import ChargeRolled
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event


def unit_named(battle: Battle, label: str) -> str:
    """The id of the unit an event names by its label (``Name [id]``)."""
    return next(u.id for u in battle.units.values() if u.label == label)


def main() -> None:
    """Print one line per (first charger, through difficult terrain, result)."""
    args = arguments(__doc__)
    tally: Counter[tuple[str, str]] = Counter()
    first: list[str] = []

    def watch(battle: Battle) -> None:
        first.clear()

        def charged(event: Event) -> None:
            if first or not isinstance(event, ChargeRolled) or not event.success:
                return
            unit = battle.unit(unit_named(battle, event.unit))
            target = battle.unit(unit_named(battle, event.target))
            across = through_difficult_terrain(battle, unit, target)
            first.append(f"{unit.player}{' across difficult terrain' if across else ''}")

        battle.log.subscribe(charged)

    for _, result in played(args, watch):
        tally[(first[0] if first else "no charge", result)] += 1
    for (charge, result), games in sorted(tally.items()):
        print(f"{charge} | {result} | {games}")


if __name__ == "__main__":
    main()
