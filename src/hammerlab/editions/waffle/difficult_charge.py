"""Charging through difficult terrain: Initiative 1 in that fight, unless the model
has assault grenades (6th/7th-edition base rules).

The seeds speak of the charge range only (seed 004: "Roll 2D6"; hammerlab's
3D6 with the highest dropped through difficult terrain is
``charge.charge_dice``), not of when a charger strikes, so the 7th-edition rule
applies, as remembered from the 7th-edition rulebook (its 6th-edition wording
alike): models that charge through difficult terrain fight at Initiative 1 in
that turn's fight sub-phase; assault grenades (frag and plasma grenades) let
them fight at their normal Initiative. The 7th-edition frag grenade profile
the shared data transcribes (``Warhammer40K.gst``, "BRB 2014" page 180)
carries it: "Don't suffer Initiative penalty for charging through cover".

A unit charged through difficult terrain when any charging model's path to
its closest target model crosses (or starts in) it, the test that also makes
it roll 3D6 (:func:`charge.through_difficult_terrain`; always under Enfeeble);
Move Through Cover ("not slowed by charging through difficult terrain") saves
it the 3D6, not the Initiative penalty (an interpretation: only grenades name
the penalty). What a unit did is ``WaffleStatus.charged_through_difficult``,
reset at the start of every phase, so it lasts that Assault phase's fight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from hammerlab.editions.waffle.concussive import concussed
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.special_rules import names_rule
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.events import Event
from hammerlab.engine.units import Model, Unit

ASSAULT_GRENADES = "Assault Grenades"
FRAG_RULE_TEXT = "Don't suffer Initiative penalty for charging through cover"
"""The 7th-edition frag grenade's rule as the shared data writes it in its Type."""
_ASSAULT_GRENADE_NAME = re.compile(
    r"\b(frag|plasma|assault)\s+grenades?\b|\bstikkbombs?\b", re.IGNORECASE
)
"""Assault grenades by name (7th edition: frag and plasma grenades; the Orks'
stikkbombs are their frag grenades), never a launcher firing them."""


def is_assault_grenade(weapon: Weapon) -> bool:
    """Whether ``weapon`` is an assault grenade: named so (not a launcher), or with
    the rule ``Assault Grenades`` or the frag grenade's rule text."""
    named = _ASSAULT_GRENADE_NAME.search(weapon.name) and "launcher" not in weapon.name.lower()
    read = weapon_of(weapon)
    return bool(named) or read.has_rule(ASSAULT_GRENADES) or read.has_rule(FRAG_RULE_TEXT)


def has_assault_grenades(unit: Unit, model: Model) -> bool:
    """Whether ``model`` has assault grenades: such a weapon, or a rule saying it
    counts as equipped with them (``Assault Grenades`` on the model or unit)."""
    if names_rule((*model.rules, *unit.rules), ASSAULT_GRENADES):
        return True
    return any(is_assault_grenade(w) for w in model.weapons)


def strikes_at_initiative_one(battle: Battle, unit: Unit, model: Model) -> bool:
    """Whether ``model`` of ``unit`` strikes at Initiative 1 this fight: Concussive
    (:func:`concussive.concussed`), or it charged through difficult terrain this
    phase without assault grenades."""
    if concussed(battle, model):
        return True
    return st(battle, unit).charged_through_difficult and not has_assault_grenades(unit, model)


@dataclass(frozen=True)
class SlowedCharge(Event):
    """``models`` models of ``unit`` charged through difficult terrain without assault
    grenades this phase: they strike at Initiative 1 in this fight (told when the
    fight begins, so the log says why they strike last)."""

    kind: ClassVar[str] = "slowed_charge"
    unit: str
    models: int

    @property
    def text(self) -> str:
        return (
            f"{self.unit} charged through difficult terrain without assault grenades: "
            f"{self.models} model(s) strike at Initiative 1"
        )


def tell_slowed_charge(battle: Battle, unit: Unit) -> None:
    """Emit :class:`SlowedCharge` for ``unit`` if it charged through difficult terrain
    this phase and any of its models has no assault grenades."""
    if not st(battle, unit).charged_through_difficult:
        return
    slowed = [m for m in unit.alive_models if not has_assault_grenades(unit, m)]
    if slowed:
        battle.emit(SlowedCharge(unit.label, len(slowed)))
