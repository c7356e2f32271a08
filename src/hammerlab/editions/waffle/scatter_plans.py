"""The AI's choice for a Twin-linked blast whose scatter die rolled no HIT: keep the
marker where it came to rest, or re-roll the scatter (``markers.twin_linked_scatter``)."""

from __future__ import annotations

from hammerlab.editions.waffle.markers import ScatterChoice
from hammerlab.editions.waffle.scatter_odds import OWN_MODEL_WEIGHT, scatter_outcomes
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec, touched_by_marker
from hammerlab.engine.units import Unit

SCATTER_DIRECTIONS = 12
"""The arrow's directions a re-roll's scatter is averaged over, evenly spread (every
30°): the arrow points anywhere, and a marker's worth changes little between them."""


def marker_worth(battle: Battle, unit: Unit, centre: Vec, diameter: float) -> float:
    """What a marker of ``diameter`` at ``centre`` is worth to ``unit``'s player: the enemy
    models under it less twice its own (:data:`scatter_odds.OWN_MODEL_WEIGHT`, the
    weights ``expected.aim_value`` aims by)."""
    ours = [m for u in battle.units_of(unit.player) for m in u.alive_models]
    theirs = [m for u in battle.enemies_of(unit) for m in u.alive_models]
    return len(touched_by_marker(centre, diameter, theirs)) - OWN_MODEL_WEIGHT * len(
        touched_by_marker(centre, diameter, ours)
    )


def scatter_worth(battle: Battle, unit: Unit, choice: ScatterChoice) -> float:
    """What ``choice`` is expected to be worth (:func:`marker_worth`): the marker where it
    came to rest, or a re-roll (:func:`scatter_odds.scatter_outcomes`): a HIT (1 in 3)
    leaves it where it was placed; otherwise it moves the 2D6 less the firer's BS
    (never below 0) in the arrow's direction, averaged over :data:`SCATTER_DIRECTIONS`
    directions, brought back onto the table as the battle brings it."""
    if not choice.reroll:
        return marker_worth(battle, unit, choice.landed, choice.diameter)
    field = battle.battlefield
    odds = scatter_outcomes(choice.placed, choice.reduction, SCATTER_DIRECTIONS)
    stays = odds.hit_chance * marker_worth(battle, unit, choice.placed, choice.diameter)
    return stays + sum(
        chance * marker_worth(battle, unit, field.clamp(point), choice.diameter)
        for point, chance in odds.moves
    )
