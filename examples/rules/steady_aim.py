"""Plug-in (a house rule): a steady aim.

"Should a unit that stands still shoot better?" A unit that has not moved this turn
re-rolls its To Hit rolls of 1 in the Shooting phase (its own shooting, and Return
Fire! in the enemy's, when its move is cleared). A die is re-rolled once: a weapon
that re-rolls every miss (twin-linked) gains nothing. The heuristic AI's estimates and
the log read the same re-roll (the log names it: ``re-roll 1s (Steady Aim)``).

    hammerlab lab examples/guard_suppress_terminators.toml \\
        --plugin examples/rules/steady_aim.py --rule steady_aim
"""

from __future__ import annotations

from hammerlab.editions.waffle.points import HIT_ONES_REROLLED
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

NAME = "Steady Aim"


def steady(battle: Battle, unit: Unit, foe: Unit, rule: str) -> str:
    """The rule re-rolling ``unit``'s 1s to hit: a rule that already does, else this
    one where the unit stands still in the Shooting phase."""
    if rule or battle.phase != "shooting" or unit.status.moved:
        return rule
    return NAME


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Re-roll the To Hit 1s of the units that have not moved."""
    hooks.add(HIT_ONES_REROLLED, steady)


RULESET = "waffle"
RULES = (
    RuleOption(
        name="steady_aim",
        summary="House rule: a unit that has not moved re-rolls To Hit rolls of 1 when shooting",
        quote="House rule (not in the seeds): a steady aim for units that stand still.",
        install=install,
    ),
)
