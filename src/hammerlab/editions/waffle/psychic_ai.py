"""The heuristic AI's choices in the Psychic phase (a mix-in of :class:`ai.WaffleAI`).

A Witchfire power is worth its expected casualties (the shooting estimate of
:func:`expected.expected_casualties`, fired by the Psyker as
:func:`psychic.psyker_firing` makes him) times the chance to manifest it
(:func:`psychic.manifest_chance`); a Blessing :data:`BLESSING_VALUE` per model
it reaches, a Malediction :data:`MALEDICTION_VALUE` per enemy model. The AI
rolls the fewest dice that manifest with at least :data:`WANTED_CHANCE`, and
denies with up to :data:`DENY_DICE_PER_SUCCESS`
dice per success to match.
"""

from __future__ import annotations

from typing import Any

from hammerlab.editions.waffle.expected import expected_casualties
from hammerlab.editions.waffle.psychic import (
    WITCHFIRE_ORDERS,
    PowerOption,
    manifest_chance,
    option_of,
    power_options,
    psyker_firing,
)
from hammerlab.editions.waffle.psychic_memory import memory_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.units import Unit

WANTED_CHANCE = 0.7
"""The chance to manifest the AI asks of its dice, when the pool allows."""
BLESSING_VALUE = 0.1
"""What a Blessing is worth per model it reaches (about a tenth of a casualty)."""
MALEDICTION_VALUE = 0.1
"""What a Malediction is worth per enemy model it reaches (as a Blessing per friend)."""
DENY_DICE_PER_SUCCESS = 3
"""Deny dice per success to match (each succeeds on 6+ alone: about 1 in 6)."""


def _best(values: list[float]) -> int:
    """The first of the highest values."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


def _worth(value: float) -> float:
    """A power worth nothing ranks below stopping (which is worth 0)."""
    return value if value > 0 else -1.0


def power_value(battle: Battle, unit: Unit, option: PowerOption, target: Unit) -> float:
    """What manifesting ``option`` on ``target`` is worth, before the dice."""
    power = option.power
    if power.is_witchfire:
        firer = psyker_firing(unit, option.model, power)
        return expected_casualties(battle, firer, target, power.name, WITCHFIRE_ORDERS)
    reached = len(target.alive_models) if power.whole_unit or power.range else 1
    if power.is_malediction:
        return MALEDICTION_VALUE * reached
    return BLESSING_VALUE * reached


def option_value(battle: Battle, unit: Unit, option: PowerOption) -> float:
    """The best target's value times the chance to manifest with the whole pool."""
    pool = memory_of(battle).pools.get(unit.player, 0)
    chance = manifest_chance(
        pool, option.power.warp_charge, battle.settings.integer("warp_charge_roll")
    )
    return chance * max(power_value(battle, unit, option, t) for t in option.targets)


def dice_to_roll(battle: Battle, warp_charge: int, pool: int) -> int:
    """The fewest dice (at least the Warp Charge) manifesting with
    :data:`WANTED_CHANCE`; the whole pool when none does."""
    harness = battle.settings.integer("warp_charge_roll")
    for dice in range(warp_charge, pool + 1):
        if manifest_chance(dice, warp_charge, harness) >= WANTED_CHANCE:
            return dice
    return pool


class PsychicChoices:
    """The Psychic phase's decisions, one method per decision kind."""

    def _psyker(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return 0.0
            options = power_options(battle, unit)
            return _worth(max((option_value(battle, unit, o) for o in options), default=0.0))

        return _best([value(c.value) for c in decision.choices])

    def _power(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        return _best(
            [
                0.0 if c.value is None else _worth(option_value(battle, unit, c.value))
                for c in decision.choices
            ]
        )

    def _psychic_target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        option = option_of(battle, unit, decision.context.weapon)
        if option is None:
            return 0
        return _best([power_value(battle, unit, option, c.value) for c in decision.choices])

    def _warp_dice(self, battle: Battle, decision: Decision[Any]) -> int:
        counts: list[int] = [c.value for c in decision.choices]
        wanted = dice_to_roll(battle, counts[0], counts[-1])
        return counts.index(wanted)

    def _deny_dice(self, battle: Battle, decision: Decision[Any]) -> int:
        counts: list[int] = [c.value for c in decision.choices]
        against = memory_of(battle).facing
        return counts.index(min(counts[-1], DENY_DICE_PER_SUCCESS * against))
