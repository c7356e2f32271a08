"""Edition-neutral game-turn scaffolding: who plays when, and the end summary."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hammerlab.editions.base import GamePlan
from hammerlab.engine.battle import Battle
from hammerlab.errors import UnknownNameError

PlayerStep = Callable[[Battle, str], None]
"""A phase, or the end of a turn, for one player."""


def play_turns(
    battle: Battle,
    plan: GamePlan,
    phases: Mapping[str, PlayerStep],
    end_of_turn: PlayerStep,
) -> None:
    """Each game turn, each player in turn plays the plan's phases.

    Phases run in the edition's order (the order of ``phases``), whatever
    order the plan lists them in; the first player is ``battle.active_player``.
    """
    unknown = [p for p in plan.phases if p not in phases]
    if unknown:
        raise UnknownNameError("phase", unknown[0], list(phases))
    order = [p.name for p in battle.players]
    if battle.active_player in order:
        first = order.index(battle.active_player)
        order = order[first:] + order[:first]
    for turn in range(1, plan.turns + 1):
        battle.turn = turn
        for player in order:
            battle.active_player = player
            for name, phase in phases.items():
                if name in plan.phases:
                    phase(battle, player)
            end_of_turn(battle, player)


def unit_lines(battle: Battle, flags: Sequence[str] = ()) -> list[str]:
    """One line per unit: models left of its starting strength, and status ``flags``."""
    lines = []
    for unit in battle.units.values():
        left = len(unit.alive_models)
        state = "destroyed" if unit.destroyed else f"{left}/{unit.starting_models} models"
        shown = [f for f in flags if getattr(unit.status, f)]
        extra = f" ({', '.join(shown)})" if shown and not unit.destroyed else ""
        lines.append(f"{unit.player}: {unit.label}: {state}{extra}")
    return lines


VICTORY_CONDITIONS = {
    "kill_points": "Kill points",
    "models_destroyed": "Models destroyed",
}


def victory_scores(battle: Battle, condition: str) -> dict[str, int]:
    """Each player's score under ``condition``."""
    if condition not in VICTORY_CONDITIONS:
        raise UnknownNameError("victory condition", condition, list(VICTORY_CONDITIONS))
    score = dict.fromkeys((p.name for p in battle.players), 0)
    for unit in battle.units.values():
        if condition == "kill_points":
            gained = 1 if unit.destroyed else 0
        else:
            gained = unit.starting_models - len(unit.alive_models)
        score[battle.opponent(unit.player)] += gained
    return score


def winner(scores: Mapping[str, int]) -> str | None:
    """The player with the highest score, or ``None`` on a draw."""
    ranking = sorted(scores.items(), key=lambda kv: -kv[1])
    if len(ranking) > 1 and ranking[0][1] == ranking[1][1]:
        return None
    return ranking[0][0]


def victory_lines(battle: Battle, condition: str) -> list[str]:
    """Each player's score under ``condition`` and who won (or a draw)."""
    scores = victory_scores(battle, condition)
    shown = ", ".join(f"{p} {n}" for p, n in sorted(scores.items(), key=lambda kv: -kv[1]))
    best = winner(scores)
    verdict = "a draw" if best is None else f"{best} wins"
    return [f"{VICTORY_CONDITIONS[condition]}: {shown}: {verdict}"]
