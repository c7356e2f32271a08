"""Events of the Psychic phase (:mod:`.psychic`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine.events import Event


@dataclass(frozen=True)
class WarpCharge(Event):
    """The Warp Charge pools at the start of a Psychic phase."""

    kind: ClassVar[str] = "warp_charge"
    roll: int
    pools: dict[str, int]
    """Player → Warp Charge points (the roll plus the player's Mastery Levels)."""

    @property
    def text(self) -> str:
        shown = ", ".join(f"{p}: {n}" for p, n in self.pools.items())
        return f"Warp Charge: rolled {self.roll}; pools {shown}"


@dataclass(frozen=True)
class PsychicTest(Event):
    """A Psyker rolled Warp Charge dice to manifest a power."""

    kind: ClassVar[str] = "psychic_test"
    unit: str
    power: str
    target: str
    warp_charge: int
    rolls: tuple[int, ...]
    successes: int
    passed: bool
    perils: bool

    @property
    def text(self) -> str:
        result = "manifested" if self.passed else "fails"
        perils = "; Perils of the Warp!" if self.perils else ""
        return (
            f"{self.unit} attempts {self.power} (Warp Charge {self.warp_charge}) on "
            f"{self.target}: {self.successes} success(es) from {len(self.rolls)} dice, "
            f"{result}{perils}"
        )


@dataclass(frozen=True)
class DenyTheWitch(Event):
    """The target's player tried to deny a manifested power."""

    kind: ClassVar[str] = "deny_the_witch"
    unit: str
    power: str
    needed: int
    rolls: tuple[int, ...]
    successes: int
    against: int
    """The psychic test's successes the Deny must equal or beat."""
    denied: bool
    rerolled: tuple[int, ...] = ()
    """Dice re-rolled, as first rolled (The Aegis: its 1s); ``rolls`` are the final dice."""

    @property
    def text(self) -> str:
        result = "denied" if self.denied else "not denied"
        return (
            f"{self.unit} denies the witch with {len(self.rolls)} dice on {self.needed}+: "
            f"{self.successes} against {self.against}, {self.power} {result}"
        )


@dataclass(frozen=True)
class BlessingChanged(Event):
    """A Blessing began (``begins``) or ended on a unit."""

    kind: ClassVar[str] = "blessing"
    unit: str
    power: str
    rules: tuple[str, ...]
    begins: bool

    @property
    def text(self) -> str:
        what = "gains" if self.begins else "loses"
        return f"{self.unit} {what} {', '.join(self.rules)} ({self.power})"


@dataclass(frozen=True)
class PerilsOfTheWarp(Event):
    """A Psyker rolled on the Perils of the Warp table (:mod:`.perils`)."""

    kind: ClassVar[str] = "perils"
    unit: str
    model: str
    roll: int
    result: str
    """The table's result: ``Dragged into the Warp``, ``Mental Purge``..."""

    @property
    def text(self) -> str:
        return f"{self.model} ({self.unit}) suffers Perils of the Warp: {self.roll}, {self.result}"


@dataclass(frozen=True)
class PowerPurged(Event):
    """Mental Purge: a Psyker lost a power for the rest of the battle."""

    kind: ClassVar[str] = "power_purged"
    unit: str
    model: str
    power: str

    @property
    def text(self) -> str:
        return f"{self.model} ({self.unit}) loses {self.power} for the rest of the battle"


@dataclass(frozen=True)
class WarpChargeDrained(Event):
    """Power Drain: both players lost Warp Charge points."""

    kind: ClassVar[str] = "warp_charge_drained"
    lost: int
    pools: dict[str, int]
    """Player → Warp Charge points left."""

    @property
    def text(self) -> str:
        shown = ", ".join(f"{p}: {n}" for p, n in self.pools.items())
        return f"Power Drain: each player loses {self.lost} Warp Charge; pools {shown}"


@dataclass(frozen=True)
class PowerHits(Event):
    """A unit under a Beam power's line, or within a Nova power's range, is hit."""

    kind: ClassVar[str] = "power_hits"
    power: str
    unit: str
    hits: int

    @property
    def text(self) -> str:
        return f"{self.power} hits {self.unit}: {self.hits} hit(s)"
