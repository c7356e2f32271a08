"""Maledictions (7th-edition Psychic phase): penalties on an enemy unit until the
start of the caster's next Psychic phase.

A supported Malediction changes characteristics: while it lasts, each model of
the target wears a changed copy of its profile, so every rule reads the
changed value through the usual typed view (``profiles.stats_of``), and the
original profile comes back when it ends (:func:`end_maledictions`). What is
in effect lives in ``battle.memory["maledictions"]``, part of the game state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.events import Event
from hammerlab.engine.units import Unit

MALEDICTION = "Malediction"
MEMORY = "maledictions"
"""The key of what is in effect in ``battle.memory``."""


@dataclass(frozen=True)
class MaledictionEffect:
    """What a supported Malediction does to every model of its target."""

    characteristics: tuple[tuple[str, int], ...] = ()
    """(characteristic, change): each is changed where the profile has a number
    for it, never below 1."""
    invulnerable: int = 0
    """Added to an invulnerable save's number (a worse save), never beyond 6+."""
    all_terrain_difficult: bool = False
    """The target "treats all terrain (even open ground) as difficult terrain"."""


MALEDICTIONS: dict[str, MaledictionEffect] = {
    "Enfeeble": MaledictionEffect(
        characteristics=(("S", -1), ("T", -1)), all_terrain_difficult=True
    ),
    "Null Zone": MaledictionEffect(invulnerable=2),
}
"""Maledictions the engine plays, by power name; the texts of the BattleScribe
data (``Warhammer40K.gst``):

- Biomancy, Enfeeble (Warp Charge 1, 24"): "Whilst the power is in effect, the
  target unit suffers a -1 penalty to both Strength and Toughness, and treats
  all terrain (even open ground) as difficult terrain."
- Telekinesis, Null Zone (Warp Charge 2, 24"): "Whilst the power is in effect,
  all models in the target unit suffer a -2 penalty to any invulnerable saves
  they have. This is cumulative with any other modifiers to a model's
  invulnerable save, but cannot make it worse than 6+."
"""


@dataclass
class Hex:
    """A Malediction in effect: whose, on which unit, and the profiles it replaced."""

    player: str
    unit: str
    power: str
    originals: dict[str, Profile] = field(default_factory=dict)
    """Model id → its profile before the Malediction."""
    all_terrain_difficult: bool = False


@dataclass(frozen=True)
class MaledictionChanged(Event):
    """A Malediction took effect on a unit, or ended."""

    kind: ClassVar[str] = "malediction"
    unit: str
    power: str
    begins: bool

    @property
    def text(self) -> str:
        verb = "afflicts" if self.begins else "no longer afflicts"
        return f"{self.power} {verb} {self.unit}"


def _changed(profile: Profile, effect: MaledictionEffect) -> Profile:
    values = dict(profile.characteristics)
    for name, change in effect.characteristics:
        written = values.get(name, "").strip()
        if written.isdigit():
            values[name] = str(max(1, int(written) + change))
    invulnerable = profile.invulnerable
    if invulnerable is not None and effect.invulnerable:
        invulnerable = min(6, invulnerable + effect.invulnerable)
    return replace(profile, characteristics=values, invulnerable=invulnerable)


def afflict(battle: Battle, player: str, power: str, target: Unit) -> None:
    """Put the Malediction ``power`` of ``player`` on every model of ``target``."""
    effect = MALEDICTIONS[power]
    hexed = Hex(player, target.id, power, all_terrain_difficult=effect.all_terrain_difficult)
    for model in target.alive_models:
        hexed.originals[model.id] = model.profile
        model.profile = _changed(model.profile, effect)
    hexes: list[Hex] = battle.memory.setdefault(MEMORY, [])
    hexes.append(hexed)
    battle.emit(MaledictionChanged(unit=target.label, power=power, begins=True))


def end_maledictions(battle: Battle, player: str) -> None:
    """The start of ``player``'s Psychic phase: its Maledictions end, last first (so
    that two on one model give its own profile back)."""
    hexes: list[Hex] = battle.memory.get(MEMORY, [])
    ending = [h for h in hexes if h.player == player]
    if not ending:
        return
    battle.memory[MEMORY] = [h for h in hexes if h.player != player]
    for hexed in reversed(ending):
        unit = battle.units.get(hexed.unit)
        if unit is None:
            continue
        for model in unit.models:
            if model.id in hexed.originals:
                model.profile = hexed.originals[model.id]
        battle.emit(MaledictionChanged(unit=unit.label, power=hexed.power, begins=False))


def all_terrain_difficult(battle: Battle, unit: Unit) -> bool:
    """Whether a Malediction (Enfeeble) makes the unit treat all terrain as difficult."""
    hexes: list[Hex] = battle.memory.get(MEMORY, [])
    return any(h.unit == unit.id and h.all_terrain_difficult for h in hexes)
