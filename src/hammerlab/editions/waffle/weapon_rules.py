"""Weapon special rules of the 7th-edition rulebook that change a wound roll or its AP.

Each is data read by one function that both the battle (``wounds.py``) and the
exact odds (``odds.py``) call, so the two can never disagree. The rule texts
are the 7th-edition rulebook's, as the BattleScribe game system file
(``tests/data/bsdata-7e/Warhammer40K.gst``) gives them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Final

from hammerlab.editions.waffle.profiles import WeaponProfile

ALWAYS_WOUNDS_ON: Final[dict[str, int]] = {"Fleshbane": 2, "Sniper": 4}
"""Rules that fix the To Wound roll, whatever the Toughness.

Fleshbane: "they always Wound on a 2+ in close combat. Similarly, if a model
makes a shooting attack with a weapon that has this special rule, they always
Wound on a 2+." Sniper: "its shooting attacks always wound on a To Wound roll
of 4+, regardless of the victim's Toughness"."""

AP2_ON_A_SIX: Final[tuple[str, ...]] = ("Rending", "Sniper", "Bladestorm")
"""Rules under which a To Wound roll of 6 is resolved at AP2 (or better).

Rending (also wounds on that 6 whatever the Toughness: ``wounds.wounds_on``);
Sniper: "any To Wound roll of a 6 is resolved at AP2"; Bladestorm (7th-edition
Codex: Craftworlds): "any To Wound roll of a 6 is resolved at AP2"."""

SMASH_AP: Final = 2
"""Smash: "All of the close combat attacks, except Hammer of Wrath attacks, of a
model with this special rule are resolved at AP2 (unless it's attacking with an
AP1 weapon)"."""


def fixed_wound_roll(profile: WeaponProfile) -> int | None:
    """The To Wound roll :data:`ALWAYS_WOUNDS_ON` fixes for ``profile`` (the best
    of them when it has several), or ``None``."""
    rolls = [roll for name, roll in ALWAYS_WOUNDS_ON.items() if profile.has_rule(name)]
    return min(rolls) if rolls else None


@lru_cache(maxsize=4096)
def six_resolves_at_ap2(profile: WeaponProfile) -> bool:
    """Whether a To Wound roll of 6 resolves at AP2 (:data:`AP2_ON_A_SIX`). Remembered
    (the profile frozen): asked of every wound rolled a 6, three rules each time."""
    return bool(ap2_rule(profile))


def ap2_rule(profile: WeaponProfile) -> str:
    """The rule of :data:`AP2_ON_A_SIX` under which the weapon's To Wound roll of 6 is
    resolved at AP2 (the first it names), or ``""``: what the log names for it."""
    return next((name for name in AP2_ON_A_SIX if profile.has_rule(name)), "")


def smashing(profile: WeaponProfile) -> WeaponProfile:
    """``profile`` wielded by a model with Smash: AP2 unless it is AP1 (:data:`SMASH_AP`)."""
    ap = SMASH_AP if profile.ap is None else min(profile.ap, SMASH_AP)
    return replace(profile, ap=ap)


def with_rules(profile: WeaponProfile, rules: tuple[str, ...]) -> WeaponProfile:
    """``profile`` with ``rules`` added (those it does not name already)."""
    extra = tuple(r for r in rules if not profile.has_rule(r.split(" (")[0]))
    return replace(profile, rules=profile.rules + extra) if extra else profile
