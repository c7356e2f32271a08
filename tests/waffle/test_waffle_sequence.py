"""Seed 000, "The Shooting Sequence": steps 1 to 8, driven with scripted dice.

Bases are 1" across (see conftest), so a base-to-base distance is the centre
distance minus 1".
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    FLAMER,
    HEAVY_BOLTER,
    LASGUN,
    MORTAR,
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
    model,
    of_kind,
    profile,
    shooting_phase,
    squad,
    story,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.estimate import p_hit
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.state import st

GUARD = profile("Guardsman", bs=3, t=4, ld=7, sv="4+")


def test_seed000_eight_step_sequence_in_order() -> None:
    """Nominate, target, weapon, hit, wound, allocate, another weapon, reaction."""
    marine = profile("Space Marine")
    shooters = make_unit(
        "a",
        A,
        [Placed(marine, [BOLTGUN], (30, 10)), Placed(marine, [HEAVY_BOLTER], (32, 10))],
        name="Squad",
    )
    targets = squad("b", B, GUARD, [LASGUN], [(30, 30), (32, 30), (34, 30)], name="Guard")
    battle = make_battle(
        shooters,
        targets,
        dice=[
            # Step 4, Boltgun: a.1 is 19" from b.1 (> 12", half range): 1 shot, BS4 hits on 3+.
            5,
            # Step 5: S4 v T4 wounds on 4+.
            4,
            # Step 6: closest is b.1 (19" vs 19.1"); AP5 lets its 4+ armour save: 1 fails.
            1,
            # Step 7, Heavy bolter: 3 shots on 3+ -> 2 hits; S5 v T4 on 3+ -> 1 wound;
            # AP4 beats the 4+ save: no roll; goes to b.2 (19" from a.2, b.3 is 19.1").
            *[6, 6, 1],
            *[3, 2],
            # Step 8, Return Fire!: b.3 is 19.1" from a.2: 1 Lasgun shot; BS3 snaps at BS1: 6+.
            6,
            # S3 v T4 wounds on 5+; a.2 (19.1", a.1 is 19.4") fails its 3+ save with a 2.
            *[5, 2],
            # End of phase: a lost 1 of 2, Ld 8: 7 passes; b lost 2 of 3, Ld 7: 12 fails.
            *[3, 4],
            *[6, 6],
            # b falls back 2D6 = 2" toward its own (north) edge.
            *[1, 1],
        ],
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Boltgun"),
            ("weapon", "Heavy bolter"),
        ],
        script_b=[("reaction", "Return Fire!"), ("weapon", "Lasgun")],
    )

    shooting_phase(battle, A)

    assert story(battle) == [
        "decision:shooter",  # 1. nominate
        "decision:action",
        "decision:target",  # 2. choose a target
        "decision:weapon",  # 3. select a weapon
        "shots",  # 4. to hit
        "wounds",  # 5. to wound
        "save",  # 6. allocate & save
        "wound",
        "casualty",
        "decision:weapon",  # 7. another weapon
        "shots",
        "wounds",
        "no_save",  # AP4 against the 4+ armour: said, not rolled
        "wound",
        "casualty",
        "decision:reaction",  # 8. reaction to shooting
        "reaction",
        "decision:weapon",
        "shots",
        "wounds",
        "save",
        "wound",
        "casualty",
        "morale",  # end of phase: the active player's unit first
        "morale",
        "reaction",  # b falls back
        "move",
    ]
    assert all_dice_used(battle)
    weapon_menus = [d.labels() for d in asked(battle, A, "weapon")]
    assert weapon_menus == [["Boltgun", "Heavy bolter", "stop"], ["Heavy bolter", "stop"]]
    shots = [
        (e.weapon, e.models, e.shots, e.hits, e.needed, e.snap) for e in of_kind(battle, "shots")
    ]
    assert shots == [
        ("Boltgun", 1, 1, 1, "3+", False),
        ("Heavy bolter", 1, 3, 2, "3+", False),
        ("Lasgun", 1, 1, 1, "6+", True),
    ]
    assert [(e.needed, e.wounds) for e in of_kind(battle, "wounds")] == [
        ("4+", 1),
        ("3+", 1),
        ("5+", 1),
    ]
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.1", "b.2", "a.2"]
    assert [(e.unit, e.passed) for e in of_kind(battle, "morale")] == [
        ("Squad [a]", True),
        ("Guard [b]", False),
    ]
    assert alive_ids(shooters) == ["a.1"]
    assert alive_ids(targets) == ["b.3"]
    assert st(battle, targets).falling_back
    assert model(battle, "b.3").position == pytest.approx((34, 32))
    phases = [(e.player, e.begins) for e in of_kind(battle, "phase")]
    assert phases == [(A, True), (A, False)]


def test_seed000_step1_only_units_that_have_not_shot_are_nominated() -> None:
    marine = profile("Space Marine")
    first = squad("a", A, marine, [BOLTGUN], [(10, 10)], name="First")
    second = squad("c", A, marine, [BOLTGUN], [(60, 10)], name="Second")
    ran = squad("d", A, marine, [BOLTGUN], [(40, 4)], name="Ran")
    locked = squad("e", A, marine, [BOLTGUN], [(50, 4)], name="Locked")
    foe = squad("f", B, marine, [BOLTGUN], [(50, 5)], name="Foe")  # in base contact
    enemy = squad("b", B, marine, [BOLTGUN], [(35, 40)], name="Enemy")
    battle = make_battle(
        first,
        second,
        ran,
        locked,
        foe,
        enemy,
        script_a=[
            ("shooter", "First [a]"),
            ("action", "hold"),
            ("shooter", "Second [c]"),
            ("action", "hold"),
        ],
    )
    st(battle, ran).ran = True
    shooting_phase(battle, A)
    menus = [d.labels() for d in asked(battle, A, "shooter")]
    # "Choose one of your units that is able to shoot but has yet to do so this turn":
    # a unit that ran or is locked in combat is never offered; one that acted is not again.
    assert menus == [["First [a]", "Second [c]", "end phase"], ["Second [c]", "end phase"]]
    assert st(battle, first).has_shot and st(battle, second).has_shot


def test_seed000_step2_target_must_be_visible_blocks_sight_terrain() -> None:
    marine = profile("Space Marine")
    shooter = squad("a", A, marine, [BOLTGUN], [(40, 10)], name="Squad")
    seen = squad("b", B, GUARD, [LASGUN], [(28, 25)], name="Seen")  # 18.2" away
    hidden = squad("c", B, GUARD, [LASGUN], [(40, 30)], name="Hidden")  # 19" away
    wall = box("Hab block", 36, 18, 44, 20, blocks_sight=True)  # across x = 40 only
    battle = make_battle(
        shooter,
        seen,
        hidden,
        terrain=[wall],
        dice=[1],  # one Boltgun shot (18.2" > 12") misses
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Seen [b]"),
            ("weapon", "Boltgun"),
        ],
    )
    shooting_phase(battle, A)
    (target_menu,) = asked(battle, A, "target")
    assert target_menu.labels() == ["Seen [b]"]
    assert all_dice_used(battle)
    assert of_kind(battle, "shots")[0].hits == 0
    # Nothing hit, so nobody may react.
    assert asked(battle, B) == []


def test_seed000_step2_with_no_target_shoot_is_not_offered_and_the_prompt_says_why() -> None:
    # From a player's review (session 22, finding 6): "What does Tactical Squad do? 1.
    # run 2. hold", with no word of why it may not shoot. The Boltgun reaches 24"; Far
    # stands 30" off centre to centre, 29.0" base to base.
    shooter = squad("a", A, profile("Space Marine"), [BOLTGUN], [(40, 10)], name="Squad")
    far = squad("b", B, GUARD, [LASGUN], [(40, 40)], name="Far")
    battle = make_battle(shooter, far, script_a=[("shooter", "Squad [a]"), ("action", "hold")])
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.labels() == ["run", "hold"]
    assert menu.not_offered() == (
        'shoot: no enemy unit in range (24" at most; the nearest, Far [b], is 29.0" away)',
    )


def test_seed000_step2_an_enemy_locked_in_combat_or_out_of_sight_is_said_to_be_no_target() -> None:
    # Locked stands in base contact with A's Brawlers: locked in combat, not a target
    # (6th/7th edition). Hidden is 19" off (in the Boltgun's 24") behind a wall that
    # blocks sight: "Models that cannot see the target ... cannot shoot" (seed 000).
    shooter = squad("a", A, profile("Space Marine"), [BOLTGUN], [(40, 10)], name="Squad")
    brawlers = squad("c", A, profile("Space Marine"), [], [(20, 30)], name="Brawlers")
    locked = squad("d", B, GUARD, [LASGUN], [(20, 31)], name="Locked")
    hidden = squad("e", B, GUARD, [LASGUN], [(40, 30)], name="Hidden")
    wall = box("Hab block", 36, 18, 44, 20, blocks_sight=True)
    battle = make_battle(
        shooter,
        brawlers,
        locked,
        hidden,
        terrain=[wall],
        script_a=[("shooter", "Squad [a]"), ("action", "hold")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.labels() == ["run", "hold"]
    assert menu.not_offered() == (
        "shoot: Locked [d] is locked in combat: not a target",
        "shoot: no other enemy unit in range is seen by a model able to fire at it",
    )


def test_seed000_a_moved_heavy_blast_unit_is_told_it_cannot_fire_snap_shots() -> None:
    # From a shooting referee's review (session 24, finding 3): a moved unit of two
    # Mortars (Heavy 1, Blast, Barrage; 48") with its target 10" away in the open was told
    # "no enemy unit in range is seen by a model able to fire at it". Seed 000: a Heavy
    # weapon moved fires Snap Shots, and "Some weapon types ... such as Blast, cannot be
    # fired as Snap Shots": that is why.
    mortars = squad("a", A, GUARD, [MORTAR], [(40, 10), (42, 10)], name="Mortars")
    mortars.status.moved = True
    target = squad("b", B, GUARD, [LASGUN], [(40, 21)], name="Target")
    battle = make_battle(mortars, target, script_a=[("shooter", "Mortars [a]"), ("action", "hold")])
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.labels() == ["run", "hold"]
    assert menu.not_offered() == ("shoot: Mortar cannot be fired as Snap Shots (the unit moved)",)


def test_seed000_a_gone_to_ground_flamer_unit_is_told_why_it_cannot_shoot() -> None:
    # The same review: a Flamer unit gone to ground 6" from its target. A unit gone to
    # ground fires Snap Shots (6th/7th edition), and a Template cannot (seed 000).
    burners = squad("a", A, GUARD, [FLAMER], [(40, 10)], name="Burners")
    target = squad("b", B, GUARD, [LASGUN], [(40, 17)], name="Target")
    battle = make_battle(burners, target, script_a=[("shooter", "Burners [a]"), ("action", "hold")])
    st(battle, burners).gone_to_ground = True
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.not_offered() == (
        "shoot: Flamer cannot be fired as Snap Shots (the unit has gone to ground)",
    )


def test_seed000_beside_a_weapon_that_cannot_snap_fire_the_range_is_its_other_weapons() -> None:
    # A moved unit with a Mortar (48") and a Boltgun (24"), the target 30" off centre to
    # centre (29.0" base to base): the Mortar cannot fire Snap Shots, and the Boltgun does
    # not reach. Before, the Mortar's 48" counted, and the line blamed sight.
    squad_a = make_unit(
        "a", A, [Placed(GUARD, [MORTAR], (40, 10)), Placed(GUARD, [BOLTGUN], (42, 10))]
    )
    squad_a.status.moved = True
    far = squad("b", B, GUARD, [LASGUN], [(40, 40)], name="Far")
    battle = make_battle(squad_a, far, script_a=[("shooter", "A [a]"), ("action", "hold")])
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.not_offered() == (
        "shoot: Mortar cannot be fired as Snap Shots (the unit moved)",
        'shoot: no enemy unit in range (24" at most; the nearest, Far [b], is 29.0" away)',
    )


def test_seed000_step3_models_out_of_range_or_sight_do_not_fire() -> None:
    marine = profile("Space Marine")
    shooters = squad(
        "a",
        A,
        marine,
        [BOLTGUN],
        [
            (30, 10),  # 19" from b.1: fires
            (50, 2),  # sqrt(20^2 + 28^2) - 1 = 33.4" > 24": out of range
            (36, 12),  # 18" away, but the pillar blocks its line to b.1
        ],
    )
    target = squad("b", B, GUARD, [LASGUN], [(30, 30)])
    pillar = box("Pillar", 32.5, 19, 34, 21, blocks_sight=True)
    battle = make_battle(shooters, target, terrain=[pillar], dice=[1])
    fire_weapon(battle, shooters, target, "Boltgun", FireOrders())
    shots = last(of_kind(battle, "shots"))
    assert (shots.models, shots.shots) == (1, 1)
    assert all_dice_used(battle)


def test_seed000_step3_range_is_measured_to_a_visible_model_of_the_target() -> None:
    # "Every model that wishes to shoot must be within range of at least one visible
    # model in the target unit": b.2 is in range (13.1") but hidden; b.1 is in sight
    # but 29" away: the Boltgun cannot fire.
    shooter = squad("a", A, profile("Space Marine"), [BOLTGUN], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 40), (40, 20)])
    wall = box("Wall", 34, 13, 36, 17, blocks_sight=True)  # across (30,10)-(40,20) only
    battle = make_battle(shooter, target, terrain=[wall])
    result = fire_weapon(battle, shooter, target, "Boltgun", FireOrders())
    assert not result.fired
    assert of_kind(battle, "shots") == []
    assert [(e.weapon, e.reason) for e in of_kind(battle, "not_fired")] == [
        ("Boltgun", "no_model_can_fire")
    ]


def test_seed000_step3_all_models_with_the_same_weapon_name_fire() -> None:
    marine = profile("Space Marine")
    sergeant = profile("Sergeant", ld=9)
    shooters = make_unit(
        "a",
        A,
        [
            Placed(sergeant, [BOLTGUN, BOLT_PISTOL], (30, 10)),
            Placed(marine, [BOLTGUN], (32, 10)),
            Placed(marine, [HEAVY_BOLTER], (34, 10)),
        ],
    )
    target = squad("b", B, GUARD, [LASGUN], [(32, 30)])
    # Two Boltguns, both beyond 12": 1 shot each, rolled model by model.
    battle = make_battle(shooters, target, dice=[1, 2])
    fire_weapon(battle, shooters, target, "Boltgun", FireOrders())
    shots = last(of_kind(battle, "shots"))
    assert (shots.weapon, shots.models, shots.shots, shots.hits) == ("Boltgun", 2, 2, 0)
    assert all_dice_used(battle)


def test_seed000_step4_bs6_rerolls_a_miss_on_6_plus() -> None:
    hero = profile("Hero", bs=6)
    shooter = squad("a", A, hero, [BOLT_PISTOL], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 20)])  # 9": in pistol range
    # BS6: 2+, a miss re-rolled hits on 6+: the 1 is re-rolled into a 6. Wound roll 1 fails.
    battle = make_battle(shooter, target, dice=[1, 6, 1])
    fire_weapon(battle, shooter, target, "Bolt pistol", FireOrders())
    assert last(of_kind(battle, "shots")).hits == 1
    assert dice_purposes(battle)[1].startswith("re-roll misses")
    assert "6+" in dice_purposes(battle)[1]
    assert all_dice_used(battle)


def test_twin_linked_at_bs7_rerolls_a_miss_on_2_plus_not_5_plus() -> None:
    """6th/7th edition Twin-linked: "re-roll failed To Hit rolls" at the normal score.

    BS7 alone re-rolls a miss on 5+; a twin-linked weapon re-rolls it on its
    normal 2+, the better of the two re-rolls (a die is re-rolled once).
    """
    hero = profile("Hero", bs=7)
    gun = weapon("Twin-linked bolt pistol", "12", "4", "5", "Pistol, Twin-linked")
    shooter = squad("a", A, hero, [gun], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 20)])
    # The 1 misses; the re-roll of 2 hits on 2+ (it would miss on BS7's 5+). Wound roll 1.
    battle = make_battle(shooter, target, dice=[1, 2, 1])
    fire_weapon(battle, shooter, target, gun.name, FireOrders())
    assert last(of_kind(battle, "shots")).hits == 1
    assert "2+" in dice_purposes(battle)[1]
    assert all_dice_used(battle)


def test_higher_ballistic_skill_never_hits_less_often() -> None:
    """6th/7th-edition BS chart with BS 6+ re-rolls, with and without Twin-linked.

    By hand: BS1..5 hit on 6+..2+ (1/6..5/6); BS6..10 on 2+ with a 1 re-rolled
    on 6+..2+ (31/36..35/36); twin-linked re-rolls a miss on the same score
    (BS4: 4/6 + 2/6 * 4/6 = 32/36; BS5 and up: 5/6 + 1/6 * 5/6 = 35/36).
    """
    plain = [Fraction(k, 6) for k in range(1, 6)] + [Fraction(k, 36) for k in range(31, 36)]
    twin = [1 - (1 - p) ** 2 for p in plain[:5]] + [Fraction(35, 36)] * 5
    assert twin[3] == Fraction(32, 36)
    for bs in range(1, 11):
        assert p_hit(bs) == pytest.approx(float(plain[bs - 1])), bs
        assert p_hit(bs, twin_linked=True) == pytest.approx(float(twin[bs - 1])), bs
    for chances in (plain, twin):
        assert chances == sorted(chances)
    assert p_hit(7, twin_linked=True) >= p_hit(5, twin_linked=True)


def test_seed000_step4_bs5_has_no_reroll() -> None:
    veteran = profile("Veteran", bs=5)
    shooter = squad("a", A, veteran, [BOLT_PISTOL], [(30, 10)])
    target = squad("b", B, GUARD, [LASGUN], [(30, 20)])
    battle = make_battle(shooter, target, dice=[1])  # 2+ needed: the 1 misses, no re-roll
    fire_weapon(battle, shooter, target, "Bolt pistol", FireOrders())
    assert last(of_kind(battle, "shots")).hits == 0
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("toughnesses", "needed", "roll", "wounded"),
    [
        # Majority T3: S4 v T3 wounds on 3+.
        ((3, 3, 3, 5, 5), "3+", 3, True),
        # Majority T5: S4 v T5 wounds on 5+: a 4 fails.
        ((3, 3, 5, 5, 5), "5+", 4, False),
        # A tie uses the highest Toughness (6th/7th edition): T5.
        ((3, 3, 5, 5), "5+", 4, False),
    ],
)
def test_seed000_step5_to_wound_uses_majority_toughness_of_mixed_unit(
    toughnesses: tuple[int, ...], needed: str, roll: int, wounded: bool
) -> None:
    shooter = squad("a", A, profile("Space Marine"), [BOLT_PISTOL], [(30, 10)])
    target = make_unit(
        "b",
        B,
        [
            Placed(profile(f"T{t}", t=t, sv="-"), [LASGUN], (30 + 2 * k, 20))
            for k, t in enumerate(toughnesses)
        ],
    )
    battle = make_battle(shooter, target, dice=[6, roll])
    fire_weapon(battle, shooter, target, "Bolt pistol", FireOrders())
    rolled = last(of_kind(battle, "wounds"))
    assert (rolled.needed, rolled.wounds) == (needed, int(wounded))
    assert len(of_kind(battle, "casualty")) == int(wounded)
    assert all_dice_used(battle)


def test_seed000_step6_wounds_go_to_closest_model_first() -> None:
    shooter = squad("a", A, profile("Space Marine"), [HEAVY_BOLTER], [(30, 10)])
    nobody = profile("Unarmoured", sv="-")
    target = squad(
        "b",
        B,
        nobody,
        [LASGUN],
        [
            (30, 30),  # 19"
            (30, 26),  # 15": closest
            (30, 34),  # 23": farthest
            (33, 26),  # sqrt(9 + 256) - 1 = 15.28": next closest
        ],
    )
    # 3 shots hit on 3+, 3 wounds on 3+ (S5 v T4), no save.
    battle = make_battle(shooter, target, dice=[6, 6, 6, 6, 6, 6])
    fire_weapon(battle, shooter, target, "Heavy bolter", FireOrders())
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.2", "b.4", "b.1"]
    assert alive_ids(target) == ["b.3"]
    assert all_dice_used(battle)


def test_seed000_step6_of_models_equally_close_the_first_of_the_unit_takes_the_wound() -> None:
    # b.2 and b.3 stand 19" from the gun (centres 20" away, mirrored about x = 30),
    # b.1 29": the tie goes to b.2, the earlier of the unit, then b.3, then b.1.
    shooter = squad("a", A, profile("Space Marine"), [HEAVY_BOLTER], [(30, 10)])
    nobody = profile("Unarmoured", sv="-")
    target = squad("b", B, nobody, [LASGUN], [(30, 40), (18, 26), (42, 26)])
    assert math.hypot(18 - 30, 26 - 10) == math.hypot(42 - 30, 26 - 10) == 20.0
    battle = make_battle(shooter, target, dice=[6, 6, 6, 6, 6, 6])
    fire_weapon(battle, shooter, target, "Heavy bolter", FireOrders())
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.2", "b.3", "b.1"]
    assert all_dice_used(battle)


def test_seed000_step6_wounds_go_to_the_model_closest_to_the_firing_unit() -> None:
    # "Any Wounds caused by the firing unit ... to the closest model in the target
    # unit" (6th edition: "closest to the firing unit"). A heavy bolter team at the
    # back (10, 10) and a Guardsman at the front (30, 10); the target's b.1 at
    # (30, 20) is 9" from the Guardsman (base to base, 1" bases) and b.2 at
    # (10, 24) 13" from the gunner (22.4" from the Guardsman). The heavy bolter
    # alone fires (BS3): two 6s hit, a 1 misses; both wound (6s), no save. The
    # first goes to b.1, the model closest to the unit, not b.2, the one closest to
    # the gun; the second to b.2.
    shooter = make_unit(
        "a",
        A,
        [Placed(GUARD, [HEAVY_BOLTER], (10, 10)), Placed(GUARD, [LASGUN], (30, 10))],
    )
    nobody = profile("Unarmoured", sv="-")
    target = squad("b", B, nobody, [LASGUN], [(30, 20), (10, 24)])
    battle = make_battle(shooter, target, dice=[6, 6, 1, 6, 6])
    fire_weapon(battle, shooter, target, "Heavy bolter", FireOrders())
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.1", "b.2"]
    assert all_dice_used(battle)


def test_seed000_step6_multi_wound_model_takes_wounds_until_removed_then_next_closest() -> None:
    shooter = squad("a", A, profile("Space Marine"), [HEAVY_BOLTER], [(30, 10)])
    ogryn = profile("Ogryn", t=4, w=2, sv="-")
    target = squad("b", B, ogryn, [LASGUN], [(30, 26), (33, 26), (30, 34)])
    battle = make_battle(shooter, target, dice=[6, 6, 6, 6, 6, 6])
    fire_weapon(battle, shooter, target, "Heavy bolter", FireOrders())
    lost = [(e.model, e.lost, e.left) for e in of_kind(battle, "wound")]
    # b.1 (15") is the closest, then b.2 (15.28"); the third model (23") is untouched.
    assert lost == [("b.1", 1, 1), ("b.1", 1, 0), ("b.2", 1, 1)]
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.1"]
    assert model(battle, "b.2").wounds_left == 1
    assert model(battle, "b.3").wounds_left == 2


def test_seed000_step6_wounds_only_go_to_models_in_sight_rest_are_lost() -> None:
    shooter = squad("a", A, profile("Space Marine"), [HEAVY_BOLTER], [(30, 10)])
    nobody = profile("Unarmoured", sv="-")
    # b.1 is visible 19" away; b.2 is closer (9") but hidden behind a wall.
    target = squad("b", B, nobody, [LASGUN], [(30, 30), (36, 18)])
    wall = box("Wall", 32, 13, 34, 16, blocks_sight=True)
    assert math.isclose(math.hypot(6, 8) - 1, 9)
    # 3 shots: 2 hit; both wound: b.1 dies and the second wound has no model in sight.
    battle = make_battle(shooter, target, terrain=[wall], dice=[6, 6, 1, 6, 6])
    fire_weapon(battle, shooter, target, "Heavy bolter", FireOrders())
    assert [e.model for e in of_kind(battle, "casualty")] == ["b.1"]
    assert alive_ids(target) == ["b.2"]
    assert [(e.unit, e.reason) for e in of_kind(battle, "remaining_wounds_lost")] == [
        ("B [b]", "none_in_sight")
    ]
    assert all_dice_used(battle)


def test_seed000_step7_each_model_fires_one_weapon_then_no_other_weapon_left() -> None:
    marine = profile("Space Marine")
    shooters = squad("a", A, marine, [BOLTGUN, BOLT_PISTOL], [(30, 10), (32, 10)], name="Squad")
    target = squad("b", B, GUARD, [LASGUN], [(31, 20)], name="Guard")  # 9.05" and 9.05"
    battle = make_battle(
        shooters,
        target,
        dice=[1, 1, 1, 1],  # within 12": two Boltgun shots each, all miss
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Boltgun"),
        ],
    )
    shooting_phase(battle, A)
    menus = [d.labels() for d in asked(battle, A, "weapon")]
    # 6th/7th edition: each model fires one weapon; with both models spent, the
    # Bolt pistols are not offered again.
    assert menus == [["Boltgun", "Bolt pistol", "stop"]]
    assert all_dice_used(battle)


def test_seed000_step7_stop_ends_the_shooting_attack() -> None:
    marine = profile("Space Marine")
    shooters = make_unit(
        "a",
        A,
        [Placed(marine, [BOLTGUN], (30, 10)), Placed(marine, [HEAVY_BOLTER], (32, 10))],
        name="Squad",
    )
    target = squad("b", B, GUARD, [LASGUN], [(31, 30)], name="Guard")
    battle = make_battle(
        shooters,
        target,
        dice=[1],
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Guard [b]"),
            ("weapon", "Boltgun"),
            ("weapon", "stop"),
        ],
    )
    shooting_phase(battle, A)
    assert [e.weapon for e in of_kind(battle, "shots")] == ["Boltgun"]
    assert all_dice_used(battle)
