"""A batch's battles made from one prepared battle (``PreparedBattle.again``) are the
battles ``prepare`` makes for each seed, and play leaks nothing into the next one or
into the battle they are made from (docs/scale.md, twenty-fifth session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hammerlab.analysis.battles import PreparedBattle, prepare
from hammerlab.analysis.lab import play_once, unplayed
from hammerlab.analysis.runners import Batch, play_batch
from hammerlab.editions.base import play
from hammerlab.editions.waffle.reserves import reserve_state
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
    with pytest.raises(ValueError, match="played already"):
        ready.again(4)


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
