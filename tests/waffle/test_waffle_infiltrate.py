"""Infiltrate (7th-edition base rules, the ``Warhammer40K.gst`` text quoted in
``editions/waffle/infiltrate.py``): set up before the first turn, more than
18" from the enemy, or more than 12" out of its sight.

Bases are 1" (radius 0.5"): the gap between two models is their centre
distance less 1".
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    box,
    make_battle,
    of_kind,
    one_unit_against_boyz,
    squad,
)

from hammerlab.analysis.battles import prepare
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.infiltrate import (
    infiltrated,
    infiltration,
    may_set_up,
    set_infiltrators,
)
from hammerlab.engine.battle import Battle
from hammerlab.errors import InputError
from hammerlab.io.scenario import parse_scenario


def _battle(**kwargs: Any) -> Battle:
    return make_battle(
        squad("a", A, MARINE, [], [(10, 10)], rules=["Infiltrate"]),
        squad("b", B, GUARD, [LASGUN], [(36, 40)]),
        **kwargs,
    )


@pytest.mark.parametrize(
    ("to", "allowed"),
    [
        ((36, 20), True),  # gap 19": more than 18", in plain sight
        ((36, 24), False),  # gap 15": in sight
        ((36, 28), False),  # gap 11": too close even out of sight
    ],
)
def test_infiltrators_stay_18_inches_away_in_the_open(to: tuple[int, int], allowed: bool) -> None:
    battle = _battle()
    unit = battle.unit("a")
    assert may_set_up(battle, unit, (to[0] - 10, to[1] - 10)) is allowed


def test_infiltrators_may_come_within_12_inches_out_of_sight() -> None:
    """Behind a wall that blocks sight, 15" away is allowed; 11" is not."""
    wall = box("Wall", 30, 30, 42, 31, blocks_sight=True)
    battle = _battle(terrain=[wall])
    unit = battle.unit("a")
    assert may_set_up(battle, unit, (26, 14))
    assert not may_set_up(battle, unit, (26, 18))


@pytest.mark.parametrize(
    ("far_sees", "far_gap", "allowed"),
    [
        (True, 33.0, False),  # out of the near one's sight, in plain sight of the far one
        (False, 33.0, True),  # out of both sights, more than 12" from both
        (True, 19.0, False),  # seen, and 19" is not "more than 18" from any enemy"
    ],
)
def test_infiltrate_judges_its_two_conditions_against_every_enemy_at_once(
    far_sees: bool, far_gap: float, allowed: bool
) -> None:
    """The gst: "more than 12" from any enemy unit, as long as no deployed enemy unit
    can draw line of sight to them", or "more than 18" from any enemy unit, even in
    plain sight". The infiltrator set up at (36, 12): the near enemy at (36, 30), a
    gap of 17", behind a wall; the far one to the east, on the same line (in sight)
    or behind a second wall. A referee review (session 22) found the spot seen by a
    far enemy 33" off and 17" from the near one taken: each enemy was judged alone,
    more than 18" away or more than 12" away and out of sight."""
    walls = [box("Wall", 26, 20, 46, 23, blocks_sight=True)]
    if not far_sees:
        walls.append(box("East wall", 50, 8, 51, 16, blocks_sight=True))
    far_x = 36 + far_gap + 1  # centre to centre: the gap plus the two base radii
    battle = make_battle(
        squad("a", A, MARINE, [], [(10, 10)], rules=["Infiltrate"]),
        squad("near", B, GUARD, [LASGUN], [(36, 30)]),
        squad("far", B, GUARD, [LASGUN], [(far_x, 12)]),
        terrain=walls,
    )
    assert may_set_up(battle, battle.unit("a"), (26, 2)) is allowed


def test_an_infiltrator_sets_up_where_its_player_says_and_may_not_charge_in_turn_1() -> None:
    battle = _battle(script_a=[("infiltrate", "(36.0, 18.0)")])
    unit = battle.unit("a")
    set_infiltrators(battle, ["a"])
    battle.turn = 1
    infiltration(battle, A)
    assert unit.models[0].position == pytest.approx((36.0, 18.0))
    assert [e.centre for e in of_kind(battle, "infiltrate")] == [(36.0, 18.0)]
    assert charge_ban(battle, unit) == "it deployed by Infiltrate (no charge in its first turn)"
    battle.turn = 2
    assert not infiltrated(battle, unit)


def test_the_ai_infiltrates_as_near_the_enemy_as_allowed() -> None:
    """The grid points more than 19" (centre to centre) from (36, 40) nearest it are
    (24, 24) and (48, 24), 20" away; the first in the grid's order is taken."""
    battle = _battle()
    battle.controllers[A] = WaffleAI()
    set_infiltrators(battle, ["a"])
    battle.turn = 1
    infiltration(battle, A)
    assert battle.unit("a").models[0].position == pytest.approx((24.0, 24.0))


INFILTRATOR = 'position = [36, 6]\ninfiltrate = true\nunit = "{}"'
"""Unit "a" of :func:`one_unit_against_boyz`, deployed by Infiltrate: the unit's name to fill in."""


def test_a_unit_without_infiltrate_may_not_infiltrate() -> None:
    text = one_unit_against_boyz(INFILTRATOR.format("Tactical Squad"))
    with pytest.raises(InputError) as error:
        prepare(parse_scenario(text, "s.toml"), "s.toml")
    assert str(error.value).startswith(
        "s.toml: units[1].infiltrate: a: Tactical Squad has no Infiltrate special rule"
    )


def test_genestealers_may_infiltrate() -> None:
    ready = prepare(
        parse_scenario(one_unit_against_boyz(INFILTRATOR.format("Genestealers")), "s.toml"),
        "s.toml",
    )
    assert ready.battle.memory["infiltrate"]["waiting"] == ["a"]
