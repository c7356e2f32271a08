"""Rulesets: each edition registers itself by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hammerlab.editions.base import Ruleset
from hammerlab.engine.rules import (
    Parameter,
    ParamValue,
    RuleSettingError,
    RuleSettings,
    resolve_settings,
)
from hammerlab.errors import InputError, UnknownNameError

_FACTORIES: dict[str, Callable[[], Ruleset]] = {}
_CACHE: dict[str, Ruleset] = {}


def register(name: str, factory: Callable[[], Ruleset]) -> None:
    """Make a ruleset available under ``name``."""
    _FACTORIES[name] = factory


def ruleset_names() -> list[str]:
    """Names of the registered rulesets."""
    _load_builtin()
    return sorted(_FACTORIES)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (``waffle``, ``core11``)."""
    _load_builtin()
    if name not in _FACTORIES:
        raise UnknownNameError("ruleset", name, sorted(_FACTORIES))
    if name not in _CACHE:
        _CACHE[name] = _FACTORIES[name]()
    return _CACHE[name]


def named_ruleset(name: str, source: str, where: str = "ruleset") -> Ruleset:
    """The ruleset a file names in its field ``where`` (a scenario's ``ruleset``, a
    plug-in's ``RULESET``): an unknown one is an :class:`InputError` naming the file,
    the field and the rulesets there are."""
    if name not in ruleset_names():
        known = ", ".join(ruleset_names())
        raise InputError(source, where, f"unknown ruleset {name!r}; known: {known}")
    return get_ruleset(name)


def resolve_read(
    ruleset: str, reads: Sequence[Parameter], settings: Mapping[str, ParamValue], reader: str
) -> RuleSettings:
    """The settings of a tool that reads ``reads`` alone of ``ruleset``'s parameters
    (``reader``, what it shows: ``these charts`` read Overwhelming Strength, ``the odds``
    that and the Snap Shot numbers), from ``--rule`` flags as
    :func:`~hammerlab.engine.rules.rule_flags` gives them.

    A rule or parameter of the ruleset that the tool does not read (``charge_dice``,
    or ``suppressive_fire.ld_penalty_per_wound``) is a :class:`RuleSettingError` saying
    so, ``charge_dice does not change these charts; they read: overwhelming_strength``,
    rather than an unknown name; a name the ruleset does not know either is unknown
    (:func:`~hammerlab.engine.rules.resolve_settings`). The ruleset is loaded only for a
    name the tool does not read."""
    read = sorted(p.name for p in reads)
    unread = [key for key in settings if key not in read]
    if unread:
        rules = get_ruleset(ruleset)
        known = {*(o.name for o in rules.options), *(p.name for p in rules.parameters)}
        other = next((key for key in unread if key.partition(".")[0] in known), None)
        if other is not None:
            raise RuleSettingError(
                f"{other} does not change {reader}; they read: {', '.join(read)}"
            )
    return resolve_settings((), reads, settings)


def _load_builtin() -> None:
    """Import the built-in editions, which register themselves."""
    import hammerlab.editions.core11
    import hammerlab.editions.waffle  # noqa: F401
