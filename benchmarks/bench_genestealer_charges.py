"""How often the Genestealers charge the Guard gunline when a charge is possible (issue 9).

Plays ``examples/matchups/genestealers_vs_guard_gunline.toml`` with the
Waffle heuristic AI on both sides, seeds 1..N, and counts the games in which
a charge was possible for the Genestealers (some enemy unit was a legal
charge target, seed 004: in sight and within 12", and nothing barred their
charge, either when they chose their Shooting-phase action, so that a Run
would have thrown it away, or when asked for a charger in the Assault
phase) and the games in which they then declared one. The
issue's target: a charge declared in at least 80% of the games where one was
possible.

    .venv/bin/python benchmarks/bench_genestealer_charges.py [--runs 40]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.charge import charge_ban, charge_targets
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.io.scenario import load_scenario

SCENARIO = (
    Path(__file__).resolve().parents[1]
    / "examples"
    / "matchups"
    / "genestealers_vs_guard_gunline.toml"
)
UNIT = "genestealers"


class Watch:
    """Wraps a controller and notes whether the Genestealers could charge, and did."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.possible = False
        self.declared = False

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        index = self.inner.choose(battle, decision)
        if decision.kind == "action" and decision.context.unit == UNIT:
            unit = battle.units[UNIT]
            self.possible |= charge_ban(battle, unit) is None and bool(charge_targets(battle, unit))
        if decision.kind != "charger":
            return index
        units = [c.value for c in decision.choices]
        mine = next((u for u in units if u is not None and u.id == UNIT), None)
        if mine is not None and charge_targets(battle, mine):
            self.possible = True
            self.declared |= units[index] is mine
        return index


def main() -> None:
    """Print the games with a possible charge, those with a charge declared, and the rate."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    scenario = load_scenario(SCENARIO)
    possible = declared = 0
    for seed in range(1, args.runs + 1):
        ready = prepare(scenario, str(SCENARIO), seed, {})
        battle = ready.battle
        player = battle.units[UNIT].player
        watch = Watch(battle.controllers[player])
        battle.controllers[player] = watch
        play(battle, ready.ruleset, ready.plan)
        possible += watch.possible
        declared += watch.possible and watch.declared
    rate = declared / possible if possible else 0.0
    print(f"games: {args.runs}; charge possible: {possible}; declared: {declared}; rate {rate:.2f}")


if __name__ == "__main__":
    main()
