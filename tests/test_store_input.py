"""Bad input to the results store (session 12's fuzzing): a database that is not a
store is refused and left alone, a run's seeds must fit the store before anything is
played, a run that fails takes back the battles it stored, ``--query`` writes its
rows with ``--csv`` and reads the stores and no other file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner, Result

from hammerlab.analysis.lab import Outcome, play_once
from hammerlab.analysis.store import FILE, ResultStore, query
from hammerlab.analysis.sweep import MAX_SEED, cases, parse_axes
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
    for sql, path in (
        (f"COPY battles TO '{leak}'", leak),
        (f"ATTACH '{evil}' AS e; CREATE TABLE e.t AS SELECT 1", evil),
        (f"SELECT * FROM read_csv_auto('{secret}')", secret),
    ):
        result = invoke("results", str(first), str(second), "--query", sql)
        assert result.exit_code == 1
        assert result.stderr == (
            f'error: --query: Permission Error: Cannot access file "{path}" - file system '
            "operations are disabled by configuration (--query reads the stores and no other "
            "file, and writes none)\n"
        )
    assert not leak.exists() and not evil.exists()
    for sql in ("SET enable_external_access = true", "DELETE FROM s0.battles"):
        assert invoke("results", str(first), "--query", sql).exit_code == 1
    assert _sql(first, "SELECT seed FROM battles") == [(1,)]


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
