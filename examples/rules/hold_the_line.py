"""Plug-in (a house rule): steadier in cover.

"Should troops dug in be harder to break?" A unit with a model standing in
terrain that gives a cover save tests on its Leadership plus ``bonus`` (never
above 10): its Morale checks, Pinning tests and every other Leadership test.
The heuristic AI reads the same Leadership, so it weighs breaking such a unit
(Suppressive Fire, a charge's combat result) with the bonus counted.

    hammerlab lab examples/matchups/hormagaunts_vs_guard_cover.toml \\
        --plugin examples/rules/hold_the_line.py --rule hold_the_line
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.points import LEADERSHIP
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

BONUS = Parameter(
    "bonus",
    1,
    "Leadership added to a unit with a model in cover",
    "House rule (not in the seeds)",
    minimum=0,
    maximum=5,
)


def in_cover(battle: Battle, unit: Unit) -> bool:
    """Whether a model of ``unit`` stands in terrain that gives a cover save."""
    return any(
        area.cover_save is not None
        for model in unit.alive_models
        for area in battle.battlefield.areas_at(model.position)
    )


def _steadier(settings: RuleSettings) -> Callable[[Battle, Unit, int], int]:
    bonus = settings.integer("hold_the_line.bonus")

    def steadier(battle: Battle, unit: Unit, ld: int) -> int:
        return min(10, ld + bonus) if in_cover(battle, unit) else ld

    return steadier


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Add the bonus to the Leadership of units in cover."""
    hooks.add(LEADERSHIP, _steadier(settings))


RULESET = "waffle"
RULES = (
    RuleOption(
        name="hold_the_line",
        summary="House rule: a unit with a model in cover gets +1 Leadership",
        quote="House rule (not in the seeds): Leadership in cover is a parameter.",
        parameters=(BONUS,),
        install=install,
    ),
)
