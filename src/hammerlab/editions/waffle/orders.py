"""What a shooting attack is told and what it produces: orders, hits, wounds, results."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec
from hammerlab.engine.records import kept_hash, quick_init
from hammerlab.engine.units import Model, Unit


@kept_hash
@quick_init
@dataclass(frozen=True)
class FireOrders:
    """How a unit is firing: the circumstances the rules distinguish. Its hash is kept
    (:func:`~hammerlab.engine.records.kept_hash`): orders are part of every estimate
    the AI remembers (:mod:`engine.memo`), hashed some 3,000 times a whole battle."""

    snap: bool = False
    """Forced Snap Shots (Return Fire!, Overwatch, shooting into combat)."""
    action: str = "shoot"
    """The shooting action taken (``shoot``, or one a rule offers: ``suppressive fire``)."""
    counts_within: float | None = None
    """For range, the target counts as this many inches away (seed 004, Overwatch:
    "the target … counts as being within 1" of the models … firing")."""
    counts_as_fired: bool = True
    """The weapon types fired count for what the unit may do later this turn
    (Overwatch and a Fiery Charge are not the unit's Shooting phase)."""
    counts_for_morale: bool = True
    """Its casualties count toward the phase's 25% Morale check (not Overwatch's:
    "Overwatch cannot cause Morale checks or Pinning tests")."""
    weapon_types: frozenset[str] | None = None
    """Only weapons of these base types may fire (Fiery Charge: Assault and Pistol)."""
    purpose: str = "shooting"
    into_melee: bool = False
    """Seed 001 (Proposed Rule): shooting at a unit locked in combat, with Snap
    Shots whose rolls of 1-2 hit another unit of the combat."""


def orders_against(battle: Battle, target: Unit, orders: FireOrders) -> FireOrders:
    """``orders`` for firing at ``target``: into a melee when it is locked in combat.

    Seed 001 (Proposed Rule): "Units wishing to shoot into a melee must declare
    which of the engaged units they are trying to hit, and then perform a snap
    shot against that unit." Only :func:`shooting.targets_for` with the option
    ``shooting_into_combat`` offers such targets.
    """
    return replace(orders, into_melee=True) if st(battle, target).locked_in_combat else orders


@dataclass
class Hit:
    """One hit on a unit, from ``source``."""

    unit: Unit
    strength: int
    source: Model
    precision: bool = False
    """A Precision Shot (:mod:`precision_shots`): its wound goes to a model of the
    firer's choice."""
    marker: Vec | None = None
    """The centre of the blast marker that made the hit (``None``: no marker): a
    Barrage weapon's wounds are allocated, and cover is taken, from it
    (:func:`allocation.shot_origin`)."""


@dataclass
class WoundRoll:
    """One successful wound roll, waiting for allocation."""

    strength: int
    ap: int | None
    source: Model
    precision: bool = False
    """The wound of a Precision Shot."""


class Tally(Counter[str]):
    """A :class:`Counter` that starts empty without ``Counter.__init__``'s two calls of its
    own (``super().__init__()``, then ``update`` with nothing to count): four are made
    for every :class:`VolleyResult`, one for each volley of every shooting attack. Given
    something to count (a copy, a pickle, ``Counter.copy``), it counts it as a
    ``Counter`` does."""

    def __init__(self, iterable: Iterable[str] | None = None, /, **kwds: int) -> None:
        if iterable is not None or kwds:
            self.update(iterable, **kwds)  # the rest of Counter.__init__ (dict's is empty)


@dataclass
class VolleyResult:
    """What one weapon's shots did, per unit id."""

    hits: Counter[str] = field(default_factory=Tally)
    wounds: Counter[str] = field(default_factory=Tally)
    unsaved: Counter[str] = field(default_factory=Tally)
    casualties: Counter[str] = field(default_factory=Tally)
    pinning: set[str] = field(default_factory=set)
    """Units that suffered unsaved wounds from a Pinning weapon."""
    fired: bool = False

    def merge(self, other: VolleyResult) -> None:
        """Add ``other``'s counts into this one: what ``Counter.update`` does (every key
        of ``other`` set, in its order, a count of 0 too), in a plain loop, without its
        check of what it is given (every volley of a shooting attack is merged)."""
        for mine, theirs in (
            (self.hits, other.hits),
            (self.wounds, other.wounds),
            (self.unsaved, other.unsaved),
            (self.casualties, other.casualties),
        ):
            for key, count in theirs.items():
                mine[key] += count
        self.pinning |= other.pinning
        self.fired = self.fired or other.fired
