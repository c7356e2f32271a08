"""Sweeps: a grid of rule settings and unit sizes, played across one or more scenarios.

``--vary KEY=V1,V2,...`` names one axis of the grid; the grid is every
combination of the axes' values. A key is what ``--rule`` takes (an option
``NAME`` with ``on``/``off``, ``NAME.PARAM``, a ruleset parameter like
``charge_dice``) or ``units.ID.size``, which overrides that unit's size in the
validated scenario (and is validated again, like the file's own ``size``).
Setting ``NAME.PARAM`` switches ``NAME`` on unless ``NAME`` is an axis too (a point
names it, and what it names counts: :func:`~hammerlab.engine.rules.resolve_settings`,
as for ``--rule``).

Every grid point plays the same seeds (``seed``, ``seed+1``, ...), so points
differ by their settings and not by their luck. With ``precision`` the seeds
come in deterministic rounds of :data:`PRECISION_ROUND` per point, and a point
stops once every interval it reports is narrower than ``precision`` (or at
``runs``): the decision depends on the outcomes alone, hence on the seeds, so
it is the same whatever the number of workers.

Points are told apart by the scenario file they were played on (its path and
hash), not by the scenario's ``name``: two files may share a name and differ in
their ``[rules]`` (:class:`ScenarioFile`).

The grid, its points and cases are :mod:`.sweep_grid`'s; what a point measured,
:mod:`.sweep_results`'; this module plays the cases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from hammerlab.analysis.lab import Outcome, Progress
from hammerlab.analysis.runners import Batch, Runner, batch_size
from hammerlab.analysis.sweep_grid import Case, SweepError
from hammerlab.analysis.sweep_results import (
    PointResult,
    axis_rules,
    seed_ranges,
    seeds_text,
    summarize,
)

if TYPE_CHECKING:
    from hammerlab.analysis.store import ResultStore


PRECISION_ROUND = 50
"""Seeds added to every unfinished point per round of a ``precision`` run."""


MAX_SEED = 2**63 - 1
"""The highest seed a sweep or a lab may play: the results store keeps seeds as
signed 64-bit integers (DuckDB's BIGINT). The dice take any integer."""


def seeds_past_store(seed: int, runs: int, runs_name: str, seed_name: str) -> str | None:
    """Why the seeds ``seed`` .. ``seed + runs - 1`` cannot all be stored (a results
    store keeps seeds up to :data:`MAX_SEED`), in the words of the caller's flags or
    fields (``--runs``, ``--seed``); ``None`` where they can. A run without a store is
    the same run as with one, so it takes the same seeds."""
    last = seed + runs - 1
    if last <= MAX_SEED:
        return None
    return (
        f"with {runs_name} {runs}, the seeds go up to {last}, past {MAX_SEED} (the most a "
        f"results store keeps); give {seed_name} {MAX_SEED - runs + 1} or less"
    )


def sweep(
    grid_cases: Sequence[Case],
    runs: int,
    first_seed: int,
    runner: Runner,
    precision: float | None = None,
    store: ResultStore | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> list[PointResult]:
    """Play every case with seeds ``first_seed``.. (up to ``runs`` each) and summarize.

    With a ``store``, every battle is written as it comes back; battles of these
    seeds already stored (by this engine, the cases' plug-ins included) are an error
    unless ``resume``, when they are read back instead of played. ``progress`` is
    told of every battle, played or read back.
    """
    played = stored_outcomes(grid_cases, store, resume, range(first_seed, first_seed + runs))
    step = runs if precision is None else min(runs, PRECISION_ROUND)
    target = [0] * len(grid_cases)
    results: list[PointResult | None] = [None] * len(grid_cases)
    unfinished = list(range(len(grid_cases)))
    while unfinished:
        wanted: dict[int, range] = {}
        for i in unfinished:
            wanted[i] = range(first_seed + target[i], first_seed + min(runs, target[i] + step))
            target[i] = min(runs, target[i] + step)
        play_seeds(grid_cases, wanted, played, runner, store, progress)
        for i in unfinished:
            case = grid_cases[i]
            seeds = range(first_seed, first_seed + target[i])
            results[i] = summarize(
                case.scenario.name, case.scenario_hash, case.point, case.units, case.players,
                [played[i][s] for s in seeds], seeds, case.engine_version, case.source,
                axis_rules(case), case.plugins,
            )  # fmt: skip
        unfinished = [
            i
            for i in unfinished
            if target[i] < runs and precision is not None and _widest(results[i]) >= precision
        ]
    return [r for r in results if r is not None]


def stored_outcomes(
    grid_cases: Sequence[Case], store: ResultStore | None, resume: bool, seeds: range
) -> list[dict[int, Outcome]]:
    """Each case's battles of ``seeds`` (those the run may play) that ``store`` holds
    from this engine (:attr:`Case.engine_version`), by seed. Any at all are an error
    unless ``resume``, an error that says how many, which seeds and at how many points;
    battles of other seeds or other engines do not count, and are not read."""
    if store is None:
        return [{} for _ in grid_cases]
    played = [store.outcomes(c, seeds) for c in grid_cases]
    held = [p for p in played if p]
    if held and not resume:
        raise SweepError(
            f"{store.folder} already holds {sum(len(p) for p in held)} of the battles this "
            f"run would play (seeds {seeds_text(seed_ranges(s for p in held for s in p))}, "
            f"at {len(held)} of {len(played)} points); give --resume to reuse them and play "
            "only the rest, or another --out"
        )
    return played


def play_seeds(
    grid_cases: Sequence[Case],
    wanted: Mapping[int, Sequence[int]],
    played: list[dict[int, Outcome]],
    runner: Runner,
    store: ResultStore | None = None,
    progress: Progress | None = None,
) -> None:
    """Play, for each case index in ``wanted``, the seeds ``played[index]`` lacks, on
    ``runner``, adding them to ``played`` and to ``store`` as batches come back;
    ``progress`` is told of every battle, played or already there."""
    missing: dict[int, list[int]] = {}
    for i, seeds in wanted.items():
        missing[i] = [s for s in seeds if s not in played[i]]
        if progress is not None and len(seeds) > len(missing[i]):
            progress(len(seeds) - len(missing[i]))
    size = batch_size(sum(len(m) for m in missing.values()), runner.slots)
    owners: list[int] = []
    batches: list[Batch] = []
    for i, seeds in missing.items():
        case = grid_cases[i]
        for start in range(0, len(seeds), size):
            owners.append(i)
            batches.append(case.batch(seeds[start : start + size]))

    def done(index: int, outcomes: list[Outcome]) -> None:
        case_index = owners[index]
        seeds_done = batches[index].seeds
        played[case_index].update(zip(seeds_done, outcomes, strict=True))
        if store is not None:
            store.add(grid_cases[case_index], seeds_done, outcomes)
        if progress is not None:
            progress(len(outcomes))

    runner.run(batches, done)


def _widest(result: PointResult | None) -> float:
    assert result is not None
    return result.widest
