"""Final Shot (seed 000) and Final Blow (seed 001): the last model's chain of extra attacks.

Both are proposed rules that install on "wounds caused" points: Final Shot on
the shooting one, Final Blow on the melee one.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.waffle.events import FinalAttacks, final_attack_name
from hammerlab.editions.waffle.orders import WoundRoll
from hammerlab.editions.waffle.points import (
    MELEE_WOUNDS_CAUSED,
    MELEE_WOUNDS_UNSAVED,
    SHOOTING_WOUNDS_CAUSED,
    SHOOTING_WOUNDS_UNSAVED,
    WoundsCaused,
)
from hammerlab.editions.waffle.special_rules import is_independent_character
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.rules import Hooks, Parameter, RuleOption, RuleSettings

FINAL_SHOT_LIMIT = 60
"""Extra attacks one Final Shot or Final Blow chain may make; a guard, far above
any real chain."""


def final_chain(
    battle: Battle, rule: str, caused: WoundsCaused, resolve: Callable[[list[WoundRoll]], int]
) -> None:
    """The chain Final Shot (seed 000) and Final Blow (seed 001) share.

    "If a multiple-model unit has been reduced to only a single model with
    only a single wound …, for every successful wound this model causes it may
    immediately make an additional attack … If these additional attacks cause
    wounds, they gain another attack against that target, and so on." Neither
    can "be made by Independent Characters". "This model" is the unit's last
    model, and only where it is one of ``caused.models``, those whose attacks
    caused the wounds. The player is asked once (a
    decision of kind ``rule``); ``caused.strike`` makes the extra attacks of
    the last model and ``resolve`` says how many of their wounds earn more
    (every wound roll, or the unsaved ones once allocated: parameter
    ``earned_by``).

    Every extra attack is "against that same target", so the chain ends once the
    target has no model left: with ``earned_by=unsaved_wound`` each extra attack's
    wounds are allocated before the next is made, and the one that removes the
    target's last model earns nothing (nor do the weapon's own wounds, where they
    removed it). Earned by the wound roll, the wounds are allocated after the
    chain, so the target is never destroyed during it.
    """
    unit, target, weapon, wounds = caused.unit, caused.target, caused.profile.name, caused.wounds
    alive = unit.alive_models
    if not (wounds and unit.starting_models > 1 and target.alive_models):
        return
    if len(alive) != 1 or alive[0].wounds_left != 1:
        return
    last = alive[0]
    # "for every successful wound this model causes": only a model whose own attacks
    # caused them (one of the volley's firers, of the group that struck with this
    # weapon at this Initiative step); never another model of the unit, whose weapon
    # and step these are not (a referee's review, session 23: a power fist model left
    # last made Final Blows with a slain model's Thunder blade at its Initiative 4).
    if last not in caused.models or is_independent_character(unit, last):
        return
    name = final_attack_name(rule)
    accept = battle.decide(
        Decision(
            kind=rule,
            player=unit.player,
            prompt=f"{last.id} may make {wounds} {name}(s) with {weapon}",
            choices=(Choice(name, True), Choice("No", False)),
            context=DecisionContext(unit=unit.id, target=target.id),
        )
    )
    pending, made = wounds, 0
    # Seed 000: "an additional attack ... against that same target. If these additional
    # attacks cause wounds, they gain another attack against that target": once its
    # last model is removed (earned by unsaved wounds, allocated as they come) there is
    # no target left, and the chain ends (it rolled on at the empty unit and crashed).
    while accept and pending and target.alive_models and made < FINAL_SHOT_LIMIT:
        made += pending
        battle.emit(FinalAttacks(rule, unit.label, last.id, pending))
        pending = resolve(caused.strike(last, pending, name))


def _by_wound_roll(battle: Battle, rule: str, caused: WoundsCaused) -> list[WoundRoll]:
    """Every successful wound roll earns an attack; the extra wounds are allocated
    with the weapon's own."""
    extra: list[WoundRoll] = []

    def keep(new: list[WoundRoll]) -> int:
        extra.extend(new)
        return len(new)

    final_chain(battle, rule, caused, keep)
    return extra


def _may_final_shot(caused: WoundsCaused) -> bool:
    """Seed 000: "A model may not make a Final Shot with a Blast, Template, Barrage,
    or Ordnance weapon". Its extra attacks are not made into a melee
    (docs/rules/waffle.md)."""
    profile = caused.profile
    if profile.template or profile.blast or profile.barrage:
        return False
    return profile.base_type != "Ordnance" and not caused.orders.into_melee


def _final_shot(battle: Battle, caused: WoundsCaused) -> list[WoundRoll]:
    return _by_wound_roll(battle, FINAL_SHOT.name, caused) if _may_final_shot(caused) else []


def _final_shot_unsaved(battle: Battle, caused: WoundsCaused) -> None:
    if _may_final_shot(caused):
        final_chain(battle, FINAL_SHOT.name, caused, caused.allocate)


def _final_blow(battle: Battle, caused: WoundsCaused) -> list[WoundRoll]:
    """Seed 001: "… against that same target at the same Initiative step"."""
    return _by_wound_roll(battle, FINAL_BLOW.name, caused)


def _final_blow_unsaved(battle: Battle, caused: WoundsCaused) -> None:
    final_chain(battle, FINAL_BLOW.name, caused, caused.allocate)


EARNED_BY = Parameter(
    "earned_by",
    "wound_roll",
    "What earns an extra attack: each successful wound roll (before saves), or each "
    "unsaved wound (the chain then runs after allocation)",
    'Seeds 000/001: "for every successful wound this model causes it may immediately make '
    'an additional attack" (docs/rules/waffle.md, readings)',
    choices=("wound_roll", "unsaved_wound"),
)


def _install_shot(hooks: Hooks, settings: RuleSettings) -> None:
    if settings.text("final_shot.earned_by") == "unsaved_wound":
        hooks.add(SHOOTING_WOUNDS_UNSAVED, _final_shot_unsaved)
    else:
        hooks.add(SHOOTING_WOUNDS_CAUSED, _final_shot)


def _install_blow(hooks: Hooks, settings: RuleSettings) -> None:
    if settings.text("final_blow.earned_by") == "unsaved_wound":
        hooks.add(MELEE_WOUNDS_UNSAVED, _final_blow_unsaved)
    else:
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
    parameters=(EARNED_BY,),
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
    parameters=(EARNED_BY,),
    install=_install_blow,
)
