"""The speed-ups change how fast an answer comes, never the answer.

Each cache is checked against the computation it replaces: the per-decision
memo against plain calls (and a whole AI battle played with and without it),
the geometry tables against base_distance and can_see pair by pair, the
indexed wh40kdc ability lookup against a scan of the dataset.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import gc
import inspect
import operator
import pickle
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis import battles
from hammerlab.analysis.battles import prepare
from hammerlab.analysis.game import Game
from hammerlab.editions.waffle import attacks
from hammerlab.editions.waffle.artillery import is_gun
from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.events import (
    NoSave,
    SaveTaken,
    ShotsFired,
    WaffleWoundsLost,
    WoundsRolled,
)
from hammerlab.editions.waffle.expected import Fired
from hammerlab.editions.waffle.firepower import effective_range, firing_quota, ranged_weapons
from hammerlab.editions.waffle.firing_modes import is_grenade, spend, throwers
from hammerlab.editions.waffle.hit_rolls import HitRolls
from hammerlab.editions.waffle.markers import aim_points
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import Attack, WoundLoss
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.reserves import ReserveState
from hammerlab.editions.waffle.ruleset import WaffleRuleset
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.special_rules import _base, model_has, names_rule, type_rules
from hammerlab.editions.waffle.state import (
    _UNCHANGING,
    SHOOTING_RECORD,
    WaffleState,
    WaffleStatus,
    st,
    state_of,
)
from hammerlab.editions.waffle.vehicles import vehicle_of
from hammerlab.editions.waffle.visibility import seen_by_each, visible_models, within
from hammerlab.editions.waffle.wounds import most_common_profile
from hammerlab.engine import battlefield, memo, records, units
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.datasheet import Datasheet, Profile, Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import DiceRolled, Message, ModelRemoved, PhaseChanged, WoundsLost
from hammerlab.engine.geometry import (
    MM_PER_INCH,
    base_distance,
    closest,
    gap_table,
    nearest,
    out_of_reach,
    sight_line,
)
from hammerlab.engine.memo import decision_scope, per_decision
from hammerlab.engine.records import kept_hash, quick_init, reader
from hammerlab.engine.transpositions import _IN_PLAY, _STATIC, Transpositions
from hammerlab.engine.units import Model, Unit
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario
from hammerlab.io.wh40kdc_library import Wh40kdcLibrary

ROOT = Path(__file__).resolve().parents[1]

calls: Counter[str] = Counter()


@per_decision
def _counted(name: str, items: list[int]) -> list[int]:
    calls[name] += 1
    return [*items, len(items)]


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_per_decision_runs_every_call_outside_a_scope() -> None:
    calls.clear()
    _counted("a", [1])
    _counted("a", [1])
    assert calls["a"] == 2


def test_per_decision_answers_each_question_once_inside_a_scope() -> None:
    calls.clear()
    with decision_scope():
        first = _counted("b", [1, 2])
        first.append(99)  # a caller changing its copy changes nobody else's
        assert _counted("b", [1, 2]) == [1, 2, 2]
        assert _counted("b", [1, 3]) == [1, 3, 2]
        with decision_scope():  # an inner scope shares the answers
            _counted("b", [1, 2])
    assert calls["b"] == 2
    with decision_scope():  # a new decision asks again
        _counted("b", [1, 2])
    assert calls["b"] == 3


def test_per_decision_tells_mutable_objects_apart_by_identity() -> None:
    profile = Profile("Marine", {"W": "1"})
    one, two = (Model(f"m{i}", profile, (), (0.0, 0.0)) for i in range(2))
    seen: list[str] = []

    @per_decision
    def name_of(model: Model) -> str:
        seen.append(model.id)
        return model.id

    with decision_scope():
        assert [name_of(one), name_of(two), name_of(one)] == ["m0", "m1", "m0"]
    assert seen == ["m0", "m1"]


def test_a_scope_in_the_same_state_takes_up_the_last_answers_and_a_changed_one_does_not() -> None:
    path = ROOT / "examples" / "guard_suppress_terminators.toml"
    battle = Game.start(load_scenario(path), str(path), 1).battle
    calls.clear()
    with decision_scope(memo.state_of_play(battle)):
        _counted("c", [1])
    with decision_scope(memo.state_of_play(battle)):  # nothing changed: remembered
        _counted("c", [1])
    assert calls["c"] == 1
    model = next(iter(battle.units.values())).models[0]
    x, y = model.position
    model.position = (x + 0.5, y)  # a move: asked again
    with decision_scope(memo.state_of_play(battle)):
        _counted("c", [1])
    assert calls["c"] == 2
    model.wounds_left -= 1  # a wound: asked again
    with decision_scope(memo.state_of_play(battle)):
        _counted("c", [1])
    battle.turn += 1  # a new turn: asked again
    with decision_scope(memo.state_of_play(battle)):
        _counted("c", [1])
    with decision_scope():  # a scope with no state named never takes answers up
        _counted("c", [1])
    assert calls["c"] == 5


def test_state_of_play_sees_the_edition_state_and_the_rules_memory() -> None:
    path = ROOT / "examples" / "guard_suppress_terminators.toml"
    battle = Game.start(load_scenario(path), str(path), 1).battle
    before = memo.state_of_play(battle)
    assert memo.state_of_play(battle) == before
    status = st(battle, next(iter(battle.units.values())))
    status.casualties_this_phase += 1  # changed in place, inside the edition's state
    assert memo.state_of_play(battle) != before
    after = memo.state_of_play(battle)
    battle.memory["some rule"] = {"unit": "x"}
    assert memo.state_of_play(battle) != after


def test_state_of_play_leaves_out_only_the_shooting_record() -> None:
    path = ROOT / "examples" / "guard_suppress_terminators.toml"
    battle = Game.start(load_scenario(path), str(path), 1).battle
    unit = next(iter(battle.units.values()))
    status = st(battle, unit)
    before = memo.state_of_play(battle)
    status.has_shot, status.shot_target = True, "somebody"  # read by charge rules only
    status.fired_types.add("Rapid Fire")
    assert memo.state_of_play(battle) == before
    status.gone_to_ground = True  # an estimate reads this (cover, Snap Shots)
    assert memo.state_of_play(battle) != before
    full = state_of(battle).snapshot()[unit.id]
    assert isinstance(full, dict) and set(SHOOTING_RECORD) < set(full)


@contextlib.contextmanager
def _no_scope(state: object = None) -> Iterator[None]:
    yield


@pytest.mark.parametrize(
    "example", ["whole_game_three_turns.toml", "guard_suppress_terminators.toml"]
)
def test_the_waffle_ai_plays_the_same_battle_with_and_without_the_memo(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    path = ROOT / "examples" / example
    # Every answer worked out: none taken from the table of answers by position.
    monkeypatch.setattr("hammerlab.editions.waffle.ai.ANSWERS", Transpositions(capacity=0))

    def log() -> str:
        game = Game.start(load_scenario(path), str(path), 2)
        game.play()
        return game.battle.log.json_lines()

    remembered = log()
    monkeypatch.setattr("hammerlab.editions.waffle.ai.decision_scope", _no_scope)
    assert memo._answers.get() is None
    assert log() == remembered


def _model(i: int, x: float, y: float, base: float) -> Model:
    return Model(f"m{i}", Profile("Marine", {"W": "1"}), (), (x, y), base_mm=base)


def test_gap_table_is_base_distance_pair_by_pair_and_follows_a_move() -> None:
    rows = [_model(0, 0.0, 0.0, 25.0), _model(1, 3.3, 1.7, 32.0)]
    columns = [_model(2, 7.1, 0.4, 40.0), _model(3, 0.9, 0.2, 25.0), _model(4, 0.0, 9.0, 60.0)]
    table = gap_table(rows, columns)
    assert table == tuple(tuple(base_distance(a, b) for b in columns) for a in rows)
    assert table[0][1] == 0.0  # overlapping bases touch
    rows[0].position = (5.0, 5.0)
    assert gap_table(rows, columns)[0] == tuple(base_distance(rows[0], b) for b in columns)


def test_orders_keep_the_hash_of_their_fields_and_leave_it_behind_in_a_pickle() -> None:
    made = [
        FireOrders(),
        FireOrders(snap=True, counts_within=1.0, counts_for_morale=False),
        FireOrders(weapon_types=frozenset({"Assault", "Pistol"}), purpose="fiery charge"),
    ]
    for orders in made:
        values = tuple(getattr(orders, f.name) for f in dataclasses.fields(orders))
        twin = dataclasses.replace(orders)  # equal, made anew
        assert hash(orders) == hash(values) == hash(twin) == hash(orders)  # kept: the same
        back = pickle.loads(pickle.dumps(orders))
        assert "_hash" not in back.__dict__ and back == orders and hash(back) == hash(values)
    assert len({hash(orders) for orders in made}) == len(made)
    assert hash(dataclasses.replace(made[0], into_melee=True)) != hash(made[0])


def test_weapons_carried_are_remembered_by_the_wargear_and_read_as_a_scan_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(attacks, "CARRIED_KEPT", 3)  # forgotten along the way, too
    bolter = Weapon("Boltgun", {"Range": "24", "Type": "Rapid Fire"})
    other = Weapon("Boltgun", {"Range": "12", "Type": "Rapid Fire"})
    cannon = Weapon("Lascannon", {"Range": "48", "Type": "Heavy 1"})
    flamer = Weapon("Flamer", {"Range": "Template", "Type": "Assault 1, Template"})
    knife = Weapon("Knife", {"Range": "-", "Type": "Melee"})
    # Each wargear with its longest range, by hand: a Template reaches 8".
    wargears = {
        (bolter, cannon): 48.0,
        (cannon, other, bolter): 48.0,
        (other, bolter): 24.0,
        (flamer, other): 12.0,
        (flamer, knife): 8.0,
        (knife,): 0.0,
        (): 0.0,
    }
    for _ in range(2):
        for wargear, longest in wargears.items():
            assert attacks._carried(wargear)[1] == longest
            for name in ("Boltgun", "Lascannon", "Flamer"):
                scanned = [weapon for weapon in wargear if weapon.name == name]
                weapon, carried = attacks._carried(wargear)[0].get(name, (None, 0))
                assert carried == len(scanned)
                assert weapon is (scanned[0] if scanned else None)  # the wargear's own
                assert len(attacks._CARRIED) <= 3


def test_sight_table_is_can_see_pair_by_pair() -> None:
    wall = TerrainArea("wall", ((4.0, -10.0), (5.0, -10.0), (5.0, 10.0), (4.0, 10.0)),
                       blocks_sight=True)  # fmt: skip
    field = Battlefield(terrain=(wall,))
    lookers = ((0.0, 0.0), (4.5, 0.0))
    targets = ((9.0, 0.0), (0.0, 5.0))
    # Through the wall from outside: blocked; from inside the wall, or beside it: seen.
    assert field.sight_table(lookers, targets) == ((False, True), (True, True))
    assert field.sight_table(lookers, targets) == tuple(
        tuple(field.can_see(a, b) for b in targets) for a in lookers
    )


@pytest.mark.parametrize("kept", [1 << 17, 3])
def test_sight_table_with_some_pairs_known_is_can_see_pair_by_pair(
    kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairs asked before (one by one) and new ones in one table, the memory of pairs
    as large as in play or so small that it is emptied while the table is learnt."""
    monkeypatch.setattr(battlefield, "SIGHT_CACHE", kept)
    wall = TerrainArea("wall", ((4.0, -10.0), (5.0, -10.0), (5.0, 10.0), (4.0, 10.0)),
                       blocks_sight=True)  # fmt: skip
    field = Battlefield(terrain=(wall,))
    draw = random.Random(7)
    lookers = tuple((draw.uniform(-3, 12), draw.uniform(-6, 6)) for _ in range(6))
    targets = tuple((draw.uniform(-3, 12), draw.uniform(-6, 6)) for _ in range(5))
    plain = Battlefield(terrain=(wall,))  # a fresh field: nothing known, each pair alone
    first = field.can_see(lookers[0], targets[0])  # one pair known before the table
    table = field.sight_table(lookers, targets)
    assert table[0][0] == first
    assert table == tuple(tuple(plain.can_see(a, b) for b in targets) for a in lookers)
    assert {True, False} <= {seen for row in table for seen in row}  # the wall blocks some


def test_wh40kdc_ability_lookup_matches_a_scan_of_the_dataset() -> None:
    library = Wh40kdcLibrary()
    views = list(library.dataset.abilities.all)
    names = Counter(v.name.lower() for v in views)
    shared = next(n for n, c in names.items() if c > 1)
    for name in (shared, views[0].name.upper(), "no such ability"):
        for army in {v.raw.get("faction_id") for v in views if v.name.lower() == name} | {"?"}:
            same = [v for v in views if v.name.lower() == name.lower()]
            mine = [v for v in same if v.raw.get("faction_id") == army]
            want = (mine or same or [None])[0]
            got = library.ability(army, name)
            assert (got.ability_id if got else None) == (want.id if want else None)


def _pairs(example: str) -> Iterator[tuple[Battle, Unit, Unit]]:
    """Every (unit, other unit) of an example battle as it starts."""
    path = ROOT / "examples" / example
    battle = Game.start(load_scenario(path), str(path), 1).battle
    for unit in battle.units.values():
        for other in battle.units.values():
            if other is not unit:
                yield battle, unit, other


@pytest.mark.parametrize("example", ["blast_and_template_blob.toml", "marines_vs_orks_ruins.toml"])
def test_seen_by_each_is_visible_models_of_each_shooter_alone(example: str) -> None:
    for battle, unit, target in _pairs(example):
        ids = [id(m) for m in target.alive_models]
        alone = tuple(
            tuple(ids.index(id(m)) for m in visible_models(battle, [s], target))
            for s in unit.alive_models
        )
        assert seen_by_each(battle, unit.alive_models, target) == alone


def _fires(
    battle: Battle, unit: Unit, model: Model, target: Unit, name: str, orders: FireOrders
) -> bool:
    """Seed 000, step 3, model by model: it has the weapon and a Ballistic Skill, may fire
    it (Snap Shots: not a Template, Blast or Ordnance), sees a target model (a Barrage
    need not), may place its marker or template (a template over a model it reaches,
    unless the orders count the range as another distance), and is within range of a
    target model it sees (any, for a Barrage, which needs no sight)."""
    weapon = model.weapon(name)
    if weapon is None or stats_of(model.profile).bs == 0:
        return False
    profile = weapon_of(weapon)
    if orders.weapon_types is not None and profile.base_type not in orders.weapon_types:
        return False
    if fires_snap(battle, unit, profile, orders, target) and not profile.can_snap_fire:
        return False
    seen = visible_models(battle, [model], target)
    if not seen and not profile.barrage:
        return False
    counted = orders.counts_within is not None
    if (profile.blast or profile.template) and not aim_points(
        battle, unit, model, target, profile, reach=not counted
    ):
        return False
    reach = effective_range(unit, profile)
    if orders.counts_within is not None:
        return reach >= orders.counts_within
    return within(model, target.alive_models if profile.barrage else seen, reach)


@pytest.mark.parametrize("scoped", [False, True])
@pytest.mark.parametrize("example", ["blast_and_template_blob.toml", "marines_vs_orks_ruins.toml"])
def test_firing_models_are_those_that_see_and_reach_the_target_model_by_model(
    example: str, scoped: bool
) -> None:
    """``scoped``: every question asked inside one open decision scope, where the unit's
    gap and sight tables (``attacks.gaps_to``, ``attacks._seen_by_each``) are
    remembered and read again for each weapon, orders and target."""
    fired = 0
    with decision_scope() if scoped else contextlib.nullcontext():
        for battle, unit, target in _pairs(example):
            for name in ranged_weapons(unit):
                for orders in (FireOrders(), FireOrders(snap=True), FireOrders(counts_within=1.0)):
                    want = [
                        m
                        for m in unit.alive_models
                        if _fires(battle, unit, m, target, name, orders)
                    ]
                    got = firing_models(battle, unit, target, name, orders)
                    assert got == throwers(name, want)
                    fired += len(got)
    assert fired > 0  # some weapon of the example fires at all


@pytest.mark.parametrize(
    "example", ["vehicles_leman_russ.toml", "blast_and_template_blob.toml", "psychic_duel.toml"]
)
def test_every_weapon_worked_out_at_once_is_each_weapon_worked_out_alone(example: str) -> None:
    """Inside a decision every ranged weapon of a unit is worked out in one pass over its
    models (``attacks._firing_each``), and outside one weapon by weapon: the same models
    for each weapon, whatever the unit has spent (a model past its quota, a grenade
    thrown: ``firing_modes``) and with a vehicle's pairs of weapons (each fired once per
    copy)."""
    compared = fired = 0
    for battle, unit, target, close in (
        (b, u, t, close) for b, u, t in _pairs(example) for close in (False, True)
    ):
        if close and unit.alive_models and target.alive_models:  # the target brought near
            (x, y), (tx, ty) = unit.alive_models[0].position, target.alive_models[0].position
            for model in target.alive_models:
                model.position = (model.position[0] + x + 6.0 - tx, model.position[1] + y - ty)
        names = ranged_weapons(unit)
        first = unit.alive_models[0] if unit.alive_models else None
        spents: list[Counter[str] | None] = [None, Counter()]
        if first is not None:
            spents.append(Counter({first.id: 1}))
            for name in names:  # a grenade (or any weapon) spent by the first model
                each: Counter[str] = Counter()
                spend(each, unit, [first], name)
                spents.append(each)
        for spent in spents:
            for orders in (FireOrders(), FireOrders(snap=True)):
                with decision_scope():
                    together = {
                        n: firing_models(battle, unit, target, n, orders, spent) for n in names
                    }
                assert len(set(names)) == len(names)  # _firing_each is given no name twice
                for name in names:
                    alone = firing_models(battle, unit, target, name, orders, spent)
                    assert together[name] == alone, (unit.id, target.id, name, spent)
                    compared += 1
                    fired += len(alone)
    assert compared > 0 and fired > 0


def test_the_cached_rule_lookups_answer_as_a_scan_of_the_rules() -> None:
    rules = ("Fleet", "Feel No Pain (5+)", " Stubborn ")
    for rule in ("fleet", "FEEL NO PAIN", "Feel No Pain (4+)", "stubborn", "Fearless"):
        assert names_rule(rules, rule) == any(
            r.split(" (")[0].strip().lower() == rule.lower() for r in rules
        )
        assert names_rule(list(rules), rule) == names_rule(rules, rule)
    for rule in (*rules, "Poisoned (4+)", "SMASH"):
        for _ in range(2):  # cached: the same answer the second time
            assert _base(rule) == rule.split(" (")[0].strip().lower()
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = Game.start(load_scenario(path), str(path), 1).battle
    for unit in battle.units.values():
        names = {r for m in unit.models for r in m.rules} | set(unit.datasheet.rules)
        for name in (*names, "Eternal Warrior", "fleet"):
            scanned = any(r.lower() == name.lower() for r in unit.datasheet.rules) or any(
                r.lower() == name.lower() for m in unit.alive_models for r in m.rules
            )
            assert unit.has_rule(name) == scanned
    # A weapon profile's rules, read once and kept with it, asked twice.
    for unit in battle.units.values():
        for weapon in {w for m in unit.models for w in m.weapons}:
            profile = weapon_of(weapon)
            for name in (*profile.rules, "Rending", "twin-linked", "Poisoned (2+)", "Grenade"):
                scanned = any(
                    r.lower().split(" (")[0] == name.lower().split(" (")[0] for r in profile.rules
                )
                assert profile.has_rule(name.split(" (")[0]) == scanned
                assert profile.has_rule(name.split(" (")[0]) == scanned


def test_a_units_rules_follow_its_models_rules_list_and_wounds_as_a_scan_does() -> None:
    # Unit.has_rule keeps the places of the models with rules of their own while no
    # model's rules are set and the list compares equal to its copy (units._RULED).
    # After each change below it must say what a scan of the models alive says; a
    # planted entry shows the kept places are read (the control) and dropped on change.
    profile = Profile("Trooper", {"T": "3"})
    sheet = Datasheet("Squad", "Guard", "waffle", ("Stubborn",))
    unit = Unit(
        "u", "Squad", "A", sheet, [Model(f"m{i}", profile, (), (float(i), 0.0)) for i in range(3)]
    )
    twin = Unit("v", "Squad", "A", sheet, list(unit.models))

    def scanned(name: str) -> bool:
        return name.lower() in {
            r.lower() for m in unit.alive_models for r in (*m.rules, *sheet.rules)
        }

    def agrees() -> bool:
        return all(unit.has_rule(n) == scanned(n) for n in ("Stealth", "Fleet", "stubborn"))

    assert agrees() and not unit.has_rule("Stealth")
    unit.models[1].rules = ("Stealth",)  # a model's rules set: an edit of rules
    assert agrees() and unit.has_rule("Stealth") and twin.has_rule("Stealth")
    unit.models[1].wounds_left = 0  # slain: read afresh, no rules edit
    assert agrees() and not unit.has_rule("Stealth")
    unit.models[1].wounds_left = 1
    unit.models.insert(0, Model("m3", profile, (), (3.0, 0.0), rules=("Fleet",)))  # no edit
    assert agrees() and unit.has_rule("Fleet") and not twin.has_rule("Fleet")
    unit.models[0] = Model("m4", profile, (), (4.0, 0.0))  # one in another's place
    assert agrees() and not unit.has_rule("Fleet")
    unit.models = [Model("m5", profile, (), (5.0, 0.0), rules=("Fleet",))]  # another list
    assert agrees() and unit.has_rule("Fleet")
    units._RULED[id(unit)] = (units._RULED[id(unit)][0], *units._RULED[id(unit)][1:3], ())
    assert not unit.has_rule("Fleet")  # the planted places (none) are read while kept
    unit.models.append(Model("m6", profile, (), (6.0, 0.0)))  # the list changed: read again
    assert agrees() and unit.has_rule("Fleet")


def test_a_units_models_alive_follow_its_list_and_wounds_as_a_scan_does() -> None:
    # Unit.alive_models keeps, on a unit found with every model alive, the number of the
    # last wounds_left edit and a copy of its list, and answers with a copy of the list
    # while both hold. After each change below it must give what a scan gives (the very
    # objects of the unit's list, in a new list); a planted entry shows the kept number
    # and copy are read (the control), and a pickle or a copy leaves them behind.
    profile = Profile("Trooper", {"T": "3"})
    sheet = Datasheet("Squad", "Guard", "waffle", ())
    unit = Unit(
        "u", "Squad", "A", sheet, [Model(f"m{i}", profile, (), (float(i), 0.0)) for i in range(3)]
    )

    def agrees() -> bool:
        got, again = unit.alive_models, unit.alive_models
        scan = [m for m in unit.models if m.wounds_left > 0]
        same = len(got) == len(scan) and all(g is m for g, m in zip(got, scan, strict=True))
        return same and got == again and got is not again and got is not unit.models

    assert agrees() and len(unit.alive_models) == 3
    unit.alive_models.append(unit.models[0])  # a caller's list changed: nothing kept changes
    unit.alive_models.clear()
    assert agrees() and len(unit.alive_models) == 3
    unit.models[1].wounds_left = 0  # slain: an edit of wounds_left
    assert agrees() and len(unit.alive_models) == 2
    unit.models[1].wounds_left = 1
    assert agrees() and len(unit.alive_models) == 3
    unit.models.insert(0, Model("m3", profile, (), (3.0, 0.0), wounds_left=0))  # no edit
    assert agrees() and len(unit.alive_models) == 3
    del unit.models[0]
    assert agrees()
    unit.models[2] = copy.copy(unit.models[2])  # an equal copy in its place: its own read
    assert agrees() and unit.alive_models[2] is unit.models[2]
    unit.models = [Model("m5", profile, (), (5.0, 0.0), wounds_left=0)]  # another list
    assert agrees() and unit.alive_models == []
    unit.models = [Model(f"m{i}", profile, (), (float(i), 0.0)) for i in range(2)]
    assert agrees()
    object.__setattr__(unit.models[0], "wounds_left", 0)  # past the edit count (planted)
    assert len(unit.alive_models) == 2  # the kept number and copy are read while they hold
    for twin in (pickle.loads(pickle.dumps(unit)), copy.copy(unit)):
        assert "_alive" not in vars(twin) and len(twin.alive_models) == 1
    unit.models[1].wounds_left = 1  # any edit of wounds_left: read again
    assert agrees() and len(unit.alive_models) == 1


def test_a_unit_with_a_model_down_is_answered_with_its_own_models_alive() -> None:
    # Unit.alive_models keeps, on a unit with a model down too, the number of the last
    # wounds_left edit, a copy of its list and which places held models alive, and picks
    # the models at those places out of its own list while both hold. Four troopers, the
    # second slain: each answer must be the first, third and fourth of the unit's list
    # as it is now (the very objects), and a planted entry shows the kept places are read.
    profile = Profile("Trooper", {"T": "3"})
    sheet = Datasheet("Squad", "Guard", "waffle", ())
    models = [Model(f"m{i}", profile, (), (float(i), 0.0)) for i in range(4)]
    unit = Unit("u", "Squad", "A", sheet, models)
    models[1].wounds_left = 0  # slain: an edit of wounds_left

    def ids() -> list[str]:
        got = unit.alive_models
        assert got is not unit.models and all(any(g is m for m in unit.models) for g in got)
        return [m.id for m in got]

    assert ids() == ["m0", "m2", "m3"] and ids() == ["m0", "m2", "m3"]
    held = unit.alive_models
    held.clear()  # a caller's list changed: nothing kept changes
    assert ids() == ["m0", "m2", "m3"]
    unit.models[2] = copy.copy(unit.models[2])  # an equal copy in its place: its own read
    assert unit.alive_models[1] is unit.models[2]
    object.__setattr__(unit.models[3], "wounds_left", 0)  # past the edit count (planted)
    assert ids() == ["m0", "m2", "m3"]  # the kept places are read while they hold
    for twin in (pickle.loads(pickle.dumps(unit)), copy.copy(unit)):
        assert "_alive" not in vars(twin) and [m.id for m in twin.alive_models] == ["m0", "m2"]
    unit.models.append(Model("m4", profile, (), (4.0, 0.0)))  # the list changed: read again
    assert ids() == ["m0", "m2", "m4"]
    unit.models[0].wounds_left = 0  # any edit of wounds_left: read again
    assert ids() == ["m2", "m4"]
    unit.models[1].wounds_left = 1
    assert ids() == ["m1", "m2", "m4"]


def test_sight_and_cover_read_inside_an_area_as_shapely_does() -> None:
    wall = TerrainArea("wall", ((4.0, -10.0), (5.0, -10.0), (5.0, 10.0), (4.0, 10.0)),
                       blocks_sight=True)  # fmt: skip
    wood = TerrainArea("wood", ((-1.0, -1.0), (2.0, -1.0), (2.0, 2.0), (-1.0, 2.0)), cover_save=5)
    field = Battlefield(terrain=(wall, wood))
    learnt = Battlefield(terrain=(wall, wood))  # sight learnt a table at a time
    points = [(x * 1.5, y * 1.5) for x in range(-1, 8) for y in range(-2, 3)]
    table = learnt.sight_table(tuple(points), tuple(points))
    blocked = 0
    for i, a in enumerate(points):
        for j, b in enumerate(points):
            crossed = [t for t in field.terrain if t.shape.intersects(sight_line(a, b))]
            sees = not any(t.blocks_sight and not (t.contains(a) or t.contains(b)) for t in crossed)
            cover = [t for t in crossed if t.cover_save is not None and not t.contains(a)]
            assert field.can_see(a, b) == sees  # one pair at a time
            assert table[i][j] == learnt.can_see(a, b) == sees
            assert field.cover_between(a, b) == cover
            blocked += not sees
    assert blocked > 0


def test_tables_are_equal_by_size_and_terrain_and_answer_with_their_own_areas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def areas() -> tuple[TerrainArea, ...]:  # equal areas, built anew (as each battle does)
        wall = TerrainArea("wall", ((4.0, -10.0), (5.0, -10.0), (5.0, 10.0), (4.0, 10.0)),
                           blocks_sight=True)  # fmt: skip
        wood = TerrainArea("wood", ((6.0, -1.0), (8.0, -1.0), (8.0, 2.0), (6.0, 2.0)), cover_save=5)
        return (wall, wood)

    first, second = Battlefield(terrain=areas()), Battlefield(terrain=areas())
    assert first == second and hash(first) == hash(second)
    assert first != Battlefield(terrain=areas()[:1])
    assert first != Battlefield(width=60.0, terrain=areas())
    assert first != "a table"
    # Equal however the tables were made: after the contents kept were forgotten, and
    # through a pickle (neither shares the first table's kept contents).
    monkeypatch.setattr(battlefield, "TABLES_KEPT", 0)
    assert Battlefield(terrain=areas()) == first
    assert pickle.loads(pickle.dumps(first)) == second
    # A pickle or a copy holds the size and terrain alone (no sight remembered, no
    # hash of this process's strings, not the first table's contents besides its own).
    first.can_see((0.0, 0.0), (7.0, 0.5))
    assert first._sight  # type: ignore[attr-defined]
    for copied in (pickle.loads(pickle.dumps(first)), copy.deepcopy(first)):
        assert copied == second and hash(copied) == hash(second)
        assert copied._sight == {}  # type: ignore[attr-defined]
    assert Battlefield(terrain=areas()[::-1]) != first  # the same areas, another order
    # Each table answers with its own areas (each with its own shapely polygon), the
    # answers remembered by the other, equal table notwithstanding.
    a, b = (0.0, 0.0), (7.0, 0.5)
    assert first.crossed(a, b) == second.crossed(a, b) == list(first.terrain)
    assert all(map(operator.is_, first.crossed(a, b), first.terrain))
    assert all(map(operator.is_, second.crossed(a, b), second.terrain))
    assert all(map(operator.is_, second.cover_between(a, b), second.terrain[1:]))
    assert second.areas_at(b)[0] is second.terrain[1]
    assert not first.can_see(a, b) and second.can_see((4.5, 0.0), b)  # seen out of the wall


def test_out_of_reach_says_so_only_when_every_pair_is_farther_than_the_reach() -> None:
    rng = random.Random(7)
    answered = Counter[bool]()
    for _ in range(400):
        rows = [_model(i, rng.uniform(0, 12), rng.uniform(0, 12), 25.0) for i in range(3)]
        columns = [
            _model(9 + i, rng.uniform(0, 20), rng.uniform(0, 20), rng.choice([25.0, 40.0]))
            for i in range(4)
        ]
        inches = rng.choice([0.01, 1.0, 2.0])
        nearest = min(base_distance(a, b) for a in rows for b in columns)
        apart = out_of_reach(rows, columns, inches)
        if apart:
            assert nearest > inches
        answered[apart] += 1
    # Bases side by side, 1.5" apart along x: out of reach of 1", not of 2".
    left, right = [_model(0, 0.0, 0.0, 25.4)], [_model(1, 2.5, 0.0, 25.4)]
    assert out_of_reach(left, right, 1.0) and not out_of_reach(left, right, 2.0)
    assert out_of_reach([], right, 100.0)
    assert answered[True] > 20 and answered[False] > 20  # both answers were put to the test


def test_nearest_is_the_first_of_closest_and_the_typical_profile_the_first_most_common() -> None:
    rng = random.Random(3)
    for _ in range(200):
        origin = [_model(0, rng.uniform(0, 6), rng.uniform(0, 6), 25.0)]
        # Whole-inch positions on a small grid: ties in distance happen.
        others = [_model(i, rng.randint(0, 4), rng.randint(0, 4), 25.0) for i in range(1, 7)]
        assert nearest(origin, others) is closest(origin, others)[0]
    one, two = Profile("Guardsman", {"W": "1"}), Profile("Sergeant", {"W": "1"})
    assert most_common_profile([two, one, one, two]) is two  # a tie: the first seen
    assert most_common_profile([two, one, one]) is one


def test_closest_orders_by_the_least_distance_to_any_origin_base_as_it_was_measured() -> None:
    """The order :func:`closest` remembers by the bases is each candidate's least
    :func:`base_distance` to the origin's bases, sorted, ties in the given order: asked
    twice, of whole-inch grids (ties), and after a move (a new arrangement)."""
    rng = random.Random(11)
    for _ in range(300):
        origin = [_model(i, rng.randint(0, 5), rng.randint(0, 5), 25.0) for i in range(3)]
        others = [
            _model(9 + i, rng.randint(0, 8), rng.randint(0, 8), rng.choice([25.0, 40.0]))
            for i in range(6)
        ]
        for _ in range(2):
            least = [min(base_distance(o, c) for o in origin) for c in others]
            by_hand = [others[i] for i in sorted(range(len(others)), key=least.__getitem__)]
            assert closest(origin, others) == by_hand
            assert all(a is b for a, b in zip(closest(origin, others), by_hand, strict=True))
            x, y = others[0].position
            others[0].position = (x + 3.0, y)  # moved: the next round asks anew
    with pytest.raises(ValueError):  # no origin: a min() of nothing, as before
        closest([], [_model(1, 0.0, 0.0, 25.0)])


def test_a_models_rules_are_asked_as_a_scan_of_its_units_its_own_and_its_types() -> None:
    """``model_has``, remembered by the unit's rules, the model's and its unit type,
    answers as the rules joined and read afresh (:func:`names_rule`)."""
    for name in ("whole_game_three_turns.toml", "guard_suppress_terminators.toml"):
        path = EXAMPLES / name
        battle = Game.start(load_scenario(path), str(path), 1).battle
        for unit in battle.units.values():
            for model in unit.models:
                joined = (*unit.datasheet.rules, *model.rules, *type_rules(model.profile))
                asked = {r.split(" (")[0] for r in joined}
                for rule in (*asked, "Precision Shots", "Sniper", "furious charge", "Fleet"):
                    for _ in range(2):
                        assert model_has(unit, model, rule) == names_rule(joined, rule)
        model = next(iter(battle.units.values())).models[0]
        unit = next(iter(battle.units.values()))
        model.rules = (*model.rules, "Sniper")  # a rule given in play is seen at once
        assert model_has(unit, model, "Sniper")


def test_a_models_radius_is_its_bases_worked_out_once_and_kept_on_it() -> None:
    model = _model(0, 0.0, 0.0, 32.0)
    assert "radius" not in vars(model)
    assert model.radius == 32.0 / MM_PER_INCH / 2.0
    assert vars(model)["radius"] == model.radius  # kept: later readings find it there
    assert _model(1, 0.0, 0.0, 60.0).radius == 60.0 / MM_PER_INCH / 2.0
    assert isinstance(Model.__dict__["radius"], type(Model.radius))  # off the class: itself


def _has_a_dict(record: object) -> bool:
    """Whether ``record``'s attributes are in a dictionary of its own rather than
    inline (CPython 3.11 and 3.12): the garbage collector's referents are then that
    dictionary and the type, else each value and the type."""
    referents = gc.get_referents(record)
    return len(referents) == 2 and type(referents[0]) is dict and referents[1] is type(record)


_INLINE = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info[:2] not in ((3, 11), (3, 12)),
    reason="CPython 3.11 and 3.12 keep an instance's values inline until its __dict__ is asked",
)


@_INLINE
def test_a_model_its_edits_its_radius_and_its_copy_keep_their_values_inline() -> None:
    """No :class:`Model` asks for its ``__dict__``, which would turn the values CPython
    keeps inline into a dictionary of the model's own, and every reading of a field into
    a look-up by name (docs/scale.md, twenty-fifth session), nor a name of its own that
    the class's instances cannot share: CPython lets fewer names join those shared with
    each instance made, so the models made before (a battle's, say) leave room for one
    more at most. The garbage collector's referents tell: the values themselves while
    inline, the dictionary once made."""

    made_before = [_model(i, 0.0, 0.0, 25.0) for i in range(1, 41)]
    model = _model(0, 0.0, 0.0, 32.0)
    assert not _has_a_dict(model)
    assert model.radius == 32.0 / MM_PER_INCH / 2.0 and not _has_a_dict(model)
    edits = units.models_edited()
    model.position = (1.0, 2.0)
    assert model.edit == units.models_edited() > edits and not _has_a_dict(model)
    del model.powers
    assert model.edit == units.models_edited() and not _has_a_dict(model)
    model.powers = ()
    edits = units.models_edited()
    twin = copy.copy(model)
    assert units.models_edited() == edits  # a copy is no edit
    assert twin == model and twin is not model and twin.edit == model.edit
    assert twin.radius == model.radius
    assert not _has_a_dict(twin) and not _has_a_dict(model)
    made_before[0].wounds_left = 0
    assert made_before[0].radius == 25.0 / MM_PER_INCH / 2.0 and not _has_a_dict(made_before[0])
    assert vars(twin) == vars(model)  # the same attributes, asked for last: it makes them
    assert _has_a_dict(twin)  # what the check tells apart


@_INLINE
def test_a_battle_s_state_and_reserves_deep_copied_are_equal_and_keep_their_values_inline() -> None:
    """``copy.deepcopy`` of the Waffle state and of the reserves (a batch's battles made
    from one prepared, a cloned game) makes them through their ``__init__``
    (``records.deep_copied``): equal, nothing shared that can change, the units the
    memo names given as their copies, no dictionary of their own (docs/scale.md,
    twenty-fifth session)."""
    waiting, twin_unit = object(), object()
    reserves = ReserveState(
        waiting={"u1": waiting},  # type: ignore[dict-item]
        how={"u1": "deep_strike"},
        ongoing=["u1"],
        order=["u0", "u1"],
        last_turn=5,
        last_player="Orks",
    )
    copied = copy.deepcopy(reserves, {id(waiting): twin_unit})
    assert copied.waiting == {"u1": twin_unit} and copied.how == {"u1": "deep_strike"}
    assert (copied.ongoing, copied.arrived, copied.order) == (["u1"], {}, ["u0", "u1"])
    assert (copied.last_turn, copied.last_player) == (5, "Orks")
    assert copied.how is not reserves.how and copied.order is not reserves.order
    assert not _has_a_dict(copied)
    state = WaffleState(units={"u0": WaffleStatus(has_shot=True)}, duels={"m1": "m2"})
    state.units["u0"].fired_types.add("Heavy")
    twin = copy.deepcopy(state)
    assert twin == state and twin.units is not state.units
    assert twin.units["u0"] is not state.units["u0"]
    assert twin.units["u0"].fired_types == {"Heavy"} and twin.duels is not state.duels
    assert not _has_a_dict(twin) and _has_a_dict(copy.copy(state))  # what the check tells


def test_deep_copied_reads_a_class_s_fields_once_and_refuses_one_not_taken_by_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``records.deep_copied`` works a class's fields out at its first copy only (a battle
    made from a prepared one copies its state and reserves: twenty-sixth session), and
    passes them to ``__init__`` by place, so a class with a field ``__init__`` does not
    take by place is a ``TypeError`` rather than a copy gone wrong."""
    reserves = ReserveState(how={"u1": "outflank"}, order=["u1"], last_turn=3)
    first = copy.deepcopy(reserves)
    monkeypatch.setattr(records.dataclasses, "fields", None)  # a second reading would fail
    again = copy.deepcopy(reserves)
    assert again == first == reserves and again.how is not reserves.how
    monkeypatch.undo()

    @dataclasses.dataclass
    class Keyed:
        shown: list[int]
        hidden: int = dataclasses.field(default=0, kw_only=True)

    with pytest.raises(TypeError, match=r"\['shown', 'hidden'\] by place, in order"):
        records.deep_copied(Keyed([1], hidden=2), {})

    # An InitVar is taken by __init__ and is no field: passed by place, every field
    # after it would land one place on (a review's finding, twenty-sixth session).
    @dataclasses.dataclass
    class Tally:
        kept: list[int]
        label: dataclasses.InitVar[str]
        seen: dict[str, int] = dataclasses.field(default_factory=dict)

        def __post_init__(self, label: str) -> None:
            self.seen[label] = 1

    with pytest.raises(TypeError, match=r"\['kept', 'seen'\] by place, in order"):
        records.deep_copied(Tally([1, 2], "mine"), {})


def test_deep_copied_gives_plain_values_as_they_are_and_empty_containers_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``records.deep_copied`` copies a string, number or ``None`` and an empty dict, list
    or set without ``copy.deepcopy`` (twenty-sixth session), as ``deepcopy`` would: the
    plain values themselves, each empty container a new one, one container met twice
    one copy (the memo), nothing the copy's play fills reaching the original."""
    shared: list[str] = []
    reserves = ReserveState(ongoing=shared, order=shared, last_turn=4, last_player="Orks")
    monkeypatch.setattr(records.copy, "deepcopy", None)  # asked, it would fail
    twin = records.deep_copied(reserves, {})
    assert twin == reserves and (twin.last_turn, twin.last_player) == (4, "Orks")
    assert twin.ongoing is twin.order and twin.ongoing is not shared
    assert twin.waiting is not reserves.waiting and twin.how is not reserves.how
    twin.ongoing.append("u1")
    twin.arrived["u1"] = 2
    assert shared == [] and reserves.arrived == {}
    state = WaffleState()
    copied = records.deep_copied(state, {})
    assert copied == state and copied.refused is not state.refused


def test_a_unit_s_problems_are_worked_out_once_per_datasheet_and_noted_in_every_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario_file = EXAMPLES / "matchups" / "boyz_vs_tactical.toml"
    scenario = load_scenario(scenario_file)
    asked: list[str] = []
    checks = WaffleRuleset.validate_datasheet

    def counted(ruleset: WaffleRuleset, sheet: Datasheet) -> list[str]:
        asked.append(sheet.name)
        return checks(ruleset, sheet)

    monkeypatch.setattr(WaffleRuleset, "validate_datasheet", counted)
    battles._problems.cache_clear()
    ready = [prepare(scenario, str(scenario_file), seed) for seed in (1, 2, 3)]
    sheets = {unit.datasheet.name for unit in ready[0].battle.units.values()}
    assert sorted(asked) == sorted(sheets)  # each once, though three battles were prepared
    assert "boyz (Ork Boyz): special rule not implemented: Mob Rule" in ready[0].warnings
    assert ready[0].warnings == ready[1].warnings == ready[2].warnings


def test_bases_found_apart_are_remembered_by_value_and_any_overlap_still_refused() -> None:
    """An arrangement of bases checked once is known apart (a sweep places the same ones
    every battle); moving one base onto another is a new arrangement, refused, and the
    arrangement put back is found apart again."""
    scenario_file = EXAMPLES / "guard_suppress_terminators.toml"
    battle = prepare(load_scenario(scenario_file), str(scenario_file), 1).battle
    units = list(battle.units.values())
    battles._APART.clear()
    battles._check_bases(units, "here")
    assert len(battles._APART) == 1
    battles._check_bases(units, "here")
    assert len(battles._APART) == 1  # found, not checked again
    mover, still = units[0].models[0], units[0].models[1]
    kept = mover.position
    mover.position = still.position
    with pytest.raises(InputError, match="overlaps that of"):
        battles._check_bases(units, "here")
    mover.position = kept
    battles._check_bases(units, "here")
    assert len(battles._APART) == 1


def test_a_units_positions_are_its_formation_worked_out_afresh() -> None:
    """The models' spots, remembered by their arguments, are those the formation gives
    (worked out again with nothing remembered) for each formation, size and spacing."""
    cases = [
        (count, (30.0, 10.0), base, formation, spacing)
        for count in (1, 5, 7, 10)
        for base in (25.0, 40.0)
        for formation in ("block", "line", "column")
        for spacing in (0.0, 1.0, 2.5)
    ]
    remembered = [battles._positions(*case) for case in cases]
    battles._positions.cache_clear()
    assert remembered == [battles._positions.__wrapped__(*case) for case in cases]
    assert battles._positions(3, (0.0, 0.0), 25.0, "line", 0.0) == (
        (-25.0 / MM_PER_INCH, 0.0),
        (0.0, 0.0),
        (25.0 / MM_PER_INCH, 0.0),
    )


def _reference(cls: type) -> type:
    """A frozen dataclass with ``cls``'s fields, made by ``dataclasses`` alone."""
    return dataclasses.make_dataclass(
        f"{cls.__name__}Reference",
        [
            (
                f.name,
                f.type,
                dataclasses.field(
                    default=f.default,
                    default_factory=f.default_factory,
                    init=f.init,
                    repr=f.repr,
                    compare=f.compare,
                    kw_only=f.kw_only,
                ),
            )
            for f in dataclasses.fields(cls)
        ],
        frozen=True,
    )


@dataclasses.dataclass(frozen=True)
class _Every:
    name: str
    count: int = 2
    items: list[int] = dataclasses.field(default_factory=list)
    given: tuple[int, ...] = dataclasses.field(default=(), kw_only=True)
    later: str = dataclasses.field(default="set", init=False)
    made: list[str] = dataclasses.field(default_factory=list, init=False)


def test_quick_init_makes_the_objects_the_dataclasses_own_init_makes() -> None:
    """The same signature (parameters, defaults, keyword-only ones), the same fields set
    (defaults, a new list from each factory, fields outside ``__init__``), as frozen."""
    quick = quick_init(_reference(_Every))
    plain = _reference(_Every)
    assert str(inspect.signature(quick)) == str(inspect.signature(plain))
    for args, kwargs in [(("a",), {}), (("b", 5, [1]), {"given": (3,)}), ((), {"name": "c"})]:
        made, expected = quick(*args, **kwargs), plain(*args, **kwargs)
        assert vars(made) == vars(expected)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.name = "changed"
    assert quick("a").items is not quick("a").items  # each object's own list
    assert quick("a").made is not quick("a").made
    with pytest.raises(TypeError):
        quick("a", 1, [], (2,))  # keyword-only, as the dataclass's


@pytest.mark.parametrize(
    "cls",
    [
        Attack,
        Choice,
        Decision,
        DecisionContext,
        DecisionMade,
        DiceRolled,
        FireOrders,
        Fired,
        HitRolls,
        Message,
        ModelRemoved,
        NoSave,
        PhaseChanged,
        SaveTaken,
        ShotsFired,
        WoundLoss,
        WoundsLost,
        WaffleWoundsLost,
        WoundsRolled,
    ],
)
def test_the_classes_made_quickly_take_and_keep_what_their_fields_say(cls: type) -> None:
    """Each class given :func:`quick_init` is a dataclass of its fields as ``dataclasses``
    alone makes it: its signature, and every field of objects made with each field given
    and with the defaults."""
    reference = _reference(cls)
    assert str(inspect.signature(cls)) == str(inspect.signature(reference))
    given = {
        f.name: (f"{f.name}-value" if f.type in ("str", str) else len(f.name))
        for f in dataclasses.fields(cls)
        if f.init
    }
    required = {
        name: value
        for name, value in given.items()
        if next(f for f in dataclasses.fields(cls) if f.name == name).default is dataclasses.MISSING
        and next(f for f in dataclasses.fields(cls) if f.name == name).default_factory
        is dataclasses.MISSING
    }
    for kwargs in (given, required):
        assert vars(cls(**kwargs)) == vars(reference(**kwargs))


@dataclasses.dataclass
class _Mutable:
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    name: str


def test_quick_init_refuses_a_class_whose_init_does_more() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        name: str

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True)
    class Initialised:
        name: str
        extra: dataclasses.InitVar[int] = 0

    for cls in (_Mutable, Checked, _Slotted, Initialised):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_a_reader_reads_what_attrgetter_reads() -> None:
    """``reader`` gives ``attrgetter``'s tuple: fields in a dictionary, in slots, a
    property, a class attribute, ``__getattr__``'s answer, an attribute's attribute
    (dotted); the error of a missing one; a tuple for one name and for none. The
    readers the positions use read what the names say (a status's 21 fields, a
    model's eight)."""

    class Odd:
        __slots__ = ("slot",)
        kind = "class"

        def __init__(self) -> None:
            self.slot = 1

        @property
        def made(self) -> int:
            return self.slot + 1

        def __getattr__(self, name: str) -> str:
            if name == "asked":
                return "fallback"
            raise AttributeError(name)

    odd = Odd()
    names = ("slot", "kind", "made", "asked")
    assert reader(*names)(odd) == operator.attrgetter(*names)(odd) == (1, "class", 2, "fallback")
    assert reader("slot")(odd) == (1,) and reader()(odd) == ()
    dotted = ("made.real", "kind.__class__", "slot")
    assert reader(*dotted)(odd) == operator.attrgetter(*dotted)(odd) == (2, str, 1)
    with pytest.raises(AttributeError):
        reader("slot", "missing")(odd)
    for bad in (("a..b",), ("class",), ("a.class",), ("",)):
        with pytest.raises(ValueError):
            reader(*bad)
    status = WaffleStatus(has_shot=True, shot_target="b", casualties_this_phase=2)
    names = tuple(f.name for f in dataclasses.fields(WaffleStatus) if f.name != "fired_types")
    assert _UNCHANGING(status) == operator.attrgetter(*names)(status)
    model = Model("m", Profile("Guardsman", {}), (), (1.0, 2.0), 25.0, 1, ("Stubborn",))
    assert _IN_PLAY(model) == ("m", (1.0, 2.0), 1)
    assert _STATIC(model) == ((), ("Stubborn",), (), 25.0, model.profile)


def test_kept_hash_is_the_fields_hash_and_refuses_what_it_cannot_keep() -> None:
    """The kept hash is the hash of the fields' values, as the dataclass's own; a copy
    leaves it behind (the orders' test above pickles one)."""

    @kept_hash
    @dataclasses.dataclass(frozen=True)
    class Kept:
        name: str
        size: int = 1

    made = Kept("a", 2)
    assert hash(made) == hash(("a", 2)) == hash(made)
    assert "_hash" in made.__dict__ and "_hash" not in copy.copy(made).__dict__
    assert copy.copy(made) == made and hash(Kept("a", 3)) == hash(("a", 3))

    @dataclasses.dataclass(frozen=True)
    class Uncompared:
        name: str
        note: str = dataclasses.field(default="", compare=False)

    for cls in (_Mutable, _Slotted, Uncompared):
        with pytest.raises(TypeError):
            kept_hash(cls)


def test_kept_hash_reads_each_record_s_own_fields_whatever_was_hashed_before() -> None:
    """The fields the kept hash reads are found once per type (``records._HASHED``): a
    subclass with a field of its own, hashed after its base, hashes that field too (its
    hash is the hash of all its fields' values, written by hand), and the base, hashed
    after it, its own two alone. It fails if one reader served every type, or a type
    took the reader of the first record hashed."""

    @kept_hash
    @dataclasses.dataclass(frozen=True)
    class Base:
        name: str
        size: int = 1

    @kept_hash
    @dataclasses.dataclass(frozen=True)
    class Wider(Base):
        extra: float = 0.5

    assert hash(Base("a", 2)) == hash(("a", 2))
    assert hash(Wider("a", 2, 7.5)) == hash(("a", 2, 7.5))
    assert hash(Wider("a", 2, 8.5)) != hash(Wider("a", 2, 7.5))
    assert hash(Base("b", 3)) == hash(("b", 3))


def test_typed_views_kept_by_identity_answer_each_object_made_and_dropped_in_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # stats_of, weapon_of, vehicle_of, is_grenade, is_gun and a model's own firing quota
    # (firepower.firing_quota: a vehicle every weapon it carries, a Monstrous Creature two,
    # else one, each plus the extra) answer an object met before by its id
    # (memo.per_object). Each object here is made, asked about and dropped, so CPython
    # hands the next one the same address: an answer kept by id without its object
    # would be the dropped one's. The numbers are read back as written.
    monkeypatch.setattr(memo, "OBJECTS_KEPT", 7)  # all forgotten along the way, too
    rng = random.Random(24)
    for _ in range(300):
        reach, strength, wounds = rng.randint(6, 48), rng.randint(1, 10), rng.randint(1, 5)
        grenade = rng.random() < 0.5
        kind = "Assault 1, Grenade" if grenade else "Heavy 2"
        weapon = Weapon("Gun", {"Range": f'{reach}"', "S": str(strength), "AP": "-", "Type": kind})
        assert weapon_of(weapon).range == reach and weapon_of(weapon).shots == (1 if grenade else 2)
        assert is_grenade(weapon) is grenade
        if rng.random() < 0.5:
            front = rng.randint(10, 14)
            written = f"BS 3 Front {front} Side 10 Rear 10 HP {wounds}"
            tank = Profile("Tank", _written(written), unit_type="Vehicle (Tank)")
            view = vehicle_of(tank)
            assert view is not None and (view.front, view.hull_points) == (front, wounds)
            assert stats_of(tank).w == wounds and not is_gun(Model("t", tank, (), (0.0, 0.0)))
            assert firing_quota(tank, 3, 1) == 3
        else:
            gun, monster = rng.random() < 0.5, rng.random() < 0.5
            written = (
                f"WS - BS - S - T 7 W {wounds} I - A - Ld - Sv 3+"
                if gun
                else f"WS 3 BS 3 S {strength} T 3 W {wounds} I 3 A 1 Ld 7 Sv 5+"
            )
            kind = "Artillery" if gun else "Monstrous Creature" if monster else "Infantry"
            profile = Profile("Model", _written(written), unit_type=kind)
            assert firing_quota(profile, 3, 1) == (3 if monster and not gun else 2)
            assert vehicle_of(profile) is None and stats_of(profile).w == wounds
            assert stats_of(profile).s == (0 if gun else strength)
            assert is_gun(Model("m", profile, (), (0.0, 0.0))) is gun
    # Equal objects still share the answer the lru_cache behind gives (as before).
    first = Weapon("Boltgun", {"Range": '24"', "S": "4", "AP": "5", "Type": "Rapid Fire"})
    again = Weapon("Boltgun", {"Range": '24"', "S": "4", "AP": "5", "Type": "Rapid Fire"})
    assert first is not again and weapon_of(first) is weapon_of(again)


def _written(line: str) -> dict[str, str]:
    """Characteristics written as a profile line: ``"WS 3 BS 3 ..."``."""
    words = line.split()
    return dict(zip(words[::2], words[1::2], strict=True))


def _squad_of_three() -> Unit:
    profile = Profile("Trooper", {"T": "3"})
    sheet = Datasheet("Squad", "Guard", "waffle", ())
    models = [Model(f"m{i}", profile, (), (float(i), 0.0)) for i in range(3)]
    return Unit("u", "Squad", "A", sheet, models)


def test_a_model_put_in_a_unit_while_its_models_alive_are_read_is_read_again() -> None:
    # Another thread's step, played at a set point: right after alive_models has found
    # every model of the squad alive, a model made dead (wounds_left=0 at its making:
    # no wounds edit counted) is put in the squad's list. Asked again, the squad must
    # answer as a scan does, without it; before the review's mend the copy kept was
    # the list as it stood after the check, the dead model in it, and it was answered.
    unit = _squad_of_three()
    dead = Model("dead", unit.models[0].profile, (), (9.0, 0.0), wounds_left=0)
    lens = [0]

    def switch(frame: Any, event: str, arg: object) -> None:
        if event == "c_return" and arg is len and frame.f_code.co_name == "alive_models":
            lens[0] += 1
            if lens[0] == 2:  # len(models): the check is done, the copy not yet kept
                unit.models.append(dead)

    sys.setprofile(switch)
    try:
        first = unit.alive_models
    finally:
        sys.setprofile(None)
    assert dead in unit.models and dead not in first
    assert unit.alive_models == [m for m in unit.models if m.wounds_left > 0]
    assert dead not in unit.alive_models


def test_a_rule_given_while_a_unit_s_ruled_models_are_read_is_read_again() -> None:
    # Another thread's step, played at a set point: while has_rule reads which models
    # of the squad have rules of their own, the first (already read: none) is given
    # Fleet. Asked again, the squad has it, as a scan says; before the review's mend the
    # places were kept with the number drawn by that edit, and it had not.
    unit = _squad_of_three()
    done = [False]

    def local(frame: Any, event: str, arg: object) -> Any:
        if event == "opcode" and not done[0] and frame.f_locals.get("at") == 1:
            done[0] = True
            unit.models[0].rules = ("Fleet",)
        return local

    def tracer(frame: Any, event: str, arg: object) -> Any:
        # The scan is a list comprehension: a frame of its own called from _keep_ruled
        # (Python 3.11), or inlined in _keep_ruled's (3.12 on): either is traced.
        back = frame.f_back
        caller = "" if back is None else back.f_code.co_name
        name = frame.f_code.co_name
        if event == "call" and "_keep_ruled" in (name, caller if name == "<listcomp>" else ""):
            frame.f_trace_opcodes = True
            return local
        return None

    sys.settrace(tracer)
    try:
        unit.has_rule("Fleet")
    finally:
        sys.settrace(None)
    assert done[0]
    assert unit.has_rule("Fleet")


def test_a_damaged_unit_s_kept_places_pick_from_the_list_as_it_was_compared() -> None:
    # Another thread's step, played at a set point: a damaged squad (m1 down) has its
    # places kept; asked again, right after its list compared equal to the copy kept, a
    # dead model is put at the head of its list. The answer must be the squad's models
    # alive as they stood at the check (m0, m2); before the fourth review's mend the kept
    # places were picked from the changed list: the dead model and m1 (both down).
    unit = _squad_of_three()
    unit.models[1].wounds_left = 0
    assert [m.id for m in unit.alive_models] == ["m0", "m2"]  # the places kept
    dead = Model("dead", unit.models[0].profile, (), (9.0, 0.0), wounds_left=0)
    lines, first = inspect.getsourcelines(Unit.alive_models.fget)  # type: ignore[attr-defined]
    at = first + next(i for i, line in enumerate(lines) if "alive_at = kept[2]" in line)

    def local(frame: Any, event: str, arg: object) -> Any:
        if event == "line" and frame.f_lineno == at and dead not in unit.models:
            unit.models.insert(0, dead)
        return local

    def tracer(frame: Any, event: str, arg: object) -> Any:
        return local if frame.f_code.co_name == "alive_models" else None

    sys.settrace(tracer)
    try:
        got = unit.alive_models
    finally:
        sys.settrace(None)
    assert unit.models[0] is dead
    assert [m.id for m in got] == ["m0", "m2"]
    assert unit.alive_models == [m for m in unit.models if m.wounds_left > 0]
