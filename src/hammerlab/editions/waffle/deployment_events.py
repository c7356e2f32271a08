"""Typed events of Reserves and Deep Strike (``reserves``, ``deep_strike``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event
from hammerlab.engine.geometry import Vec


@dataclass(frozen=True)
class ReserveRolled(Event):
    """A Reserve Roll (``roll`` 0: the unit arrives without one)."""

    kind: ClassVar[str] = "reserve_roll"
    unit: str
    roll: int
    needed: int
    arrives: bool

    @property
    def text(self) -> str:
        verdict = "arrives" if self.arrives else "stays in reserve"
        if self.roll == 0:
            return f"{self.unit} arrives from reserve without a roll"
        return f"Reserve Roll for {self.unit}: {self.roll} (needs {self.needed}+): {verdict}"


@dataclass(frozen=True)
class DeepStrikeScattered(Event):
    """Where a Deep Striking unit's first model was placed and where it came down."""

    kind: ClassVar[str] = "deep_strike"
    unit: str
    aimed: Vec
    landed: Vec
    scattered: float

    @property
    def text(self) -> str:
        x, y = self.landed
        if self.scattered == 0:
            return f"{self.unit} Deep Strikes on target at ({x:.1f}, {y:.1f})"
        return f'{self.unit} Deep Strikes, scatters {self.scattered:g}" to ({x:.1f}, {y:.1f})'


@dataclass(frozen=True)
class DeepStrikeMishap(Event):
    """A Deep Strike that could not be placed, and the Mishap table's result."""

    kind: ClassVar[str] = "deep_strike_mishap"
    unit: str
    reason: str
    roll: int
    result: str
    """``terrible accident``, ``misplaced`` or ``delayed`` (``deep_strike.MISHAPS``)."""

    @property
    def text(self) -> str:
        return f"{self.unit} mishaps ({self.reason}): rolled {self.roll}: {self.result}"


@dataclass(frozen=True)
class LostInReserve(Event):
    """A unit still in reserve when the game ends: it counts as destroyed."""

    kind: ClassVar[str] = "lost_in_reserve"
    unit: str

    @property
    def text(self) -> str:
        return f"{self.unit} never arrived from reserve: it counts as destroyed"


@dataclass(frozen=True)
class ScoutRedeployed(Event):
    """A Scout redeployment before the first turn: every model moved by ``shift``."""

    kind: ClassVar[str] = "scout"
    unit: str
    shift: Vec

    @property
    def text(self) -> str:
        dx, dy = self.shift
        return f'{self.unit} redeploys (Scout) by ({dx:+.1f}", {dy:+.1f}")'


@dataclass(frozen=True)
class Infiltrated(Event):
    """An Infiltrator set up before the first turn, its formation centred on ``centre``."""

    kind: ClassVar[str] = "infiltrate"
    unit: str
    centre: Vec

    @property
    def text(self) -> str:
        x, y = self.centre
        return f"{self.unit} infiltrates to ({x:.1f}, {y:.1f})"


@dataclass(frozen=True)
class OutflankRolled(Event):
    """An Outflanking unit's D6 for its table edge (``chose``: a 5-6, its player chose)."""

    kind: ClassVar[str] = "outflank_roll"
    unit: str
    roll: int
    side: str
    edge: str
    chose: bool

    @property
    def text(self) -> str:
        how = "its player chooses" if self.chose else "rolled"
        return f"Outflank for {self.unit}: {self.roll}, {how} the {self.side} ({self.edge} edge)"


@dataclass(frozen=True)
class OutflankEntered(Event):
    """Where an Outflanking unit came onto the table (``centre`` None: no room, it waits)."""

    kind: ClassVar[str] = "outflank"
    unit: str
    edge: str
    centre: Vec | None

    @property
    def text(self) -> str:
        if self.centre is None:
            return f"{self.unit} finds no room on the {self.edge} edge and stays in reserve"
        x, y = self.centre
        return f"{self.unit} outflanks from the {self.edge} edge to ({x:.1f}, {y:.1f})"
