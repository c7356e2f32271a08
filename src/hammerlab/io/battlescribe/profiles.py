"""BattleScribe profiles: reading them, telling their kinds apart, mapping them.

A profile is a named table of characteristics. Two encodings exist: older
files write ``<characteristic name="WS" characteristicTypeId="…" value="4"/>``
under a profile with a ``profileTypeId``; newer ones write the value as text
and name the type (``typeName="Unit"``). Kinds are told apart by the
characteristics a profile has, not by its type name, so any game system whose
profiles carry ``WS BS S T W I A Ld Sv`` (or ``Range Strength AP Type``) maps.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from xml.etree.ElementTree import Element

from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.io.battlescribe.links import Library
from hammerlab.io.battlescribe.modifiers import Modifier, apply, modifiers_of
from hammerlab.io.battlescribe.notes import BattleNote
from hammerlab.io.battlescribe.saves import split_save

MODEL_KEYS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv")
WEAPON_KEYS = ("Range", "S", "AP", "Type")
_MODEL_ALIASES = {key.lower(): key for key in MODEL_KEYS} | {"save": "Sv"}
_WEAPON_ALIASES = {"range": "Range", "strength": "S", "s": "S", "ap": "AP", "type": "Type"}
_VEHICLE_MARKERS = ({"front", "side", "rear"}, {"hp"}, {"hull points"})


class Kind(Enum):
    """What hammerlab can do with a profile."""

    MODEL = "model"
    """Has all of ``WS BS S T W I A Ld Sv``."""
    WEAPON = "weapon"
    """Has exactly ``Range``, ``Strength``/``S``, ``AP`` and ``Type``."""
    VEHICLE = "vehicle"
    """Armour facings and hull points (``BS Front Side Rear HP Type``; Walkers
    also ``WS S I A``): read by :func:`vehicle_profile`."""
    TEXT = "text"
    """A single text characteristic (a wargear item's description)."""
    OTHER = "other"
    """Anything else (psychic powers, transport capacity...)."""


BODY_KINDS = frozenset({Kind.MODEL, Kind.VEHICLE})
"""Profiles that make a selection a model."""


@dataclass(frozen=True)
class RawProfile:
    """A profile as the file gives it, unconditional modifiers applied."""

    name: str
    type_name: str
    """The profile type's name (``Unit``, ``Weapon``), ``""`` if undeclared."""
    values: dict[str, str]
    """Characteristic name as written → value as written."""
    pending: tuple[str, ...] = ()
    """Changes not applied, one sentence each (:data:`KEPT_IN_PLAY`)."""
    written: tuple[tuple[str, str, tuple[str | None, ...]], ...] = ()
    """Where a modifier is conditional: each characteristic's name, value before any
    modifier, and the fields a modifier may name it by (for :meth:`judged`)."""
    modifiers: tuple[Modifier, ...] = ()
    """Where one is conditional: the modifiers of the profile and its link."""

    def judged(self, judge: Judge) -> RawProfile:
        """The profile with its conditional modifiers applied where ``judge`` finds
        their conditions hold, left out where they do not, and noted in
        :attr:`pending` where that is unknown."""
        if not self.modifiers:
            return self
        values, pending = _characteristics(self.name, self.written, self.modifiers, judge)
        return replace(self, values=values, pending=pending)

    @property
    def kind(self) -> Kind:
        """What hammerlab can do with this profile."""
        keys = {key.strip().lower() for key in self.values}
        if any(marker <= keys for marker in _VEHICLE_MARKERS):
            return Kind.VEHICLE
        if set(MODEL_KEYS) <= {_MODEL_ALIASES.get(key, "") for key in keys}:
            return Kind.MODEL
        if keys <= set(_WEAPON_ALIASES) and set(WEAPON_KEYS) <= {_WEAPON_ALIASES[k] for k in keys}:
            return Kind.WEAPON
        return Kind.TEXT if len(keys) == 1 else Kind.OTHER

    def describe(self) -> str:
        """``"'Psyker' (Psyker: Mastery Level 1, Disciplines Biomancy)"``."""
        shown = ", ".join(f"{key} {value}" for key, value in self.values.items() if value)
        kind = f"{self.type_name}: " if self.type_name else ""
        return f"{self.name!r} ({kind}{shown})"

    def text(self) -> str:
        """All the profile's values as one text (a wargear item's description)."""
        return " ".join(self.values.values())


@dataclass(frozen=True)
class RawRule:
    """A special rule: its name and the description text."""

    name: str
    text: str


def read_profile(profile: Element, library: Library, link: Element | None) -> RawProfile | None:
    """The profile ``profile`` reached through ``link``; ``None`` if hidden."""
    modifiers = list(modifiers_of(link, profile))
    if is_hidden(profile, link, modifiers):
        return None
    return _read(profile, library, modifiers)


def read_definition(profile: Element, library: Library) -> RawProfile:
    """A profile as defined, hidden or not (for counting a file's profiles)."""
    return _read(profile, library, list(modifiers_of(profile)))


def _read(profile: Element, library: Library, modifiers: list[Modifier]) -> RawProfile:
    name = _modified(profile.get("name", ""), ("name",), modifiers, [], _unjudged)
    type_id = profile.get("typeId") or profile.get("profileTypeId") or ""
    type_name = profile.get("typeName") or profile.get("profileTypeName") or ""
    written = tuple(map(_written, profile.iterfind("characteristics/characteristic")))
    values, pending = _characteristics(name, written, modifiers, _unjudged)
    conditional = any(modifier.conditional for modifier in modifiers)
    return RawProfile(
        name,
        type_name or library.profile_type(type_id),
        values,
        pending,
        written if conditional else (),
        tuple(modifiers) if conditional else (),
    )


def _written(characteristic: Element) -> tuple[str, str, tuple[str | None, ...]]:
    """A characteristic's name, its value as written, and the fields naming it."""
    key = characteristic.get("name", "")
    raw = characteristic.get("value")
    value = (characteristic.text or "") if raw is None else raw
    type_id = characteristic.get("typeId") or characteristic.get("characteristicTypeId")
    return key, value.strip(), (type_id, key)


def _characteristics(
    name: str,
    written: tuple[tuple[str, str, tuple[str | None, ...]], ...],
    modifiers: tuple[Modifier, ...] | list[Modifier],
    judge: Judge,
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The characteristics ``written`` after ``modifiers``, and the notes on those not
    applied."""
    pending: list[str] = []
    values = {
        key: _modified(value, fields, modifiers, pending, judge, f"{name}: {key}")
        for key, value, fields in written
    }
    return values, tuple(pending)


def read_rule(rule: Element, link: Element | None) -> RawRule | None:
    """The rule ``rule`` reached through ``link``; ``None`` if hidden."""
    modifiers = list(modifiers_of(link, rule))
    if is_hidden(rule, link, modifiers):
        return None
    name = _modified(rule.get("name", ""), ("name",), modifiers, [], _unjudged)
    description = rule.findtext("description") or ""
    return RawRule(name, " ".join(description.split()))


def is_hidden(element: Element, link: Element | None, modifiers: list[Modifier]) -> bool:
    """Whether an element starts hidden: its flag, its link's, unconditional modifiers."""
    hidden = element.get("hidden") == "true" or (link is not None and link.get("hidden") == "true")
    for modifier in modifiers:
        if modifier.field == "hidden" and modifier.kind == "set" and not modifier.conditional:
            hidden = modifier.value == "true"
    return hidden


Judge = Callable[[Modifier], "bool | str"]
"""Whether a conditional modifier's conditions hold, or why that is not known."""

KEPT_IN_PLAY = "is kept in play."
"""How the note on a modifier not applied, one that would change a characteristic,
ends: a :class:`~.notes.BattleNote`, which a battle repeats."""


def _unjudged(modifier: Modifier) -> bool | str:
    """No selections to judge a modifier's conditions by (a profile as first read)."""
    return "they are not evaluated" if modifier.conditional else True


def _modified(
    value: str,
    fields: tuple[str | None, ...],
    modifiers: tuple[Modifier, ...] | list[Modifier],
    pending: list[str],
    judge: Judge,
    label: str = "",
) -> str:
    """``value`` after the modifiers aimed at any of ``fields``, in order.

    A conditional modifier applies where ``judge`` finds its conditions hold and is
    left out where they do not; one whose conditions cannot be judged, and one that
    cannot act on the value, are described in ``pending`` instead of being applied.
    """
    for modifier in modifiers:
        if not modifier.field or modifier.field not in fields:
            continue
        verdict = judge(modifier) if modifier.conditional else True
        if verdict is False:
            continue
        change = f"the data would {modifier.kind} {modifier.value!r}"
        changed = None if isinstance(verdict, str) else apply(value, modifier)
        if isinstance(verdict, str):
            pending.append(
                BattleNote(
                    f"{label}: {change} under conditions the import cannot evaluate "
                    f"({verdict}); {value!r} {KEPT_IN_PLAY}"
                )
            )
        elif changed is None:
            pending.append(
                BattleNote(f"{label}: {change}, which cannot act on it; {value!r} {KEPT_IN_PLAY}")
            )
        else:
            value = changed
    return value


def model_profile(raw: RawProfile) -> tuple[Profile, list[str]]:
    """The engine profile of a model profile, with notes on what did not map."""
    notes = list(raw.pending)
    characteristics = {
        _MODEL_ALIASES[key.strip().lower()]: value
        for key, value in raw.values.items()
        if key.strip().lower() in _MODEL_ALIASES
    }
    written = characteristics["Sv"]
    save, invulnerable = split_save(written.replace("*", ""))
    if save is None:
        notes.append(f"{raw.name}: save {written!r} could not be read; kept as written.")
    else:
        characteristics["Sv"] = save
        if "*" in written:
            dropped = "" if invulnerable is None else f"; its {invulnerable}++ is not applied"
            notes.append(
                f"{raw.name}: save {written!r} is marked '*' (a condition stated elsewhere): "
                f"armour save {save!r} read{dropped}."
            )
            invulnerable = None
    for key, value in characteristics.items():
        if not value:
            notes.append(f"{raw.name}: characteristic {key} has no value.")
    unit_type = next(
        (value for key, value in raw.values.items() if key.strip().lower() == "unit type"), ""
    )
    if not unit_type:
        notes.append(f"{raw.name}: no Unit Type given; Infantry assumed.")
    spelt = _MONSTEROUS.sub("Monstrous", unit_type)
    if spelt != unit_type:
        notes.append(f"{raw.name}: Unit Type {unit_type!r} read as {spelt!r}.")
        unit_type = spelt
    profile = Profile(
        name=raw.name,
        characteristics=characteristics,
        unit_type=unit_type or "Infantry",
        invulnerable=invulnerable,
    )
    return profile, notes


_MONSTEROUS = re.compile(r"\bmonsterous\b", re.IGNORECASE)
"""A misspelling of Monstrous in the data (the Tyranid Dimachaeron's ``Monsterous
Creature (Leaper)``), which would otherwise be no 7th-edition unit type."""


VEHICLE_KEYS = ("BS", "Front", "Side", "Rear", "HP")
"""What every vehicle profile has (7th edition: BS, Armour Values, Hull Points)."""
WALKER_KEYS = ("WS", "S", "I", "A")
"""What a Walker's profile has besides (7th edition: "WS BS S Front Side Rear I A HP")."""
VEHICLE_BASE_MM = {"walker": 60.0, "other": 100.0}
"""Hulls are modelled as round bases: a Sentinel-sized Walker 60 mm, any other vehicle
100 mm across (about 4", a Rhino or Chimera hull's width)."""
UNPLAYABLE_VEHICLE_TYPES = ("building", "fortification")
"""Vehicle types hammerlab does not model (buildings): a vehicle of one of these types
is not playable. Flyers and Super-heavy vehicles play (``docs/rules/waffle.md``,
*Vehicles*: Zooming Flyers, Super-heavy vehicles)."""


def vehicle_types(written: str) -> str:
    """The vehicle types as one text: ``Vehicle (Tank, Heavy)`` and ``Tank, Heavy`` both
    give ``Tank, Heavy``; no type at all gives ``""`` (a plain vehicle)."""
    text = written.strip()
    match = re.fullmatch(r"vehicle\s*\((.*)\)", text, re.IGNORECASE)
    inner = match.group(1) if match else text
    if inner.strip().lower() == "vehicle":
        return ""
    return ", ".join(" ".join(t.split()) for t in inner.split(",") if t.strip())


def vehicle_profile(raw: RawProfile) -> tuple[Profile, list[str], str | None]:
    """The engine profile of a vehicle profile, notes, and why it cannot play (if so).

    The characteristics kept are :data:`VEHICLE_KEYS` (and :data:`WALKER_KEYS`
    where given); the unit type is written as a 7th-edition codex prints it,
    ``Vehicle (Tank, Heavy)``. Buildings are refused
    (:data:`UNPLAYABLE_VEHICLE_TYPES`).
    """
    notes = list(raw.pending)
    values = {key.strip(): value for key, value in raw.values.items()}
    lower = {key.lower(): value for key, value in values.items()}
    characteristics = {
        key: lower[key.lower()] for key in (*VEHICLE_KEYS, *WALKER_KEYS) if key.lower() in lower
    }
    if "HP" not in characteristics and "hull points" in lower:
        characteristics["HP"] = lower["hull points"]
    types = vehicle_types(lower.get("type", ""))
    for key in ("combat role", "pursuit", "agility"):
        if lower.get(key, "").strip() not in ("", "-", "N/A"):
            notes.append(f"{raw.name}: {key.title()} {lower[key]!r} is not used by hammerlab.")
    refused = next((t for t in UNPLAYABLE_VEHICLE_TYPES if t in types.lower()), None)
    reason = None if refused is None else f"{refused} vehicles are not modelled"
    facings = [key for key in ("Front", "Side", "Rear", "HP") if key not in characteristics]
    if facings:  # a building's single Armour Value, say
        reason = f"a vehicle or building profile without {', '.join(facings)} is not modelled"
    unit_type = f"Vehicle ({types})" if types else "Vehicle"
    return (
        Profile(name=raw.name, characteristics=characteristics, unit_type=unit_type),
        notes,
        reason,
    )


def weapon(raw: RawProfile) -> Weapon:
    """The engine weapon of a weapon profile, in the forms the Waffle Edition reads.

    Ranges in inches become numbers; Strength and Type are tidied where the
    data writes a readable value another way (``normalise_strength``,
    ``normalise_type``); a Range, Strength or AP written as modes (``8" / -``,
    ``10/8/6``) keeps its first mode (:func:`modes_of` says which were cut);
    anything else stays as written.
    """
    characteristics = {_WEAPON_ALIASES[key.strip().lower()]: v for key, v in raw.values.items()}
    for key in _MODAL_KEYS:
        characteristics[key] = characteristics[key].split("/")[0].strip()
    characteristics["Range"] = normalise_range(characteristics["Range"])
    characteristics["S"] = normalise_strength(characteristics["S"])
    characteristics["Type"] = normalise_type(characteristics["Type"])
    return Weapon(name=raw.name, characteristics=characteristics)


_MODAL_KEYS = ("Range", "S", "AP")
"""Characteristics a profile may write as several modes, ``8" / -``; a weapon
Type may not be cut at a slash (``Salvo 2/4``)."""


def modes_of(raw: RawProfile) -> list[str]:
    """The characteristics of a weapon profile written as modes (``Range '8" / -'``)."""
    return [
        f"{key} {value!r}"
        for key, value in raw.values.items()
        if _WEAPON_ALIASES.get(key.strip().lower()) in _MODAL_KEYS and "/" in value
    ]


_INCH_MARK = r"(?:\"|''|”|″|in(?:ch(?:es)?)?\.?)"
_INCHES = re.compile(rf"^(\d+(?:\.\d+)?)\s*{_INCH_MARK}?$", re.IGNORECASE)


def psychic_power(raw: RawProfile) -> Weapon | None:
    """A psychic power profile (one with a ``Warp Charge``) as the model's power,
    its characteristics as written; ``None`` for any other profile."""
    if not any(key.strip().lower() == "warp charge" for key in raw.values):
        return None
    return Weapon(name=raw.name, characteristics=dict(raw.values))


def mastery_rule(raw: RawProfile) -> str | None:
    """A Psyker profile's Mastery Level as the rule ``Psyker (Mastery Level N)``
    (7th-edition data: ``Mastery Level`` and ``Disciplines``); ``None`` otherwise."""
    level = next((v for k, v in raw.values.items() if k.strip().lower() == "mastery level"), "")
    match = re.fullmatch(r"\s*([0-9]+)\s*", level)
    return f"Psyker (Mastery Level {match.group(1)})" if match else None


_MASTERY_NAME = re.compile(r"\s*psyker\s*\(\s*mastery\s+level\s+([0-9]+)\s*\)\s*", re.IGNORECASE)


def mastery_named(selection: str, rule: str) -> str | None:
    """The rule ``Psyker (Mastery Level N)`` where a selection named so links the bare
    rule ``Psyker`` (the Tyranid catalogue gives each psyker its level this way: the
    Swarmlord's compulsory upgrade "Psyker (Mastery Level 3)" links the rule Psyker);
    ``None`` for any other selection or rule."""
    match = _MASTERY_NAME.fullmatch(selection)
    if match is None or rule.strip().lower() != "psyker":
        return None
    return f"Psyker (Mastery Level {match.group(1)})"


TRANSPORT_CAPACITY = "Transport Capacity"
"""The rule a transport's datasheet carries (``Transport Capacity (12)``), which the
Waffle Edition reads (``editions/waffle/transports.py``, ``capacity_of``)."""
_CAPACITY = re.compile(r"^\s*([0-9]+)\W*(.*?)\s*$", re.DOTALL)


def transport_capacity(raw: RawProfile) -> tuple[str, str] | None:
    """A Transport profile (``Capacity``, ``Fire Points``, ``Access Points``) as the rule
    ``Transport Capacity (N)`` and a note of what is not applied; ``None`` for any other
    profile, or one whose Capacity does not start with a number of models.

    7th-edition data writes the number first and then any restriction in words
    (``10. No Bulky, Very Bulky, or Extremely Bulky``, ``12 Models``): the number is
    read; the words, Fire Points and Access Points are not applied.
    """
    values = {key.strip().lower(): value for key, value in raw.values.items()}
    if "capacity" not in values or not {"fire points", "access points"} & set(values):
        return None
    match = _CAPACITY.match(values["capacity"])
    if match is None or int(match.group(1)) == 0:
        return None
    rule = f"{TRANSPORT_CAPACITY} ({int(match.group(1))})"
    rest = match.group(2).strip()
    rest = "" if rest.lower().rstrip(".") in ("model", "models") else rest
    unread = f"; the rest ({rest!r}) is not applied" if rest else ""
    note = (
        f"{raw.name}: Capacity {values['capacity']!r} read as the rule {rule!r}{unread}; "
        "Fire Points and Access Points are not played (no one fires from a transport, and "
        "its whole hull is an Access Point)."
    )
    return rule, note


def normalise_range(value: str) -> str:
    """``24"`` → ``24``; anything else (``Template``, ``-``, ``18"-42"``) as written."""
    match = _INCHES.match(value)
    return match.group(1) if match else value


_TIMES = re.compile(r"^(?:[x×]\s*(\d+)|(\d+)\s*[x×])$", re.IGNORECASE)
_PLUS = re.compile(r"^\+\s*(\d+)$")


def normalise_strength(value: str) -> str:
    """``2x`` or ``X2`` → ``x2``; ``+ 1`` → ``+1``; ``user`` → ``User``; others as written."""
    text = value.strip()
    times = _TIMES.match(text)
    if times:
        return f"x{times.group(1) or times.group(2)}"
    plus = _PLUS.match(text)
    if plus:
        return f"+{plus.group(1)}"
    return "User" if text.lower() == "user" else text


_SIZED_BLAST = re.compile(rf"^Blast\s*\(\s*([35])\s*{_INCH_MARK}?\s*\)$", re.IGNORECASE)
_POISONED = re.compile(r"^Poison(?:ed)?\s*\(?\s*([2-6])\s*\+\s*\)?$", re.IGNORECASE)


def normalise_type(value: str) -> str:
    """A weapon Type with its special rules written the way they are read.

    The Waffle Edition reads ``Type`` as comma-separated words: ``Blast (3")``
    becomes ``Blast`` (``Blast (5")``: ``Large Blast``), otherwise its marker
    is lost; ``Poisoned 2+`` becomes ``Poisoned (2+)``; runs of spaces become
    one; ``Twin Linked`` (or ``Twin-Linked``) becomes ``Twin-linked``.
    ``Heavy 1 , Blast`` → ``Heavy 1, Blast``.
    """
    tokens = [" ".join(token.split()) for token in value.split(",")]
    tidied = [normalise_rule(token) for token in tokens if token]
    return ", ".join(tidied) if tidied else value.strip()


_TWIN_LINKED = re.compile(r"^Twin[\s-]*linked$", re.IGNORECASE)


def normalise_rule(token: str) -> str:
    """One Type word or weapon rule as it is read: ``Twin Linked`` → ``Twin-linked``..."""
    token = " ".join(token.split())
    if _TWIN_LINKED.match(token):
        return "Twin-linked"
    blast = _SIZED_BLAST.match(token)
    if blast:
        return "Blast" if blast.group(1) == "3" else "Large Blast"
    poisoned = _POISONED.match(token)
    if poisoned:
        return f"Poisoned ({poisoned.group(1)}+)"
    return token
