"""The 7th-edition Perils of the Warp table (``editions/waffle/perils.py``).

Expected values are worked out by hand from the table's text quoted in
``docs/rules/waffle.md`` (Psychic phase): 1 Dragged into the Warp (Leadership
test: passed, one Wound with no saves; failed, the Psyker is removed and his
unit suffers D6 S6 AP1 hits from where he stood), 2 Mental Purge (one Wound, a
random known power lost for the battle), 3 Power Drain (one Wound, both players
lose D3 Warp Charge), 4 Psychic Backlash (one Wound), 5 Empyric Feedback
(Leadership test: failed, one Wound), 6 Warp Surge (Leadership test: failed, one
Wound; passed, a 3+ invulnerable save, Fleshbane, Armourbane and Smash until
the start of the player's next Psychic phase).
"""

from __future__ import annotations

import pytest
from conftest import (
    GUARD,
    MARINE,
    SMITE,
    A,
    B,
    all_dice_used,
    make_battle,
    of_kind,
    profile,
    psychic_phase,
    row,
    squad,
)
from test_waffle_psychic import ENFEEBLE

from hammerlab.editions.waffle.psychic_memory import purged
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Unit

LIBRARIAN = profile("Librarian", ws=5, w=2, a=2, ld=10, inv=4)
SMITE_AT_GUARDS = [
    ("psyker", "Lib [lib]"),
    ("power", "Smite"),
    ("psychic_target", "G [g]"),
    ("warp_dice", "2 dice"),
]


def librarian(*powers: Weapon, marines: int = 0) -> Unit:
    """A Mastery Level 2 Librarian at (36, 10), with ``marines`` Space Marines east of him."""
    unit = squad("lib", A, LIBRARIAN, [], [(36.0, 10.0)], rules=["Psyker (Mastery Level 2)"])
    unit.models[0].powers = powers
    if marines:
        others = squad("m", A, MARINE, [], row(38, 10, marines))
        unit.models.extend(others.models)
    return unit


def smite_with_perils(table: int, *after: int, warp_charge: int = 1) -> Battle:
    """The Librarian tries Smite on 5 Guardsmen 10" away with 2 dice that roll 6 6
    (manifested, Perils), the table shows ``table``; ``after``: the dice that follow."""
    return make_battle(
        librarian(SMITE),
        squad("g", B, GUARD, [], row(36, 20, 5)),
        dice=[warp_charge, 6, 6, table, *after],
        script_a=SMITE_AT_GUARDS,
        script_b=[("deny_dice", "0 dice")],
    )


def test_dragged_into_the_warp_passed_is_one_wound_with_no_save() -> None:
    # Leadership test 3+3 = 6 against Ld 10: passed, one Wound (no 4+ invulnerable
    # save rolled); Smite still fires: 4 misses.
    battle = smite_with_perils(1, 3, 3, 1, 1, 1, 1)
    psychic_phase(battle, A)
    assert [(e.roll, e.result) for e in of_kind(battle, "perils")] == [(1, "Dragged into the Warp")]
    assert [(e.test, e.passed) for e in of_kind(battle, "morale")] == [("Leadership test", True)]
    assert battle.unit("lib").models[0].wounds_left == 1
    assert all_dice_used(battle)


def test_dragged_into_the_warp_failed_removes_the_psyker_and_hits_his_unit() -> None:
    unit = librarian(SMITE, marines=3)
    battle = make_battle(
        unit,
        squad("g", B, GUARD, [], row(36, 20, 5)),
        dice=[
            1,  # Warp Charge: pool A 1+2 = 3
            6,
            6,  # Smite manifested, Perils
            1,  # Dragged into the Warp
            6,
            5,  # Leadership test 11 against Ld 10: failed, the Librarian is removed
            3,  # D6 hits: 3 hits at S6 AP1
            2,
            1,
            6,  # S6 against T4 wounds on 2+: 2 wounds; AP1 beats the 3+ save
            3,
            3,  # Morale check for 3 of 4 models lost: 6 against Ld 8, passed
        ],
        script_a=SMITE_AT_GUARDS,
    )
    psychic_phase(battle, A)
    causes = [(e.model, e.cause) for e in of_kind(battle, "casualty")]
    # The hits come from where the Librarian stood: the two closest marines die.
    assert causes == [
        ("lib.1", "Dragged into the Warp"),
        ("m.1", "Dragged into the Warp from Lib [lib]"),
        ("m.2", "Dragged into the Warp from Lib [lib]"),
    ]
    assert [m.id for m in unit.alive_models] == ["m.3"]
    assert of_kind(battle, "deny_the_witch") == []  # a slain Psyker manifests nothing
    assert all_dice_used(battle)


def test_mental_purge_loses_a_random_known_power_for_the_rest_of_the_battle() -> None:
    battle = make_battle(
        librarian(SMITE, ENFEEBLE),
        squad("g", B, GUARD, [], row(36, 20, 5)),
        # Warp Charge: pool 3; 6 6: Perils, 2 Mental Purge (one Wound); a D2 for the
        # two powers known (Smite, Enfeeble): 2, Enfeeble lost; Smite's 4 shots miss
        dice=[1, 6, 6, 2, 2, 1, 1, 1, 1],
        script_a=SMITE_AT_GUARDS,
        script_b=[("deny_dice", "0 dice")],
    )
    psychic_phase(battle, A)
    assert [e.power for e in of_kind(battle, "power_purged")] == ["Enfeeble"]
    assert purged(battle, "lib.1", "Enfeeble") and not purged(battle, "lib.1", "Smite")
    assert battle.unit("lib").models[0].wounds_left == 1
    # The pool still holds a die, but Enfeeble may no longer be tried: no second power.
    assert [e.power for e in of_kind(battle, "psychic_test")] == ["Smite"]
    assert all_dice_used(battle)


def test_power_drain_costs_both_players_d3_warp_charge() -> None:
    # Warp Charge 3: pools A 3+2 = 5, B 3; A spends 2 dice (3 left); Perils 3, Power
    # Drain: one Wound, the D3 rolls 2: A 1, B 1; B denies with none; 4 misses.
    battle = smite_with_perils(3, 2, 1, 1, 1, 1, warp_charge=3)
    psychic_phase(battle, A)
    drained = of_kind(battle, "warp_charge_drained")
    assert [(e.lost, e.pools) for e in drained] == [(2, {A: 1, B: 1})]
    assert battle.unit("lib").models[0].wounds_left == 1
    assert all_dice_used(battle)


@pytest.mark.parametrize(("ld_dice", "wounds_left"), [((3, 3), 2), ((6, 6), 1)])
def test_empyric_feedback_wounds_only_on_a_failed_leadership_test(
    ld_dice: tuple[int, int], wounds_left: int
) -> None:
    # 3+3 = 6 passes Ld 10 ("no ill effects… this time"); 6+6 = 12 fails: one Wound.
    battle = smite_with_perils(5, *ld_dice, 1, 1, 1, 1)
    psychic_phase(battle, A)
    assert battle.unit("lib").models[0].wounds_left == wounds_left
    assert all_dice_used(battle)


def test_warp_surge_failed_is_one_wound() -> None:
    battle = smite_with_perils(6, 6, 5, 1, 1, 1, 1)  # Ld test 11 against 10: failed
    psychic_phase(battle, A)
    model = battle.unit("lib").models[0]
    assert model.wounds_left == 1 and model.rules == ()
    assert all_dice_used(battle)


def test_warp_surge_passed_lasts_until_the_start_of_the_next_friendly_psychic_phase() -> None:
    # Ld test 3+3 passed: no Wound; a 3+ invulnerable save (better than his 4+),
    # Fleshbane, Armourbane and Smash; Smite's 4 shots miss.
    # The next Psychic phase of A: Warp Charge 2, and A ends it at once.
    battle = make_battle(
        librarian(SMITE),
        squad("g", B, GUARD, [], row(36, 20, 5)),
        dice=[1, 6, 6, 6, 3, 3, 1, 1, 1, 1, 2],
        script_a=[*SMITE_AT_GUARDS, ("psyker", "end phase")],
        script_b=[("deny_dice", "0 dice")],
    )
    psychic_phase(battle, A)
    model = battle.unit("lib").models[0]
    assert model.wounds_left == 2
    assert model.profile.invulnerable == 3
    assert model.rules == ("Fleshbane", "Armourbane", "Smash")
    psychic_phase(battle, B)  # the other player's phase (no Psyker) changes nothing
    assert model.profile.invulnerable == 3
    psychic_phase(battle, A)
    assert model.profile.invulnerable == 4 and model.rules == ()
    surges = [(e.rules, e.begins) for e in of_kind(battle, "blessing")]
    assert surges == [
        (("Fleshbane", "Armourbane", "Smash", "3+ invulnerable save"), True),
        (("Fleshbane", "Armourbane", "Smash", "3+ invulnerable save"), False),
    ]
    assert all_dice_used(battle)
