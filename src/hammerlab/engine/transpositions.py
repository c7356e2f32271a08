"""Positions met before: what a controller answered there, found again.

A rules lab plays thousands of battles of one scenario, and a search AI
thousands of playouts from one position. Their early turns pass through the
same positions again and again (the first shooter of every battle is chosen
before any die is rolled; a volley that kills no one leaves the table as it
found it), and a heuristic controller, which answers a decision from the
position alone, works out the same answer each time. A chess engine's
transposition table keeps such answers by position; :class:`Transpositions`
does the same for a controller, across every battle a process plays.

A position (:func:`position_of`) is everything an answer can read, compared
by value, never by identity, so that two battles of one scenario that reach
the same table compare equal:

- the setup (:func:`setup_of`), fixed before the first turn: the ruleset, the
  battlefield, the players, the rule settings, the handlers the rules
  installed, every unit's datasheet and what each model carries and is;
- the state of play: the turn, phase and active player; every model's
  position and wounds left (and what it carries and is, where that is no
  longer what the setup records); every unit's status; the edition's whole
  state as the saved game's digest takes it (its ``snapshot``, or the same as
  one value where the state has a ``position``); what installed rules
  remember.

The dice are not in it: a controller reads the table, never the dice, so its
answer is the same whatever they will roll, and a battle that takes a
remembered answer rolls exactly the dice it would have rolled.

A position is plain data (strings, numbers, ``None``, sets and tuples of them),
and a table keeps its :func:`digest`, 16 bytes (:func:`position_key`), with the
question's few small values beside it, or digested with it where the question
is large (a decision and its choices): a table of positions themselves (a few
kilobytes each, many tuples) made Python's garbage collections ten times as
long and a sweep a tenth slower through them alone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import marshal
import threading
import types
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from hammerlab.engine.datasheet import Datasheet
from hammerlab.engine.records import reader
from hammerlab.engine.units import Model, Unit, UnitStatus, models_edited

if TYPE_CHECKING:
    from hammerlab.engine.battle import Battle

V = TypeVar("V")
A = TypeVar("A")

POSITIONS_KEPT = 100_000
"""Positions a table keeps before it forgets the first it kept: a bound on memory
over a sweep (a key of 16 bytes and a small answer: some tens of megabytes for a
full table); a position every battle passes through is forgotten once in so many
new positions, and kept again the next time it is met."""

BATTLES_KEPT = 1024
"""Setups remembered by battle (and setups and datasheets by value) before those
of battles gone are dropped: a search makes a copy of its game for every playout."""


class Transpositions(Generic[V]):
    """Answers by position (keys that start with its :func:`position_key`), the
    first kept forgotten past ``capacity``. Safe to share between threads (the web
    server plays its lab experiments and games in threads of its own): a look-up is
    one read of the table, what it keeps changes under a lock.

    First kept, first forgotten, rather than least recently met: a look-up then
    writes nothing (neither the order of the table nor a lock), and what is lost is
    small, as a sweep meets about one new position a battle, so a position every
    battle passes through is forgotten once in some ``capacity`` battles and kept
    again at the next (the least recently met table cost 1.4% more instructions in a
    steady Guard battle, docs/scale.md)."""

    def __init__(self, capacity: int = POSITIONS_KEPT) -> None:
        _tables.add(self)
        self.capacity = capacity
        self._answers: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.found = 0
        """How many questions were answered from the table (for benchmarks: counted
        outside the lock, so threads asking at once may count one question as none)."""
        self.asked = 0
        """How many questions were asked of it (counted as :attr:`found` is)."""

    def get(self, key: Hashable) -> V | None:
        """The answer remembered for ``key``, if one is."""
        self.asked += 1
        answer = self._answers.get(key)
        if answer is not None:
            self.found += 1
        return answer

    def put(self, key: Hashable, answer: V) -> None:
        """Remember ``answer`` for ``key``."""
        with self._lock:
            self._answers[key] = answer
            if len(self._answers) > self.capacity:
                self._answers.popitem(last=False)

    def recall(
        self,
        key: Callable[[], Hashable],
        work_out: Callable[[], A],
        keep: Callable[[A], V],
        give: Callable[[V], A],
    ) -> A:
        """The answer to a question of the position: given back (``give``, from what
        was kept, this battle's objects found again by id) where its ``key`` is in
        the table, else worked out and kept as plain data (``keep``). Inside
        :func:`unremembered` it is worked out, and no key is made."""
        if not remembering():
            return work_out()
        asked = key()
        known = self.get(asked)
        if known is not None:
            return give(known)
        answer = work_out()
        self.put(asked, keep(answer))
        return answer

    def clear(self) -> None:
        """Forget every answer (a benchmark's repetitions start equal)."""
        with self._lock:
            self._answers.clear()
            self.found = self.asked = 0

    def __len__(self) -> int:
        return len(self._answers)


_remembering: ContextVar[bool] = ContextVar("remembering", default=True)


def remembering() -> bool:
    """Whether answers are looked up and kept by position here: everywhere but
    inside :func:`unremembered`. Asked before a position is worked out."""
    return _remembering.get()


@contextmanager
def unremembered() -> Iterator[None]:
    """A block whose questions are neither looked up nor kept by position: for
    play whose positions seldom recur, which would pay for keys it seldom uses."""
    token = _remembering.set(False)
    try:
        yield
    finally:
        _remembering.reset(token)


_still: ContextVar[tuple[tuple[Battle, list[bytes]], ...]] = ContextVar("still", default=())
"""The battles standing still in the blocks running (:func:`standing_still`), each
with its key once worked out."""


class standing_still:  # noqa: N801 (named as the function it was: callers read it as one)
    """A block in which ``battle`` does not change: its :func:`position_key` is
    worked out once, at the first question, and given again to the next ones.

    For a caller that asks, and then asks a controller, in one position (the
    shooting attack: the models able to fire each weapon, then the weapon
    decision; half the positions of a battle were the one just worked out).
    The claim is the caller's: nothing in the block may change ``battle``, the
    controller's answer included. Any other battle (a search's copy, which
    plays on) is asked afresh each time.

    A class rather than a ``contextmanager`` generator: a battle enters about
    twenty of these blocks, and a generator's entry and exit cost three times
    as much."""

    __slots__ = ("_battle", "_token")
    _token: Token[tuple[tuple[Battle, list[bytes]], ...]]

    def __init__(self, battle: Battle) -> None:
        self._battle = battle

    def __enter__(self) -> None:
        self._token = _still.set(((self._battle, []), *_still.get()))

    def __exit__(self, *exc: object) -> None:
        _still.reset(self._token)


def position_key(battle: Battle) -> bytes:
    """The :func:`digest` of :func:`position_of` ``battle``: what a table's key starts
    with; worked out once in a block where the battle stands still
    (:func:`standing_still`)."""
    for still, known in _still.get():
        if still is battle:
            if not known:
                known.append(_digested(battle))
            return known[0]
    return _digested(battle)


def _digested(battle: Battle) -> bytes:
    """The :func:`digest` of :func:`position_of` ``battle``, given again where the
    position equals one met before, in this battle or another (:func:`digest`): half
    the positions of a Guard battle are the one before (a volley that kills no one, a
    blast aimed where the weapon was just chosen), and nearly all the others were met
    in earlier battles of the sweep (17.8 of the 19 digested a battle), found by the
    position's hash and ``==`` in a fraction of a digest's instructions. A position
    holds nothing that can change in place (strings, numbers, ``None``, bytes and
    tuples of them), so one kept is the battle as it was then, and
    equal positions are equal values, as a unit's models are compared
    (:func:`_models_in_play`)."""
    return digest(position_of(battle))


VALUES_DIGESTED = 4096
"""Values :data:`_KEYS` keeps before it forgets them all: a sweep's battles pass
through a few hundred positions again and again (about 1,200 in 500 Guard battles, a
little over one new a battle), and as many of the AI's questions; a full set is some
megabytes of tuples, which the garbage collector walks (the tables of answers keep
digests alone)."""
_KEYS: dict[Hashable, bytes] = {}
"""The values last digested (positions, units' models, the AI's questions) and their
digests (:func:`digest`)."""


_tables: weakref.WeakSet[Transpositions[Any]] = weakref.WeakSet()
"""Every table alive (:func:`forget_all`)."""


def forget_all() -> None:
    """Empty every table: a test or a benchmark's repetition starts as a fresh process."""
    for table in list(_tables):
        table.clear()


def digest(value: Any) -> bytes:
    """A key for ``value``: 16 bytes of BLAKE2b over its ``marshal`` form
    (strings, numbers, ``None``, sets and tuples of them only).

    Kept in place of the value because a position is a few kilobytes and a
    table keeps thousands. Two different positions share a key with a chance
    of about one in 2**128 per pair (10**-29 for a table of 10**5), far below
    any other fault of a computer. Equal values usually give equal forms (a
    string interned in one battle and not in another, or a set's items met in
    another order, would give two keys for one position: a question answered
    again, never a wrong answer).

    Given again where ``value`` equals one digested lately (:data:`_KEYS`, by its hash
    and ``==``, as a position is compared): nearly every position of a sweep's battle,
    and the AI's question there, was met in an earlier battle, and finding it costs
    a fraction of marshalling and hashing it. So values equal under ``==`` whose
    forms differ (``1``, ``1.0`` and ``True``; ``0.0`` and ``-0.0``) take the key of
    the first met, where worked out afresh each would have its own: sound for
    positions and questions, as a position keeps each of its fields in one type (a
    turn, a wound count, a coordinate) and a controller's answer is a function of the
    numbers' values; the rules' memory, whose types a plug-in chooses, is digested
    without :data:`_KEYS` (:func:`remembered`)."""
    try:
        key, kept = _KEYS.get(value), True
    except TypeError:  # a set or a list in it: digested every time
        key, kept = None, False
    if key is None:
        key = _digest_of(value)
        if kept:
            if len(_KEYS) >= VALUES_DIGESTED:
                _KEYS.clear()
            _KEYS[value] = key
    return key


def _digest_of(value: Any) -> bytes:
    """:func:`digest`'s key for ``value``, worked out from its form alone: for a value
    not to be kept among those digested lately (:func:`remembered`)."""
    return hashlib.blake2b(marshal.dumps(value, 2), digest_size=16).digest()


def frozen(value: object) -> Hashable:
    """``value`` as plain data compared by contents: a mapping as the tuple of its
    sorted items, lists, tuples and sets as tuples (a set's items sorted), a unit
    or a model as it stands (:func:`unit_in_play`), a dataclass as its type's name
    and fields; strings, numbers, booleans and ``None`` as themselves. Anything
    else cannot be told by value (its ``repr`` may name its address, which a later
    object may reuse): it is a value of its own, equal to nothing else, so a
    question that contains one is never answered from a table.

    A frozen dataclass whose fields hold only such values and tuples of them
    cannot change, so its form is worked out once per object (:data:`_FORMS`):
    a rule's memory (the schedule of play) and a shooting's orders are asked
    for at every decision."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple or kind is list:
        items: list[Any] = value  # type: ignore[assignment]
        return tuple([v if type(v) in _ATOMS else frozen(v) for v in items])
    if kind is dict or kind is Counter:
        mapping: dict[Any, Any] = value  # type: ignore[assignment]
        if not mapping:
            return _NO_ITEMS
        if set(map(type, mapping)) == _STRINGS:  # keys all plain strings (a C pass)
            return (
                "{}",
                tuple(
                    [
                        (k, v if type(v := mapping[k]) in _ATOMS else frozen(v))
                        for k in sorted(mapping)
                    ]
                ),
            )
        return ("{}", tuple(sorted((frozen(k), frozen(v)) for k, v in mapping.items())))
    known = _FIELDS.get(kind)  # a dataclass met before: no other type is asked about
    if known is None:
        if isinstance(value, Mapping):
            return frozen(dict(value))
        if isinstance(value, list | tuple):
            return tuple(map(frozen, value))
        if isinstance(value, set | frozenset):
            return ("set", tuple(sorted(map(frozen, value), key=repr)))
        if isinstance(value, Unit):
            return ("unit", unit_in_play(value))
        if isinstance(value, Model):
            return ("model", _in_play(value), frozen(_STATIC(value)))
        if isinstance(value, str | int | float):  # a subclass (an enum of strings)
            return (f"{kind.__module__}.{kind.__qualname__}", str(value))
        known = _fields_of(value)
        if known is None:
            return ("unshared", next(_unshared))
    name, read, fixed = known
    if fixed:
        seen = _FORMS.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1]
    fields = read(value)
    form = (
        name,
        tuple(
            [
                f
                if type(f) in _ATOMS
                else _EMPTY_FORMS[type(f)]
                if type(f) in _EMPTY_FORMS and not f
                else frozen(f)
                for f in fields
            ]
        ),
    )
    if fixed and all(map(_unchanging, fields)):
        if len(_FORMS) >= _FORMS_KEPT:
            _FORMS.clear()
        _FORMS[id(value)] = (value, form)
    return form


def _fields_of(value: object) -> Fields | None:
    """A dataclass's full name, what reads its fields' values (in order, in one
    call) and whether it is frozen (``None`` for anything else, and for the kinds
    :func:`frozen` tells by value in another way: units, models, containers);
    ``dataclasses.fields`` on every call was a third of :func:`frozen`'s time."""
    kind = type(value)
    known = _FIELDS.get(kind)
    if known is None and isinstance(value, Unit | Model | Mapping | list | tuple | set | frozenset):
        return None  # told by value otherwise (:func:`frozen`), never field by field
    if known is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = tuple(f.name for f in dataclasses.fields(value))
        fixed = bool(kind.__dataclass_params__.frozen)  # type: ignore[attr-defined]
        known = _FIELDS[kind] = (f"{kind.__module__}.{kind.__qualname__}", reader(*names), fixed)
    return known


def _unchanging(value: object) -> bool:
    """Whether ``value`` can never change: a string, number, boolean or ``None``
    (or an enum of them), a tuple of such values, a frozen dataclass of them."""
    if type(value) in _ATOMS or isinstance(value, str | int | float):
        return True
    if type(value) is tuple:
        return all(map(_unchanging, value))
    known = _fields_of(value)
    return known is not None and known[2] and all(map(_unchanging, known[1](value)))


_ATOMS = frozenset({str, int, float, bool, type(None)})
"""The types :func:`frozen` takes as they are."""
_NO_ITEMS = ("{}", ())
"""An empty mapping's form."""
_STRINGS = {str}
"""The types of a mapping's keys that are all plain strings (sorted as they are)."""
_EMPTY_FORMS: dict[type, Hashable] = {dict: _NO_ITEMS, Counter: _NO_ITEMS, list: (), tuple: ()}
"""The forms :func:`frozen` gives an empty value of these types: a dataclass's empty
fields take them at once (a rule's memory is mostly empty: the reserves' is four empty
mappings and lists, read at every position of every battle)."""
Fields = tuple[str, Callable[[object], tuple[object, ...]], bool]
"""A dataclass's name, its fields' reader and whether it is frozen (:func:`_fields_of`)."""
_FIELDS: dict[type, Fields] = {}
"""Each dataclass's :func:`_fields_of`."""
_FORMS: dict[int, tuple[object, Hashable]] = {}
"""The forms of unchanging frozen dataclasses, by identity (each entry keeps its
object alive, so an identity is not reused while it is here)."""
_FORMS_KEPT = 10_000
_unshared = itertools.count()


def portable(value: object) -> Hashable:
    """A decision's choice value as it reads in any battle: a unit or a model by its
    id, containers by their items, other values :func:`frozen` (a string or a number
    at once: the weapon decision, the commonest, offers weapon names)."""
    if type(value) in _ATOMS:
        return value
    if isinstance(value, Unit):
        return ("unit", value.id)
    if isinstance(value, Model):
        return ("model", value.id)
    if isinstance(value, list | tuple):
        return tuple([portable(v) for v in value])
    return frozen(value)


_STATIC_FIELDS = ("weapons", "rules", "powers", "base_mm", "profile")
_STATIC = attrgetter(*_STATIC_FIELDS)
"""What a model carries and is: fixed before the first turn, and seldom changed in play
(``attrgetter``, not a :func:`~hammerlab.engine.records.reader`: read through ``map``)."""


@dataclasses.dataclass(frozen=True)
class Setup:
    """What is fixed about a battle before its first turn (:func:`setup_of`)."""

    number: int
    """The same for every battle whose setup is equal, and for no other (in this process)."""
    carried: dict[str, tuple[tuple[object, ...], ...]]
    """Each unit's models' :data:`_STATIC` fields, in order, as the setup has them."""


_setups: dict[int, tuple[weakref.ref[Battle], Setup]] = {}
"""Each live battle's :func:`setup_of`, by identity (each entry checks its battle is
the one alive: an identity is reused once its battle is gone)."""
_numbers: dict[Hashable, int] = {}
"""The setups met, by value: their :attr:`Setup.number` (forgotten past
:data:`POSITIONS_KEPT` setups; a number is never given twice)."""
_last_setup: list[tuple[Hashable, int] | None] = [None]
"""The last setup numbered and its number: compared first, as the next battle of a
sweep has an equal one (a comparison meets the same weapons and profiles and stops
at each at once, where hashing the setup hashes every weapon of every model)."""
_counted = itertools.count()
_registry = threading.Lock()
"""Held while :data:`_setups` and :data:`_numbers` change (threads share them)."""


def setup_of(battle: Battle) -> Setup:
    """What is fixed about ``battle`` before its first turn, numbered by value.

    The ruleset, battlefield and players; the rule settings (options, parameter
    values); the handlers the rules that are on installed (:func:`_handler_key`);
    what each model on the table carries and is (weapons, rules, powers, base and
    profile) as when first asked. Worked out once per battle (and per copy of
    one)."""
    known = _setups.get(id(battle))
    if known is not None and known[0]() is battle:
        return known[1]
    settings = battle.settings
    carried = {unit.id: tuple(map(_STATIC, unit.models)) for unit in battle.units.values()}
    value = (
        battle.ruleset,
        battle.battlefield,
        battle.players,
        _frozen_setting("options", settings.options),
        _frozen_setting("values", settings.values),
        tuple(
            [
                (point, tuple(map(_handler_key, handlers)))
                for point, handlers in sorted(battle.hooks.handlers().items())
            ]
        ),
        tuple(carried.items()),
    )
    with _registry:
        last = _last_setup[0]
        if last is not None and last[0] == value:
            number = last[1]
        else:
            found = _numbers.get(value)
            if found is None:
                if len(_numbers) >= BATTLES_KEPT:
                    _numbers.clear()
                found = _numbers[value] = next(_counted)
            number = found
            _last_setup[0] = (value, number)
        setup = Setup(number, carried)
        if len(_setups) > BATTLES_KEPT:  # drop the battles gone
            for gone in [k for k, (ref, _) in _setups.items() if ref() is None]:
                del _setups[gone]
        _setups[id(battle)] = (weakref.ref(battle), setup)
    return setup


def _frozen_setting(name: str, value: Mapping[str, object]) -> Hashable:
    """The rule settings' ``name`` (options or parameter values) :func:`frozen`, given
    again while they compare equal to the copy (:func:`_copied`) kept of the last
    ones frozen: a sweep's battles are set up alike, each with mappings of its own."""
    last = _LAST_SETTINGS.get(name)
    if last is not None and _same(last[0], value):
        return last[1]
    form = frozen(value)
    copy = _copied(value)
    if copy is not _NOT_PLAIN:
        _LAST_SETTINGS[name] = (copy, form)
    return form


_LAST_SETTINGS: dict[str, tuple[object, Hashable]] = {}
"""The copy of the last rule settings of each name (:func:`_frozen_setting`) and their form."""


def _handler_key(handler: object) -> Hashable:
    """A handler as the same value in every battle that installs the same one: a
    function by its module and qualified name and the values its closure holds
    (a rule's parameters, from the settings), a bound method by its function and
    its object, a dataclass (an action a rule offers) by its fields; anything
    else :func:`frozen` cannot tell by value. A function, the commonest, is asked
    about first."""
    if isinstance(handler, types.FunctionType):
        closure = handler.__closure__
        cells = tuple([frozen(c.cell_contents) for c in closure]) if closure else ()
        return (f"{handler.__module__}.{handler.__qualname__}", cells)
    if isinstance(handler, types.MethodType):
        return ("method", _handler_key(handler.__func__), frozen(handler.__self__))
    if isinstance(handler, types.BuiltinFunctionType):
        return f"{handler.__module__}.{handler.__qualname__}"
    return frozen(handler)


_status_of = reader(*UnitStatus.__slots__)
_IN_PLAY_FIELDS = ("id", "position", "wounds_left")
_in_play = reader(*_IN_PLAY_FIELDS)
"""What play changes of a model (:data:`_STATIC`: what it seldom changes)."""
_IN_PLAY = attrgetter(*_IN_PLAY_FIELDS)
"""The same, read through ``map`` (``attrgetter``, as :data:`_STATIC`): a unit's models
are read as two such passes, each a tuple made in C, where one pass of all eight fields
was cut in two by a slice of each model's row, each a tuple made in Python's loop (a
Guard battle's instructions −0.6%, docs/scale.md, twenty-sixth session)."""
_EDIT = attrgetter("edit")
"""A model's last edit's number (:attr:`~hammerlab.engine.units.Model.edit`)."""


def unit_in_play(unit: Unit, recorded: tuple[tuple[object, ...], ...] | None = None) -> Hashable:
    """A unit as it stands, as plain data: its id, name, player, datasheet
    (:func:`sheet_number`), starting size and status, and the :func:`digest` of its
    models as they stand (:func:`_models_in_play`)."""
    return (
        unit.id,
        unit.name,
        unit.player,
        sheet_number(unit.datasheet),
        unit.starting_models,
        _status_of(unit.status),
        _models_in_play(unit, recorded),
    )


def _models_in_play(unit: Unit, recorded: tuple[tuple[object, ...], ...] | None) -> bytes:
    """The :func:`digest` of ``unit``'s models as they stand: each model's id, position
    and wounds left, and what its models carry and are (:data:`_STATIC`,
    :func:`frozen`) unless that is ``recorded`` (the setup's record of them).

    Between two positions of a battle most units have neither moved, lost a wound
    nor changed their wargear, so the digest is remembered by the unit's identity
    (:data:`_MODELS_SEEN`) and given again:

    - at once, while no model anywhere has been edited since
      (:func:`~hammerlab.engine.units.models_edited` reads the same) and the unit
      holds the same models, compared with those kept in the entry (kept alive
      there, so no other model takes their identities; one equal field for field
      would give the same digest) against the same record;
    - at once too where models were edited since, but none of those kept in the
      entry (each model's :attr:`~hammerlab.engine.units.Model.edit` is at most the
      entry's number), and the unit holds models equal to them: an AI's estimate
      that slays or moves a copy, or a volley into another unit, edits models
      between two positions, and the unit's models were read again each time;
    - else where the fields it was made of (:data:`_IN_PLAY` and :data:`_STATIC`, read
      in two passes) and the record compare equal, field for field.

    Else the digest is of models met lately where they were (:func:`digest`: a
    sweep's battles deploy alike and lose the same few models).

    The digest is a function of the fields' values alone, so another unit that comes
    to have the identity is answered rightly too, and the unit is not kept alive. A
    field changed in place cannot hide, as each is immutable (a tuple, a number, a
    frozen profile or weapon), and setting one is an edit."""
    edited = models_edited()
    models = tuple(unit.models)
    known = _MODELS_SEEN.get(id(unit))
    if known is not None and known[0] is recorded:
        if known[3] == edited and known[4] == models:
            return known[2]
        if known[4] == models and max(map(_EDIT, known[4]), default=0) <= known[3]:
            _MODELS_SEEN[id(unit)] = (recorded, known[1], known[2], edited, models)
            return known[2]  # other models were edited since, none of these
        rows = (tuple(map(_IN_PLAY, models)), tuple(map(_STATIC, models)))
        if known[1] == rows:
            _MODELS_SEEN[id(unit)] = (recorded, rows, known[2], edited, models)
            return known[2]
    else:
        rows = (tuple(map(_IN_PLAY, models)), tuple(map(_STATIC, models)))
    played, carried = rows
    digested = digest((played, None if carried == recorded else frozen(carried)))
    if len(_MODELS_SEEN) >= _MODELS_KEPT:
        _MODELS_SEEN.clear()
    _MODELS_SEEN[id(unit)] = (recorded, rows, digested, edited, models)
    return digested


_MODELS_SEEN: dict[
    int, tuple[object, tuple[tuple[object, ...], ...], bytes, int, tuple[Model, ...]]
] = {}
"""Each unit's last :func:`_models_in_play`, by the unit's identity: the setup's record
it was compared with, its models' :data:`_IN_PLAY` and :data:`_STATIC` fields, the
digest, the number :func:`~hammerlab.engine.units.models_edited` read then and the
models."""
_MODELS_KEPT = 1024
"""Units :data:`_MODELS_SEEN` keeps before it forgets them all: the units of the last
few hundred battles (a sweep's battles come and go, and what is kept is walked by
the garbage collector's full passes)."""


_sheets: dict[int, tuple[Datasheet, int]] = {}
"""Each datasheet met, by identity (kept alive, so an identity is not reused): its number."""
_sheet_numbers: dict[Datasheet, int] = {}
"""Each datasheet met, by value: its number."""


def sheet_number(sheet: Datasheet) -> int:
    """The same number for equal datasheets, and a different one for any other (in
    this process): a unit's datasheet (its unit rules, entries, keywords) as one
    small value, worked out by value once per datasheet object."""
    known = _sheets.get(id(sheet))
    if known is not None and known[0] is sheet:
        return known[1]
    with _registry:
        if len(_sheets) >= BATTLES_KEPT:
            _sheets.clear()
            _sheet_numbers.clear()
        number = _sheet_numbers.get(sheet)
        if number is None:
            number = _sheet_numbers[sheet] = next(_counted)
        _sheets[id(sheet)] = (sheet, number)
    return number


def position_of(battle: Battle) -> tuple[object, ...]:
    """Everything about ``battle`` an answer can read, as plain data (strings,
    numbers, ``None``, sets and tuples of them) compared by value (see the
    module): its setup's number and its state of play: every unit on the table
    (:func:`unit_in_play`), the edition's state (units off the table among it)
    and the digest of what installed rules remember (:func:`remembered`; units in
    reserve among it)."""
    setup = setup_of(battle)
    carried = setup.carried
    units = _units_in_play(battle, carried)
    state = battle.state
    if hasattr(state, "position"):  # an edition's own quick form of its snapshot
        edition: object = state.position()
    else:
        view = getattr(state, "snapshot", None)
        edition = frozen(view()) if view is not None else None
    return (
        setup.number,
        battle.turn,
        battle.phase,
        battle.active_player,
        units,
        edition,
        remembered(battle),
    )


def _units_in_play(battle: Battle, carried: dict[str, tuple[tuple[object, ...], ...]]) -> Hashable:
    """Every unit of ``battle`` on the table (:func:`unit_in_play`), given again whole
    where the battle's last are unchanged (:data:`_LAST_UNITS`): the same setup's
    record (``carried``, the battle's own), no model anywhere edited since
    (:func:`~hammerlab.engine.units.models_edited`), and units that compare equal to
    the last, one for one in order: their own fields and their status's (:data:`_HEAD`,
    the status object among them: setting a unit's or a status's field is no edit)
    and the same models (by identity, else field for field), so a model taken out of
    a unit's list or put in, or a unit taken out of the battle, is seen.

    About four positions of five of a Guard battle find them so: a unit's models and
    status are read here in one pass, with none of :func:`unit_in_play`'s calls and
    look-ups (a third of the instructions). What is given is a function of what is
    compared alone (another unit equal field for field stands as this one did), and
    the entry keeps what it compares alive (models, statuses, datasheets, the
    record), so no other object takes an identity it holds."""
    edited = models_edited()
    members = battle.units.values()
    now: list[tuple[object, ...]] = [(_HEAD(u), tuple(u.models)) for u in members]
    last = _LAST_UNITS[0]
    if last is not None and last[0] is carried and last[1] == edited and last[2] == now:
        return last[3]
    units = tuple([unit_in_play(u, carried.get(u.id)) for u in members])
    _LAST_UNITS[0] = (carried, edited, now, units)
    return units


_HEAD = reader(
    "id",
    "name",
    "player",
    "datasheet",
    "starting_models",
    "status",
    *(f"status.{name}" for name in UnitStatus.__slots__),
)
"""What :func:`unit_in_play` reads of a unit itself and of its status, in one call."""
_LAST_UNITS: list[
    tuple[
        dict[str, tuple[tuple[object, ...], ...]],
        int,
        list[tuple[object, ...]],
        Hashable,
    ]
    | None
] = [None]
"""The last units :func:`_units_in_play` gave: the record, the number
:func:`~hammerlab.engine.units.models_edited` read then, what was read of the units
and the units in play (replaced whole: threads share it)."""


def remembered(battle: Battle) -> bytes:
    """The :func:`digest` of what installed rules remember (``battle.memory``,
    :func:`frozen`), given again where the memory compares equal to the copy kept of
    one met before (:func:`_copied`, :data:`_memories_met`), in this battle or another.

    The rules' memory is read at every position (about 40,000 instructions of a
    position's 95,000 on its own, for a Guard battle's reserves, schedule and
    Power from Pain) and changes a few times a battle, each battle of a sweep passing
    through the same few; it is dataclasses, mappings and lists changed in place, so
    no identity or count of edits can tell it is unchanged, but a copy compared with
    it can (in C, but for a call per dataclass and per container holding one). Where
    anything in it is not plain data (a unit in reserve, a plug-in's object), nothing
    is kept: it is worked out at every position.

    A memory met afresh is digested from its form alone (:func:`_digest_of`), never
    found among the values digested lately by ``==`` (:data:`_KEYS`): a rule may keep
    a ``True`` where another kept a ``1``, and a form that cannot be told by value
    (``("unshared", n)``) would never be found there again."""
    memory = battle.memory
    met = _memories_met[0]
    for kept, key in met:
        if _same(kept, memory):
            if kept is not met[0][0]:  # met again: first, where the next position looks
                _memories_met[0] = ((kept, key), *(m for m in met if m[0] is not kept))
            return key
    key = _digest_of(frozen(memory))
    copy = _copied(memory)
    if copy is not _NOT_PLAIN:
        _memories_met[0] = ((copy, key), *met[: MEMORIES_KEPT - 1])
    return key


MEMORIES_KEPT = 4
"""Memories :func:`remembered` keeps (a Guard battle passes through two: before and
after the first game turn's end)."""
_memories_met: list[tuple[tuple[object, bytes], ...]] = [()]
"""The copies (:func:`_copied`) of the last memories :func:`remembered` digested and
their digests, the one met last first (replaced whole: threads share it)."""


def _same(copy: object, value: object) -> bool:
    """Whether ``value`` holds what ``copy`` (:func:`_copied`) was copied from, the
    copy asked first; an exception raised while comparing (``marshal`` refusing what
    it meets) counts as not."""
    try:
        return bool(copy == value)
    except Exception:
        return False


class _Form:
    """The copy (:func:`_copied`) of a container of plain data alone (:func:`_plain`):
    its ``marshal`` form, equal to a value of the same form. The form tells every type
    exactly (``1``, ``1.0`` and ``True``, ``0.0`` and ``-0.0`` apart), and ``marshal``
    refuses a subclass (a string enum, a ``Counter``) and any other object, but for a
    bytes-like one (a numpy array), whose form no copy holds. A dict's items or a set's
    members in another order make another form: a memory worked out again, never a
    wrong one."""

    __slots__ = ("_form",)

    def __init__(self, value: Any) -> None:
        self._form = marshal.dumps(value, 2)

    def __eq__(self, other: object) -> bool:
        return marshal.dumps(other, 2) == self._form  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]


class _Fields:
    """A dataclass's copy (:func:`_copied`): equal to a dataclass of its type whose
    fields have the ``marshal`` form the copied ones had (:class:`_Form`), or where
    some are not plain data themselves, are of the types they were, field for field,
    and compare equal to their copies. Its ``==`` reads every field, as :func:`frozen`
    does (a dataclass's own ``==`` may read fewer, or be another).

    A frozen dataclass whose fields can never change (:func:`_unchanging`: strings,
    numbers, tuples of them) is equal to itself at once: the copy keeps the last such
    object found equal (``itself``, the one copied first), so that the next positions
    of a battle, which hold the same object (the schedule of play), are not read and
    marshalled again. An object found equal by its form has fields of the same exact
    kinds (``marshal`` tells a tuple from a list), so it can never change either."""

    __slots__ = ("_fields", "_form", "_itself", "_kind", "_read", "_types")

    def __init__(
        self,
        kind: type,
        read: Callable[[object], tuple[object, ...]],
        form: bytes | None,
        fields: tuple[object, ...] = (),
        types: tuple[type, ...] = (),
        itself: object = None,
    ) -> None:
        self._kind, self._read, self._form = kind, read, form
        self._fields, self._types = fields, types
        self._itself = _NOT_PLAIN if itself is None else itself

    def __eq__(self, other: object) -> bool:
        if other is self._itself:
            return True
        if type(other) is not self._kind:
            return False
        fields = self._read(other)
        if self._form is not None:
            if marshal.dumps(fields, 2) != self._form:  # type: ignore[arg-type]
                return False
            if self._itself is not _NOT_PLAIN:  # the one met now, met again next
                self._itself = other
            return True
        return tuple(map(type, fields)) == self._types and self._fields == fields

    __hash__ = None  # type: ignore[assignment]


class _Items:
    """The copy (:func:`_copied`) of a list or a tuple holding what is not plain data
    itself (a dataclass): equal to a list or tuple of its kind whose items are of the
    types they were, one for one, and compare equal to their copies."""

    __slots__ = ("_items", "_kind", "_types")

    def __init__(self, kind: type, items: object, types: tuple[type, ...]) -> None:
        self._kind, self._items, self._types = kind, items, types

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is self._kind
            and tuple(map(type, other)) == self._types  # type: ignore[call-overload]
            and self._items == other
        )

    __hash__ = None  # type: ignore[assignment]


class _Entries:
    """The copy (:func:`_copied`) of a ``Counter``, or of a dict holding what is not
    plain data itself (a dataclass): equal to a mapping of its kind with the same keys,
    of the same types, in the same order, whose values are of the types they were and
    compare equal to their copies, one for one (never by a ``Counter``'s own ``==``,
    which takes a missing item for a zero)."""

    __slots__ = ("_key_types", "_keys", "_kind", "_types", "_values")

    def __init__(self, kind: type, mapping: dict[Any, Any], values: tuple[object, ...]) -> None:
        self._kind, self._keys, self._values = kind, tuple(mapping), values
        self._key_types = tuple(map(type, mapping))
        self._types = tuple(map(type, mapping.values()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not self._kind:
            return False
        mapping: dict[Any, Any] = other  # type: ignore[assignment]
        if tuple(map(type, mapping)) != self._key_types or self._keys != tuple(mapping):
            return False
        values = tuple(mapping.values())
        return tuple(map(type, values)) == self._types and self._values == values

    __hash__ = None  # type: ignore[assignment]


def _copied(value: object) -> object:
    """A copy of plain data ``value`` (strings, numbers, booleans, ``None``, and lists,
    tuples, dicts, counters, sets, frozensets and dataclasses of them) that compares
    equal to it (``copy == value``, the copy asked first, :func:`_same`) while it holds
    what it holds now, each thing of the exact type it is now, and no longer once
    anything in it changes: a container of plain data alone as its ``marshal`` form
    (:class:`_Form`), a dataclass as its type and its fields' form or copies
    (:class:`_Fields`), a ``Counter`` and a list, tuple or dict holding a dataclass as
    its kind and its items' copies and types (:class:`_Items`, :class:`_Entries`).
    Types are compared exactly at every level, so a ``True`` is not a ``1``, a string
    enum not its string, and no subclass's own ``==`` is ever asked (Python asks a
    subclass on the right first). :data:`_NOT_PLAIN` for anything else (a unit, a
    model, an object of a plug-in: their ``==`` need not read all they hold), and
    for a set of anything but plain data or a ``Counter`` or dict holding a dataclass
    whose keys are not strings, numbers, booleans or ``None``. Beside a dataclass, a
    container's numbers are compared by ``==`` with their types: a ``0.0`` changed into
    a ``-0.0`` there is not seen."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if _plain(value):
        return _Form(value)
    if kind is tuple or kind is list:
        items: list[Any] = value  # type: ignore[assignment]
        copies = _copies(items)
        if copies is None:
            return _NOT_PLAIN
        return _Items(kind, copies if kind is list else tuple(copies), tuple(map(type, items)))
    if kind is dict or kind is Counter:
        mapping: dict[Any, Any] = value  # type: ignore[assignment]
        values = _copies(mapping.values())
        if values is None or not all(type(k) in _ATOMS for k in mapping):
            return _NOT_PLAIN
        return _Entries(kind, mapping, tuple(values))
    known = _fields_of(value)
    if known is None:
        return _NOT_PLAIN
    read = known[1]
    fields = read(value)
    if _plain(fields):
        itself = value if known[2] and all(map(_unchanging, fields)) else None
        return _Fields(kind, read, marshal.dumps(fields, 2), itself=itself)  # type: ignore[arg-type]
    copies = _copies(fields)
    if copies is None:
        return _NOT_PLAIN
    return _Fields(kind, read, None, tuple(copies), tuple(map(type, fields)))


def _plain(value: object) -> bool:
    """Whether ``value`` is a string, number, boolean or ``None``, or an exact list,
    tuple, set, frozenset or dict of such values (:class:`_Form`)."""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if kind is tuple or kind is list or kind is set or kind is frozenset:
        return all(map(_plain, value))  # type: ignore[call-overload]
    if kind is dict:
        mapping: dict[Any, Any] = value  # type: ignore[assignment]
        return all(map(_plain, mapping)) and all(map(_plain, mapping.values()))
    return False


def _copies(items: Iterable[object]) -> list[object] | None:
    """The copies (:func:`_copied`) of a container's items, or ``None`` where one is
    not plain. The container's copy checks each item's exact type, so an empty list,
    tuple or dict is copied as an empty one of its kind (compared in C)."""
    copies = [
        _EMPTY_COPIES[type(v)] if type(v) in _EMPTY_COPIES and not v else _copied(v) for v in items
    ]
    return None if any(c is _NOT_PLAIN for c in copies) else copies


_EMPTY_COPIES: dict[type, object] = {list: [], tuple: (), dict: {}}
"""The copies of empty containers inside a container's copy (:func:`_copies`): never
changed, and compared only with a value of the same type."""


_NOT_PLAIN = object()
"""What :func:`_copied` gives for a value no copy can tell."""
