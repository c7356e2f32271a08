"""What a player reads: the prompt's choices of a Deep Strike, and a roster's psychic powers.

From a player's findings: at ``battle examples/deep_strike_terminators.toml
--controller prompt`` the Deep Strike question listed 115 bare coordinates and a
``choice [1/2/.../115]`` line wrapped over five lines; ``import`` and ``show --from``
never named the psychic powers a roster's Librarian knows (only ``--json`` did).

The powers expected are those ``tests/data/rosters/psychic_librarian.ros`` writes
(its Biomancy selection: Smite, Endurance, Enfeeble, with their Warp Charge,
Power Category, Range, Strength, AP and Type as written there).
"""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from cli_kit import run
from hammerlab.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DEEP_STRIKE = ROOT / "examples" / "deep_strike_terminators.toml"
"""The Terminators (Ultramarines) arrive by Deep Strike in turn 2 with the seed 5."""
ROSTER = ROOT / "tests" / "data" / "rosters" / "psychic_librarian.ros"

POWER_ROWS = [
    ("(Primaris) Smite", "1", "Witchfire", '18"', "4", "2", "Assault 4"),
    ("5 - Endurance", "2", "Blessing", '24"', "-", "-", "-"),
    ("2 - Enfeeble", "1", "Malediction", '24"', "-", "-", "-"),
]
"""Power, Warp Charge, Power Category, Range, Strength, AP, Type, as the roster writes
them (``-``: the power has no such characteristic)."""
DETAILS = [
    "5 - Endurance: Whilst the power is in effect, all models in the target unit gain "
    "the Eternal Warrior, Feel No Pain (4+) and Relentless special rules.",
    "2 - Enfeeble: Whilst the power is in effect, the target unit suffers a -1 penalty "
    "to both Strength and Toughness, and treats all terrain (even open ground) as "
    "difficult terrain.",
]
"""The roster's ``Details`` of the two powers that have any (Smite's are empty)."""


def test_the_deep_strike_prompt_tells_each_point_by_its_enemy_and_risk() -> None:
    result = CliRunner().invoke(
        app,
        ["battle", str(DEEP_STRIKE), "--controller", "prompt", "--side", "Ultramarines"],
        input="\n" * 1000,
        env={"COLUMNS": "300"},
    )
    words = " ".join(result.stdout.split())  # however the terminal wrapped the lines
    assert "Deep Strike (arrives from reserve)?" in words, result.output[-3000:]
    question = words.index("Deep Strike (arrives from reserve)?")
    listing = words[question : words.index("decides deep_strike", question)]
    numbered = re.findall(r" (\d+)\. \(\d+\.\d, \d+\.\d\)(:[^:]*?)(?= \d+\. \(| choice )", listing)
    assert len(numbered) > 20
    assert [int(n) for n, _ in numbered] == list(range(1, len(numbered) + 1))
    for _, detail in numbered:  # each: the nearest unit of the Cadians', then the risk
        assert re.match(r': \d+\.\d" from [A-Za-z ]+ \[(squad1|squad2|heavy)\]', detail), detail
        assert re.search(r", mishap (<1|\d+)%$", detail), detail
    assert f"choice [1-{len(numbered)}] (1):" in listing
    assert "[1/2/3" not in result.stdout  # no choice line lists every number


def test_import_lists_the_psychic_powers_a_roster_s_psyker_knows() -> None:
    code, out, err = run("import", str(ROSTER))
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("Psychic powers of 'Librarian':")
    assert lines[at + 1].split() == [
        "Power", "Warp", "Charge", "Power", "Category", "Range", "Strength", "AP", "Type",
    ]  # fmt: skip
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[at + 3 : at + 6]]
    assert rows == [list(row) for row in POWER_ROWS]
    assert lines[at + 6 : at + 8] == DETAILS


def test_show_from_a_roster_lists_the_psychic_powers() -> None:
    code, out, err = run("show", "--from", str(ROSTER), "Librarian")
    assert code == 0, err
    assert "Psychic powers of 'Librarian':" in out
    words = " ".join(out.split())  # rich wraps cells and lines: compare the words
    for name, warp, category, rng, *_ in POWER_ROWS:
        for cell in (*name.split(), warp, category, rng):
            assert cell in words
    for detail in DETAILS:
        assert detail in words
