"""The AI's weapon decision (``shooting_plans.weapon_worth``): what it never fires, and what it
still fires though its estimate reads 0. The harmless grenade at a tank and the blast that
risks friends are in ``test_waffle_vehicles.py`` and ``test_waffle_own_blast.py``."""

from __future__ import annotations

import pytest
from conftest import (
    FRAG_MISSILE,
    GUARD,
    MARINE,
    A,
    B,
    make_battle,
    profile,
    row,
    squad,
    weapon,
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import (
    can_hurt,
    expected_casualties,
    expected_per_model,
    marker_covers,
)
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import weapon_choices
from hammerlab.engine.decisions import Decision, DecisionContext
from hammerlab.engine.memo import decision_scope

LASPISTOL = weapon("Laspistol", "12", "3", "-", "Pistol")


def test_an_overwatch_pistol_out_of_its_range_by_the_estimate_still_fires() -> None:
    # Overwatch counts the charger within 1" (seed 004), but the AI values the weapon
    # with regular orders: Marines 16" off are beyond a laspistol's 12", so its
    # estimate is 0. A laspistol (S3) wounds T4 on 5+: it can hurt them, and it is
    # fired rather than stopping, as before the AI learnt to stop.
    guard = squad("g", A, GUARD, [LASPISTOL], row(30.0, 10.0, 3))
    marines = squad("m", B, MARINE, [], row(30.0, 26.0, 3))
    battle = make_battle(guard, marines)
    with decision_scope():
        assert expected_per_model(battle, guard, marines, "Laspistol", FireOrders()) == 0
        assert can_hurt(battle, guard, marines, "Laspistol")
    decision = Decision(
        kind="weapon",
        player=A,
        prompt="Select a weapon",
        choices=weapon_choices(("Laspistol",)),
        context=DecisionContext(unit="g", target="m"),
    )
    assert decision.labels()[WaffleAI().choose(battle, decision)] == "Laspistol"


def test_a_weapon_that_cannot_wound_the_toughness_cannot_hurt() -> None:
    # 6th/7th-edition wound chart: S3 against T6 wounds on 6+; against T7 it is "-"
    # (four or more below).
    for toughness, hurts in ((6, True), (7, False)):
        guard = squad("g", A, GUARD, [LASPISTOL], row(30.0, 10.0, 1))
        brute = squad("t", B, profile("Brute", t=toughness), [], row(30.0, 16.0, 1))
        battle = make_battle(guard, brute)
        assert can_hurt(battle, guard, brute, "Laspistol") is hurts


def test_a_blast_counts_the_models_its_marker_covers_not_three() -> None:
    """A blast marker is counted as hitting the models of the target it covers placed
    over the model the AI aims at, not three whatever the spacing (session 24: frag
    missiles were fired at Terminators 2.57" apart, one under a marker, for half the
    kills of krak)."""
    # 1" bases (radius 0.5"); a 3" marker (radius 1.5") over a model's centre touches
    # the bases whose centres lie within 1.5 + 0.5 = 2" of it. Three Troopers (T4, no
    # save) 1.5" apart at x = 28.5, 30, 31.5: the AI aims at the middle one (3 enemy
    # models within 2.5", the ends 2), and the marker covers all three (1.5" < 2").
    # The same three 3" apart at x = 27, 30, 33: the marker covers the model it is
    # over only (3" > 2"), whichever it is. One frag missile, BS4 (2/3), S4 against T4
    # (1/2), AP6 against no save: packed 2/3 x 3 x 1/2 = 1.0; spread 2/3 x 1 x 1/2 = 1/3.
    bare = profile("Trooper", sv="-")
    got = {}
    for pitch in (1.5, 3.0):
        shooter = squad("a", A, MARINE, [FRAG_MISSILE], [(30.0, 10.0)])
        target = squad("b", B, bare, [], row(30.0 - pitch, 30.0, 3, pitch))
        battle = make_battle(shooter, target)
        with decision_scope():
            firer = shooter.models[0]
            covers = marker_covers(battle, shooter, firer, target, weapon_of(FRAG_MISSILE))
            volley = expected_casualties(battle, shooter, target, FRAG_MISSILE.name, FireOrders())
        got[pitch] = (covers, volley)
    assert got == {1.5: (3, pytest.approx(1.0)), 3.0: (1, pytest.approx(1 / 3))}
