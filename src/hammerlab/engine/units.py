"""Units and models as they stand on the battlefield during a battle."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import ClassVar, overload
from weakref import ref

from hammerlab.engine.datasheet import Datasheet, Profile, Weapon, lowered
from hammerlab.engine.geometry import MM_PER_INCH, Vec

_set = object.__setattr__
"""Set an attribute of a model past :meth:`Model.__setattr__` (no edit counted), its
value kept inline in the instance (never through its ``__dict__``: :meth:`Model.__init__`)."""


class _BaseRadius:
    """:attr:`Model.radius`: the base's radius in inches, worked out at the first
    reading and kept on the model (:data:`_set`), where later readings find it (a base
    never changes size, and every distance reads it).

    What ``functools.cached_property`` does, without the lock Python 3.11 takes at
    every first reading: a sweep makes every model anew for every battle and reads
    every model's radius, and that lock cost a microsecond a model."""

    @overload
    def __get__(self, model: None, owner: type) -> _BaseRadius: ...
    @overload
    def __get__(self, model: Model, owner: type | None = None) -> float: ...
    def __get__(self, model: Model | None, owner: type | None = None) -> float | _BaseRadius:
        if model is None:  # read off the class (documentation tools): the descriptor
            return self
        radius: float = model.base_mm / MM_PER_INCH / 2.0
        _set(model, "radius", radius)
        return radius


_edits = itertools.count(1)
_last_edit = [0]
"""The number :func:`models_edited` gives: the last one drawn from :data:`_edits`."""
_last_rules_edit = [0]
"""The number drawn from :data:`_edits` by the last edit of a model's ``rules`` (what
:meth:`Unit.has_rule` keeps its models with rules of their own by)."""
_last_wounds_edit = [0]
"""The number drawn from :data:`_edits` by the last edit of a model's ``wounds_left``
(what :attr:`Unit.alive_models` keeps which of a unit's models are alive by)."""


def models_edited() -> int:
    """A number that changes whenever any model's field is set (``Model.__setattr__``),
    in any battle: while it reads the same, no model has changed since. What the
    positions of :mod:`engine.transpositions` read of the models is remembered with it.

    Each edit draws a new number (``next`` on a counter, one step under the GIL) and
    stores it: a thread that stores late stores a number never stored before, so the
    number read after an edit is never one read before it."""
    return _last_edit[0]


@dataclass(init=False)
class Model:
    """One model: profile, wargear, base, position and wounds left.

    Its fields hold values that never change in place (strings, numbers, tuples,
    frozen profiles and weapons): a model changes only by a field being set, which
    :func:`models_edited` counts. Set a field by assignment (or ``del``), never past
    :meth:`__setattr__` (``object.__setattr__``, the model's ``__dict__``): such an
    edit is counted nowhere, and every answer kept by the counts (:attr:`Unit.alive_models`,
    :meth:`Unit.has_rule`, :mod:`engine.transpositions`) would go on being given."""

    id: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    position: Vec
    base_mm: float
    wounds_left: int
    rules: tuple[str, ...]
    """Special rules of this model alone (a character's, say)."""
    powers: tuple[Weapon, ...]
    """Psychic powers the model knows (``ModelEntry.powers``)."""

    def __init__(
        self,
        id: str,
        profile: Profile,
        weapons: tuple[Weapon, ...],
        position: Vec,
        base_mm: float = 25.0,
        wounds_left: int = 1,
        rules: tuple[str, ...] = (),
        powers: tuple[Weapon, ...] = (),
    ) -> None:
        """The fields set past :meth:`__setattr__` (``object.__setattr__``): a new model
        is no edit. Never through ``self.__dict__``: asking for it turns the values
        CPython 3.11 keeps inline in an instance (their names shared with the class's
        other instances) into a dictionary of its own, and every later reading of a
        field then looks its name up (docs/scale.md, twenty-fifth session)."""
        _set(self, "id", id)
        _set(self, "profile", profile)
        _set(self, "weapons", weapons)
        _set(self, "position", position)
        _set(self, "base_mm", base_mm)
        _set(self, "wounds_left", wounds_left)
        _set(self, "rules", rules)
        _set(self, "powers", powers)
        _set(self, "edit", 0)

    edit: ClassVar[int]
    """The number drawn for this model's last edit (:func:`models_edited`), kept on the
    model beside its fields (not one of them: no part of its equality); 0 for a model
    never edited. Set by :meth:`__init__` on every model, so that its name is among
    those the class's instances share from the first one on: CPython 3.11 lets fewer
    names join them with each instance made (down to one more), and a model given a
    name that cannot join keeps a dictionary of its own (:meth:`__init__`). That one
    more is the :attr:`radius`. While it is at most a number
    :func:`models_edited` read, the model's fields are as they were then (each edit
    sets a field first, then draws its number), whatever other models were edited
    since. A copy keeps its original's, which its fields were equal to then."""

    def __setattr__(self, name: str, value: object) -> None:
        """Set a field, and count the edit (:func:`models_edited`, :attr:`edit`; an edit
        of its ``rules`` and ``wounds_left`` apart too:
        :data:`_last_rules_edit`, :data:`_last_wounds_edit`)."""
        _set(self, name, value)
        _set(self, "edit", edit := next(_edits))
        _last_edit[0] = edit
        if name == "rules":
            _last_rules_edit[0] = edit
        elif name == "wounds_left":
            _last_wounds_edit[0] = edit

    def __delattr__(self, name: str) -> None:
        """Delete an attribute, and count the edit (:func:`models_edited`, :attr:`edit`;
        an edit of its ``rules`` and ``wounds_left`` apart too:
        :data:`_last_rules_edit`, :data:`_last_wounds_edit`)."""
        object.__delattr__(self, name)
        _set(self, "edit", edit := next(_edits))
        _last_edit[0] = edit
        if name == "rules":
            _last_rules_edit[0] = edit
        elif name == "wounds_left":
            _last_wounds_edit[0] = edit

    def __copy__(self) -> Model:
        """A model equal to this one, field for field, with its :attr:`edit` and its
        :attr:`radius`: what ``copy.copy`` makes by way of ``__reduce_ex__`` (which asks
        for the model's ``__dict__``: :meth:`__init__` says what that costs), at a
        fraction of the cost.
        Made by :meth:`__init__`, then given the rest past :meth:`__setattr__`, so its
        values are kept inline too: an estimate copies every model of a unit it moves in
        thought (:meth:`Unit.copy`), and a battle made from a prepared one copies every
        model to play it (``PreparedBattle.again``). No edit."""
        twin = Model(*_model_fields(self))
        if edit := self.edit:
            _set(twin, "edit", edit)
        _set(twin, "radius", self.radius)
        return twin

    @property
    def name(self) -> str:
        """The profile name (``Space Marine``)."""
        return self.profile.name

    radius = _BaseRadius()

    @property
    def alive(self) -> bool:
        """Whether the model is still on the table."""
        return self.wounds_left > 0

    def weapon(self, name: str) -> Weapon | None:
        """The model's weapon called ``name``, if it has one."""
        for weapon in self.weapons:  # a loop, not next(generator): asked on every estimate
            if weapon.name == name:
                return weapon
        return None


def _keep_ruled(unit: Unit) -> _Ruled:
    """The places of ``unit``'s models with rules of their own, kept (:data:`_RULED`) with
    the :data:`_last_rules_edit` number and a copy of its list: :meth:`Unit.has_rule`."""
    # The number and the copy are taken before the scan, and the copy is what is
    # scanned: an edit during the scan (another thread's) leaves the number behind,
    # and a list changed meanwhile no longer compares equal to the copy.
    edit, models = _last_rules_edit[0], list(unit.models)
    if len(_RULED) >= RULED_KEPT:
        _RULED.clear()
    ruled = tuple([at for at, m in enumerate(models) if m.rules])
    kept = _RULED[id(unit)] = (ref(unit), edit, models, ruled)
    return kept


RULED_KEPT = 256
"""Units :func:`_keep_ruled` keeps before it forgets them all (a battle has a few dozen;
a sweep plays thousands, one after the other)."""

_Ruled = tuple[Callable[[], object], int, list[Model], tuple[int, ...]]
"""A unit's kept places of models with rules: a weak reference to the unit (no entry is
taken for another unit that comes to have its identity), the :data:`_last_rules_edit`
number and the copy of its list they were read at, the places."""

_RULED: dict[int, _Ruled] = {}
""":func:`_keep_ruled`'s entries, by the unit's identity."""

_Alive = tuple[int, list[Model], tuple[bool, ...] | None]
"""What :attr:`Unit.alive_models` keeps on a unit: the :data:`_last_wounds_edit` number
read before its models were, the copy of its list it read them from, and which of them
were alive (``None``: every one)."""


_model_fields = attrgetter(
    "id", "profile", "weapons", "position", "base_mm", "wounds_left", "rules", "powers"
)
"""A model's fields in the order :meth:`Model.__init__` takes them."""


@dataclass(slots=True)
class UnitStatus:
    """What a unit did in its turn, in words every edition shares; an edition keeps
    the rest of what it remembers about units in the battle's edition state."""

    moved: bool = False
    advanced: bool = False
    charged: bool = False

    def __copy__(self) -> UnitStatus:
        """A status equal to this one: what ``copy.copy`` makes by way of
        ``__reduce_ex__``, at a fraction of the cost (:meth:`Unit.copy`)."""
        return type(self)(*_status_fields(self))


_copied_model = Model.__copy__
"""What :meth:`Unit.copy` makes each model's copy with: every model is a :class:`Model`
(none of the engine's or the editions' subclasses it; a subclass's own ``__copy__``
would not be called here)."""

_status_fields = attrgetter(*UnitStatus.__slots__)
"""Every field of a :class:`UnitStatus`, in order."""


@dataclass
class Unit:
    """A unit in play."""

    id: str
    name: str
    player: str
    datasheet: Datasheet
    models: list[Model]
    status: UnitStatus = field(default_factory=UnitStatus)
    starting_models: int = 0
    """The rules' starting strength: the unit's models at the start of the game, those
    a scenario's ``casualties`` took before it began included (a scenario is a moment
    of a game; 25% of the starting strength, Final Shot's "multiple-model unit" and
    the like read this)."""
    scenario_casualties: int = 0
    """Models lost before the scenario began (its ``casualties``): among the
    :attr:`starting_models`, never among the :attr:`fielded_models`. Only the score
    and the lab's metrics read it (through :attr:`fielded_models`); a heuristic
    controller's answer never does, so a position (``transpositions``) leaves it out."""

    @property
    def fielded_models(self) -> int:
        """The models the unit fields when the scenario begins: its starting strength
        less the models lost before the scenario. What a victory condition counts as
        destroyed in play, and what a lab's count of models left is out of."""
        return self.starting_models - self.scenario_casualties

    def __post_init__(self) -> None:
        if not self.starting_models:
            self.starting_models = len(self.models)

    def copy(self) -> Unit:
        """A copy whose models can be moved or slain, and whose status set, without
        touching this unit: an estimate's "what if" (a move weighed before it is
        made, a target thinned by a volley, a landing probed), or a unit to play a
        battle with (``PreparedBattle.again``). Its models (:meth:`Model.__copy__`) and
        status are new objects; what they hold (profiles, weapons, datasheet,
        positions) never changes in place, so it is shared, as ``copy.deepcopy``
        shares it (their ``__deepcopy__`` give themselves back) at many times the
        cost. The copies are made by their ``__copy__`` called directly, not through
        ``copy.copy`` (which looks the method up on the class again for every model,
        some 2,000 instructions each: a battle made from a prepared one copies every
        model, an estimate every model of the units it weighs)."""
        return Unit(
            self.id,
            self.name,
            self.player,
            self.datasheet,
            list(map(_copied_model, self.models)),
            self.status.__copy__(),
            self.starting_models,
            self.scenario_casualties,
        )

    _alive: ClassVar[_Alive] = (-1, [], None)
    """The number and the copy of the list :attr:`alive_models` last read the unit's
    models at, and which of them were alive, on the unit once asked: the class's never
    matches (no number drawn is -1)."""

    @property
    def alive_models(self) -> list[Model]:
        """Models still on the table: a new list each time.

        Asked thousands of times a battle, most often of units none of whose models
        was wounded since the last asking: the unit keeps the :data:`_last_wounds_edit`
        number read before its models were (an edit while they are read leaves it
        behind), the copy of its list it read them from (never one a caller holds) and
        which of them were alive (``None``: all); while no model's ``wounds_left`` has
        been set since and its list compares equal to that copy (each model the same
        object, or an equal one, with the same ``wounds_left``), the same places hold
        models alive: the models of its own list there, picked in C (``compress``; the
        places of a unit with a model down picked by a comprehension cost the Guard
        more than they saved: docs/scale.md). A pickle or a copy of the unit leaves the
        number behind (:meth:`__getstate__`): it means nothing in another process."""
        kept = self._alive
        # The list is read once, into a copy: compared with the copy kept, and its places
        # picked from, or read for the models alive. A list changed meanwhile (another
        # thread's step) is never picked from with places kept for another, and no longer
        # compares equal to the copy kept, so the next asking reads it again.
        read = self.models[:]
        if kept[0] == _last_wounds_edit[0] and kept[1] == read:
            alive_at = kept[2]
            return read if alive_at is None else list(itertools.compress(read, alive_at))
        edit = _last_wounds_edit[0]
        alive = [m for m in read if m.wounds_left > 0]  # Model.alive, inlined: hot
        if len(alive) == len(read):
            _set(self, "_alive", (edit, read, None))
        else:
            _set(self, "_alive", (edit, read, tuple([m.wounds_left > 0 for m in read])))
        return alive

    def __getstate__(self) -> dict[str, object]:
        """The unit's fields, without what :attr:`alive_models` kept on it."""
        state = dict(self.__dict__)
        state.pop("_alive", None)
        return state

    @property
    def destroyed(self) -> bool:
        """Whether every model is gone (a plain loop, neither a list nor a generator:
        asked of every unit whenever units are listed)."""
        for m in self.models:  # noqa: SIM110 (all() of a generator: twice as slow)
            if m.wounds_left > 0:
                return False
        return True

    @property
    def rules(self) -> tuple[str, ...]:
        """The unit's special rules."""
        return self.datasheet.rules

    def has_rule(self, name: str) -> bool:
        """Whether the unit, or any of its models alive, has the rule ``name``.

        Asked of every unit on every estimate and at every wound's save (Stealth,
        Shrouded), of units whose models seldom have rules of their own: the places of
        those that do are kept for the unit (:data:`_RULED`) and taken again while no
        model's ``rules`` has been set since (:data:`_last_rules_edit`) and the unit's
        list compares equal to the copy kept with them (each model the same object, or
        an equal one: the same rules at each place). Whether a model is alive is read
        afresh each time."""
        wanted = name.lower()
        if wanted in lowered(self.datasheet.rules):
            return True
        models = self.models
        kept = _RULED.get(id(self))
        if (
            kept is None
            or kept[1] != _last_rules_edit[0]
            or kept[2] != models
            or kept[0]() is not self
        ):
            kept = _keep_ruled(self)
        for at in kept[3]:
            m = models[at]
            if m.wounds_left > 0 and wanted in lowered(m.rules):
                return True
        return False

    @property
    def label(self) -> str:
        """How the log names the unit."""
        return f"{self.name} [{self.id}]"
