"""Typed errors: every user mistake becomes one of these, never a traceback."""

from __future__ import annotations

import difflib


class HammerlabError(Exception):
    """Base class of every error hammerlab reports to a user."""


class InputError(HammerlabError, ValueError):
    """A file or value given by the user is wrong.

    The message names the source (file), the key path inside it and the
    problem, so the CLI can print it on one line.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {problem}")


class BattleFailedError(HammerlabError):
    """A battle of a lab, sweep or balance run that raised (a plug-in's bug, most
    often): the line names the battle (scenario, seed, point) and how to replay it;
    ``trace`` is the traceback of the failure, which the CLI prints after the line."""

    def __init__(self, line: str, trace: str) -> None:
        super().__init__(line, trace)  # both, so that it pickles back from a worker
        self.trace = trace

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownNameError(HammerlabError, KeyError):
    """A unit, weapon, ruleset or option name that does not exist."""

    def __init__(self, kind: str, name: str, known: list[str] | None = None) -> None:
        close = similar_names(name, known or [])
        hint = f" (did you mean: {', '.join(close)})" if close else ""
        self.kind = kind
        self.name = name
        super().__init__(f"unknown {kind} {name!r}{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


SPELT_ALIKE = 0.7
"""How alike (:class:`difflib.SequenceMatcher` ratio) a name, or one of its words,
must be spelt to what was asked to be suggested: "Boys" and "Boyz" are 0.75."""


def similar_names(name: str, known: list[str], most: int = 5) -> list[str]:
    """Up to ``most`` of ``known`` that ``name`` may have meant, ignoring case: those
    containing it first (``Tactical`` for ``Tactical Squad``), then those spelt
    nearly alike, whole or by one of their words (``Boys`` for ``Ork Boyz``), the
    most alike first."""
    wanted = name.lower()
    containing = [k for k in known if wanted in k.lower()]

    def likeness(known_name: str) -> float:
        lowered = known_name.lower()
        return max(
            difflib.SequenceMatcher(None, wanted, part).ratio()
            for part in (lowered, *lowered.split())
        )

    scored = sorted(((likeness(k), k) for k in known), key=lambda pair: -pair[0])
    alike = [k for score, k in scored if score >= SPELT_ALIKE]
    return list(dict.fromkeys([*containing, *alike]))[:most]


class ProfileError(HammerlabError, ValueError):
    """A model or weapon profile whose characteristics an edition cannot read.

    ``key`` names what is wrong where the reader knows it: the characteristic
    (``"W"``, ``"Type"``, ``"Range"``) or ``"type"`` for a model's unit type, so
    that a scenario's error can name the key path of the value written.
    """

    def __init__(self, message: str, key: str = "") -> None:
        self.key = key
        super().__init__(message)


class QuestionError(HammerlabError, ValueError):
    """An odds question that cannot be answered as asked (the message says why), in
    any edition: ``hammerlab.analysis.odds`` and the editions' own calculators
    raise this one type."""


class IllegalActionError(HammerlabError, ValueError):
    """A decision answer or an action that the rules do not allow."""


class UnansweredDecisionError(IllegalActionError):
    """A decision asked while answers were given ahead (an applied action, a replay)
    that the next of them does not answer: its kind differs or its label is not one
    of the choices. It keeps what was asked, for a replay to say where it went
    another way than its log."""

    def __init__(
        self, player: str, decision: str, labels: list[str], given: tuple[str, str]
    ) -> None:
        self.player = player
        self.decision = decision
        self.labels = labels
        kind, label = given
        super().__init__(
            f"{player} was asked {decision!r} ({', '.join(labels)}), not {kind!r} with {label!r}"
        )
