"""The bounds of a 6th/7th-edition datasheet's numbers, and the caps on a battle's work.

One table, read by everything that accepts a Waffle Edition datasheet, so that
a scenario's inline unit, a library file, a BattleScribe import and an odds
question accept the same values:

* the Waffle Edition's readers (``editions/waffle/profiles.py``: ``stats_of``,
  ``weapon_of``; ``psychic_powers.power_of``), which a scenario's units go
  through when it loads (``analysis/battles.py``);
* the BattleScribe importer's playable check (``io/battlescribe/playable.py``),
  which drops a weapon or refuses a unit outside them at import time;
* the Waffle odds (``analysis/odds_waffle.py``), whose caps on a question are
  made of these (:data:`MAX_WEAPON_SHOTS` shots a model, :data:`MAX_WOUNDS`).

``io`` may not import ``editions`` (``docs/architecture.md``), so the table
lives here. The ranges are those of the 6th/7th-edition books: characteristics
1 to 10 (WS, BS and A may be 0: a model without them), saves 2+ to 6+, AP 1 to
6, Armour Values 10 to 14. The caps bound what multiplies a battle's work (the
dice a weapon rolls each time it fires, the attacks of a model, the dice of a
power, the weapons a model carries) far above anything printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hammerlab.engine.geometry import (
    APOCALYPTIC_BLAST_DIAMETER,
    BLAST_DIAMETER,
    LARGE_BLAST_DIAMETER,
    MASSIVE_BLAST_DIAMETER,
)

MAX_WOUNDS = 20
"""The most Wounds a model may have (the odds' cap on W too; a Hierophant Bio-titan
has 10)."""
MAX_HULL_POINTS = 30
"""The most Hull Points a vehicle may have (a Warlord Titan's in the shared catalogues)."""

CHARACTERISTICS: dict[str, tuple[int, int]] = {
    "WS": (0, 10),
    "BS": (0, 10),
    "S": (1, 10),
    "T": (1, 10),
    "W": (1, MAX_WOUNDS),
    "I": (1, 10),
    "A": (0, 10),
    "Ld": (1, 10),
    "Front": (10, 14),
    "Side": (10, 14),
    "Rear": (10, 14),
    "HP": (1, MAX_HULL_POINTS),
}
"""Each characteristic of a model or vehicle profile: its lowest and highest value.
WS, BS and A may be 0 (or ``-``: a Genestealer's BS 0, a vehicle without WS), an
Artillery gun's S, I and Ld ``-`` (read as 0, outside these bounds)."""

SAVE = (2, 6)
"""An armour save, 2+ to 6+ (or ``-``: none)."""
AP = (1, 6)
"""A weapon's AP, 1 to 6 (or ``-``: none). AP 0 is no 6th/7th-edition value."""
STRENGTH = (1, 10)
"""A weapon's Strength when it is a number (or ``User``)."""
STRENGTH_CHANGE = (1, 10)
"""The N of a weapon's Strength written ``xN`` or ``+N`` (the result is at most 10)."""
POISONED = (1, 6)
"""The X of ``Poisoned (X+)``. A To Wound roll of 1 always fails, so 1+ wounds as 2+."""
FEEL_NO_PAIN = (2, 6)
"""The X of ``Feel No Pain (X+)`` and ``Reanimation Protocols (X+)``: the D6 that
discounts an unsaved Wound (7th edition: "the number in brackets is the D6 result
needed"). No roll of 1 fails it, so a 1+ (or 0+) would discount every Wound, and
a 7+ none."""
MASTERY_LEVEL = (1, 5)
"""A Psyker's Mastery Level (``Psyker (Mastery Level N)``; the shared catalogues' highest
is 3): each level adds a die to its player's Warp Charge pool, and the pool's size is
the number of choices of every manifesting and denying decision."""

MAX_WEAPON_SHOTS = 50
"""The most shots a weapon fires for one model (``Heavy 50``; the highest printed in
the shared catalogues is 20): every shot is a die rolled To Hit, each time it fires."""
MAX_RANGE = 1_000
"""The longest weapon or power range, in inches (no table is wider than 240")."""
MAX_HIT_DICE = 20
"""The most dice of a power's hits (a Beam or Nova ``Assault 2D6``)."""
MAX_UNIT_MODELS = 200
"""The most models of one unit: a scenario's ``size`` (``docs/scenarios.md``, *Caps*), and
so an imported unit's (a unit of more cannot be fielded, its movement and wound
allocation growing with every model; the shared catalogues' largest is 30)."""
MAX_WEAPONS_PER_MODEL = 20
"""The most weapons (and psychic powers) one model may carry (the shared catalogues'
highest is 11): each fires in turn."""


def within(key: str, value: int, bounds: tuple[int, int]) -> str | None:
    """``None`` when ``low <= value <= high``; otherwise what is wrong, naming ``key``."""
    low, high = bounds
    if low <= value <= high:
        return None
    return f"{key} must be {low} to {high}, not {value}"


def characteristic_problem(key: str, value: int) -> str | None:
    """What is wrong with characteristic ``key`` read as ``value`` (:data:`CHARACTERISTICS`)."""
    bounds = CHARACTERISTICS.get(key)
    return None if bounds is None else within(key, value, bounds)


ROLL_RULE = re.compile(r"(?P<name>[^(]*?)\s*\(\s*(?P<value>[0-9]+)\s*\+?\s*\)")
"""A rule with the D6 it needs written in brackets: ``Poisoned (4+)``, ``Feel No Pain (6+)``."""
ROLL_RULES: dict[str, tuple[str, tuple[int, int]]] = {
    "poisoned": ("Poisoned wounds on", POISONED),
    "feel no pain": ("Feel No Pain discounts a Wound on", FEEL_NO_PAIN),
    "reanimation protocols": ("Reanimation Protocols discounts a Wound on", FEEL_NO_PAIN),
}
"""The rules whose ``(X+)`` is a D6 roll: rule (lower case) → (what the roll does, the
bounds of X)."""


def roll_problem(rule: str) -> str | None:
    """What is wrong with the ``(X+)`` of ``rule`` when it is one of :data:`ROLL_RULES`
    and X is outside its bounds (``Poisoned (0+)``, ``Feel No Pain (7+)``, which would
    otherwise be read as a roll that always or never succeeds, or as no value); ``None``
    for any other rule or a good value."""
    match = ROLL_RULE.fullmatch(rule.strip())
    entry = None if match is None else ROLL_RULES.get(match["name"].strip().lower())
    if match is None or entry is None:
        return None
    does, (low, high) = entry
    written = match["value"]
    if len(written) <= 2 and low <= int(written) <= high:  # no int() of 5,000 digits
        return None
    return f"{rule!r}: {does} {low}+ to {high}+"


def roll_problems(rules: Iterable[str]) -> list[str]:
    """What :func:`roll_problem` finds wrong with each of ``rules``."""
    return [problem for rule in rules if (problem := roll_problem(rule)) is not None]


def shots_problem(shots: int) -> str | None:
    """What is wrong with a weapon's shots for one model (1 to :data:`MAX_WEAPON_SHOTS`)."""
    if 1 <= shots <= MAX_WEAPON_SHOTS:
        return None
    return f"{shots} shots; a weapon fires 1 to {MAX_WEAPON_SHOTS} shots a model"


UNIT_TYPE = re.compile(
    r"^\s*(?:(?:flying|jump|jet\s*pack)\s+)?"
    r"(?:infantry|bikes?|jetbikes?|monstrous\s+creatures?|gargantuan\s+creatures?"
    r"|beasts?|cavalry|artillery|vehicles?)(?![a-z])",
    re.IGNORECASE,
)
"""A 7th-edition unit type, as the head of a profile's unit type (``Infantry
(Character)``, ``Jump Infantry``, ``Flying Monstrous Creature``, ``Vehicle (Tank,
Transport)``, ``Artillery (Immobile)``...); what follows it is free."""
VEHICLE_TYPE = re.compile(r"^\s*vehicles?(?![a-z])", re.IGNORECASE)
"""A unit type that makes a model a vehicle: its profile must have Armour Values."""


def unit_type_problem(unit_type: str) -> str | None:
    """Why ``unit_type`` is not a 7th-edition unit type (``None`` when it is)."""
    if UNIT_TYPE.match(unit_type):
        return None
    return (
        f"unit type {unit_type!r} is not one of Infantry, Jump Infantry, Jet Pack Infantry, "
        "Bike, Jetbike, Monstrous Creature, Flying Monstrous Creature, Gargantuan Creature, "
        "Beast, Cavalry, Artillery or Vehicle"
    )


MASTERY = re.compile(r"mastery level\s*(\d+)", re.IGNORECASE)
"""A rule's Mastery Level (``Psyker (Mastery Level 2)``)."""


def mastery_problem(rule: str) -> str | None:
    """What is wrong with the Mastery Level ``rule`` gives, if it is outside
    :data:`MASTERY_LEVEL` (each level is a die of its player's Warp Charge pool, and
    the pool's size the number of choices of each decision that spends it); ``None``
    for a rule that gives none or a good one."""
    level = MASTERY.search(rule)
    low, high = MASTERY_LEVEL
    if level is None or low <= int(level[1]) <= high:
        return None
    return f"{rule!r}: a Mastery Level is {low} to {high}"


BLAST_MARKERS: dict[str, float] = {
    "Blast": BLAST_DIAMETER,
    "Large Blast": LARGE_BLAST_DIAMETER,
    "Massive Blast": MASSIVE_BLAST_DIAMETER,
    "Apocalyptic Blast": APOCALYPTIC_BLAST_DIAMETER,
}
"""The blast markers a weapon's Type may name, and their diameters in inches
(``engine.geometry``). The shared data writes them by name or by size: ``3" Blast``,
``5" Blast``, ``7" Blast`` (the Macharius battle cannon) for the Massive Blast the
Warhound's ``Ordnance 2, Primary Weapon, Massive Blast`` names, ``10" Apocalyptic
Blast``; the game system's Destroyer rule: "uses a blast marker of some type (e.g.
blast, large blast, massive blast, etc)"."""
_MARKER_SIZE = re.compile(
    r'(?P<size>[0-9]+)\s*"\s*(?P<name>(?:[a-z]+\s+)?blast)|(?P<named>[a-z ]*blast)\s*'
    r'\(\s*(?P<within>[0-9]+)\s*"?\s*\)',
    re.IGNORECASE,
)
_BLAST_WORD = re.compile(r"\bblast\b", re.IGNORECASE)


def blast_marker(token: str) -> str | None:
    """The blast marker (a name of :data:`BLAST_MARKERS`) a weapon's Type word names,
    or None: ``Large Blast`` and ``5" Blast`` name the Large Blast, ``10" Apocalyptic
    Blast`` and ``Apocalyptic Blast (10")`` the Apocalyptic Blast; a size and a name
    that disagree (``5" Massive Blast``) name none."""
    text = " ".join(token.split())
    by_name = {name.lower(): name for name in BLAST_MARKERS}
    sized = _MARKER_SIZE.fullmatch(text)
    if sized is None:
        return by_name.get(text.lower())
    size = float(sized["size"] or sized["within"])
    named = (sized["name"] or sized["named"]).strip().lower()
    marker = next((name for name, inches in BLAST_MARKERS.items() if inches == size), None)
    if marker is None or named not in ("blast", marker.lower()):
        return None
    return marker


def marker_problem(token: str) -> str | None:
    """Why a weapon's Type word that speaks of a blast marker names none of
    :data:`BLAST_MARKERS` (``3D6" Blast``, ``Apocalyptic Mega-blast``, ``5" Blast (No
    scatter)``): the weapon cannot be placed, so it cannot be used. None for a word
    that names one, or speaks of no blast."""
    if blast_marker(token) is not None or _BLAST_WORD.search(token) is None:
        return None
    sizes = ", ".join(f'{name} ({inches:g}")' for name, inches in BLAST_MARKERS.items())
    return f"{token!r} is no blast marker it places ({sizes})"
