"""The Waffle Edition assault phase: the charge sub-phase, then the fight sub-phase.

Seed 004: "Once this has been done, proceed to the Fight sub-phase." Both run
in one phase, so what the charges leave (``charged``, ``fiery_charged``,
Fiery Charge casualties in ``combat_score``) reaches the fight.
"""

from __future__ import annotations

from hammerlab.editions.flow import Phase
from hammerlab.editions.waffle.charge import CHARGES, begin_charges
from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.hit_and_run import hit_and_run
from hammerlab.editions.waffle.random_attacks import roll_random_attacks
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import PhaseChanged


def _begin(battle: Battle, player: str) -> frozenset[str]:
    start_phase(battle, "assault", player)
    roll_random_attacks(battle)
    return begin_charges(battle, player)


def _end(battle: Battle, player: str) -> None:
    """Every combat on the table fights; then, "at the end of any Assault phase",
    units with Hit and Run may leave their combats (:func:`hit_and_run.hit_and_run`)."""
    fight_sub_phase(battle, player)
    hit_and_run(battle, player)
    battle.emit(PhaseChanged(phase="assault", player=player, turn=battle.turn, begins=False))


ASSAULT = Phase("assault", begin=_begin, picks=CHARGES, end=_end)
"""Charges of the active player, then every combat on the table fights."""
