"""The rules lab: what does a rule change do to a scenario? Baseline against variant.

Both arms play the same scenario with the *real* engine and the same dice
seeds (common random numbers), the baseline without the change and the
variant with it (a rule option switched on or off, or a rule parameter set:
:func:`arms`, which states what each arm plays against the scenario's
``[rules]``), so the differences come from the rule and not from luck alone.
The report gives, per unit, the mean models left with a 95% confidence interval of
the paired difference and the chance to be destroyed; per player (and for a
draw) the win rate under the scenario's victory condition in each arm with its
95% Wilson interval, and the paired difference with its 95% interval; how often
the players chose each choice of the rules the experiment concerns
(:mod:`choices`); and the datasheets' special rules the engine does not
implement, as ``hammerlab battle`` notes them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from statistics import fmean
from typing import TYPE_CHECKING, Any

from hammerlab.analysis.battles import PreparedBattle, check_file_rules, prepare
from hammerlab.analysis.choices import (
    RuleChoice,
    Tally,
    concerned_rules,
    never_chosen,
    rule_choices,
    total,
    watch,
)
from hammerlab.analysis.engine_version import ENGINE_VERSION
from hammerlab.analysis.game import HOLD
from hammerlab.analysis.search import start_game
from hammerlab.analysis.stats import (
    Estimate,
    alike_note,
    figure,
    interval,
    mean_interval,
    rounding_note,
    wilson_interval,
)
from hammerlab.editions import named_ruleset
from hammerlab.editions.base import play
from hammerlab.editions.plugins import PluginFile, PluginPaths, plugins_in_play
from hammerlab.editions.turns import game_winner, victory_text
from hammerlab.engine.rules import (
    ParamValue,
    RuleSettingError,
    RuleSettings,
    UnknownRuleError,
    implied_switches,
    resolve_settings,
    rule_flags,
    written_value,
)
from hammerlab.io.scenario import Scenario

if TYPE_CHECKING:
    from hammerlab.analysis.runners import Runner
    from hammerlab.analysis.store import ResultStore

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


def file_rules_text(rules: Settings) -> str:
    """A scenario file's ``[rules]`` as the file writes them (``fiery_charge = true``), or
    what having none means: how a sweep's and a lab's reports name what a file plays."""
    if not rules:
        return "none (the ruleset's defaults)"
    return ", ".join(f"{key} = {json.dumps(value)}" for key, value in rules.items())


@dataclass(frozen=True)
class ArmSetting:
    """One rule setting as each arm plays it, and as the scenario file writes it:
    what a report states so that a reader knows what the baseline played."""

    key: str
    baseline: str
    variant: str
    file: str | None = None
    """The file's ``[rules]`` value (``None``: the file does not set it), which
    :meth:`text` shows beside an arm that plays otherwise."""
    switched_on_by: str | None = None
    """For a rule on in both arms because a parameter of it was given (``--rule`` or
    ``--set NAME.PARAM=V``): that parameter's key."""

    def text(self, value: str) -> str:
        """``key=value`` with what it overrides or why it is so, for people."""
        notes = [f"switched on by {self.switched_on_by}"] if self.switched_on_by else []
        if self.file is not None and self.file != value:
            notes.append(f"the file: {self.file}")
        return f"{self.key}={value}" + (f" ({'; '.join(notes)})" if notes else "")

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "key": self.key,
            "baseline": self.baseline,
            "variant": self.variant,
            "file": self.file,
            "switched_on_by": self.switched_on_by,
        }


def arms_text(settings: Sequence[ArmSetting]) -> str:
    """``baseline: K=V (the file: W); variant: K=V; both arms: K=on (switched on by
    K.P)``: each arm's settings of what the experiment compares, then the rules both
    arms play on because a parameter of theirs was given."""
    compared = [s for s in settings if s.switched_on_by is None]
    parts = [
        f"{arm}: " + ", ".join(s.text(getattr(s, arm)) for s in compared)
        for arm in ("baseline", "variant")
        if compared
    ]
    switched = [s.text(s.baseline) for s in settings if s.switched_on_by is not None]
    if switched:
        parts.append("both arms: " + ", ".join(switched))
    return "; ".join(parts)


@dataclass(frozen=True)
class Arms:
    """The two arms of an experiment: the settings each plays with, and what differs."""

    baseline: Settings
    variant: Settings
    label: str
    shared: Settings = field(default_factory=dict)
    """The settings both arms play with (``--set``), as written."""
    settings: tuple[ArmSetting, ...] = ()
    """What each arm plays of the keys ``--rule`` compares, and the rules on in both
    arms because a parameter of theirs was given (:class:`ArmSetting`)."""


class FlagError(RuleSettingError):
    """A rule setting the lab refuses, with the flag that gave it (``--rule`` or
    ``--set``), so that the one line of error names the right one."""

    def __init__(self, flag: str, problem: object) -> None:
        super().__init__(str(problem))
        self.flag = flag
        self.unknown_name = isinstance(problem, UnknownRuleError)
        """Whether the flag names a rule or parameter the ruleset does not have (one
        another ruleset may: ``hammerlab lab`` names the scenario's ruleset)."""


def _flags(flag: str, given: Iterable[str]) -> dict[str, ParamValue]:
    """``given`` (``--rule`` or ``--set`` flags) as settings
    (:func:`~hammerlab.engine.rules.rule_flags`: a key given twice is refused rather
    than the last one kept), a mistake naming ``flag``; a unit's size
    (``units.ID.size``), which the lab cannot vary, is refused saying what can."""
    try:
        settings = rule_flags(given)
    except RuleSettingError as error:
        raise FlagError(flag, error) from None
    unit = next((key for key in settings if key.startswith("units.")), None)
    if unit is not None:
        raise FlagError(
            flag,
            f"{unit}: the lab compares rules; a unit's size is varied with "
            f"sweep --vary {unit}=V1,V2 or balance --vary {unit}=LO..HI",
        )
    return settings


def arms(
    scenario: Scenario,
    changes: Sequence[str],
    shared: Sequence[str] = (),
    source: str = "the scenario",
) -> Arms:
    """The baseline and variant for ``changes`` (``--rule`` flags), both with ``shared``
    (``--set`` flags), for the scenario read from ``source``.

    ``NAME`` or ``NAME=on`` compares the option off with on (``NAME=off``: on with
    off), whatever the scenario's ``[rules]`` say of it; ``NAME.PARAM=V`` compares
    the option on with ``PARAM`` at the scenario's value (its default where the
    ``[rules]`` set none) against the option on with ``PARAM`` at ``V`` (setting a
    parameter switches its rule on, in both arms); ``PARAM=V`` (a ruleset parameter)
    compares what the scenario plays (again its default where the file sets none)
    with ``V``. What each arm plays is stated in :attr:`Arms.settings`. Everything
    is checked before a battle is played, and a mistake is a :class:`FlagError`
    naming its flag: an unknown name or a value out of bounds; a key given twice, a
    parameter given with its rule switched off by the same flags, or given to both
    ``--rule`` and ``--set`` (the variant's change would be played by the baseline
    too, or the ``--set`` silently undone); and a change that leaves the variant
    equal to its baseline (a parameter at the value the baseline plays already, or
    one of an option ``--set`` switches off), which would measure nothing. A bad
    ``[rules]`` entry of the scenario itself is an
    :class:`~hammerlab.errors.InputError` naming ``source``.
    """
    if not changes:
        raise FlagError("--rule", "name at least one --rule to compare")
    ruleset = named_ruleset(scenario.ruleset, source)
    options = {o.name for o in ruleset.options}

    def resolved(flag: str, settings: Settings) -> RuleSettings:
        try:
            return resolve_settings(ruleset.options, ruleset.parameters, scenario.rules, settings)
        except RuleSettingError as error:
            raise FlagError(flag, error) from None

    check_file_rules(ruleset, scenario, source)
    both = _flags("--set", shared)
    resolved("--set", both)
    wanted = _flags("--rule", changes)
    baseline = dict(both)
    variant = dict(both)
    for key, raw in wanted.items():
        if key in both:
            raise FlagError(
                "--rule",
                f"{key} is given to --rule and to --set ({key}={both[key]}): --set is what "
                "both arms play with, --rule what the variant changes; give it to one",
            )
        owner, dot, _ = key.partition(".")
        if dot:
            baseline.setdefault(owner, True)
            variant.setdefault(owner, True)
            variant[key] = raw
        elif key in options:
            on = resolved("--rule", {key: raw}).on(key)
            baseline[key], variant[key] = not on, on
        else:
            variant[key] = raw
    before, after = resolved("--rule", baseline), resolved("--rule", variant)
    for key, raw in wanted.items():
        owner, dot, _ = key.partition(".")
        if dot and not after.on(owner):
            raise FlagError(
                "--rule",
                f"{key}={raw}: {owner} is off in both arms (--set {owner}={both[owner]}), "
                "so its parameter changes nothing",
            )
        if key not in options and before.values[key] == after.values[key]:
            raise FlagError(
                "--rule",
                f"{key}={raw}: the baseline plays {key}={raw} already, so the variant "
                "would be the baseline and the comparison would measure nothing",
            )
    file = resolved("--rule", {})
    stated = [
        ArmSetting(
            key,
            _played(before, key),
            _played(after, key),
            _played(file, key) if key in scenario.rules else None,
        )
        for key in wanted
    ]
    for owner, key in implied_switches({**both, **wanted}).items():
        if owner not in wanted and not file.on(owner):
            written = _played(file, owner) if owner in scenario.rules else None
            stated.append(ArmSetting(owner, "on", "on", written, key))
    return Arms(baseline, variant, ", ".join(changes), both, tuple(stated))


def _played(settings: RuleSettings, key: str) -> str:
    """What ``settings`` play for ``key`` (an option, or a parameter), as ``--rule``
    writes it: ``on``/``off`` for an option or a switch, else the value."""
    return written_value(settings.on(key) if key in settings.options else settings.values[key])


def unplayed(
    scenario: Scenario,
    source: str,
    options: Settings,
    dice: str = "single",
    plugins: Sequence[PluginFile] = (),
    seed: int = 0,
) -> PreparedBattle:
    """The scenario prepared (:func:`prepare`) with ``options``, ``dice`` and the rules of
    the plug-in files ``plugins`` alone, the dice for ``seed``: what :func:`play_once`
    plays the heuristic AI's battles of those arguments from, each seed's a copy of
    it (:meth:`~hammerlab.analysis.battles.PreparedBattle.again`), so that a batch of
    seeds sets the battle up once."""
    with plugins_in_play(plugins):
        return prepare(scenario, source, seed, options, dice=dice)


def play_once(
    scenario: Scenario,
    source: str,
    options: Settings,
    seed: int,
    ai: str = "heuristic",
    dice: str = "single",
    plugins: Sequence[PluginFile] = (),
    template: PreparedBattle | None = None,
) -> Outcome:
    """Play the scenario once, silently, both sides played by ``ai`` (the edition's
    ``heuristic`` AI, or the ``search`` AI at its default budget), with ``dice``
    (``single`` or ``keyed``: :func:`~hammerlab.engine.dice.dice_for`; the search
    AI plays with ``single`` dice) and the rules of the plug-in files ``plugins``
    (loaded already), no other file's (:func:`plugins_in_play`). ``template``, for
    the heuristic AI: the battle :func:`unplayed` gave of these same arguments, made
    again for ``seed`` (:meth:`PreparedBattle.again`) rather than prepared anew."""
    if ai == "search":
        players = {p.name: ai for p in scenario.players}
        files = [p.path for p in plugins]
        # Held until the tallies are in place: they count every choice.
        game = start_game(scenario, source, seed, players, options, files, stop_before_turn=HOLD)
        tallies = watch(game.battle)
        game.stop_before_turn = None
        game.play()
        ready = game.ready
    else:
        if template is None:
            ready = unplayed(scenario, source, options, dice, plugins, seed)
        else:
            ready = template.again(seed, dice)
        tallies = watch(ready.battle)
        play(ready.battle, ready.ruleset, ready.plan)
    battle = ready.battle
    best = game_winner(battle, ready.plan.victory)
    return Outcome(
        models_left={u.id: len(u.alive_models) for u, _ in ready.every_unit()},
        winner=DRAW if best is None else best,
        choices=total([t.counts() for t in tallies]),
    )


@dataclass(frozen=True)
class UnitComparison:
    """One unit's models left, baseline against variant."""

    unit: str
    player: str
    starting_models: int
    """Its starting strength (:attr:`~hammerlab.engine.units.Unit.starting_models`)."""
    models_fielded: int
    """The models it fields when the scenario begins, those the scenario's
    ``casualties`` took before it left out: what its models left are out of."""
    baseline_mean: float
    variant_mean: float
    difference: float
    """Mean of the paired differences (variant − baseline)."""
    ci95: tuple[float, float]
    baseline_destroyed: float
    variant_destroyed: float
    id: str = ""
    """The unit's id in the scenario (``unit`` is its label, ``Ork Boyz [boyz]``): what
    ``sweep --json`` names units by."""
    alike: bool = False
    """Whether every paired difference was the same (``ci95`` is then the bound of
    :func:`~hammerlab.analysis.stats.mean_interval` for a quantity that never varied)."""


@dataclass(frozen=True)
class WinComparison:
    """How often one player won (or the battle was drawn), baseline against variant."""

    outcome: str
    """A player's name, or ``draw``."""
    baseline: Estimate
    """The baseline's rate with its 95% Wilson interval."""
    variant: Estimate
    """The variant's rate with its 95% Wilson interval."""
    difference: Estimate
    """Variant minus baseline: the mean of the per-seed differences of the two
    arms' win indicators (each 1 or 0, so each difference -1, 0 or 1), with its
    95% t interval (:func:`~hammerlab.analysis.stats.mean_interval`), which pairing
    by seed narrows; where
    every difference was the same, the bound of
    :func:`~hammerlab.analysis.stats.mean_interval`."""

    def cells(self, page: bool = False) -> tuple[str, str, str]:
        """The rates in each arm and their paired difference, with their intervals, as
        every report prints them (the CLI, the HTML report with ``page``, the web lab),
        each written exactly where the runs allow
        (:func:`~hammerlab.analysis.stats.digits`: ``7.0%``, ``16.5%``, ``+9.5%``), so
        that the difference shown is the variant less the baseline shown."""
        return (
            interval(self.baseline, percent=True, page=page),
            interval(self.variant, percent=True, page=page),
            interval(self.difference, percent=True, sign="+", page=page),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "outcome": self.outcome,
            "baseline": self.baseline.to_dict(),
            "variant": self.variant.to_dict(),
            "difference": self.difference.to_dict(),
        }


@dataclass(frozen=True)
class LabReport:
    """Baseline against variant for one rule change."""

    scenario: str
    rule: str
    runs: int
    first_seed: int
    units: tuple[UnitComparison, ...]
    wins: tuple[WinComparison, ...]
    """Per player, then ``draw``."""
    ai: str = "heuristic"
    """What played both sides (``heuristic`` or ``search``)."""
    dice: str = "single"
    """The dice mode: ``single`` (one stream) or ``keyed`` (:class:`KeyedDice`)."""
    choices: tuple[RuleChoice, ...] = ()
    """The choices of the rules the experiment compares (``--rule``) or sets in both arms
    (``--set``), not those only the scenario file's ``[rules]`` set
    (:func:`choices.rule_choices`), with how often they were offered and chosen in
    each arm."""
    unused: tuple[str, ...] = ()
    """A warning per such choice offered but chosen in neither arm
    (:func:`choices.never_chosen`, as ``sweep`` warns; not for a decline whose
    decision's rule choice was chosen): where it is what the rule offers, the
    rule never came into play, whatever the units' numbers say."""
    ended_alike: int = 0
    """Paired battles that ended the same in both arms (every unit's models left,
    and the winner): all of them when the change never came into play, so a rules
    writer sees that the comparison measured nothing."""
    shared: Settings = field(default_factory=dict)
    """What both arms play with (``--set``), as written."""
    warnings: tuple[str, ...] = ()
    """The datasheets' notes ``hammerlab battle`` prints (special rules not
    implemented): what neither arm plays, so a reader weighs the results."""
    precision: float | None = None
    """The ``--precision`` asked for (``None``: a fixed number of runs)."""
    precision_reached: bool | None = None
    """Whether every unit's interval ended narrower than ``precision`` (``None``
    without one): ``False`` when ``runs`` ran out first."""
    settings: tuple[ArmSetting, ...] = ()
    """What each arm played of the keys compared, and the rules on in both arms
    because a parameter of theirs was given (:attr:`Arms.settings`)."""
    plugins: tuple[PluginFile, ...] = ()
    """The plug-in files both arms loaded (path and hash), for the reader and the store."""
    engine_version: str = ENGINE_VERSION
    """What played both arms, the plug-ins included
    (:func:`~hammerlab.analysis.engine_version.engine_version`)."""
    source: str = ""
    """The scenario file played (as given)."""
    scenario_hash: str = ""
    """Its hash (:func:`~hammerlab.analysis.sweep_grid.scenario_hash`), as a sweep names it."""
    file_rules: Settings = field(default_factory=dict)
    """The file's own ``[rules]``, as written: what both arms play unless compared or
    set (a rules writer's review: two copies of one scenario, alike but for their
    ``[rules]``, gave reports that could not be told apart)."""
    victory: str = "kill_points"
    """The scenario's victory condition (its ``[plan]``'s ``victory``)."""
    victory_text: str = ""
    """What decides who wins, for people (:func:`~hammerlab.editions.turns.victory_text`):
    what :attr:`wins` count."""

    @property
    def file_text(self) -> str:
        """The scenario file for people: ``PATH (hash HASH); its rules: ...``, as a
        sweep heads a file's section."""
        return (
            f"{self.source} (hash {self.scenario_hash}); its rules: "
            f"{file_rules_text(self.file_rules)}"
        )

    @property
    def arms_text(self) -> str:
        """Each arm's settings, for people (:func:`arms_text`)."""
        return arms_text(self.settings)

    @property
    def baseline_wins(self) -> dict[str, float]:
        """The baseline's win rate per player and ``draw``."""
        return {w.outcome: w.baseline.mean for w in self.wins}

    @property
    def variant_wins(self) -> dict[str, float]:
        """The variant's win rate per player and ``draw``."""
        return {w.outcome: w.variant.mean for w in self.wins}

    def paired_difference(self, unit: UnitComparison) -> Estimate:
        """``unit``'s paired difference (variant − baseline) with its interval, as an
        :class:`~hammerlab.analysis.stats.Estimate` of the report's runs."""
        return Estimate(unit.difference, *unit.ci95, self.runs, unit.alike)

    @property
    def alike_note(self) -> str | None:
        """What an interval marked ``all alike`` is, where one of the report's is
        (:func:`~hammerlab.analysis.stats.alike_note`)."""
        return alike_note(
            [*map(self.paired_difference, self.units), *(w.difference for w in self.wins)]
        )

    @property
    def precision_note(self) -> str | None:
        """Whether ``--precision`` was reached, as the text and the page say it (``None``
        without one)."""
        if self.precision is None:
            return None
        if self.precision_reached:
            return f"Precision {self.precision:g} reached: every unit's interval is narrower."
        return (
            f"Precision {self.precision:g} not reached: {self.runs} paired battles (--runs) "
            f"ran out with a unit's interval {self.widest:.3g} wide; raise --runs."
        )

    @property
    def rounding_note(self) -> str | None:
        """That the report's figures are rounded, where its runs cannot write them
        exactly (:func:`~hammerlab.analysis.stats.rounding_note`)."""
        return rounding_note([self.runs])

    def unit_cells(self, unit: UnitComparison, page: bool = False) -> tuple[str, str, str, str]:
        """``unit``'s figures as every report prints them (the CLI, the HTML report with
        ``page``, the web lab): its mean models left in each arm, the paired difference
        with its interval, and its chance to be destroyed in each arm (``7.0% →
        16.5%``), each written exactly where the report's runs allow
        (:func:`~hammerlab.analysis.stats.digits`), so that the difference shown is the
        variant less the baseline shown."""
        runs = self.runs
        destroyed = (
            figure(p, runs, percent=True) for p in (unit.baseline_destroyed, unit.variant_destroyed)
        )
        return (
            figure(unit.baseline_mean, runs),
            figure(unit.variant_mean, runs),
            interval(self.paired_difference(unit), sign="+", page=page),
            " → ".join(destroyed),
        )

    @property
    def widest(self) -> float:
        """The widest of the units' intervals (what ``precision`` bounds)."""
        return max((u.ci95[1] - u.ci95[0] for u in self.units), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "scenario": self.scenario,
            "source": self.source,
            "scenario_hash": self.scenario_hash,
            "file_rules": dict(self.file_rules),
            "rule": self.rule,
            "set_in_both_arms": {k: str(v) for k, v in self.shared.items()},
            "arms": [setting.to_dict() for setting in self.settings],
            "runs": self.runs,
            "first_seed": self.first_seed,
            "precision": self.precision,
            "precision_reached": self.precision_reached,
            "units": [
                {
                    # "id" and "label" mean the same in every command's JSON; "unit",
                    # the label here, is the id in sweep's and results': kept as it was
                    "id": u.id,
                    "label": u.unit,
                    "unit": u.unit,
                    "player": u.player,
                    "starting_models": u.starting_models,
                    "models_fielded": u.models_fielded,
                    "baseline_mean_models_left": u.baseline_mean,
                    "variant_mean_models_left": u.variant_mean,
                    "difference": u.difference,
                    "ci95": list(u.ci95),
                    **({"alike": True} if u.alike else {}),
                    "baseline_p_destroyed": u.baseline_destroyed,
                    "variant_p_destroyed": u.variant_destroyed,
                }
                for u in self.units
            ],
            "baseline_wins": self.baseline_wins,
            "variant_wins": self.variant_wins,
            "win_rates": [w.to_dict() for w in self.wins],
            "victory": self.victory,
            "victory_text": self.victory_text,
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
            "warnings": [*self.warnings, *self.unused],
            "plugins": [p.to_dict() for p in self.plugins],
            "engine_version": self.engine_version,
        }


def win_comparison(
    outcome: str, baseline: Sequence[Outcome], variant: Sequence[Outcome]
) -> WinComparison:
    """How often ``outcome`` (a player, or ``draw``) won in each arm, paired by seed."""
    before = [int(o.winner == outcome) for o in baseline]
    after = [int(o.winner == outcome) for o in variant]
    return WinComparison(
        outcome=outcome,
        baseline=wilson_interval(sum(before), len(before)),
        variant=wilson_interval(sum(after), len(after)),
        difference=mean_interval([a - b for a, b in zip(after, before, strict=True)], -1, 1),
    )


PRECISION_ROUND = 50
"""Seeds added per round when ``compare`` runs to a precision."""


def compare(
    scenario: Scenario,
    source: str,
    experiment: Arms,
    runs: int,
    first_seed: int = 1,
    workers: int = 1,
    plugins: PluginPaths = (),
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
    of the store; battles of these seeds it already holds (from this engine, with
    these ``plugins``: the files' paths, whose bytes are hashed into it) are an
    error unless ``resume``, when they are read back instead of played.

    With ``precision``, seeds are played in rounds of :data:`PRECISION_ROUND`
    until every unit's interval is narrower than ``precision`` (or ``runs`` are
    played); the stop depends on the outcomes alone, so on the seeds.
    """
    from hammerlab.analysis.runners import Runner
    from hammerlab.analysis.sweep import play_seeds, stored_outcomes
    from hammerlab.analysis.sweep_grid import case_at

    pair = [
        case_at(scenario, source, arm_point(settings), first_seed, ai, dice, plugins)
        for settings in (experiment.baseline, experiment.variant)
    ]
    played = stored_outcomes(pair, store, resume, range(first_seed, first_seed + runs))
    step = runs if precision is None else min(runs, PRECISION_ROUND)
    played_runs = 0
    with nullcontext(runner) if runner is not None else Runner(workers) as active:
        while True:
            played_runs = min(runs, played_runs + step)
            seeds = range(first_seed, first_seed + played_runs)
            play_seeds(pair, {0: seeds, 1: seeds}, played, active, store, progress)
            baseline, variant = ([p[s] for s in seeds] for p in played)
            with plugins_in_play(pair[0].plugins):
                report = _report(scenario, source, experiment, first_seed, baseline, variant, ai)
            reached = None if precision is None else report.widest < precision
            report = replace(
                report, dice=dice, precision=precision, precision_reached=reached,
                plugins=pair[0].plugins, engine_version=pair[0].engine_version,
                source=source, scenario_hash=pair[0].scenario_hash, file_rules=scenario.rules,
            )  # fmt: skip
            if reached is not False or played_runs >= runs:
                return report


def arm_point(settings: Settings) -> tuple[tuple[str, str], ...]:
    """An arm's settings as a store's point: options ``on``/``off``, values as written."""
    return tuple((k, written_value(v)) for k, v in settings.items())


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
    for unit, _ in ready.every_unit():
        before = [o.models_left[unit.id] for o in baseline]
        after = [o.models_left[unit.id] for o in variant]
        most = unit.fielded_models
        difference = mean_interval([a - b for a, b in zip(after, before, strict=True)], -most, most)
        units.append(
            UnitComparison(
                unit=unit.label,
                player=unit.player,
                starting_models=unit.starting_models,
                models_fielded=unit.fielded_models,
                baseline_mean=fmean(before),
                variant_mean=fmean(after),
                difference=difference.mean,
                ci95=(difference.low, difference.high),
                baseline_destroyed=sum(n == 0 for n in before) / runs,
                variant_destroyed=sum(n == 0 for n in after) / runs,
                id=unit.id,
                alike=difference.alike,
            )
        )
    outcomes = [*(p.name for p in scenario.players), DRAW]
    # The rules compared (--rule) and set in both arms (--set), not those the file's
    # [rules] set: a warning that a rule never came into play is about the rules the
    # experiment touches, as a sweep's is about its axes' (sweep_results.point_rules).
    given = (*experiment.baseline, *experiment.variant)
    concerned = concerned_rules(given, (o.name for o in ready.ruleset.options))
    used = rule_choices(
        total([o.choices for o in baseline]), total([o.choices for o in variant]), concerned
    )
    both_arms = {
        c.choice: (c.baseline_offered + c.variant_offered, c.baseline_chosen + c.variant_chosen)
        for c in used
    }
    return LabReport(
        scenario=scenario.name,
        rule=experiment.label,
        runs=runs,
        first_seed=first_seed,
        units=tuple(units),
        wins=tuple(win_comparison(o, baseline, variant) for o in outcomes),
        ai=ai,
        choices=used,
        unused=tuple(never_chosen(both_arms, "in neither arm")),
        ended_alike=sum(
            b.models_left == v.models_left and b.winner == v.winner
            for b, v in zip(baseline, variant, strict=True)
        ),
        shared=experiment.shared,
        warnings=tuple(ready.warnings),
        settings=experiment.settings,
        victory=ready.plan.victory,
        victory_text=victory_text(ready.plan.victory, ready.ruleset.sudden_death),
    )
