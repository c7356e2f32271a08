"""Whole game turns: the assault phase in the turn, end-of-turn bookkeeping, examples."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import BOLTGUN, A, B, make_battle, profile, row, squad, weapon
from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.editions.base import GamePlan, play
from hammerlab.editions.waffle.rules.reactions import Overwatch
from hammerlab.editions.waffle.ruleset import WaffleRuleset, end_of_turn
from hammerlab.editions.waffle.state import st

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHORT_RAPID = weapon("Storm rifle", "18", "4", "5", "Rapid Fire")


def test_seed004_overwatch_rapid_fire_counts_the_charger_as_within_1_inch() -> None:
    # The charger stands 10" away: beyond the 9" half range of an 18" Rapid Fire
    # weapon, but Overwatch "counts as being within 1"", so each model fires twice.
    shooters = squad("a", A, profile(), [SHORT_RAPID], row(30, 10, 2))
    charger = squad("b", B, profile(sv="-"), [BOLTGUN], row(30, 21, 1))
    # Snap Shots at BS 4 // 2 = 2 hit on 5+: 4 dice, one hit (5); S4 vs T4: 4+ (6).
    battle = make_battle(
        shooters, charger, dice=[1, 2, 5, 3, 6], script_a=[("weapon", "Storm rifle")]
    )
    Overwatch().resolve(battle, shooters, charger)
    shots = [e for e in battle.log.events if e.kind == "shots"]
    assert [e.to_dict()["shots"] for e in shots] == [4]
    assert charger.destroyed


def test_base_end_of_turn_clears_weapon_types_fired_by_either_side() -> None:
    mine = squad("a", A, profile(), [BOLTGUN], row(10, 10, 1))
    theirs = squad("b", B, profile(), [BOLTGUN], row(10, 40, 1))
    battle = make_battle(mine, theirs)
    st(battle, theirs).fired_types.add("Rapid Fire")  # Return Fire! in A's turn
    end_of_turn(battle, A)
    assert not st(battle, theirs).fired_types


def test_base_phases_play_in_turn_order_whatever_the_plan_lists() -> None:
    mine = squad("a", A, profile(), [BOLTGUN], row(10, 10, 1))
    theirs = squad("b", B, profile(), [BOLTGUN], row(60, 40, 1))
    battle = make_battle(
        mine,
        theirs,
        script_a=[("mover", "end phase"), ("shooter", "end phase"), ("charger", "end charges")],
        script_b=[("mover", "end phase"), ("shooter", "end phase"), ("charger", "end charges")],
    )
    play(battle, WaffleRuleset(), GamePlan(turns=1, phases=("assault", "shooting", "movement")))
    phases = [e.to_dict() for e in battle.log.events if e.kind == "phase"]
    begun = [(p["player"], p["phase"]) for p in phases if p["begins"]]
    assert begun == [
        (A, "movement"),
        (A, "shooting"),
        (A, "assault"),
        (B, "movement"),
        (B, "shooting"),
        (B, "assault"),
    ]


def test_seed004_assault_examples_log_charges_reactions_fights_and_results(
    tmp_path: Path,
) -> None:
    """Issue 3 contract: the assault examples' logs show each mechanism."""
    runner = CliRunner()
    seen: dict[str, set[str]] = {}
    for path in sorted(EXAMPLES.glob("assault_*.toml")):
        out = tmp_path / f"{path.stem}.jsonl"
        result = runner.invoke(app, ["battle", str(path), "--seed", "1", "--log-json", str(out)])
        assert result.exit_code == 0, result.output
        seen[path.stem] = {json.loads(line)["kind"] for line in out.read_text().splitlines()}
    assert len(seen) >= 4
    for name, kinds in seen.items():
        assert {"blows", "combat_result"} <= kinds, name
    charging = [k for k in seen.values() if {"charge", "charge_roll"} <= k]
    assert len(charging) >= 3
    assert any("reaction" in k for k in charging)
    assert "sweeping_advance" in seen["assault_sweeping_advance"]
    assert "stray_shots" in seen["assault_shooting_into_melee"]
