"""Exact odds of one weapon profile against one unit (no sampling).

The dice of one attack are read through the same
:class:`~hammerlab.editions.core11.rolls.AttackProfile` the battle uses, so the
odds follow the battle's rules exactly. The computation:

1. **One attack** → the distribution of the unsaved wounds it causes: every face
   of the hit roll, then of the wound roll (with [TWIN-LINKED]'s re-roll where
   the attacker takes it: :meth:`AttackProfile.rerolls_wound`), then of the
   save; critical hits add [SUSTAINED HITS X] hits, or wound automatically
   with [LETHAL HITS] when the attacker so chooses; a [DEVASTATING WOUNDS]
   critical wound counts as an unsaved wound (its D mortal wounds, step 3).
2. **All attacks**: the number of attacks (A per model, [RAPID FIRE X],
   [BLAST] X per five target models, each possibly dice) is a distribution;
   the unsaved wounds of N independent attacks are the N-fold convolution of
   step 1.
3. **Damage**, one unsaved wound at a time, by dynamic programming over the
   state (models destroyed, wounds left on the model being damaged;
   :func:`hammerlab.editions.distributions.casualty_odds`, which the Waffle
   Edition's odds share), giving the models destroyed and the wounds the unit
   loses: D plus
   [MELTA X], each point ignored on a Feel No Pain roll, excess lost. Wounds
   go to the damaged model first, as the rules allocate them. A [DEVASTATING
   WOUNDS] critical wound's mortal wounds come after the normal damage in a
   battle, D of them on one model at most (06.02 also gives them to the damaged
   model first): against the one kind of model the odds assume, each is one more
   draw of the same damage, in a sequence of independent draws whose order does
   not change the distributions (the brute-force test plays the literal order).

Results are floating point: exact up to rounding, not estimates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import numpy as np

from hammerlab.editions.core11.dice_expr import DiceExpr
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import (
    AttackProfile,
    Roll,
    Situation,
    attack_profile,
)
from hammerlab.editions.core11.weapons import WeaponProfile
from hammerlab.editions.distributions import (
    FACES,
    Vector,
    add,
    binomial,
    casualty_odds,
    compound,
    mean,
    times,
    vector,
)


@dataclass(frozen=True)
class KillOdds:
    """The distributions of one weapon profile's attacks at one unit."""

    models_killed: tuple[float, ...]
    """Probability of each number of models destroyed (index = models)."""
    unsaved_wounds: tuple[float, ...]
    """Probability of each number of unsaved wounds (index = wounds)."""
    mean_attacks: float
    mean_hits: float
    mean_wounds: float
    mean_damage: float
    """Expected damage after Feel No Pain, before excess damage is lost."""
    wounds_lost: tuple[float, ...] = ()
    """Probability of each number of wounds the target unit loses (index = wounds):
    damage after Feel No Pain, what goes beyond a model's wounds lost."""
    choices: tuple[str, ...] = ()
    """The attacker's choices these odds assume, in words."""

    @property
    def mean_models_killed(self) -> float:
        """Expected models destroyed."""
        return float(sum(i * p for i, p in enumerate(self.models_killed)))

    @cached_property
    def mean_wounds_lost(self) -> float:
        """Expected wounds the target unit loses (excess damage lost): what the
        attacks are expected to take off it, in wounds (models destroyed, for
        models of one wound). Worked out once: the AI reads it of every
        remembered :func:`kill_odds` it weighs."""
        return float(sum(i * p for i, p in enumerate(self.wounds_lost)))

    @property
    def mean_unsaved(self) -> float:
        """Expected unsaved wounds."""
        return float(sum(i * p for i, p in enumerate(self.unsaved_wounds)))


def _dice(expr: DiceExpr) -> Vector:
    return vector(expr.distribution())


@dataclass(frozen=True)
class _Steps:
    """Per-roll probabilities of one attack."""

    miss: float
    hit: float
    critical_hit: float
    wound: float
    critical_wound: float
    unsaved: float
    """Of a wound that may be saved."""


def _steps(attack: AttackProfile) -> _Steps:
    if attack.auto_hit:
        miss, hit, crit = 0.0, 1.0, 0.0
    else:
        reads = [attack.hit(f) for f in FACES]
        miss, hit, crit = (reads.count(r) / 6 for r in (Roll.FAIL, Roll.SUCCESS, Roll.CRITICAL))
    fresh = [attack.wound(f) for f in FACES]
    final = {r: 0.0 for r in Roll}
    for read in fresh:
        if attack.rerolls_wound(read):
            for again in fresh:
                final[again] += 1 / 36
        else:
            final[read] += 1 / 6
    return _Steps(miss, hit, crit, final[Roll.SUCCESS], final[Roll.CRITICAL], attack.unsaved)


def _per_attack(attack: AttackProfile, steps: _Steps, automatic: bool) -> Vector:
    """Distribution of the unsaved wounds one attack causes (``automatic``: [LETHAL
    HITS] critical hits wound automatically)."""
    crit_unsaved = 1.0 if attack.devastating else steps.unsaved
    per_hit = steps.wound * steps.unsaved + steps.critical_wound * crit_unsaved
    on_hit = binomial(1, per_hit)
    on_crit = binomial(1, steps.unsaved if automatic else per_hit)
    if attack.sustained is not None:
        on_crit = np.convolve(on_crit, compound(_dice(attack.sustained), on_hit))
    return add(add(vector([steps.miss]), steps.hit * on_hit), steps.critical_hit * on_crit)


def _attack_count(attack: AttackProfile, models: int) -> Vector:
    each = np.convolve(_dice(attack.attacks), _dice(attack.extra_attacks))
    each = np.convolve(each, times(_dice(attack.blast), attack.blast_blocks))
    return times(each, models)


def _effective_damage(attack: AttackProfile) -> Vector:
    """Damage of one unsaved wound after Feel No Pain."""
    raw = np.convolve(_dice(attack.damage), _dice(attack.melta))
    if attack.feel_no_pain is None:
        return raw
    through = 1.0 - (7 - attack.feel_no_pain) / 6
    return compound(raw, binomial(1, through))


@lru_cache(maxsize=4096)
def kill_odds(
    weapon: WeaponProfile,
    firing_models: int,
    target: DefenceStats,
    target_models: int,
    situation: Situation,
    feel_no_pain: int | None = None,
) -> KillOdds:
    """The exact odds of ``firing_models`` models attacking with ``weapon``.

    [LETHAL HITS] with [DEVASTATING WOUNDS] is a real choice (an automatic wound
    is never a critical wound): both are computed and the one that destroys more
    models on average is reported, with a word in :attr:`KillOdds.choices`.

    Cached by its arguments (immutable values): a pure function, asked by the AI
    for the same weapons and targets every activation, and every answer an
    immutable record.
    """
    attack = attack_profile(weapon, target, situation, feel_no_pain)
    if not attack.lethal:
        return _kill_odds(attack, firing_models, target, target_models, False)
    automatic = _kill_odds(attack, firing_models, target, target_models, True)
    if not attack.devastating:
        return automatic
    rolled = _kill_odds(attack, firing_models, target, target_models, False)
    if rolled.mean_models_killed > automatic.mean_models_killed:
        return replace(rolled, choices=(_LETHAL_ROLLED,))
    return replace(automatic, choices=(_LETHAL_AUTOMATIC,))


_LETHAL_AUTOMATIC = (
    "[LETHAL HITS]: critical hits wound automatically (the better choice here; "
    "rolling could give [DEVASTATING WOUNDS] critical wounds)"
)
_LETHAL_ROLLED = (
    "[LETHAL HITS]: the attacker rolls to wound after a critical hit (the better choice "
    "here: [DEVASTATING WOUNDS] critical wounds are worth more than automatic wounds)"
)


def _kill_odds(
    attack: AttackProfile,
    firing_models: int,
    target: DefenceStats,
    target_models: int,
    automatic: bool,
) -> KillOdds:
    steps = _steps(attack)
    count = _attack_count(attack, firing_models)
    per_attack = _per_attack(attack, steps, automatic)
    unsaved = compound(count, per_attack)
    damage = _effective_damage(attack)
    killed, lost = casualty_odds(unsaved, damage, target.wounds, target_models)
    mean_attacks = mean(count)
    sustained = attack.sustained.mean if attack.sustained is not None else 0.0
    wound_rate = steps.wound + steps.critical_wound
    crit_wounds = 1.0 if automatic else wound_rate
    mean_unsaved = mean(unsaved)
    return KillOdds(
        models_killed=tuple(float(p) for p in killed),
        unsaved_wounds=tuple(float(p) for p in unsaved),
        mean_attacks=mean_attacks,
        mean_hits=mean_attacks * (steps.hit + steps.critical_hit * (1.0 + sustained)),
        mean_wounds=mean_attacks
        * (steps.hit * wound_rate + steps.critical_hit * (crit_wounds + sustained * wound_rate)),
        mean_damage=mean_unsaved * mean(damage),
        wounds_lost=tuple(float(p) for p in lost),
    )
