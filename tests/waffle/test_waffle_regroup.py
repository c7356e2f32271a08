"""Regroup (6th/7th-edition base rules) and the tests special rules pass without a roll.

``Warhammer40K.gst`` (the shared 7th-edition game system file), Fearless: "Units
containing one or more models with the Fearless special rule automatically pass
Pinning, Fear, Regroup tests and Morale checks"; And They Shall Know No Fear: "A
unit that contains at least one model with this special rule automatically passes
Fear and Regroup tests. When it Regroups, the unit does not make the 3" Regroup
move, but can instead move, shoot (or Run) and declare charges normally in that
turn". The 6th-edition Regroup (as transcribed in public rules summaries): "Once a
unit has regrouped, it cannot otherwise move (so cannot Run in Shooting phase or
charge in Assault phase). However, it can shoot (including Overwatch), but counts
as having moved and can only fire Snap Shots."

A referee review (session 22) found a Fearless unit failing Regroup tests and
falling off the table, and a unit that had just regrouped offered a Run and a
charge and shooting at its full Ballistic Skill. Bases are 1" across (conftest).
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    BRUTE,
    GUARD,
    LASGUN,
    TROOPER,
    A,
    B,
    Placed,
    asked,
    make_battle,
    make_unit,
    movement_phase,
    of_kind,
    profile,
    row,
    squad,
)

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.morale import (
    FEAR_TEST,
    MORALE_CHECK,
    PINNING_TEST,
    REGROUP_TEST,
    passes_automatically,
)
from hammerlab.editions.waffle.move_plans import own_charge_ahead
from hammerlab.editions.waffle.movement_phase import regroup
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import can_run
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

ATSKNF = "And They Shall Know No Fear"


@pytest.mark.parametrize(
    ("rule", "passed"),
    [
        # The gst's lists, test by test.
        ("Fearless", {PINNING_TEST, FEAR_TEST, REGROUP_TEST, MORALE_CHECK}),
        (ATSKNF, {FEAR_TEST, REGROUP_TEST}),
        ("Stubborn", set()),
    ],
)
def test_the_tests_each_rule_passes_without_a_roll_are_the_gst_s(
    rule: str, passed: set[str]
) -> None:
    unit = squad("u", A, profile(), [BOLTGUN], row(30, 20, 1), rules=[rule])
    for test in (PINNING_TEST, FEAR_TEST, REGROUP_TEST, MORALE_CHECK):
        assert passes_automatically(unit, test) == (rule if test in passed else None)


HOLD = (("move", "hold"),)
"""The Regroup move, declined."""


def _fleeing(
    ld: int = 8,
    rules: tuple[str, ...] = (),
    alive: int = 5,
    dice: tuple[int, ...] = (),
    script: tuple[tuple[str, str], ...] = HOLD,
) -> tuple[Battle, Unit]:
    """Five models of A (``alive`` of them left) falling back at (30, 20)-(38, 20),
    ten Guardsmen of B 24" north, the dice scripted (none: any roll fails the test)."""
    unit = squad("m", A, profile(ld=ld), [BOLTGUN], row(30, 20, 5), rules=list(rules))
    for model in unit.models[alive:]:
        model.wounds_left = 0
    enemy = squad("g", B, GUARD, [LASGUN], row(30, 44, 10))
    battle = make_battle(unit, enemy, dice=list(dice), script_a=script)
    st(battle, unit).falling_back = True
    return battle, unit


def test_a_fearless_unit_regroups_without_a_test_even_below_25_percent() -> None:
    # One model of five left (20%, below 25%) at Ld 5: a test would need a double 1.
    # Fearless passes without rolling: no die is scripted, so a roll would fail the
    # test, and no Regroup test is logged.
    battle, unit = _fleeing(ld=5, rules=("Fearless",), alive=1)
    movement_phase(battle, A)
    assert not st(battle, unit).falling_back
    assert of_kind(battle, "morale") == []  # the kind of a LeadershipTest
    assert st(battle, unit).regrouped  # Fearless passes the test; it regroups as any unit
    assert unit.models[0].position == (30, 20)  # the Regroup move: "hold"


@pytest.mark.parametrize(
    ("character_alive", "dice", "passed"),
    [
        (True, (4, 4), True),  # 8 against Ld 8, as at 25%
        (True, (5, 4), False),  # 9: a test at Ld 8 all the same, not a pass
        (False, (4, 4), False),  # the character slain: a double 1 only
    ],
)
def test_an_independent_character_spares_its_unit_the_double_1_below_25_percent(
    character_alive: bool, dice: tuple[int, int], passed: bool
) -> None:
    # gst, Independent Character: "A unit that contains one or more Independent
    # Characters does not need a double 1 to Regroup if reduced to below 25% of its
    # starting numbres, but instead tests as if it had at least 25% remaining".
    # Five models at Ld 8, one of them an Independent Character, one model left of
    # five (20%): the character, or (slain) a Marine. Failing, it falls back 2D6
    # (the scripted 1 and 1).
    marine = profile(ld=8)
    placed = [Placed(marine, [BOLTGUN], (30 + 2 * k, 20)) for k in range(5)]
    placed[0].rules = ("Independent Character",)
    unit = make_unit("m", A, placed)
    for model in unit.models[1:] if character_alive else unit.models[:4]:
        model.wounds_left = 0
    enemy = squad("g", B, GUARD, [LASGUN], row(30, 44, 10))
    battle = make_battle(unit, enemy, dice=[*dice, 1, 1], script_a=HOLD)
    st(battle, unit).falling_back = True
    regroup(battle, unit)
    (test,) = of_kind(battle, "morale")
    assert (test.test, test.roll, test.passed) == (REGROUP_TEST, sum(dice), passed)
    assert st(battle, unit).falling_back is not passed


def test_a_unit_that_regroups_makes_a_3_inch_regroup_move_and_no_other() -> None:
    # Ld 8, 4 + 4 = 8 passes. It may move up to 3": advancing, the block heads from
    # its centre (34, 20) toward the closest enemy model, the Guardsman at (30, 44)
    # (24" from the model at (30, 20)), every model 3" along (-4, 24) / sqrt(592):
    # (30, 20) to (30 - 12 / sqrt(592), 20 + 72 / sqrt(592)). It is then not offered
    # to move again (no "mover" decision: A has no other unit).
    battle, unit = _fleeing(dice=(4, 4), script=(("move", "advance"),))
    movement_phase(battle, A)
    (regroup_move,) = asked(battle, A, "move")
    assert '3" Regroup move' in regroup_move.prompt
    assert asked(battle, A, "mover") == []
    root = 592**0.5
    assert unit.models[0].position == pytest.approx((30 - 12 / root, 20 + 72 / root))
    assert not st(battle, unit).falling_back


def test_a_regrouped_unit_fires_snap_shots_and_may_neither_run_nor_charge_that_turn() -> None:
    # The test (4 + 4 = 8: passed), then the to-hit dice of five boltguns 23" from
    # the Guardsmen (one shot each beyond half range).
    battle, unit = _fleeing(dice=(4, 4, 4, 4, 4, 4, 4))
    movement_phase(battle, A)
    assert unit.status.moved  # "counts as having moved"
    assert not can_run(battle, unit)
    assert charge_ban(battle, unit) == "it regrouped this turn"
    # BS4 snaps at BS2, hitting on 5+: the five 4s miss (BS4 would hit on 3+).
    fire_weapon(battle, unit, battle.unit("g"), "Boltgun", FireOrders())
    (shots,) = of_kind(battle, "shots")
    assert (shots.snap, shots.needed, shots.hits) == (True, "5+", 0)
    # The restrictions last for its own turn only.
    end_of_turn(battle, A)
    assert can_run(battle, unit)
    assert charge_ban(battle, unit) is None


def test_and_they_shall_know_no_fear_regroups_and_then_acts_normally() -> None:
    # No Regroup move (no die, no 3" question): the unit is offered to move as any
    # unit, may Run and charge later in the turn.
    script = (("mover", "M [m]"), ("move", "hold"), ("mover", "end phase"))
    battle, unit = _fleeing(rules=(ATSKNF,), script=script)
    movement_phase(battle, A)
    (move,) = asked(battle, A, "move")
    assert 'moves up to 6"' in move.prompt
    assert not st(battle, unit).regrouped
    assert can_run(battle, unit)
    assert charge_ban(battle, unit) is None


def test_the_ai_counts_no_charge_this_turn_for_a_unit_that_regrouped() -> None:
    # Five Brutes (B) 8" from five Troopers (A), neither with guns, in B's Movement
    # phase of the game's last turn: the charge the Brutes' move leads to this turn is
    # worth something while they may charge, and nothing once they have regrouped (no
    # charge this turn, no turn after this one), so the AI's move weighs none.
    troopers = squad("t", A, TROOPER, [], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 19, 5))
    battle = make_battle(troopers, brutes, seed=1)
    record_schedule(battle, Schedule(1, ("movement", "shooting", "assault"), (A, B)))
    battle.active_player, battle.phase = B, "movement"
    assert own_charge_ahead(battle, brutes) > 0.0
    st(battle, brutes).regrouped = True
    assert own_charge_ahead(battle, brutes) == 0.0
