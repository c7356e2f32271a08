"""Two versions of the heuristic AI against each other, each on both sides (docs/ai.md).

The scripts beside this one that weigh a change to the heuristic
(``pile_in_head_to_head.py``, ``lever_head_to_head.py``) play through
:func:`head_to_head`: every seed twice, the changed AI on each side once,
the same dice for both battles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.engine.decisions import Controller
from hammerlab.io.scenario import load_scenario


def head_to_head(
    path: Path, seeds: Iterable[int], ai: Callable[[bool], Controller], names: tuple[str, str]
) -> Counter[str]:
    """The tally of ``path`` over ``seeds``: ``names[0]`` counts the games the changed
    AI (``ai(True)``) won, ``names[1]`` those the other (``ai(False)``) won, and
    ``draws``; ``"PLAYER NAME: RESULT"`` the same per side the changed AI played."""
    scenario, tally = load_scenario(path), Counter[str]()
    for seed in seeds:
        for changed_side in (0, 1):
            ready = prepare(scenario, str(path), seed)
            players = list(ready.battle.controllers)
            for index, player in enumerate(players):
                ready.battle.controllers[player] = ai(index == changed_side)
            play(ready.battle, ready.ruleset, ready.plan)
            best = winner(victory_scores(ready.battle, ready.plan.victory))
            side = players[changed_side]
            result = "draws" if best is None else names[0] if best == side else names[1]
            tally[result] += 1
            tally[f"{side} {names[0]}: {result}"] += 1
    return tally
