"""Tank Shock, Death or Glory and Ramming (issue 12 §2; 7th edition, ``tank_shock.py``,
``ramming.py``).

Hand-placed geometry on the open 72" x 48" table with scripted dice. A Tank's hull
is a 100 mm circle: radius 100 / 25.4 / 2 = 1.9685"; infantry bases are 1" (radius
0.5"). A Tank at (30, 20) aimed due north at a model at (30, y) touches it after
y - 20 - (1.9685 + 0.5) inches; two hulls touch at 2 x 1.9685 = 3.937". Player A
deploys from the south edge, B from the north.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    make_battle,
    of_kind,
    squad,
    weapon,
)

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.search import RandomController
from hammerlab.editions.base import play
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.armour import PENETRATING
from hammerlab.editions.waffle.movement_phase import move_one
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.ramming import ram_strength
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tank_shock import (
    MOVE_NORMALLY,
    RAM,
    SHOCK,
    shock_targets,
    stop_chance,
)
from hammerlab.editions.waffle.tank_shock_plans import tank_shock_choice
from hammerlab.editions.waffle.vehicle_damage import CREW_STUNNED, IMMOBILISED
from hammerlab.editions.waffle.vehicles import (
    FRONT,
    SIDE,
    crew_snap_shots,
    may_move,
    vehicle_end_of_turn,
    vehicle_of,
    vehicle_status,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.decisions import Decision
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import parse_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HULL = 100 / 25.4 / 2
"""A 100 mm hull's radius in inches."""
LEMAN_RUSS = Profile(
    name="Leman Russ",
    characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Heavy)",
)
CHIMERA = Profile(
    name="Chimera",
    characteristics={"BS": "3", "Front": "12", "Side": "10", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Transport)",
)
"""Codex: Astra Militarum: BS 3, 12/10/10, HP 3."""
RHINO_NOT_TANK = Profile(
    name="Truck",
    characteristics={"BS": "2", "Front": "10", "Side": "10", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Fast, Open-topped)",
)
BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")
MELTAGUN = weapon("Meltagun", "12", "8", "1", "Assault 1, Melta")


def vehicle(uid: str, player: str, prof: Profile, at: tuple[float, float]) -> Unit:
    """One vehicle on a 100 mm hull, with no weapons."""
    sheet = Datasheet(prof.name, "test", "waffle", (ModelEntry(prof, 1, (), 100.0),))
    model = Model(f"{uid}.1", prof, (), at, 100.0, stats_of(prof).w)
    return Unit(id=uid, name=prof.name, player=player, datasheet=sheet, models=[model])


def shock_battle(
    victim: Unit,
    dice: list[int],
    script_a: list[tuple[str, str]],
    script_b: list[tuple[str, str]] = (),  # type: ignore[assignment]
    *others: Unit,
) -> tuple[Battle, Unit]:
    """A Leman Russ of player A at (30, 20) in A's movement phase, and ``victim``."""
    tank = vehicle("russ", A, LEMAN_RUSS, (30.0, 20.0))
    battle = make_battle(tank, victim, *others, dice=dice, script_a=script_a, script_b=script_b)
    start_phase(battle, "movement", A)
    battle.active_player = A
    return battle, tank


def y_of(unit: Unit) -> float:
    return unit.models[0].position[1]


# --- Tank Shock -----------------------------------------------------------------


def test_a_tank_shocked_unit_that_fails_its_morale_check_falls_back() -> None:
    """Guardsmen (Ld 7) 6" ahead: the hull touches the first after 6 - 2.4685 = 3.5315";
    2D6 = 9 > 7 fails; they fall back 2D6 = 6" north; the Tank goes on to its full 6"."""
    guards = squad("g", B, GUARD, [LASGUN], [(30.0, 26.0), (30.0, 28.0)], name="Guardsmen")
    battle, tank = shock_battle(guards, [5, 4, 3, 3], [("tank_shock", "shock Guardsmen [g]")])
    move_one(battle, tank)
    contact = of_kind(battle, "tank_shock_contact")[0]
    assert (contact.what, contact.travelled) == (SHOCK, pytest.approx(6 - HULL - 0.5, abs=0.01))
    morale = of_kind(battle, "morale")[0]
    assert (morale.test, morale.roll, morale.passed) == ("Morale check", 9, False)
    assert st(battle, guards).falling_back
    assert y_of(guards) == pytest.approx(32.0)  # 26 + 6, straight to its edge
    assert tank.models[0].position == pytest.approx((30.0, 26.0))
    assert vehicle_status(battle, tank.models[0]).heading == pytest.approx(90.0)
    assert tank.status.moved and all_dice_used(battle)


def test_a_unit_that_passes_lets_the_tank_through_and_moves_out_of_its_way() -> None:
    """A Marine at (30, 27): Ld 8, 2D6 = 3 passes; no Death or Glory. The Tank ends
    at (30, 26), the Marine 1" from the hull: straight on from the hull's centre, at
    26 + 1.9685 + 0.5 + 1 = 29.4685."""
    marine = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(
        marine,
        [1, 2],
        [("tank_shock", "shock Marines [m]")],
        [("death_or_glory", "no Death or Glory")],
    )
    move_one(battle, tank)
    assert of_kind(battle, "morale")[0].passed
    assert tank.models[0].position == pytest.approx((30.0, 26.0))
    assert marine.models[0].position == pytest.approx((30.0, 26.0 + HULL + 0.5 + 1.0))
    assert not st(battle, marine).falling_back and all_dice_used(battle)


def test_a_fearless_unit_passes_without_a_roll() -> None:
    marine = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines", rules=["Fearless"])
    battle, tank = shock_battle(
        marine, [], [("tank_shock", "shock Marines [m]")], [("death_or_glory", "no Death or Glory")]
    )
    move_one(battle, tank)
    assert not of_kind(battle, "morale")  # no Leadership test rolled
    assert tank.models[0].position == pytest.approx((30.0, 26.0))


def test_a_unit_already_falling_back_takes_no_check_and_makes_no_death_or_glory() -> None:
    """The engine's Morale check skips a unit already falling back outside an assault;
    with no passed check there is no Death or Glory (no decision is asked of B, no
    die rolled): the Tank drives through and the Marine is moved out of its way."""
    marine = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(marine, [], [("tank_shock", "shock Marines [m]")])
    st(battle, marine).falling_back = True
    move_one(battle, tank)
    assert not of_kind(battle, "morale") and not asked(battle, B)
    assert tank.models[0].position == pytest.approx((30.0, 26.0))
    assert marine.models[0].position == pytest.approx((30.0, 26.0 + HULL + 0.5 + 1.0))


def test_a_failed_death_or_glory_crushes_the_model_and_the_tank_goes_on() -> None:
    """A boltgun: D6 + 4 is at most 10 against Front 14, no effect whatever the die;
    the Marine is removed, with no save, and the Tank moves its full 6"."""
    marine = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0), (34.0, 30.0)], name="Marines")
    battle, tank = shock_battle(
        marine,
        [1, 2, 6],
        [("tank_shock", "shock Marines [m]")],
        [("death_or_glory", "m.1 with Boltgun")],
    )
    move_one(battle, tank)
    glory = of_kind(battle, "death_or_glory")[0]
    assert (glory.model, glory.strength, glory.stopped) == ("m.1", 4, False)
    armour = of_kind(battle, "armour")[0]
    assert (armour.facing, armour.armour, armour.dice) == (FRONT, 14, (6,))
    assert marine.models[0].wounds_left == 0 and marine.models[1].alive
    assert tank.models[0].position == pytest.approx((30.0, 26.0))
    assert all_dice_used(battle)


def test_death_or_glory_only_offers_models_in_the_tanks_path() -> None:
    marine = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0), (34.0, 30.0)], name="Marines")
    battle, tank = shock_battle(
        marine,
        [1, 2],
        [("tank_shock", "shock Marines [m]")],
        [("death_or_glory", "no Death or Glory")],
    )
    move_one(battle, tank)
    offered = asked(battle, B, "death_or_glory")
    # m.2 at x = 34 is 4" off the line: 4 > 1.9685 + 0.5, so it is not in the path.
    assert offered[0].labels() == [
        "no Death or Glory",
        "m.1 with Boltgun",
        "m.1 with Close combat weapon",
    ]


def test_a_meltagun_that_immobilises_the_tank_stops_it_where_it_stands() -> None:
    """Meltagun S8 at half range: 2D6 + 8 = 6 + 6 + 8 = 20 > 14 penetrates; the damage
    roll 4 + 2 (AP1) = 6 is Immobilised. The Tank stays where it touched the Marine,
    20 + 7 - 2.4685 = 24.5315, and the Marine lives."""
    marine = squad("m", B, MARINE, [MELTAGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(
        marine,
        [2, 2, 6, 6, 4],
        [("tank_shock", "shock Marines [m]")],
        [("death_or_glory", "m.1 with Meltagun")],
    )
    move_one(battle, tank)
    assert of_kind(battle, "armour")[0].result == PENETRATING
    assert of_kind(battle, "vehicle_damage")[0].result == IMMOBILISED
    assert of_kind(battle, "death_or_glory")[0].stopped
    assert not may_move(battle, tank) and marine.models[0].alive
    assert marine.models[0].position == (30.0, 27.0)  # touching the hull, not under it
    assert tank.models[0].position == pytest.approx((30.0, 27.0 - HULL - 0.5))
    assert all_dice_used(battle)


# --- what may be Tank Shocked -----------------------------------------------------


def test_only_a_tank_with_an_enemy_in_reach_is_offered_a_tank_shock() -> None:
    near = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(near, [], [])
    assert [(t.kind, t.enemy.id) for t in shock_targets(battle, tank)] == [(SHOCK, "m")]
    # 9" away: 9 - 2.4685 = 6.53" > 6" to reach.
    near.models[0].position = (30.0, 29.0)
    assert shock_targets(battle, tank) == []
    truck = vehicle("t", A, RHINO_NOT_TANK, (10.0, 20.0))
    battle.units["t"] = truck
    near.models[0].position = (10.0, 27.0)
    assert shock_targets(battle, truck) == []  # not a Tank


def test_a_tank_that_does_not_shock_asks_nothing_more_and_moves_normally() -> None:
    near = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(near, [], [("tank_shock", MOVE_NORMALLY), ("move", "hold")])
    move_one(battle, tank)
    assert tank.models[0].position == (30.0, 20.0) and not of_kind(battle, "tank_shock")


def test_a_friendly_unit_in_the_way_stops_the_tank_1_inch_short() -> None:
    """Guardsmen of A at (30, 24): the hull stops 1" from them, after
    4 - 2.4685 - 1 = 0.5315"; the Marines behind are never reached, so a Tank Shock
    at them is not even offered."""
    marines = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    friends = squad("g", A, GUARD, [LASGUN], [(30.0, 24.0)], name="Guardsmen")
    battle, tank = shock_battle(marines, [], [], [], friends)
    assert shock_targets(battle, tank) == []


def test_a_unit_locked_in_combat_is_not_tank_shocked() -> None:
    marines = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(marines, [], [])
    st(battle, marines).locked_in_combat = True
    assert shock_targets(battle, tank) == []


# --- Ramming ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("armour", "moved", "tank", "strength"),
    [
        (14, 12.0, True, 9),  # Land Raider at 12": 4 + 4 + 1
        (14, 5.06, True, 6),  # 4 + 1 (one full 3") + 1
        (10, 5.06, True, 2),  # 0 + 1 + 1
        (10, 2.9, False, 0),  # no full 3", not a Tank
        (14, 30.0, True, 10),  # at most 10
    ],
)
def test_ram_strength_is_armour_above_10_plus_speed_plus_mass(
    armour: int, moved: float, tank: bool, strength: int
) -> None:
    prof = Profile(
        "V",
        {"BS": "3", "Front": str(armour), "Side": "10", "Rear": "10", "HP": "3"},
        "Vehicle (Tank)" if tank else "Vehicle (Fast)",
    )
    found = vehicle_of(prof)
    assert found is not None
    assert ram_strength(found, FRONT, moved) == strength


def test_a_ram_hits_both_vehicles_and_the_rammer_fires_snap_shots() -> None:
    """A Chimera at (30, 29) facing east: the Leman Russ strikes its Side (from due
    south, 90° off its heading), after 9 - 3.937 = 5.063" (one full 3"). The Chimera
    suffers S (14-10) + 1 + 1 = 6 against Side 10: 6 + 5 = 11 penetrates; damage
    5 - 1 (AP-) = 4, Crew Stunned. The Russ suffers S 0 + 1 + 1 = 2 against Front 14:
    2 + 6 = 8, no effect."""
    chimera = vehicle("c", B, CHIMERA, (30.0, 29.0))
    battle, tank = shock_battle(chimera, [5, 5, 6], [("tank_shock", "ram Chimera [c]")])
    vehicle_status(battle, chimera.models[0]).heading = 0.0
    move_one(battle, tank)
    ram = of_kind(battle, "ram")[0]
    assert (ram.rammed_strength, ram.rammed_facing, ram.rammer_strength) == (6, SIDE, 2)
    hits = of_kind(battle, "armour")
    assert [(h.facing, h.armour, h.strength, h.result) for h in hits] == [
        (SIDE, 10, 6, PENETRATING),
        (FRONT, 14, 2, "no effect"),
    ]
    assert of_kind(battle, "vehicle_damage")[0].result == CREW_STUNNED
    assert chimera.models[0].wounds_left == 2 and tank.models[0].wounds_left == 3
    assert tank.models[0].position == pytest.approx((30.0, 29.0 - 2 * HULL))
    assert crew_snap_shots(battle, tank.models[0])
    vehicle_end_of_turn(battle, A)
    assert not crew_snap_shots(battle, tank.models[0])
    assert all_dice_used(battle)


def test_a_tank_shock_stops_1_inch_from_an_enemy_vehicle() -> None:
    """Tank Shocking the Marines behind a Chimera is not offered (the Chimera stops it);
    only the Ram at the Chimera is."""
    chimera = vehicle("c", B, CHIMERA, (30.0, 27.0))
    marines = squad("m", B, MARINE, [BOLTGUN], [(30.0, 31.0)], name="Marines")
    battle, tank = shock_battle(chimera, [], [], [], marines)
    assert [(t.kind, t.enemy.id) for t in shock_targets(battle, tank)] == [(RAM, "c")]


# --- the AI -------------------------------------------------------------------


def _decision(battle: Battle, tank: Unit) -> Decision[object]:
    from hammerlab.engine.decisions import Choice, DecisionContext

    choices = [Choice(MOVE_NORMALLY, None)]
    choices += [
        Choice(f"{t.kind} {t.enemy.label}", (t.kind, t.enemy.id))
        for t in shock_targets(battle, tank)
    ]
    return Decision("tank_shock", A, "?", tuple(choices), DecisionContext(unit=tank.id))  # type: ignore[arg-type]


def test_the_ai_shocks_guardsmen_but_not_fearless_marines() -> None:
    """Guardsmen at Ld 7 break with 15/36 (2D6 of 8 or more) and have no attack that
    can hurt Front 14 (lasgun S3, close combat S3): worth 0.42 >= 0.3. Fearless
    Marines never break: worth 0."""
    guards = squad("g", B, GUARD, [LASGUN], [(30.0, 27.0)], name="Guardsmen")
    battle, tank = shock_battle(guards, [], [])
    assert tank_shock_choice(battle, _decision(battle, tank)) == 1
    marines = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines", rules=["Fearless"])
    battle, tank = shock_battle(marines, [], [])
    assert tank_shock_choice(battle, _decision(battle, tank)) == 0


def test_stop_chance_of_a_meltagun_at_the_front_by_hand() -> None:
    """Meltagun at half range: 2D6 + 8 > 14 on 7+ (21/36); damage D6 + 2: 2 Stunned
    (4), 4 Immobilised (6), 5-6 Explodes! (7, 8): 4 of 6. 21/36 x 4/6 = 7/18. A
    glance (5/36) on the last Hull Point wrecks too."""
    marine = squad("m", B, MARINE, [MELTAGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(marine, [], [])
    from hammerlab.editions.waffle.profiles import weapon_of

    melta = weapon_of(MELTAGUN)
    russ = tank.models[0]
    assert stop_chance(battle, russ, melta, 8) == pytest.approx(21 / 36 * 4 / 6)
    russ.wounds_left = 1
    assert stop_chance(battle, russ, melta, 8) == pytest.approx(26 / 36)


def test_the_ai_stands_with_a_meltagun_but_not_with_a_boltgun() -> None:
    """The Marine passes (2D6 = 3); with a meltagun (stops the Tank 7/18 > 1/3) he
    stands: 2D6 = 2 + 2 + 8 = 12 < 14, no effect, and he is crushed."""
    marine = squad("m", B, MARINE, [MELTAGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(marine, [1, 2, 1, 1], [("tank_shock", "shock Marines [m]")])
    battle.controllers[B] = WaffleAI()
    move_one(battle, tank)
    assert of_kind(battle, "death_or_glory")[0].weapon == "Meltagun"
    assert not marine.models[0].alive
    bolter = squad("m", B, MARINE, [BOLTGUN], [(30.0, 27.0)], name="Marines")
    battle, tank = shock_battle(bolter, [1, 2], [("tank_shock", "shock Marines [m]")])
    battle.controllers[B] = WaffleAI()
    move_one(battle, tank)
    assert not of_kind(battle, "death_or_glory") and bolter.models[0].alive


# --- whole battles ------------------------------------------------------------


def _example() -> Battle:
    path = EXAMPLES / "vehicles_tank_shock.toml"
    ready = prepare(parse_scenario(path.read_text(), str(path)), str(path))
    play(ready.battle, ready.ruleset, ready.plan)
    return ready.battle


def test_the_tank_shock_example_plays_out_and_the_ai_shocks_the_termagants() -> None:
    """The Leman Russ at (36, 14), the Termagants' front rank at y = 22: reached after
    8 - 1.9685 - 0.5 = 5.53" (within 6"); Ld 6 breaks with 21/36 (2D6 of 7 or more),
    worth more than 0.3 with no attack that hurts Front 14 (Fleshborer S4: at most
    10), so the AI Tank Shocks them in its first Movement phase, and they test
    Morale. How the game ends is left to the estimates (the Tyranids were wiped out
    in turn 3 until session 23, in turn 2 until session 24's blast marker count, and
    now the Hormagaunts live through the three turns); it is played to its end."""
    battle = _example()
    assert battle.turn == 3
    declared = of_kind(battle, "tank_shock")
    assert declared and declared[0].toward == "Termagants [gaunts]" and not declared[0].ram
    assert not of_kind(battle, "death_or_glory")
    assert any(e.test == "Morale check" for e in of_kind(battle, "morale"))


def test_the_random_player_is_offered_the_tank_shock() -> None:
    """The choice is not a top-level action (it is asked inside a unit's move, like
    the move's intent): every controller answers it, the random one uniformly."""
    path = EXAMPLES / "vehicles_tank_shock.toml"
    ready = prepare(parse_scenario(path.read_text(), str(path)), str(path))
    battle = ready.battle
    # Seed 2: seed 1's random players end their movement phases without moving the
    # Russ since session 14 offered fewer no-op intents (seeds 2 to 6 ask it).
    for player in list(battle.controllers):
        battle.controllers[player] = RandomController(2)
    play(battle, ready.ruleset, ready.plan)
    asked = [e for e in of_kind(battle, "decision") if e.decision == "tank_shock"]
    assert asked
