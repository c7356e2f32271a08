"""What core11 remembers while it plays a battle.

The engine's :class:`~hammerlab.engine.units.UnitStatus` keeps what a unit did
(``moved``, ``advanced``, ``charged``); the rest lives here, in the battle's
edition state (``battle.state``), so the engine needs no core11 fields and a
game is one object.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.timing import TriggerBoard
from hammerlab.engine.units import Unit


@dataclass
class Core11Game:
    """A battle as core11 plays it: the battle, its triggers and core11's memory."""

    battle: Battle
    board: TriggerBoard
    selected: set[str] = field(default_factory=set)
    """10.02: units selected to shoot this phase."""
    barred: set[tuple[str, str]] = field(default_factory=set)
    """(attacker, target) pairs a rule made no longer eligible this phase."""
    one_shot_spent: set[tuple[str, str]] = field(default_factory=set)
    """(model, weapon) pairs whose [ONE SHOT] has been fired this battle."""
    used: set[tuple[str, str, str]] = field(default_factory=set)
    """(unit, ability, turn key) for abilities used once per turn."""
    target_limits: dict[str, float] = field(default_factory=dict)
    """Unit id → the range within which it may be targeted (Lone Operative)."""
    feel_no_pain: dict[str, int] = field(default_factory=dict)
    """Unit id → its Feel No Pain X+, from its abilities (``abilities.feel_no_pain_of``)."""
    moved: set[str] = field(default_factory=set)
    """09.02: units selected to move this phase."""
    no_shoot: set[str] = field(default_factory=set)
    """Units not eligible to shoot until the end of the turn (09.07 fall-back move)."""
    no_charge: set[str] = field(default_factory=set)
    """Units not eligible to declare a charge until the end of the turn (09.06, 09.07)."""
    reported: set[str] = field(default_factory=set)
    """Unimplemented keywords already reported in the log."""
    command_points: dict[str, int] = field(default_factory=dict)
    """Player → Command Points (08.02: "Both players gain 1 Command Point (CP).")."""
    battle_shocked: set[str] = field(default_factory=set)
    """Units that are battle-shocked (08.03)."""
    starting_strength: dict[str, int] = field(default_factory=dict)
    """Unit id → its Starting Strength (01.02.01): its models at the start of the game,
    those a scenario's ``casualties`` took before it began included (a scenario is a
    moment of a game: :attr:`~hammerlab.engine.units.Unit.starting_models`)."""
    declared: set[str] = field(default_factory=set)
    """11.02: units that declared a charge this phase."""
    attacking: FireControl | None = None
    """The limits on the attacks of the unit shooting or fighting now (its shooting
    type's, a reactive shooting's, melee), while its weapons, profiles and targets
    are chosen; ``None`` between volleys: what an AI weighs those choices under
    (:meth:`attacks_under`)."""

    @classmethod
    def start(cls, battle: Battle) -> Core11Game:
        """A fresh game for ``battle``, kept as the battle's edition state."""
        game = cls(battle=battle, board=TriggerBoard(battle))
        game.starting_strength = {u.id: u.starting_models for u in battle.units.values()}
        battle.state = game
        return game

    def snapshot(self) -> dict[str, object]:
        """Plain data (for the state digest of saved games)."""
        return {
            "selected": sorted(self.selected),
            "barred": sorted(self.barred),
            "one_shot_spent": sorted(self.one_shot_spent),
            "used": sorted(self.used),
            "target_limits": sorted(self.target_limits.items()),
            "no_shoot": sorted(self.no_shoot),
            "no_charge": sorted(self.no_charge),
            "held": [e.name for e in self.board.held],
            "command_points": sorted(self.command_points.items()),
            "battle_shocked": sorted(self.battle_shocked),
            "fights_first": sorted(
                u.id for u in self.battle.units.values() if self.charged_this_turn(u)
            ),
        }

    @contextmanager
    def attacks_under(self, control: FireControl) -> Iterator[None]:
        """:attr:`attacking` is ``control`` while the block runs (a unit's volley or
        fight; a reactive shooting inside another unit's volley has its own), as it
        was after."""
        outer, self.attacking = self.attacking, control
        try:
            yield
        finally:
            self.attacking = outer

    def charged_this_turn(self, unit: Unit) -> bool:
        """Whether ``unit`` made a charge move this turn: the one record every rule reads
        ([LANCE], 12.03's and 12.04's eligibility, and Fights First: 11.04 After moving,
        "Until the end of the turn, each model in your unit has the Fights First ability
        (24.13)", hammerlab's only source of Fights First).

        The unit's ``status.charged``, set by a charge move in play
        (``charge.after_charge_move``) or by a scenario, is read for the active player's
        units only: a charge is made in its player's turn, and a scenario's status
        describes its player's first turn (docs/scenarios.md)."""
        return unit.status.charged and unit.player == self.battle.active_player

    @property
    def turn_key(self) -> str:
        """Identifies the current player turn (for once-per-turn abilities)."""
        return f"{self.battle.turn}:{self.battle.active_player}"

    def units_of_active_player(self) -> list[Unit]:
        """The active player's units on the table."""
        return self.battle.units_of(self.battle.active_player)

    def choose(self, decision: Decision[Any]) -> Any:
        """Ask a decision; a single legal choice is taken without asking."""
        if len(decision.choices) == 1:
            only = decision.choices[0]
            self.battle.say(
                decision.kind, f"  {decision.player}: only choice for {decision.kind}: {only.label}"
            )
            return only.value
        return self.battle.decide(decision)

    def yes_no(self, kind: str, player: str, prompt: str, context: DecisionContext) -> bool:
        """Ask ``player`` whether to use an optional rule (``use`` is listed first)."""
        choices: Sequence[Choice[bool]] = (Choice("use", True), Choice("decline", False))
        return bool(self.battle.decide(Decision(kind, player, prompt, tuple(choices), context)))
