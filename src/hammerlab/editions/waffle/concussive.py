"""Concussive (7th-edition rulebook): "A model that suffers one or more unsaved
Wounds from a weapon with this special rule is reduced to Initiative 1 until the
end of the following Assault phase."

The following Assault phase is the current player's when the wound comes
before it (movement or shooting phase), and the next player's when it comes
in an Assault phase (Overwatch, the fight). A turn ends with its Assault
phase, so the effect lasts until the end of this turn or of the next one
(:func:`wear_off`, called at the end of every player turn). What the battle
remembers (model id → ends of turn still to come) is this rule's memory.
"""

from __future__ import annotations

from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model

RULE = "Concussive"


def _memory(battle: Battle) -> dict[str, int]:
    return battle.remember(RULE, dict)


def concuss(battle: Battle, model: Model) -> None:
    """``model`` suffered an unsaved Wound from a Concussive weapon."""
    turns = 2 if battle.phase == "assault" else 1
    memory = _memory(battle)
    memory[model.id] = max(turns, memory.get(model.id, 0))


def concussed(battle: Battle, model: Model) -> bool:
    """Whether ``model`` is at Initiative 1 by Concussive."""
    return model.id in battle.memory.get(RULE, {})


def wear_off(battle: Battle) -> None:
    """The end of a player turn (and of its Assault phase): one fewer to wait."""
    memory = battle.memory.get(RULE)
    if not memory:
        return
    for model_id in sorted(memory):
        memory[model_id] -= 1
        if memory[model_id] <= 0:
            del memory[model_id]
