"""core11's speed-ups change how fast an answer comes, never the answer.

Each mechanism is held to the rule's plain reading, measured model by model
with the engine's own ``base_distance`` and ``can_see``: engagement (03.04,
every pair of models within 2"), the distance between units, sight, cover
(13.08), the models that may attack (04.02), a move's longest allowed part
(09.05), and the cached typed views against a fresh read. Layouts are drawn
by seeded random generators (bounded, the same on every run); whole example
battles are played with every cache emptied first and warm, and must log the
same.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable
from math import inf
from pathlib import Path

import pytest
from core11_kit import battle, game, gun, library_unit, place, ruleset, sheet

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.core11 import (
    abilities,
    attacks,
    movement,
    odds,
    positions,
    profiles,
    rolls,
    weapons,
)
from hammerlab.editions.core11.attacks import Battery, situations_for
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.movement import ends_unengaged, move_toward
from hammerlab.editions.core11.positions import (
    COVER_KINDS,
    ENGAGEMENT_RANGE,
    engaged_with,
    engagements,
    has_cover,
    is_engaged,
    seeing,
    unit_distance,
)
from hammerlab.editions.core11.profiles import (
    defence_of,
    is_monster_or_vehicle,
    model_keywords,
    unit_defence,
    unit_keywords,
)
from hammerlab.editions.core11.rolls import Situation, attack_profile
from hammerlab.editions.core11.shooting import SHOOTING_TYPES
from hammerlab.editions.core11.volley import _close_and_other, armed, attackers
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.moves import longest_allowed, path_clear, toward
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(12)

RUIN = TerrainArea("Ruin", ((20.0, 14.0), (34.0, 14.0), (34.0, 22.0), (20.0, 22.0)), cover_save=5)
WALL = TerrainArea(
    "Wall", ((36.0, 10.0), (37.0, 10.0), (37.0, 30.0), (36.0, 30.0)), blocks_sight=True
)


def _scatter(seed: int, terrain: tuple[TerrainArea, ...] = ()) -> Battle:
    """Four units (two a side, 1 to 5 models on 25, 32 or 40 mm bases, some of them
    VEHICLEs) dropped at random in a 30" x 24" corner, so that some stand within 2"."""
    draw = random.Random(seed)
    units = []
    for index, player in enumerate(("A", "B", "A", "B")):
        kinds = ("VEHICLE",) if draw.random() < 0.25 else ("INFANTRY",)
        made = place(
            f"u{index}",
            sheet(f"Squad {index}", draw.randint(1, 5), [gun()], keywords=kinds),
            player,
            (0.0, 0.0),
        )
        for model in made.models:
            model.position = (draw.uniform(10.0, 40.0), draw.uniform(8.0, 32.0))
            model.base_mm = draw.choice((25.0, 32.0, 40.0))
        units.append(made)
    return battle(units, terrain=terrain)


def _changes(fight: Battle, seed: int) -> list[Callable[[], None]]:
    """A move of one model, the loss of another, and a third taken out of its unit's
    list (no field of any model set: a change of the unit's make-up alone): what the
    caches must notice."""
    draw = random.Random(seed + 1000)
    models = [m for u in fight.units.values() for m in u.models]
    mover, casualty, leaver = draw.sample(models, 3)
    owner = next(u for u in fight.units.values() if leaver in u.models)

    def move() -> None:
        mover.position = (mover.position[0] + draw.uniform(-3.0, 3.0), mover.position[1] + 1.0)

    def kill() -> None:
        casualty.wounds_left = 0

    def leave() -> None:
        owner.models.remove(leaver)

    return [move, kill, leave]


def _pairwise_engaged(fight: Battle, unit: Unit) -> list[Unit]:
    """03.04, read plainly: the enemy units with a model within 2" of one of ``unit``'s."""
    return [
        enemy
        for enemy in fight.enemies_of(unit)
        if any(
            base_distance(m, e) <= ENGAGEMENT_RANGE
            for m in unit.alive_models
            for e in enemy.alive_models
        )
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_engagement_is_any_pair_of_models_within_2_inches_and_follows_the_table(seed: int) -> None:
    fight = _scatter(seed)
    for change in [lambda: None, *_changes(fight, seed)]:
        change()
        for unit in fight.units.values():
            plain = _pairwise_engaged(fight, unit)
            assert engaged_with(fight, unit) == plain
            assert is_engaged(fight, unit) == bool(plain)
            assert list(engagements(fight).get(unit.id, ())) == [u.id for u in plain]


@pytest.mark.parametrize("seed", SEEDS)
def test_unit_distance_is_the_least_base_distance_and_follows_the_table(seed: int) -> None:
    fight = _scatter(seed)
    units = list(fight.units.values())
    for change in [lambda: None, *_changes(fight, seed)]:
        change()
        for a in units:
            for b in units:
                pairs = [base_distance(m, e) for m in a.alive_models for e in b.alive_models]
                assert unit_distance(a, b) == min(pairs, default=float("inf"))


def _plain_cover(fight: Battle, shooter: Model, unit: Unit) -> bool:
    """13.08 as hammerlab reads it (``has_cover``'s docstring), with shapely's own
    ``contains`` for each area."""
    field = fight.battlefield

    def covered(target: Model) -> bool:
        inside = [
            a for a in field.terrain if a.cover_save is not None and a.contains(target.position)
        ]
        if inside and COVER_KINDS & model_keywords(unit, target):
            return True
        return any(
            not area.contains(target.position)
            for area in field.cover_between(shooter.position, target.position)
        )

    models = unit.alive_models
    return bool(models) and all(covered(m) for m in models)


@pytest.mark.parametrize("seed", SEEDS)
def test_cover_and_sight_answer_for_each_shooter_as_one_model_at_a_time(seed: int) -> None:
    fight = _scatter(seed, terrain=(RUIN, WALL))
    for unit in fight.units.values():
        for target in fight.enemies_of(unit):
            shooters = unit.alive_models
            assert has_cover(fight, shooters, target) == [
                _plain_cover(fight, m, target) for m in shooters
            ]
            plain_sight = [
                any(fight.battlefield.can_see(m.position, t.position) for t in target.alive_models)
                for m in shooters
            ]
            assert seeing(fight, shooters, target) == plain_sight


@pytest.mark.parametrize("seed", SEEDS)
def test_cover_remembered_per_volley_follows_the_table(seed: int) -> None:
    """Cover remembered by the target models' points and each shooter's point answers
    as the rule read anew, asked again and after a model moves and one dies."""
    fight = _scatter(seed, terrain=(RUIN, WALL))
    for change in [lambda: None, lambda: None, *_changes(fight, seed)]:
        change()
        for unit in fight.units.values():
            for target in fight.enemies_of(unit):
                shooters = unit.alive_models
                assert has_cover(fight, shooters, target) == [
                    _plain_cover(fight, m, target) for m in shooters
                ]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "control",
    [FireControl("normal"), FireControl("close-quarters", close_quarters=True)],
    ids=["normal", "close-quarters"],
)
def test_attackers_are_the_models_that_reach_see_and_may_target_one_by_one(
    seed: int, control: FireControl
) -> None:
    """04.02: each model "Visible ... Within range"; engagement as :class:`FireControl` allows."""
    fight = _scatter(seed, terrain=(WALL,))
    played = game(fight)
    for unit in fight.units.values():
        weapon = unit.models[0].weapons[0]
        battery = Battery(weapon, read_weapon(weapon), list(unit.models))
        for target in fight.enemies_of(unit):
            ours = {u.id for u in _pairwise_engaged(fight, unit)}
            plain = [
                m
                for m in unit.models
                if m.alive
                and min(base_distance(m, t) for t in target.alive_models) <= battery.profile.range
                and any(
                    fight.battlefield.can_see(m.position, t.position) for t in target.alive_models
                )
                and control.target_allowed(
                    is_monster_or_vehicle(m, unit),
                    battery.profile,
                    target.id in ours,
                    bool(_pairwise_engaged(fight, target)),
                    bool({"MONSTER", "VEHICLE"} & unit_keywords(target)),
                )
            ]
            assert attackers(played, unit, battery.models, battery, target, control) == plain


@pytest.mark.parametrize("seed", SEEDS)
def test_the_lines_kept_while_units_stand_still_answer_as_the_table_read_anew(seed: int) -> None:
    """A unit's lines to a target (``positions.sightlines``, kept while the two units
    stand still: ``positions._drawn``) give the attackers (04.02), each attack's half
    range and cover (13.08) and the units' distance as the rule read model by model,
    and the target's estimated defence as read anew, asked again and after a model
    moves, one dies, one leaves its unit's list and a unit is given copies of its
    models."""
    fight = _scatter(seed, terrain=(RUIN, WALL))
    played = game(fight)
    control = FireControl("normal")
    copied = next(iter(fight.units.values()))

    def copy_models() -> None:  # equal models, not the same objects: no model edited
        copied.models = [copy.copy(m) for m in copied.models]

    for change in [lambda: None, lambda: None, *_changes(fight, seed), copy_models]:
        change()
        for unit in fight.units.values():
            weapon = unit.models[0].weapons[0]
            profile = read_weapon(weapon)
            battery = Battery(weapon, profile, list(unit.models))
            for target in fight.enemies_of(unit):
                firing = attackers(played, unit, battery.models, battery, target, control)
                reach = {
                    m.id: min((base_distance(m, t) for t in target.alive_models), default=inf)
                    for m in unit.alive_models
                }
                seen = [
                    m
                    for m in unit.alive_models
                    if reach[m.id] <= profile.range
                    and any(
                        fight.battlefield.can_see(m.position, t.position)
                        for t in target.alive_models
                    )
                ]
                assert {m.id for m in firing} <= {m.id for m in seen}
                if not _pairwise_engaged(fight, target):  # nothing but range and sight
                    assert firing == seen
                situations = situations_for(
                    played, unit, firing, profile, target, control, len(target.alive_models)
                )
                assert [(s.half_range, s.cover) for s in situations] == [
                    (reach[m.id] <= profile.range / 2, _plain_cover(fight, m, target))
                    for m in firing
                ]
                lines = positions.sightlines(fight, unit, target)
                assert lines.nearest == min(reach.values(), default=inf)
                if target.alive_models:
                    assert lines.defence == profiles.estimated_defence(target)


def _plain_move(
    fight: Battle, unit: Unit, goal: tuple[float, float], distance: float
) -> tuple[float, float]:
    """09.05's longest move with every model of the table measured at every step."""
    blocking = [
        m for other in fight.units.values() if other is not unit for m in other.alive_models
    ]

    def allowed(vector: tuple[float, float]) -> bool:
        return ends_unengaged(fight, unit, vector) and path_clear(
            fight, unit.alive_models, vector, blocking
        )

    return longest_allowed(toward(unit, goal, distance), allowed)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_move_goes_as_far_as_with_every_model_measured(seed: int) -> None:
    """09.05: "Your unit must be unengaged" after the move, and no base crossed; the
    same move asked again (its last answer given again on the same table:
    ``movement.move_toward``) after a model moves, one dies and one leaves its unit's
    list is the move on the table as it stands."""
    fight = _scatter(seed)
    played = game(fight)
    draw = random.Random(seed + 2000)
    asked = [
        (unit, (draw.uniform(0.0, 60.0), draw.uniform(0.0, 40.0)), draw.uniform(1.0, 12.0))
        for unit in fight.units.values()
    ]
    for change in [lambda: None, *_changes(fight, seed)]:
        change()
        for unit, goal, distance in asked:
            if unit.destroyed:  # no move to ask of it
                continue
            for _ in range(2):
                moved = move_toward(played, unit, goal, distance)
                assert moved == _plain_move(fight, unit, goal, distance)
    unit, goal, distance, moved = next(
        (u, g, d, moved)
        for u, g, d in asked
        if not u.destroyed and (moved := move_toward(played, u, g, d)) != (0.0, 0.0)
    )
    stand_in = next(m for e in fight.enemies_of(unit) for m in e.alive_models)
    lead = unit.alive_models[0]
    stand_in.position = (lead.position[0] + moved[0], lead.position[1] + moved[1])
    assert move_toward(played, unit, goal, distance) == _plain_move(fight, unit, goal, distance)
    assert _plain_move(fight, unit, goal, distance) != moved  # an enemy where it would end


def test_a_situation_keeps_the_hash_of_its_fields() -> None:
    """A situation's kept hash is the hash of its fields' values, the same for an
    equal situation made anew, whatever was asked first; situations that differ in any
    one field are told apart."""
    names = [f.name for f in dataclasses.fields(Situation)]
    for index, name in enumerate(names):
        changed = {name: 5} if name == "target_models" else {name: True}
        made = Situation(**changed)
        values = tuple(getattr(Situation(), n) for n in names)
        values = (*values[:index], changed[name], *values[index + 1 :])
        assert hash(made) == hash(values) == hash(Situation(**changed)) == hash(made)
        assert made != Situation() and hash(made) != hash(Situation())


def test_the_cached_views_answer_as_a_fresh_read() -> None:
    """Typed views cached by immutable profiles and weapons are what reading anew gives."""
    boyz = library_unit("b", "Boyz", "B", (10.0, 10.0))
    marines = library_unit("m", "Intercessor Squad", "A", (10.0, 30.0))
    for unit in (boyz, marines):
        for model in unit.models:
            assert defence_of(model.profile) == defence_of.__wrapped__(model.profile)
            assert model_keywords(unit, model) == frozenset(
                k.upper() for k in (*unit.datasheet.keywords, *model.profile.keywords)
            )
        kinds = {k.upper() for k in unit.datasheet.keywords}
        kinds |= {k.upper() for m in unit.alive_models for k in m.profile.keywords}
        assert unit_keywords(unit) == kinds
        stats = [defence_of.__wrapped__(m.profile) for m in unit.alive_models]
        assert unit_defence(unit) == profiles.DefenceStats(
            toughness=max(s.toughness for s in stats),
            save=stats[0].save,
            wounds=stats[0].wounds,
            invulnerable=stats[0].invulnerable,
            ranged_invulnerable=stats[0].ranged_invulnerable,
            keywords=frozenset(kinds),
        )
        for weapon in {w for m in unit.models for w in m.weapons}:
            profile = read_weapon(weapon)
            assert hash(profile) == hash(read_weapon.__wrapped__(weapon))
            assert profile.keyword_names == {k.name for k in profile.keywords}
            for situation in (
                Situation(),
                Situation(half_range=True, cover=True, target_models=10),
            ):
                target = unit_defence(boyz if unit is marines else marines)
                cached = attack_profile(profile, target, situation)
                assert cached == attack_profile.__wrapped__(profile, target, situation)


def test_a_datasheet_read_once_shares_its_equal_weapons_and_equals_the_dataset() -> None:
    """The Intercessors' sergeant and troopers carry equal bolt pistols: one object."""
    name = "Intercessor Squad"
    sheet_read = ruleset().find_unit(name)
    assert sheet_read == ruleset().library.datasheet(name)
    assert ruleset().find_unit(f"  {name.upper()} ") is sheet_read
    carried = [w for entry in sheet_read.entries for w in entry.weapons]
    for a in carried:
        for b in carried:
            assert (a is b) == (a == b)
    assert len(carried) > len({id(w) for w in carried})


def _empty_caches() -> None:
    """Forget every answer core11's caches remember."""
    for cached in (
        abilities._reading,
        positions._engagements,
        positions._closest_gap,
        positions._cover_against,
        profiles.defence_of,
        profiles.movement_of,
        profiles._upper_union,
        profiles._unit_defence,
        profiles._big,
        profiles._estimated_defence,
        attacks._situation,
        rolls.attack_profile,
        weapons.read_weapon,
        odds.kill_odds,
    ):
        cached.cache_clear()
    positions._LAST.asked = None
    positions._DRAWN.clear()
    movement._LAST_MOVE.asked = None
    positions._PLACED.clear()


@pytest.mark.parametrize(
    "name", ["core11_whole_turn.toml", "core11_ruling_ranged_attack.toml", "core11_whole_game.toml"]
)
def test_an_example_logs_the_same_with_every_cache_empty_or_warm(name: str) -> None:
    path = ROOT / "examples" / name
    scenario = load_scenario(path)

    def log() -> str:
        ready = prepare(scenario, str(path), seed=2)
        play(ready.battle, ready.ruleset, ready.plan)
        return ready.battle.log.json_lines()

    _empty_caches()
    cold = log()
    assert log() == cold


def _mixed_squad(uid: str, player: str) -> Unit:
    """A unit of three kinds of model: a sergeant (a [CLOSE-QUARTERS] pistol, a rifle,
    a [ONE SHOT] grenade, a knife), four troopers (rifle and pistol) and a VEHICLE
    drone (a [HEAVY] cannon and an [INDIRECT FIRE] mortar); the fourth trooper
    carries an equal but separately made tuple of equal weapons."""
    pistol = gun("pistol", 12, keywords=["CLOSE-QUARTERS"])
    rifle = gun("rifle", 24, keywords=["ASSAULT"])
    grenade = gun("grenade", 8, keywords=["ONE SHOT", "BLAST"])
    knife = Weapon("knife", {"Range": "Melee", "A": "2", "WS": "3+", "S": "4", "AP": "0", "D": "1"})
    cannon = gun("cannon", 36, keywords=["HEAVY"])
    mortar = gun("mortar", 48, keywords=["INDIRECT FIRE"])

    def profile(name: str, kinds: frozenset[str]) -> Profile:
        stats = {"M": '6"', "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "1"}
        return Profile(name, stats, keywords=kinds)

    entries = (
        ModelEntry(
            profile("Sergeant", frozenset({"INFANTRY"})), 1, (pistol, rifle, grenade, knife)
        ),
        ModelEntry(profile("Trooper", frozenset({"INFANTRY"})), 3, (rifle, pistol)),
        ModelEntry(profile("Drone", frozenset({"VEHICLE"})), 1, (cannon, mortar)),
    )
    squad = place(uid, Datasheet("Mixed Squad", "test", "core11", entries), player, (10.0, 10.0))
    last = squad.models[3]
    last.weapons = (
        gun("rifle", 24, keywords=["ASSAULT"]),
        gun("pistol", 12, keywords=["CLOSE-QUARTERS"]),
    )
    return squad


def _plain_armed(
    unit: Unit, control: FireControl, spent: set[tuple[str, str]]
) -> list[tuple[str, list[tuple[str, object]]]]:
    """Each model alive with the ranged weapons it may select, read model by model: its
    weapons read anew, MONSTER/VEHICLE from its keywords, [ONE SHOT] ones it fired left out."""
    found = []
    for model in unit.alive_models:
        kinds = {k.upper() for k in (*unit.datasheet.keywords, *model.profile.keywords)}
        big = bool(kinds & {"MONSTER", "VEHICLE"})
        usable = []
        for weapon in model.weapons:
            profile = read_weapon.__wrapped__(weapon)
            if profile.melee or (model.id, profile.group) in spent:
                continue
            if control.weapon_allowed(big, profile):
                usable.append((weapon.name, profile))
        found.append((model.id, usable))
    return found


@pytest.mark.parametrize("shooting", SHOOTING_TYPES, ids=lambda t: t.name)
def test_the_weapons_read_once_per_kind_of_model_are_each_models_own(shooting: object) -> None:
    """04.01: each model selects among its own ranged weapons, as the shooting type
    allows (10.05 [ASSAULT] only; 10.06 [CLOSE-QUARTERS] only but for MONSTER/VEHICLE
    models); a [ONE SHOT] weapon a model fired is not selected again; read per kind
    of model, the answer is each model's, before and after the sergeant fires its
    grenade and a trooper dies."""
    control = shooting.control  # type: ignore[attr-defined]
    squad = _mixed_squad("m", "A")
    played = game(battle([squad, place("e", sheet("Foes", 3), "B", (10.0, 30.0))]))

    def named() -> list[tuple[str, list[tuple[str, object]]]]:
        return [(m.id, [(w.name, p) for w, p in c]) for m, c in armed(played, squad, control)]

    assert named() == _plain_armed(squad, control, set())
    played.one_shot_spent.add(("m.1", "grenade"))
    squad.models[2].wounds_left = 0
    assert named() == _plain_armed(squad, control, played.one_shot_spent)


def test_a_models_close_quarters_and_other_weapons_split_as_read_one_by_one() -> None:
    """04.01.02: [CLOSE-QUARTERS] weapons on one side, the other ranged weapons on the
    other; the names of all of them, in the order carried."""
    squad = _mixed_squad("m", "A")
    played = game(battle([squad, place("e", sheet("Foes", 3), "B", (10.0, 30.0))]))
    for _, carried in armed(played, squad, FireControl("normal")):
        close, other, names = _close_and_other(carried)
        assert [w.name for w, _ in close] == [
            w.name for w, p in carried if "CLOSE-QUARTERS" in {k.name for k in p.keywords}
        ]
        assert [w.name for w, _ in other] == [
            w.name for w, p in carried if "CLOSE-QUARTERS" not in {k.name for k in p.keywords}
        ]
        assert names == tuple(w.name for w, _ in carried)


def test_monster_or_vehicle_cached_by_keyword_sets_is_each_models_keywords() -> None:
    """A model is a MONSTER/VEHICLE by its profile's or its unit's keywords, in any case."""
    squad = _mixed_squad("m", "A")
    walker = place("w", sheet("Walker", 2, keywords=("vehicle", "Walker")), "A", (40.0, 10.0))
    boyz = library_unit("b", "Boyz", "B", (10.0, 30.0))
    for unit in (squad, walker, boyz):
        for model in unit.models:
            kinds = {k.upper() for k in (*unit.datasheet.keywords, *model.profile.keywords)}
            assert is_monster_or_vehicle(model, unit) == bool(kinds & {"MONSTER", "VEHICLE"})
    assert [is_monster_or_vehicle(m, squad) for m in squad.models] == [False] * 4 + [True]
    assert all(is_monster_or_vehicle(m, walker) for m in walker.models)


def test_whether_the_target_is_spotted_changes_indirect_attacks_alone() -> None:
    """10.07's "visible to one or more units" (1-3 fail rather than 1-5) is the only
    rule that reads it: ``situations_for`` asks it for [INDIRECT FIRE] attacks only."""
    boyz = library_unit("b", "Boyz", "B", (10.0, 10.0))
    marines = library_unit("m", "Intercessor Squad", "A", (10.0, 30.0))
    mortar = read_weapon(gun("mortar", 48, keywords=["INDIRECT FIRE"]))
    weapons = [read_weapon(w) for u in (boyz, marines) for m in u.models for w in m.weapons]
    for target in (unit_defence(boyz), unit_defence(marines)):
        for weapon in [*weapons, mortar]:
            for stationary in (False, True):
                seen, unseen = (
                    attack_profile.__wrapped__(
                        weapon, target, Situation(stationary=stationary, spotted=spotted)
                    )
                    for spotted in (True, False)
                )
                assert seen == unseen
        indirect = [
            attack_profile.__wrapped__(
                mortar, target, Situation(indirect=True, stationary=True, spotted=spotted)
            ).hit_fails_up_to
            for spotted in (True, False)
        ]
        assert indirect == [3, 5]


def test_an_unengaged_targets_monster_or_vehicle_keywords_change_nothing() -> None:
    """17.03 reads whether an *engaged* target is a MONSTER/VEHICLE unit: for an unengaged
    one, who may target it and the hit roll are the same either way, so
    ``attackers`` and ``situations_for`` read its keywords only when it is engaged."""
    weapons = [
        read_weapon(gun(keywords=kinds))
        for kinds in ((), ("BLAST",), ("CLOSE-QUARTERS",), ("INDIRECT FIRE",), ("ASSAULT",))
    ]
    controls = [t.control for t in SHOOTING_TYPES] + [FireControl("reactive", own_phase=False)]
    for control in controls:
        for weapon in weapons:
            for big in (False, True):
                for engaged in (False, True):
                    allowed = {
                        control.target_allowed(big, weapon, engaged, False, target_big)
                        for target_big in (False, True)
                    }
                    penalty = {
                        control.engaged_target_penalty(weapon, engaged, False, target_big)
                        for target_big in (False, True)
                    }
                    assert len(allowed) == 1 and penalty == {False}


def test_only_a_weapon_with_a_targets_rule_is_limited_in_what_it_may_target() -> None:
    """``eligible_targets`` reads a target's keywords only for a weapon that has a
    ``TARGETS ...`` rule: any other may target any unit."""
    kinds = [frozenset(), frozenset({"MONSTER"}), frozenset({"INFANTRY", "CHARACTER"})]
    plain = [read_weapon(gun(keywords=k)) for k in ((), ("BLAST",), ("ANTI-MONSTER 4+",))]
    for weapon in plain:
        assert not weapon.has("TARGETS")
        assert all(weapon.may_target(k) for k in kinds)
    limited = read_weapon(gun(keywords=["TARGETS MONSTER/VEHICLE ONLY"]))
    assert limited.has("TARGETS")
    assert [limited.may_target(k) for k in kinds] == [False, True, False]
