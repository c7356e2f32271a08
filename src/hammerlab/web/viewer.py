"""What the battle viewer draws: a battle's table at the start, and its events.

The page replays the events on the starting state itself: a ``move`` event
puts a model at its end point, a ``wound`` event sets its wounds left, a
``casualty`` event removes it (``engine/events.py``). Everything here is plain
data for JSON.
"""

from __future__ import annotations

from typing import Any

from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event


def table_state(battle: Battle) -> dict[str, Any]:
    """The battlefield, its terrain, the players and every model where it stands now."""
    field = battle.battlefield
    return {
        "width": field.width,
        "height": field.height,
        "players": [p.name for p in battle.players],
        "terrain": [
            {
                "name": area.name,
                "outline": [list(point) for point in area.outline],
                "cover": area.cover_save,
                "difficult": area.difficult,
                "dangerous": area.dangerous,
                "blocks_sight": area.blocks_sight,
            }
            for area in field.terrain
        ],
        "units": [
            {
                "id": unit.id,
                "label": unit.label,
                "player": unit.player,
                "models": [
                    {
                        "id": model.id,
                        "name": model.name,
                        "x": model.position[0],
                        "y": model.position[1],
                        "radius": model.radius,
                        "wounds": model.wounds_left,
                    }
                    for model in unit.models
                ],
            }
            for unit in battle.units.values()
        ],
    }


def event_rows(events: list[Event]) -> list[dict[str, Any]]:
    """Each event's JSON form with its line of text for people (``text``)."""
    return [{**event.to_dict(), "text": event.text} for event in events]
