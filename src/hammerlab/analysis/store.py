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

The engine version is the case's (:attr:`~hammerlab.analysis.sweep.Case.engine_version`:
:data:`~hammerlab.analysis.engine_version.ENGINE_VERSION` and the hash of each
plug-in file loaded), which changes with any change to the code that plays a
battle, so a battle is reused only by the code that played it.

A sweep writes each batch as it comes back (one transaction), so a stopped
sweep loses at most the batches in flight, and ``--resume`` reads the rest
back. Stores from several machines are merged by :func:`merge` (a battle stored
in both must have the same outcome in both, or the merge stops: the engine is
deterministic).
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from hammerlab.analysis.lab import Outcome
from hammerlab.analysis.sweep import Case, PointResult, UnitInfo, summarize
from hammerlab.errors import HammerlabError

FILE = "battles.duckdb"

SCHEMA = """
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

TABLES = ("scenarios", "units", "battles", "models_left", "choices")

BATTLE_KEY = ("scenario_hash", "params", "seed", "engine_version")


class StoreError(HammerlabError):
    """A store that cannot be opened, read or merged."""


class ResultStore:
    """One store folder, open for reading and writing (a context manager)."""

    def __init__(self, folder: Path, create: bool = True) -> None:
        self.folder = folder
        self.added = 0
        """Battles written since the store was opened: what a run played, and what an
        interrupted run has kept."""
        path = folder / FILE
        if not create and not path.is_file():
            raise StoreError(f"{folder}: no results store here (no {FILE})")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.db = duckdb.connect(str(path))
            self.db.execute(SCHEMA)
        except (OSError, duckdb.Error) as error:
            raise StoreError(f"{folder}: cannot open the results store: {error}") from None

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.db.close()

    def register(self, case: Case) -> None:
        """Record the scenario and the units of a grid point (once)."""
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
        """The battles of ``seeds`` stored for this case by its engine version, by seed."""
        self.register(case)
        return _outcomes(self.db, case.scenario_hash, case.params, case.engine_version, seeds)

    def add(self, case: Case, seeds: Sequence[int], outcomes: Sequence[Outcome]) -> None:
        """Store played battles in one transaction, so a batch is all there or not at
        all; a Ctrl-C while it is written takes effect once it is
        (:func:`_interrupt_after`). A failed write is a :class:`StoreError`."""
        key = [case.scenario_hash, case.params]
        with _interrupt_after():
            self._write(key, case.engine_version, seeds, outcomes)
            self.added += len(seeds)

    def _write(
        self, key: list[str], engine: str, seeds: Sequence[int], outcomes: Sequence[Outcome]
    ) -> None:
        """The batch's rows, played by ``engine``, in one transaction, rolled back if a
        statement fails (a full disk, a battle stored twice), so the store stays as it
        was and usable."""
        self.db.execute("BEGIN TRANSACTION")
        try:
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


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) back until the block is done, then deliver it.

    DuckDB answers a SIGINT during a statement by abandoning it with a
    ``RuntimeError`` rather than a ``KeyboardInterrupt``, which would leave the
    transaction open and the interrupt unreported. Signal handlers belong to the
    main thread; elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and callable(previous):
        previous(signal.SIGINT, None)


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
    ``models_left`` and ``choices`` are the union of the stores in ``folders``
    (read only)."""
    db = duckdb.connect()
    for index, folder in enumerate(folders):
        path = folder / FILE
        if not path.is_file():
            raise StoreError(f"{folder}: no results store here (no {FILE})")
        try:
            db.execute(f"ATTACH '{_quoted(path)}' AS s{index} (READ_ONLY)")
        except duckdb.Error as error:
            raise StoreError(f"{folder}: cannot read the results store: {error}") from None
    for table in TABLES:
        union = " UNION ".join(f"SELECT * FROM s{i}.{table}" for i in range(len(folders)))
        db.execute(f"CREATE VIEW {table} AS {union}")
    return db


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def summaries(folders: Sequence[Path]) -> list[PointResult]:
    """Every grid point stored in ``folders``, summarized as the sweep reports it
    (each engine version on its own, with every seed stored for it)."""
    db = open_union(folders)
    groups = db.execute(
        "SELECT DISTINCT b.scenario_hash, b.params, b.engine_version, s.name, s.players "
        "FROM battles b JOIN scenarios s USING (scenario_hash) "
        "ORDER BY s.name, b.params, b.engine_version"
    ).fetchall()
    results = []
    for hash_, params, engine, name, players in groups:
        units = [
            UnitInfo(*row)
            for row in db.execute(
                "SELECT unit, label, player, starting_models FROM units "
                "WHERE scenario_hash = ? AND params = ? ORDER BY position",
                [hash_, params],
            ).fetchall()
        ]
        stored = _outcomes(db, hash_, params, engine)
        point = tuple((str(k), str(v)) for k, v in json.loads(params).items())
        results.append(
            summarize(name, hash_, point, units, json.loads(players),
                      list(stored.values()), list(stored), engine)
        )  # fmt: skip
    return results


def query(folders: Sequence[Path], sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run ``sql`` on the union of the stores: its column names and rows."""
    db = open_union(folders)
    try:
        cursor = db.execute(sql)
    except duckdb.Error as error:
        raise StoreError(f"--query: {str(error).splitlines()[0]}") from None
    if cursor.description is None:
        return [], []
    return [d[0] for d in cursor.description], cursor.fetchall()


def merge(sources: Sequence[Path], target: Path) -> int:
    """Copy every row of the ``sources`` stores into ``target`` (created if need be);
    return the number of battles added. A battle stored with two different
    outcomes is a :class:`StoreError`, and nothing is written."""
    union = open_union(sources)
    key = ", ".join(BATTLE_KEY)
    clash = union.execute(
        f"SELECT {key} FROM battles GROUP BY {key} HAVING count(*) > 1 "
        f"UNION SELECT {key} FROM models_left GROUP BY {key}, unit HAVING count(*) > 1 LIMIT 1"
    ).fetchone()
    if clash is not None:
        raise StoreError(
            f"the stores disagree on the battle {dict(zip(BATTLE_KEY, clash, strict=True))}"
        )
    with ResultStore(target) as store:
        before = _count(store.db)
        for index, folder in enumerate(sources):
            store.db.execute(f"ATTACH '{_quoted(folder / FILE)}' AS m{index} (READ_ONLY)")
            for table in TABLES:
                store.db.execute(f"INSERT OR IGNORE INTO {table} SELECT * FROM m{index}.{table}")
            store.db.execute(f"DETACH m{index}")
        return _count(store.db) - before


def _count(db: duckdb.DuckDBPyConnection) -> int:
    row = db.execute("SELECT count(*) FROM battles").fetchone()
    return int(row[0]) if row else 0
