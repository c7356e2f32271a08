"""Unit special rules that change the Psychic phase's dice (``psychic.py``).

The Aegis (Grey Knights; Warhammer40K.gst, Gathering Storm: Rise of the
Primarch): "A unit that contains at least one model with this special rule
re-rolls results of 1 when making Deny the Witch tests."
"""

from __future__ import annotations

from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def aegis_rerolls(
    battle: Battle, target: Unit, rolls: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``target``'s Deny the Witch dice after The Aegis, and the dice it re-rolled.

    Each 1 is re-rolled once (a re-roll may not be re-rolled); without the rule,
    or without a 1, the dice stand and no die is rolled."""
    ones = rolls.count(1) if target.has_rule("The Aegis") else 0
    if not ones:
        return rolls, ()
    again = iter(battle.dice.roll(ones, "The Aegis (re-roll Deny the Witch 1s)"))
    return tuple(next(again) if r == 1 else r for r in rolls), (1,) * ones
