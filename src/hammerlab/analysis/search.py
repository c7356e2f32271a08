"""A search AI and a random floor: controllers for games played through :class:`Game`.

:class:`SearchController` answers each *top-level* decision (the pick of
:meth:`Game.legal_actions`: a unit and its first answers, in the Waffle
Edition where it moves, whom it shoots or charges) by Monte Carlo around the
heuristic AI's own pick: the legal actions race on copies of the game
(:meth:`Game.clone`, :func:`race`), each copy played on by the edition's
heuristic AI through the searcher's own next turn (or to the end of the game),
and valued by the scenario's victory score with damage short of a kill counted
pro rata (:func:`value_for`), less the luck of the copy's attacks
(:meth:`Ruleset.watch_luck`). The race's winner replaces the
heuristic's pick only if it beats it significantly on fresh, paired seeds
(:meth:`SearchController.confirm`). The reactions to shooting and to a charge
can be searched the same way (:meth:`SearchController.inner_choice`,
:data:`Budget.reactions`); by default they, like every other inner decision
(weapons, pile-in...), are the heuristic AI's.

Determinism: the budget is a number of playouts, never wall time; the copies
roll their own dice, seeded from a :class:`random.Random` the controller seeds
at each decision from the battle's seed and the decision's place in the game
(:func:`drawn_at`), so the real battle's dice are never touched, the same seed
plays the same game, and a saved game resumed plays on as the game played
whole. Every action of one decision sees the same playout seeds (common random
numbers), so actions are compared on the same luck; and the copies' dice are
keyed (:data:`Budget.dice`, :func:`branching.reroll`), so two actions keep
rolling the same dice for what they do alike after their first different roll.

:class:`RandomController` picks uniformly among the legal choices: the floor a
tournament measures the other players against.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from hammerlab.analysis import win_odds
from hammerlab.analysis.branching import (
    Snapshot,
    Snapshotting,
    branch_playout,
    play_to,
    reroll,
)
from hammerlab.analysis.game import HOLD, Action, Game
from hammerlab.editions.base import LuckWatch, Ruleset
from hammerlab.editions.plugins import PluginPaths
from hammerlab.editions.turns import (
    VICTORY_CONDITIONS,
    WIPED_OUT,
    damage_share,
    game_winner,
    units_in_play,
    victory_scores,
)
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.dice import DICE_MODES, DiceModeError
from hammerlab.engine.rules import ParamValue
from hammerlab.engine.transpositions import unremembered
from hammerlab.engine.units import Unit
from hammerlab.errors import InputError, UnknownNameError
from hammerlab.io.scenario import Scenario

T = TypeVar("T")
Values = Callable[[T, Sequence[int]], list[float]]
"""A choice's playout values on the given seeds (one each, in order)."""

SEARCHED_INNER = frozenset({"reaction", "charge_reaction"})
"""The inner decisions the search can answer itself (:meth:`SearchController.inner_choice`,
with :data:`Budget.reactions` ``searched``):
the reactions to shooting (Dive for Cover, Return Fire!) and to a charge
(Fall Back, Overwatch), which decide whether a unit can move, charge or stay
in the fight next turn."""

PLAYERS = ("heuristic", "search", "random")
"""The controllers a player can be (``--controller``, ``--ai``, ``--players``)."""

SIGNIFICANCE = 1.5
"""How many standard errors from zero a challenger's mean paired gain must be to
settle a challenge to the heuristic's pick (:func:`paired_verdict`)."""


UNTIL = ("after", "before")
"""Where a top-level pick's playout ends, relative to the searcher's turn (:data:`Budget.until`)."""
LUCK = ("subtracted", "kept")
"""What a playout's value does with its attacks' luck (:data:`Budget.luck`)."""
LAST_TURN = ("whole", "cut")
"""Where a playout whose horizon falls in the game's last turn ends (:data:`Budget.last_turn`)."""
OUTLOOK = ("fights", "none")
"""What a playout stopped short of the end adds for what goes on (:data:`Budget.outlook`)."""
ENDED = ("score", "pro_rata")
"""What a playout that reaches the end of the game is worth (:data:`Budget.ended`)."""
SUDDEN_DEATH = ("points", "decided")
"""What a playout that ends by Sudden Death is worth (:data:`Budget.sudden_death`)."""
REACTIONS = ("searched", "heuristic")
"""Who answers the reactions of :data:`SEARCHED_INNER` (:data:`Budget.reactions`)."""
MEASURES = ("share", "points", "odds")
"""What a playout's damage is measured in (:data:`Budget.measure`, :func:`value_for`)."""


@dataclass(frozen=True)
class Budget:
    """How hard the search thinks: playouts per decision and how far each looks."""

    playouts: int = 8
    """Playouts per stage of a top-level decision's race (:func:`race`), shared
    evenly among the actions left in it (at least one each); as many again (two
    at least) settle a challenge to the heuristic's pick
    (:meth:`SearchController.confirm`)."""
    race_each: int = 1
    """Playouts each action gets at least in every stage of the race (:func:`race`),
    whatever :data:`playouts` leaves it: with a dozen actions and 8 playouts a
    stage, the first stage plays each action once, and one playout's dice can put
    the best of them out of the race."""
    rounds: int = 1
    """Game rounds each playout looks ahead: 1 plays on to the end of the opponent's
    next turn (the same seat's turn one game turn later), or to the end of the game."""
    confirm_batches: int = 3
    """At most this many batches of fresh seeds settle a challenge
    (:meth:`SearchController.confirm`): sampling stops as soon as the paired
    gains are significant either way."""
    move_rounds: int = 2
    """Game rounds a playout of a ``mover`` pick looks ahead: a move pays off in the
    next turn's charge or shooting, so one round would favour staying out of the
    enemy's reach (a charging unit retreating to avoid being shot)."""
    dice: str = "keyed"
    """The playouts' dice (:func:`branching.reroll`): ``keyed`` streams, so that two
    actions tried on one seed roll alike for whatever they do alike long after
    their first different roll, or one ``single`` stream per copy."""
    until: str = "after"
    """Where a playout of a top-level pick ends: ``after`` the searcher's own turn
    :data:`rounds` game turns on (so the charge a move or a Run sets up, and its
    fight, are in the value), or ``before`` it (at its start, before its charges:
    the horizon until branch ``issue9-search5``)."""
    confirm_rounds: int | None = None
    """Game rounds the playouts of a challenge's confirmation look ahead
    (:meth:`SearchController.confirm`), for every kind of pick: ``None`` looks as
    far as the race did (:data:`rounds`, :data:`move_rounds`). A longer look
    there keeps a challenger that scores better only because the race's horizon
    stops before what the heuristic's pick sets up pays."""
    luck: str = "subtracted"
    """Whether a playout's value has the luck of its attacks' dice ``subtracted``
    (:meth:`Ruleset.watch_luck`: each volley's and blow's damage less what it was
    expected to do, a control variate of mean zero) or ``kept`` (the value as
    rolled)."""
    ended: str = "pro_rata"
    """What a playout that reaches the end of the game is worth: its victory
    ``score`` margin, as the game is won (a wounded model or a damaged unit
    counts nothing there), or, as a playout stopped short of the end,
    damage counted ``pro_rata`` (:func:`value_for`). Measured no better than
    ``pro_rata`` (docs/ai.md), so not the default."""
    last_turn: str = "cut"
    """A playout whose horizon falls in the game's last turn plays it ``whole``, to
    the end of the game (the first player's pick a turn before the last would
    otherwise be valued before the opponent's last turn, whose dice decide the
    result), or is ``cut`` at the horizon as any other (the default: ``whole``
    measured no better, docs/ai.md)."""
    outlook: str = "none"
    """A playout stopped short of the end of the game adds what the combats still
    being fought are expected to bring each side in the turns left
    (``fights``: :meth:`Ruleset.outlook`), as a chess search does not stop
    halfway through an exchange; ``none`` (the default: ``fights`` measured no
    better, docs/ai.md) values the table as it stands."""
    sudden_death: str = "points"
    """What a playout that ends with a side wiped out (Sudden Death) is worth: its
    margin on ``points``, as any other, or ``decided``, that margin plus every
    unit's whole worth to the side left (:func:`wiped_out_bonus`), more than any
    margin of points. ``decided`` measured worse against the heuristic (85 wins
    of 160 against 96, docs/ai.md, "Sudden Death"), so not the default."""
    reactions: str = "heuristic"
    """The reactions to shooting and to a charge (:data:`SEARCHED_INNER`)
    answered by the ``heuristic`` AI, as every other inner decision is (the
    default: the heuristic's reactions, weighed one by one, are right, and
    over 160 games against it the search did better leaving them to it:
    docs/ai.md), or ``searched`` as the top-level picks are
    (:meth:`SearchController.inner_choice`)."""

    measure: str = "share"
    """What the damage in a playout is measured in (:func:`value_for`): each
    side's losses as a ``share`` of its own army's worth (its models, or its
    kill points), so that the side nearer to being wiped out is behind
    whatever the raw count, or raw victory ``points`` (models destroyed, kill
    points), as the game's score counts them. ``share`` predicts who wins the
    game better in the matchups (docs/ai.md, "Losses measured as a share of
    each army"). ``odds`` values a playout by the chance of winning the game
    from it, fitted on the heuristic's own games of the scenario
    (:mod:`~hammerlab.analysis.win_odds`, :data:`odds_games` of them): the
    two margins, the luck taken out of each, weighed by how near the end is
    (:data:`ended`, :data:`outlook` and :data:`sudden_death` play no part)."""
    odds_games: int = win_odds.GAMES
    """Heuristic games the ``odds`` measure is fitted on, per scenario and player."""

    def __post_init__(self) -> None:
        # Refused when set, not at the first playout.
        if self.dice not in DICE_MODES:
            raise DiceModeError(f"dice mode {self.dice!r}: use one of {', '.join(DICE_MODES)}")
        for name, allowed in (
            ("until", UNTIL),
            ("luck", LUCK),
            ("ended", ENDED),
            ("last_turn", LAST_TURN),
            ("outlook", OUTLOOK),
            ("sudden_death", SUDDEN_DEATH),
            ("reactions", REACTIONS),
            ("measure", MEASURES),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise InputError("budget", name, f"{value!r}: use one of {', '.join(allowed)}")
        if self.odds_games < 1:
            raise InputError("budget", "odds_games", f"{self.odds_games}: use 1 or more")
        if self.race_each < 1:
            raise InputError("budget", "race_each", f"{self.race_each}: use 1 or more")
        if self.confirm_rounds is not None and self.confirm_rounds < 1:
            raise InputError("budget", "confirm_rounds", f"{self.confirm_rounds}: use 1 or more")


def drawn_at(name: str, battle: Battle) -> random.Random:
    """A generator for the decision ``battle`` asks now, seeded by ``name`` (the
    player's, from the battle's seed) and the length of the battle's log: a decision
    logs its answer, so no two of one game have the same, and a saved game replays its
    log exactly, so a resumed game draws at each decision what the game played whole
    drew there (``battle --stop-after N --save`` then ``--resume`` plays the game of
    ``battle`` alone, whatever player draws)."""
    return random.Random(f"{name}:{len(battle.log.events)}")


class RandomController:
    """Uniform over the legal choices of every decision, from a generator seeded by
    ``seed`` and the position of the decision in the game (:func:`drawn_at`)."""

    def __init__(self, seed: int | str) -> None:
        self._name = f"random:{seed}"

    @classmethod
    def for_seat(cls, seed: int, player: str) -> RandomController:
        """The random player of the game of dice seed ``seed`` playing ``player``: a
        tournament's and ``battle --controller random``'s alike, so that either plays
        the other's game again."""
        return cls(f"{seed}:{player}")

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """A uniformly random index."""
        return drawn_at(self._name, battle).randrange(len(decision.choices))


class SearchController:
    """Monte Carlo over the top-level actions; the heuristic AI for the rest.

    It needs its game (:meth:`attach`) to list and try the legal actions.
    """

    def __init__(self, player: str, budget: Budget | None = None) -> None:
        self.player = player
        self.budget = budget or Budget()
        self._game: Game | None = None
        self._heuristic: Controller | None = None
        self._name = f"search:{player}"
        self._rng: random.Random | None = None
        """The playout seeds' generator of the decision being searched (:func:`drawn_at`,
        drawn by :meth:`best_action` and :meth:`inner_choice`); none before the first."""
        self._planned: list[tuple[str, str]] = []
        self._snapshot: Snapshot | None = None
        self._odds: win_odds.WinOdds | None = None
        """The ``odds`` measure's model for this player's game, once first asked."""
        self._luck: dict[int, LuckWatch] = {}
        """The luck counted in each copy being played out, by its battle's identity
        (alive until the copy is valued, :meth:`_value`, which forgets it)."""

    def attach(self, game: Game) -> None:
        """Play in ``game``; the playout seeds are drawn from its battle's seed and the
        position of each decision searched (:func:`drawn_at`), so that a resumed game
        searches as the game played whole did."""
        self._game = game
        self._odds = None  # another game's scenario may be another
        self._heuristic = game.ready.ruleset.ai()
        self._name = f"search:{game.battle.dice.seed}:{self.player}"

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The searched pick at the top level, its planned follow-ups, a searched
        answer to a reaction (:meth:`inner_choice`), else the heuristic's."""
        game, heuristic = self._game, self._heuristic
        if game is None or heuristic is None:
            raise RuntimeError("SearchController.attach(game) was not called")
        if game.is_top_level(decision):
            # The copies' dice part them at their first roll, so their positions
            # seldom recur: keys would cost more than the answers found by them save.
            with unremembered():
                action = self.best_action(game)
            self._planned = list(action.then)
            return decision.labels().index(action.label)
        if self._planned and self._planned[0][0] == decision.kind:
            _, label = self._planned.pop(0)
            return decision.labels().index(label)
        self._planned = []
        pick = heuristic.choose(battle, decision)
        searched = self.budget.reactions == "searched" and decision.kind in SEARCHED_INNER
        if searched and self._snapshot is not None:
            with unremembered():
                return self.inner_choice(battle, decision, pick)
        return pick

    def remember(self, snapshot: Snapshot) -> None:
        """Keep the game at the latest top-level decision (:class:`Snapshotting`)."""
        self._snapshot = snapshot

    def best_action(self, game: Game) -> Action:
        """The heuristic AI's own pick (:meth:`heuristic_action`), unless looking
        ahead says another is significantly better (:meth:`challenge`). The playout
        seeds are drawn for this decision (:func:`drawn_at`): the same position of the
        same game searches alike, whoever asks."""
        self._rng = drawn_at(self._name, game.battle)
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        default = self.heuristic_action(game, actions)

        def play(action: Action, seeds: Sequence[int]) -> list[float]:
            return [self._playout(game, action, s) for s in seeds]

        def judge(action: Action, seeds: Sequence[int]) -> list[float]:
            return [self._playout(game, action, s, self.budget.confirm_rounds) for s in seeds]

        return self.challenge(default, [a for a in actions if a != default], play, judge)

    def inner_choice(self, battle: Battle, decision: Decision[Any], pick: int) -> int:
        """The heuristic's answer ``pick`` to an inner decision (a reaction to shooting
        or to a charge), unless another answer is significantly better
        (:meth:`challenge`), each tried on copies that replay the activation in
        play from its snapshot (:func:`branching.branch_playout`) and look
        :data:`Budget.rounds` game rounds ahead of it; its seeds drawn as
        :meth:`best_action`'s are."""
        self._rng = drawn_at(self._name, battle)
        snapshot = self._snapshot
        labels = decision.labels()
        if snapshot is None or len(labels) == 1:
            return pick
        answers = snapshot.answers_since(battle)

        def looking(rounds: int) -> Values[str]:
            def play(label: str, seeds: Sequence[int]) -> list[float]:
                branch, dice = (decision.kind, label), self.budget.dice
                whole = self.budget.last_turn == "whole"
                return [
                    self._value(
                        branch_playout(
                            snapshot, answers, branch, s, rounds, dice, self.watch, whole
                        )
                    )
                    for s in seeds
                ]

            return play

        default = labels[pick]
        play = looking(self.budget.rounds)
        judge = looking(self.budget.confirm_rounds or self.budget.rounds)
        return labels.index(
            self.challenge(default, [x for x in labels if x != default], play, judge)
        )

    def challenge(
        self, default: T, others: Sequence[T], play: Values[T], judge: Values[T] | None = None
    ) -> T:
        """``default`` (the heuristic's choice), unless another of ``others`` beats it.

        The others race ``default`` (:func:`race`) on common seeds, halving the
        field each stage, until one challenger is left. If it outscores
        ``default`` there, it meets it again on fresh seeds (:meth:`confirm`):
        the best of many noisy scores is flattered by its luck (the winner's
        curse), so it must earn the change on dice it was not picked on, and by
        more than the noise, valued by ``judge`` (``play`` unless given: the
        confirmation's horizon, :data:`Budget.confirm_rounds`). Otherwise
        ``default`` stands (many score alike)."""
        budget = self.budget
        challenger = race(default, others, play, self._seeds, budget.playouts, budget.race_each)
        if challenger is None or not self.confirm(challenger, default, judge or play):
            return default
        return challenger

    def confirm(self, challenger: T, default: T, play: Values[T]) -> bool:
        """Whether ``challenger`` beats ``default`` on fresh, paired seeds: a
        sequential test (:func:`paired_verdict`) on batches of ``playouts``
        seeds (two at least), sampling on while the mean gain is within the
        noise, up to :data:`Budget.confirm_batches` batches."""
        batch = max(2, self.budget.playouts)
        gains: list[float] = []
        for _ in range(self.budget.confirm_batches):
            fresh = self._seeds(batch)
            pairs = zip(play(challenger, fresh), play(default, fresh), strict=True)
            gains.extend(c - d for c, d in pairs)
            verdict = paired_verdict(gains)
            if verdict:
                return verdict > 0
        return False

    def _seeds(self, count: int) -> list[int]:
        """``count`` new playout seeds from the generator of the decision being searched;
        outside a search (no :meth:`best_action` nor :meth:`inner_choice` asked yet) a
        ``RuntimeError``, never seeds from the operating system's entropy, which no seed
        would reproduce."""
        if self._rng is None:
            raise RuntimeError("no decision being searched: playout seeds are drawn for one")
        rng = self._rng
        return [rng.getrandbits(32) for _ in range(count)]

    def heuristic_action(self, game: Game, actions: list[Action]) -> Action:
        """The legal action the heuristic AI takes here (:func:`action_of`)."""
        return action_of(game, actions, game.ready.ruleset.ai())

    def playout(self, game: Game, action: Action, seed: int, rounds: int | None = None) -> Game:
        """A copy of ``game`` with its own dice (``seed``), ``action`` taken and played
        on by the heuristic AI to the horizon: the end of this player's own turn
        :data:`Budget.rounds` game turns later (one: its next turn;
        :data:`Budget.move_rounds` for a ``mover`` pick; ``rounds`` if given), or its start
        (:data:`Budget.until`), or the end of the game (where the horizon falls in
        the last game turn: :data:`Budget.last_turn`). The luck of the attacks
        from the pick on is counted (:meth:`watch`)."""
        copy = game.clone()
        battle = copy.battle
        reroll(battle, seed, self.budget.dice)
        ai = copy.ready.ruleset.ai()  # a fresh one: its memory is of this copy only
        battle.controllers = dict.fromkeys(battle.controllers, ai)
        if rounds is None:
            rounds = self.budget.move_rounds if action.kind == "mover" else self.budget.rounds
        seat = copy.play_state.cursor.seat
        # After the seat's turn is before the next seat's (or the next game turn's first).
        horizon = (copy.turn + rounds, seat + 1 if self.budget.until == "after" else seat)
        self.watch(copy)
        copy.apply(action)
        play_to(copy, horizon, self.budget.last_turn == "whole")
        return copy

    def watch(self, copy: Game) -> None:
        """Count the luck of the attacks in ``copy`` from now on
        (:meth:`Ruleset.watch_luck`), when :data:`Budget.luck` subtracts it."""
        if self.budget.luck == "subtracted":
            luck = copy.ready.ruleset.watch_luck(copy.battle, copy.ready.plan.victory)
            if luck is not None:
                self._luck[id(copy.battle)] = luck

    def _playout(self, game: Game, action: Action, seed: int, rounds: int | None = None) -> float:
        """The value of one :meth:`playout` to this player."""
        return self._value(self.playout(game, action, seed, rounds))

    def _value(self, copy: Game) -> float:
        """A played-on copy's value to this player (:func:`value_for`; its score
        margin once the game is over, :data:`Budget.ended`), less the luck of its
        attacks' dice where it was counted (:meth:`watch`): the luck has a mean
        of zero whichever value it is taken from."""
        if self.budget.measure == "odds":
            return self._odds_value(copy)
        victory = copy.ready.plan.victory
        scale = army_worth(copy.battle, victory) if self.budget.measure == "share" else None
        if copy.is_over and self.budget.ended == "score":
            value = score_margin(victory_scores(copy.battle, victory), self.player)
        else:
            value = value_for(copy.battle, victory, self.player, copy.ready.ruleset, scale)
            if self.budget.outlook == "fights":
                value += outlook_margin(copy, self.player)
        if self.budget.sudden_death == "decided":
            value += wiped_out_bonus(copy.battle, victory, self.player)
        luck = self._luck.pop(id(copy.battle), None)
        return value if luck is None else value - luck.margin(self.player, scale)

    def _odds_value(self, copy: Game) -> float:
        """A played-on copy's chance of winning for this player (:class:`win_odds.WinOdds`,
        fitted once for the game's scenario, rules and plug-ins), from its two margins
        (:func:`margins`), the luck of its attacks' dice taken out of each where it was
        counted (:meth:`watch`)."""
        odds = self._odds
        if odds is None:  # looked up once: its key is the whole scenario
            game = self._game
            if game is None:
                raise RuntimeError("SearchController.attach(game) was not called")
            budget = self.budget
            odds = self._odds = win_odds.odds_for(
                game.recipe, self.player, budget.odds_games, margins
            )
        share, points = margins(copy, self.player)
        luck = self._luck.pop(id(copy.battle), None)
        if luck is not None:
            scale = army_worth(copy.battle, copy.ready.plan.victory)
            share -= luck.margin(self.player, scale)
            points -= luck.margin(self.player)
        return odds.of(share, points, win_odds.player_turns_left(copy))


def margins(game: Game, player: str) -> tuple[float, float]:
    """``player``'s two margins in ``game`` as it stands (:func:`value_for`): the share of
    each army destroyed, then the victory points, damage short of a kill pro rata."""
    battle, victory, ruleset = game.battle, game.ready.plan.victory, game.ready.ruleset
    share = value_for(battle, victory, player, ruleset, army_worth(battle, victory))
    return share, value_for(battle, victory, player, ruleset)


def action_of(game: Game, actions: list[Action], controller: Controller) -> Action:
    """The one of ``actions`` (``game``'s legal actions now) that ``controller``
    takes: read off the decisions it makes on a copy where it plays every side
    (the pick and its first answers), the copy's own dice untouched by the real
    game's."""
    copy = game.clone()
    battle = copy.battle
    battle.controllers = dict.fromkeys(battle.controllers, controller)
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


def race(
    default: T,
    others: Sequence[T],
    play: Values[T],
    seeds: Callable[[int], list[int]],
    playouts: int,
    each: int = 1,
) -> T | None:
    """The one of ``others`` that best survives successive halving against ``default``,
    if it then outscores ``default`` on every seed they shared; else ``None``.

    Each stage plays the field left (and ``default``) on the same new seeds,
    ``playouts`` shared among them (``each`` each at least), and keeps the better
    half (rounded up) by total value over all seeds so far, until one is left:
    the playouts go where the actions differ rather than evenly over many that
    score alike. Ties keep the earlier action."""
    field = list(others)
    if not field:
        return None
    totals = dict.fromkeys([default, *field], 0.0)
    while True:
        new = seeds(max(each, playouts // (len(field) + 1)))
        for action in (default, *field):
            totals[action] += sum(play(action, new))
        ranked = sorted(field, key=lambda a: -totals[a])  # stable: ties keep the order
        field = ranked[: math.ceil(len(field) / 2)] if len(field) > 1 else ranked
        if len(field) == 1:
            break
    best = field[0]
    return best if totals[best] > totals[default] else None


def paired_verdict(gains: Sequence[float]) -> int:
    """What paired gains (challenger's value minus the default's, seed by seed) say
    beyond the dice: 1 (better) when their mean is more than :data:`SIGNIFICANCE`
    standard errors (sample standard deviation over the square root of their
    number) above zero, -1 (worse) when as far below, 0 (not yet known) in
    between. With no spread the mean's sign decides, and a mean of zero is -1:
    the two played alike, so more seeds would not tell them apart."""
    n = len(gains)
    mean = sum(gains) / n
    variance = sum((g - mean) ** 2 for g in gains) / (n - 1) if n > 1 else 0.0
    error = math.sqrt(variance / n)
    if error == 0:
        return 1 if mean > 0 else -1
    if abs(mean) <= SIGNIFICANCE * error:
        return 0
    return 1 if mean > 0 else -1


def value_for(
    battle: Battle,
    victory: str,
    player: str,
    ruleset: Ruleset,
    scale: Mapping[str, float] | None = None,
) -> float:
    """``player``'s victory-score margin, damage short of a kill counted pro rata
    (:func:`turns.damage_share` of every unit, on the table or off it:
    :func:`turns.units_in_play`, to its enemy): a playout that
    leaves a Carnifex on one wound is told apart from one that leaves it unhurt.
    With ``scale`` (:func:`army_worth`), each side's losses count divided by its
    army's worth: the margin of the shares of the two armies destroyed.
    A game a side was wiped out of (Sudden Death) counts its points too; the
    search adds :func:`wiped_out_bonus` only with :data:`Budget.sudden_death`
    ``decided``."""
    if victory not in VICTORY_CONDITIONS:
        raise UnknownNameError("victory condition", victory, list(VICTORY_CONDITIONS))
    totals = dict.fromkeys((p.name for p in battle.players), 0.0)
    for unit in units_in_play(battle):
        lost = damage_share(unit, victory, ruleset.starting_wounds)
        totals[battle.opponent(unit.player)] += lost / (scale[unit.player] if scale else 1.0)
    return score_margin(totals, player)


def unit_worth(unit: Unit, victory: str) -> float:
    """What destroying the whole of ``unit`` scores under ``victory``: the models it
    fields (:attr:`~hammerlab.engine.units.Unit.fielded_models`), or its one kill point."""
    return 1.0 if victory == "kill_points" else float(unit.fielded_models)


def army_worth(battle: Battle, victory: str) -> dict[str, float]:
    """Each player's whole army's worth under ``victory`` (:func:`unit_worth` of
    each of its units, on the table or off it: :func:`turns.units_in_play`): what
    wiping it out scores."""
    worth = dict.fromkeys((p.name for p in battle.players), 0.0)
    for unit in units_in_play(battle):
        worth[unit.player] += unit_worth(unit, victory)
    return worth


def wiped_out_bonus(battle: Battle, victory: str, player: str) -> float:
    """What deciding the game by Sudden Death adds to ``player``'s margin: more than
    any margin of points can be (every unit's whole worth under ``victory``: its
    models, or its kill point), for the winner (:func:`turns.game_winner`), less
    for the loser, nothing on a draw or where no side was wiped out. So a playout
    that ends with the searcher wiped out, however far ahead on points, is worth
    less than any it survives, and one that wipes the enemy out more."""
    if not battle.memory.get(WIPED_OUT):
        return 0.0
    best = game_winner(battle, victory)
    if best is None:
        return 0.0
    worth = sum(unit_worth(unit, victory) for unit in units_in_play(battle))
    return worth if best == player else -worth


def outlook_margin(game: Game, player: str) -> float:
    """``player``'s margin of what goes on by itself on ``game``'s table over the
    player turns left in the game, one fight sub-phase each
    (:meth:`Ruleset.outlook`); nothing where the edition has no estimate."""
    gains = game.ready.ruleset.outlook(game.battle, win_odds.player_turns_left(game))
    return score_margin(gains, player) if gains else 0.0


def score_margin(totals: Mapping[str, float], player: str) -> float:
    """``player``'s total less the best of the other players'."""
    return totals[player] - max(v for p, v in totals.items() if p != player)


def install_search(game: Game, player: str, budget: Budget | None = None) -> SearchController:
    """Make ``player`` of ``game`` a :class:`SearchController` from now on (a new, a
    resumed or a loaded game alike: what was decided before is the log's).

    Where it searches the reactions (:data:`Budget.reactions`), every player's
    controller is wrapped in a :class:`Snapshotting` (once) that hands the
    searcher the game at each top-level decision, whoever makes it: the
    reactions it searches come in the other side's activations."""
    searcher = SearchController(player, budget)
    searcher.attach(game)
    snapshots = searcher.budget.reactions == "searched"
    controllers = game.battle.controllers
    for name, controller in controllers.items():
        wrapper = controller
        if snapshots and not isinstance(wrapper, Snapshotting):
            wrapper = Snapshotting(game, controller)
        if isinstance(wrapper, Snapshotting):  # kept for another searcher, or made here
            if snapshots:
                wrapper.listeners.append(searcher.remember)
            if name == player:
                wrapper.inner = searcher
        elif name == player:
            wrapper = searcher
        controllers[name] = wrapper
    return searcher


def start_game(
    scenario: Scenario,
    source: str,
    seed: int,
    kinds: Mapping[str, str],
    rules: Mapping[str, ParamValue] | None = None,
    plugins: PluginPaths = (),
    budget: Budget | None = None,
    stop_before_turn: int | None = None,
) -> Game:
    """A new game whose players are played by ``kinds`` (player → ``heuristic``,
    ``search`` or ``random``; players not named get the edition's AI)."""
    for player, kind in kinds.items():
        if kind not in PLAYERS:
            raise InputError("players", player, f"{kind!r} is not one of {', '.join(PLAYERS)}")
    randoms: dict[str, Controller] = {
        p: RandomController.for_seat(seed, p) for p, k in kinds.items() if k == "random"
    }
    # Held until the searchers are in place: they answer from the first decision.
    game = Game.start(scenario, source, seed, rules, plugins, randoms, HOLD)
    for player, kind in kinds.items():
        if kind == "search":
            install_search(game, player, budget)
    game.stop_before_turn = stop_before_turn  # plays on to the first top-level decision
    return game
