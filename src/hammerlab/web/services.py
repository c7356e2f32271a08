"""What the web pages and the API do, apart from HTTP: scenarios, uploads, lab
jobs, battles and games, each bounded.

Costly work — a battle, a log's replay, the AI's play in a game, an engine
check, a lab job — runs under one :class:`Work`: a few at once, each stopped
at its time limit, so that no client (nor a few) can keep the server busy.

Every request names a scenario from the server's scenario folder (by its
relative name, checked against the list) or an uploaded one (by the id the
server gave it); a client never names a path. Uploaded files are parsed from
memory or from a private temporary folder that is removed at once.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from hammerlab.analysis.engine_version import plugins_line
from hammerlab.analysis.game import HOLD, Action, Game, stop_after_problem
from hammerlab.analysis.game_files import GameHeader, read_log
from hammerlab.analysis.lab import LabReport, arms, compare
from hammerlab.analysis.log_replay import first_difference, replay_logged
from hammerlab.editions import named_ruleset
from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.events import Event, EventLog
from hammerlab.engine.rules import ParamValue, parse_rule_flag, written_value
from hammerlab.errors import HammerlabError
from hammerlab.io.battlescribe import import_file
from hammerlab.io.files import size_words
from hammerlab.io.scenario import Scenario, load_scenario, parse_scenario
from hammerlab.web.schemas import NOT_BOTH
from hammerlab.web.store import BoundedStore
from hammerlab.web.viewer import event_rows, table_state

log = logging.getLogger(__name__)

BATTLESCRIBE_SUFFIXES = (".cat", ".gst", ".ros", ".rosz")
MAX_UPLOAD_BYTES = 8 * 1024 * 1024
"""A BattleScribe file, a scenario or a log sent to the server."""
WORK_SECONDS = 120.0
"""Costly work (a battle, a replay, the AI's play, an engine check, a lab job) that
runs longer is stopped."""
WORK_RUNNING = 2
"""Pieces of costly work that may run at once; one more is refused (429)."""
MAX_LOG_EVENTS = 200_000


class WebError(HammerlabError, ValueError):
    """A request the server refuses; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Upload:
    """An uploaded file, parsed: BattleScribe units, or a scenario."""

    name: str
    datasheets: tuple[Datasheet, ...] = ()
    scenario: Scenario | None = None
    notes: tuple[str, ...] = ()
    refused: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The units that cannot be played, with why (``ImportResult.unplayable``)."""


def upload_name(filename: str) -> str:
    """A file name fit to show back (the client's name is only ever shown, never used)."""
    shown = "".join(c for c in Path(filename).name if c.isprintable())[:80]
    return shown or "upload"


def read_upload(filename: str, data: bytes) -> Upload:
    """Parse an uploaded BattleScribe file or scenario (``.toml``)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise WebError(f"the file is larger than {size_words(MAX_UPLOAD_BYTES)}", 413)
    name = upload_name(filename)
    suffix = Path(name).suffix.lower()
    if suffix == ".toml":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(f"{name}: not UTF-8 text") from None
        scenario = parse_scenario(text, name)
        # Refused now, not when it is played: the pages read the ruleset's options
        # (a user review: the lab page failed on an uploaded ``ruleset = "nosuch"``).
        named_ruleset(scenario.ruleset, name)
        if any(u.source is not None for u in scenario.units):
            raise WebError(f"{name}: an uploaded scenario cannot name BattleScribe files")
        return Upload(name, scenario=scenario)
    if suffix not in BATTLESCRIBE_SUFFIXES:
        known = ", ".join((*BATTLESCRIBE_SUFFIXES, ".toml"))
        raise WebError(f"{name}: send a BattleScribe file or a scenario ({known})")
    with tempfile.TemporaryDirectory(prefix="hammerlab-upload-") as folder:
        path = Path(folder) / f"upload{suffix}"
        path.write_bytes(data)
        result = import_file(path, shown_as=name)
    return Upload(name, datasheets=result.datasheets, notes=result.notes, refused=result.unplayable)


@dataclass
class Scenarios:
    """The scenario files the server offers (``*.toml`` under one folder) and uploads."""

    folder: Path | None
    uploads: BoundedStore[Upload]

    def names(self) -> list[str]:
        """Relative names of the scenario files, sorted."""
        if self.folder is None or not self.folder.is_dir():
            return []
        return sorted(p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*.toml"))

    def get(self, name: str | None, upload: str | None) -> tuple[Scenario, str]:
        """The scenario and its source (a path, for BattleScribe files beside it): the
        one named, or the one uploaded, not both (the upload was played, and a lab job's
        ``asked`` named the other)."""
        if name is not None and upload is not None:
            raise WebError(f"upload: {NOT_BOTH}")
        if upload is not None:
            found = self.uploads.get(upload)
            if found is None:
                raise WebError("no such uploaded scenario (uploads are kept for an hour)", 404)
            if found.scenario is None:  # a BattleScribe file, uploaded for the odds
                raise WebError(f"{found.name} is not a scenario (a .toml file)", 422)
            return found.scenario, found.name
        if name is None:
            raise WebError("name a scenario or an uploaded one")
        if self.folder is None or name not in self.names():
            raise WebError(f"no scenario {name!r}; see GET /api/scenarios", 404)
        path = self.folder / name
        scenario = load_scenario(path)
        named_ruleset(scenario.ruleset, name)  # as an upload is checked
        return scenario, str(path)

    def offered_as(self, content: dict[str, Any]) -> str | None:
        """The name of the offered scenario file whose content is ``content`` (a log's
        scenario, as :meth:`Game.header` records it), or ``None``: what the viewer's form
        shows for a log it opened."""
        folder = self.folder
        if folder is None:
            return None
        for name in self.names():
            try:
                if load_scenario(folder / name).model_dump(mode="json") == content:
                    return name
            except HammerlabError:  # a broken file is not the log's
                continue
        return None


def rule_settings(flags: list[str]) -> dict[str, ParamValue]:
    """``--rule`` flags as settings."""
    return dict(parse_rule_flag(f) for f in flags)


def rule_flags_of(settings: Mapping[str, ParamValue]) -> list[str]:
    """Settings as the ``--rule`` flags that give them (:func:`rule_settings` reads them
    back): what a battle was played with, for the viewer's form to play it again."""
    return [f"{key}={written_value(value)}" for key, value in settings.items()]


# --- costly work: how many at once, and for how long ----------------------------------


class TimeLimitError(RuntimeError):
    """Costly work stopped at the server's time limit (503 for a request, a failed lab
    job). Not a :class:`HammerlabError`: the engine takes those for the game's own (a
    log's replay that goes another way is compared, not reported), and this one must
    end the work whatever is running it."""


class Work:
    """The server's costly work: at most ``slots`` pieces at once (:meth:`begin` refuses
    one more with a 429), each stopped at its first check (:meth:`Ticket.check`) once
    ``seconds`` have passed since it began. One for the whole app: lab jobs, battles,
    replays, games and engine checks share its slots, since they share the CPUs."""

    def __init__(
        self,
        slots: int = WORK_RUNNING,
        seconds: float = WORK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.slots = slots
        self.seconds = seconds
        self.clock = clock
        self._running = 0
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        """Pieces of work holding a slot now."""
        with self._lock:
            return self._running

    def begin(self, what: str, advice: str) -> Ticket:
        """A slot for ``what`` (``the battle``), held until the ticket ends; ``advice``
        ends the message of its time limit (what to ask for instead). All slots taken:
        a :class:`WebError` 429, before anything is done."""
        with self._lock:
            if self._running >= self.slots:
                raise WebError(
                    f"the server is busy: it runs {self.slots} at most at once of its battles, "
                    "games, replays, engine checks and lab jobs; try again when one ends",
                    429,
                )
            self._running += 1
        return Ticket(self, what, advice, self.clock())

    def release(self) -> None:
        """Give back the slot a :meth:`begin` took (:meth:`Ticket.end` does, once)."""
        with self._lock:
            self._running -= 1


@dataclass
class Ticket:
    """One piece of costly work holding a slot of :class:`Work` until :meth:`end` (or
    the end of its ``with`` block). The work calls :meth:`check` between its steps
    (a lab job between battles, an engine check between volleys) or has a game's
    events call it (:meth:`watch`): past the time limit, it stops the work."""

    work: Work
    what: str
    advice: str
    started: float
    ended: bool = False
    _watched: list[tuple[EventLog, Callable[[Event], None]]] = field(default_factory=list)

    def check(self) -> None:
        """Raise :class:`TimeLimitError` once the work's time is up (nothing after
        :meth:`end`: a game may outlive the request that played it)."""
        if not self.ended and self.work.clock() - self.started >= self.work.seconds:
            raise TimeLimitError(
                f"{self.what} was stopped after {self.work.seconds:g} s, the server's time "
                f"limit: {self.advice}"
            )

    def watch(self, game: Game) -> None:
        """Check the time at each of ``game``'s events from now on (every decision is
        one): a battle stops between two events, not only between activations, some
        of which take seconds. The listener goes at :meth:`end`."""
        log = game.battle.log

        def listener(_: Event) -> None:
            self.check()

        log.subscribe(listener)
        self._watched.append((log, listener))

    def end(self) -> None:
        """Give the slot back and stop watching (once; later calls do nothing)."""
        if self.ended:
            return
        self.ended = True
        for log, listener in self._watched:
            log.unsubscribe(listener)
        self._watched.clear()
        self.work.release()

    def __enter__(self) -> Ticket:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.end()


# --- lab jobs ---------------------------------------------------------------------


@dataclass
class LabJob:
    """A lab experiment running in a thread of the server."""

    total: int
    asked: dict[str, Any] = field(default_factory=dict)
    """What was asked (``POST /api/lab``'s fields: the scenario or upload, the rule
    and set flags, runs, seed): what the lab page's form shows for a job it reopens."""
    done: int = 0
    state: str = "running"
    report: LabReport | None = None
    error: str | None = None

    def to_dict(self, key: str) -> dict[str, Any]:
        """What ``GET /api/lab/{id}`` answers: what was asked, the progress, the report
        of ``lab --json``, the lines the CLI prints beside its tables (what each arm
        played, the plug-ins, the notes) and its tables' figures as it prints them
        (:meth:`~hammerlab.analysis.lab.LabReport.unit_cells`,
        :meth:`~hammerlab.analysis.lab.WinComparison.cells`), so the
        page shows the same text."""
        report = self.report
        return {
            "id": key,
            "asked": self.asked,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "report": None if report is None else report.to_dict(),
            "arms_text": None if report is None else report.arms_text,
            "plugins_line": None if report is None else plugins_line(report.plugins),
            "alike_note": None if report is None else report.alike_note,
            "rounding_note": None if report is None else report.rounding_note,
            "unit_cells": None if report is None else [report.unit_cells(u) for u in report.units],
            "win_cells": None if report is None else [w.cells() for w in report.wins],
            "error": self.error,
        }


def start_lab(
    jobs: BoundedStore[LabJob],
    work: Work,
    scenario: Scenario,
    source: str,
    changes: list[str],
    shared: list[str],
    runs: int,
    seed: int,
    plugins: list[str],
    asked: dict[str, Any],
) -> str:
    """Check the experiment, then run it in a thread holding a slot of ``work``
    (checked between battles: past the time limit the job fails); the job's id.
    ``asked`` is the request, kept with the job (:attr:`LabJob.asked`)."""
    ticket = work.begin("the lab job", "ask for fewer runs")
    try:
        experiment = arms(scenario, changes, shared, source)
        job = LabJob(total=2 * runs, asked=asked)
        key = jobs.add(job)
    except BaseException:
        ticket.end()
        raise

    def progress(more: int) -> None:
        job.done += more
        ticket.check()

    def run() -> None:
        report, error = None, "the experiment failed (see the server's log)"
        try:
            report = compare(scenario, source, experiment, runs, seed, 1, plugins, progress)
        except (HammerlabError, TimeLimitError) as problem:
            error = str(problem)
        except Exception:
            log.exception("lab job %s failed", key)
        finally:
            ticket.end()  # before the job reads as ended: a client told so may start another
        if report is not None:
            job.report = report
            job.done, job.state = job.total, "done"
        else:
            job.error, job.state = error, "failed"

    threading.Thread(target=run, name=f"lab-{key}", daemon=True).start()
    return key


def report_csv(report: LabReport) -> str:
    """The lab report as CSV, the facts the page and the HTML report show, in three
    tables a blank line apart: one row per unit (its difference's interval marked
    ``alike``, ``true``, where every paired battle gave the same, as ``--json`` and the
    sweep's CSV say it), one per outcome (each arm's win rate and their paired
    difference, each with its 95% interval), and one per choice of the rules compared
    (offered and chosen in each arm); then how many paired battles ended alike. A user
    review: the CSV had only the win rates' means and no ``alike`` mark or choices."""
    tables: list[list[tuple[object, ...]]] = [
        [
            ("unit", "player", "starting_models", "models_fielded", "baseline_mean_models_left",
             "variant_mean_models_left", "difference", "ci95_low", "ci95_high", "alike",
             "baseline_p_destroyed", "variant_p_destroyed"),
            *((u.unit, u.player, u.starting_models, u.models_fielded, u.baseline_mean,
               u.variant_mean, u.difference, u.ci95[0], u.ci95[1], _alike(u.alike),
               u.baseline_destroyed, u.variant_destroyed) for u in report.units),
        ],
        [
            ("outcome", *(f"{arm}_{cell}" for arm in ("baseline", "variant", "difference")
                          for cell in ("rate", "ci95_low", "ci95_high", "alike"))),
            *((w.outcome, *(cell for e in (w.baseline, w.variant, w.difference)
                            for cell in (e.mean, e.low, e.high, _alike(e.alike))))
              for w in report.wins),
        ],
        [
            ("choice", "baseline_offered", "baseline_chosen", "variant_offered",
             "variant_chosen"),
            *((c.choice, c.baseline_offered, c.baseline_chosen, c.variant_offered,
               c.variant_chosen) for c in report.choices),
        ],
        [("paired_battles", "ended_alike"), (report.runs, report.ended_alike)],
    ]  # fmt: skip
    blocks = ("\n".join(",".join(_csv_cell(c) for c in row) for row in t) for t in tables)
    return "\n\n".join(blocks) + "\n"


def _alike(alike: bool) -> str:
    return "true" if alike else ""


def _csv_cell(value: object) -> str:
    text = str(value)
    if any(c in text for c in ',"\n') or (text and text[0] in "=+-@"):
        text = '"' + text.replace('"', '""') + '"'
    return text


# --- battles ----------------------------------------------------------------------


def stop_before(stop_after: int | None, scenario: Scenario, where: str, field: str) -> int | None:
    """The turn a battle asked to stop after game turn ``stop_after`` stops before (as
    ``hammerlab battle --stop-after``; ``None``: it plays to its end), refused as the CLI
    refuses it when ``scenario`` (named ``where``) has no such turn, naming the request's
    ``field`` as it was sent (``stop-after`` or ``stop_after``)."""
    if stop_after is None:
        return None
    problem = stop_after_problem(stop_after, scenario.plan.turns, where)
    if problem:
        raise WebError(f"{field}: {problem}")
    return stop_after + 1


def battle_view(
    game: Game, start: dict[str, Any], scenario: str | None, note: str = ""
) -> dict[str, Any]:
    """What ``POST /api/battle`` answers: the table at the start, the events and the
    summary, and what the viewer's form shows for it: ``scenario``, the offered file
    played (``None``: another), its name, the seed and the ``rule`` flags it was
    played with (a user review: a log played with ``--rule`` was shown, and played
    again, without them). A game stopped before its end (a log of ``battle
    --stop-after``) is ``stopped_before_turn`` that turn, its summary who leads, as the
    CLI prints it ("Stopped before turn 2"), not who won; ``stop_after`` is the
    ``--stop-after`` it was played with (``None``: none), which plays it again to the
    same stop."""
    ready = game.ready
    name = game.recipe.scenario.get("name", "")
    over = game.finished
    rules = rule_flags_of(game.recipe.rules)
    stop = game.stop_before_turn
    played_with = f", rules {' '.join(rules)}" if rules else ""
    if not over:
        played_with += f", stopped before turn {game.turn}"
    return {
        "header": game.header(),
        "title": f"{name} — {ready.ruleset.title}, seed {game.battle.dice.seed}{played_with}",
        "scenario": scenario,
        "scenario_name": name,
        "seed": game.battle.dice.seed,
        "rule": rules,
        "stopped_before_turn": None if over else game.turn,
        "stop_after": None if stop is None or stop == HOLD else stop - 1,
        "note": note,
        "start": start,
        "events": event_rows(game.battle.log.events),
        "summary": list(ready.ruleset.summary(game.battle, ready.plan, over)),
    }


def played_view(game: Game, scenario: str | None) -> dict[str, Any]:
    """Play ``game`` (just started, from the offered file ``scenario``, ``None`` for an
    upload) to the end and describe it for the viewer."""
    start = table_state(game.battle)
    game.play()
    return battle_view(game, start, scenario)


def log_view(
    text: str, where: str, scenarios: Scenarios, ticket: Ticket | None = None
) -> dict[str, Any]:
    """The battle a JSON Lines log (``hammerlab battle --log-json``) records, replayed
    by the engine (watched by ``ticket``, which stops it at the time limit) and
    checked line by line against the log; named as the offered scenario of the same
    content, if there is one (:meth:`Scenarios.offered_as`)."""
    if text.count("\n") > MAX_LOG_EVENTS:
        raise WebError(f"{where}: more than {MAX_LOG_EVENTS} lines", 413)
    header, logged = read_log(text, where)
    _check_header(header, where)
    game = Game.recorded(header, where)
    if ticket is not None:
        ticket.watch(game)
    start = table_state(game.battle)
    unanswered = replay_logged(game, logged)
    differs = first_difference(logged, game.battle, unanswered)
    if differs is not None:
        asked = differs.unanswered
        why = (
            ""
            if asked is None
            else f": the replay asks a decision the log does not answer: {asked}"
        )
        raise WebError(f"{where}: line {differs.line} does not replay as logged{why}")
    offered = scenarios.offered_as(game.recipe.scenario)
    return battle_view(game, start, offered, f"replayed from {where}: identical to the log")


def _check_header(header: GameHeader, where: str) -> None:
    """Refuse a log whose header would make the server load code or read files:
    plug-ins, or units from BattleScribe files."""
    if header.plugins:
        raise WebError(f"{where}: the server plays no plug-in named by an uploaded log")
    if any(unit.source for unit in header.scenario_in(where).units):
        raise WebError(f"{where}: the server reads no BattleScribe file named by an uploaded log")


# --- games against the AI ------------------------------------------------------------


@dataclass
class Seat:
    """A game in play in the browser: the game, the player the person plays, and a lock."""

    game: Game
    you: str
    scenario: str | None = None
    """The example scenario played, as ``GET /api/scenarios`` names it (``None``: an
    uploaded one): what the page's form shows for a game it reopens."""
    seen: int = 0
    """Log events already sent to the page."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def new_seat(
    scenario: Scenario,
    source: str,
    seed: int | None,
    side: str | None,
    rules: list[str],
    name: str | None = None,
    ticket: Ticket | None = None,
    plugins: Sequence[str] = (),
) -> Seat:
    """A new game, with the rules of the plug-in files ``plugins``; the AI plays the
    other side, and answers the person's decisions inside an activation (the page
    offers the top-level actions only). ``ticket`` watches the AI's first moves (the
    other side may begin)."""
    names = [p.name for p in scenario.players]
    you = side or names[0]
    if you not in names:
        raise WebError(f"{you!r} is not a player ({', '.join(names)})")
    game = Game.start(scenario, source, seed, rule_settings(rules), plugins)
    if ticket is not None:
        ticket.watch(game)
    game.play_until(you)
    return Seat(game, you, name)


def seat_state(key: str, seat: Seat, whole_log: bool = False) -> dict[str, Any]:
    """What the play page shows: the actions open to the person and the log lines not
    yet sent (every one with ``whole_log``: a page reopened on the game)."""
    game = seat.game
    events = game.battle.log.events
    new = event_rows(events[0 if whole_log else seat.seen :])
    seat.seen = len(events)
    decision = game.pending
    over = decision is None
    actions: list[Action] = [] if over else game.legal_actions()
    return {
        "id": key,
        "you": seat.you,
        "scenario": seat.scenario,
        "seed": game.battle.dice.seed,
        "over": over,
        # The turn in play; once over, the last turn played (a user review: a three-turn
        # game ended "turn 4", Game.turn's turn about to begin when it ended).
        "turn": game.battle.turn,
        "phase": game.battle.phase,
        "decision": None
        if decision is None
        else {"kind": decision.kind, "prompt": decision.prompt},
        "step": len(game.decisions()),
        "player": game.current_player,
        "actions": [{"index": i, "text": str(a)} for i, a in enumerate(actions)],
        "log": new,
        "table": table_state(game.battle),
        "summary": list(game.ready.ruleset.summary(game.battle, game.ready.plan)) if over else [],
    }


def seat_log(seat: Seat) -> str:
    """The game's JSON Lines log (``hammerlab replay`` reads it), once the game is over:
    the log of a game stopped inside a turn does not replay, so until then the saved
    game (``Game.to_json``) is the one to keep."""
    if not seat.game.is_over:
        raise WebError(
            "the game is not over: its log replays once it ends; save the game "
            "(game.json, for hammerlab battle --resume) to keep it now",
            409,
        )
    return seat.game.log_json_lines()


def act(seat: Seat, index: int, step: int | None, ticket: Ticket | None = None) -> None:
    """Take the person's action ``index``, then let the AI play until they act again,
    watched by ``ticket`` (past the time limit, the game is left inside the AI's turn:
    the caller forgets it)."""
    game = seat.game
    if step is not None and step != len(game.decisions()):
        raise WebError("the game has moved on since this page was drawn; reload it", 409)
    actions = game.legal_actions()
    if not 0 <= index < len(actions):
        raise WebError(f"no action {index}: {len(actions)} are open")
    if ticket is not None:
        ticket.watch(game)
    game.apply(actions[index])
    game.play_until(seat.you)
