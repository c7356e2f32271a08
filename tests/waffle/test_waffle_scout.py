"""Scout (7th-edition base rules, the ``Warhammer40K.gst`` text quoted in
``editions/waffle/scout.py``): a redeployment before the first turn.

Bases are 1" (radius 0.5"), so the gap between two models is their centre
distance less 1".
"""

from __future__ import annotations

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    WALKER,
    A,
    B,
    asked,
    make_battle,
    of_kind,
    profile,
    squad,
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.scout import (
    SCOUT,
    scout_distance,
    scout_redeployments,
    scouted,
    shifts,
)


@pytest.mark.parametrize(
    ("unit_type", "reach"),
    [
        ("Infantry", 6.0),
        ("Vehicle (Walker)", 6.0),
        ("Monstrous Creature", 6.0),
        ("Jump Infantry", 12.0),
        ("Bike", 12.0),
        ("Beasts", 12.0),
    ],
)
def test_scout_distance_by_unit_type(unit_type: str, reach: float) -> None:
    # A Walker is a vehicle (7th edition: "Vehicle (Walker)", with Armour Values).
    body = WALKER if unit_type == WALKER.unit_type else profile(unit_type=unit_type)
    unit = squad("s", A, body, [], [(10, 10)], rules=["Scout"])
    assert scout_distance(unit) == reach


def test_a_scout_redeploys_and_may_not_charge_in_the_first_turn() -> None:
    scouts = squad("s", A, MARINE, [], [(10, 10)], rules=["Scout"])
    battle = make_battle(
        scouts,
        squad("g", B, GUARD, [LASGUN], [(60, 40)]),
        script_a=[("scout", "shift (+6.0, +0.0)")],
    )
    battle.turn = 1
    scout_redeployments(battle, A)
    assert scouts.models[0].position == pytest.approx((16.0, 10.0))
    assert [e.shift for e in of_kind(battle, "scout")] == [(6.0, 0.0)]
    assert scouted(battle, scouts)
    assert charge_ban(battle, scouts) == (
        "it made a Scout redeployment (no charge in the first game turn)"
    )
    battle.turn = 2
    assert not scouted(battle, scouts)
    assert charge_ban(battle, scouts) is None


def test_scouts_stay_more_than_12_inches_from_the_enemy() -> None:
    """Enemy at (28, 10): a 6" shift east leaves a gap of 12 - 1 = 11" (refused); a
    3" shift leaves 15 - 1 = 14" (offered)."""
    scouts = squad("s", A, MARINE, [], [(10, 10)], rules=["Scout"])
    battle = make_battle(scouts, squad("g", B, GUARD, [LASGUN], [(28, 10)]))
    offered = shifts(battle, scouts)
    assert (6.0, 0.0) not in offered
    assert (3.0, 0.0) in offered
    assert (-6.0, 0.0) in offered


def test_scouts_redeploy_alternately_the_first_player_first() -> None:
    battle = make_battle(
        squad("a1", A, MARINE, [], [(10, 10)], rules=["Scout"]),
        squad("a2", A, MARINE, [], [(30, 10)], rules=["Scout"]),
        squad("b1", B, MARINE, [], [(50, 40)], rules=["Scout"]),
        script_a=[("scout", "stay"), ("scout", "stay")],
        script_b=[("scout", "stay")],
    )
    battle.turn = 1
    scout_redeployments(battle, A)
    order = [e.decision for e in of_kind(battle, "decision")]
    assert order == ["scout", "scout", "scout"]
    units = [d.context.unit for d in asked(battle, A)] + [d.context.unit for d in asked(battle, B)]
    assert units == ["a1", "a2", "b1"]
    players = [e.player for e in of_kind(battle, "decision")]
    assert players == [A, B, A]
    # Done once: the second player's first Movement phase asks nothing more.
    scout_redeployments(battle, B)
    assert len(of_kind(battle, "decision")) == 3


def test_without_scouts_nothing_is_asked_or_remembered() -> None:
    battle = make_battle(
        squad("a", A, MARINE, [], [(10, 10)]), squad("b", B, MARINE, [], [(50, 40)])
    )
    battle.turn = 1
    scout_redeployments(battle, A)
    assert SCOUT not in battle.memory
    assert of_kind(battle, "decision") == []


def test_the_ai_scouts_toward_the_enemy() -> None:
    """The enemy is straight north: the full 6" shift north brings it nearest."""
    scouts = squad("s", A, MARINE, [], [(36, 10)], rules=["Scout"])
    battle = make_battle(scouts, squad("g", B, GUARD, [LASGUN], [(36, 40)]))
    battle.controllers[A] = WaffleAI()
    battle.turn = 1
    scout_redeployments(battle, A)
    assert scouts.models[0].position == pytest.approx((36.0, 16.0))
