"""The end of a game by Sudden Death, which the seeds do not spell out.

7th edition, Sudden Death Victory: "If at the end of any game turn, one player
has no models on the battlefield, his opponent automatically wins" (6th edition
likewise ends a game whose side is wiped out). The game ends there, whatever
the turns still planned and whatever the scenario's score (docs/rules/waffle.md,
"The end of the game"): ten Tactical Marines who killed fifteen Boyz before the
last of them fell have lost. hammerlab's reading: a unit aboard a transport or
waiting in reserve is still in play (its models are not destroyed and it may
yet come on), so only a player with no model alive anywhere is wiped out; and
if both players are, the game is a draw.
"""

from __future__ import annotations

from hammerlab.editions.turns import record_wiped_out
from hammerlab.editions.waffle.reserves import lose_reserves, units_off_table
from hammerlab.engine.battle import Battle


def game_over(battle: Battle) -> bool:
    """Whether, at the end of this game turn, a player is wiped out: it ends the game
    (:func:`turns.record_wiped_out`), and the units still in reserve, which can no
    longer arrive, count as destroyed (:func:`reserves.lose_reserves`)."""
    held = [unit for unit, _ in units_off_table(battle)]
    out = tuple(
        player.name
        for player in battle.players
        if not battle.units_of(player.name)
        and not any(unit.player == player.name and not unit.destroyed for unit in held)
    )
    if out:
        record_wiped_out(battle, out)
        lose_reserves(battle)
    return bool(out)
