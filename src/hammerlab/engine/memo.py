"""Remember what a controller works out while it makes one decision.

An AI weighing a decision reads the battle and never changes it, yet asks the
same questions many times over (what would this unit's shooting kill? which
of its models can fire?). Inside :func:`decision_scope` a function marked
:func:`per_decision` answers each distinct question once; outside one, it
simply runs. The scope is opened by the controller around one decision and
closed when it answers, before the battle moves on, so no stale answer
survives a change of state: this changes how fast a choice is made, never
which choice.

A question is its arguments: values that hash by value (numbers, strings,
frozen dataclasses) as themselves, lists and counters by their contents, and
mutable objects (a battle, a unit, a model) by identity, which is stable for
the scope's short life.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_answers: ContextVar[dict[Hashable, Any] | None] = ContextVar("answers", default=None)
"""The open scope's answers (``None``: no scope open); one per thread (the web app's)."""


@contextmanager
def decision_scope() -> Iterator[None]:
    """Open a scope for one decision (an inner scope shares the outer one's answers)."""
    token = _answers.set({}) if _answers.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _answers.reset(token)


def per_decision(function: Callable[P, R]) -> Callable[P, R]:
    """Answer each distinct call once per open :func:`decision_scope`.

    For functions that only read the battle and return a value nobody
    changes (a number, a frozen record); a list is handed out as a copy.
    """

    @wraps(function)
    def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
        answers = _answers.get()
        if answers is None:
            return function(*args, **kwargs)
        key = (function, _key(args), _key(sorted(kwargs.items())))
        if key in answers:
            value = answers[key]
        else:
            value = answers[key] = function(*args, **kwargs)
        return list(value) if isinstance(value, list) else value  # type: ignore[return-value]

    return remembered


def _key(value: object) -> Hashable:
    """``value`` as part of a question (see the module's docstring)."""
    kind = type(value)
    if kind is list or kind is tuple:
        return tuple(map(_key, value))  # type: ignore[call-overload]
    if kind.__hash__ is None:
        if isinstance(value, Mapping):
            return ("mapping", tuple(sorted((k, _key(v)) for k, v in value.items())))
        return ("object", id(value))
    return value
