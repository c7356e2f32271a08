"""`make demo` shows what its description promises (README, first lines)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hammerlab.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "marines_vs_orks_ruins.toml"
MAKEFILE = ROOT / "Makefile"


def test_the_demo_battle_shows_what_its_description_says(tmp_path: Path) -> None:
    """The battle ``make demo`` plays (its seed read from the Makefile) shows each
    thing the scenario's description promises."""
    log = tmp_path / "demo.jsonl"
    seed = MAKEFILE.read_text(encoding="utf-8").split(f"{DEMO.name} --seed ", 1)[1].split()[0]
    result = CliRunner().invoke(app, ["battle", str(DEMO), "--seed", seed, "--log-json", str(log)])
    assert result.exit_code == 0, result.output
    header, *lines = log.read_text(encoding="utf-8").splitlines()
    description = json.loads(header)["scenario"]["description"]
    events = [json.loads(line) for line in lines]
    shown = {
        # "a Heavy weapon fired after moving (snap shots)": the moved Devastators'
        # missile launchers, krak (a Blast, the frag missile, never snap fires).
        "fired after moving (snap shots)": any(
            e["kind"] == "shots"
            and e["snap"]
            and e["unit"] == "Devastator Squad [devastators]"
            and e["weapon"] == "Missile launcher (krak)"
            for e in events
        ),
        "cover saves": any(e["kind"] == "save" and e["save"] == "cover" for e in events),
        "Return Fire!": any(
            e["kind"] == "reaction" and e["reaction"] == "Return Fire!" for e in events
        ),
        "Morale checks": any(e["kind"] == "morale" for e in events),
    }
    for promise, seen in shown.items():
        assert promise in description
        assert seen, promise
