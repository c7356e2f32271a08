"""Unit libraries: datasheets written as TOML data files.

The built-in libraries live in ``hammerlab/library/<edition>/*.toml``; one
file per army::

    army = "Space Marines"

    [weapons.Boltgun]
    Range = "24"
    S = "4"
    AP = "5"
    Type = "Rapid Fire"

    [[units]]
    name = "Tactical Squad"
    rules = ["And They Shall Know No Fear"]

    [[units.models]]
    name = "Space Marine"
    count = 9
    variable = true
    profile = { WS = 4, BS = 4, S = 4, T = 4, W = 1, I = 4, A = 1, Ld = 8, Sv = "3+" }
    weapons = ["Boltgun", "Bolt pistol"]
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.errors import InputError, UnknownNameError, unknown_name
from hammerlab.io.validation import Flag, Number, Whole, parse_toml


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _text(value: Any) -> str:
    return str(value)


class ModelSpec(_Strict):
    """One model entry of a datasheet."""

    name: str = Field(min_length=1)
    count: Whole = Field(default=1, ge=0, le=100)
    variable: Flag = False
    profile: dict[str, str]
    type: str = "Infantry"
    invulnerable: Whole | None = Field(default=None, ge=2, le=6)
    base: Number = Field(default=25.0, gt=0, le=200)
    weapons: list[str] = []
    powers: list[str] = []
    """Psychic powers the model knows, by name (``[powers.NAME]`` tables)."""
    rules: list[str] = []
    keywords: list[str] = []

    @field_validator("profile", mode="before")
    @classmethod
    def _stringify(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): _text(v) for k, v in value.items()}
        return value


class UnitSpec(_Strict):
    """A datasheet: a named unit and its models."""

    name: str = Field(min_length=1)
    rules: list[str] = []
    keywords: list[str] = []
    models: list[ModelSpec] = Field(min_length=1)


class ArmySpec(_Strict):
    """One library file."""

    army: str = Field(min_length=1)
    weapons: dict[str, dict[str, Any]] = {}
    powers: dict[str, dict[str, Any]] = {}
    """Psychic power profiles by name (``Warp Charge``, ``Power Category``, ``Range``...)."""
    units: list[UnitSpec] = []


def keyword_list(value: object) -> list[str]:
    """A weapon's ``keywords`` as a file writes them: a list of strings
    (``keywords = ["PISTOL", "BLAST"]``); anything else is refused with one message,
    in a library file and in a scenario's inline unit alike."""
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise ValueError('must be a list of strings, such as keywords = ["PISTOL"]')
    return value


def _weapon(source: str, name: str, raw: dict[str, Any]) -> Weapon:
    try:
        keywords = keyword_list(raw.get("keywords", []))
    except ValueError as error:
        raise InputError(source, f"weapons.{name}.keywords", str(error)) from None
    mode_of = raw.get("mode_of", "")
    if not isinstance(mode_of, str):
        raise InputError(source, f"weapons.{name}.mode_of", "must be the name of a weapon item")
    chars = {str(k): _text(v) for k, v in raw.items() if k not in ("keywords", "mode_of")}
    return Weapon(
        name=name,
        characteristics=chars,
        keywords=tuple(keywords),
        mode_of=mode_of,
    )


def datasheets_from(
    army: ArmySpec,
    source: str,
    edition: str,
    extra_weapons: dict[str, Weapon] | None = None,
    declared_by: str = "the file",
) -> list[Datasheet]:
    """Build datasheets from a validated army file. A model's weapon or power that
    the file does not declare is an :class:`InputError` naming those spelt alike and
    every one ``declared_by`` (the file, or an inline unit) declares: ``unknown weapon
    'Heavy Bolter' (did you mean: Heavy bolter); the unit declares: Heavy bolter``."""
    weapons = dict(extra_weapons or {})
    weapons.update({n: _weapon(source, n, raw) for n, raw in army.weapons.items()})
    powers = {n: _weapon(source, n, raw) for n, raw in army.powers.items()}
    declares = f"{declared_by} declares"
    sheets = []
    for u, unit in enumerate(army.units):
        entries = []
        for m, model in enumerate(unit.models):
            missing = [w for w in model.weapons if w not in weapons]
            if missing:
                where = f"units[{u}].models[{m}].weapons"
                said = unknown_name("weapon", missing[0], list(weapons), declares)
                raise InputError(source, where, said)
            unknown = [p for p in model.powers if p not in powers]
            if unknown:
                where = f"units[{u}].models[{m}].powers"
                said = unknown_name("psychic power", unknown[0], list(powers), declares)
                raise InputError(source, where, said)
            profile = Profile(
                name=model.name,
                characteristics=model.profile,
                unit_type=model.type,
                invulnerable=model.invulnerable,
                keywords=frozenset(model.keywords),
            )
            entries.append(
                ModelEntry(
                    profile=profile,
                    count=model.count,
                    weapons=tuple(weapons[w] for w in model.weapons),
                    base_mm=model.base,
                    variable=model.variable,
                    rules=tuple(model.rules),
                    powers=tuple(powers[p] for p in model.powers),
                )
            )
        sheets.append(
            Datasheet(
                name=unit.name,
                army=army.army,
                edition=edition,
                entries=tuple(entries),
                rules=tuple(unit.rules),
                keywords=frozenset(unit.keywords),
                source=source,
            )
        )
    return sheets


def parse_army(text: str, source: str) -> ArmySpec:
    """Parse and validate one TOML library file."""
    return parse_toml(text, source, ArmySpec)


class Library:
    """Datasheets by name."""

    def __init__(self, datasheets: list[Datasheet]) -> None:
        self._by_name = {d.name.lower(): d for d in datasheets}

    def find(self, name: str) -> Datasheet:
        """The datasheet called ``name`` (case-insensitive)."""
        try:
            return self._by_name[name.lower()]
        except KeyError:
            raise UnknownNameError("unit", name, self.names()) from None

    def names(self, query: str = "", army: str = "") -> list[str]:
        """The names of :meth:`units`, sorted."""
        return [name for name, _ in self.units(query, army)]

    def units(self, query: str = "", army: str = "") -> list[tuple[str, str]]:
        """``(name, army)`` of the datasheets matching ``query`` and ``army``, sorted.

        ``query`` may be part of the unit's name or of its army's (so ``orks``
        finds the Ork army, whose unit names say "Ork"); ``army`` keeps only
        the units whose army contains it. Both ignore case.
        """
        wanted, side = query.lower(), army.lower()
        return sorted(
            (d.name, d.army)
            for d in self._by_name.values()
            if side in d.army.lower() and (wanted in d.name.lower() or wanted in d.army.lower())
        )

    def __len__(self) -> int:
        return len(self._by_name)


def builtin_library(edition: str) -> Library:
    """The library shipped in the package for ``edition``."""
    folder = resources.files("hammerlab") / "library" / edition
    sheets: list[Datasheet] = []
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            source = f"hammerlab/library/{edition}/{item.name}"
            army = parse_army(item.read_text(encoding="utf-8"), source)
            sheets += datasheets_from(army, source, edition)
    return Library(sheets)
