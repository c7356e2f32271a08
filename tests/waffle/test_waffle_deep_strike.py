"""Reserves and Deep Strike (7th-edition base rules; issue 12 §3).

Expectations are worked out by hand from the rule text quoted in
``editions/waffle/reserves.py`` and ``editions/waffle/deep_strike.py``; the
dice are scripted so each test drives one branch of the procedure.
"""

from __future__ import annotations

import math
from fractions import Fraction
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
    row,
    squad,
)

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.game import Game
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.deep_strike import (
    arrive_from_reserves,
    landing_problem,
    landing_values,
    landings_blocked,
    ring_positions,
)
from hammerlab.editions.waffle.reserves import (
    arrived_by_deep_strike,
    put_on_table,
    reserve_state,
    set_reserves,
    waiting_units,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario, parse_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _deep_strikers(count: int = 5) -> Unit:
    return squad("term", A, MARINE, [STORM_BOLTER], row(10, 10, count), rules=["Deep Strike"])


def _in_reserve(battle: Battle, turn: int, turns: int = 5) -> None:
    """A's unit ``term`` in reserve; the battle at game turn ``turn``, A's turn."""
    battle.active_player = A
    set_reserves(battle, {"term": "deep_strike"}, turns)
    battle.turn = turn


def test_a_unit_in_reserve_is_off_the_table() -> None:
    battle = make_battle(_deep_strikers(), squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)))
    _in_reserve(battle, 1)
    assert list(battle.units) == ["guard"]
    assert [u.id for u in waiting_units(battle, A)] == ["term"]
    assert battle.enemies_of(battle.unit("guard")) == []


def test_a_unit_that_joined_the_battle_stays_when_a_reserve_arrives() -> None:
    # A unit made mid-battle (as a Chaos champion's Spawnhood makes one: chaos_forms)
    # has no scenario place; a reserve arriving after it leaves it on the table, after
    # the units in their scenario order (it was dropped from the battle before).
    battle = make_battle(_deep_strikers(), squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)))
    _in_reserve(battle, 2)
    spawn = squad("spawn", B, GUARD, [LASGUN], row(30, 30, 1))
    battle.units["spawn"] = spawn
    put_on_table(battle, waiting_units(battle, A)[0])
    assert list(battle.units) == ["term", "guard", "spawn"]
    assert battle.units["spawn"] is spawn


def test_no_reserve_roll_in_turn_one() -> None:
    battle = make_battle(_deep_strikers(), squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)))
    _in_reserve(battle, 1)
    assert arrive_from_reserves(battle, A) == frozenset()
    assert of_kind(battle, "reserve_roll") == []
    assert all_dice_used(battle)


@pytest.mark.parametrize(("roll", "arrives"), [(1, False), (2, False), (3, True), (6, True)])
def test_reserve_roll_in_turn_two_needs_three_plus(roll: int, arrives: bool) -> None:
    # The arriving unit's player aims at (36, 24); the scatter die shows a HIT (1).
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[roll, 1] if arrives else [roll],
        script_a=[("deep_strike", "(36.0, 24.0)")] if arrives else [],
    )
    _in_reserve(battle, 2)
    arrived = arrive_from_reserves(battle, A)
    assert (arrived == {"term"}) is arrives
    assert ("term" in battle.units) is arrives
    assert all_dice_used(battle)


def test_from_turn_four_units_arrive_without_a_roll() -> None:
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[1],  # the scatter die only: a HIT
        script_a=[("deep_strike", "(36.0, 24.0)")],
    )
    _in_reserve(battle, 4)
    assert arrive_from_reserves(battle, A) == {"term"}
    rolled = of_kind(battle, "reserve_roll")
    assert [(e.roll, e.arrives) for e in rolled] == [(0, True)]
    assert all_dice_used(battle)


def test_rings_of_one_inch_bases() -> None:
    """First model at the point; 6 in base contact 1" out, then 12 at 2" (floor(4 pi))."""
    unit = _deep_strikers(8)
    spots = ring_positions(unit, (36.0, 24.0))
    assert spots[0] == (36.0, 24.0)
    assert spots[1] == pytest.approx((37.0, 24.0))
    assert spots[2] == pytest.approx((36.5, 24.0 + math.sqrt(3) / 2))
    assert spots[7] == pytest.approx((38.0, 24.0))
    for first in range(8):
        for second in range(first + 1, 8):
            assert math.dist(spots[first], spots[second]) >= 1.0 - 1e-9


def test_landings_asked_at_once_agree_with_the_rule_asked_one_by_one() -> None:
    # The AI's mishap chances ask landings_blocked for many points at once; the rule
    # (landing_problem) asks one. Over a quarter-inch grid of the whole 72" x 48"
    # table (edges, a friend, enemies and the 1" around them included) they agree,
    # and both kinds of answer occur.
    term = _deep_strikers(8)
    friend = squad("friend", A, GUARD, [LASGUN], row(20, 30, 5))
    foes = squad("foes", B, GUARD, [LASGUN], row(40, 20, 10))
    battle = make_battle(term, friend, foes)
    _in_reserve(battle, turn=2)
    centres = [(x / 4, y / 4) for x in range(0, 289, 3) for y in range(0, 193, 3)]
    blocked = landings_blocked(battle, term, centres)
    one_by_one = [landing_problem(battle, term, ring_positions(term, c)) is not None
                  for c in centres]  # fmt: skip
    assert blocked == one_by_one
    assert 0 < sum(blocked) < len(centres)


def test_a_hit_lands_on_the_point_and_the_unit_counts_as_moved() -> None:
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[4, 2],  # Reserve Roll 4: arrives; scatter die 2: HIT
        script_a=[("deep_strike", "(36.0, 24.0)")],
    )
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    unit = battle.unit("term")
    assert unit.models[0].position == (36.0, 24.0)
    assert unit.models[1].position == pytest.approx((37.0, 24.0))
    assert unit.status.moved
    assert arrived_by_deep_strike(battle, unit)
    assert charge_ban(battle, unit) == "it arrived by Deep Strike this turn"
    landed = of_kind(battle, "deep_strike")[0]
    assert (landed.aimed, landed.landed, landed.scattered) == ((36.0, 24.0), (36.0, 24.0), 0.0)
    battle.turn = 3
    assert not arrived_by_deep_strike(battle, unit)


def test_a_scatter_moves_the_2d6_total_along_the_arrow() -> None:
    # Scatter die 5 (an arrow), direction 90 degrees (+y), 2D6 = 3 + 4 = 7: to (36, 31).
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 46, 5)),
        dice=[3, 5, 3, 4],
        directions=[90.0],
        script_a=[("deep_strike", "(36.0, 24.0)")],
    )
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    assert battle.unit("term").models[0].position == pytest.approx((36.0, 31.0))
    assert of_kind(battle, "deep_strike")[0].scattered == 7.0
    assert all_dice_used(battle)


def _scatter_off_table(
    mishap_roll: int, then: tuple[int, ...] = (), script_b: tuple[tuple[str, str], ...] = ()
) -> Battle:
    """Aimed at (6, 24), the arrow points at 180 degrees and 2D6 = 12: the first model
    would land at (-6, 24), off the table; then the Mishap roll (and ``then``)."""
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[3, 6, 6, 6, mishap_roll, *then],
        directions=[180.0],
        script_a=[("deep_strike", "(6.0, 24.0)"), ("deep_strike", "(36.0, 24.0)")],
        script_b=list(script_b),
    )
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    return battle


def test_mishap_one_terrible_accident_destroys_the_unit() -> None:
    battle = _scatter_off_table(1)
    mishap = of_kind(battle, "deep_strike_mishap")[0]
    assert (mishap.reason, mishap.roll, mishap.result) == ("off the table", 1, "terrible accident")
    assert battle.unit("term").destroyed
    assert victory_scores(battle, "kill_points") == {A: 0, B: 1}
    assert all_dice_used(battle)


@pytest.mark.parametrize("roll", [2, 3])
def test_mishap_misplaced_lets_the_opponent_place_the_unit_without_scatter(roll: int) -> None:
    battle = _scatter_off_table(roll, script_b=(("deep_strike", "(36.0, 24.0)"),))
    assert of_kind(battle, "deep_strike_mishap")[0].result == "misplaced"
    assert [d.context.unit for d in asked(battle, B, "deep_strike")] == ["term"]
    assert battle.unit("term").models[0].position == (36.0, 24.0)
    assert all_dice_used(battle)  # no second scatter


@pytest.mark.parametrize("roll", [4, 5, 6])
def test_mishap_delayed_puts_the_unit_in_ongoing_reserves(roll: int) -> None:
    battle = _scatter_off_table(roll, then=(1,))  # next turn: the scatter die, a HIT
    assert of_kind(battle, "deep_strike_mishap")[0].result == "delayed"
    assert "term" not in battle.units
    state = reserve_state(battle)
    assert state is not None and state.ongoing == ["term"]
    battle.turn = 3  # Ongoing Reserves: it arrives with no Reserve Roll
    assert arrive_from_reserves(battle, A) == {"term"}
    assert of_kind(battle, "reserve_roll")[-1].roll == 0
    assert state.ongoing == []
    assert all_dice_used(battle)


def test_landing_within_one_inch_of_an_enemy_is_a_mishap() -> None:
    # Guardsmen at y = 30; the Deep Strike scatters 7" from (36, 24) toward +y: the
    # first model's base would overlap them.
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(32, 31, 5)),
        dice=[3, 5, 3, 4, 6],
        directions=[90.0],
        script_a=[("deep_strike", "(36.0, 24.0)")],
    )
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    mishap = of_kind(battle, "deep_strike_mishap")[0]
    assert mishap.reason.startswith('within 1" of enemy model guard.')
    assert mishap.result == "delayed"


def test_landing_value_counts_the_chance_of_a_mishap() -> None:
    """A lone model with no weapon aimed 3" from the west edge (x = 3; radius 0.5).

    Scatter 2/3 of the time, each of 8 directions alike, 2D6 inches. Westward
    (180) it leaves the table at 3" or more (P 35/36); at 135 and 225 degrees at
    d * cos 45 > 2.5, i.e. 4" or more (P 33/36); other directions stay on the
    table (y = 24 +- 12 at most). P(mishap) = 2/3 * 1/8 * (35 + 2 * 33) / 36 =
    101/432, and a mishap costs the model on a 1 in 6: value = -101/432/6.
    """
    lone = squad("lone", A, MARINE, [], [(3.0, 24.0)], rules=["Deep Strike"])
    battle = make_battle(lone, squad("guard", B, GUARD, [LASGUN], row(60, 44, 2)))
    _in_reserve_unit(battle, "lone")
    expected = -float(Fraction(101, 432)) / 6
    assert landing_values(battle, lone, [(3.0, 24.0)]) == [pytest.approx(expected)]


def _in_reserve_unit(battle: Battle, uid: str) -> None:
    battle.active_player = A
    set_reserves(battle, {uid: "deep_strike"}, 5)


def test_the_ai_lands_where_its_guns_reach() -> None:
    """From the table's centre the storm bolters (24") reach nothing; the AI picks a
    point whose landing value is positive (in range of the Guardsmen)."""
    battle = make_battle(
        _deep_strikers(), squad("guard", B, GUARD, [LASGUN], row(30, 44, 5)), seed=3
    )
    battle.controllers[A] = WaffleAI()
    _in_reserve(battle, 4)
    arrive_from_reserves(battle, A)
    decision = of_kind(battle, "decision")[0]
    assert decision.decision == "deep_strike"
    aimed = of_kind(battle, "deep_strike")[0].aimed
    guard = battle.unit("guard")
    assert min(math.dist(aimed, m.position) for m in guard.models) <= 24.0


def test_the_ai_misplaces_an_enemy_unit_out_of_its_guns_reach() -> None:
    """Misplaced: the opponent's AI places the unit where it is worth least to its
    owner: no Guardsman within the storm bolters' 24"."""
    battle = make_battle(
        _deep_strikers(),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[3, 6, 6, 6, 2],
        directions=[180.0],
        script_a=[("deep_strike", "(6.0, 24.0)")],
    )
    battle.controllers[B] = WaffleAI()
    _in_reserve(battle, 2)
    arrive_from_reserves(battle, A)
    first = battle.unit("term").models[0].position
    guard = battle.unit("guard")
    assert min(math.dist(first, m.position) for m in guard.models) > 24.0
    assert all_dice_used(battle)


def test_a_unit_still_in_reserve_when_the_game_ends_counts_as_destroyed() -> None:
    text = (EXAMPLES / "deep_strike_terminators.toml").read_text(encoding="utf-8")
    text = text.replace("turns = 4", "turns = 1")
    ready = prepare(parse_scenario(text, "one_turn.toml"), "one_turn.toml", seed=1)
    play(ready.battle, ready.ruleset, ready.plan)
    assert ready.battle.unit("terminators").destroyed
    assert [e.unit for e in of_kind(ready.battle, "lost_in_reserve")] == [
        "Terminator Squad [terminators]"
    ]
    assert list(ready.battle.units)[-1] == "terminators"  # back in its scenario place
    assert victory_scores(ready.battle, "kill_points")["Cadians"] >= 1


def test_the_example_deep_strikes_and_plays_four_turns() -> None:
    path = EXAMPLES / "deep_strike_terminators.toml"
    ready = prepare(load_scenario(path), str(path), seed=1)
    play(ready.battle, ready.ruleset, ready.plan)
    battle = ready.battle
    assert of_kind(battle, "lost_in_reserve") == []
    state = reserve_state(battle)
    assert state is not None and 2 <= state.arrived["terminators"] <= 4
    assert len(of_kind(battle, "deep_strike")) == 1


def test_a_unit_without_deep_strike_may_not_deep_strike() -> None:
    text = one_unit_against_boyz('unit = "Tactical Squad"\nreserve = "deep_strike"')
    with pytest.raises(InputError) as error:
        prepare(parse_scenario(text, "s.toml"), "s.toml")
    assert str(error.value).startswith("s.toml: units[1].reserve: a: Tactical Squad has no Deep")


def test_a_unit_on_the_table_needs_a_position() -> None:
    with pytest.raises(InputError) as error:
        parse_scenario(one_unit_against_boyz('unit = "Tactical Squad"'), "s.toml")
    assert "position" in str(error.value) and "reserve" in str(error.value)


def test_an_unknown_kind_of_reserve_is_refused() -> None:
    with pytest.raises(InputError) as error:
        parse_scenario(
            one_unit_against_boyz('unit = "Terminator Squad"\nreserve = "teleport"'), "s.toml"
        )
    assert "units[1].reserve" in str(error.value)


def test_a_saved_game_with_units_in_reserve_replays_and_plays_on_to_the_same_end() -> None:
    """Reserves live in the battle's memory: a game saved before turn 3 (the
    Terminators' Reserve Roll behind them or not) loads to the same state digest
    and plays on exactly as the unbroken game."""
    path = EXAMPLES / "deep_strike_terminators.toml"
    whole = Game.start(load_scenario(path), str(path), 2)
    whole.play()
    first = Game.start(load_scenario(path), str(path), 2, stop_before_turn=3)
    first.play()
    loaded = Game.from_json(first.to_json(), stop_before_turn=3)
    assert loaded.digest() == first.digest()
    loaded.stop_before_turn = None
    loaded.play()
    assert loaded.battle.log.json_lines() == whole.battle.log.json_lines()


def test_a_core11_scenario_has_no_reserves() -> None:
    text = (
        'name = "x"\nruleset = "core11"\n[[players]]\nname = "A"\n[[players]]\nname = "B"\n'
        'edge = "north"\n'
        '[[units]]\nid = "b"\nplayer = "B"\nunit = "Boyz"\nposition = [36, 40]\n'
        '[[units]]\nid = "a"\nplayer = "A"\nunit = "Intercessor Squad"\nreserve = "deep_strike"\n'
    )
    with pytest.raises(InputError) as error:
        prepare(parse_scenario(text, "s.toml"), "s.toml")
    assert str(error.value) == "s.toml: units[1].reserve: a: the core11 ruleset has no deep strike"
