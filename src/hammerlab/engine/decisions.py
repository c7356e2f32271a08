"""Decisions: every choice a player makes goes through a controller.

A procedure builds a :class:`Decision` listing the legal choices and asks the
battle, which asks the deciding player's :class:`Controller`. Procedures never
choose for a player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from hammerlab.engine.battle import Battle

T = TypeVar("T")


@dataclass(frozen=True)
class Choice(Generic[T]):
    """One legal answer: a label people read and the value the rules use."""

    label: str
    value: T


@dataclass(frozen=True)
class DecisionContext:
    """What a decision is about, by id (never a live object: the game may be copied)."""

    unit: str = ""
    """The unit deciding or acting (the shooting unit, the unit hit, the charger)."""
    target: str = ""
    """The unit acted upon, if one."""
    attacker: str = ""
    """The enemy unit that provoked the decision (the shooter reacted to)."""
    weapon: str = ""
    models: tuple[str, ...] = ()
    """The models the decision is for (a group fighting with one weapon)."""
    others: tuple[str, ...] = ()
    """Other units it concerns (the units a pursuit may choose between)."""
    phase: str = ""
    why: str = ""
    what: str = ""


@dataclass(frozen=True)
class Decision(Generic[T]):
    """A question to one player."""

    kind: str
    """What is being decided: ``shooter``, ``target``, ``weapon``, ``reaction``..."""
    player: str
    prompt: str
    choices: tuple[Choice[T], ...]
    context: DecisionContext = field(default_factory=DecisionContext)
    """Ids the answer depends on (``unit``: the shooting unit, ...)."""

    def labels(self) -> list[str]:
        """The choice labels, in order."""
        return [c.label for c in self.choices]


class Controller(Protocol):
    """Answers decisions for one player by returning a choice index."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Index into ``decision.choices``."""
        ...
