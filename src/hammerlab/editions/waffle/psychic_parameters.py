"""The numbers of the 7th-edition Psychic phase, as ruleset parameters the lab can vary.

Each quotes the 7th-edition rule it comes from (``docs/rules/waffle.md``,
Psychic phase); ``--rule NAME=VALUE`` changes them.
"""

from __future__ import annotations

from hammerlab.engine.rules import Parameter

HARNESS_ROLL = Parameter(
    "warp_charge_roll",
    4,
    "A Warp Charge die of the psychic test succeeds on this or more",
    '7th edition, Psychic Tests: "A result of 4+ means you harnessed that charge" '
    "(each 4+ is one Warp Charge point towards the power's cost)",
    minimum=2,
    maximum=6,
)
DENY_ROLL = Parameter(
    "deny_the_witch_roll",
    6,
    "A Deny the Witch die succeeds on this or more, before modifiers",
    "7th edition, Deny the Witch: each die that rolls 6+ is a success; +1 with Adamantium "
    "Will, +1 if the target unit contains a Psyker, +1 more if its Mastery Level is higher "
    "than the manifesting Psyker's (as remembered from the 7th-edition rulebook)",
    minimum=2,
    maximum=6,
)
PERILS_SIXES = Parameter(
    "perils_sixes",
    2,
    "A psychic test with this many 6s or more causes Perils of the Warp",
    '7th edition, Perils of the Warp: "If two or more dice roll a 6 … you suffer" '
    "Perils of the Warp",
    minimum=2,
    maximum=6,
)

PSYCHIC_PARAMETERS = (HARNESS_ROLL, DENY_ROLL, PERILS_SIXES)
