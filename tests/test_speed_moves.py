"""A Waffle move measures only the bases it can come near, and moves as far as before;
a way round difficult terrain, remembered, is the one worked out afresh.

:func:`geometry.near_path` leaves out the bases a move cannot come within reach
of; here every base it leaves out is measured anyway, at many steps of the move,
and found farther than the reach, on random layouts. The moves themselves
(:func:`movement._shortened`, a move's longest legal part, and
:func:`movement.fall_back_route`) are checked against the same moves with every
base measured (``near_path`` made to keep them all) for every unit, at every
decision of whole AI battles of examples where units advance, run, flank and
fall back; and a unit's way round difficult terrain (:func:`flank.flank_route`,
remembered by the unit's centre, its models' offsets and radius and the goal)
against the way worked out afresh, asked twice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle import flank, movement
from hammerlab.editions.waffle.flank import flank_route
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.geometry import Placed, Vec, near_path, segment_point_distance
from hammerlab.engine.units import Model
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = (
    "whole_game_three_turns.toml",
    "guard_suppress_terminators.toml",
    "assault_charge_into_overwatch.toml",
    "matchups/carnifex_vs_guard.toml",
    "lab_charge_through_difficult_terrain.toml",
)


def _every_base(models: object, vector: Vec, others: Iterable[Any], reach: float) -> list[Any]:
    """``near_path`` that keeps every base: the move measured against all of them."""
    return list(others)


def _models(draw: random.Random, count: int, prefix: str) -> list[Model]:
    profile = Profile("Marine", {"W": "1"})
    return [
        Model(
            f"{prefix}{i}",
            profile,
            (),
            (draw.uniform(0.0, 30.0), draw.uniform(0.0, 30.0)),
            base_mm=draw.choice((25.0, 32.0, 40.0, 60.0)),
        )
        for i in range(count)
    ]


def _gap(start: Vec, end: Vec, model: Model, other: Placed) -> float:
    return segment_point_distance(start, end, other.position) - model.radius - other.radius


@pytest.mark.parametrize("seed", range(12))
def test_a_base_left_out_is_beyond_the_reach_at_every_step_of_the_move(seed: int) -> None:
    draw = random.Random(seed)
    movers, others = _models(draw, 6, "m"), _models(draw, 30, "o")
    for _ in range(10):
        vector = (draw.uniform(-12.0, 12.0), draw.uniform(-12.0, 12.0))
        for reach in (0.0, 1.0, 2.0):
            kept = near_path(movers, vector, others, reach)
            assert kept == [o for o in others if o in kept]  # in their order
            for other in (o for o in others if o not in kept):
                for step in range(21):
                    scale = step / 20
                    shift = (vector[0] * scale, vector[1] * scale)
                    for model in movers:
                        (x, y) = model.position
                        end = (x + shift[0], y + shift[1])
                        assert _gap(model.position, end, model, other) > reach
    assert near_path([], (1.0, 1.0), others, 1.0) == []


class _Checking:
    """A controller that checks every unit's moves, then lets the AI decide."""

    def __init__(self, inner: Controller, monkeypatch: pytest.MonkeyPatch) -> None:
        self.inner = inner
        self.monkeypatch = monkeypatch
        self.checked = 0

    def _moves(self, battle: Battle) -> list[object]:
        found: list[object] = []
        for unit in battle.units.values():
            if not unit.alive_models:
                continue
            for vector in ((6.0, 0.0), (-4.0, 5.0), (0.0, -12.0), (9.0, 9.0)):
                for keep_clear in (True, False):
                    found.append(movement._shortened(battle, unit, vector, keep_clear))
            for distance in (2.0, 7.0, 11.0):
                found.append(movement.fall_back_route(battle, unit, distance))
            for _ in range(2):
                found.append(flank_route(battle, unit, movement.goal_of(battle, unit, "advance")))
        return found

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        near = self._moves(battle)
        with self.monkeypatch.context() as patch:
            patch.setattr(movement, "near_path", _every_base)
            patch.setattr(flank, "_way_round_from", flank._way_round_from.__wrapped__)
            assert self._moves(battle) == near
        self.checked += 1
        return self.inner.choose(battle, decision)


@pytest.mark.parametrize("name", EXAMPLES)
def test_moves_go_as_far_as_with_every_base_measured_in_whole_battles(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ROOT / "examples" / name
    ready = prepare(load_scenario(path), str(path), 1)
    checking = {p: _Checking(c, monkeypatch) for p, c in ready.battle.controllers.items()}
    ready.battle.controllers.update(checking)
    play(ready.battle, ready.ruleset, ready.plan)
    assert sum(c.checked for c in checking.values()) > 0
