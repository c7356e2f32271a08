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
FIERY_CHARGE = RuleOption(
    name="fiery_charge",
    summary="Chargers may shoot Assault and Pistol weapons at the unit they charged",
    quote=(
        "Any models that have made a successful Charge may immediately make a Fiery Charge "
        "shooting attack against the non-vehicle enemy unit they charged. Resolve it as a "
        "normal Shooting attack, with only Assault and Pistol type weapons able to fire. Any "
        "casualties caused from this attack are added to the combat result for this side. "
        "However, units choosing to make a Fiery charge lose their bonus attack from a charge, "
        "if any. Units with the Rage USR only lose one of their two attacks."
    ),
)

SHOOTING_INTO_COMBAT = RuleOption(
    name="shooting_into_combat",
    summary=(
        "Units locked in combat may be shot at with Snap Shots; rolls of 1-2 hit the "
        "shooter's own engaged unit"
    ),
    quote=(
        "However, models can shoot at units locked in close combat … Units wishing to shoot "
        "into a melee must declare which of the engaged units they are trying to hit, and then "
        "perform a snap shot against that unit. Any successful snap shots hit the nominated "
        "enemy unit. However, any rolls of 1 or 2, even if they would normally be hits, hit one "
        "of your engaged units instead! (In the case of shooting at a melee which has no units "
        "you control, the 1s and 2s hit a squad from a different player than the controlling "
        "player of the nominated squad). Resolve all these hits as normal, and keep in mind "
        "that if you cause any casualties to a friendly unit, they will suffer a penalty to any "
        "Morale checks they might need to make!"
    ),
)
FINAL_BLOW = RuleOption(
    name="final_blow",
    summary="A last one-wound model of a unit gains an extra attack in melee for each wound",
    quote=(
        "If a multiple-model unit has been reduced to only a single model with only a single "
        "wound (If it had multiple wounds, with all but the last one having been lost "
        "previously), for every successful wound this model causes it may immediately make an "
        "additional attack with identical Strength, AP, and any other applicable special rules "
        "against that same target at the same Initiative step. If these additional attacks "
        "cause wounds, they gain another attack against that target, and so on. A Final Blow "
        "cannot be made by Independent Characters."
    ),
)

OPTIONS = (
    SUPPRESSIVE_FIRE,
    SUPPRESSIVE_PINNING,
    SHOCK_TROOPS,
    FINAL_SHOT,
    FINAL_BLOW,
    FIERY_CHARGE,
    SHOOTING_INTO_COMBAT,
)
