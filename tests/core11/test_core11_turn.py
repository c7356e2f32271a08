"""The rest of the 11th-edition turn: Command (08), Charge (11) and Fight (12) phases,
with hand-measured distances and scripted dice.

Every unit here is one row of models on 32 mm bases (radius 0.63"), so the
base-to-base gap of two models is the centre distance minus ``RADII`` = 1.26".
Player A is active and its edge is south.
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from core11_kit import battle, events, game, gun, library_unit, place, script, sheet
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.cli.app import app
from hammerlab.editions.base import play
from hammerlab.editions.core11.ai import Core11AI, melee_share
from hammerlab.editions.core11.charge import CHARGE, charge_with, eligible_to_charge
from hammerlab.editions.core11.command import COMMAND
from hammerlab.editions.core11.events import (
    AttacksResolved,
    BatteryUnresolved,
    BattleShockRolled,
    ChargeResolved,
    CloseMove,
    CommandPointsGained,
    CommandPointsSpent,
    FightSelected,
)
from hammerlab.editions.core11.fight import (
    PILE_IN,
    PILE_IN_DISTANCE,
    FightStep,
    close_move,
    consolidate_step,
    fight_step,
    pile_in_eligible,
    pile_in_step,
    pile_in_targets,
)
from hammerlab.editions.core11.melee import fight
from hammerlab.editions.core11.movement import fall_back_eligible, move_with
from hammerlab.editions.core11.overwatch import install_overwatch
from hammerlab.editions.core11.positions import is_engaged
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.engine.battle import Battle
from hammerlab.engine.controllers import FirstChoiceController
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.geometry import Vec
from hammerlab.engine.geometry import base_distance as gap
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario, parse_scenario
from phase_kit import run_phase

ROOT = Path(__file__).parents[2]
WHOLE_GAME = ROOT / "examples" / "core11_whole_game.toml"
RADII = 2 * 32 / 25.4 / 2


def blade(keywords: tuple[str, ...] = (), attacks: str = "1") -> Weapon:
    """A melee weapon, WS 3+, S4 AP0 D1."""
    return Weapon(
        "blade",
        {"Range": "Melee", "A": attacks, "WS": "3+", "S": "4", "AP": "0", "D": "1"},
        keywords,
    )


def test_08_02_both_players_gain_1_cp_and_08_03_battle_shock_at_half_strength() -> None:
    """08.02: "Both players gain 1 Command Point (CP)." 08.03: a roll for each unit "at,
    or below, half-strength" (01.02.01: 2 of a starting strength of 4 is half); 2D6 of
    2 + 3 = 5 is under Ld 6+: battle-shocked; next Command phase 3 + 3 = 6 succeeds
    and "it is no longer battle-shocked". A full unit makes no roll."""
    a = place("a", sheet("Squad", count=4), "A", (10, 10))
    full = place("f", sheet("Full", count=2), "A", (30, 10))
    b = place("b", sheet("Foes"), "B", (10, 40))
    fight_ = battle([a, full, b], dice=[2, 3, 3, 3])
    state = game(fight_)
    a.models[2].wounds_left = a.models[3].wounds_left = 0
    run_phase(fight_, COMMAND, "A")
    gained = [(e.player, e.total) for e in events(fight_, CommandPointsGained)]
    assert gained == [("A", 1), ("B", 1)]
    assert [(e.unit, e.roll, e.passed) for e in events(fight_, BattleShockRolled)] == [
        ("Squad [a]", 5, False)
    ]
    assert state.battle_shocked == {"a"}
    run_phase(fight_, COMMAND, "A")
    assert state.command_points == {"A": 2, "B": 2}
    assert state.battle_shocked == set()


def test_11_02_charge_roll_2d6_and_charge_move_ends_engaged_with_fights_first() -> None:
    """Gap 8 - 1.26 = 6.74"; charge roll 3 + 4 = 7 reaches it. The block moves toward
    the target until the leading base touches the target's: 6.74", to y = 18 - 1.26 =
    16.74, in base contact (engaged). Until session 24 it stopped at the last whole
    7/40" step that fit, 38 steps, 6.65", 0.09" short (review s24, core11 2). 11.04
    After moving: Fights First."""
    a = place("a", sheet("Squad", weapons=[blade()]), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 18))
    fight_ = battle([a, b], dice=[3, 4])
    state = game(fight_)
    run_phase(fight_, CHARGE, "A")
    assert a.models[0].position == pytest.approx((10, 18 - RADII), abs=1e-6)
    assert gap(a.models[0], b.models[0]) == pytest.approx(0, abs=1e-6)
    assert is_engaged(fight_, a) and a.status.charged and state.charged_this_turn(a)
    [resolved] = events(fight_, ChargeResolved)
    assert (resolved.roll, resolved.succeeded, resolved.distance) == (7, True, 6.74)


def test_11_04_facing_lines_charge_straight_ahead_and_every_model_ends_engaged() -> None:
    """11.04 While moving: "Each model that can end its move engaged with one or more
    charge targets must do so." Two lines of five, 2" apart within each line, 5" apart
    (gap 5 - 1.26 = 3.74"); charge roll 2 + 5 = 7. Every pair of facing models is as
    close: from a.1 toward b.1 the block goes straight ahead until the bases touch:
    3.74", to y = 25 - 1.26 = 23.74, each model in base contact with the one it faces;
    all five engaged (until session 24 it stopped at the last whole 5/40" step, 29
    steps, 3.625", 0.115" short). From the unit's centre toward b.1 it went
    diagonally and left a.1 2.09" from every enemy (review s22, note 2): four."""
    a = place("a", sheet("Squad", count=5), "A", (16, 20))
    b = place("b", sheet("Foes", count=5), "B", (16, 25))
    for i, (mine, theirs) in enumerate(zip(a.models, b.models, strict=True)):
        mine.position, theirs.position = (16 + 2 * i, 20), (16 + 2 * i, 25)
    fight_ = battle([a, b], dice=[2, 5])
    charge_with(game(fight_), a)
    for i, model in enumerate(a.models):
        assert model.position == pytest.approx((16 + 2 * i, 25 - RADII), abs=1e-6)
    for model in a.models:
        assert any(gap(model, e) <= 2 for e in b.models), model.id


def test_11_02_01_a_charge_roll_short_of_every_enemy_makes_no_move() -> None:
    """Gap 6.74"; a roll of 1 + 2 = 3 puts no enemy within the maximum distance."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 18))
    fight_ = battle([a, b], dice=[1, 2])
    state = game(fight_)
    charge_with(state, a)
    assert a.models[0].position == (10, 10) and not a.status.charged
    [resolved] = events(fight_, ChargeResolved)
    assert (resolved.roll, resolved.succeeded) == (3, False)
    # The referee says what the roll had to reach: the Foes, 8 - 1.26 = 6.74" away.
    assert (resolved.nearest, resolved.needed) == ("Foes [b]", 6.74)
    assert resolved.text == 'Squad [a]: charge roll 3, no charge move: Foes [b] is 6.7" away'


def test_11_02_eligible_to_declare_a_charge_within_12_unengaged_and_not_advanced() -> None:
    """ "It is not within 12\" of one or more enemy units. It is engaged. It made an
    advance or fall-back move this turn." prevent a charge: a gap of 13.24" is too
    far, 10.74" is close enough unless the unit advanced."""
    far = place("far", sheet("Far"), "A", (10, 10))
    near = place("near", sheet("Near"), "A", (40, 14))
    b = place("b", sheet("Foes"), "B", (10, 24.5))
    c = place("c", sheet("Foes"), "B", (40, 26))
    fight_ = battle([far, near, b, c])
    state = game(fight_)
    assert not eligible_to_charge(state, far) and eligible_to_charge(state, near)
    state.no_charge.add("near")
    assert not eligible_to_charge(state, near)


def test_fire_overwatch_hits_only_on_unmodified_6s_and_costs_1_cp() -> None:
    """Fire Overwatch: "an unmodified Hit roll of 6 is required to score a hit,
    irrespective of the attacking weapon's Ballistic Skill" — with BS 3+, a 5 misses
    and a 6 hits; the 6 wounds (4), the save fails (2 on 3+): one charger dies. 1CP
    spent. Then the charge roll (3 + 4)."""
    a = place("a", sheet("Squad", count=2), "A", (10, 10))
    b = place("b", sheet("Foes", weapons=[gun(attacks="2", bs=3)]), "B", (10, 18))
    fight_ = battle([a, b], dice=[5, 6, 4, 2, 3, 4])
    state = game(fight_)
    state.command_points = {"A": 0, "B": 1}
    install_overwatch(state)
    charge_with(state, a)
    [shots] = events(fight_, AttacksResolved)
    assert (shots.attacks, shots.hits, shots.models_destroyed) == (2, 1, 1)
    assert state.command_points["B"] == 0
    assert [e.roll for e in events(fight_, ChargeResolved)] == [7]
    # The log says so in a typed event (code review s23, finding 3): B had 1CP and spent
    # the stratagem's 1 on Foes, used against the charging Squad: 0 left.
    assert events(fight_, CommandPointsSpent) == [
        CommandPointsSpent("B", 1, "Fire Overwatch", "Foes [b]", "Squad [a]", 0)
    ]


def _grunts(uid: str, player: str, name: str, at: tuple[int, float], status: str = "") -> str:
    """A scenario's inline unit of five 1-wound Grunts with a club, in a line at ``at``."""
    return f"""
[[units]]
id = "{uid}"
player = "{player}"
position = [{at[0]}, {at[1]}]
formation = "line"
{status}
[units.inline]
name = "{name}"
[[units.inline.models]]
name = "Grunt"
count = 5
profile = {{ M = '6"', T = "4", Sv = "5+", W = "1", Ld = "7+", OC = "1" }}
keywords = ["INFANTRY"]
weapons = ["Club"]
[units.inline.weapons.Club]
Range = "Melee"
A = "1"
WS = "4+"
S = "4"
AP = "0"
D = "1"
"""


FIGHT_ONLY = """
name = "fight order"
ruleset = "core11"
first_player = "A"
[plan]
phases = ["fight"]
[[players]]
name = "A"
[[players]]
name = "B"
edge = "north"
"""


def test_12_04_a_scenario_charged_unit_has_fights_first_as_a_charge_in_play_gives() -> None:
    """A scenario's ``status = { charged = true }`` is a charge made this turn (session 22
    core11 review, finding 1: it gave [LANCE] and 12.03/12.04 eligibility but not Fights
    First). 11.04 After moving: "Until the end of the turn, each model in your unit has
    the Fights First ability". A's Brawlers [d] (listed first, not charged) and
    Chargers [c] each stand 1.5" from a B unit (gap 1.5 - 0.98 = 0.52": engaged).
    12.04 step 1: A selects a Fights First unit: only the Chargers (without it, A's
    first choice would be the Brawlers); B has none, so Remaining Combats begins with
    B, who selects its first listed unit (Targets [e]); then A's Brawlers, then B's
    Foes. Every player takes its first choice."""
    text = FIGHT_ONLY + "".join(
        (
            _grunts("d", "A", "Brawlers", (50, 10)),
            _grunts("c", "A", "Chargers", (20, 10), "status = { charged = true }"),
            _grunts("e", "B", "Targets", (20, 11.5)),
            _grunts("f", "B", "Foes", (50, 11.5)),
        )
    )
    first = {p: FirstChoiceController() for p in ("A", "B")}
    ready = prepare(parse_scenario(text, "order.toml"), "order.toml", seed=3, controllers=first)
    play(ready.battle, ready.ruleset, ready.plan)
    order = [(e.unit, e.fights_first) for e in events(ready.battle, FightSelected)]
    assert order[:4] == [  # A's turn (B's Fight phase follows)
        ("Chargers [c]", True),
        ("Targets [e]", False),
        ("Brawlers [d]", False),
        ("Foes [f]", False),
    ]
    assert "Chargers [c] fights: normal fight (fights first)" in [
        e.text for e in events(ready.battle, FightSelected)
    ]


def test_a_scenario_charged_status_of_the_player_not_active_is_for_its_own_turn() -> None:
    """docs/scenarios.md: a unit's status "describes its player's first turn". B's unit
    charged in B's turn, not in A's: in A's Fight phase it is not eligible to pile in
    (12.03: "It is engaged. It made a charge move this turn."), has no Fights First, and
    its [LANCE] gives nothing; A's own charged unit has all three."""
    a = place("a", sheet("Squad", weapons=[blade(("LANCE",))]), "A", (10, 10))
    b = place("b", sheet("Foes", weapons=[blade(("LANCE",))]), "B", (10, 20))
    fight_ = battle([a, b])
    state = game(fight_)
    a.status.charged = b.status.charged = True
    assert pile_in_eligible(state, a) and not pile_in_eligible(state, b)
    assert state.charged_this_turn(a) and not state.charged_this_turn(b)
    fight_.active_player = "B"
    assert state.charged_this_turn(b) and pile_in_eligible(state, b)


def test_12_04_without_fights_first_the_active_player_selects_first() -> None:
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 11.5))
    fight_ = battle([a, b])
    fight_step(game(fight_))
    assert [e.unit for e in events(fight_, FightSelected)] == ["Squad [a]", "Foes [b]"]


def test_12_03_pile_in_up_to_3_inches_ends_engaged_and_short_of_the_base() -> None:
    """Gap 3.5 - 1.26 = 2.24" (within 5", unengaged); the unit charged. Steps of
    3/40 = 0.075": 29 steps, 2.175", leave a gap of 0.065" (no base crossed). Then the
    opponent's unit, now engaged, could pile in: its move toward the other centre is
    capped at the centres' distance 1.325", in steps of 1.325/40 = 0.033125": one step
    fits the 0.065" gap, two (0.06625") do not. A move of 0.033" that engages nothing
    anew is under one step of the search at 3" (0.075"): no move, not offered (review
    s23, core11 3: until then it was asked and logged as "pile-in move, 0.0\"")."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 13.5))
    fight_ = battle([a, b], controllers={"B": script()})
    state = game(fight_)
    a.status.charged = True
    pile_in_step(state)
    assert a.models[0].position == pytest.approx((10, 12.175))
    assert b.models[0].position == (10, 13.5)
    assert [(e.unit, e.move, e.distance) for e in events(fight_, CloseMove)] == [
        ("Squad [a]", "pile-in", 2.17),
    ]


def test_12_03_facing_lines_pile_in_straight_ahead_and_every_model_ends_closer() -> None:
    """Review s24 (core11, finding 2): two facing lines of five, 2" apart within each
    line, gap 0.2" between each facing pair (centres 1.2598 + 0.2 = 1.4598" apart). From
    the unit's centre toward b.1 the pile-in went 1.28" diagonally and a.1 ended
    0.315" from every enemy, farther than its 0.2" (12.03: "Each model that is moved
    must end its move closer to the closest pile-in target"). From a.1 toward b.1 the
    block goes straight ahead, capped at the 1.4598" to b.1, in steps of 1.4598/40 =
    0.036496": 5 steps (0.18248") fit the 0.2" gap, 6 (0.21898") do not; each model
    ends 0.01752" from the one it faces."""
    a = place("a", sheet("Squad", count=5), "A", (16, 10))
    b = place("b", sheet("Foes", count=5), "B", (16, 10 + RADII + 0.2))
    for i, (mine, theirs) in enumerate(zip(a.models, b.models, strict=True)):
        mine.position, theirs.position = (16 + 2 * i, 10), (16 + 2 * i, 10 + RADII + 0.2)
    fight_ = battle([a, b])
    state = game(fight_)
    close_move(state, a, PILE_IN, pile_in_targets(state, a), PILE_IN_DISTANCE)
    for i, (mine, theirs) in enumerate(zip(a.models, b.models, strict=True)):
        assert mine.position == pytest.approx((16 + 2 * i, 10.18248), abs=1e-5)
        assert gap(mine, theirs) == pytest.approx(0.01752, abs=1e-5)


def test_12_03_a_pile_in_that_would_carry_a_model_away_from_its_closest_target_is_not_made() -> (
    None
):
    """Squad's a.1 at (10, 10) is engaged with Foes (one model at (10, 12.5): gap 2.5 -
    1.26 = 1.24"), a.2 at (14, 10) with Others (one model at (14, 7.5): 1.24"); a.2 is
    sqrt(4^2 + 2.5^2) - 1.26 = 3.46" from the Foes, so Others is its closest pile-in
    target. Both targets are 1.24" away; the Foes come first. Every line toward the
    Foes' model (straight up from a.1, or up and left from the centre) carries a.2
    away from the Others' model below it, which 12.03 forbids ("Each model that is
    moved must end its move closer to the closest pile-in target"); the block cannot
    move a.1 alone: no move, nothing asked. Until session 24 it went 0.90" up and left
    and a.2 ended 1.99" from the Others."""
    a = place("a", sheet("Squad", count=2), "A", (10, 10))
    a.models[1].position = (14, 10)
    b = place("b", sheet("Foes"), "B", (10, 12.5))
    c = place("c", sheet("Others"), "B", (14, 7.5))
    fight_ = battle([a, b, c], controllers={"A": script()})
    state = game(fight_)
    close_move(state, a, PILE_IN, pile_in_targets(state, a), PILE_IN_DISTANCE)
    assert [m.position for m in a.models] == [(10, 10), (14, 10)]
    assert events(fight_, CloseMove) == []


def test_12_03_after_a_charge_that_reaches_no_pile_in_is_offered() -> None:
    """The facing lines of the 11.04 test charge into base contact (roll 7 against
    3.74"); 12.03: "Models in base-contact with one or more enemy models cannot be
    moved", so the pile-in step asks nothing (a strict script with no answer). Until
    session 24 the charge stopped 0.115" short and a pile-in was offered."""
    a = place("a", sheet("Squad", count=5), "A", (16, 20))
    b = place("b", sheet("Foes", count=5), "B", (16, 25))
    for i, (mine, theirs) in enumerate(zip(a.models, b.models, strict=True)):
        mine.position, theirs.position = (16 + 2 * i, 20), (16 + 2 * i, 25)
    fight_ = battle([a, b], dice=[2, 5], controllers={"A": script(), "B": script()})
    state = game(fight_)
    charge_with(state, a)
    pile_in_step(state)
    assert events(fight_, CloseMove) == []


def _hair_short(new_enemy: bool, answers: tuple[tuple[str, str], ...]) -> tuple[Battle, Unit]:
    """Squad [a] (two models at (10, 10) and (14, 10), centre (12, 10)) is engaged with
    Foes [b] (one model at (12, 11.5), 2.5" from each: gap 2.5 - 1.26 = 1.24"), and a
    friendly model stands straight ahead of a.1, 0.04" from its base. Squad's pile-in
    goes straight up toward the Foes model, capped at the 1.5" to it, in steps of
    1.5/40 = 0.0375": one step fits the 0.04" gap, two (0.075") do not. With
    ``new_enemy``, a model of Others [c] stands 2.02" straight ahead of a.2. Player A
    answers ``answers`` and nothing else (a strict script)."""
    radii = 32 / 25.4
    a = place("a", sheet("Squad", count=2), "A", (10, 10))
    a.models[1].position = (14, 10)
    units = [
        a,
        place("b", sheet("Foes"), "B", (12, 11.5)),
        place("k", sheet("Friends"), "A", (10, 10 + radii + 0.04)),
    ]
    if new_enemy:
        units.append(place("c", sheet("Others"), "B", (14, 10 + radii + 2.02)))
    fight_ = battle(units, controllers={"A": script(*answers)})
    state = game(fight_)
    close_move(state, a, PILE_IN, pile_in_targets(state, a), PILE_IN_DISTANCE)
    return fight_, a


def test_12_03_a_pile_in_of_a_hair_that_changes_nothing_is_not_offered() -> None:
    """Review s23 (core11, finding 3): a unit a hair short of base contact was asked to
    make a 0.04" pile-in, logged "pile-in move, 0.0\"". The move here is 0.0375" (one
    step of 1.5/40, ``_hair_short``), less than one step of the search at 3" (3/40 =
    0.075"), and engages no model that was not: no question (the script has no
    answer), no move, no event."""
    fight_, a = _hair_short(new_enemy=False, answers=())
    assert [m.position for m in a.models] == [(10, 10), (14, 10)]
    assert events(fight_, CloseMove) == []


def test_12_03_a_pile_in_of_a_hair_that_engages_a_model_anew_is_made() -> None:
    """The same 0.0375" move (``_hair_short``) brings a.2 from 2.02" to 1.9825" of the
    Others model: within 2", a model engaged with a unit it was not (12.03 reads who
    is engaged), so the move is offered and made, and the log says it in hundredths
    (0.04"), not as 0.0"."""
    fight_, a = _hair_short(new_enemy=True, answers=(("pile-in", "use"),))
    assert [m.position for m in a.models] == [
        pytest.approx((10, 10.0375)),
        pytest.approx((14, 10.0375)),
    ]
    assert [e.text for e in events(fight_, CloseMove)] == ['Squad [a]: pile-in move, 0.04"']


def test_12_08_consolidation_moves_an_engaged_unit_toward_its_enemy() -> None:
    """Gap 2.9 - 1.26 = 1.64" (engaged): Ongoing Consolidation toward the other centre,
    2.9" away (under 3"), in steps of 2.9/40 = 0.0725": 22 steps, 1.595", fit the gap
    (23 would be 1.6675"). A unit not eligible to fight this phase stays."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 12.9))
    fight_ = battle([a, b])
    state = game(fight_)
    consolidate_step(state, FightStep(was_eligible={"a"}))
    assert a.models[0].position == pytest.approx((10, 11.595))
    assert b.models[0].position == (10, 12.9)


@pytest.mark.parametrize(("charged", "destroyed"), [(True, 1), (False, 0)])
def test_melee_attacks_resolve_weapon_keywords_lance_after_a_charge(
    charged: bool, destroyed: int
) -> None:
    """[LANCE]: +1 to wound if the bearer made a charge move this turn: S4 against T4
    needs 4+; a 3 wounds only after a charge. Hit 3 (WS 3+), wound 3, save 1."""
    a = place("a", sheet("Squad", weapons=[blade(("LANCE",))]), "A", (10, 10))
    b = place("b", sheet("Foes", save=6), "B", (10, 11.5))
    fight_ = battle([a, b], dice=[3, 3, 1] if charged else [3, 3])
    state = game(fight_)
    a.status.charged = charged
    fight(state, a)
    [blow] = events(fight_, AttacksResolved)
    assert (blow.hits, blow.models_destroyed) == (1, destroyed)


def test_a_melee_weapon_is_not_fired_in_the_shooting_phase_and_fight_uses_only_melee() -> None:
    """A unit with a gun and a blade fights with the blade only."""
    a = place("a", sheet("Squad", weapons=[gun(), blade()]), "A", (10, 10))
    b = place("b", sheet("Foes", save=6), "B", (10, 11.5))
    fight_ = battle([a, b], dice=[1])
    fight(game(fight_), a)
    assert [e.weapon for e in events(fight_, AttacksResolved)] == ["blade"]


def _brawlers_between(count: int, left: Vec, right: Vec) -> tuple[Unit, Unit, Unit]:
    """Brawlers [a]: ``count`` models with a blade of A2 (WS 3+) in a line 2" apart from
    (10, 10); B's Left [l] and Right [r], one model each, at ``left`` and ``right``."""
    a = place("a", sheet("Brawlers", count=count, weapons=[blade(attacks="2")]), "A", (10, 10))
    for i, model in enumerate(a.models):
        model.position = (10 + 2 * i, 10)
    return a, place("l", sheet("Left"), "B", left), place("r", sheet("Right"), "B", right)


def test_04_melee_models_engaged_with_different_units_each_attack_one_they_are_engaged_with() -> (
    None
):
    """Review s24 (core11, finding 1): one target per melee weapon left the models
    engaged only with the other enemy unit without attacks (4 of 8). Making Attacks
    (04), read as in the 10th edition: a model's melee target is an enemy unit it is
    within engagement range (2") of. Five Brawlers at x = 10, 12, 14, 16, 18 (y = 10);
    Left's model at (11, 11.5) is sqrt(1 + 1.5^2) - 1.26 = 0.54" from a.1 and a.2 and
    sqrt(3^2 + 1.5^2) - 1.26 = 2.09" from a.3; Right's at (17, 11.5) the same from a.4,
    a.5 and a.3. So a.1 and a.2 make 2 x 2 = 4 attacks at Left, a.4 and a.5 4 at Right,
    a.3 none: 8 in all, each group's only target taken without asking. The dice are 1s
    (misses)."""
    a, left, right = _brawlers_between(5, (11, 11.5), (17, 11.5))
    fight_ = battle([a, left, right], dice=[1] * 8)
    fight(game(fight_), a)
    blows = [(e.target, e.attacks, e.hits) for e in events(fight_, AttacksResolved)]
    assert blows == [("Left [l]", 4, 0), ("Right [r]", 4, 0)]


def test_04_a_model_engaged_with_two_units_selects_one_and_joins_those_attacking_it() -> None:
    """Brawlers at x = 10, 12, 14; Left's model at (11, 11.5) is 0.54" from a.1 and a.2
    (2.09" from a.3), Right's at (13, 11.5) 0.54" from a.2 and a.3. a.1 may target
    Left only, a.3 Right only; a.2 either: the player is asked for it alone and picks
    Right. Left takes 2 attacks (a.1), Right 4 (a.2 and a.3 in one group). Dice 1s."""
    a, left, right = _brawlers_between(3, (11, 11.5), (13, 11.5))
    fight_ = battle(
        [a, left, right], dice=[1] * 6, controllers={"A": script(("target", "Right [r]"))}
    )
    fight(game(fight_), a)
    blows = [(e.target, e.attacks) for e in events(fight_, AttacksResolved)]
    assert blows == [("Left [l]", 2), ("Right [r]", 4)]
    [asked] = [d for d in fight_.log.of_kind("decision")]
    assert "Right [r]" in asked.text


def test_the_whole_game_example_plays_every_phase_for_three_turns() -> None:
    """examples/core11_whole_game.toml: Command, Movement, Shooting, Charge and Fight
    for both players in each of three turns, the AI on both sides. Seed 4: the Boyz
    charge home (on seed 1, since the twenty-first session's AI shoots them with
    Saturation and Frag, too few are left to win a fight, and they do not charge)."""
    ready = prepare(load_scenario(WHOLE_GAME), str(WHOLE_GAME), seed=4)
    play(ready.battle, ready.ruleset, ready.plan)
    begun = [(e.turn, e.phase) for e in events(ready.battle, PhaseChanged) if e.begins]
    for turn in (1, 2, 3):
        for phase in ("command", "movement", "shooting", "charge", "fight"):
            assert begun.count((turn, phase)) == 2
    assert any(e.succeeded for e in events(ready.battle, ChargeResolved))
    assert events(ready.battle, FightSelected)


def test_a_tool_adds_up_each_players_command_points_from_the_log() -> None:
    """Code review s23, finding 3: the log gave CP gained (08.02) with a total, but Fire
    Overwatch's 1CP only as prose, so the next gain's total did not follow from the
    ones before. Summing each player's `command-points` gains and
    `command-points-spent` costs from 0 (no CP before the first Command phase) must
    give every event's total; seed 1 of the whole-game example spends CP."""
    ready = prepare(load_scenario(WHOLE_GAME), str(WHOLE_GAME), seed=1)
    play(ready.battle, ready.ruleset, ready.plan)
    held: dict[str, int] = {}
    spent = 0
    for event in ready.battle.log.events:
        if isinstance(event, CommandPointsGained):
            held[event.player] = held.get(event.player, 0) + event.gained
        elif isinstance(event, CommandPointsSpent):
            held[event.player] = held.get(event.player, 0) - event.spent
            spent += 1
        else:
            continue
        assert held[event.player] == event.total, event
    assert spent
    state = ready.battle.state
    assert isinstance(state, Core11Game) and held == state.command_points


def test_the_lab_runs_on_the_whole_game_example() -> None:
    args = ["lab", str(WHOLE_GAME), "--rule", "cover_effect=improve_save", "--runs", "2"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["runs"] == 2


def test_fire_overwatch_is_offered_when_an_enemy_ends_a_move_and_only_once_per_turn() -> None:
    """WHEN: "when an enemy unit [...] ends a Normal, Advance or Fall Back move, or
    declares a charge"; "You can only use this Stratagem once per turn." B declines
    after A's move (the AI keeps the CP for a charge), then uses it when A declares a
    charge; with 2CP, its second unit is not offered it again in the turn."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes", weapons=[gun(attacks="1")]), "B", (10, 30))
    c = place("c", sheet("Others", weapons=[gun(attacks="1")]), "B", (20, 30))
    fight_ = battle([a, b, c], dice=[1, 1, 1, 1])
    state = game(fight_)
    state.command_points = {"A": 0, "B": 2}
    install_overwatch(state)
    fight_.controllers["B"] = Core11AI()
    fight_.controllers["A"] = script(("move-type", "normal"), ("heading", "Foes [b]"))
    move_with(state, a)
    asked = [d for d in fight_.log.of_kind("decision") if "overwatch" in d.text]
    assert len(asked) == 2 and state.command_points["B"] == 2
    charge_with(state, a)
    assert state.command_points["B"] == 1
    shots = events(fight_, AttacksResolved)
    assert [(s.unit, s.attacks, s.hits) for s in shots] == [("Foes [b]", 1, 0)]


def test_the_ai_fires_overwatch_at_a_move_when_no_charge_phase_is_left_to_keep_it_for() -> None:
    """The same move as above, in a game whose turns play Movement and Shooting
    phases only (the scenario's plan, ``editions/schedule.py``): no charge can come
    this turn, so B uses its command point on the mover (one attack, a 1: no hit)."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes", weapons=[gun(attacks="1")]), "B", (10, 30))
    fight_ = battle([a, b], dice=[1, 1, 1, 1])
    record_schedule(fight_, Schedule(1, ("movement", "shooting"), ("A", "B")))
    state = game(fight_)
    state.command_points = {"A": 0, "B": 1}
    install_overwatch(state)
    fight_.controllers["B"] = Core11AI()
    fight_.controllers["A"] = script(("move-type", "normal"), ("heading", "Foes [b]"))
    move_with(state, a)
    assert state.command_points["B"] == 0
    shots = events(fight_, AttacksResolved)
    assert [(s.unit, s.attacks, s.hits) for s in shots] == [("Foes [b]", 1, 0)]


def test_01_07_a_battle_shocked_unit_is_not_targeted_by_stratagems_nor_falls_back() -> None:
    """01.07: while battle-shocked, "Its controlling player cannot target that unit with
    stratagems (15)."; 09.07 Ordered Retreat only "If your unit is not battle-shocked"
    (Desperate Escape not modelled). Actions (16) are not modelled at all."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes", weapons=[gun()]), "B", (10, 18))
    fight_ = battle([a, b], dice=[3, 4])
    state = game(fight_)
    state.command_points = {"A": 0, "B": 1}
    state.battle_shocked = {"b", "a"}
    install_overwatch(state)
    charge_with(state, a)
    assert state.command_points["B"] == 1 and not events(fight_, AttacksResolved)
    assert is_engaged(fight_, a)
    assert not fall_back_eligible(state, a)
    state.battle_shocked.clear()
    assert fall_back_eligible(state, a)


def test_12_06_an_unengaged_unit_that_charged_makes_an_overrun_fight_with_a_pile_in() -> None:
    """12.04: a unit that "made a charge move this turn" is eligible to fight; unengaged,
    its only fight type is 12.06 Overrun Fight: "one additional pile-in move, then
    fights". Gap 4.5 - 1.26 = 3.24" (within 5"): the full 3" leaves 0.24" (engaged);
    its one attack misses (hit roll 1), then the enemy, now engaged, fights back."""
    a = place("a", sheet("Squad", weapons=[blade()]), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 14.5))
    fight_ = battle([a, b], dice=[1])
    state = game(fight_)
    a.status.charged = True
    fight_step(state)
    assert a.models[0].position == pytest.approx((10, 13))
    chosen = [(e.unit, e.fight_type) for e in events(fight_, FightSelected)]
    assert chosen == [("Squad [a]", "overrun"), ("Foes [b]", "normal")]
    assert [(e.attacks, e.hits) for e in events(fight_, AttacksResolved)] == [(1, 0)]


def test_the_ai_charges_with_the_unit_that_expects_to_win_the_fight() -> None:
    """By hand, Boyz into Intercessors (T5 Sv3+ W2, 10 wounds): nine Choppas, 27
    attacks, each 2/3 hit x 1/2 wound (S5 v T5) x 1/2 unsaved (Sv 3+ at AP-1) = 1/6
    a wound of 1 damage, of which no more than 10 count (the squad's wounds); and
    the Kustom Choppa 3 x 2/3 x 1/2 x 2/3 (AP-2) unsaved wounds of D2, each slaying
    one fresh W2 model: 4/3. Back, five Knives and Fists into Boyz (Sv5+, ten
    models, nine Boys of 1 wound read for all, 9 + 3 = 12 wounds left): 15 attacks,
    each 2/3 x 1/2 x 2/3 = 2/9, no more than ten models slain. The Boyz charge;
    the Intercessors do not."""
    boyz = library_unit("boyz", "Boyz", "A", (10, 10))
    marines = library_unit("marines", "Intercessor Squad", "B", (10, 30))
    fight_ = battle([boyz, marines])
    game(fight_)

    def capped(attacks: int, p: float, most: int) -> float:  # Σ min(k, most) P(k hits)
        return sum(
            min(k, most) * comb(attacks, k) * p**k * (1 - p) ** (attacks - k)
            for k in range(attacks + 1)
        )

    boyz_take = capped(27, 1 / 6, 10) + 4 / 3
    assert boyz_take < 27 / 6 + 4 / 3  # a wound past the tenth finds no model
    assert melee_share(fight_, boyz, marines, True) == pytest.approx(boyz_take / 10)
    assert melee_share(fight_, marines, boyz, False) == pytest.approx(capped(15, 2 / 9, 10) / 12)
    for unit, expected in ((boyz, 0), (marines, 1)):
        choices = (Choice(unit.label, unit), Choice("done", None))
        decision = Decision("charger", unit.player, "charge?", choices)
        assert Core11AI().choose(fight_, decision) == expected


def test_12_08_engaging_consolidation_ends_engaged_and_the_enemy_then_fights() -> None:
    """Unengaged, within 3" of an enemy (gap 3.76 - 1.26 = 2.5"): Engaging Consolidation,
    "Your unit must be engaged with all of the selected enemy units"; in 0.075" steps,
    33 steps (2.475") end 0.025" away. Then "If one or more enemy units engaged with
    your unit have not been selected to fight this phase, your opponent must select each
    of those units [...] it becomes eligible to fight and is selected to fight"."""
    a = place("a", sheet("Squad"), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 13.76))
    fight_ = battle([a, b])
    state = game(fight_)
    consolidate_step(state, FightStep(selected={"a"}, was_eligible={"a"}))
    assert a.models[0].position == pytest.approx((10, 12.475))
    assert [(e.unit, e.fight_type) for e in events(fight_, FightSelected)] == [
        ("Foes [b]", "normal")
    ]


def test_a_model_out_of_engagement_range_is_reported_so_not_out_of_sight() -> None:
    """A referee's review: a melee weapon none of whose models may fight was reported
    with the shooting words "no model in range and sight"; melee needs engagement
    range (2") alone. The Sergeant (blade) stands 4 - 1.26 = 2.74" from the enemy,
    the trooper (fists) 2.5 - 1.26 = 1.24": the unit is engaged, the blade strikes no
    blow and says why. Since review s24 (core11 1) a model's melee target is a unit it
    is engaged with, so the blade gets no target and the line names none."""
    profile = sheet("Squad").entries[0].profile
    fists = Weapon("fists", {"Range": "Melee", "A": "1", "WS": "3+", "S": "4", "AP": "0", "D": "1"})
    entries = (ModelEntry(profile, 1, (blade(),), 32.0), ModelEntry(profile, 1, (fists,), 32.0))
    two = Datasheet("Squad", "test", "core11", entries, keywords=frozenset({"INFANTRY"}))
    a = place("a", two, "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (14, 10))
    fight_ = battle([a, b], dice=[1])
    fight(game(fight_), a)
    # typed, not prose (review s24, code 3)
    assert events(fight_, BatteryUnresolved) == [
        BatteryUnresolved("Squad [a]", "blade", None, "none_engaged", True)
    ]
