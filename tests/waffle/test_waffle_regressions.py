"""Regression tests for Waffle Edition bugs found by the randomised battles and review.

Each test is named for the rule it keeps. Expected values are worked by hand in
the comments (1" bases: radius 0.5", so two bases overlap when their centres
are less than 1" apart).
"""

from __future__ import annotations

import math

import pytest
from conftest import (
    BOLTGUN,
    HEAVY_BOLTER,
    LASGUN,
    A,
    B,
    Placed,
    all_dice_used,
    asked,
    make_battle,
    make_unit,
    messages,
    of_kind,
    profile,
    squad,
)
from fight_kit import CHAINSWORD, MARINE, POWER_SWORD, north

from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.movement import fall_back
from hammerlab.editions.waffle.movement_phase import movement_phase
from hammerlab.editions.waffle.shooting import shooting_phase
from hammerlab.engine.controllers import FirstChoiceController
from hammerlab.engine.units import Unit

DUMMY = profile("Dummy", i=1, sv="-")
"""WS4 S4 T4 W1 I1 A1, no save: strikes last and dies to any unsaved wound."""
ORK = profile("Ork", sv="6+")


def _gap(a: Unit, b: Unit) -> float:
    """The smallest centre distance between a model of ``a`` and one of ``b``."""
    return min(math.dist(m.position, n.position) for m in a.models for n in b.models)


# --- fight.strike: a target wiped out earlier in the same Initiative step -------------


def test_seed001_blows_at_a_unit_wiped_out_earlier_in_the_same_initiative_step_are_lost() -> None:
    # a.1 (power sword) touches b.1; a.2 (chainsword) stands 1.2" from a.1, so it is
    # engaged and may attack b too. Both strike at I4, as two groups (two weapons).
    # Power sword: WS4 v WS4 hits on 4+ (a 4), S4 v T4 wounds on 4+ (a 4), no save:
    # b.1 is slain. The chainsword's blow then has no model left to hit: it is lost,
    # with no die rolled (it used to crash on the empty unit's majority Toughness).
    # Only A is left: A consolidates (D6: a 1) and holds.
    attackers = make_unit(
        "a",
        A,
        [Placed(MARINE, [POWER_SWORD], (10, 20)), Placed(MARINE, [CHAINSWORD], (11.2, 20))],
        name="Attackers",
    )
    defenders = squad("b", B, DUMMY, [CHAINSWORD], north([10]), name="Defenders")
    battle = make_battle(attackers, defenders, dice=[4, 4, 1], script_a=[("move", "hold")])
    fight_sub_phase(battle, A)
    assert defenders.destroyed
    assert [(e.weapon, e.hits) for e in of_kind(battle, "blows")] == [("Power sword", 1)]
    assert attackers.status.combat_score == 1
    assert any("Chainsword blows lost" in m for m in messages(battle))
    assert all_dice_used(battle)


# --- movement.move_unit: a block move overlaps no other unit's base --------------------


def test_base_movement_a_unit_moving_as_a_block_stops_short_of_another_units_bases() -> None:
    # M at (30, 4) advances 6" straight north toward the Ork at (30, 44), which
    # would put it on F at (30, 10). The move is cut, in twentieths, to the longest
    # that overlaps no base: 16/20 of 6" = 4.8", to (30, 8.8), 1.2" from F's centre.
    marines = squad("m", A, profile(), [BOLTGUN], [(30, 4)], name="M")
    friends = squad("f", A, profile(), [BOLTGUN], [(30, 10)], name="F")
    orks = squad("o", B, ORK, [BOLTGUN], [(30, 44)], name="Orks")
    battle = make_battle(
        marines,
        friends,
        orks,
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    assert marines.models[0].position == pytest.approx((30.0, 8.8))
    assert _gap(marines, friends) >= 1.0


@pytest.mark.parametrize("blocker_player", [A, B])
def test_base_fall_back_stops_short_of_another_units_bases(blocker_player: str) -> None:
    # M at (30, 10) falls back 2D6 = 6" toward its south edge, which would put it
    # on the model at (30, 4), friend or foe (a Fall Back may come within 1" of an
    # enemy, but not through its base): 16/20 of 6" = 4.8", to (30, 5.2).
    marines = squad("m", A, profile(), [BOLTGUN], [(30, 10)], name="M")
    blocker = squad("x", blocker_player, profile(), [BOLTGUN], [(30, 4)], name="X")
    others = [] if blocker_player == B else [squad("o", B, ORK, [BOLTGUN], [(30, 44)])]
    battle = make_battle(marines, blocker, *others, dice=[3, 3])
    fall_back(battle, marines, "lost a test")
    assert marines.models[0].position == pytest.approx((30.0, 5.2))
    assert _gap(marines, blocker) >= 1.0
    assert all_dice_used(battle)


# --- movement_phase.move_one: a unit that did not move has not moved -------------------


@pytest.mark.parametrize(
    ("intent", "enemy_y"),
    [
        ("take cover", 44.0),  # no terrain with a cover save: no goal
        ("advance", 6.0),  # the closest enemy already 1" away: no step keeps 1" clear
    ],
)
def test_base_movement_a_unit_that_could_not_move_does_not_count_as_moved(
    intent: str, enemy_y: float
) -> None:
    # A unit that stayed where it was fires its Heavy weapons normally (seed 000:
    # Snap Shots are for a model that "moves and shoots in the same turn").
    marines = squad("m", A, profile(), [HEAVY_BOLTER], [(30, 4)], name="M")
    orks = squad("o", B, ORK, [BOLTGUN], [(30, enemy_y)], name="Orks")
    script = [("mover", "M [m]"), ("move", intent)]
    battle = make_battle(marines, orks, script_a=script)
    movement_phase(battle, A)
    assert marines.models[0].position == (30, 4)
    assert of_kind(battle, "move") == []
    assert not marines.status.moved


# --- shooting: Suppressive Fire is against non-vehicle targets -------------------------


def test_seed000_suppressive_fire_is_not_offered_against_vehicles() -> None:
    # "perform a Suppressive Fire shooting action instead of a regular shooting
    # action against non-vehicle targets": with only a walker in sight there is no
    # Suppressive Fire; with Guardsmen too, only they may be its target.
    walker = profile("Walker", unit_type="Vehicle (Walker)")
    squad_a = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    target = squad("w", B, walker, [LASGUN], [(30, 30)], name="Walker")
    battle = make_battle(
        squad_a,
        target,
        options={"suppressive_fire": True},
        script_a=[("shooter", "Squad [a]"), ("action", "hold")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.labels() == ["shoot", "run", "hold"]

    guard = profile("Guardsman", bs=3, s=3, ld=7, sv="5+")
    squad_a = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guards = squad("g", B, guard, [LASGUN], [(40, 30), (42, 30)], name="Guard")
    battle = make_battle(
        squad_a,
        squad("w", B, walker, [LASGUN], [(30, 30)], name="Walker"),
        guards,
        options={"suppressive_fire": True},
        script_a=[("shooter", "Squad [a]"), ("action", "suppressive fire")],
        fallback=FirstChoiceController(),
        seed=1,
    )
    shooting_phase(battle, A)
    (targets,) = asked(battle, A, "target")
    assert targets.labels() == ["Guard [g]"]
