"""Perils of the Warp: the 7th-edition table, rolled on a D6.

The 7th-edition rulebook's table, as a public transcription of it gives the
text (docs/rules/waffle.md, Psychic phase, names the source):

1. Dragged into the Warp: "The Psyker must take a Leadership test. If the test
   is passed, the Psyker suffers 1 Wound/glancing hit with no saves of any kind
   allowed. If the test is failed, the Psyker is removed as a casualty and his
   unit suffers D6 Strength 6 AP1 hits. For Wound allocation purposes, assume
   the attack is coming from the Psyker that suffered Perils of the Warp."
2. Mental Purge: "The Psyker suffers 1 Wound/glancing hit with no saves of any
   kind allowed. In addition, randomly select one psychic power known to the
   Psyker. That power is immediately lost, and cannot be used by the Psyker for
   the rest of the battle."
3. Power Drain: "The Psyker suffers 1 Wound/glancing hit with no saves of any
   kind allowed. In addition, if it is currently the Psychic phase, roll a D3;
   both players lose a number of Warp Charge points equal to the result."
4. Psychic Backlash: "The Psyker suffers 1 Wound/glancing hit with no saves of
   any kind allowed."
5. Empyric Feedback: "The Psyker must take a Leadership test. If the test is
   failed, the Psyker suffers 1 Wound/glancing hit with no saves of any kind
   allowed. If the test is passed, the Psyker suffers no ill effects… this time."
6. Warp Surge: "The Psyker must take a Leadership test. If the test is failed,
   the Psyker suffers 1 Wound/glancing hit with no saves of any kind allowed. If
   the test is passed, the Psyker gains a 3+ Invulnerable save as well as the
   Fleshbane, Armourbane and Smash special rules, until the start of the next
   friendly Psychic phase."

Feel No Pain may still ignore the Wound (7th edition: it "is not a saving throw
and so can be used against attacks that state that 'no saves of any kind are
allowed', for example those inflicted by Perils of the Warp").
"""

from __future__ import annotations

from dataclasses import replace

from hammerlab.editions.waffle.allocation import allocate_wounds, feel_no_pain_ignores
from hammerlab.editions.waffle.morale import leadership_test
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.profiles import StrengthSpec, WeaponProfile, single_hit
from hammerlab.editions.waffle.psychic_events import (
    BlessingChanged,
    PerilsOfTheWarp,
    PowerPurged,
    WarpChargeDrained,
)
from hammerlab.editions.waffle.psychic_memory import Blessing, memory_of
from hammerlab.editions.waffle.psychic_powers import known_power_names
from hammerlab.editions.waffle.state import lose_one_wound, remove_casualty
from hammerlab.editions.waffle.vehicle_damage import resolve_vehicle_hits
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit

DRAGGED, PURGE, DRAIN = "Dragged into the Warp", "Mental Purge", "Power Drain"
BACKLASH, FEEDBACK, SURGE = "Psychic Backlash", "Empyric Feedback", "Warp Surge"
TABLE = {1: DRAGGED, 2: PURGE, 3: DRAIN, 4: BACKLASH, 5: FEEDBACK, 6: SURGE}
"""The Perils of the Warp table: the D6 result → its name."""
DRAGGED_HIT: WeaponProfile = replace(
    single_hit(DRAGGED, StrengthSpec(6), base_type="Assault"), ap=1
)
"""Dragged into the Warp's hits on the Psyker's unit: "D6 Strength 6 AP1 hits"."""
SURGE_RULES = ("Fleshbane", "Armourbane", "Smash")
SURGE_INVULNERABLE = 3
LEADERSHIP_TEST = "Leadership test"


def perils_of_the_warp(battle: Battle, unit: Unit, model: Model) -> None:
    """The Psyker ``model`` of ``unit`` rolls on the Perils of the Warp table."""
    roll = battle.dice.d6(f"Perils of the Warp ({model.id})")
    result = TABLE[roll]
    battle.emit(PerilsOfTheWarp(unit=unit.label, model=model.id, roll=roll, result=result))
    if result in (DRAGGED, FEEDBACK, SURGE):
        passed = leadership_test(battle, unit, LEADERSHIP_TEST, 0, f"{result}, {model.id}")
        if result == DRAGGED and not passed:
            dragged_into_the_warp(battle, unit, model)
        elif result == SURGE and passed:
            warp_surge(battle, unit, model)
        elif result == DRAGGED or not passed:
            wound_with_no_saves(battle, unit, model)
        return
    wound_with_no_saves(battle, unit, model)
    if result == PURGE:
        mental_purge(battle, unit, model)
    elif result == DRAIN:
        power_drain(battle)


def wound_with_no_saves(battle: Battle, unit: Unit, model: Model) -> None:
    """ "1 Wound/glancing hit with no saves of any kind allowed": one Wound (a vehicle
    Psyker's glancing hit: one Hull Point) unless Feel No Pain ignores it."""
    if feel_no_pain_ignores(battle, unit, model):
        return
    lose_one_wound(battle, unit, model, "Perils of the Warp")


def dragged_into_the_warp(battle: Battle, unit: Unit, model: Model) -> None:
    """The failed test: the Psyker is removed, then his unit suffers D6 S6 AP1 hits
    from where he stood, wounded, saved and allocated like shooting hits."""
    remove_casualty(battle, unit, model, DRAGGED)
    if unit.destroyed:
        return
    count = battle.dice.d6(f"{DRAGGED} hits ({unit.label})")
    hits = [Hit(unit, 6, model)] * count
    orders = FireOrders(purpose="perils")
    result = VolleyResult()
    if is_vehicle(unit):
        resolve_vehicle_hits(battle, unit, unit, hits, DRAGGED_HIT, orders, result)
        return
    wounds = roll_to_wound(battle, unit, hits, DRAGGED_HIT)
    allocate_wounds(battle, unit, unit, wounds, DRAGGED_HIT, orders, result, [model])


def mental_purge(battle: Battle, unit: Unit, model: Model) -> None:
    """One of the powers the Psyker knows, at random (one die with as many sides),
    is lost for the rest of the battle (:func:`psychic_memory.purged`)."""
    if not model.alive:
        return
    memory = memory_of(battle)
    known = [p for p in known_power_names(model) if (model.id, p) not in memory.purged]
    if not known:
        return
    pick = battle.dice.roll(1, f"{PURGE}: power lost ({model.id})", sides=len(known))[0]
    memory.purged.append((model.id, known[pick - 1]))
    battle.emit(PowerPurged(unit=unit.label, model=model.id, power=known[pick - 1]))


def power_drain(battle: Battle) -> None:
    """Both players lose D3 Warp Charge points (never below none)."""
    lost = battle.dice.roll(1, f"{DRAIN} (D3)", sides=3)[0]
    memory = memory_of(battle)
    memory.pools = {player: max(0, pool - lost) for player, pool in memory.pools.items()}
    battle.emit(WarpChargeDrained(lost=lost, pools=dict(memory.pools)))


def warp_surge(battle: Battle, unit: Unit, model: Model) -> None:
    """The passed test: a 3+ invulnerable save (kept when the model's own is better)
    and Fleshbane, Armourbane and Smash until the start of its player's next
    Psychic phase, which ends it like a Blessing (:func:`psychic.end_blessings`)."""
    new = tuple(r for r in SURGE_RULES if r not in model.rules)
    blessing = Blessing(unit.player, unit.id, SURGE, {model.id: new})
    model.rules = (*model.rules, *new)
    own = model.profile.invulnerable
    if own is None or own > SURGE_INVULNERABLE:
        blessing.profiles[model.id] = model.profile
        model.profile = replace(model.profile, invulnerable=SURGE_INVULNERABLE)
        blessing.notes = (f"{SURGE_INVULNERABLE}+ invulnerable save",)
    memory_of(battle).blessings.append(blessing)
    battle.emit(
        BlessingChanged(unit=unit.label, power=SURGE, rules=(*new, *blessing.notes), begins=True)
    )
