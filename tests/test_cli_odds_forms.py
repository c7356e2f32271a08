"""``hammerlab odds`` forms, checked by hand through the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

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
