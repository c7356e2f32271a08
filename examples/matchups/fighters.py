"""How many of a charged unit's models strike in the first round, against the estimate (docs/ai.md).

Plays each scenario with the heuristic AI on both sides, seeds 1..N. At every
charge declared (before the charge move) it reads off the table the models
of the target :func:`expected.charged_fighters` counts, with and without the
3" Pile In the fight sub-phase gives the models not yet engaged
(:data:`placement.PILE_IN`); then it counts the target's models that struck
blows in that Assault phase (``BlowsStruck``). It prints, for the charges
that reached, the mean error of each count (and its mean, the bias): over
all of them, and over those whose target strikes first, where no model of
it is slain before it strikes, so the models that struck are the models
that fought.

    .venv/bin/python examples/matchups/fighters.py SEEDS FILES...
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.combat import ENGAGED_SUPPORT
from hammerlab.editions.waffle.events import BlowsStruck, ChargeDeclared, ChargeRolled
from hammerlab.editions.waffle.expected import strikes_first
from hammerlab.editions.waffle.placement import PILE_IN
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event, PhaseChanged
from hammerlab.engine.geometry import gap_table
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import load_scenario


@dataclass
class Charge:
    """One charge declared: the target's counts, estimated and struck."""

    without: int
    with_pile_in: int
    target_first: bool
    struck: int = 0
    reached: bool = False


def fighting(defender: Unit, charger: Unit, pile_in: float) -> list[Model]:
    """The models of ``defender`` within the charge's reach of its front, as
    :func:`expected.charged_fighters` reads it, with ``pile_in`` inches more
    (``pile_in_head_to_head.py`` plays an AI that counts them)."""
    models = defender.alive_models
    gaps = [min(row) for row in gap_table(models, charger.alive_models)]
    reach = min(gaps) + ENGAGED_SUPPORT + pile_in
    return [m for m, g in zip(models, gaps, strict=True) if g <= reach + 2 * m.radius]


def charges(path: Path, seed: int) -> list[Charge]:
    """The charges that reached in one battle, each with its counts."""
    ready = prepare(load_scenario(path), str(path), seed)
    battle: Battle = ready.battle
    open_: dict[str, Charge] = {}
    done: list[Charge] = []

    def watch(event: Event) -> None:
        if isinstance(event, ChargeDeclared):
            # Looked up when declared: a unit arriving from reserve joins the battle late.
            by_label = {u.label: u for u in battle.units.values()}
            charger, target = by_label[event.unit], by_label[event.target]
            open_[target.label] = Charge(
                len(fighting(target, charger, 0.0)),
                len(fighting(target, charger, PILE_IN)),
                strikes_first(battle, target, charger, False),
            )
        elif isinstance(event, ChargeRolled) and event.target in open_:
            open_[event.target].reached = event.charge_range >= event.distance
        elif isinstance(event, BlowsStruck) and event.unit in open_:
            open_[event.unit].struck += event.models
        elif isinstance(event, PhaseChanged) and event.phase == "assault" and not event.begins:
            done.extend(c for c in open_.values() if c.reached)
            open_.clear()

    battle.log.subscribe(watch)
    play(battle, ready.ruleset, ready.plan)
    return done + [c for c in open_.values() if c.reached]


def report(name: str, chosen: list[Charge]) -> None:
    """Mean error and bias of both counts over ``chosen``."""
    if not chosen:
        print(f"{name}: no charges")
        return
    n = len(chosen)
    for label, count in (("without the Pile In", "without"), ("with it", "with_pile_in")):
        errors = [getattr(c, count) - c.struck for c in chosen]
        print(
            f"{name}, {n} charges, {label}: mean error {sum(map(abs, errors)) / n:.2f} models "
            f"(bias {sum(errors) / n:+.2f})"
        )


def main() -> None:
    """Play the scenarios and print the two counts' errors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    found = [c for f in args.files for s in range(1, args.seeds + 1) for c in charges(f, s)]
    report("all", found)
    report("target strikes first", [c for c in found if c.target_first])


if __name__ == "__main__":
    main()
