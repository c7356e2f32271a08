"""The heuristic AI's view of a charge's fight (issue 9): who fights, what a charge
spares, and when a charged unit holds rather than falls back.

Each position is built by hand; the expected decision is argued from the rules
in the comments, not read off the AI.
"""

from __future__ import annotations

import pytest
from conftest import GUARD, LASGUN, MARINE, A, B, make_battle, profile, row, squad, weapon
from test_waffle_vehicles import LEMAN_RUSS, vehicle_unit

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import END_CHARGES
from hammerlab.editions.waffle.expected import charged_fighters, expected_attack
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.plans import charge_value
from hammerlab.editions.waffle.reaction_plans import charge_reaction_costs
from hammerlab.editions.waffle.rules.reactions import FALL_BACK, OVERWATCH
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit

BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")
STORM_BOLTER = weapon("Storm bolter", "24", "4", "5", "Assault 2")
POWER_FIST = weapon("Power fist", "-", "x2", "2", "Melee, Unwieldy, Specialist Weapon")
TERMINATOR = profile("Terminator", a=2, sv="2+", inv=5)


def grid(x: float, y: float, columns: int, rows: int, pitch: float) -> list[tuple[float, float]]:
    """``rows`` ranks of ``columns`` models, ``pitch`` inches apart, rank 1 at ``y``."""
    return [(x + c * pitch, y + r * pitch) for r in range(rows) for c in range(columns)]


def test_a_horde_charged_by_a_narrow_unit_fights_with_its_front_ranks_only() -> None:
    # 6th/7th edition: a model fights in base contact, or within 2" of a friend
    # of its unit in base contact. Five chargers in a line 5" in front of 20
    # models in four ranks 2.25" apart (1" bases): the charge reaches rank 1;
    # rank 2 stands 1.25" behind it (within 2"), rank 3 3.5" (beyond), so 10
    # of the 20 fight.
    chargers = squad("a", A, MARINE, [], row(30, 10, 5))
    horde = squad("b", B, GUARD, [], grid(30, 16, 5, 4, 2.25))
    fighting = charged_fighters(horde, chargers)
    assert sorted(m.id for m in fighting) == sorted(f"b.{n}" for n in range(1, 11))


def ask(
    battle: Battle, kind: str, player: str, choices: list[tuple[str, object]], **ids: str
) -> str:
    """A fresh AI's answer, by label, to one decision with these choices."""
    decision = Decision(
        kind=kind,
        player=player,
        prompt="?",
        choices=tuple(Choice(label, value) for label, value in choices),
        context=DecisionContext(**ids),
    )
    return choices[WaffleAI().choose(battle, decision)][0]


def test_a_charge_that_the_chargers_will_not_survive_spares_them_nothing() -> None:
    # A charge is worth, among other things, the target's shooting it spares
    # the chargers next turn (seed 001: a unit locked in combat cannot shoot).
    # Two Guardsmen 3" from ten veterans with boltguns that strike first (I5)
    # with three blows each: of the seven veterans within reach of the fight
    # (7 x 3 = 21 blows for two Guardsmen), every Guardsman is expected to die
    # before striking back, so nothing is left to be spared.
    guard = squad("a", A, GUARD, [], row(30, 10, 2))
    veteran = profile("Veteran", ws=5, i=5, a=3)
    veterans = squad("b", B, veteran, [BOLTGUN], row(26, 14, 10))
    battle = make_battle(guard, veterans, seed=1)
    assert expected_attack(battle, veterans, guard, FireOrders()) > 0
    value = charge_value(battle, guard, veterans)
    assert value.taken == 2
    assert value.spared == 0
    assert value.value <= 0
    choices: list[tuple[str, object]] = [(guard.label, guard), (END_CHARGES, None)]
    assert ask(battle, "charger", A, choices) == END_CHARGES


def terminators_charge_guardsmen(guard_y: float) -> tuple[Battle, Unit, Unit]:
    """Five Terminators (storm bolters, power fists) 6" south of ten Guardsmen whose
    own table edge is north (y = 48)."""
    terminators = squad("a", A, TERMINATOR, [STORM_BOLTER, POWER_FIST], row(28, guard_y - 6.5, 5))
    guard = squad("b", B, GUARD, [LASGUN], row(26, guard_y, 10))
    return make_battle(terminators, guard, seed=1), terminators, guard


def test_guardsmen_hold_against_terminators_when_falling_back_only_postpones_the_fight() -> None:
    # The Guardsmen stand 16" from their edge: a 2D6 Fall Back cannot take
    # them off it. Staying, the power fists (S8, AP2: no save, Instant Death)
    # cut most of them down. Falling back ~7" leaves them 13" away: the
    # Terminators move 6" and charge again next turn (2D6 of 7" or more: 7/12),
    # and meanwhile their storm bolters (24") shoot them in the open, where a
    # unit locked in combat could not be shot. Fleeing costs more: they hold.
    battle, terminators, guard = terminators_charge_guardsmen(32.0)
    costs = charge_reaction_costs(battle, guard, terminators, 0.0)
    assert costs.off_table == 0.0
    assert costs.stay < costs.flee
    labels: list[tuple[str, object]] = [(OVERWATCH, OVERWATCH), (FALL_BACK, FALL_BACK)]
    assert ask(battle, "charge_reaction", B, labels, unit="b", attacker="a") != FALL_BACK


def test_guardsmen_on_their_edge_never_fall_back_off_it_from_terminators() -> None:
    # 2" from their edge a Fall Back roll of 2 or more takes them off the
    # table, while staying they are expected to keep models: they hold.
    battle, terminators, guard = terminators_charge_guardsmen(45.5)
    costs = charge_reaction_costs(battle, guard, terminators, 0.0)
    assert costs.off_table == pytest.approx(1.0)
    assert costs.could_hold
    labels: list[tuple[str, object]] = [(OVERWATCH, OVERWATCH), (FALL_BACK, FALL_BACK)]
    assert ask(battle, "charge_reaction", B, labels, unit="b", attacker="a") != FALL_BACK


def test_a_charge_at_a_tank_it_cannot_hurt_spares_nothing_and_is_not_declared() -> None:
    # 7th edition: "vehicles without a Weapon Skill are never locked in combat"
    # (docs/rules/waffle.md, Vehicles 9): the Leman Russ may drive off and shoot after
    # being charged, so a charge at it spares the chargers none of its shooting. Two
    # Guardsmen (S3 close combat weapons) 3" from it: their blows strike its rear
    # armour 10, and S3 + D6 is at most 9, so the charge deals nothing, and the tank
    # strikes no blow, so it takes nothing: the charge is worth nothing (less its
    # Overwatch: none, a tank fires none) and the AI ends its charges instead.
    guard = squad("a", A, GUARD, [], row(30, 10, 2))
    russ = vehicle_unit("russ", B, LEMAN_RUSS, (30.5, 15.0))
    battle = make_battle(guard, russ, seed=1)
    assert expected_attack(battle, russ, guard, FireOrders()) > 0  # it has guns to spare
    value = charge_value(battle, guard, russ)
    assert value.chance > 0
    assert (value.dealt, value.taken, value.spared) == (0, 0, 0)
    assert value.value <= 0
    choices: list[tuple[str, object]] = [(guard.label, guard), (END_CHARGES, None)]
    assert ask(battle, "charger", A, choices) == END_CHARGES
