"""What each side can still do past a search playout's horizon, from the rules' own
estimates: the search's value looks one turn beyond the score.

A playout stops at a fixed horizon; valued by the score alone, a move that
takes a unit out of the enemy's reach looks as good as one that sets up its
own charge, because neither has paid off yet. :func:`threat_margin` adds
what each side's units are expected to remove of the enemy in their next
turn (Waffle Edition: :func:`waffle_threat`), so a playout that leaves a
unit able to charge or shoot is told apart from one that leaves it out of
the fight.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.base import Ruleset
from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.movement import move_allowance
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import charge_value
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import may_charge
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

Threat = Callable[[Battle, Unit, str], float]
"""A unit's expected score next turn under a victory condition, in its points."""


def waffle_threat(battle: Battle, unit: Unit, victory: str) -> float:
    """The most ``unit`` is expected to score next turn if free: its best charge
    after a move nearer (:func:`plans.charge_value`: the odds of reaching,
    the fight's exchange, the Overwatch it takes; none for a unit that may
    not charge, such as a vehicle) or its best shooting attack
    from where it stands (:func:`expected.expected_attack`). Nothing for a
    unit locked in combat (its fight is the playout's, not a threat).

    Under ``kill_points`` models removed count as that share of the target's
    kill point (its starting models), as :func:`search.value_for` counts them."""
    if unit.destroyed or st(battle, unit).locked_in_combat:
        return 0.0
    move = move_allowance(unit)
    best = 0.0
    for enemy in battle.enemies_of(unit):
        share = 1.0 / enemy.starting_models if victory == "kill_points" else 1.0
        shots = expected_attack(battle, unit, enemy, FireOrders())
        charge = 0.0
        if may_charge(unit) and not st(battle, enemy).locked_in_combat:
            charge = charge_value(battle, unit, enemy, move).value
        best = max(best, share * shots, share * charge)
    return best


THREATS: dict[str, Threat] = {"waffle": waffle_threat}
"""The editions that estimate a unit's threat; the others' search values the score alone."""


def threat_margin(battle: Battle, ruleset: Ruleset, victory: str, player: str) -> float:
    """``player``'s units' threats (:data:`THREATS`) less every other player's; 0 for
    an edition without an estimate."""
    threat = THREATS.get(ruleset.name)
    if threat is None:
        return 0.0
    margin = 0.0
    for unit in battle.units.values():
        value = threat(battle, unit, victory)
        margin += value if unit.player == player else -value
    return margin
