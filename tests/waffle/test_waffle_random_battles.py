"""Randomised whole battles: built-in Waffle units, every phase, every proposed rule.

Each example is a scenario written as plain data and read by the scenario
path the CLI uses (:func:`~hammerlab.io.scenario.parse_scenario`, then
:func:`~hammerlab.analysis.battles.prepare`): two to four units of the
built-in library (at least one a side, random sizes), facing each other
6"-20" apart on an open table or one with a ruin, a dangerous strip and a
sight-blocking building, the five proposed rules switched on or off at random,
one to three game turns of movement, shooting and assault, both sides played
by the AI, with a random dice seed. Whatever happens:

* nothing raises;
* no model has fewer than 0 wounds left;
* a model has 0 wounds left exactly when a ``casualty`` event names it, and
  no model is removed twice;
* at the end of every phase, no two models alive overlap (bases closer than
  the sum of their radii by more than 0.05") and every model alive stands on
  the table (its centre, as ``Battlefield.on_table`` measures it);
* the same scenario and seed replay the same JSON Lines log, byte for byte.

Hypothesis is derandomised (a fixed seed per test, no example database), so CI
runs the same examples every time.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hammerlab.analysis.battles import ROW, PreparedBattle, prepare
from hammerlab.editions import get_ruleset
from hammerlab.editions.base import play
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event, ModelRemoved, PhaseChanged
from hammerlab.engine.geometry import MM_PER_INCH
from hammerlab.io.scenario import parse_scenario

RULESET = get_ruleset("waffle")
UNIT_NAMES = RULESET.unit_names()
OPTION_NAMES = (
    "suppressive_fire",
    "final_shot",
    "final_blow",
    "fiery_charge",
    "shooting_into_combat",
)
WIDTH, HEIGHT = 72.0, 48.0
SPACING = 1.0
"""The scenario default gap between bases in a formation (inches)."""
OVERLAP = 0.05
"""Bases may sit this much inside each other (room for rounding), no more."""
MIN_GAP, MAX_GAP = 6.0, 20.0
TERRAIN = [
    {
        "name": "Ruin",
        "outline": [[30, 20], [40, 20], [40, 27], [30, 27]],
        "cover": 4,
        "difficult": True,
    },
    {
        "name": "Hab",
        "outline": [[52, 21], [56, 21], [56, 26], [52, 26]],
        "blocks_sight": True,
    },
    {
        "name": "Minefield",
        "outline": [[8, 23], [24, 23], [24, 24.5], [8, 24.5]],
        "dangerous": True,
    },
]

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _footprint(name: str, size: int) -> tuple[float, float]:
    """Half the width and half the depth of a block of ``size`` models of ``name``
    (inches, bases included), as :func:`analysis.battles.prepare` lays it out."""
    sheet = RULESET.find_unit(name)
    base = max(e.base_mm for e in sheet.entries) / MM_PER_INCH
    pitch = base + SPACING
    rows = math.ceil(size / ROW)
    across = min(ROW, size)
    return (across - 1) / 2 * pitch + base / 2, (rows - 1) / 2 * pitch + base / 2


@st.composite
def unit_draws(draw: st.DrawFn) -> tuple[str, int | None]:
    """A library unit and a size it allows (``None``: its default size)."""
    name = draw(st.sampled_from(UNIT_NAMES))
    sheet = RULESET.find_unit(name)
    fixed = sum(e.count for e in sheet.entries if not e.variable)
    if not any(e.variable for e in sheet.entries):
        return name, None
    low = max(1, fixed)
    return name, draw(st.one_of(st.none(), st.integers(low, max(low, sheet.model_count))))


@st.composite
def battles(draw: st.DrawFn) -> tuple[str, int]:
    """A scenario's TOML-equivalent data, as JSON text, and a dice seed."""
    a_units = draw(st.lists(unit_draws(), min_size=1, max_size=2))
    b_units = draw(st.lists(unit_draws(), min_size=1, max_size=3 - len(a_units) + 1))
    gap = draw(st.floats(MIN_GAP + 0.05, 14.0, allow_nan=False))
    # The two battle lines: A's front edge at ``front``, B's at ``front + gap``.
    depth_a = max(_footprint(n, _size(n, s))[1] for n, s in a_units)
    depth_b = max(_footprint(n, _size(n, s))[1] for n, s in b_units)
    low, high = 2 * depth_a + 1.0, HEIGHT - gap - 2 * depth_b - 1.0
    front = draw(st.floats(low, max(low, high), allow_nan=False))
    placements = []
    for side, units in (("A", a_units), ("B", b_units)):
        lane = WIDTH / len(units)
        for k, (name, size) in enumerate(units):
            half_w, half_d = _footprint(name, _size(name, size))
            x = draw(st.floats(k * lane + half_w + 0.5, (k + 1) * lane - half_w - 0.5))
            y = front - half_d if side == "A" else front + gap + half_d
            spec: dict[str, Any] = {
                "id": f"{side.lower()}{k}",
                "player": side,
                "unit": name,
                "position": [round(x, 2), round(y, 2)],
            }
            if size is not None:
                spec["size"] = size
            placements.append(spec)
    scenario = {
        "name": "random battle",
        "rules": {name: draw(st.booleans()) for name in OPTION_NAMES},
        "first_player": draw(st.sampled_from(["A", "B"])),
        "players": [{"name": "A", "edge": "south"}, {"name": "B", "edge": "north"}],
        "terrain": TERRAIN if draw(st.booleans()) else [],
        "units": placements,
        "plan": {
            "turns": draw(st.integers(1, 3)),
            "phases": ["movement", "shooting", "assault"],
        },
    }
    return json.dumps(scenario), draw(st.integers(0, 2**32 - 1))


def _size(name: str, size: int | None) -> int:
    return RULESET.find_unit(name).model_count if size is None else size


def _toml(data: dict[str, Any]) -> str:
    """The scenario data as TOML text (JSON scalars and arrays are TOML values)."""
    lines = [f"{k} = {json.dumps(v)}" for k, v in data.items() if not isinstance(v, dict | list)]
    for key in ("rules", "plan"):
        lines.append(f"[{key}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in data[key].items()]
    for key in ("players", "terrain", "units"):
        for table in data[key]:
            lines.append(f"[[{key}]]")
            lines += [f"{k} = {json.dumps(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _prepare(text: str, seed: int) -> PreparedBattle:
    scenario = parse_scenario(_toml(json.loads(text)), "random.toml")
    return prepare(scenario, "random.toml", seed)


def _table_problems(battle: Battle) -> list[str]:
    """Overlapping bases and models off the table, among the models alive."""
    alive = [m for u in battle.units.values() for m in u.alive_models]
    problems = [
        f"{m.id} off the table at {m.position}"
        for m in alive
        if not battle.battlefield.on_table(m.position)
    ]
    for i, a in enumerate(alive):
        for b in alive[i + 1 :]:
            gap = math.dist(a.position, b.position) - a.radius - b.radius
            if gap < -OVERLAP:
                problems.append(f'{a.id} and {b.id} overlap by {-gap:.3f}"')
    return problems


def _play(text: str, seed: int) -> tuple[Battle, list[str]]:
    """Play the battle; what was wrong at the end of any phase, by phase."""
    ready = _prepare(text, seed)
    battle = ready.battle
    _check_start(battle)
    problems: list[str] = []

    def after_phase(event: Event) -> None:
        if isinstance(event, PhaseChanged) and not event.begins:
            where = f"turn {event.turn} {event.player} {event.phase}"
            problems.extend(f"{where}: {p}" for p in _table_problems(battle))

    battle.log.subscribe(after_phase)
    play(battle, ready.ruleset, ready.plan)
    return battle, problems


def _check_start(battle: Battle) -> None:
    """A legal table, the two sides 6"-20" apart (the generator keeps them at
    least 6" apart; lines drawn more than 20" apart are thrown away)."""
    assert not _table_problems(battle)
    a_models = [m for u in battle.units_of("A") for m in u.alive_models]
    b_models = [m for u in battle.units_of("B") for m in u.alive_models]
    closest = min(
        math.dist(a.position, b.position) - a.radius - b.radius for a in a_models for b in b_models
    )
    assert closest >= MIN_GAP - 1e-6, closest
    assume(closest <= MAX_GAP)


@SETTINGS
@given(battles())
def test_waffle_random_battle_keeps_the_table_the_wounds_and_the_log(
    example: tuple[str, int],
) -> None:
    text, seed = example
    battle, problems = _play(text, seed)
    assert not problems, problems[:5]

    models = {m.id: m for u in battle.units.values() for m in u.models}
    assert len(models) == sum(len(u.models) for u in battle.units.values())
    assert all(m.wounds_left >= 0 for m in models.values())
    removed = Counter(e.model for e in battle.log.events if isinstance(e, ModelRemoved))
    assert [m for m, n in removed.items() if n > 1] == [], "a model was removed twice"
    assert set(removed) == {i for i, m in models.items() if m.wounds_left == 0}

    replay, _ = _play(text, seed)
    assert replay.log.json_lines() == battle.log.json_lines()
