"""A batch's battles made from one prepared battle (``PreparedBattle.again``) are the
battles ``prepare`` makes for each seed, and play leaks nothing into the next one or
into the battle they are made from (docs/scale.md, twenty-fifth session)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import FunctionType
from typing import ClassVar

import pytest

from hammerlab.analysis.battles import PreparedBattle, prepare
from hammerlab.analysis.lab import play_once, unplayed
from hammerlab.analysis.runners import Batch, play_batch
from hammerlab.editions.base import begin_play, play
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.points import WEAPON_WOULD_FIRE
from hammerlab.editions.waffle.reserves import reserve_state
from hammerlab.editions.waffle.shooting_plans import ShotPlan
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Model
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import Scenario, load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _scenarios() -> list[Path]:
    """Every example scenario (a plug-in's own file is none)."""
    found = []
    for path in sorted(EXAMPLES.rglob("*.toml")):
        try:
            load_scenario(path)
        except HammerlabError:
            continue
        found.append(path)
    return found


def _played(ready: PreparedBattle) -> str:
    """``ready`` played to its end by its AI: its whole log, one JSON object an event."""
    play(ready.battle, ready.ruleset, ready.plan)
    return ready.battle.log.json_lines()


def _standing(battle: Battle, edits: bool = True) -> tuple[object, ...]:
    """What play may change of a battle, as plain values: every unit's models (id,
    position, wounds, carried and, with ``edits``, the number of its last edit, which
    a model set up in another battle does not share), its status, the edition's state and the
    rules' memory as printed, the hooks' handlers by name, the log and the dice's state."""
    units = [
        (
            u.id,
            [
                (m.id, m.position, m.wounds_left, m.weapons, m.rules, m.edit if edits else 0)
                for m in u.models
            ],
            repr(u.status),
        )
        for u in battle.units.values()
    ]
    hooks = {
        point: [getattr(h, "__qualname__", repr(h)) for h in handlers]
        for point, handlers in battle.hooks.handlers().items()
    }
    return (
        units,
        repr(battle.state),
        repr(battle.memory),
        hooks,
        list(battle.log.events),
        battle.dice.state(),
        battle.turn,
        battle.phase,
        battle.active_player,
    )


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: p.stem)
def test_battles_made_from_one_prepared_are_those_prepared_for_each_seed(path: Path) -> None:
    """Seeds 1 and 2 made from a battle prepared for seed 7, in turn (the second after
    the first was played to its end), give the logs of seeds 1 and 2 prepared anew,
    event for event, in every example (reserves, transports, both editions), and the
    battle they were made from stands as it did."""
    spec = load_scenario(path)
    source = str(path)
    template = prepare(spec, source, 7)
    untouched = _standing(template.battle)
    for seed in (1, 2):
        assert _played(template.again(seed)) == _played(prepare(spec, source, seed)), seed
    assert _standing(template.battle) == untouched


def test_a_battle_made_again_changes_nothing_of_the_one_it_was_made_from() -> None:
    """Every part play changes, changed by hand on the copy: a model slain and moved,
    a unit's models list, its engine and Waffle statuses, the weapon types it fired, a
    hook added, the rules' memory of the reserves, the log, the dice rolled. The
    battle it was made from reads as it did, and so does the next copy."""
    path = EXAMPLES / "guard_suppress_terminators.toml"
    spec = load_scenario(path)
    template = prepare(spec, str(path), 3)
    before = _standing(template.battle)
    twin = template.again(4).battle
    unit = twin.units["squad1"]
    model = unit.models[0]
    twin.remove_model(unit, model, "a test")
    unit.models[1].position = (1.0, 1.0)
    unit.models.append(Model("squad1.99", model.profile, model.weapons, (2.0, 2.0)))
    unit.status.moved = True
    st(twin, unit).has_shot = True
    st(twin, unit).fired_types.add("Heavy")
    point: HookPoint[object] = HookPoint("A_TEST_POINT", "a plug-in's own point, for the test")
    twin.hooks.add(point, print)
    reserves = reserve_state(twin)
    assert reserves is not None
    reserves.order.append("nobody")
    twin.memory["a test"] = [1]
    twin.dice.roll(3, "a test")
    assert _standing(template.battle) == before
    fresh = prepare(spec, str(path), 4).battle
    assert _standing(template.again(4).battle, edits=False) == _standing(fresh, edits=False)


def test_a_battle_played_already_is_not_made_again() -> None:
    path = EXAMPLES / "guard_suppress_terminators.toml"
    ready = prepare(load_scenario(path), str(path), 3)
    play(ready.battle, ready.ruleset, ready.plan)
    with pytest.raises(ValueError, match="begun already"):
        ready.again(4)


@pytest.mark.parametrize("name", ["core11_whole_game", "whole_game_three_turns"])
def test_a_battle_begun_before_its_first_die_is_not_made_again(name: str) -> None:
    """Begun (the edition set up, its handlers installed: a core11 battle's state holds
    the battle) but no die rolled: a copy would install the edition's handlers again."""
    path = EXAMPLES / f"{name}.toml"
    ready = prepare(load_scenario(path), str(path), 3)
    begin_play(ready.battle, ready.ruleset, ready.plan)
    with pytest.raises(ValueError, match="begun already"):
        ready.again(4)


def test_a_battle_made_again_keeps_its_ais_levers() -> None:
    """An AI with a lever off plays the copies too (a copy of its own, not the default
    AI, nor the template's object)."""
    path = EXAMPLES / "guard_suppress_terminators.toml"
    spec = load_scenario(path)
    lever = WaffleAI(weighs_the_order=False)
    ready = prepare(spec, str(path), 3, controllers={p.name: lever for p in spec.players})
    twin = ready.again(4).battle
    for controller in twin.controllers.values():
        assert isinstance(controller, WaffleAI)
        assert controller is not lever
        assert controller.weighs_the_order is False


class _Silence:
    """A handler that counts on itself (against docs/plugins.md's "keep what a rule must
    remember in ``battle.memory``", which nothing enforces): after three volleys, no
    weapon of the battle fires."""

    def __init__(self) -> None:
        self.seen = 0

    def __call__(self, battle: Battle, *rest: object) -> str | None:
        self.seen += 1
        return "falls silent" if self.seen > 3 else None


def test_a_handler_keeping_a_count_on_itself_starts_each_copy_afresh() -> None:
    """A callable object on a hook point is copied with each battle, as a cloned game
    copies it: the volleys one copy saw are not counted in the next, so each seed plays
    as the battle prepared for it alone with its own fresh handler; a plain function
    is shared (it keeps nothing)."""
    path = EXAMPLES / "guard_suppress_terminators.toml"
    spec = load_scenario(path)

    def with_silence(seed: int) -> PreparedBattle:
        ready = prepare(spec, str(path), seed)
        ready.battle.hooks.add(WEAPON_WOULD_FIRE, _Silence())
        return ready

    template = with_silence(7)
    (original,) = _silences(template.battle)
    for seed in (1, 2):
        copied = template.again(seed)
        (handler,) = _silences(copied.battle)
        assert handler is not original
        assert _played(copied) == _played(with_silence(seed)), seed
        assert handler.seen > 3  # the rule did silence guns in the copy
    assert original.seen == 0
    functions = [h for h in _handlers(template.battle) if isinstance(h, FunctionType)]
    assert functions  # the edition's own rules are plain functions
    again = [h for h in _handlers(template.again(3).battle) if isinstance(h, FunctionType)]
    assert len(again) == len(functions)
    assert all(a is f for a, f in zip(again, functions, strict=True))


@dataclass(frozen=True)
class _Quiet:
    """A handler that can keep nothing, and says so: a frozen dataclass holding a string."""

    shared_between_battles: ClassVar[bool] = True
    label: str = "quiet"

    def __call__(self, battle: Battle, *rest: object) -> str | None:
        return None


@dataclass(frozen=True)
class _Tally:
    """A frozen dataclass that can keep something all the same: a list, changed in place."""

    seen: list[int] = field(default_factory=list)

    def __call__(self, battle: Battle, *rest: object) -> str | None:
        self.seen.append(1)
        return None


@dataclass(frozen=True)
class _Looks:
    """A frozen dataclass holding a string, that keeps something all the same (a
    ``cached_property`` writes its ``__dict__`` at its first reading), and does not say
    it keeps nothing."""

    label: str = "looks"

    @cached_property
    def seen(self) -> list[int]:
        return []

    def __call__(self, battle: Battle, *rest: object) -> str | None:
        self.seen.append(1)
        return None


def test_a_handler_that_can_keep_nothing_is_shared_one_that_can_is_copied() -> None:
    """A frozen dataclass holding only strings, numbers, booleans or ``None`` (the
    reactions, the shooting actions, a plug-in's like them) is the same object in every
    battle made from a prepared one, as ``copy.deepcopy`` gives a string: nothing of it
    can change. One holding a list is copied, as any other callable object: the list one
    copy's play filled is not the next copy's, nor the template's."""
    path = EXAMPLES / "guard_suppress_terminators.toml"
    template = prepare(load_scenario(path), str(path), 7)
    quiet, tally = _Quiet(), _Tally()
    template.battle.hooks.add(WEAPON_WOULD_FIRE, quiet)
    template.battle.hooks.add(WEAPON_WOULD_FIRE, tally)
    built_in = [h for h in _handlers(template.battle) if type(h).__name__ in _KEEPING_NOTHING]
    assert len(built_in) == len(_KEEPING_NOTHING)  # Return Fire!, Overwatch... all installed
    copied = template.again(1)
    handlers = _handlers(copied.battle)
    assert any(h is quiet for h in handlers)
    assert all(any(h is b for h in handlers) for b in built_in)
    (tally_copy,) = [h for h in handlers if isinstance(h, _Tally)]
    assert tally_copy is not tally and tally_copy.seen is not tally.seen
    play(copied.battle, copied.ruleset, copied.plan)
    assert tally_copy.seen and not tally.seen  # the copy's volleys, counted on its own list


def test_a_handler_is_shared_only_where_its_class_says_it_keeps_nothing() -> None:
    """A frozen dataclass holding only a string whose class does not say it keeps
    nothing (``shared_between_battles``) is copied for each battle: it may keep
    something all the same (a ``cached_property``; a review's finding, twenty-sixth
    session: the second battle of a batch began with the first one's list)."""
    path = EXAMPLES / "guard_suppress_terminators.toml"
    template = prepare(load_scenario(path), str(path), 7)
    looks = _Looks()
    template.battle.hooks.add(WEAPON_WOULD_FIRE, looks)
    first = template.again(1)
    (mine,) = [h for h in _handlers(first.battle) if isinstance(h, _Looks)]
    assert mine is not looks
    play(first.battle, first.ruleset, first.plan)
    (theirs,) = [h for h in _handlers(template.again(2).battle) if isinstance(h, _Looks)]
    assert mine.seen and theirs is not mine and "seen" not in vars(theirs)


_KEEPING_NOTHING = {"ReturnFire", "DiveForCover", "Overwatch", "FallBack", "SuppressiveAction"}
"""The Guard example's handlers that are frozen dataclasses holding a label alone."""


class _Noting(WaffleAI):
    """A subclass keeping a list of its own beside the plans."""

    def __init__(self) -> None:
        super().__init__(finish_units=False)
        self.noted: list[str] = ["first"]


def test_an_ai_deep_copied_is_copied_attribute_by_attribute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``copy.deepcopy`` of the Waffle AI (a batch's every battle copies its controllers)
    makes what it made through ``__reduce_ex__``, without that round: the same class and
    levers, plans of its own whose units are the copied battle's (the ``memo``'s), a
    subclass's list its own; one object for two players stays one."""
    ready = prepare(*_guard_spec(), 7)
    unit = next(iter(ready.battle.units.values()))
    ai = _Noting()
    ai._plans[(1, 1, "p", unit.id)] = ShotPlan(unit, True, 2.5)
    monkeypatch.setattr(
        _Noting, "__reduce_ex__", lambda self, protocol: pytest.fail("copied by reduction")
    )
    twin_unit = unit.copy()
    players = {"a": ai, "b": ai}
    copied = copy.deepcopy(players, {id(unit): twin_unit})
    twin = copied["a"]
    assert copied["b"] is twin and type(twin) is _Noting and twin is not ai
    assert twin.finish_units is False and twin.weighs_the_order is True
    assert twin.noted == ["first"] and twin.noted is not ai.noted
    (plan,) = twin._plans.values()
    assert twin._plans is not ai._plans and plan.target is twin_unit
    assert (plan.keep_charge, plan.value) == (True, 2.5)
    assert list(vars(twin)) == list(vars(ai))


class _Slotted(WaffleAI):
    """An AI that keeps a value in a slot of its own."""

    __slots__ = ("budget",)

    def __init__(self) -> None:
        super().__init__()
        self.budget = [3]


class _Forgets(WaffleAI):
    """An AI whose copies forget what it saw (a ``__getstate__`` of its own)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = {"old game": 1}

    def __getstate__(self) -> dict[str, object]:
        return {**vars(self), "seen": {}}


def test_an_ai_subclass_that_keeps_itself_its_own_way_is_copied_its_way() -> None:
    """A subclass with slots or a ``__getstate__`` of its own is deep-copied as
    ``copy.deepcopy`` copies any object, so its slot's value and its own idea of what
    a copy keeps hold (a review's finding, twenty-sixth session: the attribute-by-
    attribute copy lost the slot and carried the cache into the next battle)."""
    slotted, forgets = _Slotted(), _Forgets()
    twin = copy.deepcopy(slotted)
    assert twin.budget == [3] and twin.budget is not slotted.budget
    assert copy.deepcopy(forgets).seen == {} and forgets.seen == {"old game": 1}


def _guard_spec() -> tuple[Scenario, str]:
    path = EXAMPLES / "guard_suppress_terminators.toml"
    return load_scenario(path), str(path)


def _handlers(battle: Battle) -> list[object]:
    """Every handler on the battle's hook points, point by point, in order."""
    return [h for handlers in battle.hooks.handlers().values() for h in handlers]


def _silences(battle: Battle) -> list[_Silence]:
    return [h for h in _handlers(battle) if isinstance(h, _Silence)]


def test_a_batch_plays_each_seed_as_the_battle_prepared_for_it(
    guard: tuple[Scenario, str],
) -> None:
    """``play_batch`` (every runner's, Dask's and the process pool's included) sets its
    battle up once: each seed's outcome, both dice modes and with a rule set, is the
    one of the battle prepared for that seed alone."""
    spec, source = guard
    for dice in ("single", "keyed"):
        settings = {"suppressive_fire": False}
        batch = Batch(spec, source, settings, (5, 6, 7, 8), dice=dice)
        alone = [play_once(spec, source, settings, seed, dice=dice) for seed in batch.seeds]
        assert play_batch(batch) == alone
        template = unplayed(spec, source, settings, dice)
        again = [
            play_once(spec, source, settings, seed, dice=dice, template=template)
            for seed in batch.seeds
        ]
        assert again == alone


@pytest.fixture
def guard() -> tuple[Scenario, str]:
    path = EXAMPLES / "guard_suppress_terminators.toml"
    return load_scenario(path), str(path)
