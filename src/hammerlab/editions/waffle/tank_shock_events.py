"""Typed events of Tank Shock, Death or Glory and Ramming (``tank_shock``, ``ramming``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class TankShockDeclared(Event):
    """A Tank declared a Tank Shock (or a Ram) toward an enemy unit."""

    kind: ClassVar[str] = "tank_shock"
    unit: str
    model: str
    toward: str
    """The enemy unit the Tank was aimed at."""
    ram: bool
    distance: float
    """The distance declared, in inches."""
    heading: float
    """The direction of the move, in degrees (0 = +x, 90 = +y)."""

    @property
    def text(self) -> str:
        what = "rams" if self.ram else "Tank Shocks"
        return (
            f'{self.unit} {what} toward {self.toward}: {self.distance:g}" straight ahead '
            f"({self.heading:.0f}°)"
        )


@dataclass(frozen=True)
class TankShockReached(Event):
    """The Tank reached an enemy unit (Tank Shock) or an enemy vehicle (Ram), or stopped."""

    kind: ClassVar[str] = "tank_shock_contact"
    unit: str
    reached: str
    """The unit reached, or what stopped the Tank (``friendly model``, ``table edge``...)."""
    what: str
    """``shock``, ``ram`` or ``stop``."""
    travelled: float
    """Inches moved since the declaration when it happened."""

    @property
    def text(self) -> str:
        verbs = {"shock": "reaches", "ram": "collides with", "stop": 'stops 1" short of'}
        return f'  {self.unit} {verbs[self.what]} {self.reached} after {self.travelled:.1f}"'


@dataclass(frozen=True)
class DeathOrGlory(Event):
    """One model stood in the Tank's path and made its single attack."""

    kind: ClassVar[str] = "death_or_glory"
    unit: str
    model: str
    weapon: str
    strength: int
    vehicle: str
    stopped: bool
    """Whether the attack stopped the Tank (else the model is removed)."""

    @property
    def text(self) -> str:
        outcome = "stops it" if self.stopped else "fails and is crushed"
        return (
            f"  Death or Glory! {self.model} ({self.unit}) attacks {self.vehicle} with "
            f"{self.weapon} (S{self.strength}): {outcome}"
        )


@dataclass(frozen=True)
class RamCollision(Event):
    """A Ram: each vehicle suffers a hit on the facing the other struck."""

    kind: ClassVar[str] = "ram"
    rammer: str
    rammed: str
    rammer_strength: int
    """The Strength of the hit the rammer suffers (on its Front armour)."""
    rammed_strength: int
    """The Strength of the hit the rammed vehicle suffers."""
    rammed_facing: str

    @property
    def text(self) -> str:
        return (
            f"  Ram! {self.rammed} suffers a S{self.rammed_strength} hit on its "
            f"{self.rammed_facing} armour, {self.rammer} a S{self.rammer_strength} hit on its Front"
        )
