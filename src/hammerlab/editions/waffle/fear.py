"""Fear (7th-edition rulebook), tested at the start of each combat's fight.

"At the start of each Fight sub-phase, a unit in base contact with one or more
enemy models that cause Fear must take a Leadership test (called a Fear test)
before any blows are struck. If the test is passed, all is well and there is
no effect. If the test is failed, the unit succumbs to fear - all models in
the unit have their Weapon Skill reduced to 1 for the remainder of that Fight
sub-phase. Note that a model that causes Fear is not itself immune to Fear".
Fearless and And They Shall Know No Fear units "automatically pass … Fear …
tests". The units that failed are this rule's memory, emptied at the start
and end of every Fight sub-phase (:func:`forget`).
"""

from __future__ import annotations

from hammerlab.editions.waffle.combat import Combat, in_contact
from hammerlab.editions.waffle.morale import leadership_test
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.editions.waffle.wounds import majority_value
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

RULE = "Fear"
IMMUNE = ("Fearless", "And They Shall Know No Fear")
"""Rules that "automatically pass … Fear … tests"."""


def forget(battle: Battle) -> None:
    """A Fight sub-phase begins or ends: no unit has succumbed to fear."""
    battle.memory.pop(RULE, None)


def fear_tests(battle: Battle, combat: Combat) -> None:
    """Each unit of ``combat`` in base contact with an enemy model that causes Fear
    takes a Fear test (Leadership, 2D6), unless immune; failing, its models fight
    at Weapon Skill 1 (:func:`weapon_skill`)."""
    for unit in combat.units:
        if unit.destroyed or not _faces_fear(combat, unit):
            continue
        immune = next((r for r in IMMUNE if unit.has_rule(r)), None)
        if immune is not None:
            battle.say("fear", f"{unit.label} passes its Fear test automatically ({immune})")
            continue
        if not leadership_test(battle, unit, "Fear test", 0, "in base contact with Fear"):
            failed: dict[str, bool] = battle.remember(RULE, dict)
            failed[unit.id] = True
            battle.say(
                "fear", f"{unit.label} succumbs to fear: Weapon Skill 1 this Fight sub-phase"
            )


def _faces_fear(combat: Combat, unit: Unit) -> bool:
    frightening = [
        m
        for foe in combat.units
        if foe.player != unit.player
        for m in foe.alive_models
        if model_has(foe, m, RULE)
    ]
    return any(in_contact(m, f) for m in unit.alive_models for f in frightening)


def weapon_skill(battle: Battle, unit: Unit, model: Model) -> int:
    """``model``'s Weapon Skill in close combat: 1 if its unit failed a Fear test in
    this Fight sub-phase."""
    if battle.memory.get(RULE, {}).get(unit.id):
        return 1
    return stats_of(model.profile).ws


def majority_weapon_skill(battle: Battle, unit: Unit) -> int:
    """The Weapon Skill most of ``unit``'s models have (the highest on a tie), Fear
    counted: what blows against the unit roll on the chart."""
    return majority_value(weapon_skill(battle, unit, m) for m in unit.alive_models)
