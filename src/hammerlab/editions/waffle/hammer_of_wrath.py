"""Hammer of Wrath (7th-edition rulebook): one more hit for a model that charged home.

"If a model with this special rule ends its charge move in base or hull
contact with an enemy model, it makes one additional Attack that hits
automatically and is resolved at the model's unmodified Strength with AP-.
This Attack does not benefit from any of the model's special rules (such as
Furious Charge, Rending etc.). This Attack is resolved during the Fight
sub-phase at the Initiative 10 step, but does not grant the model an
additional Pile In move."

Nothing moves between the charge sub-phase and the fight, so the models that
ended their charge move in base contact are those of a unit that charged this
turn in base contact when its combat's fight begins (:func:`hammers`). The hit
strikes the unit of the closest enemy model touching it.

The hit is an Attack, so a challenge keeps it as it keeps blows (7th edition,
docs/rules/waffle.md, *Challenges*: the two models "strike only each other ...
no other blow may be allocated to them"): the hit of a model fighting a
challenge strikes its foe alone, and no other model's hit may wound a model
fighting one (:func:`challenges.opponent`, :func:`challenges.in_challenge`).
"""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.challenges import in_challenge, opponent
from hammerlab.editions.waffle.combat import in_contact
from hammerlab.editions.waffle.events import BlowsStruck
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.profiles import StrengthSpec, single_hit, stats_of
from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicle_damage import resolve_blows_on_vehicle
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

RULE = "Hammer of Wrath"
STEP = 10
"""'resolved during the Fight sub-phase at the Initiative 10 step'."""
HAMMER_BLOW = single_hit(RULE, StrengthSpec(0, "user"))
"""The hit: the model's Strength, AP-, no special rules."""
ORDERS = FireOrders(purpose=RULE)


@dataclass(frozen=True)
class Hammer:
    """A model that ended its charge move in base contact, owed its hit."""

    unit: Unit
    model: Model


def hammers(battle: Battle, units: list[Unit]) -> list[Hammer]:
    """The Hammer of Wrath hits ``units``' models are owed as their fight begins."""
    owed: list[Hammer] = []
    for unit in units:
        if not unit.status.charged:
            continue
        foes = [m for u in units if u.player != unit.player for m in u.alive_models]
        for model in unit.alive_models:
            if model_has(unit, model, RULE) and any(in_contact(model, f) for f in foes):
                owed.append(Hammer(unit, model))
    return owed


def strike_hammers(battle: Battle, owed: list[Hammer], units: list[Unit]) -> None:
    """At the Initiative 10 step: each hit wounds, is saved and allocated like a
    close combat blow (no cover), and counts for its side's combat result; a
    challenge's models strike and are struck as their blows are (the module's
    text)."""
    duellists = in_challenge(battle)
    for hammer in owed:
        unit, model = hammer.unit, hammer.model
        touching = [
            (base_distance(model, f), u.id, u, f)
            for u in units
            if u.player != unit.player
            for f in u.alive_models
            if in_contact(model, f)
        ]
        if not touching:
            continue
        duel = opponent(battle, model, units)
        target = duel[0] if duel else min(touching, key=lambda t: (t[0], t[1]))[2]
        battle.emit(BlowsStruck.one_automatic_hit(unit.label, RULE, target.label, STEP))
        strength = stats_of(model.profile).s
        if is_vehicle(target):  # "resolved against the Armour Value"
            scored, _ = resolve_blows_on_vehicle(
                battle, unit, target, [strength], HAMMER_BLOW, [model]
            )
            st(battle, unit).combat_score += scored
            continue
        hit = Hit(target, strength, model)
        wounds = roll_to_wound(battle, target, [hit], HAMMER_BLOW)
        result = VolleyResult()
        allocate_wounds(
            battle, unit, target, wounds, HAMMER_BLOW, ORDERS, result, [model], melee=True,
            only=duel[1] if duel else None, spare=frozenset() if duel else duellists,
        )  # fmt: skip
        st(battle, unit).combat_score += result.unsaved[target.id]
