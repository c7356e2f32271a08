"""The AI's Zooming moves: keep a Flyer on the table when a move can (``docs/ai.md``)."""

from __future__ import annotations

from hammerlab.editions.waffle.movement import INTENTS
from hammerlab.editions.waffle.zooming import zoom_vector
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def zoom_intent(battle: Battle, unit: Unit, preferred: str) -> str:
    """``preferred`` when its Zooming move keeps the Flyer on the table
    (:func:`zooming.zoom_vector`), else the first intent that does (a Flyer off the
    table in the last turn counts as destroyed); ``preferred`` when none does."""
    keeping = [i for i in INTENTS if zoom_vector(battle, unit, i) is not None]
    return preferred if preferred in keeping or not keeping else keeping[0]
