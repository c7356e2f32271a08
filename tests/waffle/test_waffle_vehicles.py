"""Vehicles (issue 12 §2): the 7th-edition rules as the Waffle Edition plays them.

Expected values are worked by hand from the rule texts quoted in
``editions/waffle/armour.py``, ``vehicle_damage.py`` and ``vehicles.py``
(comments give the arithmetic); the chances are checked against a separate
brute-force enumeration written here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from conftest import (
    BASE_MM,
    BOLT_PISTOL,
    GUARD,
    LASCANNON,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    make_battle,
    movement_phase,
    of_kind,
    row,
    squad,
    weapon,
)

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.armour import (
    GLANCING,
    NONE,
    PENETRATING,
    ArmourAttack,
    armour_attack,
    penetration_chances,
    penetration_result,
)
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.combat import in_contact, refresh_locks
from hammerlab.editions.waffle.expected import expected_casualties
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON, attacks_of, fight_sub_phase
from hammerlab.editions.waffle.firepower import weapons_per_phase
from hammerlab.editions.waffle.morale import go_to_ground, morale_check, pinning_test
from hammerlab.editions.waffle.move_plans import drives_off
from hammerlab.editions.waffle.movement_phase import _may_move
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.rules.reactions import DiveForCover, FallBack, Overwatch
from hammerlab.editions.waffle.shooting import (
    _may_act,
    can_run,
    may_target,
    start_phase,
    weapon_choices,
)
from hammerlab.editions.waffle.shooting_plans import weapon_loss
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicle_damage import (
    CREW_SHAKEN,
    CREW_STUNNED,
    EXPLODES,
    IMMOBILISED,
    WEAPON_DESTROYED,
    damage_chances,
    damage_modifier,
    damage_result,
    resolve_blows_on_vehicle,
)
from hammerlab.editions.waffle.vehicles import (
    FRONT,
    REAR,
    SIDE,
    crew_snap_shots,
    facing_toward,
    fights_in_melee,
    may_move,
    melee_cell_against,
    vehicle_end_of_turn,
    vehicle_of,
    vehicle_status,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.memo import decision_scope
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import parse_scenario

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

LEMAN_RUSS = Profile(
    name="Leman Russ",
    characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Heavy)",
)
"""Codex: Astra Militarum (2014), as the catalogue prints it: BS 3, 14/13/10, HP 3."""
SENTINEL = Profile(
    name="Armoured Sentinel",
    characteristics={
        "WS": "3",
        "BS": "3",
        "S": "5",
        "Front": "12",
        "Side": "10",
        "Rear": "10",
        "I": "3",
        "A": "1",
        "HP": "2",
    },
    unit_type="Vehicle (Walker)",
)
BATTLE_CANNON = weapon("Battle cannon", "72", "8", "3", "Ordnance 1, Large Blast")
HULL_BOLTER = weapon("Heavy bolter", "36", "5", "4", "Heavy 3")
MELTAGUN = weapon("Meltagun", "12", "8", "1", "Assault 1, Melta")
POWER_FIST = weapon("Power fist", "-", "x2", "2", "Melee")


def vehicle_unit(uid: str, player: str, prof: Profile, at: tuple[float, float]) -> Unit:
    """One vehicle on a 100 mm round hull, with its Hull Points as wounds."""
    weapons = (BATTLE_CANNON, HULL_BOLTER) if prof is LEMAN_RUSS else ()
    sheet = Datasheet(
        name=prof.name,
        army="test",
        edition="waffle",
        entries=(ModelEntry(prof, 1, weapons, 100.0),),
    )
    model = Model(
        id=f"{uid}.1",
        profile=prof,
        weapons=weapons,
        position=at,
        base_mm=100.0,
        wounds_left=stats_of(prof).w,
    )
    return Unit(id=uid, name=prof.name, player=player, datasheet=sheet, models=[model])


def tank_battle(
    dice: list[int], shooter_at: tuple[float, float], gun: object, heading: float = 90.0
) -> tuple[Battle, Unit, Unit]:
    """A Marine with ``gun`` (player A) at ``shooter_at``; a Leman Russ (player B) at
    (30,30) facing ``heading`` degrees (90: north, away from a shooter to the south)."""
    shooter = squad("a", A, MARINE, [gun], [shooter_at], name="Marines")  # type: ignore[list-item]
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    battle = make_battle(shooter, tank, dice=dice, script_a=[("weapon_destroyed", "Battle cannon")])
    start_phase(battle, "shooting", A)
    vehicle_status(battle, tank.models[0]).heading = heading
    return battle, shooter, tank


# --- profiles ----------------------------------------------------------------------


def test_a_vehicle_profile_reads_armour_hull_points_and_types() -> None:
    russ = vehicle_of(LEMAN_RUSS)
    assert russ is not None
    assert (russ.front, russ.side, russ.rear, russ.hull_points) == (14, 13, 10, 3)
    assert russ.types == ("Tank", "Heavy") and russ.has_type("tank")
    assert (russ.armour(FRONT), russ.armour(SIDE), russ.armour(REAR)) == (14, 13, 10)
    # W is the Hull Points: every glancing or penetrating hit takes one off.
    assert stats_of(LEMAN_RUSS).w == 3 and stats_of(LEMAN_RUSS).bs == 3
    walker = stats_of(SENTINEL)
    assert (walker.ws, walker.s, walker.i, walker.a, walker.w) == (3, 5, 3, 1, 2)
    assert vehicle_of(MARINE) is None


# --- facing ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bearing", "facing"),
    [(90, FRONT), (134, FRONT), (136, SIDE), (180, SIDE), (0, SIDE), (224, SIDE), (226, REAR),
     (270, REAR), (314, REAR), (316, SIDE), (46, FRONT)],
)  # fmt: skip
def test_facing_is_the_90_degree_arc_the_firer_stands_in(bearing: int, facing: str) -> None:
    """Hull heading 90° (north): Front within 45° of it (45°-135°), Rear within 45° of
    270°, Side between."""
    import math

    point = (10 * math.cos(math.radians(bearing)), 10 * math.sin(math.radians(bearing)))
    assert facing_toward(90.0, (0.0, 0.0), point) == facing


# --- armour penetration ------------------------------------------------------------


def test_d6_plus_strength_equal_to_the_armour_glances_higher_penetrates() -> None:
    lascannon = ArmourAttack(strength=9)
    # S9 vs AV12: 9+2 = 11 < 12 none; 9+3 = 12 glancing; 9+4 = 13 penetrating.
    assert penetration_result(lascannon, 12, (2,), (), 0) == NONE
    assert penetration_result(lascannon, 12, (3,), (), 0) == GLANCING
    assert penetration_result(lascannon, 12, (4,), (), 0) == PENETRATING


def brute_force(
    strength: int, armour: int, *, dice: int = 1, best_of: int = 1, rending: bool = False
) -> dict[str, Fraction]:
    """Every outcome of the dice listed one by one: ``best_of`` dice of which the
    highest counts, ``dice - 1`` more added, a D3 more on a kept 6 with Rending."""
    counts = {NONE: Fraction(0), GLANCING: Fraction(0), PENETRATING: Fraction(0)}
    for rolls in product(range(1, 7), repeat=best_of + dice - 1):
        kept = max(rolls[:best_of])
        base = strength + kept + sum(rolls[best_of:])
        d3s = (1, 2, 3) if rending and kept == 6 else (0,)
        for d3 in d3s:
            total = base + d3
            key = PENETRATING if total > armour else GLANCING if total == armour else NONE
            counts[key] += Fraction(1, 6 ** (best_of + dice - 1) * len(d3s))
    return counts


@pytest.mark.parametrize(
    ("name", "kind", "strength", "armour", "half", "expected"),
    [
        ("Lascannon", "Heavy 1", 9, 14, False, brute_force(9, 14)),
        # Melta within half range: 2D6 + 8 vs 14: > 14 on 7+ (21/36), = 14 on 6 (5/36).
        ("Meltagun", "Assault 1, Melta", 8, 14, True, brute_force(8, 14, dice=2)),
        ("Meltagun", "Assault 1, Melta", 8, 14, False, brute_force(8, 14)),
        # Ordnance: the best of two dice; S8 vs 14 glances on a kept 6 (11/36), never pens.
        ("Battle cannon", "Ordnance 1, Large Blast", 8, 14, False, brute_force(8, 14, best_of=2)),
        ("Krak", "Heavy 1, Armourbane", 8, 14, False, brute_force(8, 14, dice=2)),
        # Rending S4 vs AV10: a 6 makes 10 + D3 > 10, so it never only glances.
        ("Rending", "Assault 1, Rending", 4, 10, False, brute_force(4, 10, rending=True)),
        # Lance: AV14 counts as 12.
        ("Lance", "Assault 1, Lance", 9, 14, False, brute_force(9, 12)),
    ],
)
def test_penetration_chances_match_a_brute_force_enumeration(
    name: str, kind: str, strength: int, armour: int, half: bool, expected: dict[str, Fraction]
) -> None:
    profile = weapon_of(weapon(name, "24", str(strength), "2", kind))
    attack = armour_attack(profile, strength, half_range=half, tank_hunters=False)
    assert penetration_chances(attack, armour) == expected


def test_penetration_chances_by_hand() -> None:
    def chances(kind: str, strength: int, armour: int, half: bool = False) -> tuple[Fraction, ...]:
        profile = weapon_of(weapon("Gun", "24", str(strength), "2", kind))
        attack = armour_attack(profile, strength, half_range=half, tank_hunters=False)
        found = penetration_chances(attack, armour)
        return found[GLANCING], found[PENETRATING]

    sixth = Fraction(1, 6)
    assert chances("Heavy 1", 9, 14) == (sixth, sixth)  # 5: glance, 6: pen
    assert chances("Assault 1, Melta", 8, 14, half=True) == (Fraction(5, 36), Fraction(21, 36))
    assert chances("Ordnance 1", 8, 14) == (Fraction(11, 36), 0)
    assert chances("Assault 1, Rending", 4, 10) == (0, sixth)
    # Haywire: 1 nothing, 2-5 glancing, 6 penetrating, whatever the armour.
    assert chances("Assault 1, Haywire", 3, 14) == (4 * sixth, sixth)


def test_tank_hunters_rerolls_a_failed_penetration_roll() -> None:
    # S9 vs AV14 once: glance 1/6, pen 1/6, nothing 4/6; a failure rolls again:
    # glance 1/6 + 4/6 x 1/6 = 10/36, pen the same, nothing (4/6)^2 = 16/36.
    profile = weapon_of(LASCANNON)
    attack = armour_attack(profile, 9, half_range=False, tank_hunters=True)
    assert penetration_chances(attack, 14) == {
        NONE: Fraction(16, 36),
        GLANCING: Fraction(10, 36),
        PENETRATING: Fraction(10, 36),
    }


# --- the Vehicle Damage table ------------------------------------------------------


def test_the_7th_edition_damage_table_and_its_modifiers() -> None:
    table = {score: damage_result(score) for score in range(0, 9)}
    assert table == {
        0: CREW_SHAKEN,
        1: CREW_SHAKEN,
        2: CREW_SHAKEN,
        3: CREW_SHAKEN,
        4: CREW_STUNNED,
        5: WEAPON_DESTROYED,
        6: IMMOBILISED,
        7: EXPLODES,
        8: EXPLODES,
    }
    assert damage_modifier(1, open_topped=False) == 2
    assert damage_modifier(2, open_topped=False) == 1
    assert damage_modifier(3, open_topped=False) == 0
    assert damage_modifier(None, open_topped=False) == -1
    assert damage_modifier(None, open_topped=True) == 0
    assert damage_modifier(1, open_topped=True) == 3
    # AP1 (+2): 5 and 6 explode; 4 Immobilised, 3 Weapon Destroyed, 2 Stunned, 1 Shaken.
    assert damage_chances(2)[EXPLODES] == Fraction(2, 6)
    assert damage_chances(2)[CREW_SHAKEN] == Fraction(1, 6)


# --- shooting at vehicles in a battle ----------------------------------------------


def test_a_lascannon_from_behind_penetrates_the_rear_and_destroys_a_weapon() -> None:
    # Marine BS4 hits on 3+: 4. Rear AV10: 9 + 2 = 11 > 10, penetrating. No cover.
    # Damage: 4 + 1 (AP2) = 5, Weapon Destroyed: the attacker picks the battle cannon.
    battle, shooter, tank = tank_battle([4, 2, 4], (30.0, 10.0), LASCANNON)
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    russ = tank.models[0]
    (armour,) = of_kind(battle, "armour")
    assert (armour.facing, armour.armour, armour.result) == (REAR, 10, PENETRATING)
    (damage,) = of_kind(battle, "vehicle_damage")
    assert (damage.roll, damage.result, damage.hull_points) == (5, WEAPON_DESTROYED, 2)
    assert [w.name for w in russ.weapons] == ["Heavy bolter"]
    assert russ.wounds_left == 2
    assert all_dice_used(battle)


def land_raider_battle(dice: list[int], fallback: WaffleAI | None = None) -> tuple[Battle, Unit]:
    """A Marine with a lascannon (player A) 20" south of a tank of B that carries a heavy
    bolter and a pair of lascannons, as an imported Land Raider does, its Rear to the
    Marine; the Marine fires its lascannon. Without ``fallback`` A names the Lascannon
    when a Weapon Destroyed result asks it which weapon goes."""
    marine = squad("a", A, MARINE, [LASCANNON], [(30.0, 10.0)], name="Marines")
    tank = vehicle_unit("lr", B, LEMAN_RUSS, (30.0, 30.0))
    tank.models[0] = replace(tank.models[0], weapons=(HULL_BOLTER, LASCANNON, LASCANNON))
    script = [] if fallback else [("weapon_destroyed", "Lascannon")]
    battle = make_battle(marine, tank, dice=dice, script_a=script, fallback=fallback)
    start_phase(battle, "shooting", A)
    vehicle_status(battle, tank.models[0]).heading = 90.0
    fire_weapon(battle, marine, tank, "Lascannon", FireOrders())
    return battle, tank


def test_one_weapon_destroyed_result_destroys_one_of_a_pair_of_lascannons() -> None:
    # 7th edition: Weapon Destroyed, "one weapon (attacker's choice) … is destroyed".
    # Hit 4 (3+), Rear AV10: 9 + 2 = 11, penetrating; damage 4 + 1 (AP2) = 5, Weapon
    # Destroyed; the attacker names the Lascannon: one of the two goes, not both.
    battle, tank = land_raider_battle([4, 2, 4])
    (damage,) = of_kind(battle, "vehicle_damage")
    assert damage.result == WEAPON_DESTROYED
    assert [w.name for w in tank.models[0].weapons] == ["Heavy bolter", "Lascannon"]
    assert all_dice_used(battle)


def test_the_ai_destroys_the_weapon_whose_loss_costs_the_vehicle_s_shooting_most() -> None:
    # The tank (BS3) against the lone Marine (T4, Sv3+, 20" away), one weapon each:
    # heavy bolter 3 shots x 1/2 (4+) x 2/3 (S5 wounds T4 on 3+) x 1/3 (AP4: the 3+ save
    # is taken, fails on 1-2) = 1/3 of a Marine; a lascannon 1 x 1/2 x 5/6 (S9: 2+) x 1
    # (AP2: no save) = 5/12. The AI, attacking, takes a Lascannon (the first listed,
    # its old answer, was the heavy bolter); one of the pair is left.
    battle, tank = land_raider_battle([4, 2, 4], fallback=WaffleAI())
    marines = battle.unit("a")
    with decision_scope():
        assert weapon_loss(battle, tank, "Heavy bolter") == pytest.approx(1 / 3)
        assert weapon_loss(battle, tank, "Lascannon") == pytest.approx(5 / 12)
    (decision,) = asked(battle, A, "weapon_destroyed")
    assert decision.labels() == ["Heavy bolter", "Lascannon"]
    assert [w.name for w in tank.models[0].weapons] == ["Heavy bolter", "Lascannon"]
    assert not marines.destroyed and all_dice_used(battle)


STIKKBOMBS = Weapon(
    name="Stikkbombs",
    characteristics={"Range": "8", "S": "3", "AP": "-", "Type": 'Assault 1, 3" Blast'},
    keywords=("Grenade",),
)
"""The Ork catalogue's Stikkbombs (8" S3 AP-, a 3" Blast grenade), as the library has them."""
SHOOTA = weapon("Shoota", "18", "4", "6", "Assault 2")


def test_the_ai_throws_no_grenade_at_a_tank_it_cannot_hurt() -> None:
    # Three models armed as Boyz, 6" behind a Leman Russ (Rear AV10): a Stikkbomb's
    # S3 + 6 = 9 cannot glance it; a shoota's S4 + 6 = 10 can. Offered both, the AI
    # fires the shoota;
    # offered the grenade alone, it stops (it used to throw it: the marker could only
    # scatter onto its own).
    boyz = squad("o", A, GUARD, [SHOOTA, STIKKBOMBS], row(28.0, 20.0, 3), name="Boyz")
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    battle = make_battle(boyz, tank)
    vehicle_status(battle, tank.models[0]).heading = 90.0

    def chosen(*names: str) -> str:
        decision = Decision(
            kind="weapon",
            player=A,
            prompt="Select a weapon",
            choices=weapon_choices(names),
            context=DecisionContext(unit="o", target="russ"),
        )
        return decision.labels()[WaffleAI().choose(battle, decision)]

    with decision_scope():
        assert expected_casualties(battle, boyz, tank, "Stikkbombs", FireOrders()) == 0
        assert expected_casualties(battle, boyz, tank, "Shoota", FireOrders()) > 0
    assert chosen("Stikkbombs", "Shoota") == "Shoota"
    assert chosen("Stikkbombs") == "stop"


def test_a_lascannon_at_the_front_armour_glances_on_a_5() -> None:
    # Heading 270: the hull faces the shooter to the south. Front AV14: 9 + 5 = 14.
    battle, shooter, tank = tank_battle([3, 5], (30.0, 10.0), LASCANNON, heading=270.0)
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    (armour,) = of_kind(battle, "armour")
    assert (armour.facing, armour.result) == (FRONT, GLANCING)
    (damage,) = of_kind(battle, "vehicle_damage")
    assert (damage.roll, damage.result, damage.hull_points) == (None, "hull point", 2)
    assert all_dice_used(battle)  # a glancing hit rolls nothing on the damage table


def test_a_vehicle_at_no_hull_points_is_wrecked() -> None:
    battle, shooter, tank = tank_battle([3, 5], (30.0, 10.0), LASCANNON, heading=270.0)
    tank.models[0].wounds_left = 1
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    (destroyed,) = of_kind(battle, "vehicle_destroyed")
    assert destroyed.how == "Wrecked" and tank.destroyed


def test_explodes_hits_every_nearby_model_at_strength_4() -> None:
    # Meltagun 7.5" from the hull (10" centre to centre, less the 0.5" and 1.97" radii:
    # beyond half range, one die): rear AV10, 8 + 3 = 11, penetrating. Damage 5 + 2 (AP1)
    # = 7: Explodes!. Radius D6 = 3: the Guardsman about 2" from the hull is caught, the
    # shooter is not. S4 vs T4 wounds on 4+: 5; save 5+: 2, dead.
    battle, shooter, tank = tank_battle([4, 3, 5, 3, 5, 2], (30.0, 20.0), MELTAGUN)
    guard = squad("g", B, GUARD, [LASGUN], [(30.0, 34.5)], name="Crew")
    battle.units[guard.id] = guard
    fire_weapon(battle, shooter, tank, "Meltagun", FireOrders())
    (destroyed,) = of_kind(battle, "vehicle_destroyed")
    assert (destroyed.how, destroyed.radius, destroyed.hits) == (
        EXPLODES,
        3,
        (("Crew [g]", 1),),
    )
    assert tank.destroyed and guard.destroyed and not shooter.destroyed
    assert all_dice_used(battle)


def test_crew_shaken_fires_snap_shots_until_the_end_of_its_next_turn() -> None:
    # Rear: 9 + 2 = 11, penetrating; damage 1 + 1 = 2: Crew Shaken, in the enemy's turn.
    battle, shooter, tank = tank_battle([4, 2, 1], (30.0, 10.0), LASCANNON)
    battle.active_player = A
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    assert crew_snap_shots(battle, tank.models[0])
    assert fires_snap(battle, tank, weapon_of(HULL_BOLTER), FireOrders())
    vehicle_end_of_turn(battle, A)  # the shooter's turn ends: still shaken
    assert crew_snap_shots(battle, tank.models[0])
    vehicle_end_of_turn(battle, B)  # the end of its own next turn
    assert not crew_snap_shots(battle, tank.models[0])


def test_crew_stunned_cannot_move() -> None:
    battle, shooter, tank = tank_battle([4, 2, 3], (30.0, 10.0), LASCANNON)
    battle.active_player = A
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())  # 3 + 1 = 4: Stunned
    assert not may_move(battle, tank)
    vehicle_end_of_turn(battle, B)
    assert may_move(battle, tank)


# --- vehicles acting ---------------------------------------------------------------


def test_vehicles_fire_every_weapon_at_full_bs_after_moving_and_never_run() -> None:
    battle, _, tank = tank_battle([], (30.0, 10.0), LASCANNON)
    assert weapons_per_phase(tank, tank.models[0]) == 2
    tank.status.moved = True  # moved at Combat Speed: Heavy weapons at full BS
    assert not fires_snap(battle, tank, weapon_of(HULL_BOLTER), FireOrders())
    assert not can_run(battle, tank)
    assert charge_ban(battle, tank) == "vehicles other than Walkers cannot charge"
    sentinel = vehicle_unit("sentinel", B, SENTINEL, (50.0, 30.0))
    battle.units[sentinel.id] = sentinel
    assert can_run(battle, sentinel) and charge_ban(battle, sentinel) is None


def pair_of_bolters(dice: list[int]) -> tuple[Battle, Unit, Unit]:
    """A Leman Russ of player A carrying two heavy bolters (as a Land Raider carries its
    pair of sponson lascannons), 20" from five Marines of B."""
    tank = vehicle_unit("russ", A, LEMAN_RUSS, (30.0, 10.0))
    tank.models[0] = replace(tank.models[0], weapons=(HULL_BOLTER, HULL_BOLTER))
    marines = squad("m", B, MARINE, [LASGUN], row(26.0, 30.0, 5))
    return make_battle(tank, marines, dice=dice), tank, marines


def test_a_vehicle_fires_each_of_two_weapons_of_one_name() -> None:
    # 7th edition: a vehicle "can fire all of its weapons", so both heavy bolters
    # (Heavy 3) fire: 6 shots at BS3, hitting on 4+ (six 4s), wounding Marines (S5
    # against T4) on 3+: six 1s wound none. One model fired, two weapons spent.
    battle, tank, marines = pair_of_bolters([4] * 6 + [1] * 6)
    start_phase(battle, "shooting", A)
    spent: Counter[str] = Counter()
    fire_weapon(battle, tank, marines, "Heavy bolter", FireOrders(), spent)
    (volley,) = of_kind(battle, "shots")
    assert (volley.shots, volley.models, volley.hits) == (6, 1, 6)
    assert spent["russ.1"] == 2 and all_dice_used(battle)


def test_a_pair_of_weapons_fires_twice_beside_a_single_weapon_asked_together_or_alone() -> None:
    # The tank with its two heavy bolters (36") and a lascannon (48"), 20" from the
    # Marines: the pair is listed twice (one volley each), the lascannon once; the same
    # whether each weapon is asked about alone or, in a decision, all of them at once.
    battle, tank, marines = pair_of_bolters([])
    tank.models[0] = replace(tank.models[0], weapons=(HULL_BOLTER, HULL_BOLTER, LASCANNON))
    russ = tank.models[0]
    want = {"Heavy bolter": [russ, russ], "Lascannon": [russ]}
    alone = {name: firing_models(battle, tank, marines, name, FireOrders()) for name in want}
    with decision_scope():
        together = {name: firing_models(battle, tank, marines, name, FireOrders()) for name in want}
    assert alone == together == want


def test_an_infantry_model_with_two_weapons_of_one_name_fires_one() -> None:
    # 6th/7th edition: a model that is neither a vehicle nor a Monstrous Creature
    # fires one weapon: of two bolt pistols (Pistol 1), one shot, a 4 hitting on 3+.
    marine = squad("a", A, MARINE, [BOLT_PISTOL, BOLT_PISTOL], [(30.0, 20.0)])
    guard = squad("g", B, GUARD, [LASGUN], [(30.0, 28.0)])
    battle = make_battle(marine, guard, dice=[4, 1])
    start_phase(battle, "shooting", A)
    fire_weapon(battle, marine, guard, "Bolt pistol", FireOrders(), Counter())
    (volley,) = of_kind(battle, "shots")
    assert (volley.shots, volley.models) == (1, 1) and all_dice_used(battle)


def test_the_ai_expects_the_casualties_of_both_weapons_of_a_pair() -> None:
    # The AI's estimate fires what the rules fire: 6 shots, each killing a Marine
    # with 1/2 (hit 4+) x 2/3 (wound 3+) x 1/3 (Sv3+ against AP4 fails) = 1/9. Five
    # Marines would cap the kills only if all six shots killed, (1/9)^6: 6/9 to
    # within that (one weapon alone is 3/9).
    battle, tank, marines = pair_of_bolters([])
    expected = expected_casualties(battle, tank, marines, "Heavy bolter", FireOrders())
    assert expected == pytest.approx(6 / 9, abs=(1 / 9) ** 6)


def test_vehicles_take_no_morale_checks_and_no_pinning_tests() -> None:
    battle, shooter, tank = tank_battle([], (30.0, 10.0), LASCANNON)
    assert morale_check(battle, tank, "lost a Hull Point")
    pinning_test(battle, tank, "a pinning weapon")
    assert not of_kind(battle, "dice")  # no Leadership test was rolled
    go_to_ground(battle, tank, "told to")
    assert not st(battle, tank).gone_to_ground  # vehicles never Go to Ground
    assert not DiveForCover().available(battle, tank, shooter)
    assert not FallBack().available(battle, tank, shooter)


def test_only_a_walker_among_vehicles_fires_overwatch() -> None:
    """7th edition, Walkers: "To represent the vastly superior agility of Walkers in
    comparison with other vehicles, Walkers can fire Overwatch"; so a tank cannot.
    A Marine 6" from each, in range and sight of its heavy bolter (36")."""
    battle, shooter, tank = tank_battle([], (30.0, 24.0), LASCANNON)
    assert not Overwatch().available(battle, tank, shooter)
    walker = vehicle_unit("sentinel", B, SENTINEL, (50.0, 30.0))
    walker.models[0].weapons = (HULL_BOLTER,)
    charger = squad("c", A, MARINE, [LASCANNON], [(50.0, 24.0)], name="Chargers")
    battle = make_battle(charger, walker)
    assert Overwatch().available(battle, walker, charger)


def test_close_combat_hits_a_tank_automatically_against_its_rear_armour() -> None:
    # A power fist (S x2 = 8, AP2) at a tank that did not move: hits automatically.
    # Rear AV10 although the attacker stands at its front: 8 + 3 = 11, penetrating;
    # damage 1 + 1 (AP2) = 2, Crew Shaken.
    battle, shooter, tank = tank_battle([3, 1], (30.0, 34.0), LASCANNON)
    assert melee_cell_against(battle, tank) == "A"
    vehicle_status(battle, tank.models[0]).moved_last_turn = True
    assert melee_cell_against(battle, tank) == "4+"
    fist = weapon_of(POWER_FIST)
    assert resolve_blows_on_vehicle(battle, shooter, tank, [8], fist, shooter.models) == (1, 0)
    (armour,) = of_kind(battle, "armour")
    assert (armour.facing, armour.armour, armour.result) == (REAR, 10, PENETRATING)
    assert of_kind(battle, "vehicle_damage")[0].result == CREW_SHAKEN


def test_a_tank_in_close_combat_strikes_no_blow_and_a_walker_does() -> None:
    # 7th edition: a vehicle other than a Walker has no WS and no Attacks, so in a
    # combat it strikes no blow at all (no "strikes 0 blows" line for it); the
    # Marine touching it strikes its one Attack, automatically hitting the tank
    # (it did not move: "A"), whose penetration roll (a 1: 4 + 1 < 10) does nothing.
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    battle, marine, tank = tank_battle([1], (30.0, touching), LASCANNON)
    assert in_contact(marine.models[0], tank.models[0])
    fight_sub_phase(battle, A)
    assert [(b.unit, b.attacks) for b in of_kind(battle, "blows")] == [(marine.label, 1)]
    assert all_dice_used(battle)
    walker = vehicle_unit("sentinel", B, SENTINEL, (30.0, 30.0))
    assert fights_in_melee(walker.models[0])
    assert attacks_of(battle, walker, walker.models[0], CLOSE_COMBAT_WEAPON) == 1


def test_a_vehicle_touching_a_model_that_causes_fear_takes_no_fear_test() -> None:
    # 7th edition: vehicles have no Leadership, so they take no Leadership test (as no
    # Morale check nor Pinning test): touching a Marine that causes Fear, the tank
    # tests nothing; the Marine's blow hits it automatically and its 1 to penetrate
    # does nothing. The only die rolled is that one.
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    marine = squad("a", A, MARINE, [LASCANNON], [(30.0, touching)], name="M", rules=("Fear",))
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    battle = make_battle(marine, tank, dice=[1])
    assert in_contact(marine.models[0], tank.models[0])
    fight_sub_phase(battle, A)
    assert not [e for e in of_kind(battle, "dice") if "Fear" in e.purpose]
    assert all_dice_used(battle)


def test_a_tank_and_the_squad_touching_it_are_not_locked_in_combat() -> None:
    # 7th edition: "vehicles without a Weapon Skill are never locked in combat", nor is
    # a unit whose only foe in base contact is such a vehicle. So the tank may move and
    # shoot (here at the Marine touching it), the Marine may shoot and be shot at, and a
    # Walker in the same place locks and is locked as before.
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    battle, marine, tank = tank_battle([], (30.0, touching), LASCANNON)
    assert in_contact(marine.models[0], tank.models[0])
    refresh_locks(battle)
    assert not st(battle, tank).locked_in_combat and not st(battle, marine).locked_in_combat
    assert may_target(battle, tank, marine) and may_target(battle, marine, tank)
    assert _may_act(battle, marine) and _may_act(battle, tank)
    walker = vehicle_unit("sentinel", B, SENTINEL, (30.0, 30.0))
    battle = make_battle(marine, walker)
    refresh_locks(battle)
    assert st(battle, walker).locked_in_combat and st(battle, marine).locked_in_combat


def test_a_squad_still_touching_a_tank_strikes_it_again_and_the_tank_may_drive_off() -> None:
    # Whoever is still in base contact fights in a Fight sub-phase (every base contact
    # is a combat): the Marine strikes the tank in its owner's turn too, automatically
    # (it did not move: "A"), and a 1 to penetrate does nothing. In its Movement phase
    # the tank, not locked, is asked how to move (it would not be if it were locked).
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    battle, marine, tank = tank_battle([1], (30.0, touching), LASCANNON)
    fight_sub_phase(battle, B)
    assert [(b.unit, b.attacks) for b in of_kind(battle, "blows")] == [(marine.label, 1)]
    assert all_dice_used(battle)
    refresh_locks(battle)
    assert _may_move(battle, tank)


def test_a_tank_touching_a_squad_moves_away_though_it_starts_within_1_inch() -> None:
    # 6th/7th edition: no model may move within 1" of an enemy outside a charge. The
    # tank starts touching the Marine (not locked: a vehicle without a Weapon Skill),
    # so it may move as long as it comes no nearer him: its 6" retreat north, straight
    # away from him, is made in full, and nothing else moves.
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    marine = squad("a", A, MARINE, [POWER_FIST], [(30.0, touching)], name="Marines")
    tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
    battle = make_battle(
        marine,
        tank,
        script_b=[
            ("mover", tank.label),
            ("tank_shock", "move normally"),
            ("move", "retreat"),
            ("mover", "end phase"),
        ],
    )
    battle.active_player = B
    movement_phase(battle, B)
    assert tank.models[0].position == pytest.approx((30.0, 36.0))
    assert marine.models[0].position == (30.0, touching)


def test_a_tank_touched_by_a_power_fist_drives_off() -> None:
    # The Marine's power fist (S4 x2 = 8) at the Russ's rear armour 10 penetrates on a
    # 3+ of the D6: expected harm, so the AI's tank retreats. A Guardsman's close combat
    # weapon (S3 + 6 = 9 < 10) cannot even glance it: the tank moves as any unit (here
    # it holds for its guns), never retreating for him.
    touching = 30.0 - (100.0 + BASE_MM) / 2 / 25.4
    for striker, weapon_, drives in ((MARINE, POWER_FIST, True), (GUARD, LASGUN, False)):
        foe = squad("a", A, striker, [weapon_], [(30.0, touching)], name="Foes")
        tank = vehicle_unit("russ", B, LEMAN_RUSS, (30.0, 30.0))
        battle = make_battle(foe, tank)
        refresh_locks(battle)
        assert drives_off(battle, tank) is drives
        decision = Decision(
            kind="move",
            player=B,
            prompt="?",
            choices=tuple(Choice(x, x) for x in ("advance", "take cover", "retreat", "hold")),
            context=DecisionContext(unit="russ", why="moves", phase="movement"),
        )
        answer = decision.labels()[WaffleAI().choose(battle, decision)]
        assert (answer == "retreat") is drives


def test_a_walker_wrecked_at_an_initiative_step_still_strikes_the_walker_that_wrecked_it() -> None:
    # Seed 001: blows of one Initiative step are simultaneous, so a model slain in
    # the step still strikes. Two Sentinels with power fists (S5 x2 = S10, one
    # Attack each, WS3 against WS3: 4+) touch front to front, both at I3; B's has
    # one Hull Point left. A strikes first: a 4 hits, then 10 + 2 = 12 against
    # Front AV12 glances: B's last Hull Point goes, it is Wrecked and removed. B's
    # blow still lands: a 4 hits, 10 + 2 glances A's Front, which loses one of its
    # two Hull Points (a glancing hit rolls no damage). With no enemy left, A
    # consolidates D6" (6th/7th edition): a 1, and holds.
    fist = (POWER_FIST,)
    ours = vehicle_unit("ours", A, SENTINEL, (30.0, 30.0 - 200.0 / 2 / 25.4))
    theirs = vehicle_unit("theirs", B, SENTINEL, (30.0, 30.0))
    for unit in (ours, theirs):
        unit.models[0] = replace(unit.models[0], weapons=fist)
    theirs.models[0].wounds_left = 1
    battle = make_battle(ours, theirs, dice=[4, 2, 4, 2, 1], script_a=[("move", "hold")])
    assert in_contact(ours.models[0], theirs.models[0])
    fight_sub_phase(battle, A)
    blows = [(b.unit, b.attacks, b.hits) for b in of_kind(battle, "blows")]
    assert blows == [(ours.label, 1, 1), (theirs.label, 1, 1)]
    assert theirs.destroyed and ours.models[0].wounds_left == 1
    assert all_dice_used(battle)


# --- whole battles -----------------------------------------------------------------


def test_the_example_scenario_plays_three_turns_and_shoots_at_vehicles() -> None:
    path = EXAMPLES / "vehicles_leman_russ.toml"
    ready = prepare(parse_scenario(path.read_text(), str(path)), str(path))
    play(ready.battle, ready.ruleset, ready.plan)
    battle = ready.battle
    assert battle.turn == 3
    assert of_kind(battle, "armour")  # somebody rolled armour penetration
    russ = battle.unit("russ")
    assert russ.models[0].base_mm == 100.0


def test_an_imported_leman_russ_plays_a_three_turn_battle() -> None:
    """The contract: the Leman Russ from the Astra Militarum catalogue
    (``Leman Russ``: BS 3, Front 14, Side 13, Rear 10, HP 3, Type "Tank, Heavy")
    loads through ``source =`` and plays three game turns."""
    source = DATA / "bsdata-7e" / "Astra Militarum - Codex.cat"
    text = f"""
name = "Imported Leman Russ"
ruleset = "waffle"
seed = 5
first_player = "Guard"
[plan]
turns = 3
phases = ["movement", "shooting", "assault"]
[[players]]
name = "Guard"
edge = "south"
[[players]]
name = "Marines"
edge = "north"
[[units]]
id = "russ"
player = "Guard"
unit = "Leman Russ Squadron"
source = "{source}"
position = [36, 8]
[[units]]
id = "tactical"
player = "Marines"
unit = "Tactical Squad (meltagun, lascannon)"
position = [36, 36]
"""
    ready = prepare(parse_scenario(text, "imported.toml"), "imported.toml")
    russ = ready.battle.unit("russ").models[0]
    assert {k: russ.profile.get(k) for k in ("BS", "Front", "Side", "Rear", "HP")} == {
        "BS": "3",
        "Front": "14",
        "Side": "13",
        "Rear": "10",
        "HP": "3",
    }
    assert russ.wounds_left == 3
    play(ready.battle, ready.ruleset, ready.plan)
    assert ready.battle.turn == 3
    fired = {e.weapon for e in of_kind(ready.battle, "shots") if e.unit.startswith("Leman")}
    assert fired  # the imported tank fired its guns


# --- exact odds --------------------------------------------------------------------


def enumerate_two_hits(
    strength: int, ap_modifier: int, armour: int, hull_points: int, weapons: int
) -> dict[str, Fraction]:
    """Two hits, every die listed: each hit rolls one armour penetration die and one
    damage die (the damage die counts only on a penetrating hit), 36^2 equally likely
    sequences, followed by hand through the 7th-edition rules."""
    found = {k: Fraction(0) for k in ("glancing", "penetrating", "wrecked", "explodes")}
    lost = [Fraction(0)] * (hull_points + 1)
    weight = Fraction(1, 36**2)
    for dice in product(range(1, 7), repeat=4):
        hp, immobile, left, how, glanced, penned = hull_points, False, weapons, "", False, False
        for pen_die, damage_die in (dice[:2], dice[2:]):
            if how:
                break  # the vehicle is gone: the second hit is lost
            total = strength + pen_die
            if total < armour:
                continue
            hp -= 1
            if total == armour:
                glanced = True
            else:
                penned = True
                score = damage_die + ap_modifier
                if score >= 7:
                    how = "explodes"
                    continue
                if score == 5 and left:
                    left -= 1
                elif score in (5, 6):  # Weapon Destroyed with none left, or Immobilised
                    hp -= 1 if immobile else 0
                    immobile = True
            if hp <= 0:
                how = "wrecked"
        found["glancing"] += weight * glanced
        found["penetrating"] += weight * penned
        if how:
            found[how] += weight
        lost[min(hull_points, hull_points - hp)] += weight
    return {**found, "lost": lost}  # type: ignore[dict-item]


def test_vehicle_odds_match_a_brute_force_enumeration_of_two_hits() -> None:
    from hammerlab.editions.waffle.odds import Firing, volley
    from hammerlab.editions.waffle.odds_vehicles import VehicleTarget, vehicle_odds

    lascannon = weapon_of(LASCANNON)
    fired = volley(lascannon, 9, [], Firing(), hits=2)
    attack = armour_attack(lascannon, 9, half_range=False, tank_hunters=False)
    # A Sentinel's rear: AV10, HP2, one weapon; AP2 gives +1 on the damage table.
    odds = vehicle_odds(fired, attack, VehicleTarget(armour=10, hull_points=2, weapons=1))
    expected = enumerate_two_hits(9, 1, 10, 2, 1)
    for key in ("glancing", "penetrating", "wrecked", "explodes"):
        assert getattr(odds, key) == pytest.approx(float(expected[key]), abs=1e-12), key
    lost = [float(p) for p in expected["lost"]]  # type: ignore[union-attr]
    assert odds.hull_points_lost == pytest.approx(lost, abs=1e-12)


def test_odds_of_a_lascannon_at_a_leman_russ_rear_by_hand() -> None:
    from hammerlab.analysis.odds import LibraryQuestion, calculator

    question = LibraryQuestion(
        attacker="Tactical Squad (meltagun, lascannon)",
        weapon="Lascannon",
        target="Leman Russ Battle Tank",
        situation=frozenset({"rear-armour"}),
    )
    result = calculator("waffle").library(question)
    # One shot at BS4 hits 2/3. Rear AV10: 9+1 = 10 glances (1/6), 2-6 penetrate (5/6).
    # AP2: +1 on the table, only a 6 (7) Explodes!. HP3: one hit never wrecks.
    assert result.chances["glancing"] == pytest.approx(2 / 3 * 1 / 6)
    assert result.chances["penetrating"] == pytest.approx(2 / 3 * 5 / 6)
    assert result.chances["explodes"] == pytest.approx(2 / 3 * 5 / 6 * 1 / 6)
    assert result.chances["wrecked"] == 0.0
    assert result.models_killed[1] == pytest.approx(2 / 3 * 5 / 6 * 1 / 6)
    # Hull Points: exactly one lost on any glancing or penetrating hit (2/3), Explodes!
    # included (the Hull Point goes before the table is rolled).
    assert result.unsaved_wounds[1] == pytest.approx(2 / 3)


def test_the_ai_values_hits_on_a_vehicle_with_the_vehicle_rules() -> None:
    from hammerlab.editions.waffle.expected import blow_value, expected_casualties

    battle, shooter, tank = tank_battle([], (30.0, 20.0), LASCANNON)
    # A lascannon hit on the rear (AV10, HP3): a Hull Point on 1-6 (glancing on 1,
    # penetrating on 2-6), so a third of the tank; destroyed only by Explodes! (5/6 x 1/6
    # = 5/36 < 1/3). BS4 hits 2/3 of the time: 2/3 x 1/3 = 2/9 of a tank per shot.
    expected = expected_casualties(battle, shooter, tank, "Lascannon", FireOrders())
    assert expected == pytest.approx(2 / 9)
    # A power fist blow (S8) at a tank that did not move hits automatically, on the rear:
    # 8+1 < 10 none, 8+2 glancing, 8+3.. penetrating: a Hull Point 5/6 of the time,
    # 5/6 / 3 = 5/18 of the tank (Explodes!: 4/6 x 1/6 = 1/9, less).
    fist = weapon_of(POWER_FIST)
    value = blow_value(battle, shooter, shooter.models[0], fist, tank, charged=False)
    assert value == pytest.approx(5 / 18)
