"""The ``import`` command, registered on a local Typer app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hammerlab.cli import import_cmd

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
ORKS = BSDATA / "Orks - Codex.cat"
NINE = {"WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"}


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """A stand-in for the hammerlab app."""

    import_cmd.register(app)
    return app


@pytest.fixture(scope="module")
def orks() -> Path:
    assert ORKS.is_file(), f"test data missing: {ORKS}"
    return ORKS


def test_json_lists_units_with_profiles_weapons_and_notes(app: typer.Typer, orks: Path) -> None:
    result = CliRunner().invoke(app, ["import", str(orks), "--json"])
    assert result.exit_code == 0, result.output
    units = json.loads(result.stdout)
    assert isinstance(units, list) and units
    for unit in units:
        assert {"name", "profiles", "weapons", "notes"} <= set(unit)
        for profile in unit["profiles"]:
            assert {"name"} | NINE <= set(profile)
        for weapon in unit["weapons"]:
            assert {"name", "range", "strength", "ap", "type"} <= set(weapon)
    boyz = next(unit for unit in units if unit["name"] == "Boyz")
    assert boyz["profiles"][0]["name"] == "Ork Boy"
    assert {"name": "Slugga", "range": "12", "strength": "4", "ap": "6", "type": "Pistol"} in (
        boyz["weapons"]
    )


def test_tables_show_units_notes_and_counts(app: typer.Typer, orks: Path) -> None:
    result = CliRunner().invoke(app, ["import", str(orks)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "Boyz" in result.stdout
    assert "Slugga" in result.stdout
    # The Trukk's profile (Orks - Codex.cat, line 44992): BS 2, Front 10, Side 10, Rear 10,
    # HP 3 (issue 12 §2: vehicles are read, no longer left out).
    assert "Vehicle Trukk: Front 10, Side 10, Rear 10, HP 3" in result.stdout
    assert "weapon profiles" in result.stdout


@pytest.mark.parametrize("name", ["missing.cat", "broken.cat"])
def test_errors_are_one_line_and_exit_1(app: typer.Typer, tmp_path: Path, name: str) -> None:
    (tmp_path / "broken.cat").write_text("<catalogue")
    result = CliRunner().invoke(app, ["import", str(tmp_path / name)])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert name in lines[0]


def test_json_says_which_weapons_are_grenades_and_firing_modes(
    app: typer.Typer, orks: Path
) -> None:
    """Issue 12 §1: grenades are kept as grenades, a kombi-weapon's two profiles
    as modes of it (Orks - Codex.cat: the Boyz' Stikkbombs 8" S3 AP- ``Assault 1,
    3" Blast, Assault grenades``; Skrak's Skull-Nobz' ``Kombi-weapon w/ Skorcha``)."""
    result = CliRunner().invoke(app, ["import", str(orks), "--json"])
    units = {unit["name"]: unit for unit in json.loads(result.stdout)}
    stikkbombs = next(w for w in units["Boyz"]["weapons"] if w["name"] == "Stikkbombs")
    assert (stikkbombs["range"], stikkbombs["grenade"], "mode_of" in stikkbombs) == (
        "8",
        True,
        False,
    )
    kombi = {
        w["name"]: w["mode_of"] for w in units["Skrak's Skull-Nobz"]["weapons"] if "mode_of" in w
    }
    assert kombi == {"Shoota": "Kombi-weapon w/ Skorcha", "Skorcha": "Kombi-weapon w/ Skorcha"}
