"""The battle: the whole state of one game and the services procedures use."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, SupportsIndex, TypeVar, cast

from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.dice import Dice, KeyedDice
from hammerlab.engine.events import Event, EventLog, Message, ModelRemoved
from hammerlab.engine.geometry import Vec, centre_distance
from hammerlab.engine.records import quick_init
from hammerlab.engine.rules import Hooks, RuleSettings
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import IllegalActionError, UnansweredDecisionError, UnknownNameError

T = TypeVar("T")


@dataclass(frozen=True)
class Player:
    """A side of the battle and the table edge it deployed from."""

    name: str
    edge: str = "south"

    def edge_point(self, battlefield: Battlefield, near: Vec) -> Vec:
        """The point of this player's table edge nearest to ``near``."""
        x, y = near
        if self.edge == "south":
            return (x, 0.0)
        if self.edge == "north":
            return (x, battlefield.height)
        if self.edge == "west":
            return (0.0, y)
        return (battlefield.width, y)

    def distance_to_edge(self, battlefield: Battlefield, point: Vec) -> float:
        """How far ``point`` is from this player's table edge."""
        return centre_distance(point, self.edge_point(battlefield, point))


@quick_init
@dataclass(frozen=True)
class DecisionMade(Event):
    """A player answered a decision."""

    kind: ClassVar[str] = "decision"
    player: str
    decision: str
    answer: str

    @property
    def text(self) -> str:
        return f"  {self.player} decides {self.decision}: {self.answer}"


@dataclass
class Battle:
    """One game in progress.

    It owns the dice (the only randomness), the event log (the record), the
    controllers (the only source of choices), the rule settings with the hooks
    the rules that are on installed, and the edition's own state.
    """

    battlefield: Battlefield
    players: tuple[Player, ...]
    units: dict[str, Unit]
    dice: Dice
    ruleset: str
    settings: RuleSettings = field(default_factory=RuleSettings)
    """Which rule options are on, and every rule parameter's value."""
    hooks: Hooks = field(default_factory=Hooks)
    """Handlers the rules that are on installed on the procedures' hook points."""
    controllers: dict[str, Controller] = field(default_factory=dict)
    log: EventLog = field(default_factory=EventLog)
    turn: int = 1
    active_player: str = ""
    phase: str = ""
    state: Any = None
    """The edition's own state of the game (what its rules remember about units)."""
    answers: list[tuple[str, str]] = field(default_factory=list)
    """Answers given ahead, (decision kind, choice label), taken before the
    controllers are asked: an action applied through the game API, or a replay."""
    memory: dict[str, Any] = field(default_factory=dict)
    """What installed rules remember, by rule name (part of the game, so it is cloned
    and saved with it)."""

    def __post_init__(self) -> None:
        self.roll_with(self.dice)
        if not self.active_player and self.players:
            self.active_player = self.players[0].name

    def roll_with(self, dice: Dice) -> None:
        """Roll ``dice`` from here on (a copy's own dice, or the battle's first): every
        roll logged, and keyed dice (:class:`KeyedDice`) name their streams by this
        battle's turn and player."""
        dice.attach(self.log.emit)
        if isinstance(dice, KeyedDice):
            dice.clock = self
        self.dice = dice

    # --- queries -----------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        """The unit with id ``unit_id``; another id is an :class:`UnknownNameError`
        listing the battle's ids (``unknown unit 'nobody'; units: tactical, boyz``)."""
        try:
            return self.units[unit_id]
        except KeyError:
            raise UnknownNameError("unit", unit_id, list(self.units), "units") from None

    def unit_of(self, model: Model) -> Unit | None:
        """The unit ``model`` is a model of (alive or removed), found by the model's id,
        which no other model of the battle has; ``None`` where no unit of the battle has
        it. What a hook given a model alone (``BALLISTIC_SKILL``, ``WOUNDS_LEFT``) reads
        its unit by (docs/plugins.md), a copy of the model the AI weighs too. It looks
        through every model: keep it out of hot loops."""
        for unit in self.units.values():
            for candidate in unit.models:
                if candidate.id == model.id:
                    return unit
        return None

    def player(self, name: str) -> Player:
        """The player called ``name``."""
        for player in self.players:
            if player.name == name:
                return player
        raise UnknownNameError("player", name, [p.name for p in self.players])

    def units_of(self, player: str) -> list[Unit]:
        """Units of ``player`` still on the table."""
        return [u for u in self.units.values() if u.player == player and not u.destroyed]

    def enemies_of(self, unit: Unit) -> list[Unit]:
        """Enemy units still on the table."""
        return [u for u in self.units.values() if u.player != unit.player and not u.destroyed]

    def other_models(self, unit: Unit) -> Iterator[Model]:
        """Every model alive that is not in ``unit``."""
        for other in self.units.values():
            if other is not unit:
                yield from other.alive_models

    def opponent(self, player: str) -> str:
        """The other player (two-player battles)."""
        return next(p.name for p in self.players if p.name != player)

    @property
    def options(self) -> Mapping[str, bool]:
        """Which rule options are on (for reports: procedures ask hook points)."""
        return self.settings.options

    def remember(self, rule: str, factory: Callable[[], T]) -> T:
        """The memory of ``rule``, made by ``factory`` on first use."""
        if rule not in self.memory:
            self.memory[rule] = factory()
        return cast(T, self.memory[rule])

    # --- changes -----------------------------------------------------------
    def emit(self, event: Event) -> None:
        """Record an event."""
        self.log.emit(event)

    def say(self, topic: str, message: str) -> None:
        """Record a step of a procedure."""
        self.log.emit(Message(topic=topic, message=message))

    def remove_model(self, unit: Unit, model: Model, cause: str) -> None:
        """Take ``model`` off the table as a casualty."""
        model.wounds_left = 0
        self.emit(ModelRemoved(unit.label, model.id, cause))  # unit, model, cause

    def decide(self, decision: Decision[T]) -> T:
        """Ask the deciding player's controller and record the answer: the index of a
        choice. An answer that is no whole number (``"0"``, ``1.0``, ``True``; a numpy
        integer is one), or none of the choices', is an :class:`IllegalActionError`."""
        if not decision.choices:
            raise IllegalActionError(f"decision {decision.kind!r} offers no choice")
        if self.answers:
            return decision.choices[self._answered(decision)].value
        controller = self.controllers.get(decision.player)
        if controller is None:
            raise IllegalActionError(f"no controller for player {decision.player!r}")
        answer: object = controller.choose(self, decision)
        index = _whole_number(answer)
        if index is None or not 0 <= index < len(decision.choices):
            shown = repr(answer) if index is None else index
            raise IllegalActionError(
                f"{decision.player} answered {decision.kind!r} with choice {shown}, "
                f"which is not one of {decision.labels()} (a choice's index: 0 to "
                f"{len(decision.choices) - 1})"
            )
        choice = decision.choices[index]
        self.emit(DecisionMade(decision.player, decision.kind, choice.label))  # who, what, answer
        return choice.value

    def _answered(self, decision: Decision[Any]) -> int:
        """Take the next answer given ahead; it must fit ``decision``."""
        kind, label = self.answers.pop(0)
        labels = decision.labels()
        if kind != decision.kind or label not in labels:
            self.answers.clear()
            raise UnansweredDecisionError(decision.player, decision.kind, labels, (kind, label))
        index = labels.index(label)
        self.emit(DecisionMade(player=decision.player, decision=decision.kind, answer=label))
        return index

    def ask(self, decision: Decision[Any]) -> Any:
        """:meth:`decide` for callers that do not need the value's type."""
        return self.decide(decision)


def _whole_number(answer: object) -> int | None:
    """A controller's ``answer`` as a choice's index: a whole number (an ``int``, or a
    numpy integer, which a policy's ``argmax`` gives), never ``True``/``False``, a
    float or text; ``None`` for anything else."""
    if type(answer) is int:  # the usual answer, at once
        return answer
    if isinstance(answer, bool) or not isinstance(answer, SupportsIndex):
        return None
    return operator.index(answer)
