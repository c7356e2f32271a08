"""Random Attacks: a model whose Attacks characteristic is a D6, rolled anew at the
beginning of each Assault phase (the 6th/7th-edition Chaos Spawn, ``A D6``; the
rule as remembered: docs/rules/waffle.md, Spawnhood).

The model's profile carries the number rolled, so every rule and estimate that
reads its Attacks reads that number until the next roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Final

from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.engine.units import Model, Unit

RULE: Final = "Random Attacks"


@dataclass(frozen=True)
class RandomAttacksRolled(Event):
    """``model``'s Attacks for this Assault phase: ``attacks`` (the D6 rolled)."""

    kind: ClassVar[str] = "random attacks"
    model: str
    attacks: int

    @property
    def text(self) -> str:
        return f"  {self.model}: Random Attacks, A {self.attacks} this Assault phase"


def roll_attacks(battle: Battle, model: Model) -> None:
    """Roll ``model``'s D6 Attacks and give it a profile with that many."""
    rolled = battle.dice.d6(f"Random Attacks ({model.id})")
    chars = model.profile.characteristics
    model.profile = replace(model.profile, characteristics={**chars, "A": str(rolled)})
    battle.emit(RandomAttacksRolled(model.id, rolled))


def has_random_attacks(unit: Unit, model: Model) -> bool:
    """Whether ``model`` has the rule (its own or its unit's)."""
    return any(r.lower() == RULE.lower() for r in (*unit.rules, *model.rules))


def roll_random_attacks(battle: Battle) -> None:
    """A D6 for each model on the table with Random Attacks, "at the beginning of
    each Assault phase", whoever's turn it is (units in the battle's order)."""
    for unit in battle.units.values():
        for model in unit.alive_models:
            if has_random_attacks(unit, model):
                roll_attacks(battle, model)
