"""Edition-neutral end of a game: the summary lines and the victory conditions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from hammerlab.editions import get_ruleset
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.events import Event
from hammerlab.engine.units import Unit
from hammerlab.errors import UnknownNameError


def _no_flags(unit: Unit) -> Sequence[str]:
    return ()


def unit_lines(battle: Battle, flags: Callable[[Unit], Sequence[str]] = _no_flags) -> list[str]:
    """One line per unit: models left of its starting strength, and the status
    ``flags`` the edition shows for it (fleeing, gone to ground...)."""
    lines = []
    for unit in battle.units.values():
        left = len(unit.alive_models)
        state = "destroyed" if unit.destroyed else f"{left}/{unit.starting_models} models"
        shown = flags(unit)
        extra = f" ({', '.join(shown)})" if shown and not unit.destroyed else ""
        extra = extra.replace("_", " ")  # a status named in code, shown in words
        lines.append(f"{unit.player}: {unit.label}: {state}{extra}")
    return lines


def off_table_lines(away: Sequence[tuple[Unit, str]]) -> list[str]:
    """One line per unit off the table (:meth:`~hammerlab.editions.base.Ruleset.units_off_table`):
    models left of its starting strength, and where it is (``5/5 models, in reserve``)."""
    return [
        f"{unit.player}: {unit.label}: {len(unit.alive_models)}/{unit.starting_models} models, "
        f"{where}"
        for unit, where in away
    ]


VICTORY_CONDITIONS = {
    "kill_points": "Kill points scored",
    "models_destroyed": "Enemy models destroyed",
}
"""Each victory condition, as the summary line heads each player's score: what that
player scored against the other (the models it destroyed, not the ones it lost)."""

VICTORY_POINTS = {
    "kill_points": "kill points (a point for each enemy unit destroyed)",
    "models_destroyed": "enemy models destroyed (a point for each one destroyed in play)",
}
"""What each victory condition scores, for a report's reader (docs/scenarios.md)."""


def victory_text(condition: str, sudden_death: str) -> str:
    """What decides who wins a game of ``condition`` in an edition whose
    :attr:`~hammerlab.editions.base.Ruleset.sudden_death` is ``sudden_death``: what a
    lab's or sweep's win rates count (a stranger's review, s24: 94% "draw" while a squad
    lost half its models read as nonsense until kill points were known)."""
    said = f"the higher score in {VICTORY_POINTS[condition]}; equal scores are a draw"
    return f"{said}; {sudden_death}" if sudden_death else said


def units_in_play(battle: Battle) -> list[Unit]:
    """Every unit of the battle: those on the table, then those off it that are still
    in play (its ruleset's :meth:`~hammerlab.editions.base.Ruleset.units_off_table`:
    in reserve, aboard a transport). What the victory conditions count
    (:func:`victory_scores`) and the search AI values: a unit's losses and its worth
    are its army's wherever it stands."""
    away = get_ruleset(battle.ruleset).units_off_table(battle)
    return [*battle.units.values(), *(unit for unit, _ in away)]


def victory_scores(battle: Battle, condition: str) -> dict[str, int]:
    """Each player's score under ``condition``, over every unit in play
    (:func:`units_in_play`): the models a unit lost before it embarked count as
    well while it is aboard its transport at the game's end."""
    if condition not in VICTORY_CONDITIONS:
        raise UnknownNameError("victory condition", condition, list(VICTORY_CONDITIONS))
    score = dict.fromkeys((p.name for p in battle.players), 0)
    for unit in units_in_play(battle):
        if condition == "kill_points":
            gained = 1 if unit.destroyed else 0
        else:  # destroyed in play: not those a scenario's casualties took before it
            gained = unit.fielded_models - len(unit.alive_models)
        score[battle.opponent(unit.player)] += gained
    return score


def damage_share(unit: Unit, condition: str, starting_wounds: Callable[[Profile], int]) -> float:
    """What the damage done to ``unit`` is worth to its enemy under ``condition``,
    damage short of a kill counted pro rata.

    Under ``models_destroyed`` each model removed in play counts 1 and a model
    with ``w`` of its ``W`` starting wounds left (``starting_wounds``) counts
    ``1 - w/W`` (as :func:`victory_scores`, the models a scenario's casualties
    took before it began count nothing); under ``kill_points`` the unit counts
    its whole loss, those models included, as a share of its starting strength
    (its one kill point, whole once it is destroyed). So a Carnifex left on one
    wound is told apart from one unhurt."""
    points = condition == "kill_points"
    gone = unit.starting_models if points else unit.fielded_models
    lost: float = gone - len(unit.alive_models)
    lost += sum(1 - m.wounds_left / starting_wounds(m.profile) for m in unit.alive_models)
    return lost / unit.starting_models if points else lost


def winner(scores: Mapping[str, int]) -> str | None:
    """The player with the highest score, or ``None`` on a draw."""
    ranking = sorted(scores.items(), key=lambda kv: -kv[1])
    if len(ranking) > 1 and ranking[0][1] == ranking[1][1]:
        return None
    return ranking[0][0]


WIPED_OUT = "wiped_out"
"""The key in ``battle.memory`` of the players whose armies an edition's sudden-death
rule found wiped out, ending the game (:func:`record_wiped_out`)."""


def record_wiped_out(battle: Battle, players: tuple[str, ...]) -> None:
    """The game ends: ``players`` have no models left (an edition's sudden-death rule
    decided it). They are remembered (:data:`WIPED_OUT`, read by :func:`game_winner`)
    and told (:class:`WipedOut`)."""
    battle.memory[WIPED_OUT] = players
    battle.log.emit(WipedOut(players=players, turn=battle.turn))


@dataclass(frozen=True)
class WipedOut(Event):
    """The game ended at the end of a game turn: these players had no models left."""

    kind: ClassVar[str] = "wiped_out"
    players: tuple[str, ...]
    turn: int

    @property
    def text(self) -> str:
        out = " and ".join(self.players)
        return f"== End of game turn {self.turn}: {out} wiped out: the game ends =="


def game_winner(battle: Battle, condition: str) -> str | None:
    """Who won: the one player left when the others were wiped out (a draw when all
    were), else the highest score under ``condition`` (:func:`winner`)."""
    out = battle.memory.get(WIPED_OUT)
    if out:
        left = [p.name for p in battle.players if p.name not in out]
        return left[0] if len(left) == 1 else None
    return winner(victory_scores(battle, condition))


def victory_lines(battle: Battle, condition: str, over: bool = True) -> list[str]:
    """Each player's score under ``condition`` and who won (or a draw); in a game
    stopped before its end (not ``over``), who leads (or that the scores are level):
    nobody has won a game still to be played (a user review read "Cadians wins"
    under "Stopped before turn 2")."""
    scores = victory_scores(battle, condition)
    shown = ", ".join(f"{p} {n}" for p, n in sorted(scores.items(), key=lambda kv: -kv[1]))
    best = game_winner(battle, condition)
    if not over:
        return [
            f"{VICTORY_CONDITIONS[condition]}: {shown}: "
            + ("level" if best is None else f"{best} leads")
        ]
    verdict = "a draw" if best is None else f"{best} wins"
    out = battle.memory.get(WIPED_OUT)
    if out:
        verdict += f" ({' and '.join(out)} wiped out)"
    return [f"{VICTORY_CONDITIONS[condition]}: {shown}: {verdict}"]
