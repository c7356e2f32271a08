"""Witch-eater, a Chaos Boon (``chaos_boons.py``): "Passing a Deny the Witch roll
makes enemy Psyker take a Str 6 AP 2 hit" (the 2012 codex's table, as
docs/rules/waffle.md cites it; a VASSAL module words it "When champion or his
unit pass a Deny the Witch roll, the enemy Psyker immediately takes a S6 AP2
hit").

When the unit of a model with the rule denies a power (``psychic.manifest``),
the Psyker that manifested it takes the hit: it wounds against the Psyker's own
Toughness, may be saved (armour or invulnerable; it is no shooting attack, so
no cover), and is taken by the Psyker alone.
"""

from __future__ import annotations

from dataclasses import replace

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.profiles import StrengthSpec, single_hit
from hammerlab.editions.waffle.special_rules import names_rule
from hammerlab.editions.waffle.toughness import toughness
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

RULE = "Witch-eater"
WITCH_EATER_HIT = replace(single_hit(RULE, StrengthSpec(6)), ap=2)
"""The hit: Strength 6, AP2."""
ORDERS = FireOrders(purpose=RULE)


def witch_eater(battle: Battle, caster: Unit, psyker: Model, denier: Unit) -> None:
    """``denier`` denied a power ``psyker`` (of ``caster``) manifested: a S6 AP2 hit
    on the Psyker if a model of ``denier`` has Witch-eater."""
    eater = next((m for m in denier.alive_models if names_rule(m.rules, RULE)), None)
    if eater is None or not psyker.alive:
        return
    battle.say("psychic", f"{RULE}: {psyker.id} takes a S6 AP2 hit")
    hits = [Hit(caster, 6, eater)]
    at = toughness(battle, caster, psyker)
    wounds = roll_to_wound(battle, caster, hits, WITCH_EATER_HIT, toughness=at)
    allocate_wounds(
        battle,
        denier,
        caster,
        wounds,
        WITCH_EATER_HIT,
        ORDERS,
        VolleyResult(),
        [eater],
        melee=True,
        only=psyker,
    )
