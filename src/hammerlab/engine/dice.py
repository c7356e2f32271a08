"""All chance in a battle goes through one :class:`Dice` object.

Every roll is recorded as a :class:`~hammerlab.engine.events.DiceRolled`
event, so a log shows exactly which die decided what, and the same seed with
the same decisions replays the same log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from hammerlab.engine.events import DIRECTION_SIDES, DiceRolled, Event
from hammerlab.errors import HammerlabError

EventSink = Callable[[Event], None]


class DiceExhaustedError(HammerlabError, RuntimeError):
    """Scripted dice ran out: the test script is shorter than the rolls made."""


class Dice:
    """Seeded dice; the only source of randomness in a battle."""

    def __init__(self, seed: int = 0, sink: EventSink | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._sink = sink

    def attach(self, sink: EventSink) -> None:
        """Send roll events to ``sink`` (the battle's log)."""
        self._sink = sink

    def _draws(self, count: int, sides: int) -> list[int]:
        """``count`` dice: ``random.Random.randint(1, sides)``'s values and draws, without
        its three layers of Python calls (``randrange``, ``_randbelow``) nor a call of
        our own a die: a die is drawn as ``sides.bit_length()`` random bits, drawn again
        while they reach ``sides`` (``tests/test_dice.py`` holds it to ``randint``). Every
        die a roll takes comes from here: dice of another kind give theirs by overriding
        it (:class:`ScriptedDice`)."""
        if count and sides < 1:  # randint's empty range (the loop below would never end)
            raise ValueError(f"a die needs at least one side, not {sides}")
        bits = self._rng.getrandbits
        width = sides.bit_length()
        values: list[int] = []
        for _ in range(count):
            value = bits(width)
            while value >= sides:
                value = bits(width)
            values.append(value + 1)
        return values

    def state(self) -> object:
        """The generator's state (what a replay must reproduce)."""
        return self._rng.getstate()

    def _draw_direction(self) -> float:
        return round(self._rng.uniform(0.0, 360.0), 1)

    def roll(self, count: int, purpose: str, sides: int = 6) -> tuple[int, ...]:
        """Roll ``count`` dice with ``sides`` faces for ``purpose``."""
        values = tuple(self._draws(count, sides))
        if self._sink is not None and count:
            self._sink(DiceRolled(purpose, sides, values))  # the commonest event: no keywords
        return values

    def d6(self, purpose: str) -> int:
        """One D6."""
        return self.roll(1, purpose)[0]

    def total(self, count: int, purpose: str, sides: int = 6) -> int:
        """The sum of ``count`` dice (2D6 for a Morale check, and so on)."""
        return sum(self.roll(count, purpose, sides))

    def direction(self, purpose: str) -> float:
        """A direction in degrees (0 = +x, counter-clockwise): the scatter arrow."""
        value = self._draw_direction()
        if self._sink is not None:
            self._sink(DiceRolled(purpose=purpose, sides=DIRECTION_SIDES, values=(int(value),)))
        return value


class Clock(Protocol):
    """Where the game is: what keyed dice read to choose a stream (a battle)."""

    @property
    def turn(self) -> int: ...

    @property
    def active_player(self) -> str: ...


class KeyedDice(Dice):
    """Seeded dice with one stream per (game turn, player's turn, purpose).

    The rules lab plays the same seed twice, once with a rule changed. With one
    stream (:class:`Dice`) every roll after the first difference (a roll more,
    or one fewer) is shifted, so the two battles soon roll different dice for
    everything. Here a roll draws from the stream named by the seed, the turn,
    whose turn it is and the roll's purpose — which names the unit and weapon
    that roll (``to hit (Boltgun, Tactical Squad [tactical])``) — so a unit's
    rolls stay the same in both battles as long as that unit does the same
    things, whatever happened elsewhere, and the paired difference keeps less
    noise. Same seed, same decisions: the same log, as with :class:`Dice`.
    Opt-in (``--dice keyed`` in the lab and sweeps); ``battle`` keeps one stream.
    """

    def __init__(self, seed: int = 0, sink: EventSink | None = None) -> None:
        super().__init__(seed, sink)
        self.clock: Clock | None = None
        """The battle whose turn names the streams (set once the battle exists)."""
        self._streams: dict[str, random.Random] = {}

    def _use(self, purpose: str) -> None:
        turn, player = (self.clock.turn, self.clock.active_player) if self.clock else (0, "")
        key = f"{self.seed}|{turn}|{player}|{purpose}"
        stream = self._streams.get(key)
        if stream is None:
            stream = self._streams[key] = random.Random(key)  # str seeds: stable everywhere
        self._rng = stream

    def roll(self, count: int, purpose: str, sides: int = 6) -> tuple[int, ...]:
        """Roll from this purpose's stream for the current turn."""
        self._use(purpose)
        return super().roll(count, purpose, sides)

    def direction(self, purpose: str) -> float:
        """A direction from this purpose's stream for the current turn."""
        self._use(purpose)
        return super().direction(purpose)

    def state(self) -> object:
        """Every stream's state, by key."""
        return tuple(sorted((k, s.getstate()) for k, s in self._streams.items()))


DICE_MODES = ("single", "keyed")
"""``single``: one stream per battle (:class:`Dice`); ``keyed``: :class:`KeyedDice`."""

KEYED_METHOD = "Dice keyed by turn, unit and roll (common random numbers)."
"""What a report's method says of ``--dice keyed`` (a sweep's, a lab's page): battles
replayed with one stream of dice are other battles."""


def dice_for(mode: str, seed: int) -> Dice:
    """Dice of ``mode`` (one of :data:`DICE_MODES`) for ``seed``."""
    if mode == "keyed":
        return KeyedDice(seed)
    if mode == "single":
        return Dice(seed)
    raise DiceModeError(f"dice mode {mode!r}: use one of {', '.join(DICE_MODES)}")


class DiceModeError(HammerlabError, ValueError):
    """An unknown dice mode."""


@dataclass
class ScriptedDice(Dice):
    """Dice that return a fixed script, for tests that drive one exact branch.

    ``values`` are consumed in order by every die of any size; ``directions``
    by :meth:`direction`. Running out raises :class:`DiceExhaustedError`.
    """

    values: list[int] = field(default_factory=list)
    directions: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(seed=0)
        self._values = list(self.values)
        self._directions = list(self.directions)

    def _draws(self, count: int, sides: int) -> list[int]:
        return [self._draw(sides) for _ in range(count)]

    def _draw(self, sides: int) -> int:
        """The next scripted value, as a die of ``sides``."""
        if not self._values:
            raise DiceExhaustedError("scripted dice exhausted")
        value = self._values.pop(0)
        if not 1 <= value <= sides:
            raise DiceExhaustedError(f"scripted value {value} is not a D{sides} result")
        return value

    def _draw_direction(self) -> float:
        if not self._directions:
            raise DiceExhaustedError("scripted directions exhausted")
        return self._directions.pop(0)

    @property
    def remaining(self) -> int:
        """How many scripted values are left (tests assert it reaches 0)."""
        return len(self._values)

    def extend(self, values: Iterable[int]) -> None:
        """Append more scripted values."""
        self._values.extend(values)
