"""The engine's timing windows: triggers as data, held effects, fixed order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core11_kit import battle, place, sheet

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.core11 import windows
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.engine.timing import Occasion, TriggerBoard, TriggerStep, WindowOpened
from hammerlab.io.scenario import load_scenario

CALLS: list[str] = []


@dataclass
class Note:
    """A delayed effect that records itself; lapses when ``ok`` is false."""

    name: str
    owner: str
    ok: bool = True

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        return self.ok

    def resolve(self, battle: Battle, occasion: Occasion) -> None:
        CALLS.append(f"{self.name}@{occasion.window}")


@dataclass
class Hold:
    """A trigger that holds a :class:`Note` until ``until``."""

    name: str
    owner: str
    window: str = "now"
    until: str = "later"
    ok: bool = True

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        return True

    def resolve(self, battle: Battle, occasion: Occasion, board: TriggerBoard) -> None:
        CALLS.append(f"{self.name} fired")
        board.hold(Note(self.name, self.owner, self.ok), self.until, occasion.actor)


def _board() -> TriggerBoard:
    units = [place("a", sheet("A unit"), "A", (10, 10)), place("b", sheet("B unit"), "B", (10, 30))]
    return TriggerBoard(battle(units))


def test_timing_triggers_fire_active_player_first_then_registration_order() -> None:
    CALLS.clear()
    board = _board()
    for trigger in (Hold("b1", "B"), Hold("a1", "A"), Hold("b2", "B")):
        board.register(trigger)
    board.open(Occasion("now", actor="a"))
    assert CALLS == ["a1 fired", "b1 fired", "b2 fired"]
    assert [e.step for e in board.battle.log.of_kind("trigger")] == ["fired", "held"] * 3  # type: ignore[attr-defined]


def test_timing_held_effects_wait_for_their_window_and_acting_unit() -> None:
    CALLS.clear()
    board = _board()
    board.register(Hold("b1", "B"))
    board.register(Hold("a1", "A", ok=False))
    board.open(Occasion("now", actor="a"))
    CALLS.clear()
    board.open(Occasion("later", actor="b"))  # another unit's window: nothing is released
    assert CALLS == [] and len(board.held) == 2
    board.open(Occasion("later", actor="a"))
    assert CALLS == ["b1@later"]  # a1 lapsed: its condition no longer holds
    steps = [(e.rule, e.step) for e in board.battle.log.of_kind("trigger")][-2:]  # type: ignore[attr-defined]
    assert steps == [("a1", "lapsed"), ("b1", "resolved")]
    assert len(board.held) == 0


def test_timing_a_window_with_nothing_to_do_leaves_no_record() -> None:
    board = _board()
    board.open(Occasion("nothing", actor="a"))
    assert board.battle.log.events == []


def test_timing_each_trigger_fires_only_at_the_window_it_listens_to() -> None:
    """Triggers registered for several windows, interleaved: opening one window fires
    its own listeners alone (active player's first, then in registration order), and
    a window nothing listens to releases what is held for it all the same."""
    CALLS.clear()
    board = _board()
    for trigger in (
        Hold("b-now", "B"),
        Hold("a-soon", "A", window="soon", until="much later"),
        Hold("a-now", "A"),
        Hold("b-soon", "B", window="soon"),
    ):
        board.register(trigger)
    board.open(Occasion("soon", actor="a"))
    assert CALLS == ["a-soon fired", "b-soon fired"]
    board.open(Occasion("now", actor="a"))
    assert CALLS[2:] == ["a-now fired", "b-now fired"]
    CALLS.clear()
    board.open(Occasion("much later", actor="a"))  # no trigger listens: the held note resolves
    assert CALLS == ["a-soon@much later"]
    assert [e.window for e in board.battle.log.of_kind("window")][-1] == "much later"  # type: ignore[attr-defined]


def test_an_event_goes_to_the_listeners_there_were_when_it_was_emitted() -> None:
    """A listener subscribed while an event is being told hears the next one, not it."""
    board = _board()
    heard: list[str] = []

    def late(event: Event) -> None:
        heard.append(f"late {event.kind}")

    def first(event: Event) -> None:
        heard.append(f"first {event.kind}")
        if len(heard) == 1:
            board.battle.log.subscribe(late)

    board.battle.log.subscribe(first)
    board.battle.say("test", "one")
    board.battle.say("test", "two")
    assert heard == ["first message", "first message", "late message"]


def test_the_step_log_says_core11_s_moments_in_words_and_the_events_keep_the_names() -> None:
    """A player review found ``⚑ Fire Overwatch (Boyz [boyz]) fired at unit-moved`` and
    ``· charge-declared (boyz)`` in the step log: internal names. The text now says
    the moment; the events' fields (the JSON log) are unchanged."""
    fired = TriggerStep(
        rule="Fire Overwatch (Boyz [boyz])", owner="Orks", step="fired", window="unit-moved"
    )
    held = TriggerStep(rule="Rule (X [x])", owner="A", step="held", window="end-of-fight-phase")
    opened = WindowOpened(window="charge-declared", actor="boyz", subject="")
    assert [fired.text, held.text, opened.text] == [
        "  ⚑ Fire Overwatch (Boyz [boyz]) triggers at the end of a unit's move",
        "  ⧗ Rule (X [x]) is held until the end of the Fight phase",
        "  · The moment a unit declares a charge (boyz)",
    ]
    assert (fired.to_dict()["window"], opened.to_dict()["window"]) == (
        "unit-moved",
        "charge-declared",
    )
    # A window no edition named (a plug-in's) is said by its name.
    assert (
        TriggerStep(rule="R", owner="A", step="lapsed", window="now").text == "  ⚑ R lapses at now"
    )


def test_no_window_name_is_left_in_the_whole_game_example_s_step_log() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "core11_whole_game.toml"
    ready = prepare(load_scenario(example), str(example), 2)
    play(ready.battle, ready.ruleset, ready.plan)
    timed = [e for e in ready.battle.log.events if isinstance(e, TriggerStep | WindowOpened)]
    assert {e.window for e in timed} >= {windows.UNIT_MOVED, windows.CHARGE_DECLARED}
    named = [name for name in windows.MOMENTS if any(name in e.text for e in timed)]
    assert named == []
