"""Hit and Run (7th-edition rulebook), at the end of the Assault phase.

"A unit that contains at least one model with this special rule that is locked
in combat can choose to leave close combat at the end of any Assault phase. If
the unit wishes to do so, it must take an Initiative test. If the test is
failed, nothing happens and the models remain locked in the fight. If the test
is passed, choose a direction - then roll 3D6. As long as the distance rolled,
in inches, is sufficient to allow the entire unit to move over 1" away from all
of the enemy units they are locked in combat with, the unit breaks away from
combat and must immediately move a number of inches in the chosen direction
equal to the 3D6 result, ignoring the models they were locked in combat with.
No Sweeping Advance rolls are made. Enemy units that are no longer locked in
combat immediately Consolidate D6". A Hit & Run move is not slowed by
difficult terrain, but takes Dangerous Terrain tests as normal. It may not be
used to move into base or hull contact with enemy units".

Interpretations (docs/rules/waffle.md): the Initiative test is a D6 against the
unit's highest Initiative, a 6 always failing and a 1 always passing (the
7th-edition characteristic test); the direction is straight away from the
enemy models the unit is locked with (from their centre through the unit's);
the move is a straight block move that may pass through those models but no
other base, stays on the table and ends over 1" from every enemy model —
where it cannot, the unit stays locked. The units of the player whose turn it
is disengage first (the rule's roll-off is not made).
"""

from __future__ import annotations

import math

from hammerlab.editions.waffle.assault_results import consolidate
from hammerlab.editions.waffle.combat import foes_in_contact, refresh_locks
from hammerlab.editions.waffle.movement import dangerous_terrain_tests
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import Vec
from hammerlab.engine.moves import centre_of, path_clear, shift_unit
from hammerlab.engine.units import Model, Unit

RULE = "Hit and Run"
SPELLINGS = ("Hit and Run", "Hit & Run")
CLEARANCE = 1.0
"""'move over 1" away from all of the enemy units'."""
STAY, LEAVE = "stay", "leave combat"


def has_hit_and_run(unit: Unit) -> bool:
    """Whether a model of ``unit`` has the rule (either spelling)."""
    return any(unit.has_rule(name) for name in SPELLINGS)


def hit_and_run(battle: Battle, player: str) -> None:
    """The end of the Assault phase: each locked unit with Hit and Run may leave."""
    units = sorted(battle.units.values(), key=lambda u: (u.player != player, u.id))
    for unit in units:
        if unit.destroyed or not has_hit_and_run(unit) or not st(battle, unit).locked_in_combat:
            continue
        leave = battle.decide(
            Decision(
                kind="hit_and_run",
                player=unit.player,
                prompt=f"Hit and Run: does {unit.label} leave the combat?",
                choices=(Choice(STAY, False), Choice(LEAVE, True)),
                context=DecisionContext(unit=unit.id),
            )
        )
        if leave:
            break_away(battle, unit)


def initiative_test(battle: Battle, unit: Unit) -> bool:
    """A D6 against the unit's highest Initiative; a 6 fails, a 1 passes."""
    best = max(stats_of(m.profile).i for m in unit.alive_models)
    roll = battle.dice.d6(f"Initiative test {best} ({unit.label})")
    return roll != 6 and (roll == 1 or roll <= best)


def break_away(battle: Battle, unit: Unit) -> None:
    """The Initiative test, the 3D6" move away, and the enemy's Consolidation."""
    if not initiative_test(battle, unit):
        battle.say("fight", f"{unit.label} fails its Initiative test: it stays locked")
        return
    locked = foes_in_contact(battle, unit)
    distance = battle.dice.total(3, f"Hit and Run distance 3D6 ({unit.label})")
    vector = _away(unit, locked, float(distance))
    foes = [m for f in locked for m in f.alive_models]
    others = [m for m in battle.other_models(unit) if m not in foes]
    enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
    if not (
        path_clear(battle, unit.alive_models, vector, others) and _clear(unit, vector, enemies)
    ):
        battle.say("fight", f'{unit.label} cannot break away {distance}": it stays locked')
        return
    starts = {m.id: m.position for m in unit.alive_models}
    shift_unit(battle, unit, vector, "Hit and Run")
    battle.say("fight", f'{unit.label} breaks away from combat ({distance}")')
    dangerous_terrain_tests(battle, unit, starts)
    refresh_locks(battle)
    for foe in locked:
        if not foe.destroyed and not st(battle, foe).locked_in_combat:
            consolidate(battle, foe)
    refresh_locks(battle)


def _away(unit: Unit, locked: list[Unit], distance: float) -> Vec:
    """``distance`` inches straight away from the centre of the enemy models."""
    foes = [m for f in locked for m in f.alive_models]
    fx = sum(m.position[0] for m in foes) / len(foes)
    fy = sum(m.position[1] for m in foes) / len(foes)
    cx, cy = centre_of(unit)
    length = math.hypot(cx - fx, cy - fy) or 1.0
    return ((cx - fx) / length * distance, (cy - fy) / length * distance)


def _clear(unit: Unit, vector: Vec, enemies: list[Model]) -> bool:
    """Whether every model, moved by ``vector``, ends over 1" from every enemy model."""
    moved = [(m, (m.position[0] + vector[0], m.position[1] + vector[1])) for m in unit.alive_models]
    return all(
        math.hypot(x - e.position[0], y - e.position[1]) - m.radius - e.radius > CLEARANCE
        for m, (x, y) in moved
        for e in enemies
    )
