"""The grid of a sweep: its axes (``--vary``), its points, and each scenario at each
point as a :class:`Case`, checked before a battle is played, with the warnings the
grid itself calls for (points that play the same battles, rules a parameter
switches on).

``--vary KEY=V1,V2,...`` names one axis of the grid; the grid is every
combination of the axes' values. A key is what ``--rule`` takes (an option
``NAME`` with ``on``/``off``, ``NAME.PARAM``, a ruleset parameter like
``charge_dice``) or ``units.ID.size``, which overrides that unit's size in the
validated scenario (and is validated again, like the file's own ``size``).
Setting ``NAME.PARAM`` switches ``NAME`` on unless ``NAME`` is an axis too (a point
names it, and what it names counts: :func:`~hammerlab.engine.rules.resolve_settings`,
as for ``--rule``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.engine_version import engine_version
from hammerlab.analysis.lab import Settings
from hammerlab.analysis.runners import Batch
from hammerlab.editions import get_ruleset
from hammerlab.editions.plugins import (
    PluginFile,
    PluginPaths,
    load_plugin_files,
    plugins_in_play,
)
from hammerlab.engine.rules import (
    RuleSettingError,
    RuleSettings,
    implied_switches,
    resolve_settings,
)
from hammerlab.errors import HammerlabError, InputError
from hammerlab.io.battlescribe.source import MAX_XML_BYTES
from hammerlab.io.files import read_at_most
from hammerlab.io.scenario import Scenario

MAX_POINTS = 1_000
"""Most grid points one sweep may have (scenarios × combinations)."""


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
