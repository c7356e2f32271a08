"""The Zooming Flyer's move (7th edition, ``zooming.py``): 18" to 36", one pivot of up to
90°, off the table into Ongoing Reserves and back from its own edge.

A Flyer here is a Valkyrie on a 100 mm hull (radius 100 / 25.4 / 2 = 1.9685");
Marines have 1" bases (radius 0.5"). Player A deploys from the south edge (y = 0).
"""

from __future__ import annotations

import pytest
from conftest import MARINE, A, B, make_battle, of_kind, squad, weapon

from hammerlab.editions.waffle.deep_strike import arrive_from_reserves
from hammerlab.editions.waffle.movement_phase import move_one
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.reserves import reserve_state
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.vehicles import vehicle_status
from hammerlab.editions.waffle.zoom_plans import zoom_intent
from hammerlab.editions.waffle.zooming import zoom_bearing, zoom_lengths, zoom_vector
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.units import Model, Unit

HULL = 100 / 25.4 / 2
VALKYRIE = Profile(
    name="Valkyrie",
    characteristics={"BS": "3", "Front": "12", "Side": "12", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Flyer, Hover, Transport)",
)
BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")


def flyer_battle(
    at: tuple[float, float], intents: list[str], enemy_at: tuple[float, float]
) -> tuple[Battle, Unit]:
    """A Valkyrie of player A heading north (90°) at ``at``; a Marine of B at ``enemy_at``;
    A answers its move decisions with ``intents``."""
    sheet = Datasheet("Valkyrie", "test", "waffle", (ModelEntry(VALKYRIE, 1, (), 100.0),))
    model = Model("v.1", VALKYRIE, (), at, 100.0, stats_of(VALKYRIE).w)
    valkyrie = Unit(id="v", name="Valkyrie", player=A, datasheet=sheet, models=[model])
    marine = squad("m", B, MARINE, [BOLTGUN], [enemy_at], name="Marines")
    battle = make_battle(valkyrie, marine, script_a=[("move", i) for i in intents])
    start_phase(battle, "movement", A)
    vehicle_status(battle, model).heading = 90.0
    return battle, valkyrie


@pytest.mark.parametrize(
    ("heading", "wanted", "bearing"),
    [
        (90.0, 0.0, 0.0),
        (90.0, 150.0, 150.0),
        (90.0, 200.0, 180.0),
        (90.0, 270.0, 0.0),
        (90.0, -45.0, 0.0),
    ],
)
def test_a_zooming_flyer_pivots_at_most_90_degrees(
    heading: float, wanted: float, bearing: float
) -> None:
    """Heading north: east (0°) is a 90° pivot; 200° is 110° off, so 180°; due south
    (270°, 180° off) turns as far as 0° (the clockwise way, -180° read as -90°)."""
    assert zoom_bearing(heading, wanted) % 360.0 == pytest.approx(bearing % 360.0)


def test_zoom_lengths_run_from_18_to_36_inches_nearest_the_wanted_first() -> None:
    lengths = zoom_lengths(34.0)
    assert lengths[:5] == [34.0, 33.5, 34.5, 33.0, 35.0]
    assert min(lengths) == 18.0 and max(lengths) == 36.0 and len(lengths) == 37
    assert zoom_lengths(5.0)[0] == 18.0  # never less than 18"


def test_a_flyer_that_holds_flies_the_minimum_18_inches_straight_on() -> None:
    battle, valkyrie = flyer_battle((36.0, 6.0), ["hold"], (60.0, 40.0))
    move_one(battle, valkyrie)
    assert valkyrie.models[0].position == pytest.approx((36.0, 24.0))


def test_a_flyer_advancing_flies_its_distance_but_ends_clear_of_other_bases() -> None:
    """The Marine 34" ahead: a 34" move would end on him; the nearest length that
    ends 1.9685 + 0.5 = 2.4685" or more from his centre is 31.5" (2.5" short; 32"
    and 36" leave 2")."""
    battle, valkyrie = flyer_battle((36.0, 6.0), ["advance"], (36.0, 40.0))
    move_one(battle, valkyrie)
    assert valkyrie.models[0].position == pytest.approx((36.0, 37.5))
    assert valkyrie.status.moved


def test_a_flyer_that_would_leave_the_table_goes_into_ongoing_reserves_and_zooms_back() -> None:
    """At y = 40 heading north, 18" ends at y = 58, off the 48" table: it leaves. In its
    next turn it arrives without a roll at its own (south) edge, its hull just on the
    table at y = 1.9685, facing north, and zooms 18" (holding) to y = 19.9685."""
    battle, valkyrie = flyer_battle((36.0, 40.0), ["hold", "hold"], (60.0, 10.0))
    move_one(battle, valkyrie)
    assert "v" not in battle.units
    state = reserve_state(battle)
    assert state is not None and "v" in state.ongoing
    battle.turn = 2
    arrived = arrive_from_reserves(battle, A)
    assert arrived == frozenset({"v"}) and "v" in battle.units
    assert valkyrie.models[0].position == pytest.approx((36.0, HULL + 18.0))
    assert of_kind(battle, "reserve_roll")[0].arrives


def test_the_ai_keeps_a_flyer_on_the_table_when_a_move_can() -> None:
    """At (36, 40) heading north, holding (18" north) or advancing on the Marine 7"
    ahead at (36, 47) (at least 18" due north) ends past the 48" edge; so does taking
    cover (no terrain: no goal, 18" straight on); retreating to its south edge pivots
    90° (to east, 0°: the edge is 180° off, clamped the clockwise way) and flies its
    40" to the edge cut to 36": x = 72 is on the table's edge, so it stays."""
    battle, valkyrie = flyer_battle((36.0, 40.0), [], (36.0, 47.0))
    assert zoom_vector(battle, valkyrie, "hold") is None
    assert zoom_vector(battle, valkyrie, "advance") is None
    assert zoom_vector(battle, valkyrie, "take cover") is None
    assert zoom_vector(battle, valkyrie, "retreat") == pytest.approx((36.0, 0.0))
    assert zoom_intent(battle, valkyrie, "hold") == "retreat"
    assert zoom_intent(battle, valkyrie, "retreat") == "retreat"
