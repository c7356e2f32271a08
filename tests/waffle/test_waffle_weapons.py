"""Snap Shots and the 6th/7th-edition weapon types in the Waffle shooting phase.

Seed 000, Snap Shots: "If a model is forced to make Snap Shots … divided by 2
(always round down) to a minimum of BS 1. Some weapon types, such as Template
and Ordnance) or those that have certain special rules, such as Blast, cannot
be fired as Snap Shots." Bases are 1" across (see conftest).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from conftest import (
    BATTLE_CANNON,
    BOLT_PISTOL,
    BOLTGUN,
    FLAMER,
    FRAG_MISSILE,
    HEAVY_BOLTER,
    LASGUN,
    MARINE,
    MORTAR,
    STORM_BOLTER,
    A,
    B,
    Placed,
    alive_ids,
    all_dice_used,
    asked,
    box,
    dice_purposes,
    last,
    make_battle,
    make_unit,
    of_kind,
    profile,
    shooting_phase,
    squad,
    weapon,
)

from hammerlab.editions.waffle import attacks
from hammerlab.editions.waffle import expected as expected_module
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import fire_weapon, firing_each, firing_models
from hammerlab.editions.waffle.expected import (
    aim_value,
    aim_values,
    attack_volleys,
    expected_attack,
    expected_casualties,
    likely_aim,
    out_of_reach,
    would_fire,
)
from hammerlab.editions.waffle.markers import aim_points
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.points import WEAPON_WOULD_FIRE
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.state import st
from hammerlab.engine import memo
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import ProfileError

GUARD = profile("Guardsman", bs=3, ld=7, sv="5+")
BARE = profile("Unarmoured", sv="6+")
"""6+ armour: AP6 or better weapons leave no save, which keeps the scripts short."""


def fire(
    shooter_points: list[Vec],
    gun: Weapon,
    target_points: list[Vec],
    dice: list[int],
    *,
    moved: bool = False,
    rules: tuple[str, ...] = (),
    orders: FireOrders | None = None,
    target_profile: Profile = GUARD,
) -> tuple[Battle, VolleyResult, Unit]:
    """Fire ``gun`` once from a unit of marines at a unit of guardsmen."""
    shooter = squad("a", A, MARINE, [gun], shooter_points, rules=rules)
    shooter.status.moved = moved
    target = squad("b", B, target_profile, [LASGUN], target_points)
    battle = make_battle(shooter, target, dice=dice)
    name = gun.name
    result = fire_weapon(battle, shooter, target, name, orders or FireOrders())
    return battle, result, target


# --- Snap Shots -----------------------------------------------------------------


def test_seed000_snap_shots_heavy_weapon_after_moving_fires_snap_shots() -> None:
    # Heavy 3, moved: BS4 snaps at BS2, hitting on 5+: 4 misses, 5 and 6 hit.
    battle, _, _ = fire([(30, 10)], HEAVY_BOLTER, [(30, 30)], [4, 5, 6, 1, 1], moved=True)
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.shots, shots.hits) == (True, "5+", 3, 2)
    assert all_dice_used(battle)


def test_seed000_snap_shots_heavy_weapon_stationary_fires_normally() -> None:
    battle, _, _ = fire([(30, 10)], HEAVY_BOLTER, [(30, 30)], [2, 3, 6, 1, 1])
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.hits) == (False, "3+", 2)


def test_seed000_snap_shots_relentless_ignores_moving_with_heavy_weapon() -> None:
    battle, _, _ = fire(
        [(30, 10)], HEAVY_BOLTER, [(30, 30)], [2, 3, 6, 1, 1], moved=True, rules=("Relentless",)
    )
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.hits) == (False, "3+", 2)


@pytest.mark.parametrize("state", ["gone_to_ground", "falling_back"])
def test_seed000_snap_shots_units_gone_to_ground_or_falling_back_snap_fire(state: str) -> None:
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 30)])
    battle = make_battle(shooter, target, dice=[4])  # BS2: 5+, the 4 misses
    setattr(st(battle, shooter), state, True)
    fire_weapon(battle, shooter, target, "Boltgun", FireOrders())
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.hits) == (True, "5+", 0)
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("gun", "moved", "orders"),
    [
        (FRAG_MISSILE, True, FireOrders()),  # Blast, Heavy, after moving
        (FLAMER, False, FireOrders(snap=True)),  # Template, as Return Fire!
        (BATTLE_CANNON, True, FireOrders()),  # Ordnance (Large Blast), after moving
        (FRAG_MISSILE, False, FireOrders(snap=True)),
    ],
    ids=["blast-moved", "template-snap", "ordnance-moved", "blast-snap"],
)
def test_seed000_snap_shots_template_blast_ordnance_cannot_snap_fire(
    gun: Weapon, moved: bool, orders: FireOrders
) -> None:
    battle, result, target = fire([(30, 22)], gun, [(30, 30)], [], moved=moved, orders=orders)
    assert not result.fired
    assert [(e.weapon, e.reason) for e in of_kind(battle, "not_fired")] == [
        (gun.name, "no_snap_shots")
    ]
    assert of_kind(battle, "shots") == [] and of_kind(battle, "marker") == []
    assert battle.log.of_kind("dice") == []
    assert len(target.alive_models) == 1


def test_seed000_snap_shots_weapon_types_that_cannot_snap_fire() -> None:
    assert not weapon_of(FLAMER).can_snap_fire
    assert not weapon_of(FRAG_MISSILE).can_snap_fire
    assert not weapon_of(BATTLE_CANNON).can_snap_fire
    assert not weapon_of(weapon("Demolisher", "24", "10", "2", "Ordnance 1")).can_snap_fire
    for gun in (BOLTGUN, BOLT_PISTOL, HEAVY_BOLTER, STORM_BOLTER):
        assert weapon_of(gun).can_snap_fire


# --- Rapid Fire, Salvo, Assault, Pistol -------------------------------------------


def test_seed000_rapid_fire_two_shots_within_half_range_one_beyond() -> None:
    battle, _, _ = fire(
        [
            (30, 10),  # 9" from the target: 2 shots
            (40, 10),  # sqrt(10^2 + 10^2) - 1 = 13.1": 1 shot
            (30, 7),  # exactly 12": still within half range, 2 shots
        ],
        BOLTGUN,
        [(30, 20)],
        [1, 1, 1, 1, 1],
    )
    assert last(of_kind(battle, "shots")).shots == 5
    sizes = [len(e.values) for e in of_kind(battle, "dice")]
    assert sizes == [2, 1, 2]  # rolled model by model
    assert all_dice_used(battle)


def test_seed000_rapid_fire_half_range_is_measured_to_visible_models_only() -> None:
    """Seed 000 step 3: "Every model that wishes to shoot must be within range of
    at least one visible model in the target unit" — half range too.

    The target model 9" away stands behind a wall the firer cannot see through;
    the visible one is 13" away (centres 14" apart): beyond half range (12"),
    so the Boltgun fires once.
    """
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 20), (44, 10)])
    wall = box("Hab block", 28, 14, 32, 16, blocks_sight=True)
    battle = make_battle(shooter, target, dice=[1], terrain=[wall])
    fire_weapon(battle, shooter, target, "Boltgun", FireOrders())
    assert last(of_kind(battle, "shots")).shots == 1
    assert all_dice_used(battle)


def test_seed000_rapid_fire_beyond_full_range_does_not_fire() -> None:
    battle, result, _ = fire([(30, 4)], BOLTGUN, [(30, 30)], [])  # 25" > 24"
    assert not result.fired
    assert [(e.weapon, e.reason) for e in of_kind(battle, "not_fired")] == [
        ("Boltgun", "no_model_can_fire")
    ]


SALVO = weapon("Heavy stubber pair", "24", "4", "6", "Salvo 2/4")


def test_seed000_salvo_profile_reads_moving_and_stationary_shots() -> None:
    parsed = weapon_of(SALVO)
    assert (parsed.base_type, parsed.shots, parsed.salvo_moving_shots) == ("Salvo", 4, 2)


def test_a_salvo_written_high_then_low_is_refused_naming_the_order() -> None:
    # Salvo L/H: "L at half range after moving, H stationary" (docs/rules/waffle.md);
    # 4/2 would fire more shots after moving than standing still.
    with pytest.raises(ProfileError, match=r"Type 'Salvo 4/2'.*\(Salvo 2/4\)") as refused:
        weapon_of(weapon("Backwards stubber", "24", "4", "6", "Salvo 4/2"))
    assert refused.value.key == "Type"
    assert weapon_of(weapon("Level stubber", "24", "4", "6", "Salvo 3/3")).shots == 3


def test_seed000_salvo_stationary_fires_higher_number_at_full_range() -> None:
    battle, _, _ = fire([(30, 10)], SALVO, [(30, 30)], [1, 1, 1, 1])  # 19"
    shots = last(of_kind(battle, "shots"))
    assert (shots.shots, shots.snap) == (4, False)
    assert all_dice_used(battle)


def test_seed000_salvo_moved_fires_lower_number_at_half_range_only() -> None:
    battle, _, _ = fire([(30, 10)], SALVO, [(30, 20)], [1, 1], moved=True)  # 9"
    shots = last(of_kind(battle, "shots"))
    assert (shots.shots, shots.snap, shots.needed) == (2, False, "3+")
    assert all_dice_used(battle)
    # 19" is beyond half of 24": a moved Salvo weapon cannot reach.
    battle, result, _ = fire([(30, 10)], SALVO, [(30, 30)], [], moved=True)
    assert not result.fired


def test_seed000_salvo_relentless_fires_as_if_stationary() -> None:
    battle, _, _ = fire(
        [(30, 10)], SALVO, [(30, 30)], [1, 1, 1, 1], moved=True, rules=("Relentless",)
    )
    assert last(of_kind(battle, "shots")).shots == 4


def test_seed000_assault_n_fires_n_shots_even_after_moving() -> None:
    ripper = weapon("Ripper gun", "12", "5", "-", "Assault 3")
    battle, _, _ = fire([(30, 10)], ripper, [(30, 21)], [1, 1, 1], moved=True)  # 10"
    shots = last(of_kind(battle, "shots"))
    assert (shots.shots, shots.snap, shots.needed) == (3, False, "3+")
    battle, _, _ = fire([(30, 10)], STORM_BOLTER, [(30, 30)], [1, 1], moved=True)
    assert last(of_kind(battle, "shots")).shots == 2


def test_seed000_pistol_one_shot_within_12_inches_after_moving() -> None:
    battle, _, _ = fire([(30, 10)], BOLT_PISTOL, [(30, 22)], [1], moved=True)  # 11"
    shots = last(of_kind(battle, "shots"))
    assert (shots.shots, shots.snap) == (1, False)
    battle, result, _ = fire([(30, 10)], BOLT_PISTOL, [(30, 23.5)], [])  # 12.5"
    assert not result.fired


# --- Blast markers ---------------------------------------------------------------


def blast_battle(
    gun: Weapon, dice: list[int], directions: list[float], targets: list[Vec]
) -> tuple[Battle, Unit, Unit, Unit]:
    """A missile launcher marine at (30,10), a friendly unit at (30,28.5), targets."""
    shooter = squad("a", A, MARINE, [gun], [(30, 10)], name="Devastator")
    friends = squad("f", A, MARINE, [BOLTGUN], [(30, 28.5)], name="Friends")
    target = squad("b", B, BARE, [LASGUN], targets, name="Mob")
    battle = make_battle(
        shooter, friends, target, dice=dice, directions=directions, script_a=[("aim", "b.1")]
    )
    return battle, shooter, friends, target


def test_seed000_blast_scatter_die_hit_stays_and_hits_every_model_under_it_friend_or_foe() -> None:
    # Marker on b.1 (30,30), radius 1.5": a 1"-base model is under it when its centre
    # is closer than 2": b.1 (0"), b.2 (1.5"), friendly f.1 (1.5"); not b.3 (3") or b.4.
    battle, shooter, friends, target = blast_battle(
        FRAG_MISSILE,
        [
            1,  # scatter die 1-2: HIT, the marker stays
            4,  # f.1: S4 v T4 on 4+: wounds
            1,  # f.1's 3+ armour (AP6) fails
            *[4, 4],  # b.1, b.2: wound; AP6 leaves their 6+ armour no save
        ],
        [],
        [(30, 30), (31.5, 30), (33, 30), (36, 30)],
    )
    fire_weapon(battle, shooter, target, "Missile launcher (frag)", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.shape == "blast"
    assert marker.centre == pytest.approx((30, 30)) and marker.scattered == 0.0
    assert marker.hits == {"Friends [f]": 1, "Mob [b]": 2}
    assert not any(p.startswith("to hit") for p in dice_purposes(battle))
    assert alive_ids(friends) == []
    assert alive_ids(target) == ["b.3", "b.4"]
    assert all_dice_used(battle)
    # The aim was the firing player's decision, among the target's models.
    (aim,) = asked(battle, A, "aim")
    assert aim.labels() == ["b.1", "b.2", "b.3", "b.4"]


def test_seed000_blast_scatters_2d6_minus_bs_in_the_scatter_direction() -> None:
    # Scatter die 3: no HIT; direction 0 deg (+x); 2D6 = 6 + 4 = 10, minus BS4 = 6":
    # the marker moves from (30,30) to (36,30) and hits only b.4. The friendly f.1 at
    # (30,28.5) stands on the line from the firer to b.1: a 5+ cover save (intervening
    # models, interpretation 23), rolled 1, failed.
    battle, shooter, _, target = blast_battle(
        FRAG_MISSILE, [3, 6, 4, 6, 1], [0.0], [(30, 30), (31.5, 30), (33, 30), (36, 30)]
    )
    fire_weapon(battle, shooter, target, "Missile launcher (frag)", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((36, 30))
    assert marker.scattered == 6.0
    assert marker.hits == {"Mob [b]": 1}
    # The hit wounds on the 6, and (6th/7th edition) the wound goes to the model
    # closest to the firer, b.1, not to the model under the marker.
    assert alive_ids(target) == ["b.2", "b.3", "b.4"]
    assert all_dice_used(battle)


def test_seed000_blast_scatter_distance_minus_bs_is_at_least_0() -> None:
    # 2D6 = 1 + 2 = 3, minus BS4 = -1 -> 0": the marker stays on b.1.
    battle, shooter, _, target = blast_battle(
        FRAG_MISSILE, [4, 1, 2, 1, 1, 1], [90.0], [(30, 30), (31.5, 30), (33, 30)]
    )
    fire_weapon(battle, shooter, target, "Missile launcher (frag)", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((30, 30))
    assert marker.scattered == 0.0
    assert marker.hits == {"Friends [f]": 1, "Mob [b]": 2}
    assert all_dice_used(battle)


def test_seed000_large_blast_is_5_inches_across() -> None:
    # Radius 2.5": b.2 at 2.8" is under a large blast (2.8 < 3.0) but not a small one.
    points = [(30, 30), (32.8, 30), (33.2, 30)]
    shooter = squad("a", A, MARINE, [BATTLE_CANNON], [(30, 10)])
    target = squad("b", B, BARE, [LASGUN], points, name="Mob")
    # HIT; S8 v T4 wounds on 2+; AP3 leaves no save.
    battle = make_battle(shooter, target, dice=[1, 2, 2], script_a=[("aim", "b.1")])
    fire_weapon(battle, shooter, target, "Battle cannon", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert (marker.shape, marker.hits) == ("large blast", {"Mob [b]": 2})
    assert alive_ids(target) == ["b.3"]
    assert all_dice_used(battle)

    shooter = squad("a", A, MARINE, [FRAG_MISSILE], [(30, 10)])
    target = squad("b", B, BARE, [LASGUN], points, name="Mob")
    battle = make_battle(shooter, target, dice=[1, 6], script_a=[("aim", "b.1")])
    fire_weapon(battle, shooter, target, "Missile launcher (frag)", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert alive_ids(target) == ["b.2", "b.3"]


# --- Templates ---------------------------------------------------------------------


def test_seed000_template_needs_no_to_hit_roll_and_hits_every_model_under_it() -> None:
    # Flamer template from the firer's base edge (10.5,10) pointing +x at b.1: 8" long
    # (to x = 18.5), 2" wide at its far end (a 1" circle round (17.5,10)), 0.4" wide at
    # the nozzle.
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    # Half-width at x = 16: 0.2 + 0.8 * 5.5 / 7 = 0.83, f.1's base bottom 10.5 < 10.83.
    # f.1 is of another enemy unit: a template hits every model under it, of whichever
    # unit (one of the firer's side would bar the aim: test_waffle_template_rules.py).
    others = squad("f", B, MARINE, [BOLTGUN], [(16, 11)], name="Others")
    target = squad(
        "b",
        B,
        BARE,
        [LASGUN],
        [
            (13, 10),  # under it
            (15, 10),  # under it
            (17.4, 10),  # under the round end (base reaches x = 16.9)
            (19.2, 10),  # base starts at 18.7 > 18.5: missed
            (13, 12),  # base bottom 11.5 > 10.49 (half-width 0.2 + 0.8 * 2.5 / 7): missed
        ],
        name="Mob",
    )
    battle = make_battle(
        flamer_marine,
        others,
        target,
        dice=[
            6,  # f.1 wounded (S4 v T4)
            1,  # f.1's 3+ armour (AP5) fails; no cover save: the line from (10,10) to
            # (16,11) crosses b.1's base (interpretation 23), but a template ignores cover
            *[6, 6, 6],  # b.1..b.3 wounded; AP5 leaves 6+ armour no save
        ],
        script_a=[("aim", "b.1")],
    )
    fire_weapon(battle, flamer_marine, target, "Flamer", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.shape == "template"
    assert marker.hits == {"Others [f]": 1, "Mob [b]": 3}
    assert not any(p.startswith("to hit") for p in dice_purposes(battle))
    assert of_kind(battle, "shots") == []
    # The 3 wounds go to the models closest to the firer (6th/7th edition): b.1 (2"),
    # b.5 (sqrt(3^2 + 2^2) - 1 = 2.6"), b.2 (4") -- not necessarily those under it.
    assert alive_ids(target) == ["b.3", "b.4"]
    assert alive_ids(others) == []
    assert alive_ids(flamer_marine) == ["a.1"]  # the firer is never under its own template
    assert all_dice_used(battle)


def _flamer_at_base_gaps(gaps: list[float]) -> tuple[Battle, Unit]:
    """A Flamer Marine on a 32 mm base at (10,10) firing at a Mob on 40 mm bases
    strung along +x, each ``gaps[k]`` inches from the firer's base, base to base."""
    firer_r, target_r = 32.0 / 25.4 / 2.0, 40.0 / 25.4 / 2.0  # 0.6299", 0.7874"
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    flamer_marine.models[0].base_mm = 32.0
    points = [(10 + firer_r + gap + target_r, 10.0) for gap in gaps]
    target = squad("b", B, BARE, [LASGUN], points, name="Mob")
    for m in target.models:
        m.base_mm = 40.0
    # Each test expects one hit: its 1 fails to wound (S4 v T4); only the hits are read.
    battle = make_battle(flamer_marine, target, dice=[1], script_a=[("aim", "b.1")])
    return battle, target


def test_template_narrow_end_touches_the_firers_base_so_it_reaches_8_inches_from_it() -> None:
    # 7th edition: the template is placed "so that its narrow end is touching the base
    # of the firing model". Firer (10,10), 32 mm base: radius 0.6299". Target 40 mm base
    # (radius 0.7874") 7.8" away base to base: centre at 10 + 0.6299 + 7.8 + 0.7874 =
    # 19.2173, its base starts at x = 18.4299 (9.2173" centre to centre, so the 8"
    # range check, base to base, lets it fire). Narrow end at the base edge (10.6299,10):
    # the template's round end reaches x = 18.6299 > 18.4299, a hit. From the centre it
    # would end at x = 18.0, 0.43" short (the defect: "hits nothing").
    battle, target = _flamer_at_base_gaps([7.8])
    fire_weapon(battle, battle.unit("a"), target, "Flamer", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert all_dice_used(battle)


def test_template_misses_a_base_more_than_8_inches_from_the_firers_base() -> None:
    # As above; b.1 (aimed at) 4" away base to base, b.2 behind it on the line 8.2" away:
    # centre at 10 + 0.6299 + 8.2 + 0.7874 = 19.6173, base starts at x = 18.8299, past
    # the template's end at x = 18.6299 (0.2" clear): only b.1 is hit.
    battle, target = _flamer_at_base_gaps([4.0, 8.2])
    fire_weapon(battle, battle.unit("a"), target, "Flamer", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert all_dice_used(battle)


def test_a_template_is_offered_only_over_models_it_reaches() -> None:
    """7th edition: the template is placed "so that its narrow end is touching the base
    of the firing model", and is 8" long: it may be placed over a model only where it
    reaches it. Aimed at a model farther off it would lie short of it."""
    # Firer (10,10), 1" bases. b.1 (18,10): 8 - 0.5 - 0.5 = 7" away base to base; b.2
    # (21,10): 10" away, beyond the template's 8"; b.3 (10,18.6): 7.6" away.
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    target = squad("b", B, BARE, [LASGUN], [(18, 10), (21, 10), (10, 18.6)], name="Mob")
    battle = make_battle(flamer_marine, target)
    offered = aim_points(battle, flamer_marine, flamer_marine.models[0], target, weapon_of(FLAMER))
    assert [m.id for m in offered] == ["b.1", "b.3"]


def test_an_estimate_counting_the_target_nearer_still_counts_a_template() -> None:
    """The AI weighs fire "as if nearer" (``FireOrders.counts_within``: a move or an
    advance to come); the template's reach is then the range counted, not where the
    models stand, or every such estimate would leave flamers out (it did, briefly,
    once templates were offered only over models they reach)."""
    # Flamer (10,10); three Troopers 14" off (y 25). Counted 2" away: the template hits
    # without a roll (1), over 3 models (expected.TEMPLATE_HITS), S4 v T4 wounds on 4+
    # (1/2), AP5 against 6+ armour: no save. 3 x 1/2 = 1.5. As they stand: none.
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    target = squad("b", B, BARE, [LASGUN], [(8, 25), (10, 25), (12, 25)], name="Mob")
    battle = make_battle(flamer_marine, target)
    nearer = expected_casualties(
        battle, flamer_marine, target, "Flamer", FireOrders(counts_within=2)
    )
    here = expected_casualties(battle, flamer_marine, target, "Flamer", FireOrders())
    assert (nearer, here) == (pytest.approx(1.5), 0.0)


def test_counted_beyond_every_weapon_s_reach_no_volley_is_worked_out() -> None:
    """``expected.out_of_reach``: orders counting the target farther off than any weapon
    the unit carries reaches fire nothing, so the volleys need no sight traced; at the
    longest reach itself the weapon still fires ("within range", range >= distance)."""
    # One Marine each with a heavy bolter (36"), a boltgun (24"), a flamer (Template: its
    # 8"); three Unarmoured T4 models 50" off, out of every range as they stand. Counted
    # 36" away the heavy bolter alone fires: Heavy 3, BS4 hits 2/3, S5 v T4 wounds on 3+
    # (2/3), AP4 against 6+: no save. 3 x 2/3 x 2/3 = 4/3. Counted 36.5" away: none.
    gunners = make_unit(
        "a",
        A,
        [
            Placed(MARINE, [HEAVY_BOLTER], (10, 10)),
            Placed(MARINE, [BOLTGUN], (12, 10)),
            Placed(MARINE, [FLAMER], (14, 10)),
        ],
        name="Gunners",
    )
    target = squad("b", B, BARE, [LASGUN], [(8, 60), (10, 60), (12, 60)], name="Mob")
    battle = make_battle(gunners, target)
    at_reach, beyond = FireOrders(counts_within=36), FireOrders(counts_within=36.5)
    assert not out_of_reach(gunners, at_reach)
    assert [v.name for v in attack_volleys(battle, gunners, target, at_reach)] == ["Heavy bolter"]
    assert expected_attack(battle, gunners, target, at_reach) == pytest.approx(4 / 3)
    assert out_of_reach(gunners, beyond)
    assert attack_volleys(battle, gunners, target, beyond) == []
    assert not out_of_reach(gunners, FireOrders())  # no distance counted: asked as they stand


def test_the_ai_aims_a_template_where_it_covers_the_most_models() -> None:
    """The AI places a template where it covers the most enemy models (what a person is
    told it covers), never where it would hit nothing while another aim hits."""
    # Firer (10,10), 1" bases (base to base = centre to centre - 1"). East: b.1
    # (17.5,10), 6.5" away, and a knot beyond it, b.2 (19.5,10.5), b.3 (19.5,9.5),
    # b.4 (19.9,10), 8.5" to 8.9" away: out of the template's reach (not offered),
    # their bases starting at x 19.0 or more, past its end at x 18.5, so aimed at
    # b.1 it covers b.1 alone. North: b.5 (10,13), b.6 (10,15), b.7 (10,17), 2" to 6"
    # away on the template's axis aimed at any of them: 3 covered each, the first
    # offered (b.5) taken. The old "crowd" (foes within 2.5" of the aim, centre to
    # centre) scored b.1 4 (b.1 to b.4) and b.6 only 3: it aimed east, hitting one.
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    points = [(17.5, 10), (19.5, 10.5), (19.5, 9.5), (19.9, 10), (10, 13), (10, 15), (10, 17)]
    target = squad("b", B, BARE, [LASGUN], points, name="Mob")
    # Three hits, S4 v T4 on 4+: the 1s fail.
    battle = make_battle(flamer_marine, target, dice=[1, 1, 1], fallback=WaffleAI())
    fire_weapon(battle, flamer_marine, target, "Flamer", FireOrders())
    (aim,) = [e.answer for e in of_kind(battle, "decision") if e.decision == "aim"]
    assert aim == "b.5"
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 3}
    assert all_dice_used(battle)


def test_the_log_says_where_a_template_lies_not_where_its_firer_stands() -> None:
    """The template's log line gives its middle, half its 8" out from its narrow end at
    the firer's base (markers.template_middle), not the firer's own position."""
    # Firer (10,10), radius 0.5", aimed east at b.1 (14,10): the narrow end at (10.5,10),
    # the middle 4" further, (14.5,10). The 1 fails to wound.
    flamer_marine = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    target = squad("b", B, BARE, [LASGUN], [(14, 10)], name="Mob")
    battle = make_battle(flamer_marine, target, dice=[1], script_a=[("aim", "b.1")])
    fire_weapon(battle, flamer_marine, target, "Flamer", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((14.5, 10.0))
    assert marker.text == "  template of Flamer over (14.5,10.0) hits Mob [b]: 1"
    assert all_dice_used(battle)


# --- Barrage -------------------------------------------------------------------------


def test_seed000_barrage_fires_without_line_of_sight_and_scatters_full_2d6() -> None:
    wall = box("Hab block", 20, 18, 45, 20, blocks_sight=True)
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (37, 30)], name="Mob")
    # No HIT (3); direction +x; 2D6 = 3 + 4 = 7, nothing taken off without sight:
    # (30,30) -> (37,30), on b.2. S4 v T4: the 1 fails to wound.
    battle = make_battle(
        shooter,
        target,
        terrain=[wall],
        dice=[3, 3, 4, 1],
        directions=[0.0],
        script_a=[("aim", "b.1")],
    )
    result = fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    assert result.fired
    marker = last(of_kind(battle, "marker"))
    assert marker.scattered == 7.0
    assert marker.centre == pytest.approx((37, 30))
    assert marker.hits == {"Mob [b]": 1}
    assert all_dice_used(battle)


def test_seed000_barrage_in_sight_scatters_2d6_minus_bs() -> None:
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (37, 30)], name="Mob")
    # Same dice with sight: 7 - BS4 = 3": (33,30), 3" from b.1 and 4" from b.2: no hits.
    battle = make_battle(
        shooter, target, dice=[3, 3, 4], directions=[0.0], script_a=[("aim", "b.1")]
    )
    fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert marker.scattered == 3.0
    assert marker.hits == {}
    assert all_dice_used(battle)


def test_seed000_barrage_unit_out_of_sight_may_choose_its_target_others_may_not() -> None:
    wall = box("Hab block", 20, 18, 45, 20, blocks_sight=True)
    mortars = squad("a", A, MARINE, [MORTAR], [(30, 10)], name="Mortars")
    bolters = squad("c", A, MARINE, [BOLTGUN], [(34, 10)], name="Bolters")
    target = squad("b", B, BARE, [LASGUN], [(30, 30)], name="Mob")
    battle = make_battle(
        mortars,
        bolters,
        target,
        terrain=[wall],
        dice=[1, 1],  # HIT on b.1; the wound roll fails
        script_a=[
            ("shooter", "Mortars [a]"),
            ("action", "shoot"),
            ("target", "Mob [b]"),
            ("weapon", "Mortar"),
            ("aim", "b.1"),
            ("shooter", "Bolters [c]"),
            ("action", "hold"),
        ],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    menus = [d.labels() for d in asked(battle, A, "action")]
    assert menus[0][0] == "shoot"
    assert "shoot" not in menus[1]  # the Boltguns see nothing
    assert all_dice_used(battle)


def test_barrage_marker_may_go_over_a_target_model_out_of_sight_when_another_is_seen() -> None:
    """6th/7th edition: a Barrage weapon needs no line of sight, so its marker may go
    over any model of the target, not only those the firer sees (interpretation 11);
    aimed at one it cannot see, it scatters the full 2D6. A plain Blast weapon still
    aims only at the models it sees."""
    # The wall (x 20 to 36, y 18 to 20) hides b.1 at (30,30) from (30,10); the line to
    # b.2 at (50,30) crosses y 18 to 20 at x 38 to 40, clear of it.
    wall = box("Hab block", 20, 18, 36, 20, blocks_sight=True)
    shooter = squad("a", A, MARINE, [MORTAR, FRAG_MISSILE], [(30, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (50, 30)], name="Mob")
    # No HIT (3); direction +x; 2D6 = 3 + 4 = 7, nothing taken off out of sight:
    # (30,30) -> (37,30), 13" from b.2: no hits.
    battle = make_battle(
        shooter,
        target,
        terrain=[wall],
        dice=[3, 3, 4],
        directions=[0.0],
        script_a=[("aim", "b.1")],
    )
    firer = shooter.models[0]
    barrage = aim_points(battle, shooter, firer, target, weapon_of(MORTAR))
    blast = aim_points(battle, shooter, firer, target, weapon_of(FRAG_MISSILE))
    assert ([m.id for m in barrage], [m.id for m in blast]) == (["b.1", "b.2"], ["b.2"])
    fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    marker = last(of_kind(battle, "marker"))
    assert (marker.scattered, marker.centre, marker.hits) == (7.0, pytest.approx((37, 30)), {})
    assert all_dice_used(battle)


def test_barrage_in_range_of_a_model_out_of_sight_fires_though_the_one_it_sees_is_not() -> None:
    """Needing no line of sight, a Barrage weapon measures its range to any target
    model (interpretation 11): the Mortar (48") sees only b.2, 58" away centre to
    centre, and fires at b.1, 20" away behind the wall."""
    wall = box("Hab block", 0, 18, 16, 20, blocks_sight=True)
    shooter = squad("a", A, MARINE, [MORTAR], [(10, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(10, 30), (60, 40)], name="Mob")
    battle = make_battle(
        shooter, target, terrain=[wall], dice=[1, 1], script_a=[("aim", "b.1")]
    )  # HIT on b.1; the wound roll fails
    assert fire_weapon(battle, shooter, target, "Mortar", FireOrders()).fired
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert all_dice_used(battle)


def test_barrage_wounds_go_to_the_models_closest_to_the_marker_s_centre() -> None:
    """6th/7th edition, Barrage: for Wound allocation "always assume the shot is coming
    from the centre of the marker" (the shared 7th-edition game system file quotes it:
    "For determining Wound allocation, always assume the shot is coming from the
    centre of the marker, in the same manner as a Barrage weapon"), not from the firer.
    A plain Blast's wounds go to the models closest to the firer (above)."""
    # Mortar at (30,10). Marker aimed at b.3 (37.5,30), HIT: radius 1.5", a 1" base is
    # under it within 2" of the centre: b.3 (0") and b.2 (36,30) (1.5"); b.1 (30,30) is
    # 7.5" off. Two hits, S4 v T4 on 4+: 4, 4 wound; AP6 leaves 6+ armour no save.
    # From the marker: b.3 (0" away, base to base 0) then b.2 (1.5" - 0.5 = 1.0"): both
    # die and b.1 lives. From the firer they would go to b.1 (20" centre to centre)
    # and b.2 (sqrt(6^2 + 20^2) = 20.9"), sparing b.3.
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (36, 30), (37.5, 30)], name="Mob")
    battle = make_battle(shooter, target, dice=[1, 4, 4], script_a=[("aim", "b.3")])
    fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 2}
    assert alive_ids(target) == ["b.1"]
    assert all_dice_used(battle)


def test_each_barrage_marker_s_wounds_go_to_the_models_closest_to_its_own_centre() -> None:
    """Each Barrage marker is a shot coming from its own centre: two mortars' markers,
    one on b.1 and one on b.3 (W2 models), each wound goes under its own marker."""
    # Mortars at (30,10) and (32,10); Mob of W2 models b.1 (20,30), b.2 (30,30), b.3
    # (23,30). The first marker (HIT) rests on b.1; the second, aimed at b.3, is placed
    # touching it (interpretation 20): b.3 is 3" off, one marker's diameter, so it goes
    # on b.3 (HIT). Each covers only its own model (the other 3" off: past the 1.5"
    # radius and the 0.5" base). The two hits roll To Wound apart, one per marker: 4
    # (wounds), 5 (wounds); AP6, no save. b.1 and b.3 each lose 1 of 2 wounds. From
    # one point (the firers, or the first marker) both wounds would go to one model
    # and slay it.
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10), (32, 10)], name="Mortars")
    mob = profile("Brute", w=2, sv="6+")
    target = squad("b", B, mob, [LASGUN], [(20, 30), (30, 30), (23, 30)], name="Mob")
    battle = make_battle(
        shooter, target, dice=[1, 1, 4, 5], script_a=[("aim", "b.1"), ("aim", "b.3")]
    )
    fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    assert [m.hits for m in of_kind(battle, "marker")] == [{"Mob [b]": 1}, {"Mob [b]": 1}]
    assert [(m.id, m.wounds_left) for m in target.models] == [("b.1", 1), ("b.2", 2), ("b.3", 1)]
    assert all_dice_used(battle)


def test_a_unit_s_barrage_markers_land_touching_the_first_where_it_came_to_rest() -> None:
    """6th/7th edition, Multiple Barrages (interpretation 20): the first marker of the
    three mortars is placed and scattered; each further marker is placed touching the
    first where it came to rest, as near the model aimed at as that allows, and
    scatters in turn. Before, each marker went on the model aimed at, alone."""
    # Mortars (BS4) at (28,10), (30,10), (32,10), in sight of the Mob: b.1 (30,30),
    # b.2 (40,30). First marker on b.1: no HIT (3), +x, 2D6 = 2 + 3 = 5 less BS 4:
    # 1", to rest at (31,30). Second, aimed at b.2, 9" from (31,30), more than the 3"
    # diameter: placed edge to edge with the first toward b.2, (34,30); HIT (1), it
    # stays. Third, aimed at b.2 again: touching the first, not the second, so (34,30)
    # again; no HIT (4), +y, 2D6 = 3 + 3 = 6 less 4: 2", to (34,32). Only the first
    # covers a model (b.1, 1" from its centre: within 1.5" + the 0.5" base); b.2 is 6"
    # from (34,30). The one hit's wound roll, 1, fails. (Placed on b.2 as before, the
    # second marker would have hit it.)
    shooter = squad("a", A, MARINE, [MORTAR], [(28, 10), (30, 10), (32, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30), (40, 30)], name="Mob")
    battle = make_battle(
        shooter,
        target,
        dice=[3, 2, 3, 1, 4, 3, 3, 1],
        directions=[0.0, 90.0],
        script_a=[("aim", "b.1"), ("aim", "b.2"), ("aim", "b.2")],
    )
    result = fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    markers = of_kind(battle, "marker")
    assert [m.centre for m in markers] == [
        pytest.approx((31, 30)),
        pytest.approx((34, 30)),
        pytest.approx((34, 32)),
    ]
    assert [m.scattered for m in markers] == [1.0, 0.0, 2.0]
    assert [m.hits for m in markers] == [{"Mob [b]": 1}, {}, {}]
    assert (result.hits["b"], result.wounds["b"]) == (1, 0)
    prompts = [d.prompt for d in asked(battle, A, "aim")]
    assert (
        prompts[1:]
        == [
            "Place the next blast marker of Mortars [a]'s barrage touching the first, "
            "toward which model of Mob [b]?"
        ]
        * 2
    )
    assert all_dice_used(battle)


def test_a_barrage_marker_that_would_touch_the_first_only_over_a_melee_is_not_placed() -> None:
    """Seed 001: markers "cannot be deliberately placed such that they cover any models
    locked in combat"; a further marker of a barrage is placed touching the first, so
    where each model of the target would have it cover a unit locked in combat, it is
    not placed (said in the log), and the barrage goes on without it."""
    # Mortars at (30,10) and (32,10); the Mob: b.1 (30,30). A locked unit, c.1 at
    # (31,36). First marker on b.1 (c.1 6.1" off: allowed): no HIT (3), +y, 2D6 =
    # 6 + 6 = 12 less BS 4: 8", to rest at (30,38), 2.2" from c.1: over nothing.
    # Second, toward b.1 (8" off): placed 3" from (30,38), at (30,35), 1.4" from c.1,
    # whose base it would cover: no model may have it.
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10), (32, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30)], name="Mob")
    melee = squad("c", B, BARE, [LASGUN], [(31, 36)], name="Brawlers")
    battle = make_battle(
        shooter, target, melee, dice=[3, 6, 6], directions=[90.0], script_a=[("aim", "b.1")]
    )
    st(battle, melee).locked_in_combat = True
    result = fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    markers = of_kind(battle, "marker")
    assert [(m.centre, m.hits) for m in markers] == [(pytest.approx((30, 38)), {})]
    [unplaced] = of_kind(battle, "barrage_marker_unplaced")
    assert (unplaced.unit, unplaced.weapon) == ("Mortars [a]", "Mortar")
    assert result.hits["b"] == 0
    assert all_dice_used(battle)


def test_a_barrage_marker_whose_unit_an_earlier_marker_slew_rolls_nothing() -> None:
    """Each Barrage marker's hits are resolved apart (its own centre): where the first
    marker's wounds slay the whole unit, the second's hits on it have no model left to
    wound and roll nothing (this ended a battle with a traceback once the markers were
    resolved apart: the majority Toughness of no model)."""
    # Mortars at (30,10) and (32,10), one Trooper b.1 (30,30). First marker: HIT on b.1.
    # Second: no HIT (3), +x, 2D6 = 2 + 3 = 5 less BS4 = 1": (31,30), 1" from b.1, still
    # over its base. The first marker's hit wounds (4+ rolled: 4), AP6 v 6+: no save,
    # b.1 dies; the second marker's hit is not rolled.
    shooter = squad("a", A, MARINE, [MORTAR], [(30, 10), (32, 10)], name="Mortars")
    target = squad("b", B, BARE, [LASGUN], [(30, 30)], name="Mob")
    battle = make_battle(
        shooter,
        target,
        dice=[1, 3, 2, 3, 4],
        directions=[0.0],
        script_a=[("aim", "b.1"), ("aim", "b.1")],
    )
    result = fire_weapon(battle, shooter, target, "Mortar", FireOrders())
    assert [m.hits for m in of_kind(battle, "marker")] == [{"Mob [b]": 1}, {"Mob [b]": 1}]
    assert (result.hits["b"], result.wounds["b"], alive_ids(target)) == (2, 1, [])
    assert len(of_kind(battle, "wounds")) == 1
    assert all_dice_used(battle)


def test_barrage_cover_is_judged_from_the_marker_s_centre_not_the_firer() -> None:
    """The Barrage shot comes from the centre of its marker for cover saves too (5th
    edition's Barrage: "always assume the shot is coming from the centre of the marker,
    instead of from the firing model", kept by 6th/7th): a model in the open behind
    a crater field, seen from the mortar, has no cover against the shell falling on
    it; the same wound from a plain Blast takes the field's 4+ cover save."""
    craters = box("Craters", 20, 18, 40, 20, cover_save=4)
    for gun, dice, alive in ((MORTAR, [1, 4], []), (FRAG_MISSILE, [1, 4, 4], ["b.1"])):
        # HIT on b.1 (30,30); S4 v T4: the 4 wounds; AP6, no armour save. The line
        # from (30,10) crosses the craters (y 18 to 20): from the firer b.1 has 4+
        # cover (the Blast's save roll: 4, saved); from the marker's centre none.
        shooter = squad("a", A, MARINE, [gun], [(30, 10)], name="Mortars")
        target = squad("b", B, BARE, [LASGUN], [(30, 30)], name="Mob")
        battle = make_battle(
            shooter, target, terrain=[craters], dice=dice, script_a=[("aim", "b.1")]
        )
        fire_weapon(battle, shooter, target, gun.name, FireOrders())
        assert alive_ids(target) == alive
        assert all_dice_used(battle)


# --- Twin-linked and Rending -------------------------------------------------------


def test_seed000_twin_linked_rerolls_misses() -> None:
    gun = weapon("Twin-linked bolter", "24", "4", "5", "Rapid Fire, Twin-linked")
    # 19": 1 shot; the 1 misses (3+), the re-roll 3 hits; the wound roll 1 fails.
    battle, _, _ = fire([(30, 10)], gun, [(30, 30)], [1, 3, 1])
    assert last(of_kind(battle, "shots")).hits == 1
    assert dice_purposes(battle)[1].startswith("re-roll misses")
    assert all_dice_used(battle)


def test_seed000_twin_linked_does_not_reroll_hits() -> None:
    gun = weapon("Twin-linked bolter", "24", "4", "5", "Rapid Fire, Twin-linked")
    battle, _, _ = fire([(30, 10)], gun, [(30, 30)], [3, 1])
    assert last(of_kind(battle, "shots")).hits == 1
    assert all_dice_used(battle)


def test_seed000_rending_wound_roll_of_6_is_ap2() -> None:
    cannon = weapon("Assault cannon", "24", "6", "4", "Heavy 4, Rending")
    plated = profile("Power armour", sv="3+")
    # 4 shots, 2 hit; wound rolls 6 and 2 (S6 v T4: 2+): the 6 rends at AP2 (no
    # 3+ save), the 2 is AP4 and allows the 3+ save, which fails on a 1.
    battle, _, _ = fire(
        [(30, 10)], cannon, [(30, 30), (32, 30)], [6, 6, 1, 1, 6, 2, 1], target_profile=plated
    )
    saves = of_kind(battle, "save")
    assert [(s.model, s.save) for s in saves] == [("b.2", "armour")]
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.1", "b.2"]
    assert all_dice_used(battle)
    # The log says why b.1 took no save: the 6 rends, and AP2 beats its 3+ armour.
    [none] = of_kind(battle, "no_save")
    assert (none.model, none.ap, none.armour, none.rend) == ("b.1", 2, 3, "Rending")
    assert none.text == "  b.1 has no save: AP2 (Rending: a 6 to wound is AP2) against armour 3+"


def test_seed000_a_wound_whose_profile_ap_beats_the_armour_is_logged_without_a_save() -> None:
    # Lascannon S9 AP2 at a 3+ model: 1 shot hits on 3 (BS4: 3+), wounds on 2 (S9 v T4:
    # 2+); AP2 beats 3+ armour and there is no other save: no roll, a NoSave line.
    lascannon = weapon("Lascannon", "48", "9", "2", "Heavy 1")
    plated = profile("Power armour", sv="3+")
    battle, _, _ = fire([(30, 10)], lascannon, [(30, 30)], [3, 2], target_profile=plated)
    [none] = of_kind(battle, "no_save")
    assert (none.model, none.ap, none.armour, none.rend) == ("b.1", 2, 3, "")
    assert of_kind(battle, "save") == []
    assert all_dice_used(battle)
    # AP5 against the same armour: a save is rolled (a 1 fails), and no NoSave line.
    bolter = weapon("Bolter", "24", "4", "5", "Rapid Fire")
    battle, _, _ = fire([(30, 10)], bolter, [(30, 30)], [3, 4, 1], target_profile=plated)
    assert of_kind(battle, "no_save") == []
    assert [s.save for s in of_kind(battle, "save")] == ["armour"]


def test_seed000_rending_6_wounds_regardless_of_toughness() -> None:
    # 6th/7th-edition Rending: a To Wound roll of 6 wounds "regardless of its
    # Toughness". S3 cannot wound T7 on the chart ("-"), but a 6 still does.
    claws = weapon("Rending pistol", "12", "3", "-", "Pistol, Rending")
    wraith = profile("Wraith", t=7, w=1, sv="3+")
    battle, _, target = fire([(30, 10)], claws, [(30, 20)], [6, 6], target_profile=wraith)
    assert last(of_kind(battle, "wounds")).wounds == 1
    assert alive_ids(target) == []
    assert all_dice_used(battle)
    # A 5 does not.
    battle, _, target = fire([(30, 10)], claws, [(30, 20)], [6, 5], target_profile=wraith)
    assert last(of_kind(battle, "wounds")).wounds == 0
    # Without Rending no dice are rolled to wound at all.
    plain = weapon("Pistol", "12", "3", "-", "Pistol")
    battle, _, _ = fire([(30, 10)], plain, [(30, 20)], [6], target_profile=wraith)
    assert last(of_kind(battle, "wounds")).needed == "-"
    assert all_dice_used(battle)


def test_seed000_step3_each_weapon_name_fires_separately() -> None:
    # A unit mixing weapons fires each weapon name on its own; each shots event names it.
    unit = make_unit(
        "a",
        A,
        [Placed(MARINE, [BOLTGUN], (30, 10)), Placed(MARINE, [HEAVY_BOLTER], (32, 10))],
    )
    target = squad("b", B, GUARD, [LASGUN], [(31, 30)])
    battle = make_battle(unit, target, dice=[1, 1, 1, 1])
    fire_weapon(battle, unit, target, "Boltgun", FireOrders())
    fire_weapon(battle, unit, target, "Heavy bolter", FireOrders())
    assert [(e.weapon, e.shots) for e in of_kind(battle, "shots")] == [
        ("Boltgun", 1),
        ("Heavy bolter", 3),
    ]


def test_a_template_beyond_the_range_the_orders_count_is_asked_no_aim_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seed 000, step 3: a model fires where a target model is within its weapon's range;
    # a template must also go over a model it may be placed on (markers.aim_points, the
    # costly test). Orders that count the target 20" off (an estimate's "a move nearer")
    # leave the flamer (a template: 8") out of range and the boltgun (24") in it: the
    # flamer's carrier fires nothing, and where its template could go is not asked.
    asks: list[str] = []

    def counted(
        battle: Battle, unit: Unit, firer: Model, target: Unit, profile: WeaponProfile, **kw: bool
    ) -> list[Model]:
        asks.append(firer.id)
        return aim_points(battle, unit, firer, target, profile, **kw)

    monkeypatch.setattr("hammerlab.editions.waffle.attacks.aim_points", counted)
    shooter = make_unit(
        "a", A, [Placed(MARINE, [BOLTGUN], (30.0, 10.0)), Placed(MARINE, [FLAMER], (32.0, 10.0))]
    )
    target = squad("b", B, MARINE, [BOLTGUN], [(31.0, 40.0)])
    battle = make_battle(shooter, target)
    orders = FireOrders(counts_within=20.0)
    assert dict(firing_each(battle, shooter, target, orders)) == {
        "Boltgun": [shooter.models[0]],
        "Flamer": [],
    }
    assert asks == []
    # Counted 6" off the flamer reaches: its template's aim is asked, and it fires.
    orders = FireOrders(counts_within=6.0)
    assert firing_models(battle, shooter, target, "Flamer", orders) == [shooter.models[1]]
    assert asks == [shooter.models[1].id]


def test_a_unit_beyond_every_weapon_s_range_is_asked_nothing_of_the_firers_wargear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seed 000, step 3: "Every model that wishes to shoot must be within range of at
    # least one visible model in the target unit". A boltgun reaches 24", a flamer's
    # template 8": a squad 30" off (28.7" between bases) is beyond both, and what each
    # model's wargear gives it to fire (attacks._fired) is not asked; one 20" off is
    # within the boltgun's range, and it is. Asked inside a decision (where the gaps
    # between the units are remembered for every pass, and read first).
    shooter = make_unit(
        "a", A, [Placed(MARINE, [BOLTGUN], (30.0, 10.0)), Placed(MARINE, [FLAMER], (32.0, 10.0))]
    )
    far = squad("b", B, MARINE, [BOLTGUN], [(30.0, 40.0)])
    near = squad("c", B, MARINE, [BOLTGUN], [(30.0, 30.0)])
    battle = make_battle(shooter, far, near)
    fired = attacks._fired

    def unasked(*args: object) -> object:
        raise AssertionError("asked what a wargear fires")

    monkeypatch.setattr(attacks, "_fired", unasked)
    with memo.decision_scope():
        assert dict(firing_each(battle, shooter, far, FireOrders())) == {
            "Boltgun": [],
            "Flamer": [],
        }
    monkeypatch.setattr(attacks, "_fired", fired)
    with memo.decision_scope():
        assert dict(firing_each(battle, shooter, near, FireOrders())) == {
            "Boltgun": [shooter.models[0]],
            "Flamer": [],
        }


def test_a_unit_with_no_ranged_weapon_reads_no_gap_table_inside_a_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seed 000, step 3: only "models with the weapon" shoot. Twenty Marines with a
    # melee weapon alone fire nothing at a squad 35" off, and the gaps between the two
    # units (read first inside a decision, for the far-target test) are not worked out
    # for a pass that has no weapon to ask about.
    choppa = weapon("Choppa", "-", "User", "-", "Melee")
    mob = make_unit("a", A, [Placed(MARINE, [choppa], (10.0 + k, 5.0)) for k in range(20)])
    far = squad("b", B, MARINE, [BOLTGUN], [(10.0, 40.0)])
    battle = make_battle(mob, far)
    tables: list[object] = []
    real = attacks.gap_table
    monkeypatch.setattr(attacks, "gap_table", lambda *a: tables.append(a) or real(*a))
    with memo.decision_scope():
        assert dict(firing_each(battle, mob, far, FireOrders())) == {}
        assert expected_attack(battle, mob, far, FireOrders()) == 0.0
    assert tables == []


def test_every_ranged_weapon_s_firing_models_are_one_answer_per_decision() -> None:
    # Seed 000, step 3: a model fires where a target model is within its weapon's range.
    # The near squad stands 30" off (28.7" between bases): the heavy bolter (36") reaches
    # it, the boltguns (24") and the bolt pistol (12") do not; the far squad, 40" off,
    # is beyond them all: the near squad is the one target.
    shooter = make_unit(
        "a",
        A,
        [
            Placed(MARINE, [BOLTGUN], (30.0, 10.0)),
            Placed(MARINE, [BOLTGUN, BOLT_PISTOL], (32.0, 10.0)),
            Placed(MARINE, [HEAVY_BOLTER], (34.0, 10.0)),
        ],
    )
    near = squad("n", B, MARINE, [BOLTGUN], [(32.0, 40.0)])
    far = squad("f", B, MARINE, [BOLTGUN], [(32.0, 50.0)])
    battle = make_battle(shooter, near, far)
    expected = {"Boltgun": [], "Bolt pistol": [], "Heavy bolter": [shooter.models[2]]}
    assert dict(firing_each(battle, shooter, near, FireOrders())) == expected
    with memo.decision_scope():
        # In a decision every weapon's models are one remembered answer, read by all.
        once = firing_each(battle, shooter, near, FireOrders())
        assert dict(once) == expected
        assert firing_each(battle, shooter, near, FireOrders()) is once
        assert targets_for(battle, shooter, FireOrders()) == [near]
    assert targets_for(battle, shooter, FireOrders()) == [near]


def test_a_plain_volley_asked_per_weapon_then_per_attack_is_worked_out_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Marine with a heavy bolter, one with a boltgun; three Unarmoured T4 models 20"
    # off, within both ranges, no cover. Heavy bolter: Heavy 3, BS4 hits 2/3, S5 v T4
    # wounds on 3+ (2/3), AP4 against 6+: 3 x 2/3 x 2/3 = 4/3. Boltgun at 20" (over half
    # its 24"): one shot, 2/3, S4 v T4 wounds on 4+ (1/2), AP5 against 6+: 1/3. Each
    # model fires its one weapon: the attack is 4/3 + 1/3 = 5/3 (of three models).
    battle, gunners, target = _gunners_and_mob()
    worked: list[str] = []  # each volley whose defence is read: a volley worked out
    read = expected_module.volley_defence

    def counted(battle: Battle, unit: Unit, target: Unit, firer: Model, *rest: Any) -> Any:
        worked.append(rest[0].name)
        return read(battle, unit, target, firer, *rest)

    monkeypatch.setattr(expected_module, "volley_defence", counted)
    with memo.decision_scope():
        # The plans ask each weapon's volley (shooting_plans.weapon_worth), then the
        # attack's (expected.attack_volleys): the same question, answered once.
        heavy = expected_casualties(battle, gunners, target, "Heavy bolter", FireOrders())
        bolter = expected_casualties(battle, gunners, target, "Boltgun", FireOrders())
        assert (heavy, bolter) == (pytest.approx(4 / 3), pytest.approx(1 / 3))
        assert expected_attack(battle, gunners, target, FireOrders()) == pytest.approx(5 / 3)
        assert expected_attack(battle, gunners, target, FireOrders(), None) == pytest.approx(5 / 3)
    assert sorted(worked) == ["Boltgun", "Heavy bolter"]


def test_an_attack_asked_what_if_works_its_volleys_out_with_one_re_roll_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The gunners and the mob above: the heavy bolter's volley 4/3, the boltgun's 1/3,
    # the attack 5/3. Asked "what if the mob had not gone to ground" (no question a
    # plan asks weapon by weapon), each volley is worked out from the firing models the
    # attack holds, the mob's re-rolls asked once for both: asked of expected_casualties
    # weapon by weapon, each volley asked its firing models and the re-rolls again.
    battle, gunners, target = _gunners_and_mob()
    asked: list[str] = []
    rerolls = expected_module._shot_rerolls
    models = expected_module.firing_models

    def rerolls_asked(*args: Any) -> Any:
        asked.append("re-rolls")
        return rerolls(*args)

    def models_asked(*args: Any) -> Any:
        asked.append("firing models")
        return models(*args)

    monkeypatch.setattr(expected_module, "_shot_rerolls", rerolls_asked)
    monkeypatch.setattr(expected_module, "firing_models", models_asked)
    with memo.decision_scope():
        assert expected_attack(battle, gunners, target, FireOrders(), None, False) == (
            pytest.approx(5 / 3)
        )
    assert asked == ["re-rolls"]


def _gunners_and_mob() -> tuple[Battle, Unit, Unit]:
    """A Marine with a heavy bolter, one with a boltgun; three Unarmoured T4 models 20"
    off, within both ranges, no cover (the heavy bolter's volley 4/3, the boltgun's 1/3:
    :func:`test_a_plain_volley_asked_per_weapon_then_per_attack_is_worked_out_once`)."""
    gunners = make_unit(
        "a",
        A,
        [Placed(MARINE, [HEAVY_BOLTER], (10, 10)), Placed(MARINE, [BOLTGUN], (12, 10))],
        name="Gunners",
    )
    target = squad("b", B, BARE, [LASGUN], [(9, 31), (11, 31), (13, 31)], name="Mob")
    return make_battle(gunners, target), gunners, target


def test_an_attack_s_volleys_count_spent_only_what_a_later_volley_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each model fires one weapon, the best first (4/3 a model before 1/3): the heavy
    # bolter's model is counted spent, since the boltgun's volley after it asks; the
    # boltgun's, the last volley, is not (nothing after it reads it), nor is the one
    # volley of an attack of the boltgun alone, nothing spent before it.
    battle, gunners, target = _gunners_and_mob()
    counted: list[str] = []
    real = expected_module.spend

    def spend(spent: Counter[str], unit: Unit, models: list[Model], name: str) -> None:
        counted.append(name)
        real(spent, unit, models, name)

    monkeypatch.setattr(expected_module, "spend", spend)
    volleys = attack_volleys(battle, gunners, target, FireOrders())
    assert [(v.name, v.each) for v in volleys] == [
        ("Heavy bolter", pytest.approx(4 / 3)),
        ("Boltgun", pytest.approx(1 / 3)),
    ]
    assert counted == ["Heavy bolter"]
    counted.clear()
    alone = attack_volleys(battle, gunners, target, FireOrders(), ["Boltgun"])
    assert [v.name for v in alone] == ["Boltgun"]
    assert counted == []


def test_whether_a_weapon_would_fire_asks_its_snap_shots_only_for_a_rule_told_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With no rule on "weapon would fire" (Suppressive Fire's is not installed here)
    # nothing forbids a weapon to fire, and whether it fires Snap Shots is not asked; a
    # rule installed is told it (orders to snap fire: Snap Shots), and may forbid it.
    battle, gunners, _ = _gunners_and_mob()
    asked: list[bool] = []
    real = expected_module.fires_snap

    def fires_snap(*args: Any) -> bool:
        asked.append(real(*args))
        return asked[-1]

    monkeypatch.setattr(expected_module, "fires_snap", fires_snap)
    heavy = weapon_of(HEAVY_BOLTER)
    assert not battle.hooks.get(WEAPON_WOULD_FIRE)
    assert would_fire(battle, gunners, heavy, FireOrders())
    assert would_fire(battle, gunners, heavy, FireOrders(snap=True))
    assert asked == []
    told: list[bool] = []

    def no_snap(
        battle: Battle, unit: Unit, profile: WeaponProfile, snap: bool, orders: FireOrders
    ) -> str | None:
        told.append(snap)
        return "no Snap Shots" if snap else None

    battle.hooks.add(WEAPON_WOULD_FIRE, no_snap)
    assert would_fire(battle, gunners, heavy, FireOrders())
    assert not would_fire(battle, gunners, heavy, FireOrders(snap=True))
    assert asked == told == [False, True]


def test_a_marker_s_aims_read_the_table_s_models_once_for_all_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A frag missile (Blast) at three models in a line 2" apart: each is an aim point.
    # Its worth (expected.aim_value) counts the enemy models within 2.5" of the aim and
    # twice the own ones within 3.5": 2, 3 and 2 enemy models, no own model near, so the
    # middle model is aimed at. The models of the player's units are gathered once for
    # the three aims (Battle.units_of once more than the aim points ask it), not once
    # an aim.
    launcher = make_unit("a", A, [Placed(MARINE, [FRAG_MISSILE], (10, 10))], name="Launcher")
    target = squad("b", B, BARE, [LASGUN], [(9, 31), (11, 31), (13, 31)], name="Mob")
    battle = make_battle(launcher, target)
    firer, frag = launcher.models[0], weapon_of(FRAG_MISSILE)
    points = aim_points(battle, launcher, firer, target, frag)
    assert points == target.models
    values = [aim_value(battle, launcher, firer, frag, aim) for aim in points]
    assert values == [2.0, 3.0, 2.0]
    assert aim_values(battle, launcher, firer, frag, points) == values
    asked: list[str] = []
    real = Battle.units_of

    def units_of(self: Battle, player: str) -> list[Unit]:
        asked.append(player)
        return real(self, player)

    monkeypatch.setattr(Battle, "units_of", units_of)
    aim_points(battle, launcher, firer, target, frag)
    by_points = len(asked)
    asked.clear()
    assert likely_aim(battle, launcher, firer, target, frag) is target.models[1]
    assert len(asked) == by_points + 1
