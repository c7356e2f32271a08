"""Bad input to the results store (session 12's fuzzing): a database that is not a
store is refused and left alone, a run's seeds must fit the store before anything is
played, a run that fails takes back the battles it stored, ``--query`` writes its
rows with ``--csv`` and reads the stores and no other file; and (session 14's review)
a store damaged after it was written is one error line wherever it is read, a merge
writes all of its rows or none, and ``--query`` is a statement with bounded rows."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner, Result

from hammerlab.analysis import store as store_module
from hammerlab.analysis.lab import Outcome, play_once
from hammerlab.analysis.store import (
    FILE,
    MAX_QUERY_ROWS,
    MEMORY_LIMIT,
    TABLES,
    ResultStore,
    StoreError,
    merge,
    query,
)
from hammerlab.analysis.sweep import MAX_SEED
from hammerlab.analysis.sweep_grid import cases, parse_axes
from hammerlab.cli.app import app
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

GUARD = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"
SWEEP = ["sweep", str(GUARD), "--vary", "charge_dice=2,3", "--runs", "2"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _store(folder: Path, winners: dict[int, str]) -> None:
    """A store holding one battle per seed of ``winners`` (no battle is played)."""
    (case,) = cases([(load_scenario(GUARD), str(GUARD))], parse_axes(["charge_dice=2"]))
    outcomes = [Outcome({"squad1": 1}, winner) for winner in winners.values()]
    with ResultStore(folder) as store:
        store.add(case, list(winners), outcomes)


def _make(folder: Path) -> Path:
    """A store of one battle."""
    _store(folder, {1: "Cadians"})
    return folder


def _sql(folder: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(folder / FILE)) as db:
        return db.execute(sql).fetchall()


def test_a_database_that_is_not_a_store_is_refused_and_left_alone(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    _sql(foreign, "CREATE TABLE foo (x INTEGER)")
    line = f"error: {foreign}: not a hammerlab results store: it has no table battles"
    for command in (
        ["results", str(foreign)],
        [*SWEEP, "--out", str(foreign), "--resume"],
        ["results", str(_make(tmp_path / "good")), "--merge-into", str(foreign)],
    ):
        result = invoke(*command)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", line + "\n")
    assert _sql(foreign, "SELECT table_name FROM duckdb_tables()") == [("foo",)]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("ALTER TABLE battles DROP COLUMN winner", "table battles has no column winner"),
        (
            "ALTER TABLE choices ADD COLUMN extra INTEGER",
            "table choices has the columns (scenario_hash VARCHAR, params VARCHAR, "
            "seed BIGINT, engine_version VARCHAR, choice VARCHAR, offered INTEGER, "
            "chosen INTEGER, extra INTEGER), not (scenario_hash VARCHAR, params VARCHAR, "
            "seed BIGINT, engine_version VARCHAR, choice VARCHAR, offered INTEGER, "
            "chosen INTEGER)",
        ),
        ("DROP TABLE units", "it has no table units"),
    ],
)
def test_a_store_whose_tables_were_changed_is_refused(
    tmp_path: Path, change: str, problem: str
) -> None:
    folder = _make(tmp_path / "s")
    _sql(folder, change)
    line = f"error: {folder}: not a hammerlab results store: {problem}\n"
    for command in (["results", str(folder)], [*SWEEP, "--out", str(folder), "--resume"]):
        result = invoke(*command)
        assert (result.exit_code, result.stderr) == (1, line)


def test_a_store_made_before_choices_were_stored_is_named_as_such(tmp_path: Path) -> None:
    older = _make(tmp_path / "s")
    _sql(older, "DROP TABLE choices; DROP TABLE hammerlab_store")  # as the first sessions made
    for command in (["results", str(older)], [*SWEEP, "--out", str(older), "--resume"]):
        result = invoke(*command)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: {older}: a results store of the first")
        assert "play the sweep again into another --out folder" in result.stderr
    assert sorted(_sql(older, "SELECT table_name FROM duckdb_tables()")) == [
        ("battles",),
        ("models_left",),
        ("scenarios",),
        ("units",),
    ]


def test_a_store_of_another_format_is_refused(tmp_path: Path) -> None:
    folder = _make(tmp_path / "s")
    _sql(folder, "UPDATE hammerlab_store SET format = 2")
    result = invoke("results", str(folder))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {folder}: a results store of format 2; this hammerlab reads format 1\n",
    )


def test_a_store_made_before_the_format_table_is_read_and_given_it(tmp_path: Path) -> None:
    older = _make(tmp_path / "s")
    _sql(older, "DROP TABLE hammerlab_store")
    assert query([older], "SELECT seed, winner FROM battles")[1] == [(1, "Cadians")]
    _store(older, {2: "draw"})
    assert _sql(older, "SELECT format FROM hammerlab_store") == [(1,)]
    assert _sql(older, "SELECT seed, winner FROM battles ORDER BY seed") == [
        (1, "Cadians"),
        (2, "draw"),
    ]


@pytest.mark.parametrize(
    ("command", "seed"),
    [
        (SWEEP, str(MAX_SEED)),
        (["lab", str(GUARD), "--rule", "suppressive_fire", "--runs", "2"], "9" * 23),
    ],
)
@pytest.mark.parametrize("out", [True, False])
def test_seeds_past_the_store_s_range_are_refused_before_anything_is_played(
    tmp_path: Path, command: list[str], seed: str, out: bool
) -> None:
    folder = tmp_path / "s"
    stored = ["--out", str(folder)] if out else []
    result = invoke(*command, "--seed", seed, *stored)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"error: --seed: with --runs 2, the seeds go up to {int(seed) + 1}, past {MAX_SEED} "
        f"(the most a results store keeps); give --seed {MAX_SEED - 1} or less\n"
    )
    assert not folder.exists()


def test_the_highest_seeds_are_stored_and_one_more_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    result = invoke(*SWEEP, "--seed", str(MAX_SEED - 1), "--out", str(folder))
    assert result.exit_code == 0, result.output
    highest = [(MAX_SEED - 1,), (MAX_SEED,)]
    assert _sql(folder, "SELECT DISTINCT seed FROM battles ORDER BY seed") == highest
    past = invoke(*SWEEP, "--seed", str(MAX_SEED), "--out", str(folder), "--resume")
    assert past.exit_code == 2
    assert past.stderr.startswith(
        f"error: --seed: with --runs 2, the seeds go up to {MAX_SEED + 1}"
    )
    assert _sql(folder, "SELECT DISTINCT seed FROM battles ORDER BY seed") == highest


def test_a_run_that_fails_takes_back_the_battles_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "s"
    assert invoke(*SWEEP, "--out", str(folder)).exit_code == 0  # seeds 1, 2 at both points
    before = {t: _sql(folder, f"FROM {t} ORDER BY ALL") for t in ("scenarios", "units", "battles")}
    calls = 0

    def play(*args: Any) -> Outcome:
        nonlocal calls
        calls += 1
        if calls > 5:
            raise ValueError("a plug-in's bug")
        return play_once(*args)

    monkeypatch.setattr("hammerlab.analysis.runners.play_once", play)
    # 12 battles to play (seeds 3..8 at two points, on one process): batches of 2
    # seeds, so 4 battles are stored before the 6th fails.
    failed = invoke(*SWEEP[:-1], "8", "--out", str(folder), "--resume")
    assert failed.exit_code == 1
    assert "failed: ValueError: a plug-in's bug" in failed.stderr.splitlines()[0]
    assert calls == 6
    after = {t: _sql(folder, f"FROM {t} ORDER BY ALL") for t in ("scenarios", "units", "battles")}
    assert after == before
    assert _sql(folder, "SELECT count(*) FROM models_left WHERE seed > 2") == [(0,)]

    # A new store made by a failed run is removed with the folders it made (a rules
    # writer's review: an empty store was left, which `results` read as no battle).
    fresh = tmp_path / "new" / "fresh"
    calls = 0
    assert invoke(*SWEEP[:-1], "8", "--out", str(fresh)).exit_code == 1
    assert not (tmp_path / "new").exists()
    kept = tmp_path / "kept"  # a folder that was there, with a file of its own, stays
    kept.mkdir()
    (kept / "notes.txt").write_text("mine", encoding="utf-8")
    calls = 0
    assert invoke(*SWEEP[:-1], "8", "--out", str(kept)).exit_code == 1
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]


def test_query_rows_are_written_as_csv(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    _store(folder, {7: "Cadians", 8: "draw, at last"})
    sheet = tmp_path / "q.csv"
    sql = "SELECT seed, winner FROM battles ORDER BY seed"
    result = invoke("results", str(folder), "--query", sql, "--csv", str(sheet), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {"seed": 7, "winner": "Cadians"},
        {"seed": 8, "winner": "draw, at last"},
    ]
    assert sheet.read_text() == 'seed,winner\n7,Cadians\n8,"draw, at last"\n'


@pytest.mark.parametrize("flag", [["--query", "SELECT 1"], ["--csv", "x.csv"]])
def test_merge_into_refuses_what_it_would_not_do(tmp_path: Path, flag: list[str]) -> None:
    folder = _make(tmp_path / "s")
    target = tmp_path / "m"
    result = invoke("results", str(folder), "--merge-into", str(target), *flag)
    assert (result.exit_code, result.stderr) == (
        2,
        f"error: {flag[0]}: cannot go with --merge-into, which only copies battles\n",
    )
    assert not target.exists()


def test_a_query_reads_the_stores_and_no_other_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _store(first, {1: "Cadians"})
    _store(second, {2: "draw"})
    union = invoke("results", str(first), str(second), "--query", "FROM battles", "--json")
    assert [(row["seed"], row["winner"]) for row in json.loads(union.stdout)] in (
        [(1, "Cadians"), (2, "draw")],
        [(2, "draw"), (1, "Cadians")],
    )
    secret = tmp_path / "secret.csv"
    secret.write_text("x\n1\n")
    leak, evil = tmp_path / "leak.csv", tmp_path / "evil.db"
    sql = f"SELECT * FROM read_csv_auto('{secret}')"
    result = invoke("results", str(first), str(second), "--query", sql)
    assert result.exit_code == 1
    assert result.stderr == (
        f'error: --query: Permission Error: Cannot access file "{secret}" - file system '
        "operations are disabled by configuration (--query reads the stores and no other "
        "file, and writes none)\n"
    )
    for sql, kind in (
        (f"COPY battles TO '{leak}'", "a COPY"),
        (f"ATTACH '{evil}' AS e; CREATE TABLE e.t AS SELECT 1", "an ATTACH"),
        ("SET enable_external_access = true", "a SET"),
        ("DELETE FROM s0.battles", "a DELETE"),
    ):
        result = invoke("results", str(first), str(second), "--query", sql)
        assert (result.exit_code, result.stderr) == (2, _not_a_read(kind)), sql
    assert not leak.exists() and not evil.exists()
    assert _sql(first, "SELECT seed FROM battles") == [(1,)]


def _not_a_read(kind: str) -> str:
    """The line ``--query`` refuses a statement of this kind (``an INSERT``) with."""
    return (
        f"error: --query: the query is read-only: {kind} statement is refused; give a "
        "SELECT (or WITH ... SELECT, VALUES, FROM ...)\n"
    )


@pytest.mark.parametrize(
    ("sql", "kind"),
    [
        # A user review: DROP VIEW and CREATE TABLE answered "Success" with exit 0 (the
        # in-memory catalog of views), DROP TABLE, DELETE and UPDATE with DuckDB's words
        # about views and base tables.
        ("DROP VIEW battles", "a DROP"),
        ("DROP TABLE battles", "a DROP"),
        ("CREATE TABLE t AS SELECT 1", "a CREATE"),
        ("DELETE FROM battles", "a DELETE"),
        ("UPDATE battles SET winner = 'x'", "an UPDATE"),
        ("INSERT INTO battles SELECT * FROM battles", "an INSERT"),
        ("ALTER VIEW battles RENAME TO b", "an ALTER"),
        ("SELECT 1; DROP VIEW battles", "a DROP"),
        ("WITH w AS (SELECT 1) INSERT INTO battles SELECT * FROM w", "an INSERT"),
        # an input review: "a INSERT", and INSTALL called LOAD (DuckDB's statement type)
        ("INSTALL httpfs", "an INSTALL"),
        ("FORCE INSTALL httpfs", "a FORCE INSTALL"),
        ("-- a note\n/* and */ export database 'x'", "an EXPORT"),
        ("USE memory", "a USE"),  # DuckDB's SET
        ("UPDATE EXTENSIONS", "an UPDATE"),  # a type DuckDB's Python module did not name:
    ],  # a traceback, ValueError: 29 is not a valid StatementType
)
def test_a_query_that_is_not_a_read_is_refused(tmp_path: Path, sql: str, kind: str) -> None:
    folder = _make(tmp_path / "s")
    result = invoke("results", str(folder), "--query", sql)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", _not_a_read(kind))
    with pytest.raises(StoreError, match="read-only"):
        query([folder], sql)
    assert _sql(folder, "SELECT seed, winner FROM battles") == [(1, "Cadians")]


@pytest.mark.parametrize(
    "sql",
    ["WITH w AS (SELECT seed FROM battles) SELECT * FROM w", "VALUES (1)", "FROM battles"],
)
def test_a_read_of_any_form_is_answered(tmp_path: Path, sql: str) -> None:
    folder = _make(tmp_path / "s")
    result = invoke("results", str(folder), "--query", sql, "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 1


def test_out_naming_a_file_is_a_usage_error_and_the_file_is_left_alone(tmp_path: Path) -> None:
    # A rules writer's review: --out naming the scenario itself, or the store's own
    # database file, failed with "[Errno 17] File exists" after checking the rest.
    scenario = tmp_path / "guard.toml"
    scenario.write_bytes(GUARD.read_bytes())
    for command in (
        ["sweep", str(scenario), "--vary", "charge_dice=2,3", "--runs", "2"],
        ["lab", str(scenario), "--rule", "charge_dice=3", "--runs", "2"],
    ):
        result = invoke(*command, "--out", str(scenario))
        line = f"error: --out: {scenario} is a file; give the folder to keep the results in\n"
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", line)
        assert scenario.read_bytes() == GUARD.read_bytes()


def test_a_failed_run_keeps_a_new_store_that_holds_battles_it_did_not_write(
    tmp_path: Path,
) -> None:
    # A review: a store another run made and filled between this run's look and its
    # open must not be removed with this run's failure. Here a battle this run did not
    # write (another connection's, put in directly) keeps the new store.
    folder = tmp_path / "new"
    with pytest.raises(HammerlabError), ResultStore(folder) as store:
        store.db.execute("INSERT INTO battles VALUES ('h', '{}', 1, 'v', 'draw')")
        raise HammerlabError("a battle failed")
    assert _sql(folder, "SELECT count(*) FROM battles") == [(1,)]
    with pytest.raises(HammerlabError), ResultStore(tmp_path / "empty"):
        raise HammerlabError("a battle failed")
    assert not (tmp_path / "empty").exists()  # nothing in it: removed, as before


# A hostile-input review (session 14): a store damaged after it was written (a block
# of its file overwritten, a JSON cell edited by hand) opens, and then failed with a
# traceback wherever it was read, and a merge of one left a half-written target.

HEADER = 3 * 4096
"""The bytes before a DuckDB file's first block (its three header blocks)."""


def _zero_block_of(folder: Path, table: str) -> None:
    """Overwrite with zeros the block of the store's file that holds ``table``'s rows
    (DuckDB's ``pragma_storage_info`` says which): the store still opens, and the
    block's checksum fails when the table is read."""
    path = folder / FILE
    with duckdb.connect(str(path)) as db:
        size = db.execute("SELECT block_size FROM pragma_database_size()").fetchall()[0][0]
        (block,) = db.execute(
            f"SELECT DISTINCT block_id FROM pragma_storage_info('{table}') WHERE block_id >= 0"
        ).fetchall()[0]
    with path.open("r+b") as file:
        file.seek(HEADER + block * size)
        file.write(b"\0" * size)


def _rows(folder: Path) -> dict[str, list[tuple[Any, ...]]]:
    return {table: _sql(folder, f"FROM {table} ORDER BY ALL") for table in TABLES}


@pytest.mark.parametrize("table", ["battles", "units"])
def test_a_damaged_store_is_one_error_line_wherever_it_is_read(tmp_path: Path, table: str) -> None:
    good = _make(tmp_path / "good")
    damaged = _make(tmp_path / "damaged")
    _zero_block_of(damaged, table)
    before = (damaged / FILE).read_bytes()
    start = f"error: {damaged}: cannot read the results store: "
    for command in (
        ["results", str(damaged)],
        ["results", str(good), str(damaged)],  # the damaged one of two is named
        ["results", str(damaged), "--query", f"SELECT count(hash(t)) FROM {table} t"],
        [*SWEEP, "--out", str(damaged), "--resume"],
    ):
        if command[0] == "sweep" and table != "battles":
            continue  # --resume reads the battles only
        result = invoke(*command)
        assert (result.exit_code, result.stdout) == (1, ""), command
        assert result.stderr.startswith(start), (command, result.stderr)
        assert len(result.stderr.splitlines()) == 1, result.stderr
    assert (damaged / FILE).read_bytes() == before  # --resume wrote nothing
    assert sorted(p.name for p in damaged.iterdir()) == [FILE]


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            "UPDATE scenarios SET scenario = '{bad'",
            "table scenarios: column scenario holds '{bad', not a JSON object",
        ),
        (
            "UPDATE scenarios SET players = NULL",
            "table scenarios: column players holds None, not a JSON array",
        ),
        (
            "UPDATE battles SET params = '[2]'",
            "table battles: column params holds '[2]', not a JSON object",
        ),
    ],
)
def test_a_store_with_a_malformed_json_cell_is_one_error_line(
    tmp_path: Path, edit: str, problem: str
) -> None:
    folder = _make(tmp_path / "s")
    _sql(folder, edit)
    line = f"error: {folder}: cannot read the results store: {problem}\n"
    for command in (
        ["results", str(folder)],
        ["results", str(folder), "--merge-into", str(tmp_path / "m")],
    ):
        result = invoke(*command)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", line)
    assert not (tmp_path / "m").exists()


def test_merging_a_damaged_store_writes_nothing(tmp_path: Path) -> None:
    # The review's case: the damage lay past what the merge read first, and the
    # target was left with part of the rows after a traceback.
    good = tmp_path / "good"
    _store(good, {5: "draw"})
    damaged = _make(tmp_path / "damaged")
    _zero_block_of(damaged, "units")
    line = f"error: {damaged}: cannot read the results store: "
    new = tmp_path / "new" / "merged"
    result = invoke("results", str(good), str(damaged), "--merge-into", str(new))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(line) and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "new").exists()
    existing = _make(tmp_path / "existing")
    before = _rows(existing)
    result = invoke("results", str(good), str(damaged), "--merge-into", str(existing))
    assert result.exit_code == 1 and result.stderr.startswith(line)
    assert _rows(existing) == before


def test_a_merge_that_fails_midway_takes_back_what_it_copied(tmp_path: Path) -> None:
    # A target whose models_left refuses every row (a constraint the store's own
    # schema does not have): the battles are copied before the models left fail.
    source = tmp_path / "source"
    _store(source, {2: "draw", 3: "Cadians"})
    target = _make(tmp_path / "target")
    _sql(
        target,
        "CREATE TABLE kept AS FROM models_left; DROP TABLE models_left; "
        "CREATE TABLE models_left (scenario_hash VARCHAR, params VARCHAR, seed BIGINT, "
        "engine_version VARCHAR, unit VARCHAR, models_left INTEGER CHECK (seed < 2), "
        "PRIMARY KEY (scenario_hash, params, seed, engine_version, unit)); "
        "INSERT INTO models_left FROM kept; DROP TABLE kept",
    )
    before = _rows(target)
    result = invoke("results", str(source), "--merge-into", str(target))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(
        f"error: {target}: the merge failed, and nothing was written: Constraint Error"
    )
    assert len(result.stderr.splitlines()) == 1
    assert _rows(target) == before
    with pytest.raises(StoreError):
        merge([source], target)
    assert _rows(target) == before


class _CtrlCAfterTheFirst(list[str]):
    """The store's tables, a Ctrl-C (SIGINT) arriving once the first was copied."""

    def __iter__(self) -> Iterator[str]:
        for number, table in enumerate(list.__iter__(self)):
            if number == 1:
                signal.raise_signal(signal.SIGINT)
            yield table


def test_a_ctrl_c_during_a_merge_writes_nothing_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, the merge's new target was left as an empty store (read later as a
    # store of no battle), and the Ctrl-C came out of DuckDB as a traceback. The
    # Ctrl-C is held until the statement under way ends, then everything is rolled
    # back: a target the merge made is removed, one that was there keeps its rows.
    source = tmp_path / "source"
    _store(source, {2: "draw", 3: "Cadians"})
    copy = store_module._copy

    def copy_with_a_ctrl_c(*args: Any) -> None:
        monkeypatch.setattr(store_module, "TABLES", _CtrlCAfterTheFirst(TABLES))
        try:
            copy(*args)
        finally:
            monkeypatch.setattr(store_module, "TABLES", TABLES)

    monkeypatch.setattr(store_module, "_copy", copy_with_a_ctrl_c)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        new = tmp_path / "new" / "merged"
        result = invoke("results", str(source), "--merge-into", str(new))
        assert (result.exit_code, result.stdout) == (130, "")
        assert result.stderr == f"{new}: interrupted: the merge wrote nothing\n"
        assert not (tmp_path / "new").exists()
        existing = _make(tmp_path / "existing")
        rows = _rows(existing)
        result = invoke("results", str(source), "--merge-into", str(existing))
        assert result.exit_code == 130
        assert _rows(existing) == rows
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("sql", ["", " ", ";", "-- x", "/* x */ ;\n"])
def test_a_query_with_no_statement_is_a_usage_error(tmp_path: Path, sql: str) -> None:
    folder = _make(tmp_path / "s")
    result = invoke("results", str(folder), "--query", sql)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "error: --query: no SQL statement to run (it is empty, or only comments and ';')\n",
    )
    assert query([folder], sql) == ([], [])


def test_a_query_gives_a_bounded_number_of_rows_with_duckdb_s_memory_capped(
    tmp_path: Path,
) -> None:
    folder = _make(tmp_path / "s")
    sheet = tmp_path / "q.csv"
    many = f"SELECT range AS n FROM range({MAX_QUERY_ROWS + 5})"
    result = invoke("results", str(folder), "--query", many, "--json", "--csv", str(sheet))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"n": n} for n in range(MAX_QUERY_ROWS)]
    assert len(sheet.read_text().splitlines()) == MAX_QUERY_ROWS + 1  # and the header
    assert result.stderr == (
        f"--query: only the first {MAX_QUERY_ROWS} rows are shown (and written with --csv): "
        "the query gives more; count or group them in SQL, or read the store with DuckDB's "
        "own client\n"
    )
    exact = invoke("results", str(folder), "--query", f"FROM range({MAX_QUERY_ROWS})", "--json")
    assert (len(json.loads(exact.stdout)), exact.stderr) == (MAX_QUERY_ROWS, "")
    assert len(query([folder], "FROM range(1000000000000)", limit=3)[1]) == 3  # streamed
    with duckdb.connect() as db:
        db.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        capped = db.execute("SELECT current_setting('memory_limit')").fetchall()
    assert query([folder], "SELECT current_setting('memory_limit')")[1] == capped
    # DuckDB's progress bar, past two seconds, came on standard output (in --json).
    assert query([folder], "SELECT current_setting('enable_progress_bar')")[1] == [(False,)]
