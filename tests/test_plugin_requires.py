"""A plug-in rule that ``requires`` another loads, is listed and plays wherever the rule it
requires is on (docs/plugins.md, "The contract": "switched on without it, it is refused
with one line of error, and ``hammerlab rulesets`` says ``needs NAME``"). A rules
writer's review (session 24) found every such plug-in refused at load: the load-time
check of its hook points switched the rule on alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.analysis.game import Game
from hammerlab.editions.waffle.morale import MORALE_CHECK
from hammerlab.editions.waffle.rules.suppressive_fire import suppression_test
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
STUBBORN = ROOT / "tests" / "plugins" / "stubborn_mob.py"
"""``stubborn_mob``: a unit of 15 models or more ignores Suppressive Fire; requires
``suppressive_fire``."""
HORDE = ROOT / "examples" / "lab_suppressive_fire_horde.toml"
"""Its ``[rules]`` switch ``suppressive_fire`` on; 20 Boyz against two squads of 10."""


def test_a_plug_in_whose_rule_requires_another_loads_and_is_listed_needing_it() -> None:
    code, out, err = run("rulesets", "--plugin", str(STUBBORN))
    assert code == 0, err
    assert "  stubborn_mob (default off; needs suppressive_fire): " in out


@pytest.mark.parametrize(("rule_on", "boyz_test"), [(True, None), (False, MORALE_CHECK)])
def test_the_rule_plays_where_the_rule_it_requires_is_on(
    rule_on: bool, boyz_test: str | None
) -> None:
    # The rule's text: a unit of `mob` (15) models or more ignores Suppressive Fire, so
    # the 20 Boyz take no test for it, and a squad of 10 takes the Morale check as ever.
    game = Game.start(
        load_scenario(HORDE), str(HORDE), 1, rules={"stubborn_mob": rule_on},
        plugins=[str(STUBBORN)],
    )  # fmt: skip
    battle = game.battle
    assert suppression_test(battle, battle.unit("boyz")) == boyz_test
    assert suppression_test(battle, battle.unit("squad1")) == MORALE_CHECK


def test_a_battle_and_a_lab_run_play_the_rule() -> None:
    code, _, err = run("battle", str(HORDE), "--plugin", str(STUBBORN),
                       "--rule", "stubborn_mob", "--seed", "1")  # fmt: skip
    assert code == 0, err
    code, out, err = run("lab", str(HORDE), "--plugin", str(STUBBORN),
                         "--rule", "stubborn_mob", "--runs", "3", "--json")  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["arms"] == [{"key": "stubborn_mob", "baseline": "off", "variant": "on",
                               "file": None, "switched_on_by": None}]  # fmt: skip
    # The arms differ in this rule alone, on the same seeds: a pair that ended
    # otherwise is the rule at work (the Guard cannot suppress the mob).
    assert report["paired_battles_ended_alike"] < 3


def test_switched_on_without_the_rule_it_requires_is_one_line_naming_the_plug_in() -> None:
    code, _, err = run("battle", str(HORDE), "--plugin", str(STUBBORN), "--rule",
                       "stubborn_mob", "--rule", "suppressive_fire=off", "--seed", "1")  # fmt: skip
    assert one_line(code, err, 2) == (
        f"error: --rule: stubborn_mob (a rule of {STUBBORN}) is on but suppressive_fire is "
        "off: stubborn_mob changes only what suppressive_fire does, so it would change "
        "nothing; switch suppressive_fire on too, or stubborn_mob off"
    )


ROAR = """from hammerlab.engine.rules import RuleOption
RULESET = "waffle"
RULES = (RuleOption("req_roar", "s", "House rule", install=lambda hooks, settings: None),)
"""
ECHO = """from hammerlab.editions.waffle.points import LEADERSHIP
from hammerlab.engine.rules import RuleOption


def install(hooks, settings):
    hooks.add(LEADERSHIP, lambda battle, unit, ld: ld)


RULESET = "waffle"
RULES = (RuleOption("req_echo", "s", "House rule", install=install, requires="req_roar"),)
"""


def test_a_rule_may_require_another_plug_in_s_rule_given_before_or_after_it(
    tmp_path: Path,
) -> None:
    roar, echo = tmp_path / "roar.py", tmp_path / "echo.py"
    roar.write_text(ROAR, "utf-8")
    echo.write_text(ECHO, "utf-8")
    for first, second in ((echo, roar), (roar, echo)):
        code, out, err = run("rulesets", "--plugin", str(first), "--plugin", str(second))
        assert code == 0, err
        assert "  req_echo (default off; needs req_roar): s" in out
    scenario = str(ROOT / "examples" / "whole_game_three_turns.toml")
    both = ("--plugin", str(echo), "--plugin", str(roar))
    code, _, err = run("battle", scenario, *both, "--rule", "req_echo", "--seed", "1")
    assert one_line(code, err, 2) == (
        f"error: --rule: req_echo (a rule of {echo}) is on but req_roar is off: req_echo "
        "changes only what req_roar does, so it would change nothing; switch req_roar on "
        "too, or req_echo off"
    )
    # Without the file that defines it, the rule it requires is missing: said so.
    code, _, err = run("battle", scenario, "--plugin", str(echo), "--rule", "req_echo",
                       "--seed", "1")  # fmt: skip
    assert one_line(code, err, 2).startswith(
        f"error: --rule: req_echo (a rule of {echo}) changes the rule 'req_roar', which this "
        "ruleset does not have (is the plug-in that defines it given?); known: "
    )


def test_a_rule_that_requires_another_still_has_its_hook_points_checked(
    tmp_path: Path,
) -> None:
    # Switched on with suppressive_fire, its installer runs at load, and the handler
    # it puts on LEADERSHIP (which calls handler(battle, unit, ld)) takes one argument.
    path = tmp_path / "misshapen.py"
    path.write_text(
        ECHO.replace("req_echo", "req_misshapen")
        .replace('"req_roar"', '"suppressive_fire"')
        .replace("lambda battle, unit, ld: ld", "lambda battle: 0"),
        "utf-8",
    )
    code, _, err = run("rulesets", "--plugin", str(path))
    assert one_line(code, err, 1) == (
        f"error: {path}: RULES[req_misshapen]: installs <lambda>(battle) on waffle's hook "
        "point 'leadership', which calls handler(battle, unit, ld): a handler there takes 3 "
        "arguments"
    )
