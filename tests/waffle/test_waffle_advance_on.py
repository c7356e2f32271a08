"""The movement intent ``advance on <unit>``: a move toward one chosen enemy unit
(editions/waffle/movement.py, :func:`advances_on`)."""

from __future__ import annotations

import math
from pathlib import Path

from hammerlab.analysis.game import Action, Game
from hammerlab.editions.waffle.movement import ADVANCE_ON, advances_on, goal_of
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
CARNIFEX = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
BOYZ = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"


def _moved(intent: str) -> tuple[float, float]:
    game = Game.start(load_scenario(CARNIFEX), str(CARNIFEX), 1)
    game.apply(Action("mover", "carnifex", "Carnifex [carnifex]", (("move", intent),)))
    position: tuple[float, float] = game.battle.units["carnifex"].alive_models[0].position
    return position


def test_an_advance_on_the_lascannons_heads_straight_for_them() -> None:
    # The Carnifex starts at (36, 35); the lascannon team's two models stand in a
    # line centred on (36, 5), their 60 mm bases 1" apart: centres 60/25.4 + 1 =
    # 3.362" apart, at x = 36 ± 1.681. Both are as close; the first (west) is
    # taken. 6" straight at it: x falls by 6 x 1.681 / d and y by 6 x 30 / d,
    # d = sqrt(1.681² + 30²). The plain advance heads for squad 1's closest
    # model, south-west of it (x below 36).
    half = (60 / 25.4 + 1) / 2
    d = math.hypot(half, 30)
    x, y = _moved(ADVANCE_ON + "lascannons")
    assert abs(x - (36 - 6 * half / d)) < 1e-9 and abs(y - (35 - 6 * 30 / d)) < 1e-9
    plain_x, plain_y = _moved("advance")
    assert plain_x < 36 and plain_y < 35


def test_no_advance_on_is_offered_where_one_enemy_unit_is_left() -> None:
    # 20 Boyz against one Tactical Squad: the plain advance already heads for it.
    game = Game.start(load_scenario(BOYZ), str(BOYZ), 1)
    battle = game.battle
    assert all(advances_on(battle, unit) == () for unit in battle.units.values())


def test_an_advance_on_a_destroyed_unit_stays_put() -> None:
    game = Game.start(load_scenario(CARNIFEX), str(CARNIFEX), 1)
    battle = game.battle
    carnifex = battle.units["carnifex"]
    for model in battle.units["lascannons"].models:
        model.wounds_left = 0
    assert goal_of(battle, carnifex, ADVANCE_ON + "lascannons") is None
    assert advances_on(battle, carnifex) == (ADVANCE_ON + "squad2",)
    assert goal_of(battle, carnifex, ADVANCE_ON + "nobody") is None
