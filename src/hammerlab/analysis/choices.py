"""What the players were offered and what they chose: how often a rule was used.

A rules writer switching a rule on wants to know whether the players used what
it offers at all (issue 9: "The lab reports how often each optional action was
chosen, so a rules writer sees whether a rule was used at all"). A
:class:`ChoiceTally` wraps a controller and counts, per ``"kind: label"``
(``"action: suppressive fire"``, ``"fiery_charge: Fiery Charge"``), how many
times that choice was offered and how many times it was taken.
:func:`rule_choices` keeps the choices of the rules an experiment concerns:
those whose decision kind or label names one of its rules
(``fiery_charge: Fiery Charge``, ``action: suppressive fire``,
``reaction: Return Fire!``), with their counts in both arms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Controller, Decision

Tally = Mapping[str, tuple[int, int]]
"""``"kind: label"`` → (times offered, times chosen)."""


class ChoiceTally:
    """A controller that counts the choices offered to and taken by the one it wraps.

    It is asked at every decision of every battle of a lab run or sweep, so it
    counts each decision by its kind and labels, and spells out the
    ``"kind: label"`` keys only when :meth:`counts` is asked, once a battle."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self._offered: Counter[tuple[str, tuple[str, ...]]] = Counter()
        self._chosen: Counter[tuple[str, str]] = Counter()

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The wrapped controller's answer, counted."""
        index = self.inner.choose(battle, decision)
        labels = tuple(decision.labels())
        self._offered[(decision.kind, labels)] += 1
        self._chosen[(decision.kind, labels[index])] += 1
        return index

    def counts(self) -> dict[str, tuple[int, int]]:
        """What it counted, as a :data:`Tally`: each label offered once a decision,
        however many of its choices bear it."""
        offered: dict[str, int] = {}
        for (kind, labels), times in self._offered.items():
            for key in _spelled(kind, labels):
                offered[key] = offered.get(key, 0) + times
        chosen = {f"{kind}: {label}": times for (kind, label), times in self._chosen.items()}
        return {key: (offered[key], chosen.get(key, 0)) for key in sorted(offered)}


@lru_cache(maxsize=4096)
def _spelled(kind: str, labels: tuple[str, ...]) -> tuple[str, ...]:
    """The ``"kind: label"`` key of each label a decision offered, once each: the same
    few decisions are offered in every battle of a sweep, whose tallies are spelled
    out after each battle."""
    return tuple({f"{kind}: {label}": None for label in labels})


class Declining:
    """A controller that answers as the one it wraps, but never with one choice.

    Where the wrapped controller takes ``declined`` (``"kind: label"``, as a
    :class:`ChoiceTally` names it), it is asked the same decision again with that
    choice left out, and its answer there is given (a decision offering nothing
    else is answered as the wrapped controller answers it; one offering one other
    choice, with that one, unasked). Played against the
    controller itself (``examples/matchups/decision_duel.py --decline``), it tells
    whether taking the choice was worth it, decision by decision: whether the
    heuristic uses an optional rule on its merits.
    """

    def __init__(self, inner: Controller, declined: str) -> None:
        self.inner = inner
        self.declined = declined

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The wrapped controller's answer, or its answer without the declined choice."""
        index = self.inner.choose(battle, decision)
        if f"{decision.kind}: {decision.choices[index].label}" != self.declined:
            return index
        kept = [i for i in range(len(decision.choices)) if i != index]
        if len(kept) < 2:  # nothing else to take, or one thing: no need to ask
            return kept[0] if kept else index
        fewer = replace(decision, choices=tuple(decision.choices[i] for i in kept))
        return kept[self.inner.choose(battle, fewer)]


def watch(battle: Battle) -> list[ChoiceTally]:
    """Wrap every player's controller of ``battle`` in a :class:`ChoiceTally`."""
    tallies = []
    for player, inner in list(battle.controllers.items()):
        tally = ChoiceTally(inner)
        battle.controllers[player] = tally
        tallies.append(tally)
    return tallies


@dataclass(frozen=True)
class RuleChoice:
    """One choice of a rule the experiment concerns: offered and chosen in each arm,
    in all battles."""

    choice: str
    baseline_offered: int
    baseline_chosen: int
    variant_offered: int
    variant_chosen: int


def total(tallies: Sequence[Tally]) -> dict[str, tuple[int, int]]:
    """Tallies of many battles added up (plain dictionaries: a sweep adds up each
    battle's own, and a ``Counter`` answered every key met for the first time with a
    call of its own)."""
    offered: dict[str, int] = {}
    chosen: dict[str, int] = {}
    for tally in tallies:
        for key, (times, taken) in tally.items():
            offered[key] = offered.get(key, 0) + times
            chosen[key] = chosen.get(key, 0) + taken
    return {key: (offered[key], chosen[key]) for key in sorted(offered)}


def never_chosen(counted: Mapping[str, tuple[int, int]], nowhere: str) -> list[str]:
    """One warning per choice of ``counted`` (``"kind: label"`` → (offered, chosen))
    offered but never chosen, ``nowhere`` saying where it was not (``at no point``,
    ``in neither arm``): where it is what the rule offers, the rule never came into
    play, and the battles cannot differ by it (the AI takes a plug-in's choice only
    when it says its worth: docs/plugins.md).

    A decline (:func:`declines`: ``final_shot: No``, ``fiery_charge: no Fiery
    Charge``) never chosen where a choice of its decision's kind that is not a
    decline was chosen gets none: the rule's own choice was taken each time the
    two were offered, so the rule came into play (a user review: ``final_shot:
    Final Shot`` chosen 55 of 55, then a warning that ``final_shot: No`` never
    was, and that the rule never came into play)."""
    taken = {_kind(key) for key, (_, chosen) in counted.items() if chosen and not declines(key)}
    return [
        f"warning: {key} was offered {offered} times and chosen {nowhere}; where it "
        "is what the rule offers, the rule never came into play"
        for key, (offered, chosen) in counted.items()
        if offered and not chosen and not (declines(key) and _kind(key) in taken)
    ]


DECLINING_WORDS = ("no", "none", "decline")
"""A label whose first word is one of these declines what its decision offers."""


def declines(choice: str) -> bool:
    """Whether ``choice`` (``"kind: label"``) is the answer that leaves its decision's
    offer unused: its label's first word is ``no`` (``No``, ``no Fiery Charge``,
    ``no jink``, ``no reaction``), ``none`` or ``decline`` (:data:`DECLINING_WORDS`),
    as every decline of the engine's optional rules is labelled."""
    words = _words(choice.partition(": ")[2])
    return bool(words) and words[0] in DECLINING_WORDS


def _kind(choice: str) -> str:
    return choice.partition(": ")[0]


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9]+", text.lower()))


def names_rule(choice: str, rule: str) -> bool:
    """Whether ``choice`` (``"kind: label"``) names ``rule``: the decision's kind is
    the rule's whole name (``fiery_charge: no Fiery Charge`` names ``fiery_charge``),
    or the rule's words (its name split at ``_``) appear in a row in the choice's
    label (``reaction: Return Fire!`` names ``return_fire``, ``charge_reaction: Fire
    Overwatch`` names ``overwatch``).

    A kind is a name, not prose: ``dread_roar: Roar`` is a choice of the rule
    ``dread_roar``, not of ``dread`` (a rules writer's review, session 24: with both
    rules loaded, a lab of ``dread`` listed, and could have warned of, ``dread_roar``'s
    choices)."""
    wanted = _words(rule)
    kind, _, label = choice.partition(": ")
    if _words(kind) == wanted:
        return True
    words = _words(label)
    return any(words[i : i + len(wanted)] == wanted for i in range(len(words)))


def concerned_rules(keys: Iterable[str], options: Iterable[str]) -> set[str]:
    """The rule options among ``options`` that setting ``keys`` (``name`` or
    ``name.param``, as ``--rule``, ``[rules]`` and ``--vary`` write them) touches:
    the rules whose choices an experiment reports."""
    return {key.partition(".")[0] for key in keys} & set(options)


def named_choices(tally: Tally, rules: Collection[str]) -> dict[str, tuple[int, int]]:
    """The choices of ``tally`` that name one of ``rules`` (:func:`names_rule`), with
    their counts, in order."""
    return {
        key: counts
        for key, counts in sorted(tally.items())
        if any(names_rule(key, rule) for rule in rules)
    }


def rule_choices(baseline: Tally, variant: Tally, rules: Collection[str]) -> tuple[RuleChoice, ...]:
    """Every choice offered in either arm that names one of ``rules``
    (:func:`named_choices`), with its counts in both arms, however alike they are.

    Choices are picked by name, not by their counts: once one roll differs, the
    arms' battles part ways and nearly every choice is offered and taken a
    different number of times in each (or, over a few battles, in one arm
    only), so counts alone do not tell a rule's own choices from the rest.
    """
    before, after = named_choices(baseline, rules), named_choices(variant, rules)
    return tuple(
        RuleChoice(key, *before.get(key, (0, 0)), *after.get(key, (0, 0)))
        for key in sorted(set(before) | set(after))
    )
