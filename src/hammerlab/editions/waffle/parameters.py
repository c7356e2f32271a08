"""Every number the Waffle Edition's rules name, as a ruleset parameter the lab can vary.

Each has its default (the rules as written), bounds and the sentence it comes
from: a seed's where the seed names it, else the 6th/7th-edition rule the seed
builds on (``docs/rules/waffle.md``). Procedures read them from
``battle.settings``; ``--rule NAME=VALUE`` changes them.
"""

from __future__ import annotations

from hammerlab.engine.rules import Parameter

SNAP_SHOT_DIVISOR = Parameter(
    "snap_shot_divisor",
    2,
    "Snap Shots divide the Ballistic Skill by this (rounding down)",
    'Seed 000, Snap Shots: BS "divided by 2 (always round down) to a minimum of BS 1."',
    minimum=1,
    maximum=10,
)
SNAP_SHOT_MINIMUM = Parameter(
    "snap_shot_minimum_bs",
    1,
    "The lowest Ballistic Skill a Snap Shot can have",
    'Seed 000, Snap Shots: "divided by 2 (always round down) to a minimum of BS 1."',
    minimum=1,
    maximum=10,
)
OVERWHELMING_STRENGTH = Parameter(
    "overwhelming_strength",
    10,
    "The Strength that wounds automatically where it would need 1+ or less",
    'Seed 000, Overwhelming Strength: "When an attack with S10 (And S10 only!) would need '
    'a 1+ or less to wound a target, it instead causes this wound automatically"',
    minimum=1,
    maximum=10,
)
MORALE_THRESHOLD = Parameter(
    "morale_threshold",
    0.25,
    "Share of a unit's models lost in one phase that forces a Morale check",
    'Seed 000, Suppressive Fire: "if the target unit would have suffered enough wounds to take '
    "a Morale check\" (6th/7th edition: 25% or more of the unit's models in one phase)",
    minimum=0.0,
    maximum=1.0,
)
REGROUP_THRESHOLD = Parameter(
    "regroup_threshold",
    0.25,
    "Below this share of its starting models a fleeing unit regroups only on a double 1",
    "6th/7th edition, Regroup: a unit below 25% of its starting strength regroups only on a "
    "double 1 (docs/rules/waffle.md)",
    minimum=0.0,
    maximum=1.0,
)
CHARGE_DICE = Parameter(
    "charge_dice",
    2,
    "D6 rolled for the charge range",
    'Seed 004, Roll Charge Range: "Roll 2D6. This is your charge range"',
    minimum=1,
    maximum=4,
)
DIFFICULT_CHARGE_DICE = Parameter(
    "difficult_charge_dice",
    3,
    "D6 rolled, the highest discarded, for a charge through difficult terrain",
    "6th/7th edition, charging through difficult terrain: roll 3D6 and discard the highest "
    "(docs/rules/waffle.md)",
    minimum=1,
    maximum=5,
)
MAX_CHARGE_RANGE = Parameter(
    "max_charge_range",
    12.0,
    "Inches within which a charge may be declared",
    'Seed 004, Declare Charge: "a charge can usually only be declared on a unit up to 12" away '
    "(the maximum charge range for most models"
    ", as we'll discover later)\"",
    minimum=0.0,
    maximum=48.0,
)
OVERWATCH_RANGE = Parameter(
    "overwatch_range",
    1.0,
    "Inches the charger counts as being from the models firing Overwatch",
    'Seed 004, Overwatch: "For the purposes of range, the target of the Overwatch attack '
    'counts as being within 1" of the models that are firing Overwatch."',
    minimum=0.0,
    maximum=48.0,
)
SWEEPING_HITS = Parameter(
    "sweeping_advance_hits",
    1,
    "Automatic hits each model of a unit that catches a fleeing foe inflicts",
    'Seed 001, Sweeping Advances: "Each model in the winning squad automatically inflicts a '
    'randomly distributed hit on the fleeing unit"',
    minimum=0,
    maximum=10,
)
RUN_DICE = Parameter(
    "run_dice",
    1,
    "D6 rolled for the Run distance",
    'Seed 000, Run: "Roll a D6 to determine the maximum Run distance for the entire unit."',
    minimum=1,
    maximum=3,
)

PARAMETERS = (
    SNAP_SHOT_DIVISOR,
    SNAP_SHOT_MINIMUM,
    OVERWHELMING_STRENGTH,
    MORALE_THRESHOLD,
    REGROUP_THRESHOLD,
    CHARGE_DICE,
    DIFFICULT_CHARGE_DICE,
    MAX_CHARGE_RANGE,
    OVERWATCH_RANGE,
    SWEEPING_HITS,
    RUN_DICE,
)
