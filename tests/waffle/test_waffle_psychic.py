"""The 7th-edition Psychic phase (``editions/waffle/psychic.py``).

Expected values are worked out by hand from the 7th-edition rules quoted in
``docs/rules/waffle.md`` (Psychic phase): pools are the D6 plus each player's
Mastery Levels; each Warp Charge die of 4+ is a success; two 6s are Perils of
the Warp (its table: ``test_waffle_perils.py``); Deny the Witch dice need 6+,
one better for a Psyker target (one more when its Mastery Level is higher), one better with
Adamantium Will; equal or more Deny successes nullify the power.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import (
    GUARD,
    MARINE,
    SMITE,
    A,
    B,
    Placed,
    all_dice_used,
    make_battle,
    make_unit,
    of_kind,
    profile,
    psychic_phase,
    row,
    squad,
    weapon,
)
from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.psychic import deny_needed, manifest_chance
from hammerlab.editions.waffle.psychic_ai import dice_to_roll
from hammerlab.editions.waffle.psychic_events import PsychicTest, WarpCharge
from hammerlab.editions.waffle.psychic_powers import mastery_level, power_of, unsupported_power
from hammerlab.editions.waffle.special_rules import feel_no_pain, unsupported_unit_rules
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Unit
from hammerlab.io.battlescribe import unit_from_file

ROOT = Path(__file__).resolve().parents[2]
ROSTER = ROOT / "tests" / "data" / "rosters" / "psychic_librarian.ros"

ENDURANCE = Weapon(
    "5 - Endurance",
    {"Warp Charge": "2", "Power Category": "Blessing", "Range": '24"', "Details": "..."},
)
ENFEEBLE = Weapon(
    "2 - Enfeeble",
    {"Warp Charge": "1", "Power Category": "Malediction", "Range": '24"', "Details": "..."},
)
TERRIFY = Weapon(
    "3 - Terrify",
    {"Warp Charge": "1", "Power Category": "Malediction", "Range": '24"', "Details": "..."},
)
"""Copied from Warhammer40K.gst, Discipline: Telepathy (a Malediction not played)."""
LIBRARIAN = profile("Librarian", ws=5, w=2, a=2, ld=10, inv=4)


def librarian(*powers: Weapon, at: tuple[float, float] = (36.0, 10.0)) -> Unit:
    unit = squad("lib", A, LIBRARIAN, [], [at], rules=["Psyker (Mastery Level 2)"])
    unit.models[0].powers = powers
    return unit


def test_powers_are_read_from_the_data_and_unsupported_ones_say_why() -> None:
    smite = power_of(SMITE)
    assert (smite.name, smite.warp_charge, smite.range, smite.is_witchfire) == (
        "Smite",
        1,
        18.0,
        True,
    )
    assert smite.weapon is not None and smite.weapon.characteristics["S"] == "4"
    assert unsupported_power(SMITE) is None
    assert unsupported_power(ENDURANCE) is None
    assert unsupported_power(ENFEEBLE) is None
    assert unsupported_power(TERRIFY) == "psychic power Terrify (Malediction) not implemented"
    leech = Weapon(
        "3 - Life Leech",
        {
            "Warp Charge": "1",
            "Power Category": "Witchfire",
            "Range": '18"',
            "Strength": "6",
            "AP": "2",
            "Type": "Assault 2",
            "Details": "If Life Leech causes at least one unsaved Wound, the Psyker regains"
            " a Wound.",
        },
    )
    psyker = squad("lib", A, LIBRARIAN, [], [(1, 1)], rules=["Psyker"])
    sheet = replace(
        psyker.datasheet,
        entries=(replace(psyker.datasheet.entries[0], powers=(SMITE, leech, TERRIFY)),),
    )
    assert get_ruleset("waffle").validate_datasheet(sheet) == [
        "Librarian: psychic power Life Leech: only its profile is played, not: If Life Leech "
        "causes at least one unsaved Wound, the Psyker regains a Wound.",
        "Librarian: psychic power Terrify (Malediction) not implemented",
    ]
    bad = Weapon("Odd", {"Warp Charge": "D3", "Power Category": "Blessing"})
    assert "Warp Charge must be 1-6" in (unsupported_power(bad) or "")


def test_mastery_level_comes_from_the_psyker_rule() -> None:
    assert (
        mastery_level(squad("a", A, MARINE, [], [(1, 1)], rules=["Psyker (Mastery Level 3)"])) == 3
    )
    assert mastery_level(squad("b", A, MARINE, [], [(1, 1)], rules=["Psyker"])) == 1
    assert mastery_level(squad("c", A, MARINE, [], [(1, 1)])) == 0


def test_manifest_chance_is_the_binomial_of_4_plus_dice() -> None:
    # 2 dice for Warp Charge 1: 1 - (1/2)^2; 3 dice for 2: (3 + 1) / 8.
    assert manifest_chance(2, 1, 4) == pytest.approx(0.75)
    assert manifest_chance(3, 2, 4) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("warp_charge", "pool", "dice"),
    # Warp Charge 1: 1 die manifests 1/2 of the time, 2 dice 3/4 (>= 70%).
    # Warp Charge 2: 3 dice 4/8, 4 dice 11/16 = 0.6875, 5 dice 26/32 = 0.8125;
    # with a pool of 3 no count reaches 70%, so the AI rolls the whole pool.
    [(1, 6, 2), (2, 9, 5), (2, 3, 3)],
)
def test_the_ai_rolls_the_fewest_dice_that_manifest_7_times_in_10(
    warp_charge: int, pool: int, dice: int
) -> None:
    battle = make_battle(librarian(SMITE), squad("g", B, GUARD, [], row(36, 20, 1)))
    assert dice_to_roll(battle, warp_charge, pool) == dice


def test_the_ai_leaves_a_power_that_can_do_nothing() -> None:
    # Smite (S4) cannot wound T8 ("-" on the chart from T-4): worth nothing, so stop.
    wall = squad("w", B, profile("Wall", t=8), [], row(36, 20, 1))
    battle = make_battle(librarian(SMITE), wall, dice=[3], fallback=WaffleAI())
    psychic_phase(battle, A)
    assert of_kind(battle, "psychic_test") == []
    assert [d.kind for d in battle.log.events if d.kind == "decision"] == ["decision"]


def test_a_phase_without_psykers_emits_nothing_and_rolls_no_die() -> None:
    battle = make_battle(
        squad("m", A, MARINE, [], row(30, 10, 2)), squad("g", B, GUARD, [], row(30, 30, 2))
    )
    psychic_phase(battle, A)
    assert battle.log.events == []


def test_pools_are_the_d6_plus_each_players_mastery_levels() -> None:
    zoanthropes = squad("z", B, GUARD, [], row(30, 40, 3), rules=["Psyker (Mastery Level 2)"])
    seer = squad("s", B, GUARD, [], row(50, 40, 1), rules=["Psyker"])
    battle = make_battle(
        librarian(SMITE), zoanthropes, seer, dice=[3], script_a=[("psyker", "end phase")]
    )
    psychic_phase(battle, A)
    pools = of_kind(battle, "warp_charge")
    assert pools == [WarpCharge(roll=3, pools={A: 3 + 2, B: 3 + 2 + 1})]


def test_smite_harnesses_each_4_plus_and_fires_through_the_shooting_procedure() -> None:
    guards = squad("g", B, GUARD, [], row(36, 20, 5))
    dice = [
        1,  # Warp Charge: pools A 1+2=3, B 1+0=1
        4,
        2,  # psychic test, 2 dice: one 4+ = Warp Charge 1
        5,  # Deny the Witch with B's one die: needs 6+ (no Psyker in the target)
        3,
        3,
        3,
        1,  # Smite, Assault 4 at BS4: 3 hits on 3+
        4,
        4,
        1,  # S4 against T4 wounds on 4+: 2 wounds; AP2 beats the 5+ save
        3,
        3,  # Morale check for 2 of 5 lost (40%): 6 against Ld 7, passed
    ]
    battle = make_battle(
        librarian(SMITE),
        guards,
        dice=dice,
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "G [g]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "1 dice")],
    )
    psychic_phase(battle, A)
    assert len(guards.alive_models) == 3
    test = of_kind(battle, "psychic_test")[0]
    assert (test.rolls, test.successes, test.passed, test.perils) == ((4, 2), 1, True, False)
    deny = of_kind(battle, "deny_the_witch")[0]
    assert (deny.needed, deny.successes, deny.denied) == (6, 0, False)
    assert [e.cause for e in of_kind(battle, "casualty")] == ["Smite from Lib [lib]"] * 2
    assert all_dice_used(battle)


def test_two_sixes_are_perils_of_the_warp_rolled_on_its_table() -> None:
    battle = make_battle(
        librarian(SMITE),
        squad("g", B, GUARD, [], row(36, 20, 5)),
        # Warp Charge; 6 6 (two successes, Perils); the table's 4, Psychic Backlash:
        # one Wound with no saves (no invulnerable save rolled); Smite's 4 shots miss
        dice=[1, 6, 6, 4, 1, 1, 1, 1],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "G [g]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "0 dice")],
    )
    psychic_phase(battle, A)
    test: PsychicTest = of_kind(battle, "psychic_test")[0]
    assert test.perils and test.passed
    assert battle.unit("lib").models[0].wounds_left == 1
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("rules", "needed"),
    [
        ((), 6),
        (("Adamantium Will",), 5),
        (("Psyker (Mastery Level 2)",), 5),
        (("Psyker (Mastery Level 3)",), 4),
        (("Psyker (Mastery Level 3)", "Adamantium Will"), 3),
    ],
)
def test_deny_the_witch_needs_6_plus_with_its_modifiers(
    rules: tuple[str, ...], needed: int
) -> None:
    target = squad("t", B, GUARD, [], row(36, 20, 1), rules=list(rules))
    battle = make_battle(librarian(SMITE), target)
    assert deny_needed(battle, battle.unit("lib"), target) == needed


def test_as_many_deny_successes_as_the_test_nullify_the_power() -> None:
    zoanthropes = squad("z", B, GUARD, [], row(36, 20, 3), rules=["Psyker (Mastery Level 2)"])
    battle = make_battle(
        librarian(SMITE),
        zoanthropes,
        # Warp Charge 1: pools A 3, B 3; test 4 1: one success; deny 5 1: one 5+ (Psyker target)
        dice=[1, 4, 1, 5, 1],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "Z [z]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "2 dice")],
    )
    psychic_phase(battle, A)
    deny = of_kind(battle, "deny_the_witch")[0]
    assert (deny.needed, deny.successes, deny.against, deny.denied) == (5, 1, 1, True)
    assert of_kind(battle, "shots") == []
    assert all_dice_used(battle)


def test_endurance_lasts_until_the_start_of_the_casters_next_psychic_phase() -> None:
    squad_a = squad("t", A, MARINE, [], row(30, 10, 2))
    battle = make_battle(
        librarian(ENDURANCE),
        squad_a,
        squad("g", B, GUARD, [], row(30, 40, 2)),
        dice=[4, 4, 5, 2],  # Warp Charge 4: pool 6; 2 dice, both 4+: Warp Charge 2
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Endurance"),
            ("psychic_target", "T [t]"),
            ("warp_dice", "2 dice"),
            ("psyker", "end phase"),
        ],
    )
    psychic_phase(battle, A)
    model = squad_a.models[0]
    assert feel_no_pain(squad_a, model) == 4
    assert squad_a.has_rule("Relentless") and "Eternal Warrior" in model.rules
    psychic_phase(battle, B)  # the other player's phase changes nothing
    assert feel_no_pain(squad_a, model) == 4
    psychic_phase(battle, A)
    assert feel_no_pain(squad_a, model) is None and model.rules == ()
    assert [e.begins for e in of_kind(battle, "blessing")] == [True, False]
    assert all_dice_used(battle)


FORCE_STAVE = weapon("Force stave", "-", "+2", "4", "Melee, Force")


def test_force_gives_force_weapons_instant_death_until_the_next_psychic_phase() -> None:
    psyker = squad("lib", A, LIBRARIAN, [FORCE_STAVE], [(36, 10)], rules=["Psyker"])
    battle = make_battle(
        psyker,
        squad("g", B, GUARD, [], row(30, 40, 2)),
        dice=[2, 5, 6],  # Warp Charge 2: pools A 2+1=3, B 2; one die of 5: Force manifested
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Force"),
            ("psychic_target", "Lib [lib]"),
            ("warp_dice", "1 dice"),
            ("psyker", "end phase"),
        ],
    )
    psychic_phase(battle, A)
    stave = psyker.models[0].weapon("Force stave")
    assert stave is not None and weapon_of(stave).has_rule("Instant Death")
    psychic_phase(battle, A)  # next phase: Force ends first (the 6 rolls the Warp Charge)
    stave = psyker.models[0].weapon("Force stave")
    assert stave == FORCE_STAVE and not weapon_of(stave).has_rule("Instant Death")
    assert all_dice_used(battle)


PERFECT_TIMING = Weapon(
    "3 - Perfect Timing",
    {"Warp Charge": "1", "Power Category": "Blessing", "Range": "Self", "Details": "..."},
)
BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")


def test_perfect_timing_gives_the_psyker_and_his_units_weapons_ignores_cover() -> None:
    psyker = make_unit(
        "lib",
        A,
        [Placed(LIBRARIAN, [FORCE_STAVE], (36, 10)), Placed(MARINE, [BOLTGUN], (38, 10))],
        rules=["Psyker"],
    )
    psyker.models[0].powers = (PERFECT_TIMING,)
    battle = make_battle(
        psyker,
        squad("g", B, GUARD, [], row(30, 40, 2)),
        dice=[1, 4, 3],  # Warp Charge 1: pool 2; one die of 4: manifested; next phase rolls 3
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Perfect Timing"),
            ("psychic_target", "Lib [lib]"),
            ("warp_dice", "1 dice"),
            ("power", "stop"),  # he knows Force too (his force stave)
            ("psyker", "end phase"),
        ],
    )
    psychic_phase(battle, A)

    def ignoring(model_index: int, name: str) -> bool:
        gun = psyker.models[model_index].weapon(name)
        return gun is not None and weapon_of(gun).has_rule("Ignores Cover")

    assert ignoring(0, "Force stave") and ignoring(1, "Boltgun")
    psychic_phase(battle, A)
    assert not ignoring(0, "Force stave") and not ignoring(1, "Boltgun")
    assert all_dice_used(battle)


def test_a_force_weapon_without_a_psyker_rule_knows_no_power() -> None:
    battle = make_battle(
        squad("k", A, MARINE, [FORCE_STAVE], [(36, 10)]), squad("g", B, GUARD, [], [(30, 40)])
    )
    psychic_phase(battle, A)
    assert battle.log.events == []


def test_feel_no_pain_may_ignore_the_perils_wound() -> None:
    psyker = squad(
        "lib", A, LIBRARIAN, [FORCE_STAVE], [(36, 10)], rules=["Psyker", "Feel No Pain (5+)"]
    )
    battle = make_battle(
        psyker,
        squad("g", B, GUARD, [], row(30, 40, 2)),
        # Warp Charge 1: pool 2; 6 6: Perils, table 4 (Psychic Backlash, one Wound);
        # Feel No Pain 5+ rolls 5
        dice=[1, 6, 6, 4, 5],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Force"),
            ("psychic_target", "Lib [lib]"),
            ("warp_dice", "2 dice"),
        ],
    )
    psychic_phase(battle, A)
    assert psyker.models[0].wounds_left == 2
    assert [e.saved for e in of_kind(battle, "save")] == [True]
    assert all_dice_used(battle)


def test_the_importer_reads_power_profiles_and_the_mastery_level() -> None:
    sheet = unit_from_file(ROSTER, "Librarian")
    assert "Psyker (Mastery Level 2)" in sheet.rules
    assert [p.name for p in sheet.entries[0].powers] == [
        "(Primaris) Smite",
        "5 - Endurance",
        "2 - Enfeeble",
    ]
    problems = get_ruleset("waffle").validate_datasheet(sheet)
    assert problems == []  # Enfeeble, a Malediction, is played (maledictions.py)
    shown = CliRunner().invoke(app, ["import", str(ROSTER), "--json"])
    assert json.loads(shown.output)[0]["profiles"][0]["powers"] == [
        "(Primaris) Smite",
        "5 - Endurance",
        "2 - Enfeeble",
    ]


def test_the_psychic_duel_example_plays_powers_and_denies(tmp_path: Path) -> None:
    # Seed 3: at seed 1 the Librarian, who since branch issue9-heur5 holds
    # rather than Run at the Zoanthropes in turn 1 (docs/ai.md, "A Run weighs
    # the charge it walks into"), is charged and slain that turn, before the
    # second Psychic phase in which he cast his Blessing.
    log = tmp_path / "duel.jsonl"
    example = ROOT / "examples" / "psychic_duel.toml"
    played = CliRunner().invoke(
        app, ["battle", str(example), "--seed", "3", "--log-json", str(log)]
    )
    assert played.exit_code == 0, played.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    kinds = {e["kind"] for e in events}
    assert {"warp_charge", "psychic_test", "deny_the_witch", "blessing"} <= kinds
    tests = [e for e in events if e["kind"] == "psychic_test"]
    assert {t["power"] for t in tests} <= {"Smite", "Endurance", "Force", "Enfeeble"}
    assert any(e["kind"] == "casualty" and e["cause"].startswith("Smite") for e in events)
    assert "Enfeeble (Malediction) not implemented" not in " ".join(played.output.split())
    assert any(e["kind"] == "malediction" and e["power"] == "Enfeeble" for e in events)


def test_an_unknown_power_in_a_scenario_is_one_error_line(tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(
        'name = "bad"\nruleset = "waffle"\n[plan]\nphases = ["psychic"]\n'
        '[[players]]\nname = "A"\n[[players]]\nname = "B"\nedge = "north"\n'
        '[[units]]\nid = "lib"\nplayer = "A"\nposition = [36, 10]\n'
        '[units.inline]\nname = "Librarian"\nrules = ["Psyker"]\n'
        "[[units.inline.models]]\n"
        'name = "Librarian"\n'
        'profile = { WS = 5, BS = 4, S = 4, T = 4, W = 2, I = 4, A = 2, Ld = 10, Sv = "3+" }\n'
        'powers = ["Smite"]\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["battle", str(scenario)])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"error: {scenario}: units[0].inline.models[0].powers: unknown psychic power 'Smite'; "
        "the unit declares: none"
    ]


def test_the_aegis_rerolls_deny_the_witch_results_of_1() -> None:
    """The Aegis: "A unit that contains at least one model with this special rule
    re-rolls results of 1 when making Deny the Witch tests." Deny dice 2 and 1 on
    5+: only the 1 is re-rolled, a 5, so one success matches the test's one."""
    knights = squad(
        "gk", B, GUARD, [], row(36, 20, 3), rules=["Psyker (Mastery Level 2)", "The Aegis"]
    )
    battle = make_battle(
        librarian(SMITE),
        knights,
        # pools A 3, B 3; test 4 1: one success; deny 2 1 on 5+; The Aegis re-rolls the 1: 5
        dice=[1, 4, 1, 2, 1, 5],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "Gk [gk]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "2 dice")],
    )
    psychic_phase(battle, A)
    deny = of_kind(battle, "deny_the_witch")[0]
    assert (deny.rolls, deny.rerolled, deny.successes, deny.denied) == ((2, 5), (1,), 1, True)
    assert of_kind(battle, "shots") == []
    assert all_dice_used(battle)


def test_purity_of_spirit_is_not_reported_and_a_double_below_6_is_no_perils() -> None:
    """Purity of Spirit (Warhammer40K.gst): "Grey Knights Psykers only suffer Perils of
    the Warp if two or more 6s are rolled when taking a psychic test" — which is
    hammerlab's only Perils rule (the Daemonology double is not played), so the rule
    changes nothing: a test of 5 5 manifests Smite without Perils."""
    assert unsupported_unit_rules(("Purity of Spirit",)) == []
    battle = make_battle(
        librarian(SMITE),
        squad("g", B, GUARD, [], row(36, 20, 5)),
        # Warp Charge; 5 5 (two successes, no Perils); Smite's 4 shots miss
        dice=[1, 5, 5, 1, 1, 1, 1],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "G [g]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "0 dice")],
    )
    battle.unit("lib").models[0].rules = ("Purity of Spirit",)
    psychic_phase(battle, A)
    test: PsychicTest = of_kind(battle, "psychic_test")[0]
    assert test.passed and not test.perils
    assert battle.unit("lib").models[0].wounds_left == 2
    assert all_dice_used(battle)
