"""The 11th-edition unit library: the ``wh40kdc`` package's dataset as datasheets.

``wh40kdc`` embeds an 11th-edition dataset (about 1,100 units, their weapon
profiles, weapon keywords and abilities). This adapter reads it — nothing is
copied into hammerlab — and writes each unit the way its printed datasheet
reads, as an edition-neutral :class:`~hammerlab.engine.datasheet.Datasheet`
with ``edition="core11"``:

- model characteristics ``M T Sv W Ld OC`` as written (``6"``, ``3+``), the
  invulnerable save in :attr:`Profile.invulnerable`, the unit's keywords
  (upper case) in :attr:`Profile.keywords` and :attr:`Datasheet.keywords`;
- one :class:`Weapon` per weapon *profile*, with ``Range A BS S AP D`` (``WS``
  for melee); the profiles of a weapon with several are named ``Weapon
  (Profile)`` and carry the characteristic ``Weapon`` naming the weapon; its
  weapon abilities as keywords in datasheet spelling
  (``RAPID FIRE 1``, ``ANTI-INFANTRY 4+``, ``SUSTAINED HITS 2 (only vs
  MONSTER/VEHICLE)``);
- the unit's abilities, by name, in :attr:`Datasheet.rules`;
- every guess the adapter had to make, and every profile it could not map, in
  :attr:`Datasheet.notes` with the reason.

Units with the same name in several factions are listed as ``Name [faction]``;
the plain name finds the first in the dataset's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.errors import UnknownNameError

EDITION = "core11"
DEFAULT_BASE_MM = 32.0
"""Base assumed where the dataset gives none (``draft`` hulls, unique bases)."""
HULL_BASE_MM = 100.0
"""A vehicle hull drawn as a circle of this diameter (the dataset has no size)."""

Raw = Mapping[str, Any]


@dataclass(frozen=True)
class AbilityFacts:
    """What the dataset says about one ability (it carries no rules prose)."""

    ability_id: str
    name: str
    effect_type: str
    """The top node of the ability's effect (``conditional``, ``targeting-permission``...)."""
    aura_inches: float | None
    """The ``aura-N`` range of its scope, if it has one."""
    effect_range: float | None
    """A ``range`` in its effect's modifier (Lone Operative's 12"), if any."""
    frequency: str | None
    """``usage.frequency`` (``once-per-turn``...)."""
    summary: str
    """wh40kdc's generated plain-English description."""
    lasting: bool = False
    """Whether it holds all battle long by itself (:func:`_lasting`): only such an
    ability is read as a standing Feel No Pain or targeting limit."""
    feel_no_pain: int | None = None
    """X when the ability is, unconditionally, a Feel No Pain X+ (an effect of type
    ``feel-no-pain`` whose only modifier is its threshold, :attr:`lasting`), whatever
    its name."""


class Wh40kdcLibrary:
    """Datasheets made from the embedded ``wh40kdc`` dataset, loaded on first use."""

    def __init__(self, dataset: Any = None) -> None:
        self._given = dataset

    @cached_property
    def dataset(self) -> Any:
        """The ``wh40kdc.Dataset`` (the embedded one unless another was given)."""
        if self._given is not None:
            return self._given
        import wh40kdc

        return wh40kdc.Dataset.embedded()

    @cached_property
    def _by_name(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for unit in self.dataset.units.all:
            counts[unit.name.lower()] = counts.get(unit.name.lower(), 0) + 1
        table: dict[str, Any] = {}
        for unit in self.dataset.units.all:
            if counts[unit.name.lower()] > 1:
                table.setdefault(f"{unit.name} [{unit.faction_id}]".lower(), unit)
            table.setdefault(unit.name.lower(), unit)
        return table

    def names(self, query: str = "", army: str = "") -> list[str]:
        """The names of :meth:`units`, sorted."""
        return [name for name, _ in self.units(query, army)]

    def units(self, query: str = "", army: str = "") -> list[tuple[str, str]]:
        """``(unit name, faction name)`` of the units matching ``query`` and ``army``
        (case-insensitive), sorted.

        ``query`` may be part of the unit's name or of its faction's (id or
        name: ``orks`` finds the Ork units); ``army`` keeps only the units of
        the factions it is part of. A name shared by several factions is
        listed once per faction as ``Name [faction]``.
        """
        counts: dict[str, int] = {}
        for unit in self.dataset.units.all:
            counts[unit.name] = counts.get(unit.name, 0) + 1
        wanted, side = query.lower(), army.lower()
        found = set()
        for unit in self.dataset.units.all:
            faction_name = getattr(unit.faction, "name", "") or unit.faction_id
            faction = f"{unit.faction_id} {faction_name}".lower()
            name = f"{unit.name} [{unit.faction_id}]" if counts[unit.name] > 1 else unit.name
            if side in faction and (wanted in name.lower() or wanted in faction):
                found.add((name, faction_name))
        return sorted(found)

    def datasheet(self, name: str) -> Datasheet:
        """The datasheet of the unit called ``name`` (case-insensitive)."""
        unit = self._by_name.get(name.strip().lower())
        if unit is None:
            raise UnknownNameError("core11 unit", name, self.names())
        return _UnitReader(self.dataset, unit).datasheet()

    def datasheets(self) -> Iterable[Datasheet]:
        """Every unit of the dataset as a datasheet, in the dataset's order."""
        for unit in self.dataset.units.all:
            yield _UnitReader(self.dataset, unit).datasheet()

    @cached_property
    def _abilities(self) -> dict[str, list[Any]]:
        """The dataset's abilities by lower-case name, each name's in dataset order."""
        table: dict[str, list[Any]] = {}
        for view in self.dataset.abilities.all:
            table.setdefault(view.name.lower(), []).append(view)
        return table

    @cached_property
    def _ability_facts(self) -> dict[tuple[str, str], AbilityFacts | None]:
        """Facts already read, by (army, lower-case name): the dataset never changes."""
        return {}

    def ability(self, army: str, name: str) -> AbilityFacts | None:
        """The ability called ``name`` as faction ``army`` has it, if any (else the
        first of that name in the dataset)."""
        key = (army, name.lower())
        if key not in self._ability_facts:
            views = self._abilities.get(key[1], [])
            mine = next((v for v in views if v.raw.get("faction_id") == army), None)
            chosen = mine or (views[0] if views else None)
            self._ability_facts[key] = _facts(chosen) if chosen is not None else None
        return self._ability_facts[key]


def _facts(view: Any) -> AbilityFacts:
    raw = view.raw
    effect = raw.get("effect") if isinstance(raw.get("effect"), dict) else {}
    scope = raw.get("scope") if isinstance(raw.get("scope"), dict) else {}
    reach = str(scope.get("range") or "")
    modifier = effect.get("modifier") or {}
    effect_range = modifier.get("range") if isinstance(modifier, dict) else None
    aura = reach.removeprefix("aura-")
    lasting = _lasting(raw, scope)
    return AbilityFacts(
        ability_id=view.id,
        name=view.name,
        effect_type=str(effect.get("type") or ""),
        aura_inches=float(aura) if reach.startswith("aura-") and aura.isdigit() else None,
        effect_range=float(effect_range) if isinstance(effect_range, int | float) else None,
        frequency=(raw.get("usage") or {}).get("frequency"),
        summary=view.describe(),
        lasting=lasting,
        feel_no_pain=_feel_no_pain(effect) if lasting else None,
    )


LASTING_BEHAVIOURS = frozenset({"passive", "aura"})
"""wh40kdc's ``behavior`` of an ability nobody uses and nothing triggers (the others
are ``activated``, a player's choice, and ``reactive``, an answer to an event)."""
LASTING_DURATIONS = frozenset({"permanent", "battle"})
"""wh40kdc's ``scope.duration`` of an effect that lasts the whole battle; the others
end (``phase``, ``turn``, ``until-next-command-phase``, ``one-use``...)."""


def _lasting(raw: Raw, scope: Raw) -> bool:
    """Whether the ability holds all battle long by itself: ``passive`` (or an aura),
    with no ``usage`` (``n-per-battle``...) and no ``trigger``, for the whole battle.

    Living Fortress is a ``feel-no-pain`` effect too, but ``activated``, with the usage
    ``{"count": 1, "frequency": "n-per-battle"}`` and the duration ``phase`` ("Once
    per battle, until the end of the phase, the unit has the Feel No Pain 4+
    ability."), and Omnissiah's Blessing lasts "Until the start of your next Command
    phase": a choice and a time hammerlab does not play, so neither is lasting (review
    s23, core11 1: both were applied to every wound of the battle)."""
    return (
        raw.get("behavior") in LASTING_BEHAVIOURS
        and not raw.get("usage")
        and not raw.get("trigger")
        and scope.get("duration") in LASTING_DURATIONS
    )


def _feel_no_pain(effect: Raw) -> int | None:
    """The threshold of a ``feel-no-pain`` effect with no scope such as "psychic
    attacks only" (its only modifier is the threshold), else ``None``."""
    modifier = effect.get("modifier")
    if effect.get("type") != "feel-no-pain" or not isinstance(modifier, dict):
        return None
    threshold = modifier.get("threshold")
    if set(modifier) != {"threshold"} or not isinstance(threshold, int):
        return None
    return threshold


class _UnitReader:
    """Reads one wh40kdc unit record; collects notes as it goes."""

    def __init__(self, dataset: Any, unit: Any) -> None:
        self.ds = dataset
        self.unit = unit
        self.raw: Raw = unit.raw
        self.notes: list[str] = []

    def datasheet(self) -> Datasheet:
        keywords = frozenset(k.upper() for k in [*self.unit.keywords, *self.unit.faction_keywords])
        entries = tuple(self._entry(row, keywords) for row in self._rows())
        version = self.raw.get("game_version") or {}
        return Datasheet(
            name=self.unit.name,
            army=self.unit.faction_id,
            edition=EDITION,
            entries=entries,
            rules=tuple(a.name for a in self.unit.abilities),
            keywords=keywords,
            source=f"wh40kdc {self.unit.id} ({self.unit.faction_id}, "
            f"{version.get('dataslate', '?')})",
            notes=tuple(dict.fromkeys(self.notes)),
            size_range=self._size_range(entries),
        )

    def _size_range(self, entries: tuple[ModelEntry, ...]) -> tuple[int, int | None] | None:
        """The sizes a scenario's ``size`` may give a unit with a variable entry
        (:attr:`Datasheet.size_range`): from its default size (each model's minimum in
        the dataset's unit composition) to the dataset's largest unit,
        ``model_count.max`` (an Intercessor Squad: 5 to 10); ``None`` for a unit of
        fixed size, or where the dataset gives no maximum."""
        default = sum(e.count for e in entries)
        most = (self.raw.get("model_count") or {}).get("max")
        if not any(e.variable for e in entries) or most is None:
            return None
        return (default, max(default, int(most)))

    # --- models --------------------------------------------------------------
    def _rows(self) -> list[Raw]:
        composition = self.ds.unit_composition_of(self.raw)
        if composition and composition.get("models"):
            rows: list[Raw] = list(composition["models"])
            return rows
        self.notes.append("no unit composition in the dataset: one entry per profile")
        low = int((self.raw.get("model_count") or {}).get("min") or 1)
        high = int((self.raw.get("model_count") or {}).get("max") or low)
        profiles = self.unit.profiles
        return [
            {
                "name": p["name"],
                "min": low if i == 0 else 1,
                "max": high if i == 0 else 1,
                "default_weapon_ids": self._base_weapon_ids(),
            }
            for i, p in enumerate(profiles)
        ]

    def _base_weapon_ids(self) -> list[str]:
        import wh40kdc

        counts = wh40kdc.base_loadout(dict(self.raw), 1, self.unit.wargear_options)
        return [wid for wid, n in counts.items() if n > 0]

    def _entry(self, row: Raw, keywords: frozenset[str]) -> ModelEntry:
        stats = self._profile_for(row)
        characteristics = {
            "M": f'{stats["M"]}"',
            "T": str(stats["T"]),
            "Sv": f"{stats['Sv']}+",
            "W": str(stats["W"]),
            "Ld": f"{stats['Ld']}+",
            "OC": str(stats["OC"]),
        }
        if stats.get("invuln_sv_ranged") is not None:
            characteristics["Inv (ranged)"] = f"{stats['invuln_sv_ranged']}+"
        low, high = int(row.get("min") or 0), int(row.get("max") or 0)
        return ModelEntry(
            profile=Profile(
                name=str(row["name"]),
                characteristics=characteristics,
                unit_type=str(self.raw.get("role") or "unit"),
                invulnerable=stats.get("invuln_sv"),
                keywords=keywords,
            ),
            count=low,
            weapons=tuple(w for wid in self._weapon_ids(row) for w in self._weapons(wid)),
            base_mm=self._base_mm(row.get("base_size_mm") or self.raw.get("base_size_mm")),
            variable=high > low and not row.get("is_leader_model", False),
        )

    def _profile_for(self, row: Raw) -> Raw:
        profiles = self.unit.profiles
        wanted = str(row.get("profile_name") or row["name"])
        for profile in profiles:
            if profile["name"] == wanted:
                found: Raw = profile
                return found
        if len(profiles) == 1:
            only: Raw = profiles[0]
            return only
        low = wanted.lower()
        near = [p for p in profiles if p["name"].lower() in low or low in p["name"].lower()]
        if len(near) == 1:
            self.notes.append(f"model {row['name']!r} uses the profile {near[0]['name']!r}")
            close: Raw = near[0]
            return close
        self.notes.append(
            f"model {row['name']!r} has no profile of its own; it uses {profiles[0]['name']!r}"
        )
        first: Raw = profiles[0]
        return first

    def _weapon_ids(self, row: Raw) -> list[str]:
        ids = list(row.get("default_weapon_ids") or [])
        variants = row.get("loadout_variants") or []
        if ids or not variants:
            return ids
        chosen = next((v for v in variants if v.get("name") == row["name"]), variants[0])
        self.notes.append(
            f"model {row['name']!r} has no default wargear; it takes the loadout "
            f"{chosen.get('name')!r}"
        )
        return list(chosen.get("weapon_ids") or [])

    def _base_mm(self, base: Raw | None) -> float:
        if not base:
            self.notes.append(f"no base size in the dataset: {DEFAULT_BASE_MM:g} mm assumed")
            return DEFAULT_BASE_MM
        shape = base.get("shape")
        if shape == "round" and base.get("diameter"):
            return float(base["diameter"])
        if base.get("length") and base.get("width"):
            size = (float(base["length"]) + float(base["width"])) / 2.0
            self.notes.append(
                f"{shape} base {base['length']}x{base['width']} mm read as a {size:g} mm circle"
            )
            return size
        size = HULL_BASE_MM if shape == "hull" else DEFAULT_BASE_MM
        self.notes.append(f"{shape} base without a size: a {size:g} mm circle assumed")
        return size

    # --- weapons -------------------------------------------------------------
    def _weapons(self, weapon_id: str) -> list[Weapon]:
        view = self.ds.weapons.get_in_faction(weapon_id, self.unit.faction_id)
        view = view or self.ds.weapons.get_any(weapon_id)
        if view is None:
            self.notes.append(f"weapon {weapon_id!r} is not in the dataset: left out")
            return []
        profiles = view.profiles
        single = len(profiles) == 1 and profiles[0]["name"].lower() == view.name.lower()
        out = []
        for profile in profiles:
            name = view.name if single else f"{view.name} ({profile['name']})"
            weapon = self._weapon(name, "" if single else view.name, profile)
            if weapon is not None:
                out.append(weapon)
        return out

    def _weapon(self, name: str, parent: str, profile: Raw) -> Weapon | None:
        stats = profile.get("stats") or {}
        melee = profile.get("range") == "Melee"
        skill = "WS" if melee else "BS"
        missing = [k for k in ("A", "S", "AP", "D") if stats.get(k) is None]
        if missing:
            self.notes.append(f"weapon {name!r} left out: no {', '.join(missing)} in the dataset")
            return None
        keywords = [self._keyword(name, ref) for ref in profile.get("keywords") or []]
        keywords += _target_restrictions(profile.get("target_restrictions"))
        ap = int(stats["AP"])
        return Weapon(
            name=name,
            characteristics={
                "Range": "Melee" if melee else f'{profile["range"]}"',
                "A": str(stats["A"]),
                skill: "N/A" if stats.get(skill) is None else f"{stats[skill]}+",
                "S": str(stats["S"]),
                "AP": str(ap) if ap <= 0 else f"-{ap}",
                "D": str(stats["D"]),
                **({"Weapon": parent} if parent else {}),
            },
            keywords=tuple(k for k in keywords if k),
        )

    def _keyword(self, weapon: str, ref: Raw) -> str:
        """A weapon-keyword reference written as a datasheet prints it."""
        catalog = self.ds.weapon_keywords.get(ref["keyword_id"])
        title = (catalog.name if catalog is not None else ref["keyword_id"]).upper()
        params = dict(ref.get("parameters") or {})
        target = params.pop("target_keyword", None)
        threshold = params.pop("threshold", None)
        value = params.pop("value", None)
        only = params.pop("required_target_keywords_any", None)
        never = params.pop("excluded_target_keywords", None)
        if params:
            self.notes.append(
                f"weapon {weapon!r}: {title} parameters {sorted(params)} not understood"
            )
        text = f"{title}-{str(target).upper()}" if target else title
        if threshold is not None:
            text += f" {threshold}+"
        if value is not None:
            text += f" {value}"
        if only:
            text += f" (only vs {'/'.join(str(k).upper() for k in only)})"
        if never:
            text += f" (not vs {'/'.join(str(k).upper() for k in never)})"
        return text


def _target_restrictions(restrictions: Raw | None) -> list[str]:
    """A profile's target restrictions as keywords (``TARGETS MONSTER/VEHICLE ONLY``)."""
    if not restrictions:
        return []
    out = []
    if restrictions.get("required_keywords_any"):
        kinds = "/".join(str(k).upper() for k in restrictions["required_keywords_any"])
        out.append(f"TARGETS {kinds} ONLY")
    if restrictions.get("excluded_keywords"):
        kinds = "/".join(str(k).upper() for k in restrictions["excluded_keywords"])
        out.append(f"TARGETS NOT {kinds}")
    return out
