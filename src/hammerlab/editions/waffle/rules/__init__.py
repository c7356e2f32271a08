"""The Waffle Edition's rules that plug in: proposed rules (off by default) and the
reactions (on by default), in the order they install.

The order matters where two rules offer choices at the same point: it is the
order of the choices a player sees (Return Fire! before Dive for Cover).
"""

from __future__ import annotations

from hammerlab.editions.waffle.rules.fiery_charge import FIERY_CHARGE
from hammerlab.editions.waffle.rules.final_attacks import FINAL_BLOW, FINAL_SHOT
from hammerlab.editions.waffle.rules.jink import JINK_RULE
from hammerlab.editions.waffle.rules.reactions import (
    DIVE_FOR_COVER_RULE,
    FALL_BACK_RULE,
    OVERWATCH_RULE,
    RETURN_FIRE_RULE,
)
from hammerlab.editions.waffle.rules.shooting_into_combat import SHOOTING_INTO_COMBAT
from hammerlab.editions.waffle.rules.suppressive_fire import (
    SHOCK_TROOPS,
    SUPPRESSIVE_FIRE,
    SUPPRESSIVE_PINNING,
)

OPTIONS = (
    SUPPRESSIVE_FIRE,
    SUPPRESSIVE_PINNING,
    SHOCK_TROOPS,
    FINAL_SHOT,
    FINAL_BLOW,
    FIERY_CHARGE,
    SHOOTING_INTO_COMBAT,
    RETURN_FIRE_RULE,
    DIVE_FOR_COVER_RULE,
    OVERWATCH_RULE,
    FALL_BACK_RULE,
    JINK_RULE,
)
