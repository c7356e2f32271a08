"""Plug-in: terrifying creatures force the units they charge to Fall Back.

Seed 004, Fall Back: "Units that are already fleeing must always declare
Falling Back as their charge reaction and certain terrifying creature may
force a unit to Fall Back instead of other options." The seed names the idea
but not which creatures: here a unit with the special rule ``Fear`` (or a
name given by the parameter ``rule_name``) is terrifying, and a charged unit
must Fall Back unless it is Fearless or its Leadership is at least
``brave_ld``.

    hammerlab battle SCENARIO --plugin examples/rules/terrifying_charge.py \\
        --rule terrifying_charge=on
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.points import CHARGE_REACTION_FORCED
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

RULE_NAME = Parameter(
    "rule_name",
    "Fear",
    "The special rule that makes a unit terrifying",
    'Seed 004: "certain terrifying creature may force a unit to Fall Back"',
)
BRAVE_LD = Parameter(
    "brave_ld",
    10,
    "Units with this Leadership or more stand their ground (11: nobody does)",
    "Seed 004 names no exception; Fearless units never fall back by choice (6th/7th edition)",
    minimum=2,
    maximum=11,
)


def _terrified(settings: RuleSettings) -> Callable[[Battle, Unit, Unit], str | None]:
    fear = settings.text("terrifying_charge.rule_name")
    brave = settings.integer("terrifying_charge.brave_ld")

    def forced(battle: Battle, charged: Unit, charger: Unit) -> str | None:
        if not charger.has_rule(fear) or charged.has_rule("Fearless"):
            return None
        leadership = max(stats_of(m.profile).ld for m in charged.alive_models)
        if leadership >= brave:
            return None
        return f"is charged by terrifying {charger.label}"

    return forced


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Force the Fall Back at the charge's reaction."""
    hooks.add(CHARGE_REACTION_FORCED, _terrified(settings))


RULESET = "waffle"
RULES = (
    RuleOption(
        name="terrifying_charge",
        summary="Units charged by a terrifying unit (Fear) must Fall Back",
        quote=(
            "Units that are already fleeing must always declare Falling Back as their charge "
            "reaction and certain terrifying creature may force a unit to Fall Back instead of "
            "other options."
        ),
        parameters=(RULE_NAME, BRAVE_LD),
        install=install,
    ),
)
