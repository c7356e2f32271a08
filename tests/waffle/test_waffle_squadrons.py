"""Vehicle squadrons (a unit of several vehicles): damage results stay with the vehicle
that suffered them.

7th edition: Crew Shaken, "the vehicle … can only fire Snap Shots"; Crew Stunned, that
and it "cannot move"; Immobilised, it "cannot move". Each is said of the vehicle, and no
6th/7th-edition rule spreads one vehicle's to its squadmates; the squadron rule (as
remembered) lets the rest of a squadron move away from an Immobilised vehicle, which is
then a unit of its own (docs/rules/waffle.md, *Vehicles*, interpretation 16). Expected
values are worked by hand in the comments.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from conftest import LASGUN, MARINE, A, B, all_dice_used, make_battle, of_kind, row, squad
from test_waffle_vehicles import BATTLE_CANNON, HULL_BOLTER, LEMAN_RUSS

from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.expected import expected_casualties
from hammerlab.editions.waffle.movement_phase import _may_move, move_one
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.snap_shots import snaps_of
from hammerlab.editions.waffle.vehicles import vehicle_status
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry
from hammerlab.engine.memo import decision_scope
from hammerlab.engine.units import Model, Unit

WEAPONS = (BATTLE_CANNON, HULL_BOLTER)


def squadron_battle(
    dice: Sequence[int] = (), script: Sequence[tuple[str, str]] = ()
) -> tuple[Battle, Unit, Unit]:
    """Three Leman Russ (BS3, each a battle cannon and a heavy bolter) of A, 8" apart on
    100 mm hulls along y = 10, and five Marines of B 20" north of them."""
    models = [
        Model(f"russ.{k}", LEMAN_RUSS, WEAPONS, (14.0 + 8.0 * k, 10.0), 100.0, 3) for k in (1, 2, 3)
    ]
    sheet = Datasheet(
        name="Leman Russ Squadron",
        army="test",
        edition="waffle",
        entries=(ModelEntry(LEMAN_RUSS, 3, WEAPONS, 100.0),),
    )
    tanks = Unit(id="russ", name=sheet.name, player=A, datasheet=sheet, models=models)
    marines = squad("m", B, MARINE, [LASGUN], row(26.0, 30.0, 5))
    return make_battle(tanks, marines, dice=dice, script_a=script), tanks, marines


@pytest.mark.parametrize("result", ["shaken", "stunned"])
def test_one_shaken_or_stunned_tank_of_a_squadron_fires_snap_shots_and_the_others_do_not(
    result: str,
) -> None:
    # russ.2's crew is Shaken (or Stunned): it fires Snap Shots (BS3 halved: BS1, 6+); its
    # squadmates fire at their BS3 (4+). Each group rolls its own dice, the full-BS models
    # first: russ.1 and russ.3, 3 shots each, six 4s hit; russ.2, 6 1 1: one hit. Seven
    # hits, S5 against T4 wound on 3+: seven 1s, none. The whole squadron fired Snap
    # Shots before (one ShotsFired, 9 shots on 6+).
    battle, tanks, marines = squadron_battle([4] * 6 + [6, 1, 1] + [1] * 7)
    status = vehicle_status(battle, tanks.models[1])
    if result == "shaken":
        status.shaken_turns = 1
    else:
        status.stunned_turns = 1
    start_phase(battle, "shooting", A)
    fire_weapon(battle, tanks, marines, "Heavy bolter", FireOrders())
    volleys = [(v.shots, v.models, v.snap, v.needed, v.hits) for v in of_kind(battle, "shots")]
    assert volleys == [(6, 2, False, "4+", 6), (3, 1, True, "6+", 1)]
    assert all_dice_used(battle)


def test_a_tank_firing_alone_snaps_by_its_own_crew_and_a_marine_never() -> None:
    # One model fires alone (asked without the unit's make-up): russ.2, Shaken, fires Snap
    # Shots, russ.1 does not; a Marine, no vehicle, does not; each as the unit's answer
    # says when the unit as a whole fires Snap Shots (then every model does).
    battle, tanks, marines = squadron_battle()
    vehicle_status(battle, tanks.models[1]).shaken_turns = 1
    assert snaps_of(battle, tanks, [tanks.models[1]], False) == [True]
    assert snaps_of(battle, tanks, [tanks.models[0]], False) == [False]
    assert snaps_of(battle, tanks, tanks.models, False) == [False, True, False]
    assert snaps_of(battle, marines, [marines.models[0]], False) == [False]
    assert snaps_of(battle, marines, [marines.models[0]], True) == [True]


def test_the_squadmates_of_a_shaken_tank_fire_their_battle_cannons() -> None:
    # Ordnance "cannot be fired as Snap Shots" (seed 000): russ.2's does not fire, the
    # other two do. Before, no battle cannon of the squadron fired.
    battle, tanks, marines = squadron_battle()
    vehicle_status(battle, tanks.models[1]).shaken_turns = 1
    fired = firing_models(battle, tanks, marines, "Battle cannon", FireOrders())
    assert [m.id for m in fired] == ["russ.1", "russ.3"]


def test_the_ai_expects_a_squadron_s_shots_each_at_its_own_ballistic_skill() -> None:
    # Nine heavy bolter shots at Marines (T4, Sv3+; S5 wounds on 3+, AP4 leaves the save,
    # failed on 1-2): at BS3 each kills 1/2 x 2/3 x 1/3 = 1/9, as a Snap Shot (BS1)
    # 1/6 x 2/3 x 1/3 = 1/27. Six of the first and three of the second: 6/9 + 3/27 = 7/9
    # (the whole squadron as Snap Shots was 9/27 = 1/3).
    battle, tanks, marines = squadron_battle()
    vehicle_status(battle, tanks.models[1]).shaken_turns = 1
    with decision_scope():
        expected = expected_casualties(battle, tanks, marines, "Heavy bolter", FireOrders())
    assert Fraction(expected).limit_denominator(1000) == Fraction(7, 9)


def test_a_squadron_moves_away_from_its_immobilised_tank_left_as_a_unit_of_its_own() -> None:
    # russ.3 is Immobilised: the squadron may still move (it could not before); when it
    # advances, russ.3 stays where it stood, a unit of its own that may not move, and the
    # other two move on. No model is lost or counted twice: each unit counts its own.
    battle, tanks, _ = squadron_battle(script=[("move", "advance")])
    stuck = tanks.models[2]
    vehicle_status(battle, stuck).immobilised = True
    start_phase(battle, "movement", A)
    assert _may_move(battle, tanks)
    move_one(battle, tanks)
    (left,) = of_kind(battle, "left_behind")
    assert (left.squadron, left.model, left.unit) == (
        "Leman Russ Squadron [russ]",
        "russ.3",
        "Leman Russ Squadron [russ.3]",
    )
    alone = battle.unit("russ.3")
    assert alone.models == [stuck] and stuck.position == (38.0, 10.0)
    assert [m.id for m in tanks.models] == ["russ.1", "russ.2"]
    assert tanks.models[0].position[1] > 10.0  # the rest advanced toward the Marines
    assert (tanks.starting_models, alone.starting_models) == (2, 1)
    assert not _may_move(battle, alone)
    assert victory_scores(battle, "models_destroyed") == {A: 0, B: 0}


def test_a_stunned_tank_holds_its_squadron_and_an_all_immobilised_one_stays() -> None:
    # The squadron moves as a block, in coherency: with a Crew Stunned vehicle (it "cannot
    # move" until the end of its next turn) it stays that turn; with every vehicle
    # Immobilised it stays for good; one Immobilised vehicle alone does not hold it.
    battle, tanks, _ = squadron_battle()
    statuses = [vehicle_status(battle, m) for m in tanks.models]
    statuses[0].immobilised = True
    assert _may_move(battle, tanks)
    statuses[1].stunned_turns = 1
    assert not _may_move(battle, tanks)
    statuses[1].stunned_turns = 0
    statuses[1].immobilised = statuses[2].immobilised = True
    assert not _may_move(battle, tanks)
