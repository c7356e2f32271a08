"""Seed 000 proposed rules, as options: Suppressive Fire (with its sub-options
``suppressive_pinning`` and ``shock_troops``) and Final Shot."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    BOLTGUN,
    FLAMER,
    FRAG_MISSILE,
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    MARINE,
    MORTAR,
    A,
    B,
    Placed,
    alive_ids,
    all_dice_used,
    asked,
    last,
    make_battle,
    make_unit,
    of_kind,
    profile,
    shooting_phase,
    squad,
    weapon,
)

from hammerlab.analysis.game import Game
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.concussive import concussed
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.rules import OPTIONS
from hammerlab.editions.waffle.state import st
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.rules import RuleSettingError, resolve_settings
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_seed000_proposed_rules_are_options_off_by_default() -> None:
    defaults = resolve_settings(OPTIONS, (), {}).options
    assert defaults == {
        "suppressive_fire": False,
        "suppressive_pinning": False,
        "shock_troops": False,
        "final_shot": False,
        "final_blow": False,
        "fiery_charge": False,
        "shooting_into_combat": False,
        # the seeds' reactions are rules too, on unless switched off
        "return_fire": True,
        "dive_for_cover": True,
        "overwatch": True,
        "fall_back": True,
        # 7th-edition Jink, declared like a reaction (rules/jink.py)
        "jink": True,
    }
    with pytest.raises(RuleSettingError, match="final_shot"):
        resolve_settings(OPTIONS, (), {"final_shoot": True})


# --- Suppressive Fire ----------------------------------------------------------------


def suppress_script(gun: str = "Heavy bolter") -> list[tuple[str, str]]:
    return [
        ("shooter", "Squad [a]"),
        ("action", "suppressive fire"),
        ("target", "Guard [b]"),
        ("weapon", gun),
    ]


@pytest.mark.parametrize("on", [False, True])
def test_seed000_suppressive_fire_offered_only_when_the_option_is_on(on: bool) -> None:
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": on},
        script_a=[("shooter", "Squad [a]"), ("action", "hold")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    expected = ["shoot", "suppressive fire", "run", "hold"] if on else ["shoot", "run", "hold"]
    assert menu.labels() == expected


def four_guards(rules: tuple[str, ...] = ()) -> Unit:
    return squad(
        "b", B, GUARD, [LASGUN], [(30, 30), (32, 30), (34, 30), (36, 30)], name="Guard", rules=rules
    )


def test_seed000_suppressive_fire_removes_nothing_and_tests_morale_minus_1_per_wound() -> None:
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = four_guards()
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True},
        dice=[
            *[6, 6, 1],  # 2 hits
            *[6, 6],  # 2 wounds (S5 v T4 on 3+); AP4 beats the 5+ save
            *[3, 3],  # 2 of 4 would die (>= 25%): Morale at Ld 7 - 2 = 5; 6 fails
            *[1, 1],  # falls back 2"
        ],
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert of_kind(battle, "casualty") == [] and of_kind(battle, "wound") == []
    assert [m.wounds_left for m in guard.models] == [1, 1, 1, 1]
    (check,) = of_kind(battle, "morale")
    assert (check.test, check.leadership, check.modifier, check.roll, check.passed) == (
        "Morale check",
        7,
        -2,
        6,
        False,
    )
    assert "Suppressive Fire" in check.reason
    assert st(battle, guard).falling_back
    assert all_dice_used(battle)


def test_seed000_suppressive_fire_no_check_unless_25_percent_would_have_died() -> None:
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30 + 2 * k, 30) for k in range(8)], name="Guard")
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True},
        dice=[6, 1, 1, 6],  # 1 would-be casualty of 8: 12.5%, no check
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert of_kind(battle, "morale") == []
    (untested,) = of_kind(battle, "suppression_untested")
    assert (untested.wounds, untested.reason) == (
        1,
        "it would have lost 1 of 8 model(s) this phase, under 25%",
    )
    assert all_dice_used(battle)


def test_seed000_suppressive_fire_would_be_wounds_add_up_across_weapons() -> None:
    # Two-wound Nobz: a Boltgun wound and then a Heavy bolter wound on the same
    # (closest) model would have killed it: 1 of 4 is 25%, so they test at -2.
    nob = profile("Nob", ws=4, bs=2, w=2, ld=7, sv="-")
    shooters = make_unit(
        "a",
        A,
        [Placed(MARINE, [BOLTGUN], (30, 10)), Placed(MARINE, [HEAVY_BOLTER], (32, 10))],
        name="Squad",
    )
    nobz = squad("b", B, nob, [LASGUN], [(31, 30), (35, 30), (39, 30), (43, 30)], name="Guard")
    battle = make_battle(
        shooters,
        nobz,
        options={"suppressive_fire": True},
        dice=[
            *[6, 6],  # Boltgun (19"): 1 shot hits, wounds b.1 (19.02" from both firers)
            *[6, 1, 1, 6],  # Heavy bolter: 1 hit, wounds b.1 again
            *[2, 2],  # Morale: 4 against Ld 7 - 2, passed
        ],
        script_a=[*suppress_script("Boltgun"), ("weapon", "Heavy bolter")],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert [m.wounds_left for m in nobz.models] == [2, 2, 2, 2]
    (check,) = of_kind(battle, "morale")
    assert (check.modifier, check.passed) == (-2, True)
    assert all_dice_used(battle)


def shoot_then_suppress(*suppressors: Unit) -> list[tuple[str, str]]:
    """Squad [a] shoots Guard [b] with its Boltgun, then each of ``suppressors`` (a
    Heavy bolter each) takes Suppressive Fire at it."""
    script = [
        ("shooter", "Squad [a]"),
        ("action", "shoot"),
        ("target", "Guard [b]"),
        ("weapon", "Boltgun"),
    ]
    for unit in suppressors:
        script += [("shooter", unit.label), *suppress_script()[1:]]
    return script


def heavy(uid: str, x: float) -> Unit:
    return squad(uid, A, MARINE, [HEAVY_BOLTER], [(x, 10)], name="Heavy")


def test_seed000_suppressive_fire_that_would_cause_no_wound_forces_no_check() -> None:
    # "if the target unit would have suffered enough wounds to take a Morale check":
    # an attack that would have caused no Wound caused none enough. The Boltgun slays
    # one Guardsman of four (25%), the Heavy bolter's three shots all miss: no test
    # for Suppressive Fire, and the phase's end gives the one 25% check, at full Ld.
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    suppressor = heavy("c", 40)
    guard = four_guards()
    battle = make_battle(
        shooter,
        suppressor,
        guard,
        options={"suppressive_fire": True},
        dice=[
            *[6, 6],  # Boltgun (20": one shot) hits, wounds; AP5 beats the 5+ save
            *[1, 1, 1],  # Heavy bolter: three misses
            *[3, 3],  # end of phase, 1 of 4 lost: Morale check 6 against Ld 7, passed
        ],
        script_a=shoot_then_suppress(suppressor),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (untested,) = of_kind(battle, "suppression_untested")
    assert (untested.unit, untested.wounds, untested.reason) == (
        "Guard [b]",
        0,
        "it would have suffered no Wound",
    )
    (check,) = of_kind(battle, "morale")
    assert (check.modifier, check.roll, check.passed) == (0, 6, True)
    assert check.reason == "lost 1 of 4 models this phase"
    assert all_dice_used(battle)


def test_seed000_suppressive_check_is_the_phases_25_percent_check_taken_once() -> None:
    # "they must take that morale check": the check the wounds cause, the phase's one
    # 25% check (6th/7th: "must take a Morale check at the end of that phase"). One
    # Guardsman of four slain, one more would have been: the Suppressive check at
    # Ld 7 - 1 is that check, and the phase's end does not give it again.
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    suppressor = heavy("c", 40)
    guard = four_guards()
    battle = make_battle(
        shooter,
        suppressor,
        guard,
        options={"suppressive_fire": True},
        dice=[
            *[6, 6],  # Boltgun: b.1 slain
            *[6, 1, 1],  # Heavy bolter: one hit
            6,  # wounds (S5 v T4, 3+); AP4 beats the 5+ save: one would-be casualty
            *[3, 3],  # Suppressive check: 6 against Ld 7 - 1, passed
        ],
        script_a=shoot_then_suppress(suppressor),
        script_b=[("reaction", "no reaction"), ("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (check,) = of_kind(battle, "morale")
    assert (check.reason, check.modifier, check.roll, check.passed) == (
        "Suppressive Fire, 1 wound(s)",
        -1,
        6,
        True,
    )
    assert alive_ids(guard) == ["b.2", "b.3", "b.4"]
    assert all_dice_used(battle)


def test_seed000_a_second_suppressive_fire_in_the_phase_forces_no_second_check() -> None:
    # Two Heavy bolter squads suppress the four Guardsmen: the first would have slain
    # two (50%), so they test at Ld 7 - 2 (4: passed); the second would have slain
    # one (25%), but the unit took its Morale check for the phase's casualties.
    first, second = heavy("c", 40), heavy("d", 44)
    guard = four_guards()
    battle = make_battle(
        first,
        second,
        guard,
        options={"suppressive_fire": True},
        dice=[
            *[6, 6, 1, 6, 6],  # first: two hits, two wounds, no save
            *[2, 2],  # Morale check 4 against Ld 7 - 2: passed
            *[6, 1, 1, 6],  # second: one hit, one wound, no save
        ],
        script_a=[
            ("shooter", "Heavy [c]"),
            *suppress_script()[1:],
            ("shooter", "Heavy [d]"),
            *suppress_script()[1:],
        ],
        script_b=[("reaction", "no reaction"), ("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (check,) = of_kind(battle, "morale")
    assert (check.modifier, check.roll, check.passed) == (-2, 4, True)
    (untested,) = of_kind(battle, "suppression_untested")
    assert (untested.wounds, untested.reason) == (
        1,
        "it took its Morale check for this phase's casualties already",
    )
    assert all_dice_used(battle)


def test_seed000_suppressive_fire_at_a_unit_falling_back_says_why_no_test_follows() -> None:
    # 6th/7th edition: a unit already falling back takes no Morale check from
    # shooting; the two would-be casualties of four call for one, and the log says why
    # none is taken.
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = four_guards()
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True},
        dice=[6, 6, 1, 6, 6],  # two hits, two wounds, no save
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    st(battle, guard).falling_back = True
    shooting_phase(battle, A)
    assert of_kind(battle, "morale") == []
    (untested,) = of_kind(battle, "suppression_untested")
    assert (untested.wounds, untested.reason) == (
        2,
        "it is falling back: no Morale check from shooting",
    )
    assert all_dice_used(battle)


@pytest.mark.parametrize("rule", ["Concussive", "Pinning"])
def test_seed000_suppressive_fire_wounds_are_not_suffered_so_weapon_rules_do_not_apply(
    rule: str,
) -> None:
    # "do not remove any models or reduce any wounds as a result of this shooting":
    # no model suffers an unsaved Wound, which Concussive ("A model that suffers one or
    # more unsaved Wounds ... is reduced to Initiative 1") and Pinning ("If a non-vehicle
    # unit suffers one or more unsaved Wounds ... Pinning test") need. One hit (6), one
    # wound (S4 v T4: 6), the 5+ save fails (1); the W2 Ogryn would lose one wound, no
    # model would die: no Morale check either.
    gun = weapon("Gun", "36", "4", "-", f"Heavy 1, {rule}")
    shooter = squad("a", A, MARINE, [gun], [(30, 10)], name="Squad")
    ogryn = profile("Ogryn", w=2, i=4, ld=7, sv="5+")
    guard = squad("b", B, ogryn, [LASGUN], [(30 + 2 * k, 30) for k in range(4)], name="Guard")
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True},
        dice=[6, 6, 1],
        script_a=suppress_script("Gun"),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert [m.wounds_left for m in guard.models] == [2, 2, 2, 2]
    assert not any(concussed(battle, m) for m in guard.models)
    assert of_kind(battle, "morale") == []
    assert all_dice_used(battle)


@pytest.mark.parametrize("state", ["moved", "gone_to_ground", "falling_back"])
def test_seed000_suppressive_fire_not_offered_when_every_weapon_would_snap_fire(
    state: str,
) -> None:
    # "Snap shots cannot be used as Suppressive Fire": a unit whose only weapon is a
    # Heavy bolter it moved with, or that has gone to ground or is falling back, would
    # fire nothing but Snap Shots, so the action is not offered (docs/rules/waffle.md).
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Guard")
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True},
        script_a=[("shooter", "Squad [a]"), ("action", "hold")],
    )
    if state == "moved":
        shooter.status.moved = True
    else:
        setattr(st(battle, shooter), state, True)
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert "suppressive fire" not in menu.labels()


def test_seed000_suppressive_fire_heavy_weapon_after_moving_snap_shots_cannot_suppress() -> None:
    # "Snap shots cannot be used as Suppressive Fire": the moved Heavy bolter would
    # only snap fire, so it does not fire; the Boltgun does.
    shooters = make_unit(
        "a",
        A,
        [Placed(MARINE, [BOLTGUN], (30, 10)), Placed(MARINE, [HEAVY_BOLTER], (32, 10))],
        name="Squad",
    )
    shooters.status.moved = True
    guard = four_guards()
    battle = make_battle(
        shooters,
        guard,
        options={"suppressive_fire": True},
        dice=[1],  # the Boltgun misses
        script_a=[*suppress_script("Heavy bolter"), ("weapon", "Boltgun")],
    )
    shooting_phase(battle, A)
    assert [e.weapon for e in of_kind(battle, "shots")] == ["Boltgun"]
    [unfired] = of_kind(battle, "not_fired")
    assert (unfired.weapon, unfired.reason) == ("Heavy bolter", "vetoed")
    assert "cannot be used as Suppressive Fire" in unfired.detail
    assert all_dice_used(battle)


def test_seed000_suppressive_pinning_option_tests_pinning_instead_of_morale() -> None:
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = four_guards()
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True, "suppressive_pinning": True},
        dice=[6, 6, 1, 6, 6, 6, 6],  # 2 would-be casualties; Pinning test 12: failed
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (check,) = of_kind(battle, "morale")
    # "a pinning check rather than morale": the test changes, the -1 per wound stays
    assert (check.test, check.modifier, check.passed) == ("Pinning test", -2, False)
    assert st(battle, guard).pinned and st(battle, guard).gone_to_ground
    assert not st(battle, guard).falling_back
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("rules", "modifier", "passed"), [((), -6, False), (("Stubborn",), 0, True)]
)
def test_seed000_suppressive_pinning_takes_the_penalty_parameter_per_wound(
    rules: tuple[str, ...], modifier: int, passed: bool
) -> None:
    # The Pinning test "rather than morale" keeps "a -1 penalty to their Ld for each
    # Wound they would have suffered", here ld_penalty_per_wound=3: two wounds, Ld 7 - 6;
    # 3 fails. Stubborn (7th edition: "takes Morale checks or Pinning tests, they
    # ignore any negative Leadership modifiers") tests at Ld 7: 3 passes.
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = four_guards(rules)
    battle = make_battle(
        shooter,
        guard,
        options={
            "suppressive_fire": True,
            "suppressive_pinning": True,
            "suppressive_fire.ld_penalty_per_wound": 3,
        },
        dice=[6, 6, 1, 6, 6, 1, 2],  # 2 would-be casualties; Pinning test 3
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (check,) = of_kind(battle, "morale")
    assert (check.test, check.reason, check.modifier, check.roll, check.passed) == (
        "Pinning test",
        "Suppressive Fire, 2 wound(s)",
        modifier,
        3,
        passed,
    )
    assert st(battle, guard).gone_to_ground is not passed
    assert all_dice_used(battle)


@pytest.mark.parametrize("option", ["suppressive_pinning", "shock_troops"])
def test_seed000_suppressive_sub_options_are_refused_with_suppressive_fire_off(
    option: str,
) -> None:
    # Both install only on Suppressive Fire's own hook points: without it they would
    # be reported on and change nothing, as a parameter with its rule off would.
    with pytest.raises(RuleSettingError, match=f"{option} is on but suppressive_fire is off"):
        resolve_settings(OPTIONS, (), {option: True})
    with pytest.raises(RuleSettingError, match=f"{option} is on but suppressive_fire is off"):
        resolve_settings(
            OPTIONS, (), {"suppressive_fire": True, option: True}, {"suppressive_fire": "off"}
        )
    assert resolve_settings(OPTIONS, (), {"suppressive_fire": True, option: True}).on(option)


@pytest.mark.parametrize("option", [True, False])
def test_seed000_shock_troops_option_ignores_suppressive_fire(option: bool) -> None:
    shooter = squad("a", A, MARINE, [HEAVY_BOLTER], [(30, 10)], name="Squad")
    guard = four_guards(rules=("Shock Troops",))
    dice = [6, 6, 1, 6, 6]
    if not option:
        dice += [1, 2]  # without the sub-option Shock Troops test as anyone: 3, passed
    battle = make_battle(
        shooter,
        guard,
        options={"suppressive_fire": True, "shock_troops": option},
        dice=dice,
        script_a=suppress_script(),
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    assert len(of_kind(battle, "morale")) == (0 if option else 1)
    ignored = [(e.unit, e.rule) for e in of_kind(battle, "suppression_ignored")]
    assert ignored == ([(guard.label, "Shock Troops")] if option else [])
    if option:
        assert of_kind(battle, "suppression_ignored")[0].text == (
            f"{guard.label} are Shock Troops: Suppressive Fire ignored"
        )
    assert all_dice_used(battle)


# --- Final Shot -----------------------------------------------------------------------


def last_marine_standing(gun: Weapon = BOLTGUN, rules: tuple[str, ...] = ()) -> Unit:
    """A two-model unit whose second model is already dead: a.1, one wound left."""
    unit = make_unit(
        "a",
        A,
        [Placed(MARINE, [gun], (30, 10), rules), Placed(MARINE, [gun], (32, 10))],
        name="Squad",
    )
    unit.models[1].wounds_left = 0
    return unit


def five_guards() -> Unit:
    # 3" apart: a blast marker on b.1 covers no other model.
    return squad("b", B, GUARD, [LASGUN], [(30 + 3 * k, 30) for k in range(5)], name="Guard")


def test_seed000_final_shot_chains_extra_attacks_for_every_wound() -> None:
    squad_a, guard = last_marine_standing(), five_guards()
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True},
        dice=[
            *[3, 4],  # the Boltgun (19", 1 shot): hits 3+, wounds 4+
            *[5, 6],  # a Final Shot for that wound: hits and wounds again
            *[4, 5],  # a Final Shot for that one: hits and wounds again ("and so on")
            1,  # the next Final Shot misses: the chain ends
        ],
        script_a=[("final_shot", "Final Shot")],
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    # 3 wounds; AP5 beats 5+: no saves: the three closest guardsmen die.
    assert alive_ids(guard) == ["b.4", "b.5"]
    assert sum(e.wounds for e in of_kind(battle, "wounds")) == 3
    assert all_dice_used(battle)


CHIMERA = Profile(
    name="Chimera",
    characteristics={"BS": "3", "Front": "12", "Side": "10", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Transport)",
)
"""Codex: Astra Militarum (2014): BS 3, 12/10/10, HP 3."""


def test_seed000_final_shot_is_not_earned_by_a_hit_on_a_vehicle() -> None:
    # Seed 000: "for every successful wound this model causes": a vehicle suffers no
    # wound (7th edition: a hit on it rolls armour penetration, not To Wound, and a
    # glancing or penetrating hit takes a Hull Point), so the last Marine's penetrating
    # lascannon hit earns no Final Shot (docs/rules/waffle.md, interpretation 3).
    # Hit 3 (3+); the Chimera faces the Marine: 9 + 5 = 14 against Front AV12,
    # penetrating; damage 1 + 1 (AP2) = 2, Crew Shaken. No decision is asked.
    squad_a = last_marine_standing(weapon("Lascannon", "48", "9", "2", "Heavy 1"))
    tank = make_unit("t", B, [Placed(CHIMERA, [], (30, 30))], name="Chimera")
    battle = make_battle(squad_a, tank, options={"final_shot": True}, dice=[3, 5, 1])
    fire_weapon(battle, squad_a, tank, "Lascannon", FireOrders())
    (damage,) = of_kind(battle, "vehicle_damage")
    assert (damage.hull_points, damage.result) == (2, "Crew Shaken")
    assert asked(battle, A) == []
    assert all_dice_used(battle)


def test_seed000_final_shot_is_off_by_default() -> None:
    squad_a, guard = last_marine_standing(), five_guards()
    battle = make_battle(squad_a, guard, dice=[3, 4])
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert asked(battle, A) == []
    assert alive_ids(guard) == ["b.2", "b.3", "b.4", "b.5"]
    assert all_dice_used(battle)


def test_seed000_final_shot_may_be_declined() -> None:
    squad_a, guard = last_marine_standing(), five_guards()
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True},
        dice=[3, 4],
        script_a=[("final_shot", "No")],
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert len(alive_ids(guard)) == 4
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("gun", "dice", "aim"),
    [
        (FRAG_MISSILE, [1, 4, 1], True),  # Blast: HIT, wound, 5+ armour (AP6) fails
        (MORTAR, [1, 4, 1], True),  # Barrage
        (weapon("Demolisher", "24", "10", "2", "Ordnance 1"), [3], False),  # Ordnance
    ],
    ids=["blast", "barrage", "ordnance"],
)
def test_seed000_final_shot_not_with_blast_template_barrage_or_ordnance(
    gun: Weapon, dice: list[int], aim: bool
) -> None:
    squad_a, guard = last_marine_standing(gun), five_guards()
    name = gun.name
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True},
        dice=dice,
        script_a=[("aim", "b.1")] if aim else [],
    )
    fire_weapon(battle, squad_a, guard, name, FireOrders())
    assert asked(battle, A, "final_shot") == []
    assert len(alive_ids(guard)) == 4
    assert all_dice_used(battle)


def test_seed000_final_shot_not_with_a_template() -> None:
    # The template from (30,24) toward b.1 (30,30) reaches y = 32 and covers only b.1.
    unit = make_unit(
        "a", A, [Placed(MARINE, [FLAMER], (30, 24)), Placed(MARINE, [FLAMER], (32, 24))]
    )
    unit.models[1].wounds_left = 0
    guard = five_guards()
    battle = make_battle(
        unit,
        guard,
        options={"final_shot": True},
        dice=[4],  # S4 v T4 wounds on 4+; AP5 beats 5+: no save
        script_a=[("aim", "b.1")],
    )
    fire_weapon(battle, unit, guard, "Flamer", FireOrders())
    assert asked(battle, A, "final_shot") == []
    assert alive_ids(guard) == ["b.2", "b.3", "b.4", "b.5"]
    assert all_dice_used(battle)


@pytest.mark.parametrize("how", ["rule", "unit type"])
def test_seed000_final_shot_not_for_independent_characters(how: str) -> None:
    if how == "rule":
        squad_a = last_marine_standing(rules=("Independent Character",))
    else:
        hero = profile("Chaplain", unit_type="Infantry (Independent Character)")
        squad_a = make_unit(
            "a", A, [Placed(hero, [BOLTGUN], (30, 10)), Placed(MARINE, [BOLTGUN], (32, 10))]
        )
        squad_a.models[1].wounds_left = 0
    guard = five_guards()
    battle = make_battle(squad_a, guard, options={"final_shot": True}, dice=[3, 4])
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert asked(battle, A) == []
    assert all_dice_used(battle)


def test_seed000_final_shot_needs_a_multiple_model_unit() -> None:
    lone = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Squad")
    guard = five_guards()
    battle = make_battle(lone, guard, options={"final_shot": True}, dice=[3, 4])
    fire_weapon(battle, lone, guard, "Boltgun", FireOrders())
    assert asked(battle, A) == []


@pytest.mark.parametrize(("wounds_left", "offered"), [(1, True), (2, False)])
def test_seed000_final_shot_only_for_last_model_with_a_single_wound(
    wounds_left: int, offered: bool
) -> None:
    # "only a single model with only a single wound (If it had multiple wounds,
    # with all but the last one having been lost previously)".
    veteran = profile("Veteran", w=2)
    unit = make_unit(
        "a", A, [Placed(veteran, [BOLTGUN], (30, 10)), Placed(veteran, [BOLTGUN], (32, 10))]
    )
    unit.models[0].wounds_left = wounds_left
    unit.models[1].wounds_left = 0
    guard = five_guards()
    battle = make_battle(
        unit,
        guard,
        options={"final_shot": True},
        dice=[3, 4],
        script_a=[("final_shot", "No")] if offered else [],
    )
    fire_weapon(battle, unit, guard, "Boltgun", FireOrders())
    assert len(asked(battle, A, "final_shot")) == int(offered)


def test_seed000_final_shot_extra_attacks_keep_the_weapon_rules() -> None:
    # "identical Strength, AP, and any other applicable special rules": a Rending
    # Final Shot wound roll of 6 is AP2 and denies the 3+ save.
    gun = weapon("Rending carbine", "24", "4", "5", "Assault 1, Rending")
    squad_a = last_marine_standing(gun)
    targets = squad("b", B, MARINE, [BOLTGUN], [(30, 30), (32, 30)], name="Marines")
    battle = make_battle(
        squad_a,
        targets,
        options={"final_shot": True},
        dice=[
            *[3, 4],  # hit, wound (AP5)
            *[3, 6],  # Final Shot: hit, wound with a 6: rends
            1,  # next Final Shot misses
            2,  # b.1's 3+ save against the AP5 wound fails
        ],
        script_a=[("final_shot", "Final Shot")],
    )
    fire_weapon(battle, squad_a, targets, "Rending carbine", FireOrders())
    assert [(s.model, s.save) for s in of_kind(battle, "save")] == [("b.1", "armour")]
    assert alive_ids(targets) == []
    assert last(of_kind(battle, "casualty")).model == "b.2"
    assert all_dice_used(battle)


def four_plus_guards() -> Unit:
    """Five guardsmen whose 4+ save the Boltgun's AP5 does not beat."""
    armoured = profile("Carapace", bs=3, s=3, ld=7, sv="4+")
    return squad("b", B, armoured, [LASGUN], [(30 + 3 * k, 30) for k in range(5)], name="Guard")


def test_seed000_final_shot_earned_by_wound_roll_counts_saved_wounds_too() -> None:
    # Reading 1 (default): "for every successful wound this model causes" = each
    # successful wound roll, before saves; the extra wounds are saved with the rest.
    squad_a, guard = last_marine_standing(), four_plus_guards()
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True},
        dice=[
            *[3, 4],  # hits 3+, wounds 4+: one wound roll succeeds
            *[5, 6],  # its Final Shot hits and wounds
            1,  # the next one misses: the chain ends
            *[4, 1],  # the two wounds are allocated: the first saved (4+), the second not
        ],
        script_a=[("final_shot", "Final Shot")],
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert len(alive_ids(guard)) == 4
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("saves", "asked_for", "left"),
    [
        ([4], 0, 5),  # the wound is saved: nothing earned, no Final Shot offered
        ([1, 5, 6, 2, 1], 1, 3),  # unsaved: a Final Shot; its wound unsaved: another; a miss
    ],
)
def test_seed000_final_shot_earned_by_unsaved_wound_waits_for_the_saves(
    saves: list[int], asked_for: int, left: int
) -> None:
    # Reading 2 (parameter final_shot.earned_by=unsaved_wound): a wound earns an
    # extra attack only once it is unsaved, so the chain runs after allocation.
    squad_a, guard = last_marine_standing(), four_plus_guards()
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True, "final_shot.earned_by": "unsaved_wound"},
        # hit 3, wound 4, then the save(s) and the chain: save 1 fails; Final Shot
        # hits 5, wounds 6; its save 2 fails; the next Final Shot misses (1).
        dice=[3, 4, *saves],
        script_a=[("final_shot", "Final Shot")] * asked_for,
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert len(asked(battle, A, "final_shot")) == asked_for
    assert len(alive_ids(guard)) == left
    assert all_dice_used(battle)


def two_plus_guards(count: int) -> Unit:
    """``count`` carapace guardsmen (4+ save), 3" apart from x = 30: b.1 is the closest."""
    armoured = profile("Carapace", bs=3, s=3, ld=7, sv="4+")
    return squad("b", B, armoured, [LASGUN], [(30 + 3 * k, 30) for k in range(count)], name="Guard")


def test_seed000_final_shot_earned_by_unsaved_wound_ends_when_the_target_is_destroyed() -> None:
    # "it may immediately make an additional attack ... against that same target. If
    # these additional attacks cause wounds, they gain another attack against that
    # target, and so on": once the target's last model is removed there is no target
    # left, and the chain ends. Two guardsmen: the Boltgun hits (3) and wounds (4),
    # b.1's save fails (1): b.1 dies; a Final Shot hits (5), wounds (6), b.2's save
    # fails (2): the unit is destroyed. That unsaved wound earns no attack: no die
    # more is rolled (one more to-hit roll crashed on the empty unit's Toughness).
    squad_a, guard = last_marine_standing(), two_plus_guards(2)
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True, "final_shot.earned_by": "unsaved_wound"},
        dice=[3, 4, 1, 5, 6, 2],
        script_a=[("final_shot", "Final Shot")],
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert guard.destroyed
    made = [(e.rule, e.unit, e.model, e.attacks) for e in of_kind(battle, "final_attacks")]
    assert made == [("final_shot", squad_a.label, "a.1", 1)]
    assert of_kind(battle, "final_attacks")[0].text == "a.1 makes 1 Final Shot(s)"
    assert all_dice_used(battle)


def test_seed000_final_shot_earned_by_unsaved_wound_not_offered_at_a_destroyed_target() -> None:
    # The weapon's own unsaved wound removes the target's only model (hit 3, wound 4,
    # save 1): there is no "same target" to attack, so no Final Shot is offered.
    squad_a, guard = last_marine_standing(), two_plus_guards(1)
    battle = make_battle(
        squad_a,
        guard,
        options={"final_shot": True, "final_shot.earned_by": "unsaved_wound"},
        dice=[3, 4, 1],
    )
    fire_weapon(battle, squad_a, guard, "Boltgun", FireOrders())
    assert guard.destroyed
    assert asked(battle, A, "final_shot") == []
    assert all_dice_used(battle)


@pytest.mark.parametrize("seed", [5, 11, 17, 33])
def test_seed000_final_shot_unsaved_chain_on_the_lone_lascannon_stops_at_the_carnifex(
    seed: int,
) -> None:
    # examples/lab_final_shot_lone_lascannon.toml with earned_by=unsaved_wound: these
    # seeds (the review's, of 1..40) crashed once the Carnifex was removed, by the
    # chain or by a Return Fire that earned one. Now the battle plays to its end,
    # the Carnifex is removed, and no Final Shot comes after its removal.
    path = ROOT / "examples" / "lab_final_shot_lone_lascannon.toml"
    game = Game.start(
        load_scenario(path), str(path), seed, rules={"final_shot.earned_by": "unsaved_wound"}
    )
    game.play()
    assert game.is_over
    assert game.battle.unit("carnifex").destroyed
    events = game.battle.log.events
    removed = next(i for i, e in enumerate(events) if e.kind == "casualty")
    assert not [e for e in events[removed:] if e.kind == "final_attacks"]


def test_seed000_final_shot_unsaved_chain_of_the_review_seed_5() -> None:
    # Seed 5, as the review's log shows it: the lascannon's shot wounds, then every
    # Final Shot hits and wounds. The lascannon (S9 AP2) does one wound a hit (no save
    # against AP2; Instant Death against T6 needs S12), and the Carnifex has W4: its
    # own wound and three Final Shots remove it, and a fourth has no target.
    path = ROOT / "examples" / "lab_final_shot_lone_lascannon.toml"
    game = Game.start(
        load_scenario(path), str(path), 5, rules={"final_shot.earned_by": "unsaved_wound"}
    )
    game.play()
    assert game.battle.unit("carnifex").destroyed
    made = [(e.model, e.attacks) for e in of_kind(game.battle, "final_attacks")]
    assert made == [("lascannon.5", 1)] * 3
    assert game.winner == "Ultramarines"


def test_seed001_final_blow_earned_by_unsaved_wound_is_a_parameter_too() -> None:
    settings = resolve_settings(OPTIONS, (), {"final_blow.earned_by": "unsaved_wound"})
    assert settings.text("final_blow.earned_by") == "unsaved_wound"
    with pytest.raises(RuleSettingError, match="wound_roll, unsaved_wound"):
        resolve_settings(OPTIONS, (), {"final_blow.earned_by": "saves"})
