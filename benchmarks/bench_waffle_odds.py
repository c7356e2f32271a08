"""Speed of the Waffle Edition's exact odds, against a Monte Carlo of the real engine.

For each question the exact calculator (``hammerlab odds -r waffle``, library
form) is timed; then the same two library units are set up by a generated
scenario, lined up at a range (the target in a ruin when the question gives a
cover save), and ``attacks.fire_weapon`` is played ``RUNS`` times with seeded
dice, the target restored each time. The ratio says how many times faster the
exact answer is; the largest difference between the two distributions of
models killed is printed as a sanity check. No asserts.

Run: ``.venv/bin/python benchmarks/bench_waffle_odds.py``
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.odds import LibraryQuestion, OddsResult, calculator
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.odds import shooting_odds
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.engine.units import UnitStatus
from hammerlab.io.scenario import parse_scenario

RUNS = 2_000
REPEATS = 20


@dataclass(frozen=True)
class Setup:
    """One question and the table that asks it of the engine."""

    title: str
    question: LibraryQuestion
    distance: float
    """Inches between the two lines of models."""
    moved: bool = False


QUESTIONS = [
    Setup(
        "8 boltguns at half range v 10 Termagants",
        LibraryQuestion("Tactical Squad", "Boltgun", "Termagants",
                        situation=frozenset({"half-range"})),
        distance=10,
    ),
    Setup(
        "3 lascannons v a Captain (Instant Death, 4++)",
        LibraryQuestion("Heavy Weapons Squad", "Lascannon", "Space Marine Captain"),
        distance=30,
    ),
    Setup(
        "Carnifex devourer v 3 Ogryns (W3)",
        LibraryQuestion("Carnifex", "Devourer with brainleech worms", "Ogryns"),
        distance=12,
    ),
    Setup(
        "4 storm bolters, moved, v Tactical Squad in a 4+ ruin",
        LibraryQuestion("Terminator Squad", "Storm bolter", "Tactical Squad", cover=4,
                        situation=frozenset({"moved"})),
        distance=16,
        moved=True,
    ),
]  # fmt: skip

SCENARIO = """
name = "odds benchmark"
ruleset = "waffle"
[[players]]
name = "A"
edge = "south"
[[players]]
name = "B"
edge = "north"
[[units]]
id = "a"
player = "A"
unit = "{attacker}"
position = [36, 10]
formation = "line"
status = {{ moved = {moved} }}
[[units]]
id = "b"
player = "B"
unit = "{target}"
position = [36, {far}]
formation = "line"
{ruin}
"""

RUIN = """[[terrain]]
name = "ruin"
outline = [[4, {low}], [68, {low}], [68, {high}], [4, {high}]]
cover = {cover}
"""


def _engine(setup: Setup) -> list[float]:
    """The frequency of each number of models killed in ``RUNS`` engine volleys."""
    question, far = setup.question, 10 + setup.distance
    ruin = "" if question.cover is None else RUIN.format(low=far - 3, high=far + 3,
                                                         cover=question.cover)  # fmt: skip
    text = SCENARIO.format(attacker=question.attacker, target=question.target, far=far,
                           moved=str(setup.moved).lower(), ruin=ruin)  # fmt: skip
    battle = prepare(parse_scenario(text, "bench"), "bench", seed=1).battle
    shooters, target = battle.unit("a"), battle.unit("b")
    full = [m.wounds_left for m in target.models]
    counts = [0] * (len(target.models) + 1)
    for _ in range(RUNS):
        for model, wounds in zip(target.models, full, strict=True):
            model.wounds_left = wounds
        target.status = UnitStatus()
        result = fire_weapon(battle, shooters, target, question.weapon, FireOrders())
        counts[result.casualties[target.id]] += 1
        battle.log.events.clear()
    return [c / RUNS for c in counts]


def _exact(question: LibraryQuestion) -> tuple[OddsResult, float]:
    calc = calculator("waffle")
    calc.library(question)  # warm up: the first question reads the unit library
    start = time.perf_counter()
    for _ in range(REPEATS):
        shooting_odds.cache_clear()  # time the computation, not the remembered answer
        result = calc.library(question)
    return result, (time.perf_counter() - start) / REPEATS


def main() -> None:
    """Print one line per question."""
    print(f"{'question':54} {'exact ms':>9} {'engine ms':>10} {'ratio':>7} {'max |diff|':>10}")
    for setup in QUESTIONS:
        exact, exact_s = _exact(setup.question)
        start = time.perf_counter()
        sampled = _engine(setup)
        engine_s = time.perf_counter() - start
        diff = max(abs(a - b) for a, b in zip(exact.models_killed, sampled, strict=True))
        print(
            f"{setup.title:54} {exact_s * 1e3:9.2f} {engine_s * 1e3:10.1f} "
            f"{engine_s / exact_s:7.0f} {diff:10.4f}"
        )
    print(f"(engine: {RUNS} volleys of attacks.fire_weapon; exact: mean of {REPEATS} runs)")


if __name__ == "__main__":
    main()
