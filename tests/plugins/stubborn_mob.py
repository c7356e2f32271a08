"""A test plug-in whose rule ``requires`` another (docs/plugins.md, "The contract"): a
mob big enough shrugs off Suppressive Fire. It installs on Suppressive Fire's own hook
point, as the built-in ``shock_troops`` does, so it changes nothing without
``suppressive_fire`` and names it as ``requires``. A house rule, for the tests of
plug-ins that declare ``requires`` (tests/test_plugin_requires.py)."""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.rules.suppressive_fire import (
    SUPPRESSION_WOULD_APPLY,
    SuppressionIgnored,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

MOB = Parameter("mob", 15, "Models a unit needs to shrug off Suppressive Fire", "House rule",
                minimum=1, maximum=100)  # fmt: skip


@dataclass(frozen=True)
class StubbornMob:
    """A unit of ``mob`` models or more ignores Suppressive Fire."""

    mob: int

    def takes_over(self, battle: Battle, target: Unit) -> bool:
        return len(target.alive_models) >= self.mob

    def __call__(self, battle: Battle, target: Unit, wounds: int) -> None:
        battle.emit(SuppressionIgnored(unit=target.label, rule="a Stubborn Mob"))


def install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(SUPPRESSION_WOULD_APPLY, StubbornMob(settings.integer("stubborn_mob.mob")))


RULESET = "waffle"
RULES = (
    RuleOption("stubborn_mob", "A mob of mob models or more ignores Suppressive Fire",
               "House rule", parameters=(MOB,), install=install, requires="suppressive_fire"),
)  # fmt: skip
