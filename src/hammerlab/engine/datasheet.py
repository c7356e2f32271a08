"""Edition-neutral unit datasheets: what a unit *is*, before it is on a table.

Profiles and weapons carry their characteristics as name → value mappings,
the way the printed datasheets (and BattleScribe files) do; each edition reads
them through typed views of its own (for a 6th/7th-edition ruleset
``WS BS S T W I A Ld Sv``; for the 11th edition ``M T Sv W Ld OC``), and
validates them when a unit is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

Characteristics = Mapping[str, str]
"""Characteristic name → value as written (``"4"``, ``"3+"``, ``"User"``)."""


@dataclass(frozen=True)
class Weapon:
    """A weapon profile."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Weapon:
        """Immutable: a cloned game shares it."""
        return self

    name: str
    """The weapon's name; models with the same name fire it together."""
    characteristics: Characteristics
    """E.g. ``{"Range": "24", "S": "4", "AP": "5", "Type": "Rapid Fire"}``."""
    keywords: tuple[str, ...] = ()
    """Edition keywords and weapon abilities (``"BLAST"``, ``"Rending"``)."""
    mode_of: str = ""
    """The wargear item this profile is one firing mode of (a missile launcher's
    frag and krak missiles), or empty: profiles sharing it are one weapon whose
    mode the controller chooses, and a model fires one of them in a phase."""

    def get(self, key: str, default: str = "") -> str:
        """A characteristic as written, or ``default``."""
        return self.characteristics.get(key, default)

    def __hash__(self) -> int:
        """Hashed once (typed views of a weapon are cached by it, on every shot): later
        calls read the hash back as an attribute, the quickest way there is."""
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            items = tuple(sorted(self.characteristics.items()))
            cached = hash((self.name, items, self.keywords, self.mode_of))
            object.__setattr__(self, "_hash", cached)
            return cached


@dataclass(frozen=True)
class Profile:
    """A model's characteristics."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Profile:
        """Immutable: a cloned game shares it."""
        return self

    name: str
    characteristics: Characteristics
    """E.g. ``{"WS": "4", "BS": "4", ..., "Sv": "3"}``."""
    unit_type: str = "Infantry"
    """Unit type (Infantry, Bike, ...) or 11th-edition role."""
    invulnerable: int | None = None
    """Invulnerable save as the number before the plus, if any."""
    keywords: frozenset[str] = frozenset()
    """Keywords (11th edition) such as ``INFANTRY`` or ``MONSTER``."""

    def get(self, key: str, default: str = "") -> str:
        """A characteristic as written, or ``default``."""
        return self.characteristics.get(key, default)

    def __hash__(self) -> int:
        """Hashed once (typed views of a profile are cached by it, on every roll), read
        back as :meth:`Weapon.__hash__` reads its own."""
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            items = tuple(sorted(self.characteristics.items()))
            cached = hash((self.name, items, self.unit_type, self.invulnerable, self.keywords))
            object.__setattr__(self, "_hash", cached)
            return cached

    def number(self, key: str) -> int:
        """A characteristic as an integer (``"3+"`` → 3, ``"-"`` → 0)."""
        raw = self.characteristics.get(key, "").strip().rstrip("+").rstrip('"')
        return int(raw) if raw.lstrip("-").isdigit() else 0


@dataclass(frozen=True)
class ModelEntry:
    """A group of identical models in a datasheet."""

    def __deepcopy__(self, memo: dict[int, Any]) -> ModelEntry:
        """Immutable: a cloned game shares it."""
        return self

    profile: Profile
    count: int
    weapons: tuple[Weapon, ...]
    base_mm: float = 25.0
    """Base diameter in millimetres."""
    variable: bool = False
    """Whether a scenario's unit size changes this entry's count."""
    rules: tuple[str, ...] = ()
    """Special rules this model has on top of the unit's (e.g. a character's)."""
    powers: tuple[Weapon, ...] = ()
    """Psychic powers this model knows, each a named profile as the datasheet writes
    it (``Warp Charge``, ``Power Category``, ``Range``...); an edition reads them."""


@dataclass(frozen=True)
class Datasheet:
    """A unit as the army list describes it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Datasheet:
        """Immutable: a cloned game shares it."""
        return self

    name: str
    army: str
    edition: str
    entries: tuple[ModelEntry, ...]
    rules: tuple[str, ...] = ()
    """Special rules and abilities of the whole unit."""
    keywords: frozenset[str] = frozenset()
    source: str = "built-in"
    """Where the datasheet came from (library file, BattleScribe file...)."""
    notes: tuple[str, ...] = field(default=())
    """What could not be mapped when it was imported."""
    battle_notes: tuple[str, ...] = ()
    """The notes on what the unit cannot do as its source describes it (a weapon
    dropped, a model carrying no weapon), which a battle using it repeats among
    its warnings."""
    size_range: tuple[int, int | None] | None = None
    """The fewest and most models a scenario's ``size`` may give the unit (``None``
    for the most: no maximum), where its source sets them: a BattleScribe
    catalogue's constraints, the wh40kdc dataset's ``model_count``. ``None``: the
    source sets none (a built-in library datasheet, whose variable entry may shrink
    to nothing)."""

    @property
    def model_count(self) -> int:
        """How many models the default unit has."""
        return sum(e.count for e in self.entries)

    def most_of(self, entry: ModelEntry) -> int | None:
        """The most models ``entry`` (one of :attr:`entries`) may have in a scenario: its
        count, but for the entry a scenario's ``size`` resizes (the first variable one:
        ``analysis.battles``) as many as the unit's largest size leaves it
        (:attr:`size_range`), ``None`` where nothing bounds it (a variable entry of a
        library datasheet without a largest size, or a wargear option the source
        counts 0 of, as the wh40kdc Kill Team Infiltrator with a Deathwatch occulus
        bolt carbine: the datasheet keeps no bound of its own for it)."""
        if entry.variable and (self.size_range is None or not entry.count):
            return None
        resized = next((e for e in self.entries if e.variable), None)
        if entry is not resized:
            return entry.count
        if self.size_range is None or self.size_range[1] is None:
            return None
        return self.size_range[1] - (self.model_count - entry.count)

    def has_rule(self, name: str) -> bool:
        """Whether the unit at full strength has the rule ``name``: the unit's own, or
        any model entry's, compared as :meth:`~hammerlab.engine.units.Unit.has_rule`
        compares a unit's in play (by name, case aside)."""
        wanted = name.lower()
        return any(wanted in lowered(r) for r in (self.rules, *(e.rules for e in self.entries)))

    def weapons(self) -> tuple[Weapon, ...]:
        """Each distinct weapon of the unit, first occurrence order."""
        seen: dict[str, Weapon] = {}
        for entry in self.entries:
            for weapon in entry.weapons:
                seen.setdefault(weapon.name, weapon)
        return tuple(seen.values())


@lru_cache(maxsize=4096)
def lowered(rules: tuple[str, ...]) -> frozenset[str]:
    """``rules`` in lower case, as a rule is looked up by name; cached: the same few
    tuples of rules are asked about on every estimate."""
    return frozenset(r.lower() for r in rules)


def edition_problem(sheet: Datasheet, edition: str, user: str) -> str | None:
    """Why ``user`` (a scenario, an odds question, a command) of ``edition`` cannot use
    ``sheet``: it is written for another edition (a BattleScribe file's units are
    7th-edition datasheets); ``None`` where it is ``edition``'s."""
    if sheet.edition == edition:
        return None
    return f"{sheet.name!r} is a {sheet.edition} datasheet ({sheet.source}); {user} cannot use it"


def unknown_characteristics(
    owner: str, values: Mapping[str, str], known: Sequence[str]
) -> list[tuple[str, str]]:
    """``(key, problem)`` for each characteristic of ``values`` no edition reader reads
    (``known``: those it does, in the order it lists them). A misspelt name
    (``Strength`` for ``S``) would otherwise be dropped without a word, and the
    reader's default used in its place (a weapon read without its Strength may
    strike at the user's): ``owner`` names the profile, weapon or power."""
    return [
        (key, f"{owner}: unknown characteristic {key!r} (check the spelling: {', '.join(known)})")
        for key in values
        if key not in known
    ]
