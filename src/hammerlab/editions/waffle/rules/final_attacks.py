"""Final Shot (seed 000) and Final Blow (seed 001): the last model's chain of extra attacks.

Both are proposed rules that install on "wounds caused" points: Final Shot on
the shooting one, Final Blow on the melee one.
"""

from __future__ import annotations

from hammerlab.editions.waffle.orders import WoundRoll
from hammerlab.editions.waffle.points import (
    MELEE_WOUNDS_CAUSED,
    SHOOTING_WOUNDS_CAUSED,
    WoundsCaused,
)
from hammerlab.editions.waffle.special_rules import is_independent_character
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings

FINAL_SHOT_LIMIT = 60
"""Extra attacks one Final Shot or Final Blow chain may make; a guard, far above
any real chain."""


def final_chain(battle: Battle, rule: str, caused: WoundsCaused) -> list[WoundRoll]:
    """The chain Final Shot (seed 000) and Final Blow (seed 001) share.

    "If a multiple-model unit has been reduced to only a single model with
    only a single wound …, for every successful wound this model causes it may
    immediately make an additional attack … If these additional attacks cause
    wounds, they gain another attack against that target, and so on." Neither
    can "be made by Independent Characters". The player is asked once (a
    decision of kind ``rule``); ``caused.strike`` makes the extra attacks of
    the last model and returns the wounds they cause.
    """
    unit, target, weapon, wounds = caused.unit, caused.target, caused.profile.name, caused.wounds
    alive = unit.alive_models
    if not (wounds and unit.starting_models > 1):
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
        new = caused.strike(last, pending, name)
        extra += new
        pending = len(new)
    return extra


def _final_shot(battle: Battle, caused: WoundsCaused) -> list[WoundRoll]:
    """Seed 000: "A model may not make a Final Shot with a Blast, Template, Barrage,
    or Ordnance weapon". Its extra attacks are not made into a melee
    (docs/rules/waffle.md)."""
    profile = caused.profile
    if profile.template or profile.blast or profile.barrage:
        return []
    if profile.base_type == "Ordnance" or caused.orders.into_melee:
        return []
    return final_chain(battle, FINAL_SHOT.name, caused)


def _final_blow(battle: Battle, caused: WoundsCaused) -> list[WoundRoll]:
    """Seed 001: "… against that same target at the same Initiative step"."""
    return final_chain(battle, FINAL_BLOW.name, caused)


def _install_shot(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(SHOOTING_WOUNDS_CAUSED, _final_shot)


def _install_blow(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(MELEE_WOUNDS_CAUSED, _final_blow)


FINAL_SHOT = RuleOption(
    name="final_shot",
    summary="A last one-wound model of a unit gains an extra shot for each wound it causes",
    quote=(
        "If a multiple-model unit has been reduced to only a single model with only a single "
        "wound …, for every successful wound this model causes it may immediately make an "
        "additional attack with identical Strength, AP, and any other applicable special rules "
        "against that same target. … A model may not make a Final Shot with a Blast, Template, "
        "Barrage, or Ordnance weapon, and cannot be made by Independent Characters."
    ),
    install=_install_shot,
)
FINAL_BLOW = RuleOption(
    name="final_blow",
    summary="A last one-wound model of a unit gains an extra attack in melee for each wound",
    quote=(
        "If a multiple-model unit has been reduced to only a single model with only a single "
        "wound (If it had multiple wounds, with all but the last one having been lost "
        "previously), for every successful wound this model causes it may immediately make an "
        "additional attack with identical Strength, AP, and any other applicable special rules "
        "against that same target at the same Initiative step. If these additional attacks "
        "cause wounds, they gain another attack against that target, and so on. A Final Blow "
        "cannot be made by Independent Characters."
    ),
    install=_install_blow,
)
