"""The Waffle Edition's hook points are made here, each marked as the edition's own."""

from __future__ import annotations

from typing import Any

from hammerlab.engine.rules import HookPoint


def waffle_point(name: str, doc: str) -> HookPoint[Any]:
    """A hook point the Waffle Edition's procedures read (:attr:`HookPoint.ruleset`): a
    plug-in of another ruleset that installs a handler on it is refused, since nothing
    of its own ruleset would call it. Its handlers' type is the one the point's name is
    annotated with (``STRENGTH: HookPoint[StrengthChange] = waffle_point(...)``)."""
    return HookPoint(name, doc, ruleset="waffle")
