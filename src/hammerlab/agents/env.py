"""A PettingZoo AEC environment and a Gymnasium wrapper over :class:`Game`.

An agent answers the *top-level* decisions (:meth:`Game.legal_actions`: a unit
and what it does first, or ending the loop); the decisions inside an
activation are the edition's heuristic AI's, as for every player of a
:class:`Game`. The action space is ``Discrete(MAX_ACTIONS)``: index ``i`` is
the ``i``-th offered legal action (:func:`offered`), and the action mask marks
the offered ones (the PettingZoo environment refuses another; the Gymnasium
wrapper takes it as a no-op with a small penalty, :data:`ILLEGAL_ACTION_REWARD`).
The offered actions come unit by unit in the order of the units' slots (below),
each unit's in the order the edition lists them, and ending the loop last; so
the observation's per-unit count of offered actions tells which unit each index
picks. Where more than :data:`MAX_ACTIONS` are legal, some of the units' later
actions are left out, never a whole unit (:func:`offer`), and the info says how
many (``actions_cut``). A description for people (the legal actions' labels, the
scores) is in ``infos[agent]``. The reward comes at the end from the scenario's
victory condition: +1 to the winner, -1 to the loser, 0 each on a draw.

The observation is a vector of :data:`OBSERVATION_SIZE` float32 numbers in
[-1, 1], from one player's point of view; the same size for every scenario.

* :data:`MAX_UNITS` unit slots of :data:`UNIT_FEATURES` (8) numbers each, slot
  ``k`` at ``8k`` to ``8k + 7``. Every unit of the scenario keeps one slot for the
  whole game: the observer's units first, then the enemy's, each side in the
  scenario's order. A unit that joins the battle (a Chaos champion's
  transformation into a new unit) takes the next free slot after those, in the
  order the units joined, and keeps it. Free slots are all 0.
* In a unit's slot, in this order: *present* (1 while it has a
  model on the table; 0 while it is in reserve, aboard a transport or destroyed,
  or has left the battle), *side* (1 the observer's, -1 the enemy's, present or
  not), the *share of its models left* (of those it started with), the *centre*
  of those models, x and y as shares of the table's width and height, and the
  *share of its wounds left* (Hull Points for a vehicle: those its models have
  left, of those its starting models started with); these four are 0 while the
  unit is not present. Then *done*: 1 once the unit has been picked in the loop of
  the phase under way (whoever's turn it is), or was barred from it (a unit that
  arrived from reserve this Movement phase), else 0; and *offered*: how many of
  the offered actions pick it, as a share of :data:`MAX_ACTIONS` (0 unless the
  observer is to pick).
* Then (at ``8 * MAX_UNITS``, 128) the turn as a share of the game's turns, 1 when
  the observer is to pick, and the pick's kind one-hot over :data:`KINDS` (0
  when the observer is not to pick).

A scenario is refused (:class:`Table`) if its units and the new units its rules
may add mid-game (the ruleset says how many: ``Ruleset.units_to_come``, a Waffle
Chaos champion's Spawnhood, each at most once) need more than :data:`MAX_UNITS`
slots, so that a unit never takes another feature's place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from hammerlab.analysis.game import Action, Game
from hammerlab.engine.rules import ParamValue
from hammerlab.errors import InputError
from hammerlab.io.scenario import Scenario, load_scenario

MAX_UNITS = 16
"""Unit slots in an observation: a scenario whose units, and the new units its Chaos
champions may become, need more is refused."""
UNIT_FEATURES = 8
"""Per unit (in this order): present, its side's (1 the observer's, -1 the enemy's),
share of its models left, the centre of its models left (x, y as shares of the
table), share of its wounds (Hull Points) left, done in the phase under way, and its
offered actions as a share of :data:`MAX_ACTIONS`."""
KINDS = ("mover", "shooter", "charger", "psyker")
"""Top-level decision kinds, one-hot in the observation: every edition's picks
(``Picks.kind`` of its flow; ``psyker``: the Waffle Edition's psychic phase)."""
OBSERVATION_SIZE = MAX_UNITS * UNIT_FEATURES + 2 + len(KINDS)
MAX_ACTIONS = 64
"""Legal actions offered at once; beyond it, some of each unit's later ones are left
out (:func:`offer`)."""
ILLEGAL_ACTION_REWARD = -0.1
""":class:`HammerlabGym`'s reward for an action its mask does not offer, which changes
nothing (a tenth of a lost game: enough to learn the mask from, small beside the outcome)."""

Observation = dict[str, NDArray[Any]]


def _observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), np.int8),
        }
    )


class Table:
    """A scenario ready to start games: what the environments share.

    ``rules`` and ``plugins`` are :meth:`Game.start`'s (rule settings, plug-in
    files), with its errors: one game is started here, so that a bad setting or
    plug-in is refused when the environment is made, as is a scenario whose
    units need more than :data:`MAX_UNITS` observation slots."""

    def __init__(
        self,
        path: Path | str,
        rules: dict[str, ParamValue] | None = None,
        plugins: Sequence[str] = (),
    ) -> None:
        self.source = str(path)
        self.scenario: Scenario = load_scenario(Path(path))
        self.rules = rules or {}
        self.plugins = plugins
        self.players = [p.name for p in self.scenario.players]
        game = self.start(None)
        units, joining = len(self.scenario.units), game.ready.ruleset.units_to_come(game.battle)
        if units + joining > MAX_UNITS:
            more = f" and {joining} more the rules may add mid-game" if joining else ""
            raise InputError(
                self.source,
                "units",
                f"{units} units{more}: more than the {MAX_UNITS} an agent sees",
            )

    def start(self, seed: int | None) -> Game:
        """A new game (the scenario's seed when ``seed`` is ``None``)."""
        return Game.start(self.scenario, self.source, seed, self.rules, self.plugins)

    def seeds(self) -> np.random.Generator:
        """Where an environment draws the dice seed of a game reset without one: seeded
        by the scenario's own seed, and again by each reset given a seed, so that a run
        seeded once plays new dice every episode, the same in every run (Gymnasium's
        contract: "if … ``seed=None`` is passed, the PRNG will *not* be reset")."""
        return np.random.default_rng(self.scenario.seed or 0)


SEED_RANGE = 2**31
"""Dice seeds drawn for games reset without one are below this."""


def offer(game: Game) -> tuple[list[Action], int]:
    """The legal actions an agent indexes, and how many legal ones are left out.

    They come unit by unit in the order of the units' slots in the observation of the
    player to pick (:func:`slots`), each unit's in the order the edition lists them
    (:meth:`Game.legal_actions`), and ending the loop last. At most
    :data:`MAX_ACTIONS` are offered: where more are legal, the room beside ending
    the loop is dealt round by round, one action more to each unit that has more in
    slot order, each unit keeping its first ones; so every unit that may be picked
    keeps an action (there are fewer units than :data:`MAX_ACTIONS`), and it is the
    later choices of the units with the most (an ``advance on`` another enemy) that
    are left out."""
    legal = game.legal_actions()
    player = game.current_player
    if player is None:
        return legal, 0
    *picks, end = legal
    order = {uid: k for k, uid in enumerate(slots(game, player))}
    by_unit: dict[str | None, list[Action]] = {}
    for action in sorted(picks, key=lambda a: order[str(a.unit)]):  # stable: the edition's order
        by_unit.setdefault(action.unit, []).append(action)
    kept = {uid: len(actions) for uid, actions in by_unit.items()}
    if len(picks) >= MAX_ACTIONS:
        kept, room = dict.fromkeys(by_unit, 0), MAX_ACTIONS - 1
        while room:
            for uid, actions in by_unit.items():
                if room and kept[uid] < len(actions):
                    kept[uid] += 1
                    room -= 1
    chosen = [a for uid, actions in by_unit.items() for a in actions[: kept[uid]]]
    return [*chosen, end], len(legal) - len(chosen) - 1


def offered(game: Game) -> list[Action]:
    """The legal actions an agent indexes (:func:`offer`)."""
    return offer(game)[0]


def slots(game: Game, player: str) -> list[str]:
    """The unit in each slot of ``player``'s observation, by id (the module's doc):
    the scenario's units, ``player``'s first, then those that joined the battle.
    One more unit than :data:`MAX_UNITS` (only a plug-in could add it, :class:`Table`
    having made room for the rest) is an :class:`InputError`, never a feature
    overwritten."""
    scenario = game.recipe.scenario["units"]
    fixed = [u["id"] for u in scenario if u["player"] == player]
    fixed += [u["id"] for u in scenario if u["player"] != player]
    named = set(fixed)
    ids = fixed + [uid for uid in game.battle.units if uid not in named]
    if len(ids) > MAX_UNITS:
        raise InputError(
            game.recipe.source, "units", f"{ids[MAX_UNITS]} joined: more than {MAX_UNITS} units"
        )
    return ids


def observe_game(game: Game, player: str, actions: list[Action]) -> Observation:
    """``player``'s observation: the vector (see the module's doc) and the mask of
    ``actions`` (empty unless ``player`` is to act)."""
    battle = game.battle
    vector = np.zeros(OBSERVATION_SIZE, np.float32)
    width, height = battle.battlefield.width, battle.battlefield.height
    sides = {u["id"]: u["player"] for u in game.recipe.scenario["units"]}
    starting_wounds = game.ready.ruleset.starting_wounds
    to_pick = game.current_player == player
    done = set() if game.pending is None else set(game.play_state.cursor.done)
    for slot, uid in enumerate(slots(game, player)):
        at = slot * UNIT_FEATURES
        unit = battle.units.get(uid)
        owner = unit.player if unit is not None else sides[uid]
        vector[at + 1] = 1.0 if owner == player else -1.0
        vector[at + 6] = float(uid in done)
        if to_pick:
            vector[at + 7] = sum(a.unit == uid for a in actions) / MAX_ACTIONS
        if unit is None or unit.destroyed:
            continue
        alive = unit.alive_models
        vector[at] = 1.0
        vector[at + 2] = len(alive) / max(1, unit.starting_models)
        vector[at + 3] = sum(m.position[0] for m in alive) / len(alive) / width
        vector[at + 4] = sum(m.position[1] for m in alive) / len(alive) / height
        full = sum(starting_wounds(m.profile) for m in unit.models)
        vector[at + 5] = sum(m.wounds_left for m in alive) / max(1, full)
    at = MAX_UNITS * UNIT_FEATURES
    vector[at] = min(1.0, game.turn / max(1, game.ready.plan.turns))
    mask = np.zeros(MAX_ACTIONS, np.int8)
    if to_pick:
        vector[at + 1] = 1.0
        mask[: len(actions)] = 1
        if actions and actions[0].kind in KINDS:
            vector[at + 2 + KINDS.index(actions[0].kind)] = 1.0
    return {"observation": np.clip(vector, -1.0, 1.0), "action_mask": mask}


def outcome(game: Game, player: str) -> float:
    """+1 if ``player`` won under the scenario's victory condition, -1 if it lost, 0."""
    best = game.winner
    return 0.0 if best is None else (1.0 if best == player else -1.0)


def summary(game: Game) -> Sequence[str]:
    """The edition's summary of ``game``: the winner once it is over, who leads before."""
    ready = game.ready
    return ready.ruleset.summary(ready.battle, ready.plan, over=game.is_over)


def describe(game: Game, actions: list[Action], cut: int = 0) -> dict[str, Any]:
    """What people read: the turn, the scores, the winner once the game is over
    (``None`` before, and on a draw), the offered legal actions' labels, and how
    many legal actions were not offered (``actions_cut``: 0 unless more than
    :data:`MAX_ACTIONS` are legal, :func:`offer`)."""
    return {
        "turn": game.turn,
        "to_act": game.current_player,
        "scores": game.scores,
        "winner": game.winner,
        "legal_actions": [str(a) for a in actions],
        "actions_cut": cut,
    }


class HammerlabAEC(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """Both players of a scenario as PettingZoo agents, taking turns as the game asks."""

    metadata = {"name": "hammerlab_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012 (the base classes declare it a plain attribute)

    def __init__(
        self,
        scenario: Path | str,
        rules: dict[str, ParamValue] | None = None,
        render_mode: str | None = None,
        plugins: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.table = Table(scenario, rules, plugins)
        self.possible_agents = list(self.table.players)
        self.render_mode = render_mode
        self._spaces = {a: _observation_space() for a in self.possible_agents}
        self._actions_space = {a: spaces.Discrete(MAX_ACTIONS) for a in self.possible_agents}
        self.game = self.table.start(None)
        self._offered: list[Action] = []
        self._seeds = self.table.seeds()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation and its action mask."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """An index into the offered legal actions."""
        return self._actions_space[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, with dice ``seed``; without one, with a seed drawn from the
        environment's generator (:meth:`Table.seeds`), which ``seed`` seeds again."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        drawn = int(self._seeds.integers(SEED_RANGE))
        self.game = self.table.start(seed if seed is not None else drawn)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._refresh()

    def _refresh(self) -> None:
        """Point at the player to act; at the end, hand out the rewards."""
        self._offered, cut = offer(self.game)
        player = self.game.current_player
        view = describe(self.game, self._offered, cut)
        self.infos = {a: dict(view) for a in self.agents}
        if player is None:
            for agent in self.agents:
                self.rewards[agent] = outcome(self.game, agent)
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = player

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation now."""
        return observe_game(self.game, agent, self._offered)

    def step(self, action: int | None) -> None:
        """Take the ``action``-th offered legal action for the agent to act (a
        ``ValueError`` for any other, and once every agent is done: ``reset`` starts a
        new game)."""
        if not self.agents:
            raise ValueError("the game is over and every agent done: reset() starts a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = _index(action)
        if index is None or not 0 <= index < len(self._offered):
            raise ValueError(f"{agent}: action {action!r} is not one of the legal actions")
        action = index
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(self._offered[action])
        self._clear_rewards()
        self._refresh()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game's summary so far (``ansi``): who leads, until it is over."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(summary(self.game))

    def close(self) -> None:
        """Nothing to release."""


class HammerlabGym(gymnasium.Env[NDArray[np.float32], int]):
    """One player of a scenario as a Gymnasium environment; the other side is the
    edition's heuristic AI. The legal actions' mask is ``info["action_mask"]``
    (and :meth:`action_masks`). Any action of the space may be taken, so that an
    unmasked agent (``action_space.sample()``, Gymnasium's ``check_env``) can play:
    one the mask does not offer is a no-op with :data:`ILLEGAL_ACTION_REWARD`."""

    metadata = {"render_modes": []}  # noqa: RUF012 (the base classes declare it a plain attribute)

    def __init__(
        self,
        scenario: Path | str,
        player: str | None = None,
        rules: dict[str, ParamValue] | None = None,
        plugins: Sequence[str] = (),
    ) -> None:
        self.table = Table(scenario, rules, plugins)
        self.player = player or self.table.players[0]
        if self.player not in self.table.players:
            raise InputError(self.table.source, "player", f"{self.player!r} is not a player")
        self.observation_space = _observation_space()["observation"]
        # Discrete, so that its ``.n`` type-checks; it is a Space of numpy integers, and
        # step() takes a plain int as well (the base class's action type).
        self.action_space: spaces.Discrete = spaces.Discrete(MAX_ACTIONS)  # type: ignore[assignment]
        self.game = self.table.start(None)
        self._offered: list[Action] = []
        self._seeds = self.table.seeds()
        self._rewarded = False
        """Whether the finished game's outcome was handed out (by a step)."""

    def _view(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """The observation and info now, the other side having played on (the
        heuristic AI's picks) to this side's next pick or the end of the game."""
        self.game.play_until(self.player)
        self._offered, cut = offer(self.game)
        seen = observe_game(self.game, self.player, self._offered)
        info = {**describe(self.game, self._offered, cut), "action_mask": self.action_masks()}
        return seen["observation"], info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """A new game, with dice ``seed``; without one, with a seed drawn from the
        environment's generator (:meth:`Table.seeds`), which ``seed`` seeds again.

        The other side may win before this one has a choice to make (a charge that
        wipes it out in the first turn): the game is then over already, and the
        first :meth:`step`, whatever its action, hands out the outcome."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        drawn = int(self._seeds.integers(SEED_RANGE))
        self.game = self.table.start(seed if seed is not None else drawn)
        self._rewarded = False
        return self._view()

    def action_masks(self) -> NDArray[np.int8]:
        """The legal actions now (1: legal); in a game over whose outcome no step has
        handed out yet, action 0, which hands it out."""
        mask = np.zeros(MAX_ACTIONS, np.int8)
        mask[: len(self._offered)] = 1
        if self.game.is_over and not self._rewarded:
            mask[0] = 1
        return mask

    def step(self, action: int) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Take the ``action``-th legal action, then let the other side play on to this
        side's next pick; the step after which the game is over, whichever side's turn
        ended it, is terminated with the outcome as its reward (0 before).

        An action the mask does not offer changes nothing: the same observation and
        info, reward :data:`ILLEGAL_ACTION_REWARD`, the game not over. A game over
        before this side had a choice (:meth:`reset`) ends at the first step, any
        action, with the outcome. Stepping a game whose outcome was handed out is a
        ``ValueError`` (``reset`` starts a new one).
        """
        if self.game.is_over:
            if self._rewarded:
                raise ValueError("the game is over: reset() starts a new one")
            self._rewarded = True
            observation, info = self._view()
            return observation, outcome(self.game, self.player), True, False, info
        index = _index(action)
        if index is None:
            raise ValueError(f"action {action!r} is not a whole number of the action space")
        if not 0 <= index < len(self._offered):
            observation, info = self._view()
            return observation, ILLEGAL_ACTION_REWARD, False, False, info
        self.game.apply(self._offered[index])
        # The other side plays on before the game is asked whether it is over: its
        # turn may end the game (its last turn, or a wipe-out), and this step is then
        # the episode's last, with the outcome.
        self.game.play_until(self.player)
        over = self.game.is_over
        self._rewarded = over
        observation, info = self._view()
        return observation, outcome(self.game, self.player) if over else 0.0, over, False, info


def _index(action: object) -> int | None:
    """``action`` as an index (a Python or numpy whole number; ``None`` for anything
    else: a float, a string, a boolean)."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return None
    return int(action)
