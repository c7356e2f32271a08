"""Typed Waffle Edition views of edition-neutral datasheet profiles.

A profile is read as ``WS BS S T W I A Ld Sv`` plus an invulnerable save; a
weapon as ``Range S AP Type``, where Type holds the weapon type with its shots
and the weapon's special rules (``"Heavy 1, Blast, Pinning"``), as the
6th/7th-edition books print it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import lru_cache

from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.memo import per_object
from hammerlab.errors import ProfileError
from hammerlab.io.bounds import (
    AP,
    BLAST_MARKERS,
    MAX_RANGE,
    ROLL_RULE,
    SAVE,
    STRENGTH,
    STRENGTH_CHANGE,
    VEHICLE_TYPE,
    blast_marker,
    characteristic_problem,
    marker_problem,
    roll_problems,
    shots_problem,
    unit_type_problem,
)

STAT_NAMES = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv")
BASE_TYPES = ("Assault", "Heavy", "Rapid Fire", "Salvo", "Pistol", "Ordnance", "Melee")
MARKERS = (*BLAST_MARKERS, "Template", "Barrage")
ONE_USE = "One Use Only"
"""The rule of a weapon fired once in a battle (``one_use``)."""
WEAPON_RULES = (
    "Twin-linked",
    "Rending",
    "Pinning",
    "Ignores Cover",
    "Shred",
    "Poisoned",
    "Instant Death",
    "Unwieldy",
    "Specialist Weapon",
    "Two-handed",
    "Fleshbane",
    "Sniper",
    "Bladestorm",
    "Gets Hot",
    "Concussive",
    "Force",
    "Melta",
    "Lance",
    "Armourbane",
    "Haywire",
    "Skyfire",
    "Grenade",
    "Assault Grenades",
    ONE_USE,
)
"""Weapon special rules the Waffle Edition engine resolves (Force: the Psyker knows
the Force power, ``psychic_powers.FORCE``; Melta, Lance, Armourbane and Haywire
against vehicles only, ``armour.armour_attack``; Skyfire, ``flyers.snap_against``;
Grenade, one thrown per unit per phase, ``firing_modes``; Assault Grenades, the
Orks' stikkbombs' rule in the data, no Initiative 1 after a charge through
difficult terrain, ``difficult_charge.is_assault_grenade``; One Use Only, a weapon
spent once fired or once its fight's blows are struck, ``one_use``)."""
RULE_SPELLINGS = {
    "gets hot!": "Gets Hot",
    "unwieldly": "Unwieldy",
    "one use": ONE_USE,
    "one shot": ONE_USE,
    "one shot only": ONE_USE,
    "one use only/one shot only": ONE_USE,
}
"""Other spellings of a weapon rule in the data (lower case) → the rule's name: the
Orks' ``Gets Hot!``; the Tyranid catalogue's Crushing Claws, ``Melee, Armourbane,
Unwieldly`` (the 7th-edition crushing claws are "Melee, Armourbane, Unwieldy"); the
shared game system's rule "One Use Only/One Shot Only", which the catalogues also
write ``One Use`` (the Valkyrie's Hellstrike Missile) and ``One Shot`` (the Gorgon
Mortar) and link by its own name beside the Type's ``One Use Only`` (the Stormraven's
Stormstrike Missiles: the rule is read once)."""


@dataclass(frozen=True)
class Stats:
    """A model's Waffle Edition characteristics."""

    ws: int
    bs: int
    s: int
    t: int
    w: int
    i: int
    a: int
    ld: int
    sv: int | None
    """Armour save (number before the plus), ``None`` when the profile has none."""
    invulnerable: int | None
    unit_type: str

    def has_type(self, word: str) -> bool:
        """Whether the unit type mentions ``word`` (``Character``, ``Bike``...); a
        (Flying) Gargantuan Creature is a (Flying) Monstrous Creature too (7th edition,
        as remembered: Gargantuan Creatures follow the rules for Monstrous Creatures,
        with additions: docs/rules/waffle.md, interpretation 18)."""
        wanted, written = word.lower(), self.unit_type.lower()
        return wanted in written or wanted in written.replace("gargantuan", "monstrous")


_DIGITS = re.compile(r"[0-9]+")
"""ASCII digits only: ``str.isdigit`` also accepts ``²``, which ``int`` refuses."""
_INCHES = re.compile(r"[0-9]+(\.[0-9]+)?")


NOT_A_ROLL = (
    "a characteristic is the 6th/7th-edition number, not the roll it needs "
    "(BS 4 hits on 3+, BS 3 on 4+)"
)
"""Why a characteristic written as a roll (``BS = "4+"``) is refused."""


def _is_number(text: str) -> bool:
    return _DIGITS.fullmatch(text) is not None


def _number(profile_name: str, key: str, raw: str) -> int:
    """Characteristic ``key`` written ``raw`` (``"4"``), within its 6th/7th-edition bounds
    (``io.bounds.CHARACTERISTICS``). A roll (``"4+"``) is refused: a player used to
    later editions means BS ``4+`` to hit on 4+, which is BS 3 (:data:`NOT_A_ROLL`)."""
    text = raw.strip()
    if text.endswith("+") and _is_number(text.rstrip("+").strip()):
        raise ProfileError(
            f"{profile_name}: {key} must be a number, got {raw!r}: {NOT_A_ROLL}", key
        )
    if not _is_number(text):
        raise ProfileError(f"{profile_name}: {key} must be a number, got {raw!r}", key)
    value = int(text)
    problem = characteristic_problem(key, value)
    if problem is not None:
        raise ProfileError(f"{profile_name}: {problem}", key)
    return value


NO_SKILL = ("WS", "BS", "A")
"""Characteristics a model may lack, written ``-`` (a Tyranid Spore Mine: ``WS - BS -
S 1 T 1 W 1 I 1 A - Ld 1``): read as 0, as a vehicle without WS has WS 0. It makes
no attacks (A 0), fires no weapon (BS 0: ``attacks.firing_models``) and is hit in
close combat as the To Hit chart's lowest WS, 1 (``tables.melee_cell``)."""


GUN_NO_VALUE = ("S", "I", "Ld")
"""Characteristics an Artillery gun also lacks (7th edition: ``WS - BS - S - T 7 W 2
I - A - Ld - Sv 3+``): read as 0 on a model of the Artillery unit type
(``artillery.is_gun``: it has no Strength)."""


def _number_or_none(profile_name: str, key: str, raw: str, lacking: tuple[str, ...]) -> int:
    """``_number``, or 0 for a characteristic of ``lacking`` written ``-``."""
    if key in lacking and raw.strip() == "-":
        return 0
    return _number(profile_name, key, raw)


VEHICLE_STAT_NAMES = ("BS", "Front", "Side", "Rear", "HP")
"""A vehicle's characteristics (7th edition: BS, Armour Values, Hull Points)."""
WALKER_STAT_NAMES = ("WS", "S", "I", "A")
"""A Walker's characteristics besides (it fights in close combat)."""
VEHICLE_TOUGHNESS = 10
VEHICLE_LEADERSHIP = 10
"""A vehicle has neither Toughness nor Leadership: no rule reads them of a vehicle
(its hits roll armour penetration, ``armour.py``; Morale and Pinning skip it,
``vehicles.is_vehicle``); these stand in only so that a vehicle has a :class:`Stats`."""


WEAPON_KEYS = ("Range", "S", "AP", "Type")
"""The characteristics :func:`weapon_of` reads (a weapon's rules go in ``Type``, or
its ``keywords``)."""


def profile_keys(profile: Profile) -> tuple[str, ...]:
    """The characteristics :func:`stats_of` reads of ``profile``: a vehicle's
    (:data:`VEHICLE_STAT_NAMES`, a Walker's :data:`WALKER_STAT_NAMES` too: any
    of them may be written), or a model's (:data:`STAT_NAMES`)."""
    if is_vehicle_profile(profile):
        return VEHICLE_STAT_NAMES + WALKER_STAT_NAMES
    return STAT_NAMES


def is_vehicle_profile(profile: Profile) -> bool:
    """Whether ``profile`` is a vehicle's (it has Armour Values)."""
    return "Front" in profile.characteristics


def _vehicle_stats(profile: Profile) -> Stats:
    """A vehicle's profile as :class:`Stats`: W is its Hull Points (each glancing or
    penetrating hit takes one off, as a wound does), BS its BS; a Walker's WS S I A
    as written; a vehicle without WS has WS 0, S 0, I 1, A 0 (it never strikes)."""
    walker = "WS" in profile.characteristics
    names = VEHICLE_STAT_NAMES + (WALKER_STAT_NAMES if walker else ())
    missing = [k for k in names if k not in profile.characteristics]
    if missing:
        raise ProfileError(f"{profile.name}: missing characteristic(s) {', '.join(missing)}")
    _check_unit_type(profile)
    read = {k: _number(profile.name, k, profile.characteristics[k]) for k in names}
    return Stats(
        ws=read.get("WS", 0),
        bs=read["BS"],
        s=read.get("S", 0),
        t=VEHICLE_TOUGHNESS,
        w=read["HP"],
        i=read.get("I", 1),
        a=read.get("A", 0),
        ld=VEHICLE_LEADERSHIP,
        sv=None,
        invulnerable=profile.invulnerable,
        unit_type=profile.unit_type,
    )


@per_object
def stats_of(profile: Profile) -> Stats:
    """Read ``profile`` as Waffle characteristics (cached: profiles are immutable)."""
    if is_vehicle_profile(profile):
        return _vehicle_stats(profile)
    _check_unit_type(profile)
    if VEHICLE_TYPE.match(profile.unit_type):
        raise ProfileError(
            f"{profile.name}: unit type {profile.unit_type!r} is a vehicle's, but the profile "
            "has no Armour Values: give BS, Front, Side, Rear and HP",
            "type",
        )
    missing = [k for k in STAT_NAMES if k not in profile.characteristics]
    if missing:
        raise ProfileError(f"{profile.name}: missing characteristic(s) {', '.join(missing)}")
    values = {k: profile.characteristics[k] for k in STAT_NAMES}
    save = values["Sv"].strip()
    lacking = NO_SKILL + (GUN_NO_VALUE if "artillery" in profile.unit_type.lower() else ())

    def read(key: str) -> int:
        return _number_or_none(profile.name, key, values[key], lacking)

    return Stats(
        ws=read("WS"),
        bs=read("BS"),
        s=read("S"),
        t=_number(profile.name, "T", values["T"]),
        w=_number(profile.name, "W", values["W"]),
        i=read("I"),
        a=read("A"),
        ld=read("Ld"),
        sv=None if save in ("-", "") else _save(profile.name, save),
        invulnerable=profile.invulnerable,
        unit_type=profile.unit_type,
    )


def _check_unit_type(profile: Profile) -> None:
    """Refuse a unit type that is not a 7th-edition one (``Dragon``): the rules would
    play it as Infantry without saying so."""
    problem = unit_type_problem(profile.unit_type)
    if problem is not None:
        raise ProfileError(f"{profile.name}: {problem}", "type")


def _save(profile_name: str, raw: str) -> int:
    """An armour save ``2+`` to ``6+``."""
    text = raw.strip().rstrip("+").strip()
    if not _is_number(text):
        raise ProfileError(f"{profile_name}: Sv must be a number, got {raw!r}", "Sv")
    low, high = SAVE
    if not low <= int(text) <= high:
        raise ProfileError(
            f"{profile_name}: Sv must be {low}+ to {high}+ (or - for none), not {raw!r}", "Sv"
        )
    return int(text)


@dataclass(frozen=True)
class StrengthSpec:
    """Weapon Strength: a number, the user's (``User``), ``xN`` or ``+N``."""

    value: int
    mode: str = "fixed"
    """``fixed``, ``user``, ``times`` or ``plus``."""

    def resolve(self, user_strength: int) -> int:
        """The Strength for a wielder with ``user_strength``, at most 10."""
        if self.mode == "user":
            return user_strength
        if self.mode == "times":
            return min(10, user_strength * self.value)
        if self.mode == "plus":
            return min(10, user_strength + self.value)
        return self.value


@lru_cache(maxsize=4096)
def _rule_names(rules: tuple[str, ...]) -> frozenset[str]:
    """Rules as :meth:`WeaponProfile.has_rule` compares them: lower case, no ``(X+)``."""
    return frozenset(r.lower().split(" (")[0] for r in rules)


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon read for the Waffle Edition."""

    name: str
    range: float | None
    """Maximum range in inches; ``None`` for templates and melee weapons."""
    strength: StrengthSpec
    ap: int | None
    base_type: str
    shots: int
    salvo_moving_shots: int
    """Shots of a Salvo weapon when the firer moved (the lower number)."""
    blast: float | None
    """Blast marker diameter in inches (3, 5, 7 or 10: ``io.bounds.BLAST_MARKERS``), if any."""
    template: bool
    barrage: bool
    rules: tuple[str, ...]
    """Weapon special rules as written (``Rending``, ``Poisoned (4+)``...)."""

    def __hash__(self) -> int:
        """The hash the dataclass would give (of the tuple of its fields, in order),
        worked out once and read back as :meth:`Weapon.__hash__` reads its own: blows,
        volleys and odds are remembered by their weapon profile, on every estimate, and
        the generated hash hashed every field (the Strength's too) each time."""
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
            return cached

    @property
    def is_ranged(self) -> bool:
        """Whether the weapon shoots (Pistols do; Melee weapons do not)."""
        return self.base_type != "Melee"

    @property
    def can_snap_fire(self) -> bool:
        """Seed 000, Snap Shots: Template, Ordnance and Blast weapons cannot."""
        return not (self.template or self.blast or self.base_type == "Ordnance")

    @property
    def ignores_cover(self) -> bool:
        """Whether no cover save may be taken against the weapon's wounds: it has the
        Ignores Cover rule ("Cover saves cannot be taken against Wounds, glancing hits or
        penetrating hits caused by weapons with the Ignores Cover special rule",
        ``Warhammer40K.gst``), or it is a Template weapon: 7th edition, "Template weapons
        have the Ignores Cover, Wall of Death and No Escape special rules" (the
        rulebook's text as quoted in the Dakka thread "Template Special Rule"; Horus
        Heresy 2.0 prints the same). docs/rules/waffle.md, interpretation 26."""
        return self.template or self.has_rule("Ignores Cover")

    @property
    def is_heavy_like(self) -> bool:
        """Heavy, Salvo and Ordnance weapons fire snap shots (or fewer shots) after moving."""
        return self.base_type in ("Heavy", "Ordnance")

    def has_rule(self, name: str) -> bool:
        """Whether the weapon has rule ``name`` (ignoring any ``(X+)`` suffix). Its rules as
        it compares them (:func:`_rule_names`) are read once and kept with the profile:
        every estimate asks a weapon about its rules, a lookup by the tuple of them each time."""
        try:
            names: frozenset[str] = self._names  # type: ignore[attr-defined]
        except AttributeError:
            names = _rule_names(self.rules)
            object.__setattr__(self, "_names", names)
        return name.lower() in names

    def rule_value(self, name: str) -> int | None:
        """The number in ``Poisoned (4+)`` style rules."""
        for rule in self.rules:
            match = ROLL_RULE.fullmatch(rule)
            if match and match.group("name").lower() == name.lower():
                return int(match.group("value"))
        return None

    def unsupported_rules(self) -> list[str]:
        """Special rules the engine does not resolve."""
        return [r for r in self.rules if r.split(" (")[0].lower() not in _LOWER_RULES]


def single_hit(
    name: str, strength: StrengthSpec, base_type: str = "Melee", rules: tuple[str, ...] = ()
) -> WeaponProfile:
    """A one-shot AP- profile with no marker, for hits the rules make without a
    weapon of their own (a Hammer of Wrath hit, a Smash Attack, an explosion)."""
    return WeaponProfile(
        name=name,
        range=None,
        strength=strength,
        ap=None,
        base_type=base_type,
        shots=1,
        salvo_moving_shots=1,
        blast=None,
        template=False,
        barrage=False,
        rules=rules,
    )


_LOWER_RULES = {r.lower() for r in WEAPON_RULES}
_TYPE_RE = re.compile(
    r"^(?P<kind>Assault|Heavy|Rapid Fire|Salvo|Pistol|Ordnance|Melee)"
    r"\s*(?P<shots>\d+)?(?:\s*/\s*(?P<salvo>\d+))?$",
    re.IGNORECASE,
)


def _parse_strength(name: str, raw: str) -> StrengthSpec:
    """``4``, ``User``, ``x2`` or ``+1``, within ``io.bounds.STRENGTH`` (1 to 10) and
    ``io.bounds.STRENGTH_CHANGE``."""
    text = raw.strip().lower()
    if text in ("user", "u"):
        return StrengthSpec(0, "user")
    spec = None
    if text[:1] in ("x", "×") and _is_number(text[1:]):
        spec, bounds = StrengthSpec(int(text[1:]), "times"), STRENGTH_CHANGE
    elif text[:1] == "+" and _is_number(text[1:]):
        spec, bounds = StrengthSpec(int(text[1:]), "plus"), STRENGTH_CHANGE
    elif _is_number(text):
        spec, bounds = StrengthSpec(int(text)), STRENGTH
    if spec is None:
        raise ProfileError(f"weapon {name}: Strength {raw!r} is not a number, User, xN or +N", "S")
    low, high = bounds
    if not low <= spec.value <= high:
        what = "Strength" if spec.mode == "fixed" else f"the N of Strength {text[:1]}N"
        raise ProfileError(f"weapon {name}: {what} must be {low} to {high}, not {raw!r}", "S")
    return spec


def _parse_range(name: str, raw: str) -> float | None:
    """Inches (more than 0, at most ``io.bounds.MAX_RANGE``), or ``None`` for a
    template or melee weapon."""
    text = raw.strip().rstrip('"').strip().lower()
    if text in ("template", "-", "melee", ""):
        return None
    if _INCHES.fullmatch(text) is None:
        raise ProfileError(
            f"weapon {name}: Range {raw!r} is not inches, Template, Melee or -", "Range"
        )
    inches = float(text)
    if not 0 < inches <= MAX_RANGE:
        raise ProfileError(
            f"weapon {name}: Range must be more than 0 and at most {MAX_RANGE} inches, not {raw!r}",
            "Range",
        )
    return inches


def _check_rules(name: str, rules: list[str], key: str) -> None:
    """Refuse a Poisoned value outside ``io.bounds.POISONED`` (``Poisoned (0+)``,
    ``Poisoned (9+)``), which would otherwise be read as no value (4+) or not at all
    (:func:`io.bounds.roll_problems`)."""
    for problem in roll_problems(rules):
        raise ProfileError(f"weapon {name}: {problem}", key)


def _check_shots(name: str, written: str, *shots: int) -> None:
    """Refuse shots outside 1 to ``io.bounds.MAX_WEAPON_SHOTS`` a model."""
    for count in shots:
        problem = shots_problem(count)
        if problem is not None:
            raise ProfileError(f"weapon {name}: Type {written!r}: {problem}", "Type")


_DICE_SHOTS = re.compile(
    r"^(?:Assault|Heavy|Rapid Fire|Salvo|Pistol|Ordnance)\s*(?P<dice>[0-9]*\s*D\s*[0-9]+.*)$",
    re.IGNORECASE,
)


def _canonical(token: str, names: tuple[str, ...]) -> str | None:
    return next((n for n in names if n.lower() == token.lower()), None)


def blast_name(diameter: float) -> str:
    """The name of the blast marker ``diameter`` inches across (``io.bounds.BLAST_MARKERS``:
    3" ``Blast``, 5" ``Large Blast``, 7" ``Massive Blast``, 10" ``Apocalyptic Blast``)."""
    return next(name for name, inches in BLAST_MARKERS.items() if inches == diameter)


def _marker(token: str) -> str | None:
    """The marker (of :data:`MARKERS`) a Type word names: a blast marker by name or size
    (``io.bounds.blast_marker``: ``7" Blast`` is the Massive Blast), a Template or
    Barrage; None for any other word."""
    return blast_marker(token) or _canonical(token, MARKERS)


@per_object
def weapon_of(weapon: Weapon) -> WeaponProfile:
    """Read ``weapon`` as a Waffle weapon profile (cached)."""
    name = weapon.name
    range_raw = weapon.get("Range", "-")
    tokens = [t.strip() for t in weapon.get("Type", "").split(",") if t.strip()]
    tokens += list(weapon.keywords)
    if not tokens:
        tokens = ["Melee"] if _parse_range(name, range_raw) is None else []
    if not tokens:
        raise ProfileError(f"weapon {name}: no Type given", "Type")
    base_type, shots, salvo_low = "Assault", 1, 1
    markers: set[str] = set()
    rules: list[str] = []
    head = _TYPE_RE.match(tokens[0])
    if head:
        base_type = _canonical(head.group("kind"), BASE_TYPES) or "Assault"
        first = int(head.group("shots") or 1)
        if base_type == "Salvo":
            salvo_low, shots = first, int(head.group("salvo") or first)
        else:
            shots = first
        tokens = tokens[1:]
    elif (dice := _DICE_SHOTS.match(tokens[0])) is not None:
        raise ProfileError(
            f"weapon {name}: its shots {dice.group('dice').strip()!r} are dice, which the "
            "Waffle Edition does not roll (give a number of shots)",
            "Type",
        )
    elif _marker(tokens[0]) is None:
        raise ProfileError(
            f"weapon {name}: unknown weapon type {tokens[0]!r} (Assault, Heavy, Rapid Fire, "
            "Salvo, Pistol, Ordnance or Melee, or a blast marker or a Template)",
            "Type",
        )
    if head:
        _check_shots(name, head.group(0), salvo_low, shots)
        if salvo_low > shots:
            raise ProfileError(
                f"weapon {name}: Type {head.group(0)!r}: a Salvo weapon is written L/H, "
                "its lower number of shots after moving, then its higher standing still "
                f"(Salvo {shots}/{salvo_low})",
                "Type",
            )
    for token in tokens:
        marker = _marker(token)
        unplaced = marker_problem(token)
        if unplaced is not None:
            raise ProfileError(f"weapon {name}: Type: {unplaced}", "Type")
        if marker:
            markers.add(marker)
        elif (rule := RULE_SPELLINGS.get(token.lower(), token)) not in rules:
            rules.append(rule)
    _check_rules(name, list(weapon.keywords), "keywords")
    _check_rules(name, rules, "Type")
    ap_raw = weapon.get("AP", "-").strip()
    low, high = AP
    if ap_raw not in ("-", "") and not (_is_number(ap_raw) and low <= int(ap_raw) <= high):
        raise ProfileError(f"weapon {name}: AP {ap_raw!r} is not {low}-{high} or -", "AP")
    blast = max((BLAST_MARKERS[m] for m in markers if m in BLAST_MARKERS), default=None)
    return WeaponProfile(
        name=name,
        range=_parse_range(name, range_raw),
        strength=_parse_strength(name, weapon.get("S", "User")),
        ap=int(ap_raw) if _is_number(ap_raw) else None,
        base_type=base_type,
        shots=shots,
        salvo_moving_shots=salvo_low,
        blast=blast,
        template="Template" in markers or range_raw.strip().lower() == "template",
        barrage="Barrage" in markers,
        rules=tuple(rules),
    )
