"""A Dask scheduler lost in the middle of a run is one line of error, and the store is
left as docs/scale.md promises of a run that fails: the battles it stored are taken
back, a store it made is removed (a rules writer's review, session 24, killed the
cluster of a sweep and a lab: a 110-line traceback, a point left 19/100 played, an
empty store left behind).

The loss is real: a cluster on 127.0.0.1 (TCP, workers in this process, so that it
starts in a fraction of a second) is closed as soon as the run has reported its first
battles, which it reports once they are stored (``sweep.play_seeds``); the run's
progress display is the one thing replaced, to close it at that moment rather than
after a guessed delay."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest

from cli_kit import one_line, run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCENARIO = str(EXAMPLES / "lab_charge_over_open_ground.toml")


@pytest.fixture
def closed_midway(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], str]]:
    """What arms a running cluster: once called (it gives the cluster's address), the
    cluster closes as soon as a command (``sweep``, ``lab``) has stored its first
    battles."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                           protocol="tcp://", host="127.0.0.1", dashboard_address=None)  # fmt: skip

    @contextmanager
    def progress(description: str, total: int | None, quiet: bool = False) -> Iterator[object]:
        def advance(steps: int) -> None:
            cluster.close()  # once closed, closing again does nothing

        yield advance

    def arm() -> str:
        for command in ("sweep_cmd", "lab_cmd"):
            monkeypatch.setattr(f"hammerlab.cli.{command}.progress", progress)
        return str(cluster.scheduler_address)

    try:
        yield arm
    finally:
        cluster.close()


def _lost(address: str) -> str:
    return (
        f"error: lost the Dask scheduler {address} during the run (FutureCancelledError: "
        "scheduler-connection-lost): the run stopped, and took back the battles it had "
        "stored (a store it made is removed); start the cluster again and run the command "
        "again"
    )


def _battles(store: Path) -> int:
    with duckdb.connect(str(store / "battles.duckdb"), read_only=True) as db:
        count = db.execute("SELECT count(*) FROM battles").fetchall()[0][0]
    assert isinstance(count, int)
    return count


def test_a_sweep_whose_scheduler_is_lost_removes_the_store_it_made(
    closed_midway: Callable[[], str], tmp_path: Path
) -> None:
    out = tmp_path / "made" / "runs"
    address = closed_midway()
    code, _, err = run("sweep", SCENARIO, "--vary", "charge_dice=2,3", "--runs", "20",
                       "--scheduler", address, "--out", str(out))  # fmt: skip
    assert one_line(code, err, 1) == _lost(address)
    assert not (tmp_path / "made").exists()  # the folders it made, too


def test_a_lab_whose_scheduler_is_lost_takes_back_its_battles_and_keeps_the_earlier_ones(
    closed_midway: Callable[[], str], tmp_path: Path
) -> None:
    out = tmp_path / "runs"
    lab = ("lab", SCENARIO, "--rule", "charge_dice=3", "--out", str(out))
    code, _, err = run(*lab, "--runs", "2")  # in this process: 2 seeds, 2 arms
    assert code == 0, err
    assert _battles(out) == 2 * 2
    address = closed_midway()
    code, _, err = run(*lab, "--runs", "20", "--seed", "50", "--scheduler", address)
    assert one_line(code, err, 1) == _lost(address)
    assert _battles(out) == 2 * 2  # what the earlier run stored, and nothing of this one
