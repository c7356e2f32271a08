"""The search's look past its horizon at the combats still being fought
(:mod:`hammerlab.editions.waffle.fight_outlook`), worked by hand.

Two Space Marines (WS4 S4 T4 A1 Sv3+) with chainswords stand locked with
four Guardsmen (WS3 S3 T3 A1 Sv5+, chainswords for the test), every model
fighting a round after the charge (no bonus Attacks). A Marine's blow: hits
on 3+ (WS4 against WS3) 2/3, wounds on 3+ (S4 against T3) 2/3, the 5+ save
fails 2/3: 8/27 a blow, 16/27 of a Guardsman a round. A Guardsman's: hits on
4+ 1/2, wounds on 5+ (S3 against T4) 1/3, the 3+ save fails 1/3: 1/18, 2/9 of
a Marine a round.
"""

from __future__ import annotations

import pytest
from conftest import A, B, make_battle
from conftest import squad as make_squad
from fight_kit import CHAINSWORD, GUARD, MARINE, north, south

from hammerlab.editions.base import VICTORY
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.fight_outlook import fight_outlook
from hammerlab.engine.battle import Battle


def _locked() -> Battle:
    marines = make_squad("marines", A, MARINE, [CHAINSWORD], south([10, 11]))
    guards = make_squad("guards", B, GUARD, [CHAINSWORD], north([10, 11, 12, 13]))
    battle = make_battle(marines, guards)
    refresh_locks(battle)
    return battle


def test_a_combat_goes_on_for_the_turns_left() -> None:
    # Three fight sub-phases left; the Guardsmen last 4 / (16/27) = 6.75 rounds,
    # the Marines 2 / (2/9) = 9: all three are fought. The Marines slay
    # 3 * 16/27 = 16/9 Guardsmen, the Guardsmen 3 * 2/9 = 2/3 of a Marine.
    gains = fight_outlook(_locked(), 3)
    assert gains[A] == pytest.approx(16 / 9)
    assert gains[B] == pytest.approx(2 / 3)


def test_a_combat_ends_when_its_first_unit_is_expected_destroyed() -> None:
    # Ten sub-phases left, but the Guardsmen are gone after 6.75 rounds: all
    # four slain, and 6.75 * 2/9 = 1.5 Marines slain meanwhile.
    gains = fight_outlook(_locked(), 10)
    assert gains[A] == pytest.approx(4.0)
    assert gains[B] == pytest.approx(1.5)


def test_under_kill_points_a_model_is_its_share_of_its_unit_s_point() -> None:
    # The same ten sub-phases: the Guard squad destroyed is 1 kill point, the
    # 1.5 Marines of two half a point each: 0.75.
    battle = _locked()
    battle.memory[VICTORY] = "kill_points"
    gains = fight_outlook(battle, 10)
    assert gains[A] == pytest.approx(1.0)
    assert gains[B] == pytest.approx(0.75)


def test_no_turns_left_or_no_combat_brings_nothing() -> None:
    assert fight_outlook(_locked(), 0) == {A: 0.0, B: 0.0}
    marines = make_squad("marines", A, MARINE, [CHAINSWORD], south([10, 11]))
    guards = make_squad("guards", B, GUARD, [CHAINSWORD], north([30, 31]))
    assert fight_outlook(make_battle(marines, guards), 5) == {A: 0.0, B: 0.0}
