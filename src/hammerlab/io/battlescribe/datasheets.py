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
* everything else (vehicle profiles, psychic powers, conditional modifiers,
  unresolved links...) becomes a note, and so does each model or weapon whose
  characteristics the Waffle Edition cannot read (:mod:`.playable`), kept as
  written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.io.battlescribe.playable import unplayable_notes
from hammerlab.io.battlescribe.profiles import Kind, RawProfile, model_profile, weapon
from hammerlab.io.battlescribe.saves import invulnerable_in_text
from hammerlab.io.battlescribe.tree import Node

BODY_KINDS = frozenset({Kind.MODEL, Kind.VEHICLE})


@dataclass
class _Gear:
    """What a model, or the unit as a whole, carries."""

    bodies: list[RawProfile] = field(default_factory=list)
    weapons: list[tuple[Weapon, int]] = field(default_factory=list)
    """Each weapon with how many copies the selections hold in all."""
    rules: list[str] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)
    """(name, text) of rules and wargear, read for invulnerable saves."""
    notes: list[str] = field(default_factory=list)

    def take(self, node: Node) -> None:
        """Add what ``node`` itself shows (not its children).

        Rules on a wargear selection with weapon profiles are the weapons'
        rules (Concussive, Unwieldy...): they become the weapons' keywords.
        """
        weapon_rules = tuple(dict.fromkeys(rule.name for rule in node.rules))
        armed = (
            node.type not in {"unit", "model"}
            and not _shows_body(node)
            and any(raw.kind is Kind.WEAPON for raw in node.profiles)
        )
        for raw in node.profiles:
            kind = raw.kind
            if kind in BODY_KINDS:
                self.bodies.append(raw)
            elif kind is Kind.WEAPON:
                mapped = replace(weapon(raw), keywords=weapon_rules if armed else ())
                self.weapons.append((mapped, node.count))
                self.notes.extend(raw.pending)
            elif kind is Kind.TEXT:
                self.rules.append(raw.name)
                self.texts.append((raw.name, raw.text()))
            else:
                self.notes.append(f"Profile {raw.describe()} is not used by hammerlab.")
        if not armed:
            for rule in node.rules:
                self.rules.append(rule.name)
                self.texts.append((rule.name, rule.text))
        if node.type == "upgrade" and not (node.profiles or node.rules or node.children):
            self.rules.append(node.name)


def build_datasheet(
    unit: Node, name: str, army: str, source: str, note: str | None = None
) -> Datasheet:
    """The datasheet of the unit whose selections are ``unit``.

    ``note`` is a first note from the caller (why the unit was renamed).
    """
    models, outer = _split_models(unit)
    unit_gear = _Gear()
    notes: list[str] = [note] if note else []
    for node in outer:
        unit_gear.take(node)
        notes.extend(node.notes)
    notes.extend(
        f"Includes unit {node.name!r} (x{node.count}), imported as a datasheet of its own."
        for node in _nested_units(unit)
    )
    bodiless = [model for model in models if not any(map(_shows_body, _subtree(model)))]
    fallback = unit_gear.bodies[0] if len(unit_gear.bodies) == 1 and bodiless else None
    if fallback is None:
        notes.extend(
            f"Profile {raw.name!r} is shown by the unit, not by a model selection; left out."
            for raw in unit_gear.bodies
        )
    entries: list[ModelEntry] = []
    for model in models:
        for entry in _model_entries(model, unit_gear, fallback, notes):
            _add_entry(entries, entry)
    notes.extend(_unit_weapon_notes(unit_gear, entries))
    entries = [_with_unit_weapons(entry, unit_gear) for entry in entries]
    unit_rules = list(unit_gear.rules)
    if models == [unit]:  # a one-model unit: what the model has, the unit has
        unit_rules.extend(rule for entry in entries for rule in entry.rules)
        entries = [replace(entry, rules=()) for entry in entries]
    return Datasheet(
        name=name,
        army=army,
        edition="waffle",
        entries=tuple(entries),
        rules=_unique(unit_rules),
        source=source,
        notes=_unique([*unit_gear.notes, *notes, *unplayable_notes(entries)]),
    )


def _split_models(unit: Node) -> tuple[list[Node], list[Node]]:
    """The model selections of a unit, and the selections outside any model."""
    models: list[Node] = []
    outer: list[Node] = [unit]
    stack = list(reversed(unit.children))
    while stack:
        node = stack.pop()
        if node.type == "unit":
            continue
        if node.type == "model" or _shows_body(node):
            models.append(node)
        else:
            outer.append(node)
            stack.extend(reversed(node.children))
    if not models:  # the unit is a single model, all it holds is its wargear
        return [unit], []
    return models, outer


def _shows_body(node: Node) -> bool:
    return any(raw.kind in BODY_KINDS for raw in node.profiles)


def _nested_units(unit: Node) -> Iterator[Node]:
    stack = list(unit.children)
    while stack:
        node = stack.pop(0)
        if node.type == "unit":
            yield node
        else:
            stack.extend(node.children)


def _model_entries(
    model: Node, unit_gear: _Gear, fallback: RawProfile | None, notes: list[str]
) -> list[ModelEntry]:
    """The entries for one model selection (several if loadouts differ)."""
    gear = _Gear()
    for node in _subtree(model):
        gear.take(node)
        notes.extend(node.notes)
    notes.extend(gear.notes)
    body = gear.bodies[0] if gear.bodies else fallback
    if body is None:
        notes.append(
            "No model with a WS BS S T W I A Ld Sv profile was found."
            if model.type == "unit"
            else f"Model {model.name!r} has no WS BS S T W I A Ld Sv profile; left out."
        )
        return []
    notes.extend(
        f"Model {model.name!r} also shows profile {raw.name!r}; only {body.name!r} is used."
        for raw in gear.bodies[1:]
        if raw.name != body.name
    )
    if body.kind is Kind.VEHICLE:
        notes.append(f"Vehicle profile not supported: {body.describe()}.")
        return []
    if model.count == 0:
        notes.append(f"Model {model.name!r} is selected 0 times; left out.")
        return []
    profile, profile_notes = model_profile(body)
    notes.extend(profile_notes)
    profile = _with_invulnerable(profile, [*gear.texts, *unit_gear.texts], notes)
    rules = tuple(rule for rule in _unique(gear.rules) if rule not in unit_gear.rules)
    if not gear.weapons and not unit_gear.weapons:
        notes.append(f"Model {body.name!r} carries no weapon: none is selected.")
    loadouts = _loadouts(model.count, gear.weapons)
    return [
        ModelEntry(
            profile=profile,
            count=count,
            weapons=tuple(weapons),
            variable=model.variable and index == 0,
            rules=rules,
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


def _with_invulnerable(profile: Profile, texts: list[tuple[str, str]], notes: list[str]) -> Profile:
    """``profile`` with the best invulnerable save its rules and wargear grant."""
    best = profile.invulnerable
    for name, text in texts:
        mention = invulnerable_in_text(text)
        if mention.value is not None:
            best = mention.value if best is None else min(best, mention.value)
        notes.extend(
            f"{name!r} mentions an invulnerable save that cannot be applied reliably "
            f"({_shorten(sentence)})."
            for sentence in mention.unclear
        )
    return profile if best == profile.invulnerable else replace(profile, invulnerable=best)


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
