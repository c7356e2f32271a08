"""What a tool builder's review of the game-state API found (session 24, findings 1
to 5): each test states the promise docs/api.md or docs/plugins.md makes. Expected
values come from the scenario file (its players, in order), from other runs of the
same game (played whole by the AI, with no call under test), from the plug-in texts
written here, and from the messages' wording worked out by hand; never from the code's
own answer to the call under test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_kit import one_line, run
from hammerlab.analysis.game import HOLD, Action, Game
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.engine.battle import Battle, DecisionMade
from hammerlab.engine.decisions import Decision
from hammerlab.engine.events import Event
from hammerlab.engine.rules import UnknownRuleError
from hammerlab.errors import IllegalActionError, InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ROOT / "examples" / "whole_game_three_turns.toml"
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


def start(path: Path = WHOLE, seed: int = 2, **kw: Any) -> Game:
    return Game.start(load_scenario(path), str(path), seed, **kw)


# --- 1. at_last_pick() keeps the game's controllers and log listeners ------------------


class _LeftError(Exception):
    """What the person below raises: they left the prompt."""


class _Person:
    """A person playing the Orks (through a UI), answering as the Waffle AI would: the
    first reaction they are asked, they leave (:class:`_LeftError`); they count the
    decisions they answer."""

    def __init__(self) -> None:
        self.ai = WaffleAI()
        self.answered = 0
        self.leave = True

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        if decision.kind == "reaction" and self.leave:
            self.leave = False
            raise _LeftError
        self.answered += 1
        return self.ai.choose(battle, decision)


def test_the_game_at_the_last_pick_plays_on_with_the_person_and_the_listener() -> None:
    # docs/api.md: after a controller's exception left an activation halfway,
    # at_last_pick() is "the game to save, stop or play on". Played on, the Orks are
    # still the person's: every Orks decision from the pick on is asked of them (the
    # old copy gave the Orks to the heuristic AI: 0 asked), and the UI's listener
    # hears exactly the events of the game played on (none replayed; old: none at all).
    # The person answers as the AI does, so the game ends as the AI's game of seed 2
    # played whole (the activation left is asked again from its start, same dice).
    person, heard = _Person(), []
    game = start(controllers={"Orks": person}, stop_before_turn=HOLD)
    listener = heard.append
    game.battle.log.subscribe(listener)
    game.stop_before_turn = None
    with pytest.raises(_LeftError):
        game.play()
    kept = game.at_last_pick()
    assert kept is not game
    assert kept.battle.controllers["Orks"] is person
    assert kept.battle.log.listeners == (listener,)
    at_pick, before, answered = len(kept.battle.log.events), len(heard), person.answered
    kept.play()
    played_on = kept.battle.log.events[at_pick:]
    assert heard[before:] == played_on
    orks = [e for e in played_on if isinstance(e, DecisionMade) and e.player == "Orks"]
    assert person.answered - answered == len(orks) > 0
    whole = start()
    whole.play()
    assert kept.battle.log.json_lines() == whole.battle.log.json_lines()


def test_the_game_at_the_last_pick_is_always_a_new_one() -> None:
    # Nothing happened since the pick: at_last_pick() used to give the game itself, so
    # playing "the copy" played the game. Now it is always a new game standing at the
    # same decision, with the same controllers and listeners; the game it was taken
    # from stays where it was.
    heard: list[Event] = []
    game = start(stop_before_turn=HOLD)
    game.battle.log.subscribe(heard.append)
    game.stop_before_turn = None
    kept = game.at_last_pick()
    assert kept is not game
    assert kept.digest() == game.digest()
    assert kept.legal_actions() == game.legal_actions()
    assert kept.battle.controllers == game.battle.controllers
    length, before = len(game.battle.log.events), len(heard)
    kept.apply(kept.legal_actions()[0])
    assert len(game.battle.log.events) == length
    assert heard[before:] == kept.battle.log.events[length:]


# --- 2. a malformed Action.then is an IllegalActionError naming then --------------------


@pytest.mark.parametrize(
    ("then", "problem"),
    [
        ("advance", "'advance' is no sequence"),
        (None, "None is no sequence"),
        (5, "5 is no sequence"),
        ([["move"]], "item 1, ['move'], is no (kind, label) pair"),
        ([["move", "advance", "x"]], "item 1, ['move', 'advance', 'x'], is no (kind, label) pair"),
        ([["move", "advance"], "x"], "item 2, 'x', is no (kind, label) pair"),
        ([["move", 2]], "item 1, ['move', 2], is not two texts"),
    ],
)
def test_an_action_with_a_malformed_then_is_refused_naming_then(then: object, problem: str) -> None:
    # An agent's JSON (docs/api.md: "Action(**json.loads(text))"): the old Action kept
    # such a then, and str(action), which apply's message calls, raised a bare
    # ValueError or TypeError. The message is worked out from the value by hand.
    document = {"kind": "mover", "unit": "tactical", "label": "Tactical Squad [tactical]"}
    with pytest.raises(IllegalActionError) as refused:
        Action(**document, then=then)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"Action then: {problem}: then is a sequence of (kind, label) pairs of text, as "
        "legal_actions() gives them ((('move', 'advance'),), or () for none)"
    )


def test_an_action_from_json_with_pairs_as_lists_is_still_the_legal_action() -> None:
    game = start()
    legal = game.legal_actions()[0]
    assert legal.then  # a pick with a follow-up, as the three-turn example's movers have
    text = json.dumps({"kind": legal.kind, "unit": legal.unit, "label": legal.label,
                       "then": [list(pair) for pair in legal.then]})  # fmt: skip
    assert Action(**json.loads(text)) == legal


# --- 3. a saved game's players are checked ----------------------------------------------


def _saved_stopped_before_turn_two() -> dict[str, Any]:
    game = start(seed=3, stop_before_turn=2)
    game.play()
    saved: dict[str, Any] = json.loads(game.to_json())
    return saved


def test_a_saved_game_whose_first_decision_names_another_player_is_refused() -> None:
    # The scenario file lists Ultramarines first: they make the game's first decision,
    # whatever its answer. A save that says "Nobody at all" made it loaded, and was
    # rewritten with the true player, before.
    saved = _saved_stopped_before_turn_two()
    _, kind, answer = saved["decisions"][0]
    saved["decisions"][0][0] = "Nobody at all"
    with pytest.raises(InputError) as refused:
        Game.from_json(json.dumps(saved), "p.json")
    assert str(refused.value) == (
        f"p.json: decisions: decision 1: Ultramarines was asked {kind!r} (answered "
        f"{answer!r}), not Nobody at all"
    )


def test_a_saved_game_with_a_decision_given_to_the_other_side_is_refused_on_resume(
    tmp_path: Path,
) -> None:
    # The first decision recorded as the Orks' (every player in the file: one of the
    # scenario's two) is refused by `battle --resume` in one line, exit 1.
    saved = _saved_stopped_before_turn_two()
    number = next(i for i, d in enumerate(saved["decisions"], 1) if d[0] == "Orks")
    _, kind, answer = saved["decisions"][number - 1]
    for decision in saved["decisions"]:
        decision[0] = "Ultramarines"
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    code, _, err = run("battle", "--resume", str(path), "--json")
    assert one_line(code, err, 1) == (
        f"error: {path}: decisions: decision {number}: Orks was asked {kind!r} "
        f"(answered {answer!r}), not Ultramarines"
    )


# --- 4. two drafts of one rule, two games of one process --------------------------------

DRAFT = """
from hammerlab.editions.waffle.points import HIT_ONES_REROLLED
from hammerlab.engine.rules import Parameter, RuleOption


def steady(battle, unit, foe, rule):
    return rule or "{label}"


def install(hooks, settings):
    hooks.add(HIT_ONES_REROLLED, steady)


RULESET = "waffle"
RULES = (
    RuleOption(
        name="draft_aim",
        summary="House rule draft: every shooter re-rolls To Hit 1s",
        quote="House rule (not in the seeds).",
        install=install,
        parameters=(Parameter("need", {need}, "a value", "House rule", minimum=2, maximum=6),),
    ),
)
"""


def _drafts(tmp_path: Path) -> tuple[Path, Path]:
    """The same rule in two files: draft A (``need`` 3, its re-rolls logged as
    "Draft A") and draft B (``need`` 5, "Draft B")."""
    paths = []
    for folder, label, need in (("a", "Draft A", 3), ("b", "Draft B", 5)):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "draft_aim.py"
        path.write_text(DRAFT.format(label=label, need=need), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _played(plugin: Path) -> Game:
    game = start(GUARD, 1, rules={"draft_aim": True}, plugins=[plugin])
    game.play()
    return game


def test_two_drafts_of_one_rule_each_play_in_the_game_that_names_it(tmp_path: Path) -> None:
    # docs/api.md: a game's plug-ins' rules are "this game's alone". Draft A's game
    # played first, draft B's game could not start before ("already defined by" A).
    # Each game resolves the rule from its own file: its parameter's default and the
    # re-rolls its log names are that file's, also when A plays again after B.
    first, second = _drafts(tmp_path)
    for plugin, label, need, other in (
        (first, "Draft A", 3, "Draft B"),
        (second, "Draft B", 5, "Draft A"),
        (first, "Draft A", 3, "Draft B"),
    ):
        game = _played(plugin)
        assert game.battle.settings.value("draft_aim.need") == need
        text = "\n".join(e.text for e in game.battle.log.events)
        assert f"({label})" in text
        assert f"({other})" not in text
        loaded = Game.from_json(game.to_json(), plugins=[plugin])
        assert loaded.digest() == game.digest()
    with pytest.raises(UnknownRuleError):
        start(GUARD, 1, rules={"draft_aim": True})  # a game naming neither file


def test_two_drafts_of_one_rule_in_one_game_are_refused_naming_both(tmp_path: Path) -> None:
    first, second = _drafts(tmp_path)
    with pytest.raises(InputError) as refused:
        start(GUARD, 1, plugins=[first, second])
    assert str(refused.value) == (
        f"{second}: RULES[draft_aim]: already defined by {first}, given with it: the "
        "plug-ins of one game, run or command define each rule once"
    )


# --- 5. a held game says it is held, not over -------------------------------------------


def _an_action_after(game: Game) -> Action:
    """A legal action of ``game`` once its stop is lifted (on a copy)."""
    copy = game.clone()
    copy.stop_before_turn = None
    return copy.legal_actions()[0]


@pytest.mark.parametrize(
    ("stop", "held"),
    [
        (2, "the game is held before game turn 2 (stop_before_turn 2)"),
        (HOLD, "the game is held before anything is played (stop_before_turn HOLD)"),
    ],
)
def test_an_action_on_a_held_game_says_it_is_held_and_how_to_play_on(stop: int, held: str) -> None:
    # The game is not over (finished False, winner None) and setting stop_before_turn
    # plays on at once (docs/api.md); "the game is over" said otherwise.
    game = start(stop_before_turn=stop)
    game.play()
    assert not game.finished
    action = _an_action_after(game)
    how = "set game.stop_before_turn to a later turn, or None, to play on"
    with pytest.raises(IllegalActionError) as refused:
        game.apply(action)
    assert (
        str(refused.value) == f"{action} ({action.kind}) is not a legal action now: {held}: {how}"
    )
    with pytest.raises(IllegalActionError) as refused:
        game.apply("boyz")  # type: ignore[arg-type]
    assert (
        str(refused.value)
        == f"'boyz' is not an Action (take one of legal_actions()): {held}: {how}"
    )
    with pytest.raises(IllegalActionError) as refused:
        game.stop("tool quit")
    assert str(refused.value) == f"stop: {held}: {how}: there is nothing to stop"


def test_an_action_on_a_finished_game_says_it_is_over() -> None:
    game = start()
    action = game.legal_actions()[0]
    game.play()
    assert game.finished
    with pytest.raises(IllegalActionError) as refused:
        game.apply(action)
    assert (
        str(refused.value)
        == f"{action} ({action.kind}) is not a legal action now: the game is over"
    )
