"""The AI's weapon decision (``ai.weapon_worth``): what it never fires, and what it still
fires though its estimate reads 0. The harmless grenade at a tank and the blast that
risks friends are in ``test_waffle_vehicles.py`` and ``test_waffle_own_blast.py``."""

from __future__ import annotations

from conftest import GUARD, MARINE, A, B, make_battle, profile, row, squad, weapon

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import can_hurt, expected_per_model
from hammerlab.editions.waffle.orders import FireOrders
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
