"""What a model is worth to the battle's victory condition: the heuristic's measure.

The heuristic counts what a choice gains or costs in models. That is the
score only when the battle is won by models destroyed. Under kill points a
unit scores one point, and only when it is destroyed (``turns.victory_scores``:
"one per enemy unit destroyed"); a model slain is then worth its share of
its unit's point, ``1 / starting models``: the share the search AI credits a
unit's losses with (``analysis.search.value_for``). So a Boy of twenty is
worth a twentieth of the Captain, who is a unit of one.
"""

from __future__ import annotations

from hammerlab.editions.base import VICTORY
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

KILL_POINTS = "kill_points"


def model_worth(battle: Battle, unit: Unit) -> float:
    """What one of ``unit``'s models slain is worth to the victory score: its share
    of the unit's kill point under kill points, else 1 (a model is a point)."""
    if battle.memory.get(VICTORY) == KILL_POINTS:
        return 1.0 / max(1, unit.starting_models)
    return 1.0
