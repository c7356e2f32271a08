"""Gets Hot (7th-edition rulebook): a weapon that wounds the model firing it.

"When firing a weapon that Gets Hot, roll To Hit as normal. For each To Hit
roll of 1, the firing model immediately suffers a Wound (armour or
invulnerable saves can be taken) - this Wound cannot be allocated to any other
model in the unit. … Weapons that do not roll To Hit (such as Blast weapons)
must roll a D6 for each shot immediately before firing. On a 2+, the shot is
resolved as normal. For each roll of a 1, the weapon Gets Hot; that shot is
not fired and the firing model immediately suffers a single Wound … If a
model has the ability to re-roll its rolls To Hit (including because of BS6+
or the Twin-linked special rule), a Wound is only suffered if the To Hit
re-roll is also a 1; it may also re-roll Gets Hot results of 1 for weapons
that do not roll To Hit."

The rolled shots' 1s are counted by :func:`hit_rolls.roll_to_hit` (its
``HitRolls.ones``: the dice left showing 1 after any re-roll). The wounds are
the firer's own and change nothing of the target's odds; the shots a marker
or template weapon loses do (:func:`fire_chance`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.armour import GLANCING
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult, WoundRoll
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.tables import miss_reroll
from hammerlab.editions.waffle.vehicle_damage import damage_vehicle
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

RULE = "Gets Hot"


@lru_cache(maxsize=4096)
def gets_hot(profile: WeaponProfile) -> bool:
    """Whether ``profile`` Gets Hot. Remembered (the profile frozen): asked twice a volley."""
    return profile.has_rule(RULE)


def rerolls_gets_hot(bs: int, twin_linked: bool) -> bool:
    """Whether a Gets Hot 1 is re-rolled: the firer may re-roll its To Hit rolls
    (BS6+ or Twin-linked: :func:`tables.miss_reroll`)."""
    return miss_reroll(bs, twin_linked) is not None


def fire_chance(twin_linked: bool, skills: tuple[int, ...] = ()) -> float:
    """The chance one shot of a weapon that does not roll To Hit is fired: a D6 of
    2+, a 1 re-rolled when the firer may re-roll (any of ``skills`` BS6+, or
    ``twin_linked``). The exact odds use it; the battle rolls :func:`shots_fired`."""
    again = any(rerolls_gets_hot(bs, twin_linked) for bs in (skills or (0,)))
    return 1 - (1 / 36 if again else 1 / 6)


def shots_fired(
    battle: Battle,
    unit: Unit,
    models: list[Model],
    profile: WeaponProfile,
    bs_of: dict[str, int],
    orders: FireOrders,
) -> list[Model]:
    """A weapon that does not roll To Hit: each model rolls a D6 per shot before
    firing; each shot that Gets Hot is not fired and wounds its model. Returns the
    models once per shot they fire (a model with two shots that both fire: twice)."""
    fired: list[Model] = []
    twin = profile.has_rule("Twin-linked")
    for model in models:
        hot = 0
        for _ in range(profile.shots):
            roll = battle.dice.d6(f"Gets Hot ({profile.name}, {model.id}: 1 gets hot)")
            if roll == 1 and rerolls_gets_hot(bs_of[model.id], twin):
                roll = battle.dice.d6(f"re-roll Gets Hot ({profile.name}, {model.id})")
            if roll == 1:
                hot += 1
            else:
                fired.append(model)
        suffer(battle, unit, model, profile, hot, orders)
    return fired


VEHICLE_GLANCES_ON = 3
"""'A vehicle instead rolls a D6 for each roll of a 1 to hit. On a roll of a 1, 2
or 3 it suffers a glancing hit.'"""


def vehicle_gets_hot(
    battle: Battle, unit: Unit, model: Model, profile: WeaponProfile, rolls: int
) -> None:
    """A vehicle's Gets Hot: a D6 for each 1, a glancing hit on 1-3
    (:func:`vehicle_damage.damage_vehicle`)."""
    for _ in range(rolls):
        if not model.alive:
            return
        roll = battle.dice.d6(f"Gets Hot ({profile.name}, {model.id}: 1-3 glancing hit)")
        if roll <= VEHICLE_GLANCES_ON:
            damage_vehicle(battle, unit, unit, model, GLANCING, None)


def suffer(
    battle: Battle,
    unit: Unit,
    model: Model,
    profile: WeaponProfile,
    wounds: int,
    orders: FireOrders,
) -> None:
    """``model`` suffers ``wounds`` Wounds from its own weapon: armour or
    invulnerable saves (no cover), allocated to no other model; Feel No Pain may
    ignore them. They carry no Strength, so never Instant Death, and none of the
    weapon's rules (Pinning, Concussive...)."""
    if wounds <= 0 or not model.alive:
        return
    battle.say("shooting", f"{model.id}: {profile.name} Gets Hot ({wounds})")
    if is_vehicle(unit):
        vehicle_gets_hot(battle, unit, model, profile, wounds)
        return
    own = replace(profile, name=f"{profile.name} (Gets Hot)", ap=None, rules=())
    hot_orders = FireOrders(purpose=RULE, counts_for_morale=orders.counts_for_morale)
    allocate_wounds(
        battle,
        unit,
        unit,
        [WoundRoll(0, None, model)] * wounds,
        own,
        hot_orders,
        VolleyResult(),
        [model],
        melee=True,
        only=model,
    )
