"""Shooting attacks per CPU second of whole battles, beside same-run references.

Issue 14's engine targets: >= 25,000 shooting attacks per second per core in
whole Waffle battles, >= 10,000 in core11. An attack is one shot the log
reports (Waffle ``shots``, core11 ``attacks``), counted over whole battles
played by the AI on both sides, decisions included. CPU time
(``time.process_time``), not wall clock: the machine is shared. Each figure is
the median of at least ``REPEATS`` repetitions (as many as fill ``SPAN`` seconds
of CPU: a repetition of the core11 battles takes some 25 ms, whose single readings
move by a tenth), printed beside a reference measured in
the same run: a numpy simulation of plain volleys (hit, wound and save rolls of
10^6 shots, the floor a dice-only engine could reach) and the same battles with the AI's answers
replayed (each decision's recorded answer given ahead, ``Battle.answers``: the same
battles, resolved without the AI's thinking), which says how much of a battle's time is
the rules engine's and how much the AI's. Each battle's setup
(``prepare``) is timed with it; each scenario file is read once, before the
clock, as a lab run or a sweep reads it once for all its battles (until the
seventeenth session it was read again for every six battles: about 5% of the
core11 figure).

Run: ``.venv/bin/python benchmarks/bench_throughput.py``
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import NamedTuple

import numpy as np

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.engine.battle import DecisionMade
from hammerlab.engine.collector import fewer_collections
from hammerlab.engine.events import Event
from hammerlab.engine.transpositions import forget_all
from hammerlab.io.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]
WAFFLE = ("whole_game_three_turns.toml", "guard_suppress_terminators.toml")
CORE11 = ("core11_whole_turn.toml", "core11_normal_shooting.toml")
SEEDS = 6
REPEATS = 3
SPAN = 2.0
VOLLEY_SHOTS = 1_000_000


def cpu(task: Callable[[], int]) -> tuple[float, int]:
    """CPU seconds ``task`` took, and what it returned."""
    start = time.process_time()
    result = task()
    return time.process_time() - start, result


@cache
def loaded(name: str) -> Scenario:
    """The example scenario ``name``, read and checked once: a lab run or a sweep loads
    its file once for all its battles, so the battles timed here do not load it."""
    return load_scenario(ROOT / "examples" / name)


Answers = dict[tuple[str, int], list[tuple[str, str]]]
"""Each battle's decisions, by scenario and seed: (decision, answer) in the order made."""


class Played(NamedTuple):
    """Shooting attacks made in a repetition's battles, and every battle's decisions."""

    attacks: int
    answers: Answers


def battles(names: tuple[str, ...], replayed: Answers | None = None) -> Played:
    """Play every scenario for ``SEEDS`` seeds; the shooting attacks they made. The
    tables of answers by position (:mod:`engine.transpositions`) start empty, so
    each repetition finds again only what its own battles met; the battles are
    played in one block of :func:`~hammerlab.engine.collector.fewer_collections`,
    as the lab's runners play a batch (the collector's work still inside the clock).
    With ``replayed``, each battle's decisions are answered from it, not by the AI."""
    forget_all()
    total = 0
    answers: Answers = {}
    with fewer_collections():
        for name in names:
            path = ROOT / "examples" / name
            scenario = loaded(name)
            for seed in range(1, SEEDS + 1):
                ready = prepare(scenario, str(path), seed)
                shots: list[int] = []
                made = answers[(name, seed)] = []

                def count(
                    event: Event, shots: list[int] = shots, made: list[tuple[str, str]] = made
                ) -> None:
                    if event.kind == "shots":
                        shots.append(int(getattr(event, "shots", getattr(event, "attacks", 0))))
                    elif isinstance(event, DecisionMade):
                        made.append((event.decision, event.answer))

                ready.battle.log.subscribe(count)
                if replayed is not None:
                    ready.battle.answers = list(replayed[(name, seed)])
                play(ready.battle, ready.ruleset, ready.plan)
                total += sum(shots)
    return Played(total, answers)


def attacks_of(names: tuple[str, ...], replayed: Answers | None = None) -> int:
    """The shooting attacks of :func:`battles`."""
    return battles(names, replayed).attacks


def numpy_volleys() -> int:
    """Hit (BS4: 3+), wound (S4 v T4: 4+) and save (3+) rolls of ``VOLLEY_SHOTS`` shots."""
    rng = np.random.default_rng(1)
    rolls = rng.integers(1, 7, size=(3, VOLLEY_SHOTS))
    unsaved = (rolls[0] >= 3) & (rolls[1] >= 4) & (rolls[2] < 3)
    return VOLLEY_SHOTS + 0 * int(unsaved.sum())


def rate(task: Callable[[], int]) -> tuple[float, int]:
    """Median attacks per CPU second of ``REPEATS`` runs or as many as fill ``SPAN``
    seconds of CPU (more), and the attacks of one run."""
    runs = [cpu(task)]
    while len(runs) < REPEATS or sum(s for s, _ in runs) < SPAN:
        runs.append(cpu(task))
    return statistics.median(n / s for s, n in runs), runs[0][1]


def main() -> None:
    """Print one line per edition and the reference."""
    for name in WAFFLE + CORE11:
        loaded(name)  # each scenario read once, before the clock (as a sweep reads it)
    battles(WAFFLE[:1])  # warm up: imports, compiled kernels, caches of tables
    floor, _ = rate(numpy_volleys)
    print(f"reference: numpy volleys {floor:14,.0f} shots/s (CPU)")
    for edition, names, target in (("waffle", WAFFLE, 25_000), ("core11", CORE11, 10_000)):
        per_second, attacks = rate(partial(attacks_of, names))
        print(
            f"{edition:6} whole battles {per_second:10,.0f} attacks/s (CPU; target {target:,}; "
            f"{attacks} attacks in {SEEDS} seeds of {', '.join(names)}; "
            f"numpy floor {floor / per_second:,.0f}x faster)"
        )
        recorded = battles(names).answers
        alone, again = rate(partial(attacks_of, names, recorded))
        if again != attacks:
            raise SystemExit(f"{edition}: the replayed battles made {again} attacks, not {attacks}")
        print(
            f"{edition:6} the engine alone {alone:8,.0f} attacks/s (the same battles, the AI's "
            f"answers replayed: the AI is {1 - per_second / alone:.0%} of a battle's CPU)"
        )


if __name__ == "__main__":
    main()
