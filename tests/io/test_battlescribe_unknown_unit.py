"""A unit name a BattleScribe file does not hold: one error naming the file, with the
names spelt alike (a player's review of the catalogues, session 23: ``show --from
sm.cat "Rhinoceros"`` said ``error: unknown unit 'Rhinoceros'``, naming neither the
file nor the Rhino).

The names expected are the shared Space Marine catalogue's (``Space Marines - Codex
(2015).cat``: its ``Rhino`` entry; ``Drop Pod`` and the two Forge World pods whose
names contain it), chosen by the rule :func:`hammerlab.errors.similar_names` states.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.errors import UnknownNameError, similar_names
from hammerlab.io.battlescribe import import_file, unit_from_file

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
MARINES = BSDATA / "Space Marines - Codex (2015).cat"


def test_a_name_that_contains_a_known_name_suggests_it() -> None:
    # "rhino" is within "rhinoceros"; "Razorback" is neither within it nor alike
    # (difflib ratio 0.42); "Rhino" alone is 2 x 5 / 15 = 0.67 alike as a whole,
    # short of the 0.7 that suggested it before.
    assert similar_names("Rhinoceros", ["Razorback", "Rhino"]) == ["Rhino"]
    # A known name under three letters is not suggested for being within it ("os").
    assert similar_names("Rhinoceros", ["Os", "Rhino"]) == ["Rhino"]


def test_show_from_a_file_names_the_file_and_the_units_spelt_alike() -> None:
    code, out, err = run("show", "--from", str(MARINES), "Rhinoceros")
    line = one_line(code, err, 1)
    assert out == ""
    assert line == f"error: unknown unit 'Rhinoceros' in {MARINES} (did you mean: Rhino)"


def test_the_importer_and_a_scenario_say_which_file_lacks_the_unit() -> None:
    with pytest.raises(UnknownNameError) as raised:
        import_file(MARINES).find("Drop Podd")
    message = str(raised.value)
    assert message.startswith(f"unknown unit 'Drop Podd' in {MARINES} (did you mean: Drop Pod, ")
    with pytest.raises(UnknownNameError, match=r"in .*Space Marines - Codex"):
        unit_from_file(MARINES, "Rhinoceros")
