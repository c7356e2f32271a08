"""What a library user's review of the typed API found (session 22, F1 to F10): each
test states the promise docs/api.md or docs/plugins.md makes, with the expected
values worked out from the scenario files and the rules, not read off a run."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hammerlab.analysis.game import HOLD, Action, Game, GameStopped
from hammerlab.analysis.lab import arms, compare
from hammerlab.analysis.log_replay import check_log
from hammerlab.analysis.odds import PlainQuestion
from hammerlab.analysis.state_digest import canonical_repr
from hammerlab.analysis.tournament import TournamentError, tournament
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.rules import RuleSettingError, UnknownRuleError
from hammerlab.errors import IllegalActionError, InputError, QuestionError, UnknownNameError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ROOT / "examples" / "whole_game_three_turns.toml"
SMALL = ROOT / "examples" / "sanity" / "nobz_vs_terminators.toml"


def start(path: Path = WHOLE, seed: int = 3, **kwargs: Any) -> Game:
    return Game.start(load_scenario(path), str(path), seed, **kwargs)


def write_plugin(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(body, encoding="utf-8")
    return path


BONUS_PLUGIN = """
from hammerlab.editions.waffle.points import CHARGE_BONUS_ATTACKS
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings

def install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(CHARGE_BONUS_ATTACKS, lambda battle, unit, attacks: attacks + 1)

RULESET = "waffle"
RULES = (RuleOption("{name}", "One more charge bonus Attack", "House rule", install=install),)
"""


# --- F1: the state digest does not depend on the order a set is printed in ------------


def test_canonical_repr_lists_a_sets_members_sorted_and_reads_as_repr_otherwise() -> None:
    # 0 and 8 share a slot of a small set's table: the one added second moves on, so
    # the two sets hold the same members in another order.
    first, second = {0, 8}, {8, 0}
    assert first == second and repr(first) != repr(second)
    assert canonical_repr(first) == canonical_repr(second) == "{0, 8}"
    assert canonical_repr(frozenset(second)) == "frozenset({0, 8})"
    assert canonical_repr([set(), frozenset()]) == "[set(), frozenset()]"

    @dataclasses.dataclass
    class Kept:
        seen: set[int]
        note: str = "x"

    assert canonical_repr({"k": (Kept(second),)}) == canonical_repr({"k": (Kept(first),)})
    # Without a set, what it writes is the value's repr (games saved before keep their
    # digest): nested containers, a one-item tuple, a dataclass, a Counter, floats.
    plain = [("a", {"b": [1, 2.5, None]}), ((3,),), Kept(set(), "y"), Counter("aab"), (0.1, -2.0)]
    assert canonical_repr(plain) == repr(plain)


SAVE_IN_A_PROCESS = """
import sys
from pathlib import Path
from typing import Any
from hammerlab.analysis.game import HOLD, Game
from hammerlab.io.scenario import load_scenario

class TakeFiery:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
    def choose(self, battle: Any, decision: Any) -> int:
        if decision.kind == "fiery_charge":
            return [c.label for c in decision.choices].index("Fiery Charge")
        return self.inner.choose(battle, decision)

path, plugin = Path(sys.argv[1]), sys.argv[2]
game = Game.start(
    load_scenario(path), str(path), 1, {"marked": True}, [plugin], stop_before_turn=HOLD
)
game.battle.controllers["Ultramarines"] = TakeFiery(game.ready.ruleset.ai())
game.stop_before_turn = None
for unit in ("tac1", "tac2"):
    game.apply(next(a for a in game.legal_actions() if a.unit == unit and a.then))
print(game.to_json())
"""

MARKED = """
from hammerlab.editions.waffle.points import CHARGE_SUCCEEDED
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings

def install(hooks: Hooks, settings: RuleSettings) -> None:
    def charged(battle, unit, target) -> None:  # kept as docs/plugins.md says
        battle.remember("marked", set).update((unit.id, target.id))
    hooks.add(CHARGE_SUCCEEDED, charged)

RULESET = "waffle"
RULES = (RuleOption("marked", "Remember who charged whom", "House rule", install=install),)
"""

FIERY = """
name = "Two squads make Fiery Charges"
first_player = "Ultramarines"
[rules]
fiery_charge = true
overwatch = false
[plan]
turns = 1
phases = ["assault"]
[[players]]
name = "Ultramarines"
edge = "south"
[[players]]
name = "Orks"
edge = "north"
[[units]]
id = "tac1"
player = "Ultramarines"
unit = "Tactical Squad"
position = [30, 20]
[[units]]
id = "tac2"
player = "Ultramarines"
unit = "Tactical Squad"
position = [42, 20]
[[units]]
id = "boyz"
player = "Orks"
unit = "Ork Boyz"
position = [36, 27]
[[units]]
id = "tac3"
player = "Ultramarines"
unit = "Tactical Squad"
position = [36, 12]
"""


def test_a_game_holding_sets_saves_alike_under_any_string_hash_seed(tmp_path: Path) -> None:
    # Two of three squads take the Fiery Charge (its chargers are a set in the battle's
    # memory) and charge the Boyz, which a plug-in's set remembers with them; the game is
    # saved at tac3's pick. Python orders a set of strings by their hashes, which
    # PYTHONHASHSEED changes from process to process.
    scenario = tmp_path / "fiery.toml"
    scenario.write_text(FIERY, encoding="utf-8")
    plugin = write_plugin(tmp_path, "marked", MARKED)
    saved = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", SAVE_IN_A_PROCESS, str(scenario), str(plugin)],
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT / "src")},
            capture_output=True,
            text=True,
            check=True,
        )
        saved.append(done.stdout)
    assert saved[0] == saved[1]  # the same state, the same digest
    # This process has a hash seed of its own.
    loaded = Game.from_json(saved[0], "fiery.json", plugins=[plugin])
    assert loaded.battle.memory["fiery_charge"] == {"tac1", "tac2"}
    assert loaded.battle.memory["marked"] == {"tac1", "tac2", "boyz"}
    # tac3 is left to charge the one enemy, or the charges end
    assert [(a.unit, a.then) for a in loaded.legal_actions()] == [
        ("tac3", (("charge_target", "Ork Boyz [boyz]"),)),
        (None, ()),
    ]


# --- F2: a plug-in's rules belong to the games that name it ----------------------------


def test_a_plugin_loaded_for_one_game_is_not_in_play_in_another(tmp_path: Path) -> None:
    plugin = write_plugin(tmp_path, "bonus_f2", BONUS_PLUGIN.format(name="bonus_f2"))
    named = start(plugins=[str(plugin)], rules={"bonus_f2": True})
    assert named.battle.options["bonus_f2"] is True
    assert named.recipe.plugins == (str(plugin.resolve()),)
    # The file is loaded in this process now; a game that does not name it has no such
    # rule: its saved game could not record what played it.
    with pytest.raises(UnknownRuleError, match="'bonus_f2'"):
        start(rules={"bonus_f2": True})
    assert "bonus_f2" not in start().battle.options


def test_the_lab_plays_only_the_plugins_it_is_given(tmp_path: Path) -> None:
    plugin = write_plugin(tmp_path, "bonus_lab", BONUS_PLUGIN.format(name="bonus_lab"))
    load_plugin_file(plugin)  # as a notebook might, before arms() names the rule
    scenario = load_scenario(SMALL)
    experiment = arms(scenario, ["bonus_lab"], source=str(SMALL))
    with pytest.raises(RuleSettingError, match="'bonus_lab'"):
        compare(scenario, str(SMALL), experiment, runs=1)
    report = compare(scenario, str(SMALL), experiment, runs=1, plugins=[plugin])
    assert [p.path for p in report.plugins] == [str(plugin.resolve())]
    assert report.engine_version.endswith(f"+plugins:bonus_lab.py@{report.plugins[0].sha256[:12]}")


# --- F3: a game stopped for good is over ----------------------------------------------


def test_a_stopped_game_is_over_refuses_to_play_on_and_saves_as_it_stood() -> None:
    game = start()
    for _ in range(7):
        game.step()
    before, saved_before = game.digest(), game.to_json()
    mover = game.legal_actions()[0]
    game.stop("tool quit")
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    assert not game.finished and game.winner is None
    last = game.battle.log.events[-1]
    assert isinstance(last, GameStopped) and last.digest == before

    def set_stop() -> None:
        game.stop_before_turn = None

    calls = {
        "step": game.step,
        "play": game.play,
        "apply": lambda: game.apply(mover),
        "play_until": lambda: game.play_until("Orks"),
        "stop": lambda: game.stop("again"),
        "setting stop_before_turn": set_stop,
    }
    for name, call in calls.items():
        with pytest.raises(IllegalActionError, match=f"^{name}: the game was stopped for good"):
            call()
    assert game.battle.log.events[-1] is last  # nothing was played or logged
    assert game.to_json() == saved_before  # saved as it stood at the stop
    loaded = Game.from_json(game.to_json(), "after_stop.json")
    assert loaded.digest() == before and not loaded.is_over
    assert check_log(game.log_json_lines(), "stopped.jsonl") is None


# --- F4: the winner of a game that has not ended ---------------------------------------


def test_a_game_stopped_before_its_end_has_no_winner_and_names_who_leads() -> None:
    game = start(seed=1, stop_before_turn=3)
    game.play()
    assert game.is_over and game.turn == 3
    assert game.winner is None  # what battle --json says of it
    scores = game.scores
    ahead = [p for p, s in scores.items() if s == max(scores.values())]
    assert game.leading == (ahead[0] if len(ahead) == 1 else None)
    assert not game.finished
    game.stop_before_turn = None
    game.play()
    assert game.finished and game.turn == 4
    assert game.winner == game.leading


# --- F5: plug-in files recorded so that a save loads from anywhere; Path taken --------


def test_plugin_files_are_recorded_by_absolute_path_and_taken_as_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    plugin = write_plugin(folder, "bonus_f5", BONUS_PLUGIN.format(name="bonus_f5"))
    monkeypatch.chdir(tmp_path)
    by_text = start(plugins=["rules/bonus_f5.py"], rules={"bonus_f5": True})
    by_path = start(plugins=[Path("rules") / "bonus_f5.py"], rules={"bonus_f5": True})
    given_twice = start(plugins=[plugin, "rules/bonus_f5.py"], rules={"bonus_f5": True})
    assert by_text.recipe.plugins == by_path.recipe.plugins == given_twice.recipe.plugins
    assert by_text.recipe.plugins == (str(plugin.resolve()),)
    text = by_path.to_json()
    assert json.loads(by_path.log_json_lines().splitlines()[0])["plugins"] == [str(plugin)]
    monkeypatch.chdir(ROOT)
    assert Game.from_json(text, "g.json", plugins=[plugin]).digest() == by_path.digest()


# --- F6: a plug-in's own point named like a built-in one -------------------------------


def test_a_plugins_own_hook_point_named_like_a_built_in_one_is_refused_at_load(
    tmp_path: Path,
) -> None:
    plugin = write_plugin(
        tmp_path,
        "own_point",
        """
from typing import Any, Callable
from hammerlab.editions.waffle.points import END_OF_TURN
from hammerlab.engine.rules import HookPoint, Hooks, RuleOption, RuleSettings

MINE: HookPoint[Callable[[Any], None]] = HookPoint(END_OF_TURN.name, "my own point")

def install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(MINE, lambda only_one: None)

RULESET = "waffle"
RULES = (RuleOption("own_point", "x", "House rule", install=install),)
""",
    )
    with pytest.raises(InputError) as refused:
        load_plugin_file(plugin)
    assert str(refused.value).startswith(
        f"{plugin}: RULES[own_point]: hook point 'end of turn' is a built-in point's name"
    )


# --- F7: battle.unit names the ids there are -------------------------------------------


def test_an_unknown_unit_id_lists_the_battles_ids() -> None:
    game = start()
    ids = [u.id for u in load_scenario(WHOLE).units]
    with pytest.raises(UnknownNameError) as unknown:
        game.battle.unit("nobody")
    assert str(unknown.value) == f"unknown unit 'nobody'; units: {', '.join(ids)}"
    with pytest.raises(UnknownNameError, match=r"'boys' \(did you mean: boyz\); units: "):
        game.battle.unit("boys")


# --- F8: the library makes the command line's checks ----------------------------------


def test_game_start_refuses_another_rulesets_plugin_and_a_parameter_of_a_rule_off(
    tmp_path: Path,
) -> None:
    core11 = write_plugin(
        tmp_path,
        "c11_nothing",
        """
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings
def install(hooks: Hooks, settings: RuleSettings) -> None:
    pass
RULESET = "core11"
RULES = (RuleOption("c11_nothing", "x", "House rule", install=install),)
""",
    )
    with pytest.raises(InputError) as refused:
        start(plugins=[core11])
    assert str(refused.value) == f"{core11}: the plug-in is for core11; this scenario plays waffle"
    contradicting = {"suppressive_fire": False, "suppressive_fire.ld_penalty_per_wound": 2}
    with pytest.raises(RuleSettingError, match="suppressive_fire=False is given too"):
        start(rules=contradicting)


# --- F9: bad arguments are the library's errors ---------------------------------------


def test_apply_refuses_what_is_not_an_action() -> None:
    game = start()
    for wrong in ("boyz", None):
        with pytest.raises(IllegalActionError, match=f"^{wrong!r} is not an Action"):
            game.apply(wrong)  # type: ignore[arg-type]
    assert isinstance(game.legal_actions()[0], Action)


class Answers:
    """A controller answering every decision with ``answer``."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize("answer", ["0", 1.0, True])
def test_a_controller_answering_no_whole_number_is_refused(answer: object) -> None:
    with pytest.raises(IllegalActionError, match=f"with choice {answer!r}, which is not one"):
        start(controllers={"Ultramarines": Answers(answer)}).play()


def test_a_numpy_whole_number_is_a_choice() -> None:
    # A policy's argmax is a numpy integer. Choice 0 of the Ultramarines' first pick is
    # their first unit in the file, the Tactical Squad (id "tactical").
    game = start(controllers={"Ultramarines": Answers(np.int64(0))})
    game.step()
    assert game.decisions()[0] == ("Ultramarines", "mover", "Tactical Squad [tactical]")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ap": 5}, "--ap: 5 is not text"),
        ({"strength": "4"}, "--strength: '4' is not a whole number"),
        ({"save": 3.0}, "--save: 3.0 is not a whole number or None"),
        ({"keywords": ["rending"]}, "--keyword: ['rending'] is not a tuple, each item text"),
    ],
)
def test_a_plain_question_of_the_wrong_types_names_the_field(
    fields: dict[str, object], message: str
) -> None:
    given: dict[str, Any] = {
        "strength": 4, "ap": "5", "toughness": 4, "save": 4, "wounds": 1, "target_models": 5,
    }  # fmt: skip
    with pytest.raises(QuestionError) as refused:
        PlainQuestion(**{**given, **fields})
    assert str(refused.value) == message


@pytest.mark.parametrize("games", [0, -1])
def test_a_tournament_of_no_games_is_refused(games: int) -> None:
    scenario = (load_scenario(SMALL), str(SMALL))
    with pytest.raises(TournamentError, match=f"--games: {games}: "):
        tournament([scenario], ["heuristic", "random"], games=games)
    with pytest.raises(TournamentError, match=r"^scenarios: "):
        tournament([], ["heuristic", "random"], games=1)


# --- F10: a stop turn that has begun already ------------------------------------------


def test_a_stop_turn_begun_already_is_refused_and_hold_keeps_a_loaded_game_as_saved() -> None:
    game = start(seed=1)
    while game.turn < 3:
        game.step()
    game.step()  # in game turn 3, its first pick answered
    text = game.to_json()
    for turn in (2, 3):
        with pytest.raises(IllegalActionError, match=f"game turn {turn} has begun already"):
            game.stop_before_turn = turn
        with pytest.raises(IllegalActionError, match=f"game turn {turn} has begun already"):
            Game.from_json(text, "t3.json", stop_before_turn=turn)
    game.stop_before_turn = 4  # the turn after the last: the game ends before it anyway
    held = Game.from_json(text, "t3.json", stop_before_turn=HOLD)
    assert held.stop_before_turn is None and held.digest() == game.digest()
    assert Game.from_json(held.to_json(), "held.json").digest() == game.digest()
    # A game held at a turn's start may keep that stop.
    stopped = start(seed=1, stop_before_turn=2)
    stopped.play()
    stopped.stop_before_turn = 2
    assert stopped.is_over and stopped.turn == 2
