"""Property tests: whole seeded Waffle battles, played by the AI, keep the books.

Each example is a scenario (two built-in units at random places on a table
with cover, a sight-blocking building and dangerous ground), played with real
seeded :class:`~hammerlab.engine.dice.Dice`. Whatever the dice do:

* wounds never go below 0;
* a model is removed exactly when its wounds reach 0;
* every wound lost is in a ``wound`` event, and each unsaved wound follows
  only failed saves (or none);
* the same seed and the same decisions replay the same log, byte for byte.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play as play_plan
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.io.scenario import Scenario

UNITS = [
    "Tactical Squad",
    "Devastator Squad",
    "Terminator Squad",
    "Space Marine Captain",
    "Ork Boyz",
    "Nobz",
    "Warboss",
    "Infantry Squad",
    "Heavy Weapons Squad",
    "Mortar Squad",
    "Ogryns",
    "Termagants",
    "Hormagaunts",
    "Genestealers",
    "Carnifex",
]
SAVE_ORDER = ["armour", "invulnerable", "cover", "Feel No Pain"]
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """A scenario dict and a dice seed."""
    a_units = draw(st.lists(st.sampled_from(UNITS), min_size=1, max_size=2))
    b_units = draw(st.lists(st.sampled_from(UNITS), min_size=1, max_size=2))
    placements = []
    for side, names, ys in (("A", a_units, (7.0, 16.0)), ("B", b_units, (26.0, 40.0))):
        for k, name in enumerate(names):
            x = draw(st.floats(14.0 + 30.0 * k, 28.0 + 30.0 * k, allow_nan=False))
            y = draw(st.floats(*ys, allow_nan=False))
            placements.append(
                {
                    "id": f"{side.lower()}{k}",
                    "player": side,
                    "unit": name,
                    "position": [round(x, 2), round(y, 2)],
                    "status": {"moved": draw(st.booleans())},
                }
            )
    spec = {
        "name": "property battle",
        "rules": {
            "suppressive_fire": draw(st.booleans()),
            "final_shot": draw(st.booleans()),
        },
        "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
        "terrain": [
            {"name": "Ruin", "outline": [[26, 18], [34, 18], [34, 24], [26, 24]], "cover": 4},
            {
                "name": "Hab",
                "outline": [[44, 20], [48, 20], [48, 24], [44, 24]],
                "blocks_sight": True,
            },
            {
                "name": "Minefield",
                "outline": [[10, 17], [62, 17], [62, 19], [10, 19]],
                "dangerous": True,
            },
        ],
        "units": placements,
        "plan": {"turns": draw(st.integers(1, 2)), "phases": ["shooting"]},
    }
    return spec, draw(st.integers(0, 2**32 - 1))


def play(spec: dict[str, Any], seed: int) -> tuple[Battle, dict[str, int]]:
    """Play the scenario with the AI; the battle and each model's starting wounds."""
    ready = prepare(Scenario.model_validate(spec), "property.toml", seed)
    start = {m.id: m.wounds_left for u in ready.battle.units.values() for m in u.models}
    play_plan(ready.battle, ready.ruleset, ready.plan)
    return ready.battle, start


def field(event: Event, name: str) -> Any:
    return getattr(event, name)


@SETTINGS
@given(scenarios())
def test_seed000_property_wounds_never_below_0_and_removed_exactly_at_0(
    example: tuple[dict[str, Any], int],
) -> None:
    spec, seed = example
    battle, _ = play(spec, seed)
    models = {m.id: m for u in battle.units.values() for m in u.models}
    assert all(m.wounds_left >= 0 for m in models.values())
    wounds = battle.log.of_kind("wound")
    assert all(field(e, "lost") >= 1 and field(e, "left") >= 0 for e in wounds)
    removed = [field(e, "model") for e in battle.log.of_kind("casualty")]
    assert len(removed) == len(set(removed)), "a model was removed twice"
    assert set(removed) == {i for i, m in models.items() if m.wounds_left == 0}
    # Removed right after its last wound, or by falling back off the table.
    events = [e for e in battle.log.events if e.kind not in ("dice", "message")]
    for index, event in enumerate(events):
        if event.kind == "wound" and field(event, "left") == 0:
            after = events[index + 1]
            assert (after.kind, field(after, "model")) == ("casualty", field(event, "model"))
        if event.kind == "casualty" and field(event, "cause") != "fell back off the table":
            before = events[index - 1]
            assert before.kind == "wound"
            assert (field(before, "model"), field(before, "left")) == (field(event, "model"), 0)
    # Each unit's casualty count is its starting size minus the models alive.
    per_unit = Counter(field(e, "unit") for e in battle.log.of_kind("casualty"))
    for unit in battle.units.values():
        assert per_unit[unit.label] == unit.starting_models - len(unit.alive_models)


@SETTINGS
@given(scenarios())
def test_seed000_property_every_unsaved_wound_is_accounted_for(
    example: tuple[dict[str, Any], int],
) -> None:
    spec, seed = example
    battle, start = play(spec, seed)
    models = {m.id: m for u in battle.units.values() for m in u.models}
    lost = Counter[str]()
    running = dict(start)
    for event in battle.log.of_kind("wound"):
        name = field(event, "model")
        lost[name] += field(event, "lost")
        running[name] -= field(event, "lost")
        assert field(event, "left") == max(0, running[name])
    fled = {
        field(e, "model")
        for e in battle.log.of_kind("casualty")
        if field(e, "cause") == "fell back off the table"
    }
    for name, model in models.items():
        if name in fled:
            assert lost[name] < start[name]
        else:
            assert lost[name] == start[name] - model.wounds_left, name
    assert sum(lost.values()) == sum(
        start[n] - m.wounds_left for n, m in models.items() if n not in fled
    ) + sum(lost[n] for n in fled)

    # Each save is a die compared with its target; each unsaved wound follows only
    # failed saves of its own allocation, one of each type in the order armour,
    # invulnerable, cover, Feel No Pain (or no save at all).
    events = battle.log.events
    for index, event in enumerate(events):
        if event.kind == "save":
            roll, needed = field(event, "roll"), field(event, "needed")
            assert field(event, "saved") == (roll >= needed)
            die = events[index - 1]
            assert die.kind == "dice" and field(die, "values") == (roll,)
        if event.kind != "wound":
            continue
        saves: list[Event] = []
        back = index - 1
        while back >= 0 and events[back].kind in ("dice", "save"):
            earlier = events[back]
            if earlier.kind == "save":
                if field(earlier, "saved") or field(earlier, "model") != field(event, "model"):
                    break
                saves.append(earlier)
            back -= 1
        kinds = [SAVE_ORDER.index(field(s, "save")) for s in reversed(saves)]
        assert kinds == sorted(set(kinds)), kinds


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_seed000_property_replay_same_seed_same_decisions_same_log(
    example: tuple[dict[str, Any], int],
) -> None:
    spec, seed = example
    first = play(spec, seed)[0].log.json_lines()
    second = play(spec, seed)[0].log.json_lines()
    assert first == second
    assert first.count("\n") >= 2
