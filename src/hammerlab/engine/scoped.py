"""A context variable set for the length of a block: the levers the AI is weighed
with (the end of the game heeded, the charges a retreat escapes) and the player
it weighs for, each read deep inside the estimates without being passed down."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def holding(variable: ContextVar[T], value: T) -> Iterator[None]:
    """``variable`` set to ``value`` while the block runs, as it was after."""
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)
