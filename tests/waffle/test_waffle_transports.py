"""Transports (issue 12 §2): the 7th-edition rules as the Waffle Edition plays them.

Rule texts are quoted in ``editions/waffle/transports.py``; each expectation
is worked by hand from them in the comments (capacity counts, distances,
the dice of an explosion).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import (
    GUARD,
    HEAVY_BOLTER,
    LASCANNON,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    make_battle,
    movement_phase,
    of_kind,
    squad,
)

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import st, state_of
from hammerlab.editions.waffle.transport_plans import wants_to_disembark
from hammerlab.editions.waffle.transports import (
    capacity_of,
    embark,
    embark_problem,
    may_disembark,
    places_needed,
    start_embarked,
)
from hammerlab.editions.waffle.vehicles import vehicle_status
from hammerlab.engine.battle import Battle
from hammerlab.engine.controllers import ScriptedController
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import IllegalActionError, InputError
from hammerlab.io.scenario import parse_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

CHIMERA = Profile(
    name="Chimera",
    characteristics={"BS": "3", "Front": "12", "Side": "10", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Transport)",
)
"""The catalogue's Chimera: BS 3, 12/10/10, HP 3, "Tank, Transport"."""
RHINO_NOT_TRANSPORT = Profile(
    name="Tank",
    characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank)",
)


def transport(
    uid: str, player: str, at: tuple[float, float], prof: Profile = CHIMERA, capacity: int = 12
) -> Unit:
    """One vehicle on a 100 mm hull with ``Transport Capacity (capacity)``."""
    sheet = Datasheet(
        name=prof.name,
        army="test",
        edition="waffle",
        entries=(ModelEntry(prof, 1, (), 100.0),),
        rules=(f"Transport Capacity ({capacity})",),
    )
    hull = Model(
        id=f"{uid}.1",
        profile=prof,
        weapons=(),
        position=at,
        base_mm=100.0,
        wounds_left=stats_of(prof).w,
    )
    return Unit(id=uid, name=prof.name, player=player, datasheet=sheet, models=[hull])


def guards(uid: str, count: int, at: tuple[float, float], rules: tuple[str, ...] = ()) -> Unit:
    return squad(
        uid, B, GUARD, [LASGUN], [(at[0] + 1.1 * k, at[1]) for k in range(count)], rules=rules
    )


# --- Transport Capacity -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "count", "places"),
    [
        ((), 10, 10),  # one place a model
        (("Bulky",), 5, 10),  # "count as two models": 5 x 2
        (("Very Bulky",), 4, 12),  # "count as three models": 4 x 3
        (("Extremely Bulky",), 2, 10),  # "count as five models": 2 x 5
    ],
)
def test_bulky_models_take_two_three_or_five_places(
    rules: tuple[str, ...], count: int, places: int
) -> None:
    assert places_needed(guards("g", count, (10.0, 10.0), rules)) == places


def test_a_transport_carries_no_more_than_its_capacity() -> None:
    chimera = transport("c", B, (30.0, 30.0))
    ten = guards("g", 10, (10.0, 10.0))
    ogryns = guards("o", 1, (10.0, 20.0), ("Very Bulky",))
    more = guards("h", 1, (10.0, 25.0), ("Very Bulky",))
    battle = make_battle(chimera, ten, ogryns, more)
    assert capacity_of(chimera) == 12
    embark(battle, ten, chimera)  # 10 of 12
    assert embark_problem(battle, more, chimera) is not None  # 10 + 3 = 13 > 12
    with pytest.raises(IllegalActionError, match=r"needs 3 places.*has 2 left"):
        embark(battle, ogryns, chimera)
    assert "g" not in battle.units and state_of(battle).embarked["g"].transport == "c"


def test_only_a_transport_vehicle_of_the_same_side_carries_anyone() -> None:
    tank = transport("t", B, (30.0, 30.0), prof=RHINO_NOT_TRANSPORT)
    foe = transport("f", A, (50.0, 30.0))
    squad_b = guards("g", 5, (10.0, 10.0))
    battle = make_battle(tank, foe, squad_b)
    assert capacity_of(tank) == 0
    assert "not a transport" in (embark_problem(battle, squad_b, tank) or "")
    assert "other player" in (embark_problem(battle, squad_b, foe) or "")


# --- scenarios ----------------------------------------------------------------------

SCENARIO = """
name = "t"
seed = 1
[[players]]
name = "Cadians"
edge = "south"
[[players]]
name = "Ultramarines"
edge = "north"
[[units]]
id = "chimera"
player = "Cadians"
unit = "Chimera"
position = [36, 8]
[[units]]
id = "guard"
player = "Cadians"
unit = "Infantry Squad"
position = [36, 8]
embarked_in = "{transport}"
[[units]]
id = "ogryns"
player = "Cadians"
unit = "Ogryns"
position = [10, 8]
{ogryns}
[[units]]
id = "tactical"
player = "Ultramarines"
unit = "Tactical Squad"
position = [34, 38]
"""


def _prepare(transport_id: str = "chimera", ogryns: str = "") -> None:
    text = SCENARIO.format(transport=transport_id, ogryns=ogryns)
    prepare(parse_scenario(text, "t.toml"), "t.toml")


def test_a_scenario_starts_a_unit_aboard_its_transport() -> None:
    text = SCENARIO.format(transport="chimera", ogryns="")
    prepared = prepare(parse_scenario(text, "t.toml"), "t.toml")
    assert "guard" not in prepared.battle.units
    (event,) = of_kind(prepared.battle, "embarked")
    assert (event.places, event.capacity) == (10, 12)


def test_the_summary_lists_a_unit_still_aboard() -> None:
    text = SCENARIO.format(transport="chimera", ogryns="")
    prepared = prepare(parse_scenario(text, "t.toml"), "t.toml")
    lines = prepared.ruleset.summary(prepared.battle, prepared.plan)
    # The transport named by its label, as every line of the log names a unit (it
    # was named by its id, ``aboard chimera``, until session 22).
    assert "Cadians: Infantry Squad [guard]: 10/10 models, aboard Chimera [chimera]" in lines


def test_an_unknown_transport_is_one_error_line() -> None:
    with pytest.raises(InputError) as error:
        _prepare("rhino")
    assert str(error.value) == "t.toml: units[1].embarked_in: unknown unit id 'rhino'"


def test_an_over_capacity_unit_is_one_error_line() -> None:
    # Infantry Squad: 10 places; the Ogryns (Very Bulky): 3 models x 3 = 9; 19 > 12.
    with pytest.raises(InputError) as error:
        _prepare(ogryns='embarked_in = "chimera"')
    message = str(error.value)
    assert message.startswith("t.toml: units[2].embarked_in: Ogryns [ogryns] cannot embark")
    assert "needs 9 places" in message and "has 2 left" in message and "\n" not in message


def test_a_non_transport_is_refused() -> None:
    with pytest.raises(InputError, match=r"units\[1\]\.embarked_in: .*not a transport"):
        _prepare("ogryns")


# --- disembarking and embarking -----------------------------------------------------


def _aboard(*script: tuple[str, str]) -> tuple[Battle, Unit, Unit, Unit]:
    chimera = transport("c", B, (36.0, 30.0))
    passengers = guards("g", 5, (5.0, 5.0))
    marines = squad("m", A, MARINE, [LASGUN], [(36.0, 38.0)], name="Marines")
    battle = make_battle(chimera, passengers, marines, script_b=list(script))
    start_embarked(battle, "g", "c")
    return battle, chimera, passengers, marines


def test_disembarking_places_every_model_within_2_inches_of_the_hull_not_near_enemies() -> None:
    battle, chimera, passengers, marines = _aboard(
        ("disembark", "disembark"), ("mover", "end phase")
    )
    battle.active_player = B
    movement_phase(battle, B)
    assert battle.units["g"] is passengers
    hull = chimera.models[0]
    for model in passengers.models:
        assert base_distance(model, hull) <= 2.0 + 1e-6  # "within 2" of an Access Point"
        assert base_distance(model, marines.models[0]) >= 1.0 - 1e-6  # not within 1"
    (event,) = of_kind(battle, "disembarked")
    assert (event.how, event.placed, event.lost) == ("disembark", 5, 0)
    assert passengers.status.moved  # disembarking counts as moving (Heavy weapons snap)


def test_staying_aboard_keeps_the_unit_off_the_table() -> None:
    battle, _, _, marines = _aboard(("disembark", "stay aboard"), ("mover", "end phase"))
    movement_phase(battle, B)
    assert "g" not in battle.units
    assert [u.id for u in battle.enemies_of(marines)] == ["c"]  # it cannot be targeted


def test_a_unit_within_2_inches_after_its_move_may_embark_but_not_disembark_that_phase() -> None:
    # A Guardsman 3" from the hull's centre: 3 - 1.97 (100 mm hull) - 0.5 (25 mm base)
    # = 0.53" from its edge, within 2". It holds, then embarks.
    chimera = transport("c", B, (36.0, 30.0))
    near = squad("g", B, GUARD, [LASGUN], [(33.0, 30.0)])
    battle = make_battle(
        chimera,
        near,
        squad("m", A, MARINE, [LASGUN], [(36.0, 44.0)]),
        script_b=[
            ("mover", "G [g]"),
            ("move", "hold"),
            ("embark", "embark (c)"),
            ("mover", "end phase"),
        ],
    )
    movement_phase(battle, B)
    assert "g" not in battle.units
    assert st(battle, near).embarked_turn == battle.turn
    assert not may_disembark(battle, near, chimera)  # "not in the same phase"


HULL_RADIUS = 100 / 25.4 / 2
"""The test Chimera's 100 mm hull: 1.97" from its centre to its edge."""
GUARD_RADIUS = 25.4 / 25.4 / 2
"""A test Guardsman's 25.4 mm base: 0.5" from its centre to its edge."""


def _out_south(*script: tuple[str, str]) -> tuple[Battle, Unit, Unit, Unit]:
    """Ten Guardsmen, a full Infantry Squad, aboard a Chimera (player B, whose table
    edge is north) at (36, 30); a Marine (player A) 20" south of it, at (36, 10): the
    nearest enemy."""
    chimera = transport("c", B, (36.0, 30.0))
    passengers = guards("g", 10, (5.0, 5.0))
    marine = squad("m", A, MARINE, [LASGUN], [(36.0, 10.0)], name="Marines")
    battle = make_battle(chimera, passengers, marine, script_b=list(script))
    start_embarked(battle, "g", "c")
    return battle, chimera, passengers, marine


def test_a_squad_disembarks_in_front_of_the_hull_and_advances_in_the_same_turn() -> None:
    # 7th edition: units that disembark "can then act normally (move, shoot, run,
    # charge)". Set down in front of the hull (the side facing the Marine, south), each
    # base wholly south of the line touching the hull's front: centre y at most
    # 30 - 1.97 - 0.5. The squad then advances 6" (Infantry): the Marine is 14" or more
    # away and nothing stands south of the squad, so every model moves the full 6",
    # the whole unit by one vector toward the Marine, each coming nearer to him.
    battle, _, passengers, marine = _out_south(
        ("disembark", "disembark"),
        ("mover", "G [g]"),
        ("move", "advance"),
        ("mover", "end phase"),
    )
    movement_phase(battle, B)
    moves = {e.model: e for e in of_kind(battle, "move")}
    assert sorted(moves) == sorted(f"g.{k}" for k in range(1, 11))
    target = marine.models[0].position
    for model in passengers.models:
        start, end = moves[model.id].start, moves[model.id].end
        assert start[1] <= 30.0 - HULL_RADIUS - GUARD_RADIUS + 1e-6
        assert math.dist(start, end) == pytest.approx(6.0)
        assert math.dist(end, target) < math.dist(start, target)
    assert not [e for e in of_kind(battle, "message") if ' 0":' in e.text]


def test_the_transport_moves_away_from_its_squad_in_the_turn_it_disembarks() -> None:
    # The squad stands south of the hull; the Chimera retreats toward its own (north)
    # table edge, away from them: nothing is in its way, so it moves its full 6".
    battle, chimera, _, _ = _out_south(
        ("disembark", "disembark"),
        ("mover", "Chimera [c]"),
        ("move", "retreat"),
        ("mover", "end phase"),
    )
    movement_phase(battle, B)
    assert chimera.models[0].position == pytest.approx((36.0, 36.0))


def test_the_transport_moves_in_a_later_turn() -> None:
    # Turn 1: the squad disembarks and advances 6" south. Turn 2: the Chimera
    # advances after it toward the Marine, straight south: its squad, now 6" ahead,
    # is no longer against its hull, so it moves (at least a twentieth of its 6",
    # the step a move is shortened by).
    battle, chimera, _, _ = _out_south(
        ("disembark", "disembark"),
        ("mover", "G [g]"),
        ("move", "advance"),
        ("mover", "end phase"),
        ("mover", "Chimera [c]"),
        ("move", "advance"),
        ("mover", "end phase"),
    )
    movement_phase(battle, B)
    battle.turn += 1
    movement_phase(battle, B)
    x, y = chimera.models[0].position
    assert x == pytest.approx(36.0)
    assert 30.0 - 6.0 - 1e-6 <= y <= 30.0 - 6.0 / 20 + 1e-6


def test_a_transport_blocked_by_its_own_squad_says_so() -> None:
    # The first Guardsman is set down on the hull's front, straight toward the Marine:
    # ring 2.5" from the centre (the first ring, in 0.5" steps, clear of the hull's
    # 1.97" + 0.5"), at (36, 27.5). The Chimera's advance south would run into him at
    # once: it does not move, and the log says why.
    battle, chimera, passengers, _ = _out_south(
        ("disembark", "disembark"),
        ("mover", "Chimera [c]"),
        ("move", "advance"),
        ("mover", "end phase"),
    )
    movement_phase(battle, B)
    assert passengers.models[0].position == pytest.approx((36.0, 27.5))
    assert chimera.models[0].position == (36.0, 30.0)
    texts = [e.text for e in of_kind(battle, "message")]
    assert 'Chimera [c] moves (advance) 0": g.1 is in the way of c.1' in texts


def test_models_set_down_by_a_transport_never_overlap_each_other() -> None:
    # A 60 mm base (radius 1.18") first, then a 25.4 mm one (0.5"): their centres must
    # be 1.68" apart or more, not twice the smaller radius.
    battle, chimera, passengers, _ = _out_south(("disembark", "disembark"), ("mover", "end phase"))
    entry = state_of(battle).embarked["g"]
    entry.unit.models[0] = replace(entry.unit.models[0], base_mm=60.0)
    movement_phase(battle, B)
    big, *small = passengers.models
    for model in small:
        assert math.dist(big.position, model.position) >= 60 / 25.4 / 2 + GUARD_RADIUS - 1e-6
    assert all(base_distance(m, chimera.models[0]) <= 2.0 + 1e-6 for m in passengers.models)


def test_the_transport_example_lets_the_squad_advance_the_turn_it_disembarks() -> None:
    # The user review's game: examples/vehicles_transport.toml, seed 3, the Cadians
    # disembarking and advancing the squad; the AI plays the rest. Set down within 2"
    # of the Chimera at (36, 11), on its side facing the Tactical Squad (north, at y 38),
    # the squad advances: nothing stands within 6" north of it (the ruin starts at
    # y 20 and is not difficult terrain), so every model moves the full 6", northward.
    path = EXAMPLES / "vehicles_transport.toml"
    script = [("disembark", "disembark"), ("mover", "Infantry Squad [guard]"), ("move", "advance")]
    prepared = prepare(
        parse_scenario(path.read_text(), str(path)),
        str(path),
        seed=3,
        controllers={"Cadians": ScriptedController(script, fallback=WaffleAI())},
    )
    battle = prepared.battle
    play(battle, prepared.ruleset, prepared.plan)
    events = battle.log.events
    first_move_over = next(
        i
        for i, e in enumerate(events)
        if e.kind == "phase" and e.phase == "movement" and not e.begins
    )
    moved = [e for e in events[:first_move_over] if e.kind == "move"]
    assert [e.model for e in moved] == [f"guard.{k}" for k in range(1, 11)]
    for e in moved:
        assert e.reason == "moves (advance)"
        assert math.dist(e.start, e.end) == pytest.approx(6.0)
        assert e.end[1] > e.start[1]


# --- destroyed transports -------------------------------------------------------------


def _shot_at(dice: list[int], count: int) -> tuple[Battle, Unit, Unit, Unit]:
    """A Marine lascannon (player A) 10" south of a Chimera (player B) facing north, so
    it strikes the Rear armour (AV 10); ``count`` Guardsmen aboard."""
    shooter = squad("a", A, MARINE, [LASCANNON], [(30.0, 20.0)], name="Marines")
    chimera = transport("c", B, (30.0, 30.0))
    passengers = guards("g", count, (5.0, 5.0))
    battle = make_battle(shooter, chimera, passengers, dice=dice)
    start_embarked(battle, "g", "c")
    start_phase(battle, "shooting", A)
    vehicle_status(battle, chimera.models[0]).heading = 90.0
    return battle, shooter, chimera, passengers


def test_a_wrecked_transports_passengers_disembark_without_a_pinning_test() -> None:
    # To hit 3 (BS 4: 3+). Penetration 1 + 9 = 10 = AV 10: glancing; the last Hull Point
    # goes: Wrecked. The two Guardsmen are set down; no more dice (no Pinning test).
    battle, shooter, chimera, passengers = _shot_at([3, 1], 2)
    chimera.models[0].wounds_left = 1
    fire_weapon(battle, shooter, chimera, "Lascannon", FireOrders())
    (destroyed,) = of_kind(battle, "vehicle_destroyed")
    (out,) = of_kind(battle, "disembarked")
    assert destroyed.how == "Wrecked" and (out.how, out.placed, out.lost) == ("Wrecked", 2, 0)
    assert battle.units["g"] is passengers and len(passengers.alive_models) == 2
    assert all_dice_used(battle)


def test_an_exploding_transports_passengers_take_s4_hits_then_a_pinning_test() -> None:
    # To hit 3. Penetration 2 + 9 = 11 > AV 10: penetrating. Damage 6 + 1 (AP2) = 7:
    # Explodes!. Radius D6 = 1: the shooter,
    # 7.5" from the hull, is not caught. Two Guardsmen (the test profile: T4) aboard:
    # two S4 AP- hits wound on 4+: rolls 4 and 2, one wound; save 5+: 4 fails, one dies.
    # Pinning test, Ld 7: 5 + 4 = 9 fails: the unit is pinned (gone to ground).
    battle, shooter, chimera, passengers = _shot_at([3, 2, 6, 1, 4, 2, 4, 5, 4], 2)
    fire_weapon(battle, shooter, chimera, "Lascannon", FireOrders())
    (destroyed,) = of_kind(battle, "vehicle_destroyed")
    assert (destroyed.how, destroyed.radius, destroyed.hits) == ("Explodes!", 1, ())
    (out,) = of_kind(battle, "disembarked")
    assert (out.how, out.placed) == ("Explodes!", 2)
    assert len(passengers.alive_models) == 1 and not shooter.destroyed
    assert st(battle, passengers).pinned and st(battle, passengers).gone_to_ground
    assert all_dice_used(battle)


def test_passengers_of_a_transport_lost_otherwise_get_out_at_their_movement_phase() -> None:
    # A transport removed by a rule other than the damage table: its passengers are
    # set down around where it stood at the start of their Movement phase.
    battle, chimera, passengers, _ = _aboard(("mover", "end phase"))
    chimera.models[0].wounds_left = 0
    movement_phase(battle, B)
    (out,) = of_kind(battle, "disembarked")
    assert (out.how, out.placed, out.lost) == ("transport destroyed", 5, 0)
    assert battle.units["g"] is passengers


# --- the AI -------------------------------------------------------------------------


def test_the_ai_disembarks_only_when_it_could_then_shoot_or_charge() -> None:
    # Set down within 2" of the hull, the squad is counted where it stands then (its
    # move may well hold it there): a foe 20" from the hull's edge is 18" away, in
    # the lasguns' 24" (Rapid Fire: full range after moving). One 30" away is 28" away:
    # beyond the lasguns, and beyond a 12" charge after its 6" move (22"). Until a
    # referee's review the squad got out for that one too, counting its 6" move.
    battle, chimera, passengers, marines = _aboard()
    marines.models[0].position = (36.0, 30.0 + 1.97 + 0.5 + 20.0)
    assert wants_to_disembark(battle, passengers, chimera)
    marines.models[0].position = (36.0, 30.0 + 1.97 + 0.5 + 30.0)
    assert not wants_to_disembark(battle, passengers, chimera)
    marines.models[0].position = (36.0, 30.0 + 1.97 + 0.5 + 17.0)  # 15" - 6" = 9": a charge
    assert wants_to_disembark(battle, passengers, chimera)


def test_the_ai_does_not_get_out_for_a_heavy_weapon_that_would_fire_snap_shots() -> None:
    # A squad of heavy bolters (36", Heavy 3) and a foe 22" from the hull's edge, 20"
    # once set down: in range, but disembarking counts as moving, so a Heavy weapon
    # fires Snap Shots (snap_shots.fires_snap): nothing would fire in full, and no charge
    # reaches (20" - 6" = 14" > 12"), so it stays aboard. Relentless, it gets out.
    battle, chimera, passengers, marines = _aboard()
    for model in passengers.models:
        model.weapons = (HEAVY_BOLTER,)
    marines.models[0].position = (36.0, 30.0 + 1.97 + 0.5 + 22.0)
    assert not wants_to_disembark(battle, passengers, chimera)
    relentless = guards("r", 5, (5.0, 5.0), rules=("Relentless",))
    for model in relentless.models:
        model.weapons = (HEAVY_BOLTER,)
    assert wants_to_disembark(battle, relentless, chimera)


# --- whole battles ------------------------------------------------------------------


def test_the_transport_example_plays_three_turns() -> None:
    path = EXAMPLES / "vehicles_transport.toml"
    prepared = prepare(parse_scenario(path.read_text(), str(path)), str(path))
    play(prepared.battle, prepared.ruleset, prepared.plan)
    battle = prepared.battle
    assert of_kind(battle, "embarked") and of_kind(battle, "disembarked")
    assert battle.turn == 3
    assert "guard" in battle.units  # the AI let the squad out to shoot
