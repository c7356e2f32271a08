"""Answers remembered by position change how fast the AI answers, never what.

A position (:func:`position_of`) must be equal in two battles that reach the
same table and tell apart any two that differ in what an answer can read;
the Waffle AI with its table (:data:`ai.ANSWERS`) and the shooting attack with
its own (:data:`attacks.ABLE`, the models able to fire each weapon) must play
every battle as they play without them, plans included.
"""

from __future__ import annotations

import copy
import gc
import pickle
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hammerlab.analysis.game import Game
from hammerlab.editions.waffle import ai, attacks, shooting, shooting_plans
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.plans import charge_keeping_weapons
from hammerlab.editions.waffle.state import st
from hammerlab.engine import transpositions
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.transpositions import (
    POSITIONS_KEPT,
    Transpositions,
    _handler_key,
    digest,
    forget_all,
    frozen,
    portable,
    position_key,
    position_of,
    setup_of,
    standing_still,
    unremembered,
)
from hammerlab.engine.units import Model, UnitStatus, models_edited
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


@pytest.fixture(autouse=True)
def _nothing_planted_kept() -> Iterator[None]:
    """What a test plants among the values kept by value (digests of positions, units'
    models and memories, the last setup) is forgotten after it: every later battle
    in the same position would meet it."""
    yield
    transpositions._KEYS.clear()
    transpositions._memories_met[0] = ()
    transpositions._last_setup[0] = None
    transpositions._LAST_SETTINGS.clear()
    transpositions._LAST_UNITS[0] = None


def _battle(seed: int, rules: dict[str, Any] | None = None) -> Battle:
    return Game.start(load_scenario(GUARD), str(GUARD), seed, rules=rules).battle


def test_two_battles_of_one_scenario_start_in_one_position_whatever_their_seeds() -> None:
    first, second = _battle(1), _battle(2)
    assert first is not second
    assert setup_of(first).number == setup_of(second).number
    assert position_of(first) == position_of(second)
    assert digest(position_of(first)) == digest(position_of(second))


def test_a_position_tells_apart_every_change_an_answer_can_read() -> None:
    base = _battle(1)
    start = position_of(base)

    def changed(change: Any) -> bool:
        battle = _battle(1)
        change(battle)
        return position_of(battle) != start

    def moved(battle: Battle) -> None:
        model = battle.unit("squad1").models[0]
        x, y = model.position
        model.position = (x + 0.25, y)

    def wounded(battle: Battle) -> None:
        battle.unit("terminators").models[0].wounds_left -= 1

    def disarmed(battle: Battle) -> None:
        model = battle.unit("squad1").models[0]
        model.weapons = model.weapons[:-1]

    def pinned(battle: Battle) -> None:
        status = st(battle, battle.unit("squad2"))
        status.pinned = not status.pinned

    def fired(battle: Battle) -> None:
        st(battle, battle.unit("squad2")).fired_types.add("Heavy")

    def walked(battle: Battle) -> None:
        status = battle.unit("terminators").status
        status.moved = not status.moved

    def remembered(battle: Battle) -> None:
        battle.memory["a rule"] = 1

    def later(battle: Battle) -> None:
        battle.turn += 1

    def other_phase(battle: Battle) -> None:
        battle.phase = "assault" if battle.phase != "assault" else "shooting"

    for change in (moved, wounded, disarmed, pinned, fired, walked, remembered, later):
        assert changed(change), change.__name__
    assert changed(other_phase)
    # A model whose wargear changes and changes back is where it started.
    again = _battle(1)
    model = again.unit("squad1").models[0]
    kept = model.weapons
    model.weapons = kept[:-1]
    model.weapons = kept
    assert position_of(again) == start


def test_a_battle_under_other_rule_settings_has_another_setup() -> None:
    plain = _battle(1, {"suppressive_fire": False})
    suppressing = _battle(1, {"suppressive_fire": True})
    penalised = _battle(1, {"suppressive_fire.ld_penalty_per_wound": 2})
    numbers = {setup_of(b).number for b in (plain, suppressing, penalised)}
    assert len(numbers) == 3
    assert position_of(plain) != position_of(suppressing)


def test_a_setup_takes_the_last_setup_s_number_only_when_equal_to_it() -> None:
    """The last setup numbered is compared first: a number planted with it is given to
    the next battle set up alike (the control), and not to one whose weapons, settings
    or handlers differ, nor after the settings' mappings change in place."""
    first = _battle(1)
    number = setup_of(first).number
    value, _ = transpositions._last_setup[0] or ((), 0)
    bogus = -1
    transpositions._last_setup[0] = (value, bogus)
    assert setup_of(_battle(2)).number == bogus  # the control: equal to the last
    disarmed = _battle(3)
    model = disarmed.unit("squad1").models[0]
    model.weapons = model.weapons[:-1]
    assert setup_of(disarmed).number not in (bogus, number)
    transpositions._last_setup[0] = (value, bogus)
    harsher = _battle(4, {"suppressive_fire.ld_penalty_per_wound": 2})
    assert setup_of(harsher).number not in (bogus, number)
    transpositions._last_setup[0] = (value, bogus)
    changed = _battle(5)
    values = changed.settings.values
    assert isinstance(values, dict)
    values["suppressive_fire.ld_penalty_per_wound"] = 2  # in place: its rule holds 1
    assert setup_of(changed).number not in (bogus, number, setup_of(harsher).number)
    transpositions._last_setup[0] = None
    assert setup_of(_battle(6)).number == number  # by value, with no last setup


def test_the_settings_are_frozen_again_only_while_equal_to_the_last_ones() -> None:
    """A form planted with the copy of the last settings is given while the settings
    compare equal to it (the control), and not once they change in place."""
    settings = {"a": 1, "b": True}
    form = transpositions._frozen_setting("test", settings)
    assert form == frozen(settings)
    copy, _ = transpositions._LAST_SETTINGS["test"]
    transpositions._LAST_SETTINGS["test"] = (copy, "bogus")
    assert transpositions._frozen_setting("test", dict(settings)) == "bogus"  # the control
    settings["a"] = 2
    assert transpositions._frozen_setting("test", settings) == frozen(settings) != form


def test_a_table_forgets_the_first_kept_past_its_capacity() -> None:
    table: Transpositions[int] = Transpositions(capacity=2)
    a, b, c = digest(("a",)), digest(("b",)), digest(("c",))
    table.put(a, 1)
    table.put(b, 2)
    assert table.get(a) == 1  # met again, but still the first kept
    table.put(c, 3)  # a is forgotten, the first kept
    assert (table.get(a), table.get(b), table.get(c)) == (None, 2, 3)
    assert (table.found, table.asked, len(table)) == (3, 4, 2)
    table.clear()
    assert (table.get(a), table.found, len(table)) == (None, 0, 0)
    other: Transpositions[int] = Transpositions()
    table.put(a, 1)
    other.put(b, 2)
    forget_all()  # every table alive, the engine's own among them
    assert len(table) == len(other) == len(ai.ANSWERS) == len(attacks.ABLE) == 0


@dataclass(frozen=True)
class _Order:
    name: str
    targets: tuple[str, ...]


def test_a_value_digested_lately_takes_its_digest_again_only_while_equal() -> None:
    """A digest planted for a value is given for an equal one (the control), never for
    another; a value holding a set (no hash) is digested each time, as it was."""
    question = ("position", "weapon", (("lasgun", "lasgun"), ("stop", "")))
    afresh = digest(question)
    transpositions._KEYS[question] = b"planted"
    assert digest(tuple(question)) == b"planted"  # the control: equal
    assert digest(("position", "weapon", (("lasgun", "lasgun"),))) not in (b"planted", afresh)
    holding = ("position", {"Heavy"})
    assert digest(holding) == digest(("position", {"Heavy"})) != digest(("position", {"Pistol"}))


def test_frozen_values_compare_by_contents_never_by_order_or_identity() -> None:
    assert frozen({"b": [1, 2], "a": {3, 1}}) == frozen({"a": {1, 3}, "b": (1, 2)})
    assert frozen({"a": 1}) != frozen({"a": 2})
    assert frozen(_Order("x", ("u",))) == frozen(_Order("x", ("u",)))
    assert frozen(_Order("x", ("u",))) != frozen(_Order("x", ("v",)))
    battle = _battle(1)
    squad = battle.unit("squad1")
    assert portable([squad, squad.models[0]]) == (("unit", "squad1"), ("model", squad.models[0].id))
    digest((frozen({"a": {1}}), portable([squad])))  # plain data: marshal takes it
    # a Counter is a mapping like any other (a rule's memory of wounds per unit)
    assert frozen(Counter({"b": 2, "a": 1})) == frozen({"a": 1, "b": 2})
    assert frozen([Counter({"a": 1}), "x"]) == frozen(({"a": 1}, "x"))
    assert frozen([1, "x", None, 2.5]) == (1, "x", None, 2.5)


class _Opaque:
    """A value with no contents to compare: its repr names its address."""


def test_a_value_that_cannot_be_told_by_value_is_never_shared() -> None:
    opaque = _Opaque()
    assert frozen(opaque) != frozen(opaque)  # not even with itself: an address is reused
    assert frozen([1, opaque]) != frozen([1, opaque])


def _handler(penalty: int) -> Any:
    def handler() -> int:
        return penalty

    return handler


def test_handlers_are_told_apart_by_name_and_by_what_their_closures_hold() -> None:
    assert _handler_key(_handler(1)) == _handler_key(_handler(1))
    assert _handler_key(_handler(1)) != _handler_key(_handler(2))
    assert _handler_key(_Order("x", ())) == _handler_key(_Order("x", ()))
    assert _handler_key(_Opaque()) != _handler_key(_Opaque())


def _plans(controller: ai.WaffleAI) -> list[tuple[object, ...]]:
    """The AI's plans as they read in any battle: (turn, player, unit) and the plan."""
    return sorted((key[1:], ai._portable_plan(plan)) for key, plan in controller._plans.items())


@pytest.mark.parametrize(
    ("example", "seeds"),
    [("guard_suppress_terminators.toml", 12), ("whole_game_three_turns.toml", 3)],
)
def test_the_waffle_ai_plays_alike_with_and_without_its_table(
    monkeypatch: pytest.MonkeyPatch, example: str, seeds: int
) -> None:
    path = ROOT / "examples" / example
    scenario = load_scenario(path)
    remade: list[object] = []
    real_plan_in = ai._plan_in

    def plan_in(battle: Battle, plan: ai.PortablePlan) -> shooting_plans.ShotPlan:
        made = real_plan_in(battle, plan)
        assert made.target is None or battle.units[made.target.id] is made.target
        remade.append(plan)
        return made

    monkeypatch.setattr(ai, "_plan_in", plan_in)
    real_choose = ai.WaffleAI.choose

    def play() -> tuple[list[str], list[object]]:
        logs: list[str] = []
        plans: list[object] = []

        def choose(self: ai.WaffleAI, battle: Battle, decision: Decision[Any]) -> int:
            index = real_choose(self, battle, decision)
            plans.append((decision.kind, index, _plans(self)))
            return index

        monkeypatch.setattr(ai.WaffleAI, "choose", choose)
        for seed in range(1, seeds + 1):
            game = Game.start(scenario, str(path), seed)
            game.play()
            logs.append(game.battle.log.json_lines())
        return logs, plans

    with_table = play()
    assert ai.ANSWERS.found > 0, "no answer was found again: the test would test nothing"
    assert attacks.ABLE.found > 0, "no weapon's firers were found again"
    assert shooting.OFFERED.found > 0, "no unit's shooting actions were found again"
    assert shooting.OPEN.found > 0, "no unit's reactions to shooting were found again"
    assert remade, "no remembered answer made a plan again"
    monkeypatch.setattr(ai, "ANSWERS", Transpositions(capacity=0))
    monkeypatch.setattr(attacks, "ABLE", Transpositions(capacity=0))
    monkeypatch.setattr(shooting, "OFFERED", Transpositions(capacity=0))
    monkeypatch.setattr(shooting, "OPEN", Transpositions(capacity=0))
    without = play()
    tables = (ai.ANSWERS, attacks.ABLE, shooting.OFFERED, shooting.OPEN)
    assert all(table.found == 0 for table in tables)
    assert with_table == without


def test_an_answer_that_reads_the_unit_s_plan_is_remembered_with_that_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One position, one weapon decision, two plans: a plan that keeps the Guard
    # squad's charge open leaves out the lasgun and the heavy bolter (Rapid Fire and
    # Heavy: seed 004), so the two plans pick two weapons; the table must not hand
    # the first plan's pick to the second.
    battle = _battle(1)
    squad, terminators = battle.unit("squad1"), battle.unit("terminators")
    weapons = ranged_weapons(squad)
    decision = Decision(
        kind="weapon",
        player=squad.player,
        prompt="select a weapon",
        choices=(*(Choice(w, w) for w in weapons), Choice("stop", "")),
        context=DecisionContext(unit=squad.id, target=terminators.id),
    )

    def pick(keep_charge: bool) -> str:
        controller = ai.WaffleAI()
        plan = shooting_plans.ShotPlan(terminators, keep_charge, 1.0)
        controller._plans[controller._key(battle, squad)] = plan
        return weapons[controller.choose(battle, decision)]

    remembered = [pick(False), pick(True), pick(False), pick(True)]
    assert ai.ANSWERS.found == 2
    monkeypatch.setattr(ai, "ANSWERS", Transpositions(capacity=0))
    assert remembered == [pick(False), pick(True)] * 2
    assert remembered[1] in charge_keeping_weapons(squad) and remembered[0] != remembered[1]


class _Forgetful(ai.WaffleAI):
    answers_by_position = False


def test_an_ai_that_does_not_answer_by_position_never_asks_the_table() -> None:
    squads = {p.name: _Forgetful() for p in load_scenario(GUARD).players}
    game = Game.start(load_scenario(GUARD), str(GUARD), 1, controllers=squads)
    game.play()
    assert game.battle.log.events and ai.ANSWERS.asked == 0
    Game.start(load_scenario(GUARD), str(GUARD), 1).play()
    assert ai.ANSWERS.asked > 0


def _logs_after_another(first: Path, second: Path, seed: int) -> tuple[str, str, str]:
    """``first`` then ``second`` played with the tables on, and ``second`` alone with
    them off: the logs of both on, and of ``second`` off."""

    def log(path: Path) -> str:
        game = Game.start(load_scenario(path), str(path), seed)
        game.play()
        return game.battle.log.json_lines()

    first_on, second_on = log(first), log(second)
    forget_all()
    ai.ANSWERS.capacity = attacks.ABLE.capacity = 0
    try:
        second_off = log(second)
    finally:
        ai.ANSWERS.capacity = attacks.ABLE.capacity = POSITIONS_KEPT
    return first_on, second_on, second_off


DATA = ROOT / "tests" / "data" / "transpositions"


def test_passengers_that_differ_only_in_wargear_never_share_an_answer() -> None:
    # Off the table, a unit carried is not among the battle's units: the position
    # must hold it whole (its gun decides whether it gets out to shoot).
    gun = DATA / "passengers_assault_gun.toml"
    pistol = DATA / "passengers_pistol.toml"
    first_on, second_on, second_off = _logs_after_another(gun, pistol, 3)
    assert '"answer":"disembark"' in first_on and '"answer":"disembark"' not in second_off
    assert second_on == second_off


def test_units_arriving_from_reserve_that_differ_only_in_rules_never_share_an_answer() -> None:
    # A unit in reserve when the setup is first taken arrives later: its datasheet
    # (Feel No Pain or not) must be in the position once it is on the table.
    tough = DATA / "deep_strikers_feel_no_pain.toml"
    plain = DATA / "deep_strikers.toml"
    _, second_on, second_off = _logs_after_another(tough, plain, 2)
    assert second_on == second_off


def test_play_inside_unremembered_neither_asks_nor_fills_a_table() -> None:
    def log() -> str:
        game = Game.start(load_scenario(GUARD), str(GUARD), 4)
        game.play()
        return game.battle.log.json_lines()

    with unremembered():
        quiet = log()
    assert ai.ANSWERS.asked == attacks.ABLE.asked == 0
    assert len(ai.ANSWERS) == len(attacks.ABLE) == 0
    assert log() == quiet and ai.ANSWERS.asked > 0 and attacks.ABLE.asked > 0


@dataclass(frozen=True)
class _Fixed:
    """A frozen dataclass of unchanging values (a rule's schedule, a shooting's orders)."""

    turns: int
    phases: tuple[str, ...]


@dataclass(frozen=True)
class _FrozenHoldingAList:
    """Frozen, yet what it holds can change."""

    names: list[str]


def test_a_frozen_value_s_form_is_worked_out_once_only_when_nothing_in_it_can_change() -> None:
    fixed = _Fixed(2, ("shooting", "assault"))
    assert frozen(fixed) is frozen(fixed)  # the form remembered, by identity
    assert frozen(fixed) == frozen(_Fixed(2, ("shooting", "assault")))
    holding = _FrozenHoldingAList(["a"])
    before = frozen(holding)
    holding.names.append("b")
    assert frozen(holding) != before  # never remembered: its list changed


def test_a_battle_standing_still_is_worked_out_once_and_no_other_battle_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    still, other = _battle(1), _battle(1)
    worked: list[Battle] = []
    real = transpositions.position_of

    def counted(battle: Battle) -> tuple[object, ...]:
        worked.append(battle)
        return real(battle)

    monkeypatch.setattr(transpositions, "position_of", counted)
    with standing_still(still):
        first = position_key(still)
        assert position_key(still) == first
        position_key(other)
        other.unit("squad1").models[0].wounds_left = 0  # another battle may change
        changed = position_key(other)
        assert changed != first
    assert worked == [still, other, other]
    assert position_key(still) == first and worked[-1] is still  # afresh outside the block


@pytest.mark.parametrize(
    ("example", "seeds"),
    [("guard_suppress_terminators.toml", 10), ("whole_game_three_turns.toml", 2)],
)
def test_every_key_given_in_a_still_block_is_the_position_worked_out_afresh(
    monkeypatch: pytest.MonkeyPatch, example: str, seeds: int
) -> None:
    """The shooting attack claims the battle stands still from the models able to
    fire to the weapon chosen; each key it gives is checked against the battle."""
    real = transpositions.position_key
    given: list[bool] = []

    def checked(battle: Battle) -> bytes:
        key = real(battle)
        given.append(key == digest(position_of(battle)))
        return key

    for module in (ai, attacks, shooting):
        monkeypatch.setattr(module, "position_key", checked)
    path = ROOT / "examples" / example
    for seed in range(1, seeds + 1):
        Game.start(load_scenario(path), str(path), seed).play()
    assert len(given) > 50 and all(given)


@pytest.mark.parametrize(
    ("example", "seeds"),
    [
        ("guard_suppress_terminators.toml", 4),
        ("whole_game_three_turns.toml", 1),
        ("vehicles_transport.toml", 2),
        ("psychic_duel.toml", 2),
    ],
)
def test_a_position_holds_nothing_that_can_change_in_place(
    monkeypatch: pytest.MonkeyPatch, example: str, seeds: int
) -> None:
    """Every position met over whole battles hashes: no set, list or mapping is in it
    (a battle's last position is kept and compared with its next one)."""
    real = transpositions.position_of
    hashed: list[int] = []

    def hashing(battle: Battle) -> tuple[object, ...]:
        position = real(battle)
        hashed.append(hash(position))
        return position

    monkeypatch.setattr(transpositions, "position_of", hashing)
    path = ROOT / "examples" / example
    for seed in range(1, seeds + 1):
        Game.start(load_scenario(path), str(path), seed).play()
    assert len(hashed) > 10


def test_a_position_is_let_go_by_the_garbage_collector() -> None:
    """A Guard position holds tuples, strings, numbers and bytes alone (no ``frozenset``,
    which stays tracked), so that those :func:`digest` keeps are not walked at every
    full collection once it has let them go (a level of tuples a collection)."""
    battle = _battle(1)
    st(battle, battle.unit("squad1")).fired_types.update({"Rapid Fire", "Heavy"})
    position = position_of(battle)
    for _ in range(8):
        gc.collect()
    assert not gc.is_tracked(position)


def test_a_position_met_before_gives_its_key_again_and_no_other() -> None:
    """The key of a position met before is given again wherever the position is equal
    to it, in another battle too, and not once anything changes, in place too (a set
    of weapon types fired)."""
    battle, other = _battle(1), _battle(2)
    key = position_key(battle)
    bogus = b"a position met before"
    transpositions._KEYS[position_of(battle)] = bogus
    assert position_key(battle) == bogus  # the control: the key given again
    assert position_key(other) == bogus  # another battle in the same position
    st(battle, battle.unit("squad1")).fired_types.add("Heavy")
    changed = position_key(battle)
    assert changed not in (bogus, key) and changed == digest(position_of(battle))
    st(battle, battle.unit("squad1")).fired_types.discard("Heavy")
    assert position_key(battle) == bogus


def _afresh(battle: Battle) -> tuple[object, ...]:
    """The position of ``battle`` with nothing remembered: no unit's models, no
    rules' memory."""
    transpositions._MODELS_SEEN.clear()
    transpositions._LAST_UNITS[0] = None
    transpositions._memories_met[0] = ()
    transpositions._KEYS.clear()
    return position_of(battle)


def _units_read(battle: Battle) -> tuple[object, ...]:
    """The position of ``battle`` with its units read again one by one (the battle's
    last units forgotten: :func:`transpositions._units_in_play`), so that what a test
    plants for a unit's models is met."""
    transpositions._LAST_UNITS[0] = None
    return position_of(battle)


def test_a_units_models_remembered_between_positions_follow_every_change() -> None:
    """A unit's models are digested once while their fields compare equal: in one
    battle, every change is seen at the next position, which is the one worked out
    with nothing remembered, and a change undone gives the first position again."""
    battle = _battle(1)
    start = position_of(battle)
    model = battle.unit("squad1").models[0]
    x, y = model.position
    kept = model.weapons
    terminator = battle.unit("terminators").models[0]
    changes = [
        lambda: setattr(model, "position", (x + 0.25, y)),
        lambda: setattr(model, "position", (x, y)),
        lambda: setattr(terminator, "wounds_left", terminator.wounds_left - 1),
        lambda: setattr(terminator, "wounds_left", terminator.wounds_left + 1),
        lambda: setattr(model, "weapons", kept[:-1]),
        lambda: setattr(model, "weapons", kept),
        lambda: setattr(model, "rules", ("Stubborn",)),
        lambda: setattr(model, "rules", ()),
    ]
    seen = []
    for change in changes:
        change()
        remembered = position_of(battle)
        assert remembered == _afresh(battle)
        seen.append(remembered)
    assert seen[0] != start and seen[2] != start and seen[4] != start and seen[6] != start
    assert seen[1] == seen[3] == seen[5] == seen[7] == start


def test_a_units_models_are_never_taken_from_another_units_record() -> None:
    """What is remembered under a unit's identity is given only for equal fields and
    the same record of the setup: an identity another unit had, or a record made for
    another battle, is worked out again."""
    battle, other = _battle(1), _battle(2)
    squad, theirs = battle.unit("squad1"), other.unit("squad2")
    start = position_of(battle)
    position_of(other)
    known = transpositions._MODELS_SEEN
    record, rows, _, edited, models = known[id(squad)]
    _, their_rows, _, _, their_models = known[id(theirs)]
    bogus = b"not squad1's models"
    stale = edited - 1  # a number read before some model's edit: the fields are compared
    known[id(squad)] = (record, their_rows, bogus, stale, their_models)  # squad2's identity
    assert _units_read(battle) == start
    known[id(squad)] = (setup_of(other).carried["squad1"], rows, bogus, edited, models)
    assert _units_read(battle) == start  # another record, even with nothing edited since
    known[id(squad)] = (record, rows, bogus, stale, models)  # the control: this one is given
    assert _units_read(battle) != start


def test_a_units_models_are_given_at_once_only_while_none_of_them_is_edited() -> None:
    """The digest of a unit's models is given without reading their fields while none
    of the models kept with it has been edited since it was made (another model's
    edit, of another battle too, changes nothing of them: given), for the same
    models: setting a field of one of its models (to the same value too), or setting
    or deleting another attribute, is an edit, and so a new model in the unit's list
    is read again, and a model equal to the one it replaces only while that one was
    not edited since."""
    battle, other = _battle(1), _battle(2)
    squad = battle.unit("squad1")
    start = position_of(battle)
    position_of(other)
    known = transpositions._MODELS_SEEN
    record, _, _, edited, _ = known[id(squad)]
    their_rows = known[id(other.unit("squad2"))][1]
    bogus = b"not squad1's models"

    def planted() -> None:
        known[id(squad)] = (record, their_rows, bogus, models_edited(), tuple(squad.models))

    planted()  # the control: squad2's fields under squad1's entry, nothing edited since
    assert _units_read(battle) != start
    elsewhere = other.unit("terminators").models[0]
    planted()
    elsewhere.wounds_left = elsewhere.wounds_left  # another model's edit
    assert _units_read(battle)[4][0][6] == bogus  # none of these: given
    own = squad.models[3]
    edits = [
        lambda: setattr(own, "wounds_left", own.wounds_left),  # the same value
        lambda: setattr(own, "note", "set"),
        lambda: delattr(own, "note"),
    ]
    for edit in edits:
        planted()
        edit()
        assert _units_read(battle) == start
    known[id(squad)] = (record, their_rows, bogus, models_edited(), tuple(squad.models[1:]))
    assert _units_read(battle) == start  # other models than the entry's
    first = squad.models[0]
    planted()  # with the first model kept
    squad.models[0] = replace(first)  # equal, and the one kept not edited since: given
    assert _units_read(battle)[4][0][6] == bogus
    known[id(squad)] = (record, their_rows, bogus, models_edited(), (first, *squad.models[1:]))
    first.wounds_left = first.wounds_left  # the one kept edited, the unit holds its equal
    assert _units_read(battle) == start
    assert edited <= models_edited()


def test_a_battles_last_units_are_given_again_only_while_unchanged() -> None:
    """The battle's last units in play, planted, are given again while nothing of them
    changed (the control), and never once a unit's or its status's field is set (not
    model edits), a model leaves or joins a unit's list in place, a unit leaves the
    battle, any model anywhere is edited, or another battle is asked: each time the
    units are the ones worked out with nothing kept."""
    bogus = ("units planted",)

    def planted(battle: Battle) -> Battle:
        position_of(battle)
        last = transpositions._LAST_UNITS[0]
        assert last is not None
        transpositions._LAST_UNITS[0] = (*last[:3], bogus)
        return battle

    assert position_of(planted(_battle(1)))[4] == bogus  # the control
    other = _battle(2)

    def status(battle: Battle) -> None:
        battle.unit("terminators").status.moved = False

    def named(battle: Battle) -> None:
        battle.unit("squad1").name = "Veterans"

    def handed(battle: Battle) -> None:
        battle.unit("squad1").player = "Ultramarines"

    def started(battle: Battle) -> None:
        battle.unit("squad2").starting_models = 11

    def new_status(battle: Battle) -> None:
        battle.unit("terminators").status = UnitStatus()

    def left(battle: Battle) -> None:
        battle.unit("squad1").models.pop()

    def joined(battle: Battle) -> None:
        squad = battle.unit("squad1")
        squad.models.append(replace(squad.models[0], id="squad1.extra"))

    def gone(battle: Battle) -> None:
        del battle.units["squad2"]

    def edited(battle: Battle) -> None:
        model = other.unit("squad1").models[0]
        model.wounds_left = model.wounds_left

    for change in (status, named, handed, started, new_status, left, joined, gone, edited):
        battle = planted(_battle(1))
        change(battle)
        units = position_of(battle)[4]
        assert units != bogus and units == _afresh(battle)[4], change.__name__
    planted(_battle(1))
    assert position_of(other)[4] == _afresh(other)[4] != bogus


def test_positions_and_unit_rules_kept_follow_a_plug_ins_edits_as_worked_out_afresh() -> None:
    """A plug-in may set any field of a model or a status, change a unit's list in place
    or give it another, put copies, pickles or ``replace``-made models in it, and edit
    copies made with ``Unit.copy`` or models taken out: after each of 600 such edits,
    drawn at random, the position (the battle's last units, each unit's models kept
    by its own last edit: ``Model.edit``) is the one worked out with nothing kept, and
    ``Unit.has_rule`` (its places of models with rules kept) says what a scan of the
    models alive says. With any one of the checks of what is kept left out (the units'
    fields and lists, a kept model's own edit, the rules' edit, the list's copy), or
    no edit number kept on the model, this fails within 30 edits."""
    rng = random.Random(19)
    battles = [_battle(1), _battle(2)]
    aside: list[Model] = []

    def scanned(unit: Any, name: str) -> bool:
        rules = [*unit.datasheet.rules, *(r for m in unit.alive_models for r in m.rules)]
        return name.lower() in {r.lower() for r in rules}

    for step in range(600):
        battle = rng.choice(battles)
        unit = rng.choice(list(battle.units.values()))
        models = unit.models
        position_of(battle)  # the battle's units, and the unit's models, kept as they are
        edit = rng.randrange(12)
        at = rng.randrange(len(models)) if models else None
        if edit == 0 and at is not None:
            models[at].wounds_left = rng.choice([0, 1, 2])
        elif edit == 1 and at is not None:
            x, y = models[at].position
            models[at].position = (x + rng.choice([0.0, 0.5]), y)
        elif edit == 2 and at is not None:
            models[at].rules = rng.choice([(), ("Jink",), ("Stealth",)])
        elif edit == 3 and at is not None:
            models[at] = rng.choice([copy.copy, pickle_copy, replace])(models[at])
        elif edit == 4 and at is not None:
            aside.append(models.pop(at))  # out of the list in place: no edit
        elif edit == 5 and aside:
            models.insert(rng.randrange(len(models) + 1), aside.pop())
        elif edit == 6 and at is not None and aside:
            models[at], aside[-1] = aside[-1], models[at]
        elif edit == 7 and aside:
            rng.choice(aside).wounds_left = rng.choice([0, 1])  # a model out of play edited
        elif edit == 8:
            unit.models = [copy.copy(m) for m in models]
        elif edit == 9:
            unit.status.moved = not unit.status.moved  # no model edit
        elif edit == 10:
            estimate = unit.copy()  # an estimate's copy, its models slain
            for model in estimate.models:
                model.wounds_left = 0
            estimate.has_rule("Stealth")
        elif len(models) > 1:
            rng.shuffle(models)
        got = position_of(battle)
        assert got == _afresh(battle), (step, edit)
        for each in battle.units.values():
            for name in ("Jink", "Stealth", "stubborn"):
                assert each.has_rule(name) == scanned(each, name), (step, edit, name)


def pickle_copy(model: Model) -> Model:
    """``model`` pickled and loaded again (its last edit's number kept)."""
    loaded: Model = pickle.loads(pickle.dumps(model))
    return loaded


def test_a_units_models_met_lately_take_their_digest_again_only_while_equal() -> None:
    """A digest planted for a unit's models as they stand is given where they are met
    again (the control: the unit's own entry forgotten), and not once a model moves."""
    battle = _battle(1)
    squad = battle.unit("squad1")
    record = setup_of(battle).carried["squad1"]
    start = transpositions._models_in_play(squad, record)

    def standing() -> tuple[object, ...]:
        return (tuple(map(transpositions._IN_PLAY, squad.models)), None)

    assert transpositions._KEYS[standing()] == start == digest(standing())
    bogus = b"models met lately"
    transpositions._KEYS[standing()] = bogus
    transpositions._MODELS_SEEN.clear()
    assert transpositions._models_in_play(squad, record) == bogus  # the control
    model = squad.models[0]
    x, y = model.position
    model.position = (x + 0.25, y)
    moved = transpositions._models_in_play(squad, record)
    assert moved not in (bogus, start) and moved == digest(standing())


def test_a_new_model_is_no_edit_and_every_field_set_is() -> None:
    """Making a model draws no edit number (a sweep makes every model anew each battle);
    setting any field does, whatever the value, and so does deleting one, and the model
    keeps the number of its last edit (not a field: neither compared nor copied by
    ``replace``; a copy keeps it)."""
    before = models_edited()
    model = Model("m.1", Profile("Guardsman", {"W": "1"}), (), (1.0, 2.0))
    assert models_edited() == before
    assert (model.base_mm, model.wounds_left, model.rules, model.powers) == (25.0, 1, (), ())
    assert model.edit == 0  # never edited
    for name, value in [("position", (1.0, 2.0)), ("wounds_left", 0), ("rules", ("Stubborn",))]:
        edited = models_edited()
        setattr(model, name, value)
        assert models_edited() != edited and model.edit == models_edited()
    del model.rules
    assert model.edit == models_edited() and "rules" not in vars(model)
    model.rules = ()
    assert replace(model, id="m.2").id == "m.2" and model.id == "m.1"
    assert replace(model, id="m.2").edit == 0 and copy.copy(model).edit == model.edit
    assert "edit" not in {f.name for f in fields(model)} and model == replace(model)


@pytest.mark.parametrize(
    ("example", "seeds"),
    [("guard_suppress_terminators.toml", 6), ("whole_game_three_turns.toml", 1)],
)
def test_every_position_with_the_units_remembered_is_the_one_worked_out_afresh(
    monkeypatch: pytest.MonkeyPatch, example: str, seeds: int
) -> None:
    real = transpositions.position_of
    checked: list[bool] = []

    def both(battle: Battle) -> tuple[object, ...]:
        remembered = real(battle)
        checked.append(remembered == _afresh(battle))
        return remembered

    monkeypatch.setattr(transpositions, "position_of", both)
    path = ROOT / "examples" / example
    for seed in range(1, seeds + 1):
        Game.start(load_scenario(path), str(path), seed).play()
    assert len(checked) > 50 and all(checked)


@dataclass
class _Ledger:
    """A rule's memory as most battles hold it: mostly empty mappings and lists."""

    waiting: dict[str, int]
    ongoing: list[str]
    lost: Counter[str]
    order: tuple[str, ...]
    turn: int = 0


def test_a_dataclass_s_empty_fields_take_the_forms_frozen_gives_them() -> None:
    """Empty fields are taken at once (:data:`transpositions._EMPTY_FORMS`): the form
    is the one each field gets from :func:`frozen` alone, empty or not."""
    name = f"{_Ledger.__module__}.{_Ledger.__qualname__}"
    empty = _Ledger({}, [], Counter(), ())
    assert frozen(empty) == (name, (("{}", ()), (), ("{}", ()), (), 0))
    assert frozen(empty) == (name, tuple(frozen(v) for v in vars(empty).values()))
    full = _Ledger({"b": 2, "a": 1}, ["x"], Counter({"u": 3}), ("s",), 2)
    assert frozen(full) == (
        name,
        ((("{}", (("a", 1), ("b", 2)))), ("x",), ("{}", (("u", 3),)), ("s",), 2),
    )
    assert frozen(full) != frozen(empty)


def test_the_rules_memory_kept_between_positions_follows_every_change_in_place() -> None:
    """The digest of the rules' memory is given again while the memory compares equal
    to the copy kept with it: in one battle, every change made in place is seen at the
    next position, which is the one worked out with nothing remembered, and a change
    undone gives the position before it again (a counter's item at zero is an item:
    :func:`frozen` tells it apart, where a ``Counter``'s own ``==`` would not)."""
    battle = _battle(1)
    memory = battle.memory
    ledger = _Ledger({}, [], Counter(), ("s",))
    nested: dict[str, list[int]] = {"k": [1]}
    inner = _Ledger({}, [], Counter(), ())
    changes: list[tuple[Any, bool]] = [
        (lambda: memory.__setitem__("a ledger", ledger), True),
        (lambda: ledger.waiting.__setitem__("u", 1), True),
        (lambda: ledger.lost.__setitem__("u", 0), True),
        (lambda: ledger.lost.__delitem__("u"), True),
        (lambda: ledger.ongoing.append("x"), True),
        (lambda: setattr(ledger, "turn", 1), True),
        (lambda: setattr(ledger, "turn", 1.5), True),
        (lambda: setattr(ledger, "order", ("s",)), False),  # an equal tuple: the same
        (lambda: memory.__setitem__("a rule", nested), True),
        (lambda: nested["k"].append(2), True),
        (lambda: memory.__setitem__("fired", set()), True),
        (lambda: memory["fired"].add(("u", 1)), True),
        (lambda: setattr(memory["reserves"], "last_turn", 5), True),
        (memory["reserves"].order.reverse, True),
        (lambda: memory.__setitem__("schedule", replace(memory["schedule"])), False),
        (lambda: memory.__setitem__("schedule", replace(memory["schedule"], last_turn=9)), True),
        (lambda: memory.__delitem__("a rule"), True),
        (lambda: memory.__setitem__("ledgers", [inner]), True),
        (lambda: inner.waiting.__setitem__("v", 2), True),  # a dataclass in a list
    ]
    before = position_of(battle)
    for change, changing in changes:
        change()
        now = position_of(battle)
        assert now == _afresh(battle)
        assert (now != before) == changing
        before = now


def test_a_memory_met_before_is_given_again_only_while_equal_to_its_copy() -> None:
    """A digest planted with the copy of a memory met before is given to any battle
    whose memory compares equal to the copy (the control: another battle in the same
    position), and not once it changes in place; a memory holding what no copy can
    tell (a unit) is never kept."""
    battle, other = _battle(1), _battle(2)
    key = transpositions.remembered(battle)
    met = transpositions._memories_met
    (kept, _), *rest = met[0]
    bogus = b"not this memory"
    met[0] = ((kept, bogus), *rest)
    assert transpositions.remembered(other) == bogus  # the control: by value
    battle.memory["reserves"].how["u"] = "deep_strike"
    changed = transpositions.remembered(battle)
    assert changed not in (bogus, key) and changed == digest(frozen(battle.memory))
    assert transpositions.remembered(other) == bogus  # met again, still equal
    battle.memory["reserves"].waiting["u"] = battle.unit("squad1")
    before = met[0]
    assert transpositions.remembered(battle) == digest(frozen(battle.memory))
    assert met[0] is before  # nothing kept


def test_an_unchanging_frozen_value_in_memory_is_taken_as_itself_only_while_it_is() -> None:
    """A frozen dataclass of unchanging values in the memory is found equal to its copy
    by identity (a digest planted with the copy is given while the memory holds the
    same object, the control), and the object found equal last is the one taken so;
    any other object is read: another value or another type of number makes another
    key, and a frozen value holding a list is read every time (its list changed in
    place is seen)."""
    battle = _battle(1)
    battle.memory["a rule"] = fixed = _Fixed(2, ("shooting",))
    key = transpositions.remembered(battle)
    met = transpositions._memories_met
    (kept, _), *rest = met[0]
    bogus = b"not this memory"
    met[0] = ((kept, bogus), *rest)
    assert transpositions.remembered(battle) == bogus  # the control: the same objects
    battle.memory["a rule"] = again = _Fixed(2, ("shooting",))
    assert transpositions.remembered(battle) == bogus  # equal, of the same kinds
    assert kept._values[-1]._itself is again  # taken as itself from now on
    for other in (
        _Fixed(3, ("shooting",)),
        _Fixed(True, ("shooting",)),
        _Fixed(2.0, ("shooting",)),
    ):  # type: ignore[arg-type]
        battle.memory["a rule"] = other
        assert transpositions.remembered(battle) not in (bogus, key), other
        assert transpositions.remembered(battle) == _digest_afresh(battle.memory), other
    del fixed
    battle.memory["a rule"] = holding = _FrozenHoldingAList(["a"])
    first = transpositions.remembered(battle)
    holding.names.append("b")
    assert transpositions.remembered(battle) != first
    assert transpositions.remembered(battle) == _digest_afresh(battle.memory)


def test_a_mapping_holding_a_dataclass_in_memory_is_told_apart_by_its_keys_types() -> None:
    """A dict holding a dataclass (copied entry by entry, ``transpositions._Entries``)
    whose key ``1`` is replaced in place by ``True`` (equal under ``==``, another type):
    a digest planted with the copy is given while the dict holds the same keys (the
    control), and not once the key's type changes: the memory's digest is then the one
    worked out afresh. It fails if the keys are compared by ``==`` alone."""
    battle = _battle(1)
    battle.memory["a rule"] = held = {1: _Fixed(2, ("shooting",)), 2: _Fixed(3, ())}
    transpositions.remembered(battle)
    met = transpositions._memories_met
    (kept, _), *rest = met[0]
    bogus = b"not this memory"
    met[0] = ((kept, bogus), *rest)
    assert transpositions.remembered(battle) == bogus  # the control: the same keys
    del held[1], held[2]
    held[True] = _Fixed(2, ("shooting",))
    held[2] = _Fixed(3, ())
    assert transpositions.remembered(battle) != bogus
    assert transpositions.remembered(battle) == _digest_afresh(battle.memory)


def _digest_afresh(memory: object) -> bytes:
    """The digest of ``memory`` worked out from its form, with nothing kept."""
    return transpositions._digest_of(frozen(memory))


class _Marker:
    """A plug-in's object in the rules' memory: equal to its name, holding more."""

    def __init__(self, name: str, charges: int) -> None:
        self.name, self.charges = name, charges

    def __eq__(self, other: object) -> bool:
        return other == self.name if isinstance(other, str) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


class _How(StrEnum):
    DEEP = "deep_strike"


def _ledger(**fields: Any) -> _Ledger:
    """A :class:`_Ledger`, empty but for ``fields``."""
    return replace(_Ledger({}, [], Counter(), ()), **fields)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("deep_strike", _How.DEEP),
        (_How.DEEP, "deep_strike"),
        (1, True),
        (True, 1),
        (1, 1.0),
        (1.0, 1),
        ([1, "x"], [True, "x"]),
        ((1,), (1.0,)),
        ({1: "x"}, {True: "x"}),
        ({"u": 1}, {"u": True}),
        ({"u"}, {"u", 1}),
        ({1}, {1.0}),
        ({"u": 1}, Counter({"u": 1, "v": 0})),
        (Counter({"u": 1, "v": 0}), {"u": 1}),
        (Counter({"u": 1, "v": 0}), Counter({"u": 1})),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        (_ledger(order=("s",), turn=1), _ledger(order=("s",), turn=True)),
        ([[], {}], [(), Counter()]),
        ({"a": 1, "b": True}, {"b": 1, "a": True}),
        (_ledger(waiting={"u": 1}), _ledger(waiting={"u": True})),
        (_ledger(waiting={"a": 1, "b": True}), _ledger(waiting={"b": 1, "a": True})),
        (_ledger(ongoing=["x", 1]), _ledger(ongoing=["x", 1.0])),
        (_ledger(lost=Counter({"u": 1, "v": 0})), _ledger(lost=Counter({"u": 1}))),
        (_ledger(lost=Counter({"u": 1})), _ledger(lost=Counter({"u": 1, "v": 0}))),
        (_ledger(order=("deep_strike",)), _ledger(order=(_How.DEEP,))),
        (_ledger(ongoing=["x"], order=("y", "z")), _ledger(ongoing=["x", "y"], order=("z",))),
        ([_ledger(turn=1)], [_ledger(turn=True)]),
    ],
)
def test_a_memory_takes_the_key_of_one_met_before_only_if_alike_in_every_type(
    first: object, then: object
) -> None:
    """A memory equal under ``==`` to one met before but holding another type
    somewhere (a string enum for its string, ``True`` or ``1.0`` for ``1``, a
    ``Counter`` whose zero item a ``dict`` lacks), at the top or in a dataclass, gets
    the position worked out with nothing remembered, as does one alike in every type
    (keys in another order)."""
    battle, other = _battle(1), _battle(2)
    battle.memory["plug-in"] = first
    position_of(battle)
    other.memory["plug-in"] = then
    assert position_of(other) == _afresh(other)


def test_a_plug_in_object_in_memory_is_never_taken_for_plain_data() -> None:
    """An object equal to its name takes neither the key of a memory holding the name
    nor one of its own: its change in place is seen; nor is its digest kept among the
    values digested lately, where it would never be found again."""
    battle, other = _battle(1), _battle(2)
    battle.memory["plug-in"] = "squad1"
    key = transpositions.remembered(battle)
    marker = _Marker("squad1", charges=3)
    other.memory["plug-in"] = marker
    transpositions._KEYS.clear()
    armed = transpositions.remembered(other)
    assert not transpositions._KEYS
    assert armed != key and position_key(other) != position_key(battle)
    marker.charges = 0
    assert transpositions.remembered(other) not in (armed, key)


def test_a_numpy_array_in_memory_is_told_apart_without_an_error() -> None:
    """An array (whose ``==`` gives an array, whose truth raises) or a numpy number
    in the rules' memory gets a key of its own, not the one of a list met before."""
    battle, other, third = _battle(1), _battle(2), _battle(3)
    battle.memory["heat"] = [0, 0]
    key = transpositions.remembered(battle)
    other.memory["heat"] = np.array([0, 0])
    third.memory["heat"] = [np.int64(0), 0]
    assert transpositions.remembered(other) != key
    assert transpositions.remembered(third) != key
    assert transpositions.remembered(battle) == key
