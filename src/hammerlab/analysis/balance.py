"""The balance solver: which value of a rule parameter or unit size brings a metric to a goal?

Method: *bisection on a monotone estimate, with a sequential test at every
probe*. The metric (a win rate, or a unit's mean models left) is assumed to
move one way as the value grows. Every probe plays the same seeds
(``seed``, ``seed+1``, ...: common random numbers across values), in rounds of
``round_runs``, until its 95% interval excludes the goal (the probe is
*significant*) or it reaches ``max_runs``. Then:

1. both ends are probed; if their estimates do not lie on opposite sides of the
   goal, there is no root in the range by the estimates: nothing is found, and
   the end whose estimate is nearer the goal is reported (with why: the goal
   outside the metric's range, or inside the interval at that end, so that the
   root may lie at the end or beyond it; where the end is the key's own limit
   (``limits``: a parameter's minimum or maximum, a unit's least or most
   models), nothing beyond it can be tried, and the answer says so);
2. otherwise the bracket is the two ends, and while it is wider than the
   resolution (1 for whole numbers, ``tolerance`` otherwise) its midpoint is
   probed and replaces the end on the same side of the goal as its estimate
   (its mean), significant or not: a probe whose interval merely holds the
   goal (an end's included) does not stop the search, and is never the answer
   by that alone;
3. when the bracket closes, the answer is the linear interpolation between its
   ends (for whole numbers, the end whose estimate is nearer the goal). It is
   *found* when the root was bracketed by significant probes: ``bracket`` is
   then the two nearest values at which the metric was found significantly
   below and above the goal (each test at 95%; with several probes the joint
   confidence is lower, see ``docs/scale.md``). When a side has none (every
   probe on it, its end of the range included, held the goal), the search
   cannot conclude: ``found`` is false, ``why`` says which side, ``bracket`` is
   the range searched, and the value is the best estimate all the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from hammerlab.analysis.lab import FlagError, Outcome, Progress
from hammerlab.analysis.runners import Runner, batch_size
from hammerlab.analysis.stats import Estimate, mean_interval, wilson_interval
from hammerlab.analysis.sweep_grid import SIZE_KEY, Case, Point, case_at
from hammerlab.editions import get_ruleset
from hammerlab.editions.plugins import (
    PluginPaths,
    load_plugin_files,
    plugins_in_play,
)
from hammerlab.engine.rules import resolve_settings
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario

ROUND_RUNS = 50
"""Battles added to a probe per round of its sequential test."""

Sampler = Callable[[float, Sequence[int]], list[float]]
"""The metric's value in each battle played with ``value`` and these seeds."""

Span = Callable[[float], tuple[float, float]]
"""The least and the most the metric can be in a battle played with ``value`` (a
unit's models left: 0 to those it fields there)."""


def unbounded(value: float) -> tuple[float, float]:
    """The :data:`Span` of a metric nothing bounds."""
    return -math.inf, math.inf


@dataclass(frozen=True)
class Probe:
    """The metric estimated at one value."""

    value: float
    estimate: Estimate

    def holds(self, goal: float) -> bool:
        """Whether the interval contains the goal."""
        return self.estimate.low <= goal <= self.estimate.high


@dataclass
class Balance:
    """The solver's answer and how it got there."""

    goal: float
    found: bool
    """True when the root was bracketed by probes significantly below and above the goal."""
    value: float
    """The answer when found; otherwise the best estimate (see ``why``)."""
    bracket: tuple[float, float]
    """When found, the values at which the metric was found significantly below and above
    the goal (the root lies between them); otherwise the range searched."""
    estimate: Estimate
    """The metric as the probe at :attr:`estimate_at` measured it: at ``value`` itself,
    or, where ``value`` is interpolated between the bracket's ends (no battle was
    played there), at the end whose estimate is nearer the goal."""
    estimate_at: float
    """The value the :attr:`estimate` was measured at (a probe's)."""
    probes: list[Probe] = field(default_factory=list)
    why: str | None = None
    """Why nothing was found (``None`` when found)."""

    @property
    def battles(self) -> int:
        """Battles played in all."""
        return sum(p.estimate.n for p in self.probes)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "goal": self.goal,
            "found": self.found,
            "value": self.value,
            "bracket": list(self.bracket),
            "estimate": self.estimate.to_dict(),
            "estimate_at": self.estimate_at,
            "battles": self.battles,
            "probes": [{"value": p.value, **p.estimate.to_dict()} for p in self.probes],
            "why": self.why,
        }


def solve(
    sample: Sampler,
    low: float,
    high: float,
    goal: float,
    integer: bool,
    binary: bool,
    first_seed: int = 1,
    round_runs: int = ROUND_RUNS,
    max_runs: int = 400,
    tolerance: float = 0.05,
    span: Span = unbounded,
    limits: tuple[str | None, str | None] = (None, None),
) -> Balance:
    """Find where the metric crosses ``goal`` between ``low`` and ``high`` (see the module).

    ``binary`` metrics (a win is 1, anything else 0) get Wilson intervals, others
    Student's t interval within the metric's ``span`` at the value, or, where
    every battle gave the same value, the bound of
    :func:`~hammerlab.analysis.stats.mean_interval`. ``limits`` says of ``low`` and
    of ``high`` that it is the key's own limit (``the least KEY can be``), ``None``
    where values beyond it can be tried: where the root may lie at an end, ``why``
    sends the user beyond it only where there is a beyond.
    """
    probes: list[Probe] = []

    def probe(value: float) -> Probe:
        values: list[float] = []
        while True:
            start = first_seed + len(values)
            values += sample(value, range(start, start + min(round_runs, max_runs - len(values))))
            estimate = (
                wilson_interval(round(sum(values)), len(values))
                if binary
                else mean_interval(values, *span(value))
            )
            result = Probe(value, estimate)
            if not result.holds(goal) or len(values) >= max_runs:
                probes.append(result)
                return result

    step = 1.0 if integer else tolerance
    lo, hi = ends = probe(low), probe(high)
    if not min(lo.estimate.mean, hi.estimate.mean) < goal < max(lo.estimate.mean, hi.estimate.mean):
        nearer = min((lo, hi), key=lambda p: abs(p.estimate.mean - goal))
        if nearer.holds(goal):
            where = (
                f"the estimate at {nearer.value:g} is the goal itself"
                if nearer.estimate.mean == goal
                else "the estimates at both ends lie on one side of the goal, but the "
                f"interval at {nearer.value:g} holds it"
            )
            limit = limits[0] if nearer is lo else limits[1]
            why = (
                f"{where}: the root may lie at {nearer.value:g} or beyond it"
                if limit is None
                else f"{where}, and {nearer.value:g} is {limit}: no value beyond it can be "
                f"tried, so the goal is not reached within that limit, unless at "
                f"{nearer.value:g} itself (raise --runs to tell)"
            )
        else:
            why = (
                f"the goal is outside the metric's range over {low:g}..{high:g} "
                f"({lo.estimate.mean:.3g} to {hi.estimate.mean:.3g})"
            )
        return Balance(
            goal, False, nearer.value, (low, high), nearer.estimate, nearer.value, probes, why
        )
    rising = hi.estimate.mean > lo.estimate.mean

    def significant(p: Probe) -> bool:
        return not p.holds(goal)

    # The nearest significant probe on each side of the root (None: none yet).
    sure_lo = lo if significant(lo) else None
    sure_hi = hi if significant(hi) else None
    while hi.value - lo.value > step:
        middle = (lo.value + hi.value) / 2
        mid = probe(float(int(middle)) if integer else middle)
        if (mid.estimate.mean < goal) == rising:
            lo = mid
            sure_lo = mid if significant(mid) else sure_lo
        else:
            hi = mid
            sure_hi = mid if significant(mid) else sure_hi
    nearer = min((lo, hi), key=lambda p: abs(p.estimate.mean - goal))
    if integer:
        value = nearer.value
    else:
        share = (goal - lo.estimate.mean) / (hi.estimate.mean - lo.estimate.mean)
        value = lo.value + share * (hi.value - lo.value)
    if sure_lo is not None and sure_hi is not None:
        bracket = (sure_lo.value, sure_hi.value)
        return Balance(goal, True, value, bracket, nearer.estimate, nearer.value, probes)
    unsure = [
        (end, limit)
        for end, sure, limit in zip(ends, (sure_lo, sure_hi), limits, strict=True)
        if sure is None
    ]
    missing = [
        f"{'below' if (end is ends[0]) == rising else 'above'} the goal (at {end.value:g}, the "
        f"range's end{'' if limit is None else f' and {limit}'}, its interval "
        f"{end.estimate.low:.3g}..{end.estimate.high:.3g} still held it after "
        f"{end.estimate.n} battles)"
        for end, limit in unsure
    ]
    beyond = "" if all(limit is not None for _, limit in unsure) else " or beyond"
    why = (
        f"the estimates cross the goal between {lo.value:g} and {hi.value:g}, but no value "
        f"was found significantly {' nor '.join(missing)}: the data cannot rule out a root "
        f"at{beyond} that end; raise --runs"
    )
    return Balance(goal, False, value, (low, high), nearer.estimate, nearer.value, probes, why)


@dataclass(frozen=True)
class Question:
    """What to balance: a key's range and a metric's goal, parsed from the command line."""

    key: str
    low: float
    high: float
    integer: bool
    metric: str
    """``win_rate`` or ``models_left.UNIT``."""
    goal: float
    player: str
    limits: tuple[bool, bool] = (False, False)
    """Whether ``low``, and ``high``, is the key's own limit: no value beyond it is
    taken (a parameter's minimum or maximum, a size the unit's datasheet refuses)."""

    def text(self, value: float) -> str:
        """``value`` as the key's setting is written (a whole number without ``.0``)."""
        return str(int(value)) if self.integer else repr(value)


def parse_question(
    scenario: Scenario,
    source: str,
    vary: str,
    target: str,
    player: str | None,
    plugins: PluginPaths = (),
) -> Question:
    """``KEY=LO..HI`` and ``win_rate=G`` (or ``models_left.UNIT=G``), checked against the
    scenario read from ``source`` before any battle: a mistake is a :class:`FlagError`
    naming its flag, a goal no value can reach (:func:`_goal_problem`) included; an
    unknown name, an end out of the parameter's bounds or a size the unit's datasheet
    refuses, a :class:`~hammerlab.engine.rules.RuleSettingError` worded as
    ``sweep --vary`` words it (the same checks: :func:`~hammerlab.analysis.sweep_grid.case_at`).
    The rules known are the built-in ones and those of ``plugins`` (the files the
    battles will play with), no other file's."""
    key, sep, span = vary.partition("=")
    low_text, dots, high_text = span.partition("..")
    if not sep or not dots:
        raise FlagError("--vary", f"{vary!r}: write KEY=LO..HI (e.g. charge_dice=1..4)")
    loaded = load_plugin_files(plugins)
    with plugins_in_play(loaded):
        integer = _is_integer(scenario, key.strip())
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise FlagError("--vary", f"{vary!r}: LO and HI must be numbers") from None
    if not (math.isfinite(low) and math.isfinite(high)):  # inf, nan, 1e400
        raise FlagError("--vary", f"{vary!r}: LO and HI must be finite numbers")
    if integer and (low != int(low) or high != int(high)):
        raise FlagError("--vary", f"{vary!r}: {key} takes whole numbers")
    if not low < high:
        raise FlagError("--vary", f"{vary!r}: LO must be below HI")
    metric, sep, goal_text = target.partition("=")
    units = [u.id for u in scenario.units]
    if not sep or not (
        metric == "win_rate" or (metric.removeprefix("models_left.") in units and "." in metric)
    ):
        raise FlagError(
            "--target",
            f"{target!r}: write win_rate=G or models_left.UNIT=G (units: {', '.join(units)})",
        )
    try:
        goal = float(goal_text)
    except ValueError:
        raise FlagError("--target", f"{target!r}: the goal must be a number") from None
    if not math.isfinite(goal):
        raise FlagError("--target", f"{target!r}: the goal must be a finite number")
    players = [p.name for p in scenario.players]
    chosen = player if player is not None else players[0]
    if chosen not in players:
        raise FlagError("--player", f"{chosen!r}: players are {', '.join(players)}")
    question = Question(key.strip(), low, high, integer, metric, goal, chosen)
    for value in (low, high):  # refused as sweep's --vary refuses it, before any battle
        case_at(scenario, source, ((question.key, question.text(value)),), plugins=plugins)
    problem = _goal_problem(scenario, source, question, plugins)
    if problem is not None:
        raise FlagError("--target", f"{target!r}: {problem}")
    beyond = (low - 1, high + 1) if integer else (math.nextafter(low, -math.inf),
                                                  math.nextafter(high, math.inf))  # fmt: skip
    limits = [_refused(scenario, source, question, value, plugins) for value in beyond]
    return replace(question, limits=(limits[0], limits[1]))


def _refused(
    scenario: Scenario, source: str, question: Question, value: float, plugins: PluginPaths
) -> bool:
    """Whether the key cannot be ``value`` (out of its parameter's bounds, or a size
    the unit's datasheet refuses), as a sweep's ``--vary`` would refuse it."""
    try:
        case_at(scenario, source, ((question.key, question.text(value)),), plugins=plugins)
    except HammerlabError:
        return True
    return False


def _goal_problem(
    scenario: Scenario, source: str, question: Question, plugins: PluginPaths
) -> str | None:
    """Why no value can reach the goal, or ``None``: a win rate is a share of battles
    (0 to 1); a unit keeps 0 to the models it fields (its starting models less its
    ``casualties``), and when the varied key is that unit's size, to those it fields
    at the largest size the range allows (the sizes at both ends are checked as the
    scenario's own would be)."""
    if question.metric == "win_rate":
        if not 0 <= question.goal <= 1:
            return "a win rate is a share of battles, from 0 to 1"
        return None
    unit = question.metric.removeprefix("models_left.")
    points: list[Point] = [()]
    if question.key == f"units.{unit}.size":
        points = [((question.key, f"{size:g}"),) for size in (question.low, question.high)]
    largest = max(
        (
            next(u for u in case_at(scenario, source, point, plugins=plugins).units if u.id == unit)
            for point in points
        ),
        key=lambda u: u.models_fielded,
    )
    most = largest.models_fielded
    if not 0 <= question.goal <= most:
        where = "at the largest size the range allows" if len(points) > 1 else "whatever the value"
        lost = largest.starting_models - most
        fielded = f" (its casualties = {lost} leave it {most} of {largest.starting_models})"
        return f"{unit} keeps 0 to {most} models{fielded if lost else ''}, {where}"
    return None


def _is_integer(scenario: Scenario, key: str) -> bool:
    """Whether ``key`` takes whole numbers (a unit size, an ``int`` parameter); an
    unknown name is the :class:`~hammerlab.engine.rules.UnknownRuleError` of
    :func:`~hammerlab.engine.rules.resolve_settings` (as ``sweep`` says it), a known
    key that is not a numeric parameter a :class:`FlagError`."""
    if SIZE_KEY.match(key):
        return True
    ruleset = get_ruleset(scenario.ruleset)
    owner, dot, name = key.partition(".")
    known = {p.name: p for p in ruleset.parameters}
    options = {o.name: o for o in ruleset.options}
    if dot and owner in options:
        parameter = options[owner].parameter(name)
    elif key in known:
        parameter = known[key]
    else:
        resolve_settings(ruleset.options, ruleset.parameters, {key: "on"})  # unknown: refused
        raise FlagError("--vary", f"{key!r}: not a numeric rule parameter or units.ID.size")
    if parameter.type_name not in ("int", "float"):
        raise FlagError("--vary", f"{key!r}: a {parameter.type_name} parameter cannot be balanced")
    return parameter.type_name == "int"


def balance_scenario(
    scenario: Scenario,
    source: str,
    question: Question,
    runner: Runner,
    first_seed: int = 1,
    round_runs: int = ROUND_RUNS,
    max_runs: int = 400,
    tolerance: float = 0.05,
    plugins: PluginPaths = (),
    progress: Progress | None = None,
) -> Balance:
    """:func:`solve` on a scenario: each probe plays the scenario with the key at a value."""

    unit = question.metric.removeprefix("models_left.")

    @cache  # a probe's value is asked for its span and for its battles: prepared once
    def case(value: float) -> Case:
        point = ((question.key, question.text(value)),)
        return case_at(scenario, source, point, first_seed, plugins=plugins)

    def span(value: float) -> tuple[float, float]:
        return 0.0, float(next(u.models_fielded for u in case(value).units if u.id == unit))

    def sample(value: float, seeds: Sequence[int]) -> list[float]:
        played = case(value)
        size = batch_size(len(seeds), runner.slots)
        batches = [played.batch(seeds[i : i + size]) for i in range(0, len(seeds), size)]
        parts: list[list[Outcome]] = [[] for _ in batches]

        def done(index: int, outcomes: list[Outcome]) -> None:
            parts[index] = outcomes
            if progress is not None:
                progress(len(outcomes))

        runner.run(batches, done)
        outcomes = [o for part in parts for o in part]
        if question.metric == "win_rate":
            return [float(o.winner == question.player) for o in outcomes]
        return [float(o.models_left[unit]) for o in outcomes]

    binary = question.metric == "win_rate"
    least, most = question.limits
    limits = (
        f"the least {question.key} can be" if least else None,
        f"the most {question.key} can be" if most else None,
    )
    return solve(
        sample, question.low, question.high, question.goal, question.integer, binary,
        first_seed, round_runs, max_runs, tolerance, unbounded if binary else span, limits,
    )  # fmt: skip
