"""The rule Immobile: Drop Pods and every other unit that has it.

The Space Marine catalogue of the shared data (``Space Marines - Codex (2015).cat``,
the rule ``4597-2474-e39c-2b5b`` its Drop Pod links) gives its text: "An immobile
vehicle cannot move once it has entered play, and counts in all respects as a
vehicle that has suffered an immobilised damage result that cannot be repaired in
any way. Note that this does not cause it to lose a Hull Point." The expected values
below are worked from that text and the 7th-edition rules quoted in
``editions/waffle/vehicles.py`` and ``vehicle_damage.py`` (comments give the
arithmetic); before this work the Drop Pod moved, was hit on 4+ after moving, and
every battle called the rule "not implemented".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    GUARD,
    LASCANNON,
    LASGUN,
    MARINE,
    A,
    B,
    all_dice_used,
    dice_purposes,
    make_battle,
    of_kind,
    squad,
)

from hammerlab.analysis.odds import LibraryQuestion, calculator
from hammerlab.editions.waffle.assault_results import consolidate, pile_in
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.charge import charge_ban
from hammerlab.editions.waffle.movement import fall_back
from hammerlab.editions.waffle.movement_phase import _may_move
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.rules.reactions import FallBack
from hammerlab.editions.waffle.shooting import can_run, start_phase
from hammerlab.editions.waffle.special_rules import sweep_bar, unsupported_unit_rules
from hammerlab.editions.waffle.vehicle_damage import IMMOBILISED
from hammerlab.editions.waffle.vehicles import (
    held_still,
    melee_cell_against,
    vehicle_status,
    vehicle_status_now,
)
from hammerlab.engine.units import Model, Unit
from hammerlab.io.battlescribe import unit_from_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
MARINES = DATA / "Space Marines - Codex (2015).cat"


def drop_pod(at: tuple[float, float] = (30.0, 30.0)) -> Unit:
    """The catalogue's Drop Pod (BS 4, AV 12 all round, HP 3, a storm bolter; its rules
    Transport Capacity (10), Drop Pod Assault, Inertial Guidance System, Immobile)."""
    sheet = unit_from_file(MARINES, "Drop Pod")
    (entry,) = sheet.entries
    model = Model("pod.1", entry.profile, entry.weapons, at, 100.0, 3, entry.rules)
    return Unit("pod", sheet.name, B, sheet, [model])


def test_the_catalogue_s_drop_pod_is_never_offered_a_move() -> None:
    shooter = squad("a", A, MARINE, [LASCANNON], [(30.0, 10.0)], name="Marines")
    pod = drop_pod()
    battle = make_battle(shooter, pod)
    assert "Immobile" in pod.rules
    assert held_still(battle, pod) == "Immobilised: it cannot move"
    assert not _may_move(battle, pod)  # so the Movement phase lists it among no movers
    # The rule is played, so no longer reported (the unit's other two rules still are).
    assert unsupported_unit_rules(pod.rules) == ["Drop Pod Assault", "Inertial Guidance System"]
    # Nothing is kept for it: it "counts" as Immobilised from the start, however the
    # battle was set up.
    assert not vehicle_status_now(battle, pod.models[0]).immobilised


def test_close_combat_hits_a_drop_pod_automatically_even_after_it_moved() -> None:
    # 7th edition: a vehicle that moved is hit on 4+, an Immobilised one automatically.
    # A Drop Pod counts as Immobilised "in all respects"; say the scenario set it down
    # having moved last turn: still "A".
    shooter = squad("a", A, MARINE, [LASCANNON], [(30.0, 27.0)], name="Marines")
    pod = drop_pod()
    battle = make_battle(shooter, pod)
    vehicle_status(battle, pod.models[0]).moved_last_turn = True
    assert melee_cell_against(battle, pod) == "A"


def test_an_immobilised_result_on_a_drop_pod_takes_another_hull_point() -> None:
    # Lascannon (S9 AP2) from a BS4 Marine: to hit 4 (3+ hits); armour 9 + 4 = 13 against
    # AV12, penetrating: one Hull Point (3 -> 2); damage 4 + 1 (AP2) + 1 (Open-topped)
    # = 6, Immobilised. Already Immobilised by its rule: "loses an additional Hull
    # Point" (2 -> 1).
    shooter = squad("a", A, MARINE, [LASCANNON], [(30.0, 10.0)], name="Marines")
    pod = drop_pod()
    battle = make_battle(shooter, pod, dice=[4, 4, 4])
    start_phase(battle, "shooting", A)
    fire_weapon(battle, shooter, pod, "Lascannon", FireOrders())
    assert [e.result for e in of_kind(battle, "vehicle_damage")] == [IMMOBILISED]
    assert pod.models[0].wounds_left == 1
    assert all_dice_used(battle)


def test_the_odds_at_a_drop_pod_count_it_immobilised() -> None:
    # One Lascannon hit (hits=1) on the Front, AV12: 9 + D6 is 12 on a 3 (glancing,
    # 1/6), 13+ on 4-6 (penetrating, 1/2). A penetrating hit takes a Hull Point, then
    # D6 + 1 (AP2) + 1 (Open-topped) on the table: 6 (a roll of 4) is Immobilised, which
    # takes a second
    # Hull Point from an Immobilised vehicle: 1/2 x 1/6 = 1/12 to lose two of its three.
    # (Without the rule, no single hit takes two: 0.)
    question = LibraryQuestion(
        attacker="Tactical Squad (meltagun, lascannon)",
        weapon="Lascannon",
        target="Drop Pod",
        hits=1,
        units=(unit_from_file(MARINES, "Drop Pod"),),
    )
    result = calculator("waffle").library(question)
    assert result.unsaved_wounds[2] == pytest.approx(1 / 12)


IMMOBILE_GUNNERS = ("Immobile",)
"""A unit of Guardsmen with the rule, as the Astra Militarum catalogue links it to its
Field Artillery (a rule of the name without a text)."""


def gunners(at: tuple[float, float] = (30.0, 30.0)) -> Unit:
    return squad(
        "g", B, GUARD, [LASGUN], [at, (at[0] + 2, at[1])], name="Gunners", rules=IMMOBILE_GUNNERS
    )


def test_a_unit_that_is_no_vehicle_with_the_rule_makes_no_move_of_its_own() -> None:
    # "cannot move once it has entered play": no move, no Run, no charge, no Fall Back
    # as a reaction to a charge, no Sweeping Advance.
    marines = squad("a", A, MARINE, [LASCANNON], [(30.0, 20.0)], name="Marines")
    guns = gunners()
    battle = make_battle(marines, guns)
    assert held_still(battle, guns) == "Immobile: it cannot move"
    assert not _may_move(battle, guns)
    assert not can_run(battle, guns)
    assert charge_ban(battle, guns) == "Immobile: it cannot move"
    assert not FallBack().available(battle, guns, marines)
    assert sweep_bar(guns) == "Immobile"
    plain = squad("p", B, GUARD, [LASGUN], [(50.0, 30.0)], name="Plain")
    assert FallBack().available(battle, plain, marines) and sweep_bar(plain) is None


def test_a_unit_with_the_rule_neither_piles_in_nor_consolidates() -> None:
    # A Marine 2" off (within a 3" Pile In): the Gunners make no Pile In move, and
    # roll no die for a Consolidation.
    marines = squad("a", A, MARINE, [LASCANNON], [(30.0, 27.0)], name="Marines")
    guns = gunners()
    battle = make_battle(marines, guns)
    pile_in(battle, guns, guns.alive_models, [marines])
    consolidate(battle, guns)
    assert of_kind(battle, "model_moved") == []
    assert dice_purposes(battle) == []
    assert [m.position for m in guns.models] == [(30.0, 30.0), (32.0, 30.0)]


def test_a_unit_with_the_rule_that_must_fall_back_is_trapped() -> None:
    # 7th edition, Trapped!: a unit that cannot make its full Fall Back move is
    # destroyed; one that cannot move makes none (interpretation, waffle.md): no die.
    marines = squad("a", A, MARINE, [LASCANNON], [(30.0, 20.0)], name="Marines")
    guns = gunners()
    battle = make_battle(marines, guns)
    fall_back(battle, guns, "a failed Morale check")
    assert guns.destroyed
    assert dice_purposes(battle) == []
