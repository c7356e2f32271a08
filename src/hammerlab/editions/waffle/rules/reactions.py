"""The reactions of the Waffle Edition, each a rule that is on by default.

Seed 000, Reaction to shooting: "When a unit is fired upon during a shooting
phase, it may immediately make one of the following two actions after the
unit has resolved their wounds from the shooting": Return Fire! and Dive for
Cover. Seed 004, Reaction to Charge: "A unit that is charged can choose to
react in two ways": Fire Overwatch and Fall Back. Switching one off (``--rule
return_fire=off``) lets the lab measure what it is worth.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.events import GoToGroundRefused, ReactionDeclared
from hammerlab.editions.waffle.morale import go_to_ground, pinning_test
from hammerlab.editions.waffle.movement import fall_back, run
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import (
    CHARGE_REACTED,
    REACTIONS_TO_CHARGE,
    REACTIONS_TO_SHOOTING,
    Reaction,
)
from hammerlab.editions.waffle.rules.supporting_fire import supporting_fire
from hammerlab.editions.waffle.shooting import can_run, shooting_attack, snap_fire_weapons
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import is_immobile, is_vehicle, is_walker
from hammerlab.editions.waffle.visibility import unit_can_see
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint, Hooks, Installer, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

RETURN_FIRE, DIVE = "Return Fire!", "Dive for Cover"
OVERWATCH, FALL_BACK = "Fire Overwatch", "Fall Back"
RETURN_FIRE_ORDERS = FireOrders(snap=True, purpose="return fire")


def overwatch_orders(battle: Battle) -> FireOrders:
    """Seed 004, Overwatch: "Any shots fired as Overwatch can only be fired as Snap
    Shots … For the purposes of range, the target of the Overwatch attack counts
    as being within 1” of the models that are firing Overwatch" (parameter
    ``overwatch_range``); "Overwatch cannot cause Morale checks or Pinning
    tests", and it is not the unit's Shooting phase."""
    return _overwatch_within(battle.settings.number("overwatch_range"))


@lru_cache(maxsize=64)
def _overwatch_within(within: float) -> FireOrders:
    """:func:`overwatch_orders` counting the target ``within`` inches off: one object
    for each range, made once. Orders key the estimates' remembered answers
    (:func:`memo.per_decision`): the same object keeps its hash
    (:func:`records.kept_hash`) and is found by identity, where orders made afresh
    for each question (every Overwatch weighed) were hashed anew and compared field
    by field."""
    return FireOrders(
        snap=True,
        purpose="overwatch",
        counts_within=within,
        counts_as_fired=False,
        counts_for_morale=False,
    )


@dataclass(frozen=True)
class ReturnFire:
    """ "Return Fire!: The unit may “snap-fire” at the attacking squad. This does not
    provoke additional snap-fire, and does not count as the squad's shooting phase."

    It needs a weapon that can be fired as Snap Shots and sight of the attacker.
    """

    shared_between_battles: ClassVar[bool] = True
    """It keeps nothing (its label and settings): every battle copied from one shares it
    (``Hooks.copy``)."""

    label: str = RETURN_FIRE

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        """A weapon that can snap-fire at an attacker it can see."""
        return unit_can_see(battle, unit, attacker) and any(
            firing_models(battle, unit, attacker, w, RETURN_FIRE_ORDERS)
            for w in snap_fire_weapons(unit)
        )

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """Snap-fire; its own Pinning tests follow, but no reaction to it."""
        returned = shooting_attack(battle, unit, attacker, RETURN_FIRE_ORDERS)
        for unit_id in sorted(returned.pinning):
            pinning_test(battle, battle.unit(unit_id), f"pinning weapons of {unit.label}")


@dataclass(frozen=True)
class DiveForCover:
    """ "Dive for Cover: The unit may make a single Run action, regardless of whether
    they choose to run or not, they then Go to Ground."

    By default only a unit that can Run dives, and a Fearless unit runs but does
    not Go to Ground (6th/7th: Fearless units cannot); the parameters choose the
    other readings (docs/rules/waffle.md): ``fearless="may_not"`` (a Fearless
    unit may not Dive for Cover at all) and ``without_run`` (a unit that cannot
    Run still dives where it stands, "regardless of whether they choose to run
    or not"). The Run happens in the enemy's turn, so it counts neither as the
    unit's own Run nor as its move in its next turn (it has gone to ground
    instead, so it will snap-fire then).
    """

    shared_between_battles: ClassVar[bool] = True
    """It keeps nothing (its label and settings): every battle copied from one shares it
    (``Hooks.copy``)."""

    label: str = DIVE
    fearless: str = "runs"
    without_run: bool = False

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        """Units gone to ground, falling back or Slow and Purposeful cannot Run;
        vehicles never Go to Ground (7th edition). Offered where it does something:
        a Run, or (``without_run``) going to ground, which a unit gone to ground
        already or a Fearless one does not do."""
        if is_vehicle(unit):
            return False
        fearless = unit.has_rule("Fearless")
        if self.fearless == "may_not" and fearless:
            return False
        if can_run(battle, unit):
            return True
        return self.without_run and not st(battle, unit).gone_to_ground and not fearless

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """Run (if it can), then Go to Ground; a Fearless unit says it does not."""
        if can_run(battle, unit):
            run(battle, unit, "dives for cover", own_move=False)
        else:
            battle.say("reaction", f"{unit.label} cannot Run: it dives for cover where it stands")
        if unit.has_rule("Fearless"):
            why = "Fearless units cannot Go to Ground"
            battle.emit(GoToGroundRefused(unit.label, "Dive for Cover", why))
        else:
            go_to_ground(battle, unit, "Dive for Cover")


@dataclass(frozen=True)
class Overwatch:
    """Seed 004, Overwatch: "Warriors receiving a charge will try to thin out their
    foes through open fire." "weapons and models that cannot fire Snap Shots
    cannot fire Overwatch": it is offered when at least one weapon could fire it.
    """

    shared_between_battles: ClassVar[bool] = True
    """It keeps nothing (its label and settings): every battle copied from one shares it
    (``Hooks.copy``)."""

    label: str = OVERWATCH

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        """A weapon that can snap-fire at the charger, of a unit that is not a vehicle
        other than a Walker (7th edition, Walkers: "To represent the vastly superior
        agility of Walkers in comparison with other vehicles, Walkers can fire
        Overwatch"; seed 004 is silent, and a user review saw a Leman Russ fire it)."""
        if is_vehicle(unit) and not is_walker(unit):
            return False
        orders = overwatch_orders(battle)
        return any(
            firing_models(battle, unit, attacker, w, orders) for w in snap_fire_weapons(unit)
        )

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """ "An Overwatch attack is resolved like a normal shooting attack" with Snap
        Shots; its casualties do not count toward the charger's 25% Morale check,
        and no Pinning test or reaction follows."""
        battle.emit(ReactionDeclared(unit=unit.label, reaction=OVERWATCH, against=attacker.label))
        shooting_attack(battle, unit, attacker, overwatch_orders(battle))


@dataclass(frozen=True)
class FallBack:
    """Seed 004, Fall Back: "The unit tries to avoid close combat by retreating … A
    unit that decides to Fall Back must make a Fall Back moves (see the morale
    section)." """

    shared_between_battles: ClassVar[bool] = True
    """It keeps nothing (its label and settings): every battle copied from one shares it
    (``Hooks.copy``)."""

    label: str = FALL_BACK

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        """Any unit that may react may fall back, but a vehicle (7th edition: vehicles
        take no Morale checks and never fall back) and a unit with the rule Immobile,
        which "cannot move once it has entered play" (``vehicles.IMMOBILE``)."""
        return not is_vehicle(unit) and not is_immobile(unit)

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """The 6th/7th-edition Fall Back move."""
        fall_back(battle, unit, f"the charge of {attacker.label}")


def _on(point: HookPoint[Reaction], reaction: Reaction) -> Installer:
    def install(hooks: Hooks, settings: RuleSettings) -> None:
        hooks.add(point, reaction)

    return install


RETURN_FIRE_RULE = RuleOption(
    name="return_fire",
    summary="A unit hit by shooting may snap-fire back at the attacking unit",
    quote=(
        "Return Fire!: The unit may “snap-fire” at the attacking squad. This does not provoke "
        "additional snap-fire, and does not count as the squad’s shooting phase."
    ),
    default=True,
    install=_on(REACTIONS_TO_SHOOTING, ReturnFire()),
)
DIVE_FEARLESS = Parameter(
    "fearless",
    "runs",
    "A Fearless unit diving for cover: it runs but does not Go to Ground (runs), or it "
    "may not Dive for Cover at all (may_not)",
    'Seed 000: "they then Go to Ground" (6th/7th: Fearless units cannot Go to Ground)',
    choices=("runs", "may_not"),
)
DIVE_WITHOUT_RUN = Parameter(
    "without_run",
    False,
    "A unit that cannot Run may still Dive for Cover: it goes to ground where it stands",
    'Seed 000: "The unit may make a single Run action, regardless of whether they choose to '
    'run or not, they then Go to Ground."',
)


def _install_dive(hooks: Hooks, settings: RuleSettings) -> None:
    dive = DiveForCover(
        fearless=settings.text("dive_for_cover.fearless"),
        without_run=settings.flag("dive_for_cover.without_run"),
    )
    hooks.add(REACTIONS_TO_SHOOTING, dive)


DIVE_FOR_COVER_RULE = RuleOption(
    name="dive_for_cover",
    summary="A unit hit by shooting may Run, then Go to Ground",
    quote=(
        "Dive for Cover: The unit may make a single Run action, regardless of whether they "
        "choose to run or not, they then Go to Ground."
    ),
    default=True,
    parameters=(DIVE_FEARLESS, DIVE_WITHOUT_RUN),
    install=_install_dive,
)


def _install_overwatch(hooks: Hooks, settings: RuleSettings) -> None:
    """Fire Overwatch, and Supporting Fire (which fires it for friends within 6")."""
    overwatch = Overwatch()
    hooks.add(REACTIONS_TO_CHARGE, overwatch)
    hooks.add(CHARGE_REACTED, supporting_fire(overwatch))


OVERWATCH_RULE = RuleOption(
    name="overwatch",
    summary="A charged unit may fire Snap Shots at the charger",
    quote="Fire Overwatch: The unit tries to thin out the foes charging them by opening fire.",
    default=True,
    install=_install_overwatch,
)
FALL_BACK_RULE = RuleOption(
    name="fall_back",
    summary="A charged unit may Fall Back instead of receiving the charge",
    quote="Fall Back: The unit tries to avoid close combat by retreating.",
    default=True,
    install=_on(REACTIONS_TO_CHARGE, FallBack()),
)
