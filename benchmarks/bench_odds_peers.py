"""The exact odds call against its peers, on the same question in the same run.

Issue 14: "60 attacks into 10 two-wound models <= 0.3 ms per call, and `make
bench` shows the ratio to warhammer-stats and icepool". The question: 60
attacks, BS 3+, S4 AP0 D1, into 10 models of T4 Sv 4+ W2. hammerlab answers
with core11's ``kill_odds`` (whose casualty step is compiled:
``editions/casualty_kernel.py``); icepool with the per-attack die summed 60
times and mapped to models destroyed (damage 1, so two unsaved wounds per
model, at most 10); warhammer-stats with its ``Attack(...).run()`` kill
distribution (it takes no model count, so it answers a slightly larger
question: kills uncapped). Each figure is the median CPU time of ``REPEATS``
calls; a peer not installed is said so. The largest difference from icepool's
exact answer is printed as a check.

Run: ``.venv/bin/python benchmarks/bench_odds_peers.py``
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from hammerlab.editions.core11.odds import kill_odds
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import Situation
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.datasheet import Weapon

ATTACKS = 60
MODELS = 10
REPEATS = 25
TARGET_MS = 0.3


def _ms(task: Callable[[], object], repeats: int = REPEATS) -> float:
    """Median CPU milliseconds of one call (warmed up once)."""
    task()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        task()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1e3


def hammerlab_odds() -> list[float]:
    """Models destroyed, by number, from hammerlab's exact odds."""
    weapon = read_weapon(
        Weapon("bolt rifle", {"Range": '24"', "A": "1", "BS": "3+", "S": "4", "AP": "0", "D": "1"})
    )
    # kill_odds remembers its answers: time the computation itself, not a lookup
    odds = kill_odds.__wrapped__(weapon, ATTACKS, DefenceStats(4, 4, 2), MODELS, Situation(MODELS))
    return list(odds.models_killed)


def icepool_odds() -> list[float]:
    """The same from icepool (hit 3+, wound 4+, save 4+ fails on 1-3)."""
    import icepool

    def one(hit: int, wound: int, save: int) -> int:
        return int(hit >= 3 and wound >= 4 and save <= 3)

    unsaved = icepool.map(one, icepool.d6, icepool.d6, icepool.d6)
    killed = (ATTACKS @ unsaved).map(lambda n: min(MODELS, n // 2))
    return [float(killed.probability(k)) for k in range(MODELS + 1)]


def warhammer_stats_odds() -> Any:
    """warhammer-stats' kill distribution (uncapped)."""
    from warhammer_stats import Attack, PMFCollection, Target
    from warhammer_stats import Weapon as WsWeapon

    weapon = WsWeapon(bs=3, shots=PMFCollection.static(ATTACKS), strength=4, ap=0,
                      damage=PMFCollection.static(1), name="bolt rifle")  # fmt: skip
    target = Target(toughness=4, save=4, invuln=7, fnp=7, wounds=2, name="W2 model")
    return Attack(weapon, target).run().kills_dist


def main() -> None:
    """Print hammerlab's time, each peer's, and the ratios."""
    ours = _ms(hammerlab_odds)
    print(f"question: {ATTACKS} attacks (BS3+ S4 AP0 D1) into {MODELS} T4 Sv4+ W2 models")
    verdict = "meets" if ours <= TARGET_MS else "misses"
    print(f"hammerlab kill_odds   {ours:8.3f} ms CPU (target <= {TARGET_MS} ms: {verdict})")
    for name, task in (("icepool", icepool_odds), ("warhammer-stats", warhammer_stats_odds)):
        try:
            theirs = _ms(task, 5)
        except ImportError:
            print(f"{name:21} not installed")
            continue
        print(f"{name:21} {theirs:8.3f} ms CPU  ({theirs / ours:5.1f}x hammerlab's time)")
    try:
        diff = max(abs(a - b) for a, b in zip(hammerlab_odds(), icepool_odds(), strict=True))
        print(f"largest difference from icepool's exact answer: {diff:.2e}")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
