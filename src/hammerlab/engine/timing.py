"""Timing windows: the named moments at which triggered rules act.

A procedure *opens* a window at a moment the rules name ("when a unit is
selected as a target", "after a unit has resolved its attacks"); the
:class:`TriggerBoard` then gives every registered :class:`Trigger` for that
window the chance to fire. A trigger that fires may act at once, or *hold* a
:class:`DelayedEffect` until a later window opened by the same acting unit:
that is how an edition says "this triggers now but resolves later".

Window names are plain strings chosen by each edition; the engine knows none
of them. Everything the board does is recorded in the battle's log, by the
window's name; the step log's text says the moment in the words an edition
gives it (:func:`name_moments`: "the moment a unit declares a charge", not
``charge-declared``).

Order is fixed, so a replay is byte for byte the same: triggers and held
effects belonging to the active player resolve first, then those of the other
players in seating order; one player's resolve in the order they were
registered (triggers) or held (delayed effects).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, TypeVar

from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event


@dataclass(frozen=True)
class Occasion:
    """The moment a window was opened for."""

    window: str
    """The window's name."""
    actor: str = ""
    """Id of the unit whose action opened the window (the attacking unit)."""
    subject: str = ""
    """Id of the unit acted upon (the unit selected as a target), if one."""
    related: tuple[str, ...] = ()
    """Ids of other units the moment involves (every unit attacked, ...)."""


class Trigger(Protocol):
    """A rule that may fire when a window opens."""

    @property
    def name(self) -> str:
        """How the log names the rule (``Outrider Escort (Invader ATV [atv])``)."""
        ...

    @property
    def owner(self) -> str:
        """The player the rule belongs to."""
        ...

    @property
    def window(self) -> str:
        """The window it listens to."""
        ...

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """Whether the rule fires at ``occasion``."""
        ...

    def resolve(self, battle: Battle, occasion: Occasion, board: TriggerBoard) -> None:
        """Act, asking the owner's controller for any choice; may hold an effect."""
        ...


class DelayedEffect(Protocol):
    """What a trigger left to be resolved at a later window."""

    @property
    def name(self) -> str:
        """How the log names it."""
        ...

    @property
    def owner(self) -> str:
        """The player it belongs to."""
        ...

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """Whether it still resolves at ``occasion``; if not, it lapses."""
        ...

    def resolve(self, battle: Battle, occasion: Occasion) -> None:
        """Act."""
        ...


_MOMENTS: dict[str, str] = {}
"""Window name → the words the step log says its moment in (:func:`name_moments`)."""

_STEPS = {
    "fired": "triggers at",
    "held": "is held until",
    "resolved": "is resolved at",
    "lapsed": "lapses at",
}
"""A trigger step → how the step log says it, before the moment."""


def name_moments(moments: Mapping[str, str]) -> None:
    """Give windows the words a player reads in the step log: ``moments`` maps an
    edition's window names to the moment each names, in lower case (``the end of
    the Shooting phase``). Only the events' text reads them; the events keep the
    names, so logs and replays do not change with the words."""
    _MOMENTS.update(moments)


def moment(window: str) -> str:
    """The words for ``window`` (:func:`name_moments`), or its name if none were given."""
    return _MOMENTS.get(window, window)


@dataclass(frozen=True)
class WindowOpened(Event):
    """A timing window opened and at least one rule acts in it."""

    kind: ClassVar[str] = "window"
    window: str
    actor: str
    subject: str

    @property
    def text(self) -> str:
        said = moment(self.window)
        about = f" ({self.actor} → {self.subject})" if self.subject else f" ({self.actor})"
        return f"  · {said[:1].upper()}{said[1:]}{about if self.actor else ''}"


@dataclass(frozen=True)
class TriggerStep(Event):
    """A triggered rule fired, was held, resolved or lapsed."""

    kind: ClassVar[str] = "trigger"
    rule: str
    owner: str
    step: str
    """``fired``, ``held``, ``resolved`` or ``lapsed``."""
    window: str
    """The window where the step happened (for ``held``: the one it waits for)."""

    @property
    def text(self) -> str:
        mark = "⧗" if self.step == "held" else "⚑"
        return f"  {mark} {self.rule} {_STEPS.get(self.step, self.step)} {moment(self.window)}"


@dataclass(frozen=True)
class _Held:
    effect: DelayedEffect
    until: str
    actor: str


class _Owned(Protocol):
    @property
    def owner(self) -> str: ...


OwnedT = TypeVar("OwnedT", bound=_Owned)


class TriggerBoard:
    """The triggers of one battle, and the effects they hold."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self._triggers: list[Trigger] = []
        self._listening: dict[str, list[Trigger]] = {}
        """Window → the triggers listening to it, in registration order (a window with
        no trigger and no held effect is opened thousands of times a battle: found at
        once)."""
        self._held: list[_Held] = []

    def register(self, trigger: Trigger) -> None:
        """Listen for ``trigger.window`` from now on (a trigger's window is read here,
        once: it names the moment the rule waits for, which does not change)."""
        self._triggers.append(trigger)
        self._listening.setdefault(trigger.window, []).append(trigger)

    @property
    def triggers(self) -> tuple[Trigger, ...]:
        """Every registered trigger, in registration order."""
        return tuple(self._triggers)

    @property
    def held(self) -> tuple[DelayedEffect, ...]:
        """Effects waiting for a window, in the order they were held."""
        return tuple(h.effect for h in self._held)

    def hold(self, effect: DelayedEffect, until: str, actor: str) -> None:
        """Keep ``effect`` until window ``until`` is opened for unit ``actor``."""
        self._held.append(_Held(effect, until, actor))
        self._step(effect.name, effect.owner, "held", until)

    def open(self, occasion: Occasion) -> None:
        """Open a window: release what waits for it, then fire what listens to it.

        Each rule is asked whether it applies only when its turn comes, so a
        rule resolved earlier in the same window can change the answer. A window
        nothing waits for and nothing listens to does nothing, and is left at once.
        """
        listening = self._listening.get(occasion.window, [])
        if not listening and not any(h.until == occasion.window for h in self._held):
            return
        released = [
            h for h in self._held if h.until == occasion.window and h.actor == occasion.actor
        ]
        self._held = [h for h in self._held if all(h is not r for r in released)]
        announced = False

        def announce() -> None:
            nonlocal announced
            if not announced:
                announced = True
                self.battle.emit(
                    WindowOpened(
                        window=occasion.window, actor=occasion.actor, subject=occasion.subject
                    )
                )

        for effect in self.in_order([h.effect for h in released]):
            announce()
            step = "resolved" if effect.applies(self.battle, occasion) else "lapsed"
            self._step(effect.name, effect.owner, step, occasion.window)
            if step == "resolved":
                effect.resolve(self.battle, occasion)
        for trigger in self.in_order(listening):
            if trigger.applies(self.battle, occasion):
                announce()
                self._step(trigger.name, trigger.owner, "fired", occasion.window)
                trigger.resolve(self.battle, occasion, self)

    def _step(self, rule: str, owner: str, step: str, window: str) -> None:
        self.battle.emit(TriggerStep(rule=rule, owner=owner, step=step, window=window))

    def in_order(self, items: Sequence[OwnedT]) -> list[OwnedT]:
        """``items`` in the fixed order: active player's first, then by seat; stable."""
        if len(items) < 2:
            return list(items)
        seats = [self.battle.active_player] + [
            p.name for p in self.battle.players if p.name != self.battle.active_player
        ]
        rank = {name: i for i, name in enumerate(seats)}
        return sorted(items, key=lambda item: rank.get(item.owner, len(rank)))
