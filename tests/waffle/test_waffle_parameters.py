"""Every number the seeds name is a ruleset parameter: defaults, bounds, the CLI
contract, and that a changed value changes what the rules do.

Expected values come from the rules text: the parameter's rule with the new
number substituted, worked out by hand in each test's comment.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BOLTGUN, A, B, make_battle, profile, row, squad, weapon
from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset
from hammerlab.editions.waffle.charge import roll_charge_range
from hammerlab.editions.waffle.morale import phase_casualty_checks
from hammerlab.editions.waffle.rules.reactions import Overwatch
from hammerlab.editions.waffle.state import st
from hammerlab.engine.rules import Parameter, RuleSettingError, resolve_settings

ROOT = Path(__file__).resolve().parents[2]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"
SHORT_RAPID = weapon("Storm rifle", "18", "4", "5", "Rapid Fire")


def test_every_waffle_parameter_has_a_default_within_its_bounds_and_a_quote() -> None:
    waffle = get_ruleset("waffle")
    parameters = list(waffle.parameters)
    parameters += [p for o in waffle.options for p in o.parameters]
    assert len(waffle.parameters) >= 8
    for p in parameters:
        assert p.quote and p.summary
        assert p.coerce(p.default, p.name) == p.default


def test_settings_check_names_types_and_bounds() -> None:
    waffle = get_ruleset("waffle")
    settings = resolve_settings(
        waffle.options,
        waffle.parameters,
        {"charge_dice": "3", "suppressive_fire.wounds_counted": "lost"},
    )
    assert settings.integer("charge_dice") == 3
    assert settings.text("suppressive_fire.wounds_counted") == "lost"
    assert settings.on("suppressive_fire")  # setting a parameter switches its rule on
    for bad, problem in (
        ({"charge_dice": "three"}, "charge_dice=three: expected a whole number$"),
        ({"charge_dice": 9}, "at most 4"),
        ({"morale_threshold": "nan"}, "morale_threshold=nan: expected a number$"),
        ({"suppressive_fire.wounds_counted": "all"}, "one of unsaved, lost"),
        ({"suppressive_fire": "maybe"}, "on or off"),
        ({"suppressive_fire.nope": 1}, "known: ld_penalty_per_wound, wounds_counted"),
    ):
        with pytest.raises(RuleSettingError, match=problem):
            resolve_settings(waffle.options, waffle.parameters, bad)


def test_a_bool_parameter_reads_on_off_words() -> None:
    flag = Parameter("flag", False, "a flag", "none")
    assert flag.coerce("on", "flag") is True
    assert flag.coerce("off", "flag") is False


@pytest.mark.parametrize(
    ("flag", "named"),
    [("suppressive_fire.no_such=1", "no_such"), ("no_such_rule=on", "no_such_rule")],
)
def test_cli_unknown_rule_or_parameter_is_one_line_exit_2(flag: str, named: str) -> None:
    result = CliRunner().invoke(app, ["battle", str(GUARD), "--seed", "1", "--rule", flag])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --rule: ") and named in lines[0]
    assert "Traceback" not in result.output


def test_cli_changing_the_suppressive_penalty_changes_the_log(tmp_path: Path) -> None:
    described = json.loads(CliRunner().invoke(app, ["rulesets", "--json"]).output)
    waffle = described["waffle"]
    suppressive = next(o for o in waffle["options"] if o["name"] == "suppressive_fire")
    name = next(iter(suppressive["parameters"]))
    assert suppressive["parameters"][name]["type"] == "int"
    logs = []
    for value in (0, 3):
        out = tmp_path / f"{value}.jsonl"
        flag = f"suppressive_fire.{name}={value}"
        args = ["battle", str(GUARD), "--seed", "1", "--rule", flag, "--log-json", str(out)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        logs.append(out.read_text(encoding="utf-8"))
    assert logs[0] != logs[1]


@pytest.mark.parametrize(("divisor", "hits"), [(2, 0), (1, 4)])
def test_snap_shot_divisor_sets_the_snap_shot_ballistic_skill(divisor: int, hits: int) -> None:
    # Overwatch is Snap Shots: BS4 // 2 = BS2 hits on 5+, BS4 // 1 = BS4 on 3+.
    # Two models, Rapid Fire within "1"", so 4 shots, all rolling 3.
    shooters = squad("a", A, profile(), [SHORT_RAPID], row(30, 10, 2))
    charger = squad("b", B, profile(sv="-", t=10), [BOLTGUN], row(30, 21, 1))
    battle = make_battle(
        shooters,
        charger,
        dice=[3, 3, 3, 3] + [1] * hits,  # S4 against T10 cannot wound: no wound roll needed
        script_a=[("weapon", "Storm rifle")],
        options={"snap_shot_divisor": divisor},
    )
    Overwatch().resolve(battle, shooters, charger)
    shots = [e for e in battle.log.events if e.kind == "shots"]
    assert [e.to_dict()["hits"] for e in shots] == [hits]


@pytest.mark.parametrize(("count", "charge_range"), [(2, 7), (3, 12)])
def test_charge_dice_sets_how_many_d6_the_charge_range_is(count: int, charge_range: int) -> None:
    # "Roll 2D6": 3 + 4 = 7; with charge_dice=3, 3 + 4 + 5 = 12.
    charger = squad("a", A, profile(), [BOLTGUN], [(30, 10)])
    target = squad("b", B, profile(), [BOLTGUN], [(30, 20)])
    battle = make_battle(charger, target, dice=[3, 4, 5][:count], options={"charge_dice": count})
    rolled = roll_charge_range(battle, charger, target)
    assert (len(rolled.dice), rolled.charge_range) == (count, charge_range)


@pytest.mark.parametrize(("threshold", "tests"), [(0.25, 1), (0.5, 0)])
def test_morale_threshold_sets_the_share_of_casualties_that_forces_a_check(
    threshold: float, tests: int
) -> None:
    # 3 of 10 models lost in the phase: 30% >= 25% tests; 30% < 50% does not.
    unit = squad("a", A, profile(), [BOLTGUN], row(10, 10, 10))
    battle = make_battle(unit, dice=[1, 1] * tests, options={"morale_threshold": threshold})
    st(battle, unit).models_at_phase_start = 10
    st(battle, unit).casualties_this_phase = 3
    phase_casualty_checks(battle, A)
    checks = [e for e in battle.log.events if e.to_dict().get("purpose") == "Morale check (A [a])"]
    assert len(checks) == tests


@pytest.mark.parametrize(
    ("flags", "mean"), [((), 1 / 3), (("--rule", "snap_shot_divisor=1"), 2 / 3)]
)
def test_odds_read_the_snap_shot_parameters(flags: tuple[str, ...], mean: float) -> None:
    # 2 Snap Shots at BS4: BS 4 // 2 = 2 hits on 5+ (1/3), or 4 // 1 = 4 on 3+ (2/3);
    # S4 against T4 wounds on 4+ (1/2); no save: 2 x 1/3 x 1/2 = 1/3, or 2/3.
    args = ["odds", "-r", "waffle", "--attacks", "2", "--bs", "4", "--strength", "4", "--ap", "-",
            "--toughness", "4", "--save", "-", "--wounds", "1", "--target-models", "5",
            "--situation", "snap", "--json", *flags]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["mean_models_killed"] == pytest.approx(mean)


@pytest.mark.parametrize(
    ("ruleset", "flag", "problem"),
    [
        (
            "waffle",
            "charge_dice=3",
            "error: --rule: charge_dice does not change the odds; they read: "
            "overwhelming_strength, snap_shot_divisor, snap_shot_minimum_bs",
        ),
        ("core11", "snap_shot_divisor=1", "error: --rule: core11 odds do not use it"),
    ],
)
def test_odds_refuse_a_rule_they_do_not_read(ruleset: str, flag: str, problem: str) -> None:
    args = ["odds", "-r", ruleset, "--attacks", "1", "--bs", "4", "--strength", "4",
            "--ap", "0" if ruleset == "core11" else "-", "--toughness", "4", "--save", "-",
            "--wounds", "1", "--target-models", "5", "--rule", flag]  # fmt: skip
    if ruleset == "core11":
        args += ["--damage", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2  # a flag's mistake: a usage error, as tables --rule's
    assert result.stderr.splitlines() == [problem]
