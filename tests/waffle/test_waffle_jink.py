"""Jink (issue 12 §2, 7th edition), declared through the reactions' hook points.

The rule text is quoted in ``editions/waffle/rules/jink.py``; expectations are
worked by hand from it and from seed 000's saves in the comments.
"""

from __future__ import annotations

from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    Placed,
    all_dice_used,
    asked,
    box,
    make_battle,
    make_unit,
    of_kind,
    profile,
    squad,
)

from hammerlab.editions.waffle.jink_plans import jink_gain, wants_to_jink
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.rules.jink import jink_end_of_turn, may_jink
from hammerlab.editions.waffle.shooting import reactions_to_shooting, shooting_attack, start_phase
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.units import Model, Unit


def _duel(dice: list[int], answer: str) -> tuple[Battle, Unit, Unit]:
    """A Guardsman with a lasgun (player A) 20" south of a Marine with Jink (player B)
    in the open; B answers the Jink decision with ``answer``."""
    guard = squad("g", A, GUARD, [LASGUN], [(30.0, 10.0)], name="Guard")
    jinker = squad("j", B, MARINE, [LASGUN], [(30.0, 30.0)], name="Jinkers", rules=["Jink"])
    battle = make_battle(
        guard, jinker, dice=dice, script_a=[("weapon", "Lasgun")], script_b=[("jink", answer)]
    )
    start_phase(battle, "shooting", A)
    return battle, guard, jinker


def test_a_jinking_unit_takes_a_4_plus_cover_save_after_its_armour_save() -> None:
    # Lasgun at 20": one shot. BS 3 hits on 4+: 4. S3 vs T4 wounds on 5+: 5. Armour
    # 3+: 1, failed; seed 000 "can use each type of save … once": cover 4+ (Jink in
    # the open): 4, saved. The Marine lives.
    battle, guard, jinker = _duel([4, 5, 1, 4], "Jink")
    shooting_attack(battle, guard, jinker, FireOrders())
    saves = [(e.save, e.needed, e.saved) for e in of_kind(battle, "save")]
    assert saves == [("armour", 3, False), ("cover", 4, True)]
    assert not jinker.destroyed and all_dice_used(battle)


def test_without_jink_the_same_dice_kill_the_marine() -> None:
    # The same rolls without a cover save: the failed armour save is a casualty.
    battle, guard, jinker = _duel([4, 5, 1], "no jink")
    shooting_attack(battle, guard, jinker, FireOrders())
    assert jinker.destroyed and all_dice_used(battle)


def test_jinking_spends_the_phases_reaction_to_shooting() -> None:
    # Seed 000: "A unit may only use a single Reaction to Shooting per shooting
    # phase": after Jinking, the Marine is not asked to Return Fire! or Dive.
    battle, guard, jinker = _duel([4, 5, 1, 4], "Jink")
    result = shooting_attack(battle, guard, jinker, FireOrders())
    reactions_to_shooting(battle, guard, result)
    assert [d.kind for d in asked(battle, B)] == ["jink"]
    assert not may_jink(battle, jinker)


def test_a_jinked_unit_snap_fires_until_the_end_of_its_next_turn() -> None:
    # Jinked in A's turn: its cover lasts "until the start of [its] next Movement
    # phase" (the end of A's turn), its Snap Shots "until the end of [its] next turn"
    # (the end of B's turn).
    battle, guard, jinker = _duel([4, 5, 1, 4], "Jink")
    shooting_attack(battle, guard, jinker, FireOrders())
    lasgun = weapon_of(LASGUN)
    assert fires_snap(battle, jinker, lasgun, FireOrders())
    jink_end_of_turn(battle, A)
    assert not st(battle, jinker).jinking  # B's Movement phase comes next
    assert fires_snap(battle, jinker, lasgun, FireOrders())
    jink_end_of_turn(battle, B)
    assert not fires_snap(battle, jinker, lasgun, FireOrders())


def test_skimmers_and_bikes_have_jink() -> None:
    skimmer = Profile(
        name="Wave Serpent",
        characteristics={"BS": "4", "Front": "12", "Side": "12", "Rear": "10", "HP": "3"},
        unit_type="Vehicle (Skimmer, Fast, Transport)",
    )
    tank = Profile(
        name="Tank",
        characteristics={"BS": "4", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
        unit_type="Vehicle (Tank)",
    )

    def jinks(prof: Profile) -> bool:  # a unit of one such model, targeted
        alone = make_unit("x", B, [Placed(prof, [], (30.0, 30.0))])
        guard = squad("g", A, GUARD, [LASGUN], [(30.0, 10.0)])
        return may_jink(make_battle(guard, alone), alone)

    assert jinks(skimmer) and jinks(profile("Biker", unit_type="Bike"))
    assert not jinks(tank) and not jinks(MARINE)


def test_the_ai_jinks_when_the_cover_spares_more_than_snap_shots_cost() -> None:
    # Gain, one lasgun shot at 20" (Rapid Fire: one shot beyond 12"): hit 4+ (BS 3)
    # 1/2 x wound 5+ (S3 vs T4) 1/3 x armour 3+ fails 1/3 = 1/18 of a Marine; with
    # the 4+ cover save half of those are saved: the gain is 1/36.
    # Cost, the Marine's own lasgun at the Guardsman next turn: BS 4 hits on 3+ (4/6);
    # Snap Shots at half BS (seed 000), BS 2, on 5+ (2/6); wound 5+ (S3 vs T4) 1/3;
    # the 5+ save fails 2/3: (4/6 - 2/6) x 1/3 x 2/3 = 2/27. 1/36 < 2/27: no Jink.
    battle, guard, jinker = _duel([], "no jink")
    assert abs(jink_gain(battle, jinker, guard) - 1 / 36) < 1e-9
    assert not wants_to_jink(battle, jinker, guard)
    # A Marine with no gun loses nothing to Snap Shots: it Jinks.
    unarmed = squad("u", B, MARINE, [], [(30.0, 30.0)], name="Unarmed", rules=["Jink"])
    del battle.units["j"]
    battle.units["u"] = unarmed
    assert wants_to_jink(battle, unarmed, guard)


def test_the_ai_does_not_jink_in_cover_as_good_as_4_plus() -> None:
    # In a 3+ ruin, Jink's 4+ cover save adds nothing: gain 0, no Jink.
    guard = squad("g", A, GUARD, [LASGUN], [(30.0, 10.0)], name="Guard")
    unarmed = squad("u", B, MARINE, [], [(30.0, 30.0)], name="Unarmed", rules=["Jink"])
    ruin = box("Ruin", 28.0, 28.0, 32.0, 32.0, cover_save=3)
    battle = make_battle(guard, unarmed, terrain=[ruin])
    assert jink_gain(battle, unarmed, guard) == 0.0
    assert not wants_to_jink(battle, unarmed, guard)


def test_may_jink_follows_the_models_alive_and_their_profiles_as_each_model_is_asked() -> None:
    # may_jink reads the unit types of the models alive once per make-up
    # (memo.per_makeup): after every change it must say whether a model alive is a
    # Bike (none has Jink of its own), and only a model alive counts.
    biker, trooper = profile("Biker", unit_type="Bike"), profile("Trooper")
    riders = make_unit(
        "r", B, [Placed(trooper, [LASGUN], (30.0, 30.0)), Placed(biker, [LASGUN], (32.0, 30.0))]
    )
    guard = squad("g", A, GUARD, [LASGUN], [(30.0, 10.0)])
    battle = make_battle(guard, riders)
    foot, bike = riders.models

    def each_model_asked() -> bool:
        return any(m.profile is biker for m in riders.alive_models)

    seen = []
    for change in (
        lambda: None,
        lambda: setattr(bike, "wounds_left", 0),  # the Bike slain: none left with Jink
        lambda: setattr(bike, "wounds_left", 1),
        lambda: setattr(bike, "profile", trooper),  # a profile changed in place
        lambda: setattr(foot, "profile", biker),
        lambda: riders.models.remove(foot),  # a model taken out of the list
        lambda: riders.models.append(Model("r.3", biker, (LASGUN,), (34.0, 30.0))),
    ):
        change()
        assert may_jink(battle, riders) == each_model_asked()
        seen.append(may_jink(battle, riders))
    assert seen == [True, False, True, False, True, False, True]
