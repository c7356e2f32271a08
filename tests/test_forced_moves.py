"""``examples/matchups/forced_moves.py``: the forced answer is given where it is
asked for, and only there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.io.scenario import load_scenario
from matchup_kit import load_script

ROOT = Path(__file__).resolve().parents[1]
HORMAGAUNTS = ROOT / "examples" / "matchups" / "hormagaunts_vs_guard_cover.toml"


class _Recorder:
    """Records every Movement-phase move answered: (turn, unit, label)."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.moves: list[tuple[int, str, str]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        index = self.inner.choose(battle, decision)
        if decision.kind == "move" and decision.context.phase == "movement":
            label = decision.labels()[index]
            self.moves.append((battle.turn, decision.context.unit, label))
        return index


def test_the_cadian_squads_move_as_forced_in_turn_one_and_as_the_heuristic_after() -> None:
    forced = load_script("forced_moves").Forced
    scenario = load_scenario(HORMAGAUNTS)
    for label in ("advance", "hold"):
        ready = prepare(scenario, str(HORMAGAUNTS), 1, dice="keyed")
        battle = ready.battle
        own = battle.controllers["Cadians"]
        recorder = _Recorder(forced(own, "squad", {1}, label))
        battle.controllers["Cadians"] = recorder
        play(battle, ready.ruleset, ready.plan)
        first = [(unit, chosen) for turn, unit, chosen in recorder.moves if turn == 1]
        assert sorted(unit for unit, _ in first) == ["mortars", "squad1", "squad2"]
        assert all(chosen == label for unit, chosen in first if unit.startswith("squad"))
        # The mortars, and every later move, are the heuristic's own answers.
        assert dict(first)["mortars"] == "hold"


def test_another_kind_of_decision_is_forced_in_its_turns_only() -> None:
    # The Chimera's squad, which the heuristic disembarks in game turn 1
    # (examples/vehicles_transport.toml), stays aboard when forced to, then
    # disembarks at the heuristic's word in turn 2.
    forced = load_script("forced_moves").Forced
    path = ROOT / "examples" / "vehicles_transport.toml"
    scenario = load_scenario(path)
    answers: dict[str, list[tuple[int, str]]] = {}
    for label in ("disembark", "stay aboard"):
        ready = prepare(scenario, str(path), 1, dice="keyed")
        battle = ready.battle
        battle.controllers["Cadians"] = forced(
            battle.controllers["Cadians"], "guard", {1}, label, "disembark"
        )
        seen: list[tuple[int, str]] = []
        battle.log.subscribe(
            lambda event, seen=seen, battle=battle: (
                seen.append((battle.turn, event.kind))
                if event.kind in ("disembarked", "embarked")
                else None
            )
        )
        play(battle, ready.ruleset, ready.plan)
        answers[label] = seen
    assert answers["disembark"][0] == (1, "disembarked")
    assert answers["stay aboard"][0] == (2, "disembarked")


def test_a_run_gives_each_seed_s_margin_and_the_models_lost_by_owner_and_cause() -> None:
    module = load_script("forced_moves")
    scenario = load_scenario(HORMAGAUNTS)
    advance, causes = module.run(
        scenario, str(HORMAGAUNTS), "Cadians", "squad", {1}, "advance", range(1, 3)
    )
    assert len(advance) == 2
    lost = sum(causes.values())
    assert lost > 0 and all(owner in ("Cadians", "Tyranids") for owner, _ in causes)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["missing.toml", "Cadians", "squad", "1", "advance", "hold", "1", "2"], "missing.toml"),
        ([str(HORMAGAUNTS), "Orks", "squad", "1", "advance", "hold", "1", "2"], "player 'Orks'"),
        ([str(HORMAGAUNTS), "Cadians", "boyz", "1", "advance", "hold", "1", "2"], "'boyz'"),
        ([str(HORMAGAUNTS), "Cadians", "squad", "one", "advance", "hold", "1", "2"], "turns"),
        ([str(HORMAGAUNTS), "Cadians", "squad", "1", "advnce", "hold", "1", "2"], "'advnce'"),
        ([str(HORMAGAUNTS), "Cadians", "squad", "1", "advance", "hold", "1", "1"], "1 seeds"),
    ],
)
def test_a_bad_argument_is_one_line_of_error(arguments: list[str], said: str) -> None:
    script = ROOT / "examples" / "matchups" / "forced_moves.py"
    done = subprocess.run(
        [sys.executable, str(script), *arguments], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert said in done.stderr
    assert done.stdout == ""
