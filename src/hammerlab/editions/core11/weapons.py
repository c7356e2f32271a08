"""Weapon profiles of the 11th edition, read through a typed view.

A datasheet weapon carries ``Range A BS S AP D`` as written and its weapon
abilities as keywords in datasheet spelling (``RAPID FIRE 1``, ``ANTI-INFANTRY
4+``). :func:`read_weapon` turns that into a :class:`WeaponProfile`; a keyword
hammerlab does not implement is kept in :attr:`WeaponProfile.unknown` so that
it is reported, never silently ignored.

A keyword may be limited to some targets, as the dataset writes it:
``SUSTAINED HITS 2 (only vs MONSTER/VEHICLE)``, ``LETHAL HITS (not vs
MONSTER/VEHICLE)``; ``TARGETS MONSTER/VEHICLE ONLY`` limits what the weapon
may target at all. ``A/B`` means "A or B".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache

from hammerlab.editions.core11.dice_expr import DiceExpr, DiceExpressionError
from hammerlab.engine.datasheet import Weapon
from hammerlab.errors import HammerlabError

FLAGS: dict[str, str] = {
    "ASSAULT": "may be fired in Assault shooting (10.05)",
    "HEAVY": '+1 to hit if the unit is unengaged, was not set up and moved no more than 3"',
    "CLOSE-QUARTERS": "may be fired in Close-quarters shooting (10.06)",
    "TORRENT": "hits automatically: no hit roll",
    "LETHAL HITS": "the attacker can choose that a critical hit wounds automatically",
    "DEVASTATING WOUNDS": (
        "a critical wound inflicts mortal wounds equal to D instead (no save), after the"
        " normal damage, on one model at most"
    ),
    "TWIN-LINKED": "the attacker can re-roll the wound roll",
    "IGNORES COVER": "the target never has the benefit of cover",
    "PRECISION": "the attacker may allocate the attack to a CHARACTER model",
    "HAZARDOUS": "after shooting, a hazard roll (D6; 1-2: mortal wounds) per weapon fired",
    "LANCE": "+1 to wound if the bearer charged this turn",
    "INDIRECT FIRE": "may target units not visible in Indirect shooting (10.07)",
    "ONE SHOT": "each bearer fires it once per battle",
    "PSYCHIC": "the attacker can ignore modifiers to its BS and to the hit roll",
    "EXTRA ATTACKS": "a melee weapon used in addition to the one the model selects",
}
"""Keywords without a value, and what hammerlab does with each."""

VALUED: dict[str, str] = {
    "RAPID FIRE": "+X attacks against a target within half range",
    "SUSTAINED HITS": "a critical hit scores X additional hits",
    "MELTA": "+X damage against a target within half range",
    "BLAST": "+1 (or +X) attacks per five models in the target unit; never an engaged target",
}
"""Keywords with a value X (a number or dice); ``BLAST`` may have none (X = 1)."""

ALIASES = {"PISTOL": "CLOSE-QUARTERS"}
"""10th-edition names still found in the dataset, read as their 11th-edition rule."""

_CONDITION = re.compile(r"\s*\((ONLY|NOT) VS ([^)]+)\)\s*$")
_ANTI = re.compile(r"^ANTI-(.+?)\s+([2-6])\+$")
_TARGETS = re.compile(r"^TARGETS\s+(NOT\s+)?(.+?)(\s+ONLY)?$")
_VALUED = re.compile(r"^(" + "|".join(VALUED) + r")(?:\s+(\S+))?$")


class WeaponError(HammerlabError, ValueError):
    """A weapon whose characteristics core11 cannot read."""


def _kinds(text: str) -> frozenset[str]:
    return frozenset(k.strip() for k in text.split("/") if k.strip())


@dataclass(frozen=True)
class WeaponKeyword:
    """One parsed weapon keyword."""

    name: str
    """Canonical name: ``SUSTAINED HITS``, ``ANTI``, ``TARGETS``..."""
    text: str
    """As written on the datasheet."""
    value: DiceExpr | None = None
    """X of ``RAPID FIRE X``, ``SUSTAINED HITS X``, ``MELTA X``, ``BLAST X`` (1 for a bare
    ``BLAST``: "add one additional attack dice for every five models")."""
    threshold: int | None = None
    """Y of ``ANTI-K Y+``."""
    kinds: frozenset[str] = frozenset()
    """K of ``ANTI-K`` / ``TARGETS K ONLY`` (any of them)."""
    only_vs: frozenset[str] = frozenset()
    """The keyword works only against units with one of these keywords."""
    not_vs: frozenset[str] = frozenset()
    """The keyword does not work against units with any of these keywords."""
    excludes: bool = False
    """For ``TARGETS NOT K``: the kinds are the ones it may not target."""

    def active_against(self, target_keywords: Iterable[str]) -> bool:
        """Whether the keyword works against a unit with ``target_keywords``."""
        have = {k.upper() for k in target_keywords}
        if self.only_vs and not self.only_vs & have:
            return False
        return not self.not_vs & have

    def matches(self, target_keywords: Iterable[str]) -> bool:
        """For ``ANTI``/``TARGETS``: whether the target has one of :attr:`kinds`."""
        return bool(self.kinds & {k.upper() for k in target_keywords})


def parse_keyword(text: str) -> WeaponKeyword | None:
    """The keyword ``text`` means, or ``None`` if hammerlab does not implement it.

    >>> parse_keyword("Sustained Hits 2 (only vs MONSTER/VEHICLE)").only_vs
    frozenset({'MONSTER', 'VEHICLE'})
    """
    body = " ".join(text.upper().split())
    only: frozenset[str] = frozenset()
    never: frozenset[str] = frozenset()
    while match := _CONDITION.search(body):
        if match.group(1) == "ONLY":
            only = only | _kinds(match.group(2))
        else:
            never = never | _kinds(match.group(2))
        body = body[: match.start()]
    body = ALIASES.get(body, body)
    written = " ".join(text.split())
    if body in FLAGS:
        return WeaponKeyword(body, written, only_vs=only, not_vs=never)
    if match := _ANTI.match(body):
        return WeaponKeyword(
            "ANTI",
            written,
            threshold=int(match.group(2)),
            kinds=_kinds(match.group(1)),
            only_vs=only,
            not_vs=never,
        )
    if match := _TARGETS.match(body):
        excludes = bool(match.group(1))
        if excludes == bool(match.group(3)):
            return None
        return WeaponKeyword("TARGETS", written, kinds=_kinds(match.group(2)), excludes=excludes)
    if match := _VALUED.match(body):
        name, raw = match.group(1), match.group(2)
        if raw is None and name != "BLAST":
            return None
        try:
            value = DiceExpr.parse(raw if raw is not None else "1")
        except DiceExpressionError:
            return None
        return WeaponKeyword(name, written, value=value, only_vs=only, not_vs=never)
    return None


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon profile as core11 uses it."""

    name: str
    group: str
    """The weapon this is a profile of (a model fires one profile of a weapon)."""
    melee: bool
    range: float
    """Range in inches (0 for melee)."""
    attacks: DiceExpr
    skill: int | None
    """BS (or WS) as the number before the plus; ``None`` for ``N/A``."""
    strength: int
    ap: int
    """AP as written: 0 or negative."""
    damage: DiceExpr
    keywords: tuple[WeaponKeyword, ...]
    unknown: tuple[str, ...]
    """Keywords hammerlab does not implement (reported, never ignored silently)."""

    def __hash__(self) -> int:
        """Hashed once: the exact odds and attack profiles are cached by it, asked
        on every estimate and every attack."""
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    @cached_property
    def keyword_names(self) -> frozenset[str]:
        """The canonical names of :attr:`keywords` (worked out once: asked on every
        attack, of every weapon, for each keyword the rules look for)."""
        return frozenset(k.name for k in self.keywords)

    def has(self, name: str) -> bool:
        """Whether the profile has the keyword ``name`` (any target condition)."""
        return name in self.keyword_names

    def against(self, name: str, target_keywords: Iterable[str]) -> WeaponKeyword | None:
        """Keyword ``name`` if the profile has it and it works against the target."""
        if name not in self.keyword_names:
            return None
        kinds = frozenset(target_keywords)
        return next((k for k in self.keywords if k.name == name and k.active_against(kinds)), None)

    def may_target(self, target_keywords: Iterable[str]) -> bool:
        """Whether ``TARGETS ...`` restrictions allow a unit with ``target_keywords``."""
        kinds = frozenset(target_keywords)
        for rule in self.keywords:
            if rule.name == "TARGETS" and rule.matches(kinds) == rule.excludes:
                return False
        return True


WEAPON_KEYS = ("Range", "A", "BS", "WS", "S", "AP", "D", "Weapon")
"""The characteristics :func:`read_weapon` reads (``Weapon``: the item a profile is a
mode of)."""


WEAPON_BOUNDS = {"Range": (1, 240), "BS": (2, 6), "WS": (2, 6), "S": (1, 30), "AP": (-6, 6)}
"""What each number of a weapon may be (AP written ``-2`` or ``2``: both are -2). The
embedded dataset spans Range 3-240", BS and WS 2+-5+, S 1-26 and AP 0 to -6."""


def _number(weapon: Weapon, key: str) -> int:
    raw = weapon.get(key).strip().rstrip("+").rstrip('"')
    try:
        value = int(raw)
    except ValueError:
        problem = f"weapon {weapon.name!r}: {key} {weapon.get(key)!r} is not a number"
        raise WeaponError(problem) from None
    low, high = WEAPON_BOUNDS[key]
    if not low <= value <= high:
        written = weapon.get(key).strip()
        raise WeaponError(f"weapon {weapon.name!r}: {key} must be {low} to {high}, not {written}")
    return value


def _dice(weapon: Weapon, key: str) -> DiceExpr:
    """A dice expression of at least 1 (an A or D of 0 makes no attack, or no damage)."""
    try:
        expression = DiceExpr.parse(weapon.get(key))
    except DiceExpressionError as error:
        raise WeaponError(f"weapon {weapon.name!r}: {key}: {error}") from None
    if expression.low < 1:
        raise WeaponError(f"weapon {weapon.name!r}: {key} must be at least 1, not {expression}")
    return expression


@lru_cache(maxsize=4096)
def read_weapon(weapon: Weapon) -> WeaponProfile:
    """The typed view of ``weapon``; :class:`WeaponError` names what is wrong (cached:
    weapons are immutable, and the same few are read on every attack)."""
    reach = weapon.get("Range").strip()
    melee = reach.lower() == "melee"
    skill_key = "WS" if melee else "BS"
    skill_text = weapon.get(skill_key).strip().upper()
    known: list[WeaponKeyword] = []
    unknown: list[str] = []
    for text in weapon.keywords:
        parsed = parse_keyword(text)
        if parsed is None:
            unknown.append(text)
        else:
            known.append(parsed)
    ap = _number(weapon, "AP")
    return WeaponProfile(
        name=weapon.name,
        group=weapon.get("Weapon") or weapon.name,
        melee=melee,
        range=0.0 if melee else float(_number(weapon, "Range")),
        attacks=_dice(weapon, "A"),
        skill=None if skill_text in ("N/A", "-", "") else _number(weapon, skill_key),
        strength=_number(weapon, "S"),
        ap=-abs(ap),
        damage=_dice(weapon, "D"),
        keywords=tuple(known),
        unknown=tuple(unknown),
    )


def weapon_problems(weapon: Weapon) -> list[str]:
    """What stops core11 from using ``weapon`` exactly as written."""
    try:
        profile = read_weapon(weapon)
    except WeaponError as error:
        return [str(error)]
    problems = [f"weapon {weapon.name}: keyword not implemented: {k}" for k in profile.unknown]
    if not profile.melee and profile.skill is None and not profile.has("TORRENT"):
        problems.append(f"weapon {weapon.name}: no BS and not [TORRENT]: it cannot hit")
    return problems
