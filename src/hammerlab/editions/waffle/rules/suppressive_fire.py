"""Seed 000, (Proposed Rule) Suppressive Fire, and the two ideas the seed adds to it.

"Any unit may, when shooting at an enemy unit, perform a Suppressive Fire
shooting action instead of a regular shooting action against non-vehicle
targets. Perform a Suppressive Fire action just as you would make a normal
Shooting action, but do not remove any models or reduce any wounds as a
result of this shooting. Instead, if the target unit would have suffered
enough wounds to take a Morale check, they must take that morale check with a
-1 penalty to their Ld for each Wound they would have suffered. Snap shots
cannot be used as Suppressive Fire."

Installed as: an extra shooting action; a veto on weapons that would fire
Snap Shots; a replacement of "wounds would be lost" that only counts them (in
this rule's memory, per shooting attack); and, after the attack, the Morale
check. It offers two points of its own, on which ``shock_troops`` and
``suppressive_pinning`` install (both ``requires`` it: neither may be on
without it).

"that morale check" is the one the wounds would have caused: the 6th/7th-edition
Morale check for 25% casualties in a phase, of which a unit takes one ("A unit
that suffers 25% or more casualties during a single phase must take a Morale
check at the end of that phase"). So a unit tests for Suppressive Fire at most
once a phase, and the test it takes is that phase's check, which the end of the
phase does not give it again (``WaffleStatus.casualty_check_taken``). A target
that takes no test is told why (:class:`SuppressionUntested`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, TypeVar

from hammerlab.editions.waffle.attacks import able_weapons
from hammerlab.editions.waffle.expected import Fired, volley_of
from hammerlab.editions.waffle.hook_points import waffle_point
from hammerlab.editions.waffle.morale import (
    MORALE_CHECK,
    PINNING_TEST,
    morale_check,
    passes_automatically,
    pinning_test,
    takes_pinning_test,
)
from hammerlab.editions.waffle.odds import shooting_odds
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult
from hammerlab.editions.waffle.points import (
    AFTER_SHOOTING_ATTACK,
    SHOOTING_ACTIONS,
    SHOOTING_ATTACK_BEGINS,
    WEAPON_OUTCOME,
    WEAPON_WOULD_FIRE,
    WOUNDS_LEFT,
    WOUNDS_WOULD_BE_LOST,
    Attack,
    WoundLoss,
)
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.engine.rules import HookPoint, Hooks, Parameter, RuleOption, RuleSettings
from hammerlab.engine.units import Model, Unit

NAME = "suppressive_fire"
SUPPRESS = "suppressive fire"
"""The shooting action's label."""

QUOTE = (
    "Any unit may, when shooting at an enemy unit, perform a Suppressive Fire shooting "
    "action instead of a regular shooting action against non-vehicle targets. … do not "
    "remove any models or reduce any wounds as a result of this shooting. Instead, if the "
    "target unit would have suffered enough wounds to take a Morale check, they must take "
    "that morale check with a -1 penalty to their Ld for each Wound they would have "
    "suffered. Snap shots cannot be used as Suppressive Fire."
)

LD_PENALTY = Parameter(
    "ld_penalty_per_wound",
    1,
    "Leadership penalty to the Morale check for each wound counted",
    'Seed 000: "with a -1 penalty to their Ld for each Wound they would have suffered"',
    minimum=0,
    maximum=10,
)
WOUNDS_COUNTED = Parameter(
    "wounds_counted",
    "unsaved",
    "What counts as a Wound suffered: each unsaved wound once (an Instant Death wound "
    "counts once), or every wound it would take off (Instant Death counts them all)",
    'Seed 000: "for each Wound they would have suffered" (docs/rules/waffle.md)',
    choices=("unsaved", "lost"),
)


@dataclass
class Ledger:
    """What the current Suppressive Fire attack would have done, per model and unit."""

    left: dict[str, int] = field(default_factory=dict)
    """Model id → wounds it would have left."""
    lost: Counter[str] = field(default_factory=Counter)
    """Unit id → wounds it would have lost."""


def ledger(battle: Battle) -> Ledger:
    """This rule's memory of the attack in progress."""
    return battle.remember(NAME, Ledger)


N = TypeVar("N", int, float)


def wounds_counted(settings: RuleSettings, unsaved: N, lost: N) -> N:
    """The Wounds the target "would have suffered", as parameter ``wounds_counted``
    counts them: its ``unsaved`` wounds (an Instant Death wound once), or the wounds
    they would have taken off (``lost``: an Instant Death wound all it takes). What
    the rule's test counts, and the AI's worth of the action (its means)."""
    return lost if settings.text(f"{NAME}.{WOUNDS_COUNTED.name}") == "lost" else unsaved


class Suppression(Protocol):
    """A rule installed on one of Suppressive Fire's points (:data:`SUPPRESSION_WOULD_APPLY`,
    :data:`SUPPRESSION_TEST_WOULD_BE_TAKEN`), which may take over what follows there."""

    def takes_over(self, battle: Battle, target: Unit) -> bool:
        """Whether it replaces what follows for ``target``: a question, which changes
        nothing and says nothing (the AI asks it too, ``plans.suppression_value``)."""
        ...

    def __call__(self, battle: Battle, target: Unit, wounds: int) -> None:
        """What it does instead, where it takes over; ``wounds``: the Wounds counted
        (:func:`wounds_counted`)."""
        ...


class SuppressionTest(Suppression, Protocol):
    """A rule that replaces the target's Morale check (at
    :data:`SUPPRESSION_TEST_WOULD_BE_TAKEN`) and says by which test."""

    @property
    def test(self) -> str | None:
        """The Leadership test the target takes instead (``morale.PINNING_TEST``), which
        the AI values as it values that test; ``None``: no test it knows."""
        ...


S = TypeVar("S", bound=Suppression)

SUPPRESSION_WOULD_APPLY: HookPoint[Suppression] = waffle_point(
    "suppression would apply",
    "Suppressive Fire is about to affect its target (before the Morale threshold).",
)
SUPPRESSION_TEST_WOULD_BE_TAKEN: HookPoint[SuppressionTest] = waffle_point(
    "suppression test would be taken",
    "The target of Suppressive Fire is about to take its Morale check.",
)


def taking_over(battle: Battle, point: HookPoint[S], target: Unit) -> S | None:
    """The first rule installed at ``point`` that takes over for ``target``, if any."""
    return next((h for h in battle.hooks.get(point) if h.takes_over(battle, target)), None)


def suppression_test(battle: Battle, target: Unit) -> str | None:
    """The test a Suppressive Fire attack that reaches its threshold would have
    ``target`` take, as the installed rules say: none where a rule takes over first
    (:data:`SUPPRESSION_WOULD_APPLY`: Shock Troops), the test of a rule that replaces
    the Morale check (:data:`SUPPRESSION_TEST_WOULD_BE_TAKEN`: ``suppressive_pinning``'s
    Pinning test), else the Morale check. A question: what the AI values the action
    by (``plans.suppression_value``)."""
    if taking_over(battle, SUPPRESSION_WOULD_APPLY, target) is not None:
        return None
    instead = taking_over(battle, SUPPRESSION_TEST_WOULD_BE_TAKEN, target)
    return MORALE_CHECK if instead is None else instead.test


@dataclass(frozen=True)
class SuppressionUntested(Event):
    """The target of a Suppressive Fire attack takes no test for it: ``reason`` says why
    (no wound, too few would-be casualties, its Morale check for the phase's casualties
    taken already, falling back, gone to ground...); ``wounds``: the Wounds counted."""

    kind: ClassVar[str] = "suppression_untested"
    unit: str
    wounds: int
    reason: str

    @property
    def text(self) -> str:
        wounds = f"{self.wounds} wound(s)"
        return f"{self.unit} takes no test (Suppressive Fire, {wounds}): {self.reason}"


@dataclass(frozen=True)
class SuppressionIgnored(Event):
    """The target of a Suppressive Fire attack ignores it by ``rule`` (Shock Troops,
    ``shock_troops``): no test, whatever it would have suffered."""

    kind: ClassVar[str] = "suppression_ignored"
    unit: str
    rule: str

    @property
    def text(self) -> str:
        return f"{self.unit} are {self.rule}: Suppressive Fire ignored"


@dataclass(frozen=True)
class SuppressiveAction:
    """The shooting action: non-vehicle targets not locked in combat, by a unit with a
    weapon that would fire at them other than as Snap Shots."""

    shared_between_battles: ClassVar[bool] = True
    """It keeps nothing (its label and settings): every battle copied from one shares it
    (``Hooks.copy``)."""

    label: str = SUPPRESS

    def targets(self, battle: Battle, unit: Unit, targets: list[Unit]) -> list[Unit]:
        """ "Snap shots cannot be used as Suppressive Fire": a target at which every
        weapon the unit could fire would fire Snap Shots (:func:`snap_shots.fires_snap`: a
        unit gone to ground, falling back or Jinking, Heavy weapons moved, a Shaken
        crew...) is not offered, nor is a melee (shot into with Snap Shots); it is
        "against non-vehicle targets"."""
        orders = self.orders()
        return [
            t
            for t in targets
            if not st(battle, t).locked_in_combat
            and not is_vehicle(t)
            and _fires_unsnapped(battle, unit, t, orders)
        ]

    def orders(self) -> FireOrders:
        """Fire as usual, under the action's name."""
        return FireOrders(action=SUPPRESS)


def _fires_unsnapped(battle: Battle, unit: Unit, target: Unit, orders: FireOrders) -> bool:
    """Whether a weapon of ``unit`` that some model could fire at ``target``
    (:func:`attacks.able_weapons`, what the weapon decision offers) would fire other
    than as Snap Shots."""
    able = able_weapons(battle, unit, target, orders, Counter(), set())
    for name, models in able.items():
        weapon = models[0].weapon(name)
        if weapon is not None and not fires_snap(battle, unit, weapon_of(weapon), orders, target):
            return True
    return False


def _begin(battle: Battle, attack: Attack) -> None:
    if attack.orders.action == SUPPRESS:
        battle.memory[NAME] = Ledger()


def _no_snap(
    battle: Battle, unit: Unit, profile: WeaponProfile, snap: bool, orders: FireOrders
) -> str | None:
    """ "Snap shots cannot be used as Suppressive Fire." """
    if snap and orders.action == SUPPRESS:
        return "would fire Snap Shots, which cannot be used as Suppressive Fire"
    return None


def _counted_left(battle: Battle, model: Model, orders: FireOrders) -> int | None:
    if orders.action != SUPPRESS:
        return None
    return ledger(battle).left.get(model.id, model.wounds_left)


def _count_instead(battle: Battle, loss: WoundLoss) -> bool:
    """ "do not remove any models or reduce any wounds": count what would be lost."""
    if loss.orders.action != SUPPRESS:
        return False
    memory = ledger(battle)
    left = loss.left - loss.lost
    memory.left[loss.model.id] = left
    memory.lost[loss.victim.id] += loss.lost
    battle.say(
        "suppressive", f"  {loss.model.id} would lose {loss.lost} wound(s) (Suppressive Fire)"
    )
    if left <= 0:
        loss.result.casualties[loss.victim.id] += 1
    return True


def _would_do(
    battle: Battle, unit: Unit, target: Unit, name: str, models: list[Model], orders: FireOrders
) -> str | None:
    """What a weapon of a Suppressive Fire attack would do, told a person choosing it
    (:data:`points.WEAPON_OUTCOME`): the models that would fall and the wounds that would
    go unsaved, "do not remove any models or reduce any wounds", on the exact odds the
    AI weighs the action by (:func:`expected.volley_of`, :func:`odds.shooting_odds`).
    ``None`` where the volley would do nothing (the prompt then says why)."""
    if orders.action != SUPPRESS:
        return None
    volley = volley_of(battle, unit, target, Fired(name, models, 0.0), orders)
    odds = None if volley is None else shooting_odds(*volley)
    if odds is None or odds.mean_unsaved <= 0:
        return None
    fall, unsaved = odds.mean_models_killed, odds.mean_unsaved
    removes = "Suppressive Fire removes none"
    return f"about {fall:.2f} models would fall and {unsaved:.2f} wounds go unsaved ({removes})"


def _untested(battle: Battle, target: Unit, wounds: int, reason: str) -> None:
    battle.emit(SuppressionUntested(unit=target.label, wounds=wounds, reason=reason))


def _reason(wounds: int) -> str:
    """What a test Suppressive Fire forces says it is for."""
    return f"Suppressive Fire, {wounds} wound(s)"


def _morale(settings: RuleSettings) -> Callable[[Battle, Attack, VolleyResult], None]:
    per_wound = settings.integer(f"{NAME}.{LD_PENALTY.name}")

    def after(battle: Battle, attack: Attack, result: VolleyResult) -> None:
        """ "if the target unit would have suffered enough wounds to take a Morale
        check, they must take that morale check with a -1 penalty to their Ld for
        each Wound they would have suffered." The threshold is the 6th/7th-edition
        25% of the unit's models in the phase (parameter ``morale_threshold``),
        counting the models it lost this phase and those this attack would have
        removed; an attack that would have caused no Wound caused none "enough".

        "that morale check" is the phase's 25% check (module docstring): a unit that
        took it already this phase takes no other; one that takes it here is not
        given it again at the phase's end. A unit falling back takes no Morale check
        from shooting (6th/7th edition; :func:`morale.morale_check`)."""
        if attack.orders.action != SUPPRESS:
            return
        target = attack.target
        wounds = wounds_counted(
            battle.settings, result.unsaved[target.id], ledger(battle).lost[target.id]
        )
        rule = taking_over(battle, SUPPRESSION_WOULD_APPLY, target)
        if rule is not None:
            rule(battle, target, wounds)
            return
        if not wounds:
            _untested(battle, target, wounds, "it would have suffered no Wound")
            return
        status = st(battle, target)
        would_die = status.casualties_this_phase + result.casualties[target.id]
        start = status.models_at_phase_start
        threshold = battle.settings.number("morale_threshold")
        if not start or would_die < threshold * start:
            why = f"it would have lost {would_die} of {start} model(s) this phase"
            why += f", under {threshold:.0%}"
            _untested(battle, target, wounds, why)
            return
        rule = taking_over(battle, SUPPRESSION_TEST_WOULD_BE_TAKEN, target)
        if rule is not None:
            rule(battle, target, wounds)
            return
        if status.casualty_check_taken:
            why = "it took its Morale check for this phase's casualties already"
            _untested(battle, target, wounds, why)
            return
        if status.falling_back:
            _untested(battle, target, wounds, "it is falling back: no Morale check from shooting")
            return
        status.casualty_check_taken = True
        morale_check(battle, target, _reason(wounds), penalty=wounds * per_wound)

    return after


def install(hooks: Hooks, settings: RuleSettings) -> None:
    """Put Suppressive Fire on the shooting procedures."""
    hooks.add(SHOOTING_ACTIONS, SuppressiveAction())
    hooks.add(SHOOTING_ATTACK_BEGINS, _begin)
    hooks.add(WEAPON_WOULD_FIRE, _no_snap)
    hooks.add(WOUNDS_LEFT, _counted_left)
    hooks.add(WOUNDS_WOULD_BE_LOST, _count_instead)
    hooks.add(AFTER_SHOOTING_ATTACK, _morale(settings))
    hooks.add(WEAPON_OUTCOME, _would_do)


SUPPRESSIVE_FIRE = RuleOption(
    name=NAME,
    summary="Shoot to force a Morale check at -1 Ld per wound instead of removing models",
    quote=QUOTE,
    parameters=(LD_PENALTY, WOUNDS_COUNTED),
    install=install,
)


@dataclass(frozen=True)
class ShockTroops:
    """ "a work in USR for dedicated 'shock troops' … that flat out ignores this":
    a unit with the rule Shock Troops ignores Suppressive Fire."""

    rule: ClassVar[str] = "Shock Troops"

    def takes_over(self, battle: Battle, target: Unit) -> bool:
        return target.has_rule(self.rule)

    def __call__(self, battle: Battle, target: Unit, wounds: int) -> None:
        battle.emit(SuppressionIgnored(unit=target.label, rule=self.rule))


@dataclass(frozen=True)
class PinningInstead:
    """ "Also a pinning check rather than morale?": the kind of test changes, not its
    penalty ("with a -1 penalty to their Ld for each Wound they would have suffered",
    parameter ``ld_penalty_per_wound``). A Pinning test is no Morale check: the unit
    still takes the phase's 25% check at its end if its real casualties call for it.
    Not taken by a unit gone to ground or Fearless (:func:`morale.takes_pinning_test`)."""

    per_wound: int
    test: str = PINNING_TEST

    def takes_over(self, battle: Battle, target: Unit) -> bool:
        return True  # every target tests for Pinning, or is told why it does not

    def __call__(self, battle: Battle, target: Unit, wounds: int) -> None:
        if not takes_pinning_test(battle, target):
            if st(battle, target).gone_to_ground:
                why = "it has gone to ground already: no further Pinning tests"
            elif (rule := passes_automatically(target, PINNING_TEST)) is not None:
                why = f"it is {rule}: it passes Pinning tests automatically"
            else:
                why = "it takes no Pinning test"
            _untested(battle, target, wounds, why)
            return
        pinning_test(battle, target, _reason(wounds), penalty=wounds * self.per_wound)


SHOCK_TROOPS = RuleOption(
    name="shock_troops",
    summary="Units with the Shock Troops rule ignore Suppressive Fire",
    quote=(
        "perhaps have a work in USR for dedicated 'shock troops' for each codex that flat out "
        "ignores this?"
    ),
    install=lambda hooks, settings: hooks.add(SUPPRESSION_WOULD_APPLY, ShockTroops()),
    requires=NAME,
)
SUPPRESSIVE_PINNING = RuleOption(
    name="suppressive_pinning",
    summary=(
        "Suppressive Fire forces a Pinning test instead of a Morale check, at the same "
        "penalty per wound"
    ),
    quote="Also a pinning check rather than morale?",
    install=lambda hooks, settings: hooks.add(
        SUPPRESSION_TEST_WOULD_BE_TAKEN,
        PinningInstead(settings.integer(f"{NAME}.{LD_PENALTY.name}")),
    ),
    requires=NAME,
)
