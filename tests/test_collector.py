"""The cycle collector runs less often while batches are played, and is put back after;
in the lab's worker processes, which play nothing but battles, it runs less often for good."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hammerlab.analysis.lab import Outcome
from hammerlab.analysis.runners import Batch, Runner
from hammerlab.engine.collector import (
    BATCH_THRESHOLD,
    fewer_collections,
    fewer_collections_for_good,
)
from hammerlab.io.scenario import load_scenario


@pytest.fixture(autouse=True)
def _thresholds_put_back() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_a_batch_raises_the_first_threshold_and_puts_all_three_back() -> None:
    gc.set_threshold(700, 11, 12)
    with fewer_collections():
        assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
        with fewer_collections():  # a batch inside a batch changes nothing more
            assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
        assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
    assert gc.get_threshold() == (700, 11, 12)


def test_thresholds_are_put_back_when_a_battle_fails() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("a plug-in's bug")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_collector_switched_off_or_set_higher_is_left_alone() -> None:
    for first in (0, 50_000):
        gc.set_threshold(first, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (first, 10, 10)
        assert gc.get_threshold() == (first, 10, 10)


def test_a_threshold_set_by_someone_else_meanwhile_is_kept() -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_collections():
        gc.set_threshold(1234, 10, 10)
    assert gc.get_threshold() == (1234, 10, 10)


def test_threads_playing_batches_at_once_leave_the_thresholds_as_they_found_them() -> None:
    gc.set_threshold(700, 10, 10)
    inside = threading.Barrier(2)
    seen: list[tuple[int, int, int]] = []

    def batch() -> None:
        with fewer_collections():
            inside.wait()  # both threads inside at once
            seen.append(gc.get_threshold())
            inside.wait()  # neither leaves before both have looked

    threads = [threading.Thread(target=batch) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [(BATCH_THRESHOLD, 10, 10)] * 2
    assert gc.get_threshold() == (700, 10, 10)


def test_for_good_raises_the_first_threshold_and_a_batch_inside_leaves_it_raised() -> None:
    gc.set_threshold(700, 11, 12)
    fewer_collections_for_good()
    assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
    with fewer_collections():
        assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)
    assert gc.get_threshold() == (BATCH_THRESHOLD, 11, 12)


def test_for_good_leaves_a_collector_switched_off_or_set_higher_alone() -> None:
    for first in (0, 50_000):
        gc.set_threshold(first, 10, 10)
        fewer_collections_for_good()
        assert gc.get_threshold() == (first, 10, 10)


def test_the_pool_s_workers_run_the_collector_less_often_and_this_process_does_not() -> None:
    gc.set_threshold(700, 10, 10)  # what a worker forked from here would inherit
    with Runner(2) as runner:
        pool = runner._pool  # the workers themselves are asked
        assert pool is not None
        assert pool.submit(gc.get_threshold).result() == (BATCH_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_batches_played_in_this_process_keep_the_threshold_raised_between_them() -> None:
    scenario_file = Path(__file__).parents[1] / "examples" / "guard_suppress_terminators.toml"
    scenario = load_scenario(scenario_file)
    batches = [Batch(scenario, str(scenario_file), {}, (seed,)) for seed in (1, 2)]
    gc.set_threshold(700, 10, 10)
    between: list[tuple[int, int, int]] = []

    def done(index: int, outcomes: list[Outcome]) -> None:
        between.append(gc.get_threshold())

    with Runner(1) as runner:
        runner.run(batches, done)
    assert between == [(BATCH_THRESHOLD, 10, 10)] * 2
    assert gc.get_threshold() == (700, 10, 10)
