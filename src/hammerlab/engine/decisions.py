"""Decisions: every choice a player makes goes through a controller.

A procedure builds a :class:`Decision` listing the legal choices and asks the
battle, which asks the deciding player's :class:`Controller`. Procedures never
choose for a player.
"""

from __future__ import annotations

from collections.abc import Mapping
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
class Decision(Generic[T]):
    """A question to one player."""

    kind: str
    """What is being decided: ``shooter``, ``target``, ``weapon``, ``reaction``..."""
    player: str
    prompt: str
    choices: tuple[Choice[T], ...]
    context: Mapping[str, str] = field(default_factory=dict)
    """Ids the answer depends on (``unit``: the shooting unit, ...)."""

    def labels(self) -> list[str]:
        """The choice labels, in order."""
        return [c.label for c in self.choices]


class Controller(Protocol):
    """Answers decisions for one player by returning a choice index."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Index into ``decision.choices``."""
        ...
