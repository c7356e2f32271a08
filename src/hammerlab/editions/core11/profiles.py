"""Model characteristics of the 11th edition, read through a typed view."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.memo import per_decision
from hammerlab.engine.records import kept_hash
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import ProfileError

_FEEL_NO_PAIN = re.compile(r"^feel no pain ([2-6])\+$", re.IGNORECASE)


@kept_hash
@dataclass(frozen=True)
class DefenceStats:
    """What matters when a model is attacked. Its hash is kept
    (:func:`~hammerlab.engine.records.kept_hash`): a defence keys the attack profiles
    and kill odds remembered for every attack and estimate."""

    toughness: int
    save: int
    """Sv as the number before the plus."""
    wounds: int
    invulnerable: int | None = None
    """Invulnerable save against every attack."""
    ranged_invulnerable: int | None = None
    """Invulnerable save against ranged attacks only (``Inv (ranged)``)."""
    keywords: frozenset[str] = frozenset()

    @property
    def best_ranged_invulnerable(self) -> int | None:
        """The better of the two invulnerable saves against a ranged attack."""
        saves = [s for s in (self.invulnerable, self.ranged_invulnerable) if s is not None]
        return min(saves) if saves else None


PROFILE_KEYS = ("M", "T", "Sv", "W", "Ld", "OC", "Inv (ranged)")
"""A core11 profile's characteristics (:func:`defence_of` and :func:`movement_of`
read M, T, Sv, W and ``Inv (ranged)``; Ld and OC are written on every datasheet)."""


BOUNDS = {
    "M": (0, 30),
    "T": (1, 20),
    "Sv": (2, 7),
    "W": (1, 100),
    "Ld": (2, 12),
    "OC": (0, 20),
    "Inv (ranged)": (2, 6),
}
"""What each characteristic may be (``Sv 3+``: 3). The embedded 11th-edition dataset
spans M 0-20", T 1-14, Sv 2+-7+, W 1-60, Ld 5+-8+, OC 0-20 and ranged invulnerable
4+-5+; a number outside these is a typing mistake (a W of 0 played a unit that
started destroyed, and gave its kill point away, before a hostile-input review)."""


def _read(profile: Profile, key: str) -> int:
    raw = profile.get(key).strip().rstrip("+").rstrip('"')
    if not raw.isdigit():
        raise ProfileError(f"{profile.name}: {key} {profile.get(key)!r} is not a number")
    value = int(raw)
    low, high = BOUNDS[key]
    if not low <= value <= high:
        written = profile.get(key).strip()
        raise ProfileError(f"{profile.name}: {key} must be {low} to {high}, not {written}")
    return value


def check_characteristics(profile: Profile) -> None:
    """Every characteristic of :data:`PROFILE_KEYS` that ``profile`` writes is a number
    within :data:`BOUNDS` (Ld and OC included, which no estimate reads before play);
    :class:`ProfileError` names the first that is not."""
    for key in PROFILE_KEYS:
        if profile.get(key).strip():
            _read(profile, key)


@lru_cache(maxsize=4096)
def defence_of(profile: Profile) -> DefenceStats:
    """The typed view of ``profile``; :class:`ProfileError` names what is wrong (cached:
    profiles are immutable, and the same few are read on every attack and estimate)."""
    ranged = profile.get("Inv (ranged)")
    return DefenceStats(
        toughness=_read(profile, "T"),
        save=_read(profile, "Sv"),
        wounds=_read(profile, "W"),
        invulnerable=profile.invulnerable,
        ranged_invulnerable=_read(profile, "Inv (ranged)") if ranged else None,
        keywords=frozenset(k.upper() for k in profile.keywords),
    )


@lru_cache(maxsize=4096)
def movement_of(profile: Profile) -> float:
    """The M characteristic in inches (``6"``; cached as :func:`defence_of` is)."""
    return float(_read(profile, "M"))


def unit_movement(unit: Unit) -> float:
    """The M characteristic of ``unit``: the lowest of its models alive (a unit moves
    as one block in hammerlab, so its slowest model sets the pace)."""
    return min(movement_of(m.profile) for m in unit.alive_models)


def feel_no_pain(rules: Iterable[str]) -> int | None:
    """The best ``Feel No Pain N+`` among ``rules``, as N."""
    values = [int(m.group(1)) for r in rules if (m := _FEEL_NO_PAIN.match(r.strip()))]
    return min(values) if values else None


def best_feel_no_pain(*values: int | None) -> int | None:
    """The best (lowest) of several Feel No Pain values, if any."""
    given = [v for v in values if v is not None]
    return min(given) if given else None


@per_decision
def estimated_defence(unit: Unit) -> DefenceStats:
    """The defence an estimate of attacks on ``unit`` reads (the AI's worths): the
    unit's Toughness (:func:`unit_defence`) with the save and wounds of its most
    numerous kind of model alive (the first of those tied), which the attacks are
    expected to be allocated to (as the core11 AI allocates: the most common kind
    first), as ``hammerlab odds`` reads a library unit. Boyz led by a Boss Nob of
    2 wounds are nine Boys of 1 wound to a Krak grenade, whose D3 kills one.
    Worked out once per decision an AI weighs (:func:`memo.per_decision`: the lines
    of each unit weighed to this one read it, :class:`positions.Drawn`, and each fight
    weighed with it)."""
    counts: dict[int, int] = {}
    kinds: dict[int, Profile] = {}
    for model in unit.alive_models:
        counts[id(model.profile)] = counts.get(id(model.profile), 0) + 1
        kinds.setdefault(id(model.profile), model.profile)
    if not counts:
        return unit_defence(unit)
    typical = kinds[max(counts, key=lambda k: counts[k])]  # the first of those tied
    return _estimated_defence(unit_defence(unit), typical)


@lru_cache(maxsize=4096)
def _estimated_defence(defence: DefenceStats, typical: Profile) -> DefenceStats:
    """:func:`estimated_defence` of a unit of ``defence`` whose most numerous kind of
    model is ``typical`` (cached: one record for the same arguments, which key the
    estimates' own caches)."""
    stats = defence_of(typical)
    return replace(
        defence,
        save=stats.save,
        wounds=stats.wounds,
        invulnerable=stats.invulnerable,
        ranged_invulnerable=stats.ranged_invulnerable,
    )


def carried_weapons(unit: Unit) -> list[Weapon]:
    """Each weapon the models alive of ``unit`` carry, once, in the order they carry
    them. Models of one kind share one wargear tuple (as their datasheet entry makes
    it), so each tuple is gone through once: a weapon's hash is a call of its own,
    and this is asked at every eligibility and estimate."""
    wargear = {id(m.weapons): m.weapons for m in unit.alive_models}
    return list(dict.fromkeys(w for weapons in wargear.values() for w in weapons))


def unit_keywords(unit: Unit) -> frozenset[str]:
    """The keywords of ``unit``: its datasheet's and those of its models alive."""
    return _keywords(unit, unit.alive_models)


def _keywords(unit: Unit, alive: list[Model]) -> frozenset[str]:
    """:func:`unit_keywords` of ``unit`` whose models alive are ``alive``."""
    kinds = dict.fromkeys(m.profile.keywords for m in alive)
    return _upper_union(unit.datasheet.keywords, *kinds)


def model_keywords(unit: Unit, model: Model) -> frozenset[str]:
    """The keywords of ``model`` of ``unit``: its profile's and its unit's datasheet's.

    A datasheet's keywords apply to every model of the unit; a profile may add its own.
    """
    return _upper_union(unit.datasheet.keywords, model.profile.keywords)


@lru_cache(maxsize=4096)
def _upper_union(*keywords: frozenset[str]) -> frozenset[str]:
    """Every keyword of the sets ``keywords``, in upper case (cached: the same few
    frozen sets of a datasheet and its profiles are asked about on every attack)."""
    return frozenset(k.upper() for kinds in keywords for k in kinds)


BIG_KINDS = frozenset({"MONSTER", "VEHICLE"})
"""The keywords of a MONSTER/VEHICLE model."""


def is_monster_or_vehicle(model: Model, unit: Unit) -> bool:
    """Whether ``model`` of ``unit`` is a MONSTER or a VEHICLE."""
    return _big(unit.datasheet.keywords, model.profile.keywords)


@lru_cache(maxsize=4096)
def _big(unit_keywords: frozenset[str], profile_keywords: frozenset[str]) -> bool:
    """:func:`is_monster_or_vehicle` of a model of ``profile_keywords`` in a unit of
    ``unit_keywords`` (cached as :func:`_upper_union` is: asked of every model, for
    every weapon choice and every attack)."""
    return not BIG_KINDS.isdisjoint(_upper_union(unit_keywords, profile_keywords))


def unit_defence(unit: Unit) -> DefenceStats:
    """The defence of ``unit`` for a wound roll.

    The wound roll compares Strength with the target unit's Toughness; a unit
    whose models differ uses the highest (hammerlab's reading where the seed is
    silent). Saves are made by the model an attack is allocated to.
    """
    alive = unit.alive_models
    kinds = {id(m.profile): m.profile for m in alive or unit.models}  # a hash is a call
    profiles = tuple(dict.fromkeys(kinds.values()))
    return _unit_defence(profiles, _keywords(unit, alive))


@lru_cache(maxsize=4096)
def _unit_defence(profiles: tuple[Profile, ...], keywords: frozenset[str]) -> DefenceStats:
    """:func:`unit_defence` of a unit whose models have ``profiles`` (each once, the
    first model's first) and ``keywords`` (cached: a pure function of immutable
    values, asked for every target of every estimate)."""
    stats = [defence_of(p) for p in profiles]
    first = stats[0]
    return DefenceStats(
        toughness=max(s.toughness for s in stats),
        save=first.save,
        wounds=first.wounds,
        invulnerable=first.invulnerable,
        ranged_invulnerable=first.ranged_invulnerable,
        keywords=keywords,
    )
