"""What a command writes never replaces what it reads, nor another of its outputs,
and ``serve`` refuses an address or folder it cannot use before it says it serves.

Each case came from a review that fed the commands bad paths: a scenario
overwritten by its own ``--save``, ``--log-json`` or ``--report``, a results store
overwritten by ``--csv``, a CSV lost under the report of the same name, and a
server that said it was serving and then failed."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import threading
from pathlib import Path

import pytest

from cli_kit import one_line, run

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    copy = tmp_path / "guard.toml"
    shutil.copy(GUARD, copy)
    return copy


@pytest.mark.parametrize("flag", ["--save", "--log-json"])
def test_a_battle_refuses_to_write_over_its_scenario(scenario: Path, flag: str) -> None:
    before = scenario.read_bytes()
    code, _, err = run("battle", str(scenario), flag, str(scenario), "--json")
    assert (
        one_line(code, err, 2)
        == f"error: {flag}: {scenario} is a file this run reads; give another"
    )
    assert scenario.read_bytes() == before


def test_a_link_to_the_scenario_is_the_scenario(scenario: Path) -> None:
    alias = scenario.parent / "alias.toml"
    alias.symlink_to(scenario)
    code, _, err = run("battle", str(scenario), "--save", str(alias), "--json")
    assert one_line(code, err, 2) == (
        f"error: --save: {alias} is a file this run reads ({scenario}); give another"
    )


def test_a_resumed_game_may_be_saved_over_itself(scenario: Path) -> None:
    saved = scenario.parent / "game.json"
    code, _, err = run(
        "battle", str(scenario), "--seed", "2", "--stop-after", "1", "--save", str(saved), "--json"
    )
    assert code == 0, err
    code, _, err = run("battle", "--resume", str(saved), "--save", str(saved), "--json")
    assert code == 0, err


def test_a_sweep_refuses_a_report_over_its_scenario_and_a_csv_under_its_report(
    scenario: Path, tmp_path: Path
) -> None:
    before = scenario.read_bytes()
    sweep = ["sweep", str(scenario), "--vary", "suppressive_fire=off,on", "--runs", "2"]
    code, _, err = run(*sweep, "--report", str(scenario))
    assert one_line(code, err, 2) == (
        f"error: --report: {scenario} is a file this run reads; give another"
    )
    assert scenario.read_bytes() == before
    same = tmp_path / "same"
    code, _, err = run(*sweep, "--report", str(same), "--csv", str(same))
    assert one_line(code, err, 2) == f"error: --csv: {same} is the --report file too; give another"
    assert not same.exists()


def test_results_refuse_a_csv_over_a_file_of_the_store(scenario: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    code, _, err = run(
        "sweep", str(scenario), "--vary", "suppressive_fire=off,on", "--runs", "2",
        "--out", str(store), "--json",
    )  # fmt: skip
    assert code == 0, err
    (database,) = [f for f in store.iterdir() if f.is_file()]
    before = database.read_bytes()
    code, _, err = run("results", str(store), "--csv", str(database))
    assert one_line(code, err, 2) == (
        f"error: --csv: {database} is a file this run reads; give another"
    )
    assert database.read_bytes() == before
    beside = store / "summary.csv"  # a new file in the store's folder is fine
    code, _, err = run("results", str(store), "--csv", str(beside))
    assert code == 0, err
    rows = beside.read_text().splitlines()  # one row a metric of each point
    assert rows[0].startswith("scenario,") and {"off", "on"} <= {r.split(",")[5] for r in rows[1:]}


def test_a_lab_refuses_a_plot_over_its_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "guard.png"  # a chart type: only the clash is wrong
    shutil.copy(GUARD, scenario)
    code, _, err = run("lab", str(scenario), "--rule", "suppressive_fire", "--plot", str(scenario))
    assert one_line(code, err, 2) == (
        f"error: --plot: {scenario} is a file this run reads; give another"
    )


def test_serve_refuses_a_scenario_folder_that_is_not_there(tmp_path: Path) -> None:
    code, out, err = run("serve", "--scenarios", str(tmp_path / "nowhere"))
    assert one_line(code, err, 2) == f"error: --scenarios: {tmp_path / 'nowhere'}: no such folder"
    assert "serving" not in out


def test_serve_refuses_a_port_taken_before_it_says_it_serves() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run("serve", "--scenarios", str(ROOT / "examples"), "--port", str(port))
    line = one_line(code, err, 2)
    assert line.startswith(f"error: --port: cannot listen on 127.0.0.1:{port}: ")
    assert "serving" not in out


def test_serve_refuses_a_host_that_is_no_address() -> None:
    code, out, err = run("serve", "--scenarios", str(ROOT / "examples"), "--host", "999.1.1.1")
    assert one_line(code, err, 2).startswith("error: --host: 999.1.1.1: ")
    assert "serving" not in out


def test_an_output_that_is_a_pipe_is_written_into_not_replaced(
    scenario: Path, tmp_path: Path
) -> None:
    # Renamed over, a named pipe (or /dev/stdout, or a device) would become a plain
    # file; it is written into, and stays a pipe.
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()), daemon=True)
    reader.start()
    code, _, err = run("battle", str(scenario), "--save", str(pipe), "--json")
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert json.loads(received[0])["format"] == "hammerlab-game/1"


def test_a_store_s_database_is_read_before_it_is_there(scenario: Path, tmp_path: Path) -> None:
    # The --out folder is there but the store is not yet: its database is still
    # what the run writes and reads, so a CSV may not take its name.
    store = tmp_path / "store"
    store.mkdir()
    code, _, err = run(
        "sweep", str(scenario), "--vary", "suppressive_fire=off,on", "--runs", "2",
        "--out", str(store), "--csv", str(store / "battles.duckdb"),
    )  # fmt: skip
    assert one_line(code, err, 2) == (
        f"error: --csv: {store / 'battles.duckdb'} is a file this run reads; give another"
    )


def test_a_csv_beside_the_store_may_be_written_again(scenario: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    sweep = ["sweep", str(scenario), "--vary", "suppressive_fire=off,on", "--runs", "2"]
    flags = ["--out", str(store), "--csv", str(store / "points.csv"), "--json"]
    assert run(*sweep, *flags)[0] == 0
    code, _, err = run(*sweep, *flags, "--resume")
    assert code == 0, err


def test_a_log_may_not_replace_the_game_resumed(scenario: Path) -> None:
    saved = scenario.parent / "game.json"
    code, _, err = run(
        "battle", str(scenario), "--seed", "2", "--stop-after", "1", "--save", str(saved), "--json"
    )
    assert code == 0, err
    before = saved.read_bytes()
    code, _, err = run("battle", "--resume", str(saved), "--log-json", str(saved), "--json")
    assert one_line(code, err, 2) == (
        f"error: --log-json: {saved} is a file this run reads; give another"
    )
    assert saved.read_bytes() == before


def test_two_outputs_into_one_device_are_fine(scenario: Path) -> None:
    code, _, err = run(
        "battle", str(scenario), "--save", "/dev/null", "--log-json", "/dev/null", "--json"
    )
    assert code == 0, err


def test_a_loop_of_links_is_one_line_outputs_or_not(tmp_path: Path) -> None:
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    for extra in ([], ["--save", str(tmp_path / "game.json")]):
        code, _, err = run("battle", str(loop), *extra)
        assert one_line(code, err, 1).startswith(f"error: {loop}: cannot read: ")


def test_no_output_replaces_a_battlescribe_file_the_scenario_reads(tmp_path: Path) -> None:
    catalogue = tmp_path / "Orks.cat"
    shutil.copy(ROOT / "tests" / "data" / "bsdata-7e" / "Orks - Codex.cat", catalogue)
    scenario = tmp_path / "boyz.toml"
    scenario.write_text(
        GUARD.read_text(encoding="utf-8")
        + '\n[[units]]\nid = "boyz"\nplayer = "Ultramarines"\nunit = "Boyz"\n'
        + 'source = "Orks.cat"\nposition = [20, 40]\n',
        encoding="utf-8",
    )
    before = catalogue.read_bytes()
    code, _, err = run("battle", str(scenario), "--save", str(catalogue), "--json")
    assert one_line(code, err, 2) == (
        f"error: --save: {catalogue} is a file this run reads; give another"
    )
    sweep = ["sweep", str(scenario), "--vary", "suppressive_fire=off,on", "--runs", "2"]
    code, _, err = run(*sweep, "--csv", str(catalogue))  # (--report must be named .html)
    assert one_line(code, err, 2).startswith(f"error: --csv: {catalogue} is a file")
    assert catalogue.read_bytes() == before
