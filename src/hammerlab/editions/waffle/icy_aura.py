"""Icy Aura, a Chaos Boon (``chaos_boons.py``): "enemy models in base contact
take a Str 4 AP 5 hit at Initiative Step 1" (the 2012 codex's table, as
docs/rules/waffle.md cites it).

At the Initiative 1 step of every fight, each model with the rule hits each
enemy model touching it once; the hit wounds against that model's own
Toughness, is saved and is taken by that model alone, like a close combat blow
(no cover), and counts for the bearer's side's combat result. A challenge
keeps its two models apart: the aura of a model fighting one hits only its
foe, and a model fighting another's challenge is not hit.
"""

from __future__ import annotations

from dataclasses import replace

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.combat import in_contact
from hammerlab.editions.waffle.events import BlowsStruck
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.profiles import StrengthSpec, single_hit
from hammerlab.editions.waffle.special_rules import names_rule
from hammerlab.editions.waffle.state import st, state_of
from hammerlab.editions.waffle.toughness import toughness
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

RULE = "Icy Aura"
STEP = 1
"""'at Initiative Step 1'."""
ICY_HIT = replace(single_hit(RULE, StrengthSpec(4)), ap=5)
"""The hit: Strength 4, AP5."""
ORDERS = FireOrders(purpose=RULE)


def strike_icy_auras(battle: Battle, units: list[Unit]) -> None:
    """The Initiative 1 step's Icy Aura hits of the combat's ``units``."""
    for unit in units:
        for model in unit.alive_models:
            if names_rule(model.rules, RULE):
                for target, foe in _touching(battle, unit, model, units):
                    _hit(battle, unit, model, target, foe)


def _touching(
    battle: Battle, unit: Unit, model: Model, units: list[Unit]
) -> list[tuple[Unit, Model]]:
    """The enemy models touching ``model`` that its aura may hit (not vehicles,
    which have no Toughness to wound; a challenge's models apart)."""
    duels = state_of(battle).duels
    return [
        (u, f)
        for u in units
        if u.player != unit.player and not is_vehicle(u)
        for f in u.alive_models
        if in_contact(model, f)
        and duels.get(model.id, f.id) == f.id
        and duels.get(f.id, model.id) == model.id
    ]


def _hit(battle: Battle, unit: Unit, model: Model, target: Unit, foe: Model) -> None:
    if not foe.alive:  # slain by another aura of this step
        return
    battle.emit(BlowsStruck.one_automatic_hit(unit.label, RULE, target.label, STEP))
    at = toughness(battle, target, foe)
    wounds = roll_to_wound(battle, target, [Hit(target, 4, model)], ICY_HIT, toughness=at)
    result = VolleyResult()
    allocate_wounds(
        battle, unit, target, wounds, ICY_HIT, ORDERS, result, [model], melee=True, only=foe
    )
    st(battle, unit).combat_score += result.unsaved[target.id]
