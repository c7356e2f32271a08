"""Rules from outside the package: plug-in files and installed entry points.

A plug-in is a Python module with two names (``docs/plugins.md``)::

    RULESET = "waffle"                 # the ruleset it adds rules to
    RULES = (MY_RULE, ...)             # RuleOption values, off by default

It is loaded from a file (``--plugin FILE.py``) or, for installed packages,
from the entry point group ``hammerlab.rules`` (each entry point names such a
module). Its rules are then options of that ruleset like the built-in ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

from hammerlab.engine.rules import (
    DeclarationError,
    HookPointError,
    Hooks,
    RuleOption,
    RuleSettingError,
    resolve_settings,
)
from hammerlab.errors import InputError
from hammerlab.io.files import MAX_PLUGIN_BYTES, read_at_most

ENTRY_POINT_GROUP = "hammerlab.rules"

HASH_DIGITS = 12
"""Hex digits of a plug-in's SHA-256 that name it in engine versions and reports."""

PluginPaths = Collection[str | Path]
"""Plug-in files as the library takes them (``Game.start``, ``lab.compare``,
``sweep_grid.cases``, ``tournament``, ``Game.from_json``): a list of paths, as text or
:class:`~pathlib.Path`."""


@dataclass(frozen=True)
class PluginFile:
    """A plug-in file as this process loaded it: where it is and a SHA-256 of the
    very bytes that ran, so that battles it played are told apart from those of an
    edited copy (:func:`~hammerlab.analysis.engine_version.engine_version`)."""

    path: str
    """The file's absolute path (worker processes load it from there)."""
    sha256: str
    """The SHA-256 of the file's bytes, in hex."""
    ruleset: str
    rules: tuple[str, ...]
    """The names of the rules it adds, in its order."""

    @property
    def label(self) -> str:
        """``NAME@HASH``: the file's name and the first :data:`HASH_DIGITS` hex digits
        of its hash, as engine versions name it."""
        return f"{Path(self.path).name}@{self.sha256[:HASH_DIGITS]}"

    @property
    def text(self) -> str:
        """``PATH (hash HASH)`` for people."""
        return f"{self.path} (hash {self.sha256[:HASH_DIGITS]})"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the path, the file's name and the short hash (a point read
        back from a store has the name and hash alone:
        :func:`~hammerlab.analysis.engine_version.stored_plugins`)."""
        return {"path": self.path, "name": Path(self.path).name, "hash": self.sha256[:HASH_DIGITS]}


@dataclass(frozen=True)
class _Loaded:
    """A plug-in file as this process loaded it, with its rules."""

    record: PluginFile
    source: str
    """The path as given when it was loaded, which its rules name."""
    rules: tuple[RuleOption, ...]


_ENTRY_POINT_RULES: dict[str, dict[str, RuleOption]] = {}
"""The installed entry points' rules, by ruleset and name: in play everywhere."""
_LOADED_FILES: dict[str, _Loaded] = {}
"""Each plug-in file loaded, by absolute path, in the order loaded (an edited file's
latest version last). Its rules are kept with it, not under their names: two files
of one rule name (two drafts of a house rule) each play in the games that name them."""
_MODULE_NUMBERS = itertools.count()
_ENTRY_POINTS_SEEN: list[bool] = []
"""Holds ``True`` once the installed entry points have been read."""


_IN_PLAY: ContextVar[frozenset[str] | None] = ContextVar("plugins_in_play", default=None)
"""The absolute paths of the plug-in files whose rules are options now
(:func:`plugins_in_play`); ``None``: every file loaded."""


def plugin_options(ruleset: str) -> tuple[RuleOption, ...]:
    """The plug-in rules of ``ruleset``: every installed entry point's, then those of
    the files loaded that are in play (:func:`plugins_in_play`), in the order they were
    loaded. Outside such a block, where every file loaded is in play, a rule name that
    two files loaded define (two drafts of one rule) is the one loaded last's."""
    _load_entry_points()
    in_play = _IN_PLAY.get()
    rules = dict(_ENTRY_POINT_RULES.get(ruleset, {}))
    for loaded in _LOADED_FILES.values():
        record = loaded.record
        if record.ruleset == ruleset and (in_play is None or record.path in in_play):
            rules.update((rule.name, rule) for rule in loaded.rules)
    return tuple(rules.values())


@contextmanager
def plugins_in_play(plugins: Iterable[PluginFile]) -> Iterator[None]:
    """While the block runs, the rulesets' options hold the rules of ``plugins`` alone
    among the plug-in files loaded (with those of installed entry points): what a game,
    a case or a tournament resolves its rules with, so that a file the process loaded
    for another of them (a notebook that played a game with a plug-in, then another
    without) plays no rule its saved game, log or report would not record. Outside
    such a block every file loaded is in play (``rulesets --plugin``, ``lab.arms``).
    Two of ``plugins`` that define one rule name are refused when loaded together
    (:func:`load_plugin_files`)."""
    token = _IN_PLAY.set(frozenset(p.path for p in plugins))
    try:
        yield
    finally:
        _IN_PLAY.reset(token)


def _check_names(ruleset: str, rules: tuple[RuleOption, ...], source: str) -> None:
    """Refuse ``rules`` of ``source`` (a plug-in file or an entry point) where one is
    named like a rule in play in every game of ``ruleset``: one of the ruleset's own
    (a built-in option or ruleset parameter), or an installed entry point's (other
    than ``source``'s own). An :class:`InputError` naming both; checked before any
    rule is kept, so a refused plug-in adds none of them."""
    builtin = _builtin_names(ruleset)
    installed = _ENTRY_POINT_RULES.get(ruleset, {})
    for rule in rules:
        known = installed.get(rule.name)
        if rule.name in builtin:
            raise InputError(
                source, f"RULES[{rule.name}]", f"already defined by the {ruleset} ruleset"
            )
        if known is not None and known.source != source:
            raise InputError(source, f"RULES[{rule.name}]", f"already defined by {known.source}")


def _builtin_names(ruleset: str) -> set[str]:
    """The names ``ruleset`` (a registered one) defines itself: its built-in options
    and its parameters."""
    from hammerlab.editions import get_ruleset  # editions import this module

    rules = get_ruleset(ruleset)
    return {o.name for o in rules.options if o.source == "built-in"} | {
        p.name for p in rules.parameters
    }


def load_plugin_file(path: Path) -> PluginFile:
    """Load the plug-in in ``path``; what was loaded.

    Loading the same file again is harmless while its bytes are the same; once
    they changed (the writer edited it), the new code is loaded and its rules take
    the place of the old version's, so what plays is always the file as it is now,
    and its record's hash says which bytes. Another file may define a rule of the
    same name (a second draft): each plays in the games that name it
    (:func:`plugins_in_play`), and the two are refused together
    (:func:`load_plugin_files`). A file that is missing, does not
    compile or import, declares a rule or parameter wrongly, or lacks ``RULES`` or a
    ``RULESET`` that is a known ruleset's name, is one :class:`InputError` naming
    the file (and the line, where the problem is at one).
    """
    source = str(path)
    if path.is_dir():
        raise InputError(source, "", "a folder, not a plug-in file (give the .py file)")
    if not path.is_file():
        raise InputError(source, "", "no such plug-in file")
    resolved = str(path.resolve())
    try:
        data = read_at_most(path, MAX_PLUGIN_BYTES, source)
    except OSError as error:
        raise InputError(source, "", f"cannot read the plug-in: {error.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()
    earlier = _LOADED_FILES.get(resolved)
    if earlier is not None and earlier.record.sha256 == digest:
        return earlier.record
    module = _run(data, path, source)
    ruleset, rules = _rules_of(module, source)
    _check_hook_points(ruleset, rules, source)
    _check_names(ruleset, rules, source)
    loaded = PluginFile(resolved, digest, ruleset, tuple(r.name for r in rules))
    _LOADED_FILES.pop(resolved, None)  # an edited file's new version is the latest loaded
    _LOADED_FILES[resolved] = _Loaded(loaded, source, rules)
    return loaded


def _run(data: bytes, path: Path, source: str) -> ModuleType:
    """The module of ``data`` (the bytes of ``path``, which were hashed), executed.

    A mistake is one line: a syntax error as ``FILE:LINE: message``, a declaration
    mistake (:class:`DeclarationError`) as ``FILE:LINE: what: problem``, any other
    exception as the plug-in's failure with the line of the plug-in it came from.
    """
    name = f"hammerlab_plugin_{next(_MODULE_NUMBERS)}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise InputError(source, "", "not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        exec(compile(data, source, "exec"), module.__dict__)
    except SyntaxError as error:
        del sys.modules[name]
        raise InputError(f"{source}:{error.lineno}", "", str(error.msg)) from None
    except DeclarationError as error:
        del sys.modules[name]
        raise InputError(_at(source, error.__traceback__), error.what, error.problem) from None
    except (Exception, SystemExit) as error:  # a plug-in's own bug, or exit: reported
        del sys.modules[name]
        raise InputError(
            _at(source, error.__traceback__),
            "",
            f"the plug-in failed to load: {type(error).__name__}: {error}",
        ) from None
    return module


def _at(source: str, trace: TracebackType | None) -> str:
    """``FILE:LINE``: the last line of the plug-in ``source`` that ``trace`` passed
    through (``FILE`` alone where it passed none)."""
    line = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == source:
            line = trace.tb_lineno
        trace = trace.tb_next
    return source if line is None else f"{source}:{line}"


def _rules_of(module: ModuleType, source: str) -> tuple[str, tuple[RuleOption, ...]]:
    from hammerlab.editions import named_ruleset  # editions import this module

    ruleset = getattr(module, "RULESET", None)
    rules = getattr(module, "RULES", None)
    if not isinstance(ruleset, str):
        raise InputError(source, "RULESET", "a plug-in names its ruleset: RULESET = 'waffle'")
    named_ruleset(ruleset, source, "RULESET")
    if isinstance(rules, RuleOption):
        raise InputError(
            source,
            "RULES",
            "a tuple of rules; one rule needs the comma: RULES = (RuleOption(...),)",
        )
    if not isinstance(rules, (tuple, list)) or not all(isinstance(r, RuleOption) for r in rules):
        raise InputError(source, "RULES", "a plug-in lists its rules: RULES = (RuleOption(...),)")
    return ruleset, tuple(r if r.source != "built-in" else replace(r, source=source) for r in rules)


def _check_hook_points(ruleset: str, rules: tuple[RuleOption, ...], source: str) -> None:
    """Refuse a rule that installs a handler on another ruleset's hook point (a core11
    plug-in on a Waffle point): no procedure of its ruleset would call it, and the rule
    would silently change nothing. Each installer is run as a battle would run it with
    the rule switched on, with the rules it ``requires`` (:func:`_switched_with`), and
    every parameter at its default, on hooks that take only the points of the plug-in's
    ruleset. A handler it places only under other settings is refused when a battle
    installs it (:func:`~hammerlab.engine.rules.install_rules`), which also reports, with
    the battle's settings, whatever else an installer does wrong."""
    from hammerlab.editions import get_ruleset  # editions import this module

    own = get_ruleset(ruleset)
    options = {o.name: o for o in (*own.options, *rules)}
    for rule in rules:
        switched = _switched_with(rule, options)
        if rule.install is None or switched is None:
            continue
        try:
            settings = resolve_settings(options.values(), own.parameters, switched)
        except RuleSettingError as error:  # another rule on by default, without its own
            raise InputError(source, f"RULES[{rule.name}]", str(error)) from None
        try:
            rule.install(Hooks(ruleset), settings)
        except HookPointError as error:
            raise InputError(source, f"RULES[{rule.name}]", str(error)) from None
        except Exception:  # a battle installing it says what went wrong, as it always has
            continue


def _switched_with(rule: RuleOption, options: Mapping[str, RuleOption]) -> dict[str, bool] | None:
    """``rule`` switched on with the rules it ``requires`` (and those they require), as
    a battle that plays it must switch them on; ``None`` where one of them is no rule
    known yet (another plug-in's, which may be loaded after this one: a battle that
    plays ``rule`` without it is refused, naming this plug-in,
    :func:`~hammerlab.engine.rules.check_requirements`)."""
    switched = {rule.name: True}
    needed = rule.requires
    while needed is not None and needed not in switched:
        if needed not in options:
            return None
        switched[needed] = True
        needed = options[needed].requires
    return switched


def load_plugin_files(plugins: PluginPaths) -> tuple[PluginFile, ...]:
    """Each of ``plugins`` loaded (:func:`load_plugin_file`), each file once, in the
    order given: what a game, a case or a report records and plays with. Two of them
    that define one rule name (two drafts of a rule given together) are an
    :class:`InputError` naming both: a game plays each rule from one file."""
    loaded = tuple(dict.fromkeys(load_plugin_file(Path(p)) for p in plugins))
    defined: dict[tuple[str, str], PluginFile] = {}
    for plugin in loaded:
        for name in plugin.rules:
            first = defined.setdefault((plugin.ruleset, name), plugin)
            if first is not plugin:
                raise InputError(
                    _LOADED_FILES[plugin.path].source,
                    f"RULES[{name}]",
                    f"already defined by {_LOADED_FILES[first.path].source}, given with "
                    "it: the plug-ins of one game, run or command define each rule once",
                )
    return loaded


def plugins_for_ruleset(plugins: PluginPaths, ruleset: str) -> list[str]:
    """The files of ``plugins`` (loaded here if need be) whose rules are ``ruleset``'s:
    those a game of that ruleset plays with, and records, where one run plays
    scenarios of several rulesets (a tournament)."""
    return [p.path for p in load_plugin_files(plugins) if p.ruleset == ruleset]


def check_plugins_fit(plugins: Sequence[PluginFile], rulesets: Collection[str]) -> None:
    """Refuse a plug-in for a ruleset none of ``rulesets`` (those the scenarios play,
    one for each scenario) is: its rules would be silently absent. An
    :class:`InputError` naming the file, its ruleset and what the scenarios play."""
    for plugin in plugins:
        if plugin.ruleset not in rulesets:
            these = "this scenario plays" if len(rulesets) == 1 else "these scenarios play"
            raise InputError(
                _LOADED_FILES[plugin.path].source,
                "",
                f"the plug-in is for {plugin.ruleset}; {these} {', '.join(sorted(set(rulesets)))}",
            )


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
        ruleset, rules = _rules_of(module, source)
        _check_hook_points(ruleset, rules, source)
        _check_names(ruleset, rules, source)
        _ENTRY_POINT_RULES.setdefault(ruleset, {}).update((r.name, r) for r in rules)
