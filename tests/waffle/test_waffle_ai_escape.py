"""A retreat weighs only the charges it can escape, not those it puts off a turn
(``move_plans.retreat_escapes``; docs/ai.md, "Retreat from a charge")."""

from __future__ import annotations

import pytest
from conftest import BRUTE, TROOPER, A, B, make_battle, row, squad
from test_waffle_ai_victory_worth import answer, move_intent

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.move_plans import (
    charge_threat,
    escaping_only,
    retreat_escapes,
    wants_to_retreat,
)
from hammerlab.editions.waffle.shooting import HOLD, RUN
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

TURN = ("movement", "shooting", "assault")


def troopers_and_brutes() -> tuple[Battle, Unit, Unit]:
    """The retreat test's position (test_waffle_ai_victory_worth.py): five Troopers
    14" from five Brutes, whose charge next turn (21/36 after their 6" move) would
    cost them 25/6 models, and whose own charge gains nothing; turn 1, the
    Troopers' player to move."""
    troopers = squad("a", A, TROOPER, [], row(30, 10, 5))
    brutes = squad("b", B, BRUTE, [], row(30, 24, 5))
    battle = make_battle(troopers, brutes, seed=1)
    battle.turn, battle.active_player = 1, A
    return battle, troopers, brutes


def test_an_enemy_that_follows_with_turns_to_spare_is_not_escaped() -> None:
    # Infantry both: the Brutes move 6" before they charge, as far as the Troopers
    # step back. With the game going on (no plan recorded: every turn to come),
    # stepping back only puts their charge off a turn: the Troopers advance.
    battle, troopers, brutes = troopers_and_brutes()
    assert not retreat_escapes(battle, troopers, brutes)
    assert charge_threat(battle, troopers) == pytest.approx(21 / 36 * 25 / 6)
    assert charge_threat(battle, troopers, escapable=True) == 0.0
    assert not wants_to_retreat(battle, troopers)
    assert move_intent(battle, "a", WaffleAI()) == "advance"
    # The same position weighed as before the branch: every charge counts.
    with escaping_only(False):
        assert wants_to_retreat(battle, troopers)
    assert move_intent(battle, "a", WaffleAI(escapes_only=False)) == "retreat"


@pytest.mark.parametrize(("last_turn", "escapes"), [(1, True), (2, False), (3, False)])
def test_the_brutes_last_charge_is_escaped(last_turn: int, escapes: bool) -> None:
    # The Troopers move first in each game turn. In a game of one turn the Brutes'
    # turn 1 is their last Assault phase: a charge put off is a charge escaped, so
    # the Troopers retreat. With a turn 2 (or 3) the Brutes follow and charge then.
    battle, troopers, brutes = troopers_and_brutes()
    record_schedule(battle, Schedule(last_turn, TURN, (A, B)))
    assert retreat_escapes(battle, troopers, brutes) is escapes
    assert wants_to_retreat(battle, troopers) is escapes
    assert move_intent(battle, "a", WaffleAI()) == ("retreat" if escapes else "advance")


def test_an_enemy_with_no_move_before_its_charge_is_escaped() -> None:
    # A plan of Shooting and Assault phases: the Brutes charge from where they
    # stand (plans.move_ahead 0), so 6" stepped back is 6" they cannot close.
    battle, troopers, brutes = troopers_and_brutes()
    record_schedule(battle, Schedule(5, ("shooting", "assault"), (A, B)))
    assert retreat_escapes(battle, troopers, brutes)


def test_asked_again_without_holding_the_heuristic_runs() -> None:
    # The Troopers have nothing to shoot, and a Run toward the Brutes only adds
    # to the reach of the charge that follows them: they hold. Asked again without
    # "hold" (choices.Declining), the heuristic's next preference is the Run; with
    # neither offered, the first choice.
    battle, _, _ = troopers_and_brutes()
    assert answer(battle, WaffleAI(), "action", [RUN, HOLD], unit="a") == HOLD
    assert answer(battle, WaffleAI(), "action", [RUN], unit="a") == RUN
    assert answer(battle, WaffleAI(), "action", ["shoot"], unit="a") == "shoot"
