"""What the Waffle Edition remembers about each unit during a battle.

The engine's :class:`~hammerlab.engine.units.UnitStatus` keeps what any
edition's unit does in a turn (moved, advanced, charged); the rest is the
Waffle Edition's own (run, gone to ground, pinned, falling back, locked in
combat, reactions used, weapon types fired, Morale penalties, the phase's
casualties and combat score). It lives in the battle's edition state
(``battle.state``), so one :class:`~hammerlab.engine.battle.Battle` is the
whole game: cloned and saved with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from hammerlab.editions.waffle.artillery import uncrewed_guns
from hammerlab.editions.waffle.events import WaffleWoundsLost
from hammerlab.engine.battle import Battle
from hammerlab.engine.records import deep_copied, reader
from hammerlab.engine.transpositions import frozen
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import IllegalActionError


@dataclass
class WaffleStatus:
    """What a unit has done and suffered (reset by the phase and turn that own it)."""

    ran: bool = False
    retreated: bool = False
    """Moved toward its own table edge (the intent ``retreat``) in this turn's
    Movement phase: a player's own record of the move, which the heuristic reads
    so as never to Run such a unit back at the enemy (``ai.WaffleAI``)."""
    gone_to_ground: bool = False
    pinned: bool = False
    """Gone to ground by a failed Pinning test (so ``gone_to_ground`` too)."""
    falling_back: bool = False
    regrouped: bool = False
    """It Regrouped at the start of this turn's Movement phase (``movement_phase.regroup``):
    until the end of its turn it counts as having moved, fires Snap Shots only, and
    may neither Run nor charge."""
    locked_in_combat: bool = False
    """Read off the table at the start of every phase and after charges and fights."""
    has_shot: bool = False
    reacted_this_phase: bool = False
    reacted_this_turn: bool = False
    shot_target: str | None = None
    """The unit targeted in this turn's shooting (charges may only go there)."""
    fired_types: set[str] = field(default_factory=set)
    """Weapon types fired this turn (Heavy, Rapid Fire... bar some charges)."""
    casualties_this_phase: int = 0
    models_at_phase_start: int = 0
    casualty_check_taken: bool = False
    """It took this phase's Morale check for 25% casualties already: Suppressive Fire's
    check is that check (seed 000: "they must take that morale check"), so the end of
    the phase does not give it again (``morale.phase_casualty_checks``)."""
    morale_penalty: int = 0
    """Ld penalty for Morale checks until the end of the turn (e.g. friendly fire)."""
    combat_score: int = 0
    """What this unit adds to its side's assault result this phase (wounds
    caused in the fight, Fiery Charge casualties)."""
    charged_unlocked: bool = False
    """Charged this phase while not locked in combat (Counter-attack)."""
    charged_through_difficult: bool = False
    """Charged through difficult terrain this phase: Initiative 1 without assault
    grenades (``difficult_charge.py``)."""
    changed_flight_mode: bool = False
    """A Flying Monstrous Creature that changed flight mode this turn."""
    jinking: bool = False
    """It Jinked: a 4+ cover save until the start of its next Movement phase
    (``rules/jink.py``)."""
    jink_snap_turns: int = 0
    """It Jinked: ends of its controller's turns left with Snap Shots only."""
    embarked_turn: int = 0
    disembarked_turn: int = 0
    """The game turns it last embarked and disembarked in (7th edition: a unit may not
    embark and disembark in the same phase; hammerlab's transports carry units in
    their own Movement phase only, so the turn names the phase)."""

    def __deepcopy__(self, memo: dict[int, object]) -> WaffleStatus:
        """An equal status of its own: its fields given as they are (each a boolean, a
        number, a string or ``None``, none changed in place: :data:`_UNCHANGING`) but
        the set :attr:`fired_types`, copied. What ``copy.deepcopy`` makes field by field
        at some ten times the cost (a cloned game's state, a batch's battles made from
        one prepared: ``PreparedBattle.again``)."""
        twin = WaffleStatus(*_EVERY_FIELD(self))
        twin.fired_types = set(self.fired_types)
        return twin


@dataclass
class VehicleStatus:
    """What a vehicle model suffered (7th-edition Vehicle Damage table) and where it faces."""

    heading: float | None = None
    """Degrees (0 = +x, 90 = +y); ``None`` until the vehicle is set up facing the enemy
    (``vehicles.face_the_enemy``: when the battle begins or it arrives) or moves."""
    shaken_turns: int = 0
    """Crew Shaken: ends of its controller's turns left with Snap Shots only."""
    stunned_turns: int = 0
    """Crew Stunned: ends of its controller's turns left without moving, Snap Shots only."""
    immobilised: bool = False
    moved_last_turn: bool = False
    """Whether it moved in its controller's last turn (close combat attacks hit it on 4+)."""
    rammed: bool = False
    """It Rammed this turn: Snap Shots only until the end of the turn (``ramming``)."""


@dataclass
class Embarked:
    """A unit carried in a transport (``transports.py``): off the table, so out of
    ``battle.units`` until it disembarks."""

    unit: Unit
    transport: str
    """The id of the transport's unit."""


SCENARIO_KEYS = (
    "ran",
    "gone_to_ground",
    "pinned",
    "falling_back",
    "changed_flight_mode",
    "reacted_this_turn",
)
"""The statuses a scenario may set (``[units.status]``), besides the engine's."""


@dataclass
class WaffleState:
    """The Waffle Edition's state of a battle: each unit's status, by unit id."""

    def __deepcopy__(self, memo: dict[int, Any]) -> WaffleState:
        """A deep copy made through ``__init__`` (:func:`~hammerlab.engine.records.deep_copied`)."""
        return deep_copied(self, memo)

    units: dict[str, WaffleStatus] = field(default_factory=dict)
    vehicles: dict[str, VehicleStatus] = field(default_factory=dict)
    """Each vehicle model's heading and damage (``vehicles.py``), by model id."""
    embarked: dict[str, Embarked] = field(default_factory=dict)
    """Units carried in transports, by unit id (``transports.py``)."""
    duels: dict[str, str] = field(default_factory=dict)
    """Models fighting a challenge, by model id: each one's foe (``challenges.py``)."""
    refused: set[str] = field(default_factory=set)
    """Characters barred by a refused challenge: they may not attack this round, nor
    lend their Leadership, until the fight sub-phase ends (``challenges.py``)."""

    def snapshot(self) -> dict[str, object]:
        """Plain data (for the state digest of saved games)."""
        units: dict[str, object] = {  # vars, not dataclasses.asdict: flat records, read often
            uid: {k: sorted(v) if isinstance(v, set) else v for k, v in vars(s).items()}
            for uid, s in sorted(self.units.items())
        }
        units.update(self._beside_units())
        return units

    def snapshot_for_estimates(self) -> dict[str, object]:
        """:meth:`snapshot` less each unit's :data:`SHOOTING_RECORD`: the state the
        AI's remembered estimates can read (``engine.memo.state_of_play``), so
        that choosing a shooter, then its action, then each weapon, ask them once.

        Each unit's status is the tuple of its other fields, read in one call
        (:data:`_ESTIMATED`: it is named at every decision); none of them is a
        set or another mutable value, so the tuple keeps what they are now and
        compares as the plain data would."""
        units: dict[str, object] = {uid: _ESTIMATED(s) for uid, s in sorted(self.units.items())}
        units.update(self._beside_units())
        return units

    def position(self) -> tuple[object, ...]:
        """The whole state (:meth:`snapshot`'s) as plain data compared by contents,
        for a battle's position (:func:`engine.transpositions.position_of`): each
        unit's status as the tuple of its fields, the weapon types fired as a sorted
        tuple (a position holds nothing that can change in place, so that it can be
        compared with those met before, and is kept by value:
        :func:`~engine.transpositions.digest`; a ``frozenset`` would keep every
        position kept tracked by the garbage collector, which walks them at each of
        its full passes, where a tuple of strings is let go); the rest, present in
        few games, :func:`~engine.transpositions.frozen`, each unit embarked whole
        (off the table, it is not among the battle's units)."""
        statuses = sorted(self.units.items())
        units = tuple(
            [
                (uid, _UNCHANGING(s), tuple(sorted(f)) if (f := s.fired_types) else ())
                for uid, s in statuses
            ]
        )
        rest = self._beside_units()
        if self.embarked:  # the passengers whole: what they carry, their datasheets
            rest["passengers"] = [(e.transport, e.unit) for _, e in sorted(self.embarked.items())]
        return (units, frozen(rest)) if rest else (units,)

    def _beside_units(self) -> dict[str, object]:
        """The rest of :meth:`snapshot`: vehicles, units embarked, challenges (where any)."""
        rest: dict[str, object] = {}
        if self.vehicles:
            rest["vehicle models"] = {
                mid: dict(vars(v)) for mid, v in sorted(self.vehicles.items())
            }
        if self.embarked:
            rest["embarked"] = {
                uid: {"transport": e.transport, "wounds": [m.wounds_left for m in e.unit.models]}
                for uid, e in sorted(self.embarked.items())
            }
        if self.duels or self.refused:
            rest["challenges"] = {
                "duels": dict(sorted(self.duels.items())),
                "refused": sorted(self.refused),
            }
        return rest


SHOOTING_RECORD = ("has_shot", "fired_types", "shot_target")
"""What a unit did in its own Shooting phase. Read only to say whether it may
still shoot (``shooting._may_act``, the AI's ``dive_gain``, ``jink_plans.jink_gain``) and
whether and whom it may charge (``charge.charge_ban``, ``charge.charge_targets``),
none of which an estimate the AI remembers (``engine.memo.per_decision`` in
``expected.py``, ``attacks.py``, ``firepower.py`` and ``charge.py``, ``plans.fight_net``,
``movement.route_of``) calls: their answers are the same whatever these say
(``shooting_plans._plan`` is given what it reads of them). (A remembered estimate that
comes to read one must take it out of this list.)"""


_ESTIMATED = reader(*(f.name for f in fields(WaffleStatus) if f.name not in SHOOTING_RECORD))
"""Every field of a :class:`WaffleStatus` but the :data:`SHOOTING_RECORD`, as
:meth:`WaffleState.snapshot_for_estimates` compares them."""


_EVERY_FIELD = reader(*(f.name for f in fields(WaffleStatus)))
"""Every field of a :class:`WaffleStatus`, in order (:meth:`WaffleStatus.__deepcopy__`)."""


_UNCHANGING = reader(*(f.name for f in fields(WaffleStatus) if f.name != "fired_types"))
"""Every field of a :class:`WaffleStatus` but the set ``fired_types`` (each a boolean, a
number or a string: none changes in place), as :meth:`WaffleState.position` takes them."""


def state_of(battle: Battle) -> WaffleState:
    """The battle's Waffle state, made on first use."""
    if battle.state is None:
        battle.state = WaffleState()
    if not isinstance(battle.state, WaffleState):
        raise IllegalActionError("this battle is not played with the Waffle Edition")
    return battle.state


def st(battle: Battle, unit: Unit) -> WaffleStatus:
    """The Waffle status of ``unit`` (asked on nearly every rule and estimate, hence
    the quick path for a battle whose state is made already)."""
    state = battle.state
    units = (state if type(state) is WaffleState else state_of(battle)).units
    status = units.get(unit.id)
    if status is None:
        status = units[unit.id] = WaffleStatus()
    return status


def set_statuses(battle: Battle, statuses: Mapping[str, Mapping[str, bool]]) -> None:
    """A scenario's starting statuses (keys of :data:`SCENARIO_KEYS`), by unit id.

    A unit that starts pinned has gone to ground (a failed Pinning test is
    how a unit is pinned), so the two flags never disagree.
    """
    for unit_id, flags in statuses.items():
        status = st(battle, battle.unit(unit_id))
        for key, value in flags.items():
            setattr(status, key, value)
        status.gone_to_ground = status.gone_to_ground or status.pinned


def remove_casualty(
    battle: Battle, unit: Unit, model: Model, cause: str, counted: bool = True
) -> None:
    """Take ``model`` off the table; ``counted``: it counts toward the casualties of
    the phase (the 25% that force a Morale check; Overwatch's do not)."""
    battle.remove_model(unit, model, cause)
    if counted:
        st(battle, unit).casualties_this_phase += 1
    for gun in uncrewed_guns(unit):  # Artillery: "the guns are immediately removed as well"
        battle.remove_model(unit, gun, "its crew are all dead")
        if counted:
            st(battle, unit).casualties_this_phase += 1


def lose_one_wound(battle: Battle, unit: Unit, model: Model, cause: str) -> None:
    """``model`` loses one Wound, reported; at none left it is a casualty of ``cause``.

    For the single Wounds no armour save stops (a failed dangerous terrain test,
    Perils of the Warp), after whatever save the rule still allows was rolled.
    """
    model.wounds_left -= 1
    battle.emit(
        WaffleWoundsLost(
            unit=unit.label,
            model=model.id,
            lost=1,
            left=max(0, model.wounds_left),
        )
    )
    if model.wounds_left <= 0:
        remove_casualty(battle, unit, model, cause)
