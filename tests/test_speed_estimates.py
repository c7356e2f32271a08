"""The estimates' quicker paths answer as the loops over the models they replace.

Every fact :func:`memo.per_makeup` remembers (the commonest profile, the majority
Toughness and Weapon Skill, whether a model alive is a vehicle, a gun, a Zooming
Flyer or fast, the unit's move, whether a vehicle's crew fires Snap Shots), inside
a decision scope too, :func:`firepower.shots_of_each`, a shooting attack's expected
casualties (:func:`expected.expected_attack`: its first volley asks no quotas),
:func:`geometry.closest`, :func:`geometry.nearest` and :func:`geometry.nearest_each`,
the units a unit may charge (:func:`charge.charge_targets`: reach asked before
sight), the expected casualties of a volley (To Hit and Strength worked out once
per profile), the distance a charge must cover and the models that fight a charge
(read off the remembered distance tables) and a target's defence (the part that does
not depend on who shoots remembered) are checked against the model-by-model
definitions written out here, at every decision of whole AI battles (models die,
move and change status in them) and on hand-built units whose models die and come
back.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle import expected, shooting_plans
from hammerlab.editions.waffle.artillery import firers, has_gun_alive, is_gun
from hammerlab.editions.waffle.attacks import firing_models, shot_bs
from hammerlab.editions.waffle.charge import charge_distance, charge_targets
from hammerlab.editions.waffle.combat import ENGAGED_SUPPORT
from hammerlab.editions.waffle.estimate import p_hit
from hammerlab.editions.waffle.expected import (
    PLAIN_ORDERS,
    attack_volleys,
    charged_fighters,
    defence_of,
    expected_attack,
    expected_casualties,
    melee_exchange,
    per_marker,
    slain_per_hit,
    would_fire,
)
from hammerlab.editions.waffle.fear import RULE as FEAR
from hammerlab.editions.waffle.fear import majority_weapon_skill, weapon_skill
from hammerlab.editions.waffle.firepower import (
    ranged_weapons,
    shots_of_each,
    weapon_shots,
    weapons_per_phase,
)
from hammerlab.editions.waffle.firing_modes import may_fire, spend
from hammerlab.editions.waffle.flyers import is_zooming, may_be_charged
from hammerlab.editions.waffle.movement import has_fast_model, move_allowance
from hammerlab.editions.waffle.odds import Defence
from hammerlab.editions.waffle.odds_vehicles import hit_value
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.placement import EPSILON
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.rules.reactions import overwatch_orders
from hammerlab.editions.waffle.snap_shots import fires_snap, moved_for_weapons
from hammerlab.editions.waffle.special_rules import feel_no_pain, model_has
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import (
    has_vehicle_alive,
    is_vehicle,
    vehicle_of,
    vehicle_status_now,
    whole_crew_snaps,
)
from hammerlab.editions.waffle.visibility import cover_save, unit_can_see, visible_models, within
from hammerlab.editions.waffle.wounds import (
    majority_toughness,
    majority_value,
    most_common_profile,
    typical_profile,
    weapon_strength,
)
from hammerlab.engine import memo
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, Profile
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.geometry import base_distance, closest, nearest, nearest_each
from hammerlab.engine.units import Model, Unit, models_edited
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = (
    "whole_game_three_turns.toml",
    "guard_suppress_terminators.toml",
    "vehicles_leman_russ.toml",
    "vehicles_tank_shock.toml",
    "vehicles_transport.toml",
    "matchups/carnifex_vs_guard.toml",
)


FAST = ("Jump", "Jet", "Bike", "Beast", "Cavalry")
"""Unit types that move 12" and fall back 3D6" (docs/rules/waffle.md, Move)."""


def _loop_facts(battle: Battle, unit: Unit) -> tuple[object, ...]:
    """The facts as the loops over the unit's models alive work them out."""
    alive = unit.alive_models
    return (
        most_common_profile(m.profile for m in alive),
        majority_value(stats_of(m.profile).t for m in alive),
        majority_value(weapon_skill(battle, unit, m) for m in alive),
        any(vehicle_of(m.profile) is not None for m in alive),
        any(is_gun(m) for m in alive),
        any((v := vehicle_of(m.profile)) is not None and v.has_type("Flyer") for m in alive),
        min(12.0 if any(stats_of(m.profile).has_type(t) for t in FAST) else 6.0 for m in alive),
        any(stats_of(m.profile).has_type(t) for t in FAST for m in alive),
    )


def _makeup_facts(battle: Battle, unit: Unit) -> tuple[object, ...]:
    return (
        typical_profile(unit),
        majority_toughness(unit),
        majority_weapon_skill(battle, unit),
        has_vehicle_alive(unit),
        has_gun_alive(unit),
        is_zooming(unit),
        move_allowance(unit),
        has_fast_model(unit),
    )


def _loop_whole_crew_snaps(battle: Battle, unit: Unit) -> bool:
    models = unit.alive_models
    return bool(models) and all(
        vehicle_of(m.profile) is not None
        and (
            (s := vehicle_status_now(battle, m)).shaken_turns > 0 or s.stunned_turns > 0 or s.rammed
        )
        for m in models
    )


def _loop_casualties(
    battle: Battle, unit: Unit, target: Unit, name: str, orders: FireOrders
) -> float:
    """:func:`expected.expected_casualties` as it was written: every model's shots, To
    Hit and Strength asked of that model."""
    models = firing_models(battle, unit, target, name, orders)
    if not models or target.destroyed:
        return 0.0
    weapon = models[0].weapon(name)
    assert weapon is not None
    profile = weapon_of(weapon)
    if not would_fire(battle, unit, profile, orders):
        return 0.0
    snap = fires_snap(battle, unit, profile, orders, target)
    defence = defence_of(battle, target, models[0])
    twin = profile.has_rule("Twin-linked")
    covered = per_marker(battle, unit, models[0], target, profile, defence.models)
    total = 0.0
    for model in models:
        shots = shots_of(battle, unit, model, profile, target, orders.counts_within)
        hit = 1.0 if profile.template else p_hit(shot_bs(battle, model, snap), twin)
        strength = weapon_strength(battle, unit, model, profile)
        if is_vehicle(target):
            total += shots * hit * covered * hit_value(battle, target, model, profile, strength)
        else:
            total += shots * hit * covered * slain_per_hit(profile, strength, defence)
    return min(total, float(defence.models))


def _loop_defence(
    battle: Battle,
    target: Unit,
    source: Model | None,
    gone_to_ground: bool | None,
    jinking: bool | None,
) -> Defence:
    """:func:`expected.defence_of` as it was written: every field worked out for each
    source, the cover with them."""
    profile = typical_profile(target)
    alive = target.alive_models
    model = next(m for m in alive if m.profile is profile)
    stats = stats_of(profile)
    cover = None
    if source is not None:
        down = st(battle, target).gone_to_ground if gone_to_ground is None else gone_to_ground
        cover = cover_save(battle, source, target, nearest([source], alive), down, jinking)
    return Defence(
        toughness=majority_toughness(target),
        wounds=stats.w,
        models=len(alive),
        save=stats.sv,
        invulnerable=stats.invulnerable,
        cover=cover,
        feel_no_pain=feel_no_pain(target, model),
        eternal_warrior=model_has(target, model, "Eternal Warrior"),
        against_instant_death=feel_no_pain(target, model, instant=True),
    )


def _check_defences(battle: Battle, unit: Unit, target: Unit) -> None:
    """:func:`expected.defence_of` of ``target`` against shots of ``unit``'s first and
    last models (and in close combat), as it stands and asking "what if", against
    its definition, outside a decision scope and inside one (asked twice: the
    defence without cover remembered)."""
    sources = (None, unit.alive_models[0], unit.alive_models[-1])
    asks = [(s, g, j) for s in sources for g in (None, True, False) for j in (None, True)]
    plain = [_loop_defence(battle, target, s, g, j) for s, g, j in asks]
    assert [defence_of(battle, target, s, g, j) for s, g, j in asks] == plain
    with memo.decision_scope():
        for _ in range(2):
            assert [defence_of(battle, target, s, g, j) for s, g, j in asks] == plain


def _loop_attack(battle: Battle, unit: Unit, target: Unit, orders: FireOrders) -> float:
    """:func:`expected.expected_attack` as it was written: every volley's models asked
    whether they may still fire, the first volley's too."""
    volleys = []
    for name in ranged_weapons(unit):
        models = firing_models(battle, unit, target, name, orders)
        if models:
            each = expected_casualties(battle, unit, target, name, orders) / len(models)
            volleys.append((each, name, models))
    volleys.sort(key=lambda v: v[0], reverse=True)
    spent: Counter[str] = Counter()
    expected = 0.0
    for each, name, models in volleys:
        free = [m for m in models if may_fire(spent, unit, m, name, weapons_per_phase(unit, m))]
        expected += each * len(free)
        spend(spent, unit, free, name)
    return min(expected, float(len(target.alive_models)))


def _loop_closest(origin: list[Model], candidates: list[Model]) -> list[Model]:
    """:func:`geometry.closest` by its definition: each candidate's least
    :func:`geometry.base_distance` to a model of ``origin``, a stable sort."""
    return sorted(candidates, key=lambda c: min(base_distance(o, c) for o in origin))


def _loop_fighters(defender: Unit, charger: Unit) -> list[Model]:
    """:func:`expected.charged_fighters` with every distance measured pair by pair."""
    foes = charger.alive_models
    gaps = [(m, min(base_distance(m, f) for f in foes)) for m in defender.alive_models]
    front = min(gap for _, gap in gaps)
    return [m for m, gap in gaps if gap <= front + ENGAGED_SUPPORT + 2 * m.radius]


def _loop_charge_targets(battle: Battle, unit: Unit) -> list[Unit]:
    """:func:`charge.charge_targets` as it was written: sight asked before reach."""
    only = st(battle, unit).shot_target if st(battle, unit).has_shot else None
    reach = battle.settings.number("max_charge_range")
    return [
        enemy
        for enemy in battle.enemies_of(unit)
        if (only is None or enemy.id == only)
        and unit_can_see(battle, unit, enemy)
        and min(base_distance(m, e) for m in unit.alive_models for e in enemy.alive_models)
        <= reach + EPSILON
        and may_be_charged(enemy)
    ]


def _check_pair(battle: Battle, unit: Unit, target: Unit) -> None:
    """The quicker paths between ``unit`` and ``target`` against their definitions."""
    pairs = [base_distance(m, e) for m in unit.alive_models for e in target.alive_models]
    assert charge_distance(unit, target) == min(pairs)
    assert charged_fighters(target, unit) == _loop_fighters(target, unit)
    _check_defences(battle, unit, target)
    for name in ranged_weapons(unit):
        for orders in (FireOrders(), FireOrders(snap=True), overwatch_orders(battle)):
            fast = expected_casualties(battle, unit, target, name, orders)
            assert fast == _loop_casualties(battle, unit, target, name, orders)
    for orders in (FireOrders(), FireOrders(snap=True), overwatch_orders(battle)):
        assert expected_attack(battle, unit, target, orders) == _loop_attack(
            battle, unit, target, orders
        )
    ours, theirs = unit.alive_models, target.alive_models
    for origin in (ours, ours[:1], ours[-1:]):
        assert closest(origin, theirs) == _loop_closest(origin, theirs)
        assert nearest(origin, theirs) is _loop_closest(origin, theirs)[0]
    assert nearest_each(ours, theirs) == [_loop_closest([m], theirs)[0] for m in ours]


def shots_of(
    battle: Battle,
    unit: Unit,
    model: Model,
    profile: WeaponProfile,
    target: Unit,
    counts_within: float | None = None,
) -> int:
    """Shots for one model, model by model (the engine's definition before it read
    every model's from one table): Rapid Fire doubles within half range of a target
    model this model sees, or always where Overwatch's ``counts_within`` is inside it;
    a Salvo weapon fires fewer after the unit moved."""
    half = (profile.range or 0.0) / 2
    near = profile.base_type == "Rapid Fire" and (
        counts_within <= half
        if counts_within is not None
        else within(model, visible_models(battle, [model], target), half)
    )
    moved = profile.base_type == "Salvo" and moved_for_weapons(unit)
    return weapon_shots(profile, near, moved)


def _check_shots(battle: Battle, unit: Unit, target: Unit) -> None:
    """:func:`shots_of_each` against :func:`shots_of` model by model, for every ranged
    weapon of ``unit`` at ``target``, with the range measured and with Overwatch's."""
    for name in ranged_weapons(unit):
        models = [m for m in unit.alive_models if m.weapon(name) is not None]
        weapon = models[0].weapon(name)
        assert weapon is not None
        profile = weapon_of(weapon)
        for counts_within in (None, 1.0, 100.0):
            each = [shots_of(battle, unit, m, profile, target, counts_within) for m in models]
            assert shots_of_each(battle, unit, models, profile, target, counts_within) == each


class _Checking:
    """A controller that checks every unit's facts, then lets the AI decide."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.checked = 0

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        for unit in battle.units.values():
            if not unit.alive_models:
                with pytest.raises(ValueError):
                    typical_profile(unit)
                continue
            assert _makeup_facts(battle, unit) == _loop_facts(battle, unit)
            assert charge_targets(battle, unit) == _loop_charge_targets(battle, unit)
            with memo.decision_scope():  # asked again, then answered by the unit in the scope
                assert _makeup_facts(battle, unit) == _loop_facts(battle, unit)
                assert _makeup_facts(battle, unit) == _loop_facts(battle, unit)
            # The same answer, and no vehicle status made by asking (a question keeps
            # nothing: the state of a game is what was played in it).
            statuses = battle.state.vehicles  # type: ignore[union-attr]
            before = dict(statuses)
            assert whole_crew_snaps(battle, unit) == _loop_whole_crew_snaps(battle, unit)
            assert statuses == before
            for target in battle.enemies_of(unit):
                if target.alive_models:
                    _check_shots(battle, unit, target)
                    _check_pair(battle, unit, target)
            self.checked += 1
        return self.inner.choose(battle, decision)


@pytest.mark.parametrize("name", EXAMPLES)
def test_makeup_facts_and_volley_shots_answer_as_the_loops_in_whole_battles(name: str) -> None:
    path = ROOT / "examples" / name
    for seed in (1, 2):
        ready = prepare(load_scenario(path), str(path), seed)
        checking = {p: _Checking(c) for p, c in ready.battle.controllers.items()}
        ready.battle.controllers.update(checking)
        play(ready.battle, ready.ruleset, ready.plan)
        assert sum(c.checked for c in checking.values()) > 0


def test_a_makeup_is_the_profiles_of_the_models_alive_in_order() -> None:
    tough = Profile("Brute", {"T": "5", "WS": "4", "S": "5"})
    weak = Profile("Runt", {"T": "3", "WS": "2", "S": "2"})

    def model(i: int, profile: Profile) -> Model:
        return Model(f"m{i}", profile, (), (float(i), 0.0))

    unit = Unit("u", "Mob", "A", Datasheet("Mob", "Orks", "waffle", ()), [])
    unit.models = [model(0, weak), model(1, tough), model(2, tough), model(3, weak)]

    @memo.per_makeup
    def names(profiles: tuple[Profile, ...]) -> tuple[str, ...]:
        return tuple(p.name for p in profiles)

    assert names(unit) == ("Runt", "Brute", "Brute", "Runt")
    unit.models[0].wounds_left = 0  # a model dies: a new make-up
    assert names(unit) == ("Brute", "Brute", "Runt")
    unit.models[0].wounds_left = 1  # and comes back: the first make-up again
    assert names(unit) == ("Runt", "Brute", "Brute", "Runt")
    unit.models[1] = model(1, weak)  # a model of another profile in its place
    assert names(unit) == ("Runt", "Runt", "Brute", "Runt")
    assert typical_profile(unit) is weak  # three Runts, one Brute
    unit.models[0].wounds_left = unit.models[1].wounds_left = 0
    assert typical_profile(unit) is tough  # a Brute and a Runt, in that order: the first
    for m in unit.models:
        m.wounds_left = 0
    for _ in range(2):  # an empty make-up raises every time, as the loop does
        with pytest.raises(ValueError):
            typical_profile(unit)


def test_a_makeup_kept_for_a_unit_is_read_again_once_its_list_or_a_model_changes() -> None:
    # Outside a decision scope the make-up is kept per unit while no model is edited
    # and the unit's list holds the same models (memo._makeup). Each change below edits
    # no model, or edits one, and the answer follows it as a pass over the models does.
    tough = Profile("Brute", {"T": "5"})
    weak = Profile("Runt", {"T": "3"})
    unit = Unit("u", "Mob", "A", Datasheet("Mob", "Orks", "waffle", ()), [])
    unit.models = [Model(f"m{i}", p, (), (float(i), 0.0)) for i, p in enumerate([weak, tough])]
    other = Unit("v", "Mob", "A", Datasheet("Mob", "Orks", "waffle", ()), list(unit.models))

    @memo.per_makeup
    def names(profiles: tuple[Profile, ...]) -> tuple[str, ...]:
        return tuple(p.name for p in profiles)

    assert names(unit) == names(unit) == ("Runt", "Brute")
    unit.models.remove(unit.models[0])  # taken out of the list: no model edited
    assert names(unit) == ("Brute",)
    assert names(other) == ("Runt", "Brute")  # another unit: its own list
    unit.models.insert(0, Model("m2", tough, (), (2.0, 0.0)))  # a new model: no edit either
    assert names(unit) == ("Brute", "Brute")
    unit.models[1] = Model("m4", weak, (), (4.0, 0.0))  # one in another's place
    assert names(unit) == ("Brute", "Runt")
    unit.models = [Model("m3", weak, (), (3.0, 0.0))]  # another list
    assert names(unit) == ("Runt",)
    unit.models[0].profile = tough  # a model edited
    assert names(unit) == ("Brute",)
    unit.models[0].wounds_left = 0
    assert names(unit) == ()


def test_a_makeup_asked_in_a_scope_is_the_units_until_the_scope_closes() -> None:
    tough = Profile("Brute", {"T": "5"})
    weak = Profile("Runt", {"T": "3"})
    unit = Unit("u", "Mob", "A", Datasheet("Mob", "Orks", "waffle", ()), [])
    unit.models = [Model(f"m{i}", p, (), (float(i), 0.0)) for i, p in enumerate([weak, tough])]
    reads: list[tuple[str, ...]] = []

    @memo.per_makeup
    def names(profiles: tuple[Profile, ...]) -> tuple[str, ...]:
        reads.append(tuple(p.name for p in profiles))
        return reads[-1]

    with memo.decision_scope():
        assert names(unit) == names(unit) == ("Runt", "Brute")
        # Remembered for the unit itself: the models are not read again in the scope
        # (where nothing dies: a death here only shows the answer is not read afresh).
        unit.models[0].wounds_left = 0
        assert names(unit) == ("Runt", "Brute")
        unit.models[0].wounds_left = 1
    assert reads == [("Runt", "Brute")]  # worked out once, for the make-up
    unit.models[0].wounds_left = 0  # between two decisions a model dies
    with memo.decision_scope():  # a fresh scope reads the new make-up
        assert names(unit) == ("Brute",)
    with memo.decision_scope(("a state",)):
        assert names(unit) == ("Brute",)
    unit.models[0].wounds_left = 1
    with memo.decision_scope(("another state",)):  # not the last state: nothing taken up
        assert names(unit) == ("Runt", "Brute")
    assert reads == [("Runt", "Brute"), ("Brute",)]  # both make-ups remembered for good


def test_fear_sets_the_majority_weapon_skill_as_each_model_fears() -> None:
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    ready = prepare(load_scenario(path), str(path), 1)
    battle = ready.battle
    unit = next(iter(battle.units.values()))
    loop = majority_value(weapon_skill(battle, unit, m) for m in unit.alive_models)
    assert majority_weapon_skill(battle, unit) == loop
    battle.memory[FEAR] = {unit.id: True}
    assert majority_weapon_skill(battle, unit) == 1
    assert firers(unit) is None  # no gun in this unit


def test_a_units_copy_is_its_deep_copy_and_changes_apart_from_it() -> None:
    """``Unit.copy`` (the estimates' "what if" copies) equals what ``copy.deepcopy``
    made, field by field (each model's dictionary as the original's: its last edit's
    number and worked-out radius too, no edit counted), and moving, slaying or setting
    the status of the copy leaves the unit as it was."""
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    ready = prepare(load_scenario(path), str(path), 1)
    for unit in ready.battle.units.values():
        unit.models[0].wounds_left = 0  # a model already slain is copied as it is
        before = copy.deepcopy(unit)
        edits = models_edited()
        copied = unit.copy()
        assert models_edited() == edits  # a copy is no edit (``Model.__copy__``)
        assert [vars(m) for m in copied.models] == [vars(m) for m in unit.models]
        assert copied == before
        assert copied.starting_models == unit.starting_models
        assert all(a is not b for a, b in zip(copied.models, unit.models, strict=True))
        assert copied.status is not unit.status
        for model in copied.alive_models:
            model.position = (model.position[0] + 3.0, model.position[1])
        for model in copied.alive_models[:1]:
            model.wounds_left = 0
        copied.status.moved = True
        assert unit == before
        assert copied != before


def test_the_estimates_plain_orders_are_a_plain_attack_s() -> None:
    """``expected.PLAIN_ORDERS``, the one object the estimates pass for a plain shooting
    attack, is equal to orders made afresh and hashes alike, so a question asked with
    either is one question, with one answer."""
    assert FireOrders() == PLAIN_ORDERS
    assert hash(FireOrders()) == hash(PLAIN_ORDERS)
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = prepare(load_scenario(path), str(path), 1).battle
    unit = next(iter(battle.units.values()))
    for target in battle.enemies_of(unit):
        plain = expected_attack(battle, unit, target, FireOrders())
        assert expected_attack(battle, unit, target, PLAIN_ORDERS) == plain
        with memo.decision_scope():
            assert expected_attack(battle, unit, target, PLAIN_ORDERS) == plain
            assert expected_attack(battle, unit, target, FireOrders()) == plain


def test_an_attack_s_estimate_is_remembered_once_by_its_volleys() -> None:
    """:func:`expected.expected_attack` adds up the volleys :func:`expected.attack_volleys`
    remembers and is not remembered itself (remembered too, nearly every question was
    keyed and missed twice): the answer is the volleys' sum however the question is
    written, in a decision or not."""
    assert attack_volleys.__wrapped__ in memo.REMEMBERED  # type: ignore[attr-defined]
    assert not hasattr(expected_attack, "__wrapped__")
    assert all(getattr(f, "__name__", "") != "expected_attack" for f in memo.REMEMBERED)
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = prepare(load_scenario(path), str(path), 1).battle
    unit = next(iter(battle.units.values()))
    for target in battle.enemies_of(unit):
        volleys = attack_volleys(battle, unit, target, PLAIN_ORDERS)
        alone = min(sum(v.each * len(v.models) for v in volleys), len(target.alive_models))
        assert expected_attack(battle, unit, target, PLAIN_ORDERS) == alone
        with memo.decision_scope():
            assert expected_attack(battle, unit, target, PLAIN_ORDERS) == alone
            assert expected_attack(battle, unit, target, PLAIN_ORDERS, None, None) == alone


def test_a_target_s_screens_and_rerolls_are_asked_once_for_every_volley_at_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In one decision, the volleys of a unit's weapons at one target ask the bases that
    may screen the target's models (:func:`visibility.screening`) and the unit's
    re-rolls against it (:mod:`rerolls`: To Hit 1s, To Wound 1s, every failed To
    Wound) once, not once a weapon; and the cover each volley is given is the one its
    own first firing model's screening gives. At the three-turn example's start the
    Tactical Squad's boltguns (eight) and heavy bolter (one, a model of its own) reach
    the Ork Boyz: two volleys, two first firers."""
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = prepare(load_scenario(path), str(path), 1).battle
    unit, target = battle.unit("tactical"), battle.unit("boyz")
    calls: Counter[str] = Counter()

    def counted(name: str) -> None:
        asked = getattr(expected, name)

        def counting(*args: Any) -> Any:
            calls[name] += 1
            return asked(*args)

        monkeypatch.setattr(expected, name, counting)

    for name in ("screening", "hit_ones_rerolled", "wound_rerolls"):
        counted(name)
    weapons = ["Boltgun", "Heavy bolter"]
    firers = [firing_models(battle, unit, target, name, PLAIN_ORDERS)[0] for name in weapons]
    assert firers[0] is not firers[1]
    with memo.decision_scope():
        for name in weapons:
            assert expected_casualties(battle, unit, target, name, PLAIN_ORDERS) > 0
    assert calls == {"screening": 1, "hit_ones_rerolled": 1, "wound_rerolls": 1}
    for firer in firers:  # screened from the firer itself: cover_save's own screening
        own = defence_of(battle, target, firer)
        assert defence_of(battle, target, firer, None, None, None, unit) == own


def test_an_attack_a_fight_and_a_weapon_s_worth_ask_their_questions_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside a decision: :func:`expected.attack_volleys` reads the unit's ranged weapons
    off its firing mapping (the names :func:`attacks.firing_each` answers, in order) and
    asks :func:`firepower.ranged_weapons` no more; :func:`expected.melee_exchange` asks
    each side's striking step once, where the Boyz' charge at the Tactical Squad (their
    Initiative 2 to the Marines' 4: the charger does not strike first) asked both twice;
    :func:`shooting_plans.weapon_worth` asks a weapon's firing models once, not once for
    the worth and again for the aim."""
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = prepare(load_scenario(path), str(path), 1).battle
    tactical, boyz = battle.unit("tactical"), battle.unit("boyz")
    calls: Counter[str] = Counter()

    def counted(module: Any, name: str) -> None:
        asked = getattr(module, name, None)

        def counting(*args: Any) -> Any:
            calls[name] += 1
            assert asked is not None
            return asked(*args)

        monkeypatch.setattr(module, name, counting, raising=False)

    for module, name in [
        (expected, "ranged_weapons"),
        (expected, "_striking_step"),
        (expected, "firing_models"),
        (shooting_plans, "firing_models"),
    ]:
        counted(module, name)
    with memo.decision_scope():
        volleys = attack_volleys(battle, tactical, boyz, PLAIN_ORDERS)
        assert {v.name for v in volleys} == {"Boltgun", "Heavy bolter"}
        assert calls["ranged_weapons"] == 0
        melee_exchange(battle, boyz, tactical)
        assert calls["_striking_step"] == 2
        expected_casualties(battle, tactical, boyz, "Boltgun", PLAIN_ORDERS)  # answered
        calls.clear()
        assert shooting_plans.weapon_worth(battle, tactical, boyz, "Boltgun", PLAIN_ORDERS)
        assert calls["firing_models"] == 1


def test_a_volley_s_defence_and_re_rolls_and_a_striking_step_are_no_second_questions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside a decision, the Tactical Squad's two volleys at the Ork Boyz (boltguns and
    heavy bolter, two first firers: two questions of cover) ask the Boyz' defence
    without cover once with the screens (:func:`expected._uncovered`), not as a
    question of its own for each volley, and the re-rolls' To Wound part is worked out
    within :func:`expected._shot_rerolls`, not asked of :func:`expected._wound_rerolls`;
    :func:`expected._striking_step`, asked once per side by
    :func:`expected.melee_exchange`, is not remembered (no question of it repeats)."""
    assert not hasattr(expected._striking_step, "__wrapped__")
    path = ROOT / "examples" / "whole_game_three_turns.toml"
    battle = prepare(load_scenario(path), str(path), 1).battle
    unit, target = battle.unit("tactical"), battle.unit("boyz")
    asked: list[tuple[str, Any]] = []

    def counted(name: str) -> None:
        original = getattr(expected, name)

        def counting(*args: Any) -> Any:
            asked.append((name, args[2] if name == "defence_of" else None))
            return original(*args)

        monkeypatch.setattr(expected, name, counting)

    for name in ("defence_of", "_wound_rerolls"):
        counted(name)
    with memo.decision_scope():
        for name in ["Boltgun", "Heavy bolter"]:
            assert expected_casualties(battle, unit, target, name, PLAIN_ORDERS) > 0
    assert [n for n, _ in asked] == ["defence_of", "defence_of", "defence_of"]
    assert [source is None for _, source in asked] == [False, True, False]
