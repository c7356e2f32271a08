"""The Waffle Edition's own state of a battle, and the statuses a scenario may set.

6th/7th edition: a unit that fails a Pinning test has gone to ground: it may
not move, run or charge, and it fires Snap Shots. A scenario that starts a
unit pinned must get exactly that (it used to move and run regardless).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.waffle.shooting import action_follow_ups
from hammerlab.editions.waffle.state import WaffleState, WaffleStatus, st
from hammerlab.engine.units import UnitStatus
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

SCENARIO = """
name = "pinned"
ruleset = "{ruleset}"
[plan]
turns = 1
phases = ["{phase}"]
[[players]]
name = "A"
edge = "south"
[[players]]
name = "B"
edge = "north"
[[units]]
id = "a"
player = "A"
unit = "{unit_a}"
position = [36, 10]
[units.status]
{status}
[[units]]
id = "b"
player = "B"
unit = "{unit_b}"
position = [36, 40]
"""


def scenario(tmp_path: Path, status: str, ruleset: str = "waffle", phase: str = "shooting") -> Path:
    units = {"waffle": ("Tactical Squad", "Ork Boyz"), "core11": ("Intercessor Squad",) * 2}
    path = tmp_path / "pinned.toml"
    text = SCENARIO.format(
        ruleset=ruleset,
        phase=phase,
        unit_a=units[ruleset][0],
        unit_b=units[ruleset][1],
        status=status,
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_a_unit_that_starts_pinned_has_gone_to_ground(tmp_path: Path) -> None:
    path = scenario(tmp_path, "pinned = true")
    ready = prepare(load_scenario(path), str(path), 1)
    unit = ready.battle.unit("a")
    status = st(ready.battle, unit)
    assert status.pinned and status.gone_to_ground


def test_a_pinned_unit_may_not_run_and_is_not_offered_a_move(tmp_path: Path) -> None:
    # "Units gone to ground … cannot Run"; units gone to ground do not move.
    from hammerlab.editions.waffle.movement_phase import MOVEMENT

    path = scenario(tmp_path, "pinned = true")
    ready = prepare(load_scenario(path), str(path), 1)
    battle = ready.battle
    unit = battle.unit("a")
    labels = [then[0][1] for then in action_follow_ups(battle, unit)]
    assert "run" not in labels and "hold" in labels
    assert MOVEMENT.picks is not None
    assert MOVEMENT.picks.eligible(battle, "A", frozenset()) == []


def test_an_unknown_status_is_one_error_naming_the_known_ones(tmp_path: Path) -> None:
    path = scenario(tmp_path, "asleep = true")
    with pytest.raises(InputError, match=r"units\[0\]\.status\.asleep: not a waffle status"):
        prepare(load_scenario(path), str(path), 1)


def test_a_core11_scenario_refuses_a_waffle_status(tmp_path: Path) -> None:
    path = scenario(tmp_path, "ran = true", ruleset="core11")
    with pytest.raises(InputError, match="not a core11 status; known: moved, advanced, charged"):
        prepare(load_scenario(path), str(path), 1)


def test_the_waffle_state_is_the_battles_and_the_engine_keeps_only_shared_words(
    tmp_path: Path,
) -> None:
    assert [f.name for f in dataclasses.fields(UnitStatus)] == ["moved", "advanced", "charged"]
    path = scenario(tmp_path, "falling_back = true")
    battle = prepare(load_scenario(path), str(path), 1).battle
    assert isinstance(battle.state, WaffleState)
    assert battle.state.units["a"].falling_back
    assert "falling_back" in {f.name for f in dataclasses.fields(WaffleStatus)}
