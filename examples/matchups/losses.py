"""What the heuristic side's models died to, per game won, drawn and lost.

Plays one scenario ``--games`` times (seeds 1 to N), the heuristic AI on
``--side`` and the random player on the other, as a tournament pairs them,
and prints, for the games it won, drew and lost, the models each side lost
per game by cause (the weapon or rule a casualty names), whose turn it was
and the phase. The numbers in docs/ai.md ("The last losses to random"):

    .venv/bin/python examples/matchups/losses.py \\
        examples/matchups/terminators_vs_guard_platoon.toml --side Cadians --games 100
"""

from __future__ import annotations

from collections import Counter

from against_random import arguments, played

from hammerlab.engine.events import ModelRemoved, PhaseChanged

SHOWN = 12
"""Causes printed per result, the most frequent first."""


def main() -> None:
    """Print, per result, the games and the models each side lost per game, in all and by cause."""
    args = arguments(__doc__)
    games: Counter[str] = Counter()
    causes: dict[str, Counter[tuple[str, str, str, str]]] = {}
    for battle, result in played(args):
        games[result] += 1
        owner = {u.label: u.player for u in battle.units.values()}
        turn_of, phase = "", ""
        tally = causes.setdefault(result, Counter())
        for event in battle.log.events:
            if isinstance(event, PhaseChanged):
                turn_of, phase = event.player, event.phase
            elif isinstance(event, ModelRemoved):
                cause = event.cause.split(" from ")[0]
                tally[(owner[event.unit], f"{turn_of}'s turn", phase, cause)] += 1
    for result, count in sorted(games.items()):
        print(f"{result}: {count} games; models lost per game")
        lost_by: Counter[str] = Counter()
        for (player, *_), lost in causes[result].items():
            lost_by[player] += lost
        for player, lost in sorted(lost_by.items()):
            print(f"  {player} | all | | | {lost / count:.2f}")
        for (player, turn, phase, cause), lost in causes[result].most_common(SHOWN):
            print(f"  {player} | {turn} | {phase} | {cause} | {lost / count:.2f}")


if __name__ == "__main__":
    main()
