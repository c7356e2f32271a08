"""Exact odds of one Waffle Edition weapon fired at one unit (no sampling).

The dice are read through the functions the engine rolls them with, so the
odds follow the battle's rules exactly (``attacks.fire_weapon``):

1. **Hits** (seed 000, step 4: "Roll a D6 for each shot fired. A model's
   Ballistic Skill determines what it must roll in order to hit the target").
   A shot hits with :func:`estimate.p_hit`: the BS chart, a miss re-rolled
   from BS 6 or with a twin-linked weapon, else a 1 at a Preferred Enemy.
   Snap Shots fire at BS "divided by 2 (always round down) to a minimum of
   BS 1". Models with different BS
   roll separate binomials, added. Templates and blasts hit as many models
   as the question says: where a marker lands is geometry, not odds. A Gets
   Hot marker or template is not fired on a 1 (:func:`gets_hot.fire_chance`);
   Gets Hot's wounds on the firer are not the target's odds.
2. **Wounds** (step 5, "comparing the Strength of the firing weapon with the
   majority Toughness of the target unit"). Each hit wounds on
   :func:`wounds.wound_target` (Poisoned included), a failed roll re-rolled
   where :func:`wounds.rerolls_wounds` says (a Monster Hunter's at a Monstrous
   Creature among them), else a 1 at a Preferred Enemy; a
   Rending 6 wounds at AP2 even where the chart says "-"; Overwhelming Strength "causes this wound
   automatically … counting the to-wound roll as if it were a 6".
3. **One wound's fate** (step 6 and "Models with more than One Save": "can
   use each type of save (armor, invulnerable and cover) once"). The saves of
   :func:`allocation.saves_against` are rolled in turn until one succeeds;
   an unsaved wound then slays the model outright on Instant Death, or is
   ignored on a Feel No Pain roll, or takes one wound.
4. **Casualties** ("allocated, one at a time, to the closest model … If a
   model is reduced to 0 Wounds, it is removed as a casualty. Wounds are then
   allocated to the next closest model"). Against identical models that is a
   DP over (models slain, wounds left on the closest one): an unsaved wound
   does one wound, or all of them on Instant Death, and never spills over
   (:func:`hammerlab.editions.distributions.casualties`).

Each die is independent, so the unsaved wounds are a compound of the hits,
and the kind of each unsaved wound (one wound or Instant Death) is
independent of the others whatever order the engine allocates them in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from math import prod

import numpy as np

from hammerlab.editions.distributions import (
    FACES,
    Vector,
    binomial,
    casualties,
    compound,
    mean,
    vector,
)
from hammerlab.editions.waffle.allocation import instant_death, saves_against
from hammerlab.editions.waffle.estimate import p_at_least, p_hit
from hammerlab.editions.waffle.firepower import weapon_shots
from hammerlab.editions.waffle.gets_hot import fire_chance, gets_hot
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.tables import overwhelming, snap_shot_bs
from hammerlab.editions.waffle.wounds import (
    rerolls_wounds,
    wound_ap,
    wound_target,
    wounds_on,
)


@dataclass(frozen=True)
class Firing:
    """What the firing unit did or suffers that changes its shots."""

    snap: bool = False
    """Snap Shots are forced (Return Fire!, Overwatch, gone to ground, falling back)."""
    half_range: bool = False
    """The target is within half range: Rapid Fire weapons fire twice."""
    moved: bool = False
    """The unit counts as moved (:func:`snap_shots.moved_for_weapons`: it moved, and is
    neither Relentless nor a vehicle): Heavy and Ordnance weapons fire Snap Shots,
    Salvo weapons the lower number."""
    snap_divisor: int = 2
    snap_minimum: int = 1
    """The ruleset parameters ``snap_shot_divisor`` and ``snap_shot_minimum_bs``."""
    overwhelming_at: int = 10
    """The ruleset parameter ``overwhelming_strength``."""


@dataclass(frozen=True)
class Volley:
    """One weapon fired by some models at one unit: the dice the engine will roll."""

    weapon: WeaponProfile
    strength: int
    """The weapon's Strength in the firers' hands."""
    shots: tuple[tuple[int, int], ...] = ()
    """(shots, BS they are fired at) for each group of models with the same BS."""
    hits: int | None = None
    """Hits with no roll To Hit (templates, blasts), instead of ``shots``."""
    fire_chance: float = 1.0
    """The chance the marker or template giving ``hits`` is fired at all (Gets
    Hot: :func:`gets_hot.fire_chance`)."""
    snap: bool = False
    """Whether the weapon fires Snap Shots."""
    overwhelming_at: int = 10
    """The Strength that wounds automatically (parameter ``overwhelming_strength``)."""
    hit_ones: bool = False
    """Whether the firers re-roll their To Hit rolls of 1 where no other re-roll takes
    them (:func:`rerolls.hit_ones_rerolled`: Preferred Enemy)."""
    wound_ones: bool = False
    """Whether they re-roll their To Wound rolls of 1 where no other re-roll takes them
    (:func:`rerolls.wound_ones_rerolled`: Preferred Enemy)."""
    failed_wounds: bool = False
    """Whether they re-roll every failed To Wound roll (:func:`rerolls.failed_wounds_rerolled`:
    Monster Hunter at a Monstrous Creature)."""

    @property
    def fires(self) -> bool:
        """Seed 000: "Template and Ordnance … Blast, cannot be fired as Snap Shots"."""
        return not (self.snap and not self.weapon.can_snap_fire)


def volley(
    weapon: WeaponProfile,
    strength: int,
    skills: Iterable[int],
    firing: Firing,
    hits: int | None = None,
) -> Volley:
    """What models with BS ``skills`` roll when they fire ``weapon``.

    Shots by weapon type (:func:`firepower.weapon_shots`); Snap Shots when forced,
    or for a Heavy or Ordnance weapon after moving (:func:`snap_shots.fires_snap`).
    A weapon that cannot fire Snap Shots but would have to does not fire.
    """
    snap = firing.snap or (weapon.is_heavy_like and firing.moved)
    at = firing.overwhelming_at
    if snap and not weapon.can_snap_fire:
        return Volley(weapon, strength, snap=True, overwhelming_at=at)
    if hits is not None:
        chance = 1.0
        if gets_hot(weapon) and (weapon.template or weapon.blast):
            chance = fire_chance(weapon.has_rule("Twin-linked"), tuple(skills))
        return Volley(
            weapon, strength, hits=hits, snap=snap, overwhelming_at=at, fire_chance=chance
        )
    each = weapon_shots(weapon, firing.half_range, firing.moved)
    divisor, minimum = firing.snap_divisor, firing.snap_minimum
    by_skill = Counter(snap_shot_bs(bs, divisor, minimum) if snap else bs for bs in skills)
    shots = tuple((n * each, bs) for bs, n in sorted(by_skill.items()))
    return Volley(weapon, strength, shots, snap=snap, overwhelming_at=at)


@dataclass(frozen=True)
class Defence:
    """The target unit, as identical models."""

    toughness: int
    """The unit's majority Toughness: wounds roll against it, Instant Death checks it."""
    wounds: int
    models: int
    save: int | None
    """Armour save (number before the plus), ``None`` for none."""
    invulnerable: int | None = None
    cover: int | None = None
    """The best cover save the models have (gone to ground already counted)."""
    feel_no_pain: int | None = None
    """The roll to discount an unsaved wound (Feel No Pain, Reanimation Protocols)."""
    eternal_warrior: bool = False
    against_instant_death: int | None = None
    """The roll to discount an unsaved wound that inflicts Instant Death
    (Reanimation Protocols: :func:`special_rules.ignore_wound_roll`)."""


@dataclass(frozen=True)
class ShootingOdds:
    """Exact distributions of one volley's effect on one unit."""

    models_killed: tuple[float, ...]
    """Probability of each number of models removed (index = models)."""
    unsaved_wounds: tuple[float, ...]
    """Probability of each number of unsaved wounds: wounds not saved nor
    ignored by Feel No Pain (Instant Death counts one), counted whether or not
    a model was left to take them."""
    mean_shots: float
    """Shots rolled To Hit (none when the hits are given)."""
    mean_hits: float
    mean_wounds: float
    mean_lost: float
    """Expected wounds the unsaved ones would take off: one each, all of a model's
    Wounds for an Instant Death wound (each such wound taken as striking a model that
    has all its Wounds, and counted whether or not a model was left to take it):
    what Suppressive Fire counts under ``suppressive_fire.wounds_counted=lost``."""

    @property
    def mean_models_killed(self) -> float:
        """Expected models removed."""
        return mean(vector(self.models_killed))

    @property
    def mean_unsaved(self) -> float:
        """Expected unsaved wounds."""
        return mean(vector(self.unsaved_wounds))


def hit_distribution(fired: Volley) -> Vector:
    """The number of hits: a given number (none if a Gets Hot marker is not fired),
    or a sum of binomials, one per BS."""
    if fired.hits is not None:
        out = vector([0.0] * fired.hits + [fired.fire_chance])
        out[0] += 1.0 - fired.fire_chance
        return out
    twin = fired.weapon.has_rule("Twin-linked")
    out = vector([1.0])
    for shots, bs in fired.shots:
        out = np.convolve(out, binomial(shots, p_hit(bs, twin, fired.hit_ones)))
    return out


def wound_chances(fired: Volley, toughness: int) -> Mapping[int | None, float]:
    """Of one hit: the chance it wounds, by the AP the wound has (Rending: AP2)."""
    weapon, strength = fired.weapon, fired.strength
    if overwhelming(strength, toughness, fired.overwhelming_at):
        return {wound_ap(weapon, 6): 1.0}
    needed = wound_target(strength, toughness, weapon)
    rending = weapon.has_rule("Rending")
    chart = 7 if needed is None else needed
    chances: dict[int | None, float] = {}
    for face in FACES:
        if wounds_on(face, chart, rending):
            ap = wound_ap(weapon, face)
            chances[ap] = chances.get(ap, 0.0) + 1 / 6
    if rerolls_wounds(weapon, strength, toughness, fired.failed_wounds):
        failed = 1.0 - sum(chances.values())
        return {ap: p * (1.0 + failed) for ap, p in chances.items()}
    if fired.wound_ones:  # a 1 never wounds; re-rolled, it wounds as a first roll does
        return {ap: p * (1.0 + 1 / 6) for ap, p in chances.items()}
    return chances


def wound_fate(fired: Volley, target: Defence, ap: int | None) -> tuple[float, float]:
    """Of one wound at ``ap``: (chance it takes one wound, chance it slays the model)."""
    cover = None if fired.weapon.ignores_cover else target.cover
    saves = saves_against(ap, target.save, target.invulnerable, cover)
    unsaved = prod(1.0 - p_at_least(needed) for _, needed in saves)
    if instant_death(fired.strength, target.toughness, fired.weapon, target.eternal_warrior):
        last = target.against_instant_death
        return 0.0, unsaved * (1.0 - (0.0 if last is None else p_at_least(last)))
    ignored = p_at_least(target.feel_no_pain) if target.feel_no_pain is not None else 0.0
    return unsaved * (1.0 - ignored), 0.0


@lru_cache(maxsize=4096)
def shooting_odds(fired: Volley, target: Defence) -> ShootingOdds:
    """The exact odds of ``fired`` at ``target`` (see the module docstring).

    Cached by its arguments (immutable values): a pure function, which the AI
    asks again for the same volleys at the same targets, and every answer an
    immutable record."""
    hits = hit_distribution(fired)
    wounding = wound_chances(fired, target.toughness)
    one = slain = 0.0
    for ap, chance in wounding.items():
        takes_one, slays = wound_fate(fired, target, ap)
        one, slain = one + chance * takes_one, slain + chance * slays
    unsaved = compound(hits, binomial(1, one + slain))
    damage = np.zeros(target.wounds + 1)
    if one + slain > 0.0:
        damage[1] += one / (one + slain)
        damage[target.wounds] += slain / (one + slain)
    killed = casualties(unsaved, damage, target.wounds, target.models)
    mean_hits = mean(hits)
    each_takes = float(damage @ np.arange(target.wounds + 1))  # of an unsaved wound
    return ShootingOdds(
        models_killed=tuple(float(p) for p in killed),
        unsaved_wounds=tuple(float(p) for p in unsaved),
        mean_shots=float(sum(shots for shots, _ in fired.shots)),
        mean_hits=mean_hits,
        mean_wounds=mean_hits * sum(wounding.values()),
        mean_lost=mean(unsaved) * each_takes,
    )
