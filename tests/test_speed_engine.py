"""The engine's cheaper resolution gives the answers of the plain computations it replaces.

Each quicker path is held to the slow definition it stands for, written out
here: the memo's keys to the recursive definition of a question, the
vectorised blast and template test to shapely's one base at a time, the
remembered base radius and hashes to the datasheet's numbers (and a Waffle weapon
profile's to the hash of its fields), and the closest model
a wound goes to, the models that fight and those in sight to a plain scan of
the models, pair by pair; the models a shooting attack fires, found before the
weapon decision, to those found after it.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import pkgutil
import random
from collections import Counter
from collections.abc import Hashable, Mapping
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from hammerlab.analysis.battles import prepare
from hammerlab.analysis.game import Game
from hammerlab.editions.waffle import shooting
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.combat import CONTACT, ENGAGED_SUPPORT, engaged_models
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.state import SHOOTING_RECORD, WaffleStatus, st
from hammerlab.editions.waffle.visibility import model_sees, seen_among
from hammerlab.engine import memo
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.datasheet import Datasheet, Profile, Weapon
from hammerlab.engine.dice import Dice
from hammerlab.engine.geometry import (
    MM_PER_INCH,
    TEMPLATE_LENGTH,
    base_distance,
    blast_marker,
    flame_template,
    nearest,
    segment_point_distance,
    touched,
    touched_by_marker,
)
from hammerlab.engine.units import Model, Unit, UnitStatus
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _question(value: object) -> Hashable:
    """The memo's definition of a question, one call per value (its module docstring):
    hashable values as themselves, lists and tuples by their items, mappings by their
    sorted contents, other objects by identity (their ids)."""
    if isinstance(value, list | tuple):
        return tuple(_question(v) for v in value)
    if isinstance(value, Mapping):
        return ("mapping", tuple(sorted((k, _question(v)) for k, v in value.items())))
    if type(value).__hash__ is None:
        return id(value)
    return value  # type: ignore[return-value]


def test_the_memo_keys_arguments_as_the_recursive_definition_does() -> None:
    profile = Profile("Marine", {"W": "1"})
    model = Model("m1", profile, (), (1.0, 2.0))
    weapon = Weapon("Boltgun", {"Range": "24"})
    spent: Counter[str] = Counter({"m1": 1, "m2": 0})
    cases: list[tuple[object, ...]] = [
        (),
        (model,),
        (model, "Boltgun", 3, 2.5, None, True),
        (profile, weapon, (model, [model, 1]), [("a", 1), ("b", 2)]),
        (spent, {"x": model}, Counter()),
        ([[model], (weapon,)], frozenset({"Fleet"})),
    ]

    def asked(*args: Hashable, **kwargs: Hashable) -> int:
        return len(args)

    def questions() -> list[Hashable]:
        answers = memo._answers.get()
        assert answers is not None
        return list(answers)

    remembered = memo.per_decision(asked)
    memo.REMEMBERED.remove(asked)  # its parameters take anything: not one of the package's
    for args in cases:
        assert memo._key(args) == _question(args)
        assert memo._key(list(args)) == _question(args)
        with memo.decision_scope():  # the question per_decision asks: the function first
            remembered(*args)
            assert questions() == [(asked, *_question(args))]
        with memo.decision_scope():  # keyword arguments: a pair, its second their items
            remembered(*args, at=model, by=2)
            want = (_question(args), (("at", id(model)), ("by", 2)))
            assert questions() == [((asked, *want[0]), want[1])]
    assert memo._key((model,)) != memo._key((Model("m1", profile, (), (1.0, 2.0)),))


def test_no_remembered_function_takes_both_objects_and_numbers_in_one_parameter() -> None:
    """The memo keys an object by its bare id (``memo.per_decision``'s question): sound while no
    parameter of a remembered function may be given a number in one call and an object
    in another. Every module of the package imported, every remembered function's
    parameters are read as annotated: one that may take a number takes nothing but
    numbers, strings and None (and none is annotated ``object`` or ``Any``)."""
    import hammerlab

    for found in pkgutil.walk_packages(hammerlab.__path__, "hammerlab."):
        importlib.import_module(found.name)
    numbers, plain = {"int", "float", "bool"}, {"int", "float", "bool", "str", "None"}
    read = 0
    for function in memo.REMEMBERED:
        for name, parameter in inspect.signature(function).parameters.items():
            annotation = parameter.annotation
            text = annotation if isinstance(annotation, str) else annotation.__name__
            kinds = {kind.strip() for kind in text.split("|")}
            where = f"{function.__module__}.{function.__qualname__}({name}: {text})"
            assert not kinds & {"object", "Any"}, where
            assert not kinds & numbers or kinds <= plain, where
            read += 1
    assert len(memo.REMEMBERED) >= 15 and read > 40  # the Waffle AI's estimates among them


def test_state_of_play_sees_every_field_of_a_model_and_of_a_units_status() -> None:
    path = ROOT / "examples" / "guard_suppress_terminators.toml"
    battle = Game.start(load_scenario(path), str(path), 1).battle
    unit = next(iter(battle.units.values()))
    model = unit.models[0]
    changes = {
        "id": "renamed",
        "position": (0.25, 0.25),
        "wounds_left": model.wounds_left + 1,
        "weapons": (),
        "rules": ("Fleet",),
        "powers": (Weapon("Smite", {"Range": "12"}),),
        "base_mm": 60.0,
        "profile": dataclasses.replace(model.profile, name="Changed"),
    }
    for name, value in changes.items():
        before = memo.state_of_play(battle)
        kept = getattr(model, name)
        setattr(model, name, value)
        assert memo.state_of_play(battle) != before, name
        setattr(model, name, kept)
        assert memo.state_of_play(battle) == before, name
    for name in UnitStatus.__slots__:
        before = memo.state_of_play(battle)
        setattr(unit.status, name, not getattr(unit.status, name))
        assert memo.state_of_play(battle) != before, name
        setattr(unit.status, name, not getattr(unit.status, name))
    # The Waffle status: every field but the shooting record (test_speed_caches.py).
    status = st(battle, unit)
    for field in dataclasses.fields(WaffleStatus):
        if field.name in SHOOTING_RECORD:
            continue
        before = memo.state_of_play(battle)
        kept = getattr(status, field.name)
        changed = not kept if isinstance(kept, bool) else "x" if kept is None else kept + 1
        setattr(status, field.name, changed)
        assert memo.state_of_play(battle) != before, field.name
        setattr(status, field.name, kept)
        assert memo.state_of_play(battle) == before, field.name


def _bases(rng: random.Random, count: int) -> list[Model]:
    """Models on a small area, on whole and half inches (so bases touch exactly at times),
    of the common base sizes."""
    return [
        Model(
            f"m{i}",
            Profile("Marine", {"W": "1"}),
            (),
            (rng.randint(0, 16) / 2, rng.randint(0, 16) / 2),
            base_mm=rng.choice((25.0, 32.0, 40.0, 60.0)),
        )
        for i in range(count)
    ]


def _circle(model: Model) -> BaseGeometry:
    """The model's base as a shapely circle, one at a time (as ``touched`` once built it)."""
    return Point(model.position).buffer(model.radius, quad_segs=16)


def test_touched_finds_the_bases_shapely_finds_one_at_a_time() -> None:
    rng = random.Random(14)
    found = 0
    for _ in range(300):
        models = _bases(rng, rng.randint(0, 12))
        centre = (rng.randint(0, 16) / 2, rng.randint(0, 16) / 2)
        for shape in (
            blast_marker(centre, 3.0),
            blast_marker(centre, 5.0),
            flame_template(centre, (rng.uniform(0, 8), rng.uniform(0, 8))),
        ):
            one_at_a_time = [m for m in models if shape.intersects(_circle(m))]
            assert touched(shape, models) == one_at_a_time
            assert touched(shape, iter(models)) == one_at_a_time  # any iterable of models
            found += len(one_at_a_time)
    assert found > 0


def test_a_marker_touches_by_distance_the_bases_shapely_finds_under_it() -> None:
    """Bases placed at random, and at the edge of the marker's reach where the
    64-gons and the circles part (a thousandth of the reach either side), found
    as shapely finds them one at a time."""
    rng = random.Random(16)
    near_edge = found = 0
    for _ in range(400):
        centre = (rng.uniform(10, 60), rng.uniform(10, 40))
        diameter = rng.choice((3.0, 5.0, 7.0))
        models = _bases(rng, rng.randint(0, 10))
        for i in range(rng.randint(1, 8)):
            base = Model(
                f"e{i}", Profile("Edge", {"W": "1"}), (), (0.0, 0.0),
                base_mm=rng.choice((25.0, 32.0, 40.0, 60.0)),
            )  # fmt: skip
            reach = (diameter / 2 + base.radius) * rng.uniform(0.998, 1.001)
            angle = rng.uniform(0, 2 * math.pi)
            base.position = (
                centre[0] + reach * math.cos(angle),
                centre[1] + reach * math.sin(angle),
            )
            models.append(base)
            near_edge += 1
        marker = blast_marker(centre, diameter)
        one_at_a_time = [m for m in models if marker.intersects(_circle(m))]
        assert touched_by_marker(centre, diameter, models) == one_at_a_time
        found += len(one_at_a_time)
    assert near_edge > 1000 and 0 < found < near_edge + 400 * 10


def test_a_base_or_a_marker_of_no_size_is_touched_as_shapely_finds_it() -> None:
    # A base of 0 mm is an empty polygon to shapely: under the marker's centre, untouched.
    point = Model("p", Profile("Point", {"W": "1"}), (), (10.0, 10.0), base_mm=0.0)
    wide = Model("w", Profile("Wide", {"W": "1"}), (), (10.5, 10.0), base_mm=32.0)
    assert touched(blast_marker((10.0, 10.0), 3.0), [point, wide]) == [wide]
    assert touched_by_marker((10.0, 10.0), 3.0, [point, wide]) == [wide]
    assert touched_by_marker((10.0, 10.0), 0.0, [wide]) == touched(
        blast_marker((10.0, 10.0), 0.0), [wide]
    )


def test_markers_and_templates_are_the_shapes_shapely_s_geometry_classes_build() -> None:
    """Built by shapely's vectorised functions, a blast marker and a template keep
    every coordinate of the circle (and of the union) the geometry classes built."""
    rng = random.Random(15)
    for _ in range(200):
        centre = (rng.uniform(0, 72), rng.uniform(0, 48))
        for diameter in (3.0, 5.0, 7.0):
            expected = Point(centre).buffer(diameter / 2.0, quad_segs=16)
            assert blast_marker(centre, diameter).equals_exact(expected, tolerance=0.0)
        toward = (rng.uniform(0, 72), rng.uniform(0, 48))
        angle = math.atan2(toward[1] - centre[1], toward[0] - centre[0])
        ux, uy = math.cos(angle), math.sin(angle)
        reach = TEMPLATE_LENGTH - 1.0
        bulb = Point(centre[0] + ux * reach, centre[1] + uy * reach).buffer(1.0, quad_segs=16)
        body = Polygon(
            [
                (centre[0] - uy * 0.2, centre[1] + ux * 0.2),
                (centre[0] + ux * reach - uy, centre[1] + uy * reach + ux),
                (centre[0] + ux * reach + uy, centre[1] + uy * reach - ux),
                (centre[0] + uy * 0.2, centre[1] - ux * 0.2),
            ]
        )
        assert flame_template(centre, toward).equals_exact(body.union(bulb), tolerance=0.0)


def test_a_models_radius_is_its_base_in_inches_and_a_copy_with_another_base_has_its_own() -> None:
    model = Model("m", Profile("Marine", {"W": "1"}), (), (0.0, 0.0), base_mm=32.0)
    assert model.radius == 32.0 / MM_PER_INCH / 2.0
    bigger = dataclasses.replace(model, base_mm=60.0)
    assert bigger.radius == 60.0 / MM_PER_INCH / 2.0
    assert model.radius == 32.0 / MM_PER_INCH / 2.0


def test_profiles_and_weapons_hash_by_value_and_a_changed_copy_by_its_own_value() -> None:
    marine = Profile("Marine", {"WS": "4", "T": "4"}, keywords=frozenset({"INFANTRY"}))
    same = Profile("Marine", {"T": "4", "WS": "4"}, keywords=frozenset({"INFANTRY"}))
    assert hash(marine) == hash(same) == hash(marine)  # asked twice: the same answer
    changed = dataclasses.replace(marine, characteristics={"WS": "5", "T": "4"})
    assert hash(changed) == hash(Profile("Marine", {"WS": "5", "T": "4"}, keywords=marine.keywords))
    assert {marine: 1, same: 2} == {marine: 2}
    bolter = Weapon("Boltgun", {"Range": "24", "S": "4"}, ("Rapid Fire",))
    again = Weapon("Boltgun", {"S": "4", "Range": "24"}, ("Rapid Fire",))
    assert hash(bolter) == hash(again) == hash(bolter)
    assert {bolter: 1, again: 2} == {bolter: 2}
    # A Waffle weapon profile hashes as its generated hash would: the tuple of its fields.
    read = weapon_of(bolter)
    fresh = weapon_of.__wrapped__(again)
    assert read == fresh and read is not fresh
    generated = hash(tuple(getattr(read, f.name) for f in dataclasses.fields(read)))
    assert hash(read) == hash(fresh) == generated == hash(read)
    assert {read: 1, fresh: 2} == {read: 2}
    heavy = dataclasses.replace(read, shots=3)
    assert hash(heavy) == hash(tuple(getattr(heavy, f.name) for f in dataclasses.fields(heavy)))


def test_a_wound_goes_to_the_model_closest_to_any_firer_the_first_on_a_tie() -> None:
    rng = random.Random(5)
    for _ in range(300):
        firers = _bases(rng, rng.randint(1, 4))
        pool = _bases(rng, rng.randint(1, 8))
        by_hand = min(pool, key=lambda m: min(base_distance(f, m) for f in firers))
        assert nearest(firers, pool) is by_hand


def _battle(rng: random.Random) -> Battle:
    """Two units of each of two players close together, on whole and half inches (bases
    touch at times), with a wall that blocks sight across the middle."""
    wall = TerrainArea("wall", ((3.9, 0.0), (4.1, 0.0), (4.1, 6.0), (3.9, 6.0)), blocks_sight=True)
    sheet = Datasheet("Squad", "army", "waffle", ())
    units = {
        uid: Unit(uid, "Squad", player, sheet, _bases(rng, rng.randint(1, 6)))
        for uid, player in (("a", "one"), ("b", "one"), ("c", "two"), ("d", "two"))
    }
    for unit in units.values():
        for model in unit.models:
            model.id = f"{unit.id}.{model.id}"
    return Battle(
        Battlefield(12.0, 12.0, (wall,)), (Player("one"), Player("two")), units, Dice(1), "waffle"
    )


def test_the_models_that_fight_are_those_in_contact_or_near_a_friend_in_contact() -> None:
    rng = random.Random(9)
    fighting = 0
    for _ in range(150):
        battle = _battle(rng)
        for unit in battle.units.values():
            enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
            touching = [
                m for m in unit.alive_models if any(base_distance(m, e) <= CONTACT for e in enemies)
            ]
            by_hand = [
                m
                for m in unit.alive_models
                if any(m is t for t in touching)
                or any(base_distance(m, t) <= ENGAGED_SUPPORT for t in touching)
            ]
            assert engaged_models(battle, unit) == by_hand
            fighting += len(by_hand)
    assert fighting > 0


def test_the_models_in_sight_are_those_some_looker_sees_pair_by_pair() -> None:
    rng = random.Random(11)
    hidden = 0
    for _ in range(150):
        battle = _battle(rng)
        lookers, models = battle.units["a"].models, battle.units["c"].models
        by_hand = [m for m in models if any(model_sees(battle, f, m) for f in lookers)]
        assert seen_among(battle, lookers, models) == by_hand
        hidden += len(models) - len(by_hand)
    assert hidden > 0  # the wall hides some


def test_distances_are_the_floats_of_their_definitions_with_min_and_max() -> None:
    rng = random.Random(21)
    points = [(rng.randint(-4, 4) / 2, rng.randint(-4, 4) / 2) for _ in range(40)]
    points += [(rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(40)]
    for _ in range(3000):
        start, end, point = rng.choice(points), rng.choice(points), rng.choice(points)
        dx, dy = end[0] - start[0], end[1] - start[1]
        if dx * dx + dy * dy == 0.0:
            by_hand = math.hypot(start[0] - point[0], start[1] - point[1])
        else:
            t = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / (dx * dx + dy * dy)
            t = min(1.0, max(0.0, t))
            foot = (start[0] + t * dx, start[1] + t * dy)
            by_hand = math.hypot(foot[0] - point[0], foot[1] - point[1])
        assert segment_point_distance(start, end, point) == by_hand
        a, b = _bases(rng, 2)
        gap = math.hypot(a.position[0] - b.position[0], a.position[1] - b.position[1])
        assert base_distance(a, b) == max(0.0, gap - a.radius - b.radius)


@pytest.mark.parametrize(
    "example",
    [
        "guard_suppress_terminators.toml",
        "whole_game_three_turns.toml",
        "blast_and_template_blob.toml",
    ],
)
def test_a_weapon_chosen_fires_the_models_found_able_before_the_choice(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    """The shooting attack hands the weapon's firing models, found before the weapon
    decision, to ``fire_weapon``: at every volley they are what ``firing_models``
    gives then, after the decision."""
    fire = fire_weapon
    checked: list[str] = []

    def checking(
        battle: Battle,
        unit: Unit,
        target: Unit,
        name: str,
        orders: FireOrders,
        spent: Counter[str] | None = None,
        able: list[Model] | None = None,
    ) -> VolleyResult:
        assert able == firing_models(battle, unit, target, name, orders, spent)
        checked.append(name)
        return fire(battle, unit, target, name, orders, spent, able)

    monkeypatch.setattr(shooting, "fire_weapon", checking)
    path = ROOT / "examples" / example
    for seed in (1, 2):
        Game.start(load_scenario(path), str(path), seed).play()
    assert checked


def test_each_battle_has_its_own_table_for_threads_to_play_apart() -> None:
    # GEOS prepared polygons (an area's shape) are not safe to use from two threads
    # at once, and shapely lets go of the GIL while it tests them: a server or a
    # threaded Dask worker playing battles of one scenario at once crashed on a
    # sight-blocking ruin that is not a rectangle when the battles shared a table.
    ruins = ROOT / "examples" / "marines_vs_orks_ruins.toml"
    scenario = load_scenario(ruins)
    one, two = (prepare(scenario, str(ruins), seed).battle.battlefield for seed in (1, 2))
    assert one == two and one is not two
    assert all(a.shape is not b.shape for a, b in zip(one.terrain, two.terrain, strict=True))
