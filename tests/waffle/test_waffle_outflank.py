"""Outflank (7th edition, ``Warhammer40K.gst``): a unit in Reserve comes on from a side edge.

Expectations are worked out by hand from the rule text quoted in
``editions/waffle/outflank.py``: "on a 1-2, the unit comes in from the table
edge to the left of their controlling player's own table edge; on a 3-4, they
come on from the right; on a 5-6, the player can choose left or right". The
test table is 72" x 48"; player A deploys from the south edge (y = 0) and looks
north, so its left is the west edge (x = 0); player B, on the north edge,
looks south, so its left is the east edge. Models have 25.4 mm (1") bases.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    STORM_BOLTER,
    A,
    B,
    all_dice_used,
    asked,
    make_battle,
    of_kind,
    one_unit_against_boyz,
    squad,
)

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.deep_strike import arrive_from_reserves
from hammerlab.editions.waffle.outflank import edge_of, entry_shifts, outflank_edge
from hammerlab.editions.waffle.reserves import set_reserves, waiting_unit, waiting_units
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Unit
from hammerlab.errors import InputError
from hammerlab.io.scenario import parse_scenario

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"


def column(x: float, y: float, count: int) -> list[Vec]:
    """``count`` points 2" apart along +y from (x, y)."""
    return [(x, y + 2.0 * k) for k in range(count)]


def _outflankers(points: list[Vec]) -> Unit:
    return squad("flank", A, MARINE, [STORM_BOLTER], points, rules=["Outflank"])


def _in_reserve(battle: Battle, turn: int) -> None:
    """A's unit ``flank`` in Reserve to Outflank; game turn ``turn``, A's turn."""
    battle.active_player = A
    set_reserves(battle, {"flank": "outflank"}, 5)
    battle.turn = turn


def _centre(battle: Battle, unit_id: str) -> Vec:
    models = battle.unit(unit_id).alive_models
    return (
        sum(m.position[0] for m in models) / len(models),
        sum(m.position[1] for m in models) / len(models),
    )


@pytest.mark.parametrize(
    ("player", "roll", "edge"),
    [
        (A, 1, "west"),
        (A, 2, "west"),
        (A, 3, "east"),
        (A, 4, "east"),
        (B, 1, "east"),
        (B, 4, "west"),
    ],
)
def test_the_d6_sends_the_unit_left_on_1_2_and_right_on_3_4(
    player: str, roll: int, edge: str
) -> None:
    unit = squad("flank", player, MARINE, [STORM_BOLTER], column(36, 24, 1), rules=["Outflank"])
    battle = make_battle(unit, dice=[roll])
    assert outflank_edge(battle, unit) == edge
    (event,) = of_kind(battle, "outflank_roll")
    assert (event.roll, event.edge, event.chose) == (roll, edge, False)
    assert asked(battle, player, "outflank_edge") == []
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("roll", "answer", "edge"), [(5, "right (east)", "east"), (6, "left (west)", "west")]
)
def test_on_5_or_6_the_player_chooses_the_side(roll: int, answer: str, edge: str) -> None:
    unit = _outflankers(column(36, 24, 1))
    battle = make_battle(unit, dice=[roll], script_a=[("outflank_edge", answer)])
    assert outflank_edge(battle, unit) == edge
    assert of_kind(battle, "outflank_roll")[0].chose
    assert edge_of(battle, B, "left") == "east"  # B looks south from the north edge


def test_a_shallow_unit_comes_on_a_full_move_from_the_edge() -> None:
    # A column of 3 along y (offsets -2, 0, +2 across the west edge's direction):
    # each base's far side may be 6" in, so the centres stand at x = 6 - 0.5 = 5.5;
    # the centre is offered every 6" along the 48" edge: y = 6, 12, ..., 42.
    unit = _outflankers(column(36, 22, 3))
    battle = make_battle(unit, squad("guard", B, GUARD, [LASGUN], column(36, 44, 1)))
    _in_reserve(battle, 2)
    shifts = entry_shifts(battle, waiting_unit(battle, "flank"), "west")
    centres = [(round(36 + dx, 3), round(24 + dy, 3)) for dx, dy in shifts]
    assert centres == [(5.5, 6.0 * k) for k in range(1, 8)]


def test_a_unit_deeper_than_its_move_touches_the_edge() -> None:
    # A row of 5 along x, 2" apart, is 9" deep from the east edge: its nearest base
    # touches the edge (centre x = 72 - 0.5), its farthest at 72 - 0.5 - 8 = 63.5.
    unit = _outflankers([(10.0 + 2.0 * k, 20.0) for k in range(5)])
    battle = make_battle(unit)
    _in_reserve(battle, 2)
    shifts = entry_shifts(battle, waiting_unit(battle, "flank"), "east")
    xs = {round(m.position[0] + shifts[0][0], 3) for m in unit.alive_models}
    assert xs == {71.5, 69.5, 67.5, 65.5, 63.5}


def test_no_place_within_1_inch_of_an_enemy_is_offered() -> None:
    # Enemy at (7, 24): to the middle model at (5.5, 24) the gap is 1.5 - 1 = 0.5":
    # y = 24 is not offered. At y = 18 or 30 the nearest model is 4" away in y.
    unit = _outflankers(column(36, 22, 3))
    battle = make_battle(unit, squad("guard", B, GUARD, [LASGUN], [(7.0, 24.0)]))
    _in_reserve(battle, 2)
    shifts = entry_shifts(battle, waiting_unit(battle, "flank"), "west")
    assert [round(24 + dy, 3) for _, dy in shifts] == [6.0, 12.0, 18.0, 30.0, 36.0, 42.0]


def test_an_outflanking_unit_arrives_moved_and_may_still_charge() -> None:
    # Turn 2: Reserve Roll 3 (arrives), Outflank 1 (left of the south edge: west);
    # A picks the place centred at (5.5, 30).
    unit = _outflankers(column(36, 22, 3))
    battle = make_battle(
        unit,
        squad("guard", B, GUARD, [LASGUN], column(30, 40, 2)),
        dice=[3, 1],
        script_a=[("outflank", "(5.5, 30.0)")],
    )
    _in_reserve(battle, 2)
    assert arrive_from_reserves(battle, A) == frozenset({"flank"})
    assert waiting_units(battle, A) == []
    assert [m.position for m in battle.unit("flank").alive_models] == [
        (5.5, 28.0),
        (5.5, 30.0),
        (5.5, 32.0),
    ]
    assert battle.unit("flank").status.moved
    assert charge_ban(battle, battle.unit("flank")) is None
    (entered,) = of_kind(battle, "outflank")
    assert (entered.edge, entered.centre) == ("west", (5.5, 30.0))
    assert all_dice_used(battle)


def test_with_no_place_on_the_edge_the_unit_stays_in_reserve() -> None:
    # Enemy bases 1" apart along the whole west edge at x = 4: a model at x = 5.5
    # would be 1.5 - 1 = 0.5" from one, so no place fits and the unit waits.
    enemies = squad("wall", B, GUARD, [LASGUN], [(4.0, 0.5 + k) for k in range(48)])
    battle = make_battle(_outflankers(column(36, 22, 3)), enemies, dice=[3, 2])
    _in_reserve(battle, 2)
    assert arrive_from_reserves(battle, A) == frozenset()
    assert [u.id for u in waiting_units(battle, A)] == ["flank"]
    assert of_kind(battle, "outflank")[0].centre is None
    assert all_dice_used(battle)


def test_the_ai_outflanks_on_the_side_of_the_enemy_and_comes_on_nearest_it() -> None:
    # The enemy stands near the east edge at (60, 42); on a 5 the AI picks the right
    # (east), then the place whose models come nearest it: centred at y = 42.
    unit = _outflankers(column(36, 22, 3))
    battle = make_battle(
        unit,
        squad("guard", B, GUARD, [LASGUN], [(60.0, 42.0)]),
        dice=[3, 5],
        fallback=WaffleAI(),
    )
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    assert of_kind(battle, "outflank_roll")[0].edge == "east"
    assert _centre(battle, "flank") == (66.5, 42.0)


def test_a_unit_without_outflank_may_not_outflank() -> None:
    text = one_unit_against_boyz('unit = "Tactical Squad"\nreserve = "outflank"')
    with pytest.raises(InputError) as error:
        prepare(parse_scenario(text, "s.toml"), "s.toml")
    assert str(error.value) == (
        "s.toml: units[1].reserve: a: Tactical Squad has no Outflank special rule, "
        "so it cannot use it to deploy"
    )


def test_imported_warbuggies_outflank_in_a_whole_battle() -> None:
    """Orks - Codex.cat's Warbuggies have Outflank: from the file, in Reserve, they
    arrive by turn 4 (without a roll then) from the west or east edge. (The Tyranids'
    Eater-Swarm, this test's unit until the twenty-first session, is a formation of
    units, which the importer now refuses to field as one unit.)"""
    source = DATA / "Orks - Codex.cat"
    text = one_unit_against_boyz(f'unit = "Warbuggies"\nsource = "{source}"\nreserve = "outflank"')
    text += '[plan]\nturns = 4\nphases = ["movement", "shooting", "assault"]\n'
    ready = prepare(parse_scenario(text, "s.toml"), "s.toml")
    play(ready.battle, ready.ruleset, ready.plan)
    (rolled,) = of_kind(ready.battle, "outflank_roll")
    expected = {1: "west", 2: "west", 3: "east", 4: "east"}.get(rolled.roll, rolled.edge)
    assert rolled.edge == expected and expected in ("west", "east")
    (entered,) = of_kind(ready.battle, "outflank")
    assert entered.edge == rolled.edge and entered.centre is not None
