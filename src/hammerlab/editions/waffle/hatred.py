"""Hatred, and the Hatred of Ancient Doom: re-rolled To Hit rolls in close combat.

7th edition (BattleScribe ``Warhammer40K.gst``, rule "Hatred"): "This rule is
often presented as Hatred (X) where X identifies a specific type of foe. If
the special rule does not specify a type of foe, then the unit has Hatred
against everyone. … A model striking a hated foe in close combat re-rolls all
failed To Hit rolls during the first round of each close combat." Preferred
Enemy's re-roll of 1s (:func:`special_rules.preferred_enemy`) is the other
close combat To Hit re-roll; a die is re-rolled once, so Hatred's re-roll of
every miss takes the 1s already. The fight (:func:`fight.roll_blows`) and the
AI's estimates (:func:`expected.blow_value`) both read :func:`blow_reroll`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.fear import ANCIENT_DOOM_FOE
from hammerlab.editions.waffle.special_rules import model_has, preferred_enemy
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit


@dataclass(frozen=True)
class BlowReroll:
    """Which To Hit dice of a close combat attack are re-rolled once."""

    below: int
    """Dice showing less than this (and less than the score needed) are re-rolled:
    1 none, 2 the 1s, 7 every miss."""
    dice: str = ""
    """What is re-rolled, for the log ("1s", "misses")."""
    rule: str = ""
    """The rule that re-rolls them, for the log."""

    def limit(self, needed: int) -> int:
        """Dice showing less than this are re-rolled when ``needed`` hits."""
        return min(self.below, needed)


NO_REROLL = BlowReroll(1)
PREFERRED_ENEMY = BlowReroll(2, "1s", "Preferred Enemy")
HATRED = BlowReroll(7, "misses", "Hatred")


def first_round(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` fights the first round of its close combat in this phase.

    hammerlab keeps no count of a combat's rounds; a unit's combat is new in the
    Assault phase it charged in (``status.charged``: it reached base contact)
    or was charged in while not locked in combat
    (``WaffleStatus.charged_unlocked``). A unit already locked when charged
    fights on in its old combat (docs/rules/waffle.md)."""
    return unit.status.charged or st(battle, unit).charged_unlocked


def hates(unit: Unit, model: Model, target: Unit) -> bool:
    """Whether ``model`` of ``unit`` has Hatred against ``target`` ("A model striking
    a hated foe": the model's own rule or its unit's): plain Hatred (everyone), or
    Ancient Doom (Codex: Craftworlds, from memory: "Hatred (Slaanesh)") against a
    unit with a model that has the Daemon of Slaanesh rule. Hatred (X) is
    reported as not implemented (:data:`special_rules.QUALIFIED_NOT_IMPLEMENTED`)
    and hates no one."""
    rules = {r.strip().lower() for r in (*unit.rules, *model.rules)}
    if "hatred" in rules:
        return True
    return "ancient doom" in rules and any(
        model_has(target, m, ANCIENT_DOOM_FOE) for m in target.alive_models
    )


def blow_reroll(unit: Unit, model: Model, target: Unit, first: bool) -> BlowReroll:
    """The re-roll of the blows of ``model`` of ``unit`` at ``target``: every miss
    with Hatred in the ``first`` round (:func:`first_round`), else 1s for
    Preferred Enemy (the unit's rule), else none."""
    if first and hates(unit, model, target):
        return HATRED
    return PREFERRED_ENEMY if preferred_enemy(unit) else NO_REROLL
