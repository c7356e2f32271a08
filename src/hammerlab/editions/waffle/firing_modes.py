"""Who may still fire a weapon in a shooting attack: quotas, firing modes, grenades.

Each model fires one weapon (two for a Monstrous Creature, every weapon for a
vehicle: :func:`firepower.weapons_per_phase`). On top of that quota, two 7th-edition
rules limit what a model or a unit may fire in one Shooting phase:

* Weapons with several profiles (7th edition, Weapons): "Some weapons can be
  fired in different ways, representing different power settings or types of
  ammo. In these cases, there will be a separate line in the weapon's profile
  for each. Each time such a weapon is fired, the controlling player must
  choose which profile to use." The profiles of one wargear item share
  :attr:`Weapon.mode_of`; the controller chooses the mode with the weapon
  decision (``shooting.shooting_attack``), and a model that fired one mode of
  an item fires no other mode of it in that phase (a Riptide's heavy burst
  cannon fires its Nova-charged or its standard profile, never both).
* Grenades (7th edition, Grenades): "only one grenade can be thrown per unit,
  per phase" — one model of the unit throws one instead of firing another
  weapon (it uses its quota), the rest of the unit fires normally. A weapon
  is a grenade when it has the rule ``Grenade`` (the importer gives it to
  every grenade profile).

``spent`` counts, per shooting attack, the weapons each model fired (keyed by
the model's id), and the items and grenades used (keys of their own).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.memo import per_object
from hammerlab.engine.units import Model, Unit

GRENADE = "Grenade"
"""The weapon rule marking a grenade."""


@per_object
def is_grenade(weapon: Weapon) -> bool:
    """Whether ``weapon`` is a grenade (one thrown per unit per phase). Remembered (the
    weapon frozen): asked of every model that fires, as its weapons are spent."""
    return weapon_of(weapon).has_rule(GRENADE)


def _mode_key(model: Model, weapon: Weapon) -> str:
    return f"{model.id} fired a mode of {weapon.mode_of}"


def _grenade_key(unit: Unit) -> str:
    return f"{unit.id} threw a grenade"


def may_fire(spent: Counter[str], unit: Unit, model: Model, weapon_name: str, quota: int) -> bool:
    """Whether ``model`` of ``unit``, having fired ``spent[model.id]`` of its
    ``quota`` weapons, may still fire ``weapon_name``: it has it, fired no other
    mode of the same item, and the unit threw no grenade if it is one."""
    weapon = model.weapon(weapon_name)
    if weapon is None or spent[model.id] >= quota:
        return False
    if weapon.mode_of and spent[_mode_key(model, weapon)]:
        return False
    return not (is_grenade(weapon) and spent[_grenade_key(unit)])


def spend(spent: Counter[str], unit: Unit, models: Iterable[Model], weapon_name: str) -> None:
    """Count ``models`` of ``unit`` as having fired ``weapon_name`` (its item, its grenade).

    Every volley spends its models here: a model's count is added to with ``get``
    (``+=`` on a model not yet counted, most of them, calls ``Counter.__missing__``, a
    Python method), and the weapon and whether it is a grenade are found once for the
    models sharing one wargear (a tuple of frozen weapons, one per datasheet entry)."""
    wargear: tuple[Weapon, ...] | None = None
    weapon: Weapon | None = None
    grenade = False
    for model in models:
        spent[model.id] = spent.get(model.id, 0) + 1
        if model.weapons is not wargear:
            wargear = model.weapons
            weapon = model.weapon(weapon_name)
            grenade = weapon is not None and is_grenade(weapon)
        if weapon is not None and weapon.mode_of:
            spent[_mode_key(model, weapon)] += 1
        if grenade:
            spent[_grenade_key(unit)] += 1


def throwers(weapon_name: str, models: list[Model]) -> list[Model]:
    """The models that fire ``weapon_name`` out of those able to: one for a
    grenade (the first of them), all of them for any other weapon."""
    weapon = models[0].weapon(weapon_name) if models else None
    return models[:1] if weapon is not None and is_grenade(weapon) else models
