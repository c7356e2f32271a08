"""Unit special rules of the 6th/7th-edition base rules that the engine resolves.

Only these are implemented, and those of :data:`NO_EFFECT_RULES` cannot
change anything hammerlab plays; :func:`unsupported_unit_rules` reports any
other rule a datasheet names, so an imported unit is never silently wrong.
The rule texts quoted here are the 7th-edition rulebook's (as the
BattleScribe 7th-edition data in ``tests/data/bsdata-7e`` also gives them).
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
    "Tank Hunters": "re-rolls failed armour penetration rolls (armour.armour_attack); "
    "glancing hits are not re-rolled",
    "Independent Character": "cannot make a Final Shot or Final Blow",
    "Shock Troops": "ignores Suppressive Fire (optional sub-rule of the proposed rule)",
    "Furious Charge": "+1 Strength in close combat on a turn it charged (and for the hits "
    "of its Sweeping Advance, which count as charging)",
    "Rage": "+2 Attacks instead of +1 on a turn it charged (+1 after a Fiery Charge)",
    "Stealth": "cover saves 1 better (6+ in the open), at best 2+; "
    "Stealth (terrain type) is not implemented",
    "Shrouded": "cover saves 2 better (5+ in the open), at best 2+",
    "Preferred Enemy": "re-rolls To Hit and To Wound rolls of 1, shooting and in close "
    "combat; Preferred Enemy (a type of foe) is not implemented",
    "Counter-attack": "+1 Attack for its models with the rule until the end of the phase "
    "when charged while not locked in combat",
}
"""Rule name → what it does in hammerlab."""

NO_EFFECT_RULES: Final[dict[str, str]] = {
    "Night Vision": "ignores the effects of Night Fighting, which hammerlab does not play",
    "Bulky": "counts as two models for Transport Capacity; hammerlab has no transports",
    "Very Bulky": "counts as three models for Transport Capacity; hammerlab has no transports",
    "Extremely Bulky": "counts as five models for Transport Capacity; hammerlab has no transports",
}
"""Rules whose effect cannot arise in hammerlab (rule name → why), so they are
not reported as not implemented."""

QUALIFIED_NOT_IMPLEMENTED: Final[frozenset[str]] = frozenset({"stealth", "preferred enemy"})
"""Rules implemented only in their plain form: ``Stealth (Ruins)`` (only in
that kind of terrain) and ``Preferred Enemy (Orks)`` (only against that foe)
are reported as not implemented."""


def _base(rule: str) -> str:
    return rule.split(" (", maxsplit=1)[0].strip().lower()


_KNOWN = {name.lower() for name in (*UNIT_RULES, *NO_EFFECT_RULES)}


def unsupported_unit_rules(rules: tuple[str, ...]) -> list[str]:
    """Rules in ``rules`` that hammerlab does not implement (a qualified form of
    a rule of :data:`QUALIFIED_NOT_IMPLEMENTED` included)."""
    return [r for r in rules if _base(r) not in _KNOWN or _qualified_only(r)]


def _qualified_only(rule: str) -> bool:
    return _base(rule) in QUALIFIED_NOT_IMPLEMENTED and rule.strip().lower() != _base(rule)


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


def cover_bonus(unit: Unit) -> int:
    """How much better Stealth and Shrouded make ``unit``'s cover saves.

    7th edition, Stealth: "A unit that contains at least one model with this
    special rule counts its cover saves as being 1 point better than normal.
    Note that this means that a model with the Stealth special rule always has
    a cover save of at least 6+, even if it is in the open." Shrouded: "…
    counts its cover save as being 2 points better than normal … always has a
    cover save of at least 5+, even if it's in the open." Both: "Cover save
    bonuses from the Shrouded and Stealth special rules are cumulative (to a
    maximum of a 2+ cover save)" (:func:`visibility.improved_cover`).
    """
    return int(unit.has_rule("Stealth")) + 2 * int(unit.has_rule("Shrouded"))


def preferred_enemy(unit: Unit) -> bool:
    """7th edition, Preferred Enemy: "If the special rule does not specify a type
    of foe, then everyone is a Preferred Enemy of the unit. A unit that contains
    at least one model with this special rule re-rolls failed To Hit and To
    Wound rolls of 1 if attacking its Preferred Enemy. This applies both to
    shooting and close combat attacks." Only the plain form is implemented."""
    return unit.has_rule("Preferred Enemy")


def counter_attack_bonus(unit: Unit, model: Model, charged_unlocked: bool) -> int:
    """The Attack ``model`` gains from Counter-attack.

    6th/7th edition (automatic; 5th edition's Leadership test is gone): "If a
    unit contains at least one model with this special rule, and that unit is
    charged, every model with the Counter-attack special rule in the unit gets
    +1 Attack until the end of the phase. If, when charged, the unit was
    already locked in combat, the Counter-attack special rule has no effect."
    ``charged_unlocked``: the unit was charged this phase while not locked in
    combat (``WaffleStatus.charged_unlocked``).
    """
    return int(charged_unlocked and model_has(unit, model, "Counter-attack"))
