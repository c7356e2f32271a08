"""A Walker that "cannot move" neither Runs nor charges (7th-edition Vehicle Damage).

The 7th-edition Vehicle Damage table (``vehicle_damage._suffer`` quotes it): Crew
Stunned, the vehicle "can only fire Snap Shots" and "cannot move" until the end of its
next turn; Immobilised, it "cannot move" for the rest of the game. A Walker Runs and
charges as infantry does (``vehicles.may_run``, ``vehicles.may_charge``), and both
are moves. Each result is said of the vehicle that suffered it: a squadron with a Crew
Stunned vehicle stays where it is, one whose Immobilised vehicles are not all of it
moves away from them, leaving them behind as units of their own (docs/rules/waffle.md,
*Vehicles*). Until session 22 a referee's review found an Immobilised or Crew Stunned
Walker still offered a Run and a charge. Bases are 1" across (conftest).
"""

from __future__ import annotations

import pytest
from conftest import (
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    TROOPER,
    WALKER,
    A,
    B,
    Placed,
    asked,
    charge_sub_phase,
    make_battle,
    make_unit,
    of_kind,
    row,
    squad,
)

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.move_plans import ahead_of_it
from hammerlab.editions.waffle.movement import run
from hammerlab.editions.waffle.plans import counter_charge_chance
from hammerlab.editions.waffle.ruleset import end_of_turn
from hammerlab.editions.waffle.shooting import RUN, can_run, unit_shooting_action
from hammerlab.editions.waffle.state import VehicleStatus
from hammerlab.editions.waffle.vehicles import vehicle_status
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

NO_REACTION = [("charge_reaction", "no reaction")]


def _walkers(
    *at: tuple[float, float],
    script_a: list[tuple[str, str]] | None = None,
    dice: tuple[int, ...] = (),
) -> tuple[Battle, Unit]:
    """Walkers of A (one unit: a squadron when more than one) at ``at``, ten
    Guardsmen of B in a row from (30, 16)."""
    walkers = make_unit("w", A, [Placed(WALKER, [HEAVY_BOLTER], p) for p in at], name="W")
    guard = squad("g", B, GUARD, [LASGUN], row(30, 16, 10), name="Guard")
    battle = make_battle(walkers, guard, dice=dice, script_a=script_a or [], script_b=NO_REACTION)
    return battle, walkers


def _damage(status: VehicleStatus, result: str) -> None:
    if result == "immobilised":
        status.immobilised = True
    elif result == "stunned":
        status.stunned_turns = 1  # suffered in the enemy's turn: until the end of A's next


@pytest.mark.parametrize(
    ("result", "ban"),
    [
        ("unhurt", None),
        ("immobilised", "Immobilised: it cannot move"),
        ("stunned", "Crew Stunned: it cannot move"),
    ],
)
def test_an_immobilised_or_crew_stunned_walker_neither_runs_nor_charges(
    result: str, ban: str | None
) -> None:
    # A lone Walker 6" from the Guard (edges 5" apart): in reach of a charge, and
    # able to Run, unless the damage result says it cannot move.
    battle, walker = _walkers((30, 10), script_a=[("action", "hold")])
    _damage(vehicle_status(battle, walker.models[0]), result)
    assert can_run(battle, walker) is (ban is None)
    assert charge_ban(battle, walker) == ban
    unit_shooting_action(battle, walker)  # the shooting action offered: Run or not
    (menu,) = asked(battle, A, "action")
    assert (RUN in menu.labels()) is (ban is None)


def test_the_charge_sub_phase_names_why_a_stunned_walker_may_not_charge_until_it_recovers() -> None:
    # Crew Stunned in B's turn (1 turn to count): barred in A's turn, the charge
    # sub-phase says why; at the end of A's turn it wears off ("until the end of its
    # next turn"), and the Walker may Run and charge again. Immobilised never wears off.
    battle, walker = _walkers((30, 10), script_a=[("charger", "end charges")])
    stunned = vehicle_status(battle, walker.models[0])
    _damage(stunned, "stunned")
    charge_sub_phase(battle, A)
    barred = [(e.unit, e.reason) for e in of_kind(battle, "charge_barred")]
    assert ("W [w]", "Crew Stunned: it cannot move") in barred
    end_of_turn(battle, A)
    assert can_run(battle, walker) and charge_ban(battle, walker) is None
    _damage(stunned, "immobilised")
    end_of_turn(battle, A)
    assert not can_run(battle, walker)


def test_a_walker_squadron_runs_away_from_its_immobilised_walker() -> None:
    # w.2 Immobilised, w.1 not: the squadron may Run (a Run of 3, advancing toward the
    # Guard); w.2 stays where it stood, a unit of its own that may neither Run nor
    # charge, and w.1 runs on.
    battle, squadron = _walkers((20, 10), (22, 10), script_a=[("move", "advance")], dice=(3,))
    stuck = squadron.models[1]
    vehicle_status(battle, stuck).immobilised = True
    assert can_run(battle, squadron) and charge_ban(battle, squadron) is None
    run(battle, squadron)
    (left,) = of_kind(battle, "left_behind")
    assert (left.model, left.unit) == ("w.2", "W [w.2]")
    assert stuck.position == (22, 10)
    assert [m.id for m in squadron.models] == ["w.1"]
    assert squadron.models[0].position != (20, 10)
    alone = battle.unit("w.2")
    assert not can_run(battle, alone)
    assert charge_ban(battle, alone) == "Immobilised: it cannot move"


def test_a_walker_squadron_charges_without_its_immobilised_walker() -> None:
    # w.1 at (25, 10) and w.2 at (27, 10), Immobilised; the Guard from (30, 16). The
    # squadron declares the charge; w.2 is left behind before the roll, which w.1 makes
    # alone: 8 (4 + 4) against its 6.81" (centres sqrt(5^2 + 6^2) = 7.81" apart, less
    # the two half-inch radii). w.1 charges home, w.2 has not moved.
    script = [("charger", "W [w]"), ("charge_target", "Guard [g]"), ("charger", "end charges")]
    battle, squadron = _walkers((25, 10), (27, 10), script_a=script, dice=(4, 4))
    stuck = squadron.models[1]
    vehicle_status(battle, stuck).immobilised = True
    charge_sub_phase(battle, A)
    (left,) = of_kind(battle, "left_behind")
    assert left.model == "w.2"
    (roll,) = of_kind(battle, "charge_roll")
    assert roll.distance == pytest.approx(61**0.5 - 1, abs=0.005)  # w.2 would be 5.71"
    assert stuck.position == (27, 10)
    assert squadron.status.charged and [m.id for m in squadron.models] == ["w.1"]


def test_the_ai_expects_no_charge_from_an_immobilised_enemy_walker() -> None:
    # A Walker of B 6" from ten Troopers of A, in A's Movement phase: B's Assault phase
    # is still to come this game turn, so an unhurt Walker may charge the Troopers then;
    # an Immobilised one never will.
    troopers = squad("t", A, TROOPER, [], row(30, 10, 10))
    walker = make_unit("w", B, [Placed(WALKER, [HEAVY_BOLTER], (30, 16))], name="W")
    battle = make_battle(troopers, walker, seed=1)
    record_schedule(battle, Schedule(1, ("movement", "shooting", "assault"), (A, B)))
    battle.active_player, battle.phase = A, "movement"
    assert counter_charge_chance(battle, walker, troopers) > 0.0
    vehicle_status(battle, walker.models[0]).immobilised = True
    assert counter_charge_chance(battle, walker, troopers) == 0.0


def test_the_ai_counts_no_immobilised_walker_ahead_to_charge_for_its_own_side() -> None:
    # ahead_of_it: a friend nearer the target and there to charge it draws its fire. A
    # gunless Walker of A 3" from the Guard (its blows are all it has), Troopers of A
    # 10" away: the Walker is ahead of them, unless it is Immobilised.
    walker = make_unit("w", A, [Placed(WALKER, [], (30, 12))], name="W")
    troopers = squad("t", A, TROOPER, [], row(30, 5, 5))
    guard = squad("g", B, GUARD, [LASGUN], row(30, 16, 10), name="Guard")
    battle = make_battle(walker, troopers, guard, seed=1)
    assert ahead_of_it(battle, troopers, guard)
    vehicle_status(battle, walker.models[0]).immobilised = True
    assert not ahead_of_it(battle, troopers, guard)
