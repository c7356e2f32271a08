"""Events core11 adds to the engine's record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class ShootingTypeSelected(Event):
    """10.02: a unit was selected to shoot with a shooting type."""

    kind: ClassVar[str] = "shooting-type"
    unit: str
    shooting_type: str

    @property
    def text(self) -> str:
        return f"{self.unit} shoots: {self.shooting_type} shooting"


@dataclass(frozen=True)
class TargetSelected(Event):
    """A weapon of a shooting unit was given a target."""

    kind: ClassVar[str] = "target"
    unit: str
    weapon: str
    target: str

    @property
    def text(self) -> str:
        return f"  {self.unit}: {self.weapon} → {self.target}"


@dataclass(frozen=True)
class AttacksResolved(Event):
    """One weapon's attacks at one target, counted step by step."""

    kind: ClassVar[str] = "shots"
    unit: str
    weapon: str
    target: str
    attacks: int
    hits: int
    critical_hits: int
    wounds: int
    critical_wounds: int
    unsaved: int
    damage: int
    models_destroyed: int

    @property
    def text(self) -> str:
        return (
            f"  {self.weapon} ({self.unit}) at {self.target}: {self.attacks} attacks, "
            f"{self.hits} hits ({self.critical_hits} critical), {self.wounds} wounds "
            f"({self.critical_wounds} critical), {self.unsaved} unsaved, "
            f"{self.damage} damage, {self.models_destroyed} destroyed"
        )


@dataclass(frozen=True)
class MoveTypeSelected(Event):
    """09.02: a unit was selected to move with a move type."""

    kind: ClassVar[str] = "move-type"
    unit: str
    move_type: str
    distance: float
    """Inches the unit's models moved."""

    @property
    def text(self) -> str:
        if self.move_type == "remain stationary":
            return f"{self.unit} remains stationary"
        return f'{self.unit}: {self.move_type} move, {self.distance:.1f}"'
