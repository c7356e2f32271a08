"""What the Waffle AI weighs when its unit may Jink (``rules/jink.py``).

Like Dive for Cover (``reaction_plans.dive_gain``), Jink is worth the casualties its 4+
cover save spares the unit from the enemy units still to shoot at it this
phase, the attacker first; it costs what Snap Shots take from the unit's own
shooting next turn, if the game still has one for it. Both are the rules' own estimates
(:func:`expected.expected_attack`, asked "what if it Jinked"), each model
worth what the victory condition gives for it (:func:`victory_worth.model_worth`).
"""

from __future__ import annotations

from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import shoots_again
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def jink_gain(battle: Battle, unit: Unit, attacker: Unit) -> float:
    """Casualties the Jink cover save is expected to spare ``unit`` this phase: from
    ``attacker``'s attack and from each enemy unit that may still shoot at it."""
    gain = 0.0
    for enemy in battle.units_of(attacker.player):
        status = st(battle, enemy)
        if enemy is not attacker and (status.has_shot or status.ran or status.locked_in_combat):
            continue
        if enemy is not attacker and unit not in targets_for(battle, enemy, FireOrders()):
            continue
        exposed = expected_attack(battle, enemy, unit, FireOrders(), jinking=False)
        gain += exposed - expected_attack(battle, enemy, unit, FireOrders(), jinking=True)
    return gain * model_worth(battle, unit)


def jink_cost(battle: Battle, unit: Unit) -> float:
    """What Snap Shots take from the unit's best shooting attack next turn: nothing
    when its side has no Shooting phase to come (:func:`plans.shoots_again`)."""
    if not shoots_again(battle, unit):
        return 0.0
    return max(
        [
            0.0,
            *(
                (
                    expected_attack(battle, unit, e, FireOrders())
                    - expected_attack(battle, unit, e, FireOrders(snap=True))
                )
                * model_worth(battle, e)
                for e in battle.enemies_of(unit)
            ),
        ]
    )


def wants_to_jink(battle: Battle, unit: Unit, attacker: Unit) -> bool:
    """Jink when the casualties spared exceed the shooting lost."""
    return jink_gain(battle, unit, attacker) > jink_cost(battle, unit)
