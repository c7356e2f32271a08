"""Typed errors: every user mistake becomes one of these, never a traceback."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hammerlab.engine.datasheet import Datasheet, ModelEntry


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

    def __init__(
        self,
        kind: str,
        name: str,
        known: list[str] | None = None,
        listed: str | None = None,
        place: str = "",
    ) -> None:
        """The names ``known`` give the hint (``did you mean``); with ``listed`` (what
        they are, ``units``) the message lists them all too, where they are few (a
        battle's units, not a library's); ``place`` names where the name was looked
        for, where that is a file (``unknown unit 'Rhinoceros' in sm.cat``)."""
        self.kind = kind
        self.name = name
        super().__init__(unknown_name(kind, name, known or [], listed, place))

    def __str__(self) -> str:
        return str(self.args[0])


def unknown_name(
    kind: str, name: str, known: list[str], listed: str | None = None, place: str = ""
) -> str:
    """What is said of a name that does not exist, the names of ``known`` it may have
    meant first, the closest first (:func:`similar_names`): ``unknown unit 'Boys' (did
    you mean: Ork Boyz)``; with ``listed`` (what the known names are: ``units``,
    ``known``), all of them after (``; known: ...``); ``place``: where the name was
    looked for, where that is a file (``unknown unit 'Rhinoceros' in sm.cat``)."""
    close = similar_names(name, known)
    hint = f" (did you mean: {', '.join(close)})" if close else ""
    every = f"; {listed}: {', '.join(known) or 'none'}" if listed is not None else ""
    where = f" in {place}" if place else ""
    return f"unknown {kind} {name!r}{where}{hint}{every}"


SPELT_ALIKE = 0.7
"""How alike (:class:`difflib.SequenceMatcher` ratio) a name, or one of its words,
must be spelt to what was asked to be suggested: "Boys" and "Boyz" are 0.75."""


def similar_names(name: str, known: list[str], most: int = 5) -> list[str]:
    """Up to ``most`` of ``known`` that ``name`` may have meant, ignoring case: those
    containing it first (``Tactical`` for ``Tactical Squad``), then those it contains
    (``Rhinoceros`` for ``Rhino``, of :data:`MIN_WORD` letters or more), then those spelt
    nearly alike, whole or by one of their words (``Boys`` for ``Ork Boyz``), or
    sharing words with it (``Leman Russ Squadron`` for ``Leman Russ Battle Tank``,
    ``Boyz`` for ``Ork Boyz``): those sharing the most words first, then those with
    the fewest words of their own, then the most alike by a word, then as a whole
    (so ``Boys`` gives ``Boyz`` before ``Mek Boss``)."""
    wanted = name.lower()
    words = [w for w in wanted.split() if len(w) >= MIN_WORD]
    containing = [k for k in known if wanted in k.lower()]
    contained = [k for k in known if len(k) >= MIN_WORD and k.lower() in wanted]

    def alike(a: str, b: str) -> float:
        return difflib.SequenceMatcher(None, a, b).ratio()

    def score(known_name: str) -> tuple[int, int, float, float]:
        lowered = known_name.lower()
        parts = lowered.split()
        shared = sum(any(alike(w, p) >= WORD_ALIKE for p in parts) for w in words)
        extra = sum(not any(alike(w, p) >= WORD_ALIKE for w in words) for p in parts)
        by_part = max(alike(wanted, part) for part in (lowered, *parts))
        if len(words) < 2:  # one word asked: it is alike by a word, or not at all
            shared = extra = 0
        return (shared, -extra, by_part, alike(wanted, lowered))

    scored = sorted(((score(k), k) for k in known), key=lambda pair: pair[0], reverse=True)
    close = [k for (shared, _, by_part, _), k in scored if shared or by_part >= SPELT_ALIKE]
    return list(dict.fromkeys([*containing, *contained, *close]))[:most]


MIN_WORD = 3
"""Words of a name asked for shorter than this (``of``, ``a``) are not looked for."""
WORD_ALIKE = 0.8
"""How alike a word of the name asked for and a word of a known name must be spelt to
count as shared: ``Boyz`` and ``Boyz`` (1.0), ``Russ`` and ``Rus`` (0.86)."""


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
    raise this one type.

    ``flag`` names the ``hammerlab odds`` flag (or flags) that gave what is wrong
    (``--models``), where one did: the message starts with it (``--models: firing
    models must be between 1 and 100, not 200``), ``hammerlab odds`` reports it as a
    usage error, and the web API names the request's field instead
    (``web.schemas.OddsRequest.fields_named``)."""

    def __init__(self, problem: str, flag: str | None = None) -> None:
        self.problem = problem
        self.flag = flag
        super().__init__(problem if flag is None else f"{flag}: {problem}")


def question_bounds(flag: str | None, name: str, value: int, low: int, high: int) -> int:
    """``value`` of ``name``, given by ``hammerlab odds``'s ``flag`` (``None``: by a
    datasheet), if from ``low`` to ``high``; else a :class:`QuestionError` naming both:
    the bounds of an odds question in every edition."""
    if not low <= value <= high:
        raise QuestionError(f"{name} must be between {low} and {high}, not {value}", flag)
    return value


def firing_within(
    sheet: Datasheet, asked: int, copies: Callable[[ModelEntry], int], what: str
) -> str | None:
    """``asked`` firing (``--models`` of an odds question's library form) of ``what``
    (``models carrying Boltgun``), the weapon ``sheet``'s models carry ``copies`` of each:
    a :class:`QuestionError` if more than the unit can field at its largest size
    (:meth:`~hammerlab.engine.datasheet.Datasheet.most_of`), naming the models that
    carry it (review s23: "40x Bolt pistol (Space Marine Captain)" was answered); a
    note if more than its default size fields, where the unit may grow that much (a
    library unit's resized entry is unbounded); else ``None``."""
    carriers = [e for e in sheet.entries if copies(e)]
    default = sum(e.count * copies(e) for e in carriers)
    bounds = [sheet.most_of(e) for e in carriers]
    if None not in bounds:
        most = sum((b or 0) * copies(e) for b, e in zip(bounds, carriers, strict=True))
        if asked > most:
            held = ", ".join(
                f"{b} {e.profile.name}" + (f" with {copies(e)} each" if copies(e) > 1 else "")
                for b, e in zip(bounds, carriers, strict=True)
            )
            raise QuestionError(
                f"{what} in {sheet.name}: at most {most} ({held}), not {asked}", "--models"
            )
    if asked > default:
        return (
            f"{what} in {sheet.name}: {default} at its default size; {asked} make a "
            "larger unit, as a scenario's size may"
        )
    return None


def known_situations(names: Iterable[str], situations: Iterable[str]) -> set[str]:
    """``names`` (``--situation``), each one of an edition's ``situations``; the first
    that is not, a :class:`QuestionError` listing them."""
    chosen, known = set(names), list(situations)
    unknown = sorted(chosen - set(known))
    if unknown:
        raise QuestionError(
            f"unknown situation {unknown[0]!r}; known: {', '.join(known)}", "--situation"
        )
    return chosen


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


MAX_DIGITS = 100
"""The most digits a number in a file or on the command line may have. Python refuses
to convert a whole number of more than 4,300 digits (a guard against quadratic
conversions) with a ``ValueError`` that no parser turns into a user's error; no
count, seed or characteristic needs more than a few digits, so longer runs are
refused where the text is read, naming the file, line or flag."""

_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + ",}")


def long_number(text: str) -> tuple[int, int] | None:
    """Where ``text`` holds a run of more than :data:`MAX_DIGITS` digits: its line
    (from 1) and length; ``None`` where it holds none."""
    found = _LONG_NUMBER.search(text)
    if found is None:
        return None
    return text.count("\n", 0, found.start()) + 1, len(found.group())


def long_number_problem(length: int) -> str:
    """What is wrong with a run of ``length`` digits, for an error line."""
    return f"a number of {length:,} digits (at most {MAX_DIGITS} are read)"
