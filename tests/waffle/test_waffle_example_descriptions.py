"""What an example's description says of its rules agrees with the rules and its units.

A referee review (session 21) found two descriptions contradicting the battles they
describe; each test reads the description and checks the claim against the chart or
the scenario, with the expected values worked out by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

from hammerlab.editions.waffle.tables import to_wound_cell
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_carnifex_example_gives_the_lascannons_to_wound_roll_the_chart_gives() -> None:
    """6th/7th-edition To Wound chart: S = T needs 4+, one better for each point of
    Strength above, down to 2+; a lascannon (S9) against a Carnifex (T6) is S = T+3:
    2+ (``hammerlab tables waffle``). Instant Death needs S at least double T: 9 < 12,
    so none. The description said 3+."""
    spec = load_scenario(EXAMPLES / "matchups" / "carnifex_vs_guard.toml")
    claim = re.search(r"lascannons \(S(\d+) against T(\d+)\) wound it on (\d\+)", spec.description)
    assert claim is not None, spec.description
    assert claim.groups() == ("9", "6", "2+")  # by hand, as above
    assert to_wound_cell(9, 6) == "2+"
    assert "cannot Instant Death it" in spec.description and 9 < 2 * 6


def test_the_final_shot_example_names_the_unit_its_veteran_fires_at() -> None:
    """The scenario's target is a unit of Termagants (``unit = "Termagants"``, which
    Return Fire with fleshborers); the description said Hormagaunts."""
    spec = load_scenario(EXAMPLES / "final_shot_last_stand.toml")
    assert [(u.id, u.player, u.unit) for u in spec.units if u.player == "Tyranids"] == [
        ("gaunts", "Tyranids", "Termagants")
    ]
    assert "fires his heavy bolter at Termagants" in spec.description
    assert "Hormagaunts" not in spec.description
