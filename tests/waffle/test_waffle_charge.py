"""Seed 004, "Charge Sub-phase": Declare Charge, Reaction to Charge (Overwatch,
Fall Back), Roll Charge Range, the charge move and (Proposed Rule) Fiery Charge.

"First, pick one of your units, and declare which enemy unit it wishes to
charge. Then, the target enemy unit gets to make a Reaction to Charge … Once
Reaction to Charge is resolved, roll the charge distance for the unit and, if
it is in range, move it into contact with the enemy unit".

Bases are 1" across (radius 0.5"), so two models whose centres are ``d`` apart
are ``d - 1`` inches apart, base to base.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    FRAG_MISSILE,
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    MARINE,
    WALKER,
    A,
    B,
    all_dice_used,
    asked,
    box,
    charge_sub_phase,
    controller,
    last,
    make_battle,
    model,
    of_kind,
    profile,
    shooting_phase,
    squad,
    weapon,
)
from shapely.geometry import Point
from shapely.geometry import box as square

from hammerlab.analysis.game import Game
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.charge import charge_bonus_attacks, charge_dice, charge_range_of
from hammerlab.editions.waffle.combat import engaged_models, in_contact
from hammerlab.editions.waffle.morale import phase_casualty_checks
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.placement import coherent_approach
from hammerlab.editions.waffle.plans import charge_chance
from hammerlab.editions.waffle.rules.fiery_charge import fiery_chargers
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.geometry import base_distance, centre_distance
from hammerlab.engine.paths import way_round
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import load_scenario

SHORT_PISTOL = weapon("Short pistol", "6", "4", "5", "Pistol")
PIN_GUN = weapon("Pin gun", "24", "4", "-", "Assault 2, Pinning")

NO_REACTION = [("charge_reaction", "no reaction")]


def charge_script(unit: str, target: str) -> list[tuple[str, str]]:
    return [("charger", unit), ("charge_target", target)]


def rolls(battle: Battle) -> list[Any]:
    return of_kind(battle, "charge_roll")


def charge_moves(battle: Battle) -> list[Any]:
    return [e for e in of_kind(battle, "move") if e.reason == "charges"]


# --- Declare Charge: who may not charge ---------------------------------------------


def barred_battle(*, rules: Sequence[str] = (), weapons: Sequence[Weapon] = (BOLTGUN,)) -> Battle:
    """``Barred [a]`` and ``Free [c]`` (player A) both 6.81" from ``Enemy [b]``."""
    barred = squad("a", A, MARINE, weapons, [(30, 10)], name="Barred", rules=rules)
    free = squad("c", A, MARINE, [BOLTGUN], [(40, 10)], name="Free")
    enemy = squad("b", B, GUARD, [LASGUN], [(35, 16)], name="Enemy")
    return make_battle(barred, free, enemy, script_a=[("charger", "end charges")])


def barred(battle: Battle) -> list[tuple[str, str]]:
    """Each unit said to be barred from charging, and why (``charge_barred`` events)."""
    return [(e.unit, e.reason) for e in of_kind(battle, "charge_barred")]  # type: ignore[attr-defined]


def offered_chargers(battle: Battle) -> list[str]:
    charge_sub_phase(battle, A)
    (menu,) = asked(battle, A, "charger")
    return list(menu.labels())


def test_seed004_locked_in_close_combat_cannot_declare_a_charge() -> None:
    battle = barred_battle()
    brawler = squad("d", B, GUARD, [LASGUN], [(30, 11)], name="Brawler")  # base contact
    battle.units["d"] = brawler
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert st(battle, battle.unit("a")).locked_in_combat
    assert ("Barred [a]", "it is locked in close combat") in barred(battle)
    (said,) = [e for e in of_kind(battle, "charge_barred") if e.unit == "Barred [a]"]
    assert said.text == "Barred [a] may not charge: it is locked in close combat"


def test_seed004_unit_that_ran_cannot_declare_a_charge() -> None:
    battle = barred_battle()
    st(battle, battle.unit("a")).ran = True
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert ("Barred [a]", "it ran in the Shooting phase") in barred(battle)


def test_seed004_unit_gone_to_ground_cannot_declare_a_charge() -> None:
    battle = barred_battle()
    st(battle, battle.unit("a")).gone_to_ground = True
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert ("Barred [a]", "it has gone to ground") in barred(battle)


@pytest.mark.parametrize("kind", ["Rapid Fire", "Salvo", "Ordnance", "Heavy"])
def test_seed004_unit_that_shot_rapid_fire_salvo_ordnance_or_heavy_cannot_charge(
    kind: str,
) -> None:
    battle = barred_battle()
    status = st(battle, battle.unit("a"))
    status.has_shot, status.shot_target, status.fired_types = True, "b", {kind}
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert ("Barred [a]", f"it shot {kind} weapons in the Shooting phase") in barred(battle)


def test_seed004_snap_shots_with_a_heavy_weapon_still_bar_the_charge() -> None:
    # "This even applies if Snap Shots were made with these weapons": the unit
    # moved, so its Heavy bolter fires snap shots (BS4 -> BS2: 5+), and misses.
    battle = barred_battle(weapons=(HEAVY_BOLTER,))
    battle.unit("a").status.moved = True
    battle.dice.extend([1, 1, 1])  # type: ignore[attr-defined]
    controller(battle, A).script[:0] = [
        ("shooter", "Barred [a]"),
        ("action", "shoot"),
        ("target", "Enemy [b]"),
        ("weapon", "Heavy bolter"),
        ("shooter", "end phase"),
    ]
    shooting_phase(battle, A)
    assert last(of_kind(battle, "shots")).snap
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert all_dice_used(battle)


def test_seed004_relentless_units_may_charge_after_firing_heavy_weapons() -> None:
    # 6th/7th-edition Relentless: "allowed to charge in the same turn they fire
    # Heavy, Ordnance, Rapid Fire or Salvo weapons".
    battle = barred_battle(rules=("Relentless",))
    status = st(battle, battle.unit("a"))
    status.has_shot, status.shot_target, status.fired_types = True, "b", {"Heavy"}
    assert offered_chargers(battle) == ["Barred [a]", "Free [c]", "end charges"]


def test_seed004_falling_back_unit_cannot_declare_a_charge() -> None:
    battle = barred_battle()
    st(battle, battle.unit("a")).falling_back = True
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert ("Barred [a]", "it is falling back") in barred(battle)


def test_seed004_flying_monstrous_creature_that_changed_flight_mode_cannot_charge() -> None:
    battle = barred_battle()
    st(battle, battle.unit("a")).changed_flight_mode = True
    assert offered_chargers(battle) == ["Free [c]", "end charges"]
    assert ("Barred [a]", "it changed flight mode this turn") in barred(battle)


def test_seed004_unit_that_fired_may_only_charge_the_unit_it_shot_at() -> None:
    shooter = squad("a", A, MARINE, [BOLT_PISTOL], [(30, 10)], name="Shooter")
    first = squad("b", B, GUARD, [LASGUN], [(30, 16)], name="First")
    shot = squad("d", B, GUARD, [LASGUN], [(34, 16)], name="Shot")
    battle = make_battle(
        shooter,
        first,
        shot,
        dice=[1, 1],  # the charge roll: 2", fails
        script_a=charge_script("Shooter [a]", "Shot [d]"),
        script_b=NO_REACTION,
    )
    # A Pistol does not bar the charge, but the target is fixed by the shooting.
    st(battle, shooter).has_shot, st(battle, shooter).shot_target = True, "d"
    st(battle, shooter).fired_types = {"Pistol"}
    charge_sub_phase(battle, A)
    (menu,) = asked(battle, A, "charge_target")
    assert menu.labels() == ["Shot [d]"]
    assert all_dice_used(battle)


def test_seed004_only_visible_and_reachable_units_may_be_charged() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    near = squad("n", B, GUARD, [LASGUN], [(30, 23)], name="Near")  # 13 - 1 = 12" exactly
    far = squad("f", B, GUARD, [LASGUN], [(16.9, 10)], name="Far")  # 13.1 - 1 = 12.1"
    hidden = squad("h", B, GUARD, [LASGUN], [(38, 10)], name="Hidden")  # 7", behind a wall
    wall = box("wall", 34, 5, 35, 15, blocks_sight=True)
    battle = make_battle(
        charger,
        near,
        far,
        hidden,
        terrain=[wall],
        dice=[1, 1],  # charge roll 2": fails
        script_a=charge_script("Charger [a]", "Near [n]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    (menu,) = asked(battle, A, "charge_target")
    assert menu.labels() == ["Near [n]"]
    declared = last(of_kind(battle, "charge"))
    assert (declared.unit, declared.target) == ("Charger [a]", "Near [n]")
    # A unit whose charge failed may not declare another this sub-phase.
    assert len(asked(battle, A, "charger")) == 1
    assert all_dice_used(battle)


# --- Reaction to Charge -----------------------------------------------------------


def test_seed004_a_unit_reacts_to_a_charge_only_once_per_turn() -> None:
    first = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="First")
    second = squad("c", A, MARINE, [BOLTGUN], [(40, 10)], name="Second")
    target = squad("b", B, GUARD, [LASGUN], [(35, 20)], name="Target")
    battle = make_battle(
        first,
        second,
        target,
        dice=[
            *[1, 1],  # Overwatch: 10.18" is within half the Lasgun's 24": 2 shots at 6+, miss
            *[1, 1],  # First's charge roll: 2" against 10.18": fails
            *[6, 5],  # Second's charge roll: 11" against 10.18": succeeds
        ],
        script_a=[
            *charge_script("First [a]", "Target [b]"),
            *charge_script("Second [c]", "Target [b]"),
        ],
        script_b=[("charge_reaction", "Fire Overwatch"), ("weapon", "Lasgun")],
    )
    charge_sub_phase(battle, A)
    assert len(asked(battle, B, "charge_reaction")) == 1
    (no_reaction,) = of_kind(battle, "charge_reaction_barred")
    assert (no_reaction.unit, no_reaction.reason) == ("Target [b]", "has reacted this turn")
    assert no_reaction.text == "Target [b] has reacted this turn: it cannot react to the charge"
    assert [r.success for r in rolls(battle)] == [False, True]
    assert second.status.charged and st(battle, second).locked_in_combat
    assert all_dice_used(battle)
    end_of_turn(battle, A)  # the ruleset clears it at the end of every turn
    assert not st(battle, target).reacted_this_turn


def test_seed004_units_locked_in_combat_cannot_react_to_a_charge() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    holder = squad("c", A, MARINE, [BOLTGUN], [(35, 21)], name="Holder")
    target = squad("b", B, GUARD, [LASGUN], [(35, 20)], name="Target")  # touching Holder
    battle = make_battle(
        charger,
        holder,
        target,
        dice=[6, 6],  # 12" against 10.18": succeeds
        script_a=charge_script("Charger [a]", "Target [b]"),
    )
    charge_sub_phase(battle, A)  # B's script is empty: asking B anything would fail
    assert asked(battle, B) == []
    (no_reaction,) = of_kind(battle, "charge_reaction_barred")
    assert (no_reaction.unit, no_reaction.reason) == ("Target [b]", "is locked in combat")
    assert charger.status.charged
    assert in_contact(model(battle, "a.1"), model(battle, "b.1"))
    assert all_dice_used(battle)


def test_seed004_fleeing_units_must_fall_back_and_the_charge_fails_out_of_reach() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 20)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[
            *[3, 4],  # Fall Back 2D6 = 7": from (30, 20) to (30, 27), toward the north edge
            *[6, 6],  # charge roll 12" against 27 - 10 - 1 = 16": fails
        ],
        script_a=charge_script("Charger [a]", "Target [b]"),
    )
    st(battle, target).falling_back = True
    charge_sub_phase(battle, A)
    assert asked(battle, B) == []  # not asked: it must Fall Back
    reaction = last(of_kind(battle, "reaction"))
    assert (reaction.unit, reaction.reaction) == ("Target [b]", 'falls back 7"')
    assert model(battle, "b.1").position == pytest.approx((30, 27))
    roll = last(rolls(battle))
    assert (roll.charge_range, roll.distance, roll.success) == (12, 16.0, False)
    assert model(battle, "a.1").position == (30, 10)  # a failed charge does not move
    assert charge_moves(battle) == []
    assert st(battle, target).reacted_this_turn
    assert not charger.status.charged and not st(battle, charger).locked_in_combat
    assert all_dice_used(battle)


def test_seed004_overwatch_is_snap_shots_only_and_counts_as_within_1_inch() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (32, 10)], name="Charger")
    target = squad("b", B, MARINE, [SHORT_PISTOL], [(30, 21)], name="Target")  # 10" away
    battle = make_battle(
        charger,
        target,
        dice=[
            5,  # 1 Short pistol shot, BS4 as a snap shot is BS2: hits on 5+
            4,  # S4 v T4: wounds on 4+
            1,  # a.1 (the closest) fails its 3+ armour save (AP5)
            *[6, 5],  # charge roll 11": a.2 is sqrt(4 + 121) - 1 = 10.18" away
        ],
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=[("charge_reaction", "Fire Overwatch"), ("weapon", "Short pistol")],
    )
    # The 6" pistol could not reach a target 10" away in a normal shooting attack.
    assert firing_models(battle, target, charger, "Short pistol", FireOrders()) == []
    charge_sub_phase(battle, A)
    (menu,) = asked(battle, B, "charge_reaction")
    assert menu.labels() == ["Fire Overwatch", "Fall Back", "no reaction"]
    reaction = last(of_kind(battle, "reaction"))
    assert (reaction.unit, reaction.reaction, reaction.against) == (
        "Target [b]",
        "Fire Overwatch",
        "Charger [a]",
    )
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.shots, shots.hits) == (True, "5+", 1, 1)
    assert [m.id for m in charger.alive_models] == ["a.2"]
    assert last(rolls(battle)).success
    assert all_dice_used(battle)


def test_seed004_weapons_that_cannot_snap_fire_cannot_fire_overwatch() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, MARINE, [FRAG_MISSILE], [(30, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[1, 1],
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    (menu,) = asked(battle, B, "charge_reaction")
    assert menu.labels() == ["Fall Back", "no reaction"]  # a Blast weapon cannot snap-fire


def test_seed004_overwatch_causes_no_morale_check_or_pinning_test() -> None:
    charger = squad("a", A, GUARD, [LASGUN], [(30, 10), (32, 10), (34, 10), (36, 10)], name="Guard")
    target = squad("b", B, MARINE, [PIN_GUN], [(30, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[
            *[5, 5],  # Pin gun, Assault 2 as snap shots (BS2): two hits on 5+
            *[4, 1],  # S4 v T4 wounds on 4+: one wound
            1,  # a.1 fails its 5+ save: 1 of 4 models (25%) lost to a Pinning weapon
            *[1, 1],  # charge roll 2": fails
        ],
        script_a=charge_script("Guard [a]", "Target [b]"),
        script_b=[("charge_reaction", "Fire Overwatch"), ("weapon", "Pin gun")],
    )
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    phase_casualty_checks(battle, A)  # a 25% loss in a phase would force a Morale check
    assert [m.id for m in charger.alive_models] == ["a.2", "a.3", "a.4"]
    assert of_kind(battle, "morale") == []  # no Pinning test, no Morale check
    assert not st(battle, charger).falling_back and not st(battle, charger).pinned
    assert all_dice_used(battle)


def test_seed004_overwatch_with_a_heavy_weapon_does_not_stop_a_later_charge() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, MARINE, [HEAVY_BOLTER], [(30, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[*[1, 1, 1], *[1, 1]],  # Heavy 3 snap shots all miss; charge roll fails
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=[("charge_reaction", "Fire Overwatch"), ("weapon", "Heavy bolter")],
    )
    charge_sub_phase(battle, A)
    # Overwatch is not "the Shooting phase": nothing bars B's charge next turn.
    assert st(battle, target).fired_types == set()
    assert all_dice_used(battle)


# --- Roll Charge Range and the charge move ----------------------------------------


def one_on_one(dice: list[int], terrain: Sequence[TerrainArea] = (), gap: float = 8) -> Battle:
    """``Charger [a]`` at (30, 10) and ``Target [b]`` ``gap - 1`` inches away, north."""
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 10 + gap)], name="Target")
    return make_battle(
        charger,
        target,
        dice=dice,
        terrain=terrain,
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )


def ringed(ring: bool) -> Battle:
    """``Charger [a]`` 4" south of ``Target [b]``; with ``ring``, three models of
    ``Ring [c]`` (B's too) touch the target at 90, 210 and 330 degrees."""
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 25)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Target")
    angles = (90, 210, 330)
    spots = [(30 + math.cos(math.radians(a)), 30 + math.sin(math.radians(a))) for a in angles]
    units = [charger, target]
    if ring:
        units.append(squad("c", B, GUARD, [LASGUN], spots, name="Ring"))
    return make_battle(
        *units,
        dice=[3, 3],
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )


def test_a_charge_that_reaches_the_distance_but_cannot_touch_the_target_fails() -> None:
    # 6th/7th edition: "charging models may not move within 1" of an enemy unit other
    # than the one being charged". Every spot touching the target (1" bases, centres
    # 1" from its centre) is at most 60 degrees round from a Ring model, whose centre
    # is then at most 2 sin(30) = 1" away: the two bases touch, well within 1". So the
    # 6" rolled reaches the 4" between the closest models, yet no Marine can end its
    # move touching the target: the charge fails, and the Marine stays where it was.
    battle = ringed(ring=True)
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.charge_range, roll.distance, roll.success) == (6, 4.0, False)
    (blocked,) = of_kind(battle, "charge_blocked")
    assert (blocked.unit, blocked.target, blocked.charge_range) == ("Charger [a]", "Target [b]", 6)
    assert not charge_moves(battle) and not battle.unit("a").status.charged
    assert all_dice_used(battle)


def test_the_ai_gives_a_charge_no_model_could_complete_no_chance() -> None:
    # The same two units: without the ring, 2D6 reaches 4" unless it rolls 2 or 3,
    # 33 of 36; ringed, no roll lets a Marine touch the target.
    free = ringed(ring=False)
    assert charge_chance(free, free.unit("a"), free.unit("b")) == pytest.approx(33 / 36)
    battle = ringed(ring=True)
    assert charge_chance(battle, battle.unit("a"), battle.unit("b")) == 0.0


def test_seed004_charge_range_2d6_equal_to_the_distance_succeeds() -> None:
    battle = one_on_one([3, 4])  # 7" against 8 - 1 = 7"
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.dice, roll.dropped, roll.charge_range, roll.distance) == ((3, 4), None, 7, 7.0)
    assert roll.success
    # Straight into base contact: the centre stops 1" short of the target's.
    (moved,) = charge_moves(battle)
    assert (moved.model, moved.start) == ("a.1", (30, 10))
    assert moved.end == pytest.approx((30, 17))
    assert in_contact(model(battle, "a.1"), model(battle, "b.1"))
    assert battle.unit("a").status.charged and st(battle, battle.unit("a")).locked_in_combat
    assert st(battle, battle.unit("b")).locked_in_combat
    assert all_dice_used(battle)


def test_seed004_charge_range_one_short_fails_and_the_unit_stays_put() -> None:
    battle = one_on_one([3, 3])  # 6" against 7"
    charge_sub_phase(battle, A)
    assert not last(rolls(battle)).success
    assert charge_moves(battle) == []
    assert model(battle, "a.1").position == (30, 10)
    assert not battle.unit("a").status.charged
    assert not st(battle, battle.unit("a")).locked_in_combat


def test_seed004_charge_through_difficult_terrain_rolls_3d6_and_drops_the_highest() -> None:
    woods = box("woods", 25, 12, 35, 14, difficult=True)
    battle = one_on_one([6, 2, 3], terrain=[woods], gap=6)  # 2 + 3 = 5" against 5"
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.dice, roll.dropped, roll.charge_range, roll.success) == ((6, 2, 3), 6, 5, True)
    purposes = [e.purpose for e in of_kind(battle, "dice")]
    assert purposes == ["charge range 3D6, highest discarded (Charger [a])"]
    assert all_dice_used(battle)


def test_seed004_open_ground_charge_rolls_only_2d6() -> None:
    woods = box("woods", 40, 12, 45, 14, difficult=True)  # off to the side
    battle = one_on_one([2, 3], terrain=[woods], gap=6)
    charge_sub_phase(battle, A)
    assert [e.purpose for e in of_kind(battle, "dice")] == ["charge range 2D6 (Charger [a])"]
    assert last(rolls(battle)).success


def fleet_charger(dice: list[int], gap: float) -> Battle:
    """A Fleet ``Charger [a]`` at (30, 10) and ``Target [b]`` ``gap - 1`` inches north."""
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger", rules=["Fleet"])
    target = squad("b", B, GUARD, [LASGUN], [(30, 10 + gap)], name="Target")
    return make_battle(
        charger,
        target,
        dice=dice,
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )


def test_fleet_rerolls_both_charge_dice_when_that_is_the_best_chance() -> None:
    """6th/7th-edition Fleet: "can re-roll one or more of the dice when
    determining … charge ranges".

    1 + 2 = 3" against 7". Keeping the 2 needs a 5+ (2/6); keeping the 1 needs
    a 6 (1/6); re-rolling both needs 7+ on 2D6 (21/36): both are re-rolled,
    3 + 4 = 7" reaches.
    """
    battle = fleet_charger([1, 2, 3, 4], gap=8)
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.dice, roll.charge_range, roll.success) == ((3, 4), 7, True)
    assert [e.purpose for e in of_kind(battle, "dice")] == [
        "charge range 2D6 (Charger [a])",
        "Fleet re-roll of charge dice (Charger [a])",
    ]
    assert all_dice_used(battle)


def test_fleet_rerolls_only_the_low_die_when_that_is_the_best_chance() -> None:
    """Fleet, 6 + 1 = 7" against 9": re-rolling the 1 needs 3+ (4/6), both
    need 9+ on 2D6 (10/36): only the 1 is re-rolled; a 3 makes 9"."""
    battle = fleet_charger([6, 1, 3], gap=10)
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.dice, roll.charge_range, roll.success) == ((6, 3), 9, True)
    assert all_dice_used(battle)


def test_fleet_does_not_reroll_a_charge_that_reaches() -> None:
    battle = fleet_charger([3, 4], gap=8)  # 7" against 7"
    charge_sub_phase(battle, A)
    assert last(rolls(battle)).success
    assert all_dice_used(battle)


def test_charge_dice_difficult_terrain_is_3d6_discarding_the_highest() -> None:
    """6th and 7th edition: a charge through difficult terrain rolls 3D6 and
    discards the highest die; otherwise seed 004's "Roll 2D6"."""
    battle = make_battle()
    assert (charge_dice(battle, False), charge_dice(battle, True)) == (2, 3)
    assert charge_range_of((6, 2, 3), drop_highest=True) == 5
    assert charge_range_of((6, 2), drop_highest=False) == 8


def test_seed004_charging_models_end_in_base_contact_without_overlap() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (31.5, 10), (26, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 16), (33.5, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[4, 5],  # 9": a.1 is 6 - 1 = 5" from b.1, the closest pair
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    starts = {m.id: m.position for m in charger.models}
    charge_sub_phase(battle, A)
    a1, a2, a3 = (model(battle, f"a.{n}") for n in (1, 2, 3))
    b1, b2 = model(battle, "b.1"), model(battle, "b.2")
    # The closest model moves first, straight into contact with the closest enemy.
    assert [e.model for e in charge_moves(battle)] == ["a.1", "a.2", "a.3"]
    assert a1.position == pytest.approx((30, 15))
    # a.2 is closer to b.1 (hypot(1.5, 6) - 1 = 5.18") than to b.2 (hypot(2, 6) - 1 =
    # 5.32"), but b.1 is engaged: it touches b.2, the enemy model not yet in contact.
    # 7th edition: "a charging model must end its charge move in unit coherency with
    # another model in its own unit that has already moved": within 2" of a.1 at
    # (30, 15), centres at most 3" apart. The spot on the straight line from b.2
    # toward a.2's start, at angle t0 = atan2(-6, -2) = -108.43° round b.2, has its
    # centre (33.18, 15.05) 3.18" from a.1's, 2.18" base to base: out of coherency.
    # A spot at angle t, (33.5 + cos t, 16 + sin t), is within 3" of (30, 15) when
    # 7 cos t + 2 sin t <= -5.25 (t0 gives -4.11). In 5° steps from t0 (each step's
    # spot on the side away from a.1 first, which only moves farther): -113.43°
    # gives -4.62, -118.43° -5.09, -123.43° -5.53: the third step toward a.1.
    turn = math.atan2(-6, -2) - math.radians(15)
    assert a2.position == pytest.approx((33.5 + math.cos(turn), 16 + math.sin(turn)))
    assert base_distance(a1, a2) <= 2.0
    # a.3: both enemy models are now engaged; it touches the closer, b.1 (6.21"),
    # beside a.1, since the spot on the straight line would overlap a.1's base.
    assert in_contact(a3, b1) and in_contact(a1, b1) and in_contact(a2, b2)
    everyone = [*charger.models, *target.models]
    for one in everyone:
        assert battle.battlefield.on_table(one.position)
        for other in everyone:
            if other is not one:
                assert centre_distance(one.position, other.position) >= 1.0 - 1e-6
    for piece in charger.models:
        assert centre_distance(starts[piece.id], piece.position) <= 9 + 1e-6
    assert all_dice_used(battle)


def test_charging_models_do_not_end_within_1_inch_of_an_enemy_unit_not_charged() -> None:
    """6th/7th edition: a charging model may not move within 1" of an enemy
    unit other than the one it charges.

    The straight contact spot (30, 17) would be 0.58" from ``Bystander [c]``
    at (31.5, 16.5) (centres 1.58" apart). Spots are tried around the target
    base in 5° steps; one at angle φ west of south, (30 - sin φ, 18 - cos φ),
    is 1" clear when its centre is 2" from (31.5, 16.5), i.e. when
    sin φ - cos φ ≥ -0.5: 20° fails (-0.60), 25° holds (-0.48). It lies 7.11"
    from the charger, within the 8" rolled.
    """
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 18)], name="Target")
    bystander = squad("c", B, GUARD, [LASGUN], [(31.5, 16.5)], name="Bystander")
    battle = make_battle(
        charger,
        target,
        bystander,
        dice=[4, 4],
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    moved = model(battle, "a.1")
    phi = math.radians(25)
    assert moved.position == pytest.approx((30 - math.sin(phi), 18 - math.cos(phi)))
    assert in_contact(moved, model(battle, "b.1"))
    assert base_distance(moved, model(battle, "c.1")) >= 1.0 - 1e-9
    assert all_dice_used(battle)


def test_a_model_whose_way_in_is_barred_ends_its_charge_in_coherency() -> None:
    # 6th/7th edition: a charging unit ends its move in unit coherency (each model
    # within 2" of another of its unit), and no charging model comes within 1" of an
    # enemy unit it does not charge. a.1 charges into contact with b.1 (6": 3 + 3).
    # a.2 cannot reach b.1 without passing the bystander c.1; the straight way toward
    # b.1 stopped it 1" short of c.1 and 3.1" from a.1, out of coherency (a player's
    # review found a Genestealer left so, 3.6" from its brood). It now ends within 2"
    # of a.1, 1" clear of c.1, within the 6" rolled, short of the target.
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (33, 9)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 15)], name="Target")
    bystander = squad("c", B, GUARD, [LASGUN], [(32, 13)], name="Bystander")
    battle = make_battle(
        charger,
        target,
        bystander,
        dice=[3, 3],
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    a1, a2 = model(battle, "a.1"), model(battle, "a.2")
    assert in_contact(a1, model(battle, "b.1"))
    assert base_distance(a1, a2) <= 2.0 + 1e-9
    assert base_distance(a2, model(battle, "c.1")) >= 1.0 - 1e-9
    assert centre_distance((33, 9), a2.position) <= 6.0 + 1e-9
    assert all_dice_used(battle)


def test_a_charging_model_does_not_end_behind_a_closed_rank() -> None:
    """6th/7th edition: models may not move through other models. A player's review
    (session 22): Boyz charged into the 1" gaps inside a Tactical Squad, a spot
    reached only through a rank of bases, and the Marines were then Trapped!.

    The target stands in a 2 x 2 block, centres 1.9" apart: every gap between two
    bases is 0.9", narrower than a 1" base. a.1 and a.2 charge 6" straight into
    b.1 (30, 15) and b.2 (31.9, 15). a.3 at (30.8, 11) then looks for the unengaged
    b.3 (30, 17.9) first (closer than b.4). Its spots within 6": the arc 17.5°
    either side of the line to a.3 (cos = (6.946² + 1 - 36) / (2 x 6.946)). Turning
    toward the block's middle, 0° to 10° overlap b.1 (0.91", 0.94", 0.98" away);
    15°, (30.368, 16.970), is free (1.04" from b.1) and 5.99" from a.3, but inside
    the block: the straight way there passes 0.44" from b.1's centre, through its
    base, and no point before it on b.3's base is free to go round from. The other
    way every spot in reach overlaps b.1. b.4's spots in reach (8.4° either side)
    all overlap b.2. So a.3 touches an engaged model: b.1 (5.06" away), on the first
    5° step from the line to a.3 (-80.9°) that clears a.1's base, standing due south
    of b.1: 60° round from a.1 (a chord of 1") is -30°, the step at -25.9°. Its way
    there passes only its own a.1 (a model's own unit does not bar it).
    """
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 12), (31.9, 12.2), (30.8, 11)], name="Charger")
    target = squad(
        "b", B, GUARD, [LASGUN], [(30, 16), (31.9, 16), (30, 17.9), (31.9, 17.9)], name="Target"
    )
    battle = make_battle(
        charger,
        target,
        dice=[3, 3],  # 6": a.1 is 3" from b.1
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    a1, a2, a3 = (model(battle, f"a.{n}") for n in (1, 2, 3))
    assert a1.position == pytest.approx((30, 15))
    assert a2.position == pytest.approx((31.9, 15))
    turn = math.atan2(11 - 16, 30.8 - 30) + math.radians(11 * 5)
    assert a3.position == pytest.approx((30 + math.cos(turn), 16 + math.sin(turn)))
    assert all(m.position[1] < 16 for m in charger.models)  # none beyond the front rank
    assert all_dice_used(battle)


def test_a_contact_spot_behind_the_enemy_is_reached_round_its_base() -> None:
    """The straight way to a spot on the far side of an enemy base crosses that base;
    a model gets there round it (6th/7th edition: a model may move round other
    models, not through them), from the last spot it could reach straight.

    b.1 at (30, 16); a.1 0.2" south of it at (30, 14.8): straight lines reach only the
    spots within acos(1 / 1.2) = 33.6° of the line between them. Every spot from
    there to 10° past east is within 1" of ``Bystander [c]`` (c.1 at (31.9, 14.4),
    c.2 at (28.1, 14.4), which a charging model may not come within 1" of): a spot
    at angle t round b.1 is 1" clear of c.1 when 7.17 - 3.8 cos t + 3.2 sin t >= 4,
    first at t = 15° in 5° steps from -90°, and the same step on the west side is
    its mirror (c.2), tried after. The spots on the way are all free (none comes
    within 1.48" of c.1's centre), so a.1 goes round to (30 + cos 15°, 16 + sin 15°).
    """
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 14.8)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 16)], name="Target")
    bystander = squad("c", B, GUARD, [LASGUN], [(31.9, 14.4), (28.1, 14.4)], name="Bystander")
    battle = make_battle(
        charger,
        target,
        bystander,
        dice=[1, 2],  # 3"
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    angle = math.radians(15)
    assert model(battle, "a.1").position == pytest.approx(
        (30 + math.cos(angle), 16 + math.sin(angle))
    )
    assert all_dice_used(battle)


def behind_friends(dice: list[int]) -> Battle:
    """``Charger [a]``: five Marines in a line along y = 20 (x 26.8 down to 22, centres
    1.2" apart), behind ``Friends [f]`` (A's too: f.1 at (29, 20), f.2 at (28, 20)),
    f.1 touching b.1 of ``Target [b]``: six Guardsmen along y = 20 from x 30 to 36,
    centres 1.2" apart (0.2" gaps, narrower than a base: no way between them).
    The Target is locked in combat with the Friends (the reviewer's position of
    session 24: a Tactical Squad behind Bikers already fighting Guardsmen)."""
    target = squad("b", B, GUARD, [LASGUN], [(30 + 1.2 * k, 20) for k in range(6)], name="Target")
    friends = squad("f", A, MARINE, [BOLTGUN], [(29, 20), (28, 20)], name="Friends")
    charger = squad(
        "a", A, MARINE, [BOLTGUN], [(26.8 - 1.2 * k, 20) for k in range(5)], name="Charger"
    )
    return make_battle(
        charger,
        friends,
        target,
        dice=dice,
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )


def on_ring(centre: tuple[float, float], degrees: float) -> tuple[float, float]:
    """The point 1" from ``centre`` (a 1" base touching it) at ``degrees``."""
    turn = math.radians(degrees)
    return (centre[0] + math.cos(turn), centre[1] + math.sin(turn))


def way_round_bases(battle: Battle, piece: Model, start: tuple[float, float]) -> float:
    """The length of the shortest way for ``piece`` from ``start`` to where it stands
    that passes through no other unit's base, found independently of
    ``placement.Ways``: the engine's polygon way (``paths.way_round``) round 64-sided
    circles, 0.001" inside the true ones (a lower bound, to within that). A 64-gon's
    sides come within r(1 - cos(pi/64)) = 0.0012" of its circle; round 256-gons
    (a cost 16 times as high) the five ways of the test below measured the same to
    0.001" (8.6108" against 8.6108" the longest), far inside its 0.39" margin to 9"."""
    others = [
        Point(m.position).buffer(piece.radius + m.radius - 1e-3, quad_segs=16)
        for u in battle.units.values()
        if piece not in u.models
        for m in u.alive_models
    ]
    way = way_round(start, piece.position, others, square(0, 0, 72, 48))
    assert way is not None
    points = [start, *way]
    return sum(centre_distance(p, q) for p, q in itertools.pairwise(points))


def unit_coherent(unit: Unit) -> bool:
    """Every model within 2" of another model of its unit (6th/7th-edition coherency)."""
    models = unit.alive_models
    return all(any(base_distance(m, o) <= 2.0 + 1e-9 for o in models if o is not m) for m in models)


def test_a_squad_behind_a_friendly_unit_in_combat_charges_round_it_into_contact() -> None:
    """A session-24 referee review: a Tactical Squad charging into a combat from behind
    Bikers already in it moved one Marine, which ended out of coherency, and no other
    (in this line, none at all: no straight way in, so the charge was blocked).
    7th edition (2014 rulebook p. 46, as forums quote it): "Charging models still
    cannot move through friendly or enemy models"; the initial charger is nearest "as
    measured by the shortest possible route, going around ... friendly models"; the
    others must end "in unit coherency with another model in its own unit that has
    already moved" and in base contact with an enemy model not yet in contact with a
    charging model if they can, else one that is.

    Worked by hand (R: a centre keeps 1" from another base's centre; ways below hug
    those 1" circles; every angle is round the enemy base, 0° east; spots are tried in
    5° steps from the line to the model, the +5° side first). 9" rolled (4 + 5).
    * a.1 (26.8, 20), 2.2" from b.1: every spot on b.1 within 60° of due west overlaps
      f.1 (a chord of 1"), so the first free one is 240°, touching f.1, got to round
      the south of f.2 and f.1: tangent sqrt(1.2² - 1) = 0.66, arc 56.4° = 0.98, along
      y = 19 1.0, arc 30° round f.1 0.52: 3.17" <= 9.
    * a.2 (25.6, 20): b.1 is now engaged; b.2, unengaged and nearest, has its spots
      from 126.9° to 233.1° overlapping b.1 (cos t >= -0.6 clears it), so 235°: tangent
      2.18 + arc 0.43 + y = 19 from x 28 to 30, 2.0 + round b.1 to the spot 0.66:
      5.27" <= 9; 1.13" from a.1's centre: coherent.
    * a.3 (24.4, 20): b.3 at 235° likewise, 1.2" farther along: 3.46 + 0.28 + 3.2 +
      0.66 = 7.60" <= 9; 1.2" from a.2.
    * a.4 (23.2, 20): b.4's nearest spot (the dip between b.3 and b.4, at 233.1°) is
      4.70 + 0.21 + 4.4 + 0.64 = 9.95" away round either side: out of reach, as are
      b.5 and b.6. So an engaged model: b.1, nearest; 240° is a.1's, so 120° (the
      mirror, north of f.1): 4.70 + 0.21 + 1.0 + 0.52 = 6.43" <= 9; 0.73" from a.1.
    * a.5 (22, 20): b.4 to b.6 farther still; b.1's 120° and 240° are taken, and every
      spot within 60° of them overlaps a.4 or a.1, up to 60° (300° lies on a.2): 60°,
      5.92 + 0.17 + 2.0 + 0.52 = 8.61" <= 9, touching a.4.
    All five touch the Target, the unit is in coherency, and each one's way round the
    other bases, measured independently, is within the 9" rolled.
    """
    battle = behind_friends([4, 5])
    charge_sub_phase(battle, A)
    roll = last(rolls(battle))
    assert (roll.charge_range, roll.success) == (9, True)
    b1, b2, b3 = ((30 + 1.2 * k, 20.0) for k in range(3))
    expected = {
        "a.1": on_ring(b1, 240),
        "a.2": on_ring(b2, 235),
        "a.3": on_ring(b3, 235),
        "a.4": on_ring(b1, 120),
        "a.5": on_ring(b1, 60),
    }
    charger, target = battle.unit("a"), battle.unit("b")
    for piece in charger.models:
        assert piece.position == pytest.approx(expected[piece.id]), piece.id
        assert any(in_contact(piece, enemy) for enemy in target.models)
        start = (26.8 - 1.2 * (int(piece.id[2]) - 1), 20.0)
        assert way_round_bases(battle, piece, start) <= 9 + 1e-6
    assert unit_coherent(charger)
    assert [e.model for e in charge_moves(battle)] == ["a.1", "a.2", "a.3", "a.4", "a.5"]
    assert charger.status.charged
    assert all_dice_used(battle)


def test_models_that_cannot_reach_round_a_friendly_unit_end_in_coherency_and_engaged() -> None:
    """The same line with 6" rolled (3 + 3), worked by hand as in
    :func:`test_a_squad_behind_a_friendly_unit_in_combat_charges_round_it_into_contact`.
    a.1 (3.17") and a.2 (5.27") touch b.1 and b.2 as there. a.3: b.3 is 7.60" away,
    b.2's nearest free spot north (the dip by b.1, at 126.9°) 3.46 + 0.28 + 2.0 +
    0.64 = 6.38": out of reach; b.1's 120°, 3.46 + 0.28 + 1.0 + 0.52 = 5.26", is taken.
    a.4: every contact spot is out of reach (b.1's 60°: 4.70 + 0.21 + 2.0 + 0.52 =
    7.43"); straight in toward b.1 (5.8" away), in tenths of the way, it stops
    short of f.2 at 3.48" (x 26.68: the next tenth, x 27.26, overlaps f.2), 1.95"
    from a.1 (centres sqrt(2.82² + 0.87²) = 2.95" apart): in coherency, and engaged (6th/7th
    edition: within 2" of a model of its unit in base contact), so it will fight.
    a.5: straight toward b.1 up to 6", x 28 to 26.8 overlap f.2 or a.4, 26.2 a.4,
    so x 25.6, 0.08" from a.4: in coherency, 2.99" from a.1 and 3.04" from a.3 (the
    nearest in contact): not engaged.
    Before, the charge was blocked: no charging model had a straight way in.
    """
    battle = behind_friends([3, 3])
    charge_sub_phase(battle, A)
    assert last(rolls(battle)).success
    b1, b2 = (30.0, 20.0), (31.2, 20.0)
    expected = {
        "a.1": on_ring(b1, 240),
        "a.2": on_ring(b2, 235),
        "a.3": on_ring(b1, 120),
        "a.4": (26.68, 20.0),
        "a.5": (25.6, 20.0),
    }
    charger = battle.unit("a")
    for piece in charger.models:
        assert piece.position == pytest.approx(expected[piece.id]), piece.id
    assert unit_coherent(charger)
    touching = [
        m.id for m in charger.models if any(in_contact(m, e) for e in battle.unit("b").models)
    ]
    assert touching == ["a.1", "a.2", "a.3"]
    assert [m.id for m in engaged_models(battle, charger)] == ["a.1", "a.2", "a.3", "a.4"]


CHARGE_INTO_OVERWATCH = (
    Path(__file__).resolve().parents[2] / "examples" / "assault_charge_into_overwatch.toml"
)


def test_the_charge_into_overwatch_example_s_seed_7_no_longer_traps_the_marines() -> None:
    """The player review's reproduction (``hammerlab battle
    examples/assault_charge_into_overwatch.toml --seed 7``): the Boyz charged into
    the gaps between the Tactical Squad's two ranks (y 10.87 and 13.13, x 31.48 to
    40.52), and when the Marines lost and fell back 3", all seven were removed as
    Trapped!. Now no charging Boy ends between the ranks, and the Marines fall back."""
    spec = load_scenario(CHARGE_INTO_OVERWATCH)
    game = Game.start(spec, str(CHARGE_INTO_OVERWATCH), seed=7)
    game.play()
    events = game.battle.log.events
    ends = [e.end for e in events if e.kind == "move" and e.reason == "charges"]
    assert ends
    assert not any(31.48 < x < 40.52 and 10.87 < y < 13.13 for x, y in ends)
    assert not any(getattr(e, "cause", "") == "trapped while falling back" for e in events)
    tactical = game.battle.unit("tactical").label
    assert any(e.kind == "move" and e.reason == "falls back" and e.unit == tactical for e in events)


CORNER = """
name = "Target in a corner"
seed = 1
first_player = "Orks"
[plan]
turns = 1
phases = ["assault"]
[[players]]
name = "Orks"
edge = "north"
[[players]]
name = "Ultramarines"
edge = "south"
[[units]]
id = "boyz"
player = "Orks"
unit = "Ork Boyz"
size = 20
position = [7, 6]
[[units]]
id = "tactical"
player = "Ultramarines"
unit = "Tactical Squad"
size = 5
formation = "line"
position = [4.6, 0.7]
spacing = 0.5
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_charging_or_piling_in_model_ends_with_its_base_off_the_table(
    tmp_path: Path, seed: int
) -> None:
    # An assault review (session 22): a contact spot was "on the table" where its
    # centre was, so Boyz charging Marines in the south-west corner ended at (0.1, 1.5),
    # their 0.63"-radius bases 0.53" past the west edge (seed 2), at (9.4, 0.6) over
    # the south edge (seed 1), and one piled in to (3.5, 0.1) (seed 4). Every move's
    # end must keep the whole base on the 72" x 48" table: radius <= x <= 72 - radius.
    path = tmp_path / "corner.toml"
    path.write_text(CORNER, encoding="utf-8")
    game = Game.start(load_scenario(path), str(path), seed=seed)
    game.play()
    radius = game.battle.unit("boyz").models[0].radius
    ends = [
        e.end
        for e in game.battle.log.events
        if e.kind == "move" and e.reason in ("charges", "piles in", "consolidates")
    ]
    assert ends
    field = game.battle.battlefield
    for x, y in ends:
        assert radius - 1e-6 <= x <= field.width - radius + 1e-6, (x, y)
        assert radius - 1e-6 <= y <= field.height - radius + 1e-6, (x, y)


def test_a_coherent_spot_near_the_table_edge_keeps_the_whole_base_on_the_table() -> None:
    # A review: a spot around a model of the unit standing by the edge could leave the
    # charging model's base hanging 0.27" off the table (its centre on it).
    charger = squad("a", A, MARINE, [BOLTGUN], [(0.75, 7.75), (4.5, 10.15)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(1.3, 10.25)], name="Target")
    bystander = squad("c", B, GUARD, [LASGUN], [(3.2, 10.2)], name="Bystander")
    battle = make_battle(charger, target, bystander)
    model_ = charger.alive_models[1]
    spot = coherent_approach(
        battle, charger, model_, target, 4.5, bystander.alive_models, charger.alive_models[:1]
    )
    assert spot[0] - model_.radius >= -1e-9 and spot[1] - model_.radius >= -1e-9


def test_seed004_a_model_that_cannot_reach_contact_moves_as_close_as_it_can() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (20, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 14)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[1, 3],  # 4": a.1 needs 3"; a.2 is sqrt(100 + 16) - 1 = 9.77" from b.1
        script_a=charge_script("Charger [a]", "Target [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    a2, b1 = model(battle, "a.2"), model(battle, "b.1")
    # Straight toward b.1, the full 4".
    assert centre_distance((20, 10), a2.position) == pytest.approx(4)
    assert base_distance(a2, b1) == pytest.approx(math.hypot(10, 4) - 1 - 4)
    assert battle.unit("a").status.charged


# --- (Proposed Rule) Fiery Charge --------------------------------------------------


def fiery_battle(*, on: bool, script_a: list[tuple[str, str]], dice: list[int]) -> Battle:
    charger = squad("a", A, MARINE, [BOLTGUN, BOLT_PISTOL], [(30, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(30, 16), (32, 16)], name="Target")
    return make_battle(
        charger,
        target,
        dice=dice,
        options={"fiery_charge": on},
        script_a=[*charge_script("Charger [a]", "Target [b]"), *script_a],
        script_b=NO_REACTION,
    )


def test_seed004_fiery_charge_is_off_by_default_and_keeps_the_charge_bonus() -> None:
    battle = fiery_battle(on=False, script_a=[], dice=[3, 3])  # 6" against 5"
    charge_sub_phase(battle, A)
    charger = battle.unit("a")
    assert charger.status.charged and "a" not in fiery_chargers(battle)
    assert asked(battle, A, "fiery_charge") == []
    assert charge_bonus_attacks(battle, charger) == 1  # the 6th/7th-edition +1 Attack


def test_seed004_fiery_charge_fires_assault_and_pistol_weapons_and_adds_casualties() -> None:
    battle = fiery_battle(
        on=True,
        script_a=[("fiery_charge", "Fiery Charge"), ("weapon", "Bolt pistol")],
        dice=[
            *[3, 3],  # charge roll 6" against 5": succeeds
            3,  # Bolt pistol, BS4: hits on 3+
            4,  # S4 v T4: wounds on 4+; AP5 beats the 5+ save, so no save is rolled
        ],
    )
    charge_sub_phase(battle, A)
    charger = battle.unit("a")
    (menu,) = asked(battle, A, "weapon")
    assert menu.labels() == ["Bolt pistol", "stop"]  # the Rapid Fire Boltgun may not fire
    shots = last(of_kind(battle, "shots"))
    assert (shots.weapon, shots.target, shots.snap) == ("Bolt pistol", "Target [b]", False)
    assert [m.id for m in battle.unit("b").alive_models] == ["b.2"]
    assert st(battle, charger).combat_score == 1  # one model removed
    assert "a" in fiery_chargers(battle)
    assert charge_bonus_attacks(battle, charger) == 0  # the bonus attack is lost
    # b.1, the model a.1 touched, is gone: a.1 closes in on b.2 (1.24" away, within
    # the 3" Pile In), straight toward it, so the charge still ends in combat.
    assert [e.model for e in charge_moves(battle)] == ["a.1", "a.1"]
    a1 = model(battle, "a.1")
    assert a1.position == pytest.approx((32 - 2 / math.sqrt(5), 16 - 1 / math.sqrt(5)))
    assert st(battle, charger).locked_in_combat and st(battle, battle.unit("b")).locked_in_combat
    assert st(battle, charger).fired_types == set()  # not the unit's Shooting phase
    assert all_dice_used(battle)


def test_seed004_fiery_charge_declined_keeps_the_bonus() -> None:
    battle = fiery_battle(on=True, script_a=[("fiery_charge", "no Fiery Charge")], dice=[3, 3])
    charge_sub_phase(battle, A)
    charger = battle.unit("a")
    assert of_kind(battle, "shots") == []
    assert "a" not in fiery_chargers(battle) and st(battle, charger).combat_score == 0
    assert charge_bonus_attacks(battle, charger) == 1


def test_seed004_fiery_charge_with_rage_loses_only_one_of_two_bonus_attacks() -> None:
    raging = squad("a", A, MARINE, [BOLT_PISTOL], [(30, 10)], rules=["Rage"])
    battle = make_battle(raging, options={"fiery_charge": True})
    raging.status.charged = True
    assert charge_bonus_attacks(battle, raging) == 2
    fiery_chargers(battle).add("a")
    assert charge_bonus_attacks(battle, raging) == 1


def test_seed004_fiery_charge_is_not_offered_against_a_vehicle() -> None:
    walker = WALKER
    charger = squad("a", A, MARINE, [BOLT_PISTOL], [(30, 10)], name="Charger")
    target = squad("b", B, walker, [LASGUN], [(30, 16)], name="Walker")
    battle = make_battle(
        charger,
        target,
        dice=[3, 3],
        options={"fiery_charge": True},
        script_a=charge_script("Charger [a]", "Walker [b]"),
        script_b=NO_REACTION,
    )
    charge_sub_phase(battle, A)
    assert charger.status.charged
    assert asked(battle, A, "fiery_charge") == []


# --- The heuristic AI --------------------------------------------------------------


def test_waffle_ai_charges_overwatches_and_makes_a_worthwhile_fiery_charge() -> None:
    charger = squad("a", A, MARINE, [BOLTGUN, BOLT_PISTOL], [(30, 10)], name="Marines")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 17), (32, 17)], name="Guard")
    battle = make_battle(
        charger,
        guard,
        options={"fiery_charge": True},
        fallback=WaffleAI(),
        dice=[
            *[1, 1, 1, 1],  # Overwatch: 2 Lasguns x 2 shots (within 12") at 6+: all miss
            *[3, 3],  # charge roll 6" against 6": succeeds
            3,  # Fiery Charge, Bolt pistol: hits on 3+
            4,  # S4 v T4 wounds on 4+, AP5 ignores the 5+ save
        ],
    )
    charge_sub_phase(battle, A)
    answers = [(e.decision, e.answer) for e in of_kind(battle, "decision")]
    # Marine charging: 2 attacks x 3/6 (WS4 v WS4: 4+) x 3/6 (S4 v T4) x 4/6 (5+ save)
    # = 0.33 casualties; back: 1 attack x 3/6 x 2/6 (S3 v T4) x 2/6 (3+ save) = 0.06
    # per Guardsman, 0.11 for two. Charge.
    # Guard: 0.33 expected casualties is under 1: not a clear loss, so Overwatch.
    # Fiery Charge: pistol 4/6 (BS4) x 3/6 x 1 (no save) = 0.33 > the lost attack's
    # 3/6 x 3/6 x 4/6 = 0.17.
    assert answers == [
        ("charger", "Marines [a]"),
        ("charge_target", "Guard [b]"),
        ("charge_reaction", "Fire Overwatch"),
        ("weapon", "Lasgun"),
        ("fiery_charge", "Fiery Charge"),
        ("weapon", "Bolt pistol"),
    ]
    assert st(battle, charger).combat_score == 1
    assert all_dice_used(battle)


def test_waffle_ai_does_not_charge_a_stronger_unit() -> None:
    ogre = profile("Brute", ws=5, s=6, t=6, w=3, a=4, sv="2+")
    marines = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Marines")
    brute = squad("b", B, ogre, [], [(30, 16)], name="Brute")
    battle = make_battle(marines, brute, fallback=WaffleAI())
    charge_sub_phase(battle, A)
    # Out: 2 x 3/6 (WS4 v WS5) x 1/6 (S4 v T6) x 1/6 (2+) x 1/3 (W3) = 0.009;
    # back: 4 x 4/6 x 5/6 (S6 v T4) x 2/6 (3+) = 0.74. No charge.
    assert [(e.decision, e.answer) for e in of_kind(battle, "decision")] == [
        ("charger", "end charges")
    ]


def test_waffle_ai_falls_back_when_it_would_clearly_lose() -> None:
    ogre = profile("Brute", ws=5, s=6, t=6, w=3, a=4, sv="2+")
    brutes = squad("a", A, ogre, [], [(28, 10), (30, 10), (32, 10)], name="Brutes")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 16)], name="Guard")
    battle = make_battle(
        brutes,
        guard,
        fallback=WaffleAI(),
        dice=[*[3, 4], *[6, 6]],  # Fall Back 7" to (30, 23); charge 12" against 12"
    )
    charge_sub_phase(battle, A)
    # In: 3 brutes x 5 attacks x 4/6 (WS5 v WS4: 3+) x 5/6 (S6 v T4) x 4/6 (5+ save)
    # = 5.6, capped at 1 model; out: 1 x 3/6 (WS4 v WS5) x 1/6 (S3 v T6) x 1/6 (2+)
    # x 1/3 (W3) = 0.005. Fall Back.
    answers = [(e.decision, e.answer) for e in of_kind(battle, "decision")]
    assert answers[:3] == [
        ("charger", "Brutes [a]"),
        ("charge_target", "Guard [b]"),
        ("charge_reaction", "Fall Back"),
    ]
    assert last(rolls(battle)).success
    assert all_dice_used(battle)


def test_seed004_charge_sub_phase_runs_with_real_dice_and_the_ai() -> None:
    for seed in range(6):
        units = [
            squad("a", A, MARINE, [BOLTGUN, BOLT_PISTOL], [(28 + 2 * k, 10) for k in range(5)]),
            squad("c", A, GUARD, [LASGUN], [(48 + 2 * k, 10) for k in range(5)]),
            squad("b", B, GUARD, [LASGUN], [(28 + 2 * k, 18) for k in range(10)]),
        ]
        battle = make_battle(*units, seed=seed, fallback=WaffleAI(), options={"fiery_charge": True})
        charge_sub_phase(battle, A)
        alive = [m for u in units for m in u.alive_models]
        for one in alive:
            assert battle.battlefield.on_table(one.position)
            for other in alive:
                if other is not one:
                    assert centre_distance(one.position, other.position) >= 1.0 - 1e-6
