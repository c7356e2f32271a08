"""The search's inner decisions (reactions to shooting and to charges), tried on
copies that replay the activation in play, and its sequential paired test."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.branching import Snapshot, branch_playout
from hammerlab.analysis.game import Game
from hammerlab.analysis.search import Budget, SearchController, install_search
from hammerlab.editions.waffle import ruleset as waffle_ruleset
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Decision
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GUNLINE = ROOT / "examples" / "matchups" / "genestealers_vs_guard_gunline.toml"


class AskedError(Exception):
    """Stops the game at the searcher's first inner decision."""

    def __init__(self, battle: Battle, decision: Decision[Any], pick: int) -> None:
        super().__init__(decision.kind)
        self.battle, self.decision, self.pick = battle, decision, pick


def _first_reaction(monkeypatch: pytest.MonkeyPatch) -> tuple[SearchController, AskedError]:
    """The Genestealers' search at its first reaction (the Guard shoot them in
    turn 1), the game stopped there."""

    def stop(self: SearchController, battle: Battle, decision: Decision[Any], pick: int) -> int:
        raise AskedError(battle, decision, pick)

    monkeypatch.setattr(SearchController, "inner_choice", stop)
    spec = load_scenario(GUNLINE)
    game = Game.start(spec, str(GUNLINE), seed=1)
    searcher = install_search(game, "Tyranids", Budget(playouts=2, reactions="searched"))
    with pytest.raises(AskedError) as asked:
        game.play()
    return searcher, asked.value


def test_by_default_the_reactions_are_left_to_the_heuristic_and_none_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The game of _first_reaction, its first game turn, the default budget's
    # reactions the heuristic's (Budget.reactions): the Genestealers are shot and
    # react, and no reaction is searched (inner_choice would stop the game).
    def stop(self: SearchController, battle: Battle, decision: Decision[Any], pick: int) -> int:
        raise AskedError(battle, decision, pick)

    monkeypatch.setattr(SearchController, "inner_choice", stop)
    game = Game.start(load_scenario(GUNLINE), str(GUNLINE), seed=1, stop_before_turn=2)
    install_search(game, "Tyranids", Budget(playouts=2))
    game.play()
    reactions = [
        e
        for e in game.battle.log.events
        if isinstance(e, DecisionMade) and e.decision == "reaction" and e.player == "Tyranids"
    ]
    assert reactions


def test_a_branch_replays_the_activation_and_answers_the_decision_it_tries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The copy, taken at the Cadians' top-level pick that started the shooting,
    # must log exactly what the real game logged up to the reaction (the
    # same decisions on the same dice), then the answer the branch tries.
    searcher, asked = _first_reaction(monkeypatch)
    assert asked.decision.kind == "reaction" and asked.decision.player == "Tyranids"
    snapshot = searcher._snapshot
    assert isinstance(snapshot, Snapshot)
    real = asked.battle.log.events
    answers = snapshot.answers_since(asked.battle)
    assert answers  # at least the Cadians' pick of their shooting unit
    for label in asked.decision.labels():
        copy = branch_playout(
            snapshot, answers, ("reaction", label), seed=9, rounds=0, dice="keyed"
        )
        logged = copy.battle.log.events
        assert logged[: len(real)] == real
        tried = DecisionMade(player="Tyranids", decision="reaction", answer=label)
        assert logged[len(real)] == tried


def test_a_branch_whose_horizon_falls_in_the_last_turn_plays_it_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The reaction comes in the Cadians' turn 1 of five: four rounds on is
    # their turn 5, the last; played whole, the copy ends with the game,
    # else at the start of that turn, before the Cadians' last shooting. Sudden
    # Death is taken out of these games: in this matchup nearly every playout
    # wipes a side out before turn 5, which ends it there either way, and what is
    # tested is the horizon.
    monkeypatch.setattr(waffle_ruleset, "game_over", lambda battle: False)
    searcher, asked = _first_reaction(monkeypatch)
    snapshot = searcher._snapshot
    assert isinstance(snapshot, Snapshot) and asked.battle.turn == 1
    answers = snapshot.answers_since(asked.battle)
    label = asked.decision.labels()[asked.pick]
    seat = snapshot.game.play_state.cursor.seat
    for whole in (True, False):
        copy = branch_playout(
            snapshot, answers, ("reaction", label), 9, 4, "keyed", whole_last_turn=whole
        )
        assert copy.is_over == whole
        if not whole:
            assert (copy.turn, copy.play_state.cursor.seat) == (5, seat)


def _scored_by(answer: str) -> Any:
    """A value for a branch's copy: 1 where the branch answered ``answer``, else 0."""

    def value(self: SearchController, copy: Game) -> float:
        made = [e for e in copy.battle.log.events if isinstance(e, DecisionMade)]
        tried = [e.answer for e in made if e.player == "Tyranids" and e.decision == "reaction"]
        return 1.0 if tried and tried[0] == answer else 0.0

    return value


@pytest.mark.parametrize("better", [True, False])
def test_the_search_answers_a_reaction_with_another_only_when_it_plays_better(
    monkeypatch: pytest.MonkeyPatch, better: bool
) -> None:
    # Scored 1 against the heuristic's answer's 0 on every seed, the other
    # answer wins the race and its paired gains (all 1: no spread, a positive
    # mean) settle it; scored 0 like the heuristic's, the race keeps the pick.
    searcher, asked = _first_reaction(monkeypatch)
    labels = asked.decision.labels()
    assert len(labels) == 2
    other = labels[1 - asked.pick]
    monkeypatch.undo()
    monkeypatch.setattr(SearchController, "_value", _scored_by(other if better else "none"))
    chosen = searcher.inner_choice(asked.battle, asked.decision, asked.pick)
    assert chosen == (1 - asked.pick if better else asked.pick)


def _confirmed(batches: list[list[float]], confirm_batches: int = 3) -> tuple[bool, int]:
    """Whether :meth:`SearchController.confirm` accepts a challenger whose paired
    gains come in ``batches`` (two seeds each), and how many batches it drew."""
    budget = Budget(playouts=2, confirm_batches=confirm_batches, reactions="searched")
    searcher = SearchController("me", budget)
    searcher._rng = random.Random(0)  # as a decision searched draws it; the seeds go unread
    drawn = 0

    def play(choice: str, seeds: Sequence[int]) -> list[float]:
        nonlocal drawn
        assert len(seeds) == 2
        if choice == "default":
            return [0.0, 0.0]
        drawn += 1
        return batches[drawn - 1]

    return searcher.confirm("challenger", "default", play), drawn


def test_the_paired_test_samples_on_while_the_gain_is_within_the_noise() -> None:
    # [3, 3]: no spread, a positive mean: settled after one batch.
    assert _confirmed([[3, 3]]) == (True, 1)
    # [1, -1]: mean 0, undecided; [1, -1, 1, 1]: mean 0.5, error 0.5, undecided;
    # [1, -1, 1, 1, 2, 2]: mean 1, sample variance (0 + 4 + 0 + 0 + 1 + 1) / 5
    # = 1.2, error sqrt(1.2 / 6) = 0.447; 1 > 2 * 0.447: better, third batch.
    assert _confirmed([[1, -1], [1, 1], [2, 2]]) == (True, 3)
    # Within the noise after the last batch allowed: the pick stands.
    assert _confirmed([[1, -1], [1, -1], [1, -1]]) == (False, 3)
    assert _confirmed([[1, -1], [1, 1], [2, 2]], confirm_batches=2) == (False, 2)
    # [-2, -2]: no spread, a negative mean: settled against after one batch.
    assert _confirmed([[-2, -2], [5, 5]]) == (False, 1)
