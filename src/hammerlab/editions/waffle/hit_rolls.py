"""The dice To Hit of shots (seed 000, step 4: "Roll a D6 for each shot fired"): the
score the Ballistic Skill needs, the re-roll of misses (BS 6+, Twin-linked) or of 1s (a
rule's: Preferred Enemy), and into a melee the dice that stray (seed 001:
:data:`melee_strays.STRAY_ROLL`). What the dice did, the 1s and 6s left showing among
it, is a :class:`HitRolls`.
"""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.melee_strays import STRAY_ROLL
from hammerlab.editions.waffle.tables import ballistic_target, miss_reroll
from hammerlab.engine.battle import Battle
from hammerlab.engine.records import quick_init


def roll_hits(
    battle: Battle, bs: int, shots: int, twin_linked: bool, purpose: str, ones_by: str
) -> int:
    """Roll ``shots`` to hit with ``bs``; re-roll misses for BS 6+ or twin-linked,
    or 1s where a rule re-rolls them (``ones_by``: its name)."""
    return roll_to_hit(battle, bs, shots, twin_linked, purpose, ones_by=ones_by).hits


@quick_init
@dataclass(frozen=True)
class HitRolls:
    """What the To Hit dice of some shots did."""

    hits: int
    strays: int = 0
    """Into a melee: dice of 1 or 2, which hit another unit of the combat."""
    ones: int = 0
    """Dice left showing 1 once re-rolled (what Gets Hot counts)."""
    sixes: int = 0
    """Dice left showing 6 once re-rolled (Precision Shots: :mod:`precision_shots`)."""


def roll_to_hit(
    battle: Battle,
    bs: int,
    shots: int,
    twin_linked: bool,
    purpose: str,
    into_melee: bool = False,
    ones_by: str = "",
) -> HitRolls:
    """Roll ``shots`` to hit with ``bs``; re-roll misses for BS 6+ or twin-linked
    (on the score :func:`tables.miss_reroll` gives), else, where the rule
    ``ones_by`` re-rolls them (:func:`rerolls.hit_ones_rerolled`: Preferred Enemy
    "re-rolls failed To Hit … rolls of 1"), the rolls of 1. No die is re-rolled
    twice: where all misses are re-rolled, Preferred Enemy adds nothing.

    Into a melee (seed 001, Proposed Rule) "any rolls of 1 or 2, even if they
    would normally be hits, hit one of your engaged units instead!": every
    die showing 1 or 2 strays, a re-rolled one included. A stray is not a
    miss, so it is not re-rolled; a miss (3 up to the score needed) is, and
    strays if the re-roll shows 1 or 2. So into a melee a 1 is a stray, never
    a Preferred Enemy re-roll. ``ones`` counts the dice left showing 1 (a 1
    re-rolled counts only if the re-roll is a 1 too: :mod:`gets_hot`).
    """
    needed = ballistic_target(bs)[0]
    again = miss_reroll(bs, twin_linked)
    stray = STRAY_ROLL if into_melee else 0
    note = f", 1-{stray} stray" if stray else ""
    rolls = battle.dice.roll(shots, f"to hit ({purpose}, {needed}+{note})")
    hits, strays = _hit_counts(rolls, needed, stray)
    misses = shots - hits - strays
    ones, sixes = rolls.count(1), rolls.count(6)
    what = "misses"
    if again is None and ones_by:
        again, misses, what = needed, 0 if stray else rolls.count(1), f"1s ({ones_by})"
    if misses and again is not None:
        rerolls = battle.dice.roll(misses, f"re-roll {what} ({purpose}, {again}+{note})")
        more_hits, more_strays = _hit_counts(rerolls, again, stray)
        hits, strays = hits + more_hits, strays + more_strays
        # a 1 is a miss, so re-rolled, unless it strays into a melee
        ones = (ones if stray else 0) + rerolls.count(1)
        sixes += rerolls.count(6)
    return HitRolls(hits, strays, ones, sixes)


def _hit_counts(rolls: tuple[int, ...], needed: int, stray: int) -> tuple[int, int]:
    """(hits, strays) among ``rolls``: a stray is ``stray`` or less, a hit ``needed`` or more.
    Lists counted, not generators summed, and no pass for strays where none can be (every
    die of every volley to hit is counted here)."""
    if not stray:
        return len([r for r in rolls if r >= needed]), 0
    strays = len([r for r in rolls if r <= stray])
    return len([r for r in rolls if r > stray and r >= needed]), strays
