"""Typed events of hits on vehicles (``armour``, ``vehicle_damage``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class ArmourPenetration(Event):
    """One hit on a vehicle rolled for armour penetration."""

    kind: ClassVar[str] = "armour"
    unit: str
    model: str
    weapon: str
    facing: str
    armour: int
    strength: int
    dice: tuple[int, ...]
    result: str
    """``no effect``, ``glancing`` or ``penetrating`` (``armour.RESULTS``)."""

    @property
    def text(self) -> str:
        dice = "+".join(map(str, self.dice))
        return (
            f"  {self.weapon} S{self.strength} vs {self.facing} AV{self.armour} of {self.model} "
            f"({self.unit}): rolled {dice}: {self.result}"
        )


@dataclass(frozen=True)
class VehicleDamaged(Event):
    """A glancing or penetrating hit took a Hull Point, and what the damage table did."""

    kind: ClassVar[str] = "vehicle_damage"
    unit: str
    model: str
    hull_points: int
    """Hull Points left."""
    roll: int | None
    """The Vehicle Damage table roll (modified), ``None`` for a glancing hit."""
    result: str
    """``hull point`` (glancing), or the table's result (``Crew Shaken`` ... ``Explodes!``)."""

    @property
    def text(self) -> str:
        table = "" if self.roll is None else f", damage roll {self.roll}"
        left = f"{self.hull_points} left{table}"
        return f"  {self.model} ({self.unit}) loses a Hull Point ({left}): {self.result}"


@dataclass(frozen=True)
class VehicleDestroyed(Event):
    """A vehicle was Wrecked or Exploded."""

    kind: ClassVar[str] = "vehicle_destroyed"
    unit: str
    model: str
    how: str
    """``Wrecked`` or ``Explodes!``."""
    radius: int = 0
    """Explodes!: the D6" within which models are hit."""
    hits: tuple[tuple[str, int], ...] = ()
    """Explodes!: (unit, hits) for each unit caught."""

    @property
    def text(self) -> str:
        if self.how != "Explodes!":
            return f"  {self.model} ({self.unit}) is {self.how}"
        caught = ", ".join(f"{u}: {n}" for u, n in self.hits) or "nobody"
        return f'  {self.model} ({self.unit}) Explodes! (D6 = {self.radius}"): hits {caught}'


@dataclass(frozen=True)
class LeftBehind(Event):
    """A squadron moved away from its Immobilised vehicle, which is now a unit of its own
    (``vehicles.leave_behind``)."""

    kind: ClassVar[str] = "left_behind"
    squadron: str
    """The squadron that moved on."""
    model: str
    """The Immobilised vehicle left behind."""
    unit: str
    """The vehicle's own unit from now on."""

    @property
    def text(self) -> str:
        return (
            f"{self.squadron} moves away from {self.model} (Immobilised), "
            f"left behind as {self.unit}"
        )
