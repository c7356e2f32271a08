"""The search's playouts roll keyed dice (:data:`Budget.dice`): two actions tried
on one seed share every roll they make alike, long after their first different
roll; with one stream per copy they share none after it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from hammerlab.analysis.game import Action, Game
from hammerlab.analysis.search import Budget, SearchController
from hammerlab.engine.dice import DiceModeError
from hammerlab.engine.events import DiceRolled, PhaseChanged
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GUNLINE = ROOT / "examples" / "matchups" / "genestealers_vs_guard_gunline.toml"
Streams = dict[tuple[int, str, str], list[int]]


def _streams(game: Game, start: int) -> Streams:
    """The values each (game turn, player's turn, purpose) rolled after event ``start``."""
    streams: Streams = defaultdict(list)
    turn, player = game.turn, game.battle.active_player
    for event in game.battle.log.events[start:]:
        if isinstance(event, PhaseChanged):
            turn, player = event.turn, event.player
        elif isinstance(event, DiceRolled):
            streams[(turn, player, event.purpose)].extend(event.values)
    return streams


def _cadians_first_shooting() -> tuple[Game, Action, Action]:
    """The gunline, seed 1, at the Cadians' first Shooting-phase pick: the first
    squad shooting the Genestealers first, or the second."""
    game = Game.start(load_scenario(GUNLINE), str(GUNLINE), seed=1)
    while not (game.current_player == "Cadians" and game.legal_actions()[0].kind == "shooter"):
        game.step()
    first, second = (
        next(a for a in game.legal_actions() if a.unit == u and a.then[-1][1].startswith("Gene"))
        for u in ("squad1", "squad2")
    )
    return game, first, second


def _shared(dice: str) -> tuple[int, int]:
    """(rolls both playouts made alike, rolls of purposes both made), seed 7."""
    game, first, second = _cadians_first_shooting()
    searcher = SearchController("Cadians", replace(Budget(), dice=dice))
    searcher.attach(game)
    start = len(game.battle.log.events)
    one, two = (_streams(searcher.playout(game, a, seed=7), start) for a in (first, second))
    alike = common = 0
    for key in one.keys() & two.keys():
        pairs = list(zip(one[key], two[key], strict=False))  # as far as both go
        common += len(pairs)
        alike += next((i for i, (x, y) in enumerate(pairs) if x != y), len(pairs))
    return alike, common


def test_keyed_playouts_of_two_actions_share_each_purpose_s_dice() -> None:
    # Two orders of the same shots: the first roll differs at once (squad1's
    # or squad2's to-hit dice), yet each purpose's stream is the same in both
    # copies, so every roll the two make for the same purpose in the same
    # turn agrees as far as both go.
    alike, common = _shared("keyed")
    assert common > 50
    assert alike == common


def test_single_stream_playouts_share_almost_nothing_after_the_first_difference() -> None:
    alike, common = _shared("single")
    assert alike < common / 2


def test_keyed_playouts_are_the_same_for_the_same_seed() -> None:
    game, first, _ = _cadians_first_shooting()
    searcher = SearchController("Cadians")
    searcher.attach(game)
    assert searcher.budget.dice == "keyed"
    one, two = searcher.playout(game, first, seed=3), searcher.playout(game, first, seed=3)
    assert one.digest() == two.digest()
    assert one.battle.log.json_lines() == two.battle.log.json_lines()
    assert one.digest() != searcher.playout(game, first, seed=4).digest()


def test_a_budget_with_an_unknown_dice_mode_is_refused_when_made() -> None:
    # The modes are dice_for's two (engine/dice.py); anything else is a user's mistake,
    # named at once rather than at the first playout of a long tournament.
    with pytest.raises(DiceModeError, match="'triple'"):
        Budget(dice="triple")
    assert Budget(dice="single").dice == "single"
