"""Turning pydantic validation errors into one clear line."""

from __future__ import annotations

import tomllib
from typing import Annotated, TypeVar

from pydantic import AllowInfNan, BaseModel, Strict, ValidationError

from hammerlab.errors import InputError, long_number, long_number_problem


def key_path(loc: tuple[int | str, ...]) -> str:
    """``("units", 2, "position")`` → ``units[2].position``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def as_input_error(source: str, error: ValidationError) -> InputError:
    """The first problem of ``error``, naming the file and the key path."""
    first = error.errors()[0]
    message = str(first["msg"])
    if first["type"] == "extra_forbidden":
        message = "unknown key (check the spelling)"
    elif first["type"] == "value_error":  # our own validators: drop "Value error, "
        message = message.removeprefix("Value error, ")
    count = error.error_count()
    more = f" (and {count - 1} more problem(s))" if count > 1 else ""
    return InputError(source, key_path(tuple(first["loc"])), message + more)


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
        raise as_input_error(source, error) from None
    except RecursionError:
        raise InputError(source, "", "values nested too deeply") from None
