"""The Waffle Edition's hook points: where rules that plug in act on the procedures.

Each point names a moment of a procedure (a window), a set of offers (the
actions or reactions a player may choose), or a replacement in the XMage
"would/did" style (something *would* happen; a rule may do something else
instead). Options install handlers on them (``editions/waffle/rules/``, or a
plug-in file: ``docs/plugins.md``). Handlers run in installation order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from hammerlab.editions.waffle.hook_points import waffle_point
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult, WoundRoll
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.strength import (  # named here too, with the other points
    STRENGTH as STRENGTH,  # noqa: PLC0414 (an explicit re-export)
)
from hammerlab.editions.waffle.strength import (
    StrengthChange as StrengthChange,  # noqa: PLC0414
)
from hammerlab.editions.waffle.toughness import (  # named here too, with the other points
    TOUGHNESS as TOUGHNESS,  # noqa: PLC0414 (an explicit re-export)
)
from hammerlab.editions.waffle.toughness import (
    ToughnessChange as ToughnessChange,  # noqa: PLC0414
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.records import quick_init
from hammerlab.engine.rules import HookPoint
from hammerlab.engine.units import Model, Unit

# --- offers -------------------------------------------------------------------


class ShootingAction(Protocol):
    """A shooting action a unit may take besides a regular one (Suppressive Fire)."""

    @property
    def label(self) -> str:
        """The choice's label (``suppressive fire``)."""
        ...

    def targets(self, battle: Battle, unit: Unit, targets: list[Unit]) -> list[Unit]:
        """Which of the unit's legal ``targets`` it may be taken against (none: not offered)."""
        ...

    def orders(self) -> FireOrders:
        """The orders the unit fires with when it takes this action."""
        ...


class Reaction(Protocol):
    """A reaction a unit may choose (Return Fire!, Dive for Cover, Overwatch, Fall Back)."""

    @property
    def label(self) -> str:
        """The choice's label."""
        ...

    def available(self, battle: Battle, unit: Unit, attacker: Unit) -> bool:
        """Whether ``unit`` may react this way to ``attacker``."""
        ...

    def resolve(self, battle: Battle, unit: Unit, attacker: Unit) -> None:
        """Carry the reaction out."""
        ...


class Weighed(Protocol):
    """A plug-in's shooting action or reaction to shooting that tells the heuristic
    AI what taking it is worth (optional: one without ``worth`` is never taken by
    the AI, which knows only the built-in choices' worth; docs/plugins.md)."""

    def worth(self, battle: Battle, unit: Unit, other: Unit) -> float:
        """What ``unit``'s player gains by taking it against ``other`` (the action's
        target, or the attacker reacted to), on the AI's scale: enemy models
        expected to be removed, each at :func:`victory_worth.model_worth`, less the
        player's own (``hammerlab.editions.waffle.expected.expected_attack`` gives
        a volley's expected casualties with any :class:`FireOrders`)."""
        ...


def worth_of(choice: object, battle: Battle, unit: Unit, other: Unit) -> float | None:
    """``choice``'s own worth (:class:`Weighed`), or ``None`` where it gives none."""
    worth = getattr(choice, "worth", None)
    return float(worth(battle, unit, other)) if callable(worth) else None


SHOOTING_ACTIONS: HookPoint[ShootingAction] = waffle_point(
    "shooting actions", "Actions a shooting unit may take besides shooting, running, holding."
)
REACTIONS_TO_SHOOTING: HookPoint[Reaction] = waffle_point(
    "reactions to shooting", 'Seed 000 step 8: "Any unit hit by the attacks may react".'
)
REACTIONS_TO_CHARGE: HookPoint[Reaction] = waffle_point(
    "reactions to charge", 'Seed 004: "A unit that is charged can choose to react".'
)

# --- permissions --------------------------------------------------------------

ForcedFallBack = Callable[[Battle, Unit, Unit], str | None]
"""``(battle, charged, charger)``: why the charged unit must Fall Back, if it must."""

CHARGE_REACTION_FORCED: HookPoint[ForcedFallBack] = waffle_point(
    "charge reaction forced",
    'Seed 004: "certain terrifying creature may force a unit to Fall Back instead of other '
    'options".',
    takes=("battle", "charged", "charger"),
)

MayTarget = Callable[[Battle, Unit, Unit], bool]
"""``(battle, shooter, enemy)``: whether the rule lets the shooter target the enemy."""

MAY_TARGET_LOCKED: HookPoint[MayTarget] = waffle_point(
    "locked unit may be targeted",
    "Units locked in combat are not targets (6th/7th edition) unless a rule here allows it.",
    takes=("battle", "shooter", "enemy"),
)

# --- windows ------------------------------------------------------------------


@quick_init
@dataclass(frozen=True)
class Attack:
    """A shooting attack: who fires at whom, and how."""

    shooter: Unit
    target: Unit
    orders: FireOrders


AttackWindow = Callable[[Battle, Attack], None]
AfterAttack = Callable[[Battle, Attack, VolleyResult], None]
ChargeWindow = Callable[[Battle, Unit, Unit], None]
PlayerWindow = Callable[[Battle, str], None]

SHOOTING_ATTACK_BEGINS: HookPoint[AttackWindow] = waffle_point(
    "shooting attack begins",
    "Before the first weapon of a shooting attack is selected.",
    takes=("battle", "attack"),
)
AFTER_SHOOTING_ATTACK: HookPoint[AfterAttack] = waffle_point(
    "after a shooting attack",
    "After the unit's weapons have fired and its Pinning tests are taken, before reactions.",
    takes=("battle", "attack", "result"),
)
CHARGE_SUCCEEDED: HookPoint[ChargeWindow] = waffle_point(
    "charge succeeded",
    "A charging unit ended its charge move in base contact with its target.",
    takes=("battle", "unit", "target"),
)
CHARGE_REACTED: HookPoint[ChargeWindow] = waffle_point(
    "charge reacted",
    "A charge was declared and the charged unit reacted (or did not), before the charge "
    "range is rolled: ``(battle, charger, target)``.",
    takes=("battle", "charger", "target"),
)
END_OF_TURN: HookPoint[PlayerWindow] = waffle_point(
    "end of turn",
    "A player's turn ends (what lasts 'until the end of the turn' ends).",
    takes=("battle", "player"),
)

# --- watchers -------------------------------------------------------------------


class AttackWatcher(Protocol):
    """Looks at attacks as they are resolved, and changes nothing: what the
    search AI's luck (:mod:`luck`) is measured by. Each method is called just
    before the attack's dice are rolled and returns what to call once it is
    resolved."""

    def volley(
        self,
        battle: Battle,
        unit: Unit,
        target: Unit,
        weapon_name: str,
        orders: FireOrders,
        models: list[Model],
    ) -> Callable[[], None]:
        """``models`` of ``unit`` are about to fire ``weapon_name`` at ``target``."""
        ...

    def blows(
        self,
        battle: Battle,
        unit: Unit,
        models: tuple[Model, ...],
        weapon: WeaponProfile,
        target: Unit,
    ) -> Callable[[], None]:
        """``models`` of ``unit`` are about to strike ``target`` with ``weapon``
        (as they strike with it: :func:`special_rules.close_combat_weapon`)."""
        ...


ATTACK_WATCHERS: HookPoint[AttackWatcher] = waffle_point(
    "attack watchers",
    "Watchers told of each volley and each group's blows before and after they are resolved "
    "(no rule: the search AI installs one on its copies of a game).",
)

# --- did / would ----------------------------------------------------------------


@dataclass(frozen=True)
class WoundsCaused:
    """Wound rolls a weapon's attacks caused on a unit (a "did" event).

    ``models`` are the models whose attacks with the weapon caused them (the
    volley's firers, the group's strikers). ``strike(model, n, rule)`` makes
    ``n`` more attacks of ``model`` with the same weapon at the same target and
    returns the wounds they cause (``rule`` names them in the dice log);
    ``allocate(wounds)`` allocates wounds to the target and returns how many
    went unsaved. At the "unsaved" points ``wounds`` counts the unsaved wounds.
    """

    unit: Unit
    models: tuple[Model, ...]
    target: Unit
    profile: WeaponProfile
    orders: FireOrders
    wounds: int
    strike: Callable[[Model, int, str], list[WoundRoll]]
    allocate: Callable[[list[WoundRoll]], int]
    melee: bool = False


ExtraAttacks = Callable[[Battle, WoundsCaused], list[WoundRoll]]
"""A rule that answers wounds caused with more wound rolls (Final Shot, Final Blow)."""

SHOOTING_WOUNDS_CAUSED: HookPoint[ExtraAttacks] = waffle_point(
    "shooting wounds caused",
    "A weapon's shots caused wounds on a unit (before allocation).",
    takes=("battle", "caused"),
)
MELEE_WOUNDS_CAUSED: HookPoint[ExtraAttacks] = waffle_point(
    "melee wounds caused",
    "A model group's blows caused wounds (before allocation).",
    takes=("battle", "caused"),
)

AfterSaves = Callable[[Battle, WoundsCaused], None]
"""A rule that answers unsaved wounds (``caused.wounds``) by striking and allocating more."""

SHOOTING_WOUNDS_UNSAVED: HookPoint[AfterSaves] = waffle_point(
    "shooting wounds unsaved",
    "A weapon's wounds on its target were allocated; some went unsaved.",
    takes=("battle", "caused"),
)
MELEE_WOUNDS_UNSAVED: HookPoint[AfterSaves] = waffle_point(
    "melee wounds unsaved",
    "A model group's wounds were allocated; some went unsaved.",
    takes=("battle", "caused"),
)


@quick_init
@dataclass(frozen=True)
class WoundLoss:
    """An unsaved wound is about to take ``lost`` wounds from ``model`` (a "would" event)."""

    shooter: Unit
    victim: Unit
    model: Model
    lost: int
    left: int
    """Wounds the model has before this loss (as the allocation counts them)."""
    orders: FireOrders
    result: VolleyResult


WoundsReplacement = Callable[[Battle, WoundLoss], bool]
"""Returns ``True`` when it replaced the loss (nothing is lost then)."""
WoundsCount = Callable[[Battle, Model, FireOrders], int | None]
"""What a model's wounds count as during an attack; ``None``: no say."""
FireVeto = Callable[[Battle, Unit, WeaponProfile, bool, FireOrders], str | None]
"""``(battle, unit, weapon, snap, orders)``: why the weapon may not fire, if it may not."""
ChargeBonus = Callable[[Battle, Unit, int], int]
"""``(battle, unit, bonus)``: the charge bonus Attacks after the rule."""

WOUNDS_WOULD_BE_LOST: HookPoint[WoundsReplacement] = waffle_point(
    "wounds would be lost",
    "An unsaved wound would take wounds from a model.",
    takes=("battle", "loss"),
)
WOUNDS_LEFT: HookPoint[WoundsCount] = waffle_point(
    "wounds left",
    "How many wounds a model counts as having while wounds are allocated.",
    takes=("battle", "model", "orders"),
)
WEAPON_WOULD_FIRE: HookPoint[FireVeto] = waffle_point(
    "weapon would fire",
    "A selected weapon is about to fire; a rule may forbid it.",
    takes=("battle", "unit", "weapon", "snap", "orders"),
)
CHARGE_BONUS_ATTACKS: HookPoint[ChargeBonus] = waffle_point(
    "charge bonus attacks",
    "The bonus Attacks of a unit that charged this turn.",
    takes=("battle", "unit", "bonus"),
)

# --- what a person is told -----------------------------------------------------

WeaponOutcome = Callable[[Battle, Unit, Unit, str, list[Model], FireOrders], str | None]
"""``(battle, unit, target, weapon name, models, orders)``: what the weapon would do,
fired at ``target`` by ``models`` under ``orders``, where a rule changes what a volley
does (Suppressive Fire removes no model); ``None``: no say (the models expected slain)."""

WEAPON_OUTCOME: HookPoint[WeaponOutcome] = waffle_point(
    "weapon outcome",
    "A person choosing a weapon is told what it would do; a rule that changes what a "
    "volley does says it.",
    takes=("battle", "unit", "target", "weapon_name", "models", "orders"),
)


# --- characteristics and saves, as the rules and the AI's estimates both read them ---

SkillChange = Callable[[Battle, Model, int], int]
"""``(battle, model, bs)``: the Ballistic Skill the model shoots with after the rule."""
LeadershipChange = Callable[[Battle, Unit, int], int]
"""``(battle, unit, ld)``: the Leadership the unit tests on after the rule."""
CoverChange = Callable[[Battle, Model, Unit, Model, "int | None"], "int | None"]
"""``(battle, shooter, target unit, target model, save)``: the cover save the target
model has against the shooter after the rule (``None``: none)."""
ArmourChange = Callable[[Battle, Unit, Model, "int | None"], "int | None"]
"""``(battle, unit, model, save)``: the model's armour save after the rule (``None``:
none); also the type of an invulnerable save's handlers."""
SkillInMelee = Callable[[Battle, Unit, int], int]
"""``(battle, unit, ws)``: the Weapon Skill the unit's models fight with after the rule."""
RerollChange = Callable[[Battle, Unit, Unit, str], str]
"""``(battle, attacking unit, its foe, rule)``: the name of the rule that gives the
re-roll after this one (``rule``: the one so far; ``""``: no re-roll), which the log
names where the dice are re-rolled."""

BALLISTIC_SKILL: HookPoint[SkillChange] = waffle_point(
    "ballistic skill",
    "The BS a model shoots with (To Hit, and a blast marker's scatter), before Snap "
    "Shots replace it; each handler is given the BS so far and returns it.",
    takes=("battle", "model", "bs"),
)
LEADERSHIP: HookPoint[LeadershipChange] = waffle_point(
    "leadership",
    "The Leadership a unit tests on (Morale checks, Pinning tests, every Leadership "
    "test), before the test's own penalty; each handler is given it so far.",
    takes=("battle", "unit", "ld"),
)
COVER_SAVE: HookPoint[CoverChange] = waffle_point(
    "cover save",
    "The cover save a model has against a shooting model (after terrain and Going to "
    "Ground); each handler is given it so far (None: none) and returns it.",
    takes=("battle", "shooter", "unit", "model", "save"),
)
INVULNERABLE_SAVE: HookPoint[ArmourChange] = waffle_point(
    "invulnerable save",
    "A model's invulnerable save (shooting, close combat, a vehicle's hits, dangerous "
    "terrain); each handler is given it so far (None: none) and returns it.",
    takes=("battle", "unit", "model", "save"),
)
WEAPON_SKILL: HookPoint[SkillInMelee] = waffle_point(
    "weapon skill",
    "The WS a unit's models fight with and are hit against in close combat, after "
    "Fear; each handler is given it so far and returns it.",
    takes=("battle", "unit", "ws"),
)
ARMOUR_SAVE: HookPoint[ArmourChange] = waffle_point(
    "armour save",
    "A model's armour save against wounds (shooting and close combat); each handler is "
    "given it so far (None: none) and returns it.",
    takes=("battle", "unit", "model", "save"),
)

# --- re-rolls, as the rules and the AI's estimates and the exact odds all read them ---

HIT_ONES_REROLLED: HookPoint[RerollChange] = waffle_point(
    "hit ones rerolled",
    "Whether a unit re-rolls its To Hit rolls of 1 against a foe, shooting and in close "
    "combat (Preferred Enemy's): each handler is given the rule that re-rolls them so "
    'far ("": none) and returns it.',
    takes=("battle", "unit", "foe", "rule"),
)
WOUND_ONES_REROLLED: HookPoint[RerollChange] = waffle_point(
    "wound ones rerolled",
    "Whether a unit re-rolls its To Wound rolls of 1 against a foe, shooting and in close "
    "combat (Preferred Enemy's); each handler is given the rule so far and returns it.",
    takes=("battle", "unit", "foe", "rule"),
)
FAILED_WOUNDS_REROLLED: HookPoint[RerollChange] = waffle_point(
    "failed wounds rerolled",
    "Whether a unit re-rolls every failed To Wound roll against a foe, shooting and in "
    "close combat (Monster Hunter's at a Monstrous Creature); each handler is given the "
    "rule so far and returns it.",
    takes=("battle", "unit", "foe", "rule"),
)
