"""An OpenSpiel game over :class:`Game`: ``pyspiel.load_game("python_hammerlab",
{"scenario": PATH})`` for any scenario of either ruleset (parameters: ``seed``,
``rules``, ``plugins``: :class:`HammerlabSpielGame`).

The same interface as the PettingZoo environment (:mod:`hammerlab.agents.env`):
a player answers the top-level decisions, action ``i`` is the ``i``-th offered
legal action, the observation tensor is the same fixed-size vector (without
the mask, which OpenSpiel gives as ``legal_actions_mask``), and the returns at
the end are +1 to the winner and -1 to the loser under the scenario's victory
condition (0 each on a draw). The dice are inside the state, seeded by the
``seed`` parameter (the scenario's own seed when it is -1), so the game is
OpenSpiel's *sampled stochastic* kind: there are no chance nodes, because every
roll happens inside an activation, between the rules' own decisions
(:meth:`Game.chance_outcomes`). A clone is exact, its dice included, so a
clone given the same actions plays the same game: an algorithm that wants
other dice in a copy loads the game with another seed.

Importing the module registers the game with OpenSpiel.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyspiel

from hammerlab.agents.env import (
    MAX_ACTIONS,
    OBSERVATION_SIZE,
    Table,
    describe,
    observe_game,
    offer,
    offered,
    outcome,
    summary,
)
from hammerlab.analysis.game import Game
from hammerlab.errors import IllegalActionError, InputError

SHORT_NAME = "python_hammerlab"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="hammerlab: a scenario of either ruleset, top-level decisions",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"scenario": "", "seed": -1, "rules": {}, "plugins": ""},
)


def max_game_length(table: Table, game: Game) -> int:
    """A bound on the top-level decisions of ``game``, started from ``table``: in
    each player's turn, each phase with picks activates each unit once at most,
    then ends its loop; the units are the scenario's and, at most one for each,
    the new unit a Chaos champion's Spawnhood or Dark Apotheosis makes
    (``chaos_forms.py``)."""
    picking = sum(phase.picks is not None for phase in game.play_state.flow.phases)
    units = len(table.scenario.units)
    return game.ready.plan.turns * len(table.players) * picking * (2 * units + 1)


class HammerlabSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """A scenario as an OpenSpiel game (parameters ``scenario``, a path; ``seed``;
    ``rules``, rule settings as :meth:`Game.start` takes them; ``plugins``, plug-in
    files separated by ``os.pathsep``, as ``PATH`` is)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        if not params["scenario"]:
            raise InputError(SHORT_NAME, "scenario", "the game needs a scenario file (a path)")
        plugins = [p for p in str(params["plugins"]).split(os.pathsep) if p]
        self.table = Table(str(params["scenario"]), dict(params["rules"]), plugins)
        if params["seed"] < -1:
            raise InputError(SHORT_NAME, "seed", f"{params['seed']}: a seed is 0 or more, or -1")
        self.seed: int | None = None if params["seed"] < 0 else int(params["seed"])
        start = self.table.start(self.seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(self.table, start),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> HammerlabSpielState:
        """The scenario at its start, with the game's seed."""
        return HammerlabSpielState(self, self.table.start(self.seed))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> VectorObserver:
        """The observation: the agents' vector, and the turn, scores and actions as text."""
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported: {params}")
        return VectorObserver()


class _Seat:
    """The :class:`Game` a state holds; copied with :meth:`Game.clone` (which shares
    the ruleset and the controllers) when OpenSpiel clones the state."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Seat:
        return _Seat(self.game.clone())


class HammerlabSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A game in progress: the player to act answers its top-level decision."""

    def __init__(self, spiel_game: HammerlabSpielGame, game: Game) -> None:
        super().__init__(spiel_game)
        self.players = spiel_game.table.players
        self._seat = _Seat(game)

    @property
    def game(self) -> Game:
        """The hammerlab game this state wraps."""
        return self._seat.game

    def current_player(self) -> int:
        """The index of the player to act (the scenario's order), or TERMINAL."""
        player = self.game.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else self.players.index(player)

    def _legal_actions(self, player: int) -> list[int]:
        """The indices of the offered legal actions (ascending)."""
        return list(range(len(offered(self.game))))

    def _apply_action(self, action: int) -> None:
        """Take the ``action``-th offered legal action; another is an
        :class:`~hammerlab.errors.IllegalActionError` (``apply_action`` does not check)."""
        actions = offered(self.game)
        if not 0 <= action < len(actions):
            raise IllegalActionError(f"action {action} is not one of the {len(actions)} offered")
        self.game.apply(actions[action])

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's label (:class:`~hammerlab.analysis.game.Action`)."""
        actions = offered(self.game)
        return str(actions[action]) if 0 <= action < len(actions) else f"action {action}"

    def is_terminal(self) -> bool:
        """The last turn is over."""
        return self.game.is_over

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser at the end; 0 each before and on a draw."""
        if not self.game.is_over:
            return [0.0] * len(self.players)
        return [outcome(self.game, player) for player in self.players]

    def __str__(self) -> str:
        """The game's summary so far (who leads, until it is over)."""
        return "\n".join([f"turn {self.game.turn}", *summary(self.game)])


class VectorObserver:
    """OpenSpiel's observer (``set_from``, ``string_from``) over the agents' vector."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HammerlabSpielState, player: int) -> None:
        """``player``'s view of ``state`` (its units first; the turn; whose decision)."""
        game = state.game
        seen = observe_game(game, state.players[player], offered(game))
        self.tensor[:] = seen["observation"]

    def string_from(self, state: HammerlabSpielState, player: int) -> str:
        """The turn, the scores and the legal actions, as people read them."""
        game = state.game
        actions, cut = offer(game) if state.current_player() == player else ([], 0)
        return str(describe(game, actions, cut))


pyspiel.register_game(GAME_TYPE, HammerlabSpielGame)
