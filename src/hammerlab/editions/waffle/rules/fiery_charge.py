"""Seed 004, (Proposed Rule) Fiery Charge.

"Any models that have made a successful Charge may immediately make a Fiery
Charge shooting attack against the non-vehicle enemy unit they charged.
Resolve it as a normal Shooting attack, with only Assault and Pistol type
weapons able to fire. Any casualties caused from this attack are added to the
combat result for this side. However, units choosing to make a Fiery charge
lose their bonus attack from a charge, if any. Units with the Rage USR only
lose one of their two attacks."

Installed on "charge succeeded" (the attack) and "charge bonus attacks" (the
Attacks it costs, parameter ``lost_bonus_attacks``).
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.charge import charge_move
from hammerlab.editions.waffle.combat import in_contact
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.placement import PILE_IN
from hammerlab.editions.waffle.points import CHARGE_BONUS_ATTACKS, CHARGE_SUCCEEDED, END_OF_TURN
from hammerlab.editions.waffle.shooting import shooting_attack
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

NAME = "fiery_charge"
FIERY, NO_FIERY = "Fiery Charge", "no Fiery Charge"
FIERY_ORDERS = FireOrders(
    weapon_types=frozenset({"Assault", "Pistol"}), purpose="fiery charge", counts_as_fired=False
)
"""Only Assault and Pistol weapons fire; it is not the unit's Shooting phase."""

LOST_BONUS = Parameter(
    "lost_bonus_attacks",
    1,
    "Charge bonus Attacks a unit gives up for making a Fiery Charge (at most the bonus it "
    "has: 1, or 2 with Rage)",
    'Seed 004: "units choosing to make a Fiery charge lose their bonus attack from a charge, '
    'if any. Units with the Rage USR only lose one of their two attacks."',
    minimum=0,
    maximum=2,
)


def fiery_chargers(battle: Battle) -> set[str]:
    """Units that made a Fiery Charge this turn (this rule's memory, made on first use:
    for the rule, which adds to it; a question asks :func:`made_fiery_charge`)."""
    return battle.remember(NAME, set)


def made_fiery_charge(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` made a Fiery Charge this turn. A question, asked of every
    charger's Attacks (the AI's fight estimates too): it makes no memory, so that a
    game's state is what was played in it (a saved game replays without them)."""
    chargers = battle.memory.get(NAME)
    return chargers is not None and unit.id in chargers


def fiery_charge(battle: Battle, unit: Unit, target: Unit) -> None:
    """Offer the Fiery Charge and resolve it.

    Casualties are the models removed; they go to ``status.combat_score``. The
    attack, like Overwatch, is not the unit's Shooting phase; the target is
    locked in combat, so it takes no Morale check or Pinning test from it.

    Its casualties are the closest models, often the ones the chargers touch:
    charging models left out of base contact then close in again, up to 3"
    (as a 6th/7th-edition Pile In), so that the charge still ends in combat.
    """
    if is_vehicle(target):
        return
    if not any(firing_models(battle, unit, target, w, FIERY_ORDERS) for w in ranged_weapons(unit)):
        return
    accept = battle.decide(
        Decision(
            kind="fiery_charge",
            player=unit.player,
            prompt=f"{unit.label} may make a Fiery Charge at {target.label}",
            choices=(Choice(FIERY, True), Choice(NO_FIERY, False)),
            context=DecisionContext(unit=unit.id, target=target.id),
        )
    )
    if not accept:
        return
    fiery_chargers(battle).add(unit.id)
    removed = shooting_attack(battle, unit, target, FIERY_ORDERS).casualties[target.id]
    st(battle, unit).combat_score += removed
    battle.say("fiery-charge", f"{unit.label} adds {removed} casualties to its combat result")
    loose = [m for m in unit.alive_models if not any(in_contact(m, e) for e in target.alive_models)]
    if loose and not target.destroyed:
        charge_move(battle, unit, target, PILE_IN, loose)


def _bonus(settings: RuleSettings) -> Callable[[Battle, Unit, int], int]:
    lost = settings.integer(f"{NAME}.{LOST_BONUS.name}")

    def bonus(battle: Battle, unit: Unit, attacks: int) -> int:
        """ "lose their bonus attack from a charge, if any": never below none."""
        return max(0, attacks - lost) if made_fiery_charge(battle, unit) else attacks

    return bonus


def _forget(battle: Battle, player: str) -> None:
    fiery_chargers(battle).clear()


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Put the Fiery Charge on the charge sub-phase and the fight's Attacks."""
    hooks.add(CHARGE_SUCCEEDED, fiery_charge)
    hooks.add(CHARGE_BONUS_ATTACKS, _bonus(settings))
    hooks.add(END_OF_TURN, _forget)


FIERY_CHARGE = RuleOption(
    name=NAME,
    summary="Chargers may shoot Assault and Pistol weapons at the unit they charged",
    quote=(
        "Any models that have made a successful Charge may immediately make a Fiery Charge "
        "shooting attack against the non-vehicle enemy unit they charged. Resolve it as a "
        "normal Shooting attack, with only Assault and Pistol type weapons able to fire. Any "
        "casualties caused from this attack are added to the combat result for this side. "
        "However, units choosing to make a Fiery charge lose their bonus attack from a charge, "
        "if any. Units with the Rage USR only lose one of their two attacks."
    ),
    parameters=(LOST_BONUS,),
    install=install,
)
