"""Tournaments between AI players: every pairing, on both sides of every scenario,
with common seeds.

For each scenario, each pair of players and each side the first of them
takes, the same ``games`` seeds are played (``first_seed``, ``first_seed + 1``,
...), so every pairing meets the same dice. The scenario's victory condition
names the winner (a tie is a draw). Each player's win rate comes with a 95%
Wilson score interval; its rating is a Bradley–Terry fit of all the games
(a draw counting half a win), on the Elo scale (400 points: 10 to 1 odds),
averaging 1500, with one draw between every pair added as a prior so that a
player that never lost still gets a finite rating.

A player is a built-in one (:data:`~hammerlab.analysis.search.PLAYERS`) or the
caller's own, named in ``controllers`` with the :data:`PlayerFactory` that makes its
controller for each game (an agent's policy, a scripted opponent); ``rules`` and
``plugins`` are applied to every game, as ``--rule`` and ``--plugin`` give them,
and every scenario's ruleset must take the ``rules`` before any game is played
(:func:`check_rules`).

Each game is recorded with its scenario's file, its seed, who played which side,
the scores, the winner, the sides wiped out and the game turn it ended in; a game
the heuristic AI played against the random or the search player is played again by
``hammerlab battle FILE --seed SEED --controller random|search --side SIDE`` (with
the tournament's ``--rule`` and ``--plugin`` flags, and ``--playouts`` for the
search), which seeds the random player as the tournament does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hammerlab.analysis.game import HOLD, Game
from hammerlab.analysis.search import PLAYERS, Budget, start_game
from hammerlab.analysis.stats import wilson_interval
from hammerlab.analysis.sweep_grid import check_distinct
from hammerlab.editions.plugins import (
    PluginFile,
    PluginPaths,
    check_plugins_fit,
    load_plugin_files,
    plugins_for_ruleset,
)
from hammerlab.engine.decisions import Controller
from hammerlab.engine.rules import ParamValue, RuleSettingError
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario

ELO_MEAN = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (400 points: odds of 10 to 1)."""
FIT_ROUNDS = 500

PlayerFactory = Callable[[Game, str], Controller]
"""Makes one of the caller's own players' controller for one game: given the game
(held before anything is asked, so the controller answers every decision of its
side) and the scenario player it plays. Called once per game: a controller that
keeps state starts each game afresh."""


class TournamentError(HammerlabError, ValueError):
    """A tournament that cannot be played (too few players, an unknown one)."""


class ScenarioRuleError(RuleSettingError):
    """A rule setting that one of a tournament's scenarios refuses (its ruleset has no
    such rule, or not that value): found before any game is played, naming the
    scenario's file and its ruleset."""


@dataclass(frozen=True)
class Result:
    """One game's result: who played which side, and the winning player (``None``: draw)."""

    scenario: str
    seed: int
    sides: tuple[tuple[str, str], ...]
    """(scenario player, tournament player), in the scenario's order."""
    winner: str | None
    scores: tuple[tuple[str, int], ...] = ()
    """Each scenario player's victory score, in the scenario's order."""
    file: str = ""
    """The scenario's file, as the tournament was given it (what ``battle`` reads)."""
    wiped_out: tuple[str, ...] = ()
    """The scenario players with no models left when that ended the game early (the
    other wins whatever the scores: Sudden Death); empty otherwise."""
    last_turn: int = 0
    """The game turn the game ended in: its last, or the one at whose end a side was
    wiped out."""


@dataclass(frozen=True)
class Standing:
    """One player's record."""

    player: str
    wins: int
    losses: int
    draws: int
    rating: float

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float:
        """Share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate ((0, 1) before any game)."""
        if not self.games:
            return (0.0, 1.0)
        interval = wilson_interval(self.wins, self.games)
        return (interval.low, interval.high)


def ratings(players: Sequence[str], games: Sequence[Result]) -> dict[str, float]:
    """Bradley–Terry strengths of ``games`` on the Elo scale (see the module's doc)."""
    score = {(a, b): 0.5 for a in players for b in players if a != b}  # the prior draw
    met = {(a, b): 1.0 for a in players for b in players if a != b}
    for game in games:
        a, b = (p for _, p in game.sides)
        met[a, b] += 1
        met[b, a] += 1
        if game.winner is None:
            score[a, b] += 0.5
            score[b, a] += 0.5
        else:
            loser = b if game.winner == a else a
            score[game.winner, loser] += 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(FIT_ROUNDS):  # the minorization-maximization updates (Hunter 2004)
        for p in players:
            won = sum(score[p, q] for q in players if q != p)
            rate = sum(met[p, q] / (strength[p] + strength[q]) for q in players if q != p)
            strength[p] = won / rate
        centre = math.exp(sum(math.log(s) for s in strength.values()) / len(players))
        strength = {p: s / centre for p, s in strength.items()}
    return {p: ELO_MEAN + ELO_SCALE * math.log(s) for p, s in strength.items()}


@dataclass(frozen=True)
class TournamentReport:
    """Every game and every player's standing."""

    scenarios: tuple[str, ...]
    players: tuple[str, ...]
    games_per_side: int
    first_seed: int
    playouts: int
    games: tuple[Result, ...]
    standings: tuple[Standing, ...]
    rules: tuple[tuple[str, ParamValue], ...] = ()
    """The rule settings every game played with (``--rule``), as given."""
    plugins: tuple[PluginFile, ...] = ()
    """The plug-in files every game loaded (``--plugin``), with their hashes."""

    @property
    def search_plays(self) -> bool:
        """Whether the search AI is one of the players: its budget (``playouts``) is
        said only then, since it changes no other player's games."""
        return "search" in self.players

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (``search_playouts`` only where :attr:`search_plays`,
        ``rules`` and ``plugins`` only where there are any):
        per player ``wins``, ``losses``, ``draws``, ``games``,
        ``win_rate``, ``win_rate_ci95`` and ``elo``; per pairing its record; and
        every game (scenario, its ``file``, seed, who played which side, scores,
        winner, the sides ``wiped_out`` and its ``last_turn``), so that a lost game
        can be replayed (the module's doc) and a win by a tied or lower score read
        (the loser was wiped out)."""
        pairings = []
        for a, b in itertools.combinations(self.players, 2):
            between = [g for g in self.games if {p for _, p in g.sides} == {a, b}]
            pairings.append(
                {
                    "players": [a, b],
                    "games": len(between),
                    f"{a}_wins": sum(g.winner == a for g in between),
                    f"{b}_wins": sum(g.winner == b for g in between),
                    "draws": sum(g.winner is None for g in between),
                }
            )
        return {
            "scenarios": list(self.scenarios),
            "games_per_side": self.games_per_side,
            "first_seed": self.first_seed,
            **({"search_playouts": self.playouts} if self.search_plays else {}),
            **({"rules": dict(self.rules)} if self.rules else {}),
            **({"plugins": [p.to_dict() for p in self.plugins]} if self.plugins else {}),
            "players": {
                s.player: {
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                    "games": s.games,
                    "win_rate": s.win_rate,
                    "win_rate_ci95": list(s.win_rate_ci95),
                    "elo": round(s.rating, 1),
                }
                for s in self.standings
            },
            "pairings": pairings,
            "games": [
                {
                    "scenario": g.scenario,
                    "file": g.file,
                    "seed": g.seed,
                    "sides": dict(g.sides),
                    "scores": dict(g.scores),
                    "winner": g.winner,
                    "wiped_out": list(g.wiped_out),
                    "last_turn": g.last_turn,
                }
                for g in self.games
            ],
        }


def play_game(
    scenario: Scenario,
    source: str,
    seed: int,
    sides: Mapping[str, str],
    budget: Budget,
    controllers: Mapping[str, PlayerFactory] | None = None,
    rules: Mapping[str, ParamValue] | None = None,
    plugins: PluginPaths = (),
) -> Result:
    """Play one game, scenario player → tournament player in ``sides`` (a built-in
    one, or one of ``controllers``, whose controller is put in place while the game
    is held), with ``rules`` and ``plugins``."""
    own = controllers or {}
    kinds = {side: player for side, player in sides.items() if player not in own}
    game = start_game(scenario, source, seed, kinds, rules, plugins, budget, HOLD)
    for side, player in sides.items():
        if player in own:
            game.battle.controllers[side] = own[player](game, side)
    game.stop_before_turn = None
    game.play()
    scores, best = game.scores, game.winner
    return Result(
        scenario=scenario.name,
        seed=seed,
        sides=tuple(sides.items()),
        winner=None if best is None else sides[best],
        scores=tuple(scores.items()),
        file=source,
        wiped_out=game.wiped_out,
        last_turn=game.battle.turn,
    )


def players_problem(players: Sequence[str], own: Collection[str] = ()) -> str | None:
    """What is wrong with a tournament's ``players`` (fewer than two different ones,
    one that is none of :data:`PLAYERS` nor of the caller's ``own``, or one of
    ``own`` named like a built-in one), or ``None``: asked before any scenario is read,
    so the command can call it a usage error of ``--players``."""
    clash = [p for p in own if p in PLAYERS]
    if clash:
        return f"{clash[0]!r} is a built-in player; give your own another name"
    if len(players) < 2 or len(set(players)) != len(players):
        return "name two or more different players"
    unknown = [p for p in players if p not in PLAYERS and p not in own]
    if unknown:
        known = ", ".join((*PLAYERS, *own))
        return f"{unknown[0]!r} is not one of {known}"
    return None


def check_rules(
    scenarios: Sequence[tuple[Scenario, str]],
    rules: Mapping[str, ParamValue],
    plugins: PluginPaths = (),
) -> None:
    """Refuse ``rules`` (with ``plugins`` loaded) unless every scenario's ruleset
    takes them, before any game is played: each scenario is started once, as its
    games will be, and held before its first turn. The first refused is a
    :class:`ScenarioRuleError` naming its file and ruleset; where scenarios of
    another ruleset take the rule, it says so rather than hint at a plug-in."""
    refused = []
    for scenario, source in scenarios:
        try:
            its_plugins = plugins_for_ruleset(plugins, scenario.ruleset)
            Game.start(scenario, source, None, rules, its_plugins, stop_before_turn=HOLD)
        except RuleSettingError as error:
            refused.append((scenario, source, error))
    if not refused:
        return
    scenario, source, first = refused[0]
    problem = f"{source} plays {scenario.ruleset}: {first}"
    taking = sorted({s.ruleset for s, _ in scenarios} - {s.ruleset for s, _, _ in refused})
    if not taking:
        raise ScenarioRuleError(problem) from first  # perhaps a plug-in's rule (the CLI says so)
    raise ScenarioRuleError(
        f"{problem} (every game plays every rule given; the {', '.join(taking)} scenarios "
        f"take it, the {scenario.ruleset} ones do not)"
    )


def tournament(
    scenarios: Sequence[tuple[Scenario, str]],
    players: Sequence[str],
    games: int,
    first_seed: int = 1,
    budget: Budget | None = None,
    progress: Callable[[int], None] | None = None,
    controllers: Mapping[str, PlayerFactory] | None = None,
    rules: Mapping[str, ParamValue] | None = None,
    plugins: PluginPaths = (),
) -> TournamentReport:
    """Play every pairing of ``players`` on both sides of every scenario
    ((scenario, source) pairs), ``games`` seeds each; ``progress`` is told of
    every game played (:func:`games_in` of them in all). A player is a built-in
    one or a name in ``controllers`` (the caller's own, :data:`PlayerFactory`);
    every game plays with ``rules`` (``--rule`` settings) and those of ``plugins``
    (files) for its scenario's ruleset; every scenario must take the rules
    (:func:`check_rules`, before any game). No
    scenario, or ``games`` below 1, is a :class:`TournamentError`: it would play
    nothing and rate every player alike. A scenario given twice is refused
    (:func:`~hammerlab.analysis.sweep_grid.check_distinct`): its games would be the same
    games, counted as others, and narrow every interval; so is a plug-in for none of the
    scenarios' rulesets (:func:`~hammerlab.editions.plugins.check_plugins_fit`)."""
    problem = players_problem(players, list(controllers or {}))
    if problem is not None:
        raise TournamentError(f"--players: {problem}")
    if not scenarios:
        raise TournamentError("scenarios: give at least one (scenario, source) pair")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"--games: {games!r}: a tournament plays 1 game or more per side")
    check_distinct(scenarios)
    check_plugins_fit(load_plugin_files(plugins), [s.ruleset for s, _ in scenarios])
    if rules:
        check_rules(scenarios, rules, plugins)
    budget = budget or Budget()
    played = []
    for scenario, source in scenarios:
        names = [p.name for p in scenario.players]
        its_plugins = plugins_for_ruleset(plugins, scenario.ruleset)
        for pair in itertools.combinations(players, 2):
            for order in (pair, pair[::-1]):
                for seed in range(first_seed, first_seed + games):
                    sides = dict(zip(names, order, strict=True))
                    played.append(
                        play_game(
                            scenario, source, seed, sides, budget, controllers, rules, its_plugins
                        )
                    )
                    if progress is not None:
                        progress(1)
    standings = []
    elo = ratings(players, played)
    for p in players:
        mine = [g for g in played if p in (q for _, q in g.sides)]
        wins = sum(g.winner == p for g in mine)
        draws = sum(g.winner is None for g in mine)
        standings.append(Standing(p, wins, len(mine) - wins - draws, draws, elo[p]))
    return TournamentReport(
        scenarios=tuple(s.name for s, _ in scenarios),
        players=tuple(players),
        games_per_side=games,
        first_seed=first_seed,
        playouts=budget.playouts,
        games=tuple(played),
        standings=tuple(standings),
        rules=tuple((rules or {}).items()),
        plugins=load_plugin_files(plugins),
    )


def games_in(scenarios: int, players: int, games: int) -> int:
    """How many games a tournament plays: pairings × 2 sides × scenarios × games."""
    return players * (players - 1) * scenarios * games
