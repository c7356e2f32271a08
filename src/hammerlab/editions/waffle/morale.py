"""Morale checks, Pinning tests and Going to Ground (6th/7th-edition base rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hammerlab.editions.waffle.characteristics import leadership
from hammerlab.editions.waffle.events import BrokenAgain, LeadershipTest, MoraleAutoPassed
from hammerlab.editions.waffle.movement import fall_back
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

MORALE_CHECK = "Morale check"
PINNING_TEST = "Pinning test"
REGROUP_TEST = "Regroup test"
FEAR_TEST = "Fear test"
"""The Leadership tests a special rule may pass without a roll (:data:`AUTOMATIC_PASSES`),
as :func:`leadership_test` names them in the log."""

AND_THEY_SHALL_KNOW_NO_FEAR = "And They Shall Know No Fear"

AUTOMATIC_PASSES: Final[Mapping[str, tuple[str, ...]]] = {
    "Fearless": (PINNING_TEST, FEAR_TEST, REGROUP_TEST, MORALE_CHECK),
    AND_THEY_SHALL_KNOW_NO_FEAR: (FEAR_TEST, REGROUP_TEST),
}
"""The tests each special rule passes without a roll. ``Warhammer40K.gst``, Fearless:
"Units containing one or more models with the Fearless special rule automatically
pass Pinning, Fear, Regroup tests and Morale checks"; And They Shall Know No Fear:
"A unit that contains at least one model with this special rule automatically
passes Fear and Regroup tests"."""


def acts_normally_on_regrouping(unit: Unit) -> bool:
    """Whether a Regroup leaves ``unit`` free to act as it would have (And They Shall
    Know No Fear: "When it Regroups, the unit does not make the 3" Regroup move, but
    can instead move, shoot (or Run) and declare charges normally in that turn"):
    what the Regroup (``movement_phase.regroup``) and the AI's worth of breaking a
    unit ask."""
    return unit.has_rule(AND_THEY_SHALL_KNOW_NO_FEAR)


def passes_automatically(unit: Unit, test: str) -> str | None:
    """The special rule by which ``unit`` passes ``test`` (one of :data:`AUTOMATIC_PASSES`'
    tests) without a roll, or ``None``: the one notion the Morale check, the Pinning,
    Regroup and Fear tests and the AI's estimates of them ask."""
    return next(
        (rule for rule, tests in AUTOMATIC_PASSES.items() if test in tests and unit.has_rule(rule)),
        None,
    )


def leadership_test(
    battle: Battle,
    unit: Unit,
    test: str,
    modifier: int,
    reason: str,
    *,
    double_one_only: bool = False,
) -> bool:
    """2D6 against Leadership; a double 1 always passes ("Insane Courage").

    ``modifier`` is added to Leadership (a penalty is negative); with
    ``double_one_only`` nothing but a double 1 passes. Stubborn (7th edition,
    ``Warhammer40K.gst``): "When a unit that contains at least one model with this
    special rule takes Morale checks or Pinning tests, they ignore any negative
    Leadership modifiers."
    """
    modifier = leadership_modifier(unit, test, modifier)
    ld = leadership(battle, unit)
    dice = battle.dice.roll(2, f"{test} ({unit.label})")
    roll = sum(dice)
    passed = passes(dice, ld + modifier, double_one_only)
    battle.emit(
        LeadershipTest(
            unit=unit.label,
            test=test,
            leadership=ld,
            modifier=modifier,
            roll=roll,
            passed=passed,
            reason=reason,
        )
    )
    return passed


def leadership_modifier(unit: Unit, test: str, modifier: int) -> int:
    """The ``modifier`` to Leadership ``unit`` takes ``test`` at: Stubborn (7th edition,
    ``Warhammer40K.gst``): "When a unit that contains at least one model with this
    special rule takes Morale checks or Pinning tests, they ignore any negative
    Leadership modifiers" (a bonus is kept)."""
    if unit.has_rule("Stubborn") and test in (MORALE_CHECK, PINNING_TEST):
        return max(0, modifier)
    return modifier


def passes(dice: tuple[int, ...], target: int, double_one_only: bool = False) -> bool:
    """Whether a Leadership test's 2D6 ``dice`` pass against ``target`` (Leadership and
    its modifier): a double 1 always ("Insane Courage"); else a total of ``target`` or
    less, unless only a double 1 may pass (``double_one_only``)."""
    return tuple(dice) == (1, 1) or (not double_one_only and sum(dice) <= target)


TWO_D6 = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 rolls of 2D6, each as likely."""


def pass_chance(
    battle: Battle, unit: Unit, test: str, modifier: int, *, double_one_only: bool = False
) -> float:
    """The chance ``unit`` passes ``test`` at ``modifier`` (a penalty is negative): 1
    where a special rule passes it without a roll (:func:`passes_automatically`, which
    the Morale check, Pinning, Regroup and Fear tests ask first), else the share of the
    36 rolls of 2D6 that :func:`leadership_test` passes, by its own target
    (:func:`leadership_modifier`) and :func:`passes`: what the AI's estimates of a
    test read."""
    if passes_automatically(unit, test) is not None:
        return 1.0
    target = leadership(battle, unit) + leadership_modifier(unit, test, modifier)
    return sum(passes(dice, target, double_one_only) for dice in TWO_D6) / len(TWO_D6)


def morale_check_penalty(battle: Battle, unit: Unit, penalty: int) -> int:
    """The Leadership penalty a Morale check at ``penalty`` is taken at: with the unit's
    own penalty this turn (``WaffleStatus.morale_penalty``: friendly fire, seed 001), as
    :func:`morale_check` takes it and the AI's chance of it reads."""
    return penalty + st(battle, unit).morale_penalty


def morale_check(
    battle: Battle, unit: Unit, reason: str, penalty: int = 0, *, assault: bool = False
) -> bool:
    """A Morale check: on a failure the unit Falls Back.

    Fearless units pass automatically; units locked in combat take no Morale
    checks from shooting (seed 001: "Units that are locked in close combat do
    not take Morale checks or Pinning tests caused by shooting"); a unit
    already falling back takes none from shooting. An ``assault`` check
    (losing a close combat) is taken by locked units, and its Fall Back move is
    left to the caller, which makes it after Sweeping Advances (seed 001: "In
    either case, make a Fall Back move for the surviving members of the losing
    unit"); a unit already falling back that loses a combat (it was caught by
    a charge) breaks again without a test.
    """
    if unit.destroyed:
        return True
    if is_vehicle(unit):
        return True  # 7th edition: vehicles have no Leadership and take no Morale checks
    if st(battle, unit).falling_back:
        if assault:
            battle.emit(BrokenAgain(unit.label, reason))
        return not assault
    if st(battle, unit).locked_in_combat and not assault:
        return True
    rule = passes_automatically(unit, MORALE_CHECK)
    if rule is not None:
        battle.emit(MoraleAutoPassed(unit.label, rule, reason))
        return True
    total_penalty = morale_check_penalty(battle, unit, penalty)
    if leadership_test(battle, unit, MORALE_CHECK, -total_penalty, reason):
        return True
    if not assault:
        fall_back(battle, unit, f"a failed Morale check ({reason})")
    return False


def takes_shooting_check(battle: Battle, unit: Unit) -> bool:
    """Whether a Morale check caused by shooting is taken at all: :func:`morale_check`
    passes it untested for a unit destroyed, a vehicle, a unit already falling
    back, one locked in close combat (seed 001) and a Fearless one. What an
    estimate of such a check's worth asks first (the AI's Suppressive Fire,
    ``plans.suppression_value``)."""
    status = st(battle, unit)
    return not (
        unit.destroyed
        or is_vehicle(unit)
        or status.falling_back
        or status.locked_in_combat
        or passes_automatically(unit, MORALE_CHECK) is not None
    )


def go_to_ground(battle: Battle, unit: Unit, why: str) -> None:
    """The unit Goes to Ground: +1 cover save (6+ without cover), snap shots only.

    Fearless units cannot Go to Ground voluntarily; locked units cannot at all.
    """
    if st(battle, unit).locked_in_combat or is_vehicle(unit):
        return  # 7th edition: vehicles cannot Go to Ground
    st(battle, unit).gone_to_ground = True
    battle.say("go-to-ground", f"{unit.label} goes to ground ({why})")


def pinning_test(battle: Battle, unit: Unit, reason: str, penalty: int = 0) -> None:
    """6th/7th-edition Pinning: a Leadership test (at ``penalty``: Suppressive Fire's,
    under ``suppressive_pinning``); on a failure the unit goes to ground.

    Not for Fearless units, units locked in combat or units already gone to ground,
    nor for vehicles (7th edition: "Vehicles … are never Pinned").
    """
    if not takes_pinning_test(battle, unit):
        return
    if not leadership_test(battle, unit, PINNING_TEST, -penalty, reason):
        st(battle, unit).pinned = True
        go_to_ground(battle, unit, "pinned")


def takes_pinning_test(battle: Battle, unit: Unit) -> bool:
    """Whether a Pinning test is taken at all (:func:`pinning_test`): not by a unit
    destroyed, locked in close combat, already gone to ground, Fearless, or a
    vehicle."""
    status = st(battle, unit)
    return not (
        unit.destroyed
        or status.locked_in_combat
        or status.gone_to_ground
        or is_vehicle(unit)
        or passes_automatically(unit, PINNING_TEST) is not None
    )


def phase_casualty_checks(battle: Battle, player: str) -> None:
    """Morale checks at the end of the phase for 25% casualties (6th/7th edition).

    "A unit that suffers 25% or more casualties during a single phase must
    take a Morale check at the end of that phase." Units of the player whose
    phase it is test first, then the opponent's. The share is the parameter
    ``morale_threshold``. A unit that took that check in the phase already (Suppressive
    Fire's: ``WaffleStatus.casualty_check_taken``) does not take it again.
    """
    threshold = battle.settings.number("morale_threshold")
    ordered = sorted(battle.units.values(), key=lambda u: (u.player != player, u.id))
    for unit in ordered:
        status = st(battle, unit)
        lost, start = status.casualties_this_phase, status.models_at_phase_start
        if unit.destroyed or not lost or not start or lost < threshold * start:
            continue
        if status.casualty_check_taken:
            continue
        morale_check(battle, unit, f"lost {lost} of {start} models this phase")
