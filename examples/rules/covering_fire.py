"""Plug-in (a house rule): Covering Fire, a shooting action that tells the AI its worth.

A shooting unit may lay down Covering Fire instead of shooting plainly: it
fires as usual, and a target it hits at least ``hits`` times takes a Pinning
test (6th/7th edition: a Leadership test; failed, the unit goes to ground).
It is never worse than shooting, so a player always takes it; the heuristic AI
takes it because the action says what it is worth (:meth:`CoveringFire.worth`,
the optional :class:`points.Weighed`): the plain volley's worth
(``shooting_plans.target_value``) plus the chance the target fails its test times
``pinned_worth``, what the AI counts a pinned enemy unit as worth, in models.
An action that gives no worth is offered to the AI but never taken
(docs/plugins.md).

    hammerlab lab examples/matchups/boyz_vs_tactical.toml \\
        --plugin examples/rules/covering_fire.py --rule covering_fire
"""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.morale import pinning_test, takes_pinning_test
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.plans import leadership_pass_chance
from hammerlab.editions.waffle.points import AFTER_SHOOTING_ATTACK, SHOOTING_ACTIONS, Attack
from hammerlab.editions.waffle.shooting_plans import target_value
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

LABEL = "covering fire"

HITS = Parameter(
    "hits", 1, "Hits that force the target's Pinning test", "House rule", minimum=1, maximum=20
)
PINNED_WORTH = Parameter(
    "pinned_worth",
    1.0,
    "What the heuristic AI counts a pinned enemy unit as worth, in models",
    "An AI setting, not a rule",
    minimum=0.0,
    maximum=20.0,
)


@dataclass(frozen=True)
class CoveringFire:
    """The action: regular orders that name it, so the hook below knows the volley."""

    pinned_worth: float
    label: str = LABEL

    def targets(self, battle: Battle, unit: Unit, targets: list[Unit]) -> list[Unit]:
        """Any target of a regular shot that is not locked in combat."""
        return [t for t in targets if not st(battle, t).locked_in_combat]

    def orders(self) -> FireOrders:
        """A regular volley, named after the action."""
        return FireOrders(action=LABEL)

    def worth(self, battle: Battle, unit: Unit, target: Unit) -> float:
        """The plain volley's worth, plus the chance ``target`` fails a Pinning test
        it takes times :data:`PINNED_WORTH` (the hits it needs are not weighed)."""
        shot = target_value(battle, unit, target)
        if not takes_pinning_test(battle, target):
            return shot
        pinned = 1 - leadership_pass_chance(battle, target, 0, morale=False)
        return shot + pinned * self.pinned_worth


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Offer the action; after a Covering Fire volley, test the target it pinned down."""
    need = settings.integer(f"covering_fire.{HITS.name}")

    def after(battle: Battle, attack: Attack, result: VolleyResult) -> None:
        if attack.orders.action == LABEL and result.hits[attack.target.id] >= need:
            pinning_test(battle, attack.target, "Covering Fire")

    hooks.add(SHOOTING_ACTIONS, CoveringFire(settings.number(f"covering_fire.{PINNED_WORTH.name}")))
    hooks.add(AFTER_SHOOTING_ATTACK, after)


RULESET = "waffle"
RULES = (
    RuleOption(
        "covering_fire",
        "A shooting unit may lay down Covering Fire: it shoots, and a target it hits "
        "takes a Pinning test",
        "House rule",
        parameters=(HITS, PINNED_WORTH),
        install=install,
    ),
)
