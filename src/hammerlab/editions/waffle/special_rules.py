"""Unit special rules of the 6th/7th-edition base rules that the engine resolves.

Only these are implemented; :func:`unsupported_unit_rules` reports any other
rule a datasheet names, so an imported unit is never silently wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of
from hammerlab.engine.units import Model, Unit

UNIT_RULES: Final[dict[str, str]] = {
    "Feel No Pain": "roll a D6 (5+, or the value given) to ignore each unsaved wound; "
    "not against Instant Death",
    "Eternal Warrior": "immune to Instant Death",
    "Relentless": "Heavy, Salvo and Ordnance weapons fire as if stationary; may charge after",
    "Slow and Purposeful": "as Relentless, but cannot Run",
    "Fearless": "automatically passes Morale checks and Pinning tests; cannot Go to Ground",
    "Stubborn": "ignores negative Leadership modifiers on Morale checks",
    "And They Shall Know No Fear": "automatically passes tests to Regroup; "
    "never goes to ground from a failed Pinning test's panic (passes Pinning as Regroup)",
    "Fleet": "may re-roll the Run distance",
    "Independent Character": "cannot make a Final Shot or Final Blow",
    "Shock Troops": "ignores Suppressive Fire (optional sub-rule of the proposed rule)",
    "Furious Charge": "+1 Strength in close combat on a turn it charged (and for the hits "
    "of its Sweeping Advance, which count as charging)",
    "Rage": "+2 Attacks instead of +1 on a turn it charged (+1 after a Fiery Charge)",
}
"""Rule name → what it does in hammerlab."""


def _base(rule: str) -> str:
    return rule.split(" (", maxsplit=1)[0].strip().lower()


_KNOWN = {name.lower() for name in UNIT_RULES}


def unsupported_unit_rules(rules: tuple[str, ...]) -> list[str]:
    """Rules in ``rules`` that hammerlab does not implement."""
    return [r for r in rules if _base(r) not in _KNOWN]


def model_has(unit: Unit, model: Model, rule: str) -> bool:
    """Whether ``model`` benefits from ``rule`` (its own or its unit's)."""
    return names_rule((*unit.rules, *model.rules), rule)


def names_rule(rules: Iterable[str], rule: str) -> bool:
    """Whether ``rules`` name ``rule`` (ignoring any ``(X+)`` suffix)."""
    wanted = rule.lower()
    return any(_base(r) == wanted for r in rules)


def feel_no_pain(unit: Unit, model: Model) -> int | None:
    """The Feel No Pain roll needed by ``model`` (5+ unless stated), if it has the rule."""
    return feel_no_pain_in((*model.rules, *unit.rules))


def feel_no_pain_in(rules: Iterable[str]) -> int | None:
    """The Feel No Pain roll ``rules`` give (5+ unless stated), if they name it."""
    for rule in rules:
        if _base(rule) == "feel no pain":
            match = re.search(r"\((\d)\+?\)", rule)
            return int(match.group(1)) if match else 5
    return None


def is_independent_character(unit: Unit, model: Model) -> bool:
    """Independent Characters: by rule, or by a unit type naming them."""
    return model_has(unit, model, "Independent Character") or (
        "independent character" in model.profile.unit_type.lower()
    )


def close_combat_strength(unit: Unit, model: Model, weapon: WeaponProfile, charging: bool) -> int:
    """The Strength of ``model``'s blows with ``weapon``, Furious Charge included.

    6th/7th-edition Furious Charge: +1 Strength on a turn the unit charged.
    Multipliers apply before additions (a Strength 4 model with a ``x2``
    weapon strikes at 9), and a weapon of fixed Strength ignores the bonus,
    which raises the model's own Strength. At most 10.
    """
    strength = weapon.strength.resolve(stats_of(model.profile).s)
    if charging and weapon.strength.mode != "fixed" and model_has(unit, model, "Furious Charge"):
        strength += 1
    return min(10, strength)


def relentless(unit: Unit) -> bool:
    """Relentless, or Slow and Purposeful (which counts as Relentless): Heavy,
    Salvo and Ordnance weapons fire as if stationary, and the unit may charge
    after firing them."""
    return unit.has_rule("Relentless") or unit.has_rule("Slow and Purposeful")
