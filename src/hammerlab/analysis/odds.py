"""Exact odds of one weapon profile against one unit, for any edition.

Each edition provides an :class:`OddsCalculator`; the CLI (``hammerlab odds``)
and other tools ask through this interface only, so the same command answers
for every edition registered here. Questions come in two forms: a
:class:`LibraryQuestion` names units of the edition's library, a
:class:`PlainQuestion` gives the numbers. Every answer is an
:class:`OddsResult` of exact distributions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from hammerlab.editions import get_ruleset
from hammerlab.editions.core11.odds_questions import (
    SITUATIONS,
    Answer,
    library_answer,
    plain_answer,
)
from hammerlab.errors import UnknownNameError


@dataclass(frozen=True)
class PlainQuestion:
    """A weapon and a target given as numbers, as datasheets write them."""

    attacks: str
    """Attacks in all: a number or dice (``D6+1``)."""
    skill: int
    """BS (or WS) as the number before the plus."""
    strength: int
    ap: int
    """AP as written: 0 or negative."""
    damage: str
    toughness: int
    save: int
    """Sv as the number before the plus (7: no save)."""
    wounds: int
    target_models: int
    invulnerable: int | None = None
    feel_no_pain: int | None = None
    keywords: tuple[str, ...] = ()
    """Weapon keywords (``sustained hits 1``)."""
    target_keywords: tuple[str, ...] = ()
    """Target unit keywords (``INFANTRY``), for rules such as ANTI-X."""
    situation: frozenset[str] = frozenset()
    """Names of the calculator's :attr:`OddsCalculator.situations` that hold."""


@dataclass(frozen=True)
class LibraryQuestion:
    """A weapon of one library unit against another library unit."""

    attacker: str
    weapon: str
    target: str
    profile: str | None = None
    firing_models: int | None = None
    """Models firing the weapon; default: those carrying it in the attacker's unit."""
    target_models: int | None = None
    """Models in the target unit; default: the datasheet's unit size."""
    situation: frozenset[str] = frozenset()


@dataclass(frozen=True)
class OddsResult:
    """Exact distributions of one weapon's attacks at one unit."""

    edition: str
    question: str
    """The question in one line."""
    models_killed: tuple[float, ...]
    """Probability of each number of models destroyed (index = models)."""
    unsaved_wounds: tuple[float, ...]
    """Probability of each number of unsaved wounds (index = wounds)."""
    means: Mapping[str, float] = field(default_factory=dict)
    """Expected values of the steps (``attacks``, ``hits``, ``wounds``, ...)."""
    notes: tuple[str, ...] = ()
    """What the calculator assumed or could not take into account."""

    @property
    def mean_models_killed(self) -> float:
        """Expected models destroyed."""
        return sum(i * p for i, p in enumerate(self.models_killed))

    @property
    def p_unit_destroyed(self) -> float:
        """Probability that every model of the target unit is destroyed."""
        return self.models_killed[-1] if len(self.models_killed) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "edition": self.edition,
            "question": self.question,
            "models_killed": list(self.models_killed),
            "mean_models_killed": self.mean_models_killed,
            "unsaved_wounds": list(self.unsaved_wounds),
            "p_unit_destroyed": self.p_unit_destroyed,
            "means": dict(self.means),
            "notes": list(self.notes),
        }


class OddsCalculator(Protocol):
    """An edition's exact odds."""

    @property
    def situations(self) -> Mapping[str, str]:
        """Situation names a question may state, with what each means."""
        ...

    def plain(self, question: PlainQuestion) -> OddsResult:
        """Odds for numbers."""
        ...

    def library(self, question: LibraryQuestion) -> OddsResult:
        """Odds for library units."""
        ...


_FACTORIES: dict[str, Callable[[], OddsCalculator]] = {}


def register_calculator(edition: str, factory: Callable[[], OddsCalculator]) -> None:
    """Make ``edition``'s calculator available."""
    _FACTORIES[edition] = factory


def calculator(edition: str) -> OddsCalculator:
    """The odds calculator of ``edition``."""
    if edition not in _FACTORIES:
        raise UnknownNameError("odds calculator", edition, sorted(_FACTORIES))
    return _FACTORIES[edition]()


def calculator_names() -> list[str]:
    """Editions with an odds calculator."""
    return sorted(_FACTORIES)


class Core11Calculator:
    """The 11th edition's exact odds (``hammerlab.editions.core11.odds``)."""

    @property
    def situations(self) -> Mapping[str, str]:
        """See :data:`hammerlab.editions.core11.odds_questions.SITUATIONS`."""
        return SITUATIONS

    def plain(self, question: PlainQuestion) -> OddsResult:
        """Odds for numbers."""
        answer = plain_answer(
            attacks=question.attacks,
            skill=question.skill,
            strength=question.strength,
            ap=question.ap,
            damage=question.damage,
            keywords=question.keywords,
            toughness=question.toughness,
            save=question.save,
            wounds=question.wounds,
            models=question.target_models,
            invulnerable=question.invulnerable,
            feel_no_pain=question.feel_no_pain,
            target_keywords=question.target_keywords,
            situation=question.situation,
        )
        return _result(answer)

    def library(self, question: LibraryQuestion) -> OddsResult:
        """Odds for two units of the wh40kdc library."""
        rules = get_ruleset("core11")
        answer = library_answer(
            rules.find_unit(question.attacker),
            question.weapon,
            question.profile,
            rules.find_unit(question.target),
            question.firing_models,
            question.target_models,
            question.situation,
        )
        return _result(answer)


def _result(answer: Answer) -> OddsResult:
    odds = answer.odds
    return OddsResult(
        edition="core11",
        question=answer.description,
        models_killed=odds.models_killed,
        unsaved_wounds=odds.unsaved_wounds,
        means={
            "attacks": odds.mean_attacks,
            "hits": odds.mean_hits,
            "wounds": odds.mean_wounds,
            "unsaved_wounds": odds.mean_unsaved,
            "damage": odds.mean_damage,
        },
        notes=answer.notes,
    )


register_calculator("core11", Core11Calculator)
