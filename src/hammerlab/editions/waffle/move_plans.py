"""Where the heuristic moves a unit: out of reach of a charge it would rather not take.

Seed 004: "a charge can usually only be declared on a unit up to 12" away
... Roll 2D6. This is your charge range"; an enemy unit moves first (6", 12"
for fast units: :func:`movement.move_allowance`) and then charges. A unit
that advances walks into that reach. When an enemy unit would declare that
charge (:func:`plans.counter_charge` gains it something) and the fight it
brings is one the unit loses, to its end (:func:`plans.fight_net`, in
models weighed by the victory condition), and that loss, times the chance
the charge reaches, is more than the unit's own best charge after its move
gains it (:func:`plans.best_charge`), advancing offers the enemy the better
fight, so the unit retreats toward its own table edge instead, which puts
the 2D6 roll (and the enemy's move) further from it. A fight the unit wins
is no reason to step back, however much the charge gains the enemy
otherwise (the shooting it spares the chargers, a first round won).

*Situation*: a Space Marine Captain (one model, a kill point of his own)
that twenty Boyz would charge and pull down, with no charge of his own worth
making, stays back with his squad's guns instead of walking into them; a
Carnifex that a Guard squad's charge would cost a sixth of itself in the
first round, and that then grinds the squad down, walks on at the Guard.

A unit that would advance, or Run, straight across difficult terrain goes
round it instead (the intent ``flank``: :mod:`flank`) when it is there to
charge and the terrain would cost it the first blows, and those are worth
more than the turn of enemy fire its detour adds (:func:`wants_to_flank`).

*Situation*: Genestealers (Initiative 6, no assault grenades) with a ruined
wall between them and Ork Boyz: charging across it they strike at Initiative
1, after the Boyz; from round its end they strike first. Hormagaunts behind
woods in front of a Guard gunline go through them: the way round would give
the lasguns a turn at them for the two models or so its first blows win.
"""

from __future__ import annotations

from hammerlab.editions.waffle.charge import through_difficult_terrain
from hammerlab.editions.waffle.expected import (
    expected_attack,
    expected_melee,
    melee_exchange,
    strikes_first,
)
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.movement import move_allowance, route_of
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import (
    best_charge,
    counter_charge,
    counter_charge_chance,
    exposure,
    fight_net,
)
from hammerlab.editions.waffle.vehicles import may_charge
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import centre_distance, nearest
from hammerlab.engine.moves import centre_of
from hammerlab.engine.units import Unit


def charge_threat(battle: Battle, unit: Unit) -> float:
    """What the costliest enemy charge at ``unit`` next turn, after the enemy's move,
    is expected to cost it: the chance the charge reaches
    (:func:`plans.charge_chance`) times what the fight loses it, net, to its end
    (:func:`plans.fight_net`; a fight it wins costs it nothing). Only a charge
    the enemy would declare counts (:func:`plans.counter_charge` gains it
    something: 0 for a unit that may not charge, or is locked in combat).

    Cheapest first, the same answer: a charge that cannot reach
    (:func:`plans.counter_charge_chance` 0) is neither declared nor costly; of
    the others the fight (:func:`plans.fight_net`) is worked out before the
    counter-charge's gain, whose Overwatch and spared shooting are then asked
    only of a fight the unit would lose."""
    costs = [0.0]
    for enemy in battle.enemies_of(unit):
        chance = counter_charge_chance(battle, enemy, unit)
        if chance <= 0:
            continue
        loss = -fight_net(battle, enemy, unit)
        if loss > 0 and counter_charge(battle, enemy, unit) > 0:
            costs.append(chance * loss)
    return max(costs)


def wants_to_retreat(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` should retreat rather than advance in its Movement phase:
    an enemy's charge at it next turn is expected to cost it more
    (:func:`charge_threat`) than its own best charge after a move
    (:func:`plans.best_charge`) gains it."""
    threat = charge_threat(battle, unit)
    if threat <= 0:
        return False
    return threat > best_charge(battle, unit, closer=move_allowance(unit))[1]


def wants_to_flank(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit``, about to advance (or Run toward the enemy), should go round
    difficult terrain instead (the intent ``flank``, offered only where its way
    crosses some): it may charge, and its charge at the enemy unit it heads for
    (the closest enemy model's) crosses difficult terrain
    (:func:`charge.through_difficult_terrain`), which costs it the first blows:
    across it, its models without assault grenades at Initiative 1, it would not
    strike first, in the open it would (:func:`expected.strikes_first`); it
    is there to charge: one round of its blows is expected to kill more than its
    shooting (:func:`expected.expected_melee`, :func:`expected.expected_attack`);
    and the first blows are worth the detour (:func:`detour_pays`)."""
    enemies = [e for e in battle.enemies_of(unit) if e.alive_models]
    if not enemies or not may_charge(unit):
        return False
    closest = nearest(unit.alive_models, [m for e in enemies for m in e.alive_models])
    target = next(e for e in enemies if closest in e.alive_models)
    if not through_difficult_terrain(battle, unit, target):
        return False
    if strikes_first(battle, unit, target, True) or not strikes_first(
        battle, unit, target, True, in_the_open=True
    ):
        return False
    melee = expected_melee(battle, unit, unit.alive_models, target, True)
    if melee <= expected_attack(battle, unit, target, FireOrders()):
        return False
    return detour_pays(battle, unit, target)


def detour_pays(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether the first round of ``unit``'s charge at ``target`` gains more from
    the open than across difficult terrain (:func:`expected.melee_exchange`
    both ways: the models it slays, less those it loses, weighed by the
    victory condition) than the way round costs it: the inches the flank's
    route (:func:`movement.route_of`) adds to the straight way to its goal, as
    a share of its move, times a turn of the enemy's shooting at it
    (:func:`plans.exposure`)."""
    route = route_of(battle, unit, FLANK)
    if route is None:
        return False
    start = centre_of(unit)
    legs = zip((start, *route[:-1]), route, strict=True)
    detour = sum(centre_distance(a, b) for a, b in legs) - centre_distance(start, route[-1])
    own, theirs = model_worth(battle, unit), model_worth(battle, target)
    cost = detour / move_allowance(unit) * exposure(battle, unit) * own
    across = melee_exchange(battle, unit, target)
    open_field = melee_exchange(battle, unit, target, True)
    won = (open_field[0] - across[0]) * theirs + (across[1] - open_field[1]) * own
    return won > cost
