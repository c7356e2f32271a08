"""One meaning for a rule setting everywhere: what ``--rule`` and ``[rules]`` accept,
what a parameter's setting does to its rule, and how ``rulesets`` shows the values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.lab import arms, compare, play_once
from hammerlab.analysis.report import lab_report_html
from hammerlab.analysis.sweep_grid import cases, parse_axes, switched_on
from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset
from hammerlab.engine.rules import (
    Parameter,
    ParamValue,
    RuleOption,
    RuleSettingError,
    RuleSettings,
    resolve_settings,
    rule_flags,
)
from hammerlab.io.scenario import load_scenario


@pytest.mark.parametrize(
    ("parameter", "accepted"),
    [
        (Parameter("p", False, "s", "q"), "on | off"),
        (Parameter("p", "a", "s", "q", choices=("a", "b")), "a | b"),
        (Parameter("p", "a", "s", "q"), "any text"),
        (Parameter("p", 1, "s", "q", minimum=0, maximum=10), "0..10"),
        (Parameter("p", 0.25, "s", "q", minimum=0, maximum=1), "0..1"),
        (Parameter("p", 1, "s", "q", minimum=1), "at least 1"),
        (Parameter("p", 1.5, "s", "q", maximum=2.5), "at most 2.5"),
        (Parameter("p", 1, "s", "q"), "any number"),
    ],
)
def test_a_parameter_says_what_values_it_takes(parameter: Parameter, accepted: str) -> None:
    assert parameter.accepted() == accepted


def test_rulesets_text_shows_the_literal_values_and_bounds() -> None:
    # The declarations: cover worsens the BS (worsen_bs, 11th edition) or improves the
    # save (improve_save, 10th); Fiery Charge gives up 0 to 2 bonus Attacks (1 by
    # default); Final Shot is earned by wound_roll or unsaved_wound; Dive for Cover's
    # without_run is a switch, off by default, which --rule writes on/off.
    result = CliRunner().invoke(app, ["rulesets"], terminal_width=400)
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    starts = [line.split(":", 1)[0] for line in lines]
    assert "cover_effect = worsen_bs (worsen_bs | improve_save)" in starts
    assert ".lost_bonus_attacks = 1 (0..2)" in starts
    assert ".earned_by = wound_roll (wound_roll | unsaved_wound)" in starts
    assert ".without_run = off (on | off)" in starts


# --- a rule's parameter switches the rule on: battle, lab and sweep alike -------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FIERY = EXAMPLES / "lab_fiery_charge_boyz.toml"  # [rules]: fall_back = false
GUARD = EXAMPLES / "guard_suppress_terminators.toml"  # [rules]: suppressive_fire = true
LOST = "fiery_charge.lost_bonus_attacks"


def _waffle(*layers: dict[str, ParamValue]) -> RuleSettings:
    waffle = get_ruleset("waffle")
    return resolve_settings(waffle.options, waffle.parameters, *layers)


def test_setting_a_parameter_switches_its_rule_on_unless_the_same_settings_name_it() -> None:
    implied = _waffle({LOST: "0"})
    assert implied.on("fiery_charge") and implied.implied == {"fiery_charge": LOST}
    named_off = _waffle({"fiery_charge": "off", LOST: "0"})  # a sweep point may do this
    assert not named_off.on("fiery_charge") and named_off.implied == {}
    named_on = _waffle({"fiery_charge": "on", LOST: "0"})
    assert named_on.on("fiery_charge") and named_on.implied == {}
    # a later layer decides: the command line's parameter over the file's off ...
    assert _waffle({"fiery_charge": False}, {LOST: "0"}).on("fiery_charge")
    # ... and the command line's off over the file's parameter
    later_off = _waffle({LOST: 0}, {"fiery_charge": "off"})
    assert not later_off.on("fiery_charge") and later_off.implied == {}
    # a rule on by default is not news
    assert _waffle({"dive_for_cover.fearless": "may_not"}).implied == {}


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (["fiery_charge=off", f"{LOST}=0"], f"{LOST}=0: fiery_charge=off is given too"),
        ([f"{LOST}=0", "fiery_charge=no"], f"{LOST}=0: fiery_charge=no is given too"),
        (["fiery_charge", "fiery_charge=on"], "fiery_charge is given twice"),
    ],
)
def test_rule_flags_refuse_a_contradiction_or_a_key_twice(flags: list[str], problem: str) -> None:
    with pytest.raises(RuleSettingError, match=problem):
        rule_flags(flags)
    result = CliRunner().invoke(app, ["battle", str(FIERY), *[f"--rule={f}" for f in flags]])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --rule: ") and len(result.stderr.splitlines()) == 1


def test_battle_plays_a_parameter_s_rule_as_the_lab_s_arm_does() -> None:
    args = ["battle", str(FIERY), "--rule", f"{LOST}=0", "--seed", "1"]
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert "fiery_charge" in document["rules_on"]
    assert document["parameters_changed"] == {LOST: 0}
    spec = load_scenario(FIERY)
    variant = arms(spec, [f"{LOST}=0"]).variant
    lab = play_once(spec, str(FIERY), variant, seed=1)
    assert {u["id"]: u["models_left"] for u in document["units"]} == lab.models_left
    text = CliRunner().invoke(app, args, terminal_width=300).stdout
    assert f"fiery_charge (switched on by {LOST})" in text


def test_a_file_that_sets_a_parameter_of_a_rule_it_switches_off_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "off.toml"
    text = FIERY.read_text(encoding="utf-8")
    path.write_text(text.replace("[rules]\n", f'[rules]\nfiery_charge = false\n"{LOST}" = 0\n'))
    result = CliRunner().invoke(app, ["battle", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}: rules: {LOST}=0: fiery_charge=False")


def test_an_option_on_without_the_option_it_changes_is_refused() -> None:
    # An option that installs only on another's hook points (RuleOption.requires) would
    # be reported on and change nothing without it: refused, whatever layer leaves it so.
    loud = RuleOption("loud", "Loud", "House rule")
    louder = RuleOption("louder", "Louder", "House rule", requires="loud")
    assert resolve_settings((loud, louder), (), {"loud": True, "louder": True}).on("louder")
    assert not resolve_settings((louder,), (), {}).on("louder")  # off: nothing to ask
    with pytest.raises(RuleSettingError, match="louder is on but loud is off"):
        resolve_settings((loud, louder), (), {"louder": True})
    with pytest.raises(RuleSettingError, match="louder is on but loud is off"):
        resolve_settings((loud, louder), (), {"loud": True, "louder": True}, {"loud": "off"})
    with pytest.raises(RuleSettingError, match="louder changes the rule 'loud', which this"):
        resolve_settings((louder,), (), {"louder": True})
    # Suppressive Fire's sub-options: one line of error, and rulesets says what they need
    result = CliRunner().invoke(app, ["battle", str(FIERY), "--rule", "shock_troops"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --rule: shock_troops is on but suppressive_fire is off: shock_troops "
        "changes only what suppressive_fire does, so it would change nothing; switch "
        "suppressive_fire on too, or shock_troops off\n"
    )
    listed = CliRunner().invoke(app, ["rulesets"], terminal_width=400).output
    assert "  suppressive_pinning (default off; needs suppressive_fire): " in listed


def test_a_sweep_point_s_parameter_switches_its_rule_on_unless_the_rule_is_an_axis() -> None:
    spec = load_scenario(FIERY)
    only_parameter = cases([(spec, str(FIERY))], parse_axes([f"{LOST}=0,2"]))
    both = cases([(spec, str(FIERY))], parse_axes(["fiery_charge=off,on", f"{LOST}=0"]))
    played = [
        prepare(c.scenario, c.source, 1, c.settings).battle.options["fiery_charge"]
        for c in (*only_parameter, *both)
    ]
    assert played == [True, True, False, True]
    assert switched_on(parse_axes([f"{LOST}=0,2"]), [spec]) == {"fiery_charge": LOST}
    assert switched_on(parse_axes(["fiery_charge=off,on", f"{LOST}=0"]), [spec]) == {}


# --- what each arm of the lab plays -----------------------------------------------------


def test_the_lab_states_each_arm_s_setting_against_the_file_s() -> None:
    # The Guard file switches Suppressive Fire on; `--rule suppressive_fire` compares
    # it off (baseline) with on (variant), so the baseline overrides the file.
    args = ["lab", str(GUARD), "--rule", "suppressive_fire", "--runs", "2"]
    text = CliRunner().invoke(app, args, terminal_width=300).stdout
    said = "baseline: suppressive_fire=off (the file: on); variant: suppressive_fire=on"
    assert said in text.splitlines()
    # The README names that line by how it starts: "the second line" it said was the
    # third (the title and the Scenario file: line first), the fourth with a plug-in
    # (a stranger's review, s24).
    readme = " ".join((EXAMPLES.parent / "README.md").read_text(encoding="utf-8").split())
    assert "A line under the report's title, the one that starts with `baseline:`" in readme
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert document["arms"] == [
        {
            "key": "suppressive_fire",
            "baseline": "off",
            "variant": "on",
            "file": "on",
            "switched_on_by": None,
        }
    ]


def test_the_lab_says_a_parameter_switched_its_rule_on_in_both_arms() -> None:
    # Fiery Charge is off by default and the file does not name it; its parameter's
    # default is 1 bonus Attack lost.
    spec = load_scenario(FIERY)
    report = compare(spec, str(FIERY), arms(spec, [f"{LOST}=0"]), runs=1)
    assert report.arms_text == (
        f"baseline: {LOST}=1; variant: {LOST}=0; both arms: fiery_charge=on (switched on by {LOST})"
    )
    shared = compare(spec, str(FIERY), arms(spec, ["charge_dice=3"], [f"{LOST}=0"]), runs=1)
    assert shared.arms_text == (
        f"baseline: charge_dice=2; variant: charge_dice=3; "
        f"both arms: fiery_charge=on (switched on by {LOST})"
    )
    assert "the rules as they are" not in lab_report_html(report)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        # 'supressive_fire': suppressive_fire less a 'p'; suppressive_pinning shares its
        # first word. 'chrge_dice': charge_dice less an 'a'. 'suppressive_fir.x': the
        # rule part of NAME.PARAM, suppressive_fire less its 'e'.
        (["--rule", "supressive_fire"],
         "unknown rule or parameter 'supressive_fire' "
         "(did you mean: suppressive_fire, suppressive_pinning); known: charge_dice, "),
        (["--rule", "chrge_dice=3"],
         "unknown rule or parameter 'chrge_dice' (did you mean: charge_dice); known: "),
        (["--rule", "suppressive_fir.ld_penalty_per_wound=2"],
         "unknown rule 'suppressive_fir' (did you mean: suppressive_fire, "),
    ],
)  # fmt: skip
def test_a_misspelt_rule_name_is_followed_by_the_names_it_may_have_meant(
    flags: list[str], said: str
) -> None:
    # A newcomer's review (s23): `--rule supressive_fire` listed all 26 names,
    # alphabetical, where a misspelt unit, ruleset or plug-in parameter gets "did you
    # mean" with the closest first (docs/scenarios.md promises it for rules too).
    scenario = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"
    result = CliRunner().invoke(app, ["battle", str(scenario), *flags])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --rule: {said}"), result.stderr


def test_a_misspelt_rule_in_a_scenario_file_is_followed_by_the_names_it_may_have_meant(
    tmp_path: Path,
) -> None:
    # The same review: a scenario's [rules] typo gave the same whole list.
    source = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"
    text = source.read_text(encoding="utf-8").replace(
        "suppressive_fire = true", "supressive_fire = true"
    )
    assert "supressive_fire = true" in text
    scenario = tmp_path / "typo.toml"
    scenario.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["battle", str(scenario)])
    assert result.exit_code != 0
    assert "'supressive_fire' (did you mean: suppressive_fire" in result.stderr, result.stderr
