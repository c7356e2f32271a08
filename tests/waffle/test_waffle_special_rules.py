"""The common 6th/7th-edition unit special rules of issue 12 §3: Stealth,
Shrouded, Preferred Enemy, Counter-attack, and the rules whose effect cannot
arise in hammerlab (Night Vision). Bulky and its kin are transport rules
(``test_waffle_transports.py``).

The rule texts quoted are the 7th-edition rulebook's (the same words as the
BattleScribe data in ``tests/data/bsdata-7e``); expectations are worked by
hand from them in the comments.
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    GUARD,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    box,
    charge_sub_phase,
    dice_purposes,
    make_battle,
    model,
    of_kind,
    squad,
    weapon,
)
from fight_kit import CHAINSWORD, north, south
from fight_kit import GUARD as WS3_GUARD

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON, attacks_of, fight_sub_phase
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.special_rules import unsupported_unit_rules
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.visibility import cover_save
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

RUIN = box("Ruin", 28, 28, 32, 32, cover_save=5)
"""Around (30,30): a 5+ cover save."""


def shot_at(
    rules: tuple[str, ...],
    dice: list[int],
    in_ruin: bool = False,
    shooter_rules: tuple[str, ...] = (),
) -> tuple[Battle, Unit]:
    """A Marine at (30,10) fires a Boltgun (S4 AP5, one shot at 20") at a
    Guardsman (T4, 5+) with ``rules`` at (30,30)."""
    shooter = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Shooters", rules=shooter_rules)
    target = squad("b", B, GUARD, [LASGUN], [(30, 30)], name="Target", rules=rules)
    battle = make_battle(shooter, target, dice=dice, terrain=[RUIN] if in_ruin else [])
    return battle, target


# --- Stealth and Shrouded ----------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "in_ruin", "gone_to_ground", "expected"),
    [
        ((), False, False, None),  # in the open: no cover save
        ((), True, False, 5),  # the ruin's 5+
        (("Stealth",), False, False, 6),  # "always has a cover save of at least 6+"
        (("Stealth",), True, False, 4),  # "1 point better than normal": 5+ -> 4+
        (("Shrouded",), False, False, 5),  # "always has a cover save of at least 5+"
        (("Shrouded",), True, False, 3),  # "2 points better": 5+ -> 3+
        (("Stealth", "Shrouded"), True, False, 2),  # "cumulative": 5+ -> 2+
        (("Stealth", "Shrouded"), True, True, 2),  # and Go to Ground: "a maximum of a 2+"
        (("Stealth",), False, True, 5),  # gone to ground in the open 6+, Stealth 5+
        (("Stealth (Ruins)",), True, False, 5),  # the qualified form is not implemented
    ],
)
def test_stealth_and_shrouded_improve_cover_saves(
    rules: tuple[str, ...], in_ruin: bool, gone_to_ground: bool, expected: int | None
) -> None:
    battle, target = shot_at(rules, [], in_ruin)
    shooter = model(battle, "a.1")
    assert cover_save(battle, shooter, target, model(battle, "b.1"), gone_to_ground) == expected


def test_stealth_in_the_open_gives_a_6_plus_cover_save_against_ap5() -> None:
    # Boltgun AP5 denies the Guardsman's 5+ armour; Stealth: "always has a cover
    # save of at least 6+, even if it is in the open".
    battle, target = shot_at(("Stealth",), [6, 6, 6])  # hits, wounds (4+), cover 6
    fire_weapon(battle, battle.unit("a"), target, BOLTGUN.name, FireOrders())
    assert [(s.save, s.needed, s.saved) for s in of_kind(battle, "save")] == [("cover", 6, True)]
    assert not target.destroyed
    assert all_dice_used(battle)


# --- Preferred Enemy ---------------------------------------------------------


def test_preferred_enemy_rerolls_to_hit_and_to_wound_rolls_of_1_when_shooting() -> None:
    # "re-rolls failed To Hit and To Wound rolls of 1": BS4 hits on 3+; the 1 is
    # re-rolled (4: a hit); S4 v T4 wounds on 4+: the 1 is re-rolled (5: a wound);
    # AP5 denies the 5+ armour save: the Guardsman dies.
    battle, target = shot_at((), [1, 4, 1, 5], shooter_rules=("Preferred Enemy",))
    fire_weapon(battle, battle.unit("a"), target, BOLTGUN.name, FireOrders())
    assert dice_purposes(battle) == [
        "to hit (Boltgun, 3+)",
        "re-roll 1s (Preferred Enemy) (Boltgun, 3+)",
        "to wound (Boltgun, 4+)",
        "re-roll 1s to wound (Preferred Enemy, Boltgun)",
    ]
    assert target.destroyed
    assert all_dice_used(battle)


def test_preferred_enemy_does_not_reroll_failed_rolls_other_than_1() -> None:
    # A 2 misses (BS4: 3+) and is not a 1: no re-roll, no hit, nothing more rolled.
    battle, target = shot_at((), [2], shooter_rules=("Preferred Enemy",))
    fire_weapon(battle, battle.unit("a"), target, BOLTGUN.name, FireOrders())
    assert dice_purposes(battle) == ["to hit (Boltgun, 3+)"]
    assert all_dice_used(battle)


def test_preferred_enemy_twin_linked_rerolls_each_miss_once() -> None:
    # Twin-linked already re-rolls every miss, the 1 included; no die is re-rolled twice.
    twin = weapon("Twin-linked boltgun", "24", "4", "5", "Rapid Fire, Twin-linked")
    shooter = squad("a", A, MARINE, [twin], [(30, 10)], rules=("Preferred Enemy",))
    target = squad("b", B, GUARD, [LASGUN], [(30, 30)])
    battle = make_battle(shooter, target, dice=[1, 1])  # the 1, re-rolled: 1 again, a miss
    fire_weapon(battle, shooter, target, twin.name, FireOrders())
    assert dice_purposes(battle) == [
        "to hit (Twin-linked boltgun, 3+)",
        "re-roll misses (Twin-linked boltgun, 3+)",
    ]
    assert all_dice_used(battle)


def test_preferred_enemy_rerolls_1s_to_hit_and_to_wound_in_close_combat() -> None:
    # A Marine (WS4, I4, A1, Chainsword) fights a Guardsman (WS3, T3, I3, 5+).
    # Chart WS4 v WS3: 3+. "This applies both to shooting and close combat attacks."
    a = squad(
        "a", A, MARINE, [CHAINSWORD], south([10]), name="Attackers", rules=("Preferred Enemy",)
    )
    b = squad("b", B, WS3_GUARD, [CHAINSWORD], north([10]), name="Defenders")
    battle = make_battle(
        a,
        b,
        dice=[
            *[1, 3],  # I4: the 1 to hit is re-rolled: 3, a hit
            *[1, 2],  # S4 v T3 wounds on 3+: the 1 is re-rolled: 2, still no wound
            1,  # I3: the Guardsman (no Preferred Enemy) misses: no re-roll
        ],
    )
    fight_sub_phase(battle, A)
    purposes = dice_purposes(battle)
    assert purposes[:4] == [
        "to hit (Chainsword, 3+)",
        "re-roll 1s to hit (Preferred Enemy, Chainsword, 3+)",
        "to wound (Chainsword, 3+)",
        "re-roll 1s to wound (Preferred Enemy, Chainsword)",
    ]
    assert purposes[4].startswith("to hit (Chainsword")
    assert not b.destroyed and not a.destroyed
    assert all_dice_used(battle)


# --- Counter-attack ----------------------------------------------------------


def charged(locked: bool) -> tuple[Battle, Unit]:
    """A Marine squad charges a Guardsman with Counter-attack at (35,20); with
    ``locked`` another Marine squad already touches it."""
    charger = squad("a", A, MARINE, [BOLTGUN], [(30, 10)], name="Charger")
    target = squad("b", B, GUARD, [LASGUN], [(35, 20)], name="Target", rules=("Counter-attack",))
    others = [squad("c", A, MARINE, [BOLTGUN], [(35, 21)], name="Holder")] if locked else []
    battle = make_battle(
        charger,
        *others,
        target,
        dice=[6, 6],  # 12" against 10.18": the charge succeeds
        script_a=[("charger", "Charger [a]"), ("charge_target", "Target [b]")],
        script_b=[] if locked else [("charge_reaction", "no reaction")],
    )
    start_phase(battle, "assault", A)
    charge_sub_phase(battle, A)
    assert charger.status.charged
    assert all_dice_used(battle)
    return battle, target


def test_counter_attack_gives_plus_1_attack_when_charged_until_the_end_of_the_phase() -> None:
    # "that unit is charged, every model with the Counter-attack special rule in
    # the unit gets +1 Attack until the end of the phase": A1 + 1 = 2.
    battle, target = charged(locked=False)
    guardsman = model(battle, "b.1")
    assert attacks_of(battle, target, guardsman, CLOSE_COMBAT_WEAPON) == 2
    start_phase(battle, "movement", B)  # the next phase: back to A1
    assert attacks_of(battle, target, guardsman, CLOSE_COMBAT_WEAPON) == 1


def test_counter_attack_has_no_effect_when_already_locked_in_combat() -> None:
    # "If, when charged, the unit was already locked in combat, the
    # Counter-attack special rule has no effect": A1.
    battle, target = charged(locked=True)
    assert not st(battle, target).charged_unlocked
    assert attacks_of(battle, target, model(battle, "b.1"), CLOSE_COMBAT_WEAPON) == 1


# --- Rules without effect in hammerlab ---------------------------------------


def test_rules_that_cannot_arise_are_not_reported_but_qualified_forms_are() -> None:
    rules = (
        "Night Vision",  # no Night Fighting in hammerlab
        "Bulky",  # Transport Capacity: transports.places_of
        "Very Bulky",
        "Extremely Bulky",
        "Stealth",
        "Shrouded",
        "Preferred Enemy",
        "Counter-attack",
        "Stealth (Ruins)",  # only in that terrain: not implemented
        "Preferred Enemy (Orks)",  # only against that foe: not implemented
    )
    assert unsupported_unit_rules(rules) == ["Stealth (Ruins)", "Preferred Enemy (Orks)"]
