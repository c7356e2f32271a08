"""A Dask cluster for the tests that compare its battles with a local run's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hammerlab.analysis.runners import DaskRunner


@contextmanager
def local_dask(workers: int = 2) -> Iterator[DaskRunner]:
    """A runner on a Dask cluster of ``workers`` one-thread workers in this process
    (loopback, no dashboard), closed with the block."""
    from distributed import LocalCluster  # imported when a test starts one: it is slow

    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        DaskRunner(cluster.scheduler_address) as dask,
    ):  # fmt: skip
        yield dask
