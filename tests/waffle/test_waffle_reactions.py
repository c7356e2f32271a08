"""Seed 000 step 8, "Reaction to shooting": Return Fire! and Dive for Cover.

"When a unit is fired upon during a shooting phase, it may immediately make
one of the following two actions after the unit has resolved their wounds …
Return Fire!: The unit may “snap-fire” at the attacking squad. This does not
provoke additional snap-fire, and does not count as the squad’s shooting
phase. … Dive for Cover: The unit may make a single Run action, regardless of
whether they choose to run or not, they then Go to Ground. … A unit may only
use a single Reaction to Shooting per shooting phase."
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import (
    BOLTGUN,
    FLAMER,
    FRAG_MISSILE,
    GUARD,
    LASGUN,
    MARINE,
    MORTAR,
    A,
    B,
    all_dice_used,
    asked,
    box,
    controller,
    last,
    make_battle,
    model,
    of_kind,
    shooting_phase,
    squad,
)

from hammerlab.editions.waffle.orders import VolleyResult
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import reactions_to_shooting
from hammerlab.editions.waffle.state import st
from hammerlab.engine.datasheet import Weapon


def shoot_script(unit: str, target: str, gun: str = "Boltgun") -> list[tuple[str, str]]:
    return [("shooter", unit), ("action", "shoot"), ("target", target), ("weapon", gun)]


def test_seed000_return_fire_snap_shots_at_attacker_no_further_reaction_can_still_shoot() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 20), (32, 20)], name="Guard")
    battle = make_battle(
        attacker,
        guard,
        dice=[
            *[6, 1],  # Boltgun, 9" away: 2 shots at 3+, 1 hit
            1,  # S4 v T4: no wound
            *[6, 1],  # Return Fire!: b.1 (9") 2 Lasgun shots, BS3 snaps at BS1: 6+
            *[1, 1],  # b.2 (9.2"): 2 shots, both miss
            1,  # S3 v T4 on 5+: no wound
        ],
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[("reaction", "Return Fire!"), ("weapon", "Lasgun")],
    )
    shooting_phase(battle, A)

    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Return Fire!", "Dive for Cover", "no reaction"]
    declared = last(of_kind(battle, "reaction"))
    assert (declared.unit, declared.reaction, declared.against) == (
        "Guard [b]",
        "Return Fire!",
        "Squad [a]",
    )
    returned = last(of_kind(battle, "shots"))
    assert (returned.unit, returned.target, returned.snap, returned.needed, returned.shots) == (
        "Guard [b]",
        "Squad [a]",
        True,
        "6+",
        4,
    )
    assert returned.hits == 1
    # The attacker was hit back, but Return Fire! provokes no reaction of its own.
    assert asked(battle, A, "reaction") == []
    assert all_dice_used(battle)
    # "does not count as the squad's shooting phase": it may still shoot in its own.
    assert not st(battle, guard).has_shot
    controller(battle, B).script.extend([("shooter", "Guard [b]"), ("action", "hold")])
    shooting_phase(battle, B)
    (nominate,) = asked(battle, B, "shooter")
    assert nominate.labels() == ["Guard [b]", "end phase"]


def test_seed000_dive_for_cover_runs_then_goes_to_ground_plus_1_cover() -> None:
    first = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="First")
    second = squad("c", A, MARINE, [BOLTGUN], [(34, 10)], name="Second")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        first,
        second,
        guard,
        dice=[
            *[6, 1],  # First: 1 shot (19"), hits; fails to wound
            3,  # Dive for Cover: run D6 = 3"
            *[6, 6],  # Second (19.4"): hits and wounds
            6,  # AP5 beats 5+ armour; gone to ground in the open: 6+ cover, saved
        ],
        script_a=[
            *shoot_script("First [a]", "Guard [b]"),
            *shoot_script("Second [c]", "Guard [b]"),
        ],
        script_b=[("reaction", "Dive for Cover"), ("move", "hold")],
    )
    shooting_phase(battle, A)
    assert st(battle, guard).gone_to_ground
    # It "may choose to not move": no move, but it counts as having run.
    assert of_kind(battle, "move") == []
    (run_roll,) = [e for e in of_kind(battle, "dice") if e.purpose.startswith("run distance")]
    assert run_roll.values == (3,)
    assert [(s.save, s.needed, s.saved) for s in of_kind(battle, "save")] == [("cover", 6, True)]
    # Once per phase: the second attack gets no reaction.
    assert len(asked(battle, B, "reaction")) == 1
    assert all_dice_used(battle)


def test_seed000_dive_for_cover_run_move_toward_cover() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    crater = box("Crater", 26, 38, 34, 42, cover_save=5)  # centre (30, 40)
    battle = make_battle(
        attacker,
        guard,
        terrain=[crater],
        dice=[6, 1, 4],  # hit, no wound; run 4"
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[("reaction", "Dive for Cover"), ("move", "take cover")],
    )
    shooting_phase(battle, A)
    assert model(battle, "b.1").position == pytest.approx((30, 34))
    assert st(battle, guard).gone_to_ground
    assert all_dice_used(battle)


def test_dive_for_cover_run_takes_the_shortest_way_into_cover() -> None:
    """Dive for Cover's Run ("a single Run action", seed 000) taking cover heads for the
    nearest spot where the whole unit stands in the cover, not for the terrain's centre:
    a roll long enough to get in ends in cover (a referee review saw Runs toward a
    far centre end in the open)."""
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(28, 31), (30, 31), (32, 31)], name="Guard")
    ditch = box("Ditch", 10, 22, 70, 28, cover_save=5)  # centre (40, 25)
    battle = make_battle(
        attacker,
        guard,
        terrain=[ditch],
        dice=[6, 1, 5],  # 21": one shot, hits, no wound; run 5"
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[("reaction", "Dive for Cover"), ("move", "take cover")],
    )
    shooting_phase(battle, A)
    # The Guard's centre (30,31); the models stand up to 2" from it, so the whole unit
    # is in the Ditch where its centre is in the Ditch shrunk by 2" (x 12 to 68, y 24
    # to 26): nearest (30,26), 5" straight south. Toward the Ditch's centre (40,25)
    # the 5" would end at (34.3,28.4), every model outside (y above 28).
    assert [m.position for m in guard.models] == [
        pytest.approx(p) for p in [(28, 26), (30, 26), (32, 26)]
    ]
    assert st(battle, guard).gone_to_ground
    assert all_dice_used(battle)


def test_seed000_reaction_once_per_phase_even_when_another_reaction_is_possible() -> None:
    first = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="First")
    second = squad("c", A, MARINE, [BOLTGUN], [(34, 10)], name="Second")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        first,
        second,
        guard,
        dice=[
            *[6, 1],  # First hits, no wound
            1,  # Return Fire! (19", 1 shot at 6+): misses
            *[6, 1],  # Second hits, no wound: b could still Dive for Cover, but has reacted
        ],
        script_a=[
            *shoot_script("First [a]", "Guard [b]"),
            *shoot_script("Second [c]", "Guard [b]"),
        ],
        script_b=[("reaction", "Return Fire!"), ("weapon", "Lasgun")],
    )
    shooting_phase(battle, A)
    assert len(asked(battle, B, "reaction")) == 1
    assert st(battle, guard).reacted_this_phase
    assert all_dice_used(battle)


def test_seed000_reaction_allowed_again_in_the_next_shooting_phase() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        attacker,
        guard,
        dice=[6, 1],
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[("reaction", "no reaction")],
    )
    st(battle, guard).reacted_this_phase = True  # left over from an earlier phase
    shooting_phase(battle, A)  # a new phase resets it
    assert len(asked(battle, B, "reaction")) == 1
    assert of_kind(battle, "reaction") == []


def test_seed000_units_locked_in_combat_cannot_react() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(attacker, guard)  # strict controllers: any decision would fail
    st(battle, guard).locked_in_combat = True
    result = VolleyResult(hits=Counter({"b": 2}))
    reactions_to_shooting(battle, attacker, result)
    assert asked(battle, B) == []
    assert of_kind(battle, "reaction") == []


def test_seed000_units_locked_in_combat_are_not_targets() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    locked = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Locked")
    free = squad("c", B, GUARD, [LASGUN], [(40, 30)], name="Free")
    brawlers = squad("d", A, MARINE, [BOLTGUN], [(30, 29)], name="Brawlers")  # base contact
    battle = make_battle(
        attacker,
        locked,
        free,
        brawlers,
        dice=[1],
        script_a=shoot_script("Squad [a]", "Free [c]"),
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "target")
    assert menu.labels() == ["Free [c]"]


def test_seed000_every_unit_hit_may_react_including_one_hit_by_a_scattered_blast() -> None:
    devastator = squad("a", A, MARINE, [FRAG_MISSILE], [(30, 10)], name="Devastator")
    mob = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Mob")
    bystanders = squad("c", B, GUARD, [LASGUN], [(31.5, 30)], name="Bystanders")
    battle = make_battle(
        devastator,
        mob,
        bystanders,
        dice=[1, 1, 1],  # HIT: both units under the marker; neither is wounded
        script_a=[
            *shoot_script("Devastator [a]", "Mob [b]", "Missile launcher (frag)"),
            ("aim", "b.1"),
        ],
        script_b=[("reaction", "no reaction"), ("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert [d.context.unit for d in asked(battle, B, "reaction")] == ["b", "c"]
    assert all_dice_used(battle)


def test_seed000_return_fire_needs_sight_of_the_attacker() -> None:
    # Mortars out of sight hit the guard: it can only Dive for Cover (or not react).
    wall = box("Hab block", 20, 18, 45, 20, blocks_sight=True)
    mortars = squad("a", A, MARINE, [MORTAR], [(30, 10)], name="Mortars")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        mortars,
        guard,
        terrain=[wall],
        dice=[1, 1],  # HIT, no wound
        script_a=[*shoot_script("Mortars [a]", "Guard [b]", "Mortar"), ("aim", "b.1")],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Dive for Cover", "no reaction"]


def test_seed000_dive_for_cover_not_offered_to_units_that_cannot_run() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        attacker,
        guard,
        dice=[6, 1],
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[("reaction", "no reaction")],
    )
    st(battle, guard).gone_to_ground = True  # gone to ground units cannot Run
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Return Fire!", "no reaction"]


@pytest.mark.parametrize("gun", [FLAMER, FRAG_MISSILE], ids=["template", "blast"])
def test_seed000_return_fire_not_offered_with_only_weapons_that_cannot_snap_fire(
    gun: Weapon,
) -> None:
    # "Return Fire!: The unit may snap-fire": a flamer or a blast weapon cannot be
    # fired as Snap Shots, so a unit armed only with them can only Dive for Cover.
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 20)], name="Squad")
    burners = squad("b", B, GUARD, [gun], [(30, 25)], name="Burners")  # 4" away
    battle = make_battle(
        attacker,
        burners,
        dice=[6, 1, 1],  # 2 Boltgun shots (4"): 1 hit; no wound
        script_a=shoot_script("Squad [a]", "Burners [b]"),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Dive for Cover", "no reaction"]
    assert all_dice_used(battle)


def test_seed000_fearless_unit_diving_for_cover_does_not_go_to_ground() -> None:
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    zealots = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Zealots", rules=("Fearless",))
    battle = make_battle(
        attacker,
        zealots,
        dice=[6, 1, 2],
        script_a=shoot_script("Squad [a]", "Zealots [b]"),
        script_b=[("reaction", "Dive for Cover"), ("move", "hold")],
    )
    shooting_phase(battle, A)
    assert [e.purpose for e in of_kind(battle, "dice")][-1].startswith("run distance")
    assert not st(battle, zealots).gone_to_ground
    # the log says so, as it says a unit that does go to ground
    [refused] = of_kind(battle, "go_to_ground_refused")
    assert (refused.unit, refused.reaction) == ("Zealots [b]", "Dive for Cover")
    assert refused.text == (
        "Zealots [b] does not go to ground (Dive for Cover): Fearless units cannot Go to Ground"
    )
    assert all_dice_used(battle)


def test_seed000_dive_for_cover_unit_snap_fires_in_its_own_next_shooting_phase() -> None:
    # The Run of Dive for Cover is made in the enemy's turn; in its own next turn the
    # unit has gone to ground: it may shoot, with snap shots (BS3 -> BS1: 6+).
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        attacker,
        guard,
        dice=[
            *[6, 1],  # A's Boltgun: hit, no wound
            3,  # Dive for Cover: run 3" (held)
            5,  # B's turn: 1 Lasgun snap shot (19") misses on 6+
        ],
        script_a=shoot_script("Squad [a]", "Guard [b]"),
        script_b=[
            ("reaction", "Dive for Cover"),
            ("move", "hold"),
            *shoot_script("Guard [b]", "Squad [a]", "Lasgun"),
        ],
    )
    shooting_phase(battle, A)
    end_of_turn(battle, A)
    shooting_phase(battle, B)
    shots = last(of_kind(battle, "shots"))
    assert (shots.unit, shots.snap, shots.needed) == ("Guard [b]", True, "6+")
    assert all_dice_used(battle)


def test_seed000_dive_for_cover_reading_fearless_may_not_dive() -> None:
    # Parameter dive_for_cover.fearless=may_not: a Fearless unit cannot Go to Ground
    # (6th/7th), so it is not offered the reaction that ends in going to ground.
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    zealots = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Zealots", rules=("Fearless",))
    battle = make_battle(
        attacker,
        zealots,
        dice=[6, 1],  # one Boltgun shot at 20": hits, does not wound
        script_a=shoot_script("Squad [a]", "Zealots [b]"),
        script_b=[("reaction", "no reaction")],
        options={"dive_for_cover.fearless": "may_not"},
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    assert menu.labels() == ["Return Fire!", "no reaction"]
    assert all_dice_used(battle)


@pytest.mark.parametrize(("rules", "offered"), [((), True), (("Fearless",), False)])
def test_seed000_dive_for_cover_without_a_run_is_not_offered_to_a_fearless_unit_that_cannot_run(
    rules: tuple[str, ...], offered: bool
) -> None:
    # With dive_for_cover.without_run a unit that cannot Run dives where it stands and
    # goes to ground; a Fearless one cannot Go to Ground (6th/7th), so for it the
    # reaction would do nothing at all (no Run, no going to ground): not offered.
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    slow = squad(
        "b", B, GUARD, [LASGUN], [(30, 30)], name="Slow", rules=("Slow and Purposeful", *rules)
    )
    battle = make_battle(
        attacker,
        slow,
        dice=[6, 1],  # one Boltgun shot at 20": hits, does not wound
        script_a=shoot_script("Squad [a]", "Slow [b]"),
        script_b=[("reaction", "no reaction")],
        options={"dive_for_cover.without_run": True},
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    dive = ["Dive for Cover"] if offered else []
    assert menu.labels() == ["Return Fire!", *dive, "no reaction"]
    assert all_dice_used(battle)


@pytest.mark.parametrize("without_run", [False, True])
def test_seed000_dive_for_cover_reading_without_a_run(without_run: bool) -> None:
    # "a single Run action, regardless of whether they choose to run or not, they then
    # Go to Ground": with dive_for_cover.without_run a unit that cannot Run (Slow and
    # Purposeful) still dives, going to ground where it stands (no run die).
    attacker = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    slow = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Slow", rules=("Slow and Purposeful",))
    answer = "Dive for Cover" if without_run else "no reaction"
    battle = make_battle(
        attacker,
        slow,
        dice=[6, 1],
        script_a=shoot_script("Squad [a]", "Slow [b]"),
        script_b=[("reaction", answer)],
        options={"dive_for_cover.without_run": without_run},
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, B, "reaction")
    offered = ["Return Fire!", "Dive for Cover", "no reaction"]
    assert menu.labels() == (offered if without_run else [offered[0], offered[2]])
    assert st(battle, slow).gone_to_ground is without_run
    assert all_dice_used(battle)
