"""Rulesets: each edition registers itself by name."""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.base import Ruleset
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


def _load_builtin() -> None:
    """Import the built-in editions, which register themselves."""
    import hammerlab.editions.core11
    import hammerlab.editions.waffle  # noqa: F401
