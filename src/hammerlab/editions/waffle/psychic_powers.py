"""Psykers and their psychic powers, read for the Waffle Edition (7th-edition rules).

A psychic power is an edition-neutral profile on a model
(:attr:`~hammerlab.engine.units.Model.powers`), written as the 7th-edition
books and the BattleScribe data write it: ``Warp Charge``, ``Power Category``
(Witchfire, Blessing, Malediction...), ``Range`` and, for a Witchfire power,
``Strength``/``S``, ``AP`` and ``Type`` like a gun. :func:`power_of` reads one;
:func:`unsupported_power` says why the engine cannot play one.

What is supported (``docs/rules/waffle.md``, Psychic phase): Witchfire powers
with a weapon profile (they are fired like a weapon, :mod:`.psychic`), Beam and
Nova powers with one (their hits, :mod:`.beam_nova`), and the Blessings of
:data:`BLESSINGS` and Force, which grant special rules the engine resolves, and
the Maledictions of :data:`maledictions.MALEDICTIONS`, which change
characteristics. Every other power (Focussed Witchfire powers, powers without a
profile, other Maledictions, Conjurations, other Blessings) is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from hammerlab.editions.waffle.maledictions import MALEDICTION, MALEDICTIONS
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.engine.datasheet import Datasheet, Weapon
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import ProfileError
from hammerlab.io.bounds import MASTERY, MAX_HIT_DICE, MAX_RANGE, mastery_problem

WITCHFIRE, BLESSING = "Witchfire", "Blessing"
BEAM, NOVA = "Beam", "Nova"
"""Witchfire powers of their own kind, as the data's Power Category names them."""
_DICE_SHOTS = re.compile(r"^(?P<kind>[A-Za-z ]+?)\s+(?P<dice>\d*)D6(?=\s*(,|$))", re.IGNORECASE)
"""A Beam or Nova power's random number of hits (Shockwave: ``Assault 2D6``)."""


@dataclass(frozen=True)
class BlessingEffect:
    """What a supported Blessing gives while it is in effect."""

    rules: tuple[str, ...] = ()
    """Special rules the models gain."""
    weapon_rules: tuple[tuple[str, str], ...] = ()
    """(weapon rule, rule gained): the models' weapons with the first (any weapon
    when it is ``""``) gain the second."""
    whole_unit: bool = False
    """A ``Self`` power that reaches "the Psyker and his unit"."""


BLESSINGS: dict[str, BlessingEffect] = {
    "Endurance": BlessingEffect(rules=("Eternal Warrior", "Feel No Pain (4+)", "Relentless")),
    "Perfect Timing": BlessingEffect(weapon_rules=(("", "Ignores Cover"),), whole_unit=True),
}
"""Blessings whose effect is special rules the engine resolves, by power name; the
texts of the BattleScribe data (``tests/data/bsdata-7e/Warhammer40K.gst``):

- Biomancy, Endurance (Warp Charge 2, 24"): "Whilst the power is in effect, all
  models in the target unit gain the Eternal Warrior, Feel No Pain (4+) and
  Relentless special rules".
- Divination, Perfect Timing (Warp Charge 1, Self): "Whilst this power is in
  effect, the Psyker and his unit's weapons have the Ignores Cover special rule".
"""

_PSYKER_RULES = ("psyker", "brotherhood of psykers", "brotherhood of psychers", "psychic pilot")
"""7th edition: "the term 'Psyker' and 'Psyker unit' refers to any unit with the
Psyker, Psychic Pilot or Brotherhood of Psykers/Sorcerers special rules" (the
Tyranid data spells it "Psychers")."""
_NAME_PREFIX = re.compile(r"^\s*(?:\([^)]*\)\s*|\d+\s*-\s*)")
"""The BattleScribe data number a discipline's powers (``5 - Endurance``) and mark
its primaris power (``(Primaris) Smite``)."""


@dataclass(frozen=True)
class PsychicPower:
    """A psychic power read for the Waffle Edition."""

    name: str
    """The power's name without the data's numbering (``Smite``)."""
    warp_charge: int
    category: str
    """The Power Category as written (``Witchfire``, ``Blessing``...)."""
    range: float | None
    """In inches; ``None`` for a power on the Psyker himself (``Self``)."""
    weapon: Weapon | None
    """A Witchfire power's shooting profile as a weapon (``Range S AP Type``)."""
    whole_unit: bool = False
    """A power on the Psyker "and his unit" (Force), though its range is ``Self``."""
    rules: tuple[str, ...] = ()
    """Special rules a supported Blessing grants (:data:`BLESSINGS`)."""
    weapon_rules: tuple[tuple[str, str], ...] = ()
    """(weapon rule, rule gained) of a supported Blessing (:attr:`BlessingEffect.weapon_rules`)."""
    hit_dice: int = 0
    """A Beam or Nova power whose Type gives its hits as ``ND6`` (Shockwave's
    ``Assault 2D6``): N, rolled for each unit hit; 0 when the profile's shots are
    a number."""

    @property
    def is_witchfire(self) -> bool:
        """A Witchfire power with a weapon profile (a Beam or a Nova one too): fired
        like a gun, or, for a Beam or Nova, its hits resolved like a gun's."""
        kinds = (WITCHFIRE.lower(), BEAM.lower(), NOVA.lower())
        return self.category.lower() in kinds and self.weapon is not None

    @property
    def is_beam(self) -> bool:
        """A Beam power with a weapon profile (:mod:`.beam_nova`)."""
        return self.category.lower() == BEAM.lower() and self.weapon is not None

    @property
    def is_nova(self) -> bool:
        """A Nova power with a weapon profile (:mod:`.beam_nova`)."""
        return self.category.lower() == NOVA.lower() and self.weapon is not None

    @property
    def is_blessing(self) -> bool:
        """A Blessing the engine plays (it grants rules it resolves)."""
        return self.category.lower() == BLESSING.lower() and bool(self.rules or self.weapon_rules)

    @property
    def is_malediction(self) -> bool:
        """A Malediction the engine plays (:data:`maledictions.MALEDICTIONS`)."""
        return self.category.lower() == MALEDICTION.lower() and self.name in MALEDICTIONS

    @property
    def targets_enemy(self) -> bool:
        """Whether the power is aimed at an enemy unit (so it may be denied)."""
        return self.is_witchfire or self.is_malediction


FORCE = PsychicPower(
    name="Force",
    warp_charge=1,
    category=BLESSING,
    range=None,
    weapon=None,
    whole_unit=True,
    weapon_rules=(("Force", "Instant Death"),),
)
"""7th edition, Force: "Any Psyker that has one or more weapons with this special
rule knows the Force psychic power in addition to any other powers they know.
Force - Warp Charge 1 Force is a blessing psychic power that targets the Psyker
and his unit. All of the targets' weapons that have the Force special rule gain
the Instant Death special rule until the start of your next Psychic phase"
(the rule's text in the BattleScribe data, ``tests/data/bsdata-7e/Warhammer40K.gst``)."""


POWER_KEYS = ("Warp Charge", "Range", "Power Category", "Type", "Strength", "S", "AP", "Details")
"""The characteristics :func:`power_of` reads (a Witchfire power's weapon profile:
``Strength`` or ``S``, ``AP`` and ``Type``; ``Details``, its text)."""


def _characteristic(power: Weapon, *names: str) -> str:
    return next((power.get(n) for n in names if power.get(n)), "")


@lru_cache(maxsize=1024)
def power_of(power: Weapon) -> PsychicPower:
    """Read ``power`` (cached: profiles are immutable); a bad Warp Charge or Range is
    a :class:`~hammerlab.errors.ProfileError` naming the power."""
    name = _NAME_PREFIX.sub("", power.name).strip() or power.name
    charge = power.get("Warp Charge").strip()
    if not charge.isascii() or not charge.isdigit() or not 1 <= int(charge) <= 6:
        raise ProfileError(
            f"psychic power {power.name}: Warp Charge must be 1-6, got {charge!r}", "Warp Charge"
        )
    reach = power.get("Range").strip().rstrip('"').strip()
    if reach.lower() not in ("self", "") and not (
        re.fullmatch(r"[0-9]+", reach) and 0 < int(reach) <= MAX_RANGE
    ):
        raise ProfileError(
            f"psychic power {power.name}: Range {reach!r} is not inches (1 to {MAX_RANGE}) or Self",
            "Range",
        )
    gun: Weapon | None = None
    category = power.get("Power Category").strip() or "(none)"
    kind, hit_dice = power.get("Type"), 0
    dice = _DICE_SHOTS.match(kind.strip())
    if dice and category.lower() in (BEAM.lower(), NOVA.lower()):
        hit_dice = int(dice.group("dice") or 1)
        if not 1 <= hit_dice <= MAX_HIT_DICE:
            raise ProfileError(
                f"psychic power {power.name}: Type {kind!r}: its hits are 1 to {MAX_HIT_DICE} "
                f"dice, not {hit_dice}",
                "Type",
            )
        kind = f"{dice.group('kind')} 1{kind.strip()[dice.end() :]}"
    if all(_characteristic(power, *keys) for keys in (("Strength", "S"), ("AP",), ("Type",))):
        profile = {
            "Range": power.get("Range"),
            "S": _characteristic(power, "Strength", "S"),
            "AP": power.get("AP"),
            "Type": kind,
        }
        gun = Weapon(name=name, characteristics=profile)
        try:
            weapon_of(gun)  # a Witchfire profile the engine cannot read is refused here
        except ProfileError as error:  # named by the power's own key (Strength, not S)
            key = "Strength" if error.key == "S" and power.get("Strength") else error.key
            raise ProfileError(str(error), key) from None
    effect = BLESSINGS.get(name) if category.lower() == BLESSING.lower() else None
    effect = effect or BlessingEffect()
    return PsychicPower(
        name=name,
        warp_charge=int(charge),
        category=category,
        range=float(reach) if reach.isdigit() else None,
        weapon=gun,
        whole_unit=effect.whole_unit,
        rules=effect.rules,
        weapon_rules=effect.weapon_rules,
        hit_dice=hit_dice,
    )


def unsupported_power(power: Weapon) -> str | None:
    """Why the engine cannot play ``power`` (``None`` when it can)."""
    try:
        read = power_of(power)
    except ProfileError as error:
        return str(error)
    if read.is_witchfire and read.range is not None:
        unknown = weapon_of(read.weapon).unsupported_rules() if read.weapon else []
        if unknown:
            return (
                f"psychic power {read.name}: weapon rule(s) not implemented: {', '.join(unknown)}"
            )
        return None
    if read.is_blessing or read.is_malediction:
        return None
    return f"psychic power {read.name} ({read.category}) not implemented"


def psychic_problems(datasheet: Datasheet) -> list[str]:
    """What the engine cannot play of the datasheet's powers: each power it does not
    play, the ``Details`` of a Witchfire power it fires (only the profile is
    played), and powers known by a model of a unit without a Psyker rule (they
    could never be manifested)."""
    problems = []
    psyker = any(is_psyker_rule(r) for r in datasheet.rules)
    for entry in datasheet.entries:
        for power in entry.powers:
            why = unsupported_power(power) or _unplayed_details(power)
            if why:
                problems.append(f"{entry.profile.name}: {why}")
        if entry.powers and not (psyker or any(is_psyker_rule(r) for r in entry.rules)):
            problems.append(f"{entry.profile.name}: knows psychic powers but is not a Psyker")
    return problems


def _unplayed_details(power: Weapon) -> str | None:
    """A fired Witchfire power's further effect (its ``Details``), which is not played."""
    details = power.get("Details").strip()
    if not details or not power_of(power).is_witchfire:
        return None
    shown = details if len(details) <= 80 else details[:79].rstrip() + "…"
    return f"psychic power {power_of(power).name}: only its profile is played, not: {shown}"


def playable_powers(model: Model) -> list[PsychicPower]:
    """The powers ``model`` knows that the engine plays: its own, and Force when it
    has a weapon with the Force special rule (:data:`FORCE`)."""
    powers = [power_of(p) for p in model.powers if unsupported_power(p) is None]
    if any(weapon_of(w).has_rule("Force") for w in model.weapons):
        powers.append(FORCE)
    return powers


def known_power_names(model: Model) -> list[str]:
    """The names of every power ``model`` knows, played or not, in the order its
    data lists them, then Force (what Mental Purge picks from at random)."""
    names = []
    for power in model.powers:
        try:
            names.append(power_of(power).name)
        except ProfileError:
            names.append(power.name)
    if any(weapon_of(w).has_rule("Force") for w in model.weapons):
        names.append(FORCE.name)
    return list(dict.fromkeys(names))


def is_psyker(unit: Unit) -> bool:
    """Whether the unit (or a model of it alive) has a Psyker rule."""
    return any(is_psyker_rule(r) for r in _rules(unit))


def mastery_level(unit: Unit) -> int:
    """The unit's Mastery Level: the highest ``Psyker (Mastery Level N)`` it names.

    A Psyker rule without a level counts as Mastery Level 1 (the lowest a
    7th-edition Psyker has); a unit with no Psyker rule has none (0).
    """
    levels = [_level(r) for r in _rules(unit) if is_psyker_rule(r)]
    return max(levels, default=0)


def _rules(unit: Unit) -> list[str]:
    return [*unit.rules, *(r for m in unit.alive_models for r in m.rules)]


def is_psyker_rule(rule: str) -> bool:
    """Whether ``rule`` makes a unit a Psyker (with or without its Mastery Level)."""
    return rule.split("(", maxsplit=1)[0].strip().lower() in _PSYKER_RULES


def mastery_problems(rules: Iterable[str]) -> list[str]:
    """Psyker rules whose Mastery Level is outside ``io.bounds.MASTERY_LEVEL``
    (:func:`io.bounds.mastery_problem`)."""
    return [p for rule in rules if is_psyker_rule(rule) and (p := mastery_problem(rule))]


def _level(rule: str) -> int:
    match = MASTERY.search(rule)
    return int(match.group(1)) if match else 1
