"""What the combats still being fought are expected to bring each player: the
search AI's look past its horizon (``analysis.search``, ``Budget.outlook``).

A playout stops after the searcher's own turn, often with units still locked
in combat. In the 6th/7th edition a combat is fought again in every player's
Assault phase (the fight sub-phase resolves every combat, whoever's turn it
is), so a value read there counts the blows struck so far and none of those
to come: a charge into a unit that will grind the charger down scores its
first round, and a tarpit that will hold for three turns scores nothing. The
same blind spot as a chess search that stops halfway through an exchange;
the outlook is its quiescence term, from the AI's own estimates.

Each unit in a combat strikes the first enemy unit in base contact with it
(by id) at the rate of a round after the charge
(:func:`expected.expected_melee`, ``charged`` false: every model fighting,
as a pile-in brings them, and no charge bonus, as
:func:`plans.fight_net`'s later rounds). A combat goes on, at those rates,
for the player turns left in the game or until its first unit is expected
to be destroyed, whichever is sooner; neither side's losses slow its blows,
and Morale (a Fall Back, a Sweeping Advance) is not counted. A model slain
is worth what the value counts it (``turns.damage_share``): 1 under models
destroyed, its share of its unit's kill point under kill points. Combats
with a vehicle are left out (no blow estimate is exact there, as for the
luck, :mod:`luck`).
"""

from __future__ import annotations

import math

from hammerlab.editions.waffle.combat import combats, foes_in_contact
from hammerlab.editions.waffle.expected import expected_melee
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle


def fight_outlook(battle: Battle, rounds: int) -> dict[str, float]:
    """Each player's expected gain from the combats on the table over ``rounds``
    more fight sub-phases, in the value's units (the enemy models it is
    expected to slay, each worth :func:`victory_worth.model_worth`)."""
    gains = dict.fromkeys((p.name for p in battle.players), 0.0)
    if rounds <= 0:
        return gains
    for combat in combats(battle):
        units = combat.units
        if any(is_vehicle(u) for u in units):
            continue
        incoming = dict.fromkeys((u.id for u in units), 0.0)
        for unit in units:
            foe = min(foes_in_contact(battle, unit), key=lambda u: u.id)
            incoming[foe.id] += expected_melee(battle, unit, unit.alive_models, foe, False)
        lasting = min(
            (len(u.alive_models) / incoming[u.id] for u in units if incoming[u.id] > 0.0),
            default=math.inf,
        )
        fought = min(float(rounds), lasting)
        for unit in units:
            slain = min(float(len(unit.alive_models)), incoming[unit.id] * fought)
            gains[battle.opponent(unit.player)] += slain * model_worth(battle, unit)
    return gains
