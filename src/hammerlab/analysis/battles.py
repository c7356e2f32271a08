"""From a scenario to a played battle: the application service the CLI uses."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from hammerlab.editions import named_ruleset
from hammerlab.editions.base import VICTORY, GamePlan, Ruleset, apply_rules
from hammerlab.engine.battle import Battle, DecisionMade, Player
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.datasheet import Datasheet, ModelEntry, edition_problem
from hammerlab.engine.decisions import Controller
from hammerlab.engine.dice import dice_for
from hammerlab.engine.events import DiceRolled
from hammerlab.engine.geometry import MM_PER_INCH, Vec, centre_distance
from hammerlab.engine.rules import (
    MistypedSettingError,
    ParamValue,
    check_parameters_switched_on,
    check_written_types,
    resolve_settings,
)
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import HammerlabError, InputError
from hammerlab.io.library import ArmySpec, datasheets_from
from hammerlab.io.scenario import Scenario, UnitPlacement, plan_notes

ROW = 5
"""Models per rank in a block formation."""

MAX_MODELS = 400
"""Most models a scenario may place, both players together (with
``io.scenario.MAX_UNITS``, this bounds how long a battle can take)."""

OVERLAP_TOLERANCE = 1e-6
"""Inches two bases may overlap by through rounding and still count as touching."""


@dataclass
class PreparedBattle:
    """A battle ready to play, with its ruleset, plan and warnings: the datasheets'
    (logged as notes), then the scenario's about its ``[plan]`` (:func:`plan_notes`)."""

    battle: Battle
    ruleset: Ruleset
    plan: GamePlan
    warnings: list[str]

    def every_unit(self) -> list[tuple[Unit, str | None]]:
        """Every unit of the battle as it stands, each with where it is off the table
        (``in reserve``, ``aboard Chimera [chimera]``: the ruleset's
        :meth:`~hammerlab.editions.base.Ruleset.units_off_table`) or ``None`` on it:
        those on the table first, in the scenario's order. What ``battle --json``, the
        lab and a sweep list and count, so that a unit still in reserve or aboard a
        transport is told apart from one that never was (a referee review found it
        left out of all three)."""
        away = self.ruleset.units_off_table(self.battle)
        return [*((unit, None) for unit in self.battle.units.values()), *away]

    def again(self, seed: int, dice: str = "single") -> PreparedBattle:
        """The battle :func:`prepare` makes of the same scenario, rule settings,
        plug-ins and controllers for ``seed`` and ``dice``, made from this one,
        prepared for another seed and not yet begun (:func:`~hammerlab.editions.base.begin_play`
        not run, no die rolled, nothing decided): what a batch of seeds plays, set up
        once (docs/scale.md, twenty-fifth session). What play may change is new, as a
        cloned game's (``copy.deepcopy``, every reference to this battle or its units
        given as the copy's): every unit, its models and status
        (:meth:`~hammerlab.engine.units.Unit.copy`), the table (its terrain's
        prepared shapes are one thread's), the hooks with their handlers
        (:meth:`~hammerlab.engine.rules.Hooks.copy`), the log's list, the edition's
        state, the rules' memory, the controllers (their levers kept), the dice and the
        warnings' list; what never changes in place is shared, as a cloned game shares
        it: the players, the rule settings, the events so far (the datasheets' notes),
        datasheets, profiles and weapons."""
        battle = self.battle
        if VICTORY in battle.memory or any(
            isinstance(e, DiceRolled | DecisionMade) for e in battle.log.events
        ):
            raise ValueError("again: a battle begun already (only a prepared one is made again)")
        table = battle.battlefield
        units = {uid: unit.copy() for uid, unit in battle.units.items()}
        twin = Battle(
            battlefield=Battlefield(table.width, table.height, tuple(map(replace, table.terrain))),
            players=battle.players,
            units=units,
            dice=dice_for(dice, seed),
            ruleset=battle.ruleset,
            settings=battle.settings,
            turn=battle.turn,
            active_player=battle.active_player,
            phase=battle.phase,
            answers=list(battle.answers),
        )
        memo: dict[int, Any] = {id(battle.units[uid]): copied for uid, copied in units.items()}
        memo[id(battle)] = twin
        twin.hooks = battle.hooks.copy(memo)
        twin.controllers = copy.deepcopy(battle.controllers, memo)
        twin.state = copy.deepcopy(battle.state, memo)
        twin.memory = copy.deepcopy(battle.memory, memo)
        twin.log.events = list(battle.log.events)
        return PreparedBattle(twin, self.ruleset, self.plan, list(self.warnings))


def _datasheet(
    ruleset: Ruleset, spec: UnitPlacement, base_dir: Path, where: str, source: str
) -> Datasheet:
    """The unit's datasheet, which must be written for the scenario's edition."""
    sheet = _find_datasheet(ruleset, spec, base_dir, where, source)
    problem = edition_problem(sheet, ruleset.name, f"a {ruleset.name} scenario")
    if problem is not None:
        key = f"{where}.source" if spec.source is not None else f"{where}.unit"
        raise InputError(source, key, problem)
    return sheet


def _find_datasheet(
    ruleset: Ruleset, spec: UnitPlacement, base_dir: Path, where: str, source: str
) -> Datasheet:
    """The unit's datasheet: written inline, from a BattleScribe file or from the
    ruleset's library. Any mistake names the scenario file and the unit's key
    (``units[1].inline.models[0].weapons``, ``units[1].source``, ``units[1].unit``),
    whatever file it was found in."""
    if spec.inline is not None:
        return _inline_datasheet(ruleset, spec, where, source)
    assert spec.unit is not None
    if spec.source is not None:
        from hammerlab.io.battlescribe import import_file, unit_from_file

        path = base_dir / spec.source
        try:
            import_file(path)
        except HammerlabError as error:
            raise InputError(source, f"{where}.source", str(error)) from None
        try:
            return unit_from_file(path, spec.unit)
        except HammerlabError as error:
            raise InputError(source, f"{where}.unit", str(error)) from None
    try:
        return ruleset.find_unit(spec.unit)
    except HammerlabError as error:
        raise InputError(source, f"{where}.unit", str(error)) from None


def _inline_datasheet(ruleset: Ruleset, spec: UnitPlacement, where: str, source: str) -> Datasheet:
    """The datasheet written in the scenario, which the ruleset must be able to read
    whole (:meth:`Ruleset.datasheet_errors`: characteristics, weapons and powers within
    their forms and bounds), so that it never fails in the middle of a battle."""
    assert spec.inline is not None
    inline = f"{where}.inline"
    army = ArmySpec.model_validate(
        {
            "army": "inline",
            "weapons": {n: w.model_dump() for n, w in spec.inline.weapons.items()},
            "powers": spec.inline.powers,
            "units": [spec.inline.model_dump(exclude={"weapons", "powers"})],
        }
    )
    try:
        sheet = datasheets_from(army, source, ruleset.name, declared_by="the unit")[0]
    except InputError as error:  # a key of the one-unit library file built above
        inner = error.where.removeprefix("units[0]").lstrip(".")
        raise InputError(source, f"{inline}.{inner}", error.problem) from None
    errors = ruleset.datasheet_errors(sheet)
    if errors:
        key, problem = errors[0]
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise InputError(source, f"{inline}.{key}", f"{spec.id} ({sheet.name}): {problem}{more}")
    return sheet


def _sized(datasheet: Datasheet, spec: UnitPlacement, source: str, where: str) -> list[ModelEntry]:
    """The datasheet's entries with the scenario's ``size`` given to its first
    variable entry, within the sizes its source allows (:attr:`Datasheet.size_range`)."""
    entries = list(datasheet.entries)
    size = spec.size
    if size is None:
        return entries
    if datasheet.size_range is not None:
        low, high = datasheet.size_range
        if size < low or (high is not None and size > high):
            allowed = f"at least {low}" if high is None else f"{low} to {high}"
            raise InputError(
                source,
                f"{where}.size",
                f"{spec.id} ({datasheet.name}): size {size} is outside the {allowed} models "
                f"its source allows ({Path(datasheet.source).name})",
            )
    fixed = sum(e.count for e in entries if not e.variable)
    variable = [i for i, e in enumerate(entries) if e.variable]
    if not variable:
        if size != datasheet.model_count:
            raise InputError(
                source,
                f"{where}.size",
                f"{datasheet.name} has a fixed size of {datasheet.model_count}",
            )
        return entries
    if size < fixed:
        raise InputError(source, f"{where}.size", f"{datasheet.name} needs at least {fixed} models")
    first = variable[0]
    entry = entries[first]
    entries[first] = replace(entry, count=size - fixed)
    return entries


@lru_cache(maxsize=1024)
def _positions(
    count: int, centre: Vec, base_mm: float, formation: str, spacing: float
) -> tuple[Vec, ...]:
    """Where a unit's ``count`` models stand, in ``formation`` about ``centre``:
    remembered (a function of its arguments alone), as a sweep places the same units
    for every battle."""
    pitch = base_mm / MM_PER_INCH + spacing
    per_row = {"block": ROW, "line": count, "column": 1}[formation]
    rows = math.ceil(count / per_row)
    points = []
    for index in range(count):
        row, col = divmod(index, per_row)
        in_row = min(per_row, count - row * per_row)
        x = centre[0] + (col - (in_row - 1) / 2) * pitch
        y = centre[1] + (row - (rows - 1) / 2) * pitch
        points.append((x, y))
    return tuple(points)


def _base_on_table(battlefield: Battlefield, centre: Vec, base_mm: float) -> bool:
    """Whether a base of ``base_mm`` at ``centre`` lies wholly on the table."""
    radius = base_mm / MM_PER_INCH / 2
    x, y = centre
    return radius <= x <= battlefield.width - radius and radius <= y <= battlefield.height - radius


def _check_bases(units: list[Unit], source: str, aboard: frozenset[str] = frozenset()) -> None:
    """Refuse more than :data:`MAX_MODELS` models, and bases that overlap (units
    ``aboard`` a transport are off the table and overlap nothing); an arrangement found
    apart once is known to be (:data:`_APART`).

    Bases may touch (a scenario can start mid-combat) but not overlap: no
    rule says what an overlapping model may do. Models are swept in order of
    x, so only neighbours closer than two base widths are compared. The unit
    listed later in the file is the one named.
    """
    placed = [
        (model, index)
        for index, unit in enumerate(units)
        if unit.id not in aboard
        for model in unit.alive_models
    ]
    if len(placed) > MAX_MODELS:
        raise InputError(
            source, "units", f"{len(placed)} models; a scenario may place at most {MAX_MODELS}"
        )
    bases = tuple([(model.position, model.radius) for model, _ in placed])
    if bases in _APART:
        return
    placed.sort(key=lambda item: item[0].position[0])
    widest = max((model.radius for model, _ in placed), default=0.0)
    for first, (model, index) in enumerate(placed):
        for other, other_index in placed[first + 1 :]:
            if other.position[0] - model.position[0] >= model.radius + widest:
                break
            gap = centre_distance(model.position, other.position) - model.radius - other.radius
            if gap < -OVERLAP_TOLERANCE:
                (later, where), (earlier, _) = sorted(
                    ((model, index), (other, other_index)), key=lambda item: -item[1]
                )
                x, y = later.position
                raise InputError(
                    source,
                    f"units[{where}].position",
                    f"the base of {later.id} at ({x:.1f}, {y:.1f}) overlaps that of {earlier.id}; "
                    "move the unit or change its formation or spacing",
                )
    if len(_APART) >= _APART_KEPT:
        _APART.clear()
    _APART[bases] = None


_APART: dict[tuple[tuple[Vec, float], ...], None] = {}
"""The arrangements of bases (each base's centre and radius, in the units' order) that
:func:`_check_bases` found apart: whether bases overlap is a function of them alone, and
a sweep places the same ones for every battle."""
_APART_KEPT = 1024


@lru_cache(maxsize=256)
def _problems(validate: Callable[[Datasheet], list[str]], sheet: Datasheet) -> tuple[str, ...]:
    """A ruleset's ``validate_datasheet`` of ``sheet``, a function of the datasheet's
    value, remembered (by the ruleset and the datasheet's value): a sweep prepares
    the same units thousands of times, and checking every characteristic, weapon
    and rule of a unit took a third as long as preparing the battle."""
    return tuple(validate(sheet))


def _unit(
    ruleset: Ruleset,
    spec: UnitPlacement,
    datasheet: Datasheet,
    source: str,
    where: str,
    battlefield: Battlefield,
) -> Unit:
    entries = _sized(datasheet, spec, source, where)
    count = sum(e.count for e in entries)
    if count == 0:
        raise InputError(source, *_no_models(datasheet, spec, where))
    base = max(e.base_mm for e in entries)
    # A unit in reserve is made in the table's centre, then taken off the
    # table (``Ruleset.set_reserves``) before the first turn.
    centre = spec.position or (battlefield.width / 2, battlefield.height / 2)
    spots = _positions(count, tuple(centre), base, spec.formation, spec.spacing)
    models: list[Model] = []
    for entry in entries:
        try:
            wounds = ruleset.starting_wounds(entry.profile)
        except HammerlabError as error:
            raise InputError(source, f"{where}.unit", str(error)) from None
        for _ in range(entry.count):
            number = len(models) + 1
            position = spots[len(models)]
            if not _base_on_table(battlefield, position, entry.base_mm):
                x, y = position
                raise InputError(
                    source,
                    f"{where}.position",
                    f"model {number} would stand off the table at ({x:.1f}, {y:.1f}): its "
                    f'base must lie wholly on the {battlefield.width:g}" x '
                    f'{battlefield.height:g}" table',
                )
            models.append(  # in field order, no keywords (docs/scale.md)
                Model(
                    f"{spec.id}.{number}",
                    entry.profile,
                    entry.weapons,
                    position,
                    entry.base_mm,
                    wounds,
                    entry.rules,
                    entry.powers,
                )
            )
    unit = Unit(spec.id, datasheet.name, spec.player, datasheet, models)  # id, name, player, ...
    if spec.casualties >= len(models):
        raise InputError(source, f"{where}.casualties", f"must leave at least one of {len(models)}")
    for model in models[: spec.casualties]:
        model.wounds_left = 0
    unit.scenario_casualties = spec.casualties
    for key in ENGINE_STATUS_KEYS:
        setattr(unit.status, key, spec.status.get(key, False))
    return unit


def _no_models(datasheet: Datasheet, spec: UnitPlacement, where: str) -> tuple[str, str]:
    """The key and the problem of a unit that would have no models (every model
    entry's count 0, none sized): the inline entry's ``count`` written in the
    scenario, else the datasheet it names."""
    if spec.inline is not None:
        return (
            f"{where}.inline.models[0].count",
            "a unit needs at least one model; every count is 0",
        )
    problem = f"{datasheet.name} ({datasheet.source}) has no models; a unit needs at least one"
    return f"{where}.unit", problem


def _infiltrates(spec: UnitPlacement) -> str | None:
    return "infiltrate" if spec.infiltrate else None


ENGINE_STATUS_KEYS = ("moved", "advanced", "charged")
"""Statuses every ruleset knows (:class:`~hammerlab.engine.units.UnitStatus`)."""


def _check_status_keys(
    ruleset: Ruleset, status: Mapping[str, bool], source: str, where: str
) -> None:
    known = (*ENGINE_STATUS_KEYS, *ruleset.status_keys)
    for key in status:
        if key not in known:
            raise InputError(
                source,
                f"{where}.status.{key}",
                f"not a {ruleset.name} status; known: {', '.join(known)}",
            )


def check_file_rules(ruleset: Ruleset, scenario: Scenario, source: str) -> None:
    """The scenario's own ``[rules]`` are ``ruleset``'s, each written as its type
    (:func:`~hammerlab.engine.rules.check_written_types`: ``charge_dice = 3``, not
    ``"3"``) and in bounds, and switch off no rule whose parameter they set
    (:func:`~hammerlab.engine.rules.check_parameters_switched_on`): a mistake is an
    :class:`~hammerlab.errors.InputError` naming ``source`` and ``rules`` (a value of the
    wrong type, its key: ``rules.charge_dice``)."""
    try:
        check_written_types(ruleset.options, ruleset.parameters, scenario.rules)
        check_parameters_switched_on(scenario.rules)
        resolve_settings(ruleset.options, ruleset.parameters, scenario.rules)
    except MistypedSettingError as error:
        raise InputError(source, f"rules.{error.key}", error.problem) from None
    except HammerlabError as error:
        raise InputError(source, "rules", str(error)) from None


def prepare(
    scenario: Scenario,
    source: str,
    seed: int | None = None,
    options: Mapping[str, ParamValue] | None = None,
    controllers: Mapping[str, Controller] | None = None,
    dice: str = "single",
    folder: Path | None = None,
) -> PreparedBattle:
    """Build the battle a scenario describes.

    ``seed`` overrides the scenario's; ``options`` (rule options and parameters,
    as ``--rule`` gives them) override its ``[rules]``; players without a
    controller get the ruleset's AI. A bad ``[rules]`` entry is an
    :class:`InputError` naming the file; a bad ``options`` entry is a
    :class:`~hammerlab.engine.rules.RuleSettingError` (the caller names its flag).
    ``dice`` is a mode of :func:`~hammerlab.engine.dice.dice_for` (the lab's
    ``keyed`` common random numbers; ``single`` for a plain battle). Relative
    BattleScribe ``source`` files are read in ``folder`` (by default the folder of
    ``source``, the scenario file).
    """
    ruleset = named_ruleset(scenario.ruleset, source)
    bad_phase = next((p for p in scenario.plan.phases if p not in ruleset.phases), None)
    if bad_phase is not None:
        raise InputError(
            source,
            "plan.phases",
            f"{ruleset.name} has no phase {bad_phase!r}; it plays {', '.join(ruleset.phases)}",
        )
    # A table of its own for each battle: its areas' prepared polygons are GEOS
    # objects that two threads may not use at once (shapely lets go of the GIL).
    field = Battlefield(
        width=scenario.battlefield.width,
        height=scenario.battlefield.height,
        terrain=tuple(
            TerrainArea(
                name=t.name,
                outline=tuple(t.outline),
                cover_save=t.cover,
                difficult=t.difficult,
                dangerous=t.dangerous,
                blocks_sight=t.blocks_sight,
            )
            for t in scenario.terrain
        ),
    )
    base_dir = Path(source).parent if folder is None else folder
    units: dict[str, Unit] = {}
    warnings: list[str] = []
    for index, spec in enumerate(scenario.units):
        where = f"units[{index}]"
        sheet = _datasheet(ruleset, spec, base_dir, where, source)
        problems = _problems(ruleset.validate_datasheet, sheet)
        warnings += [f"{spec.id} ({sheet.name}): {p}" for p in problems]
        warnings += [f"{spec.id} ({sheet.name}): {note}" for note in sheet.battle_notes]
        _check_status_keys(ruleset, spec.status, source, where)
        for key, how in (("reserve", spec.reserve), ("infiltrate", _infiltrates(spec))):
            problem = None if how is None else ruleset.deployment_problem(sheet, how)
            if problem is not None:
                raise InputError(source, f"{where}.{key}", f"{spec.id}: {problem}")
        units[spec.id] = _unit(ruleset, spec, sheet, source, where, field)
    reserves = frozenset(spec.id for spec in scenario.units if spec.reserve is not None)
    deployments = {
        spec.id: how
        for spec in scenario.units
        if (how := spec.reserve or _infiltrates(spec)) is not None
    }
    aboard = frozenset(spec.id for spec in scenario.units if spec.embarked_in is not None)
    _check_bases(list(units.values()), source, aboard | reserves)
    players = tuple(Player(p.name, p.edge) for p in scenario.players)
    ai = ruleset.ai()
    battle = Battle(
        battlefield=field,
        players=players,
        units=units,
        dice=dice_for(dice, seed if seed is not None else (scenario.seed or 0)),
        ruleset=ruleset.name,
        controllers={p.name: (controllers or {}).get(p.name, ai) for p in players},
        active_player=scenario.first_player or players[0].name,
    )
    check_file_rules(ruleset, scenario, source)
    apply_rules(battle, ruleset, scenario.rules, options or {})
    ruleset.set_statuses(
        battle,
        {
            spec.id: {k: v for k, v in spec.status.items() if k not in ENGINE_STATUS_KEYS}
            for spec in scenario.units
        },
    )
    # Always, so that a unit going into reserve later (a Zooming Flyer leaving the
    # table) is still lost in reserve at the end of the last turn.
    ruleset.set_deployments(battle, deployments, scenario.plan.turns)
    for index, spec in enumerate(scenario.units):
        if spec.embarked_in is not None:
            try:
                ruleset.embark(battle, spec.id, spec.embarked_in)
            except HammerlabError as error:
                raise InputError(source, f"units[{index}].embarked_in", str(error)) from None
    for warning in warnings:
        battle.say("datasheet", f"note: {warning}")
    # Not logged: a saved game or log records its scenario whole, every default written,
    # so the game resumed or replayed from it would have no such note (`plan_notes`).
    warnings += plan_notes(scenario)
    plan = GamePlan(
        turns=scenario.plan.turns,
        phases=tuple(scenario.plan.phases),
        victory=scenario.plan.victory,
    )
    return PreparedBattle(battle, ruleset, plan, warnings)
