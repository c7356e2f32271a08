"""The 25% Morale check in every phase its casualties fall in (6th/7th-edition base rules).

"A unit that suffers 25% or more casualties during a single phase must take a
Morale check at the end of that phase" (``morale.phase_casualty_checks``). A
referee review (session 22) found it taken at the end of the Shooting and Psychic
phases only: a unit that lost three of four models to dangerous terrain in its
Movement phase took none; and the passengers of a transport that exploded in the
Shooting phase took none either, their strength at the phase's start never counted
(they were off the table when the phase began). Expectations by hand; bases 1"
across (conftest).
"""

from __future__ import annotations

from conftest import (
    BOLTGUN,
    GUARD,
    LASGUN,
    MARINE,
    STORM_BOLTER,
    A,
    B,
    alive_ids,
    all_dice_used,
    box,
    make_battle,
    movement_phase,
    of_kind,
    row,
    squad,
)
from test_waffle_transports import _shot_at, guards, transport

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.morale import phase_casualty_checks
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.reserves import set_reserves
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.transports import start_embarked


def test_a_unit_that_loses_25_percent_in_its_movement_phase_takes_a_morale_check() -> None:
    # Four Marines at (30..36, 10) advance 6" straight north (toward the Guardsman at
    # (33, 40), due north of their centre) through a strip of dangerous terrain at
    # y 12..13: each model tests; three roll a 1 (a wound, no armour save), one a 6.
    # Three of four lost (75%): at the end of the phase a Morale check, 3 + 4 = 7
    # against Ld 8, passed.
    marines = squad("a", A, MARINE, [BOLTGUN], row(30, 10, 4), name="Squad")
    enemy = squad("b", B, GUARD, [LASGUN], [(33, 40)], name="Enemy")
    strip = box("Razor wire", 25, 12, 45, 13, dangerous=True)
    battle = make_battle(
        marines,
        enemy,
        terrain=[strip],
        dice=[1, 1, 1, 6, 3, 4],
        script_a=[("mover", "Squad [a]"), ("move", "advance")],
    )
    movement_phase(battle, A)
    assert alive_ids(marines) == ["a.4"]
    (check,) = of_kind(battle, "morale")
    assert (check.test, check.reason, check.roll, check.passed) == (
        "Morale check",
        "lost 3 of 4 models this phase",
        7,
        True,
    )
    assert all_dice_used(battle)


def test_the_passengers_of_an_exploding_transport_count_their_losses_for_the_check() -> None:
    # The transport test's explosion (test_waffle_transports): two Guardsmen aboard a
    # Chimera shot in A's Shooting phase; it explodes, one of the two dies to the
    # S4 hits and the other is pinned (5 + 4 = 9 fails Ld 7). One of two lost (50%)
    # in the phase, out of the two aboard when it began: at its end a Morale check,
    # 3 + 4 = 7 against Ld 7, passed.
    battle, shooter, chimera, passengers = _shot_at([3, 2, 6, 1, 4, 2, 4, 5, 4, 3, 4], 2)
    fire_weapon(battle, shooter, chimera, "Lascannon", FireOrders())
    assert len(passengers.alive_models) == 1
    phase_casualty_checks(battle, A)
    (check,) = (e for e in of_kind(battle, "morale") if e.test == "Morale check")
    assert (check.unit, check.reason, check.roll, check.passed) == (
        passengers.label,
        "lost 1 of 2 models this phase",
        7,
        True,
    )
    assert all_dice_used(battle)


def test_a_phase_counts_the_strength_of_units_in_reserve_and_aboard_as_it_begins() -> None:
    # Five Terminators of A in reserve and three Guardsmen of B aboard a Chimera when
    # a phase begins: each has its models counted, so a Deep Strike landing in dangerous
    # terrain or a transport destroyed that phase is measured against them (a count
    # left at 0 spared the unit its check).
    terminators = squad("term", A, MARINE, [STORM_BOLTER], row(10, 10, 5), rules=["Deep Strike"])
    chimera = transport("c", B, (30.0, 20.0))
    aboard = guards("g", 3, (5.0, 5.0))
    battle = make_battle(terminators, chimera, aboard, squad("b", B, GUARD, [LASGUN], [(30, 40)]))
    set_reserves(battle, {"term": "deep_strike"}, 5)
    start_embarked(battle, "g", "c")
    start_phase(battle, "movement", A)
    assert st(battle, terminators).models_at_phase_start == 5
    assert st(battle, aboard).models_at_phase_start == 3
