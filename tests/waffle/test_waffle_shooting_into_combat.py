"""Seed 001, (Proposed Rule) Shooting Into and out of Close Combat.

"Models belonging to units locked in combat cannot fire weapons in the
Shooting phase … However, models can shoot at units locked in close combat …
Units wishing to shoot into a melee must declare which of the engaged units
they are trying to hit, and then perform a snap shot against that unit. Any
successful snap shots hit the nominated enemy unit. However, any rolls of 1
or 2, even if they would normally be hits, hit one of your engaged units
instead! (In the case of shooting at a melee which has no units you control,
the 1s and 2s hit a squad from a different player than the controlling player
of the nominated squad). Resolve all these hits as normal, and keep in mind
that if you cause any casualties to a friendly unit, they will suffer a
penalty to any Morale checks they might need to make! While blast markers and
templates cannot be deliberately placed such that they cover any models
locked in combat, they may end up there after scattering and will then cause
hits on any units they touch (friends and foes!) as normal. Units that are
locked in close combat do not take Morale checks or Pinning tests caused by
shooting and cannot Go to Ground".

The standard melee of these tests (bases 1" wide, see ``conftest``)::

    y=33                                   c.2 (36,33)
    y=31          c.1 (31,31)                           Guard [c], player A
    y=30          b.1 (31,30)  b.2 (33,30)               Orks [b], player B
    y=10  a.1 (20,10) a.2 (22,10) a.3 (24,10)           Squad [a], player A

b.1 and c.1 touch (centres 1" apart), so Orks [b] and Guard [c] are locked
in combat. Squad [a] is about 20" away: a Boltgun fires one shot per model.
Against the Orks (T4, 6+) and the Guard (T3, 5+) the Boltgun's AP5 allows no
armour save; c.1, seen from the Squad behind b.1 (the line from a.1 passes 0.46"
from b.1's centre, from a.2 0.39", from a.3 0.32"), has a 5+ cover save from
intervening models.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from conftest import (
    BOLTGUN,
    FLAMER,
    FRAG_MISSILE,
    LASGUN,
    MARINE,
    A,
    B,
    alive_ids,
    all_dice_used,
    asked,
    dice_purposes,
    last,
    make_battle,
    of_kind,
    profile,
    shooting_phase,
    squad,
    weapon,
)

from hammerlab.editions import get_ruleset
from hammerlab.editions.base import apply_rules
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.markers import aim_points
from hammerlab.editions.waffle.melee_strays import stray_chance
from hammerlab.editions.waffle.morale import go_to_ground, morale_check, pinning_test
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.rules import OPTIONS
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import reactions_to_shooting, targets_for
from hammerlab.editions.waffle.shooting_plans import target_value
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.controllers import ScriptedController
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.dice import ScriptedDice
from hammerlab.engine.geometry import blast_marker, touched
from hammerlab.engine.rules import resolve_settings
from hammerlab.engine.units import Unit

GUARD = profile("Guardsman", bs=3, s=3, t=3, ld=7, sv="5+")
ORK = profile("Ork Boy", bs=2, s=3, ld=7, sv="6+")
INTO = {"shooting_into_combat": True}
SQUAD = [(20, 10), (22, 10), (24, 10)]


def shoot(target: str, gun: str = "Boltgun", unit: str = "Squad [a]") -> list[tuple[str, str]]:
    return [("shooter", unit), ("action", "shoot"), ("target", target), ("weapon", gun)]


def orks(points: Sequence[tuple[float, float]] = ((31, 30), (33, 30))) -> Unit:
    return squad("b", B, ORK, [], points, name="Orks")


def guard(points: Sequence[tuple[float, float]] = ((31, 31), (36, 33))) -> Unit:
    return squad("c", A, GUARD, [LASGUN], points, name="Guard")


def melee(*units: Unit, **kwargs: Any) -> Battle:
    """A battle whose locks are read from the table, as after a charge."""
    battle = make_battle(*units, **kwargs)
    refresh_locks(battle)
    return battle


def test_seed001_shooting_into_combat_is_an_option_off_by_default() -> None:
    assert resolve_settings(OPTIONS, (), {}).on("shooting_into_combat") is False
    option = next(o for o in OPTIONS if o.name == "shooting_into_combat")
    assert "any rolls of 1 or 2" in option.quote


# --- Option off: the base rule ---------------------------------------------------------


@pytest.mark.parametrize("on", [False, True])
def test_seed001_locked_enemies_are_targets_only_with_the_option(on: bool) -> None:
    squad_a = squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad")
    free = squad("d", B, ORK, [], [(10, 30)], name="Free")
    battle = melee(
        squad_a,
        orks(),
        guard(),
        free,
        options={"shooting_into_combat": on},
        script_a=shoot("Free [d]", "stop"),
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "target")
    assert menu.labels() == (["Orks [b]", "Free [d]"] if on else ["Free [d]"])


@pytest.mark.parametrize("on", [False, True])
def test_seed001_units_locked_in_combat_cannot_shoot_out_of_it(on: bool) -> None:
    # Guard [c] is locked: "Models belonging to units locked in combat cannot fire
    # weapons in the Shooting phase", with or without the proposed rule.
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        options={"shooting_into_combat": on},
        script_a=[("shooter", "end phase")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "shooter")
    assert menu.labels() == ["Squad [a]", "end phase"]


def aim_scene(gun: Weapon, at: tuple[float, float], **kwargs: Any) -> Battle:
    """Free [d] (B, T3) beside a melee of Orks [b] (B) and Guard [c] (A).

    b.1 (38.2,30) touches c.1 (37.2,30); d.1 (40,30) is 1.8" from b.1, d.2 (46,30)
    is 7.8" away.
    """
    return melee(
        squad("a", A, MARINE, [gun], [at], name="Squad"),
        orks([(38.2, 30)]),
        guard([(37.2, 30)]),
        squad("d", B, GUARD, [LASGUN], [(40, 30), (46, 30)], name="Free"),
        **kwargs,
    )


def test_seed001_blast_marker_may_not_be_placed_over_models_locked_in_combat() -> None:
    # A 3" marker on d.1 reaches 1.5" + 0.5" = 2" from its centre: b.1 (1.8") is
    # under it. On d.2 it touches nothing locked: d.2 is the only aim point.
    battle = aim_scene(
        FRAG_MISSILE,
        (46, 10),
        dice=[1, 1],  # scatter die 1: HIT; S4 v T3 (3+): 1, no wound
        script_a=[*shoot("Free [d]", "Missile launcher (frag)"), ("aim", "d.2")],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (aim,) = asked(battle, A, "aim")
    assert aim.labels() == ["d.2"]
    assert last(of_kind(battle, "marker")).hits == {"Free [d]": 1}
    assert all_dice_used(battle)


def test_seed001_template_may_not_be_placed_over_models_locked_in_combat() -> None:
    # From (40,22) a template toward d.1 (40,29) runs along x = 40 and is about
    # 0.2 + 0.8 * 4/7 = 0.66" wide at y = 26, where b.1's base reaches x = 40.3:
    # it would touch b.1. Toward d.2 (36,28) it turns away from the melee.
    battle = melee(
        squad("a", A, MARINE, [FLAMER], [(40, 22)], name="Squad"),
        orks([(40.8, 26)]),
        guard([(41.8, 26)]),
        squad("d", B, GUARD, [LASGUN], [(40, 29), (36, 28)], name="Free"),
        dice=[1],  # S4 v T3 (3+): 1, no wound
        script_a=[*shoot("Free [d]", "Flamer"), ("aim", "d.2")],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    (aim,) = asked(battle, A, "aim")
    assert aim.labels() == ["d.2"]
    assert last(of_kind(battle, "marker")).hits == {"Free [d]": 1}
    assert all_dice_used(battle)


@pytest.mark.parametrize("dx", [1.2, 1.6, 2.4, 3.0, 4.0])
@pytest.mark.parametrize("dy", [-2.0, 0.0, 1.5])
def test_seed001_blast_aim_points_never_cover_a_locked_model(dx: float, dy: float) -> None:
    # Free d.1 at (40,30); the melee b.1/c.1 moves around it. Whatever the offset,
    # no aim point offered puts a locked base under the marker, and d.1 is offered
    # exactly when b.1 and c.1 are more than 2" (marker radius + base radius) away.
    b1, c1 = (40 - dx, 30 + dy), (39 - dx, 30 + dy)
    battle = melee(
        squad("a", A, MARINE, [FRAG_MISSILE], [(40, 10)], name="Squad"),
        orks([b1]),
        guard([c1]),
        squad("d", B, GUARD, [LASGUN], [(40, 30), (46, 30)], name="Free"),
    )
    firer = battle.unit("a").models[0]
    profile_ = weapon_of(FRAG_MISSILE)
    offered = aim_points(battle, battle.unit("a"), firer, battle.unit("d"), profile_)
    locked = battle.unit("b").alive_models + battle.unit("c").alive_models
    assert all(not touched(blast_marker(m.position, 3.0), locked) for m in offered)
    clear = (dx**2 + dy**2) ** 0.5 > 2.0
    assert ("d.1" in [m.id for m in offered]) == clear


def test_seed001_no_aim_point_clear_of_the_melee_means_the_blast_cannot_fire() -> None:
    # Free [d] is a lone model 1.8" from b.1: every marker on it covers b.1.
    battle = melee(
        squad("a", A, MARINE, [FRAG_MISSILE], [(40, 10)], name="Squad"),
        orks([(38.2, 30)]),
        guard([(37.2, 30)]),
        squad("d", B, GUARD, [LASGUN], [(40, 30)], name="Free"),
    )
    unit = battle.unit("a")
    assert firing_models(battle, unit, battle.unit("d"), FRAG_MISSILE.name, FireOrders()) == []
    assert targets_for(battle, unit, FireOrders()) == []


def test_seed001_a_scattered_blast_hits_units_locked_in_combat_friends_and_foes() -> None:
    # Aimed at d.2 (46,30); scatter 180 degrees, 2D6 = 11 minus BS4 = 7": the
    # marker lands at (39,30), within 2" of d.1 (1.0"), b.1 (0.8") and c.1 (1.8").
    battle = aim_scene(
        FRAG_MISSILE,
        (46, 10),
        dice=[
            3,  # scatter die: an arrow
            *[5, 6],  # 2D6 = 11, minus BS4: 7"
            1,  # Orks: S4 v T4 (4+): 1, no wound
            1,  # Guard: S4 v T3 (3+): 1, no wound
            1,  # Free: S4 v T3 (3+): 1, no wound
        ],
        directions=[180.0],
        script_a=[*shoot("Free [d]", "Missile launcher (frag)"), ("aim", "d.2")],
        script_b=[("reaction", "no reaction")],
    )
    shooting_phase(battle, A)
    marker = last(of_kind(battle, "marker"))
    assert marker.centre == pytest.approx((39, 30))
    assert marker.hits == {"Orks [b]": 1, "Guard [c]": 1, "Free [d]": 1}
    assert all_dice_used(battle)


# --- Option on: snap shots into the melee ----------------------------------------------


def test_seed001_shooting_into_a_melee_is_snap_shots_only() -> None:
    # BS4 snap shots: BS 4 / 2 = 2, hitting on 5+.
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        options=INTO,
        dice=[3, 4, 6, 1],  # to hit: 3 and 4 miss, 6 hits; to wound (4+): 1
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    shots = last(of_kind(battle, "shots"))
    assert (shots.snap, shots.needed, shots.shots, shots.hits) == (True, "5+", 3, 1)
    assert of_kind(battle, "stray_shots") == []
    assert "to hit (Boltgun, 5+, 1-2 stray)" in dice_purposes(battle)
    assert [e.target for e in of_kind(battle, "shoots_into_melee")] == ["Orks [b]"]
    assert all_dice_used(battle)


def test_seed001_rolls_of_1_and_2_hit_your_engaged_unit() -> None:
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        options=INTO,
        dice=[
            *[1, 2, 5],  # to hit: 1 and 2 stray onto Guard [c], 5 hits the Orks
            3,  # Orks: S4 v T4 (4+): 3, no wound
            *[3, 2],  # Guard: S4 v T3 (3+): a.1's stray wounds, AP5 leaves no armour save
            1,  # c.1's 5+ cover fails: the line from a.1 (20,10) to c.1 (31,31) passes
            # 11/sqrt(562) = 0.46" from b.1's centre, inside its base (intervening models)
        ],
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    stray = last(of_kind(battle, "stray_shots"))
    assert (stray.strays, stray.victim) == (2, "Guard [c]")
    assert [(w.target, w.hits, w.wounds) for w in of_kind(battle, "wounds")] == [
        ("Orks [b]", 1, 0),
        ("Guard [c]", 2, 1),
    ]
    # Allocated to the Guard model closest to the firers: c.1 (31,31) is 22.1"
    # from a.3 (24,10), c.2 (36,33) 25.9".
    assert alive_ids(battle.unit("c")) == ["c.2"]
    assert alive_ids(battle.unit("b")) == ["b.1", "b.2"]
    assert all_dice_used(battle)


def test_seed001_a_roll_of_2_hits_your_unit_even_when_it_would_normally_hit() -> None:
    # BS10 snap shots: BS 5, hitting on 2+; the 2 still goes to Guard [c].
    ace = profile("Ace", bs=10)
    battle = melee(
        squad("a", A, ace, [BOLTGUN], [(24, 10)], name="Squad"),
        orks(),
        guard(),
        options=INTO,
        dice=[2, 1],  # to hit: 2; Guard: S4 v T3: 1, no wound
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    shots = last(of_kind(battle, "shots"))
    assert (shots.needed, shots.hits) == ("2+", 0)
    assert last(of_kind(battle, "stray_shots")).victim == "Guard [c]"
    assert all_dice_used(battle)


def test_seed001_twin_linked_rerolls_misses_and_a_rerolled_1_or_2_also_strays() -> None:
    # Snap BS2 needs 5+. First roll 1 (stray: not a miss, not re-rolled), 3 (miss),
    # 6 (hit); the miss is re-rolled: 2, a stray. Hits 1, strays 2.
    gun = weapon("Twin storm gun", "24", "4", "5", "Assault 3, Twin-linked")
    battle = melee(
        squad("a", A, MARINE, [gun], [(24, 10)], name="Squad"),
        orks(),
        guard(),
        options=INTO,
        dice=[1, 3, 6, 2, 1, 1, 1],  # hit rolls, re-roll, Orks wound 1, Guard wounds 1 1
        script_a=shoot("Orks [b]", "Twin storm gun"),
    )
    shooting_phase(battle, A)
    assert "re-roll misses (Twin storm gun, 5+, 1-2 stray)" in dice_purposes(battle)
    rerolls = [e for e in of_kind(battle, "dice") if e.purpose.startswith("re-roll")]
    assert [e.values for e in rerolls] == [(2,)]
    assert last(of_kind(battle, "shots")).hits == 1
    assert last(of_kind(battle, "stray_shots")).strays == 2
    assert all_dice_used(battle)


def test_seed001_the_shooter_chooses_which_of_its_engaged_units_the_1s_and_2s_hit() -> None:
    scouts = squad("e", A, MARINE, [BOLTGUN], [(33, 31)], name="Scouts")  # touches b.2
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        scouts,
        options=INTO,
        dice=[1, 6, 4, 1, 1],  # to hit: stray, hit, miss; Orks wound 1; Scouts wound 1
        script_a=[*shoot("Orks [b]"), ("melee_stray", "Scouts [e]")],
    )
    shooting_phase(battle, A)
    (choice,) = asked(battle, A, "melee_stray")
    assert choice.labels() == ["Guard [c]", "Scouts [e]"]
    assert last(of_kind(battle, "stray_shots")).victim == "Scouts [e]"
    assert [w.target for w in of_kind(battle, "wounds")] == ["Orks [b]", "Scouts [e]"]
    assert all_dice_used(battle)


def three_player_battle(units: Sequence[Unit], dice: Sequence[int]) -> Battle:
    """Players A (south), B (north) and C (west); only A has a script."""
    battle = Battle(
        battlefield=Battlefield(72.0, 48.0),
        players=(Player(A, "south"), Player(B, "north"), Player("C", "west")),
        units={u.id: u for u in units},
        dice=ScriptedDice(values=list(dice)),
        ruleset="waffle",
        controllers={
            A: ScriptedController(shoot("Orks [b]")),
            B: ScriptedController(),
            "C": ScriptedController(),
        },
    )
    apply_rules(battle, get_ruleset("waffle"), INTO)
    refresh_locks(battle)
    return battle


def test_seed001_third_party_rule_1s_and_2s_hit_a_squad_of_another_player() -> None:
    # A shoots at B's Orks locked with C's Eldar: no unit of A is in the melee, so
    # the 1s and 2s hit a squad of a player other than B: the Eldar.
    eldar = squad("f", "C", GUARD, [LASGUN], [(31, 31)], name="Eldar")
    battle = three_player_battle(
        [squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"), orks(), eldar],
        # stray, hit, miss; Orks wound 3 (4+: no); Eldar 3 (3+: yes); the Eldar's 5+
        # cover behind b.1 (a.1's line passes 0.46" from its centre) fails on a 1
        dice=[2, 5, 3, 3, 3, 1],
    )
    shooting_phase(battle, A)
    assert last(of_kind(battle, "stray_shots")).victim == "Eldar [f]"
    assert eldar.destroyed
    # Locked, the Eldar neither react nor test Morale (100% lost is past 25% anyway).
    assert of_kind(battle, "reaction") == []
    assert of_kind(battle, "morale") == []
    assert all_dice_used(battle)


def test_seed001_blast_and_template_weapons_cannot_fire_into_the_melee() -> None:
    # Snap Shots only: the Blast and Template weapons are not offered against the
    # Orks; a unit with only such weapons cannot target them at all.
    mixed = squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad")
    mixed.models[1].weapons = (FRAG_MISSILE,)
    mixed.models[2].weapons = (FLAMER,)
    mixed.models[2].position = (31, 24)  # the flamer's template would reach b.1
    blasts = squad("g", A, MARINE, [FRAG_MISSILE, FLAMER], [(32, 24)], name="Blasts")
    battle = melee(
        mixed,
        orks(),
        guard(),
        blasts,
        options=INTO,
        script_a=[*shoot("Orks [b]", "stop"), ("shooter", "end phase")],
    )
    shooting_phase(battle, A)
    (menu,) = asked(battle, A, "weapon")
    assert menu.labels() == ["Boltgun", "stop"]
    assert targets_for(battle, blasts, FireOrders()) == []


def test_seed001_suppressive_fire_is_not_aimed_into_a_melee() -> None:
    # "Snap shots cannot be used as Suppressive Fire": with only the locked Orks
    # in reach, Suppressive Fire is not offered; with a free target it is, and
    # only the free target may be chosen for it.
    options = {**INTO, "suppressive_fire": True}
    first = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        options=options,
        script_a=[("shooter", "Squad [a]"), ("action", "hold")],
    )
    shooting_phase(first, A)
    assert asked(first, A, "action")[0].labels() == ["shoot", "run", "hold"]
    second = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        squad("d", B, ORK, [], [(10, 30)], name="Free"),
        options=options,
        script_a=[
            ("shooter", "Squad [a]"),
            ("action", "suppressive fire"),
            ("target", "Free [d]"),
            ("weapon", "stop"),
        ],
    )
    shooting_phase(second, A)
    assert asked(second, A, "target")[0].labels() == ["Free [d]"]


def test_seed001_no_final_shot_into_a_melee() -> None:
    # The last one-wound model of a two-model unit wounds the Orks: with Final
    # Shot on it would be offered one, but not into a melee (strict script).
    last_one = squad("a", A, MARINE, [BOLTGUN], [(24, 10), (26, 10)], name="Squad")
    last_one.models[1].wounds_left = 0
    battle = melee(
        last_one,
        orks(),
        guard(),
        options={**INTO, "final_shot": True},
        dice=[6, 4],  # hit; S4 v T4: 4, wound; AP5: no save, b.1 removed
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    assert asked(battle, A, "final_shot") == []
    assert alive_ids(battle.unit("b")) == ["b.2"]
    assert all_dice_used(battle)


# --- Friendly casualties and the Morale penalty ----------------------------------------


def test_seed001_friendly_casualties_raise_the_morale_penalty_until_end_of_turn() -> None:
    # Two strays each kill a Guardsman: -1 Ld per friendly casualty, so -2.
    friends = guard([(31, 31), (36, 33), (38, 33)])
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        friends,
        options=INTO,
        dice=[
            *[1, 2, 4],  # to hit: two strays, one miss
            *[5, 6],  # Guard: S4 v T3 (3+): two wounds, no armour save: c.1 then c.2
            1,  # c.1's 5+ cover behind b.1 (from a.1: 0.46" off its centre) fails; c.2,
            # wounded from a.2 (22,10), is in the open (b.2 lies 27/sqrt(725) = 1.0" off)
            *[3, 3],  # later Morale check: 6, passed on Ld 7 but failed on 7 - 2 = 5
            *[1, 1],  # so it falls back 2D6 = 2"
        ],
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    assert alive_ids(friends) == ["c.3"]
    assert st(battle, friends).morale_penalty == 2
    # Locked, the Guard took no Morale check for losing 2 of 3 this phase.
    assert of_kind(battle, "morale") == []
    # Once out of combat, the penalty applies to any Morale check this turn.
    st(battle, friends).locked_in_combat = False
    assert not morale_check(battle, friends, "test")
    test = last(of_kind(battle, "morale"))
    assert (test.leadership, test.modifier, test.roll, test.passed) == (7, -2, 6, False)
    assert st(battle, friends).falling_back
    assert all_dice_used(battle)
    end_of_turn(battle, A)
    assert st(battle, friends).morale_penalty == 0


def test_seed001_enemy_casualties_carry_no_friendly_fire_penalty() -> None:
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        options=INTO,
        dice=[6, 4, 3, 5],  # hit, miss, miss; Orks: 5, wound, b.1 removed
        script_a=shoot("Orks [b]"),
    )
    shooting_phase(battle, A)
    assert alive_ids(battle.unit("b")) == ["b.2"]
    assert st(battle, battle.unit("b")).morale_penalty == 0
    assert st(battle, battle.unit("c")).morale_penalty == 0


# --- Locked units: no Morale checks or Pinning tests from shooting, no Go to Ground --


def test_seed001_locked_units_take_no_morale_or_pinning_tests_caused_by_shooting() -> None:
    # A Pinning weapon into the melee: the Orks lose 2 of 3 and the Guard 1 of 2
    # (both past 25%, both wounded by a Pinning weapon), yet neither tests.
    pinning = weapon("Pinning rifle", "36", "4", "5", "Assault 1, Pinning")
    battle = melee(
        squad("a", A, MARINE, [pinning], SQUAD, name="Squad"),
        orks([(31, 30), (33, 30), (35, 30)]),
        guard(),
        options=INTO,
        dice=[
            *[1, 6, 5],  # to hit: a stray, two hits
            *[4, 4],  # Orks: S4 v T4 (4+): two wounds, no save: b.1, b.2
            3,  # Guard: S4 v T3 (3+): wound, no save: c.1
        ],
        script_a=shoot("Orks [b]", "Pinning rifle"),
    )
    shooting_phase(battle, A)
    assert alive_ids(battle.unit("b")) == ["b.3"]
    assert alive_ids(battle.unit("c")) == ["c.2"]
    assert of_kind(battle, "morale") == []
    for unit in (battle.unit("b"), battle.unit("c")):
        assert not (
            st(battle, unit).pinned
            or st(battle, unit).gone_to_ground
            or st(battle, unit).falling_back
        )
    assert all_dice_used(battle)


def test_seed001_locked_units_cannot_go_to_ground() -> None:
    # Not directly, not by a failed Pinning test, not by Dive for Cover (no reaction).
    battle = melee(squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"), orks(), guard())
    locked = battle.unit("b")
    go_to_ground(battle, locked, "test")
    pinning_test(battle, locked, "test")  # strict dice: a roll would fail the test
    reactions_to_shooting(battle, battle.unit("a"), VolleyResult(hits=Counter({"b": 1})))
    assert not st(battle, locked).gone_to_ground
    assert asked(battle, B) == []
    assert of_kind(battle, "morale") == []


# --- The AI -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("friend", "expected"),
    [
        # S4 v T8 cannot wound: no risk; gain = 3 shots x 1/3 (5+) x 1/2 (4+), no save.
        (profile("Walker", t=8, sv="3+"), 0.5),
        # The friend at (31,31) stands behind b.1: the line from a.1 (20,10) passes
        # 0.46" from b.1's centre, so it has a 5+ cover save (intervening models).
        # T6 3+: per stray hit 1/6 (6+) x 1/3 (3+ fails) x 2/3 (5+ fails); 3 x 1/3
        # strays: risk 1/27; 0.5 >= 4 x 1/27, so the melee is worth 0.5 - 1/27.
        (profile("Ogryn", t=6, sv="3+"), 0.5 - 1 / 27),
        # T4 3+: risk 3 x 1/3 x 1/2 x 1/3 x 2/3 = 1/9; 0.5 >= 4 x 1/9: worth 0.5 - 1/9.
        (profile("Space Marine"), 0.5 - 1 / 9),
        # T3 5+ (no armour save v AP5): risk 3 x 1/3 x 2/3 x 2/3 = 4/9: not worth it.
        (GUARD, -1.0),
    ],
)
def test_seed001_ai_shoots_into_a_melee_only_for_4_to_1_expected_casualties(
    friend: Profile, expected: float
) -> None:
    friends = squad("c", A, friend, [], [(31, 31)], name="Friends")
    battle = melee(squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"), orks(), friends)
    unit, target = battle.unit("a"), battle.unit("b")
    assert target_value(battle, unit, target) == -1.0  # option off: never
    apply_rules(battle, get_ruleset("waffle"), INTO)
    assert target_value(battle, unit, target) == pytest.approx(expected)


def _strays_by_the_seed(needed: int, rerolled: bool) -> Fraction:
    """Seed 001's strays counted over every pair of dice, written from the seed alone:
    a first die of 1 or 2 strays; a die from 3 up to the score needed less one misses,
    and where misses are re-rolled its re-roll strays on a 1 or 2."""
    strays = Fraction(0)
    for first in range(1, 7):
        for again in range(1, 7):
            if first <= 2 or (rerolled and 2 < first < needed and again <= 2):
                strays += Fraction(1, 36)
    return strays


@pytest.mark.parametrize(
    ("bs", "needed"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (10, 2)]
)
@pytest.mark.parametrize("twin", [False, True])
def test_seed001_a_die_strays_as_the_seed_counts_a_re_rolled_miss(
    bs: int, needed: int, twin: bool
) -> None:
    # The BS chart's score needed (6th/7th edition: BS 1 6+ ... BS 5 and up 2+); every
    # miss is re-rolled when Twin-linked, and from BS 6 (whose misses are 1s: strays).
    assert stray_chance(bs, twin) == pytest.approx(
        float(_strays_by_the_seed(needed, twin or bs >= 6))
    )


def test_seed001_the_ai_weighs_a_twin_linked_unit_s_strays_by_its_re_rolls() -> None:
    # As the Space Marine case above, the Squad's boltguns Twin-linked. Snap BS2 hits on
    # 5+, a miss re-rolled: 1/3 + 2/3 x 1/3 = 5/9; gain 3 x 5/9 x 1/2 (4+) = 5/6. A die
    # strays on 1-2, or on a 3-4 re-rolled to 1-2: 1/3 + 2/6 x 1/3 = 4/9; the friend
    # (T4 3+, 5+ cover) loses 3 x 4/9 x 1/2 x 1/3 x 2/3 = 4/27 (read as 1/3 of a die, the
    # old count, it was 5/27). 5/6 >= 4 x 4/27, so the melee is worth 5/6 - 4/27 = 37/54.
    gun = weapon("Twin boltgun", "24", "4", "5", "Rapid Fire, Twin-linked")
    friends = squad("c", A, profile("Space Marine"), [], [(31, 31)], name="Friends")
    battle = melee(squad("a", A, MARINE, [gun], SQUAD, name="Squad"), orks(), friends)
    apply_rules(battle, get_ruleset("waffle"), INTO)
    unit, target = battle.unit("a"), battle.unit("b")
    assert target_value(battle, unit, target) == pytest.approx(37 / 54)


def test_seed001_ai_prefers_a_free_target_and_sends_strays_to_its_toughest_unit() -> None:
    walker = squad("e", A, profile("Walker", t=8, sv="3+"), [], [(33, 31)], name="Walker")
    battle = melee(
        squad("a", A, MARINE, [BOLTGUN], SQUAD, name="Squad"),
        orks(),
        guard(),
        walker,
        squad("d", B, ORK, [], [(10, 30)], name="Free"),
        options=INTO,
    )
    ai = WaffleAI()
    unit, locked, free = battle.unit("a"), battle.unit("b"), battle.unit("d")
    assert target_value(battle, unit, locked) == pytest.approx(0.5)
    assert target_value(battle, unit, free) == pytest.approx(1.0)
    pick = Decision(
        kind="target",
        player=A,
        prompt="",
        choices=(Choice(locked.label, locked), Choice(free.label, free)),
        context=DecisionContext(unit="a"),
    )
    # Strays would go to the Walker, which S4 cannot wound, so the melee is worth
    # its full 0.5; the lone Free Ork is worth 3 x 2/3 (3+) x 1/2 (4+) = 1, all of it.
    assert ai.choose(battle, pick) == 1
    stray = Decision(
        kind="melee_stray",
        player=A,
        prompt="",
        choices=(Choice("Guard [c]", battle.unit("c")), Choice("Walker [e]", walker)),
        context=DecisionContext(unit="a", target="b", weapon="Boltgun"),
    )
    assert ai.choose(battle, stray) == 1
