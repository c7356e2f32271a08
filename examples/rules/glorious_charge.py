"""Plug-in (a house rule): a bigger charge bonus.

The 6th/7th-edition charge gives +1 Attack (+2 with Rage). "What if charging
were worth more?" is a question a rules writer asks of an edition whose
shooting got stronger (Overwatch, Return Fire!, Final Shot). With this rule on
every charging unit's bonus is ``bonus`` Attacks (``rage_bonus`` with Rage)
instead of +1 (+2); what other rules change still counts (a Fiery Charge still
costs its Attack).

    hammerlab lab SCENARIO --plugin examples/rules/glorious_charge.py \\
        --rule glorious_charge
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.points import CHARGE_BONUS_ATTACKS
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

BONUS = Parameter(
    "bonus",
    2,
    "Bonus Attacks a charging unit's models get",
    "House rule; the 6th/7th-edition charge bonus is +1 Attack",
    minimum=0,
    maximum=5,
)
RAGE_BONUS = Parameter(
    "rage_bonus",
    3,
    "Bonus Attacks with Rage",
    "House rule; the 6th/7th-edition Rage charge bonus is +2 Attacks",
    minimum=0,
    maximum=6,
)


def _bonus(settings: RuleSettings) -> Callable[[Battle, Unit, int], int]:
    plain = settings.integer("glorious_charge.bonus")
    rage = settings.integer("glorious_charge.rage_bonus")

    def bonus(battle: Battle, unit: Unit, attacks: int) -> int:
        if unit.has_rule("Rage"):
            return attacks + rage - 2
        return attacks + plain - 1

    return bonus


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Raise the charge bonus by the difference from the 6th/7th-edition one."""
    hooks.add(CHARGE_BONUS_ATTACKS, _bonus(settings))


RULESET = "waffle"
RULES = (
    RuleOption(
        name="glorious_charge",
        summary="House rule: a charge is worth +2 Attacks (+3 with Rage)",
        quote="House rule (not in the seeds): the charge bonus is a parameter.",
        parameters=(BONUS, RAGE_BONUS),
        install=install,
    ),
)
