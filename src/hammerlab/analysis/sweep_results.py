"""What a sweep measured: each grid point's metrics (:class:`PointResult`, from its
battles' outcomes by :func:`summarize`), the scenario files it played
(:class:`ScenarioFile`), its seeds as ranges, and the rules whose choices it
reports; ``results`` reads a store back into the same.

Points are told apart by the scenario file they were played on (its path and
hash), not by the scenario's ``name``: two files may share a name and differ in
their ``[rules]`` (:class:`ScenarioFile`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.choices import named_choices, never_chosen, total
from hammerlab.analysis.engine_version import ENGINE_VERSION, stored_plugins
from hammerlab.analysis.lab import DRAW, Outcome, file_rules_text
from hammerlab.analysis.stats import Estimate, mean_interval, wilson_interval
from hammerlab.analysis.sweep_grid import PLAY_KEYS, Case, Point, UnitInfo
from hammerlab.editions import get_ruleset
from hammerlab.editions.plugins import PluginFile
from hammerlab.editions.turns import victory_text
from hammerlab.engine.rules import ParamValue
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario


@dataclass(frozen=True)
class ScenarioFile:
    """One scenario file a sweep plays: where it was read, what it is, its own
    ``[rules]`` and the datasheets' notes, so a report can say what differs
    between two files of the same ``name``."""

    source: str
    name: str
    scenario_hash: str
    rules: Mapping[str, ParamValue]
    """The file's ``[rules]``, as written (empty: the ruleset's defaults)."""
    warnings: tuple[str, ...] | None
    """The special rules its datasheets have that the engine does not implement
    (what ``hammerlab battle`` notes); ``None`` where they are not known: a file
    read back from a store whose datasheets cannot be read here (:func:`stored_file`)."""
    victory: str | None = None
    """Its victory condition (``[plan]``'s ``victory``); ``None`` where not known (a
    stored scenario this hammerlab cannot read)."""
    victory_text: str | None = None
    """What decides who wins, for people (:func:`scenario_victory`): what the win
    rates of its points count; ``None`` where not known."""

    @property
    def rules_text(self) -> str:
        """The ``[rules]`` as the file writes them
        (:func:`~hammerlab.analysis.lab.file_rules_text`)."""
        return file_rules_text(self.rules)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "source": self.source,
            "scenario": self.name,
            "scenario_hash": self.scenario_hash,
            "rules": dict(self.rules),
            "warnings": None if self.warnings is None else list(self.warnings),
            "victory": self.victory,
            "victory_text": self.victory_text,
        }


def scenario_files(grid_cases: Sequence[Case]) -> list[ScenarioFile]:
    """The scenario files of ``grid_cases``, each once, in order."""
    files: dict[tuple[str, str], ScenarioFile] = {}
    for case in grid_cases:
        key = (case.source, case.scenario_hash)
        if key not in files:
            files[key] = ScenarioFile(
                case.source,
                case.scenario.name,
                case.scenario_hash,
                case.scenario.rules,
                case.warnings,
                case.scenario.plan.victory,
                scenario_victory(case.scenario),
            )
    return list(files.values())


def scenario_victory(scenario: Scenario) -> str:
    """What decides who wins a battle of ``scenario``: its victory condition, in its
    ruleset (:func:`~hammerlab.editions.turns.victory_text`)."""
    sudden_death = get_ruleset(scenario.ruleset).sudden_death
    return victory_text(scenario.plan.victory, sudden_death)


NOTES_UNKNOWN = (
    "not known: its datasheets cannot be read here (a BattleScribe file no longer beside "
    "it, or a plug-in's rule in its [rules]); sweep on the file lists them"
)
"""What a report says of a stored file's special rules not implemented where they are
not known (:func:`stored_file`)."""


def stored_file(source: str, name: str, hash_: str, stored: Mapping[str, Any]) -> ScenarioFile:
    """A scenario file as a store recorded it (``stored``: the scenario's JSON), for
    ``results`` to head its points with as ``sweep`` does: its path, name, hash and
    ``[rules]``, and the special rules not implemented as this hammerlab reads its
    datasheets from the stored scenario (``None`` where it cannot: a BattleScribe
    file no longer beside ``source``, a plug-in's rule in its ``[rules]``)."""
    rules = stored.get("rules")
    notes: tuple[str, ...] | None = None
    victory = decided = None
    # pydantic's ValidationError is a ValueError
    with suppress(HammerlabError, ValueError):
        scenario = Scenario.model_validate(stored)
        victory, decided = scenario.plan.victory, scenario_victory(scenario)
        notes = tuple(prepare(scenario, source).warnings)
    kept = rules if isinstance(rules, dict) else {}
    return ScenarioFile(source, name, hash_, kept, notes, victory, decided)


@dataclass(frozen=True)
class UnitStat:
    """A unit's models left at one grid point."""

    unit: UnitInfo
    models_left: Estimate
    """The mean and its 95% interval, within what a count of models can be (0 to the
    models the unit fields): :func:`~hammerlab.analysis.stats.mean_interval`."""
    destroyed: Estimate
    """The share of battles in which the unit was wiped out (Wilson interval)."""


SeedRanges = tuple[tuple[int, int], ...]
"""Seeds as ascending ranges ``(first, last)``, both included, none touching the next."""


def seed_ranges(seeds: Iterable[int]) -> SeedRanges:
    """``seeds`` as the fewest :data:`SeedRanges` (``1, 2, 3, 50, 51`` is
    ``((1, 3), (50, 51))``): how a point's seeds are reported, since a store may
    hold several runs with seeds apart."""
    ranges: list[tuple[int, int]] = []
    for seed in sorted(set(seeds)):
        if ranges and ranges[-1][1] == seed - 1:
            ranges[-1] = (ranges[-1][0], seed)
        else:
            ranges.append((seed, seed))
    return tuple(ranges)


SEED_RANGES_SHOWN = 4
"""Ranges :func:`seeds_text` writes out before it says how many more there are."""


def seeds_text(ranges: SeedRanges) -> str:
    """``1..5, 50..54`` for people (a lone seed as itself), the first
    :data:`SEED_RANGES_SHOWN` ranges and then how many more."""
    shown = [str(a) if a == b else f"{a}..{b}" for a, b in ranges[:SEED_RANGES_SHOWN]]
    more = len(ranges) - SEED_RANGES_SHOWN
    return ", ".join(shown) + (f" and {more} more ranges" if more > 0 else "")


@dataclass(frozen=True)
class PointResult:
    """Every metric at one grid point of one scenario."""

    scenario: str
    scenario_hash: str
    point: Point
    seeds: SeedRanges
    """The seeds of the battles summarized: one range for a sweep, possibly several for
    a store that holds runs from different ``--seed`` values."""
    units: tuple[UnitStat, ...]
    wins: Mapping[str, Estimate]
    """Win rate per player and ``draw`` (Wilson intervals)."""
    engine_version: str
    """What played the battles: :data:`ENGINE_VERSION` in a sweep; a store may hold others."""
    source: str = field(default="", compare=False)
    """The file the scenario was read from (empty where unknown: a point read back
    from a store, which names its scenario by hash). A label, not part of what
    was measured, so it is left out of comparisons."""
    choices: Mapping[str, tuple[int, int]] | None = field(default=None, compare=False)
    """How often each choice of the rules the sweep's axes touch was offered and
    chosen in this point's battles (``"kind: label"`` → (offered, chosen), as the
    lab counts them: :func:`~hammerlab.analysis.choices.named_choices`); a point
    read back from a store counts those of the rules its keys set, as the sweep
    did (:func:`point_rules`). ``None`` where not counted. Left out of
    comparisons, like ``source``."""
    plugins: tuple[PluginFile, ...] = field(default=(), compare=False)
    """The plug-in files that played the point (their paths, for reports; a point read
    back from a store has none here: its engine version names them, without the path,
    which :meth:`plugin_dicts` and :meth:`csv_rows` give)."""

    @property
    def runs(self) -> int:
        """Battles played at this point."""
        return next(iter(self.wins.values())).n

    @property
    def first_seed(self) -> int:
        """The lowest seed played at this point."""
        return self.seeds[0][0]

    @property
    def widest(self) -> float:
        """The widest interval this point reports."""
        widths = [u.models_left.width for u in self.units] + [w.width for w in self.wins.values()]
        return max(widths)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "scenario": self.scenario,
            "scenario_hash": self.scenario_hash,
            "source": self.source or None,
            "point": dict(self.point),
            "runs": self.runs,
            "first_seed": self.first_seed,
            "seeds": [list(r) for r in self.seeds],
            "engine_version": self.engine_version,
            "plugins": self.plugin_dicts(),
            "units": [
                {
                    # "id" and "label" mean the same in every command's JSON; "unit",
                    # the id here (as the store's units.unit), is the label in lab's
                    # and battle's: kept as it was
                    "id": s.unit.id,
                    "label": s.unit.label,
                    "unit": s.unit.id,
                    "player": s.unit.player,
                    "starting_models": s.unit.starting_models,
                    "models_fielded": s.unit.models_fielded,
                    "models_left": s.models_left.to_dict(),
                    "p_destroyed": s.destroyed.to_dict(),
                }
                for s in self.units
            ],
            "wins": {name: e.to_dict() for name, e in self.wins.items()},
            **(
                {}
                if self.choices is None
                else {
                    "rule_choices": [
                        {"choice": key, "offered": offered, "chosen": chosen}
                        for key, (offered, chosen) in self.choices.items()
                    ]
                }
            ),
        }

    def plugin_dicts(self) -> list[dict[str, Any]]:
        """The plug-in files that played the point, for JSON: path, name and hash; for a
        point read back from a store, the path ``None`` and the name and hash its engine
        version gives (:func:`~hammerlab.analysis.engine_version.stored_plugins`: until
        session 23 ``results`` wrote ``[]``, as if none had played)."""
        if self.plugins:
            return [p.to_dict() for p in self.plugins]
        return stored_plugins(self.engine_version)

    def csv_rows(self) -> list[dict[str, Any]]:
        """One flat row per metric (scenario, its file, engine, seeds, point, metric, mean,
        interval, n): rows of runs on other seeds, or by another engine, tell apart."""
        base = {
            "scenario": self.scenario,
            "scenario_hash": self.scenario_hash,
            "source": self.source,
            "engine_version": self.engine_version,
            "seeds": " ".join(str(a) if a == b else f"{a}..{b}" for a, b in self.seeds),
            **({"plugins": self._plugins_cell()} if self.plugin_dicts() else {}),
            **dict(self.point),
        }
        rows = []
        for s in self.units:
            rows.append({**base, "metric": f"models_left.{s.unit.id}", **_flat(s.models_left)})
            rows.append({**base, "metric": f"p_destroyed.{s.unit.id}", **_flat(s.destroyed)})
        for name, e in self.wins.items():
            rows.append({**base, "metric": f"win_rate.{name}", **_flat(e)})
        for key, (offered, chosen) in (self.choices or {}).items():
            rows.append({**base, "metric": f"choice.{key}", "offered": offered, "chosen": chosen})
        return rows

    def _plugins_cell(self) -> str:
        """The CSV's ``plugins`` cell: ``PATH (hash HASH)`` each, or, read back from a
        store, ``NAME@HASH`` each, as the engine version names them."""
        if self.plugins:
            return "; ".join(p.text for p in self.plugins)
        return "; ".join(f"{p['name']}@{p['hash']}" for p in self.plugin_dicts())


def _flat(e: Estimate) -> dict[str, float | int | str]:
    """An estimate's CSV cells; ``alike`` (``true``) only on a row whose every battle gave
    the same value, as ``--json`` says it (:func:`~hammerlab.analysis.stats.mean_interval`)."""
    alike: dict[str, str] = {"alike": "true"} if e.alike else {}
    return {"mean": e.mean, "ci95_low": e.low, "ci95_high": e.high, "n": e.n, **alike}


def summarize(
    scenario: str,
    hash_: str,
    point: Point,
    units: Sequence[UnitInfo],
    players: Sequence[str],
    outcomes: Sequence[Outcome],
    seeds: Sequence[int],
    engine_version: str = ENGINE_VERSION,
    source: str = "",
    rules: Collection[str] | None = None,
    plugins: tuple[PluginFile, ...] = (),
) -> PointResult:
    """The metrics of one point from its outcomes and their ``seeds`` (in seed order),
    played by ``engine_version`` (with ``plugins``) on the scenario read from
    ``source``; with ``rules`` (those the axes touch), how often their choices were
    offered and chosen."""
    n = len(outcomes)
    stats = tuple(
        UnitStat(
            unit=u,
            models_left=mean_interval(
                [float(o.models_left[u.id]) for o in outcomes], 0, u.models_fielded
            ),
            destroyed=wilson_interval(sum(o.models_left[u.id] == 0 for o in outcomes), n),
        )
        for u in units
    )
    wins = {p: wilson_interval(sum(o.winner == p for o in outcomes), n) for p in (*players, DRAW)}
    choices = None if rules is None else named_choices(total([o.choices for o in outcomes]), rules)
    return PointResult(
        scenario, hash_, point, seed_ranges(seeds), stats, wins, engine_version, source, choices,
        plugins,
    )  # fmt: skip


def axis_rules(case: Case) -> set[str]:
    """The rule options the case's point sets (``NAME`` or ``NAME.PARAM`` axes): those
    whose choices a sweep reports (:func:`point_rules`)."""
    return point_rules(case.scenario.ruleset, case.point)


def point_rules(ruleset: str, point: Point) -> set[str]:
    """The rule options that ``point``'s keys set (``NAME`` or ``NAME.PARAM``): every
    key but a unit's size, a parameter of ``ruleset`` and the AI or dice mode a
    store's point names (:data:`PLAY_KEYS`). The keys are a sweep's, each checked
    when its case was made (:func:`case_at`), so any other is an option's: a
    plug-in's too, which a store read back names though its plug-in is not loaded.
    A sweep reports these rules' choices, and ``results`` the same for the points
    it reads back (:func:`~hammerlab.analysis.store.summaries`)."""
    try:
        parameters = {p.name for p in get_ruleset(ruleset).parameters}
    except HammerlabError:  # a ruleset this hammerlab does not know: no parameters to drop
        parameters = set()
    return {
        key.partition(".")[0]
        for key, _ in point
        if not key.startswith("units.") and key not in PLAY_KEYS and key not in parameters
    }


def never_chosen_at_any_point(results: Sequence[PointResult]) -> list[str]:
    """One warning per choice of a varied rule offered at some point of a scenario file
    but chosen at none of that file's (:func:`~hammerlab.analysis.choices.never_chosen`),
    as the lab warns of one offered in its arms but chosen in neither.

    Counted file by file (its path and hash), the file named where the results hold
    several (``chosen at no point of FILE``): a rule that never came into play in one
    file is not hidden by another file where it did (a rules writer's review: the Guard
    example's Suppressive Fire, never chosen, went unwarned beside the horde's)."""
    files: dict[tuple[str, str], list[PointResult]] = {}
    for result in results:
        files.setdefault((result.source, result.scenario_hash), []).append(result)
    warnings = []
    for (source, hash_), points in files.items():
        where = f"at no point of {source or hash_}" if len(files) > 1 else "at no point"
        warnings += never_chosen(total([r.choices for r in points if r.choices is not None]), where)
    return warnings


def choices_text(choices: Mapping[str, tuple[int, int]]) -> str:
    """``action: suppressive fire offered 12, chosen 0; ...`` for people."""
    return "; ".join(
        f"{key} offered {offered}, chosen {chosen}" for key, (offered, chosen) in choices.items()
    )
