"""Blows remembered for good by what they read give the fights worked out afresh.

:func:`expected._best_blow` (a model's best melee weapon against a foe and one
blow's worth with it) is remembered across decisions and battles by
:func:`expected._fighting_key` (both units' rules, statuses and Fear, the foe's
make-up) and the model's kind; :func:`expected.expected_melee` and
:func:`expected._striking_step` read it. At every decision of eight examples, two
seeds each played in one process (so answers remembered in earlier states and in
the other battle are served), every pair of enemy units is asked both and held to
the code as it was written, worked out afresh (exact float equality); then each
thing the key names, and the charge bonus, Concussion and difficult terrain read
beside it, is changed on a position and the answer follows it, as the fresh
computation does; and whole AI battles log the same with every blow worked out
afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.battles import PreparedBattle, prepare
from hammerlab.analysis.game import Game
from hammerlab.editions.base import play
from hammerlab.editions.waffle import expected
from hammerlab.editions.waffle.charge import charge_bonus
from hammerlab.editions.waffle.concussive import concuss
from hammerlab.editions.waffle.difficult_charge import (
    has_assault_grenades,
    is_assault_grenade,
    strikes_at_initiative_one,
)
from hammerlab.editions.waffle.expected import (
    _charges_through_difficult,
    _kind,
    _striking_step,
    attacks_with,
    best_melee_weapon,
    blow_value,
    charged_fighters,
    expected_melee,
)
from hammerlab.editions.waffle.fear import RULE as FEAR
from hammerlab.editions.waffle.fight import initiative
from hammerlab.editions.waffle.rules.fiery_charge import fiery_chargers
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import fights_in_melee
from hammerlab.engine import memo
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.decisions import Controller, Decision
from hammerlab.engine.transpositions import Transpositions
from hammerlab.engine.units import Model, Unit
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]

EXAMPLES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("whole_game_three_turns.toml", {}),
    ("guard_suppress_terminators.toml", {}),
    ("assault_charge_into_overwatch.toml", {}),
    ("lab_fiery_charge_boyz.toml", {"fiery_charge": True}),
    ("lab_charge_through_difficult_terrain.toml", {}),
    ("sanity/nobz_vs_terminators.toml", {}),
    ("matchups/carnifex_vs_guard.toml", {}),
    ("vehicles_leman_russ.toml", {}),
)
"""Fights of many make-ups: Fear, Furious Charge, a Fiery Charge's lost bonus, a charge
through difficult terrain, a Monstrous Creature, a vehicle (never remembered)."""


def _melee_as_written(
    battle: Battle, unit: Unit, models: list[Model], defender: Unit, charged: bool
) -> float:
    """:func:`expected.expected_melee` as it was before it was remembered for good."""
    if defender.destroyed or not models:
        return 0.0
    total = 0.0
    alike: dict[tuple[int, int, tuple[str, ...]], float] = {}
    bonus = charge_bonus(battle, unit) if charged else 0
    for model in models:
        if not fights_in_melee(model):
            continue
        key = _kind(model)
        if key not in alike:
            weapon = best_melee_weapon(battle, unit, model, defender, charged)
            attacks = attacks_with(model, weapon, bonus)
            alike[key] = attacks * blow_value(battle, unit, model, weapon, defender, charged)
        total += alike[key]
    return min(total, float(len(defender.alive_models)))


def _step_as_written(
    battle: Battle, side: Unit, other: Unit, charged: bool, in_the_open: bool
) -> int:
    """:func:`expected._striking_step` as it was before it was remembered for good."""
    alike: dict[tuple[int, int, tuple[str, ...]], int] = {}
    ahead = charged and not in_the_open and _charges_through_difficult(battle, side, other)
    for m in side.alive_models:
        if _kind(m) not in alike:
            weapon = best_melee_weapon(battle, side, m, other, charged)
            slowed = strikes_at_initiative_one(battle, side, m)
            slowed = slowed or (ahead and not has_assault_grenades(side, m))
            alike[_kind(m)] = initiative(m, weapon, slowed)
    steps = [alike[_kind(m)] for m in side.alive_models]
    return sorted(steps)[len(steps) // 2]


def _check_fights(battle: Battle, unit: Unit, foe: Unit) -> int:
    """``unit``'s fight with ``foe`` (all its models, and its front rank as a charge of
    ``foe`` meets it) and its striking steps, against the code as written; returns how
    many of its kinds of model had their blows remembered before they were asked."""
    served = 0
    for charged in (True, False):
        found = expected._blows.get(expected._fighting_key(battle, unit, foe, charged))
        if found is not None:
            served += len({_kind(m) for m in unit.alive_models} & set(found[0]))
        for models in (unit.alive_models, charged_fighters(unit, foe)):
            fresh = _melee_as_written(battle, unit, models, foe, charged)
            assert expected_melee(battle, unit, models, foe, charged) == fresh
        for in_the_open in (True, False):
            fresh_step = _step_as_written(battle, unit, foe, charged, in_the_open)
            assert _striking_step(battle, unit, foe, charged, in_the_open) == fresh_step
    return served


class _Checking:
    """A controller that checks every pair of enemy units' fights, then lets the AI decide."""

    def __init__(self, inner: Controller) -> None:
        self.inner = inner
        self.checked = 0
        self.served = 0

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        assert memo._answers.get() is None  # every estimate below is worked out afresh
        for unit in battle.units.values():
            for foe in battle.enemies_of(unit):
                if unit.alive_models and foe.alive_models:
                    self.served += _check_fights(battle, unit, foe)
                    self.checked += 1
        return self.inner.choose(battle, decision)


def test_remembered_fights_are_the_fights_worked_out_afresh_at_every_decision() -> None:
    expected._blows.clear()
    served = 0
    for name, options in EXAMPLES:
        path = ROOT / "examples" / name
        for seed in (1, 2):
            ready = prepare(load_scenario(path), str(path), seed, options)
            checking = {p: _Checking(c) for p, c in ready.battle.controllers.items()}
            ready.battle.controllers.update(checking)
            play(ready.battle, ready.ruleset, ready.plan)
            assert sum(c.checked for c in checking.values()) > 0, name
            served += sum(c.served for c in checking.values())
    assert served > 1000  # answers from earlier states and battles were checked, not only new ones


@pytest.mark.parametrize("example", ["whole_game_three_turns.toml", "lab_fiery_charge_boyz.toml"])
def test_the_waffle_ai_plays_the_same_battles_with_and_without_the_remembered_blows(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    path = ROOT / "examples" / example

    def logs() -> list[str]:
        games = [Game.start(load_scenario(path), str(path), seed) for seed in (1, 2, 3)]
        for game in games:
            game.play()
        return [game.battle.log.json_lines() for game in games]

    # Every answer worked out: none taken from the table of answers by position.
    monkeypatch.setattr("hammerlab.editions.waffle.ai.ANSWERS", Transpositions(capacity=0))
    expected._blows.clear()
    remembered = logs()
    assert expected._blows
    monkeypatch.setattr(expected, "_blows_against", lambda *_: None)  # every blow afresh
    assert logs() == remembered


def _position(name: str, options: Mapping[str, Any] | None = None) -> PreparedBattle:
    path = ROOT / "examples" / name
    return prepare(load_scenario(path), str(path), 1, options)


def _both(battle: Battle, unit: Unit, foe: Unit, charged: bool = True) -> float:
    """The remembered fight (asked twice: the second answer is the remembered one) after
    checking it against the code as written."""
    fresh = _melee_as_written(battle, unit, unit.alive_models, foe, charged)
    assert expected_melee(battle, unit, unit.alive_models, foe, charged) == fresh
    assert expected_melee(battle, unit, unit.alive_models, foe, charged) == fresh
    return fresh


def _guard_and_terminators() -> tuple[Battle, Unit, Unit]:
    battle = _position("guard_suppress_terminators.toml").battle
    guard = next(u for u in battle.units.values() if u.name == "Infantry Squad")
    terminators = next(u for u in battle.units.values() if u.name == "Terminator Squad")
    return battle, guard, terminators


def test_a_remembered_fight_follows_fear_rules_profiles_and_the_first_round() -> None:
    expected._blows.clear()
    battle, guard, terminators = _guard_and_terminators()
    plain = _both(battle, terminators, guard)
    # Fear: the defender's Weapon Skill 1 is hit more easily; the striker's own WS 1 less.
    battle.memory[FEAR] = {guard.id: True}
    assert _both(battle, terminators, guard) > plain
    battle.memory[FEAR] = {terminators.id: True}
    assert _both(battle, terminators, guard) < plain
    del battle.memory[FEAR]
    assert _both(battle, terminators, guard) == plain
    # A model's own rule: Furious Charge (+1 Strength on the charge only).
    model = terminators.alive_models[0]
    model.rules = (*model.rules, "Furious Charge")
    assert _both(battle, terminators, guard) > plain
    assert _both(battle, terminators, guard, charged=False) == _both(
        battle, terminators, guard, charged=False
    )
    model.rules = model.rules[:-1]
    assert _both(battle, terminators, guard) == plain
    # One model's Preferred Enemy re-rolls the 1s of the whole unit, its other kinds too.
    model.rules = (*model.rules, "Preferred Enemy")
    assert _both(battle, terminators, guard) > plain
    model.rules = model.rules[:-1]
    # A model's profile changed: tougher Guardsmen die less easily.
    before = [m.profile for m in guard.models]
    for m in guard.models:
        m.profile = Profile("Tough", {**m.profile.characteristics, "T": "6"})
    assert _both(battle, terminators, guard) < plain
    for m, profile in zip(guard.models, before, strict=True):
        m.profile = profile
    # The unit's rules: Hatred re-rolls misses in the first round of a combat only.
    unlocked = _both(battle, terminators, guard, charged=False)
    rules = terminators.datasheet.rules
    terminators.datasheet = replace(terminators.datasheet, rules=(*rules, "Hatred"))
    assert _both(battle, terminators, guard, charged=False) > unlocked
    st(battle, terminators).locked_in_combat = True  # an old combat: not its first round
    assert _both(battle, terminators, guard, charged=False) == unlocked
    st(battle, terminators).locked_in_combat = False
    # Hatred (X) of the foe's Faction (its army), or of its unit's name.
    named = guard.datasheet
    for hated, other in (
        ("Astra Militarum", replace(named, army="Orks")),
        ("Infantry Squads", replace(named, name="Boyz")),
    ):
        terminators.datasheet = replace(terminators.datasheet, rules=(*rules, f"Hatred ({hated})"))
        assert _both(battle, terminators, guard, charged=False) > unlocked
        guard.datasheet = other
        assert _both(battle, terminators, guard, charged=False) == unlocked
        guard.datasheet = named
    # The foe's rules: Feel No Pain saves Guardsmen.
    terminators.datasheet = replace(terminators.datasheet, rules=rules)
    guard.datasheet = replace(named, rules=(*named.rules, "Feel No Pain"))
    assert _both(battle, terminators, guard, charged=False) < unlocked
    guard.datasheet = named
    assert _both(battle, terminators, guard, charged=False) == unlocked
    # ... and so do the foe's models' own rules (its typical model's).
    for m in guard.models:
        m.rules = (*m.rules, "Feel No Pain")
    assert _both(battle, terminators, guard, charged=False) < unlocked


def test_a_remembered_fight_follows_the_charge_bonus_of_an_installed_rule() -> None:
    expected._blows.clear()
    battle = _position("lab_fiery_charge_boyz.toml", {"fiery_charge": True}).battle
    boyz = next(u for u in battle.units.values() if u.player == "Orks")
    marines = next(u for u in battle.units.values() if u.player != "Orks")
    with_bonus = _both(battle, boyz, marines)
    fiery_chargers(battle).add(boyz.id)  # a Fiery Charge costs the bonus Attack
    assert _both(battle, boyz, marines) < with_bonus


def test_a_remembered_striking_step_follows_concussion_and_difficult_terrain() -> None:
    expected._blows.clear()
    battle, guard, terminators = _guard_and_terminators()

    def step() -> int:
        fresh = _step_as_written(battle, guard, terminators, False, False)
        assert _striking_step(battle, guard, terminators, False, False) == fresh
        assert _striking_step(battle, guard, terminators, False, False) == fresh
        return fresh

    plain = step()
    assert plain > 1
    st(battle, guard).charged_through_difficult = True
    assert step() == plain  # the Guardsmen's frag grenades are assault grenades
    carried = {m.id: m.weapons for m in guard.alive_models}
    for model in guard.alive_models:
        model.weapons = tuple(w for w in model.weapons if not is_assault_grenade(w))
    assert step() == 1  # no assault grenades: Initiative 1
    for model in guard.alive_models:
        model.weapons = carried[model.id]
    st(battle, guard).charged_through_difficult = False
    assert step() == plain
    for model in guard.alive_models:
        concuss(battle, model)
    assert step() == 1


def test_a_fight_s_remembered_blows_are_found_once_per_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A charge's damage (:func:`expected.expected_melee`) and its Initiative
    (:func:`expected._striking_step`) read the same fight's blows: in a decision its key
    is built once (it reads nothing a decision changes), and the answers are those the
    code as written gives; outside one it is built at every question, as before."""
    expected._blows.clear()
    battle, guard, terminators = _guard_and_terminators()
    keys: list[bool] = []
    real = expected._fighting_key

    def key(battle: Battle, unit: Unit, foe: Unit, charged: bool) -> Any:
        keys.append(charged)
        return real(battle, unit, foe, charged)

    monkeypatch.setattr(expected, "_fighting_key", key)
    models = terminators.alive_models
    fresh = _melee_as_written(battle, terminators, models, guard, True)
    step = _step_as_written(battle, terminators, guard, True, False)
    with memo.decision_scope():
        assert expected_melee(battle, terminators, models, guard, True) == fresh
        assert _striking_step(battle, terminators, guard, True, False) == step
        assert expected_melee(battle, terminators, models, guard, True) == fresh
    assert keys == [True]
    assert expected_melee(battle, terminators, models, guard, True) == fresh
    assert expected_melee(battle, terminators, models, guard, True) == fresh
    assert keys == [True, True, True]
