"""Where battles are played: in this process, a local process pool, or a Dask cluster.

A :class:`Batch` is the unit of work (one scenario, one set of rule settings,
some seeds); a runner plays batches and hands each one's outcomes back, with
its index, as it finishes. A battle's outcome depends on its scenario,
settings and seed alone, so every runner gives the same outcomes, battle for
battle, whatever the number of workers or the order batches finish in.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import shlex
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from hammerlab.analysis.battles import PreparedBattle
from hammerlab.analysis.engine_version import ENGINE_VERSION
from hammerlab.analysis.lab import Outcome, Settings, play_once, unplayed
from hammerlab.editions.plugins import PluginFile, load_plugin_file
from hammerlab.engine.collector import fewer_collections, fewer_collections_for_good
from hammerlab.errors import BattleFailedError, HammerlabError
from hammerlab.io.scenario import Scenario

CHUNKS_PER_SLOT = 8
"""Work is cut into about this many batches per worker, so that progress is
reported as they finish and a slow batch does not hold the others up."""

MAX_BATCH = 25
"""Most seeds in one batch: a single process still reports progress often."""


@dataclass(frozen=True)
class Batch:
    """Seeds to play with one scenario and one set of rule settings."""

    scenario: Scenario
    source: str
    settings: Settings
    seeds: tuple[int, ...]
    plugins: tuple[PluginFile, ...] = ()
    """The plug-in files to load, as the machine that made the batch loaded them
    (their hashes: a worker must load the same bytes)."""
    ai: str = "heuristic"
    """What plays both sides (:func:`~hammerlab.analysis.lab.play_once`)."""
    dice: str = "single"
    """The dice mode (:func:`~hammerlab.engine.dice.dice_for`)."""
    engine: str = ENGINE_VERSION
    """The engine that made the batch (the package's: the plug-ins are checked by
    their hashes), which must be the one that plays it."""
    point: tuple[tuple[str, str], ...] = ()
    """The grid point (or lab arm) the seeds are played at, as ``--vary``/``--rule``
    write it: what a failed battle's error names (:func:`failed_battle`)."""


class EngineMismatchError(HammerlabError):
    """A worker runs other hammerlab code than the machine that hands it battles."""


class ClusterLostError(HammerlabError):
    """The Dask scheduler a run plays on went away (or its connection did) in the middle
    of the run: the run fails, as one whose battle raised does, so that a store takes
    back the battles it stored (:meth:`~hammerlab.analysis.store.ResultStore.__exit__`)."""


def play_batch(batch: Batch) -> list[Outcome]:
    """Play a batch's seeds in order (loading its plug-ins first, as a fresh worker must).

    A worker whose engine is not the batch's refuses it, and so does one whose copy
    of a plug-in file is not the bytes the batch was made with (another file at that
    path, or the file edited during the run): its battles would be stored under the
    wrong engine version (a Dask worker that joined a cluster with another install
    of hammerlab)."""
    if batch.engine != ENGINE_VERSION:
        raise EngineMismatchError(_mismatch(f"a worker runs engine {ENGINE_VERSION}", batch.engine))
    for plugin in batch.plugins:
        mine = load_plugin_file(Path(plugin.path))
        if mine.sha256 != plugin.sha256:
            raise EngineMismatchError(
                f"a worker loaded the plug-in {mine.label} from {plugin.path}, this run "
                f"needs {plugin.label}: every worker must load the same plug-in file, at "
                "the same path, unchanged during the run (docs/scale.md)"
            )
    outcomes = []
    template: PreparedBattle | None = None  # the batch's battle set up once (`unplayed`)
    with fewer_collections():
        for seed in batch.seeds:
            try:
                if template is None and batch.ai == "heuristic":
                    template = unplayed(
                        batch.scenario, batch.source, batch.settings, batch.dice, batch.plugins
                    )
                outcomes.append(
                    play_once(
                        batch.scenario,
                        batch.source,
                        batch.settings,
                        seed,
                        batch.ai,
                        batch.dice,
                        batch.plugins,
                        template,
                    )
                )
            except Exception as error:  # a plug-in's bug, most often: say which battle
                raise failed_battle(batch, seed, error) from error
    return outcomes


def failed_battle(batch: Batch, seed: int, error: Exception) -> BattleFailedError:
    """The error of a battle of ``batch`` that raised ``error``: one line naming the
    scenario file, the seed and the point (or arm), and, where ``hammerlab battle``
    plays the same battle (the heuristic AI, single dice, the file's own unit sizes),
    the command that replays it; with the traceback, whose last lines are where
    it failed (a plug-in's own code, often). It travels back from worker processes
    whole (it pickles)."""
    where = ", ".join(f"{k}={v}" for k, v in batch.point) or "the file's own rules"
    line = (
        f"{batch.source}: the battle of seed {seed} at {where} failed: "
        f"{type(error).__name__}: {error}"
    )
    if (
        batch.ai == "heuristic"
        and batch.dice == "single"
        and not any(key.startswith("units.") for key, _ in batch.point)
    ):
        flags = [f"--plugin {shlex.quote(p.path)}" for p in batch.plugins]
        flags += [f"--rule {shlex.quote(f'{k}={v}')}" for k, v in batch.point]
        line += (
            f"; replay it: hammerlab battle {shlex.quote(batch.source)} --seed {seed} "
            + " ".join(flags)
        ).rstrip()
    return BattleFailedError(line, traceback.format_exc())


class Terminated(KeyboardInterrupt):
    """A SIGTERM (``kill``, ``timeout``, a process manager, a cancelled CI job) received
    while a :class:`Runner` is open, raised in the main thread as a Ctrl-C raises
    :class:`KeyboardInterrupt`, so that the run stops as an interrupted one does (its
    line, its store kept) rather than die at once and leave its pool's workers behind,
    asleep forever (a rules writer's review, session 23). The exit status of a run it
    stops is 143, 128 + SIGTERM, as a shell reports a process SIGTERM ended."""

    signal_number = signal.SIGTERM


def _raise_terminated(number: int, frame: object) -> None:
    raise Terminated


def _start_worker() -> None:
    """A pool worker's start: SIGTERM ends it at once, whatever handler it inherited from
    the process that forked it (:meth:`Runner.__enter__`'s), and it runs the cycle
    collector less often for good (:func:`fewer_collections_for_good`)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    fewer_collections_for_good()


Done = Callable[[int, list[Outcome]], None]
"""Told a batch's index and its outcomes when it has been played."""


def batch_size(battles: int, slots: int) -> int:
    """Seeds per batch for ``battles`` battles on ``slots`` workers (at least 1)."""
    return max(1, min(MAX_BATCH, math.ceil(battles / (slots * CHUNKS_PER_SLOT))))


class Runner:
    """Plays batches here (``workers=1``) or in a pool of local processes.

    Use it as a context manager: the pool is started once and serves every
    round of a sequential run. Its workers play battles and nothing else, so they
    run the cycle collector less often for good
    (:func:`~hammerlab.engine.collector.fewer_collections_for_good`).
    """

    def __init__(self, workers: int = 1) -> None:
        self.slots = max(1, workers)
        self._pool: Executor | None = None
        self._sigterm: Any = None
        """SIGTERM's handler before :meth:`__enter__` installed :class:`Terminated`'s
        (``None``: none was installed, off the main thread)."""

    def __enter__(self) -> Runner:
        if threading.current_thread() is threading.main_thread():
            self._sigterm = signal.signal(signal.SIGTERM, _raise_terminated)
        if self.slots > 1:
            self._pool = ProcessPoolExecutor(max_workers=self.slots, initializer=_start_worker)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if self._pool is not None:
                if isinstance(error, Terminated):
                    # A Ctrl-C reaches the workers too (the terminal signals the whole
                    # foreground group); a SIGTERM only this process: end them, rather
                    # than wait for their batches. This process's only multiprocessing
                    # children are the pool's.
                    for worker in multiprocessing.active_children():
                        worker.terminate()
                self._pool.shutdown(cancel_futures=True)
                self._pool = None
        finally:
            if self._sigterm is not None:
                signal.signal(signal.SIGTERM, self._sigterm)
                self._sigterm = None

    def run(self, batches: Sequence[Batch], done: Done) -> None:
        """Play every batch; ``done`` is called in this process as each finishes."""
        if self._pool is None:
            # One block for the run: a block per batch alone would put the collector's
            # thresholds back between batches, and the next allocation would collect
            # all the batch made (as in a worker: fewer_collections_for_good).
            with fewer_collections():
                for index, batch in enumerate(batches):
                    done(index, play_batch(batch))
            return
        futures = {self._pool.submit(play_batch, b): i for i, b in enumerate(batches)}
        for future in as_completed(futures):
            done(futures[future], future.result())


class DaskRunner(Runner):
    """Plays batches on an existing Dask distributed cluster (its scheduler's address).

    The workers need hammerlab installed (the same version) and any plug-in
    file at the same path; see ``docs/scale.md``.
    """

    def __init__(self, address: str) -> None:
        super().__init__(1)
        self.address = address
        self._client: Any = None
        self._client_log = logging.getLogger("distributed.client")
        self._client_level = logging.NOTSET
        """The client's log level before :meth:`__enter__` raised it."""

    def __enter__(self) -> DaskRunner:
        from distributed import Client

        # What the client logs on losing its scheduler (a traceback of its attempts to
        # reconnect) is said in one line instead (:class:`ClusterLostError`).
        self._client_level = self._client_log.level
        self._client_log.setLevel(logging.CRITICAL)
        try:
            self._client = Client(self.address, timeout="10s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as error:
            self._client_log.setLevel(self._client_level)
            raise HammerlabError(
                f"cannot reach the Dask scheduler {self.address}: {error}"
            ) from None
        self.slots = max(1, sum(self._client.nthreads().values()))
        others = {
            worker: engine
            for worker, engine in self._client.run(_engine_version).items()
            if engine != ENGINE_VERSION
        }
        if others:
            self.__exit__(None, None, None)
            worker, engine = min(others.items())
            more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
            raise EngineMismatchError(
                _mismatch(f"Dask worker {worker}{more} runs engine {engine}", ENGINE_VERSION)
            )
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if self._client is not None:
                self._client.close()
                self._client = None
        finally:
            self._client_log.setLevel(self._client_level)

    def run(self, batches: Sequence[Batch], done: Done) -> None:
        """Submit every batch to the cluster; ``done`` is called here as each finishes.
        A scheduler lost meanwhile is a :class:`ClusterLostError` naming it."""
        for index, outcomes in self._played(batches):
            done(index, outcomes)

    def _played(self, batches: Sequence[Batch]) -> Iterator[tuple[int, list[Outcome]]]:
        """Each batch's index and outcomes as the cluster plays it. What the client
        raises once the scheduler is gone (the futures cancelled, "scheduler-connection-
        lost"; a closed connection, an ``OSError``; a time-out) is a
        :class:`ClusterLostError`; what ``done`` raises (a store's write) is not caught
        here. A batch's own failure comes back as it was raised on the worker."""
        from distributed import as_completed as finished

        try:
            futures = self._client.map(play_batch, list(batches), pure=False)
            index = {future.key: i for i, future in enumerate(futures)}
            for future in finished(futures):  # type: ignore[no-untyped-call]
                yield index[future.key], future.result()
        except (CancelledError, OSError, TimeoutError) as error:
            reason = getattr(error, "reason", None) or _first_line(error)
            raise ClusterLostError(
                f"lost the Dask scheduler {self.address} during the run "
                f"({type(error).__name__}: {reason}): the run stopped, and took back the "
                "battles it had stored (a store it made is removed); start the cluster "
                "again and run the command again"
            ) from None


def _first_line(error: BaseException) -> str:
    """The first line of what ``error`` says (its type's name where it says nothing)."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _engine_version() -> str:
    """The engine of the process that runs this (asked of every Dask worker)."""
    return ENGINE_VERSION


def _mismatch(found: str, wanted: str) -> str:
    return (
        f"{found}, this run needs {wanted}: install the same hammerlab commit on the "
        "workers as here (docs/scale.md), so that every battle is played and stored "
        "by one engine"
    )
