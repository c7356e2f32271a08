"""Plug-in (a house rule): a horde is hard to cut down.

"Should a big mob shrug off what would fell a few?" While ``size`` or more of a
unit's models are alive, each of them has +1 Toughness (never above 10): the unit's
wounds are rolled at it, and so is Instant Death. The heuristic AI reads the same
Toughness, so it weighs shooting or charging such a unit with the bonus counted.

    hammerlab lab examples/matchups/boyz_vs_tactical.toml \\
        --plugin examples/rules/hardy_horde.py --rule hardy_horde
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.points import TOUGHNESS
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Model, Unit

SIZE = Parameter(
    "size",
    15,
    "Models alive a unit needs for the bonus",
    "House rule (not in the seeds)",
    minimum=2,
    maximum=100,
)


def _hardier(settings: RuleSettings) -> Callable[[Battle, Unit, Model, int], int]:
    size = settings.integer("hardy_horde.size")

    def hardier(battle: Battle, unit: Unit, model: Model, t: int) -> int:
        return min(10, t + 1) if len(unit.alive_models) >= size else t

    return hardier


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Give the models of a big enough unit +1 Toughness."""
    hooks.add(TOUGHNESS, _hardier(settings))


RULESET = "waffle"
RULES = (
    RuleOption(
        name="hardy_horde",
        summary="House rule: a unit of 15 or more models alive has +1 Toughness",
        quote="House rule (not in the seeds): a horde's Toughness; its size is a parameter.",
        parameters=(SIZE,),
        install=install,
    ),
)
