"""Chances of single dice for the AI and the exact odds: a shot, a blow, a D6 score.

Both read the rules' charts (:func:`tables.ballistic_target`,
:func:`tables.miss_reroll`, :func:`tables.melee_cell`). The AI's expected
values of whole attacks are :mod:`expected`, which builds on these and on
:mod:`odds`.
"""

from __future__ import annotations

from functools import lru_cache

from hammerlab.editions.waffle.hatred import NO_REROLL, BlowReroll
from hammerlab.editions.waffle.tables import ballistic_target, melee_cell, miss_reroll

AUTOMATIC = "A"
"""The melee chart's automatic hit (seed 001)."""


def p_at_least(needed: int) -> float:
    """Chance of rolling ``needed`` or more on a D6."""
    return max(0.0, min(1.0, (7 - needed) / 6))


@lru_cache(maxsize=256)
def p_hit(bs: int, twin_linked: bool = False, ones: bool = False) -> float:
    """Chance one shot hits with ``bs``: a miss is re-rolled from BS 6, or when
    the weapon is twin-linked (:func:`tables.miss_reroll`), else, where ``ones``
    are (:func:`rerolls.hit_ones_rerolled`: Preferred Enemy), a roll of 1, as
    :func:`hit_rolls.roll_to_hit` does. Cached (as :func:`p_blow`): a function of
    its numbers, asked for every firing model."""
    needed = ballistic_target(bs)[0]
    reroll = miss_reroll(bs, twin_linked)
    first = p_at_least(needed)
    if reroll is None:
        return first + first / 6 if ones else first  # a 1 always misses
    return first + (1 - first) * p_at_least(reroll)


@lru_cache(maxsize=1024)
def p_blow(attacker_ws: int, target_ws: int, reroll: BlowReroll = NO_REROLL) -> float:
    """Chance one close combat Attack hits, from the seed's chart (``A``: always,
    as :func:`fight.roll_blows` resolves it), ``reroll`` counted."""
    return p_cell(melee_cell(attacker_ws, target_ws), reroll)


def p_cell(cell: str, reroll: BlowReroll = NO_REROLL) -> float:
    """Chance one blow hits on a chart cell (``A``: always, ``4+``...): a die
    below ``reroll``'s limit (:meth:`hatred.BlowReroll.limit`) is rolled again."""
    if cell == AUTOMATIC:
        return 1.0
    needed = int(cell.rstrip("+"))
    first = p_at_least(needed)
    return first + (1 - p_at_least(reroll.limit(needed))) * first
