"""A scenario unit's ``casualties``, "models lost before the scenario" (docs/scenarios.md).

They are part of the unit's starting strength, which the rules read (a scenario is a
moment of a game), but nobody destroyed them in the game played: the
``models_destroyed`` victory condition counts the models destroyed in play (those
the unit fields at the start, less those alive at the end), in both editions, and
the lab's models-left metric is out of the models fielded (its interval cut there,
``balance`` refusing a goal above them before any battle). Expected values are
worked out by hand from the scenario files: the lascannon team is 5 Marines with
``casualties = 4`` (1 fielded), core11's Boyz 10.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.battles import PreparedBattle, prepare
from hammerlab.analysis.lab import Outcome
from hammerlab.analysis.runners import Runner
from hammerlab.analysis.store import ResultStore, summaries
from hammerlab.analysis.sweep_grid import case_at
from hammerlab.analysis.sweep_results import summarize
from hammerlab.cli.app import app
from hammerlab.editions.base import play
from hammerlab.editions.core11.events import BattleShockRolled
from hammerlab.editions.turns import victory_scores, winner
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LASCANNON = EXAMPLES / "lab_final_shot_lone_lascannon.toml"
CORE11 = EXAMPLES / "core11_whole_game.toml"


def _variant(tmp_path: Path, example: Path, edits: dict[str, str]) -> Path:
    """A copy of ``example`` in ``tmp_path``, each ``old`` text in it (found exactly
    once) replaced by its ``new``."""
    text = example.read_text(encoding="utf-8")
    for old, new in edits.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / example.name
    path.write_text(text, encoding="utf-8")
    return path


def _played(path: Path, seed: int) -> PreparedBattle:
    ready = prepare(load_scenario(path), str(path), seed)
    play(ready.battle, ready.ruleset, ready.plan)
    return ready


def _lascannon_models_destroyed(tmp_path: Path) -> Path:
    """The review's reproduction: the shipped file, scored by models destroyed."""
    return _variant(tmp_path, LASCANNON, {"[plan]\n": '[plan]\nvictory = "models_destroyed"\n'})


def test_waffle_models_lost_before_the_scenario_are_nobodys_kills(tmp_path: Path) -> None:
    # Seed 3: the Marine and the Carnifex both live (checked below), so nobody
    # destroyed a model in play: 0-0, a draw (as it is under kill points).
    ready = _played(_lascannon_models_destroyed(tmp_path), 3)
    units = ready.battle.units
    assert len(units["lascannon"].alive_models) == 1 and len(units["carnifex"].alive_models) == 1
    scores = victory_scores(ready.battle, "models_destroyed")
    assert scores == {"Ultramarines": 0, "Tyranids": 0}
    assert winner(scores) is None


def test_waffle_the_one_marine_fielded_scores_one_when_destroyed(tmp_path: Path) -> None:
    # A seed on which the Carnifex kills the lone Marine: that is 1 model destroyed in
    # play (the 4 lost before the scenario score nothing), so the Tyranids score 1.
    path = _lascannon_models_destroyed(tmp_path)
    for seed in range(1, 200):
        ready = _played(path, seed)
        if ready.battle.units["lascannon"].destroyed:
            break
    else:
        pytest.fail("no seed of 1..199 where the Carnifex kills the Marine")
    carnifex_lost = 1 - len(ready.battle.units["carnifex"].alive_models)
    scores = victory_scores(ready.battle, "models_destroyed")
    assert scores == {"Ultramarines": carnifex_lost, "Tyranids": 1}


def _core11(tmp_path: Path, casualties: int, plan: str) -> Path:
    return _variant(
        tmp_path,
        CORE11,
        {
            'unit = "Boyz"\n': f'unit = "Boyz"\ncasualties = {casualties}\n',
            'turns = 3\nphases = ["command", "movement", "shooting", "charge", "fight"]\n': plan,
        },
    )


def test_core11_models_lost_before_the_scenario_are_nobodys_kills(tmp_path: Path) -> None:
    # The review's core11 reproduction: a Command phase only, no attack at all.
    plan = 'turns = 1\nphases = ["command"]\nvictory = "models_destroyed"\n'
    ready = _played(_core11(tmp_path, 3, plan), 1)
    assert len(ready.battle.units["boyz"].alive_models) == 7  # 10 less the 3
    scores = victory_scores(ready.battle, "models_destroyed")
    assert scores == {"Orks": 0, "Space Marines": 0}
    assert winner(scores) is None


def test_core11_models_destroyed_in_play_still_score(tmp_path: Path) -> None:
    # Three whole turns: the Boyz field 7 (10 less 3), so the Space Marines score the
    # 7 less those alive at the end; the Intercessors field their 5.
    plan = (
        'turns = 3\nphases = ["command", "movement", "shooting", "charge", "fight"]\n'
        'victory = "models_destroyed"\n'
    )
    ready = _played(_core11(tmp_path, 3, plan), 1)
    boyz, marines = ready.battle.units["boyz"], ready.battle.units["intercessors"]
    assert len(boyz.alive_models) < 7  # the Boyz did lose models in play
    scores = victory_scores(ready.battle, "models_destroyed")
    assert scores == {
        "Orks": 5 - len(marines.alive_models),
        "Space Marines": 7 - len(boyz.alive_models),
    }


def test_core11_starting_strength_counts_the_models_lost_before_the_scenario(
    tmp_path: Path,
) -> None:
    # 01.02.01: Starting Strength is the unit's size; 5 Boyz left of 10 are at half
    # strength (5 <= 10 / 2), so the Orks' Command phase has them roll for
    # battle-shock (08.03). Counted from the 5 fielded, they would be at full strength.
    ready = _played(_core11(tmp_path, 5, 'turns = 1\nphases = ["command"]\n'), 1)
    rolled = [e.unit for e in ready.battle.log.events if isinstance(e, BattleShockRolled)]
    assert rolled == ["Boyz [boyz]"]


def test_the_models_left_interval_is_cut_at_the_models_fielded() -> None:
    # The lascannon team fields 1 Marine of its 5: 19 battles it lives, 1 it dies,
    # mean 0.95 with a normal interval above 1 (0.95 + 1.96 * 0.0500 = 1.048), cut to
    # the 1 model it can have.
    case = case_at(load_scenario(LASCANNON), str(LASCANNON), ())
    (team,) = [u for u in case.units if u.id == "lascannon"]
    assert (team.starting_models, team.models_fielded) == (5, 1)
    outcomes = [Outcome({"lascannon": 1, "carnifex": 1}, "draw")] * 19
    outcomes.append(Outcome({"lascannon": 0, "carnifex": 1}, "Tyranids"))
    result = summarize("s", "h", (), case.units, ("Ultramarines", "Tyranids"), outcomes,
                       list(range(1, 21)))  # fmt: skip
    left = result.units[0].models_left
    assert left.mean == pytest.approx(0.95) and left.high == 1.0
    unit = result.to_dict()["units"][0]
    assert (unit["starting_models"], unit["models_fielded"]) == (5, 1)


def test_a_store_reads_the_models_fielded_from_its_scenario(tmp_path: Path) -> None:
    # The store keeps the starting strength only (as stores written before the models
    # fielded were told apart); the scenario it holds gives the 4 lost before.
    case = case_at(load_scenario(LASCANNON), str(LASCANNON), ())
    outcomes = [Outcome({"lascannon": 1, "carnifex": 1}, "draw")] * 19
    outcomes.append(Outcome({"lascannon": 0, "carnifex": 1}, "Tyranids"))
    with ResultStore(tmp_path / "store") as store:
        store.add(case, range(1, 21), outcomes)
    (point,) = summaries([tmp_path / "store"])
    team = point.units[0]
    assert (team.unit.starting_models, team.unit.models_fielded) == (5, 1)
    assert team.models_left.high == 1.0


def test_balance_refuses_a_goal_above_the_models_fielded_before_any_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_battles(*_: Any) -> None:
        raise AssertionError("a battle was played")

    monkeypatch.setattr(Runner, "run", no_battles)
    args = ["balance", str(LASCANNON), "--vary", "charge_dice=1..3", "--runs", "10"]
    result = CliRunner().invoke(app, [*args, "--target", "models_left.lascannon=3"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --target: 'models_left.lascannon=3': lascannon keeps 0 to 1 models "
        "(its casualties = 4 leave it 1 of 5), whatever the value\n"
    )


def test_battle_json_tells_the_models_fielded_from_the_starting_strength(tmp_path: Path) -> None:
    # The review's seed 3 (nobody loses a model): 5 Marines, 4 lost before, 1 fielded
    # and left, none destroyed in play; 0-0 is a draw.
    path = _lascannon_models_destroyed(tmp_path)
    result = CliRunner().invoke(app, ["battle", str(path), "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    team = next(u for u in document["units"] if u["id"] == "lascannon")
    counts = ("starting_models", "models_fielded", "models_left", "models_destroyed")
    assert tuple(team[k] for k in counts) == (5, 1, 1, 0)
    assert document["scores"] == {"Ultramarines": 0, "Tyranids": 0}
    assert document["winner"] is None
