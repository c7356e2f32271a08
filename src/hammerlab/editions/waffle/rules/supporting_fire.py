"""Supporting Fire (7th-edition Codex: Tau Empire), installed with Fire Overwatch.

"When an enemy unit declares a charge, each friendly unit with this special
rule that is within 6" of the unit being charged can choose to fire Overwatch
as if it were also the target of the charge. A unit can only fire Overwatch
once per phase." (Paraphrased from the codex, which is not in the shared
data.) In the Waffle Edition Overwatch is a Reaction to Charge (seed 004), so
a supporting unit is asked as a charged one is, with the same choice
(``charge_reaction``: Fire Overwatch or no reaction), after the charged unit
reacted. A unit locked in combat, falling back, or that has reacted to a charge
this turn (it may have fired Overwatch already) gives no Supporting Fire; one
that gives it has fired Overwatch this phase (this rule's memory).
"""

from __future__ import annotations

from hammerlab.editions.waffle.charge import NO_REACTION
from hammerlab.editions.waffle.points import ChargeWindow, Reaction
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Unit

RULE = "Supporting Fire"
RANGE = 6.0
"""'within 6" of the unit being charged' (closest bases)."""


def supporters(battle: Battle, charger: Unit, target: Unit) -> list[Unit]:
    """Friendly units of ``target`` with Supporting Fire within 6" of it that may fire."""
    fired: dict[str, str] = battle.memory.get(RULE, {})
    now = _phase_key(battle, charger)
    found = []
    for unit in battle.units_of(target.player):
        status = st(battle, unit)
        if (
            unit is target
            or unit.destroyed
            or not unit.has_rule(RULE)
            or status.locked_in_combat
            or status.falling_back
            or status.reacted_this_turn
            or fired.get(unit.id) == now
        ):
            continue
        if any(
            base_distance(m, t) <= RANGE for m in unit.alive_models for t in target.alive_models
        ):
            found.append(unit)
    return found


def _phase_key(battle: Battle, charger: Unit) -> str:
    """The phase: the turn, whose it is (the charger's player), and its name."""
    return f"{battle.turn}:{charger.player}:{battle.phase}"


def supporting_fire(overwatch: Reaction) -> ChargeWindow:
    """The handler of :data:`points.CHARGE_REACTED`: each supporter may fire
    ``overwatch`` (the Fire Overwatch reaction) at the charger."""

    def support(battle: Battle, charger: Unit, target: Unit) -> None:
        for unit in supporters(battle, charger, target):
            if charger.destroyed or not overwatch.available(battle, unit, charger):
                continue
            fire = battle.decide(
                Decision(
                    kind="charge_reaction",
                    player=unit.player,
                    prompt=f"{RULE}: {unit.label} may fire Overwatch at {charger.label}",
                    choices=(Choice(overwatch.label, True), Choice(NO_REACTION, False)),
                    context=DecisionContext(unit=unit.id, attacker=charger.id),
                )
            )
            if fire:
                memory: dict[str, str] = battle.remember(RULE, dict)
                memory[unit.id] = _phase_key(battle, charger)
                overwatch.resolve(battle, unit, charger)

    return support
