"""Whether an imported datasheet can be played: the importer's output contract.

The importer writes Waffle Edition datasheets (``edition = "waffle"``), whose
characteristics the edition reads with ``stats_of`` and ``weapon_of``
(``editions/waffle/profiles.py``). ``io`` may not import editions
(``docs/architecture.md``), so the forms those readers accept are restated
here, and every model or weapon outside them gets a note instead of failing
later, in a battle:

* a model: ``WS BS S T W I A Ld`` numbers (``"3"``, ``"3+"``), ``Sv`` a
  number or ``-``;
* a weapon: ``Range`` inches, ``Template``, ``Melee`` or ``-``; ``S`` a
  number, ``User``, ``xN`` or ``+N``; ``AP`` a number or ``-``; ``Type`` (with
  the weapon's keywords after it) starting with ``Assault|Heavy|Rapid
  Fire|Salvo|Pistol|Ordnance|Melee`` and its shots (``Heavy 2``, ``Salvo
  2/4``) or with a blast, template or barrage marker.

``tests/io/test_battlescribe_usable.py`` holds this to the real readers on the
shared catalogues, both ways: no unit they reject goes without a note, and no
note flags a unit they accept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from hammerlab.engine.datasheet import ModelEntry, Profile, Weapon

WAFFLE = "the Waffle Edition"

_NUMBER = re.compile(r"[0-9]+\s*\+*")
_NO_VALUE = frozenset({"-", ""})
_NO_RANGE = frozenset({"template", "-", "melee", ""})
_RANGE = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_STRENGTH = re.compile(r"user|u|[x×][0-9]+|\+[0-9]+|[0-9]+", re.IGNORECASE)
_TYPE_HEAD = re.compile(
    r"(?P<kind>Assault|Heavy|Rapid Fire|Salvo|Pistol|Ordnance|Melee)"
    r"\s*(?:[0-9]+)?(?:\s*/\s*[0-9]+)?",
    re.IGNORECASE,
)
_MARKERS = frozenset({"blast", "large blast", "template", "barrage"})
_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld")


def unplayable_notes(entries: Iterable[ModelEntry]) -> list[str]:
    """A note for each model profile or weapon the Waffle Edition cannot read."""
    notes: list[str] = []
    for entry in entries:
        notes.extend(_profile_notes(entry.profile))
        for weapon in entry.weapons:
            notes.extend(_weapon_notes(weapon))
    return list(dict.fromkeys(notes))


def _profile_notes(profile: Profile) -> Iterator[str]:
    bad = [
        f"{key} {profile.get(key)!r}"
        for key in _STATS
        if not _NUMBER.fullmatch(profile.get(key).strip())
    ]
    save = profile.get("Sv").strip()
    if save not in _NO_VALUE and not _NUMBER.fullmatch(save):
        bad.append(f"Sv {profile.get('Sv')!r}")
    if bad:
        yield (
            f"Model {profile.name!r} cannot be played by {WAFFLE}: {', '.join(bad)} "
            f"{'is not a number' if len(bad) == 1 else 'are not numbers'}; kept as written."
        )


def _weapon_notes(weapon: Weapon) -> Iterator[str]:
    problems = []
    written_range = weapon.get("Range", "-")
    reach = written_range.strip().rstrip('"').strip().lower()
    if reach not in _NO_RANGE and not _RANGE.fullmatch(reach):
        problems.append(f"Range {written_range!r} is not inches, Template, Melee or '-'")
    strength = weapon.get("S", "User").strip()
    if not _STRENGTH.fullmatch(strength):
        problems.append(f"Strength {strength!r} is not a number, User, xN or +N")
    armour_piercing = weapon.get("AP", "-").strip()
    if armour_piercing not in _NO_VALUE and not armour_piercing.isdigit():
        problems.append(f"AP {armour_piercing!r} is not a number or '-'")
    tokens = [token.strip() for token in weapon.get("Type").split(",") if token.strip()]
    tokens += weapon.keywords
    head = _TYPE_HEAD.fullmatch(tokens[0]) if tokens else None
    if tokens and head is None and tokens[0].lower() not in _MARKERS:
        problems.append(f"weapon type {tokens[0]!r} is not one it knows")
    elif not tokens and reach not in _NO_RANGE:
        problems.append("it has no Type")
    if problems:
        yield (
            f"Weapon {weapon.name!r} cannot be used by {WAFFLE}: {'; '.join(problems)}; "
            "kept as written."
        )
        return
    if not tokens:
        return  # no Type and no range: read as a Melee weapon
    kind = head["kind"].lower() if head else "assault"  # a marker alone: Assault 1
    template = reach == "template" or any(token.lower() == "template" for token in tokens)
    if reach in _NO_RANGE and kind != "melee" and not template:
        yield (
            f"Weapon {weapon.name!r} is a ranged weapon ({tokens[0]}) with no range "
            f"({written_range!r}): {WAFFLE} never fires it."
        )
