"""Where a change to the heuristic changes a decision, which answer plays better (docs/ai.md).

A head-to-head (``lever_head_to_head.py``) counts games won, and most games
are decided by the armies and the dice, not by the few decisions a change
touches. This looks at those decisions alone. Two players are compared:

- ``--lever NAME``: the heuristic with one of its levers on, against it off;
- ``--decline "KIND: LABEL"``: the heuristic, against the heuristic that never
  takes that choice (:class:`choices.Declining`; ``"action: suppressive
  fire"``): whether it takes an optional rule's choice on its merits;
- ``--search``: the search AI's top-level picks (its default budget, for
  whichever player is to act), against the heuristic's: whether the search's
  departures from the heuristic are gains, and how large.

It plays every scenario given (``--rule`` sets a rule or parameter in every
game, as on ``hammerlab battle``: ``--rule fiery_charge`` to weigh ``--decline
"fiery_charge: Fiery Charge"``), seeds FIRST..FIRST+N-1, the first player (the
lever on; the heuristic) on both sides, or the second with ``--follow
second``. At each top-level decision with more than one legal action it asks
both players which action they take (:func:`search.action_of`, on a copy).
Where they differ, both actions are played to the end of the game
``--playouts`` times on copies (the followed player on both sides after
them), each pair of copies on the same keyed dice (:func:`branching.reroll`:
a stream per turn, unit and roll, so the two copies roll alike wherever they
play alike), and the paired gain of the first player's action over the
second's is recorded, in the deciding player's margin at the end of the game:
the victory-score margin with damage short of a kill counted pro rata
(:func:`search.value_for`, as the search values a playout), the margin of
the score alone, and the result (1 won, 0 drawn, -1 lost:
:func:`turns.game_winner`, so a game decided by Sudden Death counts as it is
won, whatever the score).

With ``--decline``, a decision made inside an activation (``"reaction: Return
Fire!"``, ``"charge_reaction: Fall Back"``, ``"sweeping_advance: Sweeping
Advance"``) is weighed the same way where the declined choice's kind is asked
there (:class:`InnerDuels`): the two answers are tried on copies that replay
the activation from the top-level decision that started it, up to the
decision, on the game's own dice, then roll keyed dice of their own
(:func:`branching.branch_playout`), as the search tries a reaction.

It prints each such decision (scenario, seed, game turn, player, decision,
the two actions, the mean gain and its standard error), then per scenario and
over all: the decisions, how many the first player's action won and lost by
more than two standard errors, and the mean of the decisions' mean gains with
its standard error across decisions, in both margins.

    .venv/bin/python examples/matchups/decision_duel.py FIRST N FILES... \\
        (--lever NAME | --decline "KIND: LABEL" | --search) [--playouts K] \\
        [--follow first|second] [--rule NAME[=VALUE]]...
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lever_head_to_head import LEVERS  # the scripts beside this one

from hammerlab.analysis.branching import Snapshot, Snapshotting, branch_playout, reroll
from hammerlab.analysis.choices import Declining
from hammerlab.analysis.game import Action, Game
from hammerlab.analysis.search import SearchController, action_of, score_margin, value_for
from hammerlab.editions.turns import game_winner, victory_scores
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.rules import ParamValue, parse_rule_flag
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

PLAYOUT_SEEDS = 1_000_003
"""Playout ``k`` of game seed ``s`` rolls keyed dice seeded ``s * PLAYOUT_SEEDS + k``."""

Player = Callable[[], Controller]
"""Makes a fresh controller (each copy gets its own: an AI remembers its plans)."""


@dataclass(frozen=True)
class Pair:
    """The two players compared, and the one that plays the games on."""

    first: Player
    second: Player
    follow: Player
    inner: str | None = None
    """The kind of decision also weighed where it is asked inside an activation
    (:class:`InnerDuels`), if any."""
    searching: bool = False
    """Whether the first player's top-level pick is the search AI's
    (:meth:`SearchController.best_action`, at its default budget, for the player
    to act) rather than ``first``'s."""


def search_pair() -> Pair:
    """The search AI's top-level picks, against the heuristic's; the heuristic plays on
    (``first`` is the heuristic too, never asked: :attr:`Pair.searching` picks instead)."""
    return Pair(WaffleAI, WaffleAI, WaffleAI, searching=True)


def lever_pair(lever: str, follow: str = "first") -> Pair:
    """The heuristic with ``lever`` on, against it off."""

    def on() -> Controller:
        return WaffleAI(**{lever: True})

    def off() -> Controller:
        return WaffleAI(**{lever: False})

    return Pair(on, off, on if follow == "first" else off)


def decline_pair(declined: str, follow: str = "first") -> Pair:
    """The heuristic, against the heuristic that never takes ``declined``."""

    def declining() -> Controller:
        return Declining(WaffleAI(), declined)

    kind = declined.split(":", 1)[0].strip()
    return Pair(WaffleAI, declining, WaffleAI if follow == "first" else declining, kind)


@dataclass(frozen=True)
class Duel:
    """One decision the two players answer differently, and how each action played on."""

    scenario: str
    seed: int
    turn: int
    player: str
    kind: str
    first: Action | str
    """The first player's pick: a top-level action, or an inner decision's answer."""
    second: Action | str
    gains: tuple[float, ...]
    """The first player's action less the second's, in the pro rata margin, playout by
    playout."""
    score_gains: tuple[float, ...]
    """The same in the score margin alone."""
    result_gains: tuple[float, ...]
    """The same in the result (:func:`result_of`): 2 where the first player's action
    won a game the second's lost, 1 won against drawn, 0 where both ended alike."""

    @property
    def mean(self) -> float:
        """Mean pro rata gain."""
        return statistics.fmean(self.gains)

    @property
    def error(self) -> float:
        """Standard error of :attr:`mean`."""
        return statistics.stdev(self.gains) / math.sqrt(len(self.gains))

    @property
    def verdict(self) -> int:
        """1 when the first player's action gained more than two standard errors, -1 when it
        lost as much, 0 otherwise (identical gains: the sign of their mean)."""
        if self.error == 0.0:
            return (self.mean > 0) - (self.mean < 0)
        if abs(self.mean) <= 2 * self.error:
            return 0
        return 1 if self.mean > 0 else -1


def margins(game: Game, player: str) -> tuple[float, float, float]:
    """``player``'s pro rata margin, score margin and result (:func:`result_of`) in a
    finished ``game``."""
    victory = game.ready.plan.victory
    return (
        value_for(game.battle, victory, player, game.ready.ruleset),
        score_margin(victory_scores(game.battle, victory), player),
        result_of(game, player),
    )


def result_of(game: Game, player: str) -> float:
    """1 where ``player`` won the finished ``game``, 0 on a draw, -1 where it lost."""
    best = game_winner(game.battle, game.ready.plan.victory)
    return 0.0 if best is None else 1.0 if best == player else -1.0


def played_on(game: Game, action: Action, seed: int, follow: Player) -> Game:
    """A copy of ``game`` on its own keyed dice, ``action`` taken and the game played
    to its end by ``follow`` on every side."""
    copy = game.clone()
    reroll(copy.battle, seed, "keyed")
    copy.battle.controllers = dict.fromkeys(copy.battle.controllers, follow())
    copy.apply(action)
    copy.play()
    return copy


T = TypeVar("T", Action, str)


def paired_gains(
    play: Callable[[T, int], Game], first: T, second: T, player: str, seed: int, playouts: int
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """``first``'s gains over ``second`` in ``player``'s margins at the end of the game,
    pro rata, score and result (:func:`margins`), each pair played by ``play`` on the
    same keyed dice: playout ``k`` of game seed ``seed`` on dice ``seed * PLAYOUT_SEEDS + k``."""
    gains: tuple[list[float], list[float], list[float]] = ([], [], [])
    for k in range(playouts):
        dice = seed * PLAYOUT_SEEDS + k
        mine, theirs = (margins(play(choice, dice), player) for choice in (first, second))
        for kept, mine_one, theirs_one in zip(gains, mine, theirs, strict=True):
            kept.append(mine_one - theirs_one)
    return tuple(gains[0]), tuple(gains[1]), tuple(gains[2])


class InnerDuels:
    """The controller of every side of a duel's game where :attr:`Pair.inner` is
    weighed inside activations: ``follow`` answers every decision, and where a
    decision of that kind (not one of a top-level action's first answers, which
    :func:`duels` weighs as part of the action) gets different answers from the
    pair's two players, both are played to the end of the game on paired keyed
    dice from the activation's :class:`Snapshot` (:func:`branch_playout`)."""

    def __init__(self, name: str, pair: Pair, kind: str, playouts: int, seed: int) -> None:
        self.name, self.pair, self.kind, self.playouts, self.seed = name, pair, kind, playouts, seed
        self.players = pair.first(), pair.second(), pair.follow()
        self.snapshot: Snapshot | None = None
        self.chains: list[list[tuple[str, str]]] = []
        """The snapshot's legal actions, each as the decisions it answers."""
        self.found: list[Duel] = []

    def remember(self, snapshot: Snapshot) -> None:
        """Keep the game at the top-level decision that starts the next activation."""
        self.snapshot = snapshot
        actions = snapshot.game.legal_actions()
        self.chains = [[(a.kind, a.label), *a.then] for a in actions]

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The followed player's answer, the decision weighed first where it is duelled."""
        first, second, follow = self.players
        if decision.kind == self.kind and self.snapshot is not None:
            answers = self.snapshot.answers_since(battle)
            if not self._in_action(answers, decision.kind):
                labels = decision.labels()
                mine, theirs = (labels[p.choose(battle, decision)] for p in (first, second))
                if mine != theirs:
                    self.found.append(self._weigh(battle, decision, answers, mine, theirs))
        return follow.choose(battle, decision)

    def _in_action(self, answers: list[tuple[str, str]], kind: str) -> bool:
        """Whether a decision of ``kind`` after ``answers`` is one of the top-level
        action's first answers."""
        return any(
            len(chain) > len(answers) and chain[: len(answers)] == answers
            and chain[len(answers)][0] == kind
            for chain in self.chains
        )  # fmt: skip

    def _weigh(
        self,
        battle: Battle,
        decision: Decision[Any],
        answers: list[tuple[str, str]],
        mine: str,
        theirs: str,
    ) -> Duel:
        snapshot = self.snapshot
        assert snapshot is not None
        rounds = snapshot.game.play_state.last + 1  # past the last turn: the end of the game

        def play(label: str, dice: int) -> Game:
            branch = (decision.kind, label)
            ai = self.pair.follow()
            return branch_playout(snapshot, answers, branch, dice, rounds, "keyed", ai=ai)

        gains = paired_gains(play, mine, theirs, decision.player, self.seed, self.playouts)
        return Duel(
            self.name, self.seed, battle.turn, decision.player, decision.kind, mine, theirs, *gains
        )


def duels(
    path: Path, seed: int, pair: Pair, playouts: int, rules: Mapping[str, ParamValue] | None = None
) -> list[Duel]:
    """Every decision of one game of ``path`` (with ``rules`` set, as ``--rule``) where
    the two players differ: top-level actions, and decisions of the pair's
    :attr:`Pair.inner` kind."""
    game = Game.start(load_scenario(path), str(path), seed, rules)
    inner = None if pair.inner is None else InnerDuels(path.stem, pair, pair.inner, playouts, seed)
    if inner is None:
        game.battle.controllers = dict.fromkeys(game.battle.controllers, pair.follow())
    else:
        watched = Snapshotting(game, inner, [inner.remember])
        game.battle.controllers = dict.fromkeys(game.battle.controllers, watched)
    searchers: dict[str, SearchController] = {}
    if pair.searching:  # each player's searcher draws its playout seeds from its own generator
        for name in game.battle.controllers:
            searchers[name] = SearchController(name)
            searchers[name].attach(game)
    found: list[Duel] = []
    while not game.is_over:
        actions = game.legal_actions()
        if len(actions) > 1:
            player = game.current_player
            assert player is not None
            if pair.searching:
                first = searchers[player].best_action(game)
            else:
                first = action_of(game, actions, pair.first())
            second = action_of(game, actions, pair.second())
            if first != second:

                def play(action: Action, dice: int) -> Game:
                    return played_on(game, action, dice, pair.follow)

                gains = paired_gains(play, first, second, player, seed, playouts)
                found.append(
                    Duel(path.stem, seed, game.turn, player, first.kind, first, second, *gains)
                )
        game.step()
    return sorted(found + ([] if inner is None else inner.found), key=lambda d: d.turn)


def summary(name: str, found: list[Duel]) -> str:
    """One line: decisions, won / lost beyond the noise, the mean gain across them."""
    if not found:
        return f"{name}: no decision changed"
    better = sum(d.verdict > 0 for d in found)
    worse = sum(d.verdict < 0 for d in found)
    pro_rata = mean_and_error([d.mean for d in found])
    score = mean_and_error([statistics.fmean(d.score_gains) for d in found])
    result = mean_and_error([statistics.fmean(d.result_gains) for d in found])
    return (
        f"{name}: {len(found)} decisions changed, the first player's action better in {better}, "
        f"worse in {worse}; mean gain {pro_rata} (score margin {score}; result {result})"
    )


def mean_and_error(values: list[float]) -> str:
    """``mean ± standard error`` of ``values`` (the error 0 for a single value)."""
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):+.3f} ± {error:.3f}"


def main() -> None:
    """Find and weigh every changed decision; print each, then the summaries."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    players = parser.add_mutually_exclusive_group(required=True)
    players.add_argument("--lever", choices=LEVERS)
    players.add_argument("--decline", metavar="KIND: LABEL")
    players.add_argument("--search", action="store_true")
    parser.add_argument("--playouts", type=int, default=16)
    parser.add_argument("--follow", choices=("first", "second"), default="first")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME[=VALUE]",
        help="a rule or parameter set in every game, as on hammerlab battle",
    )  # fmt: skip
    args = parser.parse_args()
    if args.playouts < 2:  # a mean gain's standard error needs two
        parser.exit(2, f"error: --playouts {args.playouts}: use 2 or more\n")
    if args.decline is not None and ": " not in args.decline:
        parser.exit(2, f"error: --decline {args.decline!r}: write KIND: LABEL (action: run)\n")
    if args.search:
        pair = search_pair()
    elif args.lever is not None:
        pair = lever_pair(args.lever, args.follow)
    else:
        pair = decline_pair(args.decline, args.follow)
    try:  # a scenario or a rule that cannot be read is one line, as on the command line
        rules = dict(parse_rule_flag(flag) for flag in args.rule)
        scenarios = {path: load_scenario(path) for path in args.files}
        for path, scenario in scenarios.items():
            Game.start(scenario, str(path), args.first, rules)  # the rules are known there
    except HammerlabError as error:
        parser.exit(2, f"error: {error}\n")
    for path, scenario in scenarios.items():
        if scenario.ruleset != "waffle":  # the players compared are the Waffle Edition's AI
            parser.exit(2, f"error: {path}: a {scenario.ruleset} scenario; use a waffle one\n")
    every: list[Duel] = []
    for path in scenarios:
        found: list[Duel] = []
        for seed in range(args.first, args.first + args.seeds):
            for duel in duels(path, seed, pair, args.playouts, rules):
                print(
                    f"{duel.scenario} seed {duel.seed} turn {duel.turn} {duel.player} "
                    f"{duel.kind}: {duel.first} | {duel.second}: "
                    f"{duel.mean:+.3f} ± {duel.error:.3f} "
                    f"(result {statistics.fmean(duel.result_gains):+.2f})",
                    flush=True,
                )
                found.append(duel)
        print(summary(path.stem, found), flush=True)
        every += found
    print(summary("all", every))


if __name__ == "__main__":
    main()
