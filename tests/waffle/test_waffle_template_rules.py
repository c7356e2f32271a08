"""The 7th-edition Template rule: where a template may be placed, whom it never hits,
and that it ignores cover (a shooting referee's review, session 24).

7th edition, Template weapons (the rulebook's text as quoted in the Dakka thread
"Template Special Rule"; Horus Heresy 2.0 prints the same): "place the template so that
its narrow end is touching the base of the firing model and the rest of the template
covers as many models in the target unit as possible, without touching any other
friendly models (including models from the firing model's unit) … A template weapon
never hits the model firing it. Template weapons have the Ignores Cover, Wall of Death
and No Escape special rules."

Bases are 1" across (conftest). A Flamer's template aimed from a firer at (x, y) along
+x has its narrow end at (x + 0.5, y), 0.4" wide there, widening to 2" at x + 7.5
(a 1" circle round (x + 7.5, y)) and ending at x + 8.5 (geometry.flame_template).
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    FLAMER,
    LASGUN,
    MARINE,
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
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.expected import expected_casualties
from hammerlab.editions.waffle.markers import aim_points
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of

BARE = profile("Unarmoured", sv="6+")
"""6+ armour: the Flamer's AP5 leaves no save."""
GUARD = profile("Guardsman", bs=3, s=3, ld=7, sv="5+")
"""5+ armour: the Flamer's AP5 leaves no armour save, so only cover could save."""
RUIN = box("Ruin", 26, 8, 34, 14, cover_save=4)
"""A 4+ ruin round (28..32, 10..12)."""


# --- Placement: no friendly model under the template --------------------------------


def test_a_template_is_not_offered_where_it_would_touch_a_squad_mate() -> None:
    """Aimed east at b.1 the template covers the firer's squad-mate a.2: not offered.
    Aimed north at b.2 it touches no friend: offered."""
    # Firer a.1 (10,10); a.2 (13,10) on the +x axis, under the template (its centre is on
    # the axis, 2.5" from the narrow end). b.1 (16,10): 5" base to base, reached. b.2
    # (10,15): 4" base to base north; aimed at it the template runs along x = 10, at most
    # 1" either side, and a.2's base starts 2.5" east of that line: clear.
    flamers = make_unit(
        "a", A, [Placed(MARINE, [FLAMER], (10, 10)), Placed(MARINE, [BOLTGUN], (13, 10))]
    )
    mob = squad("b", B, BARE, [LASGUN], [(16, 10), (10, 15)], name="Mob")
    battle = make_battle(flamers, mob)
    offered = aim_points(battle, flamers, flamers.models[0], mob, weapon_of(FLAMER))
    assert [m.id for m in offered] == ["b.2"]


def test_a_template_is_not_offered_where_it_would_touch_another_friendly_unit() -> None:
    """As above, with the friend a model of another unit of the firer's side."""
    # f.1 (13,10) of a friendly unit on the +x axis: aimed at b.1 the template covers it.
    flamer = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    friends = squad("f", A, MARINE, [BOLTGUN], [(13, 10)], name="Friends")
    mob = squad("b", B, BARE, [LASGUN], [(16, 10), (10, 15)], name="Mob")
    battle = make_battle(flamer, friends, mob)
    offered = aim_points(battle, flamer, flamer.models[0], mob, weapon_of(FLAMER))
    assert [m.id for m in offered] == ["b.2"]


def test_the_ai_aims_its_template_where_no_friend_is_under_it() -> None:
    """The thicker aim, east over four enemies and a friend, is not offered; the AI takes
    the only aim left, north over one enemy, and hits only the enemy."""
    # Firer (10,10). East, on or near the +x axis: f.1 (13,10) of a friendly unit, then
    # b.1 (15,10), b.3 (16.5,10), b.4 (17.5,10.6), b.5 (17.5,9.4) (the last two under the
    # template's round end, a 1" circle round (17.5,10)); aimed at any of them the
    # template passes within 0.25" of f.1's centre. North: b.2 (10,15) alone, the
    # template along x = 10 (at most 1" either side), f.1's base from x = 12.5: clear.
    # Before, east was offered and worth 4 - 2 x 1 = 2 to the AI (expected.aim_value),
    # north 1: it aimed east, over its friend.
    flamer = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Flamers")
    friends = squad("f", A, MARINE, [BOLTGUN], [(13, 10)], name="Friends")
    points = [(15, 10), (10, 15), (16.5, 10), (17.5, 10.6), (17.5, 9.4)]
    mob = squad("b", B, BARE, [LASGUN], points, name="Mob")
    # One hit, S4 v T4: the 1 fails to wound.
    battle = make_battle(flamer, friends, mob, dice=[1], fallback=WaffleAI())
    fire_weapon(battle, flamer, mob, "Flamer", FireOrders())
    (question,) = asked(battle, A, "aim")
    assert question.labels() == ["b.2"]
    (aim,) = [e for e in of_kind(battle, "decision") if e.decision == "aim"]
    assert aim.answer == "b.2"
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert alive_ids(friends) == ["f.1"]
    assert all_dice_used(battle)


def test_a_flamer_behind_its_own_squad_does_not_fire_and_the_prompt_says_why() -> None:
    """The referee's case: a flamer at the back of a column of its squad, the enemy
    beyond the column. Every aim covers a squad-mate, so it does not fire; before, it
    fired over them and the wound went to the firer itself (closest to its own unit)."""
    # a.1 (10,10) with the Flamer; a.2..a.4 at (10,11.2), (10,12.4), (10,13.6) in front,
    # 0.2" apart; the Grots at y 16 to 17, 1.9" to 3.0" from a.1's base. Aimed at any of
    # them the template starts at a.1's base edge (about (10,10.5)) and is 0.4" wide
    # there, so it covers a.2's base (from y 10.7, on the axis within 0.35" of x = 10
    # for every Grot aimed at: the Grots stand at x 9.5..10.5).
    squad_a = make_unit(
        "a",
        A,
        [
            Placed(MARINE, [FLAMER], (10, 10)),
            *[Placed(MARINE, [BOLTGUN], (10, y)) for y in (11.2, 12.4, 13.6)],
        ],
        name="Squad",
    )
    grots = squad("b", B, BARE, [LASGUN], [(9.5, 16), (10.5, 16), (10, 17)], name="Grots")
    battle = make_battle(
        squad_a,
        grots,
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "shoot"),
            ("target", "Grots [b]"),
            ("weapon", "stop"),
        ],
    )
    assert firing_models(battle, squad_a, grots, "Flamer", FireOrders()) == []
    assert expected_casualties(battle, squad_a, grots, "Flamer", FireOrders()) == 0.0
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "weapon")
    assert "Flamer" not in menu.labels()
    assert menu.not_offered() == (
        "Flamer: its template would touch a friendly model wherever aimed",
    )
    assert alive_ids(squad_a) == ["a.1", "a.2", "a.3", "a.4"]


def test_a_template_beside_its_squad_hits_only_the_enemy_never_its_firer() -> None:
    """A squad-mate beside the firer, clear of the template: the template is offered and
    fires, and its hit and wound go to the enemy alone (a control beside the tests
    above: the rule bars only aims that touch a friend)."""
    # a.1 (10,10) aims east at b.1 (13,10); a.2 (10,8.5) 1.5" south of the axis: its base
    # reaches y 9.0, and the template's nearest corner, (10.5,9.8) at the narrow end, is
    # sqrt(0.5^2 + 1.3^2) = 1.39" from a.2's centre, beyond its 0.5" radius. One hit on
    # b.1: S4 v T4 wounds on 4+, the 6 wounds; AP5 against 6+ armour: no save.
    squad_a = make_unit(
        "a",
        A,
        [Placed(MARINE, [FLAMER], (10, 10)), Placed(MARINE, [BOLTGUN], (10, 8.5))],
        name="Squad",
    )
    mob = squad("b", B, BARE, [LASGUN], [(13, 10)], name="Mob")
    battle = make_battle(squad_a, mob, dice=[6], script_a=[("aim", "b.1")])
    fire_weapon(battle, squad_a, mob, "Flamer", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Mob [b]": 1}
    assert alive_ids(mob) == []
    assert alive_ids(squad_a) == ["a.1", "a.2"]
    assert all_dice_used(battle)


# --- Ignores Cover -----------------------------------------------------------------


def test_a_template_ignores_the_cover_of_a_ruin() -> None:
    """Template weapons have the Ignores Cover special rule (7th edition): Guardsmen
    (5+ armour) in a 4+ ruin, wounded by a Flamer (AP5), have no save at all."""
    # Firer (24,11) aims east at b.1 (29,11); b.2 (30.5,11) on the axis too. Both in the
    # ruin. Two hits, S4 v T4 on 4+: 6, 6 wound. AP5 beats 5+ armour; the 4+ cover is
    # ignored: no save rolled, both die. Before, each took a 4+ cover save.
    flamer = squad("a", A, MARINE, [FLAMER], [(24, 11)], name="Burners")
    guards = squad("b", B, GUARD, [LASGUN], [(29, 11), (30.5, 11)], name="Guards")
    battle = make_battle(flamer, guards, terrain=[RUIN], dice=[6, 6], script_a=[("aim", "b.1")])
    fire_weapon(battle, flamer, guards, "Flamer", FireOrders())
    assert last(of_kind(battle, "marker")).hits == {"Guards [b]": 2}
    assert not any("cover save" in p for p in dice_purposes(battle))
    assert of_kind(battle, "save") == []
    assert alive_ids(guards) == []
    assert all_dice_used(battle)


def test_the_estimate_of_a_template_ignores_cover_too() -> None:
    """The AI's estimate reads the same rule (``WeaponProfile.ignores_cover`` through
    ``odds.wound_fate``): a Flamer at Guardsmen in the ruin expects what it does in
    the open."""
    # Three Guardsmen: a template is counted as 3 models hit (expected.BLAST_HITS). Each
    # hit wounds on 4+ (1/2), AP5 leaves 5+ armour no save, cover ignored: 3 x 1/2 = 1.5.
    # With the ruin's 4+ taken, 3 x 1/2 x 1/2 = 0.75 (the old estimate).
    flamer = squad("a", A, MARINE, [FLAMER], [(24, 11)], name="Burners")
    guards = squad("b", B, GUARD, [LASGUN], [(29, 11), (30.5, 11), (29, 12.5)], name="Guards")
    battle = make_battle(flamer, guards, terrain=[RUIN])
    expected = expected_casualties(battle, flamer, guards, "Flamer", FireOrders())
    assert expected == pytest.approx(1.5)


def test_a_flamer_unit_whose_every_aim_covers_friends_is_told_so_in_the_action_prompt() -> None:
    """The referee's second case: a one-model flamer unit with a friendly unit between it
    and the enemy. It has no target, and the action prompt says why (it said "no enemy
    unit in range is seen by a model able to fire at it")."""
    # Flamer (10,10); Friends f.1..f.3 across its front at y 12, x 9..11 (bases 1" wide,
    # touching); the Grots at y 15 to 16, within 8" of its base. Aimed at any Grot the
    # template's axis crosses y = 12 between x 9.5 and 10.5, inside f.1..f.3's bases.
    flamer = squad("a", A, MARINE, [FLAMER], [(10, 10)], name="Squad")
    friends = squad("f", A, MARINE, [BOLTGUN], [(9, 12), (10, 12), (11, 12)], name="Friends")
    grots = squad("b", B, BARE, [LASGUN], [(9.5, 15), (10.5, 15), (10, 16)], name="Grots")
    battle = make_battle(
        flamer,
        friends,
        grots,
        script_a=[("shooter", "Squad [a]"), ("action", "hold"), ("shooter", "end phase")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "action")
    assert menu.labels() == ["run", "hold"]
    assert menu.not_offered() == (
        "shoot: Flamer: its template would touch a friendly model wherever aimed",
    )
