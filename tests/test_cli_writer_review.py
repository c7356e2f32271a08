"""A rules writer's review of the lab, sweeps, balance and results (session 23): what a
result says of what played it (the scenario file, its hash and ``[rules]``, the
plug-ins, the engine), a run stopped by SIGTERM, and a store another process holds.

Expected values are read from the files the tests write (a file's path, its
``[rules]``, a plug-in's name and the SHA-256 of its bytes), never from a run's output.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.analysis.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"
BOYZ = ROOT / "examples" / "lab_fiery_charge_boyz.toml"
BOYZ_NAME = "Fiery Charge: Ork Boyz charge a Tactical Squad"


def _said(text: str) -> str:
    """``text`` without white space: the console wraps long lines anywhere (compare
    :func:`_said` of both sides)."""
    return "".join(text.split())


# --- results tells two versions of one file apart, and heads them as sweep does ------


def test_results_tells_two_versions_of_one_file_apart(tmp_path: Path) -> None:
    scenario, store = tmp_path / "ed.toml", tmp_path / "st"
    scenario.write_text(BOYZ.read_text(encoding="utf-8"), encoding="utf-8")
    sweep = ["sweep", str(scenario), "--vary", "charge_dice=2", "--runs", "2", "--out", str(store)]
    code, first, err = run(*sweep, "--json")
    assert code == 0, err
    scenario.write_text(
        BOYZ.read_text(encoding="utf-8").replace("position = [36, 22]", "position = [36, 24]"),
        encoding="utf-8",
    )
    code, second, err = run(*sweep, "--json")
    assert code == 0, err
    hashes = [json.loads(doc)["scenarios"][0]["scenario_hash"] for doc in (first, second)]
    assert hashes[0] != hashes[1]

    code, out, err = run("results", str(store))
    assert code == 0, err
    said = _said(out)
    for hash_ in hashes:
        # the file header, as sweep prints it: path, name, hash and its own [rules]
        assert (
            _said(f"{scenario}: {BOYZ_NAME} (hash {hash_}); its rules: fall_back = false") in said
        )
        # each point's heading names the hash, the path being shared
        assert _said(f"{scenario} (hash {hash_}) ({BOYZ_NAME}) · charge_dice=2 · 2 battles") in said
    # the datasheets' notes, as sweep prints them (the Ork Boyz' Mob Rule), for each file
    assert said.count(_said("note: boyz (Ork Boyz): special rule not implemented: Mob Rule")) == 2

    code, out, err = run("results", str(store), "--json")
    assert code == 0, err
    files = json.loads(out)["scenarios"]
    assert sorted(f["scenario_hash"] for f in files) == sorted(hashes)
    assert all(f["source"] == str(scenario) for f in files)
    assert all(f["rules"] == {"fall_back": False} for f in files)
    assert all(any("Mob Rule" in w for w in f["warnings"]) for f in files)


# --- results names the plug-ins that played -----------------------------------------


def _plugin(path: Path) -> str:
    """A plug-in whose rule (named after the file: no two tests' plug-ins define one rule)
    does nothing; the first 12 hex digits of its bytes' SHA-256."""
    text = (
        "from hammerlab.engine.rules import RuleOption\n"
        f"RULESET = 'waffle'\nRULES = (RuleOption({path.stem!r}, 'nothing', 'House'),)\n"
    )
    path.write_text(text, encoding="utf-8")
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_results_names_the_plug_ins_a_stored_point_was_played_with(tmp_path: Path) -> None:
    plugin, store, sheet = tmp_path / "writer_house.py", tmp_path / "st", tmp_path / "r.csv"
    digest = _plugin(plugin)
    code, _, err = run("sweep", str(GUARD), "--plugin", str(plugin), "--vary",
                       "writer_house=on", "--runs", "2", "--out", str(store))  # fmt: skip
    assert code == 0, err
    code, out, err = run("results", str(store), "--json", "--csv", str(sheet))
    assert code == 0, err
    (point,) = json.loads(out)["points"]
    # The store keeps the file's name and hash (in the engine version), not its path.
    assert point["plugins"] == [{"path": None, "name": "writer_house.py", "hash": digest}]
    header, row, *_ = sheet.read_text(encoding="utf-8").splitlines()
    cells = dict(zip(header.split(","), row.split(","), strict=True))
    assert cells["plugins"] == f"writer_house.py@{digest}"


# --- balance says what every probe played with -----------------------------------------


def test_balance_names_the_rule_its_parameter_switches_on_and_what_played(
    tmp_path: Path,
) -> None:
    plugin = tmp_path / "writer_balance.py"
    digest = _plugin(plugin)
    question = ["balance", str(BOYZ), "--plugin", str(plugin), "--vary",
                "fiery_charge.lost_bonus_attacks=0..2", "--target", "win_rate=0.6",
                "--player", "Orks", "--runs", "10"]  # fmt: skip
    code, out, err = run(*question, "--json")
    assert code == 0, err
    answer = json.loads(out)
    # The file's [rules] leave Fiery Charge off (examples/lab_fiery_charge_boyz.toml).
    assert answer["switched_on"] == {"fiery_charge": "fiery_charge.lost_bonus_attacks"}
    assert answer["source"] == str(BOYZ) and answer["rules"] == {"fall_back": False}
    assert answer["plugins"] == [
        {"path": str(plugin.resolve()), "name": "writer_balance.py", "hash": digest}
    ]
    assert answer["engine_version"].endswith(f"+plugins:writer_balance.py@{digest}")
    assert any("Mob Rule" in w for w in answer["warnings"])
    code, out, err = run(*question)
    assert code == 0, err
    said = _said(out)
    assert (
        _said(
            "On at every probe, since a parameter of theirs is varied: fiery_charge "
            "(by fiery_charge.lost_bonus_attacks)."
        )
        in said
    )
    assert _said(f"Plug-ins: {plugin.resolve()} (hash {digest})") in said
    assert _said("its rules: fall_back = false") in said and "MobRule" in said
    assert _said(f"engine {answer['engine_version']}") in said


# --- the lab's report names the scenario file ----------------------------------------


def test_the_lab_report_names_the_file_its_hash_and_its_rules(tmp_path: Path) -> None:
    page = tmp_path / "lab.html"
    lab = ["lab", str(GUARD), "--rule", "charge_dice=3", "--runs", "2"]
    code, out, err = run(*lab, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["source"] == str(GUARD)
    assert report["file_rules"] == {"suppressive_fire": True}
    code, swept, err = run("sweep", str(GUARD), "--vary", "charge_dice=3", "--runs", "2", "--json")
    assert code == 0, err
    assert report["scenario_hash"] == json.loads(swept)["scenarios"][0]["scenario_hash"]
    expected = f"{GUARD} (hash {report['scenario_hash']}); its rules: suppressive_fire = true"
    code, out, err = run(*lab, "--report", str(page))
    assert code == 0, err
    assert _said(f"Scenario file: {expected}") in _said(out)
    assert f"<b>Scenario file:</b> {expected}" in page.read_text(encoding="utf-8")


# --- SIGTERM stops a run as Ctrl-C does, its workers with it ---------------------------


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """The commands a test starts, each in a session of its own; any of their processes
    still there at the end is killed (by its process group: the test's own)."""
    made: list[subprocess.Popen[str]] = []
    yield made
    for process in made:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _group_gone(group: int, within: float) -> bool:
    """Whether every process of ``group`` has ended within ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_sigterm_stops_a_sweep_with_workers_and_leaves_none_behind(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    store = tmp_path / "st"
    command = [sys.executable, "-c", "from hammerlab.cli.app import main; main()", "sweep",
               str(GUARD), "--vary", "charge_dice=2,3", "--runs", "400", "--workers", "2",
               "--out", str(store)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, start_new_session=True)  # fmt: skip
    started.append(process)
    deadline = time.monotonic() + 60
    while not (store / "battles.duckdb").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # the workers are playing
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)  # no worker holds standard error open
    # As after a Ctrl-C: the line saying what the store kept; 128 + SIGTERM.
    assert process.returncode == 143, err
    assert "interrupted: " in err and "battles of this run saved" in err, err
    assert "Traceback" not in err, err
    assert _group_gone(process.pid, 10), "a worker outlived the sweep"


# --- a store another process holds -------------------------------------------------------


def test_a_store_another_process_writes_is_said_so_not_called_damaged(tmp_path: Path) -> None:
    store = tmp_path / "st"
    with ResultStore(store):
        pass  # an empty store
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; db = duckdb.connect(sys.argv[1]); "
         "print('open', flush=True); sys.stdin.read()", str(store / "battles.duckdb")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        expected = (
            f"error: {store}: the store is being written by another process (PID {holder.pid}), "
            "a sweep or lab that holds it until it ends; wait for it, or copy the folder and "
            "read the copy"
        )
        code, _, err = run("results", str(store))
        assert one_line(code, err, 1) == expected
        code, _, err = run("sweep", str(GUARD), "--vary", "charge_dice=2", "--runs", "2",
                           "--out", str(store))  # fmt: skip
        assert one_line(code, err, 1) == expected
    finally:
        holder.communicate("")
