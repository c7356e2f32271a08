"""Exact odds of one weapon profile against one unit, for any edition.

Each edition provides an :class:`OddsCalculator` (``odds_core11``,
``odds_waffle``, which register themselves here); the CLI (``hammerlab odds``)
and other tools ask through this interface only, so the same command answers
for every edition registered here. An edition may also provide an
:class:`EngineCheck` (:func:`register_engine_check`), through which
``analysis.odds_check`` fires a question's weapon with the edition's own engine
to test its odds. Questions come in two forms: a
:class:`LibraryQuestion` names units of the edition's library, a
:class:`PlainQuestion` gives the numbers. Every answer is an
:class:`OddsResult` of exact distributions.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, get_args, get_origin, get_type_hints

from hammerlab.editions.base import Ruleset
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon

# Every edition's calculators raise it; re-exported for the callers that ask here.
from hammerlab.errors import QuestionError as QuestionError  # noqa: PLC0414
from hammerlab.errors import UnknownNameError

if TYPE_CHECKING:
    from hammerlab.engine.battle import Battle
    from hammerlab.engine.units import Unit

FLAGS = {
    "skill": "bs",
    "firing_models": "models",
    "weapon_type": "type",
    "keywords": "keyword",
    "target_keywords": "target-keyword",
    "rules": "rule",
}
"""The ``hammerlab odds`` flags of the question fields not named alike."""


def flag(name: str) -> str:
    """The ``hammerlab odds`` flag that gives the question's field ``name`` (of a
    :class:`PlainQuestion`, a :class:`LibraryQuestion` or the CLI's own
    ``analysis.odds_request.OddsAsk``): ``--bs`` for ``skill``, ``--type`` for
    ``weapon_type``, ``--target-models`` for ``target_models``."""
    return "--" + FLAGS.get(name, name.replace("_", "-"))


@dataclass(frozen=True)
class PlainQuestion:
    """A weapon and a target given as numbers, as the edition's datasheets write them.

    Some fields belong to one edition, as their docs say; a calculator refuses
    a question that sets a field it does not use rather than ignore it.
    """

    strength: int
    ap: str
    """AP as written. core11: 0 or negative (``"-1"``). Waffle: ``"1"`` to
    ``"6"``, or ``"-"`` for none."""
    toughness: int
    """Waffle: the unit's majority Toughness."""
    save: int | None
    """Sv as the number before the plus; ``None`` (core11: or 7) for no save."""
    wounds: int
    """W of each target model."""
    target_models: int
    attacks: str | None = None
    """core11: the A of one firing model's weapon, a number or dice (``D6+1``).
    Waffle: the shots of each firing model, as the weapon's Type prints them
    (``3``; Salvo ``2/4``; Rapid Fire ``3``: 3, 6 within half range), unless
    ``weapon_type`` gives them (1 when neither does)."""
    skill: int | None = None
    """BS. core11: the number before the plus (3 for 3+). Waffle: the
    characteristic (4 for BS4)."""
    damage: str | None = None
    """core11: Damage, a number or dice. (Waffle: a wound takes one wound.)"""
    weapon_type: str | None = None
    """Waffle: the weapon's Type as the books print it (``Heavy``, ``Rapid Fire``,
    ``Salvo``, ``Heavy 3, Rending``...); ``Assault`` when not given."""
    firing_models: int = 1
    """Models firing the weapon (each with :attr:`attacks`, or its Type's shots)."""
    hits: int | None = None
    """Waffle: hits with no roll To Hit (templates, blasts: the models under
    the marker), instead of shots."""
    invulnerable: int | None = None
    cover: int | None = None
    """Waffle: the target models' cover save (core11: the ``cover`` situation)."""
    feel_no_pain: int | None = None
    keywords: tuple[str, ...] = ()
    """Weapon keywords: core11 ``sustained hits 1``; Waffle special rules
    (``twin-linked``, ``rending``, ``poisoned 4+``)."""
    target_keywords: tuple[str, ...] = ()
    """core11: target unit keywords (``INFANTRY``), for rules such as ANTI-X."""
    situation: frozenset[str] = frozenset()
    """Names of the calculator's :attr:`OddsCalculator.situations` that hold."""
    rules: tuple[tuple[str, str], ...] = ()
    """Rule parameters the odds read, as ``--rule NAME=VALUE`` gives them."""

    def __post_init__(self) -> None:
        """Refuse a field whose value is not of its type (an AP given as the number 5,
        a strength as the text ``"4"``: values read from JSON or a CSV file), a
        :class:`QuestionError` naming its flag, rather than a Python error where a
        calculator reads it."""
        for name, expected in _field_types(PlainQuestion).items():
            value = getattr(self, name)
            if not _is_a(value, expected):
                raise QuestionError(f"{value!r} is not {_described(expected)}", flag(name))


@cache
def _field_types(question: type) -> dict[str, Any]:
    """The type of each field of ``question``, as annotated."""
    hints = get_type_hints(question)
    return {item.name: hints[item.name] for item in fields(question)}


def _is_a(value: object, expected: Any) -> bool:
    """Whether ``value`` is of the annotated type ``expected``: ``int`` (not ``bool``),
    ``str``, ``None``, a union of them, a ``tuple`` or a ``frozenset`` of them."""
    args = get_args(expected)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(expected, types.UnionType):
        return any(_is_a(value, arg) for arg in args)
    if get_origin(expected) is tuple and args[-1] is Ellipsis:
        return isinstance(value, tuple) and all(_is_a(item, args[0]) for item in value)
    if get_origin(expected) is tuple:
        return (
            isinstance(value, tuple)
            and len(value) == len(args)
            and all(_is_a(item, arg) for item, arg in zip(value, args, strict=True))
        )
    if get_origin(expected) is frozenset:
        return isinstance(value, frozenset) and all(_is_a(item, args[0]) for item in value)
    return isinstance(value, expected)


def _described(expected: Any) -> str:
    """The annotated type ``expected`` in words: ``a whole number or None``."""
    args = get_args(expected)
    if isinstance(expected, types.UnionType):
        return " or ".join(_described(arg) for arg in args)
    if get_origin(expected) is tuple and args[-1] is Ellipsis:
        return f"a tuple, each item {_described(args[0])}"
    if get_origin(expected) is tuple:
        return f"a pair ({', '.join(_described(arg) for arg in args)})"
    if get_origin(expected) is frozenset:
        return f"a frozenset, each item {_described(args[0])}"
    return {int: "a whole number", str: "text", type(None): "None"}[expected]


@dataclass(frozen=True)
class LibraryQuestion:
    """A weapon of one library unit against another library unit."""

    attacker: str
    weapon: str
    target: str
    profile: str | None = None
    firing_models: int | None = None
    """Models firing the weapon; default: those carrying it in the attacker's unit."""
    target_models: int | None = None
    """Models in the target unit; default: the datasheet's unit size."""
    hits: int | None = None
    """Waffle: hits with no roll To Hit (templates, blasts)."""
    cover: int | None = None
    """Waffle: the target models' cover save."""
    situation: frozenset[str] = frozenset()
    rules: tuple[tuple[str, str], ...] = ()
    """Rule parameters the odds read, as ``--rule NAME=VALUE`` gives them."""
    units: tuple[Datasheet, ...] = ()
    """Datasheets looked up by name before the edition's library (a BattleScribe
    file's units, uploaded to the web odds page)."""
    refused: tuple[tuple[str, str], ...] = ()
    """The names among :attr:`units` that cannot be played, each with why (the
    BattleScribe importer's reasons: a formation of units, a group of models left
    unchosen, a characteristic out of bounds). A battle refuses them, and so do the
    odds: what they would fire or take is not the unit the file describes."""

    def find(self, ruleset: Ruleset, name: str) -> Datasheet:
        """The unit called ``name`` (:attr:`attacker` or :attr:`target`): one of
        :attr:`units`, else ``ruleset``'s library."""
        wanted = name.strip().casefold()
        for sheet in self.units:
            if sheet.name.casefold() == wanted:
                flag = "--attacker" if name == self.attacker else "--target"
                why = dict(self.refused).get(sheet.name)
                if why is not None:
                    raise QuestionError(f"{sheet.name} cannot be played: {why}", flag)
                if not sheet.entries:  # an imported formation: its units are datasheets
                    raise QuestionError(
                        f"{sheet.name} has no models: it cannot fire or be fired at", flag
                    )
                return sheet
        return ruleset.find_unit(name)


def refuse_unused(
    edition: str, question: PlainQuestion | LibraryQuestion, names: tuple[str, ...]
) -> None:
    """Raise :class:`QuestionError`, naming their flags, if ``question`` sets any of the
    fields ``names``.

    A calculator calls it with the fields its edition does not use, so that
    they are never silently ignored.
    """
    defaults = {f.name: f.default for f in fields(question)}
    given = [flag(n) for n in names if getattr(question, n) != defaults[n]]
    if given:
        them = "it" if len(given) == 1 else "them"
        raise QuestionError(f"{edition} odds do not use {them}", ", ".join(given))


@dataclass(frozen=True)
class OddsResult:
    """Exact distributions of one weapon's attacks at one unit."""

    edition: str
    question: str
    """The question in one line."""
    models_killed: tuple[float, ...]
    """Probability of each number of models destroyed (index = models)."""
    unsaved_wounds: tuple[float, ...]
    """Probability of each number of unsaved wounds (index = wounds)."""
    means: Mapping[str, float] = field(default_factory=dict)
    """Expected values of the steps (core11 ``attacks``, Waffle ``shots``; ``hits``,
    ``wounds``, ``unsaved_wounds``...)."""
    notes: tuple[str, ...] = ()
    """What the calculator assumed or could not take into account."""
    chances: Mapping[str, float] = field(default_factory=dict)
    """Chances of named events (Waffle vehicle targets: ``glancing``, ``penetrating``,
    ``wrecked``, ``explodes``); empty when the question has none."""
    chance_names: Mapping[str, str] = field(default_factory=dict)
    """What each of :attr:`chances` is the chance of, for people (``glancing``: ``at
    least one glancing hit``); a key without one is said as it is named."""

    @property
    def mean_models_killed(self) -> float:
        """Expected models destroyed."""
        return sum(i * p for i, p in enumerate(self.models_killed))

    @property
    def p_unit_destroyed(self) -> float:
        """Probability that every model of the target unit is destroyed."""
        return self.models_killed[-1] if len(self.models_killed) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "edition": self.edition,
            "question": self.question,
            "models_killed": list(self.models_killed),
            "mean_models_killed": self.mean_models_killed,
            "unsaved_wounds": list(self.unsaved_wounds),
            "p_unit_destroyed": self.p_unit_destroyed,
            "means": dict(self.means),
            "notes": list(self.notes),
            **({"chances": dict(self.chances)} if self.chances else {}),
            **({"chance_names": dict(self.chance_names)} if self.chance_names else {}),
        }


class OddsCalculator(Protocol):
    """An edition's exact odds."""

    @property
    def situations(self) -> Mapping[str, str]:
        """Situation names a question may state, with what each means."""
        ...

    @property
    def plain_required(self) -> tuple[tuple[str, ...], ...]:
        """Optional :class:`PlainQuestion` fields that this edition always needs, each as
        the fields any one of which will do (``("skill", "hits")``: the BS, or hits)."""
        ...

    @property
    def skill_is_roll(self) -> bool:
        """Whether :attr:`PlainQuestion.skill` is the D6 roll needed (core11's BS 3+), which
        may be given with its plus (``--bs 3+``); when it is a characteristic (the Waffle
        Edition's BS 4, which hits on 3+), a plus is refused rather than dropped."""
        ...

    def plain(self, question: PlainQuestion) -> OddsResult:
        """Odds for numbers."""
        ...

    def library(self, question: LibraryQuestion) -> OddsResult:
        """Odds for library units."""
        ...

    def weapon_fit(self, weapon: Weapon) -> str:
        """How :meth:`library` takes ``weapon``: ``"ok"`` (asked as it is), ``"melee"``
        (never: the odds cover ranged attacks) or the one question field it needs
        besides (``"hits"``: the models under a Waffle Blast or Template). What the
        odds page offers in its weapon list (``GET /api/weapons``)."""
        ...


class EngineCheck(Protocol):
    """What the χ² engine check (``analysis.odds_check``) needs of an edition to set a
    library question up on an open table and fire it with the edition's own engine."""

    @property
    def situations(self) -> frozenset[str]:
        """The question's situations the table can set up (range, having moved)."""
        ...

    def odds_target(self, sheet: Datasheet, models: int | None) -> ModelEntry:
        """The models the edition's exact odds fire at (a mixed unit as its typical
        model): those the table sets up, so that the check tests the odds' arithmetic."""
        ...

    def weapon_range(self, weapon: Weapon) -> float:
        """The weapon's range in inches (a :class:`QuestionError` where it has none)."""
        ...

    def moved(self, situations: frozenset[str]) -> bool:
        """Whether the firers count as having moved in a question stating ``situations``."""
        ...

    def volley(
        self, battle: Battle, shooters: Unit, target: Unit, weapon: Weapon
    ) -> Callable[[], None]:
        """Start the edition's state on ``battle`` and give a function that fires
        ``weapon`` of ``shooters`` at ``target`` once with the edition's engine procedure."""
        ...


_FACTORIES: dict[str, Callable[[], OddsCalculator]] = {}
_CHECKS: dict[str, Callable[[], EngineCheck]] = {}


def register_calculator(edition: str, factory: Callable[[], OddsCalculator]) -> None:
    """Make ``edition``'s calculator available."""
    _FACTORIES[edition] = factory


def calculator(edition: str) -> OddsCalculator:
    """The odds calculator of ``edition``."""
    _load_builtin()
    if edition not in _FACTORIES:
        raise UnknownNameError("odds calculator", edition, sorted(_FACTORIES))
    return _FACTORIES[edition]()


def register_engine_check(edition: str, factory: Callable[[], EngineCheck]) -> None:
    """Make ``edition``'s odds testable against its engine (``analysis.odds_check``)."""
    _CHECKS[edition] = factory


def engine_check(edition: str) -> EngineCheck:
    """The engine check of ``edition``; a :class:`QuestionError` saying that it is not
    supported for an edition that registered none (an edition whose calculator alone a
    plug-in registered)."""
    _load_builtin()
    if edition not in _CHECKS:
        them = ", ".join(sorted(_CHECKS))
        raise QuestionError(
            f"the engine check is not supported for the {edition} edition (it is for {them})"
        )
    return _CHECKS[edition]()


def calculator_names() -> list[str]:
    """Editions with an odds calculator."""
    _load_builtin()
    return sorted(_FACTORIES)


def _load_builtin() -> None:
    """Import the built-in calculators, which register themselves."""
    import hammerlab.analysis.odds_core11
    import hammerlab.analysis.odds_waffle  # noqa: F401
