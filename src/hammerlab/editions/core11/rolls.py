"""The attack sequence's rules for one attack, as pure functions of the dice.

Making Attacks (04) is referred to by the seed but not quoted there; hammerlab
implements the current edition's sequence the way players know it:

- **Hit roll** against BS: an unmodified 1 fails, an unmodified 6 is a
  *critical hit* and always hits; otherwise the modified roll must reach BS.
  [TORRENT] hits without a roll.
- **Wound roll** by Strength against Toughness: S ≥ 2T 2+, S > T 3+, S = T 4+,
  S < T 5+, S ≤ T/2 6+. An unmodified 1 fails, an unmodified 6 (or the
  ANTI-K Y+ threshold against a K unit) is a *critical wound* and wounds.
- **Modifiers** to a hit or wound roll are added up and capped at ±1 (02.02.01:
  "Hit rolls and wound rolls can never be modified by more than -1 or +1").
- **Benefit of cover** (13.08): "Each time a ranged attack targets a unit that
  has the benefit of cover against it, worsen the BS characteristic of that
  attack by 1." A characteristic, not a hit modifier: it is outside the ±1
  cap, and "BS cannot be 1+ (or better) or 7+ (or worse)" (02.02.01).
- **[PSYCHIC]**: "you can ignore any or all modifiers to that attack's BS or WS
  characteristic and any or all modifiers to the hit roll": the attacker
  ignores exactly the ones that hurt it.
- **Saving throw**: the model's Sv worsened by AP, or its invulnerable save
  (which AP does not change), whichever is better; an unmodified 1 fails.
- **Damage**: each unsaved attack inflicts D (plus MELTA X within half range)
  on one model; damage beyond the model's wounds is lost; **Feel No Pain N+**
  ignores each point of damage on a D6 of N+.

:class:`AttackProfile` is everything the dice decide about one attack. The
battle procedures (``attacks.py``) and the exact odds (``odds.py``) both read
the dice through it, so the two can never disagree about a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from hammerlab.editions.core11.dice_expr import DiceExpr
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.weapons import WeaponProfile
from hammerlab.engine.dice import Dice
from hammerlab.engine.records import kept_hash

UNREACHABLE = 7
"""A "need" no D6 can reach (no save possible)."""
BLAST_MODELS = 5
"""[BLAST]: "add one additional attack dice for every five models that were in the
target unit in the Select Targets step (rounding down)" (X with [BLAST X])."""
WORST_SKILL = 6
"""02.02.01: "BS cannot be 1+ (or better) or 7+ (or worse)" after all modifiers."""
OVERWATCH_FAILS_UP_TO = 5
"""Fire Overwatch: only an unmodified 6 hits (see :attr:`Situation.overwatch`)."""


class Roll(Enum):
    """How a hit or wound roll reads."""

    FAIL = "fail"
    SUCCESS = "success"
    CRITICAL = "critical"


@kept_hash
@dataclass(frozen=True)
class Situation:
    """Facts of the moment that change an attack (measured by the battle, or given).
    Its hash is kept (:func:`~hammerlab.engine.records.kept_hash`): a situation keys
    the attack profiles and kill odds remembered for every attack and estimate."""

    half_range: bool = False
    """The target is within half the weapon's range of the attacking model."""
    cover: bool = False
    """The target has the benefit of cover against the attack (13.08)."""
    cover_improves_save: bool = False
    """Cover works as the 10th edition's did (the ruleset parameter ``cover_effect``):
    +1 to the armour save, not a worse BS."""
    stationary: bool = False
    """The attacking unit remained stationary this turn (10.07)."""
    heavy_steady: bool = False
    """[HEAVY]'s conditions hold: "That unit is unengaged. That unit was not set up on
    the battlefield this turn. No model in that unit has moved more than 3\" this turn."
    (and it is the attacker's own Shooting phase)."""
    charged: bool = False
    """The attacking unit made a charge move this turn ([LANCE])."""
    indirect: bool = False
    """An [INDIRECT FIRE] weapon attacking in Indirect shooting (10.07)."""
    spotted: bool = False
    """The target is visible to one or more units of the attacker's army (read for an
    [INDIRECT FIRE] attack only: 10.07's 1-3 fail)."""
    close_quarters_penalty: bool = False
    """A MONSTER/VEHICLE model's −1 in Close-quarters shooting (10.06)."""
    engaged_target_penalty: bool = False
    """17.03's −1 for a ranged attack at an engaged MONSTER/VEHICLE unit."""
    target_models: int = 1
    """Models in the target unit in the Select Targets step (for [BLAST])."""
    overwatch: bool = False
    """Fire Overwatch (10th edition stratagem): "each time a model in your unit makes a
    ranged attack, an unmodified Hit roll of 6 is required to score a hit, irrespective
    of the attacking weapon's Ballistic Skill or any modifiers"."""


def cap(total: int) -> int:
    """Modifiers to a hit or wound roll, added up, are capped at ±1."""
    return max(-1, min(1, total))


def wound_need(strength: int, toughness: int) -> int:
    """The wound roll needed: S ≥ 2T 2+, S > T 3+, S = T 4+, S ≤ T/2 6+, else 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def armour_ap(ap: int, save: int, cover_improves_save: bool) -> int:
    """The AP an armour save of ``save``+ reads: the weapon's, plus 1 where the
    target's cover improves its save (10th edition, Benefit of Cover: "add 1 to the
    armour saving throw … (this does not apply to models with a Save characteristic
    of 3+ or better against attacks with an Armour Penetration characteristic of
    0)"). Asked for the unit's defence by :func:`attack_profile` and for the model
    a wound is allocated to when its save is rolled."""
    if cover_improves_save and not (ap == 0 and save <= 3):
        return ap + 1
    return ap


def save_need(save: int, ap: int, invulnerable: int | None) -> int:
    """The save roll needed: Sv worsened by AP, or the invulnerable save if better."""
    armour = save - ap
    best = min(armour, invulnerable) if invulnerable is not None else armour
    return min(best, UNREACHABLE)


def invulnerable_against(target: DefenceStats, weapon: WeaponProfile) -> int | None:
    """The invulnerable save a model like ``target`` has against ``weapon``: one limited
    to ranged attacks (``Inv (ranged)``) does not count against a melee weapon."""
    return target.invulnerable if weapon.melee else target.best_ranged_invulnerable


def save_succeeds(roll: int, need: int) -> bool:
    """Whether a save roll saves: it reaches ``need`` and is not an unmodified 1."""
    return roll != 1 and roll >= need


@dataclass(frozen=True)
class AttackProfile:
    """Everything the dice decide about one attack of one weapon at one target."""

    attacks: DiceExpr
    """The weapon's A for one model."""
    extra_attacks: DiceExpr
    """[RAPID FIRE X] within half range, rolled separately for each model."""
    blast: DiceExpr
    """[BLAST] (X = 1) or [BLAST X]: the X added for each five target models."""
    blast_blocks: int
    """Whole fives of models in the target unit when targets were selected."""
    auto_hit: bool
    """[TORRENT]: no hit roll."""
    hit_need: int
    hit_modifier: int
    """Already capped at ±1."""
    hit_fails_up_to: int
    """An unmodified hit roll up to this fails (1; 10.07: 5, or 3)."""
    sustained: DiceExpr | None
    """[SUSTAINED HITS X]: X more hits per critical hit."""
    lethal: bool
    """[LETHAL HITS]: the attacker *can* choose that a critical hit wounds automatically
    (see :meth:`lethal_pays`)."""
    wound_need: int
    wound_modifier: int
    """Already capped at ±1."""
    critical_wound_from: int
    """6, or Y of an active [ANTI-K Y+]."""
    twin_linked: bool
    """[TWIN-LINKED]: "you can re-roll the wound roll" (see :meth:`rerolls_wound`)."""
    save_need: int
    """The D6 result that saves; 7 when no save is possible (for a model with the
    target's defence; another model of the unit reads :func:`armour_ap`)."""
    cover_improves_save: bool
    """The target's cover adds 1 to its armour saves (``cover_effect = improve_save``)."""
    devastating: bool
    """[DEVASTATING WOUNDS]: a critical wound ends its attack sequence (no saving throw)
    in mortal wounds equal to D, inflicted after the normal damage, on one model at most
    (``attacks._devastating_wounds``): worth an unsaved wound of damage D here."""
    damage: DiceExpr
    melta: DiceExpr
    """[MELTA X] within half range (0 otherwise)."""
    feel_no_pain: int | None

    def roll_damage(self, dice: Dice, what: str) -> int:
        """D rolled for one attack (``what`` names the roll: its damage, or the mortal
        wounds of [DEVASTATING WOUNDS]), with [MELTA X] added within half range."""
        return self.damage.roll(dice, what) + self.melta.roll(dice, "melta")

    def hit(self, roll: int) -> Roll:
        """How an (unmodified) hit roll reads."""
        if roll <= self.hit_fails_up_to:
            return Roll.FAIL
        if roll == 6:
            return Roll.CRITICAL
        return Roll.SUCCESS if roll + self.hit_modifier >= self.hit_need else Roll.FAIL

    def wound(self, roll: int) -> Roll:
        """How an (unmodified) wound roll reads."""
        if roll == 1:
            return Roll.FAIL
        if roll >= self.critical_wound_from:
            return Roll.CRITICAL
        return Roll.SUCCESS if roll + self.wound_modifier >= self.wound_need else Roll.FAIL

    @property
    def unsaved(self) -> float:
        """The chance that a wound which may be saved is not saved."""
        if self.save_need >= UNREACHABLE:
            return 1.0
        return 1.0 - sum(save_succeeds(f, self.save_need) for f in range(1, 7)) / 6

    def worth(self, read: Roll) -> float:
        """The chance that a wound roll read so ends as an unsaved wound."""
        if read == Roll.FAIL:
            return 0.0
        return 1.0 if read == Roll.CRITICAL and self.devastating else self.unsaved

    @property
    def rolled_worth(self) -> float:
        """The chance that one wound roll (with [TWIN-LINKED]'s best re-roll) ends unsaved."""
        first = [self.worth(self.wound(f)) for f in range(1, 7)]
        if not self.twin_linked:
            return sum(first) / 6
        again = sum(first) / 6
        return sum(max(w, again) for w in first) / 6

    def rerolls_wound(self, read: Roll) -> bool:
        """[TWIN-LINKED]: "you can re-roll the wound roll". The attacker re-rolls
        exactly when a fresh roll is worth more than the one it has (a failure
        always; a plain success when [DEVASTATING WOUNDS] makes a critical wound
        worth the gamble)."""
        if not self.twin_linked:
            return False
        fresh = sum(self.worth(self.wound(f)) for f in range(1, 7)) / 6
        return fresh > self.worth(read)

    @property
    def lethal_pays(self) -> bool:
        """[LETHAL HITS]: "you can choose for that attack to automatically wound the
        target" — the attacker does when an automatic (never critical) wound is
        worth at least a wound roll: always, unless [DEVASTATING WOUNDS] makes a
        rolled critical wound worth more."""
        return self.lethal and self.unsaved >= self.rolled_worth


@dataclass(frozen=True)
class HitTerms:
    """What a hit roll needs, and why it is not simply the attack's BS or WS
    (:func:`hit_terms`)."""

    skill: int
    """The weapon's BS or WS (7: none)."""
    need: int
    """The roll needed: the skill, worsened by cover (13.08), never past 6+ (02.02.01)."""
    modifier: int
    """The hit roll's modifiers, added up and capped at ±1 (02.02.01)."""
    fails_up_to: int
    """An unmodified roll up to this fails (1; 10.07: 5, or 3; Fire Overwatch: 5)."""
    reasons: tuple[str, ...]
    """Each rule that made ``need``, ``modifier`` or ``fails_up_to`` differ from a plain
    roll against the skill, by name (none: a plain roll)."""


@lru_cache(maxsize=4096)
def hit_terms(weapon: WeaponProfile, target: DefenceStats, situation: Situation) -> HitTerms:
    """The hit roll of ``weapon`` at a model like ``target`` in ``situation``, with the
    rules that shape it named: what :func:`attack_profile` rolls against, and what the
    log says of it (``attacks.py``), from one reading of the rules.

    13.08: "worsen the BS characteristic of that attack by 1" (a characteristic, not a
    modifier; 10.07: an [INDIRECT FIRE] attack's target "has the benefit of cover");
    [HEAVY]: "add 1 to the hit roll"; 10.06: "subtract 1 from the hit roll"; 17.03's −1
    at an engaged MONSTER/VEHICLE unit; [PSYCHIC] ignores what hurts it."""
    kinds = target.keywords

    def active(name: str) -> bool:
        return weapon.against(name, kinds) is not None

    covered = (situation.cover or situation.indirect) and not active("IGNORES COVER")
    named = [
        ("[HEAVY]", int(active("HEAVY") and situation.heavy_steady)),
        ("close-quarters shooting (10.06)", -int(situation.close_quarters_penalty)),
        ("an engaged MONSTER/VEHICLE target (17.03)", -int(situation.engaged_target_penalty)),
    ]
    worsened = int(covered and not situation.cover_improves_save)
    reasons: list[str] = []
    if active("PSYCHIC"):
        ignored = [name for name, m in named if m < 0] + ["cover"] * worsened
        if ignored:
            reasons.append(f"[PSYCHIC] ignores {', '.join(ignored)}")
        named = [(name, m) for name, m in named if m > 0]
        worsened = 0
    skill = weapon.skill if weapon.skill is not None else UNREACHABLE
    need = min(skill + worsened, max(skill, WORST_SKILL))
    if need > skill:
        why = "10.07: its target has the benefit of cover" if situation.indirect else "13.08"
        reasons.insert(0, f"cover worsens {'WS' if weapon.melee else 'BS'} by 1 ({why})")
    modifier = cap(sum(m for _, m in named))
    reasons += [f"{m:+d} {name}" for name, m in named if m]
    if modifier != sum(m for _, m in named):
        reasons.append(f"capped at {modifier:+d} (02.02.01)")
    fails_up_to = 1
    if situation.overwatch:
        fails_up_to = OVERWATCH_FAILS_UP_TO
        reasons.append("only an unmodified 6 hits (Fire Overwatch)")
    elif situation.indirect:
        # Seed 003, 10.07 Indirect Shooting: "An unmodified hit roll of 1-5 fails, unless
        # your unit remained stationary this turn and the target is visible to one or
        # more friendly units, in which case an unmodified hit roll of 1-3 fails instead."
        fails_up_to = 3 if situation.stationary and situation.spotted else 5
        why = (
            "stationary, the target visible to a friendly unit"
            if fails_up_to == 3
            else "the unit moved"
            if not situation.stationary
            else "no friendly unit sees the target"
        )
        reasons.append(f"an unmodified 1-{fails_up_to} fails (10.07: {why})")
    return HitTerms(skill, need, modifier, fails_up_to, tuple(reasons))


@lru_cache(maxsize=4096)
def attack_profile(
    weapon: WeaponProfile,
    target: DefenceStats,
    situation: Situation,
    feel_no_pain: int | None = None,
) -> AttackProfile:
    """The attack ``weapon`` makes at a model like ``target`` in ``situation`` (cached:
    a pure function of immutable values, asked for every model that attacks)."""
    kinds = target.keywords

    def active(name: str) -> bool:
        return weapon.against(name, kinds) is not None

    def value(name: str) -> DiceExpr | None:
        rule = weapon.against(name, kinds)
        return rule.value if rule is not None else None

    covered = (situation.cover or situation.indirect) and not active("IGNORES COVER")
    save_improved = covered and situation.cover_improves_save
    ap = armour_ap(weapon.ap, target.save, save_improved)
    hit = hit_terms(weapon, target, situation)
    critical_wound = 6
    for rule in weapon.keywords:
        if rule.name == "ANTI" and rule.matches(kinds) and rule.active_against(kinds):
            critical_wound = min(critical_wound, rule.threshold or 6)
    lance = active("LANCE") and situation.charged
    rapid = value("RAPID FIRE") if situation.half_range else None
    melta = value("MELTA") if situation.half_range else None
    blast = weapon.against("BLAST", kinds)
    return AttackProfile(
        attacks=weapon.attacks,
        extra_attacks=rapid or DiceExpr(),
        blast=blast.value if blast is not None and blast.value is not None else DiceExpr(),
        blast_blocks=situation.target_models // BLAST_MODELS if blast is not None else 0,
        auto_hit=active("TORRENT"),
        hit_need=hit.need,
        hit_modifier=hit.modifier,
        hit_fails_up_to=hit.fails_up_to,
        sustained=value("SUSTAINED HITS"),
        lethal=active("LETHAL HITS"),
        wound_need=wound_need(weapon.strength, target.toughness),
        wound_modifier=cap(int(lance)),
        critical_wound_from=critical_wound,
        twin_linked=active("TWIN-LINKED"),
        save_need=save_need(target.save, ap, invulnerable_against(target, weapon)),
        cover_improves_save=save_improved,
        devastating=active("DEVASTATING WOUNDS"),
        damage=weapon.damage,
        melta=melta or DiceExpr(),
        feel_no_pain=feel_no_pain,
    )
