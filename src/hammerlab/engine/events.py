"""Typed events: the record of a battle.

Every event is an immutable dataclass with a ``kind`` and a one-line human
``text``; :func:`to_json_line` gives its JSON Lines form. Editions add their
own event classes by subclassing :class:`Event`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from hammerlab.engine.records import quick_init


@dataclass(frozen=True)
class Event:
    """Base class of all events."""

    kind: ClassVar[str] = "event"

    @property
    def text(self) -> str:
        """One line for people."""
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"kind": self.kind, **dataclasses.asdict(self)}


def to_json_line(event: Event) -> str:
    """One JSON object, keys sorted, for a byte-stable log."""
    return to_json_line_of(event.to_dict())


def to_json_line_of(data: Mapping[str, Any]) -> str:
    """``data`` as one line of a byte-stable JSON Lines log."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


DIRECTION_SIDES = 360
"""The ``sides`` a direction (the scatter arrow, in whole degrees) is logged with."""


@quick_init
@dataclass(frozen=True)
class DiceRolled(Event):
    """Dice were rolled for ``purpose``."""

    kind: ClassVar[str] = "dice"
    purpose: str
    sides: int
    values: tuple[int, ...]

    @property
    def text(self) -> str:
        shown = " ".join(str(v) for v in self.values)
        if self.sides == DIRECTION_SIDES:
            return f"  rolled {self.purpose}: {shown}°"
        return f"  rolled {len(self.values)}D{self.sides} for {self.purpose}: {shown}"


@quick_init
@dataclass(frozen=True)
class PhaseChanged(Event):
    """A phase (or sub-phase) began or ended."""

    kind: ClassVar[str] = "phase"
    phase: str
    player: str
    turn: int
    begins: bool

    @property
    def text(self) -> str:
        verb = "begins" if self.begins else "ends"
        return f"== Turn {self.turn}, {self.player}: {self.phase} phase {verb} =="


@quick_init
@dataclass(frozen=True)
class Message(Event):
    """A step of a procedure worth telling (nominations, choices, outcomes)."""

    kind: ClassVar[str] = "message"
    topic: str
    message: str

    @property
    def text(self) -> str:
        return self.message


@dataclass(frozen=True)
class ModelMoved(Event):
    """A model moved from one point to another."""

    kind: ClassVar[str] = "move"
    unit: str
    model: str
    start: tuple[float, float]
    end: tuple[float, float]
    reason: str

    @property
    def text(self) -> str:
        """Where from and where to, to a tenth of an inch; with the distance in
        hundredths where the two points read alike at that precision (a pile-in of
        a few hundredths read as a move from a point to itself)."""
        sx, sy = self.start
        ex, ey = self.end
        start, end = f"({sx:.1f},{sy:.1f})", f"({ex:.1f},{ey:.1f})"
        line = f"  {self.model} ({self.unit}) {self.reason}: {start} → {end}"
        if start == end:
            line += f' ({math.hypot(ex - sx, ey - sy):.2f}")'
        return line


@quick_init
@dataclass(frozen=True)
class ModelRemoved(Event):
    """A model was removed as a casualty."""

    kind: ClassVar[str] = "casualty"
    unit: str
    model: str
    cause: str

    @property
    def text(self) -> str:
        return f"  ✝ {self.model} of {self.unit} is removed ({self.cause})"


@quick_init
@dataclass(frozen=True)
class WoundsLost(Event):
    """A model lost wounds (after saves and similar rules). An edition adds what its
    own rules say of the loss in a subclass of the same ``kind``."""

    kind: ClassVar[str] = "wound"
    unit: str
    model: str
    lost: int
    left: int

    @property
    def text(self) -> str:
        return (
            f"  {self.model} of {self.unit} loses {self.lost} wound(s){self.tag}, {self.left} left"
        )

    @property
    def tag(self) -> str:
        """What an edition's rules add to the line, after the wounds lost (none here)."""
        return ""


class EventLog:
    """The ordered record of a battle, with listeners for triggers."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._listeners: tuple[Callable[[Event], None], ...] = ()
        """A tuple, replaced on :meth:`subscribe`: an event goes to the listeners there
        were when it was emitted, with no copy made per event."""

    def emit(self, event: Event) -> None:
        """Record ``event`` and tell every listener."""
        self.events.append(event)
        for listener in self._listeners:
            listener(event)

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        """A copy for a cloned game: the same (immutable) events so far, no listeners."""
        copied = EventLog()
        copied.events = list(self.events)
        memo[id(self)] = copied
        return copied

    @property
    def listeners(self) -> tuple[Callable[[Event], None], ...]:
        """Who hears each event now, in the order subscribed."""
        return self._listeners

    def subscribe(self, listener: Callable[[Event], None]) -> None:
        """Call ``listener`` for each later event."""
        self._listeners = (*self._listeners, listener)

    def unsubscribe(self, listener: Callable[[Event], None]) -> None:
        """Stop calling ``listener`` (one subscribed for a while: the web server's time
        limit watches a game in play only while a request plays it)."""
        self._listeners = tuple(kept for kept in self._listeners if kept is not listener)

    def of_kind(self, kind: str) -> list[Event]:
        """All events of one kind, in order."""
        return [e for e in self.events if e.kind == kind]

    def json_lines(self) -> str:
        """The whole log as JSON Lines."""
        return "".join(to_json_line(e) + "\n" for e in self.events)
