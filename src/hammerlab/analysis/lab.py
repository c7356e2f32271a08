"""The rules lab: what does a rule change do to a scenario? Baseline against variant.

Both arms play the same scenario with the *real* engine and the same dice
seeds (common random numbers), the baseline with the rules as they are and
the variant with the change (a rule option switched on, or a rule parameter
set), so the differences come from the rule and not from luck alone. The
report gives, per unit, the mean models left with a 95% confidence interval of
the paired difference and the chance to be destroyed, and per player the win
rate under the scenario's victory condition, and how often the players chose
each choice the rule change offers or takes away (:mod:`choices`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from statistics import fmean, stdev
from typing import TYPE_CHECKING, Any

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.choices import RuleChoice, Tally, rule_choices, total, watch
from hammerlab.analysis.search import start_game
from hammerlab.editions import get_ruleset
from hammerlab.editions.base import play
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.engine.rules import ParamValue, RuleSettingError, parse_rule_flag, resolve_settings
from hammerlab.io.scenario import Scenario

if TYPE_CHECKING:
    from hammerlab.analysis.runners import Runner
    from hammerlab.analysis.store import ResultStore

Z_95 = 1.959964
"""Two-sided 95% quantile of the normal distribution."""
DRAW = "draw"


@dataclass(frozen=True)
class Outcome:
    """What one battle left: models per unit and the winner (or ``draw``)."""

    models_left: Mapping[str, int]
    winner: str
    choices: Tally = field(default_factory=dict)
    """What the players were offered and chose (:class:`choices.ChoiceTally`)."""


Progress = Callable[[int], None]
"""Told how many more battles have been played (a progress bar, in the CLI)."""

Settings = Mapping[str, ParamValue]
"""Rule options and parameters as ``--rule`` gives them (``name`` or ``name.param``)."""


@dataclass(frozen=True)
class Arms:
    """The two arms of an experiment: the settings each plays with, and what differs."""

    baseline: Settings
    variant: Settings
    label: str


def arms(scenario: Scenario, changes: Sequence[str], shared: Sequence[str] = ()) -> Arms:
    """The baseline and variant for ``changes`` (``--rule`` flags), both with ``shared``.

    ``NAME`` or ``NAME=on`` compares the option off with on (``NAME=off``: on
    with off); ``NAME.PARAM=V`` compares the option on with its defaults
    against the option on with ``PARAM`` at ``V``; ``PARAM=V`` (a ruleset
    parameter) compares its default with ``V``. Every key is checked against
    the scenario's ruleset first: an unknown name or a value out of bounds is
    a :class:`RuleSettingError`.
    """
    if not changes:
        raise RuleSettingError("name at least one --rule to compare")
    ruleset = get_ruleset(scenario.ruleset)
    options = {o.name for o in ruleset.options}
    both: dict[str, ParamValue] = dict(parse_rule_flag(f) for f in shared)
    baseline = dict(both)
    variant = dict(both)
    for flag in changes:
        key, raw = parse_rule_flag(flag)
        owner, dot, _ = key.partition(".")
        if dot:
            baseline.setdefault(owner, True)
            variant.setdefault(owner, True)
            variant[key] = raw
        elif key in options:
            on = resolve_settings(ruleset.options, ruleset.parameters, {key: raw}).on(key)
            baseline[key], variant[key] = not on, on
        else:
            variant[key] = raw
    for settings in (baseline, variant):
        resolve_settings(ruleset.options, ruleset.parameters, {**scenario.rules, **settings})
    return Arms(baseline, variant, ", ".join(changes))


def play_once(
    scenario: Scenario,
    source: str,
    options: Settings,
    seed: int,
    ai: str = "heuristic",
    dice: str = "single",
) -> Outcome:
    """Play the scenario once, silently, both sides played by ``ai`` (the edition's
    ``heuristic`` AI, or the ``search`` AI at its default budget), with ``dice``
    (``single`` or ``keyed``: :func:`~hammerlab.engine.dice.dice_for`; the search
    AI plays with ``single`` dice)."""
    if ai == "search":
        game = start_game(scenario, source, seed, {p.name: ai for p in scenario.players}, options)
        tallies = watch(game.battle)
        game.play()
        ready = game.ready
    else:
        ready = prepare(scenario, source, seed, options, dice=dice)
        tallies = watch(ready.battle)
        play(ready.battle, ready.ruleset, ready.plan)
    battle = ready.battle
    best = winner(victory_scores(battle, ready.plan.victory))
    return Outcome(
        models_left={u.id: len(u.alive_models) for u in battle.units.values()},
        winner=DRAW if best is None else best,
        choices=total([t.counts() for t in tallies]),
    )


@dataclass(frozen=True)
class UnitComparison:
    """One unit's models left, baseline against variant."""

    unit: str
    player: str
    starting_models: int
    baseline_mean: float
    variant_mean: float
    difference: float
    """Mean of the paired differences (variant − baseline)."""
    ci95: tuple[float, float]
    baseline_destroyed: float
    variant_destroyed: float


@dataclass(frozen=True)
class LabReport:
    """Baseline against variant for one rule change."""

    scenario: str
    rule: str
    runs: int
    first_seed: int
    units: tuple[UnitComparison, ...]
    baseline_wins: Mapping[str, float]
    variant_wins: Mapping[str, float]
    ai: str = "heuristic"
    """What played both sides (``heuristic`` or ``search``)."""
    dice: str = "single"
    """The dice mode: ``single`` (one stream) or ``keyed`` (:class:`KeyedDice`)."""
    choices: tuple[RuleChoice, ...] = ()
    """The choices offered in one arm only, with how often they were chosen."""
    ended_alike: int = 0
    """Paired battles that ended the same in both arms (every unit's models left,
    and the winner): all of them when the change never came into play, so a rules
    writer sees that the comparison measured nothing."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "scenario": self.scenario,
            "rule": self.rule,
            "runs": self.runs,
            "first_seed": self.first_seed,
            "units": [
                {
                    "unit": u.unit,
                    "player": u.player,
                    "starting_models": u.starting_models,
                    "baseline_mean_models_left": u.baseline_mean,
                    "variant_mean_models_left": u.variant_mean,
                    "difference": u.difference,
                    "ci95": list(u.ci95),
                    "baseline_p_destroyed": u.baseline_destroyed,
                    "variant_p_destroyed": u.variant_destroyed,
                }
                for u in self.units
            ],
            "baseline_wins": dict(self.baseline_wins),
            "variant_wins": dict(self.variant_wins),
            "ai": self.ai,
            "dice": self.dice,
            "paired_battles_ended_alike": self.ended_alike,
            "rule_choices": [
                {
                    "choice": c.choice,
                    "baseline_offered": c.baseline_offered,
                    "baseline_chosen": c.baseline_chosen,
                    "variant_offered": c.variant_offered,
                    "variant_chosen": c.variant_chosen,
                }
                for c in self.choices
            ],
        }


def paired_interval(differences: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% normal-approximation interval of paired differences."""
    mean = fmean(differences)
    if len(differences) < 2:
        return mean, mean, mean
    half = Z_95 * stdev(differences) / math.sqrt(len(differences))
    return mean, mean - half, mean + half


def _rates(outcomes: Sequence[Outcome], names: Sequence[str]) -> dict[str, float]:
    return {n: sum(o.winner == n for o in outcomes) / len(outcomes) for n in (*names, DRAW)}


PRECISION_ROUND = 50
"""Seeds added per round when ``compare`` runs to a precision."""


def compare(
    scenario: Scenario,
    source: str,
    experiment: Arms,
    runs: int,
    first_seed: int = 1,
    workers: int = 1,
    plugins: Sequence[str] = (),
    progress: Progress | None = None,
    ai: str = "heuristic",
    precision: float | None = None,
    dice: str = "single",
    runner: Runner | None = None,
    store: ResultStore | None = None,
    resume: bool = False,
) -> LabReport:
    """Play ``runs`` seeds with the baseline settings and the same seeds with the
    variant's (:func:`arms`), both sides played by ``ai`` (``heuristic`` or
    ``search``) with ``dice`` (``keyed``: common random numbers that stay paired,
    :class:`~hammerlab.engine.dice.KeyedDice`); ``progress`` is told of every
    battle, ``2 * runs`` in all.

    The battles are played as a sweep's are (:func:`sweep.play_seeds`): on
    ``runner`` (a Dask cluster's), else in ``workers`` local processes, and with
    a ``store`` each is written as it comes back, the two arms being two points
    of the store; battles of these seeds it already holds (from this engine) are an
    error unless ``resume``, when they are read back instead of played.

    With ``precision``, seeds are played in rounds of :data:`PRECISION_ROUND`
    until every unit's interval is narrower than ``precision`` (or ``runs`` are
    played); the stop depends on the outcomes alone, so on the seeds.
    """
    from hammerlab.analysis.runners import Runner
    from hammerlab.analysis.sweep import case_at, play_seeds, stored_outcomes

    pair = [
        case_at(scenario, source, arm_point(settings), first_seed, ai, dice)
        for settings in (experiment.baseline, experiment.variant)
    ]
    played = stored_outcomes(pair, store, resume, range(first_seed, first_seed + runs))
    step = runs if precision is None else min(runs, PRECISION_ROUND)
    played_runs = 0
    with nullcontext(runner) if runner is not None else Runner(workers) as active:
        while True:
            played_runs = min(runs, played_runs + step)
            seeds = range(first_seed, first_seed + played_runs)
            play_seeds(pair, {0: seeds, 1: seeds}, played, active, store, plugins, progress)
            baseline, variant = ([p[s] for s in seeds] for p in played)
            report = _report(scenario, source, experiment, first_seed, baseline, variant, ai)
            report = replace(report, dice=dice)
            if precision is None or played_runs >= runs:
                return report
            if all(u.ci95[1] - u.ci95[0] < precision for u in report.units):
                return report


def arm_point(settings: Settings) -> tuple[tuple[str, str], ...]:
    """An arm's settings as a store's point: options ``on``/``off``, values as written."""
    return tuple(
        (k, ("on" if v else "off") if isinstance(v, bool) else str(v)) for k, v in settings.items()
    )


def _report(
    scenario: Scenario,
    source: str,
    experiment: Arms,
    first_seed: int,
    baseline: Sequence[Outcome],
    variant: Sequence[Outcome],
    ai: str,
) -> LabReport:
    runs = len(baseline)
    ready = prepare(scenario, source, first_seed, experiment.baseline)
    units = []
    for unit in ready.battle.units.values():
        before = [o.models_left[unit.id] for o in baseline]
        after = [o.models_left[unit.id] for o in variant]
        mean, low, high = paired_interval([a - b for a, b in zip(after, before, strict=True)])
        units.append(
            UnitComparison(
                unit=unit.label,
                player=unit.player,
                starting_models=unit.starting_models,
                baseline_mean=fmean(before),
                variant_mean=fmean(after),
                difference=mean,
                ci95=(low, high),
                baseline_destroyed=sum(n == 0 for n in before) / runs,
                variant_destroyed=sum(n == 0 for n in after) / runs,
            )
        )
    players = [p.name for p in scenario.players]
    return LabReport(
        scenario=scenario.name,
        rule=experiment.label,
        runs=runs,
        first_seed=first_seed,
        units=tuple(units),
        baseline_wins=_rates(baseline, players),
        variant_wins=_rates(variant, players),
        ai=ai,
        choices=rule_choices(
            total([o.choices for o in baseline]), total([o.choices for o in variant])
        ),
        ended_alike=sum(
            b.models_left == v.models_left and b.winner == v.winner
            for b, v in zip(baseline, variant, strict=True)
        ),
    )
