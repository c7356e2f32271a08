"""Armour penetration: hits on vehicles (7th-edition rules, as the Waffle Edition plays them).

7th edition, Vehicles: "When a hit is scored on a vehicle, roll a D6 and add
the weapon's Strength … compare this total with the Armour Value of the facing
hit. If the total is less than the Armour Value, the shot has no effect. If it
is equal, the hit is a glancing hit. If the total is greater, it is a
penetrating hit." Each glancing or penetrating hit takes a Hull Point off;
penetrating hits also roll on the Vehicle Damage table (``vehicle_damage``).

The chances (:func:`penetration_chances`) enumerate the same dice that
:func:`roll_penetration` rolls and read them with the same
:func:`penetration_result`, so the odds and the AI never re-derive the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.engine.dice import Dice

NONE, GLANCING, PENETRATING = "no effect", "glancing", "penetrating"
RESULTS = (NONE, GLANCING, PENETRATING)
LANCE_ARMOUR = 12
"""Lance: "Armour Values higher than 12 count as 12"."""
HAYWIRE_GLANCING, HAYWIRE_PENETRATING = 2, 6
"""Haywire: "roll a D6 instead of rolling for armour penetration: 1 no effect,
2-5 a glancing hit, 6 a penetrating hit"."""
RENDING_ROLL = 6


@dataclass(frozen=True)
class ArmourAttack:
    """What one hit brings against armour: its Strength and the weapon rules that count."""

    strength: int
    best_of: int = 1
    """Dice rolled for the first die, the highest kept (Ordnance: two)."""
    extra_dice: int = 0
    """More dice added (Melta at half range or less, Armourbane: one each)."""
    rending: bool = False
    lance: bool = False
    haywire: bool = False
    tank_hunters: bool = False


def armour_attack(
    profile: WeaponProfile, strength: int, *, half_range: bool, tank_hunters: bool
) -> ArmourAttack:
    """The armour attack of a hit by ``profile`` at ``strength``.

    Ordnance (7th edition): "roll two dice for armour penetration and pick the
    highest". Melta: "roll an additional D6 for armour penetration" when the
    target is "at half range or less" (``half_range``). Armourbane: "roll an
    additional D6 for armour penetration". Rending: "a roll of 6 for armour
    penetration … roll a further D3 and add the result to the total". Lance and
    Haywire as in :data:`LANCE_ARMOUR` and :data:`HAYWIRE_GLANCING`. Tank Hunters
    (the firer's unit): "re-roll failed armour penetration rolls".
    """
    melta = profile.has_rule("Melta") and half_range
    return ArmourAttack(
        strength=strength,
        best_of=2 if profile.base_type == "Ordnance" else 1,
        extra_dice=int(melta) + int(profile.has_rule("Armourbane")),
        rending=profile.has_rule("Rending"),
        lance=profile.has_rule("Lance"),
        haywire=profile.has_rule("Haywire"),
        tank_hunters=tank_hunters,
    )


def effective_armour(attack: ArmourAttack, armour: int) -> int:
    """The Armour Value the hit rolls against (Lance: at most 12)."""
    return min(armour, LANCE_ARMOUR) if attack.lance else armour


def penetration_result(
    attack: ArmourAttack, armour: int, first: tuple[int, ...], extra: tuple[int, ...], rend: int
) -> str:
    """The result of one roll: ``first`` are the dice of the first die (the highest
    kept), ``extra`` the added dice, ``rend`` the Rending D3 (used only when the kept
    first die is a 6). Haywire reads its one die alone."""
    if attack.haywire:
        die = first[0]
        if die >= HAYWIRE_PENETRATING:
            return PENETRATING
        return GLANCING if die >= HAYWIRE_GLANCING else NONE
    kept = max(first)
    total = attack.strength + kept + sum(extra)
    if attack.rending and kept == RENDING_ROLL:
        total += rend
    target = effective_armour(attack, armour)
    if total > target:
        return PENETRATING
    return GLANCING if total == target else NONE


def _dice_counts(attack: ArmourAttack) -> tuple[int, int, bool]:
    """(first dice, extra dice, whether a Rending D3 may be rolled)."""
    if attack.haywire:
        return 1, 0, False
    return attack.best_of, attack.extra_dice, attack.rending


@dataclass(frozen=True)
class PenetrationRoll:
    """One armour penetration roll and its result."""

    dice: tuple[int, ...]
    rend: int
    result: str
    rerolled: bool


def roll_penetration(dice: Dice, attack: ArmourAttack, armour: int, what: str) -> PenetrationRoll:
    """Roll armour penetration for one hit (re-rolled once by Tank Hunters when it
    fails)."""
    roll = _one_roll(dice, attack, armour, what)
    if attack.tank_hunters and roll.result == NONE:
        again = _one_roll(dice, attack, armour, f"{what}, Tank Hunters re-roll")
        return PenetrationRoll(again.dice, again.rend, again.result, True)
    return roll


def _one_roll(dice: Dice, attack: ArmourAttack, armour: int, what: str) -> PenetrationRoll:
    firsts, extras, rending = _dice_counts(attack)
    target = effective_armour(attack, armour)
    label = "Haywire" if attack.haywire else f"armour penetration S{attack.strength} vs AV{target}"
    rolled = dice.roll(firsts + extras, f"{label} ({what})")
    first, extra = rolled[:firsts], rolled[firsts:]
    rend = 0
    if rending and max(first) == RENDING_ROLL:
        rend = dice.roll(1, f"Rending D3 ({what})", sides=3)[0]
    return PenetrationRoll(
        rolled, rend, penetration_result(attack, armour, first, extra, rend), False
    )


def _outcomes(attack: ArmourAttack, armour: int) -> Iterator[tuple[str, Fraction]]:
    firsts, extras, rending = _dice_counts(attack)
    faces = range(1, 7)
    for first in product(faces, repeat=firsts):
        for extra in product(faces, repeat=extras):
            weight = Fraction(1, 6 ** (firsts + extras))
            if rending and max(first) == RENDING_ROLL:
                for rend in (1, 2, 3):
                    yield penetration_result(attack, armour, first, extra, rend), weight / 3
            else:
                yield penetration_result(attack, armour, first, extra, 0), weight


def penetration_chances(attack: ArmourAttack, armour: int) -> dict[str, Fraction]:
    """Exact chances of each result of one hit (:data:`RESULTS`), by enumerating the
    dice :func:`roll_penetration` rolls, Tank Hunters' re-roll included."""
    once = dict.fromkeys(RESULTS, Fraction(0))
    for result, weight in _outcomes(attack, armour):
        once[result] += weight
    if not attack.tank_hunters:
        return once
    miss = once[NONE]
    return {
        result: once[result] * (1 + miss) if result != NONE else miss * miss for result in RESULTS
    }
