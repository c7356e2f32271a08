"""The command line's manners: one JSON document under ``--json``, ``--version``,
a repeated option refused, ``lab --plot`` checked first and written last,
progress bars only on a terminal, the Waffle odds' size bound, one ``--rule``
syntax, datasheet notes before a battle, one default ruleset, lazy imports."""

from __future__ import annotations

import inspect
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from cli_kit import run
from hammerlab.analysis.lab import arms, compare
from hammerlab.analysis.odds import calculator, calculator_names
from hammerlab.analysis.odds_request import OddsAsk
from hammerlab.cli import common, odds_cmd
from hammerlab.cli.app import app
from hammerlab.editions import plugins
from hammerlab.editions.waffle.tables import MELEE_TO_HIT, to_wound_cell
from hammerlab.errors import similar_names
from hammerlab.io.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]
README_TEXT = (ROOT / "README.md").read_text(encoding="utf-8")
RUINS = ROOT / "examples" / "marines_vs_orks_ruins.toml"
THREE_TURNS = ROOT / "examples" / "whole_game_three_turns.toml"
LIBRARY_ODDS = ["odds", "--attacker", "Heavy Weapons Squad", "--weapon", "Lascannon",
                "--target", "Space Marine Captain"]  # fmt: skip


def _one_error_line(code: int, out: str, err: str, expected_code: int) -> str:
    assert code == expected_code, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    return err


# --- one JSON document ------------------------------------------------------------


def test_battle_json_is_one_document_with_the_documented_keys() -> None:
    code, out, err = run("battle", str(RUINS), "--json")
    assert code == 0, err
    document = json.loads(out)  # the whole of stdout: no step log around it
    assert set(document) == {
        "scenario", "ruleset", "seed", "rules_on", "parameters_changed", "units", "victory",
        "scores", "winner", "leading", "wiped_out", "stopped_before_turn", "warnings",
        "saved_game",
    }  # fmt: skip
    spec = tomllib.loads(RUINS.read_text(encoding="utf-8"))
    assert document["seed"] == spec["seed"] and document["ruleset"] == spec["ruleset"]
    assert [u["id"] for u in document["units"]] == [u["id"] for u in spec["units"]]
    assert document["stopped_before_turn"] is None
    for unit in document["units"]:
        assert unit["models_left"] + unit["models_destroyed"] == unit["starting_models"]
    # the scores, from the units alone: by kill points a player scores each enemy unit
    # with no model left; by models destroyed, each enemy model destroyed
    owners = {u["player"] for u in document["units"]}
    assert document["victory"] == spec["plan"].get("victory", "kill_points")

    def scored(unit: dict[str, int]) -> int:
        if document["victory"] == "kill_points":
            return int(unit["models_left"] == 0)
        return unit["models_destroyed"]

    expected = {p: sum(scored(u) for u in document["units"] if u["player"] != p) for p in owners}
    assert document["scores"] == expected
    best = max(expected.values())
    leaders = [p for p, n in expected.items() if n == best]
    assert document["winner"] == (leaders[0] if len(leaders) == 1 else None)
    assert document["leading"] == document["winner"]  # the game is over


def test_battle_json_says_where_the_game_stopped() -> None:
    code, out, _ = run("battle", str(THREE_TURNS), "--seed", "3", "--stop-after", "1", "--json")
    assert code == 0
    assert json.loads(out)["stopped_before_turn"] == 2


def test_a_game_stopped_before_its_end_has_a_leader_not_a_winner() -> None:
    """A user review: "Stopped before turn 2" above "Cadians wins". The leader is
    read off the scores, as the victory condition (models destroyed here) counts."""
    russ = str(ROOT / "examples" / "vehicles_leman_russ.toml")
    args = ("battle", russ, "--seed", "1", "--stop-after", "1")
    code, out, err = run(*args, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["stopped_before_turn"] == 2 and document["winner"] is None
    scores = document["scores"]
    best = max(scores.values())
    leaders = [p for p, n in scores.items() if n == best]
    assert document["leading"] == (leaders[0] if len(leaders) == 1 else None)
    code, text, err = run(*args, "--no-dice")
    assert code == 0, err
    verdict = text.rstrip().splitlines()[-1]
    assert " wins" not in verdict
    assert verdict.endswith(f"{leaders[0]} leads" if len(leaders) == 1 else "level")


def test_units_json_lists_what_the_text_form_lists() -> None:
    code, text, _ = run("units", "--army", "orks")
    code_json, out, _ = run("units", "--army", "orks", "--json")
    assert code == code_json == 0
    document = json.loads(out)
    assert document["ruleset"] == "waffle"
    rows = [line.split("  ")[0] for line in text.splitlines()[2:]]  # under Unit, Army
    assert [u["name"] for u in document["units"]] == rows and rows


def test_show_json_has_profiles_weapons_and_what_is_not_implemented() -> None:
    code, out, _ = run("show", "Tactical Squad", "--json")
    assert code == 0
    sheet = json.loads(out)
    assert {"name", "army", "edition", "models", "weapons", "notes", "not_implemented"} <= set(
        sheet
    )
    assert sheet["name"] == "Tactical Squad"
    assert "Boltgun" in [w["name"] for w in sheet["weapons"]]
    assert any("Combat Squads" in line for line in sheet["not_implemented"])


def test_show_lists_the_rules_a_monstrous_creature_has_by_its_unit_type() -> None:
    # 7th edition: "Monstrous Creatures have the Fear, Hammer of Wrath, Move Through
    # Cover, Relentless and Smash special rules"; the library's Carnifex names none.
    mc = ["Fear", "Hammer of Wrath", "Move Through Cover", "Relentless", "Smash"]
    code, out, _ = run("show", "Carnifex", "--json")
    assert code == 0
    (carnifex,) = json.loads(out)["models"]
    assert (carnifex["unit_type"], carnifex["type_rules"]) == ("Monstrous Creature", mc)
    code, out, _ = run("show", "Carnifex")
    assert code == 0
    assert "by its unit type (Monstrous Creature): " + ", ".join(mc) in " ".join(out.split())
    code, out, _ = run("show", "Tactical Squad", "--json")
    assert all(m["type_rules"] == [] for m in json.loads(out)["models"])


@pytest.mark.parametrize(
    "args",
    [
        ["rulesets", "--json"],
        ["tables", "--json"],
        [*LIBRARY_ODDS, "--json"],
        ["lab", str(RUINS), "--rule", "fiery_charge", "--runs", "2", "--json"],
    ],
)
def test_other_json_commands_print_exactly_one_document(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0
    json.loads(out)


def test_tables_json_reads_the_charts_the_engine_uses() -> None:
    _, out, _ = run("tables", "--json")
    charts = json.loads(out)
    assert charts["melee_to_hit"]["10"]["1"] == MELEE_TO_HIT[9][0]
    assert charts["to_wound"]["3"]["7"] == to_wound_cell(3, 7)


# --- version, help ----------------------------------------------------------------


def test_version_is_the_package_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"hammerlab {project['version']}"


COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
"""Every command the CLI has (a new one is checked without being listed here)."""


def test_every_command_is_checked() -> None:
    assert {"battle", "lab", "odds", "serve", "sweep", "tournament"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_value_names_and_an_example(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Example:" in result.stdout
    for python_type in ("TEXT", "INTEGER", "PATH"):
        assert python_type not in result.stdout, (command, python_type)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_flags_as_flags(command: str) -> None:
    # A newcomer's review (s23): every flag was listed as `--json <bool>`, `--help <bool>`,
    # `--version <bool>`, read as a value to give; but `units orks --json true` is refused.
    # A flag takes no value, so its line names none (typer's `--dice/--no-dice` pair stays).
    words = [command, "--help"] if command else ["--help"]
    shown = CliRunner().invoke(app, words, terminal_width=200).stdout
    assert "<bool>" not in shown
    assert re.search(r"--help +Show this message", shown), shown


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        ("units", "units [OPTIONS] [QUERY]"),  # optional: one pair of brackets, not [[QUERY]]
        ("tables", "tables [OPTIONS] [RULESET]"),
        ("battle", "battle [OPTIONS] [SCENARIO.toml]"),
        ("show", "show [OPTIONS] UNIT"),  # required: bare, not {UNIT}
        ("lab", "lab [OPTIONS] SCENARIO.toml"),
        ("sweep", "sweep [OPTIONS] SCENARIO.toml..."),  # one or more: "..." once
        ("results", "results [OPTIONS] DIR..."),
    ],
)  # fmt: skip
def test_usage_lines_name_arguments_as_click_does(command: str, usage: str) -> None:
    # The same review: `units [OPTIONS] [[QUERY]]`, `show [OPTIONS] {UNIT}`,
    # `sweep [OPTIONS] {SCENARIO.toml...}...`. Expected: click's own convention,
    # NAME required, [NAME] optional, NAME... one or more.
    shown = CliRunner().invoke(app, [command, "--help"], prog_name="hammerlab").stdout
    assert f"Usage: hammerlab {usage} " in shown, shown.splitlines()[:3]


def test_odds_help_names_every_situation_of_every_calculator() -> None:
    for edition in calculator_names():
        names = ", ".join(calculator(edition).situations)
        assert f"{edition}: {names};" in odds_cmd.SITUATION_HELP


@pytest.mark.parametrize("command", ["lab", "sweep"])
def test_help_shows_a_percent_sign_once(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "95%" in result.stdout and "%%" not in result.stdout


# --- click's own usage errors ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["lab", str(RUINS), "--bogus"], "error: no such option: --bogus"),
        (["sweep", str(RUINS), "--vary", "charge_dice=3", "--runs", "many"],
         "error: invalid value for '--runs'"),
        (["lab", str(RUINS)], "error: missing option '--rule'"),
        (["nosuchcommand"], "error: no such command 'nosuchcommand'"),
        (["--bogus"], "error: no such option: --bogus"),
    ],
)  # fmt: skip
def test_click_usage_errors_are_one_line_with_exit_2(args: list[str], expected: str) -> None:
    code, out, err = run(*args)
    line = _one_error_line(code, out, err, 2)
    assert line.startswith(expected), line
    assert "--help)" in line  # where to read more
    assert "╭" not in line and "Usage:" not in line


def test_an_unknown_option_is_said_as_the_readme_quotes_it() -> None:
    # A newcomer's review: the README quotes `error: no such option: --bogus (see
    # hammerlab lab --help)`; click added "(Possible options: --out, --runs)", the
    # options spelt least unlike "--bogus", none of which it meant. A near miss is
    # still helped, as an unknown unit name is: "--seeed" is "--seed" with one e more.
    quoted = re.search(r"`(error: no such option:\s+--bogus \(see [^`]*\))`", README_TEXT)
    assert quoted is not None
    readme = " ".join(quoted[1].split())
    result = CliRunner().invoke(app, ["lab", str(RUINS), "--bogus"], prog_name="hammerlab")
    assert (result.exit_code, result.stderr) == (2, readme + "\n")
    near = CliRunner().invoke(app, ["battle", str(RUINS), "--seeed", "1"], prog_name="hammerlab")
    assert near.stderr == (
        "error: no such option: --seeed (did you mean: --seed) (see hammerlab battle --help)\n"
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_is_described_in_one_whole_sentence(command: str) -> None:
    # The same review: `hammerlab --help` lists each command with the first paragraph of
    # its docstring, line breaks kept, so four descriptions broke mid-sentence
    # ("and check that ⏎ every event"). Each is one line, one sentence.
    group = typer.main.get_command(app)
    first = inspect.cleandoc(group.commands[command].help or "").split("\n\n")[0]  # type: ignore[attr-defined]
    assert "\n" not in first and first.endswith("."), first


def test_the_installed_entry_point_gives_the_same_line() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from hammerlab.cli.app import main; main()", "lab", "--bogus"],
        check=False, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: no such option: --bogus") and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "plugin",
    [[], ["--plugin", "examples/rules/terrifying_charge.py", "--rule", "terrifying_charge=on"]],
    ids=["plain", "plug-in"],
)
def test_a_reader_gone_before_the_log_ends_the_battle_quietly(plugin: list[str]) -> None:
    """``battle ... | head -n 0``: the reader of standard output has closed it before
    the first line, so no line can be written. That is not the battle's failure, nor a
    plug-in's: exit status 1 (rich's, for a broken pipe) and nothing on standard error,
    with a plug-in as without. (The pipe's reading end is closed before the command
    starts, so that the pipe is broken whatever the machine's speed; the old code said
    "the battle failed: SystemExit: 1" and rich's traceback when plug-ins were loaded.)"""
    reading, writing = os.pipe()
    os.close(reading)
    command = [sys.executable, "-c", "from hammerlab.cli.app import main; main()", "battle"]
    try:
        done = subprocess.run(
            [*command, "examples/rules/fear_charge.toml", *plugin],
            stdout=writing, stderr=subprocess.PIPE, check=False, cwd=ROOT, timeout=300,
        )  # fmt: skip
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (1, b"")


def test_bare_hammerlab_still_shows_the_help() -> None:
    _, out, err = run()
    assert "Usage" in out + err and "error:" not in out + err


# --- a single-value option given twice -----------------------------------------------


def test_a_repeated_single_value_option_is_one_error_line() -> None:
    code, out, err = run(*LIBRARY_ODDS, "--weapon", "Heavy bolter")
    line = _one_error_line(code, out, err, 2)
    assert "--weapon" in line and "more than once" in line
    assert out == ""


def test_short_and_long_spelling_of_one_option_count_as_twice() -> None:
    code, out, err = run(*LIBRARY_ODDS, "-r", "waffle", "--ruleset", "core11")
    assert "--ruleset" in _one_error_line(code, out, err, 2)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_repeatable_option_says_so_in_its_help(command: str) -> None:
    group = typer.main.get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    silent = [
        p.opts[0]
        for p in params
        if getattr(p, "multiple", False) and "repeatable" not in (p.help or "")
    ]
    assert silent == []


def test_repeatable_options_may_repeat() -> None:
    code, _, err = run(*LIBRARY_ODDS, "--situation", "moved", "--situation", "half-range")
    assert code == 0, err


# --- lab --plot -----------------------------------------------------------------------

LAB = ["lab", str(RUINS), "--rule", "fiery_charge", "--runs", "2"]


def test_lab_prints_the_report_then_writes_the_chart_and_says_where(tmp_path: Path) -> None:
    chart = tmp_path / "lab.png"
    code, out, err = run(*LAB, "--plot", str(chart))
    assert code == 0, err
    assert out.index("Winner") < out.index(f"chart written to {chart}")
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_lab_plot_into_a_missing_folder_is_refused_before_playing(tmp_path: Path) -> None:
    code, out, err = run(*LAB, "--plot", str(tmp_path / "nowhere" / "lab.png"))
    assert "--plot" in _one_error_line(code, out, err, 2)
    assert out == ""


def test_lab_plot_into_a_directory_is_refused(tmp_path: Path) -> None:
    code, out, err = run(*LAB, "--plot", str(tmp_path))
    assert "is a directory" in _one_error_line(code, out, err, 2)


def test_lab_chart_of_a_type_that_cannot_be_drawn_is_refused_before_playing(
    tmp_path: Path,
) -> None:
    code, out, err = run(*LAB, "--plot", str(tmp_path / "lab.nosuchformat"))
    line = _one_error_line(code, out, err, 2)
    assert line.startswith(f"error: --plot: {tmp_path / 'lab.nosuchformat'}: cannot draw")
    assert ".png" in line and ".svg" in line
    assert out == ""  # nothing played, nothing printed


# --- progress -------------------------------------------------------------------------


def test_no_progress_bar_when_stdout_is_not_a_terminal() -> None:
    code, out, _ = run(*LAB)
    assert code == 0
    assert out.count("paired") == 1  # the report's title line, no bar labelled "paired battles"
    assert "\x1b[" not in out and "\r" not in out


def test_progress_bar_is_drawn_on_a_terminal_unless_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=screen, force_terminal=True, width=80))
    with common.progress("paired battles", 4) as advance:
        advance(4)
    assert "paired battles" in screen.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr(common, "console", Console(file=quiet, force_terminal=True, width=80))
    with common.progress("paired battles", 4, quiet=True) as advance:
        advance(4)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("workers", [1, 2])
def test_lab_progress_counts_every_battle_and_changes_nothing(workers: int) -> None:
    spec: Scenario = load_scenario(RUINS)
    experiment = arms(spec, ["fiery_charge"])
    told: list[int] = []
    watched = compare(spec, str(RUINS), experiment, 5, 1, workers, (), told.append)
    unwatched = compare(spec, str(RUINS), experiment, 5)
    assert sum(told) == 2 * 5
    assert watched == unwatched


# --- the Waffle odds' bound --------------------------------------------------------------

WAFFLE_PLAIN = ["odds", "-r", "waffle", "--type", "Heavy", "--bs", "4", "--strength", "4",
                "--ap", "5", "--toughness", "4", "--save", "4", "--wounds", "2",
                "--target-models", "10", "--models", "100"]  # fmt: skip


def test_waffle_odds_refuse_more_shots_than_a_weapon_fires_at_once() -> None:
    """51 shots a model: more than a datasheet's weapon may fire (io.bounds, 50)."""
    code, out, err = run(*WAFFLE_PLAIN, "--attacks", "51", "--json")
    line = _one_error_line(code, out, err, 2)
    assert line.startswith("error: --shots: ") and "51 shots" in line and "1 to 50" in line


def test_waffle_odds_answer_up_to_the_bound() -> None:
    code, out, _ = run(*WAFFLE_PLAIN, "--attacks", "50", "--json")
    assert code == 0
    assert json.loads(out)["means"]["shots"] == 100 * 50


# --- one --rule syntax ----------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["suppressive_fire", "suppressive_fire=on"])
def test_battle_rule_name_alone_means_on(flag: str) -> None:
    code, out, _ = run("battle", str(RUINS), "--rule", flag, "--json")
    assert code == 0
    assert "suppressive_fire" in json.loads(out)["rules_on"]


def test_lab_rule_name_and_name_on_are_one_experiment() -> None:
    reports = [json.loads(run(*LAB[:2], "--rule", f, "--runs", "2", "--json")[1])
               for f in ("fiery_charge", "fiery_charge=on")]  # fmt: skip
    assert reports[0]["units"] == reports[1]["units"]


@pytest.mark.parametrize("command", ["battle", "lab"])
def test_rule_errors_name_the_flag(command: str) -> None:
    code, out, err = run(command, str(RUINS), "--rule", "no_such_rule")
    assert _one_error_line(code, out, err, 2).startswith("error: --rule: ")


WAFFLE_ODDS = ["odds", "--bs", "4", "--strength", "4", "--ap", "5", "--toughness", "4",
               "--save", "3", "--wounds", "1", "--target-models", "5"]  # fmt: skip


@pytest.mark.parametrize(
    ("flag", "said"),
    [
        ("charge_dice=3", "charge_dice does not change {what}; they read: {read}"),
        (
            "suppressive_fire.ld_penalty_per_wound=2",
            "suppressive_fire.ld_penalty_per_wound does not change {what}; they read: {read}",
        ),
        ("nonesuch=3", "unknown rule or parameter 'nonesuch'; known: {read}"),
    ],
)
def test_tables_and_odds_say_the_same_of_a_rule_they_do_not_read(flag: str, said: str) -> None:
    # A newcomer's review: tables said "unknown rule or parameter 'charge_dice' ...
    # (a plug-in's rule? add --plugin FILE)", exit 2, though charge_dice is a waffle
    # parameter (`hammerlab rulesets`) and tables takes no --plugin; odds said
    # "unknown", exit 1. The charts read Overwhelming Strength alone (Seed 000); the
    # Waffle odds that and the Snap Shot numbers (docs/rules/waffle.md).
    for args, what, read in (
        (["tables"], "these charts", "overwhelming_strength"),
        (
            WAFFLE_ODDS,
            "the odds",
            "overwhelming_strength, snap_shot_divisor, snap_shot_minimum_bs",
        ),
    ):
        code, out, err = run(*args, "--rule", flag)
        line = _one_error_line(code, out, err, 2)
        assert line == "error: --rule: " + said.format(what=what, read=read) + "\n"


def test_the_plug_in_hint_comes_only_from_a_command_that_takes_plugins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(plugins, "_LOADED_FILES", {})  # as in a fresh process: none loaded
    code, out, err = run("battle", str(RUINS), "--rule", "nonesuch")
    assert _one_error_line(code, out, err, 2).endswith(common.PLUGIN_HINT + "\n")
    code, out, err = run("tables", "--rule", "nonesuch=1")
    assert common.PLUGIN_HINT not in _one_error_line(code, out, err, 2)


def test_lab_set_errors_name_set() -> None:
    code, out, err = run(*LAB, "--set", "bogus=on")
    assert _one_error_line(code, out, err, 2).startswith(
        f"error: --set: {RUINS} (ruleset waffle): unknown rule"
    )


# --- datasheet notes, defaults, lazy imports -----------------------------------------------


def test_waffle_battle_prints_rules_not_implemented_before_the_game() -> None:
    code, out, _ = run("battle", str(RUINS), "--no-dice")
    assert code == 0
    note = out.index("special rule not implemented: Combat Squads")
    assert note < out.index("Turn 1")


def test_every_command_defaults_to_the_same_ruleset() -> None:
    assert Scenario.model_fields["ruleset"].default == common.DEFAULT_RULESET == "waffle"
    assert OddsAsk().ruleset == common.DEFAULT_RULESET  # the web API's default too
    code, out, _ = run(*LIBRARY_ODDS, "--json")
    assert code == 0 and json.loads(out)["edition"] == "waffle"
    assert run("units")[1] == run("units", "-r", "waffle")[1]


def _modules_after(code: str) -> list[str]:
    """The heavy modules loaded in a fresh interpreter after running ``code``."""
    probe = (
        f"import sys\n{code}\n"
        "print([m for m in sys.modules if m.split('.')[0] in ('numpy', 'shapely', 'matplotlib')"
        " or m.startswith(('hammerlab.editions', 'hammerlab.engine', 'hammerlab.io'))])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"')))


def test_help_and_tables_load_neither_the_engine_nor_numpy() -> None:
    assert _modules_after("import hammerlab.cli.app") == []
    run_tables = (
        "from hammerlab.cli.app import app\ntry:\n    app(['tables'])\nexcept SystemExit:\n    pass"
    )
    assert _modules_after(run_tables) == []


def test_an_unknown_unit_name_suggests_names_spelt_nearly_alike() -> None:
    # "Boys" is in no library name, but a word of "Ork Boyz" is spelt nearly alike ("Ogryns"
    # is not, 0.6); "Tactical"
    # is part of two names. A name like none gets no suggestion.
    assert similar_names("Boys", ["Ork Boyz", "Nobz", "Ogryns"]) == ["Ork Boyz"]
    assert similar_names("tactical", ["Tactical Squad", "Captain"]) == ["Tactical Squad"]
    assert similar_names("Nope", ["Boyz", "Nobz", "Warboss"]) == []
    # A player's review on the BattleScribe catalogues: a name of several words finds
    # the names sharing its words, those with fewest words of their own first; a name
    # alike as a whole comes before one alike by a word of a longer name.
    orks = ["Stormboyz", "Burna Boyz", "Boyz", "Mek Boss Buzzgob (FW)", "Nobz"]
    assert similar_names("Ork Boyz", orks)[:2] == ["Boyz", "Burna Boyz"]
    assert similar_names("Boys", orks)[0] == "Boyz"
    tanks = ["Tank Commander", "Leman Russ Squadron", "Chimera", "Hellhound Squadron"]
    wanted = ["Leman Russ Squadron", "Tank Commander"]
    assert similar_names("Leman Russ Battle Tank", tanks) == wanted
    code, _, err = run("show", "Boys")
    assert code != 0
    assert "unknown unit 'Boys' (did you mean: " in err and "Boyz" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_each_help_example_is_a_command_line_a_shell_takes_whole(command: str) -> None:
    # The same review: four commands' help printed an "Example:" broken over two lines,
    # so copying it gave the shell two commands, the second starting "--runs 100".
    # A line the example goes on from now ends in a shell's continuation (" \"), and
    # the command it makes, read as the shell reads it, is one the command parses.
    group = typer.main.get_command(app)
    help_text = inspect.cleandoc(group.commands[command].help or "")  # type: ignore[attr-defined]
    lines = help_text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(("Example: ", "Then: "))]
    for start in starts:
        example = lines[start].split(": ", 1)[1]
        at = start
        while example.endswith("\\"):
            at += 1
            example = example[:-1] + lines[at]
        assert at + 1 == len(lines) or not lines[at + 1].strip(), (command, lines[at + 1])
        for one in example.split(";"):
            words = shlex.split(one)
            assert words[0] == "hammerlab", one
            named = group.commands[words[1]]  # type: ignore[attr-defined]
            named.make_context(f"hammerlab {words[1]}", words[2:])
