"""One phase played alone, as a whole game's flow plays it: what the editions' tests
need (code review s24, finding 6: it lived in ``editions/flow.py`` with no caller in
``src``)."""

from __future__ import annotations

from hammerlab.editions.flow import Flow, Phase, Play
from hammerlab.engine.battle import Battle


def run_phase(battle: Battle, phase: Phase, player: str) -> None:
    """Play one phase for ``player`` at the battle's current turn, with the same cursor
    as a whole game."""
    Play(battle, Flow((phase,)), battle.turn, battle.turn, order=[player]).run()
