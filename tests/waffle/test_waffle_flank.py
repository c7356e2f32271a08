"""Flank: a move round difficult terrain toward the enemy (``editions/waffle/flank.py``,
``movement.intents_for``, ``move_plans.wants_to_flank``).

The table: a ruined wall (difficult) from x 30 to 42, y 22 to 26; a unit below it
and the enemy above it, so that going straight at the enemy crosses the wall.
Expected positions are worked out by hand from the bases (radius 0.5") and the
models' offsets from the unit's centre, as the docstrings say.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from conftest import (
    HEAVY_BOLTER,
    MARINE,
    A,
    B,
    all_dice_used,
    box,
    make_battle,
    movement_phase,
    profile,
    row,
    squad,
    weapon,
)
from fight_kit import CHAINSWORD

from hammerlab.editions.waffle import movement
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import melee_exchange
from hammerlab.editions.waffle.flank import FLANK, _footprint, flank_route
from hammerlab.editions.waffle.move_plans import detour_pays, run_nearer, wants_to_flank
from hammerlab.editions.waffle.movement import INTENTS, goal_of, intents_for, route_of
from hammerlab.editions.waffle.plans import exposure
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.paths import CLEARANCE
from hammerlab.engine.units import Unit

WALL = box("Ruined wall", 30, 22, 42, 26, cover_save=4, difficult=True)
STEALER = profile("Stealer", ws=6, s=4, t=4, i=6, a=3, sv="5+")
"""A Genestealer's Initiative 6, which a charge across the wall takes to 1."""
ORK = profile("Ork", ws=4, s=3, t=4, i=2, a=2, sv="6+")
FRAG = weapon("Frag Grenades", "8", "3", "-", "Assault 1, Blast")
JUMP = profile("Jumper", unit_type="Jump Infantry")
"""12" of Move: far enough to turn the wall's corner in one move."""


def _battle(
    mover: Unit,
    terrain: tuple[TerrainArea, ...] = (WALL,),
    script_a: Sequence[tuple[str, str]] = (),
) -> Battle:
    """``mover`` (player A) against one Ork at (37, 34), straight north of it."""
    orks = squad("o", B, ORK, [CHAINSWORD], [(37, 34)], name="Orks")
    return make_battle(mover, orks, terrain=terrain, script_a=script_a)


def _in_terrain(battle: Battle, unit: Unit) -> bool:
    return any(battle.battlefield.areas_at(m.position) for m in unit.alive_models)


def test_flank_is_offered_only_where_the_straight_advance_crosses_difficult_terrain() -> None:
    # Three models at x 35, 37, 39 (y 16) and the Ork at (37, 34): each one's line
    # north crosses the wall. With the wall in a corner of the table (x 0..6,
    # y 40..44) nothing is crossed: the plain intents, as before. No terrain here
    # gives cover, so "take cover" has nowhere to go and is not offered.
    jumpers = squad("j", A, JUMP, [], row(35, 16, 3), name="Jumpers")
    plain = tuple(i for i in INTENTS if i != "take cover")
    assert intents_for(_battle(jumpers), jumpers) == (*INTENTS, FLANK)  # the wall gives cover
    aside = box("Ruined wall", 0, 40, 6, 44, difficult=True)
    assert intents_for(_battle(jumpers, (aside,)), jumpers) == plain
    assert intents_for(_battle(jumpers, ()), jumpers) == plain


def test_take_cover_is_offered_without_working_out_where_the_cover_takes_the_unit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Whether "take cover" has somewhere to go is whether an area gives cover: the
    # wall (4+) does, a table with the wall off in a corner without cover does not.
    # The spot in it (movement.cover_spot, shapely work) is not asked for the offer.
    def no_spot(*_args: object) -> None:
        raise AssertionError("the spot is not worked out to offer the intent")

    monkeypatch.setattr(movement, "cover_spot", no_spot)
    monkeypatch.setattr(movement, "cover_to_take", no_spot)
    jumpers = squad("j", A, JUMP, [], row(35, 16, 3), name="Jumpers")
    assert "take cover" in intents_for(_battle(jumpers), jumpers)
    aside = box("Ruined wall", 0, 40, 6, 44, difficult=True)
    assert "take cover" not in intents_for(_battle(jumpers, (aside,)), jumpers)


def test_the_way_round_turns_at_the_nearer_corners_of_the_wall_widened_by_the_unit() -> None:
    # The wall widened by a base (0.5") is x 29.5..42.5, y 21.5..26.5; the models
    # stand 2" either side of the centre, so the centre must keep out of x
    # 27.5..44.5, y 21.5..26.5. From (37, 16) the east corners are nearer (7.5
    # against 9.5 across): the way passes (44.5, 21.5) and (44.5, 26.5), each
    # pushed out by CLEARANCE, then goes straight at the Ork.
    jumpers = squad("j", A, JUMP, [], row(35, 16, 3), name="Jumpers")
    battle = _battle(jumpers)
    route = flank_route(battle, jumpers, goal_of(battle, jumpers, "advance"))
    c = CLEARANCE
    want = [(44.5 + c, 21.5 - c), (44.5 + c, 26.5 + c), (37.0, 34.0)]
    assert route is not None
    assert [pytest.approx(point) for point in want] == list(route)


def test_a_footprint_is_the_widened_area_moved_back_by_every_offset_as_one_hull() -> None:
    # The 2" square at (0, 0) widened by 1" (square corners) is x -1..3, y -1..3.
    # Models 1" east and 1" west of the centre and one 2" north: the centre keeps
    # out of that square moved back by each offset, x -2..2 and x 0..4 (y -1..3),
    # and x -1..3, y -3..1, as one hull: a hexagon, its corners (-2, -1), (-2, 3),
    # (4, 3), (4, -1), (3, -3), (-1, -3); no other corner of the three squares.
    area = TerrainArea("Crater", ((0, 0), (2, 0), (2, 2), (0, 2)), difficult=True)
    shape = _footprint(area, ((1.0, 0.0), (-1.0, 0.0), (0.0, 2.0)), 1.0)
    want = [(-2, -1), (-2, 3), (4, 3), (4, -1), (3, -3), (-1, -3)]
    assert sorted(shape.exterior.coords[:-1]) == sorted(want)


def test_a_flank_move_keeps_every_base_out_of_the_wall_and_closes_in() -> None:
    # Jump infantry move 12". The first leg, from the centre (37, 16) to the corner
    # (44.51, 21.49), is sqrt(7.51² + 5.49²) = 9.303"; the remaining 2.697" go north
    # to (44.51, 24.187). No difficult-terrain roll (no die is scripted): no base
    # enters the wall (the westmost model's base reaches x 42.01). Each model moves
    # 12" in all and keeps its place in the unit (coherency).
    jumpers = squad("j", A, JUMP, [], row(35, 16, 3), name="Jumpers")
    script = [("mover", "Jumpers [j]"), ("move", FLANK), ("mover", "end phase")]
    battle = _battle(jumpers, script_a=script)
    movement_phase(battle, A)
    c = CLEARANCE
    first = math.hypot(7.5 + c, 5.5 - c)
    end_y = 21.5 - c + (12.0 - first)
    assert [m.position for m in jumpers.models] == [
        pytest.approx((x + 7.5 + c, end_y)) for x in (35.0, 37.0, 39.0)
    ]
    assert not _in_terrain(battle, jumpers)
    assert min(m.position[0] - m.radius for m in jumpers.models) > 42.0
    for model in jumpers.models:
        legs = [e for e in battle.log.events if isinstance(e, ModelMoved) and e.model == model.id]
        walked = sum(math.hypot(e.end[0] - e.start[0], e.end[1] - e.start[1]) for e in legs)
        assert walked == pytest.approx(12.0)
    assert math.hypot(37 - 44.5 - c, 34 - end_y) < math.hypot(0, 34 - 16)
    assert all_dice_used(battle)


def test_a_six_inch_flank_move_goes_six_inches_toward_the_corner() -> None:
    # Infantry: 6" of the 9.303" first leg, to (37 + 7.51 x 6/9.303, 16 + 5.49 x 6/9.303).
    marines = squad("m", A, profile(), [], row(35, 16, 3), name="Marines")
    script = [("mover", "Marines [m]"), ("move", FLANK), ("mover", "end phase")]
    battle = _battle(marines, script_a=script)
    movement_phase(battle, A)
    c = CLEARANCE
    share = 6.0 / math.hypot(7.5 + c, 5.5 - c)
    centre = (37 + (7.5 + c) * share, 16 + (5.5 - c) * share)
    assert marines.models[1].position == pytest.approx(centre)
    assert not _in_terrain(battle, marines)
    assert all_dice_used(battle)


def test_a_run_round_the_wall_comes_less_near_than_a_run_straight_at_the_enemy() -> None:
    # From the centre (37, 16), 18" south of the Ork at (37, 34): a 6" Run
    # straight at it ends 12" off (6" nearer); round the wall it goes 6" of the
    # 9.303" first leg (the test above), to 15.25" off: 2.75" nearer. A 12"
    # Run turns the corner to (44.51, 24.187) (the Jumpers' move above).
    marines = squad("m", A, profile(), [], row(35, 16, 3), name="Marines")
    battle = _battle(marines)
    c = CLEARANCE
    assert run_nearer(battle, marines, "advance", 6.0) == pytest.approx(6.0)
    first = math.hypot(7.5 + c, 5.5 - c)
    share = 6.0 / first
    left = ((7.5 + c) * share, 18 - (5.5 - c) * share)  # from there to the Ork, x and y
    assert run_nearer(battle, marines, FLANK, 6.0) == pytest.approx(18 - math.hypot(*left))
    assert 18 - math.hypot(*left) == pytest.approx(2.75, abs=0.01)
    turned = (7.5 + c, 34 - (21.5 - c + (12.0 - first)))
    assert run_nearer(battle, marines, FLANK, 12.0) == pytest.approx(18 - math.hypot(*turned))


def _stealers(gear: tuple[Weapon, ...] = ()) -> Unit:
    return squad("g", A, STEALER, [CHAINSWORD, *gear], row(33, 16, 5), name="Stealers")


def _ai_move(battle: Battle, unit: Unit) -> str:
    """A fresh AI's answer to the Movement phase's "where to?" among the offered intents."""
    labels = intents_for(battle, unit)
    decision = Decision(
        kind="move",
        player=unit.player,
        prompt="?",
        choices=tuple(Choice(label, label) for label in labels),
        context=DecisionContext(unit=unit.id, why="moves", phase="movement"),
    )
    return labels[WaffleAI().choose(battle, decision)]


def _against_orks(stealers: Unit, terrain: tuple[TerrainArea, ...] = (WALL,)) -> Battle:
    """Five Stealers (x 33..41, y 16) and five Orks (x 33..41, y 30) across the wall."""
    orks = squad("o", B, ORK, [CHAINSWORD], row(33, 30, 5), name="Orks")
    return make_battle(stealers, orks, terrain=terrain, seed=1)


def test_the_ai_flanks_when_the_wall_would_cost_its_charge_the_first_blows() -> None:
    # Charging across the wall the Stealers strike at Initiative 1, after the
    # Orks' 2; they have no guns: they go round.
    stealers = _stealers()
    battle = _against_orks(stealers)
    assert wants_to_flank(battle, stealers)
    assert _ai_move(battle, stealers) == FLANK


def test_the_ai_advances_through_the_wall_with_assault_grenades() -> None:
    stealers = _stealers((FRAG,))
    battle = _against_orks(stealers)
    assert FLANK in intents_for(battle, stealers)
    assert not wants_to_flank(battle, stealers)
    assert _ai_move(battle, stealers) == "advance"


def test_the_ai_advances_when_no_terrain_is_in_the_way() -> None:
    stealers = _stealers()
    aside = box("Ruined wall", 0, 40, 6, 44, difficult=True)
    battle = _against_orks(stealers, (aside,))
    assert FLANK not in intents_for(battle, stealers)
    assert not wants_to_flank(battle, stealers)
    assert _ai_move(battle, stealers) == "advance"


def test_the_ai_does_not_flank_when_it_would_not_strike_first_even_round_the_wall() -> None:
    # The Orks (Initiative 2) charging the Stealers (6) strike after them across
    # the wall or not: going round gains them nothing. (The heuristic has them
    # retreat from the Stealers' charge instead: move_plans.wants_to_retreat.)
    orks = squad("o", A, ORK, [CHAINSWORD], row(33, 16, 5), name="Orks")
    stealers = squad("g", B, STEALER, [CHAINSWORD], row(33, 30, 5), name="Stealers")
    battle = make_battle(orks, stealers, terrain=[WALL], seed=1)
    assert FLANK in intents_for(battle, orks)
    assert not wants_to_flank(battle, orks)
    assert _ai_move(battle, orks) != FLANK


def test_the_ai_does_not_flank_when_the_detour_under_fire_costs_more_than_the_first_blows() -> None:
    # The Stealers and Orks above, and a Marine with a heavy bolter at (60, 30).
    # The first blows: from the open the Stealers strike first, 5 x 4 Attacks
    # x 2/3 (WS6 v WS4: 3+) x 1/2 (S4 v T4) x 5/6 (6+ save) = 50/9, all five
    # Orks, who strike back with none; across the wall the Orks strike first,
    # 5 x 2 x 1/2 (WS4 v WS6: 4+) x 1/3 (S3 v T4: 5+) x 2/3 (5+ save) = 10/9
    # Stealers, who then slay 5 x (1 - 10/45) = 35/9 Orks. Going round wins
    # 5 - 35/9 + 10/9 = 20/9 models. The way round (the centre keeps out of
    # x 25.5..46.5, y 21.5..26.5: the wall widened by a base and the models'
    # 4" offsets, each corner pushed out by CLEARANCE) passes the west
    # corners to the closest Ork (33, 30): 11.51, 5.49 across, 5.02 north,
    # 7.51, 3.49 across, against 4, 14 straight: 11.50" more, 1.92 of a 6"
    # move. The heavy bolter's 3 shots a turn x 2/3 (BS4) x 2/3 (S5 v T4: 3+),
    # no save against AP4, kill 4/3 Stealers: the detour costs 2.56 > 20/9,
    # so they go through the wall. Without the gun it costs nothing: they flank.
    stealers = _stealers()
    orks = squad("o", B, ORK, [CHAINSWORD], row(33, 30, 5), name="Orks")
    gunner = squad("h", B, MARINE, [HEAVY_BOLTER], [(60, 30)], name="Gunner")
    battle = make_battle(stealers, orks, gunner, terrain=[WALL], seed=1)
    assert melee_exchange(battle, stealers, orks) == pytest.approx((35 / 9, 10 / 9))
    assert melee_exchange(battle, stealers, orks, True) == pytest.approx((5.0, 0.0))
    assert exposure(battle, stealers) == pytest.approx(4 / 3)
    c = CLEARANCE
    route = route_of(battle, stealers, FLANK)
    want = [(25.5 - c, 21.5 - c), (25.5 - c, 26.5 + c), (33.0, 30.0)]
    assert route is not None
    assert [pytest.approx(point) for point in want] == list(route)
    way = math.hypot(11.5 + c, 5.5 - c) + 5 + 2 * c + math.hypot(7.5 + c, 3.5 - c)
    detour = way - math.hypot(4, 14)
    assert detour / 6 * 4 / 3 > 20 / 9
    assert not detour_pays(battle, stealers, orks)
    assert not wants_to_flank(battle, stealers)
    assert _ai_move(battle, stealers) == "advance"
    alone = _against_orks(_stealers())
    assert detour_pays(alone, alone.unit("g"), alone.unit("o"))
