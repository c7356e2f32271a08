"""Moving units on the table: Run, Fall Back and the moves reactions make.

A unit moves as a block (every model by the same vector), which keeps it in
coherency; it stops short of 1" from enemy models and of the table edge,
except when falling back, where reaching its own edge removes it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from shapely.geometry import Point
from shapely.ops import nearest_points

from hammerlab.editions.waffle.characteristics import invulnerable_save
from hammerlab.editions.waffle.events import ReactionDeclared, Trapped
from hammerlab.editions.waffle.flank import FLANK, flank_route
from hammerlab.editions.waffle.placement import EPSILON, in_the_way, path_gap
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.special_rules import crusader, passes_dangerous_terrain
from hammerlab.editions.waffle.state import lose_one_wound, remove_casualty, st
from hammerlab.editions.waffle.vehicles import is_immobile, leave_behind
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import (
    Vec,
    centre_distance,
    closest,
    near_path,
    nearest,
    step_toward,
)
from hammerlab.engine.memo import per_decision, per_makeup
from hammerlab.engine.moves import centre_of, shift_model, shift_unit
from hammerlab.engine.units import Model, Unit

FAST_TYPES = ("Jump", "Jet", "Bike", "Beast", "Cavalry")
"""Unit types that move 12" and fall back 3D6" (6th/7th edition)."""
ENEMY_CLEARANCE = 1.0
"""6th/7th edition: outside a charge, models may not move within 1" of an enemy model."""


def is_fast(model: Model) -> bool:
    """Jump infantry, jetbikes, bikes, beasts and cavalry."""
    return _fast_profile(model.profile)


def _fast_profile(profile: Profile) -> bool:
    """Whether a model of ``profile`` is fast (:func:`is_fast`: its profile alone says)."""
    return any(stats_of(profile).has_type(t) for t in FAST_TYPES)


@per_makeup
def move_allowance(profiles: tuple[Profile, ...]) -> float:
    """6" for Infantry and Monstrous Creatures; 12" for Jump, Jet, Bikes, Beasts, Cavalry.

    The slowest model sets the unit's pace. Called with the unit, answered from
    its make-up (:func:`memo.per_makeup`: every counter-charge the AI weighs
    asks it, five unit types per model)."""
    return min(12.0 if _fast_profile(p) else 6.0 for p in profiles)


@per_makeup
def has_fast_model(profiles: tuple[Profile, ...]) -> bool:
    """Whether any model alive is fast (:func:`is_fast`): a Fall Back then rolls 3D6.
    Called with the unit, answered from its make-up (:func:`memo.per_makeup`)."""
    return any(_fast_profile(p) for p in profiles)


RUNS = "runs"
"""How a unit's own Run (:func:`run`) begins its "where to?" question (``why``)."""

RETREAT = "retreat"
"""The intent toward the unit's own table edge."""

INTENTS = ("advance", "take cover", RETREAT, "hold")
"""Where a unit moves: toward the closest enemy, into the nearest cover, toward
its own table edge, or not at all."""


def choose_intent(
    battle: Battle,
    unit: Unit,
    why: str,
    phase: str = "shooting",
    intents: tuple[str, ...] = INTENTS,
    what: str = "",
) -> str:
    """Ask the unit's player where it moves (``phase`` tells the AI why), among
    ``intents``; ``what`` goes with the question (a Run's distance rolled)."""
    return battle.decide(
        Decision(
            kind="move",
            player=unit.player,
            prompt=f"{unit.label} {why}: where to?",
            choices=tuple(Choice(i, i) for i in intents),
            context=DecisionContext(unit=unit.id, why=why, phase=phase, what=what),
            describe=lambda intent: intent_text(battle, unit, intent),
        )
    )


def intent_text(battle: Battle, unit: Unit, intent: str) -> str:
    """Where ``intent`` takes ``unit``, for a person choosing it (``Decision.describe``,
    never recorded): the enemy unit an advance heads for and how far its nearest
    model is, the terrain taking cover heads for, the table edge a retreat heads
    for. A player's review found the bare words "advance", "flank" and "take cover"
    explained nowhere."""
    goal = goal_of(battle, unit, intent)
    if goal is None:
        return "stays where it is"
    centre = centre_of(unit)
    far = f'{centre_distance(centre, goal):.1f}" from its centre'
    if intent == RETREAT:
        return f"toward its own table edge ({battle.player(unit.player).edge}), {far}"
    spot = cover_to_take(battle, unit) if intent == "take cover" else None
    if spot is not None:
        return f"toward {spot.name} (cover {spot.cover_save}+), {far}"
    enemy = next(
        (e for e in battle.enemies_of(unit) if any(m.position == goal for m in e.alive_models)),
        None,
    )
    toward = "toward the nearest enemy model" if enemy is None else f"toward {enemy.label}"
    way = " the way round the difficult terrain" if intent == FLANK else ""
    return f"{toward}{way}, {far}"


ADVANCE_ON = "advance on "
"""How an intent that heads for one chosen enemy unit begins; the unit's id follows
(``advance on squad2``)."""


def intents_for(battle: Battle, unit: Unit) -> tuple[str, ...]:
    """The intents of a unit's own move or Run: :data:`INTENTS`, then
    :data:`flank.FLANK` where its advance would cross difficult terrain and a
    way round exists (:func:`flank.flank_route`), then an advance on each enemy
    unit the plain advance does not head for (:func:`advances_on`). An intent
    with nowhere to head for (:func:`goal_of`: an advance with no enemy on the
    table, taking cover on a table without any) is not offered: it would stay
    put as ``hold`` does, under another name (a player's review was offered a
    Run to "advance" once the enemy was gone)."""
    flank = (FLANK,) if offers_flank(battle, unit) else ()
    plain = tuple(i for i in INTENTS if i == "hold" or _has_goal(battle, unit, i))
    return (*plain, *flank, *advances_on(battle, unit))


def _has_goal(battle: Battle, unit: Unit, intent: str) -> bool:
    """Whether :func:`goal_of` gives ``intent`` a point to head for: for ``take
    cover``, whether the table has an area with a cover save (:func:`cover_areas`:
    :func:`cover_to_take` finds one exactly then, and :func:`cover_spot` always gives
    a point in it), so that offering the intent does not work out the spot (the
    nearest area's distance and its shrunken outline, some shapely work per unit
    move) only to ask if it is there."""
    if intent == "take cover":
        return bool(cover_areas(battle))
    return goal_of(battle, unit, intent) is not None


def offers_flank(battle: Battle, unit: Unit) -> bool:
    """Whether the unit's move or Run is offered :data:`flank.FLANK` (its advance
    would cross difficult terrain and a way round exists)."""
    return route_of(battle, unit, FLANK) is not None


def advances_on(battle: Battle, unit: Unit) -> tuple[str, ...]:
    """``advance on <id>`` for each enemy unit with models alive on the table other
    than the one whose model is closest (the plain ``advance`` heads there), in
    the battle's order of units.

    Interpretation: the 6th/7th-edition rules let a unit move anywhere within
    its allowance; the plain advance heads for the closest enemy, which is not
    always the one a player wants to reach (a lascannon team behind the squads
    screening it), so the choice of which enemy to close on is offered too."""
    enemies = [e for e in battle.enemies_of(unit) if e.alive_models]
    if len(enemies) < 2 or not unit.alive_models:
        return ()
    first = nearest(unit.alive_models, [m for e in enemies for m in e.alive_models])
    return tuple(ADVANCE_ON + e.id for e in enemies if all(m is not first for m in e.alive_models))


@per_decision
def route_of(battle: Battle, unit: Unit, intent: str) -> tuple[Vec, ...] | None:
    """The points the unit's centre moves through with ``intent``, the last its goal:
    a flank's way round (:func:`flank.flank_route`), else the goal alone
    (:func:`goal_of`); ``None`` to stay put."""
    if intent == FLANK:
        return flank_route(battle, unit, goal_of(battle, unit, "advance"))
    goal = goal_of(battle, unit, intent)
    return None if goal is None else (goal,)


def cover_areas(battle: Battle) -> list[TerrainArea]:
    """The table's terrain areas that give a cover save: those ``take cover`` may head
    for (:func:`cover_to_take`), and whose presence offers it (:func:`intents_for`)."""
    return [t for t in battle.battlefield.terrain if t.cover_save is not None]


def cover_to_take(battle: Battle, unit: Unit) -> TerrainArea | None:
    """The terrain area with a cover save nearest the unit's centre, measured to the
    area's nearest edge (0 inside it; the first of the table's on a tie): where ``take
    cover`` heads (:func:`goal_of`); ``None`` on a table with none.

    Until a referee review (session 21) it was the area whose own centre was nearest,
    and the unit headed for that centre: a Run too short to reach it stopped where
    the straight line to it ran out, in the open, though a shorter way in existed."""
    covers = cover_areas(battle)
    if not covers:
        return None
    centre = Point(centre_of(unit))
    return min(covers, key=lambda t: t.shape.distance(centre))


def cover_spot(area: TerrainArea, unit: Unit) -> Vec:
    """Where taking cover in ``area`` moves the unit's centre: the nearest point from
    which every model's centre stands in the area (the area shrunk by the farthest any
    model stands from the unit's centre; a model is in an area where its centre is:
    ``visibility.cover_save``), so the shortest way in that brings the whole unit into
    cover; the area's centre where the unit is too spread out to fit in it."""
    centre = centre_of(unit)
    reach = max(centre_distance(centre, m.position) for m in unit.alive_models)
    inside = area.shape.buffer(-reach)
    if inside.is_empty:
        return (area.shape.centroid.x, area.shape.centroid.y)
    spot = nearest_points(inside, Point(centre))[0]
    return (spot.x, spot.y)


def goal_of(battle: Battle, unit: Unit, intent: str) -> Vec | None:
    """The point a unit heads for with ``intent`` (a flank heads where an advance
    does, by its way round); ``None`` to stay put."""
    centre = centre_of(unit)
    if intent in ("advance", FLANK):
        enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
        if not enemies:
            return None
        return closest(unit.alive_models, enemies)[0].position
    if intent == "take cover":
        area = cover_to_take(battle, unit)
        return None if area is None else cover_spot(area, unit)
    if intent == "retreat":
        return battle.player(unit.player).edge_point(battle.battlefield, centre)
    if intent.startswith(ADVANCE_ON):
        chosen = battle.units.get(intent.removeprefix(ADVANCE_ON))
        if chosen is None or not chosen.alive_models:
            return None
        return nearest(unit.alive_models, chosen.alive_models).position
    return None


def move_along(
    battle: Battle,
    unit: Unit,
    route: tuple[Vec, ...] | None,
    distance: float,
    reason: str,
    keep_clear: bool = True,
    own_move: bool = True,
) -> None:
    """Move the whole unit up to ``distance`` inches in all, its centre toward each
    point of ``route`` in turn (:func:`route_of`); ``None``: it stays put.

    Each leg is cut to the longest part that is allowed (:func:`_shortened`), and
    a leg cut short ends the move; a unit that wanted to move and cannot move at
    all says so, and what stops it (:func:`_report_blocked`). With ``keep_clear``
    it stops 1" short of enemy models (6th/7th-edition movement); a Fall Back
    move does not, so a unit can flee a combat. A move that is not ``own_move``
    (a reaction in the enemy's turn) does not count as the unit having moved.
    """
    left = distance
    for point in route or ():
        if left <= 0:
            return
        wanted, vector = _leg(battle, unit, point, left, keep_clear)
        _shift(battle, unit, vector, reason, own_move)
        if vector != wanted:
            if left == distance:
                _report_blocked(battle, unit, wanted, vector, reason, keep_clear)
            return
        left -= math.hypot(*vector)


def _leg(
    battle: Battle, unit: Unit, point: Vec, distance: float, keep_clear: bool
) -> tuple[Vec, Vec]:
    """One leg of :func:`move_along`: the shift ``distance`` inches (or less) toward
    ``point`` the unit wants, and the part of it allowed (:func:`_shortened`)."""
    centre = centre_of(unit)
    target = step_toward(centre, point, distance)
    wanted = (target[0] - centre[0], target[1] - centre[1])
    return wanted, _shortened(battle, unit, wanted, keep_clear)


def advance_shift(battle: Battle, unit: Unit, distance: float) -> Vec:
    """The shift an advance of ``distance`` inches would move the unit by, as
    :func:`move_along` moves it along :func:`route_of` ``advance`` (one leg, toward
    the closest enemy model), worked out without moving it: for the AI, which
    weighs a move before it is made. No enemy: no shift."""
    return first_leg(battle, unit, "advance", distance)


def first_leg(battle: Battle, unit: Unit, intent: str, distance: float) -> Vec:
    """The shift the first leg of a move of ``distance`` inches with ``intent`` would
    move the unit by (:func:`move_along` along :func:`route_of`), worked out without
    moving it; no goal: no shift."""
    route = route_of(battle, unit, intent)
    if not route:
        return (0.0, 0.0)
    return _leg(battle, unit, route[0], distance, True)[1]


def _shift(battle: Battle, unit: Unit, vector: Vec, reason: str, own_move: bool = True) -> None:
    """Move every model of the unit by ``vector`` (:func:`moves.shift_unit`); unless it
    is not the unit's ``own_move``, the unit counts as having moved."""
    if shift_unit(battle, unit, vector, reason) and own_move:
        unit.status.moved = True


SHORTENING_STEPS = 20
"""A unit's move is cut in steps of 1/SHORTENING_STEPS of its length until it is allowed."""


def _shortened(battle: Battle, unit: Unit, vector: Vec, keep_clear: bool) -> Vec:
    """The longest part of ``vector`` that stays on the table, overlaps no base of
    another unit (friend or foe) and, with ``keep_clear``, stays 1" from enemies."""
    models = unit.alive_models
    enemies, others = _in_reach(battle, unit, vector, keep_clear)
    for step in range(SHORTENING_STEPS, -1, -1):
        scale = step / SHORTENING_STEPS
        shift = (vector[0] * scale, vector[1] * scale)
        if _obstacle(battle, models, shift, enemies, others) is None:
            return shift
    return (0.0, 0.0)


def _in_reach(
    battle: Battle, unit: Unit, vector: Vec, keep_clear: bool
) -> tuple[list[Model], list[Model]]:
    """The enemy models ``unit`` must keep 1" from (none without ``keep_clear``) and the
    other units' models it may not pass through, while it moves by ``vector``.

    Only the bases the move may come near are kept (:func:`geometry.near_path` of
    the whole ``vector``, which covers every shorter part tried): any other is
    farther than 1" (or than touching) at every step, so each step is judged as
    with every base measured."""
    models = unit.alive_models
    enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models] if keep_clear else []
    return (
        near_path(models, vector, enemies, ENEMY_CLEARANCE),
        near_path(models, vector, battle.other_models(unit), 0.0),
    )


def _report_blocked(
    battle: Battle, unit: Unit, wanted: Vec, allowed: Vec, reason: str, keep_clear: bool
) -> None:
    """Say why ``unit`` does not move at all when it wanted to (``wanted`` at least
    0.01", the least :func:`moves.shift_unit` moves, and ``allowed`` less): what stops
    its first model at the shortest step :func:`_shortened` tried."""
    if math.hypot(*allowed) >= 0.01 or math.hypot(*wanted) < 0.01:
        return
    step = (wanted[0] / SHORTENING_STEPS, wanted[1] / SHORTENING_STEPS)
    enemies, others = _in_reach(battle, unit, wanted, keep_clear)
    obstacle = _obstacle(battle, unit.alive_models, step, enemies, others)
    if obstacle is None:  # the shortest step is allowed: only rounding kept it under 0.01"
        return
    model, other, gap = obstacle
    if other is None:
        why = f"{model.id} would leave the table"
    elif gap > 0:
        why = f'{model.id} would come within {gap:g}" of {other.id}'
    else:
        why = f"{other.id} is in the way of {model.id}"
    battle.say("movement", f'{unit.label} {reason} 0": {why}')


Obstacle = tuple[Model, Model | None, float]
"""What stops a move: the moving model, the base in its way (``None``: the table
edge) and the gap it had to keep from that base (1" from an enemy, 0 from any other)."""


def _obstacle(
    battle: Battle,
    models: list[Model],
    vector: Vec,
    enemies: list[Model],
    others: list[Model],
    offset: Vec = (0.0, 0.0),
) -> Obstacle | None:
    """What stops the first model that cannot move by ``vector`` (from where
    ``offset`` has put it), ``None`` when every model can: its whole path must stay
    on the table, pass through no other unit's base (touching is fine) and, for
    ``enemies``, keep 1" away (6th/7th edition: models may not move through other
    models, nor within 1" of an enemy outside a charge). A model that starts
    nearer an enemy than that (a tank driving off the squad touching it, which
    does not lock it in combat: :func:`combat.refresh_locks`) may move so long as
    it comes no nearer that enemy."""
    for model in models:
        start = (model.position[0] + offset[0], model.position[1] + offset[1])
        end = (start[0] + vector[0], start[1] + vector[1])
        if not battle.battlefield.on_table(end):
            return model, None, 0.0
        for enemy in enemies:
            gap = path_gap(start, end, model, enemy)
            if gap < ENEMY_CLEARANCE and gap < _clearance(start, model, enemy):
                return model, enemy, ENEMY_CLEARANCE
        other = in_the_way(model, start, end, others)
        if other is not None:
            return model, other, 0.0
    return None


def _clearance(start: Vec, model: Model, enemy: Model) -> float:
    """How near ``enemy`` a move of ``model`` from ``start`` may come: 1", or, where it
    starts nearer, no nearer than it starts."""
    already = path_gap(start, start, model, enemy)
    return ENEMY_CLEARANCE if already >= ENEMY_CLEARANCE else already - EPSILON


def passed_from(intent: str, starts: Mapping[str, Vec]) -> Mapping[str, Vec] | None:
    """Where each model began a move with ``intent``, for :func:`dangerous_terrain_tests`;
    ``None`` for a flank, whose way round skirts dangerous terrain
    (:func:`flank.flank_route`) while the straight line from its start may not."""
    return None if intent == FLANK else starts


def dangerous_terrain_tests(
    battle: Battle, unit: Unit, starts: Mapping[str, Vec] | None = None
) -> None:
    """6th/7th-edition Dangerous Terrain: each model in it rolls; on a 1 it
    suffers a wound with no armour or cover save (invulnerable saves allowed).

    A model with Move Through Cover passes (:func:`special_rules.passes_dangerous_terrain`).
    With ``starts`` (where each model began its move), a model whose move
    passed through dangerous terrain tests too (seed 000, Run: "models running
    through dangerous terrain must test as normal").

    On a table without dangerous terrain no model can be in it or pass through
    it, so no model's areas are looked up (every move of a battle asked them).
    """
    field = battle.battlefield
    if not any(area.dangerous for area in field.terrain):
        return
    for model in unit.alive_models:
        areas = field.areas_at(model.position)
        start = (starts or {}).get(model.id)
        if start is not None and start != model.position:
            areas += field.crossed(start, model.position)
        if not any(a.dangerous for a in areas) or passes_dangerous_terrain(unit, model):
            continue
        if battle.dice.d6(f"dangerous terrain ({model.id})") != 1:
            continue
        inv = invulnerable_save(battle, unit, model)
        if inv is not None and battle.dice.d6(f"invulnerable save {inv}+ ({model.id})") >= inv:
            continue
        lose_one_wound(battle, unit, model, "dangerous terrain")


FLEET_RUN_BELOW = 4
"""Fleet (6th/7th edition) re-rolls a Run distance below this (one D6)."""


def run_distances(battle: Battle, unit: Unit) -> range:
    """Every distance :func:`run` can roll for the unit: ``run_dice`` D6 (with
    Crusader the highest of one more) total ``n`` to ``6n``; Fleet's re-roll
    of a total below :data:`FLEET_RUN_BELOW` is one D6, from 1."""
    n = battle.settings.integer("run_dice")
    low = 1 if unit.has_rule("Fleet") and n < FLEET_RUN_BELOW else n
    return range(low, 6 * n + 1)


def run(battle: Battle, unit: Unit, why: str = RUNS, own_move: bool = True) -> None:
    """Seed 000, Run: "Roll a D6 to determine the maximum Run distance".

    "Running movement is not slowed by difficult terrain but models running
    through dangerous terrain must test as normal. Units that Run in the
    Shooting phase cannot charge in the following Assault phase." Fleet re-rolls
    the distance (6th/7th edition) when it is below 4 — the roll any player re-rolls.
    The number of dice is the parameter ``run_dice`` (their total is the
    distance). A Run that is not ``own_move`` (Dive for Cover, in the enemy's
    turn) counts neither as the unit's Run nor as its move. Crusader
    (:func:`special_rules.crusader`) rolls one die more and keeps the highest.
    The player picks where it goes knowing the distance rolled (the
    question's ``what``); "up to" lets it go nowhere (the intent ``hold``). A
    squadron that goes leaves its Immobilised vehicles behind
    (:func:`vehicles.leave_behind`).
    """
    n = battle.settings.integer("run_dice")
    purpose = f"run distance ({unit.label})" if n == 1 else f"run distance {n}D6 ({unit.label})"
    if crusader(unit):  # one die more, the highest n kept
        distance = sum(sorted(battle.dice.roll(n + 1, f"{purpose}, Crusader"))[1:])
    else:
        distance = battle.dice.total(n, purpose)
    if unit.has_rule("Fleet") and distance < FLEET_RUN_BELOW:
        distance = battle.dice.d6(f"Fleet re-roll of run distance ({unit.label})")
    intent = choose_intent(
        battle,
        unit,
        f'{why} up to {distance}"',
        intents=intents_for(battle, unit),
        what=str(distance),
    )
    if intent != "hold":
        leave_behind(battle, unit)  # a squadron runs away from its Immobilised vehicles
    starts = {m.id: m.position for m in unit.alive_models}
    route = route_of(battle, unit, intent)
    move_along(battle, unit, route, float(distance), f"runs ({intent})", own_move=own_move)
    if own_move:
        st(battle, unit).ran = True
    dangerous_terrain_tests(battle, unit, passed_from(intent, starts))


FALL_BACK_DETOURS = (0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90)
"""Degrees off the straight line to the own table edge that a Fall Back move's
first leg may take to get around models in the way (never farther: a unit
falling back does not double back)."""
FALL_BACK_STEP = 0.5
"""Inches between the lengths tried for a Fall Back move's first leg."""
FALL_BACK_CLEARANCE = 1.0
"""6th/7th edition: a Fall Back move may not end within 1" of an enemy model."""


def fall_back_dice(unit: Unit) -> int:
    """The D6 a Fall Back move of ``unit`` rolls (6th/7th edition, as remembered:
    2D6", 3D6" for fast units, :func:`has_fast_model`): what :func:`fall_back` rolls
    and the AI's chances of a Fall Back (``plans.off_table_chance``) read."""
    return 3 if has_fast_model(unit) else 2


def fall_back(battle: Battle, unit: Unit, why: str) -> None:
    """6th/7th-edition Fall Back: 2D6" (3D6 for fast units) toward the own table
    edge, "by the shortest possible route", moving around models in the way.

    A unit whose models would reach the edge leaves the battle: it is removed
    as casualties. Otherwise it moves the whole distance by the route of
    :func:`fall_back_route`, as a block; where the block has none (an enemy model
    standing among its models bars every way a rigid block could take), its
    models fall back one by one (:func:`fall_back_one_by_one`). A unit with
    neither is Trapped! and destroyed (7th edition: a falling-back unit that
    cannot make its full Fall Back move is destroyed). Both readings are recorded
    in docs/rules/waffle.md. A unit with the rule Immobile "cannot move once it has
    entered play" (``vehicles.IMMOBILE``): it can make no Fall Back move, and is
    Trapped! before any roll (an interpretation, docs/rules/waffle.md).
    """
    st(battle, unit).falling_back = True
    if is_immobile(unit):
        _trapped(battle, unit, "it is Immobile and cannot fall back")
        return
    dice = fall_back_dice(unit)
    distance = battle.dice.total(dice, f"fall back distance {dice}D6 ({unit.label})")
    battle.emit(ReactionDeclared(unit=unit.label, reaction=f'falls back {distance}"', against=why))
    player = battle.player(unit.player)
    gap = min(
        player.distance_to_edge(battle.battlefield, m.position) - m.radius
        for m in unit.alive_models
    )
    if distance >= gap:
        for model in unit.alive_models:
            remove_casualty(battle, unit, model, "fell back off the table")
        return
    route = fall_back_route(battle, unit, float(distance))
    if route is not None:
        for leg in route:
            _shift(battle, unit, leg, "falls back")
        return
    routes = fall_back_one_by_one(battle, unit, float(distance))
    if routes is None:
        _trapped(battle, unit, f'it cannot fall back {distance}"')
        return
    for model, legs in routes:
        for leg in legs:
            if shift_model(battle, unit, model, leg, "falls back"):
                unit.status.moved = True  # as the block's move counts (_shift)


def _trapped(battle: Battle, unit: Unit, why: str) -> None:
    """Trapped!: the falling-back ``unit`` is destroyed, the log saying ``why``."""
    battle.emit(Trapped(unit.label, why))
    for model in unit.alive_models:
        remove_casualty(battle, unit, model, "trapped while falling back")


def fall_back_route(battle: Battle, unit: Unit, distance: float) -> tuple[Vec, Vec] | None:
    """The two legs (block vectors) of the Fall Back move that ends nearest the
    unit's own table edge, or ``None`` when there is none.

    The first leg turns up to 90° off the straight line to the edge
    (:data:`FALL_BACK_DETOURS`) for a length in steps of
    :data:`FALL_BACK_STEP` (none: straight); the second goes straight toward
    the edge for the rest of ``distance``. Both legs stay on the table and pass
    through no other unit's base (:func:`_obstacle`; leaving the combat it fell
    back from, a unit may pass within 1" of the enemy), and the unit ends at
    least 1" from every enemy model. On a tie, the smaller detour and the
    shorter first leg win.
    """
    models = unit.alive_models
    # Both legs together move each model at most ``distance``: other bases farther
    # than that from where the unit stands cannot be touched (geometry.near_path).
    others = near_path(models, (0.0, 0.0), battle.other_models(unit), distance)
    return _route(battle, unit, models, centre_of(unit), distance, others)


def fall_back_one_by_one(
    battle: Battle, unit: Unit, distance: float
) -> list[tuple[Model, tuple[Vec, Vec]]] | None:
    """Each model's own two legs (as :func:`fall_back_route` finds a block's, from the
    model's own position), the model nearest the own table edge first, or ``None``
    when a model has none.

    A model's legs pass through no other base, its own unit's included: the
    models moved before it stand where they ended, the others where they are.
    The unit's models are put back where they stood; the caller moves them.
    """
    player = battle.player(unit.player)
    field = battle.battlefield
    models = sorted(unit.alive_models, key=lambda m: player.distance_to_edge(field, m.position))
    starts = [m.position for m in models]
    routes: list[tuple[Model, tuple[Vec, Vec]]] = []
    try:
        for model in models:
            others = [m for u in battle.units.values() for m in u.alive_models if m is not model]
            near = near_path([model], (0.0, 0.0), others, distance)
            legs = _route(battle, unit, [model], model.position, distance, near)
            if legs is None:
                return None
            routes.append((model, legs))
            x, y = model.position
            model.position = (x + legs[0][0] + legs[1][0], y + legs[0][1] + legs[1][1])
    finally:
        for model, start in zip(models, starts, strict=True):
            model.position = start
    return routes


def _route(
    battle: Battle,
    unit: Unit,
    models: list[Model],
    centre: Vec,
    distance: float,
    others: list[Model],
) -> tuple[Vec, Vec] | None:
    """The two legs that move ``models`` of ``unit`` (from ``centre``) ``distance``
    inches nearest the unit's own table edge, passing through none of ``others``
    and ending 1" from every enemy (:func:`fall_back_route`)."""
    player = battle.player(unit.player)
    field = battle.battlefield
    ex, ey = player.edge_point(field, centre)
    heading = math.atan2(ey - centre[1], ex - centre[0])
    straight = (math.cos(heading), math.sin(heading))
    enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
    best: tuple[Vec, Vec] | None = None
    best_gap = math.inf
    steps = math.ceil(distance / FALL_BACK_STEP - EPSILON)
    detour_lengths = [min(distance, k * FALL_BACK_STEP) for k in range(1, steps + 1)]
    for detour in FALL_BACK_DETOURS:
        turn = heading + math.radians(detour)
        for first in detour_lengths if detour else [0.0]:
            leg1 = (math.cos(turn) * first, math.sin(turn) * first)
            rest = distance - first
            leg2 = (straight[0] * rest, straight[1] * rest)
            end = (centre[0] + leg1[0] + leg2[0], centre[1] + leg1[1] + leg2[1])
            gap = player.distance_to_edge(field, end)
            if gap >= best_gap - EPSILON:
                continue
            if (
                _obstacle(battle, models, leg1, [], others) is None
                and _obstacle(battle, models, leg2, [], others, offset=leg1) is None
                and _clear_at_end(models, (end[0] - centre[0], end[1] - centre[1]), enemies)
            ):
                best, best_gap = (leg1, leg2), gap
    return best


def _clear_at_end(models: list[Model], vector: Vec, enemies: list[Model]) -> bool:
    """Whether every model, moved by ``vector``, ends 1" or more from every enemy."""
    return all(
        centre_distance((m.position[0] + vector[0], m.position[1] + vector[1]), e.position)
        - m.radius
        - e.radius
        >= FALL_BACK_CLEARANCE - EPSILON
        for m in models
        for e in enemies
    )
