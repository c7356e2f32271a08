"""Where one of the heuristic's levers changes a decision, which answer plays better (docs/ai.md).

A head-to-head (``lever_head_to_head.py``) counts games won, and most games
are decided by the armies and the dice, not by the few decisions a lever
changes. This looks at those decisions alone. It plays every scenario given,
seeds FIRST..FIRST+N-1, the heuristic with the lever as ``--follow`` says on
both sides; at each top-level decision with more than one legal action it
asks the heuristic with the lever on and with it off which action it takes
(:func:`search.action_of`, on a copy). Where they differ, both actions are
played to the end of the game ``--playouts`` times on copies (the heuristic
of ``--follow`` on both sides after them), each pair of copies on the same
keyed dice (:func:`branching.reroll`: a stream per turn, unit and roll, so
the two copies roll alike wherever they play alike), and the paired gain of
the lever's action over the other's is recorded, in the deciding player's
margin at the end of the game: the victory-score margin with damage short of
a kill counted pro rata (:func:`search.value_for`, as the search values a
playout), and the margin of the score alone.

It prints each such decision (scenario, seed, game turn, player, decision,
the two actions, the mean gain and its standard error), then per scenario and
over all: the decisions, how many the lever's action won and lost by more
than two standard errors, and the mean of the decisions' mean gains with its
standard error across decisions, in both margins.

    .venv/bin/python examples/matchups/decision_duel.py LEVER FIRST N FILES... \\
        [--playouts K] [--follow on|off]
"""

from __future__ import annotations

import argparse
import math
import statistics
from dataclasses import dataclass
from pathlib import Path

from lever_head_to_head import LEVERS  # the scripts beside this one

from hammerlab.analysis.branching import reroll
from hammerlab.analysis.game import Action, Game
from hammerlab.analysis.search import action_of, score_margin, value_for
from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.io.scenario import load_scenario

PLAYOUT_SEEDS = 1_000_003
"""Playout ``k`` of game seed ``s`` rolls keyed dice seeded ``s * PLAYOUT_SEEDS + k``."""


@dataclass(frozen=True)
class Duel:
    """One decision the lever changed, and how its two actions played on."""

    scenario: str
    seed: int
    turn: int
    player: str
    kind: str
    lever: Action
    other: Action
    gains: tuple[float, ...]
    """The lever's action less the other's, in the pro rata margin, playout by playout."""
    score_gains: tuple[float, ...]
    """The same in the score margin alone."""

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
        """1 when the lever's action gained more than two standard errors, -1 when it
        lost as much, 0 otherwise (identical gains: the sign of their mean)."""
        if self.error == 0.0:
            return (self.mean > 0) - (self.mean < 0)
        if abs(self.mean) <= 2 * self.error:
            return 0
        return 1 if self.mean > 0 else -1


def margins(game: Game, player: str) -> tuple[float, float]:
    """``player``'s pro rata margin and score margin in a finished ``game``."""
    victory = game.ready.plan.victory
    return (
        value_for(game.battle, victory, player, game.ready.ruleset),
        score_margin(victory_scores(game.battle, victory), player),
    )


def played_on(game: Game, action: Action, seed: int, follow: bool, lever: str) -> Game:
    """A copy of ``game`` on its own keyed dice, ``action`` taken and the game played
    to its end by the heuristic with ``lever`` at ``follow`` on every side."""
    copy = game.clone()
    reroll(copy.battle, seed, "keyed")
    copy.battle.controllers = dict.fromkeys(copy.battle.controllers, WaffleAI(**{lever: follow}))
    copy.apply(action)
    copy.play()
    return copy


def duels(path: Path, seed: int, lever: str, follow: bool, playouts: int) -> list[Duel]:
    """Every decision of one game of ``path`` where the lever changes the action."""
    game = Game.start(load_scenario(path), str(path), seed)
    game.battle.controllers = dict.fromkeys(game.battle.controllers, WaffleAI(**{lever: follow}))
    found: list[Duel] = []
    while not game.is_over:
        actions = game.legal_actions()
        if len(actions) > 1:
            on = action_of(game, actions, WaffleAI(**{lever: True}))
            off = action_of(game, actions, WaffleAI(**{lever: False}))
            if on != off:
                player = game.current_player
                assert player is not None
                gains, score_gains = [], []
                for k in range(playouts):
                    dice = seed * PLAYOUT_SEEDS + k
                    with_on = margins(played_on(game, on, dice, follow, lever), player)
                    with_off = margins(played_on(game, off, dice, follow, lever), player)
                    gains.append(with_on[0] - with_off[0])
                    score_gains.append(with_on[1] - with_off[1])
                found.append(
                    Duel(
                        path.stem, seed, game.turn, player, on.kind, on, off,
                        tuple(gains), tuple(score_gains),
                    )
                )  # fmt: skip
        game.step()
    return found


def summary(name: str, found: list[Duel]) -> str:
    """One line: decisions, won / lost beyond the noise, the mean gain across them."""
    if not found:
        return f"{name}: no decision changed"
    better = sum(d.verdict > 0 for d in found)
    worse = sum(d.verdict < 0 for d in found)
    pro_rata = mean_and_error([d.mean for d in found])
    score = mean_and_error([statistics.fmean(d.score_gains) for d in found])
    return (
        f"{name}: {len(found)} decisions changed, the lever's action better in {better}, "
        f"worse in {worse}; mean gain {pro_rata} (score margin {score})"
    )


def mean_and_error(values: list[float]) -> str:
    """``mean ± standard error`` of ``values`` (the error 0 for a single value)."""
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):+.3f} ± {error:.3f}"


def main() -> None:
    """Find and weigh every changed decision; print each, then the summaries."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lever", choices=LEVERS)
    parser.add_argument("first", type=int)
    parser.add_argument("seeds", type=int)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--playouts", type=int, default=16)
    parser.add_argument("--follow", choices=("on", "off"), default="on")
    args = parser.parse_args()
    every: list[Duel] = []
    for path in args.files:
        found: list[Duel] = []
        for seed in range(args.first, args.first + args.seeds):
            for duel in duels(path, seed, args.lever, args.follow == "on", args.playouts):
                print(
                    f"{duel.scenario} seed {duel.seed} turn {duel.turn} {duel.player} "
                    f"{duel.kind}: {duel.lever} | {duel.other}: "
                    f"{duel.mean:+.3f} ± {duel.error:.3f}",
                    flush=True,
                )
                found.append(duel)
        print(summary(path.stem, found), flush=True)
        every += found
    print(summary("all", every))


if __name__ == "__main__":
    main()
