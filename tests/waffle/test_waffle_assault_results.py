"""Seeds 001/002, Determine Assault Results: the combat result, Morale with the
difference as a penalty, Sweeping Advances, multiple combats, Fall Back, Pile
In and Consolidate.

Every battle is A's turn; A (south edge) stands on y = 20, B (north edge) on
y = 21 (``fight_kit``). Marines: WS4 S4 T4 I4 Ld8 3+; Guardsmen: WS3 S3 T3 I3
Ld7 5+. A Marine hits a Guardsman on 3+ (chart row 4, column 3) and wounds on
3+ (S4 v T3); a Guardsman hits a Marine on 4+ (row 3, column 4).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from conftest import (
    A,
    B,
    alive_ids,
    all_dice_used,
    asked,
    dice_purposes,
    make_battle,
    model,
    of_kind,
    profile,
    squad,
)
from fight_kit import CHAINSWORD, GUARD, MARINE, north, south
from test_waffle_vehicles import LEMAN_RUSS, vehicle_unit

from hammerlab.editions.waffle.assault_results import combat_result, consolidate, pile_in
from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.special_rules import sweep_bar
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

HOLD = ("move", "hold")
SWEEP = ("sweeping_advance", "Sweeping Advance")
NO_SWEEP = ("sweeping_advance", "no Sweeping Advance")


def morale_tests(battle: Battle) -> list[tuple[str, int, int, bool]]:
    """(unit, modifier, roll, passed) of each Morale check."""
    return [(e.unit, e.modifier, e.roll, e.passed) for e in of_kind(battle, "morale")]


def close(point: tuple[float, float], expected: tuple[float, float]) -> bool:
    return math.isclose(point[0], expected[0], abs_tol=1e-3) and math.isclose(
        point[1], expected[1], abs_tol=1e-3
    )


# A wins 2-0: two Marines against three Guardsmen, all touching.
TWO_NIL = [
    *[3, 3],  # I4: both Marines hit (3+)
    *[3, 3],  # both wound (3+)
    *[1, 1],  # both 5+ saves fail: b.1 and b.2 (closest, in unit order) die
    1,  # I3: b.3 misses (4+)
]


def two_nil(rules: tuple[str, ...] = ()) -> tuple[Unit, Unit]:
    marines = squad("a", A, MARINE, [CHAINSWORD], south([10, 11]), name="Marines")
    # b.1 and b.2 face the Marines; b.3 stands beside a.2 on its row.
    guards = squad(
        "b", B, GUARD, [CHAINSWORD], [(10, 21), (11, 21), (12, 20)], name="Guard", rules=rules
    )
    return marines, guards


def test_seed001_combat_result_loser_tests_morale_at_minus_the_difference() -> None:
    marines, guards = two_nil()
    battle = make_battle(
        marines,
        guards,
        dice=[
            *TWO_NIL,
            *[3, 3],  # Morale: Ld 7 - 2 = 5; 6 fails (it would pass at Ld 7)
            *[2, 2],  # no sweep; Guard fall back 2D6 = 4" toward the north edge
            2,  # Marines, with no enemy left in the combat, consolidate D6 ...
        ],
        script_a=[NO_SWEEP, HOLD],  # ... and hold
    )
    fight_sub_phase(battle, A)
    result = of_kind(battle, "combat_result")[0]
    assert (result.scores, result.winner, result.difference) == ({A: 2, B: 0}, A, 2)
    assert morale_tests(battle) == [("Guard [b]", -2, 6, False)]
    assert st(battle, guards).falling_back
    assert close(model(battle, "b.3").position, (12, 24))  # straight north 4"
    assert not st(battle, guards).locked_in_combat and not st(battle, marines).locked_in_combat
    assert all_dice_used(battle)


def test_seed004_fiery_charge_casualties_count_for_the_combat_result() -> None:
    marines = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marines")
    guards = squad("b", B, GUARD, [CHAINSWORD], north([10]), name="Guard")
    battle = make_battle(
        marines,
        guards,
        dice=[1, 1, *[3, 3]],  # both blows miss; A wins 1-0; Ld 7 - 1 = 6: 6 passes
    )
    st(battle, marines).combat_score = 1  # a Fiery Charge casualty, left by the charge
    fight_sub_phase(battle, A)
    assert of_kind(battle, "combat_result")[0].scores == {A: 1, B: 0}
    assert morale_tests(battle) == [("Guard [b]", -1, 6, True)]
    assert all_dice_used(battle)


def test_seed001_a_draw_has_no_morale_check() -> None:
    marines = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marines")
    guards = squad("b", B, GUARD, [CHAINSWORD], north([10]), name="Guard")
    battle = make_battle(marines, guards, dice=[1, 1])  # both miss: 0-0
    fight_sub_phase(battle, A)
    assert of_kind(battle, "combat_result")[0].winner == ""
    assert of_kind(battle, "morale") == []
    assert st(battle, marines).locked_in_combat and st(battle, guards).locked_in_combat
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("rules", "after", "tests"),
    [
        (("Fearless",), [], []),  # passes without a roll
        (("Stubborn",), [3, 4], [("Guard [b]", 0, 7, True)]),  # ignores the -2: 7 <= 7
    ],
)
def test_seed001_fearless_and_stubborn_in_close_combat(
    rules: tuple[str, ...], after: list[int], tests: list[tuple[str, int, int, bool]]
) -> None:
    marines, guards = two_nil(rules)
    battle = make_battle(marines, guards, dice=[*TWO_NIL, *after])
    fight_sub_phase(battle, A)
    assert morale_tests(battle) == tests
    assert not st(battle, guards).falling_back
    # The combat goes on: a.1, no longer touching an enemy (b.1 died), Piles In
    # to b.3 at (12, 20). The point touching b.3 on the line from it, (11, 20),
    # is a.2's; the first free one is 60 degrees round: (12 + cos 240°, 20 + sin 240°).
    moves = of_kind(battle, "move")
    assert [(m.model, m.reason) for m in moves] == [("a.1", "piles in")]
    assert close(moves[0].end, (11.5, 20 - math.sqrt(3) / 2))
    assert all_dice_used(battle)


# --- Sweeping Advances -------------------------------------------------------------------

# A wins 3-0: three Marines kill b.1-b.3; b.4-b.6 are left.
THREE_NIL = [
    *[3, 3, 3],  # I4: three hits
    *[3, 3, 3],  # three wounds
    *[1, 1, 1],  # three failed saves
    *[1, 1, 1],  # I3: b.4-b.6 miss
    *[3, 3],  # Morale: Ld 7 - 3 = 4; 6 fails
]


def three_nil() -> tuple[Unit, Unit]:
    marines = squad("a", A, MARINE, [CHAINSWORD], south([10, 11, 12]), name="Marines")
    guards = squad(
        "b",
        B,
        GUARD,
        [CHAINSWORD],
        [(10, 21), (11, 21), (12, 21), (13, 20), (14, 20), (14, 21)],
        name="Guard",
    )
    return marines, guards


def test_seed001_sweeping_advance_equal_totals_catch_one_hit_per_winning_model() -> None:
    marines, guards = three_nil()
    battle = make_battle(
        marines,
        guards,
        dice=[
            *THREE_NIL,
            5,  # the Guard roll 5 + I3 = 8
            4,  # the Marines roll 4 + I4 = 8: "equal to or greater": caught
            *[1, 3, 1],  # a.1's hit: D3 picks b.4 (1st of 3); wounds; no save: b.4 dies
            *[2, 3, 5],  # a.2's hit: D2 picks b.6 (2nd of b.5, b.6); wounds; saved (5+)
            *[1, 1],  # a.3's hit: D2 picks b.5; fails to wound
            *[1, 1],  # b.5 and b.6 Fall Back 2" north
            1,  # the Marines consolidate D6
        ],
        script_a=[SWEEP, HOLD],
    )
    fight_sub_phase(battle, A)
    sweep = of_kind(battle, "sweeping_advance")[0]
    assert (sweep.total, sweep.fleeing_total, sweep.caught) == (8, 8, True)
    # "Each model in the winning squad automatically inflicts a … hit": 3 hits.
    after: list[Any] = battle.log.events[battle.log.events.index(sweep) :]
    assert [e.hits for e in after if e.kind == "wounds"] == [1, 1, 1]
    picks = [e.sides for e in after if e.kind == "dice" and e.purpose.startswith("random")]
    assert picks == [3, 2, 2]
    assert alive_ids(guards) == ["b.5", "b.6"]
    assert close(model(battle, "b.5").position, (14, 22))
    assert close(model(battle, "b.6").position, (14, 23))
    assert all_dice_used(battle)


def test_seed001_sweeping_advance_higher_fleeing_total_breaks_off() -> None:
    marines, guards = three_nil()
    battle = make_battle(
        marines,
        guards,
        dice=[
            *THREE_NIL,
            6,  # the Guard: 6 + 3 = 9
            4,  # the Marines: 4 + 4 = 8: the Guard break off, no hits
            *[1, 1],  # Fall Back 2" north
            1,  # consolidate
        ],
        script_a=[SWEEP, HOLD],
    )
    fight_sub_phase(battle, A)
    sweep = of_kind(battle, "sweeping_advance")[0]
    assert (sweep.total, sweep.fleeing_total, sweep.caught) == (8, 9, False)
    after = battle.log.events[battle.log.events.index(sweep) :]
    assert [e for e in after if e.kind in ("wounds", "wound")] == []
    assert alive_ids(guards) == ["b.4", "b.5", "b.6"]
    assert [model(battle, f"b.{n}").position[1] for n in (4, 5, 6)] == [22, 22, 23]
    assert all_dice_used(battle)


def test_a_unit_in_terminator_armour_may_not_make_a_sweeping_advance() -> None:
    # "models in Terminator Armour ... may not make Sweeping Advances" (the wargear's
    # text in the Space Marines catalogue). The same fight as above, the Marines in
    # Terminator Armour: the Guard fall back and nobody is asked about, or rolls for, a
    # Sweeping Advance; the Guard's Fall Back follows at once.
    marines, guards = three_nil()
    terminators = squad(
        "a", A, MARINE, [CHAINSWORD], south([10, 11, 12]), name="Marines",
        rules=("Terminator Armour",),
    )  # fmt: skip
    battle = make_battle(
        terminators,
        guards,
        dice=[*THREE_NIL, *[1, 1], 1],  # Fall Back 2" north; consolidate
        script_a=[HOLD],
    )
    fight_sub_phase(battle, A)
    assert of_kind(battle, "sweeping_advance") == []
    # the log says why: the Marines are the one winning unit, barred by their armour
    barred = [(e.unit, e.rule) for e in of_kind(battle, "sweep_barred")]
    assert barred == [("Marines [a]", "Terminator Armour")]
    assert not any(p.startswith("Sweeping Advance") for p in dice_purposes(battle))
    assert asked(battle, A, "sweeping_advance") == []
    assert alive_ids(guards) == ["b.4", "b.5", "b.6"]
    assert all_dice_used(battle)
    assert sweep_bar(marines) is None and sweep_bar(terminators) == "Terminator Armour"


# --- A vehicle without a Weapon Skill in the combat ---------------------------------------

HULL_TOUCHING = 0.5 + 100.0 / 2 / 25.4
"""Centre to centre, a 1" base touching a Leman Russ's 100 mm hull: 0.5 + 1.9685"."""


def test_a_winner_touching_an_enemy_tank_sweeps_the_unit_that_fled() -> None:
    # Seed 002: "winning units can only Sweeping Advance if all of the units they were
    # locked in combat with Fall Back or are wiped out"; 7th edition: "vehicles without
    # a Weapon Skill are never locked in combat" (docs/rules/waffle.md, Vehicles 9). The
    # Marine a.1 (30, 20) touches the Guardsman b.1 (30, 21) and the Russ, whose hull
    # centre is 2.4685" east of it. A wins 1-0 (a Fiery Charge casualty, left by the
    # charge; every blow misses); the Guard fail Morale and fall back. The Russ stays,
    # but the Marines were never locked with it: they are free and are asked to sweep.
    marines = squad("a", A, MARINE, [CHAINSWORD], [(30, 20)], name="Marines")
    guards = squad("b", B, GUARD, [CHAINSWORD], [(30, 21)], name="Guard")
    russ = vehicle_unit("russ", B, LEMAN_RUSS, (30 + HULL_TOUCHING, 20))
    battle = make_battle(
        marines,
        guards,
        russ,
        dice=[
            1,  # I4: a.1 misses b.1 (3+: WS4 v WS3)
            1,  # I3: b.1 misses a.1 (4+); the Russ strikes no blow
            *[6, 6],  # Morale: Ld 7 - 1 = 6; 12 fails
            1,  # the Guard roll 1 + I3 = 4
            1,  # the Marines roll 1 + I4 = 5: caught
            1,  # a.1's one hit on b.1 (the only model: no pick) fails to wound (3+)
            *[2, 2],  # the Guard fall back 4" north
        ],  # a.1 still touches the Russ: nothing of it out of contact to Pile In
        script_a=[("melee_target", "Guard [b]"), SWEEP],
    )
    st(battle, marines).combat_score = 1
    fight_sub_phase(battle, A)
    sweeps = [(s.unit, s.fleeing, s.total, s.fleeing_total, s.caught)
              for s in of_kind(battle, "sweeping_advance")]  # fmt: skip
    assert sweeps == [("Marines [a]", "Guard [b]", 5, 4, True)]
    assert [d.context.unit for d in asked(battle, A, "sweeping_advance")] == ["a"]
    assert close(model(battle, "b.1").position, (30, 25))
    assert all_dice_used(battle)


def test_a_tank_on_the_winning_side_neither_sweeps_nor_consolidates() -> None:
    # The Russ (A) touches the Guardsman b.1 (30, 21) from the east, the Marine a.1
    # (30, 20) touches him from the south. A wins 1-0 as above; the Guard fall back. A
    # vehicle without a Weapon Skill was never locked in combat (so it is never "free
    # to make a Sweeping Advance") and has no Initiative to add; nor did it fight: it
    # makes no Consolidation. Only the Marines are asked, roll and consolidate.
    marines = squad("a", A, MARINE, [CHAINSWORD], [(30, 20)], name="Marines")
    russ = vehicle_unit("russ", A, LEMAN_RUSS, (30 + HULL_TOUCHING, 21))
    guards = squad("b", B, GUARD, [CHAINSWORD], [(30, 21)], name="Guard")
    battle = make_battle(
        marines,
        russ,
        guards,
        dice=[
            1,  # I4: a.1 misses b.1
            1,  # I3: b.1 misses a.1
            *[6, 6],  # Morale: 12 fails
            1,  # the Guard roll 1 + 3 = 4
            1,  # the Marines roll 1 + 4 = 5: caught
            1,  # the hit fails to wound
            *[2, 2],  # the Guard fall back 4" north
            3,  # the Marines, with no enemy left, consolidate D6 (and hold)
        ],
        script_a=[SWEEP, HOLD],
        script_b=[("melee_target", "Marines [a]")],
    )
    st(battle, marines).combat_score = 1
    fight_sub_phase(battle, A)
    assert [d.context.unit for d in asked(battle, A, "sweeping_advance")] == ["a"]
    assert [s.unit for s in of_kind(battle, "sweeping_advance")] == ["Marines [a]"]
    rolled = [p for p in dice_purposes(battle) if "Sweeping" in p or "consolidate" in p]
    assert rolled == [
        "Sweeping Advance (Guard [b], +I3)",
        "Sweeping Advance (Marines [a], +I4)",
        "consolidate distance (Marines [a])",
    ]
    assert [m.unit for m in of_kind(battle, "move") if m.reason != "falls back"] == []
    assert russ.models[0].position == (30 + HULL_TOUCHING, 21)
    assert all_dice_used(battle)


# --- Multiple combats ----------------------------------------------------------------------


def multiple_combat() -> tuple[Unit, Unit, Unit, Unit]:
    """X (a.k.a. unit x) touches P; Y touches P with y.1 and Q with y.2.

    x.1 (10, 20) touches p.1 (10, 21) and p.3 (9, 20); y.1 (13, 20) touches
    p.2 (13, 21); y.2 (20, 20) touches q.1 (20, 21); q.2 (21, 22) is within 2"
    of q.1. y.1 and y.2 are 7" apart: each attacks only the unit it touches.
    """
    x = squad("x", A, MARINE, [CHAINSWORD], [(10, 20)], name="X")
    y = squad("y", A, MARINE, [CHAINSWORD], [(13, 20), (20, 20)], name="Y")
    p = squad("p", B, GUARD, [CHAINSWORD], [(10, 21), (13, 21), (9, 20)], name="P")
    q = squad("q", B, GUARD, [CHAINSWORD], [(20, 21), (21, 22)], name="Q")
    return x, y, p, q


# A wins 2-0 in total; both B units test at -2 (Ld 7 - 2 = 5).
MULTIPLE_FIGHT = [
    *[3, 3, 1],  # I4: x.1 hits, wounds, p's save fails: p.1 dies
    *[3, 3, 1],  # y.1 hits, wounds, the save fails: p.2 (closest to Y) dies
    1,  # y.2 misses q
    1,  # I3: p.3 misses x.1
    *[1, 1],  # q.1 and q.2 miss Y
]


def test_seed002_multiple_combat_shared_penalty_and_only_free_units_sweep() -> None:
    x, y, p, q = multiple_combat()
    battle = make_battle(
        x,
        y,
        p,
        q,
        dice=[
            *MULTIPLE_FIGHT,
            *[3, 3],  # P: 6 > 5, fails
            *[1, 2],  # Q: 3 <= 5, passes
            2,  # P rolls 2 + 3 = 5 against X (free: its only foe, P, fell back) ...
            1,  # ... X rolls 1 + 4 = 5: caught. Y is not free (Q stays): no sweep.
            *[6, 1],  # X's one hit on p.3 (the only model: no pick): wounds; no save
            2,  # X, with no enemy left, consolidates D6
        ],
        script_a=[SWEEP, HOLD],
    )
    fight_sub_phase(battle, A)
    assert of_kind(battle, "combat_result")[0].scores == {A: 2, B: 0}
    # "they all use the same penalty"
    assert morale_tests(battle) == [("P [p]", -2, 6, False), ("Q [q]", -2, 3, True)]
    assert [d.context.unit for d in asked(battle, A, "sweeping_advance")] == ["x"]
    assert [(s.unit, s.fleeing) for s in of_kind(battle, "sweeping_advance")] == [
        ("X [x]", "P [p]")
    ]
    assert p.destroyed
    # Y and Q still touch: their models out of contact Pile In. y.1 cannot reach
    # q.1 (6.07" away): 3" straight at it, from (13, 20) toward (20, 21).
    moves = {m.model: m for m in of_kind(battle, "move")}
    assert close(moves["y.1"].end, (13 + 21 / math.sqrt(50), 20 + 3 / math.sqrt(50)))
    # q.2 reaches y.2: around y.2 the points within 60° of q.1 (above it) overlap
    # q.1, so it takes the first one 35° off its line (63.4° - 35° = 28.4°).
    angle = math.atan2(2, 1) - math.radians(35)
    assert close(moves["q.2"].end, (20 + math.cos(angle), 20 + math.sin(angle)))
    assert all_dice_used(battle)


def test_seed002_multiple_combat_each_sweeper_rolls_once_against_each_fleeing_unit() -> None:
    x, y, p, q = multiple_combat()
    battle = make_battle(
        x,
        y,
        p,
        q,
        dice=[
            *MULTIPLE_FIGHT,
            *[3, 3],  # P fails
            *[4, 4],  # Q fails: X and Y are both free
            6,  # P: 6 + 3 = 9
            6,  # Q: 6 + 3 = 9
            1,  # X: 1 + 4 = 5 < 9: P breaks off from X
            5,  # Y: 5 + 4 = 9, one roll against both: P and Q caught
            *[1, 1],  # Y's two hits on P (p.3 only: no pick): neither wounds
            *[1, 1, 2, 1],  # on Q: y.1's picks q.1, fails; y.2's picks q.2, fails
            *[1, 1],  # P Falls Back 2"
            *[1, 1],  # Q Falls Back 2"
            1,  # X consolidates
            1,  # Y consolidates
        ],
        script_a=[SWEEP, SWEEP, HOLD, HOLD],
    )
    fight_sub_phase(battle, A)
    sweeps = [(s.unit, s.fleeing, s.caught) for s in of_kind(battle, "sweeping_advance")]
    assert sweeps == [("X [x]", "P [p]", False), ("Y [y]", "P [p]", True), ("Y [y]", "Q [q]", True)]
    assert sum(p.startswith("Sweeping Advance (Y") for p in dice_purposes(battle)) == 1
    assert st(battle, p).falling_back and st(battle, q).falling_back
    assert all_dice_used(battle)


# --- Pile In and Consolidate ---------------------------------------------------------------


def test_seed001_pile_in_at_the_initiative_step_then_after_the_result() -> None:
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marine")
    # b.2 stands 2.5" behind b.1: not engaged (more than 2" from a friend in contact).
    guards = squad("b", B, GUARD, [CHAINSWORD], [(10, 21), (10, 24.5)], name="Guard")
    battle = make_battle(
        marine,
        guards,
        dice=[
            1,  # I4: the Marine misses
            *[1, 1],  # I3: b.2 has Piled In and is engaged: b.1 and b.2 miss
        ],
    )
    fight_sub_phase(battle, A)
    moves = [(m.model, m.reason, m.start, m.end) for m in of_kind(battle, "move")]
    # At I3, before blows, b.2 Piles In 3" toward a.1: the contact point is 3.5"
    # away and (10, 21.5) would overlap b.1, so it stops at the first free tenth
    # of its 3": 2.4", at (10, 22.1), now 0.1" from b.1, so engaged.
    assert moves[0][:3] == ("b.2", "piles in", (10, 24.5))
    assert close(moves[0][3], (10, 22.1))
    assert of_kind(battle, "blows")[1].models == 2
    # A draw: the combat goes on and b.2, out of base contact, Piles In again:
    # round a.1, clear of b.1 (straight above it) only 60° off: 150°.
    assert moves[1][:2] == ("b.2", "piles in")
    assert close(moves[1][3], (10 - math.sqrt(3) / 2, 20.5))
    assert all_dice_used(battle)


def test_pile_in_moves_come_under_their_own_initiative_steps_heading() -> None:
    # Interpretation 5: "at the start of each Initiative step, models of that
    # Initiative not engaged move" — so the log heads them with their step, even a
    # step where no blow is struck (a reader took I2 Boyz' pile-ins, printed before
    # the "Initiative step 2" heading, for part of step 4). I4: the Marine hits (3),
    # wounds (3: S4 v T3) and b.1's 5+ save fails (1): b.1 dies. I3: b.2, 4.5" from
    # a.1 centre to centre, Piles In 3" (contact would need 3.5") and ends out of
    # contact: it strikes no blow, but its step has a heading. Then A wins 1-0; the
    # Guard pass Morale (2 <= 7 - 1).
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marine")
    guards = squad("b", B, GUARD, [CHAINSWORD], [(10, 21), (10, 24.5)], name="Guard")
    battle = make_battle(marine, guards, dice=[3, 3, 1, 1, 1])
    fight_sub_phase(battle, A)
    told: list[tuple[str, str]] = []
    for event in battle.log.events:
        if event.kind == "combat_result":
            break
        if event.kind == "initiative_step":
            told.append(("heading", event.step))
        elif event.kind == "blows":
            told.append(("blows", event.initiative))
        elif event.kind == "move":
            told.append(("move", (event.model, event.reason)))
    assert told == [
        ("heading", 4),
        ("blows", 4),
        ("heading", 3),
        ("move", ("b.2", "piles in")),
    ]
    assert of_kind(battle, "initiative_step")[0].text == "Initiative step 4"
    assert all_dice_used(battle)


def test_a_pile_in_keeps_1_inch_from_an_enemy_unit_outside_the_combat() -> None:
    # As in the test above, b.2 Piles In toward a.1; an Ultramarine unit c, in no
    # combat, stands beside the spot (10, 22.1) it reached there (0.5" from its
    # base). A pile-in brings no other unit into the fight: as a charging model, a
    # piling-in model may not end within 1" of an enemy unit that is not in the combat
    # (a player's review found a Genestealer piled in 0.5" from a Tactical Squad).
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marine")
    guards = squad("b", B, GUARD, [CHAINSWORD], [(10, 21), (10, 24.5)], name="Guard")
    bystander = squad("c", A, MARINE, [CHAINSWORD], [(11.5, 22.1)], name="Bystander")
    battle = make_battle(marine, guards, bystander, dice=[1] * 6)
    fight_sub_phase(battle, A)
    moves = [m for m in of_kind(battle, "move") if m.model == "b.2"]
    assert moves and moves[0].reason == "piles in"
    c1 = model(battle, "c.1")
    for move in moves:
        gap = math.dist(move.end, c1.position) - 2 * c1.radius
        assert gap >= 1.0 - 1e-9


def test_a_pile_in_goes_round_a_friendly_model_in_its_way() -> None:
    """7th edition: Pile In moves "follow the same rules as charge moves" (2014
    rulebook, as forums quote it), whose models "cannot move through friendly or
    enemy models": they go round them. a.1 at (28, 20) stands behind f.1 (29, 20),
    a model of another of A's units touching b.1 (30, 20). Straight toward b.1 it
    cannot move at all (it touches f.1), and before session 24 it stayed put. Spots on
    b.1 within 60° of due west overlap f.1 (a chord under 1"); the first free one,
    on the +5° side tried first, is 240°, touching f.1, where f.1's 1" circle (the
    centres a.1 may not come within) meets b.1's. a.1 stands on f.1's circle at 180°,
    so its way round f.1 to 300° on that circle is an arc of 120°: 2.09" <= 3"."""
    piler = squad("a", A, MARINE, [CHAINSWORD], [(28, 20)], name="Piler")
    friend = squad("f", A, MARINE, [CHAINSWORD], [(29, 20)], name="Friend")
    guard = squad("b", B, GUARD, [CHAINSWORD], [(30, 20)], name="Guard")
    battle = make_battle(piler, friend, guard)
    pile_in(battle, piler, piler.alive_models, [guard])
    turn = math.radians(240)
    assert model(battle, "a.1").position == pytest.approx(
        (30 + math.cos(turn), 20 + math.sin(turn))
    )
    (move,) = of_kind(battle, "move")
    assert (move.model, move.reason) == ("a.1", "piles in")


@pytest.mark.parametrize(
    ("roll", "end_y"),
    [
        (3, 23.0),  # 3" straight toward the other enemy unit at (10, 26)
        # 6" would touch it; 1" short of its base is y = 24; the tenths of the
        # 6" vector reach 23.6 (0.6 x 6), the last clear of that 1".
        (6, 23.6),
    ],
)
def test_seed001_consolidate_d6_not_into_base_contact(roll: int, end_y: float) -> None:
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marine")
    victim = squad("b", B, profile("Dummy", i=1, sv="-"), [CHAINSWORD], north([10]))
    other = squad("c", B, GUARD, [CHAINSWORD], [(10, 26)], name="Other")
    battle = make_battle(
        marine,
        victim,
        other,
        dice=[4, 4, roll],  # hit, wound: b.1 dies; A consolidates D6
        script_a=[("move", "advance")],
    )
    fight_sub_phase(battle, A)
    move = of_kind(battle, "move")[0]
    assert (move.model, move.reason) == ("a.1", "consolidates")
    assert close(move.end, (10, end_y))
    # b.1 is slain: only A's unit is left, the combat is over with no Morale check
    assert [e.winner for e in of_kind(battle, "combat_over")] == [A]
    assert all_dice_used(battle)


def test_a_consolidating_model_stops_short_of_a_base_in_its_way() -> None:
    """6th/7th edition: models may not move through other models, in a Consolidation
    too. X at (30, 10) consolidates 6" toward the enemy at (30, 24): the whole move
    would end at (30, 16), free and 8" from the enemy, but the friendly F at
    (30.8, 11.5) stands in the way: a base on the line x = 30 overlaps F's while
    0.64 + (y - 11.5)² < 1, y from 10.9 to 12.1. Of the tenths of the move (0.6"
    each), only the first ends short of that: (30, 10.6)."""
    x = squad("x", A, MARINE, [CHAINSWORD], [(30, 10)], name="X")
    friend = squad("f", A, MARINE, [CHAINSWORD], [(30.8, 11.5)], name="F")
    enemy = squad("e", B, GUARD, [CHAINSWORD], [(30, 24)], name="E")
    battle = make_battle(x, friend, enemy, dice=[6], script_a=[("move", "advance")])
    consolidate(battle, x)
    (move,) = of_kind(battle, "move")
    assert (move.model, move.reason) == ("x.1", "consolidates")
    assert close(move.end, (30, 10.6))
    assert all_dice_used(battle)


def test_a_side_left_alone_wins_on_a_lower_score_and_the_log_says_why() -> None:
    # "A side with no unit left has lost": B scored 2 unsaved wounds to A's 1, but its
    # last model is gone, so A wins with no Morale check for anyone; the line says so
    # rather than "A wins by 0" beside the scores 1 and 2 (found by a player's review).
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]))
    victim = squad("b", B, MARINE, [CHAINSWORD], north([10]))
    battle = make_battle(marine, victim)
    (combat,) = combats(battle)
    st(battle, marine).combat_score = 1
    st(battle, victim).combat_score = 2
    battle.remove_model(victim, victim.models[0], "test")
    outcome = combat_result(battle, combat)
    assert (outcome.winner, outcome.losers) == (A, ())
    (result,) = of_kind(battle, "combat_result")
    assert (result.scores, result.winner, result.difference) == ({A: 1, B: 2}, A, 0)
    assert result.text.endswith(f"{A} 1, {B} 2: {A} wins: the other side has no unit left")
