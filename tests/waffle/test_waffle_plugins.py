"""Rules from outside the package: the two shipped plug-ins and the loading rules.

Each example plug-in is off by default (loading it changes nothing), changes a
seeded battle and a lab result when on, and shows up in ``rulesets --json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from conftest import BOLTGUN, A, B, all_dice_used, dice_purposes, make_battle, profile, squad
from typer.testing import CliRunner

from hammerlab.analysis.lab import arms, compare
from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset, plugins
from hammerlab.editions.base import apply_rules
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.charge import charge_bonus_attacks, reaction_to_charge
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.rules.fiery_charge import fiery_chargers
from hammerlab.editions.waffle.state import st
from hammerlab.engine.rules import RuleOption
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
TERRIFYING = ROOT / "examples" / "rules" / "terrifying_charge.py"
GLORIOUS = ROOT / "examples" / "rules" / "glorious_charge.py"
HOLD = ROOT / "examples" / "rules" / "hold_the_line.py"
STEADY = ROOT / "examples" / "rules" / "steady_aim.py"
HARDY = ROOT / "examples" / "rules" / "hardy_horde.py"
BOYZ = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
GUARD_EXAMPLE = ROOT / "examples" / "guard_suppress_terminators.toml"
COVER = ROOT / "examples" / "matchups" / "hormagaunts_vs_guard_cover.toml"
FEAR = ROOT / "examples" / "rules" / "fear_charge.toml"
OVERWATCH = ROOT / "examples" / "assault_charge_into_overwatch.toml"


def battle_log(tmp_path: Path, scenario: Path, *flags: str) -> str:
    out = tmp_path / "log.jsonl"
    result = CliRunner().invoke(
        app, ["battle", str(scenario), "--seed", "3", "--log-json", str(out), *flags]
    )
    assert result.exit_code == 0, result.output
    header, events = out.read_text(encoding="utf-8").split("\n", 1)
    assert json.loads(header)["kind"] == "game"
    return events


@pytest.mark.parametrize(
    ("plugin", "rule", "scenario"),
    [
        (TERRIFYING, "terrifying_charge", FEAR),
        (GLORIOUS, "glorious_charge", OVERWATCH),
        (HOLD, "hold_the_line", COVER),
        (STEADY, "steady_aim", GUARD_EXAMPLE),
        (HARDY, "hardy_horde", BOYZ),
    ],
)
def test_an_example_plug_in_is_off_by_default_and_changes_the_battle_when_on(
    plugin: Path, rule: str, scenario: Path, tmp_path: Path
) -> None:
    plain = battle_log(tmp_path, scenario)
    loaded = battle_log(tmp_path, scenario, "--plugin", str(plugin))
    on = battle_log(tmp_path, scenario, "--plugin", str(plugin), "--rule", f"{rule}=on")
    assert loaded == plain
    assert on != plain


def test_terrifying_charge_forces_the_fall_back_without_asking() -> None:
    # Seed 004: "certain terrifying creature may force a unit to Fall Back instead
    # of other options". Without the rule B is asked (and answers no reaction);
    # with it B is not asked and falls back.
    plugins.load_plugin_file(TERRIFYING)
    for on in (False, True):
        horrors = squad("a", A, profile(), [], [(30, 20)], name="Horrors", rules=["Fear"])
        guard = squad("b", B, profile(ld=7), [BOLTGUN], [(30, 26)], name="Guard")
        battle = make_battle(
            horrors,
            guard,
            options={"terrifying_charge": on},
            script_b=[("charge_reaction", "no reaction")] * (not on),
            seed=1,
        )
        reaction_to_charge(battle, horrors, guard)
        asked = [e for e in battle.log.events if e.kind == "decision"]
        assert len(asked) == (0 if on else 1)
        assert st(battle, guard).falling_back is on


def test_terrifying_charge_spares_the_brave_and_the_fearless() -> None:
    plugins.load_plugin_file(TERRIFYING)
    for rules, ld, brave in (((), 10, 10), (("Fearless",), 7, 10), ((), 9, 9)):
        horrors = squad("a", A, profile(), [], [(30, 20)], name="Horrors", rules=["Fear"])
        guard = squad("b", B, profile(ld=ld), [BOLTGUN], [(30, 26)], rules=list(rules))
        battle = make_battle(
            horrors,
            guard,
            options={"terrifying_charge": True, "terrifying_charge.brave_ld": brave},
            script_b=[("charge_reaction", "no reaction")],
            seed=1,
        )
        reaction_to_charge(battle, horrors, guard)
        assert not st(battle, guard).falling_back


def test_glorious_charge_raises_the_bonus_and_keeps_the_fiery_charge_cost() -> None:
    plugins.load_plugin_file(GLORIOUS)
    plain = squad("a", A, profile(), [BOLTGUN], [(30, 10)])
    raging = squad("r", A, profile(), [BOLTGUN], [(40, 10)], rules=["Rage"])
    battle = make_battle(plain, raging, options={"glorious_charge": True, "fiery_charge": True})
    plain.status.charged = raging.status.charged = True
    assert (charge_bonus_attacks(battle, plain), charge_bonus_attacks(battle, raging)) == (2, 3)
    fiery_chargers(battle).update({"a", "r"})  # a Fiery Charge costs one Attack
    assert (charge_bonus_attacks(battle, plain), charge_bonus_attacks(battle, raging)) == (1, 2)
    apply_rules(
        battle, get_ruleset("waffle"), {"glorious_charge": True, "glorious_charge.bonus": 4}
    )
    assert charge_bonus_attacks(battle, plain) == 4


def test_lab_results_change_with_each_example_plug_in() -> None:
    plugins.load_plugin_file(TERRIFYING)  # their rules known to arms(), as --plugin makes them
    plugins.load_plugin_file(GLORIOUS)
    fear = load_scenario(FEAR)
    experiment = arms(fear, ["terrifying_charge"])
    # compare() plays the plug-ins it is given, no other file the process loaded
    report = compare(fear, str(FEAR), experiment, runs=12, plugins=[TERRIFYING])
    guard = next(u for u in report.units if "guard" in u.unit)
    assert guard.difference > 0  # falling back spares the Guard the fight
    charge = load_scenario(OVERWATCH)
    experiment = arms(charge, ["glorious_charge"])
    report = compare(charge, str(OVERWATCH), experiment, runs=12, plugins=[GLORIOUS])
    marines = next(u for u in report.units if "tactical" in u.unit)
    assert marines.difference < 0  # more Ork Attacks, fewer Marines left


def test_rulesets_json_lists_plug_in_rules_with_their_parameters() -> None:
    result = CliRunner().invoke(
        app, ["rulesets", "--json", "--plugin", str(TERRIFYING), "--plugin", str(GLORIOUS)]
    )
    assert result.exit_code == 0, result.output
    waffle = json.loads(result.output)["waffle"]
    rules = {o["name"]: o for o in waffle["options"]}
    assert rules["terrifying_charge"]["default"] is False
    assert rules["terrifying_charge"]["source"].endswith("terrifying_charge.py")
    assert rules["glorious_charge"]["parameters"]["bonus"] == {
        "default": 2,
        "type": "int",
        "min": 0,
        "max": 5,
        "summary": "Bonus Attacks a charging unit's models get",
        "quote": "House rule; the 6th/7th-edition charge bonus is +1 Attack",
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (None, "no such plug-in file"),
        ("RULES = ()\n", "RULESET"),
        ("RULESET = 'waffle'\nRULES = [1]\n", "RULES"),
        ("raise ValueError('boom')\n", "the plug-in failed to load"),
        ("import sys\nsys.exit(0)\n", "the plug-in failed to load: SystemExit: 0"),
    ],
)
def test_a_bad_plug_in_is_one_line_error(text: str | None, problem: str, tmp_path: Path) -> None:
    path = tmp_path / "bad_rule.py"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["rulesets", "--plugin", str(path)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and problem in lines[0] and str(path) in lines[0]


BROKEN_INSTALL = """from hammerlab.engine.rules import RuleOption
def install(hooks, settings):
    raise ValueError("install broke")
RULESET = "waffle"
RULES = (RuleOption("broken_rule", "x", "q", install=install),)
"""
"""Off by default: a plug-in stays loaded in the process, and a rule on by default
would break every later battle of the test run."""


def test_a_plug_in_that_fails_in_play_is_one_line_then_its_traceback(tmp_path: Path) -> None:
    # Loaded cleanly, it fails when the battle installs it: the plug-in's bug, said
    # in one line, then the traceback that ends in its own code.
    path = tmp_path / "broken.py"
    path.write_text(BROKEN_INSTALL, encoding="utf-8")
    scenario = Path(__file__).resolve().parents[2] / "examples" / "guard_suppress_terminators.toml"
    flags = ["--plugin", str(path), "--rule", "broken_rule", "--json"]
    result = CliRunner().invoke(app, ["battle", str(scenario), *flags])
    assert result.exit_code == 1
    first, *rest = result.stderr.splitlines()
    # the file and the rule named (the install failed, before the battle began)
    assert (
        first == f"error: {path}: RULES[broken_rule]: its install failed: ValueError: install broke"
    )
    assert rest[0] == "The battle's traceback (where it failed is last):"
    assert str(path) in "\n".join(rest) and rest[-1] == "ValueError: install broke"


LATE_BUG = """from hammerlab.editions.waffle.points import END_OF_TURN
from hammerlab.engine.rules import RuleOption
def _ends(battle, *args, **kwargs):
    if battle.turn >= 2:
        raise ValueError("late plug-in bug")
def install(hooks, settings):
    hooks.add(END_OF_TURN, _ends)
RULESET = "waffle"
RULES = (RuleOption("late_bug", "x", "q", install=install),)
"""


def test_a_resumed_game_s_plug_in_that_fails_is_one_line_then_its_traceback(
    tmp_path: Path,
) -> None:
    # The saved game records its plug-in, which runs when named again with --resume.
    path = tmp_path / "late.py"
    path.write_text(LATE_BUG, encoding="utf-8")
    scenario = Path(__file__).resolve().parents[2] / "examples" / "whole_game_three_turns.toml"
    saved = tmp_path / "game.json"
    first = ["battle", str(scenario), "--plugin", str(path), "--rule", "late_bug"]
    made = CliRunner().invoke(app, [*first, "--stop-after", "1", "--save", str(saved), "--json"])
    assert made.exit_code == 0, made.stderr
    result = CliRunner().invoke(
        app, ["battle", "--resume", str(saved), "--plugin", str(path), "--json"]
    )
    assert result.exit_code == 1
    told, *trace = result.stderr.splitlines()
    assert told == "error: the battle failed: ValueError: late plug-in bug"
    assert trace[-1] == "ValueError: late plug-in bug"


def test_entry_points_register_installed_plug_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    module = ModuleType("house_rules")
    module.RULESET = "waffle"  # type: ignore[attr-defined]
    module.RULES = (RuleOption("house_rule", "a house rule", "none"),)  # type: ignore[attr-defined]

    class Point:
        name, value = "house", "house_rules"

        def load(self) -> ModuleType:
            return module

    def found(group: str) -> list[Point]:
        return [Point()] if group == plugins.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(plugins, "entry_points", found)
    monkeypatch.setattr(plugins, "_ENTRY_POINTS_SEEN", [])
    monkeypatch.setattr(plugins, "_ENTRY_POINT_RULES", {})
    names = [o.name for o in get_ruleset("waffle").options]
    assert "house_rule" in names


@pytest.mark.parametrize("name", ["suppressive_fire", "charge_dice"])
def test_a_plug_in_rule_named_like_the_ruleset_s_own_is_refused_whole(
    name: str, tmp_path: Path
) -> None:
    # A built-in option (suppressive_fire) or ruleset parameter (charge_dice) of waffle:
    # refused when the plug-in loads, naming it and the ruleset, and the plug-in's
    # other rule (listed first) is not added either.
    path = tmp_path / "p_dup.py"
    path.write_text(
        "from hammerlab.engine.rules import RuleOption\n"
        "RULESET = 'waffle'\n"
        f"RULES = (RuleOption('house_first', 'a', 'b'), RuleOption({name!r}, 'dup', 'c'))\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["rulesets", "--plugin", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"error: {path}: RULES[{name}]: already defined by the waffle ruleset\n"
    names = [o.name for o in get_ruleset("waffle").options]
    assert names.count("suppressive_fire") == 1 and "house_first" not in names


@pytest.mark.parametrize("kind", ["plans", "key", "answer", "my_war_cry"])
def test_a_plug_in_decision_the_ai_has_no_heuristic_for_gets_its_first_choice(kind: str) -> None:
    # A plug-in author's review: a decision called "plans" was handed the AI's table of
    # plans (a dict) as its heuristic, and the battle crashed.
    from hammerlab.editions.waffle.ai import WaffleAI, answered_kinds
    from hammerlab.engine.decisions import Choice, Decision

    battle = make_battle(squad("a", A, profile("M"), [BOLTGUN], [(10, 10)]))
    decision = Decision(
        kind=kind, player=A, prompt="?", choices=(Choice("no", 0), Choice("yes", 1))
    )
    assert WaffleAI().choose(battle, decision) == 0
    assert kind not in answered_kinds(WaffleAI) and "aim" in answered_kinds(WaffleAI)


def test_steady_aim_rerolls_the_1s_of_a_unit_that_has_not_moved_and_names_itself() -> None:
    # A Marine (BS4: 3+) fires a boltgun: its 1 is re-rolled (3: a hit) while it has
    # not moved; once it has, the 1 stands. The re-roll names the rule in the log.
    plugins.load_plugin_file(STEADY)
    for moved in (False, True):
        marine = squad("a", A, profile(), [BOLTGUN], [(30, 10)])
        target = squad("b", B, profile(), [], [(30, 30)])
        battle = make_battle(marine, target, dice=[1] if moved else [1, 3, 1],
                             options={"steady_aim": True})  # fmt: skip
        battle.phase = "shooting"
        marine.status.moved = moved
        fire_weapon(battle, marine, target, BOLTGUN.name, FireOrders())
        rerolled = "re-roll 1s (Steady Aim) (Boltgun, 3+)" in dice_purposes(battle)
        assert rerolled is not moved and all_dice_used(battle)
