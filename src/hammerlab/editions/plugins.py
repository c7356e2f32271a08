"""Rules from outside the package: plug-in files and installed entry points.

A plug-in is a Python module with two names (``docs/plugins.md``)::

    RULESET = "waffle"                 # the ruleset it adds rules to
    RULES = (MY_RULE, ...)             # RuleOption values, off by default

It is loaded from a file (``--plugin FILE.py``) or, for installed packages,
from the entry point group ``hammerlab.rules`` (each entry point names such a
module). Its rules are then options of that ruleset like the built-in ones.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from hammerlab.engine.rules import RuleOption
from hammerlab.errors import InputError

ENTRY_POINT_GROUP = "hammerlab.rules"

_REGISTERED: dict[str, dict[str, RuleOption]] = {}
_LOADED_FILES: dict[str, str] = {}
_ENTRY_POINTS_SEEN: list[bool] = []
"""Holds ``True`` once the installed entry points have been read."""


def plugin_options(ruleset: str) -> tuple[RuleOption, ...]:
    """The plug-in rules registered for ``ruleset``, in the order they were loaded."""
    _load_entry_points()
    return tuple(_REGISTERED.get(ruleset, {}).values())


def register_rules(ruleset: str, rules: tuple[RuleOption, ...], source: str) -> None:
    """Add ``rules`` to ``ruleset``'s options (again with the same rule: no change).

    A name another plug-in, or the ruleset itself (a built-in option or ruleset
    parameter), already uses is an :class:`InputError` naming both; the rules are
    checked before any is added, so a refused plug-in adds none of them.
    """
    table = _REGISTERED.setdefault(ruleset, {})
    builtin = _builtin_names(ruleset)
    for rule in rules:
        known = table.get(rule.name)
        if rule.name in builtin:
            raise InputError(
                source, f"RULES[{rule.name}]", f"already defined by the {ruleset} ruleset"
            )
        if known is not None and known.source != source:
            raise InputError(source, f"RULES[{rule.name}]", f"already defined by {known.source}")
    table.update((rule.name, rule) for rule in rules)


def _builtin_names(ruleset: str) -> set[str]:
    """The names ``ruleset`` defines itself: its built-in options and its parameters
    (none for a ruleset not registered, whose plug-ins are never asked for)."""
    from hammerlab.editions import get_ruleset, ruleset_names  # editions import this module

    if ruleset not in ruleset_names():
        return set()
    rules = get_ruleset(ruleset)
    return {o.name for o in rules.options if o.source == "built-in"} | {
        p.name for p in rules.parameters
    }


def load_plugin_file(path: Path) -> list[str]:
    """Load the plug-in in ``path``; the names of the rules it adds.

    Loading the same file twice is harmless. A file that is missing, does not
    import, or lacks ``RULESET``/``RULES`` is one :class:`InputError`.
    """
    source = str(path)
    resolved = str(path.resolve())
    if not path.is_file():
        raise InputError(source, "", "no such plug-in file")
    if resolved in _LOADED_FILES:
        return [r.name for r in _rules_of(sys.modules[_LOADED_FILES[resolved]], source)[1]]
    name = f"hammerlab_plugin_{len(_LOADED_FILES)}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(source, "", "not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # a plug-in's own bug is reported, not raised as ours
        del sys.modules[name]
        raise InputError(source, "", f"the plug-in failed to load: {error!r}") from None
    ruleset, rules = _rules_of(module, source)
    register_rules(ruleset, rules, source)
    _LOADED_FILES[resolved] = name
    return [r.name for r in rules]


def _rules_of(module: ModuleType, source: str) -> tuple[str, tuple[RuleOption, ...]]:
    ruleset = getattr(module, "RULESET", None)
    rules = getattr(module, "RULES", None)
    if not isinstance(ruleset, str):
        raise InputError(source, "RULESET", "a plug-in names its ruleset: RULESET = 'waffle'")
    if not isinstance(rules, (tuple, list)) or not all(isinstance(r, RuleOption) for r in rules):
        raise InputError(source, "RULES", "a plug-in lists its rules: RULES = (RuleOption(...),)")
    return ruleset, tuple(r if r.source != "built-in" else replace(r, source=source) for r in rules)


def _load_entry_points() -> None:
    if _ENTRY_POINTS_SEEN:
        return
    _ENTRY_POINTS_SEEN.append(True)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        source = f"entry point {point.name} ({point.value})"
        try:
            module = point.load()
        except Exception as error:  # an installed plug-in's bug is reported as input
            raise InputError(source, "", f"the plug-in failed to load: {error!r}") from None
        if not isinstance(module, ModuleType):
            raise InputError(source, "", "an entry point names a plug-in module")
        register_rules(*_rules_of(module, source), source)
