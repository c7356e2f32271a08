"""What a person is told of each weapon offered in a shooting attack (``Decision.describe``).

Seed 000 step 3 has the player "Select a weapon the firing unit is equipped
with"; the prompt lists the weapons able to fire by name. A player choosing
wants what a referee at the table would say: how many models would fire it,
what it may do to the target, and, before wasting the shots, that it can do
nothing (a lasgun at a Leman Russ's front armour, a Strength 3 weapon at
Toughness 7: four or more below "cannot wound", the 6th/7th-edition chart). The
figure is the AI's own expectation (:func:`expected.expected_casualties`, from
the exact odds), worked out only when a person is asked (``PromptController``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.expected import can_hurt, expected_casualties
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import WEAPON_OUTCOME
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import unit_toughness, weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit


def describe_weapon(
    battle: Battle, unit: Unit, target: Unit, orders: FireOrders, spent: Counter[str]
) -> Callable[[str], str]:
    """How each choice of a ``weapon`` decision of ``unit`` against ``target`` is
    described (``""`` for ``stop``): its firing models and what it is expected to do,
    or that it cannot hurt the target and why; or, where a rule changes what the volley
    does (:data:`points.WEAPON_OUTCOME`: Suppressive Fire), what the rule says.

    ``spent``: what the attack's models have fired so far. Seed 000 step 7 selects
    "another weapon" of those "that have yet to fire": a model that fired its quota
    fires no more (6th/7th edition: one weapon a model), so the models counted, and
    the expected figure, are those :func:`firing_models` still finds able, as the
    volley fires them (``shooting.shooting_attack``)."""

    def describe(name: str) -> str:
        models = firing_models(battle, unit, target, name, orders, spent) if name else []
        if not models:
            return ""
        fire = f"{len(models)} models fire" if len(models) > 1 else "1 model fires"
        for outcome in battle.hooks.get(WEAPON_OUTCOME):  # Suppressive Fire: none removed
            told = outcome(battle, unit, target, name, models, orders)
            if told is not None:
                return f"{fire}; {told}"
        expected = expected_casualties(battle, unit, target, name, orders, spent=spent)
        if expected > 0:
            what = "of a vehicle" if is_vehicle(target) else "models slain"
            return f"{fire}; about {expected:.2f} {what} expected"
        return f"{fire}; {_no_harm(battle, unit, target, name, models)}"

    return describe


def _no_harm(battle: Battle, unit: Unit, target: Unit, name: str, models: list[Model]) -> str:
    """Why a weapon expected to do nothing to ``target`` does: its Strength cannot
    wound the unit's Toughness or beat the armour it faces, or (another rule
    forbids the shot, a hit that cannot land) it is simply expected to do nothing.
    ``models`` are those that would fire it. Harmless wherever it is fired from is
    what the AI's own :func:`expected.can_hurt` says."""
    if can_hurt(battle, unit, target, name):
        return f"expected to do nothing to {target.label}"
    strength = max(
        weapon_strength(battle, unit, model, weapon_of(weapon))
        for model in models
        if (weapon := model.weapon(name)) is not None
    )
    if is_vehicle(target):
        return f"cannot hurt {target.label}: S{strength} cannot beat its armour from here"
    toughness = unit_toughness(battle, target)
    return f"cannot hurt {target.label}: S{strength} cannot wound T{toughness}"
