"""Whether an imported datasheet can be played: the importer's output contract.

The importer writes Waffle Edition datasheets (``edition = "waffle"``), whose
characteristics the edition reads with ``stats_of`` and ``weapon_of``
(``editions/waffle/profiles.py``). ``io`` may not import editions
(``docs/architecture.md``), so the forms those readers accept are restated
here, and every model or weapon outside them is caught at import time instead
of failing later, in a battle:

* a model: ``WS BS S T W I A Ld`` numbers (``"3"``; not a roll: ``"3+"``), ``WS BS A``
  also ``-`` (it has none), ``Sv`` a number or ``-``; a vehicle (it has
  ``Front``): ``BS Front Side Rear HP`` numbers, a Walker's ``WS S I A`` too;
  each number within its 6th/7th-edition bounds (``io.bounds``: W 1 to 20,
  Armour Values 10 to 14, saves 2+ to 6+...); a 7th-edition unit type
  (``io.bounds.UNIT_TYPE``); a model outside these makes its unit unplayable;
* a weapon: ``Range`` inches (at most ``io.bounds.MAX_RANGE``), ``Template``,
  ``Melee`` or ``-``; ``S`` a number 1 to 10, ``User``, ``xN`` or ``+N``; ``AP``
  1 to 6 or ``-``; ``Type`` (with the weapon's keywords after it) starting with
  ``Assault|Heavy|Rapid Fire|Salvo|Pistol|Ordnance|Melee`` and its shots (``Heavy
  2``, ``Salvo 2/4``, 1 to ``io.bounds.MAX_WEAPON_SHOTS``; not dice: ``Heavy D3``)
  or with a blast, template or barrage marker; a blast marker of a size it places
  (``io.bounds.BLAST_MARKERS``: 3", 5", 7", 10"; not ``3D6" Blast`` nor an
  Apocalyptic Mega-blast); ``Poisoned (X+)`` with X 1 to 6; a
  weapon outside these is dropped from its model, with a note;
* a rule of a unit or model: a Mastery Level 1 to 5, ``Feel No Pain (X+)`` (and
  ``Reanimation Protocols (X+)``) with X 2 to 6; a unit with another makes it
  unplayable.

The bounds themselves are not restated: they are ``io.bounds``, which the
readers use too.

``tests/io/test_battlescribe_usable.py`` holds this to the real readers on the
shared catalogues, both ways: no unit they reject is called playable, and no
weapon they accept is dropped.
"""

from __future__ import annotations

import re

from hammerlab.engine.datasheet import ModelEntry, Profile, Weapon
from hammerlab.io.battlescribe.notes import BattleNote
from hammerlab.io.bounds import (
    AP,
    MAX_RANGE,
    MAX_UNIT_MODELS,
    MAX_WEAPONS_PER_MODEL,
    SAVE,
    STRENGTH,
    STRENGTH_CHANGE,
    VEHICLE_TYPE,
    blast_marker,
    characteristic_problem,
    marker_problem,
    mastery_problem,
    roll_problem,
    roll_problems,
    shots_problem,
    unit_type_problem,
)

WAFFLE = "the Waffle Edition"

_SAVE = re.compile(r"[0-9]+\s*\+*")
_NO_VALUE = frozenset({"-", ""})
_NO_RANGE = frozenset({"template", "-", "melee", ""})
_RANGE = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_STRENGTH = re.compile(r"user|u|[x×][0-9]+|\+[0-9]+|[0-9]+", re.IGNORECASE)
_KINDS = r"(?P<kind>Assault|Heavy|Rapid Fire|Salvo|Pistol|Ordnance|Melee)"
_TYPE_HEAD = re.compile(
    rf"{_KINDS}\s*(?P<shots>[0-9]+)?(?:\s*/\s*(?P<salvo>[0-9]+))?", re.IGNORECASE
)
_DIGITS = re.compile(r"[0-9]+")
_DICE_SHOTS = re.compile(rf"{_KINDS}\s*(?P<dice>[0-9]*\s*D\s*[0-9]+.*)", re.IGNORECASE)
_MARKERS = frozenset({"template", "barrage"})
"""Markers besides a blast marker (``io.bounds.blast_marker``)."""
_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld")
_NO_SKILL = ("WS", "BS", "A")
"""A model's characteristics that may be ``-`` (it has none: read as 0)."""
_GUN_NO_VALUE = ("S", "I", "Ld")
"""What an Artillery model may also write ``-`` (a gun: ``WS - BS - S - T 7 W 2 I - A -
Ld - Sv 3+``; ``profiles.GUN_NO_VALUE``)."""
_VEHICLE_STATS = ("BS", "Front", "Side", "Rear", "HP")
_WALKER_STATS = ("WS", "S", "I", "A")


def profile_problems(profile: Profile) -> list[str]:
    """The characteristics of a model (or vehicle) profile the Waffle Edition cannot read."""
    vehicle = "Front" in profile.characteristics
    stats: tuple[str, ...] = _VEHICLE_STATS if vehicle else _STATS
    if vehicle and "WS" in profile.characteristics:
        stats += _WALKER_STATS
    lacking = _NO_SKILL + (_GUN_NO_VALUE if _is_artillery(profile) else ())
    bad = [
        f"{key} {profile.get(key)!r}"
        for key in stats
        if not _DIGITS.fullmatch(profile.get(key).strip())
        and (vehicle or key not in lacking or profile.get(key).strip() != "-")
    ]
    save = profile.get("Sv").strip()
    if not vehicle and save not in _NO_VALUE and not _SAVE.fullmatch(save):
        bad.append(f"Sv {profile.get('Sv')!r}")
    if bad:
        return [f"{', '.join(bad)} {'is not a number' if len(bad) == 1 else 'are not numbers'}"]
    return _bounds_problems(profile, stats, vehicle)


def _bounds_problems(profile: Profile, stats: tuple[str, ...], vehicle: bool) -> list[str]:
    """Numbers outside their 6th/7th-edition bounds (``io.bounds``), a unit type that
    is not a 7th-edition one, a vehicle's unit type on a profile without Armour Values."""
    problems = [unit_type_problem(profile.unit_type)]
    if not vehicle and VEHICLE_TYPE.match(profile.unit_type):
        problems.append(
            f"unit type {profile.unit_type!r} is a vehicle's, but it has no Armour Values"
        )
    for key in stats:
        text = profile.get(key).strip().rstrip("+").strip()
        if _DIGITS.fullmatch(text):
            problems.append(characteristic_problem(key, int(text)))
    save = profile.get("Sv").strip().rstrip("+").strip()
    low, high = SAVE
    if not vehicle and _DIGITS.fullmatch(save) and not low <= int(save) <= high:
        problems.append(f"Sv must be {low}+ to {high}+, not {profile.get('Sv')!r}")
    return [problem for problem in problems if problem is not None]


def carried_problems(entry: ModelEntry) -> list[str]:
    """A model carrying more weapons (or psychic powers) than
    ``io.bounds.MAX_WEAPONS_PER_MODEL``: each fires in turn, so a hostile file's
    thousand bolters would be a thousand volleys."""
    return [
        f"it carries {len(carried)} {what}; a model carries at most {MAX_WEAPONS_PER_MODEL}"
        for what, carried in (("weapons", entry.weapons), ("psychic powers", entry.powers))
        if len(carried) > MAX_WEAPONS_PER_MODEL
    ]


def size_problem(entries: list[ModelEntry]) -> str | None:
    """A unit of more models than ``io.bounds.MAX_UNIT_MODELS``, which no scenario fields
    (its ``size`` cap): a hostile file's model entry selected 1,000 times."""
    models = sum(entry.count for entry in entries)
    if models <= MAX_UNIT_MODELS:
        return None
    return f"it has {models} models; a unit has at most {MAX_UNIT_MODELS}"


def rule_problems(rules: list[str]) -> list[str]:
    """Rules giving a Mastery Level outside ``io.bounds.MASTERY_LEVEL`` or a roll outside
    its bounds (``Feel No Pain (0+)``: ``io.bounds.roll_problem``), each once (the Waffle
    Edition's ``psychic_powers.mastery_problems`` and ``ruleset.datasheet_errors``
    refuse them)."""
    return [
        problem
        for rule in dict.fromkeys(rules)
        if (problem := mastery_problem(rule) or roll_problem(rule)) is not None
    ]


def _is_artillery(profile: Profile) -> bool:
    return "artillery" in profile.unit_type.lower()


def crewless_guns(profiles: list[Profile]) -> str | None:
    """Why a unit of Artillery guns only (no crew model: the catalogue shows the crew
    as a second profile the importer does not use) is refused: the 7th edition
    removes the guns when no crew is left (``artillery.uncrewed_guns``)."""
    gun = [_is_artillery(p) and p.get("S").strip() == "-" for p in profiles]
    if not profiles or not all(gun):
        return None
    return "the unit has no crew model for its Artillery guns (guns without crew are removed)"


def _tokens(weapon: Weapon) -> list[str]:
    """The weapon's Type words, then its keywords (as ``weapon_of`` reads them)."""
    tokens = [token.strip() for token in weapon.get("Type").split(",") if token.strip()]
    return tokens + list(weapon.keywords)


def _reach(weapon: Weapon) -> str:
    return weapon.get("Range", "-").strip().rstrip('"').strip().lower()


def weapon_problems(weapon: Weapon) -> list[str]:
    """Why the Waffle Edition cannot use ``weapon``; empty when it reads."""
    problems = []
    written_range = weapon.get("Range", "-")
    reach = _reach(weapon)
    if reach not in _NO_RANGE and not _RANGE.fullmatch(reach):
        problems.append(f"Range {written_range!r} is not inches, Template, Melee or '-'")
    elif _RANGE.fullmatch(reach) and not 0 < float(reach) <= MAX_RANGE:
        problems.append(f"Range {written_range!r} is not more than 0 and at most {MAX_RANGE}")
    strength = weapon.get("S", "User").strip()
    if not _STRENGTH.fullmatch(strength):
        problems.append(f"Strength {strength!r} is not a number, User, xN or +N")
    elif strength.lower() not in ("user", "u"):
        digits = strength.lstrip("xX×+")
        low, high = STRENGTH if digits == strength else STRENGTH_CHANGE
        if not low <= int(digits) <= high:
            problems.append(f"Strength {strength!r} is not {low} to {high}")
    armour_piercing = weapon.get("AP", "-").strip()
    low, high = AP
    if armour_piercing not in _NO_VALUE and not (
        _DIGITS.fullmatch(armour_piercing) and low <= int(armour_piercing) <= high
    ):
        problems.append(f"AP {armour_piercing!r} is not {low} to {high} or '-'")
    tokens = _tokens(weapon)
    head = _TYPE_HEAD.fullmatch(tokens[0]) if tokens else None
    dice = _DICE_SHOTS.fullmatch(tokens[0]) if tokens else None
    if dice is not None:
        problems.append(f"its shots {dice['dice'].strip()!r} are dice, which it does not roll")
    elif tokens and head is None and not _is_marker(tokens[0]):
        problems.append(f"weapon type {tokens[0]!r} is not one it knows")
    elif not tokens and reach not in _NO_RANGE:
        problems.append("it has no Type")
    elif head is not None:  # the second number is read of a Salvo weapon only
        salvo = head["salvo"] if head["kind"].lower() == "salvo" else None
        for written in (head["shots"], salvo):
            problem = None if written is None else shots_problem(int(written))
            if problem is not None:
                problems.append(f"Type {tokens[0]!r}: {problem}")
    problems += roll_problems(tokens)
    return problems + [p for t in tokens[1:] if (p := marker_problem(t)) is not None]


def _is_marker(token: str) -> bool:
    """Whether a Type word names a marker (``profiles.MARKERS``: a blast marker by name or
    size, a Template, a Barrage)."""
    return blast_marker(token) is not None or token.lower() in _MARKERS


def untyped_rules(weapon: Weapon) -> list[str] | None:
    """The rules of a profile with no range and no weapon type (a melta bomb's
    Range ``-``, Type ``Armourbane, Unwieldy``; Type ``-``), or None when it has a
    range, a weapon type or a marker (``Blast``); its Type words only, not its
    keywords."""
    if _reach(weapon) not in ("-", ""):
        return None
    tokens = [t for t in _tokens(weapon) if t != "-"]
    if tokens and (_TYPE_HEAD.fullmatch(tokens[0]) or _is_marker(tokens[0])):
        return None
    return [t.strip() for t in weapon.get("Type").split(",") if t.strip() not in ("", "-")]


def is_ranged(weapon: Weapon) -> bool:
    """Whether a readable weapon shoots (``weapon_of(...).is_ranged``)."""
    tokens = _tokens(weapon)
    if not tokens:
        return False  # no Type and no range: read as a Melee weapon
    head = _TYPE_HEAD.fullmatch(tokens[0])
    return head is None or head["kind"].lower() != "melee"  # a marker alone: Assault 1


NEVER_FIRES = "never fires it."
"""How the note on a ranged weapon with no range ends."""


def never_fires_note(weapon: Weapon) -> BattleNote | None:
    """A note for a readable ranged weapon with no range, which never fires (one a
    battle repeats)."""
    reach = _reach(weapon)
    template = reach == "template" or any(t.lower() == "template" for t in _tokens(weapon))
    if not is_ranged(weapon) or reach not in _NO_RANGE or template:
        return None
    return BattleNote(
        f"Weapon {weapon.name!r} is a ranged weapon ({_tokens(weapon)[0]}) with no range "
        f"({weapon.get('Range', '-')!r}): {WAFFLE} {NEVER_FIRES}"
    )
