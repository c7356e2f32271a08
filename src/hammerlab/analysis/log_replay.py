"""Replaying a JSON Lines log (``hammerlab replay``, the web's log upload): play the
game its header records answering each decision as the log does
(:func:`replay_logged`), then name the first line where the replay differs from it
(:func:`first_difference`); :func:`check_log` does both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hammerlab.analysis.game import Game, GameStopped
from hammerlab.analysis.game_files import read_log
from hammerlab.editions.plugins import PluginPaths
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import to_json_line_of
from hammerlab.errors import HammerlabError, UnansweredDecisionError


@dataclass(frozen=True)
class Mismatch:
    """The first line where a replayed log differs from the logged one."""

    line: int
    logged: str
    replayed: str
    """The replayed line, or ``(end of game)`` where the replay has no more."""
    unanswered: str | None = None
    """Where the replay stopped early at a decision the log does not answer: who was
    asked what, with its choices (``replayed`` is then ``(end of game)``)."""

    def __str__(self) -> str:
        if self.unanswered is not None:
            gives = f"asks a decision the log does not answer: {self.unanswered}"
        else:
            gives = f"gives {self.replayed}"
        return f"line {self.line} differs: logged {self.logged} but the replay {gives}"


def replay_logged(game: Game, logged_events: Sequence[Any]) -> str | None:
    """Play ``game`` (a log's, :meth:`Game.recorded`) answering each decision as the logged
    decision events did, then on to the end as the controllers choose.

    The replay stops where it goes another way than the log; when that is a decision
    the log does not answer (a rule switched on, or a plug-in edited, since), it
    returns who was asked what, with its choices, for :func:`first_difference`.
    A log that ends with a :class:`GameStopped` event (a game stopped at a prompt)
    is played only as far as its decisions go, and stopped there for the same
    reason: the stop compares equal only where the game stands as it stood."""
    stopped = logged_stop(logged_events)
    answers = [
        (str(e.get("decision")), str(e.get("answer")))
        for e in logged_events
        if isinstance(e, dict) and e.get("kind") == "decision"
    ]
    try:
        game.follow(answers)
        if stopped is None:
            game.play()
        elif not game.is_over:
            game.stop(stopped.reason)
    except UnansweredDecisionError as error:
        return f"{error.player}, {error.decision} ({', '.join(error.labels)})"
    except HammerlabError:
        pass  # the replay went another way: comparing the logs shows where
    return None


def logged_stop(logged_events: Sequence[Any]) -> GameStopped | None:
    """The :class:`GameStopped` event a log's events end with (that of a game stopped
    before its end), or ``None``; one whose fields are not a stop's is ``None`` too
    (the replay then plays on, and the comparison names that line)."""
    last = logged_events[-1] if logged_events else None
    if not isinstance(last, dict) or last.get("kind") != GameStopped.kind:
        return None
    fields = {k: v for k, v in last.items() if k != "kind"}
    try:
        stop = GameStopped(**fields)
    except TypeError:
        return None
    return stop if isinstance(stop.reason, str) else None


def first_difference(
    logged_events: Sequence[Any], battle: Battle, unanswered: str | None = None
) -> Mismatch | None:
    """The first line where ``battle``'s log differs from the logged events; where
    the replay ran out first because it stopped at a decision the log does not
    answer (``unanswered``, from :func:`replay_logged`), the mismatch says so."""
    replayed = [to_json_line_of(json.loads(line)) for line in battle.log.json_lines().splitlines()]
    logged = [to_json_line_of(e) if isinstance(e, dict) else str(e) for e in logged_events]
    for index, (was, now) in enumerate(zip(logged, replayed, strict=False)):
        if was != now:
            return Mismatch(index + 2, was, now)
    if len(logged) != len(replayed):
        index = min(len(logged), len(replayed))
        was = logged[index] if index < len(logged) else "(end of log)"
        if index < len(replayed):
            return Mismatch(index + 2, was, replayed[index])
        return Mismatch(index + 2, was, "(end of game)", unanswered)
    return None


def check_log(text: str, where: str, plugins: PluginPaths = ()) -> Mismatch | None:
    """Play the game a JSON Lines log records (its first line, the header, says
    how; its decision events say what each player chose) and compare every event
    line; the first difference, or ``None`` when the replay is identical. ``plugins``
    names the plug-in files the caller allows it to load: those the header records,
    or :class:`PluginNotNamedError` before any is."""
    header, logged_events = read_log(text, where)
    game = Game.recorded(header, where, plugins=plugins)
    unanswered = replay_logged(game, logged_events)
    return first_difference(logged_events, game.battle, unanswered)
