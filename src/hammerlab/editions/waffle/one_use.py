"""One Use Only: a weapon used in one shooting attack or one fight of a battle, and
spent then.

The shared game system's rule (``Warhammer40K.gst``, "One Use Only/One Shot Only"):
"A weapon or ability with this special rule can only be used once during the course
of a battle." The catalogues write it ``One Use Only``, ``One use only``, ``One Use``
and ``One Shot`` in a weapon's Type (the Stormraven's Stormstrike Missiles, the
Valkyrie's Hellstrike Missiles, the Hive Crone's Tentaclids), and link the rule by
its own name too: each is read as this rule (``profiles.RULE_SPELLINGS``).

Once a model has fired such a weapon (each copy of a pair a volley of its own), that
copy is taken from the model's wargear, as a weapon destroyed is
(``vehicle_damage._destroy_weapon``): the model's weapons are the game's state, so a
copy of the battle, a saved game's replay and every estimate (the AI's, the odds of a
position) see it spent, and a Weapon Destroyed result no longer counts it (the
shared game system, Machine Curse: "do not include ... weapons with the One Use
Only/One Shot Only special rule that have already fired").

A melee weapon with the rule (the Rough Riders' hunting lance, an Ork flyer's bombs
as the data types them) is "used" when the model strikes blows with it: once the
blows of that fight are struck, it is spent as a fired one is
(:func:`spend_struck_one_use`), and in a later fight the model fights with another
of its weapons (its close combat weapon, for a Rough Rider with a laspistol). The
Astra Militarum catalogue links the lance to its rule "First Charge", but writes no
text for it, so the lance is not kept for a charge: it is used in the first fight
the model chooses it for (docs/rules/waffle.md, interpretation 25).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.editions.waffle.profiles import ONE_USE, WeaponProfile
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.engine.units import Model, Unit


@dataclass(frozen=True)
class WeaponSpent(Event):
    """``model`` of ``unit`` fired (or struck with) its One Use Only ``weapon``: that
    copy is spent."""

    kind: ClassVar[str] = "weapon_spent"
    unit: str
    model: str
    weapon: str

    @property
    def text(self) -> str:
        return f"  {self.model} ({self.unit}): {self.weapon} is spent (One Use Only)"


def is_one_use(profile: WeaponProfile) -> bool:
    """Whether firing or striking with ``profile`` spends it: a weapon with
    :data:`ONE_USE`."""
    return profile.has_rule(ONE_USE)


def spend_one_use(battle: Battle, unit: Unit, models: list[Model], weapon_name: str) -> None:
    """Each of ``models`` (listed once per copy it fired) loses one copy of its weapon
    ``weapon_name``, which it used with the rule :data:`ONE_USE`."""
    for model in models:
        gone = next((i for i, w in enumerate(model.weapons) if w.name == weapon_name), None)
        if gone is None:  # a model listed for a second copy it no longer has
            continue
        model.weapons = model.weapons[:gone] + model.weapons[gone + 1 :]
        battle.emit(WeaponSpent(unit=unit.label, model=model.id, weapon=weapon_name))


def spend_struck_one_use(
    battle: Battle, struck: dict[str, tuple[Unit, list[Model]]], weapons: dict[str, WeaponProfile]
) -> None:
    """After the blows of a fight: each model of ``struck`` (unit id → the unit and its
    models that struck blows) whose weapon in ``weapons`` (model id → the melee weapon
    it fought with) is One Use Only loses that weapon (7th edition, "can only be used
    once during the course of a battle")."""
    for unit, models in struck.values():
        for model in models:
            weapon = weapons[model.id]
            if is_one_use(weapon):
                spend_one_use(battle, unit, [model], weapon.name)
