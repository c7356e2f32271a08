"""The heuristic counts only the turns and phases the game still plays (docs/ai.md,
"The end of the game"; ``editions/schedule.py``).

Expected values are worked out by hand in the comments: Waffle's Snap Shots
halve BS (seed 000: "divided by 2 (always round down) to a minimum of BS 1"),
every save type is taken once (seed 000, "Models with more than One Save"),
and Going to Ground gives a 6+ cover save where there is none.
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    BRUTE,
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    MARINE,
    TROOPER,
    A,
    B,
    make_battle,
    row,
    squad,
)
from test_waffle_ai_victory_worth import move_intent

from hammerlab.editions.schedule import SCHEDULE, Schedule, record_schedule
from hammerlab.editions.waffle.jink_plans import jink_cost
from hammerlab.editions.waffle.move_plans import own_charge_ahead, wants_to_run
from hammerlab.editions.waffle.plans import (
    charge_value,
    counter_charge,
    counter_charge_chance,
    exposure,
    next_charge,
    next_turn_value,
)
from hammerlab.editions.waffle.reaction_plans import dive_bounds, dive_gain
from hammerlab.editions.waffle.shooting_plans import shooting_plan
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def _gunfight() -> tuple[Battle, Unit, Unit]:
    # Five Marines (BS4, boltguns) 20" from two squads of ten Guardsmen (BS3
    # lasguns, T4, 5+), in the open, Shooting phases only.
    marines = squad("m", A, MARINE, [BOLTGUN], row(30, 10, 5))
    first = squad("g", B, GUARD, [LASGUN], row(30, 30, 10))
    second = squad("h", B, GUARD, [LASGUN], row(30, 32, 10))
    battle = make_battle(marines, first, second, seed=1)
    battle.phase = "shooting"
    return battle, marines, first


def _plan(battle: Battle, last_turn: int, phases: tuple[str, ...], order: str) -> None:
    record_schedule(battle, Schedule(last_turn, phases, tuple(order)))


def test_a_unit_with_a_turn_to_come_loses_its_shooting_and_one_without_loses_nothing() -> None:
    battle, marines, first = _gunfight()
    # Its next turn's shooting less the same as Snap Shots: five boltguns at
    # 20" (one shot each), BS4 hits on 3+ (2/3), as Snap Shots BS2 on 5+ (1/3);
    # S4 v T4 wounds on 4+ (1/2); AP5 beats the 5+ save. 5 x 1/2 x (2/3 - 1/3)
    # = 5/6. No Assault phase: no charge counts.
    _plan(battle, 2, ("shooting",), "AB")
    battle.active_player = B
    assert next_turn_value(battle, marines) == pytest.approx(5 / 6)
    # What going to ground saves against the second squad, still to shoot: ten
    # lasguns, BS3 (1/2), S3 v T4 (5+: 1/3), 3+ armour fails 1/3, and a 6+
    # cover save taken as well fails 5/6: 10 x 1/2 x 1/3 x 1/3 x (1 - 5/6) = 10/108.
    assert dive_gain(battle, marines, first) == pytest.approx(10 / 108)
    assert list(dive_bounds(battle, marines, first))[-1] == pytest.approx(10 / 108 - 5 / 6)
    # In B's last turn the Marines have no turn to come: going to ground costs
    # nothing, so it is worth all it saves.
    _plan(battle, 1, ("shooting",), "AB")
    assert next_turn_value(battle, marines) == 0.0
    assert list(dive_bounds(battle, marines, first))[-1] == pytest.approx(10 / 108)


def test_the_enemy_s_shooting_to_come_counts_only_while_it_has_a_turn() -> None:
    battle, marines, _ = _gunfight()
    # In A's last turn B still shoots: the first squad's ten lasguns kill
    # 10 x 1/2 x 1/3 x 1/3 = 10/18 Marines. The second squad shoots through the
    # first (h.1 at (30,32) at m.1 at (30,10): the line crosses g.1's base at
    # (30,30)), so the Marines also have a 5+ cover save from intervening models
    # after their 3+ armour: 10 x 1/2 x 1/3 x (1/3 x 2/3) = 10/27; 25/27 both.
    # In B's last turn, none.
    _plan(battle, 1, ("shooting",), "AB")
    battle.active_player = A
    assert exposure(battle, marines) == pytest.approx(25 / 27)
    battle.active_player = B
    assert exposure(battle, marines) == 0.0
    # A plan with no Shooting phase: no shooting to come at all.
    _plan(battle, 3, ("movement", "assault"), "AB")
    assert exposure(battle, marines) == 0.0


FIGHT = 25 / 6
"""What the Brutes' charge at the Troopers gains once it reaches: they slay all five
(5 x 4 Attacks x 1/2 x 5/6, capped) for 5/6 of a Brute (5 x 1/2 x 1/3, S3 v T4),
and the gunless Troopers fire no Overwatch and spare nothing (the derivation of
test_waffle_ai_counter_charge.py)."""


def _brawl() -> tuple[Battle, Unit, Unit]:
    # Five Brutes (B) 8" from five Troopers (A), neither with guns.
    troopers = squad("t", A, TROOPER, [], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 19, 5))
    battle = make_battle(troopers, brutes, seed=1)
    battle.phase = "shooting"
    return battle, troopers, brutes


def test_the_enemy_s_charge_next_turn_counts_only_with_a_turn_and_an_assault_to_come() -> None:
    battle, troopers, brutes = _brawl()
    battle.active_player = A
    # B moves 6" first and needs 2" (2D6 >= 2: certain); with no Movement
    # phase it needs 8" (2D6 >= 8: 15/36); the fight it reaches is the same and
    # the Troopers have no Overwatch, so the value scales with the chance.
    _plan(battle, 1, ("movement", "shooting", "assault"), "AB")
    assert counter_charge_chance(battle, brutes, troopers) == 1.0
    reached = counter_charge(battle, brutes, troopers)
    assert reached > 0.0
    assert reached == pytest.approx(FIGHT)
    _plan(battle, 1, ("shooting", "assault"), "AB")
    assert counter_charge_chance(battle, brutes, troopers) == pytest.approx(15 / 36)
    assert counter_charge(battle, brutes, troopers) == pytest.approx(15 / 36 * reached)
    # B went first: in A's last turn B has no turn to come, so no charge.
    _plan(battle, 1, ("movement", "shooting", "assault"), "BA")
    assert counter_charge_chance(battle, brutes, troopers) == 0.0
    assert counter_charge(battle, brutes, troopers) == 0.0
    # So with no Assault phase at all.
    _plan(battle, 5, ("movement", "shooting"), "AB")
    assert counter_charge(battle, brutes, troopers) == 0.0


def test_the_shooting_plan_counts_a_charge_only_with_an_assault_phase_to_come() -> None:
    # The Brutes have no guns: their plan is worth the charge that follows
    # their Shooting phase, or nothing when the turn has no Assault phase.
    battle, _, brutes = _brawl()
    battle.active_player = B
    _plan(battle, 1, ("shooting", "assault"), "BA")
    with_charge = shooting_plan(battle, brutes)
    assert with_charge.target is None and with_charge.value > 0.0
    assert with_charge.value == pytest.approx(15 / 36 * FIGHT)  # 8" away, no move first
    _plan(battle, 1, ("shooting",), "BA")
    without = shooting_plan(battle, brutes)
    assert without.target is None and without.value == 0.0
    # With no schedule (a phase played alone) the battle is taken to go on.
    del battle.memory[SCHEDULE]
    assert shooting_plan(battle, brutes).value == with_charge.value


def test_the_next_charge_counts_the_move_before_it_and_only_with_an_assault_to_come() -> None:
    # In A's turn B's next charge comes after a 6" move (2" left: certain) or,
    # with no Movement phase, from 8" (15/36); no Overwatch either way, so the
    # gain scales with the chance. In B's last turn B has none to come.
    battle, _, brutes = _brawl()
    battle.active_player = A
    _plan(battle, 2, ("movement", "shooting", "assault"), "AB")
    after_a_move = next_charge(battle, brutes)
    assert after_a_move > 0.0
    assert after_a_move == pytest.approx(FIGHT)
    _plan(battle, 2, ("shooting", "assault"), "AB")
    assert next_charge(battle, brutes) == pytest.approx(15 / 36 * after_a_move)
    battle.turn, battle.active_player = 2, B
    assert next_charge(battle, brutes) == 0.0


def test_a_unit_runs_to_close_in_only_with_an_assault_phase_to_come() -> None:
    # The Brutes would win a fight with the Troopers (5 x 4 blows at S5 against
    # T3 against the Troopers' five at S3 against T4): a Run toward them pays
    # off in a later Assault phase, which a Run's own turn cannot have (seed
    # 000: "Units that Run in the Shooting phase cannot charge").
    battle, _, brutes = _brawl()
    battle.active_player = B
    _plan(battle, 2, ("shooting", "assault"), "BA")
    assert wants_to_run(battle, brutes)
    battle.turn = 2
    assert not wants_to_run(battle, brutes)
    _plan(battle, 5, ("shooting",), "BA")
    battle.turn = 1
    assert not wants_to_run(battle, brutes)


def test_jinking_costs_the_next_turn_s_shooting_only_if_there_is_one() -> None:
    # Snap Shots next turn take what they take from the next turn's shooting
    # (the 5/6 above); in the side's last turn there is none to take.
    battle, marines, _ = _gunfight()
    battle.active_player = B
    _plan(battle, 2, ("shooting",), "AB")
    assert jink_cost(battle, marines) == pytest.approx(5 / 6)
    _plan(battle, 1, ("shooting",), "AB")
    assert jink_cost(battle, marines) == 0.0


def test_a_charge_spares_the_charger_the_target_s_shooting_only_if_it_has_some_to_come() -> None:
    # Five Brutes (T4, no save) charge five Marines 8" away: in the Marines'
    # next Shooting phase their boltguns (within half range: two shots each)
    # would kill 10 x 2/3 x 1/2 = 10/3 Brutes, of those the fight leaves. With
    # Assault phases only the Marines never shoot again: nothing is spared.
    marines = squad("m", A, MARINE, [BOLTGUN], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 19, 5))
    battle = make_battle(marines, brutes, seed=1)
    battle.active_player = B
    _plan(battle, 2, ("shooting", "assault"), "BA")
    value = charge_value(battle, brutes, marines)
    assert value.spared == pytest.approx(10 / 3 * (1 - value.taken / 5))
    _plan(battle, 2, ("assault",), "BA")
    assert charge_value(battle, brutes, marines).spared == 0.0


def test_a_gun_line_holds_for_its_heavy_weapons_only_with_a_shooting_phase_to_come() -> None:
    # Five Marines with heavy bolters (36") 20" from five gunless Troopers,
    # out of the Troopers' reach (a 6" move and a 12" charge): moving would
    # cost the heavy bolters their full fire, so they hold; in a turn with no
    # Shooting phase they have nothing to hold for, and advance.
    gunners = squad("m", A, MARINE, [HEAVY_BOLTER], row(30, 10, 5))
    battle = make_battle(gunners, squad("t", B, TROOPER, [], row(30, 31, 5)), seed=1)
    battle.phase = "movement"
    _plan(battle, 1, ("movement", "shooting", "assault"), "AB")
    assert move_intent(battle, "m") == "hold"
    _plan(battle, 1, ("movement", "assault"), "AB")
    assert move_intent(battle, "m") == "advance"


def test_the_charge_a_retreat_gives_up_is_this_turn_s_in_the_movement_phase() -> None:
    # The Brutes in their own last turn: in the Movement phase their charge
    # this turn, after the move they are about to make, is the one A's turn
    # pictured for them (a 6" move, then certain); in the Shooting phase (a
    # unit that Runs cannot charge this turn) they have none left.
    battle, _, brutes = _brawl()
    battle.active_player = A
    _plan(battle, 1, ("movement", "shooting", "assault"), "AB")
    pictured = next_charge(battle, brutes)
    assert pictured > 0.0
    battle.active_player, battle.phase = B, "movement"
    assert own_charge_ahead(battle, brutes) == pictured
    battle.phase = "shooting"
    assert own_charge_ahead(battle, brutes) == 0.0
