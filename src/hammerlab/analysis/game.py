"""A game you can step, clone, save and replay: the public game-state API.

:class:`Game` wraps a prepared battle and the edition's flow cursor
(:class:`~hammerlab.editions.flow.Play`). At every top-level decision (pick a
unit and what it does, or end the phase) it lists :meth:`Game.legal_actions`
and takes one with :meth:`Game.apply`; decisions inside an activation are
answered by the players' controllers. :meth:`Game.start`, :meth:`Game.apply`
and :meth:`Game.step` play on to the next top-level decision before they
return, so the state read between them (units, log, :meth:`Game.digest`) is
the game's, and the questions (:meth:`Game.legal_actions`,
:attr:`Game.is_over`, :attr:`Game.current_player`) only read it.
:meth:`Game.clone` is a deep copy of the whole state (nothing of the game
lives on the call stack);
:meth:`Game.to_json` writes the game's *recipe* — scenario, seed, rules,
plug-ins and every decision so far, like a chess PGN — and
:meth:`Game.from_json` replays it and checks the state digest it recorded.
The files' formats and checks are in :mod:`~hammerlab.analysis.game_files`, the
digest in :mod:`~hammerlab.analysis.state_digest`, and a log's replay in
:mod:`~hammerlab.analysis.log_replay`. See ``docs/api.md``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from hammerlab.analysis.battles import PreparedBattle, prepare
from hammerlab.analysis.game_files import (
    FORMAT,
    GameHeader,
    check_plugin_list,
    check_plugins_named,
    read_saved_game,
)
from hammerlab.analysis.state_digest import state_digest
from hammerlab.editions.base import begin_play
from hammerlab.editions.flow import BEGIN, OVER, Play
from hammerlab.editions.plugins import (
    PluginPaths,
    check_plugins_fit,
    load_plugin_files,
    plugins_in_play,
)
from hammerlab.editions.turns import WIPED_OUT, game_winner, victory_scores
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.events import Event, to_json_line_of
from hammerlab.engine.rules import ParamValue, check_parameters_switched_on
from hammerlab.engine.units import Unit
from hammerlab.errors import HammerlabError, IllegalActionError, InputError
from hammerlab.io.scenario import Scenario

HOLD = 1
"""A ``stop_before_turn`` that holds a game where it is: a new one before anything
is played, a loaded one where it was saved. Start (or load) with it to put
controllers or a log listener in place first, then set
:attr:`Game.stop_before_turn` to play on."""


@dataclass(frozen=True)
class Action:
    """A top-level choice: pick ``unit`` (``None``: end the loop), then answer the
    activation's first decisions with ``then`` ((kind, label) pairs)."""

    kind: str
    """The pick's decision kind (``mover``, ``shooter``, ``charger``)."""
    unit: str | None
    label: str
    """The pick's choice label (the unit's label, or the loop's stop label)."""
    then: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        """``then`` as tuples, however its pairs came: an action rebuilt from JSON
        (``Action(**json.loads(text))``) has lists there, and it is the same action.
        Anything else there (``"advance"``, ``None``, a pair of one or three items, a
        label that is no text) is an :class:`IllegalActionError` naming ``then``."""
        then: object = self.then
        problem = _then_problem(then)
        if problem:
            raise IllegalActionError(
                f"Action then: {problem}: then is a sequence of (kind, label) pairs of text, "
                "as legal_actions() gives them ((('move', 'advance'),), or () for none)"
            )
        assert isinstance(then, list | tuple)  # _then_problem said so
        if type(then) is not tuple or any(type(p) is not tuple for p in then):
            object.__setattr__(self, "then", tuple(tuple(pair) for pair in then))

    def __str__(self) -> str:
        follow = "".join(f" → {label}" for _, label in self.then)
        return f"{self.label}{follow}"


def _then_problem(then: object) -> str:
    """What is wrong with ``then`` as :attr:`Action.then` (``""``: nothing): it is a
    tuple or (from JSON) a list of (kind, label) pairs, each two texts."""
    if not isinstance(then, list | tuple):
        return f"{then!r} is no sequence"
    for number, pair in enumerate(then, 1):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            return f"item {number}, {pair!r}, is no (kind, label) pair"
        if not all(isinstance(text, str) for text in pair):
            return f"item {number}, {pair!r}, is not two texts"
    return ""


@dataclass(frozen=True)
class Recipe:
    """What a game is made from: enough to play it again from the start."""

    scenario: dict[str, Any]
    source: str
    """The scenario file as it was named (shown in messages)."""
    seed: int | None
    rules: dict[str, ParamValue]
    plugins: tuple[str, ...] = ()
    """The plug-in files' absolute paths (resolved: a saved game names them from any
    folder), each once, in the order given to :meth:`Game.start`."""
    scenario_path: str | None = None
    """The scenario file's absolute path, where relative BattleScribe sources are read
    from whatever folder the game is resumed or replayed in; ``None``: beside
    ``source`` (a game saved before this was recorded, or started without it)."""


@dataclass(frozen=True)
class GameStopped(Event):
    """The game was stopped before its end, for good, at a top-level decision (a
    person's input ended, or Ctrl-C): the last event of a stopped game's log, so
    that ``hammerlab replay`` stops where the game did instead of playing on.

    ``reason`` says why (what the CLI was told, not replayed); ``turn``, ``player``
    and ``decision`` (its kind) are the decision left unanswered, and ``digest`` the
    game's state there (:meth:`Game.digest`), so that a log with its last
    activations cut off, the stop kept, does not replay as identical."""

    kind: ClassVar[str] = "stopped"
    reason: str
    turn: int
    player: str
    decision: str
    digest: str

    @property
    def text(self) -> str:
        return (
            f"The game stops at game turn {self.turn} ({self.reason}), "
            f"{self.player} to answer {self.decision}"
        )


class PlayUnderWayError(IllegalActionError):
    """A :class:`Game` asked to play, copy, save or list its legal actions while it is
    playing: from a controller the game is asking (inside :meth:`Game.step`,
    :meth:`Game.apply`, :meth:`Game.play`...), or after an exception raised there left
    an activation halfway. Between the pick that starts an activation and the next
    top-level decision part of the game lives on the call stack, so a copy or a save
    made there would play the activation twice, or not load; a stop there would be
    outlived by the activation. ``stage`` says where it stands: ``"pick"`` (the
    pending pick is being asked: the game stands at it, so questions, :meth:`Game.clone`
    and :meth:`Game.to_json` are answered, but nothing may play), ``"activation"``
    (a controller is asked a decision inside an activation, or one before the next
    pick) or ``"left"`` (an exception left it there). :meth:`Game.at_last_pick` is the
    game as it stood at its last top-level decision, in every stage."""

    def __init__(self, what: str, stage: str, where: str) -> None:
        self.stage = stage
        if stage == "pick":
            problem = (
                f"the game is asking {where} (a controller is answering it): return the "
                "answer's index instead; to stop the game, raise an exception from the "
                "controller, then call stop(reason) on the game"
            )
        elif stage == "activation":
            problem = (
                f"the game is inside an activation ({where}; a controller is being asked "
                "a decision of it), where it stands at no top-level decision: answer the "
                "decision asked; game.at_last_pick() is the game as it stood at that pick, "
                "to copy, save or list the legal actions of; to stop the game, raise an "
                "exception from the controller, then call at_last_pick().stop(reason)"
            )
        else:
            problem = (
                f"an exception left the game inside an activation ({where}), halfway: "
                "game.at_last_pick() is the game as it stood at that pick, to save, stop "
                "or play on"
            )
        super().__init__(f"{what}: {problem}")


class Game:
    """One game in progress, stepped one top-level decision at a time."""

    def __init__(self, ready: PreparedBattle, recipe: Recipe, stop_before_turn: int | None) -> None:
        """A game of ``ready`` not yet played: nothing has happened and no decision
        is pending until it plays on (:meth:`start` does, a replay does with the
        recorded answers)."""
        self.ready = ready
        self.recipe = recipe
        self._stop_before_turn = stop_before_turn
        self.play_state: Play = begin_play(ready.battle, ready.ruleset, ready.plan)
        self._pending: Decision[Unit | None] | None = None
        self._settled = (0, stop_before_turn)
        """Where the game last stood still (:meth:`at_last_pick`): the length of its
        log then, and the turn it was to stop before."""
        self._stopped: GameStopped | None = None
        """The stop :meth:`stop` recorded: the game is over for good."""
        self._under_way: Literal["pick", "activation", "left"] | None = None
        """What the game is doing while a controller may be asked (:class:`PlayUnderWayError`):
        ``None`` when it stands still at a top-level decision (or its end)."""

    @classmethod
    def start(
        cls,
        scenario: Scenario,
        source: str,
        seed: int | None = None,
        rules: Mapping[str, ParamValue] | None = None,
        plugins: PluginPaths = (),
        controllers: Mapping[str, Controller] | None = None,
        stop_before_turn: int | None = None,
        scenario_path: str | None = None,
    ) -> Game:
        """A new game of ``scenario`` (read from ``source``); players without a
        controller get the edition's AI. With ``stop_before_turn`` it stops when
        that turn would begin. ``scenario_path``, the scenario file's absolute path,
        is recorded so that the saved game or log resumes from any folder (relative
        BattleScribe sources are read beside it rather than beside ``source``).

        ``rules`` are resolved with the built-in rules and those of ``plugins`` alone
        (:func:`~hammerlab.editions.plugins.plugins_in_play`): a plug-in loaded for
        another game is not this one's. A plug-in for another ruleset than the
        scenario's, and a rule's parameter given with the rule switched off
        (``{"NAME": False, "NAME.PARAM": V}``), are refused as ``battle`` refuses them.

        It returns with the game played on to its first top-level decision (or its
        end): whatever comes before it (a Command phase, a disembarkation) is asked
        of ``controllers``, so a controller put in place afterwards answers only
        what comes after."""
        game = cls._unplayed(
            scenario, source, seed, rules, plugins, controllers, stop_before_turn, scenario_path
        )
        game._play_on()
        return game

    @classmethod
    def _unplayed(
        cls,
        scenario: Scenario,
        source: str,
        seed: int | None,
        rules: Mapping[str, ParamValue] | None,
        plugins: PluginPaths,
        controllers: Mapping[str, Controller] | None,
        stop_before_turn: int | None,
        scenario_path: str | None,
    ) -> Game:
        """:meth:`start` short of playing on: a replay answers from the first decision."""
        _check_start(scenario, source, seed, controllers, stop_before_turn, plugins)
        check_parameters_switched_on(rules or {})
        loaded = load_plugin_files(plugins)
        check_plugins_fit(loaded, [scenario.ruleset])
        folder = None if scenario_path is None else Path(scenario_path).parent
        with plugins_in_play(loaded):
            ready = prepare(scenario, source, seed, rules or {}, controllers, folder=folder)
        recipe = Recipe(
            scenario=scenario.model_dump(mode="json"),
            source=source,
            seed=seed,
            rules=dict(rules or {}),
            plugins=tuple(p.path for p in loaded),
            scenario_path=scenario_path,
        )
        return cls(ready, recipe, stop_before_turn)

    # --- state -------------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        """The battle: units, dice, log, settings."""
        return self.ready.battle

    @property
    def stop_before_turn(self) -> int | None:
        """The turn the game stops before (``None``: it plays to its last turn)."""
        return self._stop_before_turn

    @stop_before_turn.setter
    def stop_before_turn(self, turn: int | None) -> None:
        """Stop before ``turn`` instead, playing on at once to the next top-level
        decision that allows (a game stopped before turn 2 goes on to turn 2's
        first decision when the stop is lifted). A turn that is not a whole number of
        1 or more (a saved game could not be read back), a turn that has begun already
        (the stop could no longer hold: the game would play on to the next turn's
        start instead, and its saved game would stop its replay short), or any turn
        for a game :meth:`stop` ended, is an :class:`IllegalActionError`."""
        _check_stop(turn, "stop_before_turn")
        self._check_standing("setting stop_before_turn", playing=True)
        self._check_not_stopped("setting stop_before_turn")
        if turn is not None and _turn_begun(self.play_state, turn):
            raise IllegalActionError(
                f"stop_before_turn: {turn}: game turn {turn} has begun already (the game "
                f"is in game turn {self.turn}); give a turn still to begin, or None"
            )
        self._stop_before_turn = turn
        self._play_on()

    def _play_on(self) -> None:
        """Play on to the next top-level decision (or the end, or the stop turn) and
        keep it pending: what every question reads. At a pending pick nothing more
        happens (the pick is listed again), so playing on twice is harmless."""
        with self._playing("activation"):
            pending = self.play_state.pending(self._stop_before_turn)
        self._pending = pending
        self._settled = (len(self.battle.log.events), self._stop_before_turn)

    def _take(self, decision: Decision[Unit | None]) -> None:
        """Have the pending pick ``decision`` answered (by ``battle.answers`` or the
        controller), run the activation, and play on."""
        self._carry_out(decision)
        self._play_on()

    def _carry_out(self, decision: Decision[Unit | None]) -> None:
        """Have the pending pick ``decision`` answered and run the activation it starts:
        the one place the game's controllers are asked, with :meth:`_play_on`."""
        with self._playing("pick"):
            unit = self.battle.decide(decision)
        with self._playing("activation"):
            self.play_state.pick(unit)

    @contextmanager
    def _playing(self, stage: Literal["pick", "activation"]) -> Iterator[None]:
        """Mark the game as playing (``stage``) while the block runs, so that a call
        from a controller is refused (:class:`PlayUnderWayError`). An exception that
        leaves an activation halfway leaves the game so (``"left"``); one raised while
        the pick is asked leaves it standing at the pick, as it was."""
        self._under_way = stage
        try:
            yield
        except BaseException:
            self._under_way = "left" if stage == "activation" else None
            raise
        self._under_way = None

    def _check_standing(self, what: str, playing: bool = False) -> None:
        """Refuse ``what`` while the game plays (:class:`PlayUnderWayError`): every call
        while a controller answers inside an activation (or one was left halfway by an
        exception); one that plays (``playing``) while the pick is asked as well."""
        stage = self._under_way
        if stage is None or (stage == "pick" and not playing):
            return
        pick = self._pending
        if stage == "pick" and pick is not None:
            where = f"{pick.player} its {pick.kind} pick"
        elif pick is None:
            where = "on its way to its next top-level decision"
        else:
            where = f"after the {pick.kind} pick of {pick.player}"
        raise PlayUnderWayError(what, stage, where)

    @property
    def is_over(self) -> bool:
        """No decision is left: the last turn ended (or the stop turn is reached, or the
        game was stopped for good: :meth:`stop`). Inside an activation it is not known
        yet: :class:`PlayUnderWayError`."""
        self._check_standing("is_over")
        return self._pending is None

    @property
    def finished(self) -> bool:
        """The game has ended by its rules: its last turn played, or a side wiped out.
        ``False`` for a game held at its stop turn or stopped for good (:meth:`stop`),
        which :attr:`is_over` reads as over too."""
        return self.play_state.over

    @property
    def current_player(self) -> str | None:
        """The player to act, or ``None`` when the game is over (inside an activation,
        :class:`PlayUnderWayError`: the pick answered is no longer to act on)."""
        self._check_standing("current_player")
        return None if self._pending is None else self._pending.player

    def is_top_level(self, decision: Decision[Any]) -> bool:
        """Whether ``decision`` is the pending top-level pick (what a controller that
        searches with :meth:`legal_actions` answers, rather than an inner decision)."""
        return decision is self._pending

    @property
    def turn(self) -> int:
        """The game turn in play; in a game stopped before a turn, that turn; in a game
        played to its end, the turn after its last (a three-turn game reads 4), as
        the turn about to begin when the game ended."""
        return self.play_state.cursor.turn

    @property
    def pending(self) -> Decision[Unit | None] | None:
        """The top-level decision to answer next (its kind and prompt say what is being
        decided), or ``None`` when the game is over (inside an activation,
        :class:`PlayUnderWayError`)."""
        self._check_standing("pending")
        return self._pending

    # --- the result ------------------------------------------------------------------
    @property
    def scores(self) -> dict[str, int]:
        """Each player's victory score as the game stands, under the scenario's victory
        condition (``plan.victory``: kill points, or models destroyed)."""
        return victory_scores(self.battle, self.ready.plan.victory)

    @property
    def wiped_out(self) -> tuple[str, ...]:
        """The players with no models left when that ended the game early (an
        edition's sudden-death rule); empty otherwise."""
        return tuple(self.battle.memory.get(WIPED_OUT, ()))

    @property
    def winner(self) -> str | None:
        """Who won, once the game has :attr:`finished`: the one player left when the
        other was wiped out, whatever the scores, else the higher score; ``None`` on a
        draw and in a game not finished (held at its stop turn, stopped, or under way),
        as ``battle --json`` reports it (who leads then: :attr:`leading`)."""
        return self.leading if self.finished else None

    @property
    def leading(self) -> str | None:
        """Who leads as the game stands, as :attr:`winner` would name them if it ended
        now (``None`` when level): ``battle --json``'s ``leading``, the winner once the
        game has :attr:`finished`."""
        return game_winner(self.battle, self.ready.plan.victory)

    # --- stepping ----------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal top-level action now: each eligible unit with each thing it may
        do first (where the phase lists it), and ending the loop. Inside an activation
        there are none to take: :class:`PlayUnderWayError`, naming :meth:`at_last_pick`."""
        self._check_standing("legal_actions")
        decision = self._pending
        if decision is None:
            return []
        actions = []
        for choice in decision.choices:
            unit = choice.value
            if unit is None:
                actions.append(Action(decision.kind, None, choice.label))
                continue
            for then in self.play_state.follow_ups(unit):
                actions.append(Action(decision.kind, unit.id, choice.label, then))
        return actions

    def apply(self, action: Action) -> None:
        """Take ``action``: the pick and its first answers are recorded as decisions,
        the activation runs (its other decisions asked of the controllers), and the
        game plays on to the next top-level decision before this returns. Anything
        but an :class:`Action` is an :class:`IllegalActionError` too."""
        self._check_standing("apply", playing=True)
        self._check_not_stopped("apply")
        decision = self._pending
        legal = self.legal_actions()
        none = "" if decision is not None else self._standing_still()
        if not isinstance(action, Action):
            raise IllegalActionError(
                f"{action!r} is not an Action (take one of legal_actions()): "
                f"{none or _listed(legal)}"
            )
        if decision is None or action not in legal:
            raise IllegalActionError(
                f"{_kind_shown(action)} is not a legal action now: "
                f"{none or _unlike(action, legal) or _listed(legal)}"
            )
        battle = self.battle
        battle.answers = [(action.kind, action.label), *action.then]
        self._carry_out(decision)
        left, battle.answers = battle.answers, []
        self._play_on()
        if left:
            raise IllegalActionError(f"{action}: the activation did not ask {left}")

    def play(self) -> None:
        """Play on to the end (or the stop turn), the controllers answering everything."""
        self._check_standing("play", playing=True)
        self._check_not_stopped("play")
        while self._pending is not None:
            self.step()

    def step(self) -> None:
        """Let the controllers answer the next top-level decision and play on to the
        one after it (nothing when over; a game :meth:`stop` ended is an
        :class:`IllegalActionError`)."""
        self._check_standing("step", playing=True)
        self._check_not_stopped("step")
        if self._pending is not None:
            self._take(self._pending)

    def play_until(self, player: str) -> None:
        """Let the controllers answer the top-level decisions until ``player`` is to
        act or the game is over (the other side's moves, for a person playing one).
        A name that is not a player's is an :class:`IllegalActionError`, before anything
        is played (it would play the game out)."""
        self._check_standing("play_until", playing=True)
        self._check_not_stopped("play_until")
        names = [p.name for p in self.battle.players]
        if player not in names:
            raise IllegalActionError(f"{player!r} is not a player; players: {', '.join(names)}")
        while self._pending is not None and self._pending.player != player:
            self.step()

    def stop(self, reason: str) -> None:
        """Record that the game stops here for good, before its end (``reason``: why):
        a :class:`GameStopped` event, the last its log gets, so that the log replays
        to here (:func:`replay_logged`). The game must stand at a top-level decision
        (:meth:`at_last_pick`). It is then over: no decision is pending, and
        :meth:`apply`, :meth:`step`, :meth:`play`, :meth:`play_until`, another stop and
        a new :attr:`stop_before_turn` are an :class:`IllegalActionError`;
        :meth:`to_json` saves it as it stood when stopped (the event is not one of its
        decisions), which loads at that decision. Called from a controller (the game
        playing) it is a :class:`PlayUnderWayError`: raise from the controller, then
        stop :meth:`at_last_pick`."""
        self._check_standing("stop", playing=True)
        self._check_not_stopped("stop")
        decision = self._pending
        if decision is None:
            raise IllegalActionError(f"stop: {self._standing_still()}: there is nothing to stop")
        digest = self.digest()
        self._stopped = GameStopped(reason, self.turn, decision.player, decision.kind, digest)
        self.battle.emit(self._stopped)
        self._pending = None

    def _standing_still(self) -> str:
        """Why no decision is pending in a game not :meth:`stop`-ped: it is over (by its
        rules: :attr:`finished`), or held at its stop turn (:attr:`stop_before_turn`,
        :data:`HOLD` before anything is played), and how to play on."""
        if self.finished:
            return "the game is over"
        turn = self.turn
        if turn == HOLD:
            held = "the game is held before anything is played (stop_before_turn HOLD)"
        else:
            held = f"the game is held before game turn {turn} (stop_before_turn {turn})"
        return f"{held}: set game.stop_before_turn to a later turn, or None, to play on"

    def _check_not_stopped(self, what: str) -> None:
        """Refuse ``what`` (a call that would play on, or stop again) in a game
        :meth:`stop` ended: its log ends with the stop, and a replay stops there."""
        stop = self._stopped
        if stop is not None:
            raise IllegalActionError(
                f"{what}: the game was stopped for good at game turn {stop.turn} "
                f"({stop.reason}); load its saved game (to_json) to play on"
            )

    def chance_outcomes(self) -> None:
        """Not offered: every roll happens inside an activation, where the rules
        interleave dice and decisions; exact odds of a single attack are
        ``hammerlab odds`` (docs/api.md)."""
        raise NotImplementedError(self.chance_outcomes.__doc__)

    # --- copies ----------------------------------------------------------------------
    def clone(self) -> Game:
        """An independent copy of the whole game (the ruleset and the table are shared:
        they do not change during a game; so are the controllers, whose own memory
        of a game, such as :class:`WaffleAI`'s plan within one activation, is keyed
        by the battle's identity and so is not carried to the copy; what a unit did
        this turn is the battle's state, and is). Made while its pick is asked (a
        searching controller's look-ahead), the copy stands at that pick, asking no one;
        inside an activation there is no such copy to make: :class:`PlayUnderWayError`
        (:meth:`at_last_pick` is the game at the pick)."""
        self._check_standing("clone")
        battle = self.battle
        shared: dict[int, Any] = {id(c): c for c in battle.controllers.values()}
        for immutable in (self.ready.ruleset, battle.battlefield, self.recipe):
            shared[id(immutable)] = immutable
        twin = copy.deepcopy(self, shared)
        twin._under_way = None
        return twin

    def decisions(self) -> list[tuple[str, str, str]]:
        """Every decision made so far: (player, kind, answer label)."""
        return [
            (e.player, e.decision, e.answer)
            for e in self.battle.log.events
            if isinstance(e, DecisionMade)
        ]

    def at_last_pick(self) -> Game:
        """A new game standing where this one stood at its last top-level decision (or
        its start, or the stop it was held at), to play on in its place: the same
        controllers and log listeners (a person's prompt and a UI's display go on
        with it; a listener hears only what happens from there on), this game left as
        it is. A copy (:meth:`clone`) when nothing has happened since, else the game
        played again from its recipe with the decisions made up to there, no
        controller asked. What a game stopped inside an activation (a person who quit
        halfway through a unit's shooting) can be saved as (:meth:`to_json`), stopped
        or played on: a saved game resumes at a top-level decision, and the activation
        is asked again from its start. A look-ahead that no listener should hear is
        its :meth:`clone`. A controller that holds a game of its own
        (:class:`~hammerlab.analysis.search.SearchController`) keeps playing in that
        one: attach it to the new game."""
        length, stop = self._settled
        log = self.battle.log
        if length == len(log.events) and self._under_way in (None, "pick"):
            game = self.clone()
        else:
            where = "the game as it stood"
            answers = [
                (e.decision, e.answer) for e in log.events[:length] if isinstance(e, DecisionMade)
            ]
            header = GameHeader.model_validate({**self.header(), "stop_before_turn": stop})
            controllers = self.battle.controllers
            game = Game.recorded(header, where, controllers, plugins=self.recipe.plugins)
            game.replay(answers, where)
        for listener in log.listeners:
            game.battle.log.subscribe(listener)
        return game

    def digest(self) -> str:
        """A hash of the game's state: units, cursor, dice and the length of the log."""
        return state_digest(self.battle, self.play_state)

    def header(self) -> dict[str, Any]:
        """What a JSON Lines log starts with so that ``hammerlab replay`` can play it
        again: the recipe and where the game stopped."""
        recipe = dataclasses.asdict(self.recipe)
        recipe["plugins"] = list(self.recipe.plugins)
        return {
            "kind": "game",
            "format": FORMAT,
            **recipe,
            "stop_before_turn": self.stop_before_turn,
        }

    def log_json_lines(self) -> str:
        """The game's log as ``--log-json`` writes it and ``hammerlab replay`` reads it:
        the :meth:`header`, then every event, one JSON object a line. A game stopped
        inside a turn replays only as far as its log goes, so the log of a finished
        game (or one stopped before a turn) is the one to replay. Inside an activation
        it is a :class:`PlayUnderWayError` (the log of :meth:`at_last_pick` replays)."""
        self._check_standing("log_json_lines")
        return to_json_line_of(self.header()) + "\n" + self.battle.log.json_lines()

    def to_json(self) -> str:
        """The saved game: recipe, decisions, cursor and state digest (JSON), where the
        game stands: at its next top-level decision (or its end); a game :meth:`stop`
        ended, at the decision it was stopped at (its digest there: the stop is no
        decision, and loading the file plays none). Inside an activation it stands at
        neither: a :class:`PlayUnderWayError` (save :meth:`at_last_pick`)."""
        self._check_standing("to_json")
        saved = self.header()
        del saved["kind"]
        return json.dumps(
            {
                **saved,
                "decisions": [list(d) for d in self.decisions()],
                "cursor": self.play_state.cursor.to_dict(),
                "digest": self.digest() if self._stopped is None else self._stopped.digest,
            },
            indent=1,
        )

    @classmethod
    def from_json(
        cls,
        text: str,
        where: str = "saved game",
        controllers: Mapping[str, Controller] | None = None,
        stop_before_turn: int | None = None,
        plugins: PluginPaths = (),
    ) -> Game:
        """Replay a saved game to where it was saved, then check its state digest.

        ``stop_before_turn`` is where the loaded game stops next (by default: at its
        scenario's last turn); :data:`HOLD` keeps the stop it was saved with, so that
        it stands where it was saved; a turn that has begun already is an
        :class:`IllegalActionError` (:attr:`stop_before_turn`). ``plugins`` names the
        plug-in files the caller allows it to load: those it records, or
        :class:`PluginNotNamedError` before any is.
        """
        saved = read_saved_game(text, where)
        game = cls.recorded(saved, where, controllers, plugins)
        game.replay([(kind, answer) for _, kind, answer in saved.decisions], where)
        _check_players(game.decisions(), saved.decisions, where)
        if game.digest() != saved.digest:
            raise InputError(where, "digest", "the replayed game differs from the saved one")
        held = stop_before_turn == HOLD
        # Plays on where the new stop allows.
        game.stop_before_turn = saved.stop_before_turn if held else stop_before_turn
        return game

    @classmethod
    def recorded(
        cls,
        header: GameHeader,
        where: str,
        controllers: Mapping[str, Controller] | None = None,
        plugins: PluginPaths = (),
    ) -> Game:
        """The game a saved game or a log header records, not yet played (its first
        decisions are the recorded ones: a replay answers them). What it names
        that can no longer be found or used (a BattleScribe file beside the scenario,
        a plug-in file, a rule) is an :class:`InputError` naming ``where``, the file
        it was recorded in, as well as the scenario or plug-in file at fault.

        Its plug-in files are loaded (run) only when the caller names each of them in
        ``plugins`` (:func:`check_plugins_named`), checked before anything else."""
        check_plugins_named(header.plugins, plugins, where)
        try:
            return cls._unplayed(
                header.scenario_in(where),
                header.source,
                header.seed,
                header.rules,
                header.plugins,
                controllers,
                header.stop_before_turn,
                header.scenario_path,
            )
        except HammerlabError as error:
            raise InputError(where, "", str(error)) from None

    def replay(self, answers: Sequence[tuple[str, str]], where: str) -> None:
        """Answer the next decisions with ``answers`` ((kind, label), in order).

        Reaching the next top-level pick may itself take answers (decisions asked
        before it, such as a disembarkation at the start of the Movement phase), so
        the pick is answered only while answers are left: with none left it is where
        the game was saved, and the controllers are never asked."""
        try:
            left = self.follow(answers)
        except IllegalActionError as error:
            raise InputError(where, "decisions", str(error)) from None
        if left:
            raise InputError(where, "decisions", f"{left} decisions were never asked")

    def follow(self, answers: Sequence[tuple[str, str]]) -> int:
        """Play on answering with ``answers`` ((kind, label), in order): to the next
        top-level decision, then each pick while answers are left (a game not yet
        played starts from its first decision). Returns how many answers were left
        over, never asked (the game ended, or reached its stop turn, first).

        The answers wait in ``battle.answers`` while it plays (a decision asked takes
        the next one there, the controllers are asked none of them); that list is empty
        again when this returns or raises, whatever happened."""
        battle = self.battle
        battle.answers = list(answers)
        try:
            self._play_on()
            while battle.answers and self._pending is not None:
                self._take(self._pending)
            return len(battle.answers)
        finally:
            battle.answers = []


def _check_players(
    asked: Sequence[tuple[str, str, str]], saved: Sequence[Sequence[str]], where: str
) -> None:
    """Refuse a saved game whose decisions name another player than the one the replay
    asked (``asked``: :meth:`Game.decisions`, made with the answers ``saved`` records,
    each (player, kind, answer)): a decision recorded as one player's that was never
    asked of them (an edited or forged file), as ``hammerlab replay`` refuses a log's.
    The replay took every answer, so the two are as long (where not, the digest tells)."""
    for number, ((player, kind, answer), recorded) in enumerate(zip(asked, saved, strict=False), 1):
        if recorded[0] != player:
            raise InputError(
                where,
                "decisions",
                f"decision {number}: {player} was asked {kind!r} (answered {answer!r}), "
                f"not {recorded[0]}",
            )


def _listed(actions: Sequence[Action], most: int = 5) -> str:
    """What the legal ``actions`` (some) are, in short (an error message's end)."""
    shown = "; ".join(_kind_shown(a) for a in actions[:most])
    more = f"; … ({len(actions)} in all)" if len(actions) > most else ""
    return f"legal: {shown}{more}"


def _unlike(action: Action, legal: Sequence[Action]) -> str:
    """How ``action`` differs from the legal action shown as it is (its text and kind
    alike, ``""`` if none is): the list of legal actions would show it, so the message
    names the fields that differ instead (``unit`` ``None`` for the unit's id, say)."""
    shown = _kind_shown(action)
    for other in legal:
        if _kind_shown(other) == shown:
            differ = (
                f"{f.name} {getattr(other, f.name)!r}, not {getattr(action, f.name)!r}"
                for f in dataclasses.fields(Action)
                if getattr(other, f.name) != getattr(action, f.name)
            )
            return f"the legal action shown alike has {'; '.join(differ)}"
    return ""


def _kind_shown(action: Action) -> str:
    """``action`` with its decision kind (``LABEL → ... (mover)``): an action refused
    for its kind alone reads like a legal one without it."""
    return f"{action} ({action.kind})"


def _stop_problem(turn: object) -> str:
    """What is wrong with a turn to stop before (``""``: nothing): it is ``None`` or a
    whole number of 1 or more, as a saved game records it."""
    if turn is None or (type(turn) is int and turn >= 1):
        return ""
    return f"{turn!r}: a turn to stop before is a whole number, 1 or more"


def stop_after_problem(stop_after: int, turns: int, where: str, first: int = 1) -> str:
    """What is wrong with stopping at the end of game turn ``stop_after`` (``""``:
    nothing), as ``hammerlab battle --stop-after`` and ``POST /api/battle`` take it: it
    must be a game turn still to play, from ``first`` (the turn a saved game resumes at;
    past the last for a game already over) to the last of the ``turns`` the scenario
    ``where`` plays."""
    if first <= stop_after <= turns:
        return ""
    if first > turns:
        return f"the game in {where} is over: nothing to stop"
    if first > 1:
        played = f"the game in {where} resumes at game turn {first} of {turns}"
    else:
        played = f"{where} plays {turns} game turn(s)"
    return f"{played}; give {first} to {turns}, not {stop_after}"


def _check_stop(turn: object, where: str) -> None:
    if _stop_problem(turn):
        raise IllegalActionError(f"{where}: {_stop_problem(turn)}")


def _turn_begun(play: Play, turn: int) -> bool:
    """Whether game turn ``turn`` of ``play`` has begun (or a later one): a stop before
    it can no longer hold. Standing at its very start (the first phase of the first
    player's turn not begun, or the game ended there) it has not."""
    cursor = play.cursor
    at_start = cursor.seat == 0 and cursor.phase == 0 and cursor.stage in (BEGIN, OVER)
    return turn < cursor.turn or (turn == cursor.turn and not at_start)


def _check_start(
    scenario: Scenario,
    source: str,
    seed: int | None,
    controllers: Mapping[str, Controller] | None,
    stop_before_turn: int | None = None,
    plugins: PluginPaths = (),
) -> None:
    """Refuse what :meth:`Game.start` would otherwise take silently: a seed that is
    not a whole number of 0 or more (the CLI and scenario files refuse a negative
    one, which would play the game of the positive one), or a controller for a
    player the scenario does not have (a misspelt name would leave the player to
    the AI), or one plug-in file given for the list of them."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InputError(source, "seed", f"{seed!r}: a seed is a whole number, 0 or more")
    if _stop_problem(stop_before_turn):
        raise InputError(source, "stop_before_turn", _stop_problem(stop_before_turn))
    check_plugin_list(plugins, source)
    names = [p.name for p in scenario.players]
    for player in controllers or {}:
        if player not in names:
            raise InputError(source, "controllers", f"unknown player {player!r}; players: {names}")
