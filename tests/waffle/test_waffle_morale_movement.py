"""Seed 000 "Run", and the end-of-phase Morale checks, Fall Back, Pinning and Go
to Ground that the Waffle shooting phase takes from the 6th/7th-edition rules.

Run: "Roll a D6 to determine the maximum Run distance for the entire unit …
They may choose to not move after the roll is made, but still count as having
Run. Running movement is not slowed by difficult terrain but models running
through dangerous terrain must test as normal."
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    MARINE,
    A,
    B,
    Placed,
    alive_ids,
    all_dice_used,
    asked,
    box,
    last,
    make_battle,
    make_unit,
    model,
    of_kind,
    profile,
    shooting_phase,
    squad,
    story,
    weapon,
)

from hammerlab.editions.waffle.morale import (
    MORALE_CHECK,
    PINNING_TEST,
    REGROUP_TEST,
    leadership_test,
    morale_check,
    pass_chance,
    pinning_test,
    takes_pinning_test,
    takes_shooting_check,
)
from hammerlab.editions.waffle.movement import dangerous_terrain_tests
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.units import Unit


def run_script(unit: str, where: str) -> list[tuple[str, str]]:
    return [("shooter", unit), ("action", "run"), ("move", where)]


# --- Run ------------------------------------------------------------------------


def test_seed000_run_d6_inches_toward_the_enemy_and_ran_units_cannot_shoot() -> None:
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (32, 10)], name="Runners")
    shooters = squad("c", A, MARINE, [BOLTGUN], [(50, 10)], name="Shooters")
    enemy = squad("b", B, GUARD, [LASGUN], [(31, 40)], name="Enemy")
    battle = make_battle(
        runners,
        shooters,
        enemy,
        dice=[4],  # run 4"
        script_a=[*run_script("Runners [a]", "advance"), ("shooter", "end phase")],
    )
    shooting_phase(battle, A)
    moves = of_kind(battle, "move")
    assert [(m.model, m.start, m.end) for m in moves] == [
        ("a.1", (30, 10), pytest.approx((30, 14))),
        ("a.2", (32, 10), pytest.approx((32, 14))),
    ]
    assert st(battle, runners).ran
    # The unit that ran is not nominated again; the other one is.
    menus = [d.labels() for d in asked(battle, A, "shooter")]
    assert menus == [["Runners [a]", "Shooters [c]", "end phase"], ["Shooters [c]", "end phase"]]
    assert all_dice_used(battle)


def test_seed000_run_counts_as_ran_even_if_not_moving() -> None:
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    battle = make_battle(runners, enemy, dice=[6], script_a=run_script("Runners [a]", "hold"))
    shooting_phase(battle, A)
    assert of_kind(battle, "move") == []
    assert st(battle, runners).ran
    assert model(battle, "a.1").position == (30, 10)
    (menu,) = asked(battle, A, "move")
    assert 'up to 6"' in menu.prompt


def test_seed000_run_not_slowed_by_difficult_terrain() -> None:
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    rubble = box("Rubble", 25, 11, 35, 20, difficult=True)
    battle = make_battle(
        runners, enemy, terrain=[rubble], dice=[5], script_a=run_script("Runners [a]", "advance")
    )
    shooting_phase(battle, A)
    assert model(battle, "a.1").position == pytest.approx((30, 15))


@pytest.mark.parametrize(("first", "then", "inches"), [(2, 5, 5), (4, None, 4)])
def test_seed000_run_fleet_rerolls_a_low_run_distance(
    first: int, then: int | None, inches: int
) -> None:
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Runners", rules=("Fleet",))
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    dice = [first] if then is None else [first, then]
    battle = make_battle(runners, enemy, dice=dice, script_a=run_script("Runners [a]", "advance"))
    shooting_phase(battle, A)
    assert model(battle, "a.1").position == pytest.approx((30, 10 + inches))
    assert all_dice_used(battle)


@pytest.mark.parametrize("why", ["Slow and Purposeful", "gone to ground"])
def test_seed000_run_not_offered_to_units_that_cannot_run(why: str) -> None:
    rules = ("Slow and Purposeful",) if why == "Slow and Purposeful" else ()
    unit = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad", rules=rules)
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    battle = make_battle(unit, enemy, script_a=[("shooter", "Squad [a]"), ("action", "hold")])
    st(battle, unit).gone_to_ground = why == "gone to ground"
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert "run" not in menu.labels()


def test_seed000_run_ending_in_dangerous_terrain_tests_no_armour_save() -> None:
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10), (40, 10)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(35, 40)], name="Enemy")
    swamp = box("Swamp", 28, 8, 32, 12, dangerous=True)  # a.1 stands in it
    battle = make_battle(
        runners,
        enemy,
        terrain=[swamp],
        dice=[
            3,  # run 3" (held)
            1,  # a.1's dangerous terrain test: 1, a wound with no armour save
            *[3, 4],  # 1 of 2 lost this phase: Morale check 7 against Ld 8, passed
        ],
        script_a=run_script("Runners [a]", "hold"),
    )
    shooting_phase(battle, A)
    assert alive_ids(runners) == ["a.2"]
    assert of_kind(battle, "save") == []
    assert last(of_kind(battle, "casualty")).cause == "dangerous terrain"
    assert all_dice_used(battle)


def test_seed000_run_dangerous_terrain_invulnerable_save_allowed() -> None:
    captain = profile("Captain", w=3, inv=4)
    runners = squad("a", A, captain, [BOLTGUN], [(30, 10)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    swamp = box("Swamp", 28, 8, 32, 12, dangerous=True)
    battle = make_battle(
        runners, enemy, terrain=[swamp], dice=[3, 1, 4], script_a=run_script("Runners [a]", "hold")
    )
    shooting_phase(battle, A)
    assert model(battle, "a.1").wounds_left == 3
    assert all_dice_used(battle)


def test_seed000_run_through_dangerous_terrain_must_test() -> None:
    # "models running through dangerous terrain must test as normal": the run goes
    # from (30,10) to (30,16) through a strip of dangerous terrain at y 12..13.
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    strip = box("Razor wire", 25, 12, 35, 13, dangerous=True)
    battle = make_battle(
        runners, enemy, terrain=[strip], dice=[6, 1], script_a=run_script("Runners [a]", "advance")
    )
    shooting_phase(battle, A)
    assert model(battle, "a.1").position == pytest.approx((30, 16))
    assert alive_ids(runners) == []
    assert all_dice_used(battle)


def test_a_table_without_dangerous_terrain_looks_up_no_model_s_areas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The strip of the test above, difficult rather than dangerous, and the runner
    # moved through it from (30, 10) to (30, 16): no model can be in dangerous
    # terrain or have passed through it, so no model is asked where it stands or
    # what it crossed, and no die is rolled.
    runners = squad("a", A, MARINE, [BOLTGUN], [(30, 16)], name="Runners")
    enemy = squad("b", B, GUARD, [LASGUN], [(30, 40)], name="Enemy")
    strip = box("Razor wire", 25, 12, 35, 13, difficult=True)
    battle = make_battle(runners, enemy, terrain=[strip])

    def not_asked(*_args: object) -> list[TerrainArea]:
        raise AssertionError("no model's areas are looked up")

    monkeypatch.setattr(Battlefield, "areas_at", not_asked)
    monkeypatch.setattr(Battlefield, "crossed", not_asked)
    dangerous_terrain_tests(battle, runners, {"a.1": (30.0, 10.0)})
    assert alive_ids(runners) == ["a.1"]
    assert all_dice_used(battle)


# --- Morale checks at the end of the phase ------------------------------------------


@pytest.mark.parametrize(("size", "tests"), [(4, True), (5, False), (8, False)])
def test_seed000_morale_check_at_end_of_phase_for_25_percent_casualties(
    size: int, tests: bool
) -> None:
    # One casualty: 1/4 = 25% tests; 1/5 = 20% and 1/8 = 12.5% do not.
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30 + 2 * k, 30) for k in range(size)], name="Guard")
    dice = [6, 1, 1, 6]  # 1 hit, wounds (S5 v T4 3+); AP4 beats 5+: b.1 dies
    if tests:
        dice += [3, 4]  # 2D6 = 7 against Ld 7: passed
    battle = make_battle(
        shooter,
        guard,
        dice=dice,
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Heavy bolter"),
        ],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    checks = of_kind(battle, "morale")
    if tests:
        (check,) = checks
        assert (check.test, check.leadership, check.roll, check.passed) == (
            "Morale check",
            7,
            7,
            True,
        )
    else:
        assert checks == []
    assert all_dice_used(battle)


def guard_battle(
    dice: list[int], rules: tuple[str, ...] = (), at: tuple[float, float] = (30, 30)
) -> tuple[Battle, Unit]:
    guard = squad("b", B, GUARD, [LASGUN], [at], name="Guard", rules=rules)
    marines = squad("a", A, MARINE, [BOLTGUN], [(30, 4)], name="Squad")
    battle = make_battle(marines, guard, dice=dice)
    start_phase(battle, "shooting", A)
    return battle, guard


def test_seed000_morale_2d6_against_leadership_equal_passes_more_falls_back() -> None:
    battle, guard = guard_battle([3, 4])
    assert morale_check(battle, guard, "test")
    battle, guard = guard_battle([4, 4, 3, 4])  # 8 > 7: fails; falls back 2D6 = 7"
    assert not morale_check(battle, guard, "test")
    assert st(battle, guard).falling_back
    # B's edge is the north one (y = 48): (30,30) -> (30,37).
    assert model(battle, "b.1").position == pytest.approx((30, 37))
    assert last(of_kind(battle, "reaction")).reaction == 'falls back 7"'


def test_seed000_morale_uses_the_highest_leadership_in_the_unit() -> None:
    sergeant = profile("Sergeant", ld=8, sv="5+")
    unit = make_unit(
        "b", B, [Placed(sergeant, [LASGUN], (30, 30)), Placed(GUARD, [LASGUN], (32, 30))]
    )
    battle = make_battle(unit, dice=[4, 4])
    assert morale_check(battle, unit, "test")
    assert last(of_kind(battle, "morale")).leadership == 8


def test_seed000_morale_double_1_always_passes() -> None:
    # Ld 7 with a -6 penalty needs 1 or less on 2D6; a double 1 passes all the same.
    battle, guard = guard_battle([1, 1])
    assert morale_check(battle, guard, "test", penalty=6)
    battle, guard = guard_battle([1, 2, 1, 1])
    assert not morale_check(battle, guard, "test", penalty=6)


def test_seed000_morale_fearless_passes_without_rolling() -> None:
    battle, guard = guard_battle([], rules=("Fearless",))
    assert morale_check(battle, guard, "test", penalty=5)
    assert of_kind(battle, "morale") == []


def test_seed000_morale_stubborn_ignores_penalties() -> None:
    # 7 against Ld 7 - 3: fails, unless Stubborn, which ignores the -3.
    battle, guard = guard_battle([3, 4, 1, 1])
    assert not morale_check(battle, guard, "test", penalty=3)
    battle, guard = guard_battle([3, 4], rules=("Stubborn",))
    assert morale_check(battle, guard, "test", penalty=3)
    assert last(of_kind(battle, "morale")).modifier == 0


# 2D6 rolls of N or less, counted by hand: 2: 1, 5: 10, 7: 21, 8: 26 (of 36).
@pytest.mark.parametrize(
    ("rules", "test", "modifier", "double_one_only", "passed"),
    [
        ((), MORALE_CHECK, -2, False, 10),  # Ld 7 - 2: 5 or less
        (("Stubborn",), MORALE_CHECK, -3, False, 21),  # the -3 ignored: 7 or less
        (("Stubborn",), MORALE_CHECK, 1, False, 26),  # a bonus kept: 8 or less
        (("Stubborn",), PINNING_TEST, -2, False, 21),  # Pinning tests too
        (("Stubborn",), REGROUP_TEST, -2, False, 10),  # not a Regroup test: 5 or less
        ((), REGROUP_TEST, 0, True, 1),  # only a double 1 (a shattered unit's Regroup)
        ((), MORALE_CHECK, -6, False, 1),  # 1 or less: the double 1 alone
    ],
)
def test_the_chance_of_a_leadership_test_is_the_share_of_rolls_the_test_passes(
    rules: tuple[str, ...], test: str, modifier: int, double_one_only: bool, passed: int
) -> None:
    """:func:`morale.pass_chance`, which the AI's estimates read, against the count by
    hand and against the rule itself: :func:`morale.leadership_test` rolled once with
    each of the 36 rolls of 2D6 (Stubborn, "ignore any negative Leadership modifiers"
    of Morale checks and Pinning tests; a double 1 always passes)."""
    rolled = 0
    for a in range(1, 7):
        for b in range(1, 7):
            battle, guard = guard_battle([a, b], rules=rules)
            rolled += leadership_test(
                battle, guard, test, modifier, "test", double_one_only=double_one_only
            )
    battle, guard = guard_battle([], rules=rules)
    chance = pass_chance(battle, guard, test, modifier, double_one_only=double_one_only)
    assert rolled == passed
    assert chance == pytest.approx(passed / 36)


def test_the_chance_of_a_test_fearless_passes_is_one() -> None:
    battle, guard = guard_battle([], rules=("Fearless",))
    assert pass_chance(battle, guard, MORALE_CHECK, -5) == 1.0


def test_seed000_fall_back_off_own_table_edge_removes_the_unit() -> None:
    # 4" from the north edge (3.5" to the base's edge): a 2D6 fall back of 4 leaves.
    battle, guard = guard_battle([6, 6, 2, 2], at=(30, 44))
    morale_check(battle, guard, "test")
    assert guard.destroyed
    assert last(of_kind(battle, "casualty")).cause == "fell back off the table"
    assert of_kind(battle, "wound") == []


def test_seed000_fall_back_fast_units_move_3d6() -> None:
    bikers = squad("b", B, profile("Biker", ld=7, unit_type="Bike"), [LASGUN], [(30, 20)])
    battle = make_battle(bikers, dice=[6, 6, 1, 2, 3])
    start_phase(battle, "shooting", A)
    assert not morale_check(battle, bikers, "test")
    assert model(battle, "b.1").position == pytest.approx((30, 26))
    assert all_dice_used(battle)


# --- Pinning and Go to Ground ---------------------------------------------------------


SNIPER = weapon("Sniper rifle", "36", "4", "-", "Heavy 2, Pinning")


def test_seed000_pinning_weapon_forces_pinning_test_failure_goes_to_ground() -> None:
    sniper = squad("a", A, MARINE, [SNIPER], [(30, 10)], name="Snipers")
    guard = squad("b", B, GUARD, [LASGUN], [(30 + 2 * k, 30) for k in range(4)], name="Guard")
    battle = make_battle(
        sniper,
        guard,
        dice=[
            *[6, 1],  # 1 hit
            6,  # wounds
            1,  # 5+ armour (AP-) fails: b.1 dies
            *[6, 6],  # Pinning test: 12 > Ld 7, failed
            *[1, 2],  # end of phase, 1 of 4 lost: Morale 3, passed
        ],
        script_a=[
            ("shooter", "Snipers [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Sniper rifle"),
        ],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    tests = [(e.test, e.passed) for e in of_kind(battle, "morale")]
    assert tests == [("Pinning test", False), ("Morale check", True)]
    assert st(battle, guard).pinned and st(battle, guard).gone_to_ground
    # Pinning comes before the reaction; gone to ground, it can no longer Dive for Cover.
    assert story(battle)[-4:] == ["casualty", "morale", "decision:reaction", "morale"]
    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Return Fire!", "no reaction"]
    assert all_dice_used(battle)


def test_seed000_pinning_test_only_after_an_unsaved_wound() -> None:
    sniper = squad("a", A, MARINE, [SNIPER], [(30, 10)], name="Snipers")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        sniper,
        guard,
        dice=[6, 1, 6, 5],  # hit, wound, saved on 5+
        script_a=[
            ("shooter", "Snipers [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Sniper rifle"),
        ],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert of_kind(battle, "morale") == []
    assert not st(battle, guard).gone_to_ground
    assert all_dice_used(battle)


@pytest.mark.parametrize("why", ["Fearless", "locked", "gone to ground"])
def test_seed000_pinning_test_not_taken_by_fearless_locked_or_gone_to_ground(why: str) -> None:
    rules = ("Fearless",) if why == "Fearless" else ()
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], rules=rules)
    battle = make_battle(guard)
    st(battle, guard).locked_in_combat = why == "locked"
    st(battle, guard).gone_to_ground = why == "gone to ground"
    pinning_test(battle, guard, "test")
    assert of_kind(battle, "morale") == []
    assert not st(battle, guard).pinned


@pytest.mark.parametrize("why", ["taken", "Fearless", "locked", "falling back", "destroyed"])
def test_a_shooting_morale_check_is_said_taken_exactly_where_it_is_rolled(why: str) -> None:
    # 12 on 2D6 fails any Leadership: where the check is taken it is rolled and
    # failed; where it is not (Fearless, locked in combat: seed 001; already
    # falling back; destroyed), morale_check passes it untested, and
    # takes_shooting_check, which the AI's Suppressive Fire asks, says so.
    rules = ("Fearless",) if why == "Fearless" else ()
    battle, guard = guard_battle([6, 6, 4, 4], rules=rules)
    st(battle, guard).locked_in_combat = why == "locked"
    st(battle, guard).falling_back = why == "falling back"
    if why == "destroyed":
        for each in guard.models:
            each.wounds_left = 0
    taken = takes_shooting_check(battle, guard)
    passed = morale_check(battle, guard, "test")
    assert taken == (why == "taken")
    assert passed == (not taken)
    assert len([e for e in of_kind(battle, "morale") if e.test == "Morale check"]) == int(taken)


@pytest.mark.parametrize("why", ["taken", "Fearless", "locked", "gone to ground"])
def test_a_pinning_test_is_said_taken_exactly_where_it_is_rolled(why: str) -> None:
    rules = ("Fearless",) if why == "Fearless" else ()
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], rules=rules)
    battle = make_battle(guard, dice=[6, 6])
    st(battle, guard).locked_in_combat = why == "locked"
    st(battle, guard).gone_to_ground = why == "gone to ground"
    taken = takes_pinning_test(battle, guard)
    pinning_test(battle, guard, "test")
    assert taken == (why == "taken")
    assert len(of_kind(battle, "morale")) == int(taken)
    assert st(battle, guard).pinned == taken


def test_seed000_pinning_test_passed_on_leadership() -> None:
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)])
    battle = make_battle(guard, dice=[5, 2])
    pinning_test(battle, guard, "test")
    assert last(of_kind(battle, "morale")).passed
    assert not st(battle, guard).gone_to_ground


def test_seed000_locked_units_take_no_morale_checks_from_shooting() -> None:
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)])
    battle = make_battle(guard)
    st(battle, guard).locked_in_combat = True
    assert morale_check(battle, guard, "test", penalty=10)
    assert of_kind(battle, "morale") == []
