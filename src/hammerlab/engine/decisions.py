"""Decisions: every choice a player makes goes through a controller.

A procedure builds a :class:`Decision` listing the legal choices and asks the
battle, which asks the deciding player's :class:`Controller`. Procedures never
choose for a player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from hammerlab.engine.records import quick_init

if TYPE_CHECKING:
    from hammerlab.engine.battle import Battle

T = TypeVar("T")


@quick_init
@dataclass(frozen=True)
class Choice(Generic[T]):
    """One legal answer: a label people read and the value the rules use.

    The label is the answer's name in the record: the log's ``DecisionMade``, a
    replay's and a script's answers and the lab's choice tallies (``"kind: label"``)
    all use it, so it stays short and the same from game to game; what a person
    needs to weigh the answer (distances, risks) is the decision's
    :attr:`Decision.describe`, never recorded.
    """

    label: str
    value: T


@quick_init
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


@quick_init
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
    describe: Callable[[T], str] | None = field(default=None, compare=False, repr=False)
    """What a choice means for the game, from its value, for a person choosing (a
    Deep Strike point's nearest enemy and chance of a mishap, where a blast marker
    would lie and whom it would cover); ``""`` where there is nothing to add.

    Asked only where choices are shown to a person (:meth:`details`: the prompt
    controller), so the AI, the lab and replays pay nothing for it; and kept out
    of the labels, which the record and the lab's tallies name answers by: a
    label carrying distances would make every position's answer a choice of its
    own in a tally, and would change whenever a model stood elsewhere."""

    not_offered: Callable[[], tuple[str, ...]] | None = field(
        default=None, compare=False, repr=False
    )
    """What was left out of the choices and why, one line each, for a person choosing
    (a weapon that cannot fire Snap Shots, one out of range). Asked only where the
    choices are shown to a person, as :attr:`describe` is."""

    def labels(self) -> list[str]:
        """The choice labels, in order."""
        return [c.label for c in self.choices]

    def details(self) -> list[str]:
        """What :attr:`describe` says of each choice, in order (``""`` for each where
        the decision has none)."""
        describe = self.describe
        if describe is None:
            return ["" for _ in self.choices]
        return [describe(c.value) for c in self.choices]


class Controller(Protocol):
    """Answers decisions for one player by returning a choice index."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Index into ``decision.choices``."""
        ...
