"""Cover in the shooting phase judged per wound from its own firer, and cover from
intervening models (6th/7th edition), fitted to the centre-to-centre sight lines."""

from __future__ import annotations

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
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.engine.battle import Battle

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
