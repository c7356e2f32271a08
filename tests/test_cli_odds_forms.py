"""``hammerlab odds`` forms, checked by hand through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.odds import LibraryQuestion, QuestionError, calculator
from hammerlab.cli.app import app

LIBRARY = ["odds", "-r", "waffle", "--attacker", "Heavy Weapons Squad", "--weapon", "Lascannon",
           "--target", "Space Marine Captain"]  # fmt: skip


def test_waffle_library_lascannons_at_a_captain_by_hand() -> None:
    # 3 lascannons (BS3: hit 4+, 1/2), S9 v T4 wound 2+ (5/6), AP2 negates the 3+
    # armour, the Iron Halo's 4++ saves half; S9 >= 2 x T4: one unsaved wound is
    # Instant Death for the W3 Captain. Per shot 1/2 * 5/6 * 1/2 = 5/24, so
    # P(destroyed) = 1 - (19/24)^3.
    result = CliRunner().invoke(app, [*LIBRARY, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["p_unit_destroyed"] == pytest.approx(1 - (19 / 24) ** 3)
    assert answer["means"]["unsaved_wounds"] == pytest.approx(3 * 5 / 24)


@pytest.mark.parametrize("option", [["--invulnerable", "3"], ["--feel-no-pain", "5"]])
def test_library_form_refuses_plain_numbers_it_would_ignore(option: list[str]) -> None:
    result = CliRunner().invoke(app, [*LIBRARY, *option])
    assert result.exit_code == 1
    assert "library form takes no plain numbers" in result.stderr


ORKS = str(Path(__file__).parent / "data" / "bsdata-7e" / "Orks - Codex.cat")
AT_A_KAN = ["odds", "--attacker", "Heavy Weapons Squad", "--weapon", "Lascannon",
            "--target", "Killa Kans"]  # fmt: skip


def test_odds_at_a_unit_of_a_battlescribe_file_named_with_from() -> None:
    # A Killa Kan (Codex: Orks, 7th edition: Front AV11, 2 Hull Points) is no library
    # unit: only --from finds it. 3 lascannon shots at BS3 hit on 4+ (1.5 hits); a
    # hit glances or penetrates unless the D6 + S9 against AV11 rolls a 1 (10 < 11),
    # so a shot takes no Hull Point with 1/2 + 1/2 * 1/6 = 7/12, all three (7/12)^3.
    refused = CliRunner().invoke(app, AT_A_KAN)
    assert refused.exit_code == 1 and "unknown unit 'Killa Kans'" in refused.stderr
    result = CliRunner().invoke(app, [*AT_A_KAN, "--from", ORKS, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert "Killa Kan Front AV11 HP2" in answer["question"]
    assert answer["means"]["hits"] == pytest.approx(1.5)
    assert answer["unsaved_wounds"][0] == pytest.approx((7 / 12) ** 3)


def test_a_battlescribe_file_with_another_edition_s_odds_says_which_edition_its_units_are() -> None:
    # A player's review: core11 odds from a BattleScribe file said "AP '-' is not a
    # number", as if the file were broken; its units are 7th-edition (waffle) datasheets.
    ask = ["odds", "-r", "core11", "--from", ORKS, "--attacker", "Boyz", "--weapon", "Slugga",
           "--target", "Boyz"]  # fmt: skip
    result = CliRunner().invoke(app, ask)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("error: the units given (")
    assert result.stderr.endswith(
        "are waffle datasheets, as a BattleScribe file's are; core11 odds cannot use them: "
        "ask with --ruleset waffle\n"
    )
    assert "/" not in result.stderr  # no path: an upload's would be the server's own
    shown = CliRunner().invoke(app, ["show", "--from", ORKS, "Boyz", "--ruleset", "core11"])
    assert (shown.exit_code, shown.stdout) == (1, "")
    assert shown.stderr.startswith("error: 'Boyz' is a waffle datasheet (")
    assert shown.stderr.endswith(
        "the core11 ruleset cannot use it: show it with --ruleset waffle\n"
    )


def test_odds_on_a_weapon_the_import_dropped_says_why() -> None:
    # A player's review: the Lootas' Deffgun is in the catalogue, but its Shots are
    # "D3" (dice the Waffle Edition does not roll for shots), so the import drops it
    # with a note (show --from prints it); odds said only "has no weapon 'deffgun'".
    # The error repeats why; a weapon never in the file is refused as before.
    ask = ["odds", "--from", ORKS, "--attacker", "Lootas", "--target", "Tactical Squad"]
    result = CliRunner().invoke(app, [*ask, "--weapon", "Deffgun"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: Lootas has no weapon 'deffgun': the import dropped it (Weapon 'Deffgun' "
        "cannot be used by the Waffle Edition: its shots 'D3' are dice, which it does not "
        "roll); it has: Stikkbombs\n"
    )
    other = CliRunner().invoke(app, [*ask, "--weapon", "Shoota"])
    assert other.stderr == "error: Lootas has no weapon 'shoota'; it has: Stikkbombs\n"


def test_odds_from_a_missing_file_is_one_line() -> None:
    result = CliRunner().invoke(app, [*AT_A_KAN, "--from", "no_such_file.cat"])
    assert result.exit_code == 1 and not result.stdout
    assert result.stderr == "error: no_such_file.cat: file not found\n"


@pytest.mark.parametrize(
    ("edition", "attacker", "target"),
    [
        ("waffle", "Heavy Weapons Squad", "Tactical Squad"),
        ("core11", "Intercessor Squad", "Intercessor Squad"),
    ],
)
def test_a_bad_odds_question_is_one_error_type_in_every_edition(
    edition: str, attacker: str, target: str
) -> None:
    # docs/api.md: a question a calculator cannot answer is a QuestionError, whichever
    # edition answers, so a tool catches one type (the web page does).
    question = LibraryQuestion(attacker=attacker, weapon="Nope", target=target)
    with pytest.raises(QuestionError, match="has no weapon"):
        calculator(edition).library(question)
