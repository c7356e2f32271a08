"""The characteristics and saves a rule may change: Ballistic Skill, Leadership, the
armour and the invulnerable save, read here by the rules that resolve a battle and by
the AI's estimates alike, so that a plug-in changing one (docs/plugins.md) changes
both.

Each reads the model's (or unit's) profile, then gives the value to the handlers
installed on its hook point (:data:`points.BALLISTIC_SKILL`, :data:`points.LEADERSHIP`,
:data:`points.ARMOUR_SAVE`, :data:`points.INVULNERABLE_SAVE`) in turn. The cover
save's point (:data:`points.COVER_SAVE`) is asked by :func:`visibility.cover_save`,
Weapon Skill's (:data:`points.WEAPON_SKILL`) by :func:`fear.weapon_skill` and
:func:`fear.majority_weapon_skill`.
"""

from __future__ import annotations

from hammerlab.editions.waffle.artillery import crewman_of
from hammerlab.editions.waffle.points import (
    ARMOUR_SAVE,
    BALLISTIC_SKILL,
    INVULNERABLE_SAVE,
    LEADERSHIP,
)
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.state import state_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit


def ballistic_skill(battle: Battle, model: Model) -> int:
    """The BS ``model`` shoots with: its own, or an Artillery gun's crewman's
    (:func:`artillery.crewman_of`), as the rules installed change it (before Snap
    Shots replace it: :func:`attacks.shot_bs`)."""
    bs = stats_of(crewman_of(battle, model).profile).bs
    for rule in battle.hooks.get(BALLISTIC_SKILL):
        bs = rule(battle, model, bs)
    return bs


def leadership(battle: Battle, unit: Unit) -> int:
    """The Leadership ``unit`` tests on: the highest in the unit (6th/7th edition), as the
    rules installed change it.

    Not a Character's that refused a challenge this phase (``WaffleState.refused``,
    ``challenges.py``): 6th-edition rulebook p. 64, Refusing a Challenge (kept by the
    7th, p. 101, as remembered and as rules discussions quote it:
    h2lat40k.blogspot.com/2013/05/6th-ed-rules-of-game-refusing-challenge.html),
    "his Leadership cannot be used by the rest of the unit for the remainder of the
    phase". A unit left with that Character alone tests on his own: there is no
    rest of the unit."""
    refused = state_of(battle).refused
    lending = [m for m in unit.alive_models if m.id not in refused] or unit.alive_models
    ld = max(stats_of(m.profile).ld for m in lending)
    for rule in battle.hooks.get(LEADERSHIP):
        ld = rule(battle, unit, ld)
    return ld


def armour_save(battle: Battle, unit: Unit, model: Model) -> int | None:
    """The armour save ``model`` (of ``unit``) takes, as the rules installed change it
    (``None``: none)."""
    save = stats_of(model.profile).sv
    for rule in battle.hooks.get(ARMOUR_SAVE):
        save = rule(battle, unit, model, save)
    return save


def invulnerable_save(battle: Battle, unit: Unit, model: Model) -> int | None:
    """The invulnerable save ``model`` (of ``unit``) takes, as the rules installed change
    it (``None``: none)."""
    save = stats_of(model.profile).invulnerable
    for rule in battle.hooks.get(INVULNERABLE_SAVE):
        save = rule(battle, unit, model, save)
    return save
