"""Sweeps: a grid of rule settings and unit sizes, played across one or more scenarios.

``--vary KEY=V1,V2,...`` names one axis of the grid; the grid is every
combination of the axes' values. A key is what ``--rule`` takes (an option
``NAME`` with ``on``/``off``, ``NAME.PARAM``, a ruleset parameter like
``charge_dice``) or ``units.ID.size``, which overrides that unit's size in the
validated scenario (and is validated again, like the file's own ``size``).
Setting ``NAME.PARAM`` switches ``NAME`` on unless ``NAME`` is an axis too (a point
names it, and what it names counts: :func:`~hammerlab.engine.rules.resolve_settings`,
as for ``--rule``).

Every grid point plays the same seeds (``seed``, ``seed+1``, ...), so points
differ by their settings and not by their luck. With ``precision`` the seeds
come in deterministic rounds of :data:`PRECISION_ROUND` per point, and a point
stops once every interval it reports is narrower than ``precision`` (or at
``runs``): the decision depends on the outcomes alone, hence on the seeds, so
it is the same whatever the number of workers.

Points are told apart by the scenario file they were played on (its path and
hash), not by the scenario's ``name``: two files may share a name and differ in
their ``[rules]`` (:class:`ScenarioFile`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.choices import named_choices, never_chosen, total
from hammerlab.analysis.engine_version import ENGINE_VERSION, engine_version, stored_plugins
from hammerlab.analysis.lab import DRAW, Outcome, Progress, Settings, file_rules_text
from hammerlab.analysis.runners import Batch, Runner, batch_size
from hammerlab.analysis.stats import Estimate, mean_interval, wilson_interval
from hammerlab.editions import get_ruleset
from hammerlab.editions.plugins import (
    PluginFile,
    PluginPaths,
    load_plugin_files,
    plugins_in_play,
)
from hammerlab.editions.turns import victory_text
from hammerlab.engine.rules import (
    ParamValue,
    RuleSettingError,
    RuleSettings,
    implied_switches,
    resolve_settings,
)
from hammerlab.errors import HammerlabError, InputError
from hammerlab.io.battlescribe.source import MAX_XML_BYTES
from hammerlab.io.files import read_at_most
from hammerlab.io.scenario import Scenario

if TYPE_CHECKING:
    from hammerlab.analysis.store import ResultStore

PRECISION_ROUND = 50
"""Seeds added to every unfinished point per round of a ``precision`` run."""

MAX_POINTS = 1_000
"""Most grid points one sweep may have (scenarios × combinations)."""

MAX_SEED = 2**63 - 1
"""The highest seed a sweep or a lab may play: the results store keeps seeds as
signed 64-bit integers (DuckDB's BIGINT). The dice take any integer."""


def seeds_past_store(seed: int, runs: int, runs_name: str, seed_name: str) -> str | None:
    """Why the seeds ``seed`` .. ``seed + runs - 1`` cannot all be stored (a results
    store keeps seeds up to :data:`MAX_SEED`), in the words of the caller's flags or
    fields (``--runs``, ``--seed``); ``None`` where they can. A run without a store is
    the same run as with one, so it takes the same seeds."""
    last = seed + runs - 1
    if last <= MAX_SEED:
        return None
    return (
        f"with {runs_name} {runs}, the seeds go up to {last}, past {MAX_SEED} (the most a "
        f"results store keeps); give {seed_name} {MAX_SEED - runs + 1} or less"
    )


SIZE_KEY = re.compile(r"^units\.(?P<unit>[A-Za-z0-9_\-]+)\.size$")

PLAY_KEYS = ("ai", "dice")
"""The keys a store's point adds to the grid point's where the battles were not
played the usual way (:attr:`Case.params`): how they were played, not a rule."""


Point = tuple[tuple[str, str], ...]
"""One grid point: (key, value) per axis, in the order the axes were given."""


class SweepError(RuleSettingError):
    """A ``--vary`` that cannot be played (the CLI names the flag)."""


class SameScenarioError(HammerlabError, ValueError):
    """A scenario given twice to a run that plays several (a sweep, a tournament): its
    battles would be counted as other battles (the CLI names ``SCENARIO``)."""


@dataclass(frozen=True)
class Axis:
    """One ``--vary``: a key and the values it takes."""

    key: str
    values: tuple[str, ...]


def parse_vary(flag: str) -> Axis:
    """``KEY=V1,V2,...`` as an :class:`Axis`; a malformed flag is a :class:`SweepError`."""
    key, sep, raw = flag.partition("=")
    key = key.strip()
    if not key or not sep:
        raise SweepError(f"{flag!r}: write KEY=V1,V2,... (e.g. charge_dice=2,3)")
    values = tuple(v.strip() for v in raw.split(","))
    if any(not v for v in values):
        raise SweepError(f"{flag!r}: an empty value; write KEY=V1,V2,...")
    if len(set(values)) < len(values):
        raise SweepError(f"{flag!r}: a value is given twice")
    return Axis(key, values)


def parse_axes(flags: Sequence[str]) -> tuple[Axis, ...]:
    """Every ``--vary`` flag; at least one, and no key twice."""
    if not flags:
        raise SweepError("give at least one --vary KEY=V1,V2,...")
    axes = tuple(parse_vary(f) for f in flags)
    keys = [a.key for a in axes]
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice is not None:
        raise SweepError(f"{twice!r} is varied twice; give its values in one --vary")
    return axes


def grid(axes: Sequence[Axis]) -> list[Point]:
    """Every combination of the axes' values, the last axis varying fastest."""
    keys = [a.key for a in axes]
    return [
        tuple(zip(keys, combo, strict=True))
        for combo in itertools.product(*(a.values for a in axes))
    ]


def point_label(point: Point) -> str:
    """``k=v, k=v`` for people."""
    return ", ".join(f"{k}={v}" for k, v in point)


def point_params(point: Point) -> str:
    """The point as canonical JSON (sorted keys): how the store names it."""
    return json.dumps(dict(point), sort_keys=True)


def scenario_hash(scenario: Scenario, source: str = "") -> str:
    """SHA-256 of the validated scenario (its canonical JSON), and of the BattleScribe
    files it names beside ``source`` (:func:`_sources_read`), first 16 hex digits.

    It covers everything the file says and the army lists it reads, so a store keeps
    apart two copies of one file beside other catalogues, and does not take a battle
    played with a catalogue since edited for one of the new; datasheets it names from
    the library are covered by the engine version instead. A scenario that names no
    BattleScribe file hashes as it did before the files were counted."""
    text = scenario.model_dump_json()
    read = _sources_read(scenario, source) if source else ()
    if read:
        text += "\n" + "\n".join(read)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class UnitInfo:
    """A unit as a grid point places it."""

    id: str
    label: str
    player: str
    starting_models: int
    """Its starting strength (:attr:`~hammerlab.engine.units.Unit.starting_models`)."""
    models_fielded: int
    """The models it fields when the scenario begins, those the scenario's
    ``casualties`` took before it left out: what its models left can be at most."""


@dataclass(frozen=True)
class Case:
    """One scenario at one grid point: what is played and how the store names it."""

    scenario: Scenario
    """The scenario with the point's unit sizes applied."""
    source: str
    point: Point
    settings: Settings
    scenario_hash: str
    """Of the scenario as loaded (before sizes): the point says what changed."""
    units: tuple[UnitInfo, ...]
    players: tuple[str, ...]
    ai: str = "heuristic"
    """What plays both sides."""
    dice: str = "single"
    """The dice mode (``keyed``: the lab's common random numbers)."""
    warnings: tuple[str, ...] = ()
    """The datasheets' notes ``hammerlab battle`` prints (special rules not implemented)."""
    plugins: tuple[PluginFile, ...] = ()
    """The plug-in files every battle of the case loads (in loading order)."""

    @property
    def engine_version(self) -> str:
        """What plays the case's battles, plug-ins included: the store keeps them under
        it (:func:`~hammerlab.analysis.engine_version.engine_version`)."""
        return engine_version(self.plugins)

    def batch(self, seeds: Sequence[int]) -> Batch:
        """``seeds`` of this case as one batch for a runner, carrying the plug-ins (and
        their hashes, which each worker checks) and the engine that made it."""
        return Batch(self.scenario, self.source, self.settings, tuple(seeds), self.plugins,
                     self.ai, self.dice, point=self.point)  # fmt: skip

    @property
    def params(self) -> str:
        """The point as the store names it, with the AI and the dice mode where they are
        not the defaults (battles played otherwise are other battles)."""
        usual = zip(PLAY_KEYS, (self.ai, self.dice), ("heuristic", "single"), strict=True)
        extra = [(key, value) for key, value, default in usual if value != default]
        return point_params(self.point + tuple(extra))


def _resized(scenario: Scenario, sizes: Mapping[str, str]) -> Scenario:
    ids = [u.id for u in scenario.units]
    for unit in sizes:
        if unit not in ids:
            raise SweepError(
                f"units.{unit}.size: {scenario.name!r} has no unit {unit!r}; units: "
                + ", ".join(ids)
            )
    data = scenario.model_dump()
    for unit in data["units"]:
        if unit["id"] in sizes:
            unit["size"] = _whole_or_text(sizes[unit["id"]])
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = first["loc"]
        unit = ids[int(where[1])] if len(where) > 1 and str(where[1]).isdigit() else "?"
        problem = SIZE_PROBLEMS.get(first["type"], first["msg"])
        raise SweepError(f"units.{unit}.size={sizes.get(unit)}: {problem}") from None


def _whole_or_text(text: str) -> int | str:
    """A size as ``--vary`` writes it: the whole number it spells, else the text, which
    the scenario's own check refuses as a file's ``size = "x"`` is refused."""
    try:
        return int(text)
    except ValueError:
        return text


SIZE_PROBLEMS = {
    "int_type": "a unit's size is a whole number of models",
    "int_parsing": "a unit's size is a whole number of models",
    "int_from_float": "a unit's size is a whole number of models",
    "greater_than_equal": "a unit's size is at least 1 model",
}
"""What a size the scenario's checks refuse means, in words (others: their own message)."""


def case_at(
    scenario: Scenario,
    source: str,
    point: Point,
    first_seed: int = 1,
    ai: str = "heuristic",
    dice: str = "single",
    plugins: PluginPaths = (),
) -> Case:
    """The scenario at ``point``, prepared once to check it can be played, to be played
    by ``ai`` with ``dice`` and the plug-in files ``plugins`` (paths, loaded here if
    they are not yet: the case records which bytes play). Its rules are resolved with
    the built-in rules and those of ``plugins`` alone (a file loaded for another case
    is not this one's: :func:`~hammerlab.editions.plugins.plugins_in_play`).

    An unknown rule or value out of bounds is a :class:`RuleSettingError`, an
    unknown unit or a size its datasheet refuses a :class:`SweepError` or an
    :class:`~hammerlab.errors.InputError`.
    """
    sizes = {}
    rules: dict[str, str] = {}
    for key, raw in point:
        match = SIZE_KEY.match(key)
        if match:
            sizes[match["unit"]] = raw
        elif key.startswith("units."):
            raise SweepError(f"{key!r}: a unit's key is units.ID.size")
        else:
            rules[key] = raw
    resized = _resized(scenario, sizes) if sizes else scenario
    loaded = load_plugin_files(plugins)
    try:
        with plugins_in_play(loaded):
            ready = prepare(resized, source, first_seed, rules)
    except InputError as error:  # the file is fine as written: the point broke it
        if not sizes:
            raise
        at = ", ".join(f"{key}={value}" for key, value in point)
        raise SweepError(f"{at}: {error}") from None
    units = tuple(
        UnitInfo(u.id, u.label, u.player, u.starting_models, u.fielded_models)
        for u, _ in ready.every_unit()
    )
    return Case(
        scenario=resized,
        source=source,
        point=point,
        settings=rules,
        scenario_hash=scenario_hash(scenario, source),
        units=units,
        players=tuple(p.name for p in scenario.players),
        ai=ai,
        dice=dice,
        warnings=tuple(ready.warnings),
        plugins=loaded,
    )


def check_distinct(scenarios: Sequence[tuple[Scenario, str]]) -> None:
    """Refuse a scenario file given twice, or two files that say the same scenario
    (the same :func:`scenario_hash`, and the same BattleScribe files beside them):
    their battles would be the same battles, played twice and reported as two, and a
    results store, which tells scenarios apart by what they say, could not keep both
    (a :class:`SameScenarioError` naming the files)."""
    seen: dict[str, str] = {}
    paths: dict[Path, str] = {}
    for scenario, source in scenarios:
        where = Path(source).resolve()
        if where in paths:
            raise SameScenarioError(f"{source} is given twice; give each scenario file once")
        paths[where] = source
        said = scenario_hash(scenario, source)
        if said in seen:
            raise SameScenarioError(
                f"{seen[said]} and {source} say the same scenario (the same content): "
                "their battles would be the same; give one of them"
            )
        seen[said] = source


def _sources_read(scenario: Scenario, source: str) -> tuple[str, ...]:
    """What the BattleScribe files a scenario names (``units[].source``, beside it) hold:
    each one's SHA-256, or its path where it cannot be read (two files that say the same
    beside other army lists are other scenarios: a review found them refused)."""
    folder = Path(source).parent
    read = []
    for name in sorted({u.source for u in scenario.units if u.source is not None}):
        path = folder / name
        try:
            seen = path.stat()
            read.append(_file_sha256(str(path.resolve()), seen.st_mtime_ns, seen.st_size))
        except (OSError, InputError):  # larger than any the importer reads: it says so
            read.append(str(path.resolve()))
    return tuple(read)


@lru_cache(maxsize=64)
def _file_sha256(path: str, modified_ns: int, size: int) -> str:
    """The SHA-256 of the file at ``path`` as it was when modified at ``modified_ns``
    with ``size`` bytes: a catalogue of megabytes is read once, not once for every
    grid point a sweep checks (``case_at``)."""
    return hashlib.sha256(read_at_most(Path(path), MAX_XML_BYTES, path)).hexdigest()


def cases(
    scenarios: Sequence[tuple[Scenario, str]],
    axes: Sequence[Axis],
    first_seed: int = 1,
    dice: str = "single",
    plugins: PluginPaths = (),
) -> list[Case]:
    """Every scenario at every grid point, each checked (:func:`case_at`), played with
    the plug-in files ``plugins``.

    Where several files are swept, a point one of them cannot play is refused naming
    the file's path and ruleset (the same error, its words prefixed): two files may
    share a ``name``, and a key one file's ruleset lacks may be another's."""
    points = grid(axes)
    if len(points) * len(scenarios) > MAX_POINTS:
        raise SweepError(
            f"{len(points) * len(scenarios)} grid points; a sweep plays at most {MAX_POINTS}"
        )
    checked = []
    for scenario, source in scenarios:
        try:
            checked += [
                case_at(scenario, source, p, first_seed, dice=dice, plugins=plugins) for p in points
            ]
        except RuleSettingError as error:
            if len(scenarios) == 1:
                raise
            raise type(error)(f"{in_ruleset(source, scenario)}: {error}") from None
    return checked


def in_ruleset(source: str, scenario: Scenario) -> str:
    """A scenario file as an error names it where its ruleset matters (a rule or key one
    ruleset lacks may be another's): ``examples/core11_whole_turn.toml (ruleset core11)``."""
    return f"{source} (ruleset {scenario.ruleset})"


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


def alike_points(grid_cases: Sequence[Case]) -> list[str]:
    """One warning per grid point that plays the same battles as an earlier one of the
    same scenario file: the same unit sizes, AI and dice, and the same rules once the
    file's ``[rules]`` and the defaults apply, a parameter of a rule that is off not
    counting (``final_shot=on`` where the file has it on already; a parameter set to
    its default; ``final_shot=off`` with either value of ``final_shot.earned_by``).
    Their results are the same battles counted twice (a rules writer's review)."""
    first: dict[Hashable, Case] = {}
    warnings = []
    for case in grid_cases:
        key = (case.source, case.scenario_hash, case.ai, case.dice, _effective(case))
        if key in first:
            warnings.append(
                f"warning: {case.source} at {point_label(case.point)} plays the same battles "
                f"as at {point_label(first[key].point)}: the same rules once the file's "
                "[rules] and the defaults apply"
            )
        else:
            first[key] = case
    return warnings


def _effective(case: Case) -> Hashable:
    """What decides a case's battles beside its file, AI and dice: its unit sizes, the
    options on, and the values of the ruleset's parameters and of the options on."""
    ruleset = get_ruleset(case.scenario.ruleset)
    settings = resolve_settings(
        ruleset.options, ruleset.parameters, case.scenario.rules, case.settings
    )
    on = tuple(sorted(name for name, is_on in settings.options.items() if is_on))
    values = tuple(
        sorted(
            (key, str(value))
            for key, value in settings.values.items()
            if "." not in key or key.partition(".")[0] in on
        )
    )
    sizes = tuple(sorted((k, v) for k, v in case.point if SIZE_KEY.match(k)))
    return (sizes, on, values)


def choices_text(choices: Mapping[str, tuple[int, int]]) -> str:
    """``action: suppressive fire offered 12, chosen 0; ...`` for people."""
    return "; ".join(
        f"{key} offered {offered}, chosen {chosen}" for key, (offered, chosen) in choices.items()
    )


def switched_on(axes: Sequence[Axis], scenarios: Sequence[Scenario]) -> dict[str, str]:
    """The rules the axes switch on at every point by setting a parameter of theirs
    without varying the rule itself: rule → the parameter's key
    (:func:`~hammerlab.engine.rules.implied_switches`), leaving out a rule that every
    one of ``scenarios`` has on already (its ``[rules]``, or the default), which
    nothing switched on (as the lab's ``switched_on_by`` says). A unit's size
    (``units.ID.size``) is no rule's parameter."""
    implied = implied_switches(
        {axis.key: axis.values[0] for axis in axes if not axis.key.startswith("units.")}
    )
    played = [_file_settings(s) for s in scenarios]
    return {rule: key for rule, key in implied.items() if not all(p.on(rule) for p in played)}


def _file_settings(scenario: Scenario) -> RuleSettings:
    """The rules ``scenario`` plays as written: its ruleset's defaults under its ``[rules]``."""
    ruleset = get_ruleset(scenario.ruleset)
    return resolve_settings(ruleset.options, ruleset.parameters, scenario.rules)


def sweep(
    grid_cases: Sequence[Case],
    runs: int,
    first_seed: int,
    runner: Runner,
    precision: float | None = None,
    store: ResultStore | None = None,
    resume: bool = False,
    progress: Progress | None = None,
) -> list[PointResult]:
    """Play every case with seeds ``first_seed``.. (up to ``runs`` each) and summarize.

    With a ``store``, every battle is written as it comes back; battles of these
    seeds already stored (by this engine, the cases' plug-ins included) are an error
    unless ``resume``, when they are read back instead of played. ``progress`` is
    told of every battle, played or read back.
    """
    played = stored_outcomes(grid_cases, store, resume, range(first_seed, first_seed + runs))
    step = runs if precision is None else min(runs, PRECISION_ROUND)
    target = [0] * len(grid_cases)
    results: list[PointResult | None] = [None] * len(grid_cases)
    unfinished = list(range(len(grid_cases)))
    while unfinished:
        wanted: dict[int, range] = {}
        for i in unfinished:
            wanted[i] = range(first_seed + target[i], first_seed + min(runs, target[i] + step))
            target[i] = min(runs, target[i] + step)
        play_seeds(grid_cases, wanted, played, runner, store, progress)
        for i in unfinished:
            case = grid_cases[i]
            seeds = range(first_seed, first_seed + target[i])
            results[i] = summarize(
                case.scenario.name, case.scenario_hash, case.point, case.units, case.players,
                [played[i][s] for s in seeds], seeds, case.engine_version, case.source,
                axis_rules(case), case.plugins,
            )  # fmt: skip
        unfinished = [
            i
            for i in unfinished
            if target[i] < runs and precision is not None and _widest(results[i]) >= precision
        ]
    return [r for r in results if r is not None]


def stored_outcomes(
    grid_cases: Sequence[Case], store: ResultStore | None, resume: bool, seeds: range
) -> list[dict[int, Outcome]]:
    """Each case's battles of ``seeds`` (those the run may play) that ``store`` holds
    from this engine (:attr:`Case.engine_version`), by seed. Any at all are an error
    unless ``resume``, an error that says how many, which seeds and at how many points;
    battles of other seeds or other engines do not count, and are not read."""
    if store is None:
        return [{} for _ in grid_cases]
    played = [store.outcomes(c, seeds) for c in grid_cases]
    held = [p for p in played if p]
    if held and not resume:
        raise SweepError(
            f"{store.folder} already holds {sum(len(p) for p in held)} of the battles this "
            f"run would play (seeds {seeds_text(seed_ranges(s for p in held for s in p))}, "
            f"at {len(held)} of {len(played)} points); give --resume to reuse them and play "
            "only the rest, or another --out"
        )
    return played


def play_seeds(
    grid_cases: Sequence[Case],
    wanted: Mapping[int, Sequence[int]],
    played: list[dict[int, Outcome]],
    runner: Runner,
    store: ResultStore | None = None,
    progress: Progress | None = None,
) -> None:
    """Play, for each case index in ``wanted``, the seeds ``played[index]`` lacks, on
    ``runner``, adding them to ``played`` and to ``store`` as batches come back;
    ``progress`` is told of every battle, played or already there."""
    missing: dict[int, list[int]] = {}
    for i, seeds in wanted.items():
        missing[i] = [s for s in seeds if s not in played[i]]
        if progress is not None and len(seeds) > len(missing[i]):
            progress(len(seeds) - len(missing[i]))
    size = batch_size(sum(len(m) for m in missing.values()), runner.slots)
    owners: list[int] = []
    batches: list[Batch] = []
    for i, seeds in missing.items():
        case = grid_cases[i]
        for start in range(0, len(seeds), size):
            owners.append(i)
            batches.append(case.batch(seeds[start : start + size]))

    def done(index: int, outcomes: list[Outcome]) -> None:
        case_index = owners[index]
        seeds_done = batches[index].seeds
        played[case_index].update(zip(seeds_done, outcomes, strict=True))
        if store is not None:
            store.add(grid_cases[case_index], seeds_done, outcomes)
        if progress is not None:
            progress(len(outcomes))

    runner.run(batches, done)


def _widest(result: PointResult | None) -> float:
    assert result is not None
    return result.widest
