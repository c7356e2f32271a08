"""What is left of a game: the player turns still to come and the phases each plays.

A scenario's plan says how many game turns are played and which phases of
each (``GamePlan``); :func:`begin_play` records it on the battle as a
:class:`Schedule`. The heuristic weighs a choice by what it does to the turns
to come (the charge after this Shooting phase; the next turn a unit loses by
going to ground or falling back; the enemy's charge or shooting next turn),
so it asks here whether those turns and phases will be played at all. A game
of one turn with only Shooting phases has no charge, and the player who goes
second has no turn after it: counting them anyway weighed things that cannot
happen (docs/ai.md, "The end of the game").

A battle with no schedule (a phase played alone by a test or a nested
procedure, as the tests' ``phase_kit.run_phase`` plays one) is taken to go on: every turn and phase
is still to come, as the heuristic took it before it read the schedule. So
is any battle while :func:`heeding_the_end` is off (the old heuristic, for a
head-to-head).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass

from hammerlab.engine.battle import Battle
from hammerlab.engine.scoped import holding

SCHEDULE = "schedule"
"""The key in ``battle.memory`` of the game's :class:`Schedule`."""

ENDLESS = 1_000_000
"""The turns to come of a battle with no schedule: more than any plan has."""


@dataclass(frozen=True)
class Schedule:
    """The plan a game is played to."""

    last_turn: int
    """The game ends after every player's turn of this game turn."""
    phases: tuple[str, ...]
    """The phases each player's turn plays, in order."""
    order: tuple[str, ...]
    """The players, in the order they take their turns in each game turn."""


def record_schedule(battle: Battle, schedule: Schedule) -> None:
    """Record the plan ``battle`` is played to (:func:`begin_play`)."""
    battle.memory[SCHEDULE] = schedule


_heeded: ContextVar[bool] = ContextVar("heeded", default=True)
"""Whether the schedule is read (``False``: every battle is taken to go on)."""


def heeding_the_end(heeded: bool) -> AbstractContextManager[None]:
    """Read the schedule while the block runs, or (``False``) take every battle to go on."""
    return holding(_heeded, heeded)


def _schedule(battle: Battle) -> Schedule | None:
    schedule = battle.memory.get(SCHEDULE)
    if not _heeded.get() or not isinstance(schedule, Schedule):
        return None
    return schedule


def turns_ahead(battle: Battle, player: str, phase: str) -> int:
    """How many of ``player``'s turns still to begin (after the one under way) play
    ``phase``: every turn plays the plan's phases, so all of them or none.

    ``player``'s turns to come are its turn of this game turn if it has not
    had it yet (it sits after the player whose turn it is), and one in each
    game turn left after this one. A player the schedule does not seat (or a
    battle whose active player it does not) is taken to go on."""
    schedule = _schedule(battle)
    if schedule is None or not {player, battle.active_player} <= set(schedule.order):
        return ENDLESS
    if phase not in schedule.phases:
        return 0
    order = schedule.order
    later = order.index(player) > order.index(battle.active_player)
    return int(later) + max(0, schedule.last_turn - battle.turn)


def still_to_play(battle: Battle, phase: str, *, or_now: bool = False) -> bool:
    """Whether the turn under way still plays ``phase`` after the phase under way
    (``battle.phase``; a phase the plan does not name is taken to be before all),
    or, ``or_now``, is in it."""
    schedule = _schedule(battle)
    if schedule is None:
        return True
    if or_now and battle.phase == phase:
        return True
    phases = schedule.phases
    now = phases.index(battle.phase) if battle.phase in phases else -1
    return phase in phases[now + 1 :]
