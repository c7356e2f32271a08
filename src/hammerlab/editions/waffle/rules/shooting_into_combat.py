"""Seed 001, (Proposed Rule) Shooting Into and out of Close Combat.

"However, models can shoot at units locked in close combat … Units wishing to
shoot into a melee must declare which of the engaged units they are trying to
hit, and then perform a snap shot against that unit. Any successful snap
shots hit the nominated enemy unit. However, any rolls of 1 or 2, even if
they would normally be hits, hit one of your engaged units instead!"

The rule itself only lets locked units be targets (hook point "locked unit
may be targeted"); what shooting into a melee then means — Snap Shots, strays
on 1-2, the friendly-fire Morale penalty — follows from the target being
locked (``orders.orders_against`` and ``attacks``), so the AI and the odds
read it from the same procedures.
"""

from __future__ import annotations

from hammerlab.editions.waffle.points import MAY_TARGET_LOCKED
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings
from hammerlab.engine.units import Unit


def _locked_targets_allowed(battle: Battle, shooter: Unit, enemy: Unit) -> bool:
    """ "models can shoot at units locked in close combat"."""
    return True


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Allow units locked in combat as targets."""
    hooks.add(MAY_TARGET_LOCKED, _locked_targets_allowed)


SHOOTING_INTO_COMBAT = RuleOption(
    name="shooting_into_combat",
    summary=(
        "Units locked in combat may be shot at with Snap Shots; rolls of 1-2 hit the "
        "shooter's own engaged unit"
    ),
    quote=(
        "However, models can shoot at units locked in close combat … Units wishing to shoot "
        "into a melee must declare which of the engaged units they are trying to hit, and then "
        "perform a snap shot against that unit. Any successful snap shots hit the nominated "
        "enemy unit. However, any rolls of 1 or 2, even if they would normally be hits, hit one "
        "of your engaged units instead! (In the case of shooting at a melee which has no units "
        "you control, the 1s and 2s hit a squad from a different player than the controlling "
        "player of the nominated squad). Resolve all these hits as normal, and keep in mind "
        "that if you cause any casualties to a friendly unit, they will suffer a penalty to any "
        "Morale checks they might need to make!"
    ),
    install=install,
)
