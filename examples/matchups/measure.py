"""Measure the heuristic AI over the matchup scenarios (the numbers in docs/ai.md).

Plays each scenario ``--runs`` times (seeds 1..N) with the Waffle AI on both
sides and counts, per scenario: wins per player, models lost per player,
Runs declared by units that had a charge target in reach at the time (a
thrown-away charge), charges declared, Dive for Cover by units with no ranged
weapon, Fall Backs chosen when charged and models lost running off the table.

    .venv/bin/python examples/matchups/measure.py --runs 40 [--rule suppressive_fire] [FILES]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.editions.waffle.charge import charge_ban, charge_targets
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.events import ModelRemoved
from hammerlab.engine.rules import parse_rule_flag
from hammerlab.io.scenario import load_scenario

HERE = Path(__file__).resolve().parent


class Counting:
    """Wraps a controller and counts the choices docs/ai.md reports."""

    def __init__(self, inner: Controller, tally: Counter[str]) -> None:
        self.inner, self.tally = inner, tally

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        index = self.inner.choose(battle, decision)
        label = decision.labels()[index]
        kind = decision.kind
        unit = battle.units.get(decision.context.unit)
        if kind == "action" and unit is not None:
            could = charge_ban(battle, unit) is None and bool(charge_targets(battle, unit))
            self.tally["could charge (shooting phase)"] += could
            self.tally["ran with a charge target in reach"] += could and label == "run"
        elif kind == "charger" and label != "end charges":
            self.tally[f"charges declared {decision.player}"] += 1
        elif kind == "reaction" and unit is not None and not ranged_weapons(unit):
            self.tally["gunless unit shot at"] += 1
            self.tally["gunless unit dived for cover"] += label == "Dive for Cover"
        elif kind == "charge_reaction":
            self.tally["charged (reaction asked)"] += 1
            self.tally[f"fell back from a charge {decision.player}"] += label == "Fall Back"
        return index


def measure(path: Path, runs: int, rules: dict[str, Any]) -> Counter[str]:
    """Play ``path`` ``runs`` times and return the tally."""
    scenario = load_scenario(path)
    tally: Counter[str] = Counter()
    for seed in range(1, runs + 1):
        ready = prepare(scenario, str(path), seed, rules)
        battle = ready.battle
        for player, controller in list(battle.controllers.items()):
            battle.controllers[player] = Counting(controller, tally)
        play(battle, ready.ruleset, ready.plan)
        best = winner(victory_scores(battle, ready.plan.victory))
        tally[f"wins {best or 'draw'}"] += 1
        for unit in battle.units.values():
            tally[f"models lost {unit.player}"] += unit.starting_models - len(unit.alive_models)
        tally["models lost off the table"] += sum(
            1
            for e in battle.log.events
            if isinstance(e, ModelRemoved) and e.cause == "fell back off the table"
        )
    return tally


def main() -> None:
    """Print one block per scenario."""
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--rule", action="append", default=[])
    args = parser.parse_args()
    rules = dict(parse_rule_flag(r) for r in args.rule)
    for path in args.files or sorted(HERE.glob("*.toml")):
        tally = measure(path, args.runs, rules)
        print(f"== {path.name} ({args.runs} battles)")
        for key in sorted(tally):
            print(f"   {key:40s} {tally[key]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
