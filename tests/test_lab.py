"""The rules lab: paired baseline/variant runs of the real engine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dask_kit import local_dask
from hammerlab.analysis.lab import (
    DRAW,
    FlagError,
    Outcome,
    arms,
    compare,
    play_once,
    win_comparison,
)
from hammerlab.analysis.runners import Batch, Done, Runner
from hammerlab.analysis.stats import mean_interval
from hammerlab.analysis.store import ResultStore
from hammerlab.analysis.sweep_grid import SweepError
from hammerlab.cli.app import app
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RUINS = EXAMPLES / "marines_vs_orks_ruins.toml"
GUARD = EXAMPLES / "guard_suppress_terminators.toml"


def test_paired_interval_by_hand() -> None:
    # Differences 1, 2, 3: mean 2, sample sd 1, half-width t·1/√3 with t = 4.302653, the
    # 95% quantile of Student's t with 2 degrees of freedom (√(2·0.95²/(1 - 0.95²)),
    # its closed form; the tables' 4.303): 4.302653 / 1.732051 = 2.484138.
    paired = mean_interval([1.0, 2.0, 3.0], -10, 10)
    assert paired.mean == 2.0
    assert paired.low == pytest.approx(2.0 - 2.484138, abs=1e-5)
    assert paired.high == pytest.approx(2.0 + 2.484138, abs=1e-5)


def test_a_rule_that_cannot_act_changes_nothing_with_common_random_numbers() -> None:
    # Fiery Charge only acts in the assault phase; the ruins scenario plays the
    # shooting phase only, so with the same seeds both arms play identical battles.
    spec = load_scenario(RUINS)
    # Every paired difference is 0, and 6 pairs cannot show that all are: the chance
    # of a pair ending otherwise is up to Wilson's 0 of 6, z² / (6 + z²) = 3.8415 /
    # 9.8415 = 0.3903, and such a pair differs by at most the models fielded either
    # way, so the interval is ±0.3903 × fielded (not the zero width it was).
    report = compare(spec, str(RUINS), arms(spec, ["fiery_charge"]), runs=6)
    for unit in report.units:
        assert unit.difference == 0.0
        bound = 0.390334 * unit.models_fielded
        assert unit.ci95 == pytest.approx((-bound, bound), abs=1e-5)
        assert unit.alike
        assert unit.baseline_mean == unit.variant_mean
    assert report.baseline_wins == report.variant_wins
    assert sum(report.baseline_wins.values()) == pytest.approx(1.0)
    assert report.ended_alike == 6


def test_the_battles_that_ended_alike_are_counted_seed_by_seed() -> None:
    # Each seed played in both arms on its own (play_once), compared here: the
    # report counts the seeds whose models left and winner agree.
    spec = load_scenario(GUARD)
    experiment = arms(spec, ["suppressive_fire"])
    report = compare(spec, str(GUARD), experiment, runs=8)
    pairs = [
        (play_once(spec, str(GUARD), experiment.baseline, seed),
         play_once(spec, str(GUARD), experiment.variant, seed))
        for seed in range(1, 9)
    ]  # fmt: skip
    alike = [b.models_left == v.models_left and b.winner == v.winner for b, v in pairs]
    assert report.ended_alike == sum(alike)
    assert report.to_dict()["paired_battles_ended_alike"] == sum(alike)


def test_cli_lab_says_when_the_change_made_no_difference() -> None:
    args = ["lab", str(RUINS), "--rule", "fiery_charge", "--runs", "3"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": None})  # tables unwrapped
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "ended alike (every unit's models left, and the winner): 3 of 3." in text
    assert "made no difference to any of them" in text


def test_workers_give_the_same_report_as_one_process() -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    one = compare(spec, str(RUINS), experiment, runs=4)
    two = compare(spec, str(RUINS), experiment, runs=4, workers=2)
    assert one == two


def test_cli_lab_json_and_plot(tmp_path: Path) -> None:
    chart = tmp_path / "lab.png"
    result = CliRunner().invoke(
        app,
        [
            "lab",
            str(RUINS),
            "--rule",
            "suppressive_fire",
            "--runs",
            "3",
            "--json",
            "--plot",
            str(chart),
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["runs"] == 3 and report["rule"] == "suppressive_fire"
    assert {u["unit"] for u in report["units"]} >= {"Tactical Squad [tactical]"}
    # each unit by its id too, as sweep --json names units (a rules writer's review)
    assert [u["id"] for u in report["units"]] == [u.id for u in load_scenario(RUINS).units]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_lab_unknown_rule_is_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["lab", str(RUINS), "--rule", "no_such_rule", "--runs", "2"])
    assert result.exit_code == 2  # a usage error, as the issue asks: never silently "off"
    assert result.stderr.strip().startswith(
        f"error: --rule: {RUINS} (ruleset waffle): unknown rule or parameter 'no_such_rule'"
    )
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("flags", "flag", "name"),
    [(["--rule", "suppressive_fire"], "--rule", "suppressive_fire"),
     (["--rule", "cover_effect=on", "--set", "fiery_charge=on"], "--set", "fiery_charge")],
)  # fmt: skip
def test_cli_lab_a_rule_of_another_ruleset_names_the_scenario_and_its_ruleset(
    flags: list[str], flag: str, name: str
) -> None:
    # An input review: a Waffle rule given for a core11 scenario read as if no such
    # rule existed; sweep names the file and its ruleset (sweep_grid.in_ruleset). core11's
    # one rule setting is cover_effect (hammerlab rulesets).
    core11 = EXAMPLES / "core11_whole_turn.toml"
    result = CliRunner().invoke(app, ["lab", str(core11), *flags, "--runs", "2"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"error: {flag}: {core11} (ruleset core11): unknown rule or parameter {name!r}; "
        "known: cover_effect (a plug-in's rule? add --plugin FILE)\n"
    )


def test_cli_lab_knows_no_rule_of_a_plug_in_it_was_not_given(tmp_path: Path) -> None:
    # Plug-ins are scoped to the games that name them (session 22), but the lab's flags
    # were checked with every file the process had loaded: a core11 plug-in loaded
    # earlier (by another caller of the library, or another test) made its rule known
    # to a lab not given it, and its name appeared among those "known"; and the hint to
    # add --plugin went missing once any file had been loaded in the process.
    from hammerlab.editions.plugins import load_plugin_file

    plugin = tmp_path / "elsewhere_rule.py"
    plugin.write_text(
        'from hammerlab.engine.rules import RuleOption\nRULESET = "core11"\n'
        'RULES = (RuleOption("elsewhere_rule", "a rule", "House rule"),)\n',
        encoding="utf-8",
    )
    load_plugin_file(plugin)
    core11 = EXAMPLES / "core11_whole_turn.toml"
    result = CliRunner().invoke(app, ["lab", str(core11), "--rule", "elsewhere_rule"])
    assert (result.exit_code, result.stdout) == (2, "")
    # The hint is for a command given no --plugin, whatever the process loaded before.
    assert result.stderr == (
        f"error: --rule: {core11} (ruleset core11): unknown rule or parameter "
        "'elsewhere_rule'; known: cover_effect (a plug-in's rule? add --plugin FILE)\n"
    )


class _NothingToPlay(Runner):
    """A runner that fails if asked to play any battle (a resume must read them all)."""

    def run(self, batches: Sequence[Batch], done: Done) -> None:
        assert not batches


def test_lab_out_stores_both_arms_and_resume_reads_them_back(tmp_path: Path) -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    plain = compare(spec, str(RUINS), experiment, runs=4)
    with ResultStore(tmp_path / "store") as store:
        stored = compare(spec, str(RUINS), experiment, runs=4, store=store)
    assert stored == plain
    with ResultStore(tmp_path / "store") as store:
        # Seeds 1..4 in both arms: 8 battles.
        with pytest.raises(
            SweepError, match=r"already holds 8 of the battles .* \(seeds 1\.\.4, at 2 of 2"
        ):
            compare(spec, str(RUINS), experiment, runs=4, store=store)
        again = compare(
            spec, str(RUINS), experiment, runs=4, store=store, resume=True,
            runner=_NothingToPlay(1),
        )  # fmt: skip
    assert again == plain


def test_lab_with_keyed_dice_says_so_and_stores_them_apart(tmp_path: Path) -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    with ResultStore(tmp_path / "store") as store:
        compare(spec, str(RUINS), experiment, runs=3, store=store)
        keyed = compare(spec, str(RUINS), experiment, runs=3, store=store, dice="keyed")
    assert keyed.dice == "keyed" and keyed.to_dict()["dice"] == "keyed"


def test_cli_lab_out_resume_and_dice_flags(tmp_path: Path) -> None:
    base = ["lab", str(RUINS), "--rule", "suppressive_fire", "--runs", "3", "--json"]
    out = ["--out", str(tmp_path / "store")]
    first = CliRunner().invoke(app, [*base, *out])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(app, [*base, *out, "--resume"])
    assert again.exit_code == 0, again.output
    played, reused = json.loads(first.stdout), json.loads(again.stdout)
    # 3 seeds in 2 arms: 6 battles, played the first time and read back the second.
    assert (played.pop("store")["played"], reused.pop("store")["reused"]) == (6, 6)
    assert reused == played
    assert "store" not in json.loads(CliRunner().invoke(app, base).stdout)
    refused = CliRunner().invoke(app, [*base, *out])
    assert refused.exit_code == 2 and "give --resume" in refused.stderr
    for flags, message in (
        (["--resume"], "--resume: needs --out DIR"),
        (["--dice", "loaded"], "--dice: must be single or keyed"),
        (["--dice", "keyed", "--ai", "search"], "--dice: keyed dice are for the heuristic AI"),
    ):
        result = CliRunner().invoke(app, [*base, *flags])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().startswith(f"error: {message}"), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_lab_on_a_dask_local_cluster_gives_the_same_report() -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    here = compare(spec, str(RUINS), experiment, runs=4)
    with local_dask() as dask:
        there = compare(spec, str(RUINS), experiment, runs=4, runner=dask)
    assert there == here


# --- win rates with intervals ---------------------------------------------------------


def test_win_rates_and_their_paired_difference_by_hand() -> None:
    # Four seeds. Baseline winners A, B, A, draw; variant winners A, A, A, B.
    # A: baseline 2 of 4, variant 3 of 4; per-seed differences 0, 1, 0, 0: mean
    # 0.25, sample sd sqrt((3 * 0.25² + 0.75²) / 3) = 0.5, half-width
    # t * 0.5 / sqrt(4) = 0.795612, t = 3.182446 the 95% quantile of Student's t with
    # 3 degrees of freedom (the tables' 3.182): -0.545612..1.045612, cut at 1.
    # Wilson, z = 1.959964, z² = 3.841459: for 2 of 4 the centre is 0.5 and the
    # half-width z * sqrt(0.25/4 + z²/64) / (1 + z²/4) = 0.349961, so 0.150039..0.849961;
    # for 3 of 4 the centre (0.75 + z²/8) / (1 + z²/4) = 0.627527 and the half-width
    # z * sqrt(0.1875/4 + z²/64) / (1 + z²/4) = 0.326886, so 0.300641..0.954413.
    def outcome(name: str) -> Outcome:
        return Outcome(models_left={}, winner=name)

    baseline = [outcome(n) for n in ("A", "B", "A", DRAW)]
    variant = [outcome(n) for n in ("A", "A", "A", "B")]
    a = win_comparison("A", baseline, variant)
    assert (a.baseline.mean, a.variant.mean, a.difference.mean) == (0.5, 0.75, 0.25)
    assert (a.baseline.low, a.baseline.high) == pytest.approx((0.150039, 0.849961), abs=1e-5)
    assert (a.variant.low, a.variant.high) == pytest.approx((0.300641, 0.954413), abs=1e-5)
    assert (a.difference.low, a.difference.high) == pytest.approx((0.25 - 0.795612, 1.0), abs=1e-5)
    # The draw: 1 of 4, then none; differences 0, 0, 0, -1: mean -0.25, the same sd.
    draw = win_comparison(DRAW, baseline, variant)
    assert draw.difference.mean == -0.25
    assert (draw.difference.low, draw.difference.high) == pytest.approx(
        (-1.0, -0.25 + 0.795612), abs=1e-5
    )
    assert draw.variant.mean == 0.0 and draw.variant.low == 0.0


def test_the_report_gives_each_arm_s_win_rate_and_the_difference() -> None:
    spec = load_scenario(RUINS)
    experiment = arms(spec, ["suppressive_fire"])
    report = compare(spec, str(RUINS), experiment, runs=4)
    pairs = [
        (play_once(spec, str(RUINS), experiment.baseline, seed),
         play_once(spec, str(RUINS), experiment.variant, seed))
        for seed in range(1, 5)
    ]  # fmt: skip
    assert [w.outcome for w in report.wins] == [*(p.name for p in spec.players), DRAW]
    for w in report.wins:
        wins_before = sum(b.winner == w.outcome for b, _ in pairs)
        wins_after = sum(v.winner == w.outcome for _, v in pairs)
        assert (w.baseline.mean, w.variant.mean) == (wins_before / 4, wins_after / 4)
        assert w.difference.mean == (wins_after - wins_before) / 4
        assert w.baseline.n == w.variant.n == w.difference.n == 4
    document = report.to_dict()
    assert document["baseline_wins"] == {w.outcome: w.baseline.mean for w in report.wins}
    assert [w["outcome"] for w in document["win_rates"]] == [w.outcome for w in report.wins]
    assert set(document["win_rates"][0]) == {"outcome", "baseline", "variant", "difference"}


def test_cli_lab_prints_win_rates_with_intervals() -> None:
    args = ["lab", str(RUINS), "--rule", "fiery_charge", "--runs", "3"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": None})  # tables unwrapped
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    # fiery_charge never acts in the ruins (no assault phase): both arms alike, so
    # every difference is +0%. Three pairs cannot show that every pair would be: a
    # pair ending otherwise has a chance up to Wilson's 0 of 3, z² / (3 + z²) =
    # 3.8415 / 6.8415 = 56.1%, and differs by at most 1 (a win against none), so the
    # interval is ±56.1%, said to come from battles all alike (it was +0%..+0%).
    # A third is no whole number of percent: the figures of 3 battles are printed to
    # 0.1%, and the report says they are rounded.
    assert "Baseline (95% CI)" in result.stdout and "Difference (95% CI)" in result.stdout
    assert "+0.0% (-56.1%..+56.1%, all alike)" in text
    assert "all alike: every battle gave the same value" in text
    assert "rounded: a mean of 3 battles is no whole number of 0.01%" in text


# --- what both arms share, and comparisons that measure nothing --------------------------


def test_the_settings_both_arms_share_are_reported() -> None:
    args = ["lab", str(GUARD), "--set", "suppressive_fire=on",
            "--rule", "suppressive_fire.ld_penalty_per_wound=3", "--runs", "2"]  # fmt: skip
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "both arms with suppressive_fire=on" in " ".join(text.stdout.split())
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert document["set_in_both_arms"] == {"suppressive_fire": "on"}
    assert document["rule"] == "suppressive_fire.ld_penalty_per_wound=3"


@pytest.mark.parametrize(
    ("rule", "shared", "flag", "problem"),
    [
        # given to both flags: the baseline would play the change too
        (["suppressive_fire"], ["suppressive_fire=on"], "--rule", "given to --rule and to --set"),
        # the ruleset's default charge_dice is 2 (docs: `hammerlab rulesets`)
        (["charge_dice=2"], [], "--rule", "charge_dice=2: the baseline plays charge_dice=2"),
        # Suppressive Fire's penalty is 1 wound by default
        (["suppressive_fire.ld_penalty_per_wound=1"], [], "--rule",
         "suppressive_fire.ld_penalty_per_wound=1: the baseline plays"),
        # a parameter of a rule switched off in both arms changes nothing
        (["suppressive_fire.ld_penalty_per_wound=3"], ["suppressive_fire=off"], "--rule",
         "suppressive_fire is off in both arms"),
        (["charge_dice=3", "charge_dice=4"], [], "--rule", "charge_dice is given twice"),
        (["fiery_charge"], ["bogus=on"], "--set", "unknown rule or parameter 'bogus'"),
        (["fiery_charge"], ["charge_dice=two"], "--set", "charge_dice=two: expected a whole"),
    ],
)  # fmt: skip
def test_arms_refuse_what_would_measure_nothing_naming_the_flag(
    rule: list[str], shared: list[str], flag: str, problem: str
) -> None:
    spec = load_scenario(GUARD)
    with pytest.raises(FlagError, match=problem) as refused:
        arms(spec, rule, shared)
    assert refused.value.flag == flag


def test_a_parameter_the_scenario_sets_is_the_baseline_s_value() -> None:
    # The scenario's [rules] set charge_dice = 3: comparing 3 measures nothing, 2 does.
    spec = load_scenario(GUARD).model_copy(update={"rules": {"charge_dice": 3}})
    with pytest.raises(FlagError, match="charge_dice=3: the baseline plays charge_dice=3"):
        arms(spec, ["charge_dice=3"])
    assert arms(spec, ["charge_dice=2"]).variant == {"charge_dice": "2"}


def _no_battles(*args: object, **kwargs: object) -> None:
    raise AssertionError("a battle was played")


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--rule", "suppressive_fire", "--set", "suppressive_fire=on"],
         "error: --rule: suppressive_fire is given to --rule and to --set"),
        (["--rule", "charge_dice=2"], "error: --rule: charge_dice=2: the baseline plays"),
        (["--rule", "fiery_charge", "--set", "bogus=on"],
         f"error: --set: {GUARD} (ruleset waffle): unknown rule"),
        (["--rule", "fiery_charge", "--plot", "chart.docx"],
         "error: --plot: chart.docx: cannot draw a chart as .docx; end the name in one of"),
        (["--rule", "fiery_charge", "--plot", "chart"], "error: --plot: chart: the name has no"),
    ],
)  # fmt: skip
def test_cli_lab_refuses_before_playing_any_battle(
    flags: list[str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hammerlab.cli import lab_cmd

    monkeypatch.setattr(lab_cmd, "compare", _no_battles)
    result = CliRunner().invoke(app, ["lab", str(GUARD), *flags, "--runs", "2"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(expected), result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


# --- --precision reached or not ---------------------------------------------------------


def test_lab_says_whether_the_precision_was_reached() -> None:
    final_shot = EXAMPLES / "lab_final_shot_lone_lascannon.toml"
    spec = load_scenario(final_shot)
    experiment = arms(spec, ["final_shot=off"])
    plain = compare(spec, str(final_shot), experiment, runs=10)
    assert (plain.precision, plain.precision_reached) == (None, None)
    short = compare(spec, str(final_shot), experiment, runs=10, precision=1e-9)
    assert short.runs == 10 and short.widest > 0  # the pairs differ: an interval > 0 wide
    assert (short.precision, short.precision_reached) == (1e-9, False)
    loose = compare(spec, str(final_shot), experiment, runs=10, precision=100.0)
    assert loose.precision_reached is True
    args = ["lab", str(final_shot), "--rule", "final_shot=off", "--runs", "10"]
    text = CliRunner().invoke(app, [*args, "--precision", "0.001"])
    assert "Precision 0.001 not reached" in " ".join(text.stdout.split())
    document = json.loads(CliRunner().invoke(app, [*args, "--precision", "100", "--json"]).stdout)
    assert (document["precision"], document["precision_reached"]) == (100.0, True)


# --- rules not implemented ---------------------------------------------------------------

BOYZ = EXAMPLES / "matchups" / "boyz_vs_tactical.toml"


def test_lab_notes_the_rules_not_implemented_as_battle_does() -> None:
    battle = json.loads(CliRunner().invoke(app, ["battle", str(BOYZ), "--json"]).stdout)
    assert "boyz (Ork Boyz): special rule not implemented: Mob Rule" in battle["warnings"]
    args = ["lab", str(BOYZ), "--rule", "fiery_charge", "--runs", "2"]
    document = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    # The battle's notes, first and in order; the lab may add its own (a choice of the
    # rule compared that was never taken in these two runs).
    assert document["warnings"][: len(battle["warnings"])] == battle["warnings"]
    text = CliRunner().invoke(app, args).stdout
    for warning in battle["warnings"]:
        assert f"note: {warning}" in text


# --- the choices of the rules compared -----------------------------------------------------


def test_the_choice_table_lists_the_rule_s_choices_not_every_divergence() -> None:
    # With Fiery Charge compared, the Boyz' melee weapon is a choice in both arms whose
    # counts differ only because the battles parted ways: not listed. Fiery Charge's
    # own choice is, in both arms (never offered in the baseline).
    report = compare(load_scenario(BOYZ), str(BOYZ), arms(load_scenario(BOYZ), ["fiery_charge"]), 6)
    listed = {c.choice for c in report.choices}
    assert listed == {"fiery_charge: Fiery Charge", "fiery_charge: no Fiery Charge"}
    fiery = next(c for c in report.choices if c.choice == "fiery_charge: Fiery Charge")
    assert (fiery.baseline_offered, fiery.baseline_chosen) == (0, 0)
    text = CliRunner().invoke(app, ["lab", str(BOYZ), "--rule", "fiery_charge", "--runs", "6"])
    assert "Choice of a rule given to --rule or --set" in text.stdout
    assert "Big choppa" not in text.stdout


def test_an_action_the_rule_concerns_is_listed_when_both_arms_offer_it() -> None:
    # Suppressive Pinning changes what Suppressive Fire does; --set switches Suppressive
    # Fire on in both arms, so both offer it, and the Guard took it (the horde example,
    # built for it: in the Hormagaunts' matchup, where the Guard's Mortar Squad took it,
    # the mortars shoot instead since a Barrage's estimate takes its target's cover
    # from the marker, the woods' 5+, not from the mortars behind a 4+ wall).
    scenario = EXAMPLES / "lab_suppressive_fire_horde.toml"
    spec = load_scenario(scenario)
    experiment = arms(spec, ["suppressive_pinning"], ["suppressive_fire=on"])
    report = compare(spec, str(scenario), experiment, runs=4)
    rows = {c.choice: c for c in report.choices}
    suppress = rows["action: suppressive fire"]
    assert suppress.baseline_offered > 0 and suppress.variant_offered > 0
    assert suppress.baseline_chosen + suppress.variant_chosen > 0


def test_the_html_lab_report_gives_the_intervals_shared_settings_and_notes() -> None:
    from hammerlab.analysis.report import lab_report_html

    spec = load_scenario(BOYZ)
    experiment = arms(spec, ["fiery_charge.lost_bonus_attacks=0"], ["fiery_charge=on"])
    page = lab_report_html(compare(spec, str(BOYZ), experiment, runs=2))
    assert "both arms with fiery_charge=on" in page
    assert "<th>Baseline [95% CI]</th><th>Variant [95% CI]</th>" in page
    assert "special rule not implemented: Mob Rule" in page


def test_the_unit_tables_name_their_metric_models_left() -> None:
    # A newcomer's review (s23): the unit table's "Models | Baseline | Variant" did not
    # say that the arms' numbers are mean models left (not lost), nor that "Models" is
    # the models fielded; with a rule that raises survival, read as losses, it reads
    # backwards. The text table, the --report page and the web lab's page say it.
    from hammerlab.analysis.report import lab_report_html

    spec = load_scenario(BOYZ)
    report = compare(spec, str(BOYZ), arms(spec, ["fiery_charge"]), runs=2)
    page = lab_report_html(report)
    assert (
        "<th>Models fielded</th><th>Mean models left: baseline</th>"
        "<th>Mean models left: variant</th><th>Difference [95% CI]</th>"
    ) in page
    wide = {"COLUMNS": None}  # tables unwrapped (a header on one line)
    args = ["lab", str(BOYZ), "--rule", "fiery_charge", "--runs", "2"]
    text = CliRunner().invoke(app, args, env=wide)
    header = next(line for line in text.stdout.splitlines() if "Unit" in line)
    heads = [cell.strip() for cell in header.strip("┃ ").split("┃")]
    assert heads[:5] == [
        "Unit", "Models fielded", "Mean models left: baseline", "Mean models left: variant",
        "Difference (95% CI)",
    ]  # fmt: skip
    web = (Path(__file__).resolve().parents[1] / "src/hammerlab/web/templates/lab.html").read_text(
        encoding="utf-8"
    )
    assert "<th>Mean models left: baseline</th><th>Mean models left: variant</th>" in web


def test_the_chart_says_what_its_error_bars_are() -> None:
    from hammerlab.analysis.lab import LabReport, UnitComparison, WinComparison
    from hammerlab.analysis.lab_plot import DIFFERENCE_BAR, WILSON_BAR, lab_figure
    from hammerlab.analysis.stats import Estimate

    # By hand: 4 models left in the baseline, 5 in the variant, the paired difference
    # +1 with its interval +0.5..+1.5, so the bar at the variant spans 4.5..5.5 (the
    # baseline plus the interval's ends). Win rates 20% [10%, 40%] and 60% [30%, 80%].
    unit = UnitComparison("Squad [a]", "A", 10, 10, 4.0, 5.0, 1.0, (0.5, 1.5), 0.0, 0.0)
    wins = (
        WinComparison(
            "A", Estimate(0.2, 0.1, 0.4, 10), Estimate(0.6, 0.3, 0.8, 10), Estimate(0.4, 0, 1, 10)
        ),
    )
    report = LabReport("s", "rule_x", 10, 1, (unit,), wins)
    units_ax, wins_ax = lab_figure(report).axes
    legend = [t.get_text() for t in units_ax.get_legend().get_texts()]
    assert legend == ["baseline", "variant: rule_x", DIFFERENCE_BAR]
    assert "variant − baseline" in DIFFERENCE_BAR and "paired" in DIFFERENCE_BAR
    (difference_bar,) = [c for c in units_ax.collections if c.get_segments()]
    ((_, low), (_, high)) = difference_bar.get_segments()[0]
    assert (low, high) == pytest.approx((4.5, 5.5))
    assert WILSON_BAR in wins_ax.get_title()
    wilson = sorted(
        tuple(round(y, 6) for _, y in c.get_segments()[0])
        for c in wins_ax.collections
        if c.get_segments()
    )
    assert wilson == [(0.1, 0.4), (0.3, 0.8)]


@pytest.mark.parametrize(
    ("dice", "precision", "said"),
    [
        ("keyed", "1000", "Precision 1000 reached: every unit's interval is narrower."),
        ("single", "0.001", "Precision 0.001 not reached: 2 paired battles (--runs) ran out "),
    ],
)
def test_the_lab_page_says_the_dice_and_the_precision_as_the_text_does(
    dice: str, precision: str, said: str, tmp_path: Path
) -> None:
    # A rules writer's review (s24): the page said neither --dice keyed nor --precision,
    # so its seeds replayed with one stream of dice gave other battles, and a stop at
    # --precision read as a fixed-size study. A width of 1000 models is reached by any
    # two battles (20 Boyz and 10 Marines: a unit's two paired differences differ by 40
    # at most, and t(1) = 12.7, so an interval is under 12.7 * 40 wide); one of 0.001 by
    # none (two differences that differ give 12.7 times that wide, two alike the bound
    # an "all alike" interval is given, wider still): --runs runs out.
    import html

    page = tmp_path / "lab.html"
    args = ["lab", str(BOYZ), "--rule", "fiery_charge", "--runs", "2", "--dice", dice,
            "--precision", precision, "--report", str(page)]  # fmt: skip
    text = CliRunner().invoke(app, args, env={"COLUMNS": None})
    assert text.exit_code == 0, text.stderr
    method = next(
        html.unescape(line) for line in page.read_text("utf-8").splitlines() if "Method:" in line
    )
    assert said in text.stdout and said in method
    assert "rounds of 50 until every unit's interval of the paired difference was " in method
    keyed = "Dice keyed by turn, unit and roll (common random numbers)."
    assert (keyed in method) == (dice == "keyed")
    assert (", keyed dice" in text.stdout) == (dice == "keyed")
