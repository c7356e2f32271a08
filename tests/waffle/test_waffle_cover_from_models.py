"""Cover in the shooting phase judged per wound from its own firer, and cover from
intervening models (6th/7th edition), fitted to the centre-to-centre sight lines."""

from __future__ import annotations

from typing import Any

from conftest import (
    MARINE,
    A,
    B,
    all_dice_used,
    box,
    make_battle,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.expected import defence_of
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.visibility import cover_save
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Model, Unit

BEAST = profile("Beast", t=4, w=10, sv="-", unit_type="Monstrous Creature")
"""T4 W10 with no armour save: every save rolled against it is a cover save."""
RIFLE = weapon("Rifle", "36", "4", "-", "Assault 1")


def saves(battle: Battle) -> list[tuple[str, int, int, bool]]:
    return [(s.save, s.needed, s.roll, s.saved) for s in of_kind(battle, "save")]


def test_each_wound_takes_the_cover_its_own_firer_sees_it_through() -> None:
    """Five Marines in a line at y=10 fire one shot each at a Beast at (34,30); a 4+
    hedge (x 29-31, y 13-14) stands in front of the first one only. By hand: the line
    from (30,10) to (34,30) is at x=30.6-30.8 for y 13-14, inside the hedge; from
    (38,10) it is at x=37.4-37.2, clear of it. Marines 1 and 5 hit (6s; 3+ at BS4), both
    wound (5s; S4 v T4 on 4+): the first wound, Marine 1's, takes the hedge's 4+ cover
    save (a 6, saved); the second, Marine 5's, none. Before, every wound of the volley
    was judged from the last hit's firer (Marine 5): no cover save at all."""
    hedge = box("Hedge", 29, 13, 31, 14, cover_save=4)
    shooters = squad("a", A, MARINE, [RIFLE], [(30 + 2 * k, 10) for k in range(5)])
    beast = squad("b", B, BEAST, [], [(34, 30)])
    battle = make_battle(shooters, beast, terrain=[hedge], dice=[6, 1, 1, 1, 6, 5, 5, 6])
    fire_weapon(battle, shooters, beast, "Rifle", FireOrders())
    assert saves(battle) == [("cover", 4, 6, True)]
    assert beast.models[0].wounds_left == 9
    assert all_dice_used(battle)


def test_mirror_image_firers_give_the_same_cover() -> None:
    """The same volley with the hedge in front of the last Marine instead (x 37-39):
    the first wound (Marine 1's) now has no cover and the second (Marine 5's) a 4+
    (rolled 6, saved). Either way one wound of two, the one from the Marine behind the
    hedge, takes the save: the model order in the unit decides nothing."""
    hedge = box("Hedge", 37, 13, 39, 14, cover_save=4)
    shooters = squad("a", A, MARINE, [RIFLE], [(30 + 2 * k, 10) for k in range(5)])
    beast = squad("b", B, BEAST, [], [(34, 30)])
    battle = make_battle(shooters, beast, terrain=[hedge], dice=[6, 1, 1, 1, 6, 5, 5, 6])
    fire_weapon(battle, shooters, beast, "Rifle", FireOrders())
    assert saves(battle) == [("cover", 4, 6, True)]
    assert [e.model for e in of_kind(battle, "no_save")] == ["b.1"]
    assert beast.models[0].wounds_left == 9
    assert all_dice_used(battle)


# --- cover from intervening models ---------------------------------------------------

GROT = profile("Grot", bs=3, s=2, t=2, sv="6+")
"""Sv 6+: a Boltgun's AP5 leaves it only a cover save."""
BOLTGUN_AT_GROTS = weapon("Boltgun", "24", "4", "5", "Rapid Fire")


def screened_volley(screen_player: str, dice: list[int]) -> Battle:
    """Marine a.1 at (30,10) fires a Boltgun (one shot: 19" off, beyond half range) at a
    Grot b.1 at (30,30); a Marine c.1 of a third unit (of ``screen_player``) stands at
    (30,20), its base right across the centre-to-centre line."""
    shooter = squad("a", A, MARINE, [BOLTGUN_AT_GROTS], [(30, 10)])
    grot = squad("b", B, GROT, [], [(30, 30)])
    screen = squad("c", screen_player, MARINE, [], [(30, 20)])
    battle = make_battle(shooter, grot, screen, dice=dice)
    fire_weapon(battle, shooter, grot, "Boltgun", FireOrders())
    return battle


def test_an_enemy_unit_s_model_across_the_line_gives_a_5_plus_cover_save() -> None:
    """7th edition: a model obscured by models of another unit has a 5+ cover save.
    Hit on 4 (3+), S4 v T2 wounds on 2+: 5; AP5 beats the Grot's 6+, so only the 5+
    cover save is left: rolled 5, saved. Before, no save: "b.1 has no save"."""
    battle = screened_volley(B, [4, 5, 5])
    assert saves(battle) == [("cover", 5, 5, True)]
    assert not of_kind(battle, "no_save")
    assert all_dice_used(battle)


def test_a_friendly_unit_s_model_across_the_line_gives_the_same_cover() -> None:
    """ "Friend or foe": the firer's side's own other unit screens the Grot alike
    (rolled 4 against 5+: failed, the Grot dies)."""
    battle = screened_volley(A, [4, 5, 4])
    assert saves(battle) == [("cover", 5, 4, False)]
    assert [c.model for c in of_kind(battle, "casualty")] == ["b.1"]
    assert all_dice_used(battle)


def cover_of(
    others: list[Unit], target: Unit, at: int = 0, firer: Unit | None = None, **terrain: Any
) -> int | None:
    """The cover save ``target``'s model ``at`` has against Marine a.1 (of ``firer``, by
    default a lone Marine at (30,10)), with ``others`` on the table too."""
    shooter = firer or squad("a", A, MARINE, [BOLTGUN_AT_GROTS], [(30, 10)])
    battle = make_battle(shooter, target, *others, terrain=terrain.get("areas", []))
    down = terrain.get("down", False)
    return cover_save(battle, shooter.models[0], target, target.models[at], down)


def test_the_target_s_own_models_and_the_firer_s_own_models_give_no_cover() -> None:
    """Only another unit's models give cover: a Grot at (30,30) behind its own
    squad-mate at (30,25) has none, nor one behind the firer's squad-mate at (30,15)."""
    grots = squad("b", B, GROT, [], [(30, 30), (30, 25)])
    assert cover_of([], grots) is None
    squad_of_two = squad("a", A, MARINE, [BOLTGUN_AT_GROTS], [(30, 10), (30, 15)])
    assert cover_of([], squad("b", B, GROT, [], [(30, 30)]), firer=squad_of_two) is None


def test_a_base_gives_cover_only_where_the_line_crosses_it() -> None:
    """The line x=30 from (30,10) to (30,30): a 1" base (radius 0.5") centred 0.4" off
    it is crossed (5+); one 1.2" off is not. A 100 mm hull (radius 100/25.4/2 = 1.97")
    1.5" off is crossed: a vehicle screens by its hull's footprint."""
    grot = squad("b", B, GROT, [], [(30, 30)])
    assert cover_of([squad("c", B, MARINE, [], [(30.4, 20)])], grot) == 5
    assert cover_of([squad("c", B, MARINE, [], [(31.2, 20)])], grot) is None
    assert cover_of([vehicle("c", B, (31.5, 20))], grot) == 5


def test_a_vehicle_behind_another_unit_s_models_has_the_cover_too() -> None:
    """A tank at (30,30) with a Marine of a third unit at (30,20) in front of it."""
    tank = vehicle("t", B, (30, 30))
    assert cover_of([squad("c", B, MARINE, [], [(30, 20)])], tank) == 5


def test_better_cover_counts_and_going_to_ground_improves_the_models_cover() -> None:
    """The best cover save counts: a 4+ ruin round the Grot beats the screen's 5+.
    Gone to ground, the screen's 5+ becomes 4+ (+1, 6th/7th-edition Go to Ground)."""
    grot = squad("b", B, GROT, [], [(30, 30)])
    screen = squad("c", B, MARINE, [], [(30, 20)])
    ruin = box("Ruin", 28, 28, 32, 32, cover_save=4)
    assert cover_of([screen], grot, areas=[ruin]) == 4
    assert cover_of([screen], grot, down=True) == 4


def test_the_ai_s_estimate_takes_the_cover_of_intervening_models() -> None:
    """The estimates read the same rule (:func:`expected.defence_of`): 5+ behind the
    screen, none without it."""
    shooter = squad("a", A, MARINE, [BOLTGUN_AT_GROTS], [(30, 10)])
    grot = squad("b", B, GROT, [], [(30, 30)])
    screen = squad("c", B, MARINE, [], [(30, 20)])
    battle = make_battle(shooter, grot, screen)
    assert defence_of(battle, grot, shooter.models[0]).cover == 5
    open_field = make_battle(shooter, grot)
    assert defence_of(open_field, grot, shooter.models[0]).cover is None


RHINO = Profile(
    name="Rhino",
    characteristics={"BS": "4", "Front": "11", "Side": "11", "Rear": "10", "HP": "3"},
    unit_type="Vehicle (Tank, Transport)",
)


def vehicle(uid: str, player: str, at: Vec) -> Unit:
    """One Rhino on a 100 mm round hull (hammerlab's hulls are round)."""
    sheet = Datasheet(
        name="Rhino", army="test", edition="waffle", entries=(ModelEntry(RHINO, 1, (), 100.0),)
    )
    hull = Model(
        id=f"{uid}.1", profile=RHINO, weapons=(), position=at, base_mm=100.0, wounds_left=3
    )
    return Unit(id=uid, name="Rhino", player=player, datasheet=sheet, models=[hull])
