"""The state digest a saved game records and its loading checks:
:func:`state_digest` hashes what a replay must reproduce exactly, and what the rules
remember in ``battle.memory`` is written by :func:`canonical_repr`, the same in every
process (a value it cannot write so is a :class:`MemoryNotSavedError`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import types
from collections import Counter, defaultdict
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from hammerlab.editions.flow import Play
from hammerlab.editions.schedule import SCHEDULE
from hammerlab.engine.battle import Battle
from hammerlab.errors import HammerlabError


def state_digest(battle: Battle, play: Play) -> str:
    """SHA-256 of the state a replay must reproduce exactly. The game's schedule
    (``battle.memory[SCHEDULE]``) is left out: the saved scenario's plan makes it
    again, and games saved before it was recorded still load. What the rules remember
    is written by :func:`canonical_repr`; a value it cannot write the same in every
    process is a :class:`MemoryNotSavedError` naming its key."""
    units = {
        unit.id: {
            "models": [
                (m.id, round(m.position[0], 6), round(m.position[1], 6), m.wounds_left)
                for m in unit.models
            ],
            "status": dataclasses.asdict(unit.status),
        }
        for unit in battle.units.values()
    }
    state = {
        "units": units,
        "cursor": play.cursor.to_dict(),
        "turn": battle.turn,
        "active": battle.active_player,
        "events": len(battle.log.events),
        "dice": repr(battle.dice.state()),
        "edition": battle.state.snapshot() if battle.state is not None else None,
        "memory": _memory_repr(battle.memory),
    }
    text = json.dumps(state, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class MemoryNotSavedError(HammerlabError, TypeError):
    """What a rule keeps in ``battle.memory`` holds a value whose text changes from
    process to process (an object shown by its address: ``<... at 0x7f...>``), so a
    saved game's digest could not be matched when it is loaded (docs/plugins.md: what a
    rule may keep)."""

    def __init__(self, value: object, key: str | None = None) -> None:
        self.value = value
        self.key = key
        held = "a value" if key is None else f"battle.memory[{key!r}]"
        super().__init__(
            f"{held} holds {type(value).__qualname__} {repr(value)[:80]}, "
            "shown by its address, which changes from process to process: a game saved "
            "with it would not load; keep numbers, text, lists, tuples, dicts, sets and "
            "dataclasses of them there (docs/plugins.md), or give the class a __repr__ "
            "of its value"
        )


def _memory_repr(memory: Mapping[str, object]) -> str:
    """The text of what the rules remember, by key (the schedule left out:
    :func:`state_digest`), as :func:`canonical_repr` writes it; a key whose value it
    cannot write alike in every process is a :class:`MemoryNotSavedError`."""
    texts = []
    for key, value in sorted(memory.items()):
        if key == SCHEDULE:
            continue
        try:
            texts.append(f"({canonical_repr(key)}, {canonical_repr(value)})")
        except MemoryNotSavedError as error:
            raise MemoryNotSavedError(error.value, key) from None
    return "[" + ", ".join(texts) + "]"


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""How the default repr of an object, a function or a method shows its address."""


def canonical_repr(value: object) -> str:
    """``repr(value)``, written the same in every process: every set and frozenset in
    it (a subclass's too), at any depth of lists, tuples, dicts (their subclasses:
    ``defaultdict``, ``OrderedDict``, ``Counter``, a ``NamedTuple``) and dataclasses,
    lists its members sorted by their own text. Python orders a set of strings by
    their hashes, which change from process to process (``PYTHONHASHSEED``), so the
    plain ``repr`` of one state (Fiery Charge's chargers, a plug-in's
    ``battle.remember(NAME, lambda: defaultdict(set))``) differed between the process
    that saved a game and the one that loads it. A function (a ``defaultdict``'s
    factory) is written by its qualified name, not its address. A value without a set
    or a function reads as its ``repr`` (an ``OrderedDict`` as Python 3.12 writes it),
    so the digests of games saved before are kept.
    Other objects are taken by their ``repr``; one that shows an address (the default
    ``<X object at 0x...>``) cannot be written alike in two processes, and is refused:
    :class:`MemoryNotSavedError` (:func:`state_digest` names its key; docs/plugins.md)."""
    kind = type(value)
    if isinstance(value, set | frozenset):
        members = ", ".join(sorted(canonical_repr(member) for member in value))
        if kind is set or kind is frozenset:
            inner = "{" + members + "}"
            if not value:
                return f"{kind.__name__}()"
            return inner if kind is set else f"frozenset({inner})"
        return f"{kind.__name__}({{{members}}})" if value else f"{kind.__name__}()"
    if isinstance(value, tuple) and hasattr(kind, "_fields"):  # a NamedTuple, a namedtuple
        fields = zip(kind._fields, value, strict=True)
        shown = (f"{name}={canonical_repr(item)}" for name, item in fields)
        return f"{kind.__name__}({', '.join(shown)})"
    if isinstance(value, list | tuple):
        inner = ", ".join(canonical_repr(item) for item in value)
        if isinstance(value, list):
            inner = f"[{inner}]"
        else:
            inner = f"({inner},)" if len(value) == 1 else f"({inner})"
        # A subclass with a repr of its own names itself around what it holds.
        plain = kind.__repr__ is list.__repr__ or kind.__repr__ is tuple.__repr__
        return inner if plain else f"{kind.__name__}({inner})"
    if isinstance(value, dict):
        return _dict_repr(value)
    # A dataclass whose repr is the one @dataclass writes (wrapped against recursion),
    # not one of its own: Name(field=value, ...).
    if dataclasses.is_dataclass(kind) and hasattr(kind.__repr__, "__wrapped__"):
        shown = (
            f"{f.name}={canonical_repr(getattr(value, f.name))}"
            for f in dataclasses.fields(kind)
            if f.repr
        )
        return f"{kind.__qualname__}({', '.join(shown)})"
    if isinstance(value, types.FunctionType):
        return f"<function {value.__module__}.{value.__qualname__}>"
    text = repr(value)
    if not isinstance(value, str | bytes) and _ADDRESS.search(text):
        raise MemoryNotSavedError(value)
    return text


def _dict_repr(value: dict[Any, Any]) -> str:
    """:func:`canonical_repr` of a dict or a subclass of one, as its ``repr`` writes it:
    its items in order (a ``Counter``'s most common first), a subclass's name around
    them, a ``defaultdict``'s factory first."""
    items = value.items()
    if isinstance(value, Counter):
        with suppress(TypeError):  # counts that do not compare, as Counter's repr allows
            items = dict(value.most_common()).items()
    pairs = ", ".join(f"{canonical_repr(k)}: {canonical_repr(v)}" for k, v in items)
    inner = "{" + pairs + "}"
    kind = type(value)
    if kind.__repr__ is dict.__repr__:  # a dict, or a subclass written as one
        return inner
    if isinstance(value, defaultdict):
        return f"{kind.__name__}({canonical_repr(value.default_factory)}, {inner})"
    return f"{kind.__name__}({inner})" if value else f"{kind.__name__}()"
