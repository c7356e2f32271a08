"""The timing windows core11 opens, in the order a shooting unit opens them.

The engine's :class:`~hammerlab.engine.timing.TriggerBoard` knows no names;
these are core11's. Reactive shooting and redirection abilities (``abilities.py``)
listen to them; the shooting procedures only open them. :data:`MOMENTS` says each
in the words the step log uses.
"""

from hammerlab.engine.timing import name_moments

START_OF_SHOOTING_PHASE = "start-of-shooting-phase"
"""10.01: "Rules that are triggered at the start of the Shooting phase are resolved now." """

SELECTED_AS_TARGET = "selected-as-target"
"""Opened for each unit selected as a target, before anything else.

WTC ruling: "In some cases these abilities take place at the timing "When you
have been selected as a target" which happens before anything else".
"""

TARGET_ELIGIBILITY = "target-eligibility"
"""Opened for each target after :data:`SELECTED_AS_TARGET`: rules that make it no
longer eligible ("if a stratagem or ability would be used to make the target no
longer eligible and a new target is chosen") act here.
"""

RANGED_ATTACK = "ranged-attack"
"""Opened once for each unit actually attacked, when the attacks against it begin.

WTC ruling: "If the ability has a timing that is "When an enemy unit makes a
ranged attack" this step takes place after targets have been finalised and any
rules that would prevent the original unit being a target have been used".
"""

AFTER_ATTACKS = "after-attacks-resolved"
"""Opened when the shooting unit has resolved its attacks; ``related`` lists the
units it resolved attacks against (empty when it had no eligible target).

WTC ruling: "the reactive shooting will still be resolved after the unit making
the attacks has resolved their attacks".
"""

END_OF_SHOOTING_PHASE = "end-of-shooting-phase"
"""10.03: "Rules that are triggered at the end of the Shooting phase are resolved now." """

START_OF_MOVEMENT_PHASE = "start-of-movement-phase"
"""09.01: "Rules that are triggered at the start of the Movement phase are resolved now." """

UNIT_MOVED = "unit-moved"
"""Opened when a unit ends a normal, advance or fall-back move (09.05–09.07), ``actor``:
that unit. Fire Overwatch's "when an enemy unit [...] ends a Normal, Advance or Fall
Back move" timing listens to it."""

END_OF_MOVEMENT_PHASE = "end-of-movement-phase"
"""09.03: "Rules that are triggered at the end of the Movement phase are resolved now." """

START_OF_COMMAND_PHASE = "start-of-command-phase"
"""08.01: "Rules that are triggered at the start of the Command phase are resolved now." """

END_OF_COMMAND_PHASE = "end-of-command-phase"
"""08.05: "Rules that are triggered at the end of the Command phase are resolved now" """

START_OF_CHARGE_PHASE = "start-of-charge-phase"
"""11.01: "Rules that are triggered at the start of the Charge phase are resolved now." """

CHARGE_DECLARED = "charge-declared"
"""Opened when a unit declares a charge (11.02 step 1), before its charge roll: Fire
Overwatch's "declares a charge" timing listens to it (``actor``: the charging unit)."""

END_OF_CHARGE_PHASE = "end-of-charge-phase"
"""11.03: "Rules that are triggered at the end of the Charge phase are resolved now." """

START_OF_FIGHT_PHASE = "start-of-fight-phase"
"""12.01: "Rules that are triggered at the start of the Fight phase are resolved now." """

END_OF_FIGHT_PHASE = "end-of-fight-phase"
"""12.09: "Rules that are triggered at the end of the Fight phase are resolved now." """

MOMENTS = {
    START_OF_SHOOTING_PHASE: "the start of the Shooting phase",
    SELECTED_AS_TARGET: "the moment a unit is selected as a target",
    TARGET_ELIGIBILITY: "the check that a target is still eligible",
    RANGED_ATTACK: "the start of a unit's ranged attacks against a target",
    AFTER_ATTACKS: "the moment a unit has resolved its attacks",
    END_OF_SHOOTING_PHASE: "the end of the Shooting phase",
    START_OF_MOVEMENT_PHASE: "the start of the Movement phase",
    UNIT_MOVED: "the end of a unit's move",
    END_OF_MOVEMENT_PHASE: "the end of the Movement phase",
    START_OF_COMMAND_PHASE: "the start of the Command phase",
    END_OF_COMMAND_PHASE: "the end of the Command phase",
    START_OF_CHARGE_PHASE: "the start of the Charge phase",
    CHARGE_DECLARED: "the moment a unit declares a charge",
    END_OF_CHARGE_PHASE: "the end of the Charge phase",
    START_OF_FIGHT_PHASE: "the start of the Fight phase",
    END_OF_FIGHT_PHASE: "the end of the Fight phase",
}
"""Each window as the step log says it: ``⚑ Fire Overwatch (Boyz [boyz]) triggers at
the moment a unit declares a charge`` (the log's events keep the names above)."""

name_moments(MOMENTS)
