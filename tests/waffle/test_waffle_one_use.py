"""One Use Only weapons: fired once in a battle.

The rule is the shared game system's (``Warhammer40K.gst``, "One Use Only/One Shot
Only"): "A weapon or ability with this special rule can only be used once during the
course of a battle." The spellings are the shared catalogues' Types, as the importer
hands them over: the Stormraven's Stormstrike Missiles ``Heavy 1, Concussive, One Use
Only`` with the linked rule ``One Use Only/One Shot Only`` as a keyword, the Valkyrie's
Hellstrike Missile ``Ordnance 1, One Use``, the Gorgon Mortar ``Heavy 4, 3" Blast, One
Shot, Barrage``, the Rough Riders' hunting lance ``Melee, Specialist Weapon, One Use
Only``. Before this work every one of them fired every turn, and each battle called
the rule "not implemented".
"""

from __future__ import annotations

from pathlib import Path

from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    make_battle,
    of_kind,
    profile,
    squad,
    weapon,
)
from fight_kit import CHAINSWORD, north, south

from hammerlab.analysis.game import Game
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import load_scenario

MISSILE = weapon("Hunter-killer missile", "48", "8", "3", "Heavy 1, One Use Only")
LANCE = weapon("Hunting Lance", "-", "+2", "3", "Melee, Specialist Weapon, One Use Only")
"""The Astra Militarum catalogue's hunting lance, its Type as the catalogue writes it."""


def test_the_catalogues_spellings_read_as_one_use_only_once() -> None:
    stormstrike = Weapon(
        "Stormstrike Missiles",
        {"Range": "72", "S": "8", "AP": "2", "Type": "Heavy 1, Concussive, One Use Only"},
        keywords=("One Use Only/One Shot Only",),
    )
    assert weapon_of(stormstrike).rules == ("Concussive", "One Use Only")
    hellstrike = weapon("Hellstrike Missile", "72", "8", "3", "Ordnance 1, One Use")
    gorgon = weapon("Gorgon Mortar", "48", "4", "5", 'Heavy 4, 3" Blast, One Shot, Barrage')
    for fired in (stormstrike, hellstrike, gorgon):
        assert weapon_of(fired).has_rule("One Use Only")
        assert weapon_of(fired).unsupported_rules() == []
    # A melee weapon is spent too (once its fight's blows are struck): no rule of the
    # Rough Riders' hunting lance is reported as not implemented (before: One Use Only).
    assert weapon_of(LANCE).unsupported_rules() == []


def test_a_one_use_weapon_fires_once_and_the_model_keeps_its_other_weapons() -> None:
    marines = squad("a", A, MARINE, [MISSILE, BOLTGUN], [(30.0, 10.0)], name="Marines")
    guard = squad("g", B, GUARD, [LASGUN], [(30.0, 30.0), (32.0, 30.0)], name="Guard")
    battle = make_battle(marines, guard, seed=1)
    start_phase(battle, "shooting", A)
    assert firing_models(battle, marines, guard, MISSILE.name, FireOrders()) == marines.models
    fire_weapon(battle, marines, guard, MISSILE.name, FireOrders())
    (spent,) = of_kind(battle, "weapon_spent")
    assert (spent.model, spent.weapon) == ("a.1", MISSILE.name)
    assert [w.name for w in marines.models[0].weapons] == [BOLTGUN.name]
    assert firing_models(battle, marines, guard, MISSILE.name, FireOrders()) == []


RHINO = Profile(
    name="Rhino",
    characteristics={"BS": "4", "Front": "11", "Side": "11", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Transport)",
)


def test_a_vehicle_fires_both_of_a_pair_of_one_use_missiles_and_spends_both() -> None:
    # 7th edition: a vehicle fires all its weapons, so each copy is a volley of its own
    # (attacks.firing_models lists the model twice), and each copy fired is spent.
    pair = (MISSILE, MISSILE)
    sheet = Datasheet("Rhino", "test", "waffle", (ModelEntry(RHINO, 1, pair, 100.0),))
    rhino = Unit("r", "Rhino", A, sheet, [Model("r.1", RHINO, pair, (30.0, 10.0), 100.0, 3)])
    guard = squad("g", B, GUARD, [LASGUN], [(30.0, 30.0)], name="Guard")
    battle = make_battle(rhino, guard, seed=1)
    start_phase(battle, "shooting", A)
    fire_weapon(battle, rhino, guard, MISSILE.name, FireOrders())
    assert len(of_kind(battle, "weapon_spent")) == 2
    assert rhino.models[0].weapons == ()


SCENARIO = """
name = "A missile team that has one missile"
ruleset = "waffle"
first_player = "Marines"
[plan]
turns = 2
phases = ["shooting"]
[[players]]
name = "Marines"
edge = "south"
[[players]]
name = "Orks"
edge = "north"
[[units]]
id = "team"
player = "Marines"
position = [36, 8]
[units.inline]
name = "Missile Team"
[units.inline.weapons.Missile]
Range = "48"
S = "8"
AP = "3"
Type = "Heavy 1, One Use Only"
[[units.inline.models]]
name = "Space Marine (missile)"
count = 1
profile = { WS = 4, BS = 4, S = 4, T = 4, W = 1, I = 4, A = 1, Ld = 8, Sv = "3+" }
weapons = ["Missile"]
[[units]]
id = "boyz"
player = "Orks"
unit = "Ork Boyz"
position = [36, 38]
"""


def test_a_game_fires_the_missile_once_and_its_clone_and_saved_game_know_it(
    tmp_path: Path,
) -> None:
    # Two turns of shooting, the Boyz 30" off (beyond their sluggas and shootas, within
    # the missile's 48"): the Marine fires his missile in turn 1, and in turn 2 has
    # nothing left to fire (before: the missile in both turns).
    path = tmp_path / "missile.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    game = Game.start(load_scenario(path), str(path), 1)
    game.play()
    volleys = [e for e in of_kind(game.battle, "shots") if e.weapon == "Missile"]
    assert len(volleys) == 1
    assert len(of_kind(game.battle, "weapon_spent")) == 1
    for copy in (game.clone(), Game.from_json(game.to_json())):
        (marine,) = copy.battle.unit("team").models
        assert marine.weapons == ()
        assert copy.digest() == game.digest()


def test_a_one_use_melee_weapon_is_spent_after_its_fights_blows() -> None:
    # The rule: "can only be used once during the course of a battle". A Rough Rider
    # (a.1: WS4 I4 A1) with a hunting lance and a pistol fights a model of I1 (b.1,
    # A1, a chainsword). Two fight sub-phases, every blow missing (so a draw and the
    # combat goes on), worked by hand:
    # 1st: a.1 is asked between the lance and a close combat weapon (its pistol) and
    #   takes the lance: 1 Attack (the lance is a Specialist Weapon, the pistol not,
    #   so no +1 for two weapons) at I4, a 1 misses; b.1 at I1, a 1 misses. Then the
    #   lance is spent: a weapon_spent event, and a.1 keeps only its pistol.
    # 2nd: a.1 has no choice left (a pistol: a close combat weapon), is not asked,
    #   and strikes 1 Attack with it; b.1 as before. (Before: the lance in both fights.)
    rider = profile("Rough Rider", sv="5+")
    a = squad("a", A, rider, [LANCE, BOLT_PISTOL], south([10]), name="Rough Riders")
    b = squad("b", B, profile("Dummy", i=1, sv="-"), [CHAINSWORD], north([10]), name="B")
    battle = make_battle(a, b, dice=[1, 1, 1, 1], script_a=[("melee_weapon", LANCE.name)])
    fight_sub_phase(battle, A)
    (spent,) = of_kind(battle, "weapon_spent")
    assert (spent.unit, spent.model, spent.weapon) == ("Rough Riders [a]", "a.1", LANCE.name)
    assert [w.name for w in a.models[0].weapons] == [BOLT_PISTOL.name]
    fight_sub_phase(battle, A)
    mine = [(e.weapon, e.attacks) for e in of_kind(battle, "blows") if e.unit == "Rough Riders [a]"]
    assert mine == [(LANCE.name, 1), ("Close combat weapon", 1)]
    assert len(asked(battle, A, "melee_weapon")) == 1
    assert len(of_kind(battle, "weapon_spent")) == 1
    assert all_dice_used(battle)
