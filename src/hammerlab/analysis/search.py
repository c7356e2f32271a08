"""A search AI and a random floor: controllers for games played through :class:`Game`.

:class:`SearchController` answers each *top-level* decision (the pick of
:meth:`Game.legal_actions`: a unit and its first answers) by flat Monte Carlo:
every legal action is tried on copies of the game (:meth:`Game.clone`), each
copy played on for a few top-level steps by the edition's heuristic AI, and
valued by the scenario's victory score (models left as a tie-break). Inner
decisions (targets, weapons, reactions...) are the heuristic AI's.

Determinism: the budget is a number of playouts, never wall time; the copies
roll their own dice, seeded from a :class:`random.Random` the controller owns
and seeds from the battle's seed, so the real battle's dice are never touched
and the same seed plays the same game. Every action of one decision sees the
same playout seeds (common random numbers), so actions are compared on the
same luck.

:class:`RandomController` picks uniformly among the legal choices: the floor a
tournament measures the other players against.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hammerlab.analysis.game import Action, Game
from hammerlab.editions.turns import victory_scores
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.dice import Dice
from hammerlab.engine.rules import ParamValue
from hammerlab.errors import InputError
from hammerlab.io.scenario import Scenario

PLAYERS = ("heuristic", "search", "random")
"""The controllers a player can be (``--controller``, ``--ai``, ``--players``)."""

TIE_BREAK = 0.01
"""What one model left is worth, in victory points, when two actions score alike."""


@dataclass(frozen=True)
class Budget:
    """How hard the search thinks: playouts per decision and how far each looks."""

    playouts: int = 8
    """Playouts per top-level decision, shared evenly among its legal actions (at
    least one each); as many again settle a challenge to the heuristic's pick
    (:meth:`SearchController.best_action`)."""
    depth: int = 4
    """Top-level steps (either player's) each playout plays after the action tried."""


class RandomController:
    """Uniform over the legal choices of every decision, from its own seeded generator."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(f"random:{seed}")

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """A uniformly random index."""
        return self._rng.randrange(len(decision.choices))


class SearchController:
    """Flat Monte Carlo over the top-level actions; the heuristic AI for the rest.

    It needs its game (:meth:`attach`) to list and try the legal actions.
    """

    def __init__(self, player: str, budget: Budget | None = None) -> None:
        self.player = player
        self.budget = budget or Budget()
        self._game: Game | None = None
        self._heuristic: Controller | None = None
        self._rng = random.Random()
        self._planned: list[tuple[str, str]] = []

    def attach(self, game: Game) -> None:
        """Play in ``game``; the playout seeds are drawn from its battle's seed."""
        self._game = game
        self._heuristic = game.ready.ruleset.ai()
        self._rng = random.Random(f"search:{game.battle.dice.seed}:{self.player}")

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The searched pick at the top level, its planned follow-ups, else the heuristic's."""
        game, heuristic = self._game, self._heuristic
        if game is None or heuristic is None:
            raise RuntimeError("SearchController.attach(game) was not called")
        if game.is_top_level(decision):
            action = self.best_action(game)
            self._planned = list(action.then)
            return decision.labels().index(action.label)
        if self._planned and self._planned[0][0] == decision.kind:
            _, label = self._planned.pop(0)
            return decision.labels().index(label)
        self._planned = []
        return heuristic.choose(battle, decision)

    def best_action(self, game: Game) -> Action:
        """The heuristic AI's own pick (:meth:`heuristic_action`), unless looking
        ahead says another is better.

        Every legal action is played out on the same seeds (the budget shared
        among them, one playout each at least). If one scores strictly better
        than the heuristic's pick, the two meet again on fresh seeds (half the
        budget each) and the challenger is taken only if it wins that too: the
        best of many noisy scores is flattered by its luck (the winner's
        curse), so it must earn the change on dice it was not picked on. A tie
        keeps the heuristic's pick (many actions score alike)."""
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        rounds = max(1, self.budget.playouts // len(actions))
        seeds = [self._rng.getrandbits(32) for _ in range(rounds)]
        values = [sum(self._playout(game, a, s) for s in seeds) for a in actions]
        default = self.heuristic_action(game, actions)
        best = max(values)
        if values[actions.index(default)] >= best:
            return default
        challenger = actions[values.index(best)]
        fresh = [self._rng.getrandbits(32) for _ in range(max(1, self.budget.playouts // 2))]
        again = sum(self._playout(game, challenger, s) for s in fresh)
        if again > sum(self._playout(game, default, s) for s in fresh):
            return challenger
        return default

    def heuristic_action(self, game: Game, actions: list[Action]) -> Action:
        """The legal action the heuristic AI takes here: read off the decisions it
        makes on a copy (the pick and its first answers), the copy's own dice
        untouched by the real game's."""
        copy = game.clone()
        battle = copy.battle
        battle.controllers = dict.fromkeys(battle.controllers, copy.ready.ruleset.ai())
        start = len(battle.log.events)
        copy.step()
        made = [
            (e.decision, e.answer) for e in battle.log.events[start:] if isinstance(e, DecisionMade)
        ]
        for action in actions:
            taken = [(action.kind, action.label), *action.then]
            if made[: len(taken)] == taken:
                return action
        return actions[0]

    def _playout(self, game: Game, action: Action, seed: int) -> float:
        """Try ``action`` on a copy with its own dice, play on, and value the result."""
        copy = game.clone()
        battle = copy.battle
        battle.dice = Dice(seed)
        battle.dice.attach(battle.log.emit)
        ai = copy.ready.ruleset.ai()  # a fresh one: its memory is of this copy only
        battle.controllers = dict.fromkeys(battle.controllers, ai)
        copy.apply(action)
        for _ in range(self.budget.depth):
            if copy.is_over:
                break
            copy.step()
        return value_for(battle, copy.ready.plan.victory, self.player)


def value_for(battle: Battle, victory: str, player: str) -> float:
    """``player``'s victory-score margin, plus :data:`TIE_BREAK` per model it leads by."""
    scores = victory_scores(battle, victory)
    margin = scores[player] - max(v for p, v in scores.items() if p != player)
    models = sum(
        len(u.alive_models) if u.player == player else -len(u.alive_models)
        for u in battle.units.values()
    )
    return margin + TIE_BREAK * models


def install_search(game: Game, player: str, budget: Budget | None = None) -> SearchController:
    """Make ``player`` of ``game`` a :class:`SearchController` from now on (a new, a
    resumed or a loaded game alike: what was decided before is the log's)."""
    searcher = SearchController(player, budget)
    searcher.attach(game)
    game.battle.controllers[player] = searcher
    return searcher


def start_game(
    scenario: Scenario,
    source: str,
    seed: int,
    kinds: Mapping[str, str],
    rules: Mapping[str, ParamValue] | None = None,
    plugins: Sequence[str] = (),
    budget: Budget | None = None,
    stop_before_turn: int | None = None,
) -> Game:
    """A new game whose players are played by ``kinds`` (player → ``heuristic``,
    ``search`` or ``random``; players not named get the edition's AI)."""
    for player, kind in kinds.items():
        if kind not in PLAYERS:
            raise InputError("players", player, f"{kind!r} is not one of {', '.join(PLAYERS)}")
    randoms: dict[str, Controller] = {
        p: RandomController(f"{seed}:{p}") for p, k in kinds.items() if k == "random"
    }
    game = Game.start(scenario, source, seed, rules, plugins, randoms, stop_before_turn)
    for player, kind in kinds.items():
        if kind == "search":
            install_search(game, player, budget)
    return game
