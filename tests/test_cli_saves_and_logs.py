"""Saved games (``battle --save``/``--resume``) and logs (``--log-json``/``replay``)
against a user review: where they can be used from, what a resume refuses, what
is checked before play, and what ``replay`` says when it goes another way.

Each expected line is written from the finding and the rules of the CLI (a usage
mistake: exit 2 naming the flag; a file's: exit 1 naming the file); a game that
resumes or replays is checked against the same game played straight through.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_kit import one_line, run
from hammerlab.cli.app import app
from hammerlab.cli.prompt import PromptController

ROOT = Path(__file__).resolve().parents[1]
THREE_TURNS = ROOT / "examples" / "whole_game_three_turns.toml"
"""Three game turns; players Ultramarines and Orks."""
FIERY = ROOT / "examples" / "lab_fiery_charge_boyz.toml"
"""Orks charge; the rule option fiery_charge (off in the file) asks them a decision."""
ORKS_CATALOGUE = ROOT / "tests" / "data" / "bsdata-7e" / "Orks - Codex.cat"
BESIDE = """name = "BattleScribe beside the scenario"
seed = 4
[plan]
turns = 2
phases = ["movement", "shooting"]
[[players]]
name = "Orks"
[[players]]
name = "Marines"
edge = "north"
[[units]]
id = "boyz"
player = "Orks"
unit = "Boyz"
source = "orks.cat"
position = [36, 10]
[[units]]
id = "tac"
player = "Marines"
unit = "Tactical Squad"
position = [36, 36]
"""
"""A scenario whose Boyz come from a BattleScribe file named relative to it."""


def _events(log: Path) -> list[str]:
    """A JSON Lines log's event lines (its header left out)."""
    return log.read_text(encoding="utf-8").splitlines()[1:]


@pytest.fixture
def beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``w/s.toml`` with ``w/orks.cat`` beside it, in the current folder ``tmp_path``."""
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "s.toml").write_text(BESIDE, encoding="utf-8")
    shutil.copy(ORKS_CATALOGUE, folder / "orks.cat")
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-turn example stopped after turn 1 and saved."""
    path = tmp_path_factory.mktemp("saved") / "game.json"
    code, _, err = run(
        "battle", str(THREE_TURNS), "--seed", "3", "--stop-after", "1", "--save", str(path),
        "--json",
    )  # fmt: skip
    assert code == 0, err
    return path


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-turn example's log (``--log-json``), played to its end."""
    path = tmp_path_factory.mktemp("logged") / "full.jsonl"
    code, _, err = run("battle", str(THREE_TURNS), "--seed", "3", "--log-json", str(path), "--json")
    assert code == 0, err
    return path


# --- F1: a save or log made from a relative path is used from anywhere ---------------


def test_a_save_and_a_log_of_a_relative_scenario_resume_and_replay_from_another_folder(
    beside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Made in tmp_path as `w/s.toml`; used from w itself, where `w/s.toml` and
    # `w/orks.cat` name nothing.
    code, _, err = run("battle", "w/s.toml", "--log-json", "whole.jsonl", "--json")
    assert code == 0, err
    code, _, err = run(
        "battle", "w/s.toml", "--stop-after", "1", "--save", "g.json", "--log-json", "l.jsonl",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    monkeypatch.chdir(beside)
    code, _, err = run("replay", str(tmp_path / "l.jsonl"))
    assert code == 0, err
    resumed = tmp_path / "resumed.jsonl"
    code, _, err = run(
        "battle", "--resume", str(tmp_path / "g.json"), "--log-json", str(resumed), "--json"
    )
    assert code == 0, err
    assert _events(resumed) == _events(tmp_path / "whole.jsonl")


def test_a_save_or_log_whose_battlescribe_file_is_gone_names_itself(
    beside: Path, tmp_path: Path
) -> None:
    code, _, err = run(
        "battle", "w/s.toml", "--stop-after", "1", "--save", "g.json", "--log-json", "l.jsonl",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    (beside / "orks.cat").unlink()
    uses = [(["battle", "--resume", "g.json"], "g.json"), (["replay", "l.jsonl"], "l.jsonl")]
    for args, recorded in uses:
        line = one_line(*run(*args)[::2], 1)
        assert line.startswith(f"error: {recorded}: w/s.toml: units[0].source: "), line
        assert line.endswith(f"{beside / 'orks.cat'}: file not found"), line


def test_a_save_without_the_scenario_path_still_resumes_beside_its_source(beside: Path) -> None:
    # Saves written before the scenario's absolute path was recorded name only the
    # scenario as given (`w/s.toml`): from the folder it was given in, they resume.
    code, _, err = run("battle", "w/s.toml", "--log-json", "whole.jsonl", "--json")
    assert code == 0, err
    code, _, err = run("battle", "w/s.toml", "--stop-after", "1", "--save", "g.json", "--json")
    assert code == 0, err
    old = json.loads(Path("g.json").read_text(encoding="utf-8"))
    del old["scenario_path"]
    Path("old.json").write_text(json.dumps(old), encoding="utf-8")
    code, _, err = run("battle", "--resume", "old.json", "--log-json", "resumed.jsonl", "--json")
    assert code == 0, err
    assert _events(Path("resumed.jsonl")) == _events(Path("whole.jsonl"))


def test_a_relative_plug_in_is_found_from_another_folder_and_named_with_the_log_when_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plug-in whose rule, on, changes nothing: its file must still be loaded.
    rule = "saved_game_test_rule"
    plugin = tmp_path / "w" / "house.py"
    plugin.parent.mkdir()
    plugin.write_text(
        "from hammerlab.engine.rules import RuleOption\n"
        f"RULESET = 'waffle'\nRULES = (RuleOption({rule!r}, 'does nothing', 'none'),)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    code, _, err = run(
        "battle", str(THREE_TURNS), "--seed", "3", "--plugin", "w/house.py", "--rule", rule,
        "--stop-after", "1", "--log-json", "l.jsonl", "--json",
    )  # fmt: skip
    assert code == 0, err
    monkeypatch.chdir(plugin.parent)  # named from here as house.py: the same file
    assert run("replay", str(tmp_path / "l.jsonl"), "--plugin", "house.py")[0] == 0
    plugin.unlink()
    line = one_line(*run("replay", str(tmp_path / "l.jsonl"), "--plugin", "house.py")[::2], 1)
    assert line == f"error: {tmp_path / 'l.jsonl'}: {plugin}: no such plug-in file"


# --- F2: a resume refuses what would change the saved recipe -------------------------


@pytest.mark.parametrize(
    ("extra", "flag"),
    [
        (["--seed", "99"], "--seed"),
        (["--rule", "charge_dice=3"], "--rule"),
        (["--rule", "no_such_rule"], "--rule"),
    ],
)
def test_resume_refuses_seed_and_rule(saved: Path, extra: list[str], flag: str) -> None:
    code, out, err = run("battle", "--resume", str(saved), *extra)
    assert one_line(code, err, 2) == (
        f"error: {flag}: a saved game holds its own seed and rules; leave it out with --resume"
    )
    assert out == ""


def test_resume_and_replay_refuse_a_plug_in_the_file_does_not_play_with(
    saved: Path, logged: Path
) -> None:
    # --plugin names the plug-ins a saved game or log plays with; another would not be
    # the game saved (nor loaded: it is refused before anything runs).
    other = ROOT / "examples" / "rules" / "terrifying_charge.py"
    for command in (["battle", "--resume", str(saved)], ["replay", str(logged)]):
        code, out, err = run(*command, "--plugin", str(other))
        where = command[-1]
        assert one_line(code, err, 2) == (
            f"error: --plugin: {where} plays with no plug-in; leave out {other}"
        )
        assert out == ""


# --- S14: a saved game or log runs no plug-in its user did not name -------------------

MARKING_PLUGIN = """\
from pathlib import Path

Path(__file__).with_name("MARKER").write_text("ran", encoding="utf-8")

from hammerlab.engine.rules import RuleOption

RULESET = "waffle"
RULES = (RuleOption("marking_noop", "does nothing", "none"),)
"""
"""A plug-in that leaves ``MARKER`` beside itself when it is run (loaded)."""


@pytest.fixture
def marking(tmp_path: Path) -> Path:
    """The marking plug-in, in a folder of its own under ``tmp_path``."""
    plugin = tmp_path / "plug" / "house rules.py"  # a space: the flag shown is quoted
    plugin.parent.mkdir()
    plugin.write_text(MARKING_PLUGIN, encoding="utf-8")
    return plugin


def _naming(path: Path, plugin: Path, log: bool) -> None:
    """Make the saved game or log ``path`` record ``plugin``, as a hostile file could."""
    text = path.read_text(encoding="utf-8")
    if log:
        header, rest = text.split("\n", 1)
        path.write_text(json.dumps({**json.loads(header), "plugins": [str(plugin)]}) + "\n" + rest)
    else:
        path.write_text(json.dumps({**json.loads(text), "plugins": [str(plugin)]}))


@pytest.mark.parametrize("command", ["resume", "replay"])
def test_a_plug_in_a_saved_game_or_log_names_is_not_run_unless_the_user_names_it(
    saved: Path, logged: Path, marking: Path, tmp_path: Path, command: str
) -> None:
    # A hostile-input review: `battle --resume` and `replay` ran the Python file a
    # saved game or log named as a plug-in, and only then refused the file.
    source = saved if command == "resume" else logged
    path = tmp_path / source.name
    shutil.copy(source, path)
    _naming(path, marking, log=command == "replay")
    args = ["battle", "--resume", str(path)] if command == "resume" else ["replay", str(path)]
    code, out, err = run(*args)
    assert one_line(code, err, 2) == (
        f"error: --plugin: {path} plays with the plug-in {marking}, Python code run only "
        f"when you name it: add --plugin '{marking}' to run it"
    )
    assert out == "" and not (marking.parent / "MARKER").exists()


def test_a_plug_in_named_with_resume_or_replay_is_run(
    marking: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The workflow kept: a game saved (and logged) with --plugin and its rule on
    # resumes and replays given the same --plugin, here by another spelling of its
    # path (from its own folder); the rule is the plug-in's, so it was loaded.
    game, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    code, _, err = run(
        "battle", str(THREE_TURNS), "--seed", "3", "--plugin", str(marking),
        "--rule", "marking_noop", "--stop-after", "1", "--save", str(game),
        "--log-json", str(log), "--json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(game.read_text(encoding="utf-8"))["plugins"] == [str(marking)]
    monkeypatch.chdir(marking.parent)
    code, out, err = run("battle", "--resume", str(game), "--plugin", marking.name, "--json")
    assert code == 0, err
    assert "marking_noop" in json.loads(out)["rules_on"]
    code, out, err = run("replay", str(log), "--plugin", marking.name)
    assert code == 0, err
    said = f"{log}: replays identically"
    assert "".join(out.split()) == "".join(said.split())  # as the console wraps it


# --- F3: output paths are checked before play -----------------------------------------


@pytest.mark.parametrize("flag", ["--save", "--log-json"])
def test_an_output_in_a_missing_folder_is_refused_before_play(flag: str, tmp_path: Path) -> None:
    path = tmp_path / "missing" / "out.json"
    code, out, err = run("battle", str(THREE_TURNS), flag, str(path))
    line = one_line(code, err, 2)
    assert line == f"error: {flag}: {path}: no such folder {str(path.parent)!r}"
    assert out == ""  # not one turn played


@pytest.mark.parametrize("flag", ["--save", "--log-json"])
def test_an_output_that_is_a_directory_is_refused_before_play(flag: str, tmp_path: Path) -> None:
    code, out, err = run("battle", str(THREE_TURNS), flag, str(tmp_path))
    assert one_line(code, err, 2) == f"error: {flag}: {tmp_path} is a directory; give a file name"
    assert out == ""


def test_an_output_in_a_folder_that_cannot_be_written_is_refused_before_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The folder's permission is what the check reads (a root user may write anywhere).
    from hammerlab.cli import common

    locked = tmp_path / "locked"
    locked.mkdir()
    real = common.os.access
    monkeypatch.setattr(common.os, "access", lambda p, m: Path(p) != locked and real(p, m))
    code, out, err = run("battle", str(THREE_TURNS), "--save", str(locked / "g.json"))
    line = one_line(code, err, 2)
    assert line == f"error: --save: {locked / 'g.json'}: cannot write in folder {str(locked)!r}"
    assert out == ""


def test_a_prompted_game_is_refused_before_the_first_question(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "g.json"
    result = CliRunner().invoke(
        app, ["battle", str(THREE_TURNS), "--controller", "prompt", "--save", str(path)], input=""
    )
    assert result.exit_code == 2 and result.stdout == ""


def test_save_and_log_json_naming_one_file_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    same = tmp_path / "." / "out.json"
    code, out, err = run("battle", str(THREE_TURNS), "--save", str(path), "--log-json", str(same))
    line = one_line(code, err, 2)
    assert line.startswith("error: --log-json: ") and line.endswith(
        "is the --save file too; give another"
    )
    assert out == "" and not path.exists()


# --- F9: negative seeds are refused ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["battle", str(THREE_TURNS)],
        ["lab", str(THREE_TURNS), "--rule", "charge_dice=3"],
        ["sweep", str(THREE_TURNS), "--vary", "charge_dice=2,3"],
        ["balance", str(THREE_TURNS), "--vary", "charge_dice=1..3", "--target", "win_rate=0.5"],
        ["tournament", str(THREE_TURNS)],
    ],
)
def test_a_negative_seed_is_a_usage_error(args: list[str]) -> None:
    # random.seed(-5) is random.seed(5): the game of seed 5 reported as seed -5.
    code, out, err = run(*args, "--seed=-5")
    line = one_line(code, err, 2)
    assert line.startswith("error: invalid value for '--seed': ") and "0" in line, line
    assert out == ""


def test_seed_zero_is_a_seed() -> None:
    code, out, err = run("battle", str(THREE_TURNS), "--seed", "0", "--stop-after", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["seed"] == 0


def test_a_negative_seed_in_a_scenario_file_names_the_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    text = THREE_TURNS.read_text(encoding="utf-8")
    assert "\nseed = 12\n" in text
    path.write_text(text.replace("\nseed = 12\n", "\nseed = -5\n"), encoding="utf-8")
    line = one_line(*run("battle", str(path))[::2], 1)
    assert line.startswith(f"error: {path}: seed: ") and "0" in line, line


# --- F11: replay on a saved game says what it is --------------------------------------


def test_replay_of_a_saved_game_says_to_resume_it(saved: Path) -> None:
    line = one_line(*run("replay", str(saved))[::2], 1)
    assert line == (
        f"error: {saved}: a saved game (hammerlab-game/1), not a --log-json log; "
        "resume it with hammerlab battle --resume"
    )


def test_resume_of_a_log_says_to_replay_it(logged: Path) -> None:
    # The log is JSON Lines: read as one JSON document it stops at line 2 ("Extra data").
    line = one_line(*run("battle", "--resume", str(logged))[::2], 1)
    assert line == (
        f"error: {logged}: a --log-json log, not a saved game; check it with hammerlab replay"
    )


# --- S12: a saved game or log header with a wrongly typed field is one line ------------


@pytest.mark.parametrize(
    ("field", "value", "where", "problem"),
    [
        ("rules", [1, 2], "rules", "Input should be a valid dictionary"),
        ("rules", "fiery_charge", "rules", "Input should be a valid dictionary"),
        ("rules", {"charge_dice": None}, "rules.charge_dice",
         "a rule's value is true or false, a number or text"),
        ("plugins", [{"a": 1}], "plugins[0]", "Input should be a valid string"),
        ("stop_before_turn", "two", "stop_before_turn", "Input should be a valid integer"),
        ("stop_before_turn", -3, "stop_before_turn",
         "Input should be greater than or equal to 1"),
        ("scenario", [], "scenario", "Input should be a valid dictionary"),
        ("source", 5, "source", '5 is a number, not text: write it in quotes ("5")'),
    ],
)  # fmt: skip
def test_a_wrongly_typed_field_of_a_save_or_log_header_is_named(
    saved: Path, logged: Path, tmp_path: Path, field: str, value: object, where: str, problem: str
) -> None:
    # Before, these ended in a traceback from deep in the engine (rules, plugins,
    # stop_before_turn, scenario), "37 decisions were never asked" (a turn of -3),
    # or were taken silently (source).
    game = tmp_path / "game.json"
    edited = json.dumps({**json.loads(saved.read_text(encoding="utf-8")), field: value})
    game.write_text(edited, encoding="utf-8")
    line = one_line(*run("battle", "--resume", str(game))[::2], 1)
    assert line == f"error: {game}: {where}: {problem}"
    header, *events = logged.read_text(encoding="utf-8").splitlines()
    log = tmp_path / "log.jsonl"
    edited = json.dumps({**json.loads(header), field: value})
    log.write_text("\n".join([edited, *events]), encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert line == f"error: {log}: line 1: {where}: {problem}"


def test_a_log_header_of_another_format_is_named(logged: Path, tmp_path: Path) -> None:
    header, *events = logged.read_text(encoding="utf-8").splitlines()
    log = tmp_path / "log.jsonl"
    other = {**json.loads(header), "format": "hammerlab-game/9"}
    log.write_text("\n".join([json.dumps(other), *events]), encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert line == f"error: {log}: line 1: format: not a game header (hammerlab-game/1)"


NESTED = "[" * 100_000 + "]" * 100_000
"""Valid JSON that Python's decoder cannot read: it recurses once per bracket."""


def test_json_nested_too_deeply_is_one_line(logged: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(NESTED, encoding="utf-8")
    line = one_line(*run("battle", "--resume", str(deep))[::2], 1)
    assert line == f"error: {deep}: JSON nested too deeply to read"
    line = one_line(*run("replay", str(deep))[::2], 1)
    assert line == f"error: {deep}: line 1: JSON nested too deeply to read"
    lines = logged.read_text(encoding="utf-8").splitlines()
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([*lines[:3], NESTED, *lines[3:]]), encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert line == f"error: {log}: line 4: JSON nested too deeply to read"


def test_a_folder_where_the_temporary_file_goes_is_one_line(tmp_path: Path) -> None:
    # --save writes .x.json.partial, then renames it to x.json; a folder of that name
    # made the cleanup after the failed write fail too, with a traceback.
    partial = tmp_path / ".x.json.partial"
    partial.mkdir()
    target = tmp_path / "x.json"
    code, out, err = run(
        "battle", str(THREE_TURNS), "--seed", "3", "--stop-after", "1", "--save", str(target),
        "--json",
    )  # fmt: skip
    assert one_line(code, err, 1) == f"error: {target}: cannot write: Is a directory ({partial})"
    assert out == "" and not target.exists() and partial.is_dir()


# --- B11: a replay asked a decision its log does not answer ----------------------------


def test_replay_names_the_decision_the_log_does_not_answer(tmp_path: Path) -> None:
    # Logged with fiery_charge off, the header then switched on: the first charge
    # asks its player the rule's decision (Fiery Charge or not), which the log never
    # answered. At seed 3 the Orks, who play first, charge (the log's first decision:
    # "charger", "Ork Boyz [boyz]"; the example fields thirty Boys since session 14),
    # so the decision is theirs.
    log = tmp_path / "l.jsonl"
    code, _, err = run("battle", str(FIERY), "--seed", "3", "--log-json", str(log), "--json")
    assert code == 0, err
    header, *events = log.read_text(encoding="utf-8").splitlines()
    edited = {**json.loads(header), "rules": {"fiery_charge": True}}
    log.write_text("\n".join([json.dumps(edited), *events]) + "\n", encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert line.endswith(
        "but the replay asks a decision the log does not answer: "
        "Orks, fiery_charge (Fiery Charge, no Fiery Charge)"
    ), line
    assert "(end of game)" not in line


def test_input_that_ends_during_a_prompted_game_names_the_unanswered_decision() -> None:
    # A user review: a script that ran out of answers ended with click's bare
    # "Aborted." and no word of what was asked. The Guard example's first question
    # is the Cadians' shooter pick, in game turn 1.
    guard = ROOT / "examples" / "guard_suppress_terminators.toml"
    result = CliRunner().invoke(app, ["battle", str(guard), "--controller", "prompt"], input="")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the input ended while Cadians was asked: ")
    assert result.stderr.rstrip().endswith(
        "(shooter); the game stops unanswered at game turn 1; "
        "the game was not saved (--save FILE keeps a game you stop)"
    )
    assert result.stderr.count("\n") == 1


GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


def test_a_prompted_game_whose_input_ends_inside_an_activation_is_saved_at_its_pick(
    tmp_path: Path,
) -> None:
    # The Guard example's first question is the Cadians' shooter pick; "1" picks the
    # first squad, and the input ends at the squad's next question (its action). The
    # game is saved where it last stood still, before the pick: no decision made,
    # game turn 1, and resumed it asks the shooter pick again.
    save = tmp_path / "g.json"
    args = ["battle", str(GUARD), "--controller", "prompt", "--save", str(save)]
    result = CliRunner().invoke(app, args, input="1\n")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the input ended while Cadians was asked: ")
    assert f"; the game was saved to {save} as it stood at its last top-level decision" in (
        result.stderr
    )
    assert result.stderr.rstrip().endswith(
        f"go on with hammerlab battle --resume {save} --controller prompt --side Cadians"
    )
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["decisions"] == []
    assert saved["cursor"]["turn"] == 1
    resumed = CliRunner().invoke(
        app, ["battle", "--resume", str(save), "--controller", "prompt"], input=""
    )
    assert resumed.exit_code == 1
    assert "(shooter); the game stops unanswered at game turn 1" in resumed.stderr


def test_ctrl_c_in_a_prompted_game_saves_it_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C at the squad's second question, after the Cadians' pick was answered by
    # hand: exit status 130 (128 + SIGINT) and the game saved before the pick, as
    # when the input ends; a log asked for is written with it, of the same game.
    answers = iter([0])

    def person(_: object, battle: object, decision: object) -> int:
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    monkeypatch.setattr(PromptController, "choose", person)
    save, log = tmp_path / "g.json", tmp_path / "g.jsonl"
    args = ["battle", str(GUARD), "--controller", "prompt", "--save", str(save)]
    result = CliRunner().invoke(app, [*args, "--log-json", str(log)])
    assert result.exit_code == 130
    assert result.stderr.startswith(f"interrupted; the game was saved to {save} ")
    assert json.loads(save.read_text(encoding="utf-8"))["decisions"] == []
    header, *events = (json.loads(line) for line in log.read_text(encoding="utf-8").splitlines())
    assert header["kind"] == "game"
    assert [e for e in events if e["kind"] == "decision"] == []


# --- review 2: a game stopped at a prompt, its log, and how it goes on -----------------


def _prompted(args: list[str], answers: str) -> tuple[int, str]:
    """``hammerlab battle ARGS`` with ``answers`` typed: its exit code and standard error."""
    result = CliRunner().invoke(app, ["battle", *args], input=answers)
    return result.exit_code, result.stderr


STOPPED = [str(THREE_TURNS), "--seed", "2", "--controller", "prompt", "--side", "Ultramarines"]
"""The three-turn example played by hand as the Ultramarines, who move first."""


def test_the_log_of_a_game_stopped_at_a_prompt_replays_to_where_it_stopped(
    tmp_path: Path,
) -> None:
    # A user review: a game whose input ran out was logged, and replay said its
    # untouched log differs at its end ("logged (end of log)"). Four answers: the
    # Ultramarines' first unit picked, moved, ... the input ends in game turn 1 with
    # their movement not done. The log ends with the stop (why, where, who was to
    # answer) and replays to it: exit 0; without --save the log is still written.
    log = tmp_path / "pg.jsonl"
    code, err = _prompted([*STOPPED, "--log-json", str(log)], "1\n1\n1\n1\n")
    assert code == 1, err
    assert err.rstrip().endswith(f"; its log was written to {log}"), err
    assert err.count("\n") == 1
    lines = log.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    assert {k: last[k] for k in ("kind", "reason", "turn", "player")} == {
        "kind": "stopped",
        "reason": "the input ended",
        "turn": 1,
        "player": "Ultramarines",
    }
    code, out, err = run("replay", str(log))
    assert code == 0, err
    said = (
        f"{log}: replays identically up to where the game stopped at game turn 1 (the input ended)"
    )
    assert "".join(out.split()) == "".join(said.split())  # wrapped to the terminal's width
    # Cut short (the stop gone), it plays on: a difference at the end of the log.
    log.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert f"line {len(lines)} differs: logged (end of log) but the replay gives" in line
    # Its last activation cut off, the stop kept: the replay stops at the pick before,
    # where the game does not stand as the stop records it.
    events = [json.loads(text) for text in lines]
    last_pick = max(
        n for n, e in enumerate(events) if e["kind"] == "decision" and e["decision"] == "mover"
    )
    log.write_text("\n".join(lines[:last_pick] + lines[-1:]) + "\n", encoding="utf-8")
    line = one_line(*run("replay", str(log))[::2], 1)
    assert f"line {last_pick + 1} differs: logged" in line


def test_a_resumed_game_stopped_again_logs_and_replays_and_its_hint_keeps_the_side(
    tmp_path: Path,
) -> None:
    # The stop line's resume command goes on as the user played: their side by hand
    # (the review ran the bare --resume and the AI played the Ultramarines to the
    # end). Run as given, with no answers, it asks the Ultramarines again, and its log
    # (no --save) replays to where it stopped.
    save, log = tmp_path / "pg.json", tmp_path / "pg5.jsonl"
    code, err = _prompted([*STOPPED, "--save", str(save)], "1\n")
    assert code == 1, err
    resume = f"hammerlab battle --resume {save} --controller prompt --side Ultramarines"
    assert err.rstrip().endswith(f"go on with {resume}"), err
    args = resume.split()[2:]
    code, err = _prompted([*args, "--log-json", str(log)], "")
    assert code == 1, err
    assert err.startswith("error: the input ended while Ultramarines was asked: "), err
    assert err.rstrip().endswith(f"; its log was written to {log}"), err
    code, out, err = run("replay", str(log))
    assert code == 0, err
    said = "replays identically up to where the game stopped at game turn 1 (the input ended)"
    assert "".join(said.split()) in "".join(out.split())  # wrapped to the terminal's width
