"""Weapon special rules of issue 12 §3: Fleshbane, Sniper, Bladestorm, Gets Hot,
Concussive, Monster Hunter and Precision Shots.

The rule texts quoted are the 7th-edition rulebook's, as the BattleScribe game
system file ``tests/data/bsdata-7e/Warhammer40K.gst`` gives them (Bladestorm:
the 7th-edition Codex: Craftworlds). The exact odds are checked against a
brute-force enumeration of every die face written from the rule texts here,
not from the engine's functions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    asked,
    dice_purposes,
    last,
    make_battle,
    model,
    of_kind,
    profile,
    squad,
    weapon,
)

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.concussive import concussed
from hammerlab.editions.waffle.events import PrecisionShotsRolled
from hammerlab.editions.waffle.fight import initiative
from hammerlab.editions.waffle.gets_hot import suffer
from hammerlab.editions.waffle.odds import Defence, Firing, shooting_odds, volley
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.precision_shots import fires_precision_shots
from hammerlab.editions.waffle.profiles import WEAPON_RULES, weapon_of
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.wounds import wound_ap, wound_target
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.units import Model, Unit

FACES = range(1, 7)
SIXTH = Fraction(1, 6)


def fired_at(
    gun: Weapon,
    dice: list[int],
    target_profile: object = GUARD,
    shooter_rules: tuple[str, ...] = (),
    shooter_bs: int = 4,
) -> tuple[Battle, Unit, Unit]:
    """A Marine (BS4 unless told) at (30,10) fires ``gun`` once at a model at (30,30), 20" away."""
    shooter = squad(
        "a", A, profile("Marine", bs=shooter_bs), [gun], [(30, 10)], rules=shooter_rules
    )
    target = squad("b", B, target_profile, [LASGUN], [(30, 30)])  # type: ignore[arg-type]
    battle = make_battle(shooter, target, dice=dice)
    start_phase(battle, "shooting", A)
    fire_weapon(battle, shooter, target, gun.name, FireOrders())
    return battle, shooter, target


# --- Fleshbane ---------------------------------------------------------------


def test_fleshbane_always_wounds_on_2_plus_whatever_the_strength_and_toughness() -> None:
    # "they always Wound on a 2+" (close combat and shooting alike).
    fleshbane = weapon_of(weapon("Splinter rifle", "24", "1", "5", "Rapid Fire, Fleshbane"))
    assert {wound_target(s, t, fleshbane) for s in range(1, 11) for t in range(1, 11)} == {2}


def test_fleshbane_shot_wounds_a_toughness_8_model_on_a_2() -> None:
    # S1 v T8 is "-" on the chart; Fleshbane wounds on the 2 anyway; AP5 beats a 5+ save.
    gun = weapon("Splinter rifle", "24", "1", "5", "Rapid Fire, Fleshbane")
    big = profile("Big", t=8, sv="5+")
    battle, _, target = fired_at(gun, [4, 2], big)
    assert dice_purposes(battle) == ["to hit (Splinter rifle, 3+)", "to wound (Splinter rifle, 2+)"]
    assert target.destroyed
    assert all_dice_used(battle)


# --- Sniper --------------------------------------------------------------------


def test_sniper_always_wounds_on_4_plus_and_a_6_is_ap2() -> None:
    # "always wound on a To Wound roll of 4+, regardless of the victim's Toughness. In
    # addition, any To Wound roll of a 6 is resolved at AP2."
    sniper = weapon_of(weapon("Sniper rifle", "36", "4", "6", "Heavy 1, Sniper, Pinning"))
    assert {wound_target(s, t, sniper) for s in range(1, 11) for t in range(1, 11)} == {4}
    assert [wound_ap(sniper, roll) for roll in (4, 5, 6)] == [6, 6, 2]


def test_sniper_6_to_wound_denies_a_3_plus_armour_save() -> None:
    # A Marine (3+) is hit (4), wounded on a 6: AP2, so no armour save; it dies.
    gun = weapon("Sniper rifle", "36", "4", "6", "Heavy 1, Sniper")
    battle, _, target = fired_at(gun, [4, 6], MARINE)
    assert dice_purposes(battle) == ["to hit (Sniper rifle, 3+)", "to wound (Sniper rifle, 4+)"]
    assert target.destroyed
    assert all_dice_used(battle)


def test_sniper_5_to_wound_keeps_its_ap_and_the_marine_saves() -> None:
    gun = weapon("Sniper rifle", "36", "4", "6", "Heavy 1, Sniper")
    battle, _, target = fired_at(gun, [4, 5, 3], MARINE)  # AP6: the 3+ save is taken: 3 saves
    save = last(of_kind(battle, "save"))
    assert (save.save, save.model, save.needed, save.saved) == ("armour", "b.1", 3, True)
    assert not target.destroyed
    assert all_dice_used(battle)


# --- Bladestorm ------------------------------------------------------------------


def test_bladestorm_6_to_wound_is_ap2_but_wounds_only_where_the_chart_allows() -> None:
    # Codex: Craftworlds (7th edition): "any To Wound roll of a 6 is resolved at AP2";
    # unlike Rending it does not wound "regardless of Toughness".
    catapult = weapon_of(weapon("Shuriken catapult", "12", "4", "5", "Assault 2, Bladestorm"))
    assert [wound_ap(catapult, roll) for roll in (4, 5, 6)] == [5, 5, 2]
    assert wound_target(4, 8, catapult) is None  # S4 v T8: "-"


# --- exact odds against brute force --------------------------------------------


def _one_shot(
    bs_needed: int,
    wounds: Callable[[int], bool],
    ap_of: Callable[[int], int | None],
    save: int,
) -> Fraction:
    """Chance one shot is an unsaved wound, enumerating the to-hit, to-wound and
    armour save dice (a save counts when the AP is worse than it, or there is none)."""
    unsaved = Fraction(0)
    for hit, wound, saved in product(FACES, FACES, FACES):
        if hit < bs_needed or not wounds(wound):
            continue
        ap = ap_of(wound)
        if (ap is None or ap > save) and saved >= save:
            continue
        unsaved += Fraction(1, 6**3)
    return unsaved


def _two_shots(p: Fraction) -> list[Fraction]:
    """Unsaved wounds of two independent shots, enumerated outcome by outcome."""
    out = [Fraction(0)] * 3
    for first, second in product((0, 1), repeat=2):
        chance = (p if first else 1 - p) * (p if second else 1 - p)
        out[first + second] += chance
    return out


@pytest.mark.parametrize(
    ("kind", "strength", "ap", "toughness", "save", "wounds", "ap_of"),
    [
        # Fleshbane: "always Wound on a 2+"; AP5 v 4+ save: the save is taken.
        ("Assault 2, Fleshbane", 1, "5", 8, 4, lambda d: d >= 2, lambda d: 5),
        # Sniper: "always wound on a To Wound roll of 4+"; a 6 at AP2 beats the 3+ save.
        ("Assault 2, Sniper", 4, "6", 3, 3, lambda d: d >= 4, lambda d: 2 if d == 6 else 6),
        # Bladestorm: S4 v T4 on 4+ (chart); a 6 at AP2.
        ("Assault 2, Bladestorm", 4, "5", 4, 3, lambda d: d >= 4, lambda d: 2 if d == 6 else 5),
    ],
)
def test_odds_of_fleshbane_sniper_bladestorm_match_brute_force(
    kind: str,
    strength: int,
    ap: str,
    toughness: int,
    save: int,
    wounds: Callable[[int], bool],
    ap_of: Callable[[int], int | None],
) -> None:
    gun = weapon_of(weapon("gun", "24", str(strength), ap, kind))
    fired = volley(gun, strength, [4], Firing())  # one BS4 model: two shots at 3+
    odds = shooting_odds(fired, Defence(toughness, 1, 10, save))
    want = _two_shots(_one_shot(3, wounds, ap_of, save))
    assert len(odds.unsaved_wounds) == 3
    assert all(abs(g - float(w)) < 1e-12 for g, w in zip(odds.unsaved_wounds, want, strict=True))


# --- Gets Hot ----------------------------------------------------------------


PLASMA_GUN = weapon("Plasma gun", "24", "7", "2", "Rapid Fire, Gets Hot")


def test_gets_hot_a_to_hit_roll_of_1_wounds_the_firer_who_may_take_an_armour_save() -> None:
    # "For each To Hit roll of 1, the firing model immediately suffers a Wound (armour
    # or invulnerable saves can be taken)". The 1 misses; the Marine fails its 3+ (2).
    battle, shooter, target = fired_at(PLASMA_GUN, [1, 2])
    assert dice_purposes(battle) == ["to hit (Plasma gun, 3+)", "armour save 3+ (a.1)"]
    assert shooter.destroyed and not target.destroyed
    assert all_dice_used(battle)


def test_gets_hot_firer_that_saves_is_unharmed() -> None:
    battle, shooter, _ = fired_at(PLASMA_GUN, [1, 3])
    assert not shooter.destroyed
    assert all_dice_used(battle)


def test_gets_hot_twin_linked_wounds_only_if_the_reroll_is_also_a_1() -> None:
    # "a Wound is only suffered if the To Hit re-roll is also a 1".
    twin = weapon("Twin-linked plasma gun", "24", "7", "2", "Rapid Fire, Twin-linked, Gets Hot")
    battle, shooter, target = fired_at(twin, [1, 2])  # re-rolled 2: a miss, not a 1
    assert dice_purposes(battle) == [
        "to hit (Twin-linked plasma gun, 3+)",
        "re-roll misses (Twin-linked plasma gun, 3+)",
    ]
    assert not shooter.destroyed and not target.destroyed
    battle, shooter, _ = fired_at(twin, [1, 1, 1])  # the re-roll is a 1 too: save 1, dies
    save = last(of_kind(battle, "save"))
    assert (save.save, save.model, save.needed, save.saved) == ("armour", "a.1", 3, False)
    assert shooter.destroyed
    assert all_dice_used(battle)


def test_gets_hot_blast_weapon_rolls_before_firing_and_a_1_is_not_fired() -> None:
    # "Weapons that do not roll To Hit (such as Blast weapons) must roll a D6 for each
    # shot immediately before firing … For each roll of a 1 … that shot is not fired and
    # the firing model immediately suffers a single Wound". No scatter is rolled.
    cannon = weapon("Plasma cannon", "36", "7", "2", "Heavy 1, Blast, Gets Hot")
    battle, shooter, target = fired_at(cannon, [1, 1])  # gets hot; the save fails
    assert dice_purposes(battle) == [
        "Gets Hot (Plasma cannon, a.1: 1 gets hot)",
        "armour save 3+ (a.1)",
    ]
    assert shooter.destroyed and not target.destroyed
    assert all_dice_used(battle)


def test_gets_hot_the_spelling_gets_hot_with_a_bang_is_the_rule() -> None:
    assert "Gets Hot" in WEAPON_RULES
    read = weapon_of(weapon("Kustom mega-blasta", "24", "8", "2", "Assault 1, Gets Hot!"))
    assert read.has_rule("Gets Hot") and not read.unsupported_rules()


def test_odds_gets_hot_blast_is_fired_five_times_in_six() -> None:
    # One marker over 3 models, S7 AP2 v T4 no save: each hit wounds on 2+ (5/6).
    # Brute force: the Gets Hot die (1: no marker), then the three wound dice.
    cannon = weapon_of(weapon("Plasma cannon", "36", "7", "2", "Heavy 1, Blast, Gets Hot"))
    odds = shooting_odds(volley(cannon, 7, [], Firing(), hits=3), Defence(4, 1, 10, None))
    want = [Fraction(0)] * 4
    for hot, *wound_dice in product(FACES, repeat=4):
        wounded = 0 if hot == 1 else sum(1 for d in wound_dice if d >= 2)
        want[wounded] += Fraction(1, 6**4)
    assert all(abs(g - float(w)) < 1e-12 for g, w in zip(odds.unsaved_wounds, want, strict=True))


# --- Concussive --------------------------------------------------------------


CONCUSSIVE = weapon("Thunder gun", "24", "4", "-", "Assault 1, Concussive")


def test_concussive_unsaved_wound_reduces_initiative_to_1_until_the_following_assault_phase() -> (
    None
):
    # "A model that suffers one or more unsaved Wounds from a weapon with this special
    # rule is reduced to Initiative 1 until the end of the following Assault phase."
    # A W2 Ogryn-like target (I4) is hit (3), wounded (4+: 5), fails its 5+ (2).
    tough = profile("Ogryn", w=2, i=4, sv="5+")
    battle, _, target = fired_at(CONCUSSIVE, [3, 5, 2], tough)
    ogryn = model(battle, "b.1")
    assert ogryn.alive and concussed(battle, ogryn)
    fist = weapon_of(weapon("Fist", "-", "User", "-", "Melee"))
    assert initiative(ogryn, fist, concussed(battle, ogryn)) == 1
    end_of_turn(battle, A)  # the end of A's turn: its Assault phase, the one following
    assert not concussed(battle, ogryn)
    assert all_dice_used(battle)
    assert not target.destroyed


def test_concussive_wound_in_an_assault_phase_lasts_until_the_next_assault_phase() -> None:
    tough = profile("Ogryn", w=2, i=4, sv="5+")
    shooter = squad("a", A, MARINE, [CONCUSSIVE], [(30, 10)])
    target = squad("b", B, tough, [LASGUN], [(30, 30)])
    battle = make_battle(shooter, target, dice=[3, 5, 2])
    start_phase(battle, "assault", A)  # e.g. Overwatch or a fight: in an Assault phase
    fire_weapon(battle, shooter, target, CONCUSSIVE.name, FireOrders())
    ogryn = model(battle, "b.1")
    end_of_turn(battle, A)
    assert concussed(battle, ogryn)  # the following Assault phase is B's
    end_of_turn(battle, B)
    assert not concussed(battle, ogryn)


def test_concussive_wound_discounted_by_feel_no_pain_has_no_effect() -> None:
    # 7th edition, Feel No Pain: "On a 5+, the unsaved Wound is discounted - treat it
    # as having been saved", so the model suffers no unsaved Wound for Concussive.
    # Hit (3), wound (5), the 5+ armour save fails (2), Feel No Pain 5+ passes (5).
    tough = profile("Ogryn", w=2, i=4, sv="5+")
    shooter = squad("a", A, MARINE, [CONCUSSIVE], [(30, 10)])
    target = squad("b", B, tough, [LASGUN], [(30, 30)], rules=("Feel No Pain",))
    battle = make_battle(shooter, target, dice=[3, 5, 2, 5])
    start_phase(battle, "shooting", A)
    fire_weapon(battle, shooter, target, CONCUSSIVE.name, FireOrders())
    ogryn = model(battle, "b.1")
    assert ogryn.wounds_left == 2 and not concussed(battle, ogryn)
    assert all_dice_used(battle)


def test_concussive_saved_wound_has_no_effect() -> None:
    battle, _, _ = fired_at(CONCUSSIVE, [3, 5, 6], profile("Ogryn", w=2, sv="5+"))
    assert not concussed(battle, model(battle, "b.1"))
    assert all_dice_used(battle)


# --- Monster Hunter ----------------------------------------------------------


def test_monster_hunter_rerolls_failed_wounds_against_monstrous_creatures_only() -> None:
    # "re-rolls all failed To Wound rolls against Monstrous Creatures". Boltgun S4 v T6:
    # 6+. The failed 3 is re-rolled (6: a wound), then the 3+ save fails (1).
    gun = weapon("Boltgun", "24", "4", "5", "Assault 1")
    beast = profile("Carnifex", t=6, w=4, sv="3+", unit_type="Monstrous Creature")
    battle, _, _ = fired_at(gun, [4, 3, 6, 1], beast, shooter_rules=("Monster Hunter",))
    assert dice_purposes(battle)[:3] == [
        "to hit (Boltgun, 3+)",
        "to wound (Boltgun, 6+)",
        "re-roll failed wounds (Boltgun)",
    ]
    assert model(battle, "b.1").wounds_left == 3
    assert all_dice_used(battle)
    infantry = profile("Ogryn", t=6, w=4, sv="3+")
    battle, _, _ = fired_at(gun, [4, 3], infantry, shooter_rules=("Monster Hunter",))
    assert dice_purposes(battle) == ["to hit (Boltgun, 3+)", "to wound (Boltgun, 6+)"]
    assert all_dice_used(battle)


# --- Precision Shots -------------------------------------------------------------


def test_precision_shot_wound_goes_to_the_model_the_firer_chooses() -> None:
    # "If a model with this special rule rolls a 6 To Hit with a shooting weapon, that
    # shot is a 'Precision Shot'. Wounds from Precision Shots are allocated against a
    # model … of your choice in the target unit, as long as it is in range and line of
    # sight of the firer". A storm bolter (Assault 2, S4 AP5) hits with 6 and 3; both
    # wound (4, 5) three Guardsmen (T4, 5+: AP5 denies the save). The ordinary wound
    # takes the closest (b.2); the Precision Shot's goes to b.3, as chosen.
    gun = weapon("Storm bolter", "24", "4", "5", "Assault 2")
    shooter = squad("a", A, MARINE, [gun], [(30, 10)], rules=("Precision Shots",))
    target = squad("b", B, GUARD, [LASGUN], [(28, 30), (30, 30), (32, 30)])
    battle = make_battle(shooter, target, dice=[6, 3, 4, 5], script_a=[("precision_shot", "b.3")])
    fire_weapon(battle, shooter, target, gun.name, FireOrders())
    (asked_once,) = asked(battle, A, "precision_shot")
    # b.2 already slain by the ordinary wound; b.1 and b.3 are equally close, the
    # usual model (the first of them) is offered first
    assert asked_once.labels() == ["b.1", "b.3"]
    assert [m.id for m in target.alive_models] == ["b.1"]
    assert all_dice_used(battle)


def test_the_log_says_which_hits_are_precision_shots_and_whose_each_wound_score_is() -> None:
    """Two Marines (BS4: 3+) fire Sniper rifles (Heavy 1, Sniper: Precision Shots, wounds
    on 4+, a 6 to wound at AP2) at two Marines (3+). To hit 6 (a Precision Shot) and 3;
    the other hit rolls To Wound first, 5 (wounds; AP- leaves the 3+ armour: 3,
    saved), then the Precision Shot, 6 (AP2 under Sniper: no save), which goes to b.2
    as chosen. The log says which hit was precise, labels both scores, and names
    Sniper (not Rending) for the AP2."""
    rifle = weapon("Sniper rifle", "36", "1", "-", "Heavy 1, Sniper")
    shooter = squad("a", A, MARINE, [rifle], [(30, 10), (32, 10)])
    target = squad("b", B, MARINE, [LASGUN], [(30, 30), (32, 30)])
    battle = make_battle(
        shooter, target, dice=[6, 3, 5, 6, 3], script_a=[("precision_shot", "b.2")]
    )
    fire_weapon(battle, shooter, target, rifle.name, FireOrders())
    (precise,) = of_kind(battle, "precision_shots")
    assert (precise.unit, precise.weapon, precise.hits) == ("A [a]", "Sniper rifle", 1)
    # One hit: singular (a shooting referee's review, session 24, finding 4: it read "1 of
    # the hits are Precision Shots").
    assert precise.text == (
        "  1 of the hits is a Precision Shot (a 6 to hit): it rolls To Wound apart, "
        "and its wound goes to a model of the firing player's choice"
    )
    two = PrecisionShotsRolled(unit="A [a]", weapon="Sniper rifle", hits=2)
    assert two.text.startswith("  2 of the hits are Precision Shots (6s to hit): they roll")
    assert dice_purposes(battle)[2:4] == [
        "to wound (Sniper rifle, 4+)",
        "to wound (Sniper rifle, 4+, Precision Shots)",
    ]
    (rolled,) = of_kind(battle, "wounds")
    assert rolled.needed == "4+ (other hits)/4+ (Precision Shots)"
    (none,) = of_kind(battle, "no_save")
    assert (none.model, none.ap, none.rend) == ("b.2", 2, "Sniper")
    assert none.text == "  b.2 has no save: AP2 (Sniper: a 6 to wound is AP2) against armour 3+"
    assert all_dice_used(battle)


def test_the_wound_summary_of_rending_hits_says_they_wound_on_a_6() -> None:
    """S3 Rending at T8: the chart says "-", and Rending wounds "regardless of its
    Toughness" on a 6 (interpretation 10). The summary said "wound on -" and then counted
    wounds (a shooting referee's review, session 24, finding 4); it says "6 (Rending)",
    as the dice line does."""
    # BS4 hits on 3+: 5; To Wound 6: wounds; AP2 (Rending) beats the 3+ armour.
    claws = weapon("Ripper", "24", "3", "-", "Assault 1, Rending")
    wall = profile("Wall", t=8, sv="3+")
    battle, _, target = fired_at(claws, [5, 6], wall)
    assert dice_purposes(battle)[1] == "to wound (Ripper, 6 (Rending))"
    (rolled,) = of_kind(battle, "wounds")
    assert (rolled.needed, rolled.wounds) == ("6 (Rending)", 1)
    assert rolled.text == "  1 hit(s) on B [b] wound on 6 (Rending): 1 wound(s)"
    assert target.destroyed
    assert all_dice_used(battle)


def test_the_wound_summary_of_hits_that_cannot_wound_still_says_so() -> None:
    """Without Rending, S3 at T8 cannot wound: no die is rolled and the summary keeps its
    "-" (a control beside the test above)."""
    gun = weapon("Stub gun", "24", "3", "-", "Assault 1")
    battle, _, target = fired_at(gun, [5], profile("Wall", t=8, sv="3+"))
    (rolled,) = of_kind(battle, "wounds")
    assert (rolled.needed, rolled.wounds) == ("-", 0)
    assert not target.destroyed
    assert all_dice_used(battle)


def test_a_model_without_armour_is_told_it_has_no_armour_save() -> None:
    """A lascannon (AP2) at a model with no armour save at all: the log says "no armour
    save" (it said "no save", which read as if the wound allowed none)."""
    bare = profile("Bare", sv="-")
    lascannon = weapon("Lascannon", "48", "9", "2", "Heavy 1")
    battle, _, _ = fired_at(lascannon, [3, 2], target_profile=bare)
    (none,) = of_kind(battle, "no_save")
    assert none.text == "  b.1 has no save: AP2 against no armour save"
    assert all_dice_used(battle)


def test_precision_shots_never_from_snap_shots_or_markers_and_sniper_weapons_have_them() -> None:
    # "Note that Snap Shots and shots from weapons that scatter, or do not roll To Hit,
    # can never be Precision Shots"; Sniper: "If a weapon has the Sniper special rule …
    # and rolls a 6 To Hit, that shot is a 'Precision Shot'".
    shooter = squad("a", A, MARINE, [LASGUN], [(30, 10)], rules=("Precision Shots",))
    plain = squad("c", A, MARINE, [LASGUN], [(40, 10)])
    marine = shooter.models[0]
    lasgun = weapon_of(LASGUN)
    blast = weapon_of(weapon("Frag", "48", "4", "6", "Heavy 1, Blast"))
    sniper = weapon_of(weapon("Sniper rifle", "36", "4", "6", "Heavy 1, Sniper"))
    assert fires_precision_shots(shooter, marine, lasgun, snap=False)
    assert not fires_precision_shots(shooter, marine, lasgun, snap=True)
    assert not fires_precision_shots(shooter, marine, blast, snap=False)
    assert fires_precision_shots(plain, plain.models[0], sniper, snap=False)
    assert not fires_precision_shots(plain, plain.models[0], lasgun, snap=False)


def test_gets_hot_on_a_vehicle_a_1_to_3_is_a_glancing_hit() -> None:
    # "A vehicle instead rolls a D6 for each roll of a 1 to hit. On a roll of a 1, 2 or
    # 3 it suffers a glancing hit" (a Hull Point lost). Two 1s to hit: rolls 2 and 5.
    tank_profile = Profile(
        name="Tank",
        characteristics={"BS": "3", "Front": "14", "Side": "13", "Rear": "10", "HP": "3"},
        unit_type="Vehicle (Tank)",
    )
    cannon = weapon("Plasma destroyer", "36", "7", "2", "Heavy 1, Gets Hot")
    sheet = Datasheet(
        name="Tank",
        army="test",
        edition="waffle",
        entries=(ModelEntry(tank_profile, 1, (cannon,), 100.0),),
    )
    tank = Unit(
        id="t",
        name="Tank",
        player=A,
        datasheet=sheet,
        models=[Model("t.1", tank_profile, (cannon,), (30.0, 10.0), 100.0, wounds_left=3)],
    )
    battle = make_battle(tank, dice=[2, 5])
    suffer(battle, tank, tank.models[0], weapon_of(cannon), 2, FireOrders())
    assert tank.models[0].wounds_left == 2
    assert dice_purposes(battle) == [
        "Gets Hot (Plasma destroyer, t.1: 1-3 glancing hit)",
        "Gets Hot (Plasma destroyer, t.1: 1-3 glancing hit)",
    ]
    assert all_dice_used(battle)
