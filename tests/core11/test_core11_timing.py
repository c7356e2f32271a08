"""The engine's timing windows: triggers as data, held effects, fixed order."""

from __future__ import annotations

from dataclasses import dataclass

from core11_kit import battle, place, sheet

from hammerlab.engine.battle import Battle
from hammerlab.engine.timing import Occasion, TriggerBoard

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
