"""Results that last: every battle's outcome in an embedded DuckDB database.

A store is a folder holding ``battles.duckdb`` (why DuckDB: ``docs/scale.md``).
Tables, all keyed by the scenario's hash, the grid point's parameters (JSON)
and, for battles, the seed and the engine version:

- ``scenarios``: hash, name, source file, players (JSON list), the scenario (JSON);
- ``units``: per point, each unit's position, id, label, player and starting models;
- ``battles``: one row per battle: its seed, engine version and winner;
- ``models_left``: one row per battle and unit: the models it had left;
- ``choices``: one row per battle and choice offered (``"kind: label"``): how
  many times it was offered and chosen (:mod:`choices`: what the lab reports
  of a rule's use).

The engine version is the case's (:attr:`~hammerlab.analysis.sweep_grid.Case.engine_version`:
:data:`~hammerlab.analysis.engine_version.ENGINE_VERSION` and the hash of each
plug-in file loaded), which changes with any change to the code that plays a
battle, so a battle is reused only by the code that played it.

A sweep writes each batch as it comes back (one transaction), so a stopped
sweep loses at most the batches in flight, and ``--resume`` reads the rest
back. A run that fails instead (a battle that raised, a write that failed)
takes back what it wrote (:meth:`ResultStore.__exit__`), so it leaves no point
half played, and no empty store where it made one. Seeds are stored as BIGINT,
which is why a run's seeds are at most :data:`~hammerlab.analysis.sweep.MAX_SEED`.

A store says it is one in its table ``hammerlab_store`` (its :data:`FORMAT`),
and a database whose format, tables or columns are not a store's is refused,
never read nor written into (:func:`_problem`).

Stores from several machines are merged by :func:`merge` (a battle stored in
both must have the same outcome in both, or the merge stops: the engine is
deterministic). A merge writes all its rows in one transaction, so a failure
leaves the target as it was (and no target where there was none).

A store damaged after it was written (a block of the file overwritten, a cell
edited by hand) can still open; what DuckDB or the JSON parser raises while it is
read is turned into one :class:`StoreError` naming the store and the damage, in
one place (:func:`_reading`, which finds which store of several is the damaged
one: :func:`_damage`). ``--query`` runs with DuckDB's memory capped
(:data:`MEMORY_LIMIT`) and gives at most :data:`MAX_QUERY_ROWS` rows, so that
no query can take the machine.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import Any

import duckdb

from hammerlab.analysis.lab import Outcome
from hammerlab.analysis.sweep_grid import Case, UnitInfo
from hammerlab.analysis.sweep_results import (
    PointResult,
    ScenarioFile,
    point_rules,
    stored_file,
    summarize,
)
from hammerlab.errors import HammerlabError

FILE = "battles.duckdb"

FORMAT = 1
"""The store's format, the one row of its table :data:`FORMAT_TABLE`. Stores made
before that table existed have the same tables: they are read as they are, and
given the table when next written."""

FORMAT_TABLE = "hammerlab_store"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {FORMAT_TABLE} (format INTEGER);
INSERT INTO {FORMAT_TABLE} SELECT {FORMAT} WHERE NOT EXISTS (FROM {FORMAT_TABLE});
CREATE TABLE IF NOT EXISTS scenarios (
    scenario_hash VARCHAR PRIMARY KEY, name VARCHAR, source VARCHAR,
    players VARCHAR, scenario VARCHAR);
CREATE TABLE IF NOT EXISTS units (
    scenario_hash VARCHAR, params VARCHAR, position INTEGER, unit VARCHAR, label VARCHAR,
    player VARCHAR, starting_models INTEGER, PRIMARY KEY (scenario_hash, params, unit));
CREATE TABLE IF NOT EXISTS battles (
    scenario_hash VARCHAR, params VARCHAR, seed BIGINT, engine_version VARCHAR,
    winner VARCHAR, PRIMARY KEY (scenario_hash, params, seed, engine_version));
CREATE TABLE IF NOT EXISTS models_left (
    scenario_hash VARCHAR, params VARCHAR, seed BIGINT, engine_version VARCHAR,
    unit VARCHAR, models_left INTEGER,
    PRIMARY KEY (scenario_hash, params, seed, engine_version, unit));
CREATE TABLE IF NOT EXISTS choices (
    scenario_hash VARCHAR, params VARCHAR, seed BIGINT, engine_version VARCHAR,
    choice VARCHAR, offered INTEGER, chosen INTEGER,
    PRIMARY KEY (scenario_hash, params, seed, engine_version, choice));
"""

BATTLE_TABLES = ("battles", "models_left", "choices")
"""The tables with a row per battle (or more), keyed by :data:`BATTLE_KEY`."""

TABLES = ("scenarios", "units", *BATTLE_TABLES)

BATTLE_KEY = ("scenario_hash", "params", "seed", "engine_version")

JSON_COLUMNS = (
    ("scenarios", "players", "ARRAY"),
    ("scenarios", "scenario", "OBJECT"),
    ("battles", "params", "OBJECT"),
)
"""The cells a store holds as JSON that the lab parses when it reads the store back
(:func:`summaries`), each with the JSON type it writes there: a cell of another
kind is a damaged store (:func:`_damage`)."""

MEMORY_LIMIT = "2GB"
"""DuckDB's memory limit for the connection that reads stores (:func:`open_union`:
``results``, ``--query``, ``--merge-into``'s check), rather than its default of 80%
of the machine's memory: a query that needs more fails with DuckDB's "Out of
Memory Error" instead of taking the machine."""

MAX_QUERY_ROWS = 10_000
"""The most rows :func:`query` fetches (``results --query`` says when there were
more): the rows are Python objects, outside DuckDB's memory limit, and a query
of every row of a large store would otherwise grow without bound."""


class StoreError(HammerlabError):
    """A store that cannot be opened, read or merged."""


class MergeInterruptedError(StoreError):
    """A merge stopped by Ctrl-C: nothing of it was written."""


class _DamagedCellError(Exception):
    """A cell of a store that does not hold what the store writes there (raised while
    it is read back; :func:`_reading` makes it a :class:`StoreError`)."""


class ResultStore:
    """One store folder, open for reading and writing (a context manager), made
    there if there is none yet. A database there that is not a store is a
    :class:`StoreError`, and is left as it was."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._written: dict[tuple[str, str, str], list[int]] = {}
        """The seeds written since the store was opened, by scenario hash, point and
        engine version."""
        self._registered: set[tuple[str, str]] = set()
        """The points (scenario hash, point) whose scenario and units were written
        since the store was opened."""
        self._made = [p for p in (*reversed(folder.parents), folder) if not p.exists()]
        """The folders this store made, outermost first; with its database file, when
        that is new too (what a failed run removes again: :meth:`__exit__`)."""
        if not (folder / FILE).exists():
            self._made.append(folder / FILE)
        try:
            self._open()
        except KeyboardInterrupt:  # a Ctrl-C while it opens: nothing of it left behind
            if getattr(self, "db", None) is not None:
                self.db.close()
            self._remove_made()
            raise

    def _open(self) -> None:
        """Open (or make) the database and check it is a store (:meth:`__init__`)."""
        folder = self.folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.db = duckdb.connect(str(folder / FILE))
        except (OSError, duckdb.Error) as error:
            raise _cannot_open(folder, "cannot open the results store", error) from None
        try:
            name = self.db.execute("SELECT current_database()").fetchall()[0][0]
            empty = _empty(self.db, name)
            if not empty and folder / FILE in self._made:  # another run made it meanwhile
                self._made.remove(folder / FILE)
            problem = None if empty else _problem(self.db, name)
            if problem is None:
                # All of it in a new store, the format's table in an older one.
                self.db.execute(f"BEGIN TRANSACTION; {SCHEMA} COMMIT;")
        except duckdb.Error as error:
            problem = f"cannot open the results store: {error}"
        if problem is not None:
            self.db.close()
            raise StoreError(f"{folder}: {problem}")
        self._name: str = name
        """The store's database, as DuckDB names it on its connection."""

    @property
    def added(self) -> int:
        """Battles written since the store was opened: what a run played, and what an
        interrupted run has kept."""
        return sum(len(seeds) for seeds in self._written.values())

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        """Close the store. Closed by an error hammerlab reports (a battle that raised,
        a write that failed), it first takes back the battles written since it was
        opened (:meth:`_take_back`): the run failed, and its battles would read as a
        result. A Ctrl-C keeps them (the run says so; ``--resume`` plays the rest)."""
        try:
            if isinstance(error, HammerlabError) and self._written:
                self._take_back(error)
            if self.folder / FILE in self._made and self._holds_battles():
                self._made.remove(self.folder / FILE)  # another run's, written meanwhile
        finally:
            self.db.close()
        if isinstance(error, HammerlabError):
            self._remove_made()

    def _holds_battles(self) -> bool:
        """Whether the store holds any battle (``True`` where that cannot be read)."""
        try:
            return bool(self.db.execute("SELECT count(*) FROM battles").fetchall()[0][0])
        except duckdb.Error:
            return True

    def _remove_made(self) -> None:
        """After a failed run, remove the database and the folders this store made,
        innermost first, where nothing else has appeared in them: a run that failed
        leaves no empty store behind (a folder ``results`` would read as a store of no
        battle)."""
        if not self._made or self._made[-1] != self.folder / FILE:
            return  # the database was there before: the run took back its battles
        for path in (self.folder / f"{FILE}.wal", *reversed(self._made)):
            try:
                if path.is_dir():
                    path.rmdir()  # only if empty
                else:
                    path.unlink(missing_ok=True)
            except OSError:
                return

    def _take_back(self, cause: HammerlabError) -> None:
        """Delete the battles written since the store was opened, then the points and
        scenarios left with no battle, in one transaction, so the store is as the run
        found it. Should that fail too, the error says both."""
        where = "scenario_hash = ? AND params = ? AND engine_version = ?"
        with _interrupt_after():
            self.db.execute("BEGIN TRANSACTION")
            try:
                for key, seeds in self._written.items():
                    for table in BATTLE_TABLES:
                        self.db.execute(
                            f"DELETE FROM {table} WHERE {where} AND list_contains(?, seed)",
                            [*key, seeds],
                        )
                self.db.execute(
                    "DELETE FROM units WHERE (scenario_hash, params) "
                    "NOT IN (SELECT scenario_hash, params FROM battles)"
                )
                self.db.execute(
                    "DELETE FROM scenarios "
                    "WHERE scenario_hash NOT IN (SELECT scenario_hash FROM battles)"
                )
                self.db.execute("COMMIT")
            except duckdb.Error as error:
                self.db.execute("ROLLBACK")
                raise StoreError(
                    f"{cause}; and {self.folder} keeps the {self.added} battles this run "
                    f"stored, which could not be taken back: {error}"
                ) from None
        self._written.clear()
        self._registered.clear()

    def _register(self, case: Case) -> None:
        """Record the scenario and the units of a grid point, unless done already."""
        if (case.scenario_hash, case.params) in self._registered:
            return
        self.db.execute(
            "INSERT OR IGNORE INTO scenarios VALUES (?, ?, ?, ?, ?)",
            [
                case.scenario_hash,
                case.scenario.name,
                case.source,
                json.dumps(list(case.players)),
                case.scenario.model_dump_json(),
            ],
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO units VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                [case.scenario_hash, case.params, i, u.id, u.label, u.player, u.starting_models]
                for i, u in enumerate(case.units)
            ],
        )

    def outcomes(self, case: Case, seeds: range) -> dict[int, Outcome]:
        """The battles of ``seeds`` stored for this case by its engine version, by seed;
        a store that cannot be read is a :class:`StoreError` (:func:`_reading`)."""
        with _reading(self.db, {self._name: self.folder}):
            return _outcomes(self.db, case.scenario_hash, case.params, case.engine_version, seeds)

    def add(self, case: Case, seeds: Sequence[int], outcomes: Sequence[Outcome]) -> None:
        """Store played battles in one transaction, so a batch is all there or not at
        all; a Ctrl-C while it is written takes effect once it is
        (:func:`_interrupt_after`). A failed write is a :class:`StoreError`."""
        with _interrupt_after():
            self._write(case, seeds, outcomes)
            self._registered.add((case.scenario_hash, case.params))
            key = (case.scenario_hash, case.params, case.engine_version)
            self._written.setdefault(key, []).extend(seeds)

    def _write(self, case: Case, seeds: Sequence[int], outcomes: Sequence[Outcome]) -> None:
        """The batch's rows, with the case's scenario and units if they are new, in one
        transaction, rolled back if a statement fails (a full disk, a battle stored
        twice), so the store stays as it was and usable."""
        key = [case.scenario_hash, case.params]
        engine = case.engine_version
        self.db.execute("BEGIN TRANSACTION")
        try:
            self._register(case)
            self.db.executemany(
                "INSERT INTO battles VALUES (?, ?, ?, ?, ?)",
                [[*key, s, engine, o.winner] for s, o in zip(seeds, outcomes, strict=True)],
            )
            self.db.executemany(
                "INSERT INTO models_left VALUES (?, ?, ?, ?, ?, ?)",
                [
                    [*key, s, engine, unit, left]
                    for s, o in zip(seeds, outcomes, strict=True)
                    for unit, left in o.models_left.items()
                ],
            )
            rows = [
                [*key, s, engine, choice, offered, chosen]
                for s, o in zip(seeds, outcomes, strict=True)
                for choice, (offered, chosen) in o.choices.items()
            ]
            if rows:
                self.db.executemany("INSERT INTO choices VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self.db.execute("COMMIT")
        except duckdb.Error as error:
            self.db.execute("ROLLBACK")
            raise StoreError(f"{self.folder}: cannot write the results store: {error}") from None


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals a write holds back (:func:`_interrupt_after`): a Ctrl-C, and a SIGTERM,
which a run's :class:`~hammerlab.analysis.runners.Runner` turns into one."""


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) or a SIGTERM back until the block is done, then deliver it
    to the handler there was before (a SIGTERM with none of hammerlab's still ends
    the process, once the block is done).

    DuckDB answers a SIGINT during a statement by abandoning it with a
    ``RuntimeError`` rather than a ``KeyboardInterrupt``, which would leave the
    transaction open and the interrupt unreported. Signal handlers belong to the
    main thread; elsewhere the block runs as it is.
    """
    with _held_interrupts() as held:
        yield
    for number in dict.fromkeys(held):
        signal.raise_signal(number)


@contextmanager
def _held_interrupts() -> Iterator[list[int]]:
    """Note each Ctrl-C (SIGINT) or SIGTERM in the list the block is given, rather than
    act on it (:func:`_interrupt_after`; a merge checks the list between statements).
    In a thread other than the main one, which signals never reach, the list stays
    empty."""
    held: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = {
        number: signal.signal(number, lambda number, _: held.append(number))
        for number in HELD_SIGNALS
    }
    try:
        yield held
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def _reading(db: duckdb.DuckDBPyConnection, stores: Mapping[str, Path]) -> Iterator[None]:
    """Read the ``stores`` attached to ``db`` (by their names there) in the block, and
    turn what a damaged store raises into one :class:`StoreError` naming it.

    A store DuckDB opens may still be damaged: a block of the file overwritten
    (DuckDB's checksum error comes when the block is read), a cell edited by hand
    (a JSON cell the lab parses that is not JSON: :class:`_DamagedCellError`).
    Either ends the block; each store is then read whole (:func:`_damage`) to name
    the damaged one and what is wrong, and, should none be found, the error names
    them all. Every read of stores by the lab's own SQL goes through here, so that a
    damaged store is an error line, never a traceback; a user's ``--query`` tells its
    own mistakes from damage first (:func:`query`), and a merge reads its sources
    whole before it writes (:func:`merge`)."""
    try:
        yield
    except (duckdb.Error, _DamagedCellError) as error:
        raise _unreadable(db, stores, error) from None


def _unreadable(
    db: duckdb.DuckDBPyConnection, stores: Mapping[str, Path], error: Exception
) -> StoreError:
    """The :class:`StoreError` for ``error``, met reading ``stores``: the first store
    found damaged and its damage (:func:`_damaged_store`), else every store and
    ``error``."""
    damaged = _damaged_store(db, stores)
    if damaged is not None:
        return damaged
    folders = ", ".join(str(folder) for folder in stores.values())
    return StoreError(f"{folders}: cannot read the results store: {_first_line(error)}")


def _damaged_store(db: duckdb.DuckDBPyConnection, stores: Mapping[str, Path]) -> StoreError | None:
    """The :class:`StoreError` naming the first of ``stores`` (attached to ``db``, by
    name) found damaged (:func:`_damage`) and its damage; ``None``: none is."""
    for name, folder in stores.items():
        damage = _damage(db, name)
        if damage is not None:
            return StoreError(f"{folder}: cannot read the results store: {damage}")
    return None


def _damage(db: duckdb.DuckDBPyConnection, name: str) -> str | None:
    """What is damaged in the store attached to ``db`` as ``name``, or ``None``.

    Every table is read whole (the hash of each row reads every column, where a
    count would read none: a block of the file overwritten is met where it lies),
    then the JSON cells the lab parses (:data:`JSON_COLUMNS`) are checked to hold
    the JSON type the store writes. Reads everything, so it is for a store already
    met with an error, and for a merge's sources before anything is written."""
    try:
        for table in TABLES:
            db.execute(f'SELECT count(hash(t)) FROM "{name}".{table} AS t').fetchall()
        for table, column, kind in JSON_COLUMNS:
            row = db.execute(
                f'SELECT {column} FROM "{name}".{table} WHERE CASE WHEN json_valid({column}) '
                f"THEN json_type({column}) END IS DISTINCT FROM '{kind}' LIMIT 1"
            ).fetchone()
            if row is not None:
                return f"table {table}: column {column} holds {_cell(row[0])}, " + (
                    f"not a JSON {kind.lower()}"
                )
    except duckdb.Error as error:
        return _first_line(error)
    return None


def _json(text: object, kind: type[dict[str, Any]] | type[list[Any]], where: str) -> Any:
    """``text``, a JSON cell (``where``: its table and column), parsed; a cell that is
    not JSON (NULL included), or not the ``kind`` the store writes there, is
    :class:`_DamagedCellError`."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, kind):
        shape = "object" if kind is dict else "array"
        raise _DamagedCellError(f"{where} holds {_cell(text)}, not a JSON {shape}")
    return value


def _cell(value: object) -> str:
    """A stored value as an error shows it: its ``repr``, cut short."""
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _first_line(error: BaseException) -> str:
    """An error's message, its first line (DuckDB may add context lines)."""
    lines = str(error).splitlines()
    return lines[0] if lines else type(error).__name__


def _empty(db: duckdb.DuckDBPyConnection, database: str) -> bool:
    """Whether the attached ``database`` holds no table nor view: a new one, to make a
    store of."""
    row = db.execute(
        "SELECT (SELECT count(*) FROM duckdb_tables() WHERE database_name = $1) "
        "+ (SELECT count(*) FROM duckdb_views() WHERE database_name = $1 AND NOT internal)",
        [database],
    ).fetchone()
    return row is not None and row[0] == 0


def _columns(db: duckdb.DuckDBPyConnection, database: str) -> dict[str, list[tuple[str, str]]]:
    """Each table of the attached ``database`` (its main schema, views left out): its
    columns' names and types, in order."""
    found: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in db.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() "
        "JOIN duckdb_tables() USING (database_name, schema_name, table_name) "
        "WHERE database_name = ? AND schema_name = 'main' ORDER BY table_name, column_index",
        [database],
    ).fetchall():
        found.setdefault(table, []).append((column, kind))
    return found


@cache
def _store_columns() -> dict[str, list[tuple[str, str]]]:
    """The tables and columns :data:`SCHEMA` makes, as DuckDB names their types."""
    with duckdb.connect() as db:
        db.execute(SCHEMA)
        return _columns(db, "memory")


def _problem(db: duckdb.DuckDBPyConnection, database: str) -> str | None:
    """Why the attached ``database`` is not a store this code can read (``None``: it
    is one): a table or a column missing or other than :data:`SCHEMA` makes (the
    format's table may be missing: an older store), or another format."""
    found = _columns(db, database)
    for table, columns in _store_columns().items():
        have = found.get(table)
        if have is None and table == FORMAT_TABLE:
            continue
        if have is None and table == "choices" and FORMAT_TABLE not in found and found:
            return (
                "a results store of the first hammerlab sessions, made before the choices "
                "offered and taken in each battle were stored: this hammerlab cannot add "
                "to it or report from it; play the sweep again into another --out folder"
            )
        if have is None:
            return f"not a hammerlab results store: it has no table {table}"
        names = [name for name, _ in have]
        missing = [name for name, _ in columns if name not in names]
        if missing:
            return f"not a hammerlab results store: table {table} has no column {missing[0]}"
        if have != columns:
            return (
                f"not a hammerlab results store: table {table} has the columns "
                f"{_listed(have)}, not {_listed(columns)}"
            )
    if FORMAT_TABLE in found:
        rows = db.execute(f'SELECT format FROM "{database}".{FORMAT_TABLE}').fetchall()
        if rows != [(FORMAT,)]:
            given = ", ".join(str(row[0]) for row in rows) or "none"
            return f"a results store of format {given}; this hammerlab reads format {FORMAT}"
    return None


def _listed(columns: Sequence[tuple[str, str]]) -> str:
    return "(" + ", ".join(f"{name} {kind}" for name, kind in columns) + ")"


def _outcomes(
    db: duckdb.DuckDBPyConnection,
    hash_: str,
    params: str,
    engine: str,
    seeds: range | None = None,
) -> dict[int, Outcome]:
    """The battles of one point played by ``engine`` (those of ``seeds`` only, if given)."""
    where = "scenario_hash = ? AND params = ? AND engine_version = ?"
    args: list[object] = [hash_, params, engine]
    if seeds is not None:
        where += " AND seed >= ? AND seed < ?"
        args += [seeds.start, seeds.stop]
    winners = db.execute(
        f"SELECT seed, winner FROM battles WHERE {where} ORDER BY seed", args
    ).fetchall()
    left: dict[int, dict[str, int]] = {}
    for seed, unit, models in db.execute(
        f"SELECT seed, unit, models_left FROM models_left WHERE {where} ORDER BY seed, unit", args
    ).fetchall():
        left.setdefault(seed, {})[unit] = models
    made: dict[int, dict[str, tuple[int, int]]] = {}
    for seed, choice, offered, chosen in db.execute(
        f"SELECT seed, choice, offered, chosen FROM choices WHERE {where} ORDER BY seed, choice",
        args,
    ).fetchall():
        made.setdefault(seed, {})[choice] = (offered, chosen)
    return {
        seed: Outcome(left.get(seed, {}), winner, made.get(seed, {})) for seed, winner in winners
    }


def open_union(folders: Sequence[Path]) -> duckdb.DuckDBPyConnection:
    """An in-memory database whose views ``scenarios``, ``units``, ``battles``,
    ``models_left`` and ``choices`` are the union of the stores in ``folders``.

    Read only, and nothing else: the stores are attached read-only (as ``s0``,
    ``s1``...: :func:`_attached`), then DuckDB's memory is capped
    (:data:`MEMORY_LIMIT`), its progress bar turned off (which DuckDB prints on
    standard output, in the middle of ``--json``, for a query past two seconds),
    ``enable_external_access`` turned off and the settings locked, so SQL run on it
    (``--query``) can read the stores but no other file, write none, and not take
    the machine's memory."""
    db = duckdb.connect()
    try:
        for name, folder in _attached(folders).items():
            _attach(db, name, folder)
    except StoreError:
        db.close()
        raise
    for table in TABLES:
        union = " UNION ".join(f"SELECT * FROM s{i}.{table}" for i in range(len(folders)))
        db.execute(f"CREATE VIEW {table} AS {union}")
    db.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    db.execute("SET enable_progress_bar = false")  # it writes on standard output (--json)
    db.execute("SET enable_external_access = false")
    db.execute("SET lock_configuration = true")
    return db


def _attached(folders: Sequence[Path]) -> dict[str, Path]:
    """The stores in ``folders`` by the names :func:`open_union` attaches them as."""
    return {f"s{index}": folder for index, folder in enumerate(folders)}


def _attach(db: duckdb.DuckDBPyConnection, name: str, folder: Path) -> None:
    """Attach the store in ``folder`` to ``db`` as ``name``, read-only; a folder with no
    store, or a database that is not one (:func:`_problem`), is a :class:`StoreError`."""
    path = folder / FILE
    if not path.is_file():
        raise StoreError(f"{folder}: no results store here (no {FILE})")
    try:
        db.execute(f"ATTACH '{_quoted(path)}' AS {name} (READ_ONLY)")
        problem = _problem(db, name)
    except duckdb.Error as error:
        raise _cannot_open(folder, "cannot read the results store", error) from None
    if problem is not None:
        raise StoreError(f"{folder}: {problem}")


LOCKED = "Could not set lock on file"
"""What DuckDB says where another process holds a database open for writing (one
process at a time may: a sweep or lab writing its ``--out`` holds it until it ends)."""


def _cannot_open(folder: Path, what: str, error: Exception) -> StoreError:
    """The :class:`StoreError` for a store that could not be opened (``what``: to write
    it, to read it): where another process holds it (:data:`LOCKED`), that, in words
    of its own, not those of a damaged store (a rules writer's review: reading a
    running sweep's store said ``cannot read the results store: IO Error: Could not
    set lock on file``); else ``what`` and DuckDB's error."""
    if LOCKED not in str(error):
        return StoreError(f"{folder}: {what}: {error}")
    holder = re.search(r"\(PID (\d+)\)", str(error))
    who = f" (PID {holder[1]})" if holder else ""
    return StoreError(
        f"{folder}: the store is being written by another process{who}, a sweep or lab "
        "that holds it until it ends; wait for it, or copy the folder and read the copy"
    )


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def summaries(folders: Sequence[Path]) -> list[PointResult]:
    """Every grid point stored in ``folders``, summarized as the sweep reports it
    (each engine version on its own, with every seed stored for it), with how often
    the choices of the rules its keys set were offered and chosen
    (:func:`~hammerlab.analysis.sweep_results.point_rules`), as the sweep counted them, and
    the path of the scenario file the store recorded (``source``), as the sweep
    names its points.

    The store keeps no order of its points: they come by file path, then by the
    scenario's hash (two versions of one file, edited between two sweeps, each
    together), then by the point's settings as stored (JSON text), then by engine
    version."""
    with open_union(folders) as db, _reading(db, _attached(folders)):
        groups = db.execute(
            "SELECT DISTINCT b.scenario_hash, b.params, b.engine_version, s.name, s.players, "
            "s.scenario, s.source FROM battles b JOIN scenarios s USING (scenario_hash) "
            "ORDER BY s.source, s.name, b.scenario_hash, b.params, b.engine_version"
        ).fetchall()
        results = []
        for hash_, params, engine, name, players, scenario, source in groups:
            stored_scenario = _json(scenario, dict, "table scenarios: column scenario")
            lost = _casualties(stored_scenario)
            units = [
                UnitInfo(unit, label, player, starting, starting - lost.get(unit, 0))
                for unit, label, player, starting in db.execute(
                    "SELECT unit, label, player, starting_models FROM units "
                    "WHERE scenario_hash = ? AND params = ? ORDER BY position",
                    [hash_, params],
                ).fetchall()
            ]
            stored = _outcomes(db, hash_, params, engine)
            point = tuple(
                (str(k), str(v))
                for k, v in _json(params, dict, "table battles: column params").items()
            )
            ruleset = stored_scenario.get("ruleset")
            rules = point_rules(str(ruleset or "waffle"), point)
            sides = _json(players, list, "table scenarios: column players")
            results.append(
                summarize(name, hash_, point, units, sides,
                          list(stored.values()), list(stored), engine, source or "", rules)
            )  # fmt: skip
        return results


def empty_stores(folders: Sequence[Path]) -> list[Path]:
    """The folders of ``folders`` whose store holds no battle: a run stopped before it
    stored its first batch leaves one (its summary would be nothing at all)."""
    with open_union(folders) as db, _reading(db, _attached(folders)):
        return [
            folder
            for name, folder in _attached(folders).items()
            if not db.execute(f"SELECT count(*) FROM {name}.battles").fetchall()[0][0]
        ]


def stored_files(folders: Sequence[Path]) -> list[ScenarioFile]:
    """Every scenario file whose battles ``folders`` hold, as ``sweep`` lists the files it
    plays (:func:`~hammerlab.analysis.sweep_results.stored_file`): path, name, hash, ``[rules]``
    and the special rules not implemented, in the order of :func:`summaries` (by path,
    then name; two versions of one file, by hash)."""
    with open_union(folders) as db, _reading(db, _attached(folders)):
        rows = db.execute(
            "SELECT DISTINCT s.source, s.name, s.scenario_hash, s.scenario FROM scenarios s "
            "WHERE s.scenario_hash IN (SELECT scenario_hash FROM battles) "
            "ORDER BY s.source, s.name, s.scenario_hash"
        ).fetchall()
        return [
            stored_file(source or "", name, hash_,
                        _json(scenario, dict, "table scenarios: column scenario"))
            for source, name, hash_, scenario in rows
        ]  # fmt: skip


def _casualties(scenario: Mapping[str, Any]) -> dict[str, int]:
    """Each unit's ``casualties`` in a stored scenario (``scenarios.scenario``), by id:
    the models it lost before the scenario began, which the store's
    ``units.starting_models`` counts and its models left never can. Read from the
    scenario rather than from a column of their own, so that a store written before
    the models fielded were told apart from the starting strength reads the same."""
    try:
        return {str(u["id"]): int(u.get("casualties", 0)) for u in scenario.get("units", [])}
    except (AttributeError, KeyError, TypeError, ValueError):
        raise _DamagedCellError(
            "table scenarios: column scenario holds units without ids or casualties"
        ) from None


def no_statement(sql: str) -> bool:
    """Whether ``sql`` holds no statement at all (empty, blank, ``;`` or only comments),
    which DuckDB runs as nothing: ``--query`` refuses it as a usage error. SQL that
    does not parse is not this: running it says what is wrong."""
    try:
        return not duckdb.extract_statements(sql)
    except duckdb.Error:
        return False


READ_STATEMENTS = frozenset({duckdb.StatementType.SELECT})
"""The statements ``--query`` runs, as DuckDB tells them apart: a ``SELECT``, which
is also how DuckDB parses ``WITH ... SELECT``, ``VALUES``, ``FROM t``, ``SHOW``,
``DESCRIBE`` and ``SUMMARIZE``."""


def not_a_read(sql: str) -> str | None:
    """Why ``--query`` refuses ``sql``: the kind of the first of its statements that
    is not a read (:data:`READ_STATEMENTS`), as DuckDB parses it (``DROP``,
    ``CREATE``...); ``None`` when every one reads, or the SQL does not parse (running
    it says what is wrong).

    The stores are attached read-only, but the views over them (:func:`open_union`)
    are in a throw-away in-memory catalog, where ``DROP VIEW battles`` or ``CREATE
    TABLE`` succeed and change nothing: refusing them says so, rather than answering
    "Success" or with DuckDB's words about views and base tables."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error:
        return None
    for statement in statements:
        try:
            read = statement.type in READ_STATEMENTS
        except ValueError:  # a type DuckDB's Python module does not name (UPDATE EXTENSIONS)
            read = False
        if not read:
            kind = _statement_kind(statement)
            article = "an" if kind[:1] in "AEIO" or kind.startswith(("UN", "UP")) else "a"
            return (
                f"the query is read-only: {article} {kind} statement is refused; give a SELECT "
                "(or WITH ... SELECT, VALUES, FROM ...)"
            )
    return None


_FIRST_WORD = re.compile(
    r"(?:\s+|--[^\n]*|/\*.*?\*/)*((?:force\s+)?[a-z]+)", re.DOTALL | re.IGNORECASE
)
"""A statement's first keyword, after blanks and comments (``FORCE INSTALL`` as one)."""


def _statement_kind(statement: duckdb.Statement) -> str:
    """What a refused statement is, as its writer wrote it (``INSTALL``, which DuckDB
    calls a ``LOAD``; ``USE``, a ``SET``), or DuckDB's word for one led by ``WITH``
    (the ``INSERT`` it leads to)."""
    found = _FIRST_WORD.match(statement.query)
    written = "" if found is None else " ".join(found[1].split()).upper()
    if written not in ("", "WITH"):
        return written
    try:
        return statement.type.name.replace("_", " ")
    except ValueError:
        return "non-read"


_QUERY_MISTAKES = (duckdb.ProgrammingError, duckdb.PermissionException, duckdb.DataError)
"""DuckDB's errors for a query's own mistake (parser, binder, catalog, input,
conversion, a file it may not touch); any other met running ``--query`` has the
stores checked for damage first (:func:`_damaged_store`)."""


def query(
    folders: Sequence[Path], sql: str, limit: int = MAX_QUERY_ROWS
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run ``sql`` on the union of the stores, which it may read and nothing else
    (:func:`open_union`): its column names and its first ``limit`` rows (DuckDB
    streams the result, so the rows past them are not made).

    A mistake in the query, or a statement that is not a read (:func:`not_a_read`),
    is a :class:`StoreError` that names ``--query``; an error met reading a damaged
    store names the store (:func:`_unreadable`)."""
    refused = not_a_read(sql)
    if refused is not None:
        raise StoreError(f"--query: {refused}")
    stores = _attached(folders)
    with open_union(folders) as db:
        try:
            cursor = db.execute(sql)
            if cursor is None or cursor.description is None:  # no statement, no result
                return [], []
            columns = [d[0] for d in cursor.description]
            return columns, cursor.fetchmany(limit)
        except duckdb.Error as error:
            if not isinstance(error, _QUERY_MISTAKES):
                damaged = _damaged_store(db, stores)
                if damaged is not None:
                    raise damaged from None
            problem = _first_line(error)
            if isinstance(error, duckdb.PermissionException):  # another file (open_union)
                problem += " (--query reads the stores and no other file, and writes none)"
            if isinstance(error, duckdb.OutOfMemoryException):
                problem += f" (--query may use {MEMORY_LIMIT} of memory)"
            raise StoreError(f"--query: {problem}") from None


def merge(sources: Sequence[Path], target: Path) -> int:
    """Copy every row of the ``sources`` stores into ``target`` (created if need be);
    return the number of battles added.

    Nothing is written unless all of it is: the sources are first read whole
    (:func:`_damage`: a damaged one is a :class:`StoreError` naming it, as is a
    battle stored with two different outcomes), then every row is copied in one
    transaction, rolled back should a statement fail; a target the merge made is
    then removed again (:meth:`ResultStore.__exit__`), one that was there is left
    as it was."""
    stores = _attached(sources)
    with open_union(sources) as union:
        with _reading(union, stores):
            key = ", ".join(BATTLE_KEY)
            clash = union.execute(
                f"SELECT {key} FROM battles GROUP BY {key} HAVING count(*) > 1 UNION "
                f"SELECT {key} FROM models_left GROUP BY {key}, unit HAVING count(*) > 1 LIMIT 1"
            ).fetchone()
        damaged = _damaged_store(union, stores)
        if damaged is not None:
            raise damaged
        if clash is not None:
            raise StoreError(
                f"the stores disagree on the battle {dict(zip(BATTLE_KEY, clash, strict=True))}"
            )
        with ResultStore(target) as store:
            before = _count(store.db)
            _copy(store.db, sources, target)
            return _count(store.db) - before


def _copy(db: duckdb.DuckDBPyConnection, sources: Sequence[Path], target: Path) -> None:
    """Every row of the stores in ``sources`` into the store open on ``db`` (in
    ``target``), the rows it holds already kept, in one transaction: all of them or,
    should a statement fail, none (a :class:`StoreError`); a Ctrl-C is held until the
    statement under way ends, then rolls it all back (:class:`MergeInterruptedError`), and
    so is a SIGTERM (:data:`HELD_SIGNALS`)."""
    names = [f"m{index}" for index in range(len(sources))]
    stopped = MergeInterruptedError(f"{target}: interrupted: the merge wrote nothing")
    try:
        with _held_interrupts() as held:
            for name, folder in zip(names, sources, strict=True):
                db.execute(f"ATTACH '{_quoted(folder / FILE)}' AS {name} (READ_ONLY)")
            db.execute("BEGIN TRANSACTION")
            try:
                for name in names:
                    for table in TABLES:
                        if held:
                            raise stopped
                        db.execute(f"INSERT OR IGNORE INTO {table} SELECT * FROM {name}.{table}")
                if held:
                    raise stopped
                db.execute("COMMIT")
            except (duckdb.Error, MergeInterruptedError):
                db.execute("ROLLBACK")
                raise
    except duckdb.Error as error:
        raise StoreError(
            f"{target}: the merge failed, and nothing was written: {_first_line(error)}"
        ) from None
    finally:
        for name in names:
            with suppress(duckdb.Error):  # the error being raised says what went wrong
                db.execute(f"DETACH DATABASE IF EXISTS {name}")


def _count(db: duckdb.DuckDBPyConnection) -> int:
    row = db.execute("SELECT count(*) FROM battles").fetchone()
    return int(row[0]) if row else 0
