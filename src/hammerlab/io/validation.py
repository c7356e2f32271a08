"""Turning pydantic validation errors into one clear line."""

from __future__ import annotations

import difflib
import tomllib
from types import UnionType
from typing import Annotated, TypeVar, Union, get_args, get_origin

from pydantic import AllowInfNan, BaseModel, Strict, ValidationError

from hammerlab.errors import InputError, long_number, long_number_problem, similar_names


def key_path(loc: tuple[int | str, ...]) -> str:
    """``("units", 2, "position")`` → ``units[2].position``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def as_input_error(source: str, error: ValidationError, model: type[BaseModel]) -> InputError:
    """The first problem of ``error``, naming the file and the key path; a number
    written where text is wanted is told how to write it (:func:`_not_text`).

    An unknown key comes first, where there is one: a misspelt key (``[[player]]``) is
    the cause of the required one said missing beside it (``players``), which pydantic
    lists first. The keys that the table holding it may have in ``model`` (what was
    validated) are said: those spelt nearly alike (``unknown key (did you mean:
    players)``, :func:`~hammerlab.errors.similar_names`), or else all of them."""
    problems = error.errors()
    unknown = [p for p in problems if p["type"] == "extra_forbidden"]
    first = (unknown or problems)[0]
    loc = tuple(first["loc"])
    message = str(first["msg"])
    if first["type"] == "extra_forbidden":
        message = _unknown_key(str(loc[-1]), _keys_at(model, loc[:-1]))
    elif first["type"] == "value_error":  # our own validators: drop "Value error, "
        message = message.removeprefix("Value error, ")
    elif first["type"] == "string_type":
        message = _not_text(first["input"]) or message
    count = error.error_count()
    more = f" (and {count - 1} more problem(s))" if count > 1 else ""
    return InputError(source, key_path(loc), message + more)


def _not_text(value: object) -> str | None:
    """What is said of a number or flag written where text is wanted (a weapon's
    ``S = 5``), with the value written as text, in words true of a TOML file and a
    JSON one: ``5 is a number, not text: write it in quotes ("5")``. ``None`` for other
    values (a list, a table)."""
    if isinstance(value, bool):
        written, what = ("true" if value else "false"), "a flag"
    elif isinstance(value, int | float):
        written, what = str(value), "a number"
    else:
        return None
    return f'{written} is {what}, not text: write it in quotes ("{written}")'


def _unknown_key(key: str, known: list[str]) -> str:
    """What is said of the unknown ``key`` of a table whose keys are ``known``: those
    it may have meant, the most alike first (``players`` before ``first_player`` for
    ``player``), or else all of them."""
    alike = sorted(known, key=lambda k: -difflib.SequenceMatcher(None, key, k).ratio())
    close = similar_names(key, alike)
    if close:
        return f"unknown key (did you mean: {', '.join(close)})"
    if known:
        return f"unknown key (check the spelling: {', '.join(known)})"
    return "unknown key (check the spelling)"


def _keys_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys of the table at ``loc`` (a key path, as pydantic gives it) in data
    validated as ``model``: its model's fields (by the names a file writes); none
    where ``loc`` leads to no model (a list's item, a mapping's value of plain data)."""
    kinds: list[object] = [model]
    for part in loc:
        kinds = [inner for kind in kinds for inner in _inside(kind, part)]
    return list(
        dict.fromkeys(key for kind in kinds for one in _alternatives(kind) for key in _fields(one))
    )


def _fields(kind: object) -> dict[str, object]:
    """The type of each key of a model's table (by the name a file writes); none of
    a type that is not a model."""
    if not (isinstance(kind, type) and issubclass(kind, BaseModel)):
        return {}
    return {field.alias or name: field.annotation for name, field in kind.model_fields.items()}


def _alternatives(kind: object) -> list[object]:
    """The types a value of type ``kind`` may have: those of a union (``X | None``),
    the type ``Annotated`` annotates."""
    origin, args = get_origin(kind), get_args(kind)
    if origin is Annotated:
        return _alternatives(args[0])
    if origin in (Union, UnionType):
        return [one for arg in args for one in _alternatives(arg)]
    return [kind]


def _inside(kind: object, part: int | str) -> list[object]:
    """The types the value at key (or index) ``part`` of a value of type ``kind`` may
    have: a model's field's, a list's or tuple's items', a mapping's values'."""
    found: list[object] = []
    for one in _alternatives(kind):
        origin, args = get_origin(one), get_args(one)
        fields = _fields(one)
        if isinstance(part, str) and part in fields:
            found.append(fields[part])
        elif origin is dict:
            found += args[1:2]
        elif origin in (list, tuple):  # an item: any of the items' types
            found += [arg for arg in args if arg is not Ellipsis]
    return found


Whole = Annotated[int, Strict()]
"""A whole number as a file writes it: ``3``, never ``"3"``, ``true`` or ``3.0``, which
lax validation took as 3 (``seed = true`` played seed 1: a hostile-input review)."""
Number = Annotated[float, Strict(), AllowInfNan(False)]
"""A finite number (a whole one too), never text, a boolean, ``nan`` or ``inf``."""
Flag = Annotated[bool, Strict()]
"""``true`` or ``false``, never ``1`` or ``"yes"``."""

M = TypeVar("M", bound=BaseModel)


def parse_toml(text: str, source: str, model: type[M]) -> M:
    """TOML text validated as ``model``; any problem is one :class:`InputError`.

    ``tomllib`` parses nested arrays and inline tables by recursion, so a
    hostile file of a few hundred kilobytes (``[[[[...]]]]``) would end in a
    ``RecursionError``; it is caught and reported like any other mistake. A
    byte-order mark, which some editors put at the start of a UTF-8 file and
    ``tomllib`` refuses as an "invalid statement" at line 1, is read past.
    """
    too_long = long_number(text)
    if too_long is not None:
        line, length = too_long
        raise InputError(source, f"line {line}", long_number_problem(length))
    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise InputError(source, "", f"not valid TOML: {error}") from None
    except RecursionError:
        raise InputError(source, "", "not valid TOML: arrays or tables nested too deeply") from None
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise as_input_error(source, error, model) from None
    except RecursionError:
        raise InputError(source, "", "values nested too deeply") from None
