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
from hammerlab.editions.waffle.rerolls import hit_ones_rerolled
from hammerlab.editions.waffle.special_rules import model_has
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
    a hated foe": the model's own rule or its unit's): plain Hatred (everyone),
    Hatred (X) against a foe named X (:func:`is_named_foe`), or Ancient Doom
    (Codex: Craftworlds, from memory: "Hatred (Slaanesh)") against a unit with a
    model that has the Daemon of Slaanesh rule."""
    rules = [r.strip() for r in (*unit.rules, *model.rules)]
    lowered = {r.lower() for r in rules}
    if "hatred" in lowered:
        return True
    if any(is_named_foe(target, foe) for foe in _qualifiers(rules, "hatred")):
        return True
    return "ancient doom" in lowered and any(
        model_has(target, m, ANCIENT_DOOM_FOE) for m in target.alive_models
    )


def _qualifiers(rules: list[str], name: str) -> list[str]:
    """The X of each ``name (X)`` among ``rules``."""
    found = []
    for rule in rules:
        head, _, rest = rule.partition("(")
        if head.strip().lower() == name and rest.endswith(")"):
            found.append(rest[:-1].strip())
    return found


def _singular(name: str) -> str:
    word = name.strip().lower()
    return word[:-1] if word.endswith("s") else word


def is_named_foe(target: Unit, foe: str) -> bool:
    """Whether ``target`` is the foe X of Hatred (X): the gst, "This can refer to a
    Faction, or a specific unit. For example, Hatred (Orks) means any model with
    the Ork Faction, whilst Hatred (Big Meks) means only Big Meks."

    A unit's Faction is its datasheet's army as far as a colon (the BattleScribe
    catalogue "Orks: Codex (2014)" is the Orks; the built-in library's "Orks");
    a specific unit is its datasheet's name or one of its models' profile
    names. Names match ignoring case and a final "s" (Ork, Orks; Big Mek, Big
    Meks)."""
    wanted = _singular(foe)
    names = {target.datasheet.army.split(":", maxsplit=1)[0], target.datasheet.name}
    names |= {m.profile.name for m in target.alive_models}
    return any(_singular(name) == wanted for name in names)


def blow_reroll(battle: Battle, unit: Unit, model: Model, target: Unit, first: bool) -> BlowReroll:
    """The re-roll of the blows of ``model`` of ``unit`` at ``target``: every miss
    with Hatred in the ``first`` round (:func:`first_round`), else 1s where a rule
    re-rolls them (:func:`rerolls.hit_ones_rerolled`: Preferred Enemy, the unit's
    rule), else none."""
    if first and hates(unit, model, target):
        return HATRED
    ones = hit_ones_rerolled(battle, unit, target)
    return BlowReroll(2, "1s", ones) if ones else NO_REROLL
