"""Rules as plug-ins: options that install themselves, parameters, and hook points.

A ruleset declares *parameters* (every number its rules text names, with a
default, bounds and the sentence it comes from) and *options* (proposed rules,
reactions, house rules). An option that is on *installs* handlers on named
:class:`HookPoint` s of the procedures: windows ("after a shooting attack"),
offers ("actions a shooting unit may take") and replacement points in the
XMage "would/did" style ("wounds would be lost"). Procedures ask the points;
they never ask whether an option is on.

Everything here is edition-neutral: hook points, option names and parameter
names are chosen by each edition.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import re
import traceback
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from hammerlab.errors import (
    BattleFailedError,
    HammerlabError,
    InputError,
    UnknownNameError,
    unknown_name,
)

ParamValue = bool | int | float | str
"""What a parameter holds."""

H = TypeVar("H")


class RuleSettingError(HammerlabError, ValueError):
    """A rule option or parameter setting that is unknown or out of bounds."""


class UnknownRuleError(RuleSettingError):
    """A rule or ruleset parameter name that the ruleset does not know: perhaps a
    plug-in's rule whose file was not loaded (the CLI says so)."""


class DeclarationError(HammerlabError, ValueError):
    """A :class:`Parameter` or :class:`RuleOption` declared wrongly (two parameters of
    one name, a default outside its own bounds, a dot in a name): refused where it is
    made, so that a plug-in with the mistake does not load (the loader names the
    file and line) and a built-in one does not import."""

    def __init__(self, what: str, problem: str) -> None:
        self.what = what
        """What is declared wrongly: ``Parameter('min_wounds').default``."""
        self.problem = problem
        super().__init__(f"{what}: {problem}")


EXPECTED = {"bool": "on or off", "int": "a whole number", "float": "a number", "str": "text"}
"""What a value of each parameter type is, for people (not ``a int``)."""

READERS = {"bool": "flag", "int": "integer", "float": "number", "str": "text"}
"""The :class:`RuleSettings` method that reads a parameter of each type."""

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""What a rule or parameter name may be: ``--rule NAME.PARAM=V`` splits on the dot
and the ``=``, so neither may be part of a name."""


def _check_name(name: object, what: str) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise DeclarationError(
            f"{what}.name", f"{name!r}: a name is letters, digits and _ (no dot, no space)"
        )


@dataclass(frozen=True)
class Parameter:
    """A named, typed number (or choice) of the rules, with its default and source."""

    name: str
    default: ParamValue
    summary: str
    quote: str
    """The rules sentence the number comes from."""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    """For a ``str`` parameter: its legal values."""

    def __post_init__(self) -> None:
        """Refuse a declaration the parameter could not keep (:class:`DeclarationError`):
        a name ``--rule`` cannot write, a default of no parameter type, bounds on
        what is not a number or the wrong way round, choices for what is not text,
        or a default its own bounds or choices refuse."""
        _check_name(self.name, "Parameter")
        what = f"Parameter({self.name!r})"
        if type(self.default) not in (bool, int, float, str):
            raise DeclarationError(
                f"{what}.default", f"{self.default!r}: a default is a bool, int, float or str"
            )
        numeric = self.type_name in ("int", "float")
        for bound, value in (("minimum", self.minimum), ("maximum", self.maximum)):
            if value is not None and not numeric:
                raise DeclarationError(
                    f"{what}.{bound}",
                    f"bounds are for int and float parameters, not {self.type_name}",
                )
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise DeclarationError(
                f"{what}.minimum", f"{self.minimum:g} is above the maximum {self.maximum:g}"
            )
        if self.choices and self.type_name != "str":
            raise DeclarationError(
                f"{what}.choices", f"choices are for str parameters, not {self.type_name}"
            )
        default = self.default
        if isinstance(default, float) and not math.isfinite(default):
            raise DeclarationError(f"{what}.default", f"{default}: not a finite number")
        broken = self._limit_broken(default)
        if broken == "minimum":
            raise DeclarationError(
                f"{what}.default", f"{default} is below its minimum {self.minimum:g}"
            )
        if broken == "maximum":
            raise DeclarationError(
                f"{what}.default", f"{default} is above its maximum {self.maximum:g}"
            )
        if broken == "choices":
            raise DeclarationError(
                f"{what}.default",
                f"{default!r} is not one of its choices: {', '.join(self.choices)}",
            )

    def _limit_broken(self, value: ParamValue) -> str | None:
        """Which of the parameter's limits a value of its type breaks: ``minimum``,
        ``maximum`` or ``choices`` (``None``: none). Asked of the default when the
        parameter is declared and of every setting (:meth:`coerce`), each wording
        its own message."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                return "minimum"
            if self.maximum is not None and value > self.maximum:
                return "maximum"
        if isinstance(value, str) and self.choices and value not in self.choices:
            return "choices"
        return None

    @property
    def type_name(self) -> str:
        """``bool``, ``int``, ``float`` or ``str``."""
        return type(self.default).__name__

    def coerce(self, raw: ParamValue, where: str) -> ParamValue:
        """``raw`` (a CLI string, or a TOML value) as this parameter's type, checked.

        ``where`` names the setting in the error (``option.parameter``).
        """
        value = self._typed(raw, where)
        broken = self._limit_broken(value)
        if broken == "minimum":
            raise RuleSettingError(f"{where}={raw}: must be at least {self.minimum:g}")
        if broken == "maximum":
            raise RuleSettingError(f"{where}={raw}: must be at most {self.maximum:g}")
        if broken == "choices":
            raise RuleSettingError(f"{where}={raw}: must be one of {', '.join(self.choices)}")
        return value

    def _typed(self, raw: ParamValue, where: str) -> ParamValue:
        kind = self.type_name
        text = str(raw).strip().lower() if isinstance(raw, str) else None
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            if text in ("on", "true", "yes", "1"):
                return True
            if text in ("off", "false", "no", "0"):
                return False
        elif kind == "int":
            if isinstance(raw, int) and not isinstance(raw, bool):
                return raw
            if text is not None and text.lstrip("-").isdigit():
                return int(text)
        elif kind == "float":
            number: float | None = None
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                number = float(raw)
            elif text is not None:
                try:
                    number = float(text)
                except ValueError:
                    number = None
            if number is not None and math.isfinite(number):
                return number
        elif isinstance(raw, str):
            return raw.strip()
        raise RuleSettingError(f"{where}={raw}: expected {EXPECTED[kind]}")

    def accepted(self) -> str:
        """What values ``--rule`` takes, for people: ``on | off``, the choices
        (``worsen_bs | improve_save``), the bounds (``0..10``, ``at least 1``), or
        ``any number`` / ``any text``."""
        if self.type_name == "bool":
            return "on | off"
        if self.choices:
            return " | ".join(self.choices)
        if self.type_name == "str":
            return "any text"
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            return f"{low:g}..{high:g}"
        if low is not None:
            return f"at least {low:g}"
        if high is not None:
            return f"at most {high:g}"
        return "any number"

    def describe(self) -> dict[str, Any]:
        """The JSON shape ``rulesets --json`` prints."""
        shape: dict[str, Any] = {
            "default": self.default,
            "type": self.type_name,
            "min": self.minimum,
            "max": self.maximum,
            "summary": self.summary,
            "quote": self.quote,
        }
        if self.choices:
            shape["choices"] = list(self.choices)
        return shape


@dataclass(frozen=True)
class HookPoint(Generic[H]):
    """A named point of a procedure where installed rules act.

    ``H`` is the type of handler the point takes, so installing the wrong
    kind of handler is a type error.
    """

    name: str
    doc: str
    ruleset: str | None = None
    """The ruleset whose procedures read the point; ``None``: a plug-in's own point,
    which any ruleset's :class:`Hooks` take."""
    takes: tuple[str, ...] | None = None
    """What the procedures call a handler with, by name (``("battle", "unit", "ld")``),
    all positional: a handler that could not be called so is refused when it is
    installed (:meth:`Hooks.add`). ``None``: not checked (a point whose handlers are
    objects, such as a reaction, or a plug-in's own point that does not say)."""

    def __post_init__(self) -> None:
        """Keep a ruleset's point by its name (:data:`RULESET_POINTS`), the first of
        each name."""
        if self.ruleset is not None:
            RULESET_POINTS.setdefault(self.name, self)


RULESET_POINTS: dict[str, HookPoint[Any]] = {}
"""Every ruleset's own hook point made so far (the built-in ones, made as their modules
are imported), by name: :class:`Hooks` keeps handlers by a point's name, so a point of
a plug-in's own named like one of these would have its handlers called by the built-in
procedure, with the built-in point's arguments (:meth:`Hooks.add` refuses it)."""


class HookPointError(HammerlabError):
    """A handler a hook point cannot take: one on a point of another ruleset than the
    battle's (no procedure of the battle's ruleset reads it, so the rule would silently
    do nothing), one on a point of a plug-in's own that reuses a built-in point's name,
    or one the point could not call (not a function, or not taking what the point gives
    it: :attr:`HookPoint.takes`), which would fail only in play."""


def _handler_copied(handler: Any, memo: dict[int, Any]) -> Any:
    """``handler`` as :meth:`Hooks.copy` gives it: itself where it is a plain function
    or keeps nothing (:func:`_keeps_nothing`), else ``copy.deepcopy`` of it."""
    if isinstance(handler, types.FunctionType):
        return handler
    if _keeps_nothing(handler):
        memo[id(handler)] = handler
        return handler
    return copy.deepcopy(handler, memo)


_ATOMS = (str, int, float, bool, type(None))
"""The values a handler that keeps nothing may hold (:func:`_keeps_nothing`)."""


SHARED_BETWEEN_BATTLES = "shared_between_battles"
"""The class attribute (``True``) by which a handler's class says its objects keep
nothing and may be shared by every battle copied from one (:func:`_keeps_nothing`)."""


def _keeps_nothing(handler: object) -> bool:
    """Whether ``handler``'s class says its objects keep nothing
    (:data:`SHARED_BETWEEN_BATTLES`) and it is, as that needs, an instance of a frozen
    dataclass whose attributes are all strings, numbers, booleans or ``None`` (read
    from its ``__dict__``, so that one set past the dataclass's fields is seen too):
    nothing of it can change, short of ``object.__setattr__``, nor does it hold
    anything that can, so a copy of it would be equal to it and could never come to
    differ. The class must say so: a frozen dataclass can still keep something (a
    ``functools.cached_property`` writes its ``__dict__`` later; a review's finding,
    twenty-sixth session), so a handler is never shared on its looks alone."""
    kind = type(handler)
    params = getattr(kind, "__dataclass_params__", None)
    attributes = getattr(handler, "__dict__", None)
    return (
        getattr(kind, SHARED_BETWEEN_BATTLES, False) is True
        and params is not None
        and params.frozen
        and attributes is not None
        and all(type(v) in _ATOMS for v in attributes.values())
    )


class Hooks:
    """The handlers installed on a battle's hook points, in installation order."""

    def __init__(self, ruleset: str | None = None) -> None:
        """``ruleset``: the battle's, whose points alone are taken (``None``: any point)."""
        self._handlers: dict[str, list[Any]] = {}
        self._ruleset = ruleset

    def add(self, point: HookPoint[H], handler: H) -> None:
        """Install ``handler`` on ``point`` (after those already there); a point of
        another ruleset than these hooks', a point of a plug-in's own named like a
        ruleset's point (:data:`RULESET_POINTS`), or a handler the point could not call
        (:func:`_check_shape`), is a :class:`HookPointError`."""
        if None not in (self._ruleset, point.ruleset) and point.ruleset != self._ruleset:
            raise HookPointError(
                f"installs a handler on {point.ruleset}'s hook point {point.name!r}, which "
                f"{self._ruleset} does not have (docs/plugins.md lists each ruleset's points)"
            )
        builtin = RULESET_POINTS.get(point.name)
        if builtin is not None and point != builtin:
            raise HookPointError(
                f"hook point {point.name!r} is a built-in point's name ({builtin.ruleset}'s): "
                "a point of your own needs a name of its own, or the built-in procedure would "
                "call its handlers"
            )
        _check_shape(point, handler)
        self._handlers.setdefault(point.name, []).append(handler)

    def copy(self, memo: dict[int, Any]) -> Hooks:
        """These hooks with lists of their own, each handler as ``copy.deepcopy`` with
        ``memo`` gives it (a cloned game's): a plain function is itself (it keeps
        nothing of its own: what a rule remembers is in ``battle.memory``,
        docs/plugins.md), a callable object or a bound method's object a copy of its
        own, so that nothing one battle's play leaves on a handler reaches another
        battle made from the same one. A handler installed on the copy is not on these.

        A handler that can keep nothing and whose class says so (:func:`_keeps_nothing`:
        the reactions and shooting actions, frozen dataclasses holding a label) is itself too, as
        ``copy.deepcopy`` gives a string or a tuple of them: its copy could differ
        from it in nothing but its identity, and a batch's every battle made its copy
        (a fifth of :meth:`PreparedBattle.again`'s work in a Guard battle,
        docs/scale.md). ``memo`` is told so, so that anything else copied with it that
        holds the handler holds it too."""
        twin = Hooks(self._ruleset)
        twin._handlers = {
            name: [_handler_copied(h, memo) for h in handlers]
            for name, handlers in self._handlers.items()
        }
        return twin

    def get(self, point: HookPoint[H]) -> Sequence[H]:
        """The handlers on ``point``, in the order they were installed (read only:
        asked at every step of every procedure, so no list is made for a point
        nobody uses)."""
        return self._handlers.get(point.name, ())

    def handlers(self) -> Mapping[str, tuple[Any, ...]]:
        """Every point's handlers, by point name (what rules are installed, for a
        battle's :func:`~hammerlab.engine.transpositions.setup_of`)."""
        return {name: tuple(handlers) for name, handlers in self._handlers.items()}


def _check_shape(point: HookPoint[Any], handler: object) -> None:
    """Refuse (:class:`HookPointError`) a handler ``point`` could not call as its
    procedures do, with :attr:`HookPoint.takes` (a plug-in's mistake that mypy would
    catch, but a plug-in file is not type-checked): not a function, or one that cannot
    take those arguments, saying what it takes and what the point gives. A handler
    whose parameters Python cannot read (a function of C) is taken on trust."""
    if point.takes is None:
        return
    shape = _function_shape(point, handler)
    if shape in _SHAPES_TAKEN:
        return
    where = f"{point.ruleset or 'a plug-in'}'s hook point {point.name!r}"
    called = f"handler({', '.join(point.takes)})"
    if not callable(handler):
        shown = repr(handler)
        shown = shown if len(shown) <= 40 else f"{shown[:37]}..."
        raise HookPointError(
            f"installs {shown} on {where}, which is not a function: the point calls {called}"
        )
    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*point.takes)
    except TypeError:
        name = getattr(handler, "__name__", type(handler).__name__)
        raise HookPointError(
            f"installs {name}{signature} on {where}, which calls {called}: "
            f"a handler there takes {len(point.takes)} arguments"
        ) from None
    if shape is not None:
        _SHAPES_TAKEN.add(shape)


_SHAPES_TAKEN: set[tuple[object, ...]] = set()
"""The shapes of functions a point's arguments were found to fit (:func:`_function_shape`):
every battle installs its rules anew, most as closures made afresh of the same code, and
reading a signature costs more than installing the rule."""


def _function_shape(point: HookPoint[Any], handler: object) -> tuple[object, ...] | None:
    """What decides whether a plain function takes the point's arguments: the arguments,
    its code and how many of its parameters have defaults; ``None`` for anything else (a
    bound method, a class, a partial), checked each time."""
    if not isinstance(handler, types.FunctionType):
        return None
    defaults = len(handler.__defaults__ or ())
    keywords = tuple(sorted(handler.__kwdefaults__ or ()))
    return (point.takes, handler.__code__, defaults, keywords)


Installer = Callable[[Hooks, "RuleSettings"], None]
"""What an option runs when it is on: installs its handlers."""


@dataclass(frozen=True)
class RuleOption:
    """A rule that can be switched on or off, with its parameters.

    ``quote`` is the rules text it implements. ``install`` puts its handlers
    on the procedures' hook points when it is on.
    """

    name: str
    summary: str
    quote: str
    default: bool = False
    parameters: tuple[Parameter, ...] = ()
    install: Installer | None = None
    source: str = "built-in"
    """Where the rule comes from: ``built-in``, a plug-in file or an entry point."""
    requires: str | None = None
    """The option this one changes (a variant of a rule names the rule it varies), whose
    hook points it installs on: switched on without it, it would change nothing, and
    :func:`resolve_settings` refuses that as it refuses a parameter given with its rule
    switched off (:func:`check_requirements`)."""

    def __post_init__(self) -> None:
        """Refuse a declaration ``--rule`` could not address (:class:`DeclarationError`):
        a name it cannot write, a parameter that is not a :class:`Parameter`, two
        parameters of one name (the second could never be set), or an ``install``
        that cannot be called (it would fail only when played)."""
        _check_name(self.name, "RuleOption")
        what = f"RuleOption({self.name!r}).parameters"
        seen: set[str] = set()
        for parameter in self.parameters:
            if not isinstance(parameter, Parameter):
                raise DeclarationError(what, f"{parameter!r} is not a Parameter")
            if parameter.name in seen:
                raise DeclarationError(what, f"two parameters named {parameter.name!r}")
            seen.add(parameter.name)
        if self.install is not None and not callable(self.install):
            raise DeclarationError(
                f"RuleOption({self.name!r}).install",
                f"{self.install!r} is not a function (install(hooks, settings))",
            )

    def parameter(self, name: str) -> Parameter:
        """The parameter called ``name``."""
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise RuleSettingError(
            f"rule {self.name!r} has no parameter {name!r}; "
            f"known: {', '.join(p.name for p in self.parameters) or 'none'}"
        )

    def describe(self) -> dict[str, Any]:
        """The JSON shape ``rulesets --json`` prints."""
        return {
            "name": self.name,
            "default": self.default,
            "summary": self.summary,
            "quote": self.quote,
            "source": self.source,
            "requires": self.requires,
            "parameters": {p.name: p.describe() for p in self.parameters},
        }


@dataclass(frozen=True)
class RuleSettings:
    """Which options are on and every parameter's value, for one battle.

    Option parameters are named ``option.parameter``; ruleset parameters by
    their bare name.
    """

    options: Mapping[str, bool] = field(default_factory=dict)
    values: Mapping[str, ParamValue] = field(default_factory=dict)
    implied: Mapping[str, str] = field(default_factory=dict)
    """The options on only because one of their parameters was set (option → that
    parameter's key, ``name.param``), for reports (:func:`implied_switches`)."""

    def on(self, option: str) -> bool:
        """Whether ``option`` is on (for reports; procedures use hook points)."""
        return bool(self.options.get(option, False))

    def value(self, name: str) -> ParamValue:
        """The value of parameter ``name``."""
        try:
            return self.values[name]
        except KeyError:
            raise UnknownNameError("rule parameter", name, list(self.values)) from None

    def number(self, name: str) -> float:
        """A numeric (``int`` or ``float``) parameter as a float."""
        value = self.value(name)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _wrong_reader(name, value, "number")
        return float(value)

    def integer(self, name: str) -> int:
        """An ``int`` parameter."""
        value = self.value(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _wrong_reader(name, value, "integer")
        return value

    def flag(self, name: str) -> bool:
        """A ``bool`` parameter."""
        value = self.value(name)
        if not isinstance(value, bool):
            raise _wrong_reader(name, value, "flag")
        return value

    def text(self, name: str) -> str:
        """A ``str`` parameter."""
        value = self.value(name)
        if not isinstance(value, str):
            raise _wrong_reader(name, value, "text")
        return value


def _wrong_reader(name: str, value: ParamValue, reader: str) -> RuleSettingError:
    """The error of a typed reader used on a parameter of another type (a rules
    writer's slip): it names the parameter, its type and the reader to use."""
    kind = type(value).__name__
    return RuleSettingError(
        f"{name} is a parameter of type {kind} ({EXPECTED[kind]}): read it with "
        f"settings.{READERS[kind]}({name!r}), not settings.{reader}"
    )


def written_value(value: ParamValue) -> str:
    """A setting's value as ``--rule`` writes it (:func:`parse_rule_flag` reads it back):
    ``on``/``off`` for a switch, else its text."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def parse_rule_flag(flag: str) -> tuple[str, str]:
    """``NAME=on``, ``NAME.PARAM=VALUE`` or bare ``NAME`` (meaning on) as (key, raw value)."""
    key, sep, raw = flag.partition("=")
    key = key.strip()
    if not key:
        raise RuleSettingError(f"{flag!r}: write NAME=on|off or NAME.PARAM=VALUE")
    return key, raw.strip() if sep else "on"


def rule_flags(flags: Iterable[str]) -> dict[str, ParamValue]:
    """``--rule`` flags (:func:`parse_rule_flag`) as settings, as written; a key given
    twice, or a parameter given with its rule switched off
    (:func:`check_parameters_switched_on`), is a :class:`RuleSettingError`."""
    settings: dict[str, ParamValue] = {}
    for text in flags:
        key, raw = parse_rule_flag(text)
        if key in settings:
            raise RuleSettingError(f"{key} is given twice ({key}={settings[key]}, {text})")
        settings[key] = raw
    check_parameters_switched_on(settings)
    return settings


def implied_switches(settings: Mapping[str, ParamValue]) -> dict[str, str]:
    """The options ``settings`` switch on by setting a parameter of theirs
    (``name.param``) without naming the option itself: option → the first such
    parameter's key. Setting a rule's parameter means playing the rule; where the
    same settings name the option too (``name=off``), that is what counts."""
    implied: dict[str, str] = {}
    for key in settings:
        owner, dot, _ = key.partition(".")
        if dot and owner not in settings:
            implied.setdefault(owner, key)
    return implied


def check_parameters_switched_on(settings: Mapping[str, ParamValue]) -> None:
    """Refuse a parameter that ``settings`` give together with its rule switched off
    (``name=off`` and ``name.param=V``): the two contradict each other, since the
    parameter would change nothing (a :class:`RuleSettingError` naming both)."""
    for key, raw in settings.items():
        owner, dot, _ = key.partition(".")
        if dot and owner in settings and not _switch(owner, settings[owner]):
            raise RuleSettingError(
                f"{key}={raw}: {owner}={settings[owner]} is given too, so the parameter "
                f"would change nothing; setting a parameter switches its rule on: give "
                f"{key} alone, or {owner}=off alone"
            )


def resolve_settings(
    options: Iterable[RuleOption],
    parameters: Iterable[Parameter],
    *layers: Mapping[str, ParamValue],
) -> RuleSettings:
    """Defaults overlaid with each of ``layers`` in turn (``name`` → on/off,
    ``name.param`` → value): a scenario's ``[rules]``, then a command's ``--rule``.

    A layer that sets a parameter of an option without naming the option switches
    the option on (:func:`implied_switches`); a later layer that names the option
    decides. An unknown option or parameter, or a value out of bounds, is a
    :class:`RuleSettingError` naming the known ones (an unknown name an
    :class:`UnknownRuleError`); nothing is silently off. So is an option left on
    without the option it changes (:func:`check_requirements`): nothing is silently
    without effect.
    """
    declared = {o.name: o for o in options}
    ruleset_params = {p.name: p for p in parameters}
    switched = {name: option.default for name, option in declared.items()}
    values: dict[str, ParamValue] = {p.name: p.default for p in ruleset_params.values()}
    implied: dict[str, str] = {}
    for option in declared.values():
        for parameter in option.parameters:
            values[f"{option.name}.{parameter.name}"] = parameter.default
    for chosen in layers:
        for key, raw in chosen.items():
            setting = _setting(declared, ruleset_params, key)
            if setting is None:
                switched[key] = _switch(key, raw)
                implied.pop(key, None)
            else:
                values[key] = setting.coerce(raw, key)
        for owner, key in implied_switches(chosen).items():
            if not switched[owner]:  # on already (by default, or by an earlier layer): no news
                implied[owner] = key
                switched[owner] = True
    check_requirements(declared, switched)
    return RuleSettings(options=switched, values=values, implied=implied)


def check_requirements(declared: Mapping[str, RuleOption], switched: Mapping[str, bool]) -> None:
    """Refuse an option ``switched`` on while the option it changes
    (:attr:`RuleOption.requires`) is off, or is no option of the ruleset: it installs
    only on that option's hook points, so it would change nothing (reported on, and
    played as off), as a parameter given with its rule switched off would
    (:func:`check_parameters_switched_on`). A :class:`RuleSettingError` naming both,
    and the plug-in the option comes from, where it is not built in."""
    for name, option in declared.items():
        needed = option.requires
        if needed is None or not switched[name]:
            continue
        whose = "" if option.source == "built-in" else f" (a rule of {option.source})"
        if needed not in declared:
            raise RuleSettingError(
                f"{name}{whose} changes the rule {needed!r}, which this ruleset does not "
                f"have (is the plug-in that defines it given?); "
                f"known: {', '.join(sorted(declared))}"
            )
        if not switched[needed]:
            raise RuleSettingError(
                f"{name}{whose} is on but {needed} is off: {name} changes only what "
                f"{needed} does, so it would change nothing; switch {needed} on too, "
                f"or {name} off"
            )


def _setting(
    declared: Mapping[str, RuleOption], parameters: Mapping[str, Parameter], key: str
) -> Parameter | None:
    """The parameter a setting's ``key`` names (``name.param``: an option's; a bare name:
    the ruleset's), or ``None`` where it names an option, switched on or off. An unknown
    name is an :class:`UnknownRuleError` listing the known ones (an unknown parameter
    of a known option, a :class:`RuleSettingError` listing its parameters)."""
    owner, dot, param = key.partition(".")
    if dot:
        if owner not in declared:  # listing all: NAME.PARAM may be a mistyped PARAM
            raise UnknownRuleError(_unknown("rule", owner, {**declared, **parameters}))
        return declared[owner].parameter(param)
    if key in declared:
        return None
    if key in parameters:
        return parameters[key]
    raise UnknownRuleError(_unknown("rule or parameter", key, {**declared, **parameters}))


class MistypedSettingError(RuleSettingError):
    """A setting written in a file (a scenario's ``[rules]``) whose value is not of the
    type its rule or parameter takes (:func:`check_written_types`); ``key`` names it."""

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"{key}: {problem}")


WRITTEN_KINDS = {bool: "a flag", int: "a whole number", float: "a number", str: "text"}
"""What a value written in TOML is, by its Python type, for people."""

WRITTEN_TYPES: dict[str, tuple[type, ...]] = {
    "bool": (bool,),
    "int": (int,),
    "float": (int, float),
    "str": (str,),
}
"""The TOML values a parameter of each type takes as written (a whole number is a
number too; ``bool`` is checked apart, since Python counts it an ``int``)."""

TAKES = {
    "bool": "true or false",
    "int": "a whole number, written without quotes or a decimal point",
    "float": "a number, written without quotes",
    "str": "text, in quotes",
}
"""What a file must write for a parameter of each type."""


def check_written_types(
    options: Iterable[RuleOption],
    parameters: Iterable[Parameter],
    written: Mapping[str, ParamValue],
) -> None:
    """Refuse a setting of ``written`` (a scenario's ``[rules]``, whose values TOML types)
    that is not written as its type: a rule is switched by ``true`` or ``false``; a
    whole-number parameter takes ``3``, not ``"3"``, ``3.0`` or ``true``; a number
    ``0.5`` (or ``1``), not ``"0.5"``; a text parameter text. ``--rule`` flags are text
    and read as :func:`resolve_settings` reads them; a file's types are taken as
    written, as everywhere else in it (``docs/scenarios.md``).

    A :class:`MistypedSettingError` naming the key, what was written, what it takes and
    its default as the file would write it; an unknown name as :func:`resolve_settings`
    says it."""
    declared = {o.name: o for o in options}
    ruleset_params = {p.name: p for p in parameters}
    for key, value in written.items():
        parameter = _setting(declared, ruleset_params, key)
        kind = "bool" if parameter is None else parameter.type_name
        default = declared[key].default if parameter is None else parameter.default
        if isinstance(value, WRITTEN_TYPES[kind]) and (kind == "bool") == isinstance(value, bool):
            continue
        subject = f"{key} is a rule, switched on or off by" if parameter is None else f"{key} takes"
        toml_key = json.dumps(key) if "." in key else key
        problem = (
            f"{json.dumps(value)} is {WRITTEN_KINDS[type(value)]}; {subject} {TAKES[kind]} "
            f"(its default: {toml_key} = {json.dumps(default)})"
        )
        raise MistypedSettingError(key, problem)


def _switch(name: str, raw: ParamValue) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise RuleSettingError(f"{name}={raw}: a rule is on or off")


def _unknown(kind: str, name: str, known: Mapping[str, object]) -> str:
    """An unknown rule or parameter ``name``: the names it may have meant, the closest
    first, as an unknown unit's are said (``unknown rule or parameter 'hold_the_lien'
    (did you mean: hold_the_line); known: ...``), then every name ``known``."""
    return unknown_name(kind, name, sorted(known), listed="known")


def install_rules(hooks: Hooks, options: Iterable[RuleOption], settings: RuleSettings) -> None:
    """Install every option that is on, in the order the ruleset declares them.

    A plug-in rule whose installer misreads its settings (a :class:`RuleSettingError`:
    an unknown parameter, the wrong typed reader) or installs a handler on another
    ruleset's hook point (a :class:`HookPointError`) is an
    :class:`~hammerlab.errors.InputError` naming the plug-in and the rule; one whose
    installer raises anything else, a :class:`~hammerlab.errors.BattleFailedError`
    naming them, with the traceback (``lab`` and ``sweep`` print one line, then it)."""
    for option in options:
        if settings.on(option.name) and option.install is not None:
            try:
                option.install(hooks, settings)
            except (RuleSettingError, UnknownNameError, HookPointError) as error:
                if option.source == "built-in":
                    raise
                raise InputError(option.source, f"RULES[{option.name}]", str(error)) from None
            except HammerlabError:
                raise
            except Exception as error:  # a plug-in's bug: one line, then where it failed
                if option.source == "built-in":
                    raise
                line = (
                    f"{option.source}: RULES[{option.name}]: its install failed: "
                    f"{type(error).__name__}: {error}"
                )
                raise BattleFailedError(line, traceback.format_exc()) from error
