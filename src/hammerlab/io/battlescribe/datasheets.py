"""Turning a unit's selection tree into an engine :class:`Datasheet`.

The mapping, in short (``docs/importers.md`` has the reasons):

* a *model* is a selection of type ``model`` or one showing a model (or
  vehicle) profile; the unit itself is the model when it shows the profile and
  holds no model selections;
* a model's profile is the first model profile on it or on its wargear; its
  weapons are the weapon profiles on it and its wargear, shared out over its
  copies as the counts say (models with different loadouts become separate
  entries); wargear with a descriptive profile, or without any profile, and the
  rules it carries become the model's rules;
* weapons selected for the unit as a whole (not under a model) go to every
  model; the unit's rules and wargear become the datasheet's rules;
* invulnerable saves come from ``"3+/4++"`` saves and unconditional rule or
  wargear text;
* psychic power profiles (those with a ``Warp Charge``) become the model's
  powers, kept as written (the edition says which it plays), and a Psyker
  profile's Mastery Level the rule ``Psyker (Mastery Level N)``;
* a vehicle profile (``BS Front Side Rear HP Type``, Walkers ``WS S I A`` too)
  becomes a model of unit type ``Vehicle (Tank, ...)`` on a vehicle-sized base;
  buildings are not playable; a unit holding both vehicles and other models
  becomes two datasheets (:func:`split_vehicles`);
* everything else (conditional modifiers,
  unresolved links...) becomes a note, and so does each model or weapon whose
  characteristics the Waffle Edition cannot read (:mod:`.playable`), kept as
  written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.io.battlescribe.notes import BattleNote, battle_notes
from hammerlab.io.battlescribe.playable import (
    WAFFLE,
    carried_problems,
    crewless_guns,
    is_ranged,
    never_fires_note,
    profile_problems,
    rule_problems,
    size_problem,
    untyped_rules,
    weapon_problems,
)
from hammerlab.io.battlescribe.profiles import (
    BODY_KINDS,
    TRANSPORT_CAPACITY,
    VEHICLE_BASE_MM,
    Kind,
    RawProfile,
    mastery_named,
    mastery_rule,
    model_profile,
    modes_of,
    normalise_rule,
    psychic_power,
    transport_capacity,
    vehicle_profile,
    weapon,
)
from hammerlab.io.battlescribe.saves import invulnerable_in_text
from hammerlab.io.battlescribe.tree import Node, shows_body
from hammerlab.io.bounds import MAX_WEAPONS_PER_MODEL

NO_MODELS = "it has no models"
"""The reason a unit without any model (a formation, an upgrade) is not playable."""
FORMATION = "it is a formation"
"""How the reason opens why a formation holding models of its own is not playable
(:func:`_formation_reason`)."""

GRENADE = "Grenade"
"""The weapon rule the importer gives each grenade: the Waffle Edition throws one
per unit per phase (``editions/waffle/firing_modes.py``; ``io`` may not import it)."""
_GRENADE = re.compile(r"\b(?:grenades?|bombs?|stikkbombs?)\b", re.IGNORECASE)

DROPPED = "dropped."
NO_WEAPON = (
    "carries no weapon: none is selected (a catalogue gives a unit its default wargear "
    "only; a BattleScribe roster, .ros or .rosz, gives what a player chose)."
)
GIVEN_TO_NONE = "given to none of them."


@dataclass(frozen=True)
class Built:
    """A datasheet and why it cannot be played (empty when it can)."""

    datasheet: Datasheet
    reasons: tuple[str, ...]


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
class _Gear:
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
                    if _names_rule(item.get("Type"), rule) or (twin_linked and rule == TWIN_LINKED)
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
                if not _names_rule(item.get("Type"), rule)
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
        kept = [r for r in rules if r not in PROFILE_ONLY or _names_rule(item.get("Type"), r)]
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
            for child in _subtree(node)
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
            and not _names_rule(item.get("Type"), TWIN_LINKED)
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


def _names_rule(weapon_type: str, rule: str) -> bool:
    """Whether a weapon Type names ``rule``, ignoring case and hyphens, its value
    aside (``Poisoned (2+)`` names Poisoned, ``Master Crafted`` Master-crafted)."""
    wanted = _rule_key(rule)
    return any(
        token == wanted or token.startswith(f"{wanted} (")
        for token in map(_rule_key, weapon_type.split(","))
    )


PROFILE_ONLY = ("Unwieldy",)
"""Weapon rules a weapon gets only from its own profile's Type, not from a rule its
selection links (:meth:`_Gear._own_hindrances`): they only hinder it (Unwieldy strikes
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


def build_datasheet(
    unit: Node, name: str, army: str, source: str, note: str | None = None
) -> tuple[Built, ...]:
    """The datasheet of the unit whose selections are ``unit``, and why it cannot play;
    two datasheets when it holds both vehicles and other models (:func:`split_vehicles`).

    ``note`` is a first note from the caller (why the unit was renamed).
    """
    models, outer = _split_models(unit)
    unit_gear = _Gear()
    notes: list[str] = [note] if note else []
    reasons: list[str] = []
    for node in outer:
        unit_gear.take(node)
        notes.extend(node.notes)
    notes.extend(
        f"Includes unit {node.name!r} (x{node.count}), imported as a datasheet of its own."
        for node in _nested_units(unit)
    )
    bodiless = [model for model in models if not any(map(shows_body, _subtree(model)))]
    fallback = unit_gear.bodies[0] if len(unit_gear.bodies) == 1 and bodiless else None
    if fallback is None:
        notes.extend(
            f"Profile {raw.name!r} is shown by the unit, not by a model selection; left out."
            for raw in unit_gear.bodies
        )
    entries: list[ModelEntry] = []
    applied: set[str] = set()
    resized: Node | None = None  # the model selection behind the entry ``size`` changes
    for model in models:
        made = _model_entries(model, unit_gear, fallback, notes, reasons, applied)
        if resized is None and model.variable and made:
            resized = model
        for entry in made:
            _add_entry(entries, entry)
    if resized is not None and resized.most is None:
        notes.append(
            f"The data sets no maximum for {resized.name!r}: a scenario's size for the unit "
            "is checked against its minimum only."
        )
    notes.extend(_unit_weapon_notes(unit_gear, entries))
    entries = [_with_unit_weapons(entry, unit_gear) for entry in entries]
    unit_rules = [rule for rule in unit_gear.rules if rule not in applied]
    if models == [unit]:  # a one-model unit: what the model has, the unit has
        unit_rules.extend(rule for entry in entries for rule in entry.rules)
        entries = [replace(entry, rules=()) for entry in entries]
    for entry in entries:
        problems = profile_problems(entry.profile) + carried_problems(entry)
        if problems:
            notes.append(
                f"Model {entry.profile.name!r} cannot be played by {WAFFLE}: {problems[0]}; "
                "kept as written."
            )
            reasons.append(f"model {entry.profile.name!r}: {problems[0]}")
        notes.extend(filter(None, map(never_fires_note, entry.weapons)))
    oversized = size_problem(entries)
    for problem in [
        *rule_problems([*unit_rules, *(r for e in entries for r in e.rules)]),
        *([oversized] if oversized else []),
    ]:
        notes.append(f"{name!r}: {problem}; {WAFFLE} cannot play it.")
        reasons.append(problem)
    notes.extend(_transport_notes(entries, unit_rules))
    crewless = crewless_guns([entry.profile for entry in entries])
    if crewless is not None and not reasons:
        notes.append(f"{name!r}: {crewless}; {WAFFLE} cannot play it.")
        reasons.append(crewless)
    if not entries and not reasons:
        reasons.append(NO_MODELS)
    formation = _formation_reason(unit, entries)
    if formation is not None:
        notes.append(f"{name!r}: {formation}; {WAFFLE} cannot play it.")
        reasons.append(formation)
    for refusal in _unique([r for node in _subtree(unit) for r in node.refusals]):
        notes.append(f"{name!r}: {refusal}; {WAFFLE} cannot play it.")
        reasons.append(refusal)
    all_notes = _unique([*unit_gear.notes, *notes])
    datasheet = Datasheet(
        name=name,
        army=army,
        edition="waffle",
        entries=tuple(entries),
        rules=_unique(unit_rules),
        source=source,
        notes=all_notes,
        battle_notes=battle_notes(all_notes),
    )
    return tuple(
        replace(part, datasheet=_with_size_range(part.datasheet, resized))
        for part in split_vehicles(Built(datasheet, _unique(reasons)))
    )


def _formation_reason(unit: Node, entries: list[ModelEntry]) -> str | None:
    """Why a formation holding models of its own is not playable; ``None`` for a unit.

    A unit that shows no model profile itself and includes other units (nested
    unit entries, or models the file imports as units of their own: catalogue
    ``_members_are_units``) is a formation. In 7th edition a formation is made of
    units, so the models the data writes inside it are units of their own too
    (Tyranids: the "Subterranean Swarm" holds three Ravener broods and a Trygon
    Prime, a Mawloc and a Trygon, each a unit), but the data does not say how
    they split into units (the Space Marines' "Formation: Wrathful Crusade" holds
    a Tempestor and four Tempestus Scions, one squad): played as one unit they
    would be wrong, so it is refused, naming its units and models."""
    nested = list(_nested_units(unit))
    if not nested or not entries or shows_body(unit):
        return None
    units = ", ".join(f"{node.name!r} (x{node.count})" for node in nested)
    models = ", ".join(f"{entry.profile.name!r} (x{entry.count})" for entry in entries)
    return (
        f"{FORMATION} of units (it includes {units}), and its models ({models}) are units "
        "of their own in 7th edition that its data does not write apart: field each of its "
        "units as a unit of its own"
    )


def _with_size_range(sheet: Datasheet, resized: Node | None) -> Datasheet:
    """``sheet`` with the sizes a scenario may give it (:attr:`Datasheet.size_range`).

    ``size`` sets the first variable entry's count, the others staying as they
    are: that entry's default count is the catalogue's minimum (the default
    selections are the minimums), and it may grow by what the data allows of
    the model selection ``resized`` beyond its default.
    """
    first = next((entry for entry in sheet.entries if entry.variable), None)
    if first is None or resized is None:
        return sheet
    low = sum(entry.count for entry in sheet.entries if not entry.variable) + first.count
    high = None if resized.most is None else low + resized.most - resized.count
    return replace(sheet, size_range=(low, high))


def _transport_notes(entries: list[ModelEntry], unit_rules: list[str]) -> list[str]:
    """A note for each Transport vehicle whose data gives no Transport Capacity (the
    Astra Militarum catalogue's Chimera: ``Tank, Transport``, with no Transport profile):
    it carries no one, and a scenario's ``embarked_in`` refuses it."""
    return [
        f"{entry.profile.name}: Transport: the data gives no Transport Capacity, so it "
        "carries no one (a scenario cannot embark a unit in it)."
        for entry in entries
        if _is_vehicle_entry(entry)
        and "transport" in entry.profile.unit_type.lower()
        and not any(r.startswith(TRANSPORT_CAPACITY) for r in (*unit_rules, *entry.rules))
    ]


def _is_vehicle_entry(entry: ModelEntry) -> bool:
    return "Front" in entry.profile.characteristics


def split_vehicles(built: Built) -> tuple[Built, ...]:
    """A datasheet holding both vehicles and other models, as two units.

    7th edition has no unit of both (its rules, paraphrased from memory): a
    Dedicated Transport is a unit of its own though it is chosen with its squad
    (a Chimera with an Infantry Squad), a formation is made of units (a Big Mek
    and his Deff Dreads), and a Devilfish's Gun Drones, once they detach, are a
    unit of their own. BattleScribe
    data may write such a group as one unit with model children. The part
    holding the first model keeps the name and the unit's rules; the other
    part becomes the datasheet ``"<name>: <its models>"``, with a note in
    both (the second part keeps the unit's notes too: they may be about its
    models' weapons). A reason naming a model goes with that model's part.
    """
    sheet = built.datasheet
    kinds = {_is_vehicle_entry(entry) for entry in sheet.entries}
    if len(kinds) < 2:
        return (built,)
    first = _is_vehicle_entry(sheet.entries[0])
    kept = tuple(e for e in sheet.entries if _is_vehicle_entry(e) == first)
    moved = tuple(e for e in sheet.entries if _is_vehicle_entry(e) != first)
    names = list(dict.fromkeys(entry.profile.name for entry in moved))
    other = f"{sheet.name}: {', '.join(names)}"
    what = "vehicles" if not first else "models other than vehicles"
    count = sum(entry.count for entry in moved)
    main_note = (
        f"Its {what} ({', '.join(map(repr, names))}, x{count}) are a unit of their own "
        f"(7th edition has no unit of both): imported as the datasheet {other!r}."
    )
    split_note = (
        f"Split from {sheet.name!r}, which holds both vehicles and other models (7th "
        f"edition has no unit of both); that unit's rules stay with {sheet.name!r}."
    )
    moved_names = {entry.profile.name for entry in moved}
    moved_reasons = tuple(r for r in built.reasons if _names_model(r, moved_names))
    return (
        Built(
            replace(sheet, entries=kept, notes=(*sheet.notes, main_note)),
            tuple(r for r in built.reasons if r not in moved_reasons),
        ),
        Built(
            replace(sheet, name=other, entries=moved, rules=(), notes=(split_note, *sheet.notes)),
            moved_reasons,
        ),
    )


def _names_model(reason: str, names: set[str]) -> bool:
    """Whether ``reason`` is about one of the models ``names`` (``model 'X': ...``)."""
    return any(reason.startswith(f"model {name!r}") for name in names)


def _split_models(unit: Node) -> tuple[list[Node], list[Node]]:
    """The model selections of a unit, and the selections outside any model.

    A model is a selection of type ``model``, one showing a model profile, or
    one named after the profile the unit shows and holding nothing but
    wargear (Veterans show ``Veteran`` and hold nine ``Veteran w/ Lasgun``).
    When the unit shows a profile that no such model uses, the unit itself is
    one more model (Aun'Va with his Honour Guard, a Devilfish with its Gun
    Drones), carrying the wargear selected for it; otherwise, without any
    model selection, the unit is its only model.
    """
    worn = tuple(raw.name.casefold() for raw in unit.profiles if raw.kind in BODY_KINDS)
    models: list[Node] = []
    outer: list[Node] = [unit]
    stack = list(reversed(unit.children))
    while stack:
        node = stack.pop()
        if node.type == "unit":
            continue
        if node.type == "model" or shows_body(node) or _wears(node, worn):
            models.append(node)
        else:
            outer.append(node)
            stack.extend(reversed(node.children))
    if not models:  # the unit is a single model, all it holds is its wargear
        return [unit], []
    if not worn or any(not any(map(shows_body, _subtree(model))) for model in models):
        return models, outer
    wargear = {id(node) for node in outer}
    own = Node(
        unit.name,
        "model",
        unit.count,
        profiles=[raw for raw in unit.profiles if raw.kind in BODY_KINDS | {Kind.WEAPON}],
        children=[child for child in unit.children if id(child) in wargear],
    )
    rest = replace(
        unit,
        profiles=[raw for raw in unit.profiles if raw.kind not in BODY_KINDS | {Kind.WEAPON}],
        children=[],
    )
    return [own, *models], [rest]


def _wears(node: Node, worn: tuple[str, ...]) -> bool:
    """Whether ``node`` is a model wearing the unit's profile ``Veteran w/ Lasgun``."""
    return (
        bool(node.children)
        and not node.profiles
        and node.name.casefold().startswith(worn)
        and not any(map(shows_body, _subtree(node)))
    )


def _nested_units(unit: Node) -> Iterator[Node]:
    stack = list(unit.children)
    while stack:
        node = stack.pop(0)
        if node.type == "unit":
            yield node
        else:
            stack.extend(node.children)


def _model_entries(
    model: Node,
    unit_gear: _Gear,
    fallback: RawProfile | None,
    notes: list[str],
    reasons: list[str],
    applied: set[str],
) -> list[ModelEntry]:
    """The entries for one model selection (several if loadouts differ); ``applied``
    gathers the rules that became the invulnerable save (:func:`_with_invulnerable`)."""
    gear = _Gear()
    for node in _subtree(model):
        gear.take(node)
        notes.extend(node.notes)
    notes.extend(gear.notes)
    body = gear.bodies[0] if gear.bodies else fallback
    if body is None:
        if model.type != "unit":
            notes.append(f"Model {model.name!r} has no WS BS S T W I A Ld Sv profile; left out.")
            reasons.append(f"model {model.name!r} has no WS BS S T W I A Ld Sv profile")
        else:
            notes.append("No model with a WS BS S T W I A Ld Sv or vehicle profile was found.")
        return []
    notes.extend(
        f"Model {model.name!r} also shows profile {raw.name!r}; only {body.name!r} is used."
        for raw in gear.bodies[1:]
        if raw.name != body.name
    )
    if model.count == 0:
        notes.append(f"Model {model.name!r} is selected 0 times; left out.")
        return []
    base_mm = 25.0
    if body.kind is Kind.VEHICLE:
        profile, profile_notes, refused = vehicle_profile(body)
        if refused:
            notes.append(f"Vehicle {body.describe()}: {refused}.")
            reasons.append(refused)
            return []
        walker = "walker" in profile.unit_type.lower()
        base_mm = VEHICLE_BASE_MM["walker" if walker else "other"]
    else:
        profile, profile_notes = model_profile(body)
    notes.extend(profile_notes)
    profile = _with_invulnerable(profile, [*gear.texts, *unit_gear.texts], notes, applied)
    rules = tuple(
        rule for rule in _unique(gear.rules) if rule not in unit_gear.rules and rule not in applied
    )
    powers = tuple({p.name: p for p in [*unit_gear.powers, *gear.powers]}.values())
    if not gear.weapons and not unit_gear.weapons:
        notes.append(BattleNote(f"Model {body.name!r} {NO_WEAPON}"))
    loadouts = _loadouts(model.count, _twin_linked_apart(gear.weapons, notes))
    return [
        ModelEntry(
            profile=profile,
            count=count,
            weapons=tuple(weapons),
            variable=model.variable and index == 0,
            rules=rules,
            powers=powers,
            base_mm=base_mm,
        )
        for index, (count, weapons) in enumerate(loadouts)
    ]


def _add_entry(entries: list[ModelEntry], entry: ModelEntry) -> None:
    """Add ``entry``, merged into an identical one (same profile, weapons and rules)."""
    for index, other in enumerate(entries):
        if (other.profile, other.weapons, other.rules) == (
            entry.profile,
            entry.weapons,
            entry.rules,
        ):
            entries[index] = replace(
                other, count=other.count + entry.count, variable=other.variable or entry.variable
            )
            return
    entries.append(entry)


def _subtree(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in reversed(current.children) if child.type != "unit")


def _twin_linked_apart(
    weapons: list[tuple[Weapon, int]], notes: list[str]
) -> list[tuple[Weapon, int]]:
    """``weapons`` of one model, a twin-linked one renamed ``Twin-linked X`` where the
    model also carries a plain X (a Stompa's three big shootas and its "Twin-linked Big
    Shoota", all four a Big Shoota profile): the engine finds a model's weapon by its
    name, so namesakes would all fire as one of them."""
    plain = {item.name for item, _ in weapons if not _twin_linked(item)}
    renamed = [
        (replace(item, name=f"{TWIN_LINKED} {item.name}"), copies)
        if _twin_linked(item) and item.name in plain
        else (item, copies)
        for item, copies in weapons
    ]
    notes.extend(
        f"Weapon {old.name!r} is twin-linked and its model carries a plain one too: named "
        f"{new.name!r}."
        for (old, _), (new, _) in zip(weapons, renamed, strict=True)
        if old is not new
    )
    return renamed


def _twin_linked(item: Weapon) -> bool:
    return TWIN_LINKED in item.keywords or _names_rule(item.get("Type"), TWIN_LINKED)


def _loadouts(models: int, weapons: list[tuple[Weapon, int]]) -> list[tuple[int, list[Weapon]]]:
    """Share each weapon's copies out over ``models`` as evenly as possible.

    ``(4 models, 5 bolters)`` → one model with two, three with one: groups of
    identical models, largest loadouts first.
    """
    if models <= 0:
        return []
    groups: list[tuple[int, list[Weapon]]] = [(models, [])]
    for item, copies in weapons:
        each, extra = divmod(copies, models)
        shared: list[tuple[int, list[Weapon]]] = []
        for size, carried in groups:
            more = min(size, extra)
            extra -= more
            if more:
                shared.append((more, carried + [item] * (each + 1)))
            if size - more:
                shared.append((size - more, carried + [item] * each))
        groups = shared
    return groups


def _with_invulnerable(
    profile: Profile, texts: list[tuple[str, str, bool]], notes: list[str], applied: set[str]
) -> Profile:
    """``profile`` with the best invulnerable save its rules and wargear grant.

    A wargear item's description only grants a save in a sentence naming the
    item; one describing another item's save (a Nova Reactor's text about the
    shield generator) is noted, not applied. A rule or item whose text says
    nothing but the save it grants (Iron Halo: "An iron halo confers a 4+
    invulnerable save.") is wholly applied: its name joins ``applied``, for the
    datasheet to leave out of the rules the edition resolves, and a note says so.
    """
    best = profile.invulnerable
    granted: dict[str, int] = {}
    for name, text, item in texts:
        mention = invulnerable_in_text(text, name if item else None)
        if mention.value is not None:
            best = mention.value if best is None else min(best, mention.value)
            if mention.whole:
                granted[name] = mention.value
        notes.extend(
            f"{name!r} mentions an invulnerable save that cannot be applied reliably "
            f"({_shorten(sentence)})."
            for sentence in mention.unclear
        )
        notes.extend(
            f"{name!r} describes an invulnerable save without naming itself as what grants "
            f"it ({_shorten(sentence)}); not applied."
            for sentence in mention.elsewhere
        )
    applied.update(granted)
    notes.extend(_applied_note(name, value, best) for name, value in granted.items())
    return profile if best == profile.invulnerable else replace(profile, invulnerable=best)


def _applied_note(name: str, value: int, best: int | None) -> str:
    """The note on a rule wholly applied as the invulnerable save ``best`` (its own
    ``value``, or a better one the model has from elsewhere)."""
    if value == best:
        return f"{name!r}: applied as a {value}+ invulnerable save."
    return f"{name!r}: its {value}+ invulnerable save is applied, bettered by a {best}+."


def _with_unit_weapons(entry: ModelEntry, unit_gear: _Gear) -> ModelEntry:
    """Give ``entry`` the unit-wide weapons it does not carry already."""
    own = {item.name for item in entry.weapons}
    extra = tuple(item for item, _ in unit_gear.weapons if item.name not in own)
    return replace(entry, weapons=entry.weapons + extra) if extra else entry


def _unit_weapon_notes(unit_gear: _Gear, entries: list[ModelEntry]) -> Iterator[str]:
    if not entries:
        return
    for item, copies in unit_gear.weapons:
        yield (
            f"Weapon {item.name!r} (x{copies}) is selected for the unit as a whole: "
            "every model is given one."
        )


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for item in items if item))


def _shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
