"""Trying another answer to a decision made *inside* an activation, on a copy.

A :class:`Game` can be copied only between top-level decisions: inside an
activation (a unit hit by shooting choosing Dive for Cover, a charged unit
choosing Fall Back) part of the game lives on the call stack. So the search
keeps a copy of the game from the top-level decision that started the
activation in play (:class:`Snapshotting` takes it, :class:`Snapshot` holds
it), and a branch replays that activation on a copy of it: the decisions
made since, answered as they were, on the same dice (the copy's dice are the
real ones' state then), up to the decision in question, which gets the answer
tried; from there the copy rolls its own dice (``seed``) and the heuristic AI
plays it on (:func:`branch_playout`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hammerlab.analysis.game import Game
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.dice import dice_for


@dataclass(frozen=True)
class Snapshot:
    """The game at the top-level decision that started the activation in play."""

    game: Game
    """A copy taken before that decision was answered."""
    events: int
    """The real log's length then: the decisions logged after it are the activation's."""

    def answers_since(self, battle: Battle) -> list[tuple[str, str]]:
        """The (kind, answer) of every decision the real ``battle`` logged since."""
        return [
            (e.decision, e.answer)
            for e in battle.log.events[self.events :]
            if isinstance(e, DecisionMade)
        ]


@dataclass
class Snapshotting:
    """A player's controller that hands each listener a :class:`Snapshot` at every
    top-level decision of ``game``, then lets ``inner`` answer."""

    game: Game
    inner: Controller
    listeners: list[Callable[[Snapshot], None]] = field(default_factory=list)

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """``inner``'s answer, a snapshot first when ``decision`` is top-level."""
        if self.listeners and self.game.is_top_level(decision):
            snapshot = Snapshot(self.game.clone(), len(battle.log.events))
            for listen in self.listeners:
                listen(snapshot)
        return self.inner.choose(battle, decision)


def reroll(battle: Battle, seed: int, mode: str) -> None:
    """Give ``battle`` (a copy) its own dice from here on: ``seed`` in ``mode`` (a mode
    of :func:`~hammerlab.engine.dice.dice_for`), rolls logged as before.

    ``keyed`` dice (:class:`KeyedDice`, streams named by the seed, the turn, whose
    turn it is and the roll's purpose) keep two copies that differ in one choice
    rolling the same dice for everything else that happens alike in both. With
    one stream (``single``) the first roll one copy makes and the other does not
    shifts every later roll, so the paired comparison of two choices keeps more
    noise."""
    battle.roll_with(dice_for(mode, seed))


Watch = Callable[[Game], None]
"""What starts counting in a copy where its playout departs from the real game
(the search AI's luck, :meth:`SearchController.watch`)."""


class Branch:
    """Answers the first decision it is asked with ``label`` and re-seeds the dice
    there (``seed``, in dice ``mode``: :func:`reroll`), where ``watch`` starts;
    every later one as ``ai`` does."""

    def __init__(
        self,
        kind: str,
        label: str,
        seed: int,
        ai: Controller,
        dice: str,
        copy: Game,
        watch: Watch | None = None,
    ) -> None:
        self.kind, self.label, self.seed, self.ai, self.dice = kind, label, seed, ai, dice
        self.copy, self.watch = copy, watch
        self.taken = False

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The branch's answer once, then the AI's."""
        if self.taken:
            return self.ai.choose(battle, decision)
        if decision.kind != self.kind:
            raise RuntimeError(f"the replay asked {decision.kind!r}, not {self.kind!r}")
        self.taken = True
        reroll(battle, self.seed, self.dice)
        if self.watch is not None:
            self.watch(self.copy)  # the copy whose battle asks
        return decision.labels().index(self.label)


def branch_playout(
    snapshot: Snapshot,
    answers: Sequence[tuple[str, str]],
    branch: tuple[str, str],
    seed: int,
    rounds: int,
    dice: str,
    watch: Watch | None = None,
    whole_last_turn: bool = False,
    ai: Controller | None = None,
) -> Game:
    """A copy of the snapshot's game with ``answers`` replayed, the ``branch``
    ((kind, label)) taken at the decision after them, and played on from there
    on its own dice (``seed`` in mode ``dice``: :func:`reroll`) by ``ai`` (the
    edition's heuristic AI unless given) to the same seat's turn ``rounds``
    game turns after the snapshot's, or the end of the game (:func:`play_to`);
    ``watch`` is started at the branch."""
    copy = snapshot.game.clone()
    battle = copy.battle
    kind, label = branch
    player = copy.ready.ruleset.ai() if ai is None else ai
    branching = Branch(kind, label, seed, player, dice, copy, watch)
    battle.controllers = dict.fromkeys(battle.controllers, branching)
    horizon = (copy.turn + rounds, copy.play_state.cursor.seat)
    battle.answers = list(answers)
    copy.step()
    play_to(copy, horizon, whole_last_turn)
    return copy


def play_to(copy: Game, horizon: tuple[int, int], whole_last_turn: bool) -> None:
    """Play ``copy`` on to ``horizon`` (a game turn and the seat whose turn it then
    starts) or the end of the game; with ``whole_last_turn`` a horizon in the
    game's last turn is its end: nothing is left to look past it, and the
    last turn's dice decide the result."""
    if whole_last_turn and horizon[0] >= copy.play_state.last:
        horizon = (copy.play_state.last + 1, 0)
    while not copy.is_over and (copy.turn, copy.play_state.cursor.seat) < horizon:
        copy.step()
