"""One meaning for a rule setting everywhere: what ``--rule`` and ``[rules]`` accept,
what a parameter's setting does to its rule, and how ``rulesets`` shows the values."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.engine.rules import Parameter


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
