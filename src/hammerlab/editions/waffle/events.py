"""Waffle Edition events, beyond the engine's generic ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from hammerlab.engine import events
from hammerlab.engine.events import Event
from hammerlab.engine.records import quick_init


@quick_init
@dataclass(frozen=True)
class ShotsFired(Event):
    """Models of a unit fired one weapon (seed 000, steps 3 and 4)."""

    kind: ClassVar[str] = "shots"
    unit: str
    weapon: str
    target: str
    models: int
    shots: int
    snap: bool
    needed: str
    hits: int

    @property
    def text(self) -> str:
        snap = " as snap shots" if self.snap else ""
        return (
            f"{self.unit} fires {self.shots} × {self.weapon}{snap} ({self.models} model(s)) "
            f"at {self.target}: {self.hits} hit(s) on {self.needed}"
        )


@dataclass(frozen=True)
class WeaponLeftUnfired(Event):
    """A weapon the unit could fire at the target earlier in its shooting attack
    can fire no more, its models having shots left: the casualties of the weapons
    fired before it removed every target model within its range that they see (seed
    000, step 3: "Every model that wishes to shoot must be within range of at least
    one visible model in the target unit"). ``weapon_range`` is its range, ``nearest``
    the gap from its models to the nearest target model, seen or not."""

    kind: ClassVar[str] = "unfired"
    unit: str
    weapon: str
    target: str
    weapon_range: float
    nearest: float

    @property
    def text(self) -> str:
        if self.nearest > self.weapon_range:
            why = f'no model of {self.target} is within {self.weapon_range:g}" any more'
            why += f' (the nearest is {self.nearest:.1f}" away)'
        else:
            why = f'no model of {self.target} within {self.weapon_range:g}" is in sight any more'
        return f"  {self.unit} cannot fire {self.weapon}: {why}"


@dataclass(frozen=True)
class WeaponNotFired(Event):
    """A weapon chosen to fire at the target does not fire at all, and why: no model of
    the unit may fire it there (``reason`` ``"no_model_can_fire"``, seed 000, step 3), it
    would fire Snap Shots and cannot (``"no_snap_shots"``: a Blast, a Template, Ordnance;
    seed 000), or a rule forbids it (``"vetoed"``: the weapon-would-fire point, e.g.
    Suppressive Fire's Snap Shots). ``detail`` is the reason in a person's words."""

    kind: ClassVar[str] = "not_fired"
    unit: str
    weapon: str
    target: str
    reason: str
    detail: str

    @property
    def text(self) -> str:
        return f"{self.unit}: {self.detail}"


@dataclass(frozen=True)
class BarrageMarkerUnplaced(Event):
    """A later blast marker of a barrage cannot be placed touching the first without
    covering a unit locked in combat (interpretation 20): it is not fired."""

    kind: ClassVar[str] = "barrage_marker_unplaced"
    unit: str
    weapon: str

    @property
    def text(self) -> str:
        return (
            f"{self.unit}: the next blast marker of {self.weapon}'s barrage cannot be placed "
            "touching the first without covering a unit locked in combat"
        )


@dataclass(frozen=True)
class ShootsIntoMelee(Event):
    """A unit shoots at an enemy unit locked in combat (seed 001, Proposed Rule): Snap
    Shots, and its rolls of 1-2 hit another unit of the combat."""

    kind: ClassVar[str] = "shoots_into_melee"
    unit: str
    target: str

    @property
    def text(self) -> str:
        return (
            f"{self.unit} shoots into the melee at {self.target}: Snap Shots; "
            "rolls of 1-2 hit another unit of the combat"
        )


@dataclass(frozen=True)
class RemainingWoundsLost(Event):
    """The wounds of a volley left over once no model of the target may take them are
    lost (seed 000, step 6): ``reason`` ``"none_in_sight"`` (its models alive are all out
    of every firer's sight) or ``"no_model_left"``."""

    kind: ClassVar[str] = "remaining_wounds_lost"
    unit: str
    reason: str

    @property
    def text(self) -> str:
        why = "none in sight" if self.reason == "none_in_sight" else "no model left to take them"
        return f"remaining wounds on {self.unit} are lost: {why}"


@dataclass(frozen=True)
class MarkerPlaced(Event):
    """A blast marker or template came to rest, hitting these units."""

    kind: ClassVar[str] = "marker"
    weapon: str
    shape: str
    centre: tuple[float, float]
    """Where it lies: a blast marker's centre; a template's middle, half its length out
    from its narrow end at the firer's base (``markers.template_middle``)."""
    scattered: float
    hits: dict[str, int]

    @property
    def text(self) -> str:
        x, y = self.centre
        moved = f', scattered {self.scattered:.1f}"' if self.scattered else ""
        hit = ", ".join(f"{u}: {n}" for u, n in self.hits.items()) or "nothing"
        at = "over" if self.shape == "template" else "at"
        return f"  {self.shape} of {self.weapon} {at} ({x:.1f},{y:.1f}){moved} hits {hit}"


@dataclass(frozen=True)
class PrecisionShotsRolled(Event):
    """Hits of one weapon's volley that are Precision Shots: 6s to hit of a model with
    Precision Shots (or a Sniper weapon). They roll To Wound apart from the others,
    and each of their wounds goes to a model of the firing player's choice."""

    kind: ClassVar[str] = "precision_shots"
    unit: str
    weapon: str
    hits: int

    @property
    def text(self) -> str:
        if self.hits == 1:
            return (
                "  1 of the hits is a Precision Shot (a 6 to hit): it rolls To Wound apart, "
                "and its wound goes to a model of the firing player's choice"
            )
        return (
            f"  {self.hits} of the hits are Precision Shots (6s to hit): they roll To Wound "
            "apart, and their wounds go to models of the firing player's choice"
        )


@quick_init
@dataclass(frozen=True)
class WoundsRolled(Event):
    """Hits on one unit rolled to wound (seed 000, step 5)."""

    kind: ClassVar[str] = "wounds"
    weapon: str
    target: str
    hits: int
    needed: str
    wounds: int

    @property
    def text(self) -> str:
        if not self.hits:  # nothing to roll (a Final Shot or Final Blow that missed)
            return f"  0 hit(s) on {self.target}: no To Wound roll"
        return (
            f"  {self.hits} hit(s) on {self.target} wound on {self.needed}: {self.wounds} wound(s)"
        )


@quick_init
@dataclass(frozen=True)
class SaveTaken(Event):
    """One saving throw against one wound (seed 000, step 6)."""

    kind: ClassVar[str] = "save"
    unit: str
    model: str
    save: str
    needed: int
    roll: int
    saved: bool

    @property
    def text(self) -> str:
        result = "saved" if self.saved else "failed"
        return f"  {self.model} takes its {self.save} save {self.needed}+: {self.roll}, {result}"


@quick_init
@dataclass(frozen=True)
class WaffleWoundsLost(events.WoundsLost):
    """A model lost wounds (the engine's event), and whether Instant Death took them:
    what :func:`allocation.instant_death` decided of the wound (6th/7th edition:
    Strength at least double the Toughness, or an Instant Death weapon, and no
    Eternal Warrior), even where the model had one Wound left to lose."""

    instant_death: bool = False

    @property
    def tag(self) -> str:
        return " (Instant Death)" if self.instant_death else ""


@quick_init
@dataclass(frozen=True)
class NoSave(Event):
    """A wound no save can stop (seed 000, step 6): its AP is as good as the model's
    armour or better and the model has no invulnerable or cover save, or it has no
    save at all. ``rend``: the rule under which the wound's AP came from a 6 to wound
    (Rending, Sniper, Bladestorm: AP2), not from the weapon's profile (``""``);
    without this line a player read a rending wound as a missed save."""

    kind: ClassVar[str] = "no_save"
    unit: str
    model: str
    ap: int | None
    armour: int | None
    rend: str

    @property
    def text(self) -> str:
        ap = "-" if self.ap is None else str(self.ap)
        why = f"AP{ap}" + (f" ({self.rend}: a 6 to wound is AP2)" if self.rend else "")
        against = "no armour save" if self.armour is None else f"armour {self.armour}+"
        return f"  {self.model} has no save: {why} against {against}"


@dataclass(frozen=True)
class LeadershipTest(Event):
    """A Morale check or Pinning test."""

    kind: ClassVar[str] = "morale"
    unit: str
    test: str
    leadership: int
    modifier: int
    roll: int
    passed: bool
    reason: str

    @property
    def text(self) -> str:
        mod = f" {self.modifier:+d}" if self.modifier else ""
        outcome = "passed" if self.passed else "FAILED"
        return (
            f"{self.unit} takes a {self.test} ({self.reason}): Ld {self.leadership}{mod}, "
            f"rolled {self.roll}, {outcome}"
        )


@dataclass(frozen=True)
class ReactionDeclared(Event):
    """A unit reacted (Return Fire!, Dive for Cover, Overwatch, Fall Back)."""

    kind: ClassVar[str] = "reaction"
    unit: str
    reaction: str
    against: str

    @property
    def text(self) -> str:
        return f"{self.unit} reacts to {self.against}: {self.reaction}"


@dataclass(frozen=True)
class GoToGroundRefused(Event):
    """A unit that would Go to Ground by a reaction does not (``reason``: a Fearless
    unit cannot Go to Ground)."""

    kind: ClassVar[str] = "go_to_ground_refused"
    unit: str
    reaction: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.unit} does not go to ground ({self.reaction}): {self.reason}"


@dataclass(frozen=True)
class ChargeDeclared(Event):
    """A unit declared a charge (seed 004, Declare Charge)."""

    kind: ClassVar[str] = "charge"
    unit: str
    target: str

    @property
    def text(self) -> str:
        return f"{self.unit} declares a charge against {self.target}"


@dataclass(frozen=True)
class ChargeBarred(Event):
    """A unit of the player whose Assault phase it is may not declare a charge, and why
    (:func:`charge.charge_ban`: seed 004, the 6th/7th-edition bans, a vehicle's damage),
    said as the charge sub-phase begins."""

    kind: ClassVar[str] = "charge_barred"
    unit: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.unit} may not charge: {self.reason}"


@dataclass(frozen=True)
class ChargeReactionBarred(Event):
    """A charged unit may make no reaction to the charge (seed 004: "units that are
    locked in close combat cannot react to a charge … a unit being charged may only
    react to a charge once per turn"); ``reason`` says which ("is locked in combat",
    "has reacted this turn")."""

    kind: ClassVar[str] = "charge_reaction_barred"
    unit: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.unit} {self.reason}: it cannot react to the charge"


@dataclass(frozen=True)
class ChargeRolled(Event):
    """The charge range was rolled and compared with the distance (seed 004, Roll Charge Range)."""

    kind: ClassVar[str] = "charge_roll"
    unit: str
    target: str
    dice: tuple[int, ...]
    dropped: int | None
    """The highest die, discarded when charging through difficult terrain."""
    charge_range: int
    distance: float
    """Closest charging model to closest target model, base to base, in inches."""
    success: bool

    @property
    def text(self) -> str:
        shown = " ".join(str(d) for d in self.dice)
        dropped = f", {self.dropped} discarded" if self.dropped is not None else ""
        outcome = "the charge succeeds" if self.success else "the charge fails"
        return (
            f'  {self.unit} rolls {shown}{dropped}: charge range {self.charge_range}" '
            f'against {self.distance:.2f}" to {self.target}: {outcome}'
        )


@dataclass(frozen=True)
class ChargeBlocked(Event):
    """A charge range that reached the distance, but no charging model can end its
    charge move in base contact with the target (:func:`charge.way_in`): every spot
    touching the target within the range is taken, off the table or within 1" of
    another enemy unit. The charge fails and no model moves."""

    kind: ClassVar[str] = "charge_blocked"
    unit: str
    target: str
    charge_range: int

    @property
    def text(self) -> str:
        return (
            f"  no model of {self.unit} can reach base contact with {self.target} within "
            f'{self.charge_range}": every way in is taken or within 1" of another enemy unit'
        )


@dataclass(frozen=True)
class StrayShots(Event):
    """Shots into a melee rolled 1 or 2 (seed 001, Shooting Into Close Combat).

    "any rolls of 1 or 2, even if they would normally be hits, hit one of your
    engaged units instead!" ``victim`` is empty when no unit of the combat may
    take them: they miss.
    """

    kind: ClassVar[str] = "stray_shots"
    unit: str
    weapon: str
    target: str
    strays: int
    victim: str

    @property
    def text(self) -> str:
        where = f"hit {self.victim}" if self.victim else "hit no other unit of the combat: missed"
        return (
            f"  {self.strays} roll(s) of 1-2 of {self.unit}'s {self.weapon} "
            f"into the melee around {self.target} {where}"
        )


@dataclass(frozen=True)
class BlowsStruck(Event):
    """Models of a unit struck with one weapon at one Initiative step (seed 001, Rolling to Hit).

    ``needed`` is the chart's cell (``"A"``: automatic hits, no dice; ``"auto"``: the
    one automatic hit of a rule, :meth:`one_automatic_hit`).
    """

    kind: ClassVar[str] = "blows"
    unit: str
    weapon: str
    target: str
    initiative: int
    models: int
    attacks: int
    needed: str
    hits: int

    @classmethod
    def one_automatic_hit(cls, unit: str, rule: str, target: str, step: int) -> BlowsStruck:
        """The single automatic hit a rule strikes (Hammer of Wrath, Icy Aura)."""
        return cls(unit, rule, target, step, models=1, attacks=1, needed="auto", hits=1)

    @property
    def text(self) -> str:
        how = "automatically" if self.needed in AUTOMATIC else f"on {self.needed}"
        return (
            f"I{self.initiative}: {self.unit} strikes {self.attacks} blow(s) with {self.weapon} "
            f"({self.models} model(s)) at {self.target}: {self.hits} hit(s) {how}"
        )


@dataclass(frozen=True)
class CombatBegun(Event):
    """A combat's fight begins (seed 001, the Fight sub-phase): ``units``, every unit
    in it, said before its Fear tests and blows (:func:`fight.fight_sub_phase`)."""

    kind: ClassVar[str] = "combat_begun"
    units: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"combat: {', '.join(self.units)}"


@dataclass(frozen=True)
class BlowsLost(Event):
    """A group's blows lost: the blows ``unit`` would strike with ``weapon`` at ``target``,
    which other blows of the same Initiative step already wiped out (no model is left to
    take them; :func:`fight.strike`). No die is rolled."""

    kind: ClassVar[str] = "blows_lost"
    unit: str
    weapon: str
    target: str

    @property
    def text(self) -> str:
        return f"{self.unit}: {self.target} is wiped out; {self.weapon} blows lost"


@dataclass(frozen=True)
class InitiativeStep(Event):
    """The fight comes to an Initiative step (6th/7th edition, as remembered: models
    strike in Initiative order, the highest first; :func:`fight.fight`): said once,
    before the step's first Pile In move or blow (a step with neither has none); each
    group's blows carry their step too (:attr:`BlowsStruck.initiative`)."""

    kind: ClassVar[str] = "initiative_step"
    step: int

    @property
    def text(self) -> str:
        return f"Initiative step {self.step}"


@dataclass(frozen=True)
class FinalAttacks(Event):
    """(Proposed Rule) Final Shot or Final Blow: ``model`` of ``unit`` makes ``attacks``
    extra attacks (``rule``: ``final_shot``, ``final_blow``), one link of the chain
    (:func:`final_attacks.final_chain`): what a variant's extra attacks are counted by."""

    kind: ClassVar[str] = "final_attacks"
    rule: str
    unit: str
    model: str
    attacks: int

    @property
    def text(self) -> str:
        return f"{self.model} makes {self.attacks} {final_attack_name(self.rule)}(s)"


def final_attack_name(rule: str) -> str:
    """The name of a Final Shot or Final Blow as people read it (``final_shot`` →
    ``Final Shot``)."""
    return rule.replace("_", " ").title()


AUTOMATIC = ("A", "auto")
"""How :class:`BlowsStruck` records automatic hits: the chart's ``A`` (blows on a
vehicle that did not move), or ``auto`` (the one hit a rule strikes); both read
"automatically" in the log."""


@dataclass(frozen=True)
class CombatResolved(Event):
    """A combat's result (seed 001, Determine Assault Results).

    ``scores``: unsaved wounds (and Fiery Charge casualties) per player;
    ``winner`` is empty on a draw; ``difference`` is the winner's score less the
    best of the others' (0 where the winner scored no more, having won because no
    unit of the other side is left).
    """

    kind: ClassVar[str] = "combat_result"
    units: tuple[str, ...]
    scores: dict[str, int]
    winner: str
    difference: int

    @property
    def text(self) -> str:
        score = ", ".join(f"{p} {n}" for p, n in self.scores.items())
        if not self.winner:
            outcome = "a draw"
        elif self.difference > 0:
            outcome = f"{self.winner} wins by {self.difference}"
        else:  # by a score no higher: the other side has no unit left in the combat
            outcome = f"{self.winner} wins: the other side has no unit left"
        return f"Combat of {', '.join(self.units)}: {score}: {outcome}"


@dataclass(frozen=True)
class SweepingAdvance(Event):
    """A winning unit's Sweeping Advance against one falling-back unit (seed 001)."""

    kind: ClassVar[str] = "sweeping_advance"
    unit: str
    fleeing: str
    total: int
    fleeing_total: int
    caught: bool

    @property
    def text(self) -> str:
        outcome = "caught" if self.caught else "breaks off"
        return (
            f"{self.unit} sweeps at {self.fleeing}: {self.total} against "
            f"{self.fleeing_total}: {self.fleeing} {outcome}"
        )


@dataclass(frozen=True)
class CombatOver(Event):
    """Only units of ``winner`` are left in a combat (seed 001, Determine Assault
    Results): the combat is over, the other side having no unit left, and no Morale
    check is taken; said before its :class:`CombatResolved`."""

    kind: ClassVar[str] = "combat_over"
    winner: str

    @property
    def text(self) -> str:
        return f"only units of {self.winner} are left: the combat is over"


@dataclass(frozen=True)
class SweepBarred(Event):
    """A winning unit free to make a Sweeping Advance may not, by ``rule``
    (:func:`special_rules.sweep_bar`: Terminator Armour, Immobile)."""

    kind: ClassVar[str] = "sweep_barred"
    unit: str
    rule: str

    @property
    def text(self) -> str:
        return f"{self.unit} may not make a Sweeping Advance ({self.rule})"


@dataclass(frozen=True)
class MoraleAutoPassed(Event):
    """A unit passes a Morale check without a roll by ``rule`` (Fearless and the like:
    :func:`morale.passes_automatically`); ``reason``: what the check was for."""

    kind: ClassVar[str] = "morale_auto_passed"
    unit: str
    rule: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.unit} is {self.rule}: Morale check passed ({self.reason})"


@dataclass(frozen=True)
class BrokenAgain(Event):
    """A unit already falling back loses a combat (it was caught by a charge): it
    breaks again without a test (:func:`morale.morale_check`); ``reason``: the check's."""

    kind: ClassVar[str] = "broken_again"
    unit: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.unit} was already falling back: it breaks ({self.reason})"


@dataclass(frozen=True)
class Trapped(Event):
    """Trapped!: a falling-back unit cannot make its Fall Back move (``why``) and is
    destroyed (:func:`movement.fall_back`); its casualties follow."""

    kind: ClassVar[str] = "trapped"
    unit: str
    why: str

    @property
    def text(self) -> str:
        return f"{self.unit} is trapped: {self.why}"
