"""Issue 4: units imported from the shared real roster fight a Waffle scenario."""

from __future__ import annotations

from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.io.scenario import parse_scenario

ROSTER = Path(__file__).resolve().parents[1] / "data" / "rosters" / "HH_Test.ros"

SCENARIO = f"""
name = "Mechanicum against Orks"
ruleset = "waffle"
[[players]]
name = "Mechanicum"
edge = "south"
[[players]]
name = "Orks"
edge = "north"
[[units]]
id = "castellax"
player = "Mechanicum"
unit = "Castellax Class Battle-Automata Maniple"
source = "{ROSTER.resolve()}"
position = [36, 10]
[[units]]
id = "thallax"
player = "Mechanicum"
unit = "Thallax Cohort"
source = "{ROSTER.resolve()}"
position = [20, 10]
[[units]]
id = "boyz"
player = "Orks"
unit = "Ork Boyz"
position = [30, 28]
"""


def test_roster_units_fight_a_waffle_shooting_phase() -> None:
    ready = prepare(parse_scenario(SCENARIO, "roster.toml"), "roster.toml", seed=3)
    battle = ready.battle
    castellax = battle.unit("castellax")
    # Castellax profile in HH_Test.ros (line 381): WS 3 BS 4 S 6 T 7 W 4 I 3 A 2 LD 7 Save 3+.
    assert castellax.models[0].profile.get("T") == "7"
    assert castellax.models[0].profile.get("BS") == "4"
    assert castellax.models[0].wounds_left == 4
    play(battle, ready.ruleset, ready.plan)
    shots = [e for e in battle.log.events if e.kind == "shots"]
    shooters = {e.to_dict()["unit"] for e in shots}
    assert any("castellax" in s or "thallax" in s for s in shooters)
    assert battle.log.of_kind("phase")
