"""The files a game is written to, read back and checked: a saved game
(:meth:`Game.to_json <hammerlab.analysis.game.Game.to_json>`, :class:`SavedGame`) and
a JSON Lines log's first line (:meth:`Game.header
<hammerlab.analysis.game.Game.header>`, :class:`GameHeader`), every field checked by
type and range so that a damaged file is one :class:`InputError` naming the field; and
the plug-in files they record, loaded only when their reader names each of them
(:func:`check_plugins_named`). See ``docs/api.md``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from hammerlab.editions.plugins import PluginPaths
from hammerlab.engine.rules import ParamValue
from hammerlab.errors import InputError, long_number, long_number_problem
from hammerlab.io.scenario import Scenario, scenario_from_data
from hammerlab.io.validation import as_input_error

FORMAT = "hammerlab-game/1"


def _rule_value(value: object) -> ParamValue:
    """A rule's value as a header records it: whether it suits the rule (on or off,
    a whole number) is the rule's to check when the game is made."""
    if not isinstance(value, bool | int | float | str):
        raise ValueError("a rule's value is true or false, a number or text")
    return value


class GameHeader(BaseModel):
    """What a log's first line records of a game (:meth:`Game.header`): its recipe
    and where it stops. A saved game records the same (:class:`SavedGame`).

    Every reader (``battle --resume``, ``replay``, the web's log upload) checks the
    fields here, by type and range, so that a damaged or hand-edited file is one
    :class:`InputError` naming the field, not a failure deep in the engine. The
    readers check ``format`` (:data:`FORMAT`) first, to say what a file is when it
    is not what they read; keys not named here are ignored."""

    model_config = ConfigDict(strict=True, frozen=True)

    scenario: dict[str, Any]
    """The scenario's content (:meth:`scenario_in` checks it as a scenario)."""
    source: str
    seed: int | None = Field(default=None, ge=0)
    rules: dict[str, Annotated[ParamValue, PlainValidator(_rule_value)]] = {}
    plugins: list[str] = []
    scenario_path: str | None = None
    stop_before_turn: int | None = Field(default=None, ge=1)
    """A game turn (1 is :data:`HOLD`); ``None``: the game plays to its last turn."""

    def scenario_in(self, where: str) -> Scenario:
        """The recorded scenario, checked as a scenario file is: a mistake names
        ``where``, the file that records it, then ``scenario`` and the key path."""
        return scenario_from_data(self.scenario, f"{where}: scenario")


class PluginNotNamedError(InputError):
    """A saved game or log records plug-in files its reader did not name, or the reader
    named files it does not record: nothing is loaded. A plug-in is Python code run
    with the reader's rights, and a data file (which anyone may have written) must not
    run code its reader did not ask for; the files it records are in ``recorded``,
    those not named in ``missing``, those named for nothing in ``extra``."""

    def __init__(
        self, where: str, recorded: Sequence[str], missing: Sequence[str], extra: Sequence[str]
    ) -> None:
        self.recorded = tuple(recorded)
        self.missing = tuple(missing)
        self.extra = tuple(extra)
        problems = []
        if self.missing:
            problems.append(
                f"plays with {_plugin_files(self.missing)}, not named: a plug-in runs code, "
                "so it is loaded only when named"
            )
        if self.extra:
            problems.append(f"does not play with {_plugin_files(self.extra)}")
        super().__init__(where, "plugins", "; ".join(problems))


def _plugin_files(paths: Sequence[str]) -> str:
    return ("the plug-in " if len(paths) == 1 else "the plug-ins ") + ", ".join(paths)


def _same_file(path: str | Path) -> str:
    """What compares two spellings of a plug-in's path: the path resolved (symbolic
    links followed, a relative path from the current folder, where it is loaded
    from); one that cannot be resolved, made absolute."""
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(path)


def check_plugins_named(recorded: Sequence[str], named: PluginPaths, where: str) -> None:
    """Refuse, with :class:`PluginNotNamedError`, a saved game or log (the file ``where``)
    whose ``recorded`` plug-in files are not exactly those its reader ``named``, compared
    by resolved path: the recorded paths are what would be loaded, and a saved game
    records no digest of a plug-in's bytes to compare instead."""
    check_plugin_list(named, where)
    wanted = {_same_file(p) for p in named}
    have = {_same_file(p) for p in recorded}
    missing = [p for p in dict.fromkeys(recorded) if _same_file(p) not in wanted]
    extra = [str(p) for p in dict.fromkeys(named) if _same_file(p) not in have]
    if missing or extra:
        raise PluginNotNamedError(where, list(dict.fromkeys(recorded)), missing, extra)


def check_plugin_list(plugins: object, where: str) -> None:
    """Refuse one path given for the list of plug-in files (``plugins="rule.py"``):
    a string is a sequence too (the type checker takes it), and each of its letters
    would be looked for as a file."""
    if isinstance(plugins, str | os.PathLike):
        raise InputError(
            where, "plugins", f"'{plugins}' is one file: give a list of them, ['{plugins}']"
        )


class SavedGame(GameHeader):
    """A saved game (:meth:`Game.to_json`): the header's fields, every decision and
    the state digest. Its ``cursor`` is written for people and not read."""

    decisions: list[Annotated[list[str], Field(min_length=3, max_length=3)]]
    """Each decision: [player, kind, answer]."""
    digest: str | None = None
    """The state digest where the game was saved (missing, no replay matches it)."""


def read_saved_game(text: str, where: str) -> SavedGame:
    """The saved game ``text`` (from the file ``where``), every field checked; a log
    given for it is refused, saying what it is."""
    if _written_by(text) == "log":
        raise InputError(
            where, "", "a --log-json log, not a saved game; check it with hammerlab replay"
        )
    saved = _decoded(text, where)
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise InputError(where, "format", f"not a saved game ({FORMAT})")
    return _checked(SavedGame, saved, where)


def _decoded(text: str, where: str, line: int | None = None) -> Any:
    """``text`` decoded as JSON: the whole file ``where``, or its ``line`` (a log's).
    Python's decoder recurses, so arrays nested a hundred thousand deep would end
    in a ``RecursionError``: that, like a syntax error, is one :class:`InputError`."""
    at = "" if line is None else f"line {line}"
    too_long = long_number(text)
    if too_long is not None:
        raise InputError(where, at or f"line {too_long[0]}", long_number_problem(too_long[1]))
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        position = "" if line is not None else f" (line {error.lineno})"
        raise InputError(where, at, f"not JSON: {error.msg}{position}") from None
    except RecursionError:
        raise InputError(where, at, "JSON nested too deeply to read") from None


H = TypeVar("H", bound=GameHeader)


def _checked(model: type[H], data: dict[str, Any], where: str) -> H:
    """``data`` checked as ``model``: the first wrong field is an :class:`InputError`
    naming ``where`` and the field's key path."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise as_input_error(where, error, model) from None


def _written_by(text: str) -> Literal["save", "log"] | None:
    """What wrote ``text``, where it is a saved game or a log, to name the command
    that reads it when the other one was given it: ``"save"``, one JSON document
    with the format and decisions of a saved game (``battle --save``); ``"log"``,
    a first line that is a game header (``--log-json``); otherwise ``None``."""
    for part in (text, text.partition("\n")[0]):
        try:
            document = json.loads(part)
        except (ValueError, RecursionError):  # a syntax error, or a number too long to read
            continue
        if not isinstance(document, dict):
            return None
        if document.get("format") == FORMAT and "decisions" in document:
            return "save"
        return "log" if document.get("kind") == "game" else None
    return None


def saved_players(text: str, where: str) -> list[str]:
    """The players of a saved game (to attach a person's controller before replaying)."""
    return [p.name for p in read_saved_game(text, where).scenario_in(where).players]


def read_log(text: str, where: str) -> tuple[GameHeader, list[Any]]:
    """The header of the JSON Lines log ``text`` (from the file ``where``), every
    field checked, and the logged events that follow it. A saved game given for a
    log is refused, saying what it is. A byte-order mark before it (a UTF-8 file saved
    by Windows Notepad) is no part of the log, and is skipped."""
    text = text.removeprefix("\ufeff")
    if _written_by(text) == "save":
        raise InputError(
            where,
            "",
            f"a saved game ({FORMAT}), not a --log-json log; "
            "resume it with hammerlab battle --resume",
        )
    lines = text.splitlines()
    header = _decoded(lines[0], where, 1) if lines else None
    if not isinstance(header, dict) or header.get("kind") != "game":
        raise InputError(where, "line 1", "no game header: write the log with --log-json")
    if header.get("format") != FORMAT:
        raise InputError(where, "line 1: format", f"not a game header ({FORMAT})")
    logged_events = [_decoded(line, where, n) for n, line in enumerate(lines[1:], start=2)]
    return _checked(GameHeader, header, f"{where}: line 1"), logged_events
