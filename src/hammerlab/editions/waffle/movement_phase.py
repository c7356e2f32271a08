"""The movement phase of the 6th/7th-edition base rules, as the Waffle Edition uses it.

The seeds edit the shooting and assault phases only; moving is the base
rules': Regroup tests for units falling back, then each unit may move.
"""

from __future__ import annotations

from hammerlab.editions.flow import Phase, Picks, run_phase
from hammerlab.editions.waffle.artillery import crewed_to_move
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.deep_strike import arrive_from_reserves
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.flyers import is_zooming
from hammerlab.editions.waffle.infiltrate import infiltration
from hammerlab.editions.waffle.maledictions import all_terrain_difficult
from hammerlab.editions.waffle.morale import leadership_test
from hammerlab.editions.waffle.movement import (
    INTENTS,
    RETREAT,
    choose_intent,
    dangerous_terrain_tests,
    fall_back,
    first_leg,
    intents_for,
    move_allowance,
    move_along,
    passed_from,
    route_of,
)
from hammerlab.editions.waffle.scout import scout_redeployments
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.special_rules import difficult_terrain_dice
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tank_shock import TANK_SHOCK, offer_tank_shock, shock_choices
from hammerlab.editions.waffle.transports import offer_disembarking, offer_embarking
from hammerlab.editions.waffle.vehicles import leave_behind, may_move, turn_to_moves
from hammerlab.editions.waffle.zooming import zoom
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.units import Unit


def crosses_difficult(battle: Battle, unit: Unit, intent: str) -> bool:
    """Whether a model of the unit starts in difficult terrain, or would move into or
    through it in its full move with ``intent`` (always, under Enfeeble:
    :func:`maledictions.all_terrain_difficult`). A flank's way round crosses none
    (:func:`flank.flank_route`).

    7th edition: "If a unit wishes to move into, out of or through difficult
    terrain" it rolls for its move; terrain beyond its reach this phase does not
    slow it. The move weighed is the one :func:`movement.move_along` would make
    with the whole allowance (every model shifted alike, cut short where bases or
    the 1" from enemies stop it): the unit's first leg toward its goal
    (:func:`movement.first_leg`), not the whole way there, which a user review
    found slowing a Captain 22" from the only difficult terrain."""
    if all_terrain_difficult(battle, unit):
        return True
    shift = (0.0, 0.0)
    if intent != FLANK:
        shift = first_leg(battle, unit, intent, move_allowance(unit))
    field = battle.battlefield
    for model in unit.alive_models:
        areas = field.areas_at(model.position)
        if shift != (0.0, 0.0):
            x, y = model.position
            areas += field.crossed(model.position, (x + shift[0], y + shift[1]))
        if any(a.difficult for a in areas):
            return True
    return False


def regroup(battle: Battle, unit: Unit) -> bool:
    """6th/7th-edition Regroup: a falling-back unit tests Leadership at the start
    of its movement phase; passing, it stops falling back (and may not move
    further this phase); failing, it falls back again. A unit below 25% of its
    starting strength regroups only on a double 1 (Insane Courage). And They
    Shall Know No Fear regroups automatically and may then act normally.
    Returns whether the unit may still move this phase.
    """
    if unit.has_rule("And They Shall Know No Fear"):
        st(battle, unit).falling_back = False
        battle.say("regroup", f"{unit.label} regroups automatically (And They Shall Know No Fear)")
        return True
    threshold = battle.settings.number("regroup_threshold")
    shattered = len(unit.alive_models) < threshold * unit.starting_models
    reason = "falling back, below 25%: double 1 only" if shattered else "falling back"
    if leadership_test(battle, unit, "Regroup test", 0, reason, double_one_only=shattered):
        st(battle, unit).falling_back = False
        unit.status.moved = True
    else:
        fall_back(battle, unit, "a failed Regroup test")
    return False


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """Before the first turn, Infiltrators (:func:`infiltrate.infiltration`), then
    Scout redeployments (:func:`scout.scout_redeployments`). Units arriving from
    reserve (:func:`deep_strike.arrive_from_reserves`) and, after Regroup,
    fleeing units that fail fall back again: they move no further. Then units
    aboard transports may disembark (:func:`transports.offer_disembarking`)."""
    start_phase(battle, "movement", player)
    infiltration(battle, player)
    scout_redeployments(battle, player)
    moved = set(arrive_from_reserves(battle, player))
    for fleeing in battle.units_of(player):
        status = st(battle, fleeing)
        if status.falling_back and not status.locked_in_combat and not regroup(battle, fleeing):
            moved.add(fleeing.id)
    offer_disembarking(battle, player)
    return frozenset(moved)


def _movers(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    """Units locked in combat, falling back, gone to ground or pinned do not move."""
    return [u for u in battle.units_of(player) if u.id not in done and _may_move(battle, u)]


def _may_move(battle: Battle, unit: Unit) -> bool:
    """Not locked, falling back or gone to ground; not an Immobilised or Crew Stunned
    vehicle, nor a squadron with a Crew Stunned vehicle or all of it Immobilised
    (:func:`vehicles.may_move`); not Artillery with fewer crew than guns
    (:func:`artillery.crewed_to_move`)."""
    status = st(battle, unit)
    if status.locked_in_combat or status.falling_back or status.gone_to_ground:
        return False
    return may_move(battle, unit) and crewed_to_move(unit)


def _end(battle: Battle, player: str) -> None:
    refresh_locks(battle)
    battle.emit(PhaseChanged(phase="movement", player=player, turn=battle.turn, begins=False))


def move_one(battle: Battle, unit: Unit) -> None:
    """Move one unit: intent, distance, difficult and dangerous terrain; then it may
    embark in a friendly transport within 2" (:func:`transports.offer_embarking`). A
    Tank may Tank Shock or Ram instead (:func:`tank_shock.offer_tank_shock`); a Zooming
    Flyer makes its Zooming move (:func:`zooming.zoom`)."""
    if is_zooming(unit):
        zoom(battle, unit)
        return
    if offer_tank_shock(battle, unit):
        return
    allowance = move_allowance(unit)
    why = f'moves up to {allowance:g}"'
    intent = choose_intent(battle, unit, why, phase="movement", intents=intents_for(battle, unit))
    st(battle, unit).retreated = intent == RETREAT
    if intent == "hold":
        battle.say("movement", f"{unit.label} stays where it is")
        offer_embarking(battle, unit)
        return
    leave_behind(battle, unit)  # a squadron moves away from its Immobilised vehicles
    distance = allowance
    if crosses_difficult(battle, unit, intent):
        count = difficult_terrain_dice(unit)
        dice = battle.dice.roll(count, f"difficult terrain ({unit.label}), highest of {count}D6")
        distance = min(allowance, float(max(dice)))
    starts = {m.id: m.position for m in unit.alive_models}
    # ``move_along`` marks the unit as moved when it does move: a unit with no
    # goal, or blocked where it stands, has not moved (its Heavy weapons fire
    # normally).
    move_along(battle, unit, route_of(battle, unit, intent), distance, f"moves ({intent})")
    turn_to_moves(battle, unit, starts)
    dangerous_terrain_tests(battle, unit, passed_from(intent, starts))
    if not unit.destroyed:
        offer_embarking(battle, unit)


def intent_follow_ups(battle: Battle, unit: Unit) -> list[tuple[tuple[str, str], ...]]:
    """What a unit picked to move does, as :func:`move_one` asks it: where it goes
    (the ``move`` decision), each intent with somewhere to head for
    (:func:`movement.goal_of`; an intent without one stays put, as ``hold`` does),
    and ``hold``; a flank where it is offered (:func:`movement.intents_for`). A
    Tank that could Tank Shock or Ram is asked that first (``tank_shock``): each
    shock, or moving normally and then where to. A Zooming Flyer is asked where
    it zooms among :data:`movement.INTENTS` (:func:`zooming.zoom`)."""
    if is_zooming(unit):
        return [(("move", intent),) for intent in INTENTS]
    moves: list[tuple[tuple[str, str], ...]] = [
        (("move", intent),) for intent in intents_for(battle, unit)
    ]
    shocks = shock_choices(battle, unit)
    if not shocks:
        return moves
    normally, *declared = shocks
    return [
        *(((TANK_SHOCK, normally.label), *move) for move in moves),
        *(((TANK_SHOCK, shock.label),) for shock in declared),
    ]


MOVEMENT = Phase(
    "movement",
    begin=_begin,
    picks=Picks(
        "mover",
        "Choose a unit to move, or end the movement phase",
        _movers,
        move_one,
        follow_ups=intent_follow_ups,
    ),
    end=_end,
)
"""Regroup, then move units one at a time until the player is done.

A unit may move up to its allowance toward an intent (advance, take cover,
retreat, hold). Difficult terrain (6th/7th edition): roll 2D6 (3D6 with Move
Through Cover: :func:`special_rules.difficult_terrain_dice`) and move at most
the highest die. Dangerous terrain: a test for each model that moved
in or through it. Units locked in combat, falling back, gone to ground or
pinned do not move. The unit moves as a block, which keeps coherency.
"""


def movement_phase(battle: Battle, player: str) -> None:
    """The movement phase (:data:`MOVEMENT`) for ``player``."""
    run_phase(battle, MOVEMENT, player)
