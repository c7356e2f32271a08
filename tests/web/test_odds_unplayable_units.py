"""The odds refuse a BattleScribe unit that cannot be played, as a battle does.

From a player's review: the Astra Militarum catalogue's Special Weapons Squad
imports with three of its six Guardsmen, the other three being a choice among
special weapons that the catalogue leaves to a roster (its group 'Special
Weapons' of the file: ``minSelections`` 3, no default). A scenario refuses the
unit with that reason, but ``hammerlab odds --from`` and the web odds answered
for the three lasgun Guardsmen as if they were the squad. Both now refuse it,
naming the flag (``--attacker`` or ``--target``) and the importer's reason.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from web_kit import EXAMPLES, ROOT

from hammerlab.cli.app import app as cli
from hammerlab.web.app import create_app

GUARD = ROOT / "tests" / "data" / "bsdata-7e" / "Astra Militarum - Codex.cat"
SQUAD = "Special Weapons Squad"
REASON = "its group 'Special Weapons' needs 3 more"


@pytest.mark.parametrize(
    ("attacker", "target", "flag"),
    [(SQUAD, "Infantry Squad", "--attacker"), ("Infantry Squad", SQUAD, "--target")],
)
def test_the_cli_odds_refuse_an_imported_unit_that_cannot_be_played(
    attacker: str, target: str, flag: str
) -> None:
    asked = ["odds", "--from", str(GUARD), "--attacker", attacker, "--weapon", "Lasgun"]
    result = CliRunner().invoke(cli, [*asked, "--target", target])
    assert result.exit_code == 2, result.output
    assert f"error: {flag}: {SQUAD} cannot be played: " in result.output
    assert REASON in result.output


def test_the_web_odds_refuse_an_uploaded_unit_that_cannot_be_played() -> None:
    client = TestClient(create_app(EXAMPLES))
    sent = client.post("/api/upload", files={"file": (GUARD.name, GUARD.read_bytes())})
    assert sent.status_code == 200, sent.text
    ask = {"ruleset": "waffle", "upload": sent.json()["id"], "weapon": "Lasgun"}
    refused = client.post("/api/odds", json={**ask, "attacker": SQUAD, "target": "Infantry Squad"})
    assert refused.status_code == 422
    assert f"{SQUAD} cannot be played: " in refused.json()["error"]
    assert REASON in refused.json()["error"]
    played = client.post(
        "/api/odds", json={**ask, "attacker": "Infantry Squad", "target": "Infantry Squad"}
    )
    assert played.status_code == 200, played.text
