"""Frozen dataclasses made as quickly as plain ones, and hashed once.

A frozen dataclass's generated ``__init__`` sets each field through
``object.__setattr__`` (its own ``__setattr__`` refuses): a call through a slot
wrapper, which packs its arguments into a tuple, for every field of every object.
A steady Guard battle makes about 290 of the records given it here (its decisions'
choices, contexts and answers, its dice and hit records, its events), some 1,200
fields set so: callgrind put 4% of the battle's instructions in that wrapper.
:func:`quick_init` gives such a class an ``__init__`` that writes the fields into the
object's dictionary at once, taking the same arguments, with the same defaults, in
the same order: the object made is the same, field for field, and stays as frozen
(its ``__setattr__`` and ``__delattr__`` are the dataclass's). :func:`kept_hash`
gives a class whose objects key many remembered answers a hash worked out once, and
:func:`reader` reads many fields of a record at once, quicker than ``attrgetter``.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import keyword
from collections.abc import Callable
from itertools import repeat
from typing import Any, TypeVar

C = TypeVar("C", bound=type)
R = TypeVar("R")


class _Factory:
    """The default of a field with a ``default_factory`` (the factory is called for each
    new object, as the dataclass's own ``__init__`` does), shown as the dataclass shows it."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY: Any = _Factory()


def quick_init(cls: C) -> C:
    """``cls`` (a frozen dataclass without slots, ``InitVar`` or ``__post_init__``) with
    an ``__init__`` that writes its fields into the new object's dictionary.

    Anything else is refused (``TypeError``): its ``__init__`` does more than set the
    fields. ``tests/test_speed_caches.py`` holds every class it is given to the
    signature and the objects of the dataclass's own ``__init__``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: quick_init takes a frozen dataclass without slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__qualname__}: quick_init takes no __post_init__")
    fields = dataclasses.fields(cls)
    taken = [f for f in fields if f.init]
    if list(inspect.signature(vars(cls)["__init__"]).parameters)[1:] != [f.name for f in taken]:
        raise TypeError(f"{cls.__qualname__}: quick_init takes no InitVar")
    names: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keywords: list[str] = []
    body = ["    fields = self.__dict__"]
    for f in fields:
        value = f.name
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            default = f"_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            default = "_FACTORY"
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}"
        else:
            default = ""
        if not f.init:  # as the dataclass does: made by its factory, else read off the class
            if default == "_FACTORY":
                body.append(f"    fields[{f.name!r}] = _factory_{f.name}()")
            continue
        parameter = f"{f.name}={default}" if default else f.name
        (keywords if f.kw_only else positional).append(parameter)
        body.append(f"    fields[{f.name!r}] = {value}")
    signature = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = "\n".join([f"def __init__({signature}):", *body])
    exec(source, names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = f"Set the fields of a new {cls.__qualname__} (:func:`quick_init`)."
    init.__annotations__ = dict(vars(cls)["__init__"].__annotations__)  # the same signature
    type.__setattr__(cls, "__init__", init)
    return cls


def kept_hash(cls: C) -> C:
    """``cls`` (a frozen dataclass without slots, every field of which is compared and
    hashed) with a ``__hash__`` that hashes its fields' values as the dataclass's own
    does, once, and keeps the hash on the object; a copy or a pickle leaves it behind
    (a string's hash differs between processes).

    For records that key answers remembered on every attack and estimate (a unit's
    fire orders, an attack's situation): hashed thousands of times a battle, each
    time a tuple of a dozen fields. Anything else is refused (``TypeError``)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: kept_hash takes a frozen dataclass without slots")
    if not all(f.compare and f.hash in (None, True) for f in dataclasses.fields(cls)):
        raise TypeError(f"{cls.__qualname__}: kept_hash takes fields all compared and hashed")
    type.__setattr__(cls, "__hash__", _kept_hash)
    type.__setattr__(cls, "__getstate__", _state_without_hash)
    return cls


def _kept_hash(record: Any) -> int:
    """The hash of ``record``'s fields, read back once worked out (:func:`kept_hash`)."""
    try:
        return record._hash  # type: ignore[no-any-return]
    except AttributeError:
        kind = type(record)
        read = _HASHED.get(kind)
        if read is None:
            read = _HASHED[kind] = reader(*(f.name for f in dataclasses.fields(kind)))
        cached = hash(read(record))
        object.__setattr__(record, "_hash", cached)
        return cached


_HASHED: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
"""What :func:`_kept_hash` reads of a record of each type: its dataclass fields in order
(:func:`reader`), made once per type rather than asking ``dataclasses.fields`` at every
record's first hash (1.5% of a whole battle of an edition that makes fire orders by the
thousand). A class's fields are fixed when the dataclass is made; a subclass is a type
of its own here, read with its own fields."""


def _state_without_hash(record: Any) -> dict[str, object]:
    """``record``'s fields for a copy or a pickle, without its kept hash."""
    state = dict(record.__dict__)
    state.pop("_hash", None)
    return state


def reader(*names: str) -> Callable[[Any], tuple[Any, ...]]:
    """What reads the attributes ``names`` of an object, in order, as a tuple, in one
    call (a tuple for one name, or none, too): a function made for them, ``return (value.a,
    value.b, ...)``; a dotted name reads an attribute of an attribute, as
    ``attrgetter`` does (``"status.moved"``).

    ``operator.attrgetter`` gives the same tuple, but looks every name up in the type
    and then in the object, at every call; the function's reads are the interpreter's
    own, which Python 3.11 specialises to the type they meet: the 21 fields of an
    edition's unit status are read in 2,000 instructions where ``attrgetter`` took
    5,400, and the fields of units, models and statuses are read at every position of
    every battle (:mod:`engine.transpositions`). For Python code's calls: where C calls
    it for each item (``map``), it makes a frame from C each time, and ``attrgetter``
    stays the quicker (a model's eight fields read through ``map``: 0.3% of a Guard
    battle's instructions the other way). Each part of a name must be an identifier
    (``ValueError``)."""
    parts = [part for name in names for part in name.split(".")]
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise ValueError(f"reader takes attribute names, not {names!r}")
    space: dict[str, Any] = {}
    exec(f"def read(value):\n    return ({''.join(f'value.{n}, ' for n in names)})", space)
    read: Callable[[Any], tuple[Any, ...]] = space["read"]
    read.__qualname__ = read.__name__ = f"read_{'_'.join(names)}"[:80].replace(".", "_")
    read.__doc__ = f"The attributes {', '.join(names)} of ``value``, as a tuple (:func:`reader`)."
    return read


def deep_copied(record: R, memo: dict[int, Any]) -> R:
    """A deep copy of the dataclass ``record`` (every field an ``__init__`` argument, in
    order), made by its ``__init__`` from its fields deep-copied with ``memo``: what
    ``copy.deepcopy`` makes, but for the new object's values, which stay inline where
    ``copy.deepcopy``'s ``__dict__.update`` would give it a dictionary of its own, and
    every reading of its fields a look-up by name (docs/scale.md, twenty-fifth session:
    a battle's state, copied once a battle, read at every rule). The fields are read
    with a :func:`reader` made once per class (:data:`_FIELDS_READ`): ``dataclasses.fields``
    builds its tuple anew at every call, some 11,000 instructions, and a battle made
    from a prepared one copies two such records (twenty-sixth session)."""
    kind = type(record)
    read = _FIELDS_READ.get(kind)
    if read is None:
        read = _FIELDS_READ[kind] = _fields_reader(kind)
    twin: R = kind(*map(_deep_value, read(record), repeat(memo)))
    memo[id(record)] = twin
    return twin


def _fields_reader(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    """A :func:`reader` of the dataclass ``kind``'s fields, in the order its
    ``__init__`` takes them. :func:`deep_copied` passes them by place, so ``__init__``
    must take exactly the fields, in their order, each by place: else a ``TypeError``
    (a field it does not take, or takes by keyword only; an ``InitVar``, which it takes
    and which is no field, and would shift every later field by one)."""
    names = [f.name for f in dataclasses.fields(kind)]
    taken = inspect.signature(kind).parameters.values()
    by_place = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if [p.name for p in taken] != names or any(p.kind not in by_place for p in taken):
        raise TypeError(
            f"deep_copied: {kind.__name__}'s __init__ does not take its fields {names} "
            "by place, in order"
        )
    return reader(*names)


_FIELDS_READ: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
""":func:`deep_copied`'s readers of a class's fields, by class."""


def _deep_value(value: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(value, memo)``, without its machinery for the commonest fields of a
    battle's records: a string, number, boolean or ``None`` is itself (as ``deepcopy``
    gives it), an empty dict, list or set a new empty one, kept in ``memo`` as
    ``deepcopy`` keeps it (another reference to it in the same copy gets the same new
    one). ``deepcopy`` of an empty dict with its memo is some 2,500 instructions, and a
    battle made from a prepared one copies eight (its edition's state's and reserves')."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if not value and (kind is dict or kind is list or kind is set):
        twin = memo.get(id(value))
        if twin is None:
            twin = memo[id(value)] = kind()
        return twin
    return copy.deepcopy(value, memo)


_ATOMS = frozenset({str, int, float, bool, type(None)})
"""The types :func:`_deep_value` gives as they are (none changes in place)."""
