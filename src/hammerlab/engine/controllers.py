"""Controllers that need no edition knowledge."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.errors import IllegalActionError


class ScriptedController:
    """Answers from a script of ``(kind, label)`` pairs, for tests.

    Each decision consumes the next script entry, whose kind must match and
    whose label must be one of the choices (strict mode: any mismatch is an
    error naming both). When the script is empty, ``fallback`` answers, or
    an error is raised if there is none.
    """

    def __init__(
        self,
        script: Iterable[tuple[str, str]] = (),
        fallback: Controller | None = None,
    ) -> None:
        self.script = list(script)
        self.fallback = fallback
        self.asked: list[Decision[Any]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the scripted label."""
        self.asked.append(decision)
        if not self.script:
            if self.fallback is None:
                raise IllegalActionError(
                    f"script exhausted at {decision.kind!r}: choices {decision.labels()}"
                )
            return self.fallback.choose(battle, decision)
        kind, label = self.script.pop(0)
        if kind != decision.kind:
            raise IllegalActionError(f"script expected a {kind!r} decision, got {decision.kind!r}")
        labels = decision.labels()
        if label not in labels:
            raise IllegalActionError(f"{label!r} is not a choice of {decision.kind!r}: {labels}")
        return labels.index(label)


class FirstChoiceController:
    """Always the first choice: procedures list the conventional default first."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Index 0."""
        return 0
