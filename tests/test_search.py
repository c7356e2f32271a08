"""The search AI: deterministic for a seed, never touches the real dice, plays
games that replay, and the random floor picks only legal choices."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hammerlab.analysis.game import Game, check_log
from hammerlab.analysis.search import (
    Budget,
    RandomController,
    SearchController,
    install_search,
    start_game,
)
from hammerlab.cli.app import app
from hammerlab.engine.battle import DecisionMade
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
THREE_TURNS = ROOT / "examples" / "whole_game_three_turns.toml"


def _searched(seed: int) -> Game:
    spec = load_scenario(SMALL)
    players = {p.name: "search" for p in spec.players}
    game = start_game(spec, str(SMALL), seed, players, budget=Budget(playouts=4, depth=2))
    game.play()
    return game


def test_search_is_deterministic_for_a_seed() -> None:
    first, again = _searched(5), _searched(5)
    assert first.is_over
    assert first.decisions() == again.decisions()
    assert first.digest() == again.digest()


def test_search_never_rolls_the_real_battles_dice() -> None:
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    searcher = install_search(game, spec.players[0].name, Budget(playouts=6, depth=2))
    legal = game.legal_actions()  # the game plays on to its first pick
    before, events = game.digest(), len(game.battle.log.events)
    action = searcher.best_action(game)
    assert action in legal
    assert game.digest() == before and len(game.battle.log.events) == events


def test_a_searched_game_is_the_same_as_its_decisions_applied_to_a_plain_game() -> None:
    searched = _searched(3)
    text = searched.to_json()
    assert Game.from_json(text, "searched game").digest() == searched.digest()


def test_battle_with_the_search_controller_logs_a_game_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "search.jsonl"
    result = CliRunner().invoke(
        app,
        ["battle", str(THREE_TURNS), "--seed", "1", "--controller", "search",
         "--playouts", "2", "--json", "--log-json", str(log)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert check_log(log.read_text(encoding="utf-8"), str(log)) is None


def test_the_random_controller_answers_only_legal_choices_and_repeats_for_a_seed() -> None:
    spec = load_scenario(SMALL)
    games = []
    for _ in range(2):
        game = Game.start(
            spec, str(SMALL), 4, controllers={p.name: RandomController(4) for p in spec.players}
        )
        game.play()
        games.append(game)
    assert games[0].is_over and games[0].decisions() == games[1].decisions()
    assert any(isinstance(e, DecisionMade) for e in games[0].battle.log.events)


def test_the_search_knows_the_heuristic_s_own_pick_at_each_top_level_decision() -> None:
    # The search keeps the heuristic AI's pick unless a playout scores another
    # strictly better; the pick it reads off a copy must be the one the
    # heuristic then makes in the real game, first answers included.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=3)
    searcher = SearchController(spec.players[0].name)
    searcher.attach(game)
    for _ in range(6):
        predicted = searcher.heuristic_action(game, game.legal_actions())
        start = len(game.battle.log.events)
        game.step()
        made = [
            (e.decision, e.answer)
            for e in game.battle.log.events[start:]
            if isinstance(e, DecisionMade)
        ]
        wanted = [(predicted.kind, predicted.label), *predicted.then]
        assert made[: len(wanted)] == wanted
