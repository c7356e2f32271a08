"""The movement phase of the 6th/7th-edition base rules, as the Waffle Edition uses it.

The seeds edit the shooting and assault phases only; moving is the base
rules': Regroup tests for units falling back, then each unit may move.
"""

from __future__ import annotations

from hammerlab.editions.flow import Phase, Picks
from hammerlab.editions.waffle.artillery import crewed_to_move
from hammerlab.editions.waffle.combat import refresh_locks
from hammerlab.editions.waffle.deep_strike import arrive_from_reserves
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.flyers import is_zooming
from hammerlab.editions.waffle.infiltrate import infiltration
from hammerlab.editions.waffle.maledictions import all_terrain_difficult
from hammerlab.editions.waffle.morale import (
    REGROUP_TEST,
    acts_normally_on_regrouping,
    leadership_test,
    passes_automatically,
    phase_casualty_checks,
)
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
from hammerlab.editions.waffle.special_rules import difficult_terrain_dice, is_independent_character
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tank_shock import TANK_SHOCK, offer_tank_shock, shock_choices
from hammerlab.editions.waffle.transports import offer_disembarking, offer_embarking
from hammerlab.editions.waffle.vehicles import leave_behind, may_move, turn_to_moves
from hammerlab.editions.waffle.zooming import zoom
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.units import Unit


def crosses_difficult(
    battle: Battle, unit: Unit, intent: str, allowance: float | None = None
) -> bool:
    """Whether a model of the unit starts in difficult terrain, or would move into or
    through it in its full move with ``intent`` (``allowance``, the unit's
    :func:`movement.move_allowance` when not given; always, under Enfeeble:
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
        reach = move_allowance(unit) if allowance is None else allowance
        shift = first_leg(battle, unit, intent, reach)
    field = battle.battlefield
    for model in unit.alive_models:
        areas = field.areas_at(model.position)
        if shift != (0.0, 0.0):
            x, y = model.position
            areas += field.crossed(model.position, (x + shift[0], y + shift[1]))
        if any(a.difficult for a in areas):
            return True
    return False


REGROUP_MOVE = 3.0
"""Inches of the Regroup move (7th edition; the ``Warhammer40K.gst`` text of And They
Shall Know No Fear names it: "the unit does not make the 3" Regroup move")."""


def regroup(battle: Battle, unit: Unit) -> bool:
    """6th/7th-edition Regroup: a falling-back unit tests Leadership at the start
    of its movement phase; failing, it falls back again. A unit below 25% of its
    starting strength regroups only on a double 1 (Insane Courage), unless an
    Independent Character is with it (:func:`_regroup_test`). Fearless and
    And They Shall Know No Fear pass the test without a roll
    (:func:`morale.passes_automatically`).

    Passing, it stops falling back and makes the 3" Regroup move
    (:func:`make_move`, up to :data:`REGROUP_MOVE`), and for the rest of its turn
    it has regrouped (``state.WaffleStatus.regrouped``): it counts as having
    moved, fires Snap Shots only, and may neither Run nor charge. The 6th-edition
    rule (as transcribed in public rules summaries): "Once a unit has regrouped,
    it cannot otherwise move (so cannot Run in Shooting phase or charge in Assault
    phase). However, it can shoot (including Overwatch), but counts as having
    moved and can only fire Snap Shots"; 7th edition, by the exception And They
    Shall Know No Fear makes (:func:`morale.acts_normally_on_regrouping`): "When
    it Regroups, the unit does not make the 3" Regroup move, but can instead move,
    shoot (or Run) and declare charges normally in that turn".

    Returns whether the unit may still move this phase (only with And They Shall
    Know No Fear).
    """
    status = st(battle, unit)
    rule = passes_automatically(unit, REGROUP_TEST)
    if rule is not None:
        battle.say("regroup", f"{unit.label} regroups automatically ({rule})")
    elif not _regroup_test(battle, unit):
        fall_back(battle, unit, "a failed Regroup test")
        return False
    status.falling_back = False
    if acts_normally_on_regrouping(unit):
        return True
    status.regrouped = True
    unit.status.moved = True  # "counts as having moved"
    make_move(battle, unit, REGROUP_MOVE, f'makes its {REGROUP_MOVE:g}" Regroup move')
    return False


def _regroup_test(battle: Battle, unit: Unit) -> bool:
    """The Regroup test: Leadership, and only a double 1 below 25% of the unit's
    starting strength (the parameter ``regroup_threshold``), unless an Independent
    Character is with it (:func:`special_rules.is_independent_character`, a model
    alive). ``Warhammer40K.gst``, Independent Character: "A unit that contains one or
    more Independent Characters does not need a double 1 to Regroup if reduced to
    below 25% of its starting numbres, but instead tests as if it had at least 25%
    remaining"."""
    threshold = battle.settings.number("regroup_threshold")
    below = len(unit.alive_models) < threshold * unit.starting_models
    led = below and any(is_independent_character(unit, m) for m in unit.alive_models)
    shattered = below and not led
    reason = "falling back"
    if shattered:
        reason += ", below 25%: double 1 only"
    elif led:
        reason += ", below 25% with an Independent Character: tests as at 25%"
    return leadership_test(battle, unit, REGROUP_TEST, 0, reason, double_one_only=shattered)


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """Before the first turn, Infiltrators (:func:`infiltrate.infiltration`), then
    Scout redeployments (:func:`scout.scout_redeployments`). Units arriving from
    reserve (:func:`deep_strike.arrive_from_reserves`) and fleeing units, after
    their Regroup test (:func:`regroup`: a Regroup move, or a fall back), move no
    further, bar those with And They Shall Know No Fear. Then units aboard
    transports may disembark (:func:`transports.offer_disembarking`)."""
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
    """Who is locked in combat is read off the table again; then the Morale checks of
    the units that lost 25% of their models in the phase (a dangerous terrain test
    failed, a Deep Strike landing in it, a Tank Shock's Death or Glory:
    :func:`morale.phase_casualty_checks`)."""
    refresh_locks(battle)
    phase_casualty_checks(battle, player)
    battle.emit(PhaseChanged(phase="movement", player=player, turn=battle.turn, begins=False))


def move_one(battle: Battle, unit: Unit) -> None:
    """Move one unit (:func:`make_move`, its whole allowance); then it may embark in a
    friendly transport within 2" (:func:`transports.offer_embarking`). A Tank may Tank
    Shock or Ram instead (:func:`tank_shock.offer_tank_shock`); a Zooming Flyer makes
    its Zooming move (:func:`zooming.zoom`)."""
    if is_zooming(unit):
        zoom(battle, unit)
        return
    if offer_tank_shock(battle, unit):
        return
    allowance = move_allowance(unit)
    make_move(battle, unit, allowance, f'moves up to {allowance:g}"')
    if not unit.destroyed:
        offer_embarking(battle, unit)


def make_move(battle: Battle, unit: Unit, allowance: float, why: str) -> None:
    """The unit moves up to ``allowance`` toward the intent its player picks (``why``
    goes with the question): difficult terrain (:func:`crosses_difficult`: the
    highest of its dice, no farther than ``allowance``), then dangerous terrain tests.
    A unit's move in its Movement phase (:func:`move_one`) and its Regroup move
    (:func:`regroup`)."""
    intent = choose_intent(battle, unit, why, phase="movement", intents=intents_for(battle, unit))
    st(battle, unit).retreated = intent == RETREAT
    if intent == "hold":
        battle.say("movement", f"{unit.label} stays where it is")
        return
    leave_behind(battle, unit)  # a squadron moves away from its Immobilised vehicles
    distance = allowance
    if crosses_difficult(battle, unit, intent, allowance):
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
