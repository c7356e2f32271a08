"""A plug-in's shooting action or reaction is taken by the heuristic AI when it says
what it is worth (``points.Weighed``) and that beats the built-in choices; one that
says nothing is offered but never taken (docs/plugins.md).

A user review: a plug-in "Covering Fire" (shoot, and the target takes a Pinning
test), strictly better than shooting, was chosen 0 times in 226 offers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import SHOOTING_ACTIONS
from hammerlab.editions.waffle.rules.reactions import DiveForCover, ReturnFire
from hammerlab.editions.waffle.shooting import HOLD, shooting_actions
from hammerlab.editions.waffle.shooting_plans import shooting_plan
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


@dataclass(frozen=True)
class Stub:
    """An action or a reaction whose worth is a fixed number (or none: ``None``)."""

    label: str
    value: float | None

    def targets(self, battle: Battle, unit: Unit, targets: list[Unit]) -> list[Unit]:
        return targets

    def orders(self) -> FireOrders:
        return FireOrders(action=self.label)

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        return True

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """Nothing: only the choice is tested."""

    def __getattr__(self, name: str) -> Any:
        if name == "worth" and self.value is not None:
            value = self.value
            return lambda battle, unit, other: value
        raise AttributeError(name)


def _guard() -> Battle:
    ready = prepare(load_scenario(GUARD), str(GUARD), 1, {"suppressive_fire": False})
    return ready.battle


def _action_with(battle: Battle, stub: Stub) -> str:
    battle.hooks.add(SHOOTING_ACTIONS, stub)
    unit = battle.unit("squad1")
    offered = shooting_actions(battle, unit)
    choices = (*(Choice(a.label, (a, t)) for a, t in offered), Choice(HOLD, HOLD))
    decision = Decision("action", unit.player, "act?", choices, DecisionContext(unit=unit.id))
    return choices[WaffleAI().choose(battle, decision)].label


@pytest.mark.parametrize(("over", "expected"), [(0.5, "covering"), (-0.5, "shoot")])
def test_a_plug_in_action_is_taken_when_its_worth_beats_the_shooting_plan(
    over: float, expected: str
) -> None:
    battle = _guard()
    plan = shooting_plan(battle, battle.unit("squad1"))
    assert plan.value > 0 and plan.target is not None  # the squad means to shoot
    assert _action_with(battle, Stub("covering", plan.value + over)) == expected


def test_a_plug_in_action_that_gives_no_worth_is_never_taken() -> None:
    battle = _guard()
    assert _action_with(battle, Stub("covering", None)) == "shoot"


def _reaction_with(stub: Stub) -> str:
    battle = _guard()
    unit, attacker = battle.unit("terminators"), battle.unit("squad1")
    choices = (
        Choice("Return Fire!", ReturnFire()),
        Choice("Dive for Cover", DiveForCover()),
        Choice(stub.label, stub),
        Choice("no reaction", None),
    )
    context = DecisionContext(unit=unit.id, attacker=attacker.id)
    decision: Decision[Any] = Decision("reaction", unit.player, "react?", choices, context)
    return choices[WaffleAI().choose(battle, decision)].label


@pytest.mark.parametrize(
    ("value", "expected"), [(100.0, "hunker"), (0.0, "Return Fire!"), (None, "Return Fire!")]
)
def test_a_plug_in_reaction_is_taken_only_when_worth_more_than_the_built_in_one(
    value: float | None, expected: str
) -> None:
    # The Terminators shot at by the Guard return fire (their storm bolters reach):
    # worth more than 0, so a reaction worth 0, or none, leaves Return Fire!.
    assert _reaction_with(Stub("hunker", value)) == expected


def test_the_covering_fire_example_is_taken_by_the_ai_in_play() -> None:
    load_plugin_file(ROOT / "examples" / "rules" / "covering_fire.py")
    scenario_path = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
    ready = prepare(load_scenario(scenario_path), str(scenario_path), 1, {"covering_fire": True})
    play(ready.battle, ready.ruleset, ready.plan)
    actions = [
        e.answer for e in ready.battle.log.events
        if isinstance(e, DecisionMade) and e.decision == "action"
    ]  # fmt: skip
    assert "covering fire" in actions
    tests = [e for e in ready.battle.log.events if "(Covering Fire)" in e.text]
    assert tests  # a target it hit took its Pinning test
