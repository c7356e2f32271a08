"""What the 7th-edition Psychic phase remembers (``battle.memory["psychic"]``).

Kept apart from :mod:`.psychic` so that Perils of the Warp (:mod:`.perils`),
which drains the pools, purges powers and grants Warp Surge, reads and writes
the same memory without importing the phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile

MEMORY = "psychic"
"""Where the phase keeps what it remembers (``battle.memory``)."""


@dataclass
class Blessing:
    """Special rules a Blessing granted, until the start of its caster's next Psychic phase."""

    player: str
    unit: str
    power: str
    granted: dict[str, tuple[str, ...]]
    """Model id → the rules it gained (only those it did not have already)."""
    armed: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Model id → (weapon name, rule) its weapons gained (Force: Instant Death)."""
    profiles: dict[str, Profile] = field(default_factory=dict)
    """Model id → its profile before the effect changed it (Warp Surge's 3+
    invulnerable save), given back when it ends."""
    notes: tuple[str, ...] = ()
    """What it gave besides rules, in words (``3+ invulnerable save``)."""


@dataclass
class PsychicMemory:
    """The phase's pools and what was manifested; Blessings in effect."""

    pools: dict[str, int] = field(default_factory=dict)
    attempted: list[tuple[str, str]] = field(default_factory=list)
    """(unit id, power name) attempted this phase: no power twice (a list, not a set,
    so that the saved game's state digest is the same in every process)."""
    active: bool = False
    """Whether this phase is being played (some Psyker of the player can act)."""
    blessings: list[Blessing] = field(default_factory=list)
    facing: int = 0
    """The psychic test successes the Deny the Witch being decided must match."""
    purged: list[tuple[str, str]] = field(default_factory=list)
    """(model id, power name) lost to Mental Purge "for the rest of the battle"."""


def memory_of(battle: Battle) -> PsychicMemory:
    """The phase's memory on ``battle``, made on first use."""
    return battle.remember(MEMORY, PsychicMemory)


def purged(battle: Battle, model_id: str, power: str) -> bool:
    """Whether Mental Purge took ``power`` from the model ``model_id``."""
    return MEMORY in battle.memory and (model_id, power) in memory_of(battle).purged
