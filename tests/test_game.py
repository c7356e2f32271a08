"""The game-state API: step, clone, save, resume and replay (docs/api.md).

Each test checks a property the API promises against an independent run of
the same game: a game stepped through ``apply`` is the game the controllers
would have played, a clone plays on exactly as the original, a saved game
replays to the same state and plays on to the same end.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.game import HOLD, Action, Game
from hammerlab.analysis.log_replay import check_log
from hammerlab.cli.app import app
from hammerlab.editions import get_ruleset
from hammerlab.editions.schedule import SCHEDULE, Schedule
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.errors import IllegalActionError, InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").rglob("*.toml"))
WHOLE = ROOT / "examples" / "whole_game_three_turns.toml"


def start(path: Path = WHOLE, seed: int = 3, **kwargs: object) -> Game:
    return Game.start(load_scenario(path), str(path), seed, **kwargs)  # type: ignore[arg-type]


def events(game: Game) -> str:
    return game.battle.log.json_lines()


def test_playing_through_the_api_gives_the_cli_battle_log(tmp_path: Path) -> None:
    out = tmp_path / "log.jsonl"
    result = CliRunner().invoke(app, ["battle", str(WHOLE), "--seed", "3", "--log-json", str(out)])
    assert result.exit_code == 0, result.output
    header, logged = out.read_text(encoding="utf-8").split("\n", 1)
    game = start()
    game.play()
    assert game.is_over and game.current_player is None
    assert events(game) == logged
    # The CLI records the scenario's absolute path too (WHOLE is one), to resume anywhere.
    recorded = {"source": str(WHOLE), "scenario_path": str(WHOLE)}
    assert json.loads(header) == {**game.header(), "kind": "game"} | recorded


def test_apply_records_the_actions_as_decisions_that_replay() -> None:
    # Random legal actions, then the game's own log must replay event for event.
    game = start()
    pick = random.Random(11)
    steps = 0
    while not game.is_over and steps < 60:
        actions = game.legal_actions()
        assert actions, "a pending decision always has at least one action"
        game.apply(pick.choice(actions))
        steps += 1
    header = json.dumps({**game.header(), "kind": "game"})
    assert check_log(header + "\n" + events(game), "api") is None


def test_legal_actions_list_what_a_picked_unit_does_first() -> None:
    game = start()
    while game.legal_actions()[0].kind != "shooter":
        game.apply(next(a for a in game.legal_actions() if a.unit is None))
    shooting = game.legal_actions()
    assert shooting[-1].unit is None and shooting[-1].label == "end phase"
    firsts = {a.then for a in shooting if a.unit is not None}
    assert all(t[0][0] == "action" for t in firsts)
    assert (("action", "hold"),) in firsts
    # Shooting names its target next (tests/test_search_actions.py checks which).
    assert all(t[1][0] == "target" for t in firsts if t[0] == ("action", "shoot"))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = start()
    assert game.legal_actions()  # the game stands at its first decision
    before = events(game)
    with pytest.raises(IllegalActionError):
        game.apply(Action("shooter", "no_such", "No such unit"))
    assert events(game) == before


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("assault_charge_into_overwatch.toml", 2),  # a charge's fight follows the pick
        ("vehicles_transport.toml", 1),  # a disembarkation is asked before a pick
        ("core11_whole_game.toml", 1),  # whole phases pass between the picks
    ],
)
def test_start_and_apply_play_on_so_that_asking_changes_nothing(name: str, seed: int) -> None:
    # docs/api.md: "take one; the game plays to the next", and a question writes
    # nothing. So between two actions every question leaves the state, the log and
    # the digest as they were, and the saved game records that same state.
    game = start(ROOT / "examples" / name, seed)
    while True:
        before, logged = game.digest(), events(game)
        over, player, actions = game.is_over, game.current_player, game.legal_actions()
        assert (over, player) == (game.is_over, game.current_player)
        assert json.loads(game.to_json())["digest"] == before
        assert game.digest() == before and events(game) == logged
        assert over == (player is None) == (not actions)
        if over:
            break
        game.apply(actions[0])


def test_a_held_game_plays_nothing_until_its_stop_is_lifted() -> None:
    # examples/vehicles_transport.toml: "At the start of the Cadians' Movement phase
    # it may disembark", a decision asked before their first pick. Held, the game
    # asks nobody; once its stop is lifted, the controller put in place since is.
    class Asked:
        def __init__(self) -> None:
            self.kinds: list[str] = []

        def choose(self, battle: object, decision: Decision[object]) -> int:
            self.kinds.append(decision.kind)
            return 0

    path = ROOT / "examples" / "vehicles_transport.toml"
    nobody = Asked()
    game = start(path, 1, controllers={"Cadians": nobody}, stop_before_turn=HOLD)
    assert game.is_over and game.current_player is None and not game.decisions()
    assert not any(e.kind == "phase" for e in game.battle.log.events)
    asked = Asked()
    game.battle.controllers["Cadians"] = asked
    game.stop_before_turn = None
    assert nobody.kinds == [] and asked.kinds == ["disembark"]
    assert game.current_player == "Cadians" and game.turn == 1


def test_an_illegal_action_s_error_lists_the_legal_ones() -> None:
    game = start()
    legal = game.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("shooter", "no_such", "No such unit"))
    message = str(refused.value)
    assert f"legal: {legal[0]}" in message
    if len(legal) > 5:
        assert f"({len(legal)} in all)" in message and str(legal[5]) not in message


def test_an_action_refused_for_its_kind_shows_the_kind_beside_the_legal_ones() -> None:
    # A tool builder's review: the refused action read exactly like the first legal
    # one, its kind (the one thing wrong) left out of the message.
    game = start()
    legal = game.legal_actions()[0]
    assert legal.kind == "mover"  # the game stands at the Movement phase's first pick
    wrong = dataclasses.replace(legal, kind="shooter")
    with pytest.raises(IllegalActionError) as refused:
        game.apply(wrong)
    message = str(refused.value)
    assert message.startswith(f"{legal} (shooter) is not a legal action now: legal: ")
    assert f"legal: {legal} (mover)" in message


def test_one_plug_in_file_given_for_the_list_is_refused_naming_plugins(tmp_path: Path) -> None:
    # A tool builder's review: plugins="rule.py" was looked for letter by letter
    # ("r: no such plug-in file").
    for one in ("rule.py", tmp_path / "rule.py"):
        with pytest.raises(InputError) as refused:
            start(plugins=one)
        assert str(refused.value) == (
            f"{WHOLE}: plugins: '{one}' is one file: give a list of them, ['{one}']"
        )
    saved = start().to_json()
    with pytest.raises(InputError, match=r"^game\.json: plugins: 'rule\.py' is one file"):
        Game.from_json(saved, "game.json", plugins="rule.py")


def test_a_clone_plays_on_like_the_original_and_is_independent() -> None:
    game = start()
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    copy = game.clone()
    assert copy.digest() == game.digest()
    copy.play()
    assert not game.is_over  # playing the clone did not move the original
    game.play()
    assert events(copy) == events(game)


def test_a_saved_game_replays_to_its_state_and_plays_on_to_the_same_end() -> None:
    whole = start()
    whole.play()
    first = start(stop_before_turn=2)
    first.play()
    assert first.is_over and first.turn == 2
    saved = first.to_json()
    loaded = Game.from_json(saved, stop_before_turn=2)
    assert loaded.digest() == first.digest()
    assert events(loaded) == events(first)
    loaded.stop_before_turn = None
    loaded.play()
    assert events(loaded) == events(whole)


def test_a_game_saved_before_the_schedule_was_recorded_still_loads() -> None:
    # Saved by main at 6806865 (`hammerlab battle examples/whole_game_three_turns.toml
    # --seed 3 --stop-after 1 --save ...`), before `begin_play` recorded the plan as
    # `battle.memory["schedule"]`: the digest leaves the schedule out, since the
    # saved scenario's plan makes it again. Its digest was made again in session 14
    # (the same command, the same 37 decisions; the file's keys as they were, without
    # `scenario_path`), when difficult terrain out of a move's reach stopped slowing
    # it and this game's first turn changed; and in session 22 (the file's 37
    # decisions replayed as they are), when each unit's Waffle status gained
    # `regrouped` and `casualty_check_taken`; and in session 23, when the log gained
    # one event (`unfired`: a weapon the casualties left out of range), the state
    # otherwise the same (its digest without that event is the one saved before).
    saved = ROOT / "tests" / "data" / "saves" / "three_turns_saved_before_the_schedule.json"
    loaded = Game.from_json(saved.read_text(encoding="utf-8"))
    assert loaded.turn == 2
    assert loaded.battle.memory[SCHEDULE] == Schedule(
        3, ("movement", "shooting", "assault"), ("Ultramarines", "Orks")
    )
    loaded.play()
    assert loaded.is_over


def test_a_tampered_saved_game_is_refused() -> None:
    game = start(stop_before_turn=2)
    game.play()
    saved = json.loads(game.to_json())
    wrong = dict(saved, digest="0" * 64)
    with pytest.raises(InputError, match="differs from the saved one"):
        Game.from_json(json.dumps(wrong))
    shuffled = dict(saved, decisions=saved["decisions"][::-1])
    with pytest.raises(InputError, match="decisions"):
        Game.from_json(json.dumps(shuffled))
    with pytest.raises(InputError, match="not a saved game"):
        Game.from_json("{}")


def test_chance_outcomes_are_not_offered_and_say_why() -> None:
    with pytest.raises(NotImplementedError, match="inside an activation"):
        start().chance_outcomes()


@pytest.mark.parametrize(
    "example", EXAMPLES, ids=[str(p.relative_to(ROOT / "examples")) for p in EXAMPLES]
)
def test_every_example_replays_and_an_edited_die_is_found(example: Path, tmp_path: Path) -> None:
    log = tmp_path / "L.jsonl"
    runner = CliRunner()
    played = runner.invoke(app, ["battle", str(example), "--seed", "3", "--log-json", str(log)])
    assert played.exit_code == 0, played.output
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if json.loads(line).get("kind") == "dice")
    die = json.loads(lines[index])
    die["values"][0] = die["values"][0] % die["sides"] + 1
    lines[index] = json.dumps(die)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    edited = runner.invoke(app, ["replay", str(log)])
    assert edited.exit_code == 1
    assert f"line {index + 1} differs" in edited.stderr


def test_cli_stop_save_and_resume_play_the_uninterrupted_game(tmp_path: Path) -> None:
    runner = CliRunner()
    whole, rest = tmp_path / "whole.jsonl", tmp_path / "rest.jsonl"
    saved = tmp_path / "game.json"
    args = ["battle", str(WHOLE), "--seed", "3"]
    assert runner.invoke(app, [*args, "--log-json", str(whole)]).exit_code == 0
    stopped = runner.invoke(app, [*args, "--stop-after", "1", "--save", str(saved)])
    assert stopped.exit_code == 0 and "Stopped before turn 2" in stopped.output
    resumed = runner.invoke(app, ["battle", "--resume", str(saved), "--log-json", str(rest)])
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming" in resumed.output
    tail = rest.read_text(encoding="utf-8").split("\n", 1)[1]
    assert tail == whole.read_text(encoding="utf-8").split("\n", 1)[1]


@pytest.mark.parametrize(
    ("args", "problem", "code"),
    [
        (["battle"], "give a scenario file or --resume FILE", 2),  # a usage error
        (["battle", "--resume", "missing.json"], "cannot read", 1),
        (["replay", "missing.jsonl"], "cannot read", 1),
    ],
)
def test_cli_game_files_errors_are_one_line(args: list[str], problem: str, code: int) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and problem in lines[0]


def test_a_saved_game_or_log_with_a_broken_scenario_is_one_line(tmp_path: Path) -> None:
    header = {"kind": "game", "format": "hammerlab-game/1", "scenario": {"name": "x"},
              "source": "x.toml"}  # fmt: skip
    log = tmp_path / "broken.jsonl"
    log.write_text(json.dumps(header) + "\n", encoding="utf-8")
    saved = tmp_path / "broken.json"
    saved.write_text(json.dumps({**header, "decisions": []}), encoding="utf-8")
    for args in (["replay", str(log)], ["battle", "--resume", str(saved)]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and "scenario: players: Field required" in lines[0]


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("whole_game_three_turns.toml", 1),  # kill points, three turns played
        ("matchups/genestealers_vs_guard_gunline.toml", 2),  # models destroyed
        ("matchups/genestealers_vs_guard_gunline.toml", 1),  # wiped out, though ahead
    ],
)
def test_the_result_is_read_off_the_game(name: str, seed: int) -> None:
    # The scenario's victory condition (docs/scenarios.md): a kill point for each
    # enemy unit destroyed, or a point for each enemy model; a side wiped out loses
    # whatever the scores. Worked out here from the units and the log.
    game = start(ROOT / "examples" / name, seed)
    game.play()
    victory = game.ready.plan.victory
    expected = dict.fromkeys((p.name for p in game.battle.players), 0)
    for unit in game.battle.units.values():
        enemy = next(p for p in expected if p != unit.player)
        lost = unit.starting_models - len(unit.alive_models)
        expected[enemy] += lost if victory == "models_destroyed" else int(not unit.alive_models)
    assert game.scores == expected
    wiped = [e.players for e in game.battle.log.events if e.kind == "wiped_out"]
    assert game.wiped_out == (wiped[0] if wiped else ())
    if wiped:
        (loser,) = wiped[0]
        assert game.winner == next(p for p in expected if p != loser)
    else:
        best = max(expected.values())
        leaders = [p for p, score in expected.items() if score == best]
        assert game.winner == (leaders[0] if len(leaders) == 1 else None)


def test_a_negative_seed_is_refused_as_the_cli_refuses_it() -> None:
    # A negative seed would play the game of the positive one (docs/scenarios.md).
    with pytest.raises(InputError, match=r"seed: -5: a seed is a whole number, 0 or more"):
        start(seed=-5)


def test_a_controller_for_a_player_the_scenario_lacks_is_refused() -> None:
    # The three-turn example's players are the Ultramarines and the Orks; a misspelt
    # name would have left the Ultramarines to the AI without a word.
    ai = get_ruleset("waffle").ai()
    expected = "unknown player 'Ultramarine'; players: ['Ultramarines', 'Orks']"
    with pytest.raises(InputError, match=re.escape(expected)):
        start(controllers={"Ultramarine": ai})


def test_a_name_or_a_stop_the_game_cannot_use_is_refused_before_anything_is_played() -> None:
    # A tool builder's review: play_until("ultramarines") (a typo) played the whole game
    # out; stop_before_turn=0 ended it at once and saved a file the library refused.
    spec = load_scenario(WHOLE)
    game = Game.start(spec, str(WHOLE), seed=3)
    before = game.digest()
    with pytest.raises(IllegalActionError, match="'ultramarines' is not a player"):
        game.play_until("ultramarines")
    assert game.digest() == before and not game.is_over
    for stop in (0, -2, "2"):
        with pytest.raises(InputError, match="stop_before_turn"):
            Game.start(spec, str(WHOLE), seed=3, stop_before_turn=stop)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError, match="stop_before_turn"):
            game.stop_before_turn = stop  # type: ignore[assignment]
    assert game.digest() == before
    game.stop_before_turn = 2
    assert Game.from_json(game.to_json(), "saved.json").digest() == game.digest()


def test_an_odds_question_for_no_target_model_is_refused() -> None:
    # A tool builder's review: target_models=0 was read as "the datasheet's size".
    from hammerlab.analysis.odds import LibraryQuestion, calculator
    from hammerlab.errors import QuestionError

    ask = LibraryQuestion(
        attacker="Tactical Squad", weapon="Boltgun", target="Ork Boyz", target_models=0
    )
    with pytest.raises(QuestionError, match="target models must be between 1"):
        calculator("waffle").library(ask)
    ask = LibraryQuestion(
        attacker="Intercessor Squad", weapon="Bolt Rifle", profile="Focused Fire",
        target="Boyz", target_models=0,
    )  # fmt: skip
    with pytest.raises(QuestionError, match="target models must be between 1"):
        calculator("core11").library(ask)


class _StopError(Exception):
    """What the controller below raises to stop a game inside an activation."""


class _StoppingInTurnTwo:
    """The Waffle AI's answers, each remembered with whether it was a top-level pick,
    until the first target asked in game turn 2: there it raises :class:`_StopError`."""

    def __init__(self) -> None:
        self.ai = WaffleAI()
        self.answers: list[tuple[str, str, bool]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        if decision.kind == "target" and battle.turn == 2:
            raise _StopError
        index = self.ai.choose(battle, decision)
        top = decision.kind in ("mover", "shooter", "charger")
        self.answers.append((decision.kind, decision.labels()[index], top))
        return index


def test_a_game_stopped_inside_an_activation_is_kept_as_it_stood_at_its_pick() -> None:
    # The game is stopped at a target decision in game turn 2, inside a shooter's
    # activation. What it is kept as has the decisions made before that activation's
    # pick (the pick and what followed it dropped), stands at the pick again, and
    # saves and loads as any saved game does (its digest checked).
    person = _StoppingInTurnTwo()
    scenario = load_scenario(WHOLE)
    game = Game.start(scenario, str(WHOLE), 5, controllers={"Ultramarines": person, "Orks": person})
    with pytest.raises(_StopError):
        game.play()
    last_pick = max(i for i, (_, _, top) in enumerate(person.answers) if top)
    assert person.answers[last_pick][0] == "shooter"
    kept = game.at_last_pick()
    assert [(k, a) for _, k, a in kept.decisions()] == [
        (kind, answer) for kind, answer, _ in person.answers[:last_pick]
    ]
    assert kept.pending is not None and kept.pending.kind == "shooter"
    assert kept.turn == 2
    loaded = Game.from_json(kept.to_json())
    assert loaded.digest() == kept.digest()
    again = kept.at_last_pick()  # a new game standing where kept stands
    assert again is not kept and again.digest() == kept.digest()


def test_follow_returns_the_answers_left_over_and_leaves_none_waiting() -> None:
    """Code review s24, finding 9: ``log_replay`` called ``Game``'s private ``_follow``
    and cleared ``battle.answers`` itself on every path. ``Game.follow`` is public: it
    says how many answers were never asked, and leaves none waiting, also when an
    answer is refused. A whole game's decisions and one more: the game ends with one
    left over (counted by hand: the one added)."""
    played = start()
    played.play()
    answers = [(kind, answer) for _, kind, answer in played.decisions()]
    game = start()
    assert game.follow([*answers, ("shooter", "no such unit")]) == 1
    assert game.is_over and game.battle.answers == []
    assert events(game) == events(played)
    refused = start()
    with pytest.raises(IllegalActionError):
        refused.follow([(answers[0][0], "no such answer")])
    assert refused.battle.answers == []
