"""Fear (7th-edition rulebook), tested at the start of each combat's fight.

"At the start of each Fight sub-phase, a unit in base contact with one or more
enemy models that cause Fear must take a Leadership test (called a Fear test)
before any blows are struck. If the test is passed, all is well and there is
no effect. If the test is failed, the unit succumbs to fear - all models in
the unit have their Weapon Skill reduced to 1 for the remainder of that Fight
sub-phase. Note that a model that causes Fear is not itself immune to Fear".
Fearless and And They Shall Know No Fear units "automatically pass … Fear …
tests" (:func:`morale.passes_automatically`). The units that failed are this
rule's memory, emptied at the start and end of every Fight sub-phase
(:func:`forget`).
"""

from __future__ import annotations

from hammerlab.editions.waffle.combat import Combat, in_contact
from hammerlab.editions.waffle.morale import FEAR_TEST, leadership_test, passes_automatically
from hammerlab.editions.waffle.points import WEAPON_SKILL
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import majority_value
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.memo import per_makeup
from hammerlab.engine.units import Model, Unit

RULE = "Fear"


def forget(battle: Battle) -> None:
    """A Fight sub-phase begins or ends: no unit has succumbed to fear."""
    battle.memory.pop(RULE, None)


def fear_tests(battle: Battle, combat: Combat) -> None:
    """Each unit of ``combat`` in base contact with an enemy model that causes Fear
    takes a Fear test (Leadership, 2D6), unless immune; failing, its models fight
    at Weapon Skill 1 (:func:`weapon_skill`). A vehicle, which has no Leadership (its
    profile is armour values), takes none, as it takes no Morale check or Pinning
    test."""
    for unit in combat.units:
        if unit.destroyed or is_vehicle(unit) or not _faces_fear(combat, unit):
            continue  # 7th edition: vehicles have no Leadership, so take no Fear test
        immune = passes_automatically(unit, FEAR_TEST)
        if immune is not None:
            battle.say("fear", f"{unit.label} passes its Fear test automatically ({immune})")
            continue
        penalty = ancient_doom_penalty(combat, unit)
        if not leadership_test(battle, unit, FEAR_TEST, penalty, "in base contact with Fear"):
            failed: dict[str, bool] = battle.remember(RULE, dict)
            failed[unit.id] = True
            battle.say(
                "fear", f"{unit.label} succumbs to fear: Weapon Skill 1 this Fight sub-phase"
            )


def _frightening_in_contact(combat: Combat, unit: Unit) -> list[tuple[Unit, Model]]:
    """The enemy models causing Fear that touch ``unit``, with their units."""
    return [
        (foe, f)
        for foe in combat.units
        if foe.player != unit.player
        for f in foe.alive_models
        if model_has(foe, f, RULE) and any(in_contact(m, f) for m in unit.alive_models)
    ]


def _faces_fear(combat: Combat, unit: Unit) -> bool:
    return bool(_frightening_in_contact(combat, unit))


ANCIENT_DOOM_FOE = "Daemon of Slaanesh"
"""The rule that marks a unit of Slaanesh in the BattleScribe 7th-edition data."""


def ancient_doom_penalty(combat: Combat, unit: Unit) -> int:
    """The Leadership modifier of ``unit``'s Fear test: -1 with Ancient Doom when a
    model causing Fear that touches it is a Daemon of Slaanesh, else 0.

    Ancient Doom (Codex: Craftworlds; from memory, the codex is not in the shared
    data): the unit has Hatred against units with the Daemon of Slaanesh special
    rule, "however, they must take Fear tests at -1 Ld against" them. This is
    the Fear part; the Hatred part is :func:`hatred.hates`."""
    if not unit.has_rule("Ancient Doom"):
        return 0
    slaanesh = any(
        model_has(foe, f, ANCIENT_DOOM_FOE) for foe, f in _frightening_in_contact(combat, unit)
    )
    return -int(slaanesh)


def failed_fear(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` failed a Fear test in this Fight sub-phase."""
    return bool(battle.memory.get(RULE, {}).get(unit.id))


def weapon_skill(battle: Battle, unit: Unit, model: Model) -> int:
    """``model``'s Weapon Skill in close combat: 1 if its unit failed a Fear test in
    this Fight sub-phase; then as the rules installed change it (:func:`_changed`)."""
    return _changed(battle, unit, 1 if failed_fear(battle, unit) else stats_of(model.profile).ws)


def majority_weapon_skill(battle: Battle, unit: Unit) -> int:
    """The Weapon Skill most of ``unit``'s models have (the highest on a tie), Fear
    counted: what blows against the unit roll on the chart. A failed Fear test sets
    every model of the unit to WS 1 (:func:`weapon_skill`); any other unit is
    answered from its make-up (:func:`_majority_profile_ws`)."""
    return _changed(battle, unit, 1 if failed_fear(battle, unit) else _majority_profile_ws(unit))


def _changed(battle: Battle, unit: Unit, ws: int) -> int:
    """``ws`` as the rules installed on :data:`points.WEAPON_SKILL` change it, in turn."""
    for rule in battle.hooks.get(WEAPON_SKILL):
        ws = rule(battle, unit, ws)
    return ws


@per_makeup
def _majority_profile_ws(profiles: tuple[Profile, ...]) -> int:
    """The WS most of a unit's models alive have by their profiles (called with the
    unit: :func:`memo.per_makeup`)."""
    return majority_value(stats_of(p).ws for p in profiles)
