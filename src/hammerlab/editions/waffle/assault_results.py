"""Determine Assault Results (seeds 001 and 002), and the moves that end a combat.

Combat result → Morale checks of the losers → Sweeping Advances → Fall Back
moves → Pile In or Consolidate. The fight itself is ``fight.py``, which hands
over a :class:`FightRecord` and uses :func:`pile_in` at each Initiative step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hammerlab.editions.waffle.allocation import allocate_wounds
from hammerlab.editions.waffle.combat import Combat, in_contact, locks, units_in_contact
from hammerlab.editions.waffle.events import (
    CombatOver,
    CombatResolved,
    SweepBarred,
    SweepingAdvance,
)
from hammerlab.editions.waffle.morale import morale_check
from hammerlab.editions.waffle.movement import choose_intent, fall_back, goal_of
from hammerlab.editions.waffle.orders import FireOrders, Hit, VolleyResult
from hammerlab.editions.waffle.placement import (
    EPSILON,
    PILE_IN,
    bases_near,
    closest_approach,
    contact_spot,
    in_the_way,
    is_free,
)
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of
from hammerlab.editions.waffle.rerolls import wound_rerolls
from hammerlab.editions.waffle.special_rules import (
    close_combat_strength,
    close_combat_weapon,
    crusader,
    sweep_bar,
)
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.toughness import toughness
from hammerlab.editions.waffle.vehicles import is_immobile
from hammerlab.editions.waffle.wounds import roll_to_wound
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import ModelMoved
from hammerlab.engine.geometry import Vec, base_distance, centre_distance, closest, step_toward
from hammerlab.engine.moves import centre_of
from hammerlab.engine.units import Model, Unit

CONSOLIDATE_CLEARANCE = 1.0
"""6th/7th edition: a Consolidation may not bring a model within 1" of an enemy."""
SWEEP, NO_SWEEP = "Sweeping Advance", "no Sweeping Advance"
SWEEP_ORDERS = FireOrders(purpose="sweeping advance")


@dataclass
class FightRecord:
    """What the fight of one combat leaves for its assault result."""

    weapons: dict[str, WeaponProfile] = field(default_factory=dict)
    """Model id → the melee weapon it fights with in this combat."""
    locked: dict[str, set[str]] = field(default_factory=dict)
    """Unit id → the enemy units it was locked in combat with during the fight."""

    def note_contacts(self, units: Sequence[Unit]) -> None:
        """Record which units of the combat are locked with which enemies now: in
        base contact, neither a vehicle without a Weapon Skill (:func:`combat.locks`:
        "vehicles without a Weapon Skill are never locked in combat"), so such a
        vehicle is never "free to make a Sweeping Advance", nor does touching one
        keep a winner from sweeping the unit it fought."""
        lockers = [u for u in units if locks(u)]
        for unit in lockers:
            for other in lockers:
                if other.player != unit.player and units_in_contact(unit, other):
                    self.locked.setdefault(unit.id, set()).add(other.id)


@dataclass(frozen=True)
class Outcome:
    """Who won a combat, and the Morale penalty each losing unit takes."""

    winner: str
    """The winning player; empty on a draw."""
    losers: tuple[tuple[Unit, int], ...]


def resolve_assault(battle: Battle, combat: Combat, record: FightRecord, player: str) -> None:
    """Seed 001, Determine Assault Results, for one combat; then its last moves.

    "Every unit on the losing side has to check their Morale (they all use the
    same penalty …). After all of the losing units have taken their Morale
    checks, each winning unit that is now free to make a Sweeping Advance
    rolls the dice …" Survivors of a failed check then Fall Back ("In either
    case, make a Fall Back move for the surviving members of the losing unit").
    """
    outcome = combat_result(battle, combat)
    broken = [
        unit
        for unit, penalty in outcome.losers
        if not morale_check(battle, unit, f"lost the combat by {penalty}", penalty, assault=True)
    ]
    winners = [u for u in combat.side(outcome.winner) if not u.destroyed]
    sweeping_advances(battle, winners, broken, record)
    for unit in broken:
        if not unit.destroyed:
            fall_back(battle, unit, "losing the combat")
    moves_after_combat(battle, combat, player)


def combat_result(battle: Battle, combat: Combat) -> Outcome:
    """Seed 001, Assault Results: "total up the number of wounds inflicted by all
    units on each side to see which side is the winner".

    A side's total is the ``combat_score`` of its units in the combat: the
    unsaved wounds they caused in this fight (Feel No Pain and wounds past the
    last model do not count, but the unsaved ones beyond a Character's last in a
    challenge do: ``allocation.excess_wounds``) plus Fiery Charge casualties. The side with more
    wins; every unit of a losing side takes its Morale check at minus the
    difference (6th/7th edition). A draw ends there. A side with no unit left
    has lost: the combat is over, with no Morale check (6th/7th edition).
    """
    scores = {p: sum(st(battle, u).combat_score for u in combat.side(p)) for p in combat.players}
    standing = [p for p in combat.players if any(not u.destroyed for u in combat.side(p))]
    best = max(scores.values())
    leaders = [p for p in combat.players if scores[p] == best]
    winner = ""
    if len(standing) == 1:
        winner = standing[0]
        battle.emit(CombatOver(winner))
    elif len(standing) > 1 and len(leaders) == 1:
        winner = leaders[0]
    losers: tuple[tuple[Unit, int], ...] = ()
    if winner and len(standing) > 1:
        losers = tuple(
            (unit, best - scores[unit.player])
            for unit in combat.units
            if unit.player != winner and not unit.destroyed
        )
    others = [scores[p] for p in combat.players if p != winner]
    battle.emit(
        CombatResolved(
            units=tuple(u.label for u in combat.units),
            scores=scores,
            winner=winner,
            difference=max(0, scores[winner] - max(others)) if winner and others else 0,
        )
    )
    return Outcome(winner, losers)


def sweeping_advances(
    battle: Battle, winners: list[Unit], broken: list[Unit], record: FightRecord
) -> None:
    """Seeds 001/002, Sweeping Advances, in a single or a multiple combat.

    "winning units can only Sweeping Advance if all of the units they were
    locked in combat with Fall Back or are wiped out in the fight"
    (:attr:`FightRecord.locked`: never a vehicle without a Weapon Skill); the
    winning player decides whether each such unit sweeps. "Both the unit
    falling back and the winning unit roll a D6 and add their unmodified
    Initiative"; each falling-back unit rolls once, then each sweeping unit,
    which "compares its total with the total of each of the falling back
    enemy units it was engaged with. Any that it equals or beats suffer
    automatic hits."
    """
    fled = {u.id for u in broken}
    sweepers: list[tuple[Unit, list[Unit]]] = []
    for unit in winners:
        foes = [battle.unit(i) for i in sorted(record.locked.get(unit.id, set()))]
        chased = [f for f in foes if f.id in fled and not f.destroyed]
        if not chased or any(f.id not in fled and not f.destroyed for f in foes):
            continue
        if (bar := sweep_bar(unit)) is not None:
            battle.emit(SweepBarred(unit.label, bar))
            continue
        if _will_sweep(battle, unit, chased):
            sweepers.append((unit, chased))
    fleeing = {f.id: f for _, chased in sweepers for f in chased}
    totals = {uid: _sweep_roll(battle, unit) for uid, unit in sorted(fleeing.items())}
    for unit, chased in sweepers:
        total = _sweep_roll(battle, unit)
        for foe in chased:
            caught = total >= totals[foe.id]
            battle.emit(
                SweepingAdvance(
                    unit=unit.label,
                    fleeing=foe.label,
                    total=total,
                    fleeing_total=totals[foe.id],
                    caught=caught,
                )
            )
            if caught:
                cut_down(battle, unit, foe, record)


def _will_sweep(battle: Battle, unit: Unit, chased: list[Unit]) -> bool:
    names = ", ".join(f.label for f in chased)
    return battle.decide(
        Decision(
            kind="sweeping_advance",
            player=unit.player,
            prompt=f"{unit.label} may make a Sweeping Advance at {names}",
            choices=(Choice(SWEEP, True), Choice(NO_SWEEP, False)),
            context=DecisionContext(unit=unit.id, others=tuple(f.id for f in chased)),
        )
    )


def _sweep_roll(battle: Battle, unit: Unit) -> int:
    """Seed 001: "roll a D6 and add their unmodified Initiative … In a unit with
    mixed Initiative characteristics, use the highest"; Crusader adds a D3
    (:func:`special_rules.crusader`)."""
    initiative = max(stats_of(m.profile).i for m in unit.alive_models)
    total = battle.dice.d6(f"Sweeping Advance ({unit.label}, +I{initiative})") + initiative
    if crusader(unit):
        total += battle.dice.roll(1, f"Crusader: +D3 to Sweeping Advance ({unit.label})", 3)[0]
    return total


def cut_down(battle: Battle, winner: Unit, fleeing: Unit, record: FightRecord) -> None:
    """Seed 001: "Each model in the winning squad automatically inflicts a randomly
    distributed hit on the fleeing unit, they count as charging for the purposes
    of any weapons or special rules that grant bonuses when charging."

    Each hit, one model of the winner after another, goes to a model of the
    fleeing unit picked at random (:func:`random_model`); it is rolled to wound
    against that model's Toughness with the Strength (Furious Charge counting)
    and the AP and rules of the weapon the winning model fought with, and saved
    as a close combat wound (no cover). These wounds do not change the result.
    The hits per model are the parameter ``sweeping_advance_hits``.
    """
    result = VolleyResult()
    per_model = battle.settings.integer("sweeping_advance_hits")
    strikes = [m for m in winner.alive_models for _ in range(per_model)]
    for striker in strikes:
        if fleeing.destroyed:
            return
        victim = random_model(battle, fleeing)
        weapon = close_combat_weapon(winner, striker, record.weapons[striker.id])
        strength = close_combat_strength(battle, winner, striker, weapon, charging=True)
        hit = Hit(fleeing, strength, striker)
        rerolls = wound_rerolls(battle, winner, fleeing)
        at = toughness(battle, fleeing, victim)
        wounds = roll_to_wound(battle, fleeing, [hit], weapon, at, **rerolls)
        allocate_wounds(
            battle,
            winner,
            fleeing,
            wounds,
            weapon,
            SWEEP_ORDERS,
            result,
            [striker],
            melee=True,
            only=victim,
        )


def random_model(battle: Battle, unit: Unit) -> Model:
    """A model of ``unit`` picked at random: a D(n) over its n models alive, in unit order."""
    alive = unit.alive_models
    if len(alive) == 1:
        return alive[0]
    purpose = f"random model of {unit.label} (1-{len(alive)} in unit order)"
    return alive[battle.dice.roll(1, purpose, sides=len(alive))[0] - 1]


def moves_after_combat(battle: Battle, combat: Combat, player: str) -> None:
    """Seed 001/002: the moves once the assault results are determined.

    "all units that were involved in that multiple combat must make Pile In
    moves towards enemies that fought in that combat. If no models in a unit
    are in base contact with an enemy unit, and the combined Pile In moves of
    both sides are not enough for them to get back into base contact, then
    they can Consolidate instead"; "The winners can then Consolidate". A unit
    with no enemy left in the combat (wiped out or fallen back) Consolidates;
    one still touching an enemy Piles In the models not in base contact; one
    within 6" (two Pile In moves) of an enemy Piles In; any other
    Consolidates. What each unit does is settled first; then the Pile In
    moves are made (the player whose turn it is first), then the
    Consolidations. A vehicle without a Weapon Skill does neither: it was
    never locked in combat nor fought (:func:`combat.locks`); units touching
    it Pile In toward it as toward any foe (they strike it again in the next
    Fight sub-phase).
    """
    staying = [u for u in combat.units if not u.destroyed and not st(battle, u).falling_back]
    staying.sort(key=lambda u: u.player != player)
    plans: list[tuple[Unit, list[Unit], bool]] = []
    for unit in filter(locks, staying):
        foes = [e for e in staying if e.player != unit.player]
        plans.append((unit, foes, _piles_in(unit, foes)))
    for unit, foes, piles in plans:
        if piles:
            enemies = [e for f in foes for e in f.alive_models]
            loose = [m for m in unit.alive_models if not any(in_contact(m, e) for e in enemies)]
            pile_in(battle, unit, loose, foes)
    for unit, _, piles in plans:
        if not piles:
            consolidate(battle, unit)


def _piles_in(unit: Unit, foes: list[Unit]) -> bool:
    if not foes:
        return False
    if any(units_in_contact(unit, f) for f in foes):
        return True
    gap = min(base_distance(m, e) for f in foes for e in f.alive_models for m in unit.alive_models)
    return gap <= 2 * PILE_IN + EPSILON


def pile_in(
    battle: Battle,
    unit: Unit,
    models: list[Model],
    foes: list[Unit],
    before: Callable[[], None] | None = None,
) -> None:
    """6th/7th-edition Pile In: each model moves up to 3" toward the nearest enemy.

    The models closest to the enemy move first. Each goes into base contact
    with the nearest enemy model of ``foes`` it can reach a free spot around
    (the charge move's contact search), else as far as it can straight toward
    the nearest enemy model. No base ends overlapping another or off the table,
    nor within 1" of an enemy unit that is not in the combat (as a charging model
    may not: a pile-in brings no other unit into the fight; an interpretation, in
    docs/rules/waffle.md). ``before`` is called before the first move (the fight's
    Initiative step heading). A unit with the rule Immobile, which "cannot move once
    it has entered play" (``vehicles.IMMOBILE``), makes none.
    """
    if is_immobile(unit):
        return
    enemies = [e for f in foes for e in f.alive_models]
    if not enemies:
        return
    # Not within 1" of an enemy unit outside the combat: a pile-in engages none.
    fighting = {f.id for f in foes}
    outside = [e for f in battle.enemies_of(unit) if f.id not in fighting for e in f.alive_models]
    for model in closest(enemies, models):
        reachable = [e for e in closest([model], enemies) if base_distance(model, e) <= PILE_IN]
        spot = contact_spot(battle, unit, model, reachable, PILE_IN, outside)
        if spot is None:
            nearest = closest([model], enemies)[0]
            holder = next(f for f in foes if nearest in f.alive_models)
            spot = closest_approach(battle, unit, model, holder, PILE_IN, outside)
        _move(battle, unit, model, spot, "piles in", before)


def consolidate(battle: Battle, unit: Unit) -> None:
    """6th/7th-edition Consolidate: a D6" move, not into base contact with an enemy.

    The player picks where to (advance, take cover, retreat, hold). Each model
    moves by the same vector, the unit's centre toward that goal, the leading
    models first; a model that would overlap a base, pass through another unit's
    base on its way (:func:`placement.in_the_way`), leave the table or come
    within 1" of an enemy moves a shorter part of the vector (tenths), or not
    at all. A unit with the rule Immobile (``vehicles.IMMOBILE``) makes none, and rolls
    no die for it.
    """
    if is_immobile(unit):
        return
    distance = battle.dice.d6(f"consolidate distance ({unit.label})")
    intent = choose_intent(battle, unit, f'consolidates up to {distance}"')
    goal = goal_of(battle, unit, intent)
    models = unit.alive_models
    if goal is None or not models:
        return
    centre = centre_of(unit)
    end = step_toward(centre, goal, float(distance))
    dx, dy = end[0] - centre[0], end[1] - centre[1]
    enemies = [e for foe in battle.enemies_of(unit) for e in foe.alive_models]
    for model in sorted(models, key=lambda m: -(m.position[0] * dx + m.position[1] * dy)):
        bases = bases_near(battle, unit, model, float(distance))
        for tenth in range(10, 0, -1):
            spot = (model.position[0] + dx * tenth / 10, model.position[1] + dy * tenth / 10)
            if (
                is_free(battle, model, spot)
                and _clear_of(model, spot, enemies)
                and in_the_way(model, model.position, spot, bases) is None
            ):
                _move(battle, unit, model, spot, "consolidates")
                break


def _clear_of(model: Model, spot: Vec, enemies: list[Model]) -> bool:
    """Whether ``model`` at ``spot`` keeps 1" from every enemy base."""
    return all(
        centre_distance(spot, e.position) - model.radius - e.radius
        >= CONSOLIDATE_CLEARANCE - EPSILON
        for e in enemies
    )


def _move(
    battle: Battle,
    unit: Unit,
    model: Model,
    spot: Vec,
    reason: str,
    before: Callable[[], None] | None = None,
) -> None:
    if centre_distance(spot, model.position) <= EPSILON:
        return
    if before is not None:
        before()
    start, model.position = model.position, spot
    battle.emit(ModelMoved(unit=unit.label, model=model.id, start=start, end=spot, reason=reason))
