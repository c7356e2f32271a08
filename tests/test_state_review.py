"""What a tool builder's review of the game-state API found (session 23, findings 1
to 6): each test states the promise docs/api.md or docs/plugins.md makes. The
expected values come from other runs of the same game (played without the calls
under test, or whole rather than saved and resumed), from the scenario files, and
from the text Python writes for a value, worked out by hand; never from the code's
own answer to the call under test."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter, OrderedDict, defaultdict, namedtuple
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from cli_kit import run
from hammerlab.analysis.game import HOLD, Action, Game, PlayUnderWayError
from hammerlab.analysis.log_replay import check_log
from hammerlab.analysis.state_digest import MemoryNotSavedError, canonical_repr
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.errors import IllegalActionError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
WHOLE = ROOT / "examples" / "whole_game_three_turns.toml"
DUEL = ROOT / "examples" / "psychic_duel.toml"


def plain_game(seed: int = 2) -> Game:
    """The three-turn example played out by the AI on both sides, nothing else called."""
    game = Game.start(load_scenario(WHOLE), str(WHOLE), seed)
    game.play()
    return game


def probed_game(probe: Any, seed: int = 2) -> Game:
    """The three-turn example with ``probe`` as the Orks' controller, put in place (and
    given the game) before anything is played."""
    game = Game.start(
        load_scenario(WHOLE), str(WHOLE), seed, controllers={"Orks": probe}, stop_before_turn=HOLD
    )
    probe.game = game
    game.stop_before_turn = None
    return game


CALLS: dict[str, Callable[[Game], object]] = {
    "apply": lambda g: g.apply(Action("mover", None, "end movement")),
    "step": lambda g: g.step(),
    "play": lambda g: g.play(),
    "play_until": lambda g: g.play_until("Orks"),
    "stop": lambda g: g.stop("person quit"),
    "stop_before_turn": lambda g: setattr(g, "stop_before_turn", None),
    "clone": lambda g: g.clone(),
    "to_json": lambda g: g.to_json(),
    "log_json_lines": lambda g: g.log_json_lines(),
    "legal_actions": lambda g: g.legal_actions(),
    "is_over": lambda g: g.is_over,
    "current_player": lambda g: g.current_player,
    "pending": lambda g: g.pending,
}
"""Every call that plays the game or reads it at a top-level decision."""

PLAYING = ("apply", "step", "play", "play_until", "stop", "stop_before_turn")
"""Those of :data:`CALLS` that play (or stop) the game."""


class Probe:
    """The Orks' AI, which at the first decision of ``kind`` it is asked first makes
    each of :data:`CALLS` on its game, keeping what each raised (or ``None``) and the
    game :meth:`Game.at_last_pick` gives then."""

    def __init__(self, kind: str) -> None:
        self.ai = WaffleAI()
        self.kind = kind
        self.game: Game | None = None
        self.raised: dict[str, BaseException | None] = {}
        self.kept: Game | None = None

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        game = self.game
        if game is not None and self.is_asked(game, decision):
            self.game = None
            for name, call in CALLS.items():
                try:
                    call(game)
                    self.raised[name] = None
                except IllegalActionError as error:
                    self.raised[name] = error
            self.kept = game.at_last_pick()
        return self.ai.choose(battle, decision)

    def is_asked(self, game: Game, decision: Decision[Any]) -> bool:
        return decision.kind == self.kind


class PickProbe(Probe):
    """:class:`Probe` at the Orks' first top-level pick (the game stands at it)."""

    def is_asked(self, game: Game, decision: Decision[Any]) -> bool:
        return game.is_top_level(decision)


# --- findings 1 to 3: calls made from a controller while the game plays ---------------


def test_every_call_from_inside_an_activation_is_refused_naming_at_last_pick() -> None:
    # Seed 2: the Orks are first asked a reaction when the Tactical Squad shoots them in
    # game turn 1 (the review's reproduction). Nothing may play, copy, save or list
    # actions there; the game then plays on exactly as the game nobody probed.
    probe = Probe("reaction")
    game = probed_game(probe)
    game.play()
    assert set(probe.raised) == set(CALLS)
    for name, error in probe.raised.items():
        assert isinstance(error, PlayUnderWayError), name
        assert error.stage == "activation"
        assert f"{name}: the game is inside an activation (after the " in str(error)
        assert "game.at_last_pick()" in str(error)
    plain = plain_game()
    assert game.decisions() == plain.decisions()  # no unit picked twice
    assert game.battle.log.json_lines() == plain.battle.log.json_lines()
    # The game at the pick that began the activation: the Ultramarines' shooter pick,
    # the plain game's next decision after the kept ones; it saves and loads.
    kept = probe.kept
    assert kept is not None and kept is not game
    made = kept.decisions()
    assert made == plain.decisions()[: len(made)]
    assert plain.decisions()[len(made)][:2] == ("Ultramarines", "shooter")
    assert kept.pending is not None and (kept.pending.player, kept.pending.kind) == (
        "Ultramarines",
        "shooter",
    )
    assert Game.from_json(kept.to_json()).digest() == kept.digest()


def test_a_pick_being_asked_may_be_copied_saved_and_listed_but_not_played() -> None:
    # The Orks' first top-level pick: the game stands at it, as a searching controller
    # reads it (legal_actions, clone); only the calls that would play are refused.
    probe = PickProbe("")
    game = probed_game(probe)
    game.play()
    playing = {name: probe.raised[name] for name in PLAYING}
    for name, error in playing.items():
        assert isinstance(error, PlayUnderWayError) and error.stage == "pick", name
        assert f"{name}: the game is asking Orks its " in str(error)
    assert all(probe.raised[name] is None for name in CALLS if name not in PLAYING)
    assert game.battle.log.json_lines() == plain_game().battle.log.json_lines()


def test_a_copy_made_while_its_pick_is_asked_plays_on_like_the_game() -> None:
    # A guard for the refusals above (it passed before them): the search copies the game
    # while its pick is asked, and the copy must not inherit the game's being asked.
    copies: list[Game] = []

    class Copying(Probe):
        def choose(self, battle: Battle, decision: Decision[Any]) -> int:
            game = self.game
            if game is not None and game.is_top_level(decision):
                self.game = None
                copies.append(game.clone())
            return self.ai.choose(battle, decision)

    game = probed_game(Copying(""))
    game.play()
    copy = copies[0]
    copy.battle.controllers = {p: WaffleAI() for p in copy.battle.controllers}
    copy.play()  # it stands at the pick, asking no one: it plays it
    assert copy.battle.log.json_lines() == game.battle.log.json_lines()


class _QuitError(Exception):
    """What a UI's Quit button raises from its controller."""


class Quitting(Probe):
    """The Orks' AI until their first reaction, where the person quits: ``stop`` is
    tried (refused), then the controller raises :class:`_QuitError`."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        game = self.game
        if game is not None and decision.kind == "reaction":
            try:
                game.stop("person quit")
            except PlayUnderWayError as error:
                self.raised["stop"] = error
            raise _QuitError
        return self.ai.choose(battle, decision)


def test_a_person_who_quits_inside_an_activation_is_stopped_at_its_pick() -> None:
    probe = Quitting("reaction")
    game = probed_game(probe)
    with pytest.raises(_QuitError):
        game.play()
    assert isinstance(probe.raised["stop"], PlayUnderWayError)
    # The game itself is left halfway through the activation: nothing of it is saved.
    for name in ("to_json", "clone", "step", "legal_actions"):
        with pytest.raises(PlayUnderWayError, match=f"^{name}: an exception left the game"):
            CALLS[name](game)
    kept = game.at_last_pick()
    kept.stop("person quit")
    assert check_log(kept.log_json_lines(), "quit.jsonl") is None  # it replays to its stop
    loaded = Game.from_json(kept.to_json(), "quit.json", stop_before_turn=HOLD)
    assert loaded.pending is not None and loaded.pending.kind == "shooter"


# --- finding 4: what a plug-in remembers, written alike under any hash seed -----------


class Seen(NamedTuple):
    units: frozenset[int]
    turn: int


def zero() -> int:
    return 0


def test_subclasses_of_containers_list_their_sets_sorted() -> None:
    # {8, 0} iterates 8 first (0 and 8 share a slot of a small set's table, the one
    # added second moving on), so a plain repr writes "{8, 0}"; sorted, "{0, 8}". The
    # expected texts are Python's repr of each container, its set written sorted.
    held = {8, 0}
    assert repr(held) == "{8, 0}"
    assert canonical_repr(defaultdict(set, {"a": held})) == (
        "defaultdict(<class 'set'>, {'a': {0, 8}})"
    )
    assert canonical_repr(Seen(frozenset(held), 2)) == "Seen(units=frozenset({0, 8}), turn=2)"
    assert canonical_repr(OrderedDict(k=held)) == "OrderedDict({'k': {0, 8}})"
    pair = namedtuple("pair", "a b")  # the untyped kind, as a plug-in may use
    assert canonical_repr(pair(held, 1)) == "pair(a={0, 8}, b=1)"

    class Tags(set[int]):
        pass

    class Units(list[set[int]]):
        pass

    assert canonical_repr(Tags(held)) == "Tags({0, 8})"  # a set subclass's repr names it
    assert canonical_repr(Units([held])) == "[{0, 8}]"  # a list subclass's does not
    # A function is written by its name, not its address (which changes per process).
    assert canonical_repr(defaultdict(zero)) == f"defaultdict(<function {__name__}.zero>, {{}})"
    # Without a set or a function, the repr itself (saved games keep their digests).
    plain = [Counter("abca"), Seen(frozenset(), 1), defaultdict(list, {"x": [1]}), OrderedDict()]
    plain.append("fired at 0x1f")  # text is text, whatever it says
    assert canonical_repr(plain) == repr(plain)


class Opaque:
    """An object shown by its address."""


def test_an_object_shown_by_its_address_is_refused_when_the_game_is_saved() -> None:
    with pytest.raises(MemoryNotSavedError, match=r"^a value holds Opaque <"):
        canonical_repr([Opaque()])
    game = Game.start(load_scenario(WHOLE), str(WHOLE), 2, stop_before_turn=HOLD)
    game.battle.remember("mine", Opaque)
    with pytest.raises(MemoryNotSavedError, match=r"^battle\.memory\['mine'\] holds Opaque <"):
        game.to_json()


ROLL_CALL = """
from collections import defaultdict
from typing import NamedTuple
from hammerlab.editions.waffle.points import END_OF_TURN
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings

class Called(NamedTuple):
    models: frozenset
    turn: int

def end_of_turn(battle, player: str) -> None:
    alive = frozenset(m.id for u in battle.units_of(player) for m in u.alive_models)
    battle.remember("roll_call", lambda: defaultdict(set))[player].update(alive)
    battle.memory["last_call"] = Called(alive, battle.turn)

def install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(END_OF_TURN, end_of_turn)

RULESET = "waffle"
RULES = (RuleOption("roll_call", "Remember who answered", "House rule", install=install),)
"""

SAVE_TURN_ONE = """
import sys
from pathlib import Path
from hammerlab.analysis.game import Game
from hammerlab.io.scenario import load_scenario

path, plugin = Path(sys.argv[1]), sys.argv[2]
game = Game.start(
    load_scenario(path), str(path), 1, {"roll_call": True}, [plugin], stop_before_turn=2
)
game.play()
print(game.to_json())
"""


def test_a_plugins_defaultdict_of_sets_saves_alike_under_two_hash_seeds(tmp_path: Path) -> None:
    # The plug-in keeps, per player, the ids of the models alive at the end of each of
    # its turns (a defaultdict of sets, a dozen strings each) and a NamedTuple of a
    # frozenset: Python orders those strings by hashes PYTHONHASHSEED changes.
    plugin = tmp_path / "roll_call.py"
    plugin.write_text(ROLL_CALL, encoding="utf-8")
    saved = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", SAVE_TURN_ONE, str(WHOLE), str(plugin)],
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT / "src")},
            capture_output=True,
            text=True,
            check=True,
        )
        saved.append(done.stdout)
    assert saved[0] == saved[1]  # the same game, the same digest
    loaded = Game.from_json(saved[0], "roll_call.json", plugins=[plugin])  # a third seed
    assert set(loaded.battle.memory["roll_call"]) == {"Ultramarines", "Orks"}


# --- finding 5: an action that went through JSON ----------------------------------------


def test_an_action_rebuilt_from_json_is_the_action_and_is_taken() -> None:
    game = Game.start(load_scenario(WHOLE), str(WHOLE), 2)
    first = game.legal_actions()[0]
    # The scenario's first unit, the Tactical Squad, offered first to advance.
    assert first == Action("mover", "tactical", "Tactical Squad [tactical]", (("move", "advance"),))
    wire = json.loads(json.dumps(dataclasses.asdict(first)))
    assert wire["then"] == [["move", "advance"]]  # JSON has no tuples
    back = Action(**wire)
    assert back == first and hash(back) == hash(first)
    twin = game.clone()
    game.apply(back)
    twin.apply(first)
    assert game.battle.log.json_lines() == twin.battle.log.json_lines()


def test_an_action_shown_as_a_legal_one_names_the_field_that_differs() -> None:
    game = Game.start(load_scenario(WHOLE), str(WHOLE), 2)
    first = game.legal_actions()[0]
    wrong = dataclasses.replace(first, unit=None)
    with pytest.raises(IllegalActionError) as raised:
        game.apply(wrong)
    assert str(raised.value) == (
        "Tactical Squad [tactical] → advance (mover) is not a legal action now: "
        "the legal action shown alike has unit 'tactical', not None"
    )


# --- finding 6: a random or search player's game, saved and resumed -------------------


@pytest.mark.parametrize(
    ("scenario", "side", "extra"),
    [
        (WHOLE, "Orks", ["--controller", "random"]),
        (DUEL, "Tyranids", ["--controller", "search", "--playouts", "2"]),
    ],
)
def test_a_random_or_search_players_game_resumed_is_the_game_played_whole(
    scenario: Path, side: str, extra: list[str], tmp_path: Path
) -> None:
    # Played whole, and saved after game turn 1 then resumed: the resumed game's log
    # (its recipe replayed, then played on) must be the whole game's, event for event.
    whole, resumed, saved = tmp_path / "whole.jsonl", tmp_path / "rest.jsonl", tmp_path / "g.json"
    flags = [*extra, "--side", side]
    code, _, err = run("battle", str(scenario), "--seed", "2", *flags, "--json",
                       "--log-json", str(whole))  # fmt: skip
    assert code == 0, err
    code, _, err = run("battle", str(scenario), "--seed", "2", *flags, "--json",
                       "--stop-after", "1", "--save", str(saved))  # fmt: skip
    assert code == 0, err
    code, _, err = run("battle", "--resume", str(saved), *flags, "--json",
                       "--log-json", str(resumed))  # fmt: skip
    assert code == 0, err
    events = [f.read_text(encoding="utf-8").split("\n", 1)[1] for f in (whole, resumed)]
    assert events[0].count("\n") > 100  # a whole game
    assert events[1] == events[0]
