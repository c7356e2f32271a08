"""Numbers a hostile-input review found taken without a word: too long to read,
everywhere text comes in, and core11 characteristics out of bounds.

Python refuses to convert a whole number of more than 4,300 digits with a
``ValueError`` no parser turned into a user's error: scenarios, logs, saved games,
flags and BattleScribe files all ended in a traceback. Each is now one line
naming the file and line, or the flag, that holds it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.errors import MAX_DIGITS, InputError
from hammerlab.io.battlescribe.source import parse_xml

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"
HUGE = "9" * 5000
SEED = r'"seed":\s*\d+'
PROBLEM = f"a number of 5,000 digits (at most {MAX_DIGITS} are read)"


def test_a_scenario_with_a_number_too_long_names_its_file_and_line(tmp_path: Path) -> None:
    lines = GUARD.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("seed ="))
    lines[at] = f"seed = {HUGE}"
    path = tmp_path / "huge.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run("battle", str(path))
    assert one_line(code, err, 1) == f"error: {path}: line {at + 1}: {PROBLEM}"
    assert out == ""


def test_a_number_of_a_hundred_digits_is_still_read_as_toml(tmp_path: Path) -> None:
    """The bound is on length, not value: 100 digits reach the scenario's own checks."""
    text = GUARD.read_text(encoding="utf-8")
    path = tmp_path / "long.toml"
    path.write_text(text.replace("turns = ", f"turns = {'9' * MAX_DIGITS}\n# turns = "), "utf-8")
    code, _, err = run("battle", str(path))
    assert code == 1 and "digits" not in err and "plan.turns" in err


def test_a_log_and_a_saved_game_with_a_number_too_long_are_refused(tmp_path: Path) -> None:
    log, save = tmp_path / "game.jsonl", tmp_path / "game.json"
    args = ("battle", str(GUARD), "--stop-after", "1", "--log-json", str(log))
    code, _, err = run(*args, "--save", str(save), "--json")
    assert code == 0, err
    header, rest = log.read_text(encoding="utf-8").split("\n", 1)
    assert re.search(SEED, header)
    log.write_text(re.sub(SEED, f'"seed": {HUGE}', header) + "\n" + rest, "utf-8")
    code, _, err = run("replay", str(log))
    assert one_line(code, err, 1) == f"error: {log}: line 1: {PROBLEM}"
    saved = json.loads(save.read_text(encoding="utf-8"))
    save.write_text(re.sub(SEED, f'"seed": {HUGE}', json.dumps(saved, indent=1)), "utf-8")
    code, _, err = run("battle", "--resume", str(save))
    line = one_line(code, err, 1)
    assert line.startswith(f"error: {save}: line ") and line.endswith(PROBLEM)


@pytest.mark.parametrize(
    ("flag", "args"),
    [
        ("--rule", ("battle", str(GUARD), "--rule", f"charge_dice={HUGE}")),
        ("--rule", ("tables", "--rule", f"overwhelming_strength={HUGE}")),
        ("--vary", ("sweep", str(GUARD), "--vary", f"charge_dice={HUGE}", "--runs", "2")),
        ("--attacks/--shots", ("odds", "-r", "core11", "--attacks", f"D6+{HUGE}")),
        ("scenario", ("battle", f"{HUGE}.toml")),
    ],
)
def test_a_flag_with_a_number_too_long_is_a_usage_error_naming_it(
    flag: str, args: tuple[str, ...]
) -> None:
    code, out, err = run(*args)
    assert one_line(code, err, 2) == f"error: {flag}: {PROBLEM}"
    assert out == ""


def test_a_battlescribe_file_with_a_number_too_long_names_its_line() -> None:
    data = f'<?xml version="1.0"?>\n<catalogue>\n<c value="{HUGE}"/>\n</catalogue>\n'.encode()
    with pytest.raises(InputError) as raised:
        parse_xml(data, "army.cat")
    assert str(raised.value) == f"army.cat: line 3: {PROBLEM}"


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ('W = "0"', "Decoy: W must be 1 to 100, not 0"),
        ('T = "0"', "Decoy: T must be 1 to 20, not 0"),
        ('Ld = "0+"', "Decoy: Ld must be 2 to 12, not 0+"),
        ('OC = "99"', "Decoy: OC must be 0 to 20, not 99"),
    ],
)
def test_a_core11_inline_characteristic_out_of_bounds_is_refused(
    tmp_path: Path, written: str, problem: str
) -> None:
    """A hostile-input review: a core11 unit written in the scenario with W 0 started
    destroyed and gave its kill point away; T 0 played too. The Waffle Edition
    refused the same mistakes; core11 now does, naming the file and the model."""
    source = ROOT / "examples" / "core11_ruling_ranged_attack.toml"
    good = 'profile = { M = \'6"\', T = "3", Sv = "6+", W = "1", Ld = "7+", OC = "1" }'
    text = source.read_text(encoding="utf-8")
    assert text.count(good) == 1
    key = written.partition(" = ")[0]
    inside = good.removeprefix("profile = { ").removesuffix(" }")
    was = next(part for part in inside.split(", ") if part.startswith(key))
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(good, good.replace(was, written)), encoding="utf-8")
    code, out, err = run("battle", str(path), "--json")
    line = one_line(code, err, 1)
    assert line.startswith(f"error: {path}: units[1].inline.models[0].profile: ")
    assert problem in line and out == ""


def test_core11_odds_refuse_more_than_a_thousand_attacks_in_all() -> None:
    """A hostile-input review: 100 firing models of 20D6+200 attacks each (32,000) took
    85 s of CPU for one answer. The bound is on the total: 100 x 320 is refused, and
    3 x (20D6+200) = 960 at the most is still answered."""
    numbers = ("--bs", "3", "--strength", "4", "--toughness", "4", "--save", "6", "--ap=0")
    numbers += ("--wounds", "1", "--target-models", "10", "--damage", "1")
    code, out, err = run(
        "odds", "-r", "core11", "--attacks", "20D6+200", "--models", "100", *numbers
    )
    assert one_line(code, err, 2) == (  # a question the flags ask: a usage error
        "error: 100 firing models of up to 320 attacks each make up to 32,000 attacks; "
        "the odds answer at most 1,000 at once"
    )
    assert out == ""
    code, out, err = run("odds", "-r", "core11", "--attacks", "20D6+200", "--models", "3", *numbers)
    assert code == 0, err
