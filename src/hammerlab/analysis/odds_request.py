"""An odds question as ``hammerlab odds`` flags give it, answered for any interface.

The CLI (``hammerlab odds``) and the web API (``POST /api/odds``) both turn
what they were given into an :class:`OddsAsk` (every value a string, as typed
on a command line) and call :func:`answer`, so the two give the same
:class:`~hammerlab.analysis.odds.OddsResult` — and the same JSON — for the
same question. Library-form units may also come from ``units`` (a BattleScribe
file's datasheets), which are looked up before the edition's library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from hammerlab.analysis.odds import (
    LibraryQuestion,
    OddsResult,
    PlainQuestion,
    QuestionError,
    calculator,
    calculator_names,
    flag,
)
from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.rules import RuleSettingError, rule_flags
from hammerlab.errors import UnknownNameError

PLAIN = ("strength", "ap", "toughness", "save", "wounds", "target-models")
"""Flags every edition's plain form needs; each calculator says what else
(:attr:`~hammerlab.analysis.odds.OddsCalculator.plain_required`)."""


@dataclass(frozen=True)
class OddsAsk:
    """One odds question, each field named like its ``hammerlab odds`` flag
    (``weapon_type`` is ``--type``, ``feel_no_pain`` is ``--feel-no-pain``)."""

    ruleset: str = "waffle"
    """The CLI's default ruleset (``cli.common.DEFAULT_RULESET``), which the web API's
    default reads from here."""
    attacker: str | None = None
    weapon: str | None = None
    profile: str | None = None
    models: str | None = None
    target: str | None = None
    attacks: str | None = None
    weapon_type: str | None = None
    bs: str | None = None
    strength: str | None = None
    ap: str | None = None
    damage: str | None = None
    toughness: str | None = None
    save: str | None = None
    wounds: str | None = None
    target_models: str | None = None
    invulnerable: str | None = None
    cover: str | None = None
    hits: str | None = None
    feel_no_pain: str | None = None
    keyword: tuple[str, ...] = ()
    target_keyword: tuple[str, ...] = ()
    situation: tuple[str, ...] = ()
    rule: tuple[str, ...] = ()
    """``--rule NAME=VALUE``: rule parameters the edition's odds read."""

    @property
    def is_library(self) -> bool:
        """Whether the question names units (the library form)."""
        return self.attacker is not None or self.weapon is not None or self.target is not None


ROLLS = ("save", "invulnerable", "cover", "feel_no_pain")
"""Fields given as the D6 roll needed, which may be written with their plus (``3+``);
any other number is refused with one (the BS too where it is a characteristic:
:attr:`~hammerlab.analysis.odds.OddsCalculator.skill_is_roll`)."""


def _number(field: str, text: str | None, roll: bool = False) -> int | None:
    if text is None:
        return None
    written = text.strip()
    if written.endswith("+") and not (roll or field in ROLLS):
        raise QuestionError(f"must be a whole number, not a roll: {text!r}", flag(field))
    try:
        return int(written.rstrip("+"))
    except ValueError:
        raise QuestionError(f"must be a whole number, not {text!r}", flag(field)) from None


def _skill(text: str | None, ruleset: str, is_roll: bool) -> int | None:
    """``--bs``: the roll needed (``3+`` or ``3``) where the edition writes it so, else
    the characteristic, whose plus is refused: ``--bs 4+`` meant to hit on 4+ would
    be read as BS 4, which hits on 3+."""
    if text is not None and text.strip().endswith("+") and not is_roll:
        raise QuestionError(
            f"{text!r} is a roll; {ruleset} odds take the BS characteristic ('--bs 4' hits "
            "on 3+, '--bs 3' on 4+)",
            "--bs",
        )
    return _number("bs", text, roll=True)


def _required(field: str, text: str | None) -> int:
    value = _number(field, text)
    if value is None:
        raise QuestionError("is required", flag(field))
    return value


def _save(text: str) -> int | None:
    """``--save``: ``3`` or ``3+``, or ``-`` for none."""
    return None if text.strip() == "-" else _required("save", text)


PLAIN_ONLY = (
    "attacks", "weapon_type", "bs", "strength", "ap", "damage", "toughness", "save", "wounds",
    "invulnerable", "feel_no_pain", "keyword", "target_keyword",
)  # fmt: skip
"""Fields the library form refuses (the datasheets give them)."""


def _rules(flags: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``--rule`` flags as (name, value) pairs; a name given twice is refused, as
    :func:`~hammerlab.engine.rules.rule_flags` refuses it for every command."""
    try:
        return tuple((key, str(value)) for key, value in rule_flags(flags).items())
    except RuleSettingError as error:
        raise QuestionError(str(error), "--rule") from None


def _missing(ask: OddsAsk, required: Sequence[tuple[str, ...]]) -> str | None:
    """The plain form's flags ``ask`` leaves out, in the order ``odds --help`` lists
    them: each of :data:`PLAIN`, and each of the edition's ``required`` groups none of
    whose flags is given (``--bs (or --hits)``); ``None`` when none is missing."""
    groups = [(f,) for f in PLAIN] + [tuple(flag(f)[2:] for f in g) for g in required]
    given = {flag(f.name)[2:]: getattr(ask, f.name) for f in fields(ask)}
    order = list(given)
    left = sorted(
        (g for g in groups if all(given[name] is None for name in g)),
        key=lambda g: order.index(g[0]),
    )
    if not left:
        return None
    return ", ".join(f"--{g[0]}" + "".join(f" (or --{other})" for other in g[1:]) for g in left)


def check_ruleset(ruleset: str, units: Sequence[Datasheet]) -> None:
    """Refuse a ruleset the odds do not have, or ``units`` (a BattleScribe file's) of
    another edition than ``ruleset``: what :func:`answer` refuses first, and what the
    web API's unit and weapon lists refuse in the same words (a web review: they listed
    a Waffle upload's units under core11, which the odds then refused)."""
    if ruleset not in calculator_names():
        known = ", ".join(calculator_names())
        raise QuestionError(f"unknown ruleset {ruleset!r}; known: {known}", "--ruleset")
    other = next((unit.edition for unit in units if unit.edition != ruleset), None)
    if other is not None:  # a BattleScribe file's units are 7th-edition, waffle datasheets
        raise QuestionError(  # not its path: an upload's is the server's private file
            f"a BattleScribe file's units are {other} datasheets (7th edition); "
            f"{ruleset} odds cannot use them: ask with --ruleset {other}, or leave out --from",
            "--from",
        )


def answer(
    ask: OddsAsk, units: Sequence[Datasheet] = (), refused: Mapping[str, Sequence[str]] = {}
) -> OddsResult:
    """The exact odds ``ask`` asks for; a :class:`QuestionError` (or another
    :class:`~hammerlab.errors.HammerlabError`) names what is wrong with it. ``refused``
    names the ``units`` that cannot be played, with why (``ImportResult.unplayable``):
    asked of, they are refused."""
    check_ruleset(ask.ruleset, units)
    calc = calculator(ask.ruleset)
    facts = frozenset(s.strip().lower() for s in ask.situation)
    if ask.is_library:
        stray = [flag(f) for f in PLAIN_ONLY if getattr(ask, f) not in (None, ())]
        if stray:
            raise QuestionError("the library form takes no plain numbers", ", ".join(stray))
        if ask.attacker is None or ask.weapon is None or ask.target is None:
            unnamed = [flag(f) for f in ("attacker", "weapon", "target") if getattr(ask, f) is None]
            raise QuestionError(
                "the library form needs --attacker, --weapon and --target", ", ".join(unnamed)
            )
        question = LibraryQuestion(
            attacker=ask.attacker,
            weapon=ask.weapon,
            target=ask.target,
            profile=ask.profile,
            firing_models=_number("models", ask.models),
            target_models=_number("target_models", ask.target_models),
            hits=_number("hits", ask.hits),
            cover=_number("cover", ask.cover),
            situation=facts,
            rules=_rules(ask.rule),
            units=tuple(units),
            refused=tuple((name, "; ".join(why)) for name, why in refused.items()),
        )
        try:
            return calc.library(question)
        except UnknownNameError as error:  # a unit's name: the attacker is looked up first
            if not error.kind.endswith("unit"):  # "unit", "core11 unit"
                raise
            where = "--attacker" if error.name == ask.attacker else "--target"
            raise QuestionError(str(error), where) from None
    missing = _missing(ask, calc.plain_required)
    if missing is not None:
        raise QuestionError(f"give --attacker/--weapon/--target, or the numbers: {missing}")
    return calc.plain(
        PlainQuestion(
            strength=_required("strength", ask.strength),
            ap=str(ask.ap).strip(),
            toughness=_required("toughness", ask.toughness),
            save=_save(str(ask.save)),
            wounds=_required("wounds", ask.wounds),
            target_models=_required("target_models", ask.target_models),
            attacks=ask.attacks,
            skill=_skill(ask.bs, ask.ruleset, calc.skill_is_roll),
            damage=ask.damage,
            weapon_type=ask.weapon_type,
            firing_models=1 if ask.models is None else _required("models", ask.models),
            hits=_number("hits", ask.hits),
            invulnerable=_number("invulnerable", ask.invulnerable),
            cover=_number("cover", ask.cover),
            feel_no_pain=_number("feel_no_pain", ask.feel_no_pain),
            keywords=ask.keyword,
            target_keywords=ask.target_keyword,
            situation=facts,
            rules=_rules(ask.rule),
        )
    )
