"""Waffle Edition events, beyond the engine's generic ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class ShotsFired(Event):
    """Models of a unit fired one weapon (seed 000, steps 3 and 4)."""

    kind: ClassVar[str] = "shots"
    unit: str
    weapon: str
    target: str
    models: int
    shots: int
    snap: bool
    needed: str
    hits: int

    @property
    def text(self) -> str:
        snap = " as snap shots" if self.snap else ""
        return (
            f"{self.unit} fires {self.shots} × {self.weapon}{snap} ({self.models} model(s)) "
            f"at {self.target}: {self.hits} hit(s) on {self.needed}"
        )


@dataclass(frozen=True)
class MarkerPlaced(Event):
    """A blast marker or template came to rest, hitting these units."""

    kind: ClassVar[str] = "marker"
    weapon: str
    shape: str
    centre: tuple[float, float]
    scattered: float
    hits: dict[str, int]

    @property
    def text(self) -> str:
        x, y = self.centre
        moved = f', scattered {self.scattered:.1f}"' if self.scattered else ""
        hit = ", ".join(f"{u}: {n}" for u, n in self.hits.items()) or "nothing"
        return f"  {self.shape} of {self.weapon} at ({x:.1f},{y:.1f}){moved} hits {hit}"


@dataclass(frozen=True)
class WoundsRolled(Event):
    """Hits on one unit rolled to wound (seed 000, step 5)."""

    kind: ClassVar[str] = "wounds"
    weapon: str
    target: str
    hits: int
    needed: str
    wounds: int

    @property
    def text(self) -> str:
        return (
            f"  {self.hits} hit(s) on {self.target} wound on {self.needed}: {self.wounds} wound(s)"
        )


@dataclass(frozen=True)
class SaveTaken(Event):
    """One saving throw against one wound (seed 000, step 6)."""

    kind: ClassVar[str] = "save"
    unit: str
    model: str
    save: str
    needed: int
    roll: int
    saved: bool

    @property
    def text(self) -> str:
        result = "saved" if self.saved else "failed"
        return f"  {self.model} takes its {self.save} save {self.needed}+: {self.roll}, {result}"


@dataclass(frozen=True)
class LeadershipTest(Event):
    """A Morale check or Pinning test."""

    kind: ClassVar[str] = "morale"
    unit: str
    test: str
    leadership: int
    modifier: int
    roll: int
    passed: bool
    reason: str

    @property
    def text(self) -> str:
        mod = f" {self.modifier:+d}" if self.modifier else ""
        outcome = "passed" if self.passed else "FAILED"
        return (
            f"{self.unit} takes a {self.test} ({self.reason}): Ld {self.leadership}{mod}, "
            f"rolled {self.roll}, {outcome}"
        )


@dataclass(frozen=True)
class ReactionDeclared(Event):
    """A unit reacted (Return Fire!, Dive for Cover, Overwatch, Fall Back)."""

    kind: ClassVar[str] = "reaction"
    unit: str
    reaction: str
    against: str

    @property
    def text(self) -> str:
        return f"{self.unit} reacts to {self.against}: {self.reaction}"
