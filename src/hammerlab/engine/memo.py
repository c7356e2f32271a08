"""Remember what a controller works out while it makes one decision.

An AI weighing a decision reads the battle and never changes it, yet asks the
same questions many times over (what would this unit's shooting kill? which
of its models can fire?). Inside :func:`decision_scope` a function marked
:func:`per_decision` answers each distinct question once; outside one, it
simply runs. The scope is opened by the controller around one decision and
closed when it answers, before the battle moves on, so no stale answer
survives a change of state: this changes how fast a choice is made, never
which choice.

A question is its arguments: values that hash by value (numbers, strings,
frozen dataclasses) as themselves, lists and counters by their contents, and
mutable objects (a battle, a unit, a model) by identity (their ``id``); every
answer keeps its arguments alive, so no identity is reused while the answer is
remembered.

A controller that names the battle's state when it opens a scope
(``decision_scope(state_of_play(battle))``) gets the previous decision's
answers back when the state is the same as then: consecutive decisions with
nothing changed in between (the shooter, then its action, then each weapon)
ask their questions once. The state compared is everything a rule or an
estimate can read (:func:`state_of_play`), so an answer is reused only where
recomputing it would give the same value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from weakref import ref

from hammerlab.engine.datasheet import Profile
from hammerlab.engine.units import Model, UnitStatus, models_edited

if TYPE_CHECKING:
    from hammerlab.engine.battle import Battle
    from hammerlab.engine.units import Unit

P = ParamSpec("P")
R = TypeVar("R")
H = TypeVar("H", bound=Hashable)

_answers: ContextVar[dict[Hashable, Any] | None] = ContextVar("answers", default=None)
"""The open scope's answers (``None``: no scope open); one per thread (the web app's)."""

_kept: ContextVar[tuple[object, dict[Hashable, Any]] | None] = ContextVar("kept", default=None)
"""The last named state a scope was opened in, and the answers given in it."""


@contextmanager
def decision_scope(state: object = None) -> Iterator[None]:
    """Open a scope for one decision (an inner scope shares the outer one's answers).

    ``state`` (from :func:`state_of_play`), if given: the answers of the last
    scope opened in an equal state are taken up again, since nothing they
    read has changed; a scope in another state starts afresh and forgets them.
    """
    token = None
    if _answers.get() is None:
        answers: dict[Hashable, Any] = {}
        if state is not None:
            kept = _kept.get()
            if kept is not None and kept[0] == state:
                answers = kept[1]
            _kept.set((state, answers))
        token = _answers.set(answers)
    try:
        yield
    finally:
        if token is not None:
            _answers.reset(token)


def deciding() -> bool:
    """Whether a :func:`decision_scope` is open: answers asked for now are remembered."""
    return _answers.get() is not None


REMEMBERED: list[Callable[..., object]] = []
"""Every function :func:`per_decision` has made remembered, as written."""


def per_decision(function: Callable[P, R]) -> Callable[P, R]:
    """Answer each distinct call once per open :func:`decision_scope`.

    For functions that only read the battle and return a value nobody
    changes (a number, a frozen record, a mapping its callers only read); a list
    is handed out as a copy. One kind of mapping may be added to: a cache of
    answers to the remembered question itself, which the function hands back
    from a store of its own (so remembering it changes nothing), each entry an
    answer for that question alone (:func:`expected._blows_against`, the blows
    of each kind of model against the foe asked about). Each parameter takes
    objects or numbers, never both (see its question's comment; every such function
    is listed in :data:`REMEMBERED`, for the test that reads their parameters).
    """
    REMEMBERED.append(function)

    @wraps(function)
    def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
        answers = _answers.get()
        if answers is None:
            return function(*args, **kwargs)
        # The question: the function, then each argument's key (see _key), the two
        # commonest kinds of argument (a value that hashes, an object by identity) taken
        # here without a call each (a call of its own for the arguments' keys was 0.5% of
        # a whole battle's instructions). An object by identity is keyed by its ``id``
        # alone, untagged (a tag was a tuple made on every call: 0.85% of a three-turn
        # battle's instructions): an argument of a remembered function takes either
        # objects or numbers, never both (their signatures say which, a test reads them
        # all: REMEMBERED, and ``mypy --strict`` holds the calls to them), so an id is
        # never taken for a number given in its place. Keyword arguments make a pair, the
        # positional key and theirs, never equal to a key without them (its first item a
        # function, not a tuple).
        parts: list[Hashable] = [function]
        for value in args:
            how = _HOW.get(type(value))
            if how is _ITSELF:
                parts.append(value)
            elif how is _BY_ID:
                parts.append(id(value))
            else:
                parts.append(_key(value))
        key = tuple(parts) if not kwargs else (tuple(parts), _key(sorted(kwargs.items())))
        found = answers.get(key)
        if found is not None:
            value = found[0]
        else:
            value = function(*args, **kwargs)
            answers[key] = (value, args, kwargs)  # the arguments kept alive: see the module
        return list(value) if isinstance(value, list) else value  # type: ignore[return-value]

    return remembered


MAKEUPS_KEPT = 4096
"""Make-ups :func:`per_makeup` remembers per fact before it forgets them all (a bound on
memory over a sweep's thousands of battles, each loading its own profiles)."""


def per_makeup(fact: Callable[[tuple[Profile, ...]], R]) -> Callable[[Unit], R]:
    """``fact`` of a unit's make-up (the profiles of its models alive, in order),
    worked out once per make-up: for the questions every rule and estimate asks of
    each model alive that depend on its profile alone (is one a vehicle, a gun, a
    Flyer? the commonest profile, the majority Toughness), which a loop over the
    models answered afresh on every call.

    ``fact`` must read nothing but the profiles it is given (profiles are
    immutable, so its answer for a make-up never changes). A make-up is
    remembered by the identities of its profiles, each answer keeping its
    profiles alive, so no identity is reused while it is remembered; the
    answer is the one ``fact`` gives, so it is the loop's. An exception (an
    empty make-up where ``fact`` needs a model) is raised each time, never
    remembered.

    Inside a :func:`decision_scope` the answer is also remembered for the unit
    itself, by identity, among the scope's answers (keeping the unit alive):
    no model dies or changes profile while the scope is open, nor between two
    scopes in an equal :func:`state_of_play`, which compares every model's
    wounds and profile. The make-up is then read once per unit and decision
    rather than on every call (each read a pass over the unit's models).
    """
    answers: dict[tuple[int, ...], tuple[R, tuple[Profile, ...]]] = {}

    @wraps(fact)
    def of_unit(unit: Unit) -> R:
        scope = _answers.get()
        if scope is not None:
            known = scope.get((of_unit, id(unit)))
            if known is not None:
                return known[0]  # type: ignore[no-any-return]
        key = _makeup(unit)
        found = answers.get(key)
        if found is None:
            if len(answers) >= MAKEUPS_KEPT:
                answers.clear()
            profiles = tuple(m.profile for m in unit.alive_models)
            found = answers[key] = (fact(profiles), profiles)
        if scope is not None:
            scope[(of_unit, id(unit))] = (found[0], unit)
        return found[0]

    return of_unit


OBJECTS_KEPT = 4096
"""Objects :func:`per_object` remembers per function before it forgets them all, and the
bound of the ``lru_cache`` behind it (a sweep's battles each load their own profiles)."""


def per_object(function: Callable[[H], R]) -> Callable[[H], R]:
    """``function`` of one immutable object (a frozen profile or weapon), remembered by
    the object's identity in front of an ``lru_cache`` by its value.

    An edition's typed views of profiles and weapons (its characteristics, its weapon
    profile, its vehicle profile) are asked some 20,000 times in a whole battle, by the
    loops over the models. An ``lru_cache`` hashes its argument on
    every call: a profile's or a weapon's ``__hash__`` is Python code (its hash is kept,
    but reading it back is a call), some 1,200 instructions a question. Here an object
    met before is answered from a dictionary by its ``id``, an integer.

    Safe: the answer kept for an ``id`` is the one the ``lru_cache`` gave that very
    object (the same object for equal arguments, as before), and each entry keeps its
    object alive, so no other object takes its identity while the entry is kept; the
    object is immutable (a frozen dataclass whose hash is kept on first use: an edit in
    place would mislead the ``lru_cache`` as much), so its answer never changes. Past
    :data:`OBJECTS_KEPT` objects all are forgotten (the ``lru_cache`` keeps its own). An
    exception is raised each time, never remembered. ``__wrapped__`` is ``function``
    itself, working the answer out afresh."""
    by_value = lru_cache(maxsize=OBJECTS_KEPT)(function)
    answers: dict[int, tuple[R, H]] = {}

    @wraps(function)
    def of_object(value: H) -> R:
        try:  # a subscript, not ``get``: one call fewer on every question
            return answers[id(value)][0]
        except KeyError:
            pass
        if len(answers) >= OBJECTS_KEPT:
            answers.clear()
        answer = by_value(value)
        answers[id(value)] = (answer, value)
        return answer

    return of_object


def _makeup(unit: Unit) -> tuple[int, ...]:
    """The identities of the profiles of ``unit``'s models alive, in order: the make-up
    :func:`per_makeup` remembers its facts by.

    A volley asks several facts of its firers and of its target outside any decision
    scope (a vehicle? a gun? a Zooming Flyer? the majority Toughness), each a pass over
    the models. The make-up is kept per unit (:data:`_MAKEUPS`) with the
    :func:`units.models_edited` number and the models it was read from, and given again
    while that number reads the same (no model anywhere has had a field set: not its
    wounds, not its profile) and the unit's list holds the same models, compared by
    identity, in order (a list changed in place, or another list). The kept tuple holds
    those models alive, so no identity is reused meanwhile; the unit is kept by a weak
    reference, so an entry is never taken for another unit that comes to have its
    identity."""
    models = unit.models
    edits = models_edited()
    kept = _MAKEUPS.get(id(unit))
    if (
        kept is not None
        and kept[1] == edits
        and kept[0]() is unit
        and len(kept[2]) == len(models)
        and all(map(is_, kept[2], models))
    ):
        return kept[3]
    # The models alive as Unit.alive_models reads them, without building that list.
    makeup = tuple([id(m.profile) for m in models if m.wounds_left > 0])
    if len(_MAKEUPS) >= UNITS_KEPT:
        _MAKEUPS.clear()
    _MAKEUPS[id(unit)] = (ref(unit), edits, tuple(models), makeup)
    return makeup


UNITS_KEPT = 256
"""Units whose make-up :func:`_makeup` keeps before it forgets them all (a battle has a
few dozen; a sweep plays thousands, one after the other)."""

_MAKEUPS: dict[int, tuple[Callable[[], object], int, tuple[Model, ...], tuple[int, ...]]] = {}
""":func:`_makeup`'s answers by the unit's identity: a weak reference to the unit, the
:func:`units.models_edited` number and the unit's models it was read at, the make-up."""


def _key(value: object) -> Hashable:
    """``value`` as part of a question (see the module's docstring)."""
    kind = type(value)
    how = _HOW.get(kind)
    if how is None:
        how = _HOW[kind] = _how_to_key(kind)
    if how is _ITSELF:
        return value
    if how is _BY_ID:
        return id(value)  # untagged: see per_decision's question
    if how is _ITEMS:
        return tuple([_key(item) for item in value])  # type: ignore[attr-defined]
    assert isinstance(value, Mapping)
    return ("mapping", tuple(sorted((k, _key(v)) for k, v in value.items())))


_ITSELF, _BY_ID, _ITEMS, _MAPPING = "itself", "by id", "items", "mapping"
_HOW: dict[type, str] = {}
"""How :func:`_key` takes a value of each type, decided once per type: asking
``isinstance(value, Mapping)`` of every argument was a tenth of the memo's cost."""


def _how_to_key(kind: type) -> str:
    """Lists and tuples by their items, other hashable values as themselves,
    mappings by their contents, other mutable objects by identity."""
    if kind is list or kind is tuple:
        return _ITEMS
    if kind.__hash__ is not None:
        return _ITSELF
    return _MAPPING if issubclass(kind, Mapping) else _BY_ID


def state_of_play(battle: Battle) -> tuple[object, ...]:
    """Everything about ``battle`` that a rule or an estimate can read and play changes.

    The turn, phase and active player; every unit's models (position, wounds
    left, wargear, rules, base) and status; the edition's state (its
    ``snapshot``, the same plain data the saved game's digest takes, or its
    ``snapshot_for_estimates`` where it has one: less what it knows no
    remembered estimate reads) and what installed rules remember. Not
    included, because play never changes them: the battlefield, the rule
    settings and the hooks (installed before the first turn). Compared with
    ``==`` (tuples compare their items by identity first), never hashed.
    """
    units = tuple(
        (
            unit.id,
            unit.player,
            unit.datasheet,
            unit.starting_models,
            _status_of(unit.status),
            tuple(map(_model_in_play, unit.models)),
        )
        for unit in battle.units.values()
    )
    view = getattr(battle.state, "snapshot_for_estimates", None) or getattr(
        battle.state, "snapshot", None
    )
    edition = view() if view is not None else None
    return (
        id(battle),
        battle,
        battle.turn,
        battle.phase,
        battle.active_player,
        units,
        edition,
        repr(sorted(battle.memory.items())),
    )


_model_in_play = attrgetter(
    "id", "position", "wounds_left", "weapons", "rules", "powers", "base_mm", "profile"
)
"""What :func:`state_of_play` compares of a model (one C call per model: it is read at
every decision)."""

_status_of = attrgetter(*UnitStatus.__slots__)
"""Every field of a unit's :class:`UnitStatus`, as :func:`state_of_play` compares them."""
