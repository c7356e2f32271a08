"""Fire Overwatch, the core stratagem, as a reaction on core11's timing windows.

The 11th-edition stratagem text (section 15) is not among the sources hammerlab
quotes; 07.02.01 names the stratagem ("you target a friendly unit with the Fire
Overwatch stratagem [...] Fire Overwatch is phase-locked to your opponent's
Shooting phase"), so its 10th-edition text is used:

"WHEN: Your opponent's Movement or Charge phase, just after an enemy unit is set
up or when an enemy unit starts or ends a Normal, Advance or Fall Back move, or
declares a charge. TARGET: One unit from your army that is within 24\" of that
enemy unit and that would be eligible to shoot if it were your Shooting phase.
EFFECT: If that enemy unit is visible to your unit, your unit can shoot that
enemy unit as if it were your Shooting phase. RESTRICTIONS: You cannot target a
TITANIC unit with this Stratagem. Until the end of the phase, each time a model
in your unit makes a ranged attack, an unmodified Hit roll of 6 is required to
score a hit, irrespective of the attacking weapon's Ballistic Skill or any
modifiers. You can only use this Stratagem once per turn." (1CP)

hammerlab offers it when an enemy unit ends a normal, advance or fall-back move
(the window :data:`UNIT_MOVED`) or declares a charge (:data:`CHARGE_DECLARED`);
not when it starts a move or is set up (hammerlab has no reserves). The shooting
is the reactive shooting of ``abilities.py`` (``volley.fire`` at the one enemy
unit) with only unmodified 6s hitting. 01.07: while a unit is battle-shocked, "Its
controlling player cannot target that unit with stratagems (15)." A player gets
one offer per unit: the first unit (in the scenario's order) that the player
agrees to use it with spends it for the turn.
"""

from __future__ import annotations

from hammerlab.editions.core11.events import CommandPointsSpent
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import is_engaged, sees, unit_distance
from hammerlab.editions.core11.profiles import unit_keywords
from hammerlab.editions.core11.shooting import eligible_types
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import fire
from hammerlab.editions.core11.windows import CHARGE_DECLARED, UNIT_MOVED
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import DecisionContext
from hammerlab.engine.timing import Occasion, TriggerBoard
from hammerlab.engine.units import Unit

NAME = "Fire Overwatch"
COST = 1
"""The stratagem costs 1CP."""
REACH = 24.0
"""TARGET: "One unit from your army that is within 24\" of that enemy unit"."""
OVERWATCH = "overwatch"
"""The decision kind: use the stratagem or not (``DecisionContext.why``: the window)."""
WINDOWS = (UNIT_MOVED, CHARGE_DECLARED)
"""WHEN: "when an enemy unit [...] ends a Normal, Advance or Fall Back move, or declares
a charge"."""


class FireOverwatch:
    """The stratagem, offered to one unit of its player at one of its :data:`WINDOWS`."""

    def __init__(self, game: Core11Game, bearer: str, window: str) -> None:
        self.game = game
        self.bearer = bearer
        self._window = window

    @property
    def unit(self) -> Unit:
        return self.game.battle.unit(self.bearer)

    @property
    def name(self) -> str:
        return f"{NAME} ({self.unit.label})"

    @property
    def owner(self) -> str:
        return self.unit.player

    @property
    def window(self) -> str:
        return self._window

    def _key(self) -> tuple[str, str, str]:
        return (self.owner, NAME, self.game.turn_key)

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """A unit of the active player, an enemy, moved or declared a charge; this unit may
        be targeted:
        1CP to spend, not used this turn, within 24\", sees the enemy, not TITANIC, not
        battle-shocked, and eligible to shoot as in its own Shooting phase."""
        unit = self.unit
        if unit.destroyed or not occasion.actor:
            return False
        enemy = battle.unit(occasion.actor)
        game = self.game
        return (
            enemy.player == battle.active_player
            and enemy.player != unit.player
            and not enemy.destroyed
            and game.command_points.get(unit.player, 0) >= COST
            and self._key() not in game.used
            and unit.id not in game.battle_shocked
            and "TITANIC" not in unit_keywords(unit)
            and unit.id not in game.no_shoot
            and not is_engaged(battle, unit)
            and bool(eligible_types(game, unit))
            and unit_distance(unit, enemy) <= REACH
            and any(sees(battle, m, enemy) for m in unit.alive_models)
        )

    def resolve(self, battle: Battle, occasion: Occasion, board: TriggerBoard) -> None:
        """Ask the player; if used, spend 1CP and shoot the charging unit."""
        enemy = battle.unit(str(occasion.actor))
        used = self.game.yes_no(
            OVERWATCH,
            self.owner,
            f"{self.name}: shoot {enemy.label} (1CP, hits on unmodified 6s only)?",
            DecisionContext(unit=self.bearer, what=NAME, attacker=enemy.id, why=self.window),
        )
        if not used:
            return
        game = self.game
        game.used.add(self._key())
        total = game.command_points[self.owner] - COST
        game.command_points[self.owner] = total
        battle.emit(CommandPointsSpent(self.owner, COST, NAME, self.unit.label, enemy.label, total))
        control = FireControl("overwatch", only_target=enemy.id, overwatch=True)
        fire(game, self.unit, control)


def install_overwatch(game: Core11Game) -> None:
    """Every unit may be the target of Fire Overwatch, at each of its windows."""
    for window in WINDOWS:
        for unit in game.battle.units.values():
            game.board.register(FireOverwatch(game, unit.id, window))
