"""Scenario files (TOML): the battlefield, the forces and what to play.

Validated with pydantic; any mistake becomes one :class:`InputError` naming
the file, the key path and the problem. A :class:`Scenario` built in code is
checked alike, cross-references included (pydantic's ``ValidationError``, with
the same key path and message). See ``examples/`` for complete files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from shapely.geometry import Polygon
from shapely.validation import explain_validity

from hammerlab.errors import InputError
from hammerlab.io.bounds import MAX_UNIT_MODELS
from hammerlab.io.files import read_text_at_most
from hammerlab.io.library import ModelSpec, keyword_list
from hammerlab.io.validation import Flag, Number, Whole, as_input_error, parse_toml

MAX_SCENARIO_BYTES = 1_000_000

MAX_UNITS = 60
"""Most units in a scenario (both players): 30 a side is a very large game, and
a battle's time grows with the square of its units (each picks among the
others). ``analysis.battles.MAX_MODELS`` caps the models they hold."""

MAX_TERRAIN = 100
"""Most terrain areas (line of sight tests each one)."""

MAX_OUTLINE_POINTS = 1_000
"""Most corners of one terrain outline."""


class _Strict(BaseModel):
    # allow_inf_nan=False: a NaN or infinite number (TOML has nan and inf)
    # would slip past every range check and poison the geometry.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class BattlefieldSpec(_Strict):
    """Table size in inches."""

    width: Number = Field(default=72.0, gt=0, le=240)
    height: Number = Field(default=48.0, gt=0, le=240)


class TerrainSpec(_Strict):
    """A terrain area: a polygon and its effects."""

    name: str = Field(min_length=1)
    outline: list[tuple[Number, Number]] = Field(min_length=3, max_length=MAX_OUTLINE_POINTS)
    cover: Whole | None = Field(default=None, ge=2, le=6)
    difficult: Flag = False
    dangerous: Flag = False
    blocks_sight: Flag = False

    @model_validator(mode="after")
    def _simple_polygon(self) -> TerrainSpec:
        """Refuse an outline that crosses itself or encloses nothing.

        Shapely answers "is this point inside?" wrongly for such a polygon,
        and cover and line of sight rest on that answer. (An outline of
        collinear corners counts as crossing itself.)
        """
        polygon = Polygon(self.outline)
        if not polygon.is_valid:
            raise ValueError(f"outline is not a simple polygon ({explain_validity(polygon)})")
        return self


class PlayerSpec(_Strict):
    """A player and the table edge it deployed from."""

    name: str = Field(min_length=1)
    edge: Literal["south", "north", "west", "east"] = "south"
    """Where Fall Back heads; the two players' edges differ."""


class InlineWeaponSpec(BaseModel):
    """A weapon written in the scenario itself: its characteristics, each as text
    (``A = "1"``), and its ``keywords``, a list of strings (``["PISTOL"]``), as a
    library file writes them (``library.keyword_list``)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __pydantic_extra__: dict[str, str] = Field(init=False)
    keywords: Annotated[list[str], BeforeValidator(keyword_list)] = Field(
        default=[], exclude_if=lambda keywords: not keywords
    )
    """Left out of a dump when there are none (a saved game's scenario stays as written)."""


class InlineUnitSpec(_Strict):
    """A unit written in the scenario itself."""

    name: str = Field(min_length=1)
    rules: list[str] = []
    models: list[ModelSpec] = Field(min_length=1)
    weapons: dict[str, InlineWeaponSpec] = {}
    powers: dict[str, dict[str, str]] = {}
    """Psychic power profiles the models' ``powers`` name."""


class UnitPlacement(_Strict):
    """A unit on the table: which datasheet, where, how many models."""

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_\-]+$")
    player: str
    unit: str | None = None
    """Datasheet name in the ruleset's library (or in ``source``)."""
    source: str | None = None
    """A BattleScribe file (relative to the scenario) to take ``unit`` from."""
    inline: InlineUnitSpec | None = None
    position: tuple[Number, Number] | None = None
    """Centre of the formation, in inches (needed unless the unit is in reserve)."""
    reserve: Literal["deep_strike", "outflank"] | None = None
    """``deep_strike`` or ``outflank``: the unit starts in Reserve and arrives by
    Deep Strike or from a side table edge (the ruleset checks that it has the rule)."""
    infiltrate: Flag = False
    """The unit may redeploy by Infiltrate before the first turn (the ruleset
    checks that it has the rule); ``position`` is where it deploys otherwise."""
    size: Whole | None = Field(default=None, ge=1, le=MAX_UNIT_MODELS)
    formation: Literal["block", "line", "column"] = "block"
    spacing: Number = Field(default=1.0, ge=0.0, le=6.0)
    """Gap between bases in inches."""
    status: dict[str, StrictBool] = {}
    """Unit status at the start of the scenario: ``moved``, ``advanced``,
    ``charged`` in every ruleset, and the keys the scenario's ruleset declares
    (checked when the battle is built); each ``true`` or ``false`` (a word such
    as ``"yes"`` is refused, not read as true)."""
    casualties: Whole = Field(default=0, ge=0)
    """Models the unit lost before the scenario starts (the first ones listed)."""
    embarked_in: str | None = None
    """The id of a friendly transport the unit starts aboard (off the table: its
    ``position`` only lays out its models; the ruleset checks the capacity)."""

    @model_validator(mode="after")
    def _one_datasheet(self) -> UnitPlacement:
        if (self.unit is None) == (self.inline is None):
            raise ValueError("give either 'unit' (a datasheet name) or 'inline' (a unit)")
        if self.source is not None and self.unit is None:
            raise ValueError("'source' needs 'unit' (the name of the unit in that file)")
        if self.position is None and self.reserve is None:
            raise ValueError("give 'position' (where the unit stands) unless it is in 'reserve'")
        if self.reserve is not None and (self.infiltrate or self.embarked_in is not None):
            raise ValueError("a unit in 'reserve' cannot also 'infiltrate' or be 'embarked_in'")
        return self


class PlanSpec(_Strict):
    """How many game turns and which phases."""

    turns: Whole = Field(default=1, ge=1, le=10)
    phases: list[str] = Field(default_factory=lambda: ["shooting"], min_length=1)
    victory: Literal["kill_points", "models_destroyed"] = "kill_points"

    @field_validator("phases")
    @classmethod
    def _each_once(cls, phases: list[str]) -> list[str]:
        """A phase named twice would be played once (a player's turn plays each of
        its phases in the ruleset's order): refused rather than dropped."""
        twice = next((p for i, p in enumerate(phases) if p in phases[:i]), None)
        if twice is not None:
            raise ValueError(f"phase {twice!r} is named twice; name each phase once")
        return phases


def plan_notes(scenario: Scenario) -> list[str]:
    """A note, for people, where the scenario as written leaves the phases it plays to
    :class:`PlanSpec`'s default, the shooting phase only: a file without ``[plan]``
    plays one game turn of shooting (no movement, no charge) won on kill points, and
    ``[plan]`` with ``turns = 3`` but no ``phases`` three turns of it, without a word
    otherwise. Read from what the file wrote (pydantic's fields set), so a scenario
    recorded whole (a saved game's recipe, every default written) gets none."""
    if "plan" not in scenario.model_fields_set:
        return [
            "no [plan]: the default plays 1 game turn of the shooting phase only, won on "
            "kill points; write [plan] with turns and phases to play more (docs/scenarios.md)"
        ]
    if "phases" not in scenario.plan.model_fields_set:
        turns = scenario.plan.turns
        return [
            f"[plan] names no phases: its {turns} game turn{'s' if turns != 1 else ''} "
            f"play{'s' if turns == 1 else ''} the shooting phase only (the default); name "
            "the phases to play (docs/scenarios.md)"
        ]
    return []


class Scenario(_Strict):
    """A whole scenario file."""

    name: str = Field(min_length=1)
    description: str = ""
    ruleset: str = "waffle"
    seed: Whole | None = Field(default=None, ge=0)
    """The dice seed (``--seed`` overrides it); 0 or more, as a negative seed would
    play the game of the positive one."""
    rules: dict[str, bool | int | float | str] = {}
    """Rule options switched on or off (``suppressive_fire = true``) and rule
    parameters (``"suppressive_fire.ld_penalty_per_wound" = 2``,
    ``charge_dice = 3``), checked against the ruleset when the battle is built, each
    value as written (``3``, not ``"3"``: ``analysis.battles.check_file_rules``).
    A rule's parameters may also be written as its table (``[rules.fiery_charge]``
    then ``lost_bonus_attacks = 2``, or the unquoted ``fiery_charge.lost_bonus_attacks
    = 2``, which TOML reads as that table): they are read as the quoted keys."""
    first_player: str | None = None
    battlefield: BattlefieldSpec = BattlefieldSpec()
    terrain: list[TerrainSpec] = Field(default=[], max_length=MAX_TERRAIN)
    players: list[PlayerSpec] = Field(min_length=2, max_length=2)
    units: list[UnitPlacement] = Field(min_length=1, max_length=MAX_UNITS)
    plan: PlanSpec = PlanSpec()

    @field_validator("rules", mode="before")
    @classmethod
    def _rule_tables(cls, rules: object) -> object:
        """A rule's table of parameters as its ``name.param`` keys (one level deep: a
        parameter's value is never a table)."""
        if not isinstance(rules, dict):
            return rules
        flat: dict[str, object] = {}
        for key, value in rules.items():
            if not isinstance(value, dict):
                flat[key] = value
                continue
            for param, setting in value.items():
                if isinstance(setting, dict):
                    raise ValueError(
                        f"{key}.{param}: a rule parameter's value is a number, a word or "
                        "true/false, not a table"
                    )
                if f"{key}.{param}" in rules:  # TOML keeps "name.param" and name.param apart
                    raise ValueError(
                        f"{key}.{param} is given twice, as a quoted key and in the rule's "
                        "table; give it once"
                    )
                flat[f"{key}.{param}"] = setting
        return flat

    @model_validator(mode="after")
    def _references(self) -> Scenario:
        """Cross-references a field validator cannot see (ids and player names),
        checked however the scenario is built: from a file, from data, or in code
        (:meth:`Game.start <hammerlab.analysis.game.Game.start>` takes the model)."""
        problem = _broken_reference(self)
        if problem is not None:
            where, value, message = problem
            # A ValidationError raised here keeps its key path (a ValueError would be
            # reported at the scenario's root); "{problem}" keeps braces in names as typed.
            error = PydanticCustomError("reference", "{problem}", {"problem": message})
            detail = InitErrorDetails(type=error, loc=where, input=value)
            raise ValidationError.from_exception_data(type(self).__name__, [detail])
        return self


def _broken_reference(scenario: Scenario) -> tuple[tuple[str | int, ...], str, str] | None:
    """The first broken cross-reference of ``scenario``: its key path, the value
    there and the problem."""
    names = [p.name for p in scenario.players]
    for index, player in enumerate(scenario.players):
        if names.count(player.name) > 1:
            return ("players", index, "name"), player.name, f"{player.name!r} is used twice"
    first, second = scenario.players
    if first.edge == second.edge:
        return (
            ("players", 1, "edge"),
            second.edge,
            f"{second.edge!r} is the table edge of {first.name!r} too; each player deploys "
            "from its own (south, north, west or east; south when not given)",
        )
    seen: set[str] = set()
    for index, unit in enumerate(scenario.units):
        if unit.id in seen:
            return ("units", index, "id"), unit.id, f"unit id {unit.id!r} is used twice"
        seen.add(unit.id)
        if unit.player not in names:
            problem = f"unknown player {unit.player!r}; players: {names}"
            return ("units", index, "player"), unit.player, problem
    for index, unit in enumerate(scenario.units):
        if unit.embarked_in is not None and unit.embarked_in not in seen:
            problem = f"unknown unit id {unit.embarked_in!r}"
            return ("units", index, "embarked_in"), unit.embarked_in, problem
    if scenario.first_player is not None and scenario.first_player not in names:
        return (
            ("first_player",),
            scenario.first_player,
            f"{scenario.first_player!r} is not a player",
        )
    return None


def parse_scenario(text: str, source: str) -> Scenario:
    """Validate a scenario's TOML text: at most :data:`MAX_SCENARIO_BYTES` of it, as a
    file read from disk or sent to the web server."""
    if len(text.encode("utf-8")) > MAX_SCENARIO_BYTES:
        raise InputError(source, "", f"file larger than {MAX_SCENARIO_BYTES} bytes")
    return parse_toml(text, source, Scenario)


def scenario_from_data(data: object, source: str) -> Scenario:
    """A scenario given as data (the copy a saved game or a log header keeps),
    validated like a file: any mistake is one :class:`InputError`."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        raise as_input_error(source, error, Scenario) from None


def load_scenario(path: Path | str) -> Scenario:
    """Read and validate a scenario file (a path, or its name as text)."""
    path = Path(path)
    try:  # /dev/zero, a FIFO or /dev/stdin: stat() says 0 bytes, the read never ends
        text = read_text_at_most(path, MAX_SCENARIO_BYTES, str(path))
    except OSError as error:
        raise InputError(str(path), "", f"cannot read: {error.strerror}") from None
    return parse_scenario(text, str(path))
