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

from collections.abc import Iterator
from dataclasses import dataclass, replace

from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.io.battlescribe.gear import TWIN_LINKED, Gear, names_rule
from hammerlab.io.battlescribe.notes import BattleNote, battle_notes
from hammerlab.io.battlescribe.playable import (
    WAFFLE,
    carried_problems,
    crewless_guns,
    never_fires_note,
    profile_problems,
    rule_problems,
    size_problem,
)
from hammerlab.io.battlescribe.profiles import (
    BODY_KINDS,
    TRANSPORT_CAPACITY,
    VEHICLE_BASE_MM,
    Kind,
    RawProfile,
    model_profile,
    vehicle_profile,
)
from hammerlab.io.battlescribe.saves import with_invulnerable
from hammerlab.io.battlescribe.tree import Node, shows_body, subtree

NO_MODELS = "it has no models"
"""The reason a unit without any model (a formation, an upgrade) is not playable."""
FORMATION = "it is a formation"
"""How the reason opens why a formation holding models of its own is not playable
(:func:`_formation_reason`)."""

NO_WEAPON = (
    "carries no weapon: none is selected (a catalogue gives a unit its default wargear "
    "only; a BattleScribe roster, .ros or .rosz, gives what a player chose)."
)


@dataclass(frozen=True)
class Built:
    """A datasheet and why it cannot be played (empty when it can)."""

    datasheet: Datasheet
    reasons: tuple[str, ...]


def build_datasheet(
    unit: Node, name: str, army: str, source: str, note: str | None = None
) -> tuple[Built, ...]:
    """The datasheet of the unit whose selections are ``unit``, and why it cannot play;
    two datasheets when it holds both vehicles and other models (:func:`split_vehicles`).

    ``note`` is a first note from the caller (why the unit was renamed).
    """
    models, outer = _split_models(unit)
    notes: list[str] = [note] if note else []
    reasons: list[str] = []
    unit_gear, fallback = _unit_gear(unit, models, outer, notes)
    entries, applied, resized = _unit_entries(models, unit_gear, fallback, notes, reasons)
    entries, unit_rules = _shared_out(unit, models, entries, unit_gear, applied, notes)
    _model_problems(entries, notes, reasons)
    _unit_problems(unit, name, entries, unit_rules, notes, reasons)
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


def _unit_gear(
    unit: Node, models: list[Node], outer: list[Node], notes: list[str]
) -> tuple[Gear, RawProfile | None]:
    """What the unit carries outside its models (``outer``), and the model profile a
    model selection showing none wears: the unit's own, where it shows one alone and
    such a model is among ``models`` (``None`` otherwise, a note on each it shows)."""
    unit_gear = Gear()
    for node in outer:
        unit_gear.take(node)
        notes.extend(node.notes)
    notes.extend(
        f"Includes unit {node.name!r} (x{node.count}), imported as a datasheet of its own."
        for node in _nested_units(unit)
    )
    bodiless = [model for model in models if not any(map(shows_body, subtree(model)))]
    fallback = unit_gear.bodies[0] if len(unit_gear.bodies) == 1 and bodiless else None
    if fallback is None:
        notes.extend(
            f"Profile {raw.name!r} is shown by the unit, not by a model selection; left out."
            for raw in unit_gear.bodies
        )
    return unit_gear, fallback


def _unit_entries(
    models: list[Node],
    unit_gear: Gear,
    fallback: RawProfile | None,
    notes: list[str],
    reasons: list[str],
) -> tuple[list[ModelEntry], set[str], Node | None]:
    """The entries of all ``models`` (identical ones merged), the rules that became an
    invulnerable save (:func:`_model_entries`), and the model selection behind the
    entry a scenario's ``size`` changes (``None``: none)."""
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
    return entries, applied, resized


def _shared_out(
    unit: Node,
    models: list[Node],
    entries: list[ModelEntry],
    unit_gear: Gear,
    applied: set[str],
    notes: list[str],
) -> tuple[list[ModelEntry], list[str]]:
    """The entries given the weapons selected for the unit as a whole, and the unit's
    rules (less those ``applied`` as an invulnerable save; a one-model unit's take its
    model's rules too)."""
    notes.extend(_unit_weapon_notes(unit_gear, entries))
    entries = [_with_unit_weapons(entry, unit_gear) for entry in entries]
    unit_rules = [rule for rule in unit_gear.rules if rule not in applied]
    if models == [unit]:  # a one-model unit: what the model has, the unit has
        unit_rules.extend(rule for entry in entries for rule in entry.rules)
        entries = [replace(entry, rules=()) for entry in entries]
    return entries, unit_rules


def _model_problems(entries: list[ModelEntry], notes: list[str], reasons: list[str]) -> None:
    """Why a model of ``entries`` cannot be played (its first problem, a note and a
    reason), and a note on each weapon it never fires."""
    for entry in entries:
        problems = profile_problems(entry.profile) + carried_problems(entry)
        if problems:
            notes.append(
                f"Model {entry.profile.name!r} cannot be played by {WAFFLE}: {problems[0]}; "
                "kept as written."
            )
            reasons.append(f"model {entry.profile.name!r}: {problems[0]}")
        notes.extend(filter(None, map(never_fires_note, entry.weapons)))


def _unit_problems(
    unit: Node,
    name: str,
    entries: list[ModelEntry],
    unit_rules: list[str],
    notes: list[str],
    reasons: list[str],
) -> None:
    """Why the unit ``name`` as a whole cannot be played (its rules, its size, guns
    without crew, no models, a formation, the data's refusals), each a note and a
    reason; and the notes on Transports that carry no one."""
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
    for refusal in _unique([r for node in subtree(unit) for r in node.refusals]):
        notes.append(f"{name!r}: {refusal}; {WAFFLE} cannot play it.")
        reasons.append(refusal)


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
    if not worn or any(not any(map(shows_body, subtree(model))) for model in models):
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
        and not any(map(shows_body, subtree(node)))
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
    unit_gear: Gear,
    fallback: RawProfile | None,
    notes: list[str],
    reasons: list[str],
    applied: set[str],
) -> list[ModelEntry]:
    """The entries for one model selection (several if loadouts differ); ``applied``
    gathers the rules that became the invulnerable save (:func:`.saves.with_invulnerable`)."""
    gear = Gear()
    for node in subtree(model):
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
    profile = with_invulnerable(profile, [*gear.texts, *unit_gear.texts], notes, applied)
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
    return TWIN_LINKED in item.keywords or names_rule(item.get("Type"), TWIN_LINKED)


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


def _with_unit_weapons(entry: ModelEntry, unit_gear: Gear) -> ModelEntry:
    """Give ``entry`` the unit-wide weapons it does not carry already."""
    own = {item.name for item in entry.weapons}
    extra = tuple(item for item, _ in unit_gear.weapons if item.name not in own)
    return replace(entry, weapons=entry.weapons + extra) if extra else entry


def _unit_weapon_notes(unit_gear: Gear, entries: list[ModelEntry]) -> Iterator[str]:
    if not entries:
        return
    for item, copies in unit_gear.weapons:
        yield (
            f"Weapon {item.name!r} (x{copies}) is selected for the unit as a whole: "
            "every model is given one."
        )


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for item in items if item))
