"""Speed of core11's exact odds, against a brute-force Monte Carlo run in the same process.

For each question the exact calculator (``hammerlab.editions.core11.odds``) is
timed, then a plain Monte Carlo that rolls every die of the same attacks
(through the same :class:`AttackProfile`) is timed for ``TRIALS`` trials. The
ratio says how many times faster the exact answer is; the largest difference
between the two distributions is printed as a sanity check. No asserts.

Run: ``.venv/bin/python benchmarks/bench_core11_odds.py``
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from hammerlab.editions.core11.dice_expr import DiceExpr
from hammerlab.editions.core11.odds import kill_odds
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import AttackProfile, Roll, Situation, attack_profile
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.datasheet import Weapon

TRIALS = 20_000
REPEATS = 20

QUESTIONS: list[tuple[str, Weapon, int, DefenceStats, int]] = [
    (
        "10 bolt rifles v 10 Boyz",
        Weapon("bolt rifle", {"Range": '24"', "A": "2", "BS": "3+", "S": "5", "AP": "-1",
                              "D": "1"}),
        10, DefenceStats(5, 5, 1), 10,
    ),
    (
        "3 lascannons v a tank",
        Weapon("lascannon", {"Range": '48"', "A": "1", "BS": "3+", "S": "12", "AP": "-3",
                             "D": "D6+1"}),
        3, DefenceStats(10, 3, 12), 1,
    ),
    (
        "gatling (sustained, devastating) v 5 W3",
        Weapon("gatling", {"Range": '24"', "A": "D6+3", "BS": "3+", "S": "6", "AP": "-1",
                           "D": "2"}, ("SUSTAINED HITS 2", "DEVASTATING WOUNDS")),
        2, DefenceStats(5, 3, 3), 5,
    ),
]  # fmt: skip


def _roll(expr: DiceExpr, rng: random.Random) -> int:
    return sum(rng.randint(1, expr.sides) for _ in range(expr.count)) + expr.bonus


def _monte_carlo(
    attack: AttackProfile, firing: int, wounds: int, models: int, rng: random.Random
) -> list[float]:
    """Roll every die of ``TRIALS`` volleys; the frequency of each number of kills."""
    counts = [0] * (models + 1)
    for _ in range(TRIALS):
        dead, left = 0, wounds
        shots = sum(_roll(attack.attacks, rng) + _roll(attack.extra_attacks, rng)
                    + sum(_roll(attack.blast, rng) for _ in range(attack.blast_blocks))
                    for _ in range(firing))  # fmt: skip
        for _ in range(shots):
            hit = Roll.SUCCESS if attack.auto_hit else attack.hit(rng.randint(1, 6))
            if hit is Roll.FAIL:
                continue
            rolls = 1
            if hit is Roll.CRITICAL and attack.sustained is not None:
                rolls += _roll(attack.sustained, rng)
            for _ in range(rolls):
                wound = attack.wound(rng.randint(1, 6))
                if attack.rerolls_wound(wound):
                    wound = attack.wound(rng.randint(1, 6))
                if wound is Roll.FAIL:
                    continue
                unsaveable = wound is Roll.CRITICAL and attack.devastating
                save = rng.randint(1, 6)
                if not unsaveable and save != 1 and save >= attack.save_need:
                    continue
                damage = _roll(attack.damage, rng) + _roll(attack.melta, rng)
                if dead < models and damage >= left:
                    dead, left = dead + 1, wounds
                elif dead < models:
                    left -= damage
        counts[dead] += 1
    return [c / TRIALS for c in counts]


def _seconds(task: Callable[..., object], args: tuple[object, ...], repeats: int) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        task(*args)
    return (time.perf_counter() - start) / repeats


def main() -> None:
    """Print one line per question."""
    rng = random.Random(1)
    print(f"{'question':42} {'exact ms':>9} {'MC ms':>9} {'ratio':>8} {'max |diff|':>10}")
    for title, weapon, firing, target, models in QUESTIONS:
        profile = read_weapon(weapon)
        situation = Situation(target_models=models)
        exact = kill_odds(profile, firing, target, models, situation)
        question = (profile, firing, target, models, situation)
        exact_s = _seconds(kill_odds.__wrapped__, question, REPEATS)  # computed, not remembered
        attack = attack_profile(profile, target, situation)
        start = time.perf_counter()
        sampled = _monte_carlo(attack, firing, target.wounds, models, rng)
        mc_s = time.perf_counter() - start
        diff = max(abs(a - b) for a, b in zip(exact.models_killed, sampled, strict=True))
        print(
            f"{title:42} {exact_s * 1e3:9.2f} {mc_s * 1e3:9.1f} {mc_s / exact_s:8.0f} {diff:10.4f}"
        )
    print(f"(Monte Carlo: {TRIALS} trials; exact: mean of {REPEATS} runs)")


if __name__ == "__main__":
    main()
