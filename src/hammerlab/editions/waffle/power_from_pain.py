"""Power from Pain (7th-edition Codex: Dark Eldar, 2014), as data: the special
rules its models have in each game turn.

The codex is not in the shared data; the text is as a rules wiki transcribes it
(checked with the search tool): "At the start of each game turn, look up the game
turn number on the Power from Pain table. All models with the Power from Pain
special rule gain the special rules listed on the table, in addition to any other
special rules they have." Table: 1 None; 2 Feel No Pain (6+); 3 Feel No Pain;
4 Feel No Pain, Furious Charge; 5 Feel No Pain, Furious Charge, Fearless; 6+ Feel
No Pain, Furious Charge, Fearless, Rage. (The 5th/6th-edition codex's pain tokens,
gained by destroying units, are gone from the 7th-edition codex.)

The rules are granted by adding them to each such model's own rules at the start
of each game turn (at the end of the game turn before), the previous turn's grant
taken back first; every procedure then reads them as the model's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.engine.battle import Battle

NAME: Final = "power from pain"

POWER_FROM_PAIN_TABLE: Final[tuple[tuple[str, ...], ...]] = (
    (),
    ("Feel No Pain (6+)",),
    ("Feel No Pain",),
    ("Feel No Pain", "Furious Charge"),
    ("Feel No Pain", "Furious Charge", "Fearless"),
    ("Feel No Pain", "Furious Charge", "Fearless", "Rage"),
)
"""The Power from Pain table, game turn 1 first; the last row holds for turn 6 and later."""


def pain_rules(game_turn: int) -> tuple[str, ...]:
    """The special rules Power from Pain gives in ``game_turn`` (from 1)."""
    return POWER_FROM_PAIN_TABLE[min(game_turn, len(POWER_FROM_PAIN_TABLE)) - 1]


@dataclass
class PainState:
    """What Power from Pain remembers: player turns ended, and the rules it gave."""

    turns_ended: int = 0
    granted: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Rules given, by model id (only those the model did not have)."""


def power_from_pain(battle: Battle) -> None:
    """At the end of a player's turn: if it ends a game turn, give the models with
    Power from Pain the next game turn's rules (:func:`pain_rules`) in place of the
    last ones. A game turn ends when every player has had a turn in it."""
    state = battle.remember(NAME, PainState)
    state.turns_ended += 1
    if state.turns_ended % len(battle.players):
        return
    rules = pain_rules(state.turns_ended // len(battle.players) + 1)
    for unit in battle.units.values():
        for model in unit.models:
            lost = state.granted.pop(model.id, ())
            if lost:  # a model given nothing keeps its rules as they are (most models)
                model.rules = tuple(r for r in model.rules if r not in lost)
            if not model_has(unit, model, "Power from Pain"):
                continue
            new = tuple(r for r in rules if r not in model.rules)
            model.rules = (*model.rules, *new)
            if new:
                state.granted[model.id] = new
