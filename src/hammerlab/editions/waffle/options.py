"""The Waffle Edition's proposed rules, as options (all off by default)."""

from __future__ import annotations

from hammerlab.engine.options import RuleOption

SUPPRESSIVE_FIRE = RuleOption(
    name="suppressive_fire",
    summary="Shoot to force a Morale check at -1 Ld per wound instead of removing models",
    quote=(
        "Any unit may, when shooting at an enemy unit, perform a Suppressive Fire shooting "
        "action instead of a regular shooting action against non-vehicle targets. … do not "
        "remove any models or reduce any wounds as a result of this shooting. Instead, if the "
        "target unit would have suffered enough wounds to take a Morale check, they must take "
        "that morale check with a -1 penalty to their Ld for each Wound they would have "
        "suffered. Snap shots cannot be used as Suppressive Fire."
    ),
)
SUPPRESSIVE_PINNING = RuleOption(
    name="suppressive_pinning",
    summary="Suppressive Fire forces a Pinning test instead of a Morale check",
    quote="Also a pinning check rather than morale?",
)
SHOCK_TROOPS = RuleOption(
    name="shock_troops",
    summary="Units with the Shock Troops rule ignore Suppressive Fire",
    quote=(
        "perhaps have a work in USR for dedicated 'shock troops' for each codex that flat out "
        "ignores this?"
    ),
)
FINAL_SHOT = RuleOption(
    name="final_shot",
    summary="A last one-wound model of a unit gains an extra shot for each wound it causes",
    quote=(
        "If a multiple-model unit has been reduced to only a single model with only a single "
        "wound …, for every successful wound this model causes it may immediately make an "
        "additional attack with identical Strength, AP, and any other applicable special rules "
        "against that same target. … A model may not make a Final Shot with a Blast, Template, "
        "Barrage, or Ordnance weapon, and cannot be made by Independent Characters."
    ),
)

OPTIONS = (SUPPRESSIVE_FIRE, SUPPRESSIVE_PINNING, SHOCK_TROOPS, FINAL_SHOT)
