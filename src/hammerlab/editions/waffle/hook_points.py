"""The Waffle Edition's hook points are made here, each marked as the edition's own."""

from __future__ import annotations

from typing import Any

from hammerlab.engine.rules import HookPoint


def waffle_point(name: str, doc: str, takes: tuple[str, ...] | None = None) -> HookPoint[Any]:
    """A hook point the Waffle Edition's procedures read (:attr:`HookPoint.ruleset`): a
    plug-in of another ruleset that installs a handler on it is refused, since nothing
    of its own ruleset would call it. Its handlers' type is the one the point's name is
    annotated with (``STRENGTH: HookPoint[StrengthChange] = waffle_point(...)``), and
    ``takes`` names what they are called with, one name for each of its arguments
    (:attr:`HookPoint.takes`; ``None`` where the handlers are objects: a reaction, a
    shooting action, a watcher)."""
    return HookPoint(name, doc, ruleset="waffle", takes=takes)
