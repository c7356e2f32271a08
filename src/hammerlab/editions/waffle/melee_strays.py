"""Shooting into a melee (seed 001, Proposed Rule): the rolls of 1 and 2 that stray
into another unit of the combat, and the Morale penalty friendly casualties bring.

"any rolls of 1 or 2, even if they would normally be hits, hit one of your engaged
units instead!" The dice are rolled by :func:`hit_rolls.roll_to_hit` (a die of
:data:`STRAY_ROLL` or less strays); here, the units the strays may hit
(:func:`melee_stray_units`), the hits they make (:func:`stray_hits`), the chance a
die strays as the AI weighs it (:func:`stray_chance`), and the penalty
(:func:`friendly_fire_penalty`).
"""

from __future__ import annotations

from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.events import StrayShots
from hammerlab.editions.waffle.orders import Hit, VolleyResult
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.tables import ballistic_target, miss_reroll
from hammerlab.editions.waffle.wounds import weapon_strength
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Model, Unit

STRAY_ROLL = 2
"""Seed 001, Shooting Into Close Combat: "any rolls of 1 or 2 … hit one of your
engaged units instead!"."""


def friendly_fire_penalty(battle: Battle, shooter: Unit, result: VolleyResult) -> None:
    """Seed 001 (Proposed Rule): friendly casualties worsen Morale checks.

    "if you cause any casualties to a friendly unit, they will suffer a
    penalty to any Morale checks they might need to make!" The seed gives no
    size: -1 Ld per model removed, until the end of the turn
    (``UnitStatus.morale_penalty``, which ``morale.morale_check`` applies).
    """
    for unit_id, lost in sorted(result.casualties.items()):
        victim = battle.unit(unit_id)
        if lost and victim.player == shooter.player:
            st(battle, victim).morale_penalty += lost
            battle.say(
                "morale",
                f"{victim.label}: -{lost} Ld to Morale checks this turn "
                f"({lost} casualt{'y' if lost == 1 else 'ies'} from friendly fire)",
            )


def stray_chance(bs: int, twin_linked: bool) -> float:
    """Chance one die to hit fired with ``bs`` into a melee strays (seed 001, Proposed
    Rule: "any rolls of 1 or 2, even if they would normally be hits, hit one of your
    engaged units instead!"), as :func:`hit_rolls.roll_to_hit` rolls it: a die showing
    :data:`STRAY_ROLL` or less strays; a miss above it is re-rolled where every miss is
    (:func:`tables.miss_reroll`: BS 6+ or Twin-linked) and strays if the re-roll shows
    :data:`STRAY_ROLL` or less. Preferred Enemy's re-rolled 1s add nothing: into a melee
    a 1 strays and is never re-rolled. What the AI weighs a shot into a melee by."""
    stray = STRAY_ROLL / 6
    if miss_reroll(bs, twin_linked) is None:
        return stray
    missed = max(0, ballistic_target(bs)[0] - 1 - STRAY_ROLL) / 6
    return stray + missed * stray


def melee_stray_units(battle: Battle, shooter: Unit, target: Unit) -> list[Unit]:
    """Units the rolls of 1-2 of ``shooter``'s shots into ``target``'s melee may hit.

    Seed 001 (Proposed Rule): "hit one of your engaged units instead! (In the
    case of shooting at a melee which has no units you control, the 1s and 2s
    hit a squad from a different player than the controlling player of the
    nominated squad)". The combat is the group of units linked by base
    contact (:func:`combat.combats`). With two players the shooter always has
    a unit in the combat; none is found only when the target is marked locked
    without an enemy in base contact on the table.
    """
    combat = next((c for c in combats(battle) if any(u is target for u in c.units)), None)
    if combat is None:
        return []
    return combat.side(shooter.player) or [u for u in combat.units if u.player != target.player]


def stray_hits(
    battle: Battle, unit: Unit, target: Unit, profile: WeaponProfile, sources: list[Model]
) -> list[Hit]:
    """The rolls of 1-2 of one weapon into a melee: one hit each on another unit.

    Where several units may take them, the shooting player chooses one for the
    weapon's strays (a ``melee_stray`` decision); where none may, they miss.
    """
    candidates = melee_stray_units(battle, unit, target)
    victim = candidates[0] if len(candidates) == 1 else None
    if len(candidates) > 1:
        victim = battle.decide(
            Decision(
                kind="melee_stray",
                player=unit.player,
                prompt=(
                    f"{len(sources)} roll(s) of 1-2 of {profile.name} into the melee: "
                    "which engaged unit do they hit?"
                ),
                choices=tuple(Choice(u.label, u) for u in candidates),
                context=DecisionContext(unit=unit.id, target=target.id, weapon=profile.name),
            )
        )
    battle.emit(
        StrayShots(
            unit=unit.label,
            weapon=profile.name,
            target=target.label,
            strays=len(sources),
            victim=victim.label if victim else "",
        )
    )
    if victim is None:
        return []
    return [Hit(victim, weapon_strength(battle, unit, m, profile), m) for m in sources]
