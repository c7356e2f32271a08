"""Events core11 adds to the engine's record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from hammerlab.engine.events import Event
from hammerlab.engine.records import quick_init


@dataclass(frozen=True)
class ShootingTypeSelected(Event):
    """10.02: a unit was selected to shoot with a shooting type."""

    kind: ClassVar[str] = "shooting-type"
    unit: str
    shooting_type: str

    @property
    def text(self) -> str:
        return f"{self.unit} shoots: {self.shooting_type} shooting"


@dataclass(frozen=True)
class TargetSelected(Event):
    """A weapon of a shooting unit was given a target."""

    kind: ClassVar[str] = "target"
    unit: str
    weapon: str
    target: str

    @property
    def text(self) -> str:
        return f"  {self.unit}: {self.weapon} → {self.target}"


@dataclass(frozen=True)
class AttacksResolved(Event):
    """One weapon's attacks at one target, counted step by step."""

    kind: ClassVar[str] = "shots"
    unit: str
    weapon: str
    target: str
    attacks: int
    hits: int
    critical_hits: int
    wounds: int
    critical_wounds: int
    unsaved: int
    """Wounds no save stopped: failed saves, and [DEVASTATING WOUNDS] critical wounds,
    whose mortal wounds follow (:class:`DevastatingWounds`)."""
    damage: int
    """Wounds the target lost to the attacks' normal damage."""
    models_destroyed: int

    @property
    def text(self) -> str:
        return (
            f"  {self.weapon} ({self.unit}) at {self.target}: {self.attacks} attacks, "
            f"{self.hits} hits ({self.critical_hits} critical), {self.wounds} wounds "
            f"({self.critical_wounds} critical), {self.unsaved} unsaved, "
            f"{self.damage} damage, {self.models_destroyed} destroyed"
        )


@dataclass(frozen=True)
class DevastatingWounds(Event):
    """[DEVASTATING WOUNDS]: the mortal wounds of one weapon's critical wounds at one
    target, inflicted after the normal damage of its attacks, each critical wound's on
    one model at most."""

    kind: ClassVar[str] = "devastating-wounds"
    unit: str
    weapon: str
    target: str
    critical_wounds: int
    mortal_wounds: int
    """Mortal wounds inflicted (the D of each critical wound; none once the target is
    destroyed)."""
    damage: int
    """Wounds the target lost to them (Feel No Pain and the one-model limit applied)."""
    models_destroyed: int

    @property
    def text(self) -> str:
        return (
            f"  {self.weapon} ({self.unit}) at {self.target}: {self.critical_wounds} "
            f"critical wounds (devastating wounds), {self.mortal_wounds} mortal wounds, "
            f"{self.damage} damage, {self.models_destroyed} destroyed"
        )


@dataclass(frozen=True)
class HitRollNeeds(Event):
    """What one group's hit rolls need where that is not a plain roll against the
    attack's BS or WS, with each rule that made it so, by name (``reasons``: cover,
    13.08; [HEAVY]; close-quarters shooting, 10.06; an engaged MONSTER/VEHICLE
    target, 17.03; Indirect shooting's unmodified 1-5 or 1-3, 10.07; Fire Overwatch;
    [PSYCHIC] ignoring them): logged just before the roll."""

    kind: ClassVar[str] = "hit-roll"
    unit: str
    weapon: str
    target: str
    characteristic: str
    """``BS`` (a ranged weapon) or ``WS`` (a melee weapon)."""
    skill: int
    """The weapon's BS or WS, before any rule."""
    need: int
    """The roll needed (the skill worsened by cover)."""
    modifier: int
    """The hit roll's modifiers, added up and capped at ±1."""
    fails_up_to: int
    """An unmodified roll up to this fails (1: only a 1)."""
    reasons: tuple[str, ...]

    @property
    def text(self) -> str:
        return (
            f"  {self.weapon} ({self.unit}) at {self.target}: hit rolls of {self.need}+, "
            f"modifier {self.modifier:+d}, for {self.characteristic} {self.skill}+: "
            f"{'; '.join(self.reasons)}"
        )


@dataclass(frozen=True)
class MoveTypeSelected(Event):
    """09.02: a unit was selected to move with a move type."""

    kind: ClassVar[str] = "move-type"
    unit: str
    move_type: str
    distance: float
    """Inches the unit's models moved."""

    @property
    def text(self) -> str:
        if self.move_type == "remain stationary":
            return f"{self.unit} remains stationary"
        return f'{self.unit}: {self.move_type} move, {self.distance:.1f}"'


@dataclass(frozen=True)
class CommandPointsGained(Event):
    """08.02: a player gained Command Points."""

    kind: ClassVar[str] = "command-points"
    player: str
    gained: int
    total: int

    @property
    def text(self) -> str:
        return f"{self.player} gains {self.gained} CP ({self.total} CP)"


@dataclass(frozen=True)
class BattleShockRolled(Event):
    """08.03: a battle-shock roll (2D6 against the best Ld of the unit)."""

    kind: ClassVar[str] = "battle-shock"
    unit: str
    roll: int
    leadership: int
    passed: bool

    @property
    def text(self) -> str:
        verdict = "passed" if self.passed else "failed: battle-shocked"
        return f"{self.unit}: battle-shock roll {self.roll}, Ld {self.leadership}+, {verdict}"


@dataclass(frozen=True)
class ChargeResolved(Event):
    """11.02: a declared charge, its roll, its targets and whether the unit made a
    charge move. A roll that reaches no enemy unit names the nearest one within 12"
    (``nearest``) and how far it is (``needed``: what the roll had to reach), as a
    referee would; a roll that reaches a target but from which the unit cannot end
    engaged with it alone (11.04) names the target."""

    kind: ClassVar[str] = "charge"
    unit: str
    roll: int
    targets: tuple[str, ...]
    succeeded: bool
    distance: float
    nearest: str | None = None
    needed: float | None = None

    @property
    def text(self) -> str:
        if not self.succeeded:
            head = f"{self.unit}: charge roll {self.roll}, no charge move"
            if self.nearest is not None and self.needed is not None:
                return f'{head}: {self.nearest} is {self.needed:.1f}" away'
            if self.targets:
                return f"{head}: it cannot end engaged with {', '.join(self.targets)} alone"
            return head
        return (
            f'{self.unit}: charge roll {self.roll}, charge move {self.distance:.1f}" '
            f"into {', '.join(self.targets)}"
        )


@dataclass(frozen=True)
class CloseMove(Event):
    """A pile-in (12.03) or consolidation (12.08) move."""

    kind: ClassVar[str] = "close-move"
    unit: str
    move: str
    distance: float

    @property
    def text(self) -> str:
        """The distance to a tenth of an inch, in hundredths where a tenth reads 0.0"
        (a move of a few hundredths that engages a model, ``fight.close_move_vector``)."""
        shown = f"{self.distance:.1f}" if self.distance >= 0.05 else f"{self.distance:.2f}"
        return f'{self.unit}: {self.move} move, {shown}"'


@dataclass(frozen=True)
class FightSelected(Event):
    """12.04: a unit was selected to fight with a fight type."""

    kind: ClassVar[str] = "fight-type"
    unit: str
    fight_type: str
    fights_first: bool

    @property
    def text(self) -> str:
        first = " (fights first)" if self.fights_first else ""
        return f"{self.unit} fights: {self.fight_type} fight{first}"


@dataclass(frozen=True)
class CommandPointsSpent(Event):
    """A player spent Command Points on a stratagem (Fire Overwatch, 1CP), ``unit`` the
    unit it targeted and ``against`` the enemy unit it was used against: with
    :class:`CommandPointsGained`, what a player's CP add up to (``total``: after)."""

    kind: ClassVar[str] = "command-points-spent"
    player: str
    spent: int
    stratagem: str
    unit: str
    against: str
    total: int

    @property
    def text(self) -> str:
        return (
            f"{self.player} spends {self.spent} CP on {self.stratagem}: {self.unit} "
            f"at {self.against} ({self.total} CP)"
        )


@quick_init
@dataclass(frozen=True)
class SaveRolled(Event):
    """05.04: one saving throw for the model a wound was allocated to, ``need`` the roll
    that saves (the Sv worsened by AP, or the invulnerable save where that is better:
    ``invulnerable``); an unmodified 1 always fails."""

    kind: ClassVar[str] = "save-roll"
    unit: str
    model: str
    need: int
    roll: int
    saved: bool
    invulnerable: bool

    @property
    def text(self) -> str:
        which = "invulnerable save" if self.invulnerable else "save"
        verdict = "saved" if self.saved else "failed"
        return f"  {self.model}: {which} {self.need}+, rolled {self.roll}, {verdict}"


@dataclass(frozen=True)
class NoSavePossible(Event):
    """A wound allocated to a model whose save no D6 can make: its Sv worsened by the
    attack's AP (``armour``) is worse than 6+ and it has no invulnerable save that
    counts against the weapon."""

    kind: ClassVar[str] = "no-save"
    unit: str
    model: str
    armour: int
    """The Sv worsened by AP: the roll an armour save would need (7 or more)."""

    @property
    def text(self) -> str:
        return f"  {self.model}: no save possible"


@dataclass(frozen=True)
class MortalWoundsSuffered(Event):
    """06.02: mortal wounds the model selected for them suffers (``cause``: the weapon of
    a [DEVASTATING WOUNDS] critical wound, or ``hazardous``), before Feel No Pain."""

    kind: ClassVar[str] = "mortal-wounds"
    unit: str
    model: str
    wounds: int
    cause: str

    @property
    def text(self) -> str:
        return f"  {self.model}: {self.wounds} mortal wound(s)"


@dataclass(frozen=True)
class WoundsIgnored(Event):
    """Feel No Pain X+: of the ``wounds`` a model would lose, each a roll of X+ ignores;
    ``ignored`` of them were."""

    kind: ClassVar[str] = "wounds-ignored"
    unit: str
    model: str
    need: int
    wounds: int
    ignored: int

    @property
    def text(self) -> str:
        if self.ignored == self.wounds:
            return f"  {self.model} loses no wounds (feel no pain {self.need}+)"
        return (
            f"  {self.model}: feel no pain {self.need}+ ignores {self.ignored} "
            f"of {self.wounds} wound(s)"
        )


@dataclass(frozen=True)
class AttacksLost(Event):
    """The target was destroyed with wounds of one weapon still to resolve: they are lost
    (``mortal``: [DEVASTATING WOUNDS] mortal wounds; else wounds still to be saved)."""

    kind: ClassVar[str] = "attacks-lost"
    unit: str
    weapon: str
    target: str
    lost: int
    mortal: bool

    @property
    def text(self) -> str:
        what = "mortal wounds" if self.mortal else "wounds"
        return f"  {self.target} is destroyed: remaining {what} lost"


Unresolved = Literal["target_gone", "none_in_range", "none_engaged"]
"""Why a weapon's attacks were not resolved (:class:`BatteryUnresolved`)."""


@dataclass(frozen=True)
class BatteryUnresolved(Event):
    """One weapon's attacks were not resolved and no dice were rolled for them, for
    ``reason``: ``target_gone``, its target was destroyed before them (by an earlier
    weapon, or an earlier group of the same weapon); ``none_in_range``, no model of it
    had its target in range and sight; ``none_engaged``, no model of it was within
    engagement range of its target (``target`` ``None``: of any enemy unit).
    ``melee``: a melee weapon in the Fight phase (else a ranged one)."""

    kind: ClassVar[str] = "battery-unresolved"
    unit: str
    weapon: str
    target: str | None
    reason: Unresolved
    melee: bool

    @property
    def text(self) -> str:
        if self.reason == "target_gone":
            return f"  {self.weapon}: {self.target} is gone"
        if self.reason == "none_in_range":
            return f"  {self.weapon}: no model in range and sight"
        return (
            f"  {self.weapon}: no model within engagement range of {self.target or 'an enemy unit'}"
        )
