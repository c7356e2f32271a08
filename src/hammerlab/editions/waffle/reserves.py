"""Reserves (7th-edition base rules): units that start off the table and arrive later.

A scenario puts a unit in reserve (``reserve = "deep_strike"`` or ``"outflank"``); the unit is
taken out of ``battle.units`` before the first turn, so no procedure sees it
(it cannot shoot, be shot, fight or score) until it arrives. What the rule
remembers lives in ``battle.memory["reserves"]``, part of the game state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hammerlab.editions.waffle.deployment_events import LostInReserve, ReserveRolled
from hammerlab.editions.waffle.state import state_of
from hammerlab.editions.waffle.vehicles import face_the_enemy
from hammerlab.engine.battle import Battle
from hammerlab.engine.records import deep_copied
from hammerlab.engine.units import Unit

RESERVES = "reserves"
"""The rule's key in ``battle.memory``."""

FIRST_ROLL_TURN = 2
"""7th edition, Rolling for Reserves: "At the start of your second turn, you
must roll a D6 for each unit in Reserve"."""
RESERVE_ROLL = 3
"""7th edition: "If the roll is a 3 or more, that unit arrives this turn"."""
AUTOMATIC_TURN = 4
"""7th edition: units still in Reserve arrive automatically in turn 4 (the
``Warhammer40K.gst`` text of a Warlord Trait: "it must still arrive on the
fourth turn")."""


@dataclass
class ReserveState:
    """Units in reserve and what the rules remember of their arrival."""

    def __deepcopy__(self, memo: dict[int, Any]) -> ReserveState:
        """A deep copy made through ``__init__`` (:func:`~hammerlab.engine.records.deep_copied`)."""
        return deep_copied(self, memo)

    waiting: dict[str, Unit] = field(default_factory=dict)
    """Units off the table, by id, in the scenario's order."""
    how: dict[str, str] = field(default_factory=dict)
    """How each unit arrives (``deep_strike``, ``outflank``, ``zoom``)."""
    ongoing: list[str] = field(default_factory=list)
    """Units in Ongoing Reserves (a Delayed Deep Strike): they arrive without a roll."""
    arrived: dict[str, int] = field(default_factory=dict)
    """The game turn each unit arrived by Deep Strike."""
    order: list[str] = field(default_factory=list)
    """Every unit id in the scenario's order (``battle.units`` keeps that order)."""
    last_turn: int = 0
    last_player: str = ""
    """The game ends after ``last_player``'s turn ``last_turn``."""


def reserve_state(battle: Battle) -> ReserveState | None:
    """The battle's reserves (``None`` when no unit ever was in reserve)."""
    state = battle.memory.get(RESERVES)
    return state if isinstance(state, ReserveState) else None


def set_reserves(battle: Battle, reserves: dict[str, str], turns: int) -> None:
    """Take the units named by ``reserves`` (id → how they arrive) off the table."""
    state = battle.remember(RESERVES, ReserveState)
    state.order = list(battle.units)
    state.last_turn = turns
    state.last_player = battle.opponent(battle.active_player)
    for unit_id, how in reserves.items():
        state.waiting[unit_id] = battle.units.pop(unit_id)
        state.how[unit_id] = how


def put_on_table(battle: Battle, unit: Unit) -> None:
    """The unit leaves reserve and joins ``battle.units`` in its scenario place; its
    vehicles that face nowhere yet face the enemy (:func:`vehicles.face_the_enemy`).
    A unit that joined the battle after the scenario began (a Chaos champion's new
    unit: ``chaos_forms``), and so has no scenario place, keeps its place after them."""
    state = reserve_state(battle)
    assert state is not None
    state.waiting.pop(unit.id, None)
    if unit.id in state.ongoing:
        state.ongoing.remove(unit.id)
    placed = {**battle.units, unit.id: unit}
    scenario = set(state.order)
    order = [uid for uid in state.order if uid in placed]
    order += [uid for uid in placed if uid not in scenario]
    battle.units.clear()
    battle.units.update((uid, placed[uid]) for uid in order)
    face_the_enemy(battle, unit)


def back_to_reserves(battle: Battle, unit: Unit) -> None:
    """7th-edition Deep Strike Mishap, Delayed: "The unit is placed in Ongoing Reserves"."""
    state = reserve_state(battle)
    assert state is not None
    if unit.id not in state.ongoing:
        state.ongoing.append(unit.id)


def to_ongoing_reserves(battle: Battle, unit: Unit, how: str) -> None:
    """The unit leaves the table into Ongoing Reserves, arriving ``how`` (a Zooming Flyer
    that flies off the table: ``zooming.leave_table``). A battle with no reserves until
    now keeps its units' order from here, and has no last turn to lose it in."""
    state = battle.remember(RESERVES, ReserveState)
    if not state.order:
        state.order = list(battle.units)
    state.waiting[unit.id] = battle.units.pop(unit.id)
    state.how[unit.id] = how
    back_to_reserves(battle, unit)


def arrives_as(battle: Battle, unit: Unit) -> str | None:
    """How a unit in reserve arrives (``deep_strike``, ``outflank``, ``zoom``)."""
    state = reserve_state(battle)
    return None if state is None else state.how.get(unit.id)


def reserve_roll(battle: Battle, unit: Unit) -> bool:
    """Whether the unit arrives this turn (7th edition, Rolling for Reserves).

    No unit arrives in turn 1; from turn 2 each rolls a D6 and arrives on a
    3+ (:data:`RESERVE_ROLL`); from turn 4 it arrives without a roll, as does
    a unit in Ongoing Reserves (interpretation: 7th edition "Ongoing Reserves
    ... arrive in their controlling player's next turn").
    """
    state = reserve_state(battle)
    assert state is not None
    if battle.turn < FIRST_ROLL_TURN:
        return False
    if battle.turn >= AUTOMATIC_TURN or unit.id in state.ongoing:
        battle.emit(ReserveRolled(unit=unit.label, roll=0, needed=0, arrives=True))
        return True
    roll = battle.dice.d6(f"Reserve Roll ({unit.label})")
    arrives = roll >= RESERVE_ROLL
    battle.emit(ReserveRolled(unit=unit.label, roll=roll, needed=RESERVE_ROLL, arrives=arrives))
    return arrives


def waiting_units(battle: Battle, player: str) -> list[Unit]:
    """The player's units in reserve, in the scenario's order."""
    state = reserve_state(battle)
    return [] if state is None else [u for u in state.waiting.values() if u.player == player]


def waiting_unit(battle: Battle, unit_id: str) -> Unit:
    """The unit ``unit_id``, in reserve (the one a Deep Strike decision is about)."""
    state = reserve_state(battle)
    assert state is not None and unit_id in state.waiting
    return state.waiting[unit_id]


IN_RESERVE = "in reserve"


def units_off_table(battle: Battle) -> list[tuple[Unit, str]]:
    """The units in play but off the table, out of ``battle.units``, each with where it
    is in words: those in reserve (:data:`IN_RESERVE`, Ongoing Reserves included), in
    the scenario's order, then those aboard a transport (``aboard Chimera
    [chimera]``), by id. What the summary, ``battle --json`` and the lab list beside
    the units on the table (``ruleset.WaffleRuleset.units_off_table``), and what the
    Morale check's count of a phase's casualties starts with
    (``shooting.start_phase``)."""
    state = reserve_state(battle)
    away = [] if state is None else [(unit, IN_RESERVE) for unit in state.waiting.values()]
    for _, aboard in sorted(state_of(battle).embarked.items()):
        transport = battle.units.get(aboard.transport)
        name = aboard.transport if transport is None else transport.label
        away.append((aboard.unit, f"aboard {name}"))
    return away


def arrived_by_deep_strike(battle: Battle, unit: Unit) -> bool:
    """Whether the unit arrived by Deep Strike this game turn (it may not charge)."""
    state = reserve_state(battle)
    return state is not None and state.arrived.get(unit.id) == battle.turn


def lost_in_reserve(battle: Battle, player: str) -> None:
    """At the end of the last player's last turn the game ends: the units still in
    reserve are lost (:func:`lose_reserves`)."""
    state = reserve_state(battle)
    if state is None or battle.turn < state.last_turn or player != state.last_player:
        return
    lose_reserves(battle)


def lose_reserves(battle: Battle) -> None:
    """The game ends (its last turn played, or a side wiped out: ``sudden_death``).
    7th edition: "any unit that has not arrived by the end of the game counts as
    destroyed": each unit still in reserve joins the table with every model removed,
    so the summary and the victory conditions count it destroyed (its kill point,
    or its models, to its enemy)."""
    state = reserve_state(battle)
    if state is None:
        return
    for unit in list(state.waiting.values()):
        for model in unit.models:
            model.wounds_left = 0
        battle.emit(LostInReserve(unit=unit.label))
        put_on_table(battle, unit)
