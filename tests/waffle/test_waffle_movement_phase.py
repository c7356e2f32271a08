"""The movement phase from the 6th/7th-edition base rules (regroup, move, terrain)."""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    A,
    B,
    asked,
    box,
    make_battle,
    movement_phase,
    of_kind,
    profile,
    row,
    squad,
)

from hammerlab.editions.waffle.movement import intents_for, move_allowance
from hammerlab.editions.waffle.state import st
from hammerlab.engine.geometry import segment_point_distance
from hammerlab.engine.units import Unit


def _enemy_far() -> Unit:
    return squad("orks", B, profile("Ork", sv="6+"), [BOLTGUN], row(30, 44, 1))


def test_base_movement_infantry_move_6_inches_toward_the_enemy() -> None:
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 2))
    battle = make_battle(
        marines,
        _enemy_far(),
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    # The unit's centre (31, 4) heads for the closest enemy model at (30, 44):
    # every model moves by the same 6" vector, so y grows by 6 * 40/sqrt(1+1600).
    dy = 6 * 40 / (1 + 1600) ** 0.5
    assert marines.models[0].position[1] == pytest.approx(4 + dy, abs=0.01)
    assert marines.status.moved


@pytest.mark.parametrize(
    ("unit_type", "inches"),
    [("Infantry", 6.0), ("Monstrous Creature", 6.0), ("Jump Infantry", 12.0), ("Bike", 12.0)],
)
def test_base_movement_allowance_by_unit_type(unit_type: str, inches: float) -> None:
    unit = squad("u", A, profile(unit_type=unit_type), [BOLTGUN], row(10, 10, 1))
    assert move_allowance(unit) == inches


def test_base_difficult_terrain_moves_the_higher_of_2d6() -> None:
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    rubble = box("Rubble", 20, 6, 40, 10, difficult=True)
    battle = make_battle(
        marines,
        _enemy_far(),
        dice=[2, 3],  # 2D6 for difficult terrain: the higher die is 3
        terrain=[rubble],
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    x, y = marines.models[0].position
    # Straight north (same x as the target): exactly 3".
    assert (x, y) == pytest.approx((30.0, 7.0), abs=0.01)


@pytest.mark.parametrize(("near_edge", "rolls"), [(9.9, True), (10.1, False), (20.0, False)])
def test_base_difficult_terrain_slows_only_a_move_that_reaches_it(
    near_edge: float, rolls: bool
) -> None:
    """7th edition: a unit rolls for difficult terrain it moves into or through. The
    marine's full move goes straight north from y=4 to y=10 (toward the Ork at
    (30, 44)); rubble across its way from y=``near_edge`` is entered below 10 only.
    A user review found a Captain slowed by rubble 22" away, on the whole way to
    its goal but far beyond this turn's move."""
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    rubble = box("Rubble", 20, near_edge, 40, near_edge + 4, difficult=True)
    battle = make_battle(
        marines,
        _enemy_far(),
        dice=[2, 3] if rolls else [],  # scripted dice: any roll not scripted fails the test
        terrain=[rubble],
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    assert [e.purpose for e in of_kind(battle, "dice")] == (
        ["difficult terrain (M [m]), highest of 2D6"] if rolls else []
    )
    assert marines.models[0].position == pytest.approx((30.0, 7.0 if rolls else 10.0), abs=0.01)


def test_base_regroup_passed_stops_falling_back_but_no_move() -> None:
    marines = squad("m", A, profile(ld=8), [BOLTGUN], row(30, 20, 1))
    battle = make_battle(marines, _enemy_far(), dice=[4, 4], script_a=[("move", "hold")])
    st(battle, marines).falling_back = True
    # 8 <= Ld 8: regroups; its 3" Regroup move declined, it is asked nothing more (no
    # "mover" decision: the script would be exhausted)
    movement_phase(battle, A)
    assert not st(battle, marines).falling_back
    assert marines.models[0].position == (30, 20)


def test_base_regroup_failed_falls_back_again_toward_own_edge() -> None:
    marines = squad("m", A, profile(ld=8), [BOLTGUN], row(30, 20, 1))
    battle = make_battle(marines, _enemy_far(), dice=[5, 4, 3, 3])
    st(battle, marines).falling_back = True
    movement_phase(battle, A)  # 9 > 8: fails; falls back 2D6 = 6" south
    assert st(battle, marines).falling_back
    assert marines.models[0].position == pytest.approx((30.0, 14.0), abs=0.01)


def test_base_and_they_shall_know_no_fear_regroups_automatically_and_moves() -> None:
    marines = squad(
        "m", A, profile(), [BOLTGUN], row(30, 20, 1), rules=["And They Shall Know No Fear"]
    )
    battle = make_battle(
        marines,
        _enemy_far(),
        script_a=[("mover", "M [m]"), ("move", "hold"), ("mover", "end phase")],
    )
    st(battle, marines).falling_back = True
    movement_phase(battle, A)
    assert not st(battle, marines).falling_back
    assert battle.dice.remaining == 0  # type: ignore[attr-defined]


def test_base_gone_to_ground_units_do_not_move() -> None:
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    battle = make_battle(marines, _enemy_far())
    st(battle, marines).gone_to_ground = True
    movement_phase(battle, A)  # no decision is asked: the script is empty
    assert marines.models[0].position == (30, 4)


def test_base_movement_does_not_pass_through_another_units_bases() -> None:
    # The marine at (30, 4) advances north toward the enemy at (30, 44). A friendly
    # model stands at (30, 8): ending at (30, 10), 6" on, would be clear of it, but the
    # path crosses its base, so the move stops where the bases touch: centre (30, 7).
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    blocker = squad("f", A, profile(), [BOLTGUN], row(30, 8, 1))
    battle = make_battle(
        marines,
        blocker,
        _enemy_far(),
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    x, y = marines.models[0].position
    assert x == pytest.approx(30.0)
    assert y <= 7.0 + 1e-6
    assert y >= 7.0 - 6 / 20  # moves are shortened in twentieths of the way


@pytest.mark.parametrize(
    ("other", "why"),
    [
        # A friend's base touching the marine's (centres 1" apart, 25.4 mm bases:
        # radius 0.5") on its way north: the first step of the way overlaps it.
        (squad("f", A, profile(), [BOLTGUN], row(30, 5, 1)), "f.1 is in the way of m.1"),
        # An Ork 2" north: bases 1" apart, so any step north comes within 1" of it.
        (
            squad("o", B, profile("Ork"), [BOLTGUN], row(30, 6, 1)),
            'm.1 would come within 1" of o.1',
        ),
    ],
)
def test_a_move_that_cannot_start_says_what_stops_it(other: Unit, why: str) -> None:
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    battle = make_battle(
        marines,
        other,
        _enemy_far(),
        script_a=[("mover", "M [m]"), ("move", "advance"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    assert marines.models[0].position == (30, 4)
    assert f'M [m] moves (advance) 0": {why}' in [e.text for e in battle.log.of_kind("message")]
    assert not marines.status.moved


def test_segment_point_distance_by_hand() -> None:
    # The segment (0,0)-(4,0): (2,3) is 3 away (foot inside); (6,0) is 2 away (the end).
    assert segment_point_distance((0, 0), (4, 0), (2, 3)) == pytest.approx(3.0)
    assert segment_point_distance((0, 0), (4, 0), (6, 0)) == pytest.approx(2.0)
    assert segment_point_distance((1, 1), (1, 1), (4, 5)) == pytest.approx(5.0)


def test_a_move_s_choices_say_where_each_goes() -> None:
    """A player's review: "advance", "take cover" and "flank" were explained nowhere.
    The marine stands at (30, 4), its centre; the Orks at (30, 44), 40" away; the
    only cover, a ruin from x = 48 to 52 centred on (50, 4), whose nearest spot that
    takes the one model in, (48, 4), is 18" away (``movement.cover_spot``: before a
    referee review, its centre, 20"); its own edge (south) at y = 0."""
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 4, 1))
    ruin = box("Ruin", 48, 2, 52, 6, cover_save=4)
    battle = make_battle(
        marines,
        _enemy_far(),
        terrain=[ruin],
        script_a=[("mover", "M [m]"), ("move", "hold"), ("mover", "end phase")],
    )
    movement_phase(battle, A)
    [move] = asked(battle, A, "move")
    assert dict(zip(move.labels(), move.details(), strict=True)) == {
        "advance": 'toward Orks [orks], 40.0" from its centre',
        "take cover": 'toward Ruin (cover 4+), 18.0" from its centre',
        "retreat": 'toward its own table edge (south), 4.0" from its centre',
        "hold": "stays where it is",
    }


def test_an_intent_with_nowhere_to_go_is_not_offered() -> None:
    """A player's review was offered a Run to "advance" once the enemy was gone: it
    stayed put, as "hold" does, under another name. With every Ork slain and no
    terrain giving cover, only a retreat to its own edge and holding are left."""
    marines = squad("m", A, profile(), [BOLTGUN], row(30, 10, 1))
    orks = _enemy_far()
    battle = make_battle(marines, orks)
    assert intents_for(battle, marines) == ("advance", "retreat", "hold")
    orks.models[0].wounds_left = 0
    assert intents_for(battle, marines) == ("retreat", "hold")
