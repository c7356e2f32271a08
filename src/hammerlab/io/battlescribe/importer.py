"""Importing a BattleScribe file: the public entry points and their cache."""

from __future__ import annotations

import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from hammerlab.engine.datasheet import Datasheet
from hammerlab.errors import InputError, UnknownNameError
from hammerlab.io.battlescribe.catalogue import DefaultSelections, unit_entries
from hammerlab.io.battlescribe.datasheets import build_datasheet
from hammerlab.io.battlescribe.infos import read_infos
from hammerlab.io.battlescribe.links import Library, open_library
from hammerlab.io.battlescribe.profiles import Kind, read_definition, weapon
from hammerlab.io.battlescribe.roster import roster_units, selection_tree
from hammerlab.io.battlescribe.tree import Node

KINDS = {"catalogue": "catalogue", "gameSystem": "gamesystem", "roster": "roster"}
"""Root element → :attr:`ImportResult.kind`."""

CACHE_SIZE = 32


@dataclass(frozen=True)
class ImportResult:
    """The units of one BattleScribe file."""

    source: str
    """The file path as given (or the name it was imported as, ``shown_as``)."""
    kind: str
    """``"catalogue"``, ``"gamesystem"`` or ``"roster"``."""
    datasheets: tuple[Datasheet, ...]
    weapon_profiles: int
    """Distinct weapon profiles (name and characteristics) defined in the file."""
    notes: tuple[str, ...] = ()
    """What concerns the whole file (a game system not found, army-wide rules)."""
    unplayable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Unit name → why the Waffle Edition cannot play it, for each unit it cannot."""

    def reasons(self, name: str) -> tuple[str, ...]:
        """Why the unit called exactly ``name`` cannot be played; empty if it can."""
        return self.unplayable.get(name, ())

    def find(self, name: str) -> Datasheet:
        """The unit called ``name`` (any case); another name is an
        :class:`UnknownNameError` naming the file and the units spelt alike
        (``unknown unit 'Rhinoceros' in sm.cat (did you mean: Rhino, ...)``)."""
        wanted = name.casefold()
        for datasheet in self.datasheets:
            if datasheet.name.casefold() == wanted:
                return datasheet
        known = [d.name for d in self.datasheets]
        raise UnknownNameError("unit", name, known, place=self.source)


_cache: dict[tuple[str, int, int], ImportResult] = {}


def import_file(path: Path | str, shown_as: str | None = None) -> ImportResult:
    """Import a ``.gst``, ``.cat``, ``.ros`` or ``.rosz`` file.

    Results are cached for the process, per resolved path, modification time
    and size. A catalogue's game system is looked for next to it. Errors and
    :attr:`ImportResult.source` name the file ``shown_as``, by default the path
    as given (the web server names an upload by the client's file name, never
    by the private temporary file it parses).
    """
    source = str(path) if shown_as is None else shown_as
    try:
        resolved = Path(path).resolve()
        status = resolved.stat()
    except FileNotFoundError:
        raise InputError(source, "", "file not found") from None
    except OSError as error:
        raise InputError(source, "", f"cannot read the file ({error.strerror})") from None
    except ValueError:  # a NUL byte in the path
        raise InputError(source, "", "not a valid file path") from None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(source, "", "is a directory, not a file (.cat, .gst, .ros or .rosz)")
    key = (str(resolved), status.st_mtime_ns, status.st_size)
    result = _cache.get(key)
    if result is None:
        result = _import(resolved, source)
        if len(_cache) >= CACHE_SIZE:
            del _cache[next(iter(_cache))]
        _cache[key] = result
    return result if result.source == source else replace(result, source=source)


def clear_cache() -> None:
    """Forget every imported file (for benchmarks and tests)."""
    _cache.clear()


def unit_from_file(path: Path | str, name: str) -> Datasheet:
    """The unit ``name`` of a BattleScribe file, ready to play.

    A unit the Waffle Edition cannot play (a vehicle, a model whose
    characteristics it cannot read...) is an :class:`InputError` naming the
    unit and the reasons, so that a scenario refuses it when it is loaded
    rather than failing in the middle of a battle. ``import_file(path).find``
    gives any unit, playable or not.
    """
    result = import_file(path)
    sheet = result.find(name)
    reasons = result.reasons(sheet.name)
    if reasons:
        raise InputError(
            result.source, f"unit {sheet.name!r}", f"cannot be played: {'; '.join(reasons)}"
        )
    return sheet


def _import(path: Path, source: str) -> ImportResult:
    try:
        library = open_library(path, source)
        notes = list(library.notes)
        units = _units(library, notes)
        weapon_profiles = _count_weapon_profiles(library)
    except RecursionError:  # modifier or info groups nested thousands deep
        raise InputError(source, "", "elements are nested too deeply to import") from None
    names = _unique_names([(unit.name, container) for unit, _, container in units])
    built = [
        part
        for (unit, army, _), (name, rename_note) in zip(units, names, strict=True)
        for part in build_datasheet(unit, name, army, str(path), rename_note)
    ]
    return ImportResult(
        source=source,
        kind=KINDS[library.main.root.tag],
        datasheets=tuple(unit.datasheet for unit in built),
        weapon_profiles=weapon_profiles,
        notes=tuple(notes),
        unplayable={unit.datasheet.name: unit.reasons for unit in built if unit.reasons},
    )


def _units(library: Library, notes: list[str]) -> list[tuple[Node, str, str]]:
    """Each unit's selection tree, army and container, top-level units first."""
    if library.main.root.tag == "roster":
        return [
            (selection_tree(unit.selection, library), unit.army, unit.container)
            for unit in roster_units(library)
        ]
    army_rules = read_infos((library.main.root,), library).rules
    if army_rules:
        names = ", ".join(repr(rule.name) for rule in army_rules)
        notes.append(f"Army-wide rules at the file's root are not given to units: {names}.")
    army = library.main.name
    return [
        (entry.tree, army, entry.container)
        for entry in unit_entries(library, DefaultSelections(library), notes)
    ]


def _unique_names(candidates: list[tuple[str, str]]) -> list[tuple[str, str | None]]:
    """A name per unit that no other unit of the file has (ignoring case).

    The first unit keeps its name; a later namesake is qualified by the entry
    containing it (``Infantry Squad (Infantry Platoon)``) or numbered, and the
    renaming is noted.
    """
    taken: set[str] = set()
    last_number: dict[str, int] = {}
    named: list[tuple[str, str | None]] = []
    for name, container in candidates:
        chosen, note = name, None
        if name.casefold() in taken:
            chosen = f"{name} ({container})" if container else name
            while chosen.casefold() in taken:
                number = last_number[name] = last_number.get(name, 1) + 1
                chosen = f"{name} #{number}"
            where = f"; this one is part of {container!r}" if container else ""
            note = f"Renamed from {name!r}: the file has several units of that name{where}."
        taken.add(chosen.casefold())
        named.append((chosen, note))
    return named


def _count_weapon_profiles(library: Library) -> int:
    """Distinct weapon profiles the imported file defines, hidden ones included."""
    distinct = set()
    for element in library.main.root.iter("profile"):
        raw = read_definition(element, library)
        if raw.kind is Kind.WEAPON:
            mapped = weapon(raw)
            distinct.add((mapped.name, tuple(sorted(mapped.characteristics.items()))))
    return len(distinct)
