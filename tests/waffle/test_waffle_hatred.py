"""Hatred, and the Hatred part of Ancient Doom (issue 12 §3).

7th edition (BattleScribe ``Warhammer40K.gst``, "Hatred"): "If the special rule
does not specify a type of foe, then the unit has Hatred against everyone. … A
model striking a hated foe in close combat re-rolls all failed To Hit rolls
during the first round of each close combat." Ancient Doom (Codex: Craftworlds,
from memory) gives Hatred against units with the Daemon of Slaanesh rule.

Every fight: one Marine (WS4 S4 I4 A1, Chainsword) of A touches one Guardsman
(WS3 T3 I3 A1 Sv5+) of B. The seed's chart: WS4 v WS3 hits on 3+, WS3 v WS4 on
4+; S4 v T3 wounds on 3+. A Marine that charged this turn strikes 2 Attacks
(+1 for charging). Expectations are worked by hand in the comments.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import (
    A,
    B,
    Placed,
    all_dice_used,
    dice_purposes,
    make_battle,
    make_unit,
    of_kind,
    squad,
)
from fight_kit import CHAINSWORD, GUARD, MARINE, north, south

from hammerlab.editions.waffle.expected import blow_value
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.hatred import first_round
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.special_rules import unsupported_unit_rules
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

MARINE_HITS_ON = "to hit (Chainsword, 3+)"
GUARD_HITS_ON = "to hit (Chainsword, 4+)"
HATRED_REROLL = "re-roll misses to hit (Hatred, Chainsword, 3+)"


def melee(
    rules: tuple[str, ...],
    dice: list[int],
    charged: bool = True,
    foe_rules: tuple[str, ...] = (),
) -> tuple[Battle, Unit]:
    """The Marine with ``rules`` (having ``charged`` this turn) touching the Guardsman."""
    marine = squad("a", A, MARINE, [CHAINSWORD], south([10]), name="Marines", rules=rules)
    guard = squad("b", B, GUARD, [CHAINSWORD], north([10]), name="Guards", rules=foe_rules)
    battle = make_battle(marine, guard, dice=dice)
    marine.status.charged = charged
    return battle, marine


def marine_hits(battle: Battle) -> int:
    return int(of_kind(battle, "blows")[0].hits)


def test_hatred_rerolls_every_failed_to_hit_roll_in_the_first_round() -> None:
    # The Marine charged: 2 Attacks roll 1 and 2, both miss on 3+, both are
    # re-rolled: 2 (a miss, not re-rolled again) and 3 (a hit). It wounds on 3+:
    # a 2 fails. The Guardsman's 1 misses on 4+ (it has no Hatred: no re-roll).
    battle, _ = melee(("Hatred",), [1, 2, 2, 3, 2, 1])
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [
        MARINE_HITS_ON,
        HATRED_REROLL,
        "to wound (Chainsword, 3+)",
        GUARD_HITS_ON,
    ]
    assert marine_hits(battle) == 1
    assert all_dice_used(battle)


def test_hatred_rerolls_nothing_after_the_first_round() -> None:
    # A combat fought on from an earlier turn (neither unit charged this turn):
    # the Marine's single Attack misses with a 2 and is not re-rolled.
    battle, _ = melee(("Hatred",), [2, 1], charged=False)
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [MARINE_HITS_ON, GUARD_HITS_ON]
    assert marine_hits(battle) == 0
    assert all_dice_used(battle)


def test_hatred_is_a_model_rule_only_its_model_rerolls() -> None:
    # "A model striking a hated foe … re-rolls": of two charging Marines (one with
    # Hatred, one without) touching the Guardsman, each strikes 2 Attacks and
    # rolls 1 and 2. Only the hater's misses are re-rolled (2, 2: still misses);
    # the other's stay misses. The Guardsman misses with a 1.
    marines = make_unit(
        "a",
        A,
        [
            Placed(MARINE, [CHAINSWORD], (10, 20), rules=("Hatred",)),
            Placed(MARINE, [CHAINSWORD], (11, 20)),
        ],
        name="Marines",
    )
    guard = squad("b", B, GUARD, [CHAINSWORD], north([10]), name="Guards")
    battle = make_battle(marines, guard, dice=[1, 2, 2, 2, 1, 2, 1])
    marines.status.charged = True
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [MARINE_HITS_ON, HATRED_REROLL, MARINE_HITS_ON, GUARD_HITS_ON]
    assert (of_kind(battle, "blows")[0].attacks, marine_hits(battle)) == (4, 0)
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("charged", "charged_unlocked", "first"),
    [(True, False, True), (False, True, True), (False, False, False)],
)
def test_the_first_round_is_the_phase_a_unit_charged_or_was_charged_unlocked(
    charged: bool, charged_unlocked: bool, first: bool
) -> None:
    # A unit's combat is new in the phase it charged in, or was charged in while
    # not locked in combat; a combat from an earlier turn is not.
    battle, marine = melee(("Hatred",), [], charged=charged)
    st(battle, marine).charged_unlocked = charged_unlocked
    assert first_round(battle, marine) is first


@pytest.mark.parametrize(("foe_rules", "rerolled"), [(("Daemon of Slaanesh",), True), ((), False)])
def test_ancient_doom_hates_only_a_daemon_of_slaanesh(
    foe_rules: tuple[str, ...], rerolled: bool
) -> None:
    # The charging Marine rolls 1 and 2 to hit. Against a Daemon of Slaanesh both
    # are re-rolled (2, 3: one hit, then a 2 to wound fails); against any other
    # foe they stay misses. The Guardsman misses with a 1 either way.
    dice = [1, 2, 2, 3, 2, 1] if rerolled else [1, 2, 1]
    battle, _ = melee(("Ancient Doom",), dice, foe_rules=foe_rules)
    fight_sub_phase(battle, A)
    marine_rolls = (
        [MARINE_HITS_ON, HATRED_REROLL, "to wound (Chainsword, 3+)"]
        if rerolled
        else [MARINE_HITS_ON]
    )
    assert dice_purposes(battle) == [*marine_rolls, GUARD_HITS_ON]
    assert marine_hits(battle) == int(rerolled)
    assert all_dice_used(battle)


def test_hatred_with_preferred_enemy_rerolls_a_die_to_hit_once() -> None:
    # Hatred re-rolls both misses (1, 2 → 1, 3: one hit); the re-rolled 1 is not
    # re-rolled again for Preferred Enemy. To wound, Preferred Enemy re-rolls the
    # 1 (→ 2, still no wound on 3+). The Guardsman misses with a 1.
    battle, _ = melee(("Hatred", "Preferred Enemy"), [1, 2, 1, 3, 1, 2, 1])
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [
        MARINE_HITS_ON,
        HATRED_REROLL,
        "to wound (Chainsword, 3+)",
        "re-roll 1s to wound (Preferred Enemy, Chainsword)",
        GUARD_HITS_ON,
    ]
    assert marine_hits(battle) == 1
    assert all_dice_used(battle)


HATED_FOE_FIGHT = [
    MARINE_HITS_ON,
    HATRED_REROLL,
    "to wound (Chainsword, 3+)",
    GUARD_HITS_ON,
]
"""The dice of a charging hater's fight (as the first test): 1 and 2 miss and are
re-rolled (2, 3: one hit), its wound roll of 2 fails on 3+, the Guardsman's 1 misses."""


@pytest.mark.parametrize(
    ("rule", "army"),
    [
        ("Hatred (Orks)", "Orks: Codex (2014)"),  # a Faction: the catalogue's army
        ("Hatred (Ork)", "Orks"),  # the built-in library's army; a final "s" aside
        ("Hatred (Guards)", "test"),  # a specific unit: its datasheet's name
        ("Hatred (guardsmans)", "test"),  # a model's profile name ("Guardsman")
    ],
)
def test_hatred_x_rerolls_against_the_named_faction_or_unit(rule: str, army: str) -> None:
    # The gst: "Hatred (Orks) means any model with the Ork Faction, whilst Hatred
    # (Big Meks) means only Big Meks."
    battle, _ = melee((rule,), [1, 2, 2, 3, 2, 1])
    guard = battle.unit("b")
    guard.datasheet = replace(guard.datasheet, army=army)
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == HATED_FOE_FIGHT
    assert marine_hits(battle) == 1
    assert all_dice_used(battle)


def test_hatred_x_rerolls_nothing_against_any_other_foe() -> None:
    # Hatred (Orks) against Astra Militarum Guardsmen: the 1 and 2 stay misses.
    battle, _ = melee(("Hatred (Orks)",), [1, 2, 1])
    guard = battle.unit("b")
    guard.datasheet = replace(guard.datasheet, army="Astra Militarum: Codex (2014)")
    fight_sub_phase(battle, A)
    assert dice_purposes(battle) == [MARINE_HITS_ON, GUARD_HITS_ON]
    assert unsupported_unit_rules(("Hatred (Orks)", "Hatred")) == []
    assert all_dice_used(battle)


def value(rules: tuple[str, ...], foe_rules: tuple[str, ...] = (), locked: bool = False) -> float:
    """The AI's expected slain per blow of the Marine with ``rules`` at a Guardsman
    standing apart (or, ``locked``, in a combat from an earlier turn)."""
    marine = squad("a", A, MARINE, [CHAINSWORD], [(10, 10)], name="Marines", rules=rules)
    guard = squad("b", B, GUARD, [CHAINSWORD], [(10, 30)], name="Guards", rules=foe_rules)
    battle = make_battle(marine, guard)
    st(battle, marine).locked_in_combat = locked
    chainsword = weapon_of(CHAINSWORD)
    return blow_value(battle, marine, marine.models[0], chainsword, guard, False)


def test_the_ai_counts_the_to_hit_rerolls_of_a_blow() -> None:
    # On 3+ a blow hits 4/6 of the time. Re-rolling every miss (Hatred in a new
    # combat): 4/6 + 2/6 * 4/6 = 8/9, 4/3 times as often. Re-rolling the 1s
    # (Preferred Enemy): 4/6 + 1/6 * 4/6 = 7/9, 7/6 times. Wounds and saves are
    # the same, so the values keep these ratios; but Preferred Enemy re-rolls
    # the 1s To Wound too (S4 against T3: 3+, 4/6 + 1/6 * 4/6), 7/6 times again.
    plain = value(())
    assert value(("Hatred",)) == pytest.approx(plain * 4 / 3)
    assert value(("Preferred Enemy",)) == pytest.approx(plain * 7 / 6 * 7 / 6)
    assert value(("Ancient Doom",), ("Daemon of Slaanesh",)) == pytest.approx(plain * 4 / 3)
    assert value(("Ancient Doom",)) == pytest.approx(plain)
    # Locked in a combat from an earlier turn: no longer its first round.
    assert value(("Hatred",), locked=True) == pytest.approx(plain)
