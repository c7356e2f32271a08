"""Seeds 001/002, the Fighting Sub-phase: who fights, Initiative steps, Attacks,
the To Hit chart, To Wound, saves, allocation and (Proposed Rule) Final Blow.

Every battle is A's turn; A stands on y = 20 and B on y = 21 (``fight_kit``),
so the model of A at x touches the model of B at the same x. Expected values
come from the seed's chart and the 6th/7th-edition rules, worked by hand in
the comments.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import (
    BOLT_PISTOL,
    A,
    B,
    Placed,
    alive_ids,
    all_dice_used,
    asked,
    box,
    dice_purposes,
    make_battle,
    make_unit,
    of_kind,
    profile,
    squad,
)
from fight_kit import (
    BIG_CHOPPA,
    CHAINSWORD,
    GUARD,
    LIGHTNING_CLAW,
    MARINE,
    POWER_FIST,
    POWER_SWORD,
    SLUGGA,
    north,
    south,
)

from hammerlab.editions import get_ruleset
from hammerlab.editions.base import apply_rules
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.assault_results import FightRecord
from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.fight import choose_weapons, fight, fight_sub_phase
from hammerlab.editions.waffle.rules.fiery_charge import fiery_chargers
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit

DUMMY = profile("Dummy", i=1, sv="-")
"""WS4 S4 T4 W1 I1 A1, no save: strikes last and dies to any unsaved wound."""
HOLD = ("move", "hold")


def blows(battle: Battle) -> list[tuple[str, int, int, int]]:
    """(unit, Initiative step, models, attacks) of each BlowsStruck event."""
    return [(e.unit, e.initiative, e.models, e.attacks) for e in of_kind(battle, "blows")]


def one_on_one(
    attacker: Profile,
    weapons: Sequence[Weapon],
    defender: Profile,
    *,
    a_rules: Sequence[str] = (),
    b_rules: Sequence[str] = (),
    dice: Sequence[int] = (),
    script_a: Sequence[tuple[str, str]] = (),
    terrain: Sequence[TerrainArea] = (),
) -> tuple[Battle, Unit, Unit]:
    """One model of A (id a.1, at x = 10) against one of B (b.1, touching it)."""
    a = squad("a", A, attacker, weapons, south([10]), name="Attackers", rules=a_rules)
    b = squad("b", B, defender, [CHAINSWORD], north([10]), name="Defenders", rules=b_rules)
    battle = make_battle(a, b, dice=dice, script_a=script_a, terrain=terrain)
    return battle, a, b


# --- Rolling to Hit: the seed's chart ------------------------------------------------


@pytest.mark.parametrize(
    ("ws", "target_ws", "cell"),
    [
        (4, 4, "4+"),  # "equally matched models hit an enemy on a 4+"
        (4, 2, "3+"),  # chart row 4, column 2
        (5, 2, "2+"),  # chart row 5, column 2
        (4, 8, "5+"),  # chart row 4, column 8
        (1, 5, "6+"),  # chart row 1, column 5
    ],
)
def test_seed001_to_hit_chart_cells_need_that_roll(ws: int, target_ws: int, cell: str) -> None:
    needed = int(cell[0])
    battle, _, _ = one_on_one(
        profile("Hero", ws=ws, a=2, i=5),
        [CHAINSWORD],
        profile("Target", ws=target_ws, i=1),
        # Two Attacks rolling one under and exactly the score needed: one hit.
        # It does not wound (a 1); the target's blow misses (a 1): a 0-0 draw.
        dice=[needed - 1, needed, 1, 1],
    )
    fight_sub_phase(battle, A)
    hero = of_kind(battle, "blows")[0]
    assert (hero.needed, hero.attacks, hero.hits) == (cell, 2, 1)
    assert f"to hit (Chainsword, {cell})" in dice_purposes(battle)
    assert all_dice_used(battle)


def test_seed001_to_hit_chart_a_is_an_automatic_hit_with_no_die_rolled() -> None:
    # Chart row 10, column 4: "A". Both Attacks hit without a roll; the two
    # wound rolls (1s) fail; the target (WS4 against WS10: 5+) misses with a 1.
    battle, _, _ = one_on_one(
        profile("Hero", ws=10, a=2, i=5), [CHAINSWORD], profile("Target", ws=4, i=1), dice=[1, 1, 1]
    )
    fight_sub_phase(battle, A)
    hero = of_kind(battle, "blows")[0]
    assert (hero.needed, hero.attacks, hero.hits) == ("A", 2, 2)
    assert of_kind(battle, "wounds")[0].hits == 2
    purposes = dice_purposes(battle)
    assert not any(p.startswith("to hit (Chainsword, A") for p in purposes)
    assert purposes[0].startswith("to wound")
    assert all_dice_used(battle)


# --- Who fights: Initiative steps ----------------------------------------------------


def test_seed001_initiative_order_a_faster_units_kills_stop_slower_blows() -> None:
    fast = squad("a", A, profile("Fast", i=5), [CHAINSWORD], south([10]), name="Fast")
    # Two slow models, both touching the fast one: b.1 in front, b.2 beside it.
    slow = squad("b", B, profile("Slow", i=2, sv="-"), [CHAINSWORD], [(10, 21), (11, 20)])
    battle = make_battle(
        fast,
        slow,
        dice=[
            4,  # I5: the fast model's blow hits (WS4 v WS4: 4+)
            4,  # wounds (S4 v T4: 4+); no save: b.1, the first of the closest, dies
            1,  # I2: only b.2 is left to strike, and misses
            *[3, 3],  # B lost 1-0: Morale at Ld 8-1 = 7, rolls 6: passes
        ],
    )
    fight_sub_phase(battle, A)
    assert blows(battle) == [("Fast [a]", 5, 1, 1), ("B [b]", 2, 1, 1)]
    assert alive_ids(slow) == ["b.2"]
    assert all_dice_used(battle)


# --- Attacks: charge bonus, Rage, Fiery Charge, two weapons ---------------------------


@pytest.mark.parametrize(
    ("charged", "fiery", "rules", "attacks"),
    [
        (False, False, (), 1),  # the profile's A1
        (True, False, (), 2),  # +1 on the charge
        (True, True, (), 1),  # Fiery Charge: "lose their bonus attack from a charge"
        (True, False, ("Rage",), 3),  # Rage: +2 on the charge
        (True, True, ("Rage",), 2),  # "Units with the Rage USR only lose one of their two"
    ],
)
def test_seed004_charge_bonus_rage_and_fiery_charge_attacks(
    charged: bool, fiery: bool, rules: tuple[str, ...], attacks: int
) -> None:
    battle, a, _ = one_on_one(
        MARINE, [CHAINSWORD], DUMMY, a_rules=rules, dice=[1] * attacks + [1]
    )  # every blow misses, so does the dummy's: a draw
    a.status.charged = charged
    if fiery:
        apply_rules(battle, get_ruleset("waffle"), {"fiery_charge": True})
        fiery_chargers(battle).add(a.id)
    fight_sub_phase(battle, A)
    assert blows(battle)[0] == ("Attackers [a]", 4, 1, attacks)
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("weapons", "choice", "attacks"),
    [
        ([CHAINSWORD], None, 1),  # one melee weapon: A1
        ([], None, 1),  # no melee weapon: a close combat weapon
        ([BOLT_PISTOL, CHAINSWORD], "Chainsword", 2),  # pistol + melee weapon: +1
        ([BOLT_PISTOL, POWER_FIST], "Power fist", 1),  # Specialist Weapon: no +1
        ([BOLT_PISTOL, POWER_FIST], "Close combat weapon", 2),  # the pistol's way: +1
        ([LIGHTNING_CLAW, LIGHTNING_CLAW], None, 2),  # two Specialist Weapons: +1
        ([SLUGGA, BIG_CHOPPA], "Big choppa", 1),  # Two-handed: never +1
    ],
)
def test_seed001_second_close_combat_weapon_gives_one_attack(
    weapons: list[Weapon], choice: str | None, attacks: int
) -> None:
    script = [("melee_weapon", choice)] if choice else []
    battle, _, _ = one_on_one(
        MARINE, weapons, DUMMY, dice=[1] * attacks + [1], script_a=script
    )  # all blows miss: a draw
    fight_sub_phase(battle, A)
    mine = [e for e in of_kind(battle, "blows") if e.unit == "Attackers [a]"]
    assert [(e.weapon, e.attacks) for e in mine] == [(choice or mine[0].weapon, attacks)]
    assert len(asked(battle, A, "melee_weapon")) == (1 if choice else 0)
    assert all_dice_used(battle)


# --- Unwieldy, Furious Charge, power weapons, Instant Death, Feel No Pain, cover -----


def test_seed001_unwieldy_power_fist_strikes_at_initiative_1() -> None:
    battle, _, b = one_on_one(
        MARINE,
        [POWER_FIST],
        profile("Slow", i=2),
        dice=[
            1,  # I2: the slow model (I2) strikes before the fist (I4, Unwieldy: I1); misses
            4,  # I1: the fist hits (4+)
            2,  # S4 x2 = 8 against T4 wounds on 2+; AP2 beats the 3+ save: no save
            3,  # B is wiped out: A consolidates D6 ...
        ],
        script_a=[HOLD],  # ... and stays put
    )
    fight_sub_phase(battle, A)
    assert blows(battle) == [("Defenders [b]", 2, 1, 1), ("Attackers [a]", 1, 1, 1)]
    assert of_kind(battle, "wounds")[0].needed == "2+"
    assert of_kind(battle, "save") == []
    assert b.destroyed
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("charged", "dice", "needed"),
    [
        # A1: the blow hits, fails to wound (1); the dummy misses. S4 v T4: 4+.
        (False, [6, 1, 1], "4+"),
        # Charging, A2: one hit, one miss; S4+1 = 5 v T4: 3+.
        (True, [6, 1, 1, 1], "3+"),
    ],
)
def test_seed001_furious_charge_adds_one_strength_when_charging(
    charged: bool, dice: list[int], needed: str
) -> None:
    battle, a, _ = one_on_one(MARINE, [CHAINSWORD], DUMMY, a_rules=["Furious Charge"], dice=dice)
    a.status.charged = charged
    fight_sub_phase(battle, A)
    assert of_kind(battle, "wounds")[0].needed == needed
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("weapon", "save", "saves_taken"),
    [
        (POWER_SWORD, "3+", 0),  # AP3 denies a 3+ armour save
        (POWER_SWORD, "2+", 1),  # but not a 2+
        (CHAINSWORD, "3+", 1),  # AP - : the armour save is taken
    ],
)
def test_seed001_power_weapon_ap_from_the_weapon_profile(
    weapon: Weapon, save: str, saves_taken: int
) -> None:
    battle, _, b = one_on_one(
        MARINE,
        [weapon],
        profile("Target", i=1, sv=save),
        # hit (4+), wound (4+), [the save fails with a 1], b.1 dies; A consolidates
        dice=[4, 4, *[1] * saves_taken, 3],
        script_a=[HOLD],
    )
    fight_sub_phase(battle, A)
    assert len(of_kind(battle, "save")) == saves_taken
    assert b.destroyed
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("rules", "dice", "script", "lost", "left"),
    [
        # hit, wound (S8 v T4: 2+), the captain's blow misses; B is wiped out:
        # A consolidates D6 and holds.
        ((), [4, 2, 1, 3], [HOLD], 3, 0),
        # The same, but the captain lives: B lost 1-0, its Morale (Ld 8-1) passes.
        (("Eternal Warrior",), [4, 2, 1, 3, 3], [], 1, 2),
    ],
)
def test_seed001_instant_death_in_close_combat(
    rules: tuple[str, ...],
    dice: list[int],
    script: list[tuple[str, str]],
    lost: int,
    left: int,
) -> None:
    # S8 power fist against T4: 8 >= 2 x 4, Instant Death: all 3 wounds, unless
    # Eternal Warrior. Both strike at I1, A's first; the captain strikes even if
    # slain in that step (its blows are simultaneous) and misses. AP2: no save.
    battle, _, b = one_on_one(
        MARINE,
        [POWER_FIST],
        profile("Captain", w=3, i=1),
        b_rules=rules,
        dice=dice,
        script_a=script,
    )
    fight_sub_phase(battle, A)
    wound = of_kind(battle, "wound")[0]
    assert (wound.lost, wound.left, wound.instant_death) == (lost, left, not rules)
    assert [e.unit for e in of_kind(battle, "blows")] == ["Attackers [a]", "Defenders [b]"]
    assert b.destroyed is (not rules)
    assert all_dice_used(battle)


def test_seed001_feel_no_pain_ignored_wounds_do_not_count_for_the_result() -> None:
    a = squad("a", A, profile("Brute", a=2), [CHAINSWORD], south([10]), name="Brutes")
    b = squad("b", B, DUMMY, [CHAINSWORD], north([10, 11]), rules=["Feel No Pain"])
    battle = make_battle(
        a,
        b,
        dice=[
            *[4, 4],  # both blows hit
            *[4, 4],  # both wound; no armour save
            5,  # b.1 ignores the first (Feel No Pain 5+)
            4,  # not the second: b.1 dies
            1,  # I1: b.2 misses
            *[3, 3],  # B lost 1-0: Ld 8-1 = 7, rolls 6, passes
        ],
    )
    fight_sub_phase(battle, A)
    assert [(s.save, s.saved) for s in of_kind(battle, "save")] == [
        ("Feel No Pain", True),
        ("Feel No Pain", False),
    ]
    assert of_kind(battle, "combat_result")[0].scores == {A: 1, B: 0}
    assert alive_ids(b) == ["b.2"]
    assert all_dice_used(battle)


def test_seed001_no_cover_saves_in_close_combat() -> None:
    ruin = box("ruin", 5, 20.6, 15, 25, cover_save=4)  # b.1 stands in 4+ cover
    battle, _, b = one_on_one(
        MARINE,
        [CHAINSWORD],
        DUMMY,
        terrain=[ruin],
        dice=[4, 4, 3],  # hit, wound, no save of any kind: b.1 dies; A consolidates
        script_a=[HOLD],
    )
    fight_sub_phase(battle, A)
    assert of_kind(battle, "save") == []
    assert b.destroyed
    assert all_dice_used(battle)


# --- Which unit a model attacks --------------------------------------------------------


def test_seed001_a_model_touching_two_units_chooses_which_to_attack() -> None:
    a = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Hero")
    b = squad("b", B, DUMMY, [CHAINSWORD], north([10]), name="Front")
    c = squad("c", B, DUMMY, [CHAINSWORD], [(11, 20)], name="Side")
    battle = make_battle(
        a,
        b,
        c,
        dice=[4, 4, 1, *[3, 3]],  # hit, wound: c.1 dies at I4; b.1 misses at I1; b passes Morale
        script_a=[("melee_target", "Side [c]")],
    )
    fight_sub_phase(battle, A)
    menu = asked(battle, A, "melee_target")[0]
    assert menu.labels() == ["Front [b]", "Side [c]"]
    assert menu.prompt == "Which unit does a.1 of Hero [a] attack with Chainsword?"
    assert c.destroyed and not b.destroyed
    assert all_dice_used(battle)


def test_the_melee_weapon_question_agrees_with_one_model_or_several() -> None:
    # From a player's review (session 22, finding 7): "Which weapon do captain.1 of
    # Space Marine Captain [captain] fight with?". One model: "does"; several: "do".
    for count, asks in ((1, "does a.1"), (2, "do a.1, a.2")):
        a = squad("a", A, MARINE, [BOLT_PISTOL, POWER_FIST], south([10, 12][:count]))
        b = squad("b", B, MARINE, [CHAINSWORD], north([10]))
        battle = make_battle(a, b, script_a=[("melee_weapon", "Power fist")])
        choose_weapons(battle, a, FightRecord())
        question = asked(battle, A, "melee_weapon")[0].prompt
        assert question == f"Which weapon {asks} of A [a] fight with?"


def test_waffle_ai_fights_with_the_weapon_that_hurts_most() -> None:
    # Power fist: 1 blow; CCW (bolt pistol): 2 blows. Against Marines (WS4 T4 3+):
    # fist 1 x 1/2 x 5/6 x 1 = 0.42 beats CCW 2 x 1/2 x 1/2 x 1/3 = 0.17. Against
    # Guardsmen (WS3 T3 5+): fist 1 x 2/3 x 5/6 = 0.56 loses to CCW
    # 2 x 2/3 x 2/3 x 2/3 = 0.59.
    for foe, expected in ((MARINE, "Power fist"), (GUARD, "Close combat weapon")):
        a = squad("a", A, MARINE, [BOLT_PISTOL, POWER_FIST], south([10]))
        b = squad("b", B, foe, [CHAINSWORD], north([10]))
        battle = make_battle(a, b, fallback=WaffleAI())
        record = FightRecord()
        choose_weapons(battle, a, record)
        assert record.weapons["a.1"].name == expected


def test_waffle_ai_attacks_the_weakest_unit_within_reach() -> None:
    a = squad("a", A, MARINE, [CHAINSWORD], south([10]))
    armoured = squad("b", B, profile("Terminator", sv="2+"), [CHAINSWORD], north([10]))
    bare = squad("c", B, DUMMY, [CHAINSWORD], [(11, 20)])
    battle = make_battle(a, armoured, bare)
    decision = Decision(
        kind="melee_target",
        player=A,
        prompt="?",
        choices=(Choice(armoured.label, armoured), Choice(bare.label, bare)),
        context=DecisionContext(unit="a", models=("a.1",), weapon="Chainsword"),
    )
    assert WaffleAI().choose(battle, decision) == 1


# --- (Proposed Rule) Final Blow ----------------------------------------------------------


def last_marine(rules: tuple[str, ...] = ()) -> Unit:
    """A two-model unit reduced to its last one-wound model, a.2 at x = 10."""
    unit = make_unit(
        "a",
        A,
        [Placed(MARINE, [CHAINSWORD], (8, 20)), Placed(MARINE, [CHAINSWORD], (10, 20), rules)],
        name="Remnant",
    )
    unit.models[0].wounds_left = 0
    return unit


def three_dummies() -> Unit:
    """b.1 in front of a.2, b.2 and b.3 beside it: all touch it."""
    return squad("b", B, DUMMY, [CHAINSWORD], [(10, 21), (11, 20), (9, 20)], name="Dummies")


def test_seed001_final_blow_chains_extra_attacks_for_every_wound() -> None:
    battle = make_battle(
        last_marine(),
        three_dummies(),
        options={"final_blow": True},
        dice=[
            *[4, 4],  # the blow hits and wounds: a Final Blow is offered
            *[4, 4],  # the Final Blow hits and wounds: another one
            *[4, 4],  # and again ("and so on")
            1,  # the third Final Blow misses: the chain ends
            3,  # three unsaved wounds: b.1, b.2, b.3 die; A consolidates D6
        ],
        script_a=[("final_blow", "Final Blow"), HOLD],
    )
    fight_sub_phase(battle, A)
    assert battle.unit("b").destroyed
    made = [(e.rule, e.model, e.attacks) for e in of_kind(battle, "final_attacks")]
    assert made == [("final_blow", "a.2", 1)] * 3
    assert of_kind(battle, "final_attacks")[0].text == "a.2 makes 1 Final Blow(s)"
    assert st(battle, battle.unit("a")).combat_score == 3
    assert all_dice_used(battle)


def test_seed001_final_blow_earned_by_unsaved_wound_ends_when_the_target_is_destroyed() -> None:
    # "... against that same target at the same Initiative step. If these additional
    # attacks cause wounds, they gain another attack against that target, and so on":
    # with earned_by=unsaved_wound each blow's wound is allocated before the next is
    # struck. The dummies have no save, so every wound removes one: the blow (4, 4)
    # kills one, two Final Blows (4, 4 each) the other two. The third unsaved wound
    # leaves no target: the chain ends there, with no die more rolled (one more to-hit
    # roll used to crash on the empty unit's Toughness). A consolidates (D6: 3).
    battle = make_battle(
        last_marine(),
        three_dummies(),
        options={"final_blow": True, "final_blow.earned_by": "unsaved_wound"},
        dice=[*[4, 4], *[4, 4], *[4, 4], 3],
        script_a=[("final_blow", "Final Blow"), HOLD],
    )
    fight_sub_phase(battle, A)
    assert battle.unit("b").destroyed
    made = [(e.rule, e.model, e.attacks) for e in of_kind(battle, "final_attacks")]
    assert made == [("final_blow", "a.2", 1)] * 2
    assert st(battle, battle.unit("a")).combat_score == 3
    assert all_dice_used(battle)


@pytest.mark.parametrize("earned_by", ["wound_roll", "unsaved_wound"])
def test_seed001_final_blow_is_never_made_by_a_model_whose_blows_did_not_cause_the_wounds(
    earned_by: str,
) -> None:
    # Seed 001: "for every successful wound this model causes it may immediately make
    # an additional attack ... at the same Initiative step". a.1 (I4, chainsword) and
    # a.2 (power fist, Unwieldy: I1) against b.1 (I4, W3), B's turn: at I4 B strikes
    # first, a hit (4) and a wound (4) slay a.1, the closest; a.1 still strikes in its
    # step, a hit (4) and a wound (4) on b.1. a.2 is now the last one-wound model, but
    # the wound is a.1's, made with a.1's chainsword at I4: no Final Blow is offered to
    # a.2 (it was, and a.2 struck with the chainsword at I4). At I1 a.2's power fist
    # misses (1). b.1 keeps 2 wounds of 3.
    fighter = profile("Striker", sv="-")
    a = make_unit(
        "a",
        A,
        [Placed(fighter, [CHAINSWORD], (10, 20)), Placed(fighter, [POWER_FIST], (11, 20))],
        name="Duo",
    )
    b = squad("b", B, profile("Champion", w=3, sv="-"), [CHAINSWORD], north([10]))
    battle = make_battle(
        a,
        b,
        options={"final_blow": True, "final_blow.earned_by": earned_by},
        dice=[4, 4, 4, 4, 1],
        script_a=[("final_blow", "Final Blow")],
    )
    fight(battle, combats(battle)[0], B)
    assert asked(battle, A, "final_blow") == []
    assert alive_ids(a) == ["a.2"]
    assert b.models[0].wounds_left == 2
    assert blows(battle) == [(b.label, 4, 1, 1), (a.label, 4, 1, 1), (a.label, 1, 1, 1)]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("rules", "option"),
    [(("Independent Character",), True), ((), False)],
    ids=["independent-character", "option-off"],
)
def test_seed001_final_blow_not_for_independent_characters_nor_when_off(
    rules: tuple[str, ...], option: bool
) -> None:
    battle = make_battle(
        last_marine(rules),
        three_dummies(),
        options={"final_blow": option},
        dice=[4, 4, *[1, 1], *[3, 3]],  # b.1 dies; b.2 and b.3 miss; B's Morale passes
    )
    fight_sub_phase(battle, A)
    assert asked(battle, A, "final_blow") == []
    assert alive_ids(battle.unit("b")) == ["b.2", "b.3"]
    assert all_dice_used(battle)
