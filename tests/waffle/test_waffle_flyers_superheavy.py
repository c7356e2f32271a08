"""Zooming Flyers, Skyfire and Super-heavy vehicles (7th edition), with hand-derived dice.

Profiles as the shared Astra Militarum catalogue prints them: a Baneblade is
"BS 3, Front 14, Side 13, Rear 12, HP 9, Type Super-heavy Vehicle"; a
Valkyrie "BS 3, Front 12, Side 12, Rear 10, HP 3, Type Flyer, Hover, Transport".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    LASCANNON,
    MARINE,
    A,
    B,
    all_dice_used,
    make_battle,
    of_kind,
    squad,
    weapon,
)

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle import attacks
from hammerlab.editions.waffle.armour import armour_attack
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.charge import charge_targets
from hammerlab.editions.waffle.flyers import is_zooming, snap_against
from hammerlab.editions.waffle.odds import Volley
from hammerlab.editions.waffle.odds_vehicles import VehicleTarget, vehicle_odds
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.vehicles import fights_in_melee, vehicle_of, vehicle_status
from hammerlab.engine import memo
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import parse_scenario

DATA = Path(__file__).resolve().parents[1] / "data"

BANEBLADE = Profile(
    name="Baneblade",
    characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "12", "HP": "9"},
    unit_type="Vehicle (Super-heavy Vehicle)",
)
VALKYRIE = Profile(
    name="Valkyrie",
    characteristics={"BS": "3", "Front": "12", "Side": "12", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Flyer, Hover, Transport)",
)
LEMAN_RUSS = Profile(
    name="Leman Russ",
    characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Heavy)",
)
WARHOUND = Profile(
    name="Warhound Titan",
    characteristics={
        "WS": "2",
        "BS": "4",
        "S": "10",
        "Front": "14",
        "Side": "13",
        "Rear": "12",
        "I": "1",
        "A": "1",
        "HP": "9",
    },
    unit_type="Vehicle (Super-heavy Walker)",
)
HYDRA = weapon("Hydra autocannon", "72", "7", "4", "Heavy 2, Skyfire, Interceptor")
FLAK = weapon("Flak missile", "48", "7", "4", "Heavy 1, Skyfire")
FRAG = weapon("Missile launcher (frag)", "48", "4", "6", "Heavy 1, Blast")


def vehicle(uid: str, player: str, prof: Profile, at: tuple[float, float]) -> Unit:
    """One vehicle on a 100 mm hull, its Hull Points as wounds, one heavy bolter."""
    guns: tuple[Weapon, ...] = (weapon("Heavy bolter", "36", "5", "4", "Heavy 3"),)
    sheet = Datasheet(
        name=prof.name, army="test", edition="waffle", entries=(ModelEntry(prof, 1, guns, 100.0),)
    )
    hull = Model(
        id=f"{uid}.1",
        profile=prof,
        weapons=guns,
        position=at,
        base_mm=100.0,
        wounds_left=stats_of(prof).w,
    )
    return Unit(id=uid, name=prof.name, player=player, datasheet=sheet, models=[hull])


def at_vehicle(prof: Profile, gun: Weapon, dice: list[int]) -> tuple[Battle, Unit, Unit]:
    """A Marine with ``gun`` (player A) 20" south of vehicle ``prof`` (player B), whose
    hull faces north: the Marine stands in its Rear arc."""
    shooter = squad("a", A, MARINE, [gun], [(30.0, 10.0)], name="Marines")
    target = vehicle("v", B, prof, (30.0, 30.0))
    battle = make_battle(shooter, target, dice=dice)
    start_phase(battle, "shooting", A)
    vehicle_status(battle, target.models[0]).heading = 90.0
    return battle, shooter, target


# --- Super-heavy vehicles ------------------------------------------------------------


def test_a_penetrating_hit_on_a_super_heavy_takes_a_hull_point_and_rolls_no_damage() -> None:
    # Marine BS4 hits on 3+: 4. Rear AV12: 4 + 9 = 13 > 12, penetrating. A Leman Russ
    # would now roll on the Vehicle Damage table; a Super-heavy vehicle rolls nothing.
    battle, shooter, tank = at_vehicle(BANEBLADE, LASCANNON, [4, 4])
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    (armour,) = of_kind(battle, "armour")
    assert (armour.armour, armour.result) == (12, "penetrating")
    (damage,) = of_kind(battle, "vehicle_damage")
    assert (damage.roll, damage.result, damage.hull_points) == (None, "hull point", 8)
    assert tank.models[0].wounds_left == 8
    assert all_dice_used(battle)


def test_a_super_heavy_at_no_hull_points_is_wrecked() -> None:
    battle, shooter, tank = at_vehicle(BANEBLADE, LASCANNON, [4, 4])
    tank.models[0].wounds_left = 1
    fire_weapon(battle, shooter, tank, "Lascannon", FireOrders())
    (destroyed,) = of_kind(battle, "vehicle_destroyed")
    assert destroyed.how == "Wrecked" and tank.destroyed


def test_a_super_heavy_walker_is_a_walker_and_fights() -> None:
    titan = vehicle_of(WARHOUND)
    assert titan is not None and titan.super_heavy and titan.has_type("Walker")
    assert fights_in_melee(
        Model(
            id="t.1",
            profile=WARHOUND,
            weapons=(),
            position=(0.0, 0.0),
            base_mm=100.0,
            wounds_left=9,
        )
    )
    russ = vehicle_of(LEMAN_RUSS)
    assert russ is not None and not russ.super_heavy


def test_the_odds_at_a_super_heavy_never_explode() -> None:
    # One lascannon hit (S9, AP2) at Rear AV12: D6 + 9 = 12 glances (a 3), 13+
    # penetrates (4, 5, 6). Either takes one Hull Point: lost 1 with 4/6, else 0.
    # A Leman Russ's Rear (AV10) is penetrated on 2+ and may explode: 7+ on the
    # table after AP2's +1 is a 6 (1/6), so 5/6 x 1/6 explode.
    lascannon = weapon_of(LASCANNON)
    fired = Volley(lascannon, 9, hits=1)
    attack = armour_attack(lascannon, 9, half_range=False, tank_hunters=False)
    blade = vehicle_odds(fired, attack, VehicleTarget(armour=12, hull_points=9, super_heavy=True))
    assert blade.explodes == 0.0 and blade.wrecked == 0.0
    assert blade.hull_points_lost[:2] == pytest.approx((2 / 6, 4 / 6))
    assert blade.penetrating == pytest.approx(3 / 6)
    russ = vehicle_odds(fired, attack, VehicleTarget(armour=10, hull_points=3))
    assert russ.explodes == pytest.approx(5 / 6 * 1 / 6)


# --- Zooming Flyers and Skyfire ------------------------------------------------------


def test_a_zooming_flyer_can_only_be_hit_by_snap_shots() -> None:
    # Snap Shots: BS4 // 2 = BS2, which hits on 5+: the 4 misses (at a Leman Russ it
    # would hit on 3+ and roll to penetrate).
    battle, shooter, jet = at_vehicle(VALKYRIE, LASCANNON, [4])
    assert is_zooming(jet)
    assert fires_snap(battle, shooter, weapon_of(LASCANNON), FireOrders(), jet)
    fire_weapon(battle, shooter, jet, "Lascannon", FireOrders())
    (shots,) = of_kind(battle, "shots")
    assert (shots.snap, shots.needed, shots.hits) == (True, "5+", 0)
    assert not of_kind(battle, "armour")
    assert all_dice_used(battle)


def test_a_blast_weapon_cannot_fire_at_a_zooming_flyer() -> None:
    # Seed 000: Blast weapons cannot fire Snap Shots; Zooming Flyers take nothing else.
    battle, shooter, jet = at_vehicle(VALKYRIE, FRAG, [])
    result = fire_weapon(battle, shooter, jet, FRAG.name, FireOrders())
    assert not result.fired and not of_kind(battle, "shots")


@pytest.mark.parametrize("jet_first", [True, False])
def test_in_one_decision_a_blast_weapon_is_barred_at_the_zooming_flyer_only(
    jet_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 000: a Blast weapon cannot fire Snap Shots, and a Zooming Flyer can only be
    # hit by them: the frag missile fires at the Leman Russ, not the Valkyrie, whichever
    # is asked first. What the Marines' wargear gives them to fire, whatever the target,
    # is worked out once for the decision (attacks._armaments): one question of the
    # launcher's profile (attacks._fired) for the two targets.
    shooter = squad("a", A, MARINE, [FRAG], [(30.0, 10.0)], name="Marines")
    jet, tank = vehicle("j", B, VALKYRIE, (30.0, 30.0)), vehicle("t", B, LEMAN_RUSS, (40.0, 30.0))
    battle = make_battle(shooter, jet, tank)
    start_phase(battle, "shooting", A)
    asked: list[tuple[object, ...]] = []
    fired = attacks._fired

    def counted(*args: object) -> object:
        asked.append(args)
        return fired(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(attacks, "_fired", counted)
    order = [jet, tank] if jet_first else [tank, jet]
    with memo.decision_scope():
        able = {t.id: firing_models(battle, shooter, t, FRAG.name, FireOrders()) for t in order}
    assert able == {"j": [], "t": shooter.models}
    assert len(asked) == 1


def test_whether_a_weapon_fires_snap_shots_is_asked_only_of_one_that_cannot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seed 000: "Some weapon types, such as Template and Ordnance) or those that have
    # certain special rules, such as Blast, cannot be fired as Snap Shots"; seed 004:
    # Overwatch "can only be fired as Snap Shots". The lascannon fires, the frag missile
    # does not. Firing them bars only a weapon that cannot: the lascannon is not asked.
    shooter = squad("a", A, MARINE, [LASCANNON, FRAG], [(30.0, 10.0)], name="Marines")
    tank = vehicle("t", B, LEMAN_RUSS, (40.0, 30.0))
    battle = make_battle(shooter, tank)
    start_phase(battle, "shooting", A)
    asked: list[str] = []

    def counted(battle: Battle, unit: Unit, profile: object, *rest: object) -> bool:
        asked.append(profile.name)  # type: ignore[attr-defined]
        return fires_snap(battle, unit, profile, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(attacks, "fires_snap", counted)
    able = attacks.firing_each(battle, shooter, tank, FireOrders(snap=True))
    assert able == {LASCANNON.name: shooter.models, FRAG.name: []}
    assert asked == [FRAG.name]


def test_skyfire_shoots_flyers_at_full_bs_and_other_targets_with_snap_shots() -> None:
    flak, hydra = weapon_of(FLAK), weapon_of(HYDRA)
    jet = vehicle("j", B, VALKYRIE, (0.0, 0.0))
    tank = vehicle("t", B, LEMAN_RUSS, (0.0, 0.0))
    assert not snap_against(jet, flak) and snap_against(tank, flak)
    assert not snap_against(tank, hydra)  # "unless it also has the Interceptor special rule"
    assert snap_against(jet, weapon_of(LASCANNON)) and not snap_against(tank, weapon_of(LASCANNON))


def test_a_zooming_flyer_cannot_be_charged() -> None:
    marines = squad("a", A, MARINE, [LASCANNON], [(30.0, 26.0)], name="Marines")
    jet = vehicle("j", B, VALKYRIE, (30.0, 30.0))
    russ = vehicle("r", B, LEMAN_RUSS, (36.0, 30.0))
    battle = make_battle(marines, jet, russ)
    assert [u.id for u in charge_targets(battle, marines)] == ["r"]


# --- imported from the shared catalogue ------------------------------------------------


@pytest.mark.parametrize("unit", ["Baneblade", "Valkyrie Squadron", "Warhound Titan"])
def test_an_imported_super_heavy_or_flyer_plays_a_three_turn_battle(unit: str) -> None:
    source = DATA / "bsdata-7e" / "Astra Militarum - Codex.cat"
    text = f"""
name = "Imported {unit}"
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
id = "big"
player = "Guard"
unit = "{unit}"
source = "{source}"
position = [36, 8]
[[units]]
id = "tactical"
player = "Marines"
unit = "Tactical Squad (meltagun, lascannon)"
position = [36, 36]
"""
    ready = prepare(parse_scenario(text, "imported.toml"), "imported.toml")
    big = ready.battle.unit("big")
    assert all(vehicle_of(m.profile) is not None for m in big.models)
    play(ready.battle, ready.ruleset, ready.plan)
    assert ready.battle.turn == 3
    at_big = [e for e in of_kind(ready.battle, "shots") if e.target == big.label]
    if unit == "Valkyrie Squadron":
        assert at_big and all(e.snap for e in at_big)
