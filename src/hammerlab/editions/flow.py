"""The flow of a game as data, and a cursor that plays it one decision at a time.

An edition declares its turn as :class:`Phase` s: what happens when a phase
begins, the rulebooks' "select a unit … then select another" loop
(:class:`Picks`), and what happens when it ends. :class:`Play` walks that
flow over a battle with a :class:`Cursor` (turn, player, phase, stage, units
already picked), so the rest of a game lives in the cursor, not on the call
stack: a game can stop at any top-level decision, be copied, saved, and go on.

Decisions inside one activation (a unit's target, weapon, reactions to it)
stay synchronous: they are answered by the players' controllers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.units import Unit

Eligible = Callable[[Battle, str, frozenset[str]], list[Unit]]
"""``(battle, player, done)``: units the player may pick now (``done``: already picked)."""
FollowUps = Callable[[Battle, Unit], list[tuple[tuple[str, str], ...]]]
"""The answers (decision kind, choice label) an activation of the unit asks first,
one tuple per legal combination: what the unit does, at whom."""


@dataclass(frozen=True)
class Picks:
    """The "select a unit … then select another" loop of a phase."""

    kind: str
    """The decision's kind (``shooter``, ``mover``, ``charger``)."""
    prompt: str
    eligible: Eligible
    activate: Callable[[Battle, Unit], None]
    stop: str = "end phase"
    """The label of the choice that ends the loop."""
    follow_ups: FollowUps | None = None
    """What the activation asks first, when cheap to list (for ``legal_actions``)."""
    describe: Callable[[Battle, Unit], str] | None = None
    """What a person choosing is told of each unit offered (``Decision.describe``: a
    unit that would make no attacks, before it is selected); ``None``: nothing."""


@dataclass(frozen=True)
class Phase:
    """A phase (or sub-phase): begin, the unit picks, end."""

    name: str
    begin: Callable[[Battle, str], frozenset[str]]
    """Starts the phase for the player; returns the units that may not be picked."""
    picks: Picks | None
    end: Callable[[Battle, str], None]


def _no_turn_end(battle: Battle, player: str) -> None:
    """A flow with nothing to do at the end of a turn."""


def _plays_on(battle: Battle) -> bool:
    """A flow whose games end only after their last turn."""
    return False


@dataclass(frozen=True)
class Flow:
    """An edition's game turn: its phases in order, and what ends a player's turn."""

    phases: tuple[Phase, ...]
    end_of_turn: Callable[[Battle, str], None] = _no_turn_end
    game_over: Callable[[Battle], bool] = _plays_on
    """Asked at the end of each game turn (every player's turn played), the last one
    included: whether the game ends there, whatever turns are left (a sudden-death
    rule, which records why)."""


BEGIN, PICKS, END, TURN_END, OVER = "begin", "picks", "end", "end of turn", "over"


@dataclass
class Cursor:
    """Where a game is: turn, player (seat in turn order), phase, stage, units picked."""

    turn: int = 1
    seat: int = 0
    phase: int = 0
    stage: str = BEGIN
    done: list[str] = field(default_factory=list)
    """Units already picked in this phase's loop (or barred from it)."""

    def to_dict(self) -> dict[str, object]:
        """Plain data (for saved games)."""
        return {
            "turn": self.turn,
            "seat": self.seat,
            "phase": self.phase,
            "stage": self.stage,
            "done": list(self.done),
        }


class Play:
    """A flow being played on one battle, from turn ``first`` to turn ``last``.

    :meth:`pending` runs everything up to the next top-level decision and
    returns it; :meth:`pick` carries out its answer. :meth:`run` answers each
    with the players' controllers. Players take turns in seating order,
    starting with ``battle.active_player`` (or in ``order``).
    """

    def __init__(
        self,
        battle: Battle,
        flow: Flow,
        first: int = 1,
        last: int = 1,
        order: Sequence[str] | None = None,
    ) -> None:
        self.battle = battle
        self.flow = flow
        self.last = last
        names = [p.name for p in battle.players]
        start = names.index(battle.active_player) if battle.active_player in names else 0
        self.order = list(order) if order is not None else names[start:] + names[:start]
        self.cursor = Cursor(turn=first)
        if first > last or not flow.phases:
            self.cursor.stage = OVER

    @property
    def over(self) -> bool:
        """Whether the game has ended: its last turn played, or ended early
        (:attr:`Flow.game_over`)."""
        return self.cursor.stage == OVER

    @property
    def player(self) -> str:
        """The player whose turn it is."""
        return self.order[self.cursor.seat]

    def pending(self, stop_before_turn: int | None = None) -> Decision[Unit | None] | None:
        """Play on to the next pick and return its decision; ``None`` when the game
        is over or, with ``stop_before_turn``, when that turn would begin."""
        cursor = self.cursor
        while cursor.stage != OVER:
            if cursor.stage == TURN_END:
                self._end_turn()
                continue
            phase = self.flow.phases[cursor.phase]
            if cursor.stage == BEGIN:
                if stop_before_turn is not None and self._turn_starts(stop_before_turn):
                    return None
                self.battle.turn = cursor.turn
                self.battle.active_player = self.player
                cursor.done = sorted(phase.begin(self.battle, self.player))
                cursor.stage = PICKS if phase.picks is not None else END
            elif cursor.stage == PICKS:
                decision = self._pick_decision(phase)
                if decision is not None:
                    return decision
                cursor.stage = END
            elif cursor.stage == END:
                phase.end(self.battle, self.player)
                cursor.done = []
                cursor.phase += 1
                cursor.stage = BEGIN if cursor.phase < len(self.flow.phases) else TURN_END
        return None

    def _turn_starts(self, turn: int) -> bool:
        cursor = self.cursor
        return cursor.turn >= turn and cursor.seat == 0 and cursor.phase == 0

    def _end_turn(self) -> None:
        cursor = self.cursor
        self.flow.end_of_turn(self.battle, self.player)
        cursor.phase, cursor.stage = 0, BEGIN
        cursor.seat += 1
        if cursor.seat == len(self.order):
            cursor.seat = 0
            cursor.turn += 1
            if self.flow.game_over(self.battle) or cursor.turn > self.last:
                cursor.stage = OVER

    def eligible(self) -> list[Unit]:
        """Units the player may pick at the current pick (none outside a pick)."""
        picks = self._picks()
        if picks is None:
            return []
        return picks.eligible(self.battle, self.player, frozenset(self.cursor.done))

    def _picks(self) -> Picks | None:
        if self.cursor.stage != PICKS:
            return None
        return self.flow.phases[self.cursor.phase].picks

    def _pick_decision(self, phase: Phase) -> Decision[Unit | None] | None:
        assert phase.picks is not None
        ready = self.eligible()
        if not ready:
            return None
        choices: list[Choice[Unit | None]] = [Choice(u.label, u) for u in ready]
        choices.append(Choice(phase.picks.stop, None))
        told = phase.picks.describe
        battle = self.battle
        return Decision(
            kind=phase.picks.kind,
            player=self.player,
            prompt=phase.picks.prompt,
            choices=tuple(choices),
            describe=None if told is None else lambda u: "" if u is None else told(battle, u),
        )

    def pick(self, unit: Unit | None) -> None:
        """Carry out the answer to the pending pick: activate ``unit``, or end the loop."""
        picks = self._picks()
        assert picks is not None, "no pick is pending"
        if unit is None:
            self.cursor.stage = END
            return
        self.cursor.done.append(unit.id)
        picks.activate(self.battle, unit)

    def follow_ups(self, unit: Unit) -> list[tuple[tuple[str, str], ...]]:
        """What activating ``unit`` asks first, each legal combination (``[()]`` when
        the phase does not list them)."""
        picks = self._picks()
        if picks is None or picks.follow_ups is None:
            return [()]
        return picks.follow_ups(self.battle, unit) or [()]

    def run(self, stop_before_turn: int | None = None) -> None:
        """Play on, every decision answered by the players' controllers."""
        while (decision := self.pending(stop_before_turn)) is not None:
            self.pick(self.battle.decide(decision))


def only(flow: Flow, names: Sequence[str]) -> Flow:
    """``flow`` with only the phases called ``names`` (in the flow's order)."""
    return Flow(tuple(p for p in flow.phases if p.name in names), flow.end_of_turn, flow.game_over)
