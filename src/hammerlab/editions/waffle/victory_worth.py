"""What a model is worth to the battle's victory condition: the heuristic's measure.

The heuristic counts what a choice gains or costs in models. That is the
score only when the battle is won by models destroyed. Under kill points a
unit scores one point, and only when it is destroyed (``turns.victory_scores``:
"one per enemy unit destroyed"); a model slain is then worth a share of its
unit's point. A model of the side the heuristic is choosing for (its loss) is
worth ``1 / starting models``: the share the search AI credits a unit's losses
with (``analysis.search.value_for``), so a Boy of twenty is worth a twentieth
of the Captain, who is a unit of one. A model of an enemy unit (what it can
take) is worth its share of what is left to take, ``1 / models left``: the
point comes with the last model, so the fewer stand the nearer it is, and the
heuristic finishes a weakened unit rather than start on a fresh one. The
side the heuristic chooses for is set by :func:`weighing_for` (the AI's
``choose``); with none set every model counts its starting share.
Counting the heuristic's own weakened units the same way measured no better
(docs/ai.md, "Finish what it has started").
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar

from hammerlab.editions.base import VICTORY
from hammerlab.engine.battle import Battle
from hammerlab.engine.scoped import holding
from hammerlab.engine.units import Unit

KILL_POINTS = "kill_points"

_viewer: ContextVar[str | None] = ContextVar("viewer", default=None)
"""The player whose choices the heuristic weighs now (``None``: nobody's)."""


def weighing_for(player: str | None) -> AbstractContextManager[None]:
    """Weigh models as ``player`` sees them while the block runs (``None``: as nobody)."""
    return holding(_viewer, player)


def model_worth(battle: Battle, unit: Unit) -> float:
    """What one of ``unit``'s models slain is worth to the victory score: under kill
    points its share of the unit's point, the share of what is left when the unit
    is an enemy of the player weighed for (:func:`weighing_for`), else of its
    starting models; 1 otherwise (a model is a point)."""
    if battle.memory.get(VICTORY) != KILL_POINTS:
        return 1.0
    viewer = _viewer.get()
    if viewer is not None and unit.player != viewer:
        return 1.0 / max(1, len(unit.alive_models))
    return 1.0 / max(1, unit.starting_models)
