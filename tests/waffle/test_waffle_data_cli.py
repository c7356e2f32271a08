"""The built-in Waffle datasheets, the example scenarios played by the CLI, and
the one-line errors of malformed scenarios."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from hammerlab.cli.app import app
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.ruleset import WaffleRuleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "marines_vs_orks_ruins.toml"

# What each built-in datasheet names that the engine does not implement, read by
# hand from the library files: unit rules, and weapon rules after the weapon type.
NOT_IMPLEMENTED: dict[str, set[str]] = {
    "Infantry Squad": set(),
    "Heavy Weapons Squad": set(),
    "Mortar Squad": set(),
    "Chimera": set(),  # Transport Capacity is implemented (transports.capacity_of)
    "Ogryns": set(),  # Stubborn and Very Bulky (Transport Capacity) are implemented
    "Ork Boyz": {
        "special rule not implemented: Mob Rule",
    },
    "Nobz": {
        "special rule not implemented: Mob Rule",
    },
    "Warboss": {  # Independent Character, Furious Charge, Unwieldy are implemented
        "special rule not implemented: Waaagh!",
    },
    "Tactical Squad": {"special rule not implemented: Combat Squads"},
    "Devastator Squad": {"special rule not implemented: Combat Squads"},
    "Terminator Squad": set(),  # ATSKNF, Relentless, Unwieldy, Specialist Weapon implemented
    "Space Marine Captain": set(),
    "Termagants": {"special rule not implemented: Instinctive Behaviour (Lurk)"},
    "Hormagaunts": {  # Fleet and Move Through Cover are implemented
        "special rule not implemented: Instinctive Behaviour (Feed)",
    },
    "Genestealers": set(),  # Fleet, Stealth, Move Through Cover, Infiltrate are implemented
    "Carnifex": set(),
}


def test_seed000_builtin_datasheets_load_and_parse_without_errors() -> None:
    rules = WaffleRuleset()
    names = rules.unit_names()
    assert set(NOT_IMPLEMENTED) <= set(names)
    for name in names:
        sheet = rules.find_unit(name)
        for entry in sheet.entries:
            stats_of(entry.profile)  # every characteristic reads as a number
            for gun in entry.weapons:
                weapon_of(gun)  # every weapon's Range, S, AP and Type read
        problems = rules.validate_datasheet(sheet)
        assert all("not implemented" in p for p in problems), (name, problems)
        if name in NOT_IMPLEMENTED:
            assert set(problems) == NOT_IMPLEMENTED[name], name


@pytest.mark.parametrize(("unit", "noted"), [("Space Marine Captain", True), ("Ork Boyz", False)])
def test_show_notes_that_an_independent_character_cannot_join_a_unit(
    unit: str, noted: bool
) -> None:
    # docs/rules/waffle.md, Independent Characters: joining a unit is not played, and
    # `show` says so (a referee's review, session 23: it listed the rule with no
    # word of it); a battle's warnings do not (NOT_IMPLEMENTED above: the Captain's
    # problems are none), the rule's other effects being played.
    result = CliRunner().invoke(app, ["show", unit])
    assert result.exit_code == 0, result.output
    note = (
        "special rule played in part: Independent Character: "
        "joining another unit is not implemented"
    )
    assert (note in " ".join(result.output.split())) == noted  # the lines as wrapped
    shown = json.loads(CliRunner().invoke(app, ["show", unit, "--json"]).output)
    assert any(p.startswith(note) for p in shown["not_implemented"]) == noted


def test_seed000_validate_datasheet_reports_parse_errors() -> None:
    # The validator itself does see a bad characteristic or weapon type.
    from conftest import profile, weapon

    from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile

    good = profile()
    bad = Profile("Broken", {**good.characteristics, "BS": "x"})
    sheet = Datasheet(
        "Broken",
        "test",
        "waffle",
        (ModelEntry(bad, 1, (weapon("Gun", "24", "4", "5", "Lobbed 2"),)),),
    )
    problems = WaffleRuleset().validate_datasheet(sheet)
    assert any("BS must be a number" in p for p in problems)
    assert any("unknown weapon type 'Lobbed 2'" in p for p in problems)


# --- hammerlab battle on the examples ---------------------------------------------


def waffle_examples() -> list[Path]:
    found = []
    for path in sorted((ROOT / "examples").glob("*.toml")):
        spec = tomllib.loads(path.read_text(encoding="utf-8"))
        if spec.get("ruleset", "waffle") == "waffle":
            found.append(path)
    return found


@pytest.mark.parametrize("example", waffle_examples(), ids=lambda p: p.name)
def test_seed000_cli_battle_examples_run_and_replay_identically(
    example: Path, tmp_path: Path
) -> None:
    logs = []
    for run in (1, 2):
        out = tmp_path / f"log{run}.jsonl"
        result = CliRunner().invoke(
            app, ["battle", str(example), "--seed", "1", "--log-json", str(out)]
        )
        assert result.exit_code == 0, result.output
        logs.append(out.read_text(encoding="utf-8"))
    assert logs[0] == logs[1]
    events = [json.loads(line) for line in logs[0].splitlines()]
    kinds = {e["kind"] for e in events}
    assert {"phase", "decision", "dice"} <= kinds


def test_seed000_cli_battle_example_exists() -> None:
    assert EXAMPLE in waffle_examples()


# --- malformed scenarios -------------------------------------------------------------

EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")


def broken(old: str, new: str) -> str:
    assert old in EXAMPLE_TEXT, old
    return EXAMPLE_TEXT.replace(old, new, 1)


MALFORMED = {
    "bad-toml": ('name = "x"\n[[players]\nname = "a"\n', "", "not valid TOML: "),
    "unknown-key": (broken("seed = 1\n", 'seed = 1\ncolour = "red"\n'), "colour", "unknown key"),
    "unknown-unit": (
        broken('unit = "Nobz"', 'unit = "Nobzz"'),
        "units[3].unit",
        "unknown unit 'Nobzz'",
    ),
    "unknown-player": (
        broken('player = "Orks"', 'player = "Orcs"'),
        "units[2].player",
        "unknown player 'Orcs'",
    ),
    "unit-off-the-table": (
        broken("position = [44, 30]", "position = [44, 60]"),
        "units[3].position",
        "would stand off the table",
    ),
    "unknown-rule-option": (
        broken("seed = 1\n", "seed = 1\nrules = { final_shoot = true }\n"),
        "rules",
        "unknown rule or parameter 'final_shoot'",
    ),
}


def run_broken(
    text: str, folder: Path, monkeypatch: pytest.MonkeyPatch, absolute: bool
) -> tuple[Result, str]:
    """Write ``text`` to ``folder/bad.toml`` and play it; the result and the name shown."""
    path = folder / "bad.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(folder)
    shown = str(path) if absolute else "bad.toml"
    # No COLUMNS: an 80-column terminal must not fold the line.
    result = CliRunner().invoke(app, ["battle", shown, "--seed", "1"], env={"COLUMNS": None})
    return result, shown


@pytest.mark.parametrize("absolute", [False, True], ids=["relative", "long-absolute-path"])
@pytest.mark.parametrize("case", list(MALFORMED))
def test_seed000_cli_malformed_scenario_one_line_error_no_traceback(
    case: str, absolute: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text, where, problem = MALFORMED[case]
    folder = tmp_path / ("a_folder_name_long_enough_to_push_the_line_past_80_columns" * absolute)
    folder.mkdir(exist_ok=True)
    result, shown = run_broken(text, folder, monkeypatch, absolute)
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)  # handled, not a crash
    assert "Traceback" not in result.output + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    prefix = f"error: {shown}: " + (f"{where}: " if where else "")
    assert lines[0].startswith(prefix), lines[0]
    assert problem in lines[0]
    assert result.stdout == ""
