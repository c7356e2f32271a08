"""Victory conditions of the end summary (issue 3: default kill points)."""

from __future__ import annotations

import pytest

from hammerlab.editions.turns import victory_lines
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.dice import Dice
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import UnknownNameError

TROOPER = Profile("Trooper", {"W": "1"})


def _unit(uid: str, player: str, alive: int, dead: int) -> Unit:
    sheet = Datasheet(uid, "test", "waffle", (ModelEntry(TROOPER, alive + dead, ()),))
    models = [
        Model(f"{uid}.{n}", TROOPER, (), (10.0, 10.0), wounds_left=1 if n <= alive else 0)
        for n in range(1, alive + dead + 1)
    ]
    return Unit(uid, uid, player, sheet, models)


def _battle(*units: Unit) -> Battle:
    return Battle(
        Battlefield(),
        (Player("A"), Player("B", "north")),
        {u.id: u for u in units},
        Dice(0),
        "waffle",
    )


def test_kill_points_count_units_destroyed_not_models() -> None:
    # A destroyed one 1-model unit of B (1 kill point); B killed 4 of A's 5 models
    # but destroyed no unit (0 kill points): A wins on kill points.
    battle = _battle(_unit("a1", "A", 1, 4), _unit("b1", "B", 0, 1), _unit("b2", "B", 3, 0))
    assert victory_lines(battle, "kill_points") == ["Kill points scored: A 1, B 0: A wins"]
    assert victory_lines(battle, "models_destroyed") == ["Enemy models destroyed: B 4, A 1: B wins"]


def test_equal_scores_are_a_draw() -> None:
    battle = _battle(_unit("a1", "A", 2, 0), _unit("b1", "B", 2, 0))
    assert victory_lines(battle, "kill_points") == ["Kill points scored: A 0, B 0: a draw"]


def test_unknown_victory_condition_is_an_error() -> None:
    with pytest.raises(UnknownNameError):
        victory_lines(_battle(_unit("a1", "A", 1, 0)), "objectives")
