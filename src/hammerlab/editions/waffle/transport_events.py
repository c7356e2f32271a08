"""Typed events of transports (``transports.py``): embarking, disembarking, passengers lost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class UnitEmbarked(Event):
    """A unit went aboard a transport (off the table)."""

    kind: ClassVar[str] = "embarked"
    unit: str
    transport: str
    places: int
    """Places of Transport Capacity it takes (Bulky 2, Very Bulky 3, Extremely Bulky 5)."""
    capacity: int

    @property
    def text(self) -> str:
        return f"{self.unit} embarks in {self.transport} ({self.places} of {self.capacity} places)"


@dataclass(frozen=True)
class UnitDisembarked(Event):
    """A unit left a transport: ``how`` is ``disembarks``, ``Wrecked`` or ``Explodes!``."""

    kind: ClassVar[str] = "disembarked"
    unit: str
    transport: str
    how: str
    placed: int
    """Models set on the table."""
    lost: int
    """Models that found no room within 2" of the hull (removed as casualties)."""

    @property
    def text(self) -> str:
        lost = f", {self.lost} found no room and are lost" if self.lost else ""
        placed = f"{self.placed} placed{lost}"
        return f"{self.unit} disembarks from {self.transport} ({self.how}): {placed}"
