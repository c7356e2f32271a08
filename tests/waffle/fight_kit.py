"""Builders for the fight sub-phase and assault result tests (seeds 001/002).

Units face each other across the line y = 20.5: player ``A`` (south edge)
stands on y = 20 and player ``B`` (north edge) on y = 21, so with 1" bases
(radius 0.5") a model of A at x touches the model of B at the same x. Models
of one unit a step of 1" apart along a row touch each other; models 2" apart
diagonally do not touch an enemy.
"""

from __future__ import annotations

from collections.abc import Sequence

from conftest import profile, weapon

from hammerlab.engine.geometry import Vec

SOUTH_ROW, NORTH_ROW = 20.0, 21.0

# Melee weapons with their published 6th/7th-edition profiles.
CHAINSWORD = weapon("Chainsword", "-", "User", "-", "Melee")
POWER_SWORD = weapon("Power sword", "-", "User", "3", "Melee")
POWER_FIST = weapon("Power fist", "-", "x2", "2", "Melee, Unwieldy, Specialist Weapon")
LIGHTNING_CLAW = weapon("Lightning claw", "-", "User", "3", "Melee, Specialist Weapon, Shred")
BIG_CHOPPA = weapon("Big choppa", "-", "+2", "5", "Melee, Two-handed")
SLUGGA = weapon("Slugga", "12", "4", "6", "Pistol")

MARINE = profile("Space Marine")
"""WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+."""
GUARD = profile("Guardsman", ws=3, bs=3, s=3, t=3, i=3, ld=7, sv="5+")
"""WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv5+."""


def south(xs: Sequence[float]) -> list[Vec]:
    """Points on player A's row."""
    return [(x, SOUTH_ROW) for x in xs]


def north(xs: Sequence[float]) -> list[Vec]:
    """Points on player B's row."""
    return [(x, NORTH_ROW) for x in xs]
