"""The search's look past its horizon: what each side can still do next turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from hammerlab.analysis import threat
from hammerlab.analysis.game import Game
from hammerlab.analysis.threat import threat_margin, waffle_threat
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GUNLINE = ROOT / "examples" / "matchups" / "genestealers_vs_guard_gunline.toml"


def _gunline() -> Game:
    spec = load_scenario(GUNLINE)
    return Game.start(spec, str(GUNLINE), seed=1)


def test_the_margin_is_the_player_s_threats_less_the_other_side_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Scripted threats: the Genestealers 3, each Cadian unit 1 (two Infantry
    # Squads and the lascannons' Heavy Weapons Squad): 3 - 3 = 0 for the Tyranids; with the
    # Genestealers at 5: 5 - 3 = 2 for the Tyranids, 3 - 5 = -2 for the Cadians.
    game = _gunline()
    battle, ruleset = game.battle, game.ready.ruleset
    assert sorted(u.id for u in battle.units.values() if u.player == "Cadians") == [
        "lascannons", "squad1", "squad2"
    ]  # fmt: skip
    genestealers = [5.0]

    def scripted(_battle: Battle, unit: Unit, _victory: str) -> float:
        return genestealers[0] if unit.id == "genestealers" else 1.0

    monkeypatch.setitem(threat.THREATS, "waffle", scripted)
    genestealers[0] = 3.0
    assert threat_margin(battle, ruleset, "models_destroyed", "Tyranids") == 0.0
    genestealers[0] = 5.0
    assert threat_margin(battle, ruleset, "models_destroyed", "Tyranids") == 2.0
    assert threat_margin(battle, ruleset, "models_destroyed", "Cadians") == -2.0


def test_genestealers_out_of_reach_threaten_nothing_and_a_locked_unit_nothing() -> None:
    # The Genestealers have no ranged weapon (BS 0, Rending claws) and start
    # about 21" from the nearest Guardsman (the lascannons' line at y 7, they at
    # y 28): a 6" move leaves about 15", more than the 12" a charge may be
    # declared at. So their threat is 0. The Infantry Squad's lasguns (24") reach
    # them; locked in combat, it threatens nothing past the horizon.
    game = _gunline()
    battle = game.battle
    genestealers, squad = battle.units["genestealers"], battle.units["squad1"]
    assert waffle_threat(battle, genestealers, "models_destroyed") == 0.0
    assert waffle_threat(battle, squad, "models_destroyed") > 0.0  # lasguns in range
    st(battle, squad).locked_in_combat = True
    assert waffle_threat(battle, squad, "models_destroyed") == 0.0
