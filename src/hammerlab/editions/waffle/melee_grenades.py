"""Krak grenades and melta bombs in close combat (7th edition, issue 12 §2).

7th edition, Grenades: a model with krak grenades or melta bombs that
attacks a vehicle (krak grenades: also a Monstrous Creature) in close combat
may use one instead of its weapons, and then "can only make one Attack"
whatever its Attacks characteristic, with the grenade's profile. The shared
game system file gives the profiles: ``Krak Grenades`` 8" S6 AP4 ``Assault 1``
(its Strength and AP are those of the blow) and ``Melta Bomb`` - S8 AP1
``Armourbane, Unwieldy`` (so it strikes at Initiative 1, and Armourbane adds
a D6 to its armour penetration, :func:`armour.armour_attack`).

A grenade blow is an ordinary melee weapon choice (:func:`fight.melee_options`)
carrying the rule :data:`GRENADE_ATTACK`: the fight strikes it like any
weapon (:func:`fight.strike`, the vehicle's Rear armour through
:func:`vehicle_damage.resolve_blows_on_vehicle`), with one Attack
(:func:`special_rules.single_attack`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import Final

from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Model, Unit

GRENADE_ATTACK: Final = "Grenade Attack"
"""The rule of a grenade's close combat profile: one Attack, only at the foes it may hit."""

_KRAK = re.compile(r"\bkrak\s+grenades?\b", re.IGNORECASE)
_MELTA_BOMB = re.compile(r"\bmelta[\s-]?bombs?\b", re.IGNORECASE)


def _is_krak(name: str) -> bool:
    return bool(_KRAK.search(name)) and "launcher" not in name.lower()


@lru_cache(maxsize=4096)
def is_melee_grenade(weapon: Weapon) -> bool:
    """Whether ``weapon`` is a krak grenade or a melta bomb (not a grenade launcher);
    cached: a function of the immutable weapon, asked for every model's every option."""
    return _is_krak(weapon.name) or bool(_MELTA_BOMB.search(weapon.name))


def may_attack(weapon: WeaponProfile, target: Unit) -> bool:
    """Whether a blow with ``weapon`` may strike ``target``: any weapon may, a
    grenade blow only a vehicle (a krak grenade also a Monstrous Creature)."""
    if not weapon.has_rule(GRENADE_ATTACK):
        return True
    if is_vehicle(target):
        return True
    monstrous = any(stats_of(m.profile).has_type("Monstrous") for m in target.alive_models)
    return _is_krak(weapon.name) and monstrous


def grenade_blow(weapon: Weapon) -> WeaponProfile:
    """The close combat profile of a krak grenade or melta bomb: its own Strength,
    AP and rules (Armourbane, Unwieldy), as a Melee weapon of one Attack."""
    profile = weapon_of(weapon)
    rules = tuple(r for r in profile.rules if r != "Grenade")
    return replace(
        profile,
        range=None,
        base_type="Melee",
        shots=1,
        salvo_moving_shots=1,
        blast=None,
        template=False,
        barrage=False,
        rules=(*rules, GRENADE_ATTACK),
    )


def grenade_options(model: Model, foes: Iterable[Unit]) -> list[WeaponProfile]:
    """The grenade blows ``model`` may choose against ``foes`` (the enemy units of
    its combat): one per krak grenade or melta bomb it carries that may strike
    one of them."""
    foes = list(foes)
    blows = [grenade_blow(w) for w in model.weapons if is_melee_grenade(w)]
    return [b for b in blows if any(may_attack(b, f) for f in foes)]
