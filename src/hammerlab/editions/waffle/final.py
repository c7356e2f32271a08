"""The chain of extra attacks of Final Shot (seed 000) and Final Blow (seed 001)."""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.orders import WoundRoll
from hammerlab.editions.waffle.special_rules import (
    is_independent_character,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.units import Model, Unit

FINAL_SHOT_LIMIT = 60
"""Extra attacks one Final Shot or Final Blow chain may make; a guard, far above
any real chain."""


def final_chain(
    battle: Battle,
    unit: Unit,
    target: Unit,
    rule: str,
    weapon: str,
    wounds: int,
    strike: Callable[[Model, int], list[WoundRoll]],
) -> list[WoundRoll]:
    """The chain Final Shot (seed 000) and Final Blow (seed 001) share; option ``rule``.

    "If a multiple-model unit has been reduced to only a single model with
    only a single wound …, for every successful wound this model causes it may
    immediately make an additional attack … If these additional attacks cause
    wounds, they gain another attack against that target, and so on." Neither
    can "be made by Independent Characters". The player is asked once (a
    decision of kind ``rule``); ``strike(last, n)`` makes ``n`` extra attacks
    of the last model and returns the wounds they cause.
    """
    alive = unit.alive_models
    if not (battle.option(rule) and wounds and unit.starting_models > 1):
        return []
    if len(alive) != 1 or alive[0].wounds_left != 1:
        return []
    last = alive[0]
    if is_independent_character(unit, last):
        return []
    name = rule.replace("_", " ").title()
    accept = battle.decide(
        Decision(
            kind=rule,
            player=unit.player,
            prompt=f"{last.id} may make {wounds} {name}(s) with {weapon}",
            choices=(Choice(name, True), Choice("No", False)),
            context={"unit": unit.id, "target": target.id},
        )
    )
    extra: list[WoundRoll] = []
    pending, made = wounds, 0
    while accept and pending and made < FINAL_SHOT_LIMIT:
        made += pending
        battle.say(rule.replace("_", "-"), f"{last.id} makes {pending} {name}(s)")
        new = strike(last, pending)
        extra += new
        pending = len(new)
    return extra
