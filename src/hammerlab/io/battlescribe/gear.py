"""What one selection carries, read for a datasheet (:mod:`.datasheets`).

A :class:`Gear` gathers what the selections of a model, or of the unit as a
whole, show: the model profiles, the weapons (each weapon's rules linked to the
profiles whose Type names them, twin-linked by the selection's name, a count its
name opens with, grenades, an AP ``0``, several firing modes, weapons the
Waffle Edition cannot use dropped), the rules and wargear, psychic powers, and a
note on each thing read in a way of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from hammerlab.engine.datasheet import Datasheet, Weapon
from hammerlab.io.battlescribe.notes import BattleNote
from hammerlab.io.battlescribe.playable import (
    WAFFLE,
    is_ranged,
    untyped_rules,
    weapon_problems,
)
from hammerlab.io.battlescribe.profiles import (
    BODY_KINDS,
    Kind,
    RawProfile,
    mastery_named,
    mastery_rule,
    modes_of,
    normalise_rule,
    psychic_power,
    transport_capacity,
    weapon,
)
from hammerlab.io.battlescribe.tree import Node, shows_body, subtree
from hammerlab.io.bounds import MAX_WEAPONS_PER_MODEL

GRENADE = "Grenade"
"""The weapon rule the importer gives each grenade: the Waffle Edition throws one
per unit per phase (``editions/waffle/firing_modes.py``; ``io`` may not import it)."""
_GRENADE = re.compile(r"\b(?:grenades?|bombs?|stikkbombs?)\b", re.IGNORECASE)

DROPPED = "dropped."
GIVEN_TO_NONE = "given to none of them."


def _dropped(weapon: str) -> str:
    """How the note on a weapon the importer dropped (one the edition cannot use)
    opens: :func:`why_dropped` finds it by this."""
    return f"Weapon {weapon!r} cannot be used by {WAFFLE}: "


def why_dropped(sheet: Datasheet, weapon: str) -> str | None:
    """Why the importer dropped ``sheet``'s weapon ``weapon`` (named in any case): its
    note (``show --from`` prints it) less the closing "dropped.", for a question
    about a weapon the unit has not got (``odds --weapon``); ``None``: none was
    dropped by that name."""
    opening = _dropped(weapon.lower()).lower()
    note = next((n for n in sheet.battle_notes if n.lower().startswith(opening)), None)
    return None if note is None else note.removesuffix(f"; {DROPPED}")


@dataclass
class Gear:
    """What a model, or the unit as a whole, carries."""

    bodies: list[RawProfile] = field(default_factory=list)
    weapons: list[tuple[Weapon, int]] = field(default_factory=list)
    """Each weapon with how many copies the selections hold in all."""
    rules: list[str] = field(default_factory=list)
    texts: list[tuple[str, str, bool]] = field(default_factory=list)
    """(name, text, is a wargear item) of rules and wargear, read for invulnerable saves."""
    notes: list[str] = field(default_factory=list)
    powers: list[Weapon] = field(default_factory=list)
    """Psychic powers (profiles with a Warp Charge), kept as written."""

    def take(self, node: Node) -> None:
        """Add what ``node`` itself shows (not its children).

        Rules on a wargear selection with weapon profiles are the weapons'
        rules (Concussive, Unwieldy...): they become the keywords of the
        weapons they belong to (:meth:`_weapon_rules`).
        """
        armed = (
            node.type not in {"unit", "model"}
            and not shows_body(node)
            and any(raw.kind is Kind.WEAPON for raw in node.profiles)
        )
        weapon_rules = iter(self._weapon_rules(node) if armed else [])
        usable: list[Weapon] = []
        for raw in node.profiles:
            kind = raw.kind
            if kind in BODY_KINDS:
                self.bodies.append(raw)
            elif kind is Kind.WEAPON:
                self.notes.extend(raw.pending)
                item = replace(weapon(raw), keywords=next(weapon_rules, ()))
                item = self._melee_grenade(item)
                item = self._no_ap_zero(item)
                if _is_grenade(item):
                    item = replace(item, keywords=(*item.keywords, GRENADE))
                if self._usable(item, raw):
                    usable.append(item)
            elif kind is Kind.TEXT:
                self.rules.append(raw.name)
                self.texts.append((raw.name, raw.text(), True))
            elif (power := psychic_power(raw)) is not None:
                self.powers.append(power)
            elif (mastery := mastery_rule(raw)) is not None:
                self.rules.append(mastery)
            elif (capacity := transport_capacity(raw)) is not None:
                self.rules.append(capacity[0])
                self.notes.append(capacity[1])
            else:
                self.notes.append(f"Profile {raw.describe()} is not used by hammerlab.")
        if armed:
            usable = self._one_mode(node.name, usable)
        copies = node.count * (self._named_count(node.name, usable) if armed else 1)
        self.weapons.extend((item, copies) for item in usable)
        if not armed:
            for rule in node.rules:
                self.rules.append(mastery_named(node.name, rule.name) or rule.name)
                self.texts.append((rule.name, rule.text, False))
        if node.type == "upgrade" and not (node.profiles or node.rules or node.children):
            self.rules.append(node.name)

    def _weapon_rules(self, node: Node) -> list[tuple[str, ...]]:
        """The rules of each weapon profile of the wargear selection ``node``, in order.

        A selection showing one weapon links that weapon's rules. One showing
        several links the rules of them all: the Ironclad's "Seismic Hammer w/
        Built-In Meltagun" links Concussive, Unwieldy and Specialist Weapon (the
        hammer's) and Melta (the meltagun's), each the definition of a rule that
        a profile's Type names. So each rule goes to the weapons whose Type names
        it; a rule no Type names goes to none, with a note, rather than to a
        weapon it may not belong to. A weapon the selection's name calls
        twin-linked is Twin-linked (:meth:`_twin_linked_by_name`). A rule the
        weapon's Type names already is not repeated among its keywords (the odds
        of a Land Raider's lascannon read "Twin-linked, Twin-linked").
        """
        items = [weapon(raw) for raw in node.profiles if raw.kind is Kind.WEAPON]
        rules = list(dict.fromkeys(normalise_rule(rule.name) for rule in node.rules))
        named = self._twin_linked_by_name(node, items, rules)
        if len(items) == 1:
            owned = [self._own_hindrances(node.name, items[0], rules)]
        else:
            owned = [
                [
                    rule
                    for rule in rules
                    if names_rule(item.get("Type"), rule) or (twin_linked and rule == TWIN_LINKED)
                ]
                for item, twin_linked in zip(items, named, strict=True)
            ]
            names = ", ".join(repr(item.name) for item in items)
            self.notes.extend(
                BattleNote(
                    f"Rule {rule!r} of {node.name!r} is named by the Type of none of its "
                    f"weapons ({names}); {GIVEN_TO_NONE}"
                )
                for rule in rules
                if not any(rule in own for own in owned)
            )
        return [
            tuple(
                rule
                for rule in dict.fromkeys([*own, *([TWIN_LINKED] if twin_linked else [])])
                if not names_rule(item.get("Type"), rule)
            )
            for item, own, twin_linked in zip(items, owned, named, strict=True)
        ]

    def _own_hindrances(self, name: str, item: Weapon, rules: list[str]) -> list[str]:
        """The rules ``rules`` the selection ``name`` links for its one weapon ``item``,
        less a rule that hinders a weapon (:data:`PROFILE_ONLY`: Unwieldy) its Type does
        not name, with a note.

        The Space Marine catalogue (line 6856 on) gives its "Force Axe", "Force Stave"
        and "Force Sword" selections the same two linked rules, Force and Unwieldy,
        while only the axe's profile names Unwieldy (Warhammer40K.gst line 11592:
        "Melee, Force, Unwieldy"; the stave's "Melee, Force, Concussive", the sword's
        "Melee, Force"): the links were copied from the axe, and 7th-edition force
        staves and swords strike at their bearer's Initiative. In the five shared
        files these two are the only one-weapon selections linking Unwieldy their
        Type does not name. The profile is the weapon's statement; a rule that only
        makes it worse is taken from there.
        """
        kept = [r for r in rules if r not in PROFILE_ONLY or names_rule(item.get("Type"), r)]
        self.notes.extend(
            f"Rule {rule!r} of {name!r} is not named by the Type of its weapon {item.name!r} "
            f"({item.get('Type')!r}); not given to it (a rule that hinders a weapon is read "
            "from its profile only)."
            for rule in rules
            if rule not in kept
        )
        return kept

    def _twin_linked_by_name(self, node: Node, items: list[Weapon], rules: list[str]) -> list[bool]:
        """Which of ``items``, the weapons the wargear selection ``node`` shows, its name
        calls twin-linked.

        The 7th-edition data writes many twin-linked weapons as a selection named
        "Twin-linked X" around the plain X profile, with no Twin-linked in its Type
        and no rule linked: the Vendetta's "Twin-linked Lascannon" and "2x
        Twin-linked Lascannons" (a Lascannon profile, ``Heavy 1``), the Warbikers'
        "Twin-linked Dakkaguns" (a Dakkagun, ``Assault 3``). A name of one part
        ("Twin-linked Missile Launcher", "2x Twin-linked Lascannons",
        "Turret-mounted Twin-linked Big Shoota") makes each ranged weapon it shows
        twin-linked; a name joining several weapons ("2x Lascannon + 2x
        Twin-linked Heavy Bolter", "PK & TL-Shoota", "Lascannon and Twin-Linked
        Plastma Gun") those whose name its twin-linked part names; and a profile
        whose own name says so is (the Dreadnought's "Dreadfire Heavy Flamer
        (Twin-linked Meltagun)", next to its plain heavy flamer). A twin-linked
        part naming none of them, nor a weapon its selections show (the "Reaper
        Chainfist w/ Twin-linked Heavy Bolter" holds a selection of its own for the
        bolter), is noted and given to none: the data does not say whose it is.
        Twin-linked is a rule of shooting (a miss re-rolled To Hit), so a melee
        weapon is never given it.
        """
        parts = _NAME_PARTS.split(node.name)
        marked = [found["rest"] for part in parts if (found := _TWIN_LINKED_NAME.search(part))]
        ranged = [is_ranged(item) for item in items]
        named = [
            shoots
            and (
                (len(parts) == 1 and bool(marked))
                or any(_names_weapon(rest, item.name) for rest in marked)
                or bool(_TWIN_LINKED_NAME.search(item.name))
            )
            for item, shoots in zip(items, ranged, strict=True)
        ]
        shown = [item.name for item, shoots in zip(items, ranged, strict=True) if shoots]
        below = [
            raw.name
            for child in subtree(node)
            for raw in child.profiles
            if child is not node and raw.kind is Kind.WEAPON
        ]
        missed = [
            rest
            for rest in marked
            if not (len(parts) == 1 and shown)
            and not any(_names_weapon(rest, name) for name in [*shown, *below])
        ]
        given = [
            item.name
            for item, twin_linked in zip(items, named, strict=True)
            if twin_linked
            and TWIN_LINKED not in rules
            and not names_rule(item.get("Type"), TWIN_LINKED)
        ]
        self.notes.extend(
            f"Weapon {name!r} of {node.name!r} is named twin-linked: given the rule "
            f"{TWIN_LINKED}, which its Type does not name."
            for name in given
        )
        self.notes.extend(
            BattleNote(
                f"{node.name!r} calls {rest!r} twin-linked, which is none of its ranged "
                f"weapons ({', '.join(repr(item.name) for item in items)}): {TWIN_LINKED} "
                f"is {GIVEN_TO_NONE}"
            )
            for rest in missed
        )
        return named

    def _named_count(self, name: str, weapons: list[Weapon]) -> int:
        """How many of each of ``weapons`` a wargear selection called ``name`` holds.

        The data names a pair of sponson weapons "Two Twin-Linked Lascannons"
        around a single Lascannon profile, selected once (a Land Raider's); the
        name is the only place it says two. A name opening with a count
        (:func:`named_count`) is read as that many of each weapon the selection
        shows, with a note.
        """
        count = named_count(name)
        if count > 1 and weapons:
            shown = ", ".join(repr(item.name) for item in weapons)
            self.notes.append(f"{name!r} is read as {count} of each weapon it shows ({shown}).")
        return count

    def _usable(self, item: Weapon, raw: RawProfile) -> bool:
        """Whether ``item`` can be handed over; a note says why not, or what was cut."""
        modes = modes_of(raw)
        if modes:
            self.notes.append(
                f"Weapon {item.name!r} is written with several modes ({', '.join(modes)}); "
                "only the first is read."
            )
        problems = weapon_problems(item)
        if problems:
            self.notes.append(BattleNote(f"{_dropped(item.name)}{'; '.join(problems)}; {DROPPED}"))
            return False
        if GRENADE in item.keywords:
            self.notes.append(
                f"Weapon {item.name!r} is a grenade: one model per unit may throw one in the "
                "Shooting phase instead of firing another weapon."
            )
        return True

    def _no_ap_zero(self, item: Weapon) -> Weapon:
        """A weapon's AP written ``0``, read as ``-`` (no AP), with a note.

        6th/7th-edition AP is 1 to 6 or ``-``: AP 0 is no value of the rules, and
        read as a number it would be better than AP1 and deny every save. The shared
        7th-edition catalogues write no AP 0 (``-`` for none); the data of later
        editions writes ``0`` for an attack that does not pierce armour, so that is
        what it is read as.
        """
        if item.get("AP").strip() != "0":
            return item
        self.notes.append(
            f"Weapon {item.name!r}: AP '0' is no 6th/7th-edition AP (1 to 6, or '-' for "
            "none); read as '-'."
        )
        return replace(item, characteristics={**item.characteristics, "AP": "-"})

    def _melee_grenade(self, item: Weapon) -> Weapon:
        """A grenade's close combat profile written without a weapon type, as Melee.

        7th-edition data writes a melta bomb ``Range -``, ``Type Armourbane,
        Unwieldy`` and some catalogues a ``Krak grenade (melee)`` with Type
        ``-``: a profile named grenade or bomb with no range and no weapon
        type is a close combat profile (the Waffle Edition strikes krak
        grenades and melta bombs at vehicles, ``editions/waffle/melee_grenades.py``),
        so its Type becomes ``Melee`` followed by its rules, with a note.
        """
        rules = untyped_rules(item)
        if rules is None or not _GRENADE.search(item.name):
            return item
        typed = ", ".join(["Melee", *rules])
        self.notes.append(
            f"Weapon {item.name!r} (Range '-', Type {item.get('Type')!r}) is read as a close "
            f"combat weapon: Type {typed!r}."
        )
        return replace(item, characteristics={**item.characteristics, "Type": typed})

    def _one_mode(self, name: str, weapons: list[Weapon]) -> list[Weapon]:
        """The firing modes of a wargear item with several ranged profiles.

        A model fires one mode of a weapon (frag or krak missile, the boltgun
        or the melta of a combi-weapon), the controller choosing which: the
        ranged profiles become modes of the item ``name`` (:attr:`Weapon.mode_of`),
        with a note. Melee profiles stay as they are (a power fist with a
        built-in storm bolter).
        """
        ranged = [item for item in weapons if is_ranged(item)]
        if len(ranged) < 2:
            return weapons
        self.notes.append(
            f"{name!r} has several firing modes ({', '.join(repr(w.name) for w in ranged)}): "
            "a model fires one of them in a phase, its controller choosing which."
        )
        return [replace(item, mode_of=name) if is_ranged(item) else item for item in weapons]


_NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "pair": 2,
}  # fmt: skip
_NAMED_COUNT = re.compile(
    r"^\s*(?:(?P<word>two|three|four|five|six|seven|eight|nine|ten)(?:\s+sets?\s+of)?"
    r"|(?P<pair>pair)\s+of|(?P<digits>\d{1,2})\s*x)\s+\S",
    re.IGNORECASE,
)


def named_count(name: str) -> int:
    """The count a selection's name opens with: ``Two Twin-Linked Lascannons`` 2,
    ``Two sets of Scything Talons`` 2, ``Pair of Killsaws`` 2, ``4x Heavy Bomb
    Clusters`` 4; 1 for any other name (``Twin Big Shoota`` is one twin-linked gun)
    and for a count above :data:`MAX_WEAPONS_PER_MODEL`, which no model carries."""
    match = _NAMED_COUNT.match(name)
    if match is None:
        return 1
    written = match.group("word") or match.group("pair")
    count = _NUMBER_WORDS[written.lower()] if written else int(match.group("digits"))
    return count if 1 < count <= MAX_WEAPONS_PER_MODEL else 1


def names_rule(weapon_type: str, rule: str) -> bool:
    """Whether a weapon Type names ``rule``, ignoring case and hyphens, its value
    aside (``Poisoned (2+)`` names Poisoned, ``Master Crafted`` Master-crafted)."""
    wanted = _rule_key(rule)
    return any(
        token == wanted or token.startswith(f"{wanted} (")
        for token in map(_rule_key, weapon_type.split(","))
    )


PROFILE_ONLY = ("Unwieldy",)
"""Weapon rules a weapon gets only from its own profile's Type, not from a rule its
selection links (:meth:`Gear._own_hindrances`): they only hinder it (Unwieldy strikes
at Initiative 1), so a link copied from another weapon would be played against it."""
TWIN_LINKED = "Twin-linked"
_NAME_PARTS = re.compile(r"\s+(?:w/|with|and|&|\+)\s+", re.IGNORECASE)
"""What joins the weapons of a selection named after several ("Reaper Chainfist w/
Twin-linked Heavy Bolter", "PK & TL-Shoota", "2x Lascannon + 2x Twin-linked Heavy Bolter")."""
_TWIN_LINKED_NAME = re.compile(r"(?:\b(?i:twin[\s-]*linked)|\bTL)[\s-]+(?P<rest>\S.*)$")
"""A name's "Twin-linked X" (or the data's abbreviation "TL-X"), X the weapon it names."""


def _names_weapon(written: str, weapon_name: str) -> bool:
    """Whether ``written`` (a weapon as a selection's name writes it: "Lascannons", "Big
    Shoota Turret") names the weapon ``weapon_name`` ("Lascannon", "Big Shoota"),
    ignoring case, hyphens and a plural ``s``, one containing the other."""
    one, other = _singular_key(written), _singular_key(weapon_name)
    return bool(one and other) and (one in other or other in one)


def _singular_key(text: str) -> str:
    return " ".join(word.removesuffix("s") for word in _rule_key(text).split())


def _rule_key(text: str) -> str:
    return " ".join(text.replace("-", " ").casefold().split())


def _is_grenade(item: Weapon) -> bool:
    """Whether ``item`` is a thrown grenade (not a grenade launcher, not a melee profile)."""
    return (
        is_ranged(item) and bool(_GRENADE.search(item.name)) and "launcher" not in item.name.lower()
    )
