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

A Run toward the enemy (D6", :func:`movement.run_distances`) walks into that
reach too: it goes only when it pays (:func:`run_pays`), the enemy charge it
adds costing no more than the unit's own charge next turn gains by it, with
the unit as much nearer as its route takes it (:func:`run_nearer`).
*Situation*: the same Captain, whose bolt pistol reaches no target and who
would Run at the Boyz, holds instead.

A unit that would advance, or Run, straight across difficult terrain goes
round it instead (the intent ``flank``: :mod:`flank`) when it is there to
charge and the terrain would cost it the first blows, and those are worth
more than the turn of enemy fire its detour adds (:func:`wants_to_flank`).

*Situation*: Genestealers (Initiative 6, no assault grenades) with a ruined
wall between them and Ork Boyz: charging across it they strike at Initiative
1, after the Boyz; from round its end they strike first. Hormagaunts behind
woods in front of a Guard gunline go through them: the way round would give
the lasguns a turn at them for the two models or so its first blows win.

A unit there to charge, with another unit of its army nearer the enemy to
draw the fire and charge it, holds where fewer guns reach it, and does not
Run toward them either, when the fire its advance walks into costs more than
the charge it buys (:func:`shot_down_on_the_way`). *Situation*: a Warboss
(a kill point of his own) 26" from a Tactical Squad, behind twenty Boyz:
only its heavy bolter reaches him there; two turns of walking in put him in
reach of every boltgun too, which are expected to kill him before his
charge. He waits until the Marines are locked in combat with the Boyz. A
Captain behind his Tactical Squad, a gun line that will not charge the
Boyz, does not wait: no one will tie their guns up for him.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass

from hammerlab.editions.schedule import still_to_play, turns_ahead
from hammerlab.editions.waffle.charge import (
    charge_ban,
    charge_distance,
    through_difficult_terrain,
)
from hammerlab.editions.waffle.combat import engaged_models, foes_in_contact, locks
from hammerlab.editions.waffle.expected import (
    PLAIN_ORDERS,
    expected_attack,
    expected_casualties,
    expected_melee,
    melee_exchange,
    strikes_first,
    thinned,
)
from hammerlab.editions.waffle.firepower import ranged_weapons
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.movement import (
    advance_shift,
    first_leg,
    move_allowance,
    offers_flank,
    route_of,
)
from hammerlab.editions.waffle.movement_phase import crosses_difficult
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import (
    ASSAULT_PHASE,
    MOVEMENT_PHASE,
    SHOOTING_PHASE,
    best_charge,
    charge_chance,
    charge_gain,
    counter_charge,
    counter_charge_chance,
    exposure,
    fight_net,
    move_ahead,
    next_charge,
    shoots_again,
)
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.special_rules import difficult_terrain_dice, relentless
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import is_vehicle, may_charge, may_move
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import centre_distance, nearest, step_toward
from hammerlab.engine.moves import centre_of, shifted_copy
from hammerlab.engine.scoped import holding
from hammerlab.engine.units import Unit


def charge_threat(
    battle: Battle, unit: Unit, nearer: float = 0.0, *, escapable: bool = False
) -> float:
    """What the costliest enemy charge at ``unit`` next turn, after the enemy's move,
    is expected to cost it: the chance the charge reaches
    (:func:`plans.charge_chance`) times what the fight loses it, net, to its end
    (:func:`plans.fight_net`; a fight it wins costs it nothing). Only a charge
    the enemy would declare counts (:func:`plans.counter_charge` gains it
    something: 0 for a unit that may not charge, or is locked in combat).
    With ``nearer``, the unit stands that many inches closer to every enemy
    first (a Run toward them: :func:`run_pays`).

    Cheapest first, the same answer: a charge that cannot reach
    (:func:`plans.counter_charge_chance` 0) is neither declared nor costly; of
    the others the fight (:func:`plans.fight_net`) is worked out before the
    counter-charge's gain, whose Overwatch and spared shooting are then asked
    only of a fight the unit would lose. With ``escapable``, only the charges a
    retreat can escape (:func:`retreat_escapes`)."""
    costs = [0.0]
    for enemy in battle.enemies_of(unit):
        if escapable and not retreat_escapes(battle, unit, enemy):
            continue
        chance = counter_charge_chance(battle, enemy, unit, nearer)
        if chance <= 0:
            continue
        loss = -fight_net(battle, enemy, unit)
        if loss > 0 and counter_charge(battle, enemy, unit, nearer, chance=chance) > 0:
            costs.append(chance * loss)
    return max(costs)


def run_pays(battle: Battle, unit: Unit, nearer: float) -> bool:
    """Whether a Run that brings ``unit`` ``nearer`` inches closer to the enemy
    (:func:`run_nearer`) pays for itself: the enemy charge it walks into next
    turn (what it adds to :func:`charge_threat`) costs no more than it adds to
    the unit's own best charge after its next move (:func:`plans.next_charge`:
    none when the game has no Assault phase left for it).
    Every enemy unit is taken as that much nearer. A Run that adds no threat
    pays (its gain, the guns it brings in reach or the fight it closes on, is
    why the unit Runs: :func:`wants_to_run`)."""
    return next(runs_paying(battle, unit, (nearer,)))


def runs_paying(battle: Battle, unit: Unit, nearers: Iterable[float]) -> Iterator[bool]:
    """:func:`run_pays` for each of ``nearers`` in turn, lazily (``any`` stops at the
    first that pays), with what the unit faces and gains where it stands worked
    out once for them all rather than once per distance."""
    threat = charge_threat(battle, unit)
    standing: float | None = None  # its own best charge from where it stands, once needed
    for nearer in nearers:
        added = charge_threat(battle, unit, nearer) - threat
        if added <= 0:
            yield True
            continue
        if standing is None:
            standing = next_charge(battle, unit)
        yield added <= next_charge(battle, unit, nearer) - standing


def run_intent(battle: Battle, unit: Unit) -> str:
    """Which way a Run toward the enemy goes: round difficult terrain (``flank``,
    where it is offered, :func:`movement.offers_flank`, and :func:`wants_to_flank`),
    else straight at the closest enemy model (``advance``)."""
    if offers_flank(battle, unit) and wants_to_flank(battle, unit):
        return FLANK
    return "advance"


def run_nearer(battle: Battle, unit: Unit, intent: str, inches: float) -> float:
    """How many inches nearer to the point it heads for (the closest enemy model)
    a Run of ``inches`` with ``intent`` brings the unit's centre, along its
    route (:func:`movement.route_of`): the whole distance straight at it, less
    on a way round difficult terrain. Blockers on the way are not counted."""
    route = route_of(battle, unit, intent)
    if route is None:
        return 0.0
    start = at = centre_of(unit)
    left = inches
    for point in route:
        step = min(left, centre_distance(at, point))
        at, left = step_toward(at, point, step), left - step
    return centre_distance(start, route[-1]) - centre_distance(at, route[-1])


def dive_cost(battle: Battle, unit: Unit, intent: str, inches: float) -> float:
    """What Dive for Cover's Run of ``inches`` with ``intent`` leaves ``unit`` facing,
    gone to ground where it ends (it Goes to Ground wherever its Run ends: +1 to a
    cover save, 6+ without one): what every enemy unit free to shoot is expected to
    kill of it there (:func:`expected.expected_attack`, its cover as it would be from
    there: in a terrain area or seen through one, ``visibility.cover_save``), in
    models weighed by the victory condition, and the costliest enemy charge at it
    there next turn (:func:`charge_threat`). The Run is weighed where
    :func:`movement.first_leg` would take it (``hold``: where it stands), as a copy
    (:func:`shifted_copy`)."""
    shift = first_leg(battle, unit, intent, inches)
    there = unit if shift == (0.0, 0.0) else shifted_copy(unit, shift)
    fire = sum(
        expected_attack(battle, enemy, there, PLAIN_ORDERS, gone_to_ground=True)
        for enemy in battle.enemies_of(unit)
        if enemy.alive_models and not st(battle, enemy).locked_in_combat
    )
    killed = min(fire, float(len(unit.alive_models)))
    return killed * model_worth(battle, unit) + charge_threat(battle, there)


def drives_off(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit``, a vehicle without a Weapon Skill, should drive away from
    the enemies in base contact with it: it is not locked in combat
    (:func:`combat.refresh_locks`), so whoever still touches it strikes it again
    in the next Fight sub-phase, and it strikes no blow back. It drives off when
    their blows are expected to do it any harm (:func:`expected.expected_melee`,
    the vehicle rules' odds): moving costs a vehicle none of its shooting
    (every weapon at full Ballistic Skill after a move).

    *Situation*: a Leman Russ charged by a Tactical Squad with krak grenades
    held where it stood for its guns and was wrecked in its own Assault phase
    (a player's review)."""
    if locks(unit):
        return False
    return any(
        expected_melee(battle, foe, engaged_models(battle, foe), unit, False) > 0
        for foe in foes_in_contact(battle, unit)
    )


def wants_to_retreat(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` should retreat rather than advance in its Movement phase:
    an enemy's charge at it next turn, one the retreat can escape
    (:func:`retreat_escapes`), is expected to cost it more
    (:func:`charge_threat`) than its own best charge after a move gains it
    (:func:`own_charge_ahead`)."""
    threat = charge_threat(battle, unit, escapable=_escapes_only.get())
    if threat <= 0:
        return False
    return threat > own_charge_ahead(battle, unit)


def retreat_escapes(battle: Battle, unit: Unit, enemy: Unit) -> bool:
    """Whether stepping back from ``enemy`` can keep its charge off, rather than
    put it off a turn: not when ``enemy`` closes at least as fast as the unit
    steps back (its move before its charge, :func:`plans.move_ahead`, is at
    least the unit's :func:`movement.move_allowance`) and its side has an
    Assault phase after its next one (:func:`schedule.turns_ahead`). Then the
    enemy follows and charges a turn later, and the unit has given up its own
    charge for nothing (while the lever :func:`escaping_only` is off, every
    charge counts, as until branch ``issue9-declines``).

    *Situation*: twenty Boyz 18" from fourteen Genestealers, with four turns
    of Genestealers to come, stepped back from their charge in the first turn
    of 20 games of 20; played to the end, advancing instead was better by
    3.8 models on average (``examples/matchups/decision_duel.py --decline
    "move: retreat"``)."""
    follows = move_ahead(battle, enemy) >= move_allowance(unit)
    return not (follows and turns_ahead(battle, enemy.player, ASSAULT_PHASE) > 1)


_escapes_only: ContextVar[bool] = ContextVar("escapes_only", default=True)
"""Whether a retreat weighs only the charges it can escape (:func:`escaping_only`)."""


def escaping_only(escapes: bool) -> AbstractContextManager[None]:
    """While the block runs, a retreat weighs only the charges it can escape
    (:func:`retreat_escapes`; ``False``: every charge, as until branch
    ``issue9-declines``)."""
    return holding(_escapes_only, escapes)


def own_charge_ahead(battle: Battle, unit: Unit) -> float:
    """What ``unit``'s own next charge gains, after a move: in its Movement phase,
    this turn's after the move it is about to make (:func:`plans.best_charge`), if
    the turn has an Assault phase still to come and the unit may charge in it
    (:func:`charge.charge_ban`: not after a Regroup, nor in the first turn after a
    Scout redeployment or Infiltrate); else its next turn's
    (:func:`plans.next_charge`: nothing when the game has no Assault phase left
    for it). Asked by the Run too (``ai.WaffleAI._runs``), in the Shooting
    phase, where a unit that Runs cannot charge this turn."""
    if (
        battle.phase == MOVEMENT_PHASE
        and still_to_play(battle, ASSAULT_PHASE)
        and charge_ban(battle, unit) is None
    ):
        return best_charge(battle, unit, closer=move_allowance(unit))[1]
    return next_charge(battle, unit)


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
    target = heading_for(battle, unit)
    if target is None or not through_difficult_terrain(battle, unit, target):
        return False
    if strikes_first(battle, unit, target, True) or not strikes_first(
        battle, unit, target, True, in_the_open=True
    ):
        return False
    return there_to_charge(battle, unit, target) and detour_pays(battle, unit, target)


def heading_for(battle: Battle, unit: Unit) -> Unit | None:
    """The enemy unit an advance heads for (its closest model's: :mod:`movement`),
    if ``unit`` may charge (:func:`vehicles.may_charge`); else ``None``."""
    enemies = [e for e in battle.enemies_of(unit) if e.alive_models]
    if not enemies or not may_charge(unit):
        return None
    closest = nearest(unit.alive_models, [m for e in enemies for m in e.alive_models])
    return next(e for e in enemies if closest in e.alive_models)


def there_to_charge(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether one round of ``unit``'s blows at ``target`` is expected to kill more
    than its shooting (:func:`expected.expected_melee`, :func:`expected.expected_attack`)."""
    melee = expected_melee(battle, unit, unit.alive_models, target, True)
    return melee > expected_attack(battle, unit, target, PLAIN_ORDERS)


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


CHARGES = 0.5
"""A charge counts as in reach (:func:`turns_under_fire`) once it is at least as
likely as not to reach (:func:`plans.charge_chance`)."""

LONGEST_APPROACH = 7
"""The most enemy Shooting phases :func:`turns_under_fire` counts: a 6th/7th-edition
game lasts five to seven turns."""


def turns_under_fire(battle: Battle, unit: Unit, target: Unit) -> tuple[int, float, float]:
    """How many of the enemy's Shooting phases ``unit`` walks through before its
    charge at ``target`` comes in reach, advancing every turn; how far it has
    come when the first of them fires; and how far when it charges.

    Each turn it moves its allowance (:func:`movement.move_allowance`); a
    turn whose charge is not yet in reach (:data:`CHARGES`) it Runs as well
    (seed 000: "Roll a D6 to determine the maximum Run distance"; "Units
    that Run in the Shooting phase cannot charge"),
    the mean of its ``run_dice`` D6 (3.5 each; Fleet's re-roll and Crusader
    not counted), and the enemy fires before its next turn. The enemy is
    taken to stand where it is; at most :data:`LONGEST_APPROACH` phases are
    counted."""
    move = move_allowance(unit)
    run = 3.5 * battle.settings.integer("run_dice")
    closer, fired, first = move, 0, move
    while charge_chance(battle, unit, target, closer) < CHARGES and fired < LONGEST_APPROACH:
        closer += run
        fired += 1
        if fired == 1:
            first = closer
        closer += move
    return fired, first, closer


def fire_taken(battle: Battle, unit: Unit, closer: float = 0.0) -> float:
    """What the enemy's shooting next turn is expected to kill of ``unit``
    (:func:`expected.expected_attack` of every enemy unit free to shoot: none
    locked in combat), ``closer`` inches nearer to every enemy unit (each of
    its models counting as at that distance, :attr:`orders.FireOrders.counts_within`,
    from the nearest model's gap, :func:`charge.charge_distance`)."""
    total = 0.0
    for enemy in battle.enemies_of(unit):
        if not enemy.alive_models or st(battle, enemy).locked_in_combat:
            continue
        total += fire_from(battle, enemy, unit, closer)
    return min(total, float(len(unit.alive_models)))


def fire_from(battle: Battle, shooter: Unit, target: Unit, closer: float) -> float:
    """:func:`expected.expected_attack` of ``shooter`` at ``target`` with the two
    ``closer`` inches nearer: every model of ``shooter`` counting as at the
    nearest models' gap less ``closer`` (at least 1",
    :attr:`orders.FireOrders.counts_within`); as they stand when ``closer`` is
    not positive."""
    if closer <= 0:
        return expected_attack(battle, shooter, target, PLAIN_ORDERS)
    at = max(1.0, charge_distance(shooter, target) - closer)
    return expected_attack(battle, shooter, target, FireOrders(counts_within=at))


def shot_down_on_the_way(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit``, there to charge the enemy unit it heads for
    (:func:`heading_for`, :func:`there_to_charge`), should hold rather than
    advance: the enemy fire its advance draws costs more than the charge it
    buys.

    Advancing, it walks through :func:`turns_under_fire` enemy Shooting
    phases before its charge comes in reach, each taken to kill what the
    first would, where it then stands (:func:`fire_taken`); holding, it takes
    as many phases of the fire that reaches it where it stands. Only the
    enemy's Shooting phases the game still plays count, and the charge only if
    the game still has an Assault phase for it once in reach
    (:func:`schedule.turns_ahead`). The fire the
    advance adds, in models weighed by the victory condition
    (:func:`victory_worth.model_worth`), is weighed against the charge's gain
    once in reach (:func:`plans.charge_gain`, as it stands now) times the
    share of the unit expected to be left to make it (none, if the fire on the
    way is expected to kill it all). A unit the enemy must come to keeps its
    models (and its kill point) and its threat to those who do."""
    target = heading_for(battle, unit)
    if target is None or not ahead_of_it(battle, unit, target):
        return False
    if not there_to_charge(battle, unit, target):
        return False
    fired, first, reach = turns_under_fire(battle, unit, target)
    if fired == 0:
        return False
    volleys = min(fired, turns_ahead(battle, battle.opponent(unit.player), SHOOTING_PHASE))
    if volleys == 0:
        return False  # no enemy Shooting phase left on the way: the advance adds no fire
    on_the_way = fire_taken(battle, unit, first)
    added = volleys * (on_the_way - fire_taken(battle, unit))
    if added <= 0:
        return False
    models = len(unit.alive_models)
    left = max(0.0, 1 - volleys * on_the_way / models)
    arrives = left > 0 and turns_ahead(battle, unit.player, ASSAULT_PHASE) >= fired
    gain = charge_gain(battle, unit, target, reach) if arrives else 0.0
    return added * model_worth(battle, unit) > left * gain + guns_brought(battle, unit, target)


def guns_brought(battle: Battle, unit: Unit, target: Unit) -> float:
    """What ``unit``'s own shooting at ``target`` this turn gains by its advance
    (:func:`expected.expected_attack` a move nearer, every model counting as at
    the nearest model's gap less its move, against where it stands), in models
    weighed by the victory condition; nothing when the turn under way plays no
    Shooting phase from here on (:func:`schedule.still_to_play`)."""
    if not still_to_play(battle, SHOOTING_PHASE, or_now=True):
        return 0.0
    nearer = fire_from(battle, unit, target, move_allowance(unit))
    here = fire_from(battle, unit, target, 0.0)
    return max(0.0, nearer - here) * model_worth(battle, target)


def holds_for_its_guns(battle: Battle, unit: Unit, weighs_the_move: bool) -> bool:
    """Whether ``unit`` should hold rather than advance for this turn's shooting: a
    gun line.

    Seed 000: "a model with a Heavy weapon … moves and shoots in the same turn"
    fires Snap Shots (6th/7th edition: a Blast or Ordnance weapon, which cannot
    fire Snap Shots, not at all). Only a unit whose Heavy weapons reach a target
    where it stands (expected casualties above 0,
    :func:`expected.expected_casualties`) weighs holding, and only with a
    Shooting phase to come in the turn (:func:`schedule.still_to_play`); a
    Relentless unit never does. With ``weighs_the_move`` false (the lever
    ``WaffleAI.weighs_the_move`` off) such a unit holds, as until branch
    ``issue9-gun-line``; so does a vehicle, which the copies below would not
    serve (the hull's facing is remembered by model, :func:`vehicles.heading_of`,
    and a copy shot at would set it from where the copy stands). Otherwise (the
    default) it weighs two turns, the unit
    where it stands against a copy of it where an advance would leave it
    (:func:`movement.advance_shift`, as far as it is expected to go:
    :func:`expected_advance`), in models weighed by the victory condition
    (:func:`victory_worth.model_worth`). What the move gains: the copy's best
    volley this turn (counted as having moved: its range, sight, Rapid Fire's
    half range and the target's cover as they would be from there,
    :func:`best_target`) and its next turn's volley kept
    (:func:`next_volley_kept`: the enemy a move nearer, unless its charge
    catches the unit first; the charge measured from what this turn's volley
    leaves of the target, :meth:`BestVolley.thinned`), less the unit's own
    two. What it costs: the enemy charges at the copy, standing there, next
    turn beyond those at the unit (:func:`charge_threat`, from the enemy at
    full strength) and the enemy fire it walks into (:func:`fire_taken`). It
    holds unless the gain is more than the cost (docs/ai.md, "The gun line
    weighs the move"). The unit's own next volley kept is asked last and only where
    the rest gains something: never below 0, it can only lower the gain, and it
    weighs every enemy charge at the unit: the costliest part of the weighing.

    *Situation*: a Guard Infantry Squad (a heavy bolter, nine lasguns) just
    behind a wall, Hormagaunts across the table: its lasguns fire through the
    wall, which gives the Hormagaunts its 4+ cover save (a line across a cover
    area gives cover, docs/rules/waffle.md); from the far side of the wall
    they fire at them in the open, so it advances. A Tactical Squad 10" from
    twenty Boyz: a move buys its boltguns Rapid Fire now, but the Boyz coming
    on bring them into half range anyway, thinned by this turn's volley and
    so less likely to reach it, while a squad a move nearer is all but
    certain to be charged and lose its next volley: it holds. A Mortar Squad
    (Heavy, Blast) holds: after a move its mortars do not fire at all.
    """
    if relentless(unit) or not still_to_play(battle, SHOOTING_PHASE):
        return False
    heavy = [
        w
        for w in ranged_weapons(unit)
        if any(
            (weapon := m.weapon(w)) is not None and weapon_of(weapon).is_heavy_like
            for m in unit.alive_models
        )
    ]
    if not any(
        expected_casualties(battle, unit, enemy, w, PLAIN_ORDERS) > 0
        for enemy in battle.enemies_of(unit)
        for w in heavy
    ):
        return False
    if not weighs_the_move or is_vehicle(unit):
        return True
    shift = advance_shift(battle, unit, expected_advance(battle, unit))
    # One copy has moved (this turn's volley), one stands there as the unit is (next turn's).
    moved, standing = shifted_copy(unit, shift), shifted_copy(unit, shift)
    moved.status.moved = True
    held, advanced = best_target(battle, unit), best_target(battle, moved)
    gain = advanced.value - held.value
    kept = next_volley_kept(battle, standing, advanced.thinned(standing))
    if gain + kept <= 0:
        # The unit's own next volley kept (never below 0) can only lower the gain: it
        # holds whatever that is, so the charges that volley weighs are not worked out.
        return True
    gain += kept - next_volley_kept(battle, unit, held.thinned(unit))
    if gain <= 0:
        return True
    # Next turn's charges and fire meet the copy standing there, not moving again.
    cost = charge_threat(battle, standing) - charge_threat(battle, unit)
    cost += (fire_taken(battle, standing) - fire_taken(battle, unit)) * model_worth(battle, unit)
    return gain <= cost


def expected_advance(battle: Battle, unit: Unit) -> float:
    """How far an advance is expected to take the unit: its move allowance
    (:func:`movement.move_allowance`), or, where its way crosses difficult terrain
    (:func:`movement_phase.crosses_difficult`), the mean of the highest of the
    dice it rolls (6th/7th edition: 2D6, or 3D6 with Move Through Cover,
    :func:`special_rules.difficult_terrain_dice`; the mean of the highest of n
    D6 is the sum over k of 1 - ((k - 1)/6)^n: 4.47" for 2D6), no more than the
    allowance."""
    allowance = move_allowance(unit)
    if not crosses_difficult(battle, unit, "advance"):
        return allowance
    dice = difficult_terrain_dice(unit)
    return min(allowance, sum(1 - ((k - 1) / 6) ** dice for k in range(1, 7)))


@dataclass(frozen=True)
class BestVolley:
    """A unit's best volley: at whom, worth what, killing how many."""

    target: Unit | None
    value: float
    casualties: float

    def thinned(self, shooter: Unit) -> Unit | None:
        """A copy of the target without the models the volley is expected to kill
        (rounded to the nearest whole model), the closest to ``shooter`` first, in the
        order wounds are allocated (:func:`geometry.closest`, which
        :func:`allocation.allocate_wounds` ranks by; 6th/7th edition: "to the closest
        model"): what is left
        of it to charge next turn, from a little farther off."""
        if self.target is None:
            return None
        return thinned(self.target, shooter, int(self.casualties + 0.5))


def best_target(battle: Battle, unit: Unit) -> BestVolley:
    """The unit's shooting at its best target as it stands: its expected casualties
    (:func:`expected.expected_attack`) at each target :func:`shooting.targets_for`
    offers, in models weighed by the victory condition; the best of them, with
    its target and casualties (no target: worth 0)."""
    best = BestVolley(None, 0.0, 0.0)
    for enemy in targets_for(battle, unit, PLAIN_ORDERS):
        casualties = expected_attack(battle, unit, enemy, PLAIN_ORDERS)
        value = casualties * model_worth(battle, enemy)
        if value > best.value:
            best = BestVolley(enemy, value, casualties)
    return best


def next_volley_kept(battle: Battle, unit: Unit, thinned: Unit | None = None) -> float:
    """What ``unit``'s shooting in its next turn is expected to be worth, standing
    where it is: its best volley with every enemy unit a move nearer
    (:func:`plans.move_ahead`, :func:`fire_from`: every model counting as at the
    nearest models' gap less that move, at least 1"; an enemy that will not
    move, from where the models stand), in models weighed by the
    victory condition, times the chance that no enemy charge at it next turn
    reaches it (the likeliest of those the enemy would declare,
    :func:`plans.counter_charge`): a unit locked in combat does not shoot.
    ``thinned``, a copy of an enemy unit with the models this turn's volley
    kills removed, stands in for that unit. Nothing when its side has no
    Shooting phase after this turn (:func:`plans.shoots_again`). A unit that
    has moved this turn (one that disembarked, a copy counted as moved) is read
    as it starts its next turn, not moved yet: its Heavy weapons fire in full
    if it holds then.

    The charges are weighed first: a charge certain to reach (chance 1) leaves
    nothing of any volley ((1 - 1) times it), so the volleys at every enemy a
    move nearer (fire from the unit's new places, the costlier part) are then
    not worked out. The gun lines that weigh their move are mostly within a
    certain charge by the time they weigh it, and their volleys are seldom 0."""
    if not shoots_again(battle, unit):
        return 0.0
    if unit.status.moved:
        unit = shifted_copy(unit, (0.0, 0.0))
        unit.status.moved = False
    enemies = [
        thinned if thinned is not None and found.id == thinned.id else found
        for found in battle.enemies_of(unit)
    ]
    enemies = [e for e in enemies if e.alive_models and not st(battle, e).locked_in_combat]
    caught = 0.0
    for enemy in enemies:
        chance = counter_charge_chance(battle, enemy, unit)
        if chance > caught and counter_charge(battle, enemy, unit, chance=chance) > 0:
            caught = chance
    if caught == 1.0:
        return 0.0  # the unit is locked in combat whatever its volley
    volley = 0.0
    for enemy in enemies:
        attack = fire_from(battle, unit, enemy, move_ahead(battle, enemy))
        volley = max(volley, attack * model_worth(battle, enemy))
    if volley <= 0.0:
        return 0.0
    return (1 - caught) * volley


def ahead_of_it(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Whether another unit of ``unit``'s army stands nearer ``target`` (its closest
    model: :func:`charge.charge_distance`) and is there to charge it
    (:func:`vehicles.may_charge`, :func:`vehicles.may_move`,
    :func:`there_to_charge`): one that draws the fire of those ``unit`` goes for
    and will tie their guns up in combat. A gun line in front never does: waiting
    behind it only puts the walk off."""
    gap = charge_distance(unit, target)
    return any(
        friend is not unit
        and friend.alive_models
        and charge_distance(friend, target) < gap
        and may_charge(friend)
        and may_move(battle, friend)
        and there_to_charge(battle, friend, target)
        for friend in battle.units_of(unit.player)
    )


def wants_to_run(battle: Battle, unit: Unit) -> bool:
    """Whether a Run toward the enemy helps a unit with nothing to shoot and no
    charge worth declaring this turn: it would win a fight with an enemy unit
    (:func:`expected.melee_exchange`, as if it charged: the models it slays
    are worth more than those it loses, each worth what the victory condition
    gives for it, :func:`victory_worth.model_worth`) and so wants to close
    in, or it has guns and no target in reach of them. Each only if its side
    still has a turn with an Assault phase, or a Shooting phase, to come
    (:func:`schedule.turns_ahead`): a unit that Runs cannot charge this turn."""
    own = model_worth(battle, unit)
    if turns_ahead(battle, unit.player, ASSAULT_PHASE) and any(
        dealt * model_worth(battle, enemy) > taken * own
        for enemy in battle.enemies_of(unit)
        for dealt, taken in [melee_exchange(battle, unit, enemy)]
    ):
        return True
    if not turns_ahead(battle, unit.player, SHOOTING_PHASE):
        return False
    return bool(ranged_weapons(unit)) and not targets_for(battle, unit, PLAIN_ORDERS)
