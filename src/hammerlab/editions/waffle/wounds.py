"""Seed 000, step 5: "Roll To Wound", with Overwhelming Strength, Rending, Poisoned, Shred."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from hammerlab.editions.waffle.events import (
    WoundsRolled,
)
from hammerlab.editions.waffle.orders import Hit, WoundRoll
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of
from hammerlab.editions.waffle.strength import hit_strength
from hammerlab.editions.waffle.tables import (
    overwhelming,
    to_wound_target,
)
from hammerlab.editions.waffle.toughness import TOUGHNESS, toughness
from hammerlab.editions.waffle.weapon_rules import fixed_wound_roll, six_resolves_at_ap2
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.memo import per_makeup
from hammerlab.engine.units import Model, Unit


def majority_value(values: Iterable[int]) -> int:
    """The value most often in ``values`` (the highest on a tie)."""
    counts: dict[int, int] = {}
    for value in values:  # a plain count: Counter's set-up costs more than these few values
        counts[value] = counts.get(value, 0) + 1
    best = max(counts.values())
    return max(value for value, n in counts.items() if n == best)


@per_makeup
def typical_profile(profiles: tuple[Profile, ...]) -> Profile:
    """The profile most of the unit's models alive have (the first on a tie). Called
    with the unit, answered from its make-up (:func:`memo.per_makeup`: every
    estimate's defence asks it)."""
    return most_common_profile(profiles)


def most_common_profile(profiles: Iterable[Profile]) -> Profile:
    """The profile most often in ``profiles`` (the first on a tie)."""
    counts: dict[Profile, int] = {}
    for profile in profiles:  # a plain count, as majority_value's: asked on every estimate
        counts[profile] = counts.get(profile, 0) + 1
    best = max(counts.values())
    return next(p for p, n in counts.items() if n == best)


@per_makeup
def majority_toughness(profiles: tuple[Profile, ...]) -> int:
    """The Toughness most of a unit's models alive have (the highest on a tie), as
    their profiles give it. Called with the unit, answered from its make-up
    (:func:`memo.per_makeup`)."""
    return majority_value(stats_of(p).t for p in profiles)


def unit_toughness(battle: Battle, unit: Unit) -> int:
    """The Toughness a unit's wounds are rolled at: the one most of its models alive
    have (the highest on a tie), each as :func:`toughness` gives it. The rules and
    the AI's estimates both read it."""
    if not battle.hooks.get(TOUGHNESS):
        return majority_toughness(unit)
    return majority_value(toughness(battle, unit, m) for m in unit.alive_models)


def weapon_strength(battle: Battle, unit: Unit, source: Model, profile: WeaponProfile) -> int:
    """The weapon's Strength in ``source``'s hands (``User``, ``x2``, ``+N``; ``source``
    of ``unit``), as the rules installed change it (:func:`strength.hit_strength`)."""
    own = profile.strength.resolve(stats_of(source.profile).s)
    return hit_strength(battle, unit, source, profile, own)


def roll_to_wound(
    battle: Battle,
    victim: Unit,
    hits: list[Hit],
    profile: WeaponProfile,
    toughness: int | None = None,
    ones_by: str = "",
    all_failed: bool = False,
) -> list[WoundRoll]:
    """Seed 000, step 5, with Overwhelming Strength, Rending, Poisoned and Shred.

    Overwhelming Strength: "it instead causes this wound automatically … counting
    the to-wound roll as if it were a 6" — so it also rends. Rending (6th/7th
    edition): a To Wound roll of 6 wounds regardless of Toughness, at AP2.
    Precision Shots roll apart from other hits, and their wounds stay precise.
    Hits roll against the victim's majority Toughness unless ``toughness`` is
    given (a hit on one model: a Sweeping Advance's randomly distributed hit).
    ``all_failed``: the attackers re-roll every failed roll
    (:func:`rerolls.failed_wounds_rerolled`: Monster Hunter).
    Where failed rolls are not all re-rolled (:func:`rerolls_wounds`), the rolls of 1
    are where the rule ``ones_by`` re-rolls them (:func:`rerolls.wound_ones_rerolled`:
    Preferred Enemy "re-rolls failed … To Wound rolls of 1").
    """
    if toughness is None:
        toughness = unit_toughness(battle, victim)
    wounds: list[WoundRoll] = []
    # The hits of each Strength (Precision Shots apart), in their order: each die is
    # one hit's, so its wound keeps that hit's firer (whence its cover is judged:
    # allocation.save_taken), not some other model's of the group.
    groups: dict[tuple[int, bool], list[Model]] = {}
    for hit in hits:
        group = groups.get((hit.strength, hit.precision))
        if group is None:
            groups[hit.strength, hit.precision] = [hit.source]
        else:
            group.append(hit.source)
    needed_seen: list[str] = []
    strengths = {strength for strength, _ in groups}
    precise = any(precision for _, precision in groups)
    for (strength, precision), sources in sorted(groups.items()):
        count = len(sources)
        # Where the hits roll in groups, each score says whose it is (a Strength of
        # several; the Precision Shots or the other hits).
        tags = [f"S{strength}"] if len(strengths) > 1 else []
        tags += ["Precision Shots" if precision else "other hits"] if precise else []
        whose = f" ({', '.join(tags)})" if len(groups) > 1 else ""
        if overwhelming(strength, toughness, battle.settings.integer("overwhelming_strength")):
            needed_seen.append("auto (Overwhelming Strength)" + whose)
            wounds += [_wound(strength, profile, 6, s, precision) for s in sources]
            continue
        needed = wound_target(strength, toughness, profile)
        rending = profile.has_rule("Rending")
        if needed is None and not rending:
            needed_seen.append("-" + whose)
            continue
        # 6th/7th-edition Rending: a To Wound roll of 6 wounds "regardless of its
        # Toughness", so a Rending weapon rolls even where the chart says "-", and
        # both the dice and the summary say it wounds on a 6.
        chart = 7 if needed is None else needed
        score = "6 (Rending)" if needed is None else f"{needed}+"
        needed_seen.append(score + whose)
        label = score + (", Precision Shots" if precision else "")
        dice = battle.dice.roll(count, f"to wound ({profile.name}, {label})")
        rolls = list(zip(dice, sources, strict=True))
        failed = [s for r, s in rolls if not wounds_on(r, chart, rending)]
        if failed and rerolls_wounds(profile, strength, toughness, all_failed):
            rolls = [(r, s) for r, s in rolls if wounds_on(r, chart, rending)]
            again = battle.dice.roll(len(failed), f"re-roll failed wounds ({profile.name})")
            rolls += zip(again, failed, strict=True)
        elif ones_by and any(r == 1 for r, _ in rolls):
            ones = [s for r, s in rolls if r == 1]
            rolls = [(r, s) for r, s in rolls if r != 1]
            again = battle.dice.roll(len(ones), f"re-roll 1s to wound ({ones_by}, {profile.name})")
            rolls += zip(again, ones, strict=True)
        wounds += [
            _wound(strength, profile, r, s, precision)
            for r, s in rolls
            if wounds_on(r, chart, rending)
        ]
    battle.emit(
        WoundsRolled(  # weapon, target, hits, needed, wounds: in order, no keywords (scale.md)
            profile.name, victim.label, len(hits), "/".join(needed_seen), len(wounds)
        )
    )
    return wounds


def wounds_on(roll: int, needed: int, rending: bool) -> bool:
    """Whether a To Wound ``roll`` wounds: ``needed`` or more, or a Rending 6."""
    return roll >= needed or (rending and roll == 6)


@lru_cache(maxsize=4096)
def wound_target(strength: int, toughness: int, profile: WeaponProfile) -> int | None:
    """The D6 needed to wound, Poisoned (X+), Fleshbane and Sniper included, or
    ``None`` where the chart says "-". Remembered (a function of its arguments, the
    profile frozen): every volley and every estimate of one asks it, and working it out
    reads the chart as text and asks the weapon about four of its rules.

    Poisoned (6th/7th edition): wounds on X+ (4+ when no value is given), or
    on the chart's number when that is better. Fleshbane and Sniper "always"
    wound on 2+ and 4+ (:func:`weapon_rules.fixed_wound_roll`): the chart is
    not read, but Poisoned still counts when it is better. A To Wound roll of 1
    always fails (6th/7th edition), so nothing wounds on better than 2+: a
    Poisoned (1+) weapon wounds on 2+ (:data:`BEST_WOUND_ROLL`). The battle and
    the odds (``odds.wound_chances``) both read this.
    """
    chart = to_wound_target(strength, toughness)
    fixed = fixed_wound_roll(profile)
    if profile.has_rule("Poisoned"):
        value = profile.rule_value("Poisoned")
        poisoned = 4 if value is None else max(BEST_WOUND_ROLL, value)
        poisoned = poisoned if chart is None else min(chart, poisoned)
        return poisoned if fixed is None else min(poisoned, fixed)
    return chart if fixed is None else fixed


BEST_WOUND_ROLL = 2
"""6th/7th edition: a To Wound roll of 1 always fails, whatever the Strength or rule
(Overwhelming Strength wounds without a roll: :func:`tables.overwhelming`)."""


def rerolls_wounds(
    profile: WeaponProfile, strength: int, toughness: int, all_failed: bool = False
) -> bool:
    """Whether failed To Wound rolls are re-rolled: Shred; Poisoned when the
    Strength is higher than the Toughness (7th edition); a twin-linked template;
    the attackers' own re-roll (``all_failed``: a Monster Hunter against a Monstrous
    Creature, :func:`rerolls.failed_wounds_rerolled`)."""
    poisoned = profile.has_rule("Poisoned") and strength > toughness
    return (
        all_failed
        or profile.has_rule("Shred")
        or poisoned
        or (profile.template and profile.has_rule("Twin-linked"))
    )


def _wound(
    strength: int, profile: WeaponProfile, roll: int, source: Model, precision: bool
) -> WoundRoll:
    """A wound, at the AP its roll gives it (a Precision Shot's stays one)."""
    return WoundRoll(strength, wound_ap(profile, roll), source, precision)


def wound_ap(profile: WeaponProfile, roll: int) -> int | None:
    """The AP of a wound rolled ``roll``: a 6 to wound resolves at AP2 with Rending,
    Sniper or Bladestorm (:func:`weapon_rules.six_resolves_at_ap2`)."""
    if roll == 6 and six_resolves_at_ap2(profile):
        return 2 if profile.ap is None else min(profile.ap, 2)
    return profile.ap
