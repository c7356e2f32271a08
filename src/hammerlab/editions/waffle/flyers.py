"""Flyers in the Waffle Edition: Zooming, Snap Shots at them, and Skyfire (7th edition).

hammerlab plays every Flyer as Zooming (a Hover flyer never switches to Hover
mode, and a Flyer starts on the table), and reads the 7th-edition
Zooming and Skyfire rules (quoted below, from memory of the rulebook, as
``docs/rules/waffle.md``, *Vehicles*, says). The Zooming move (18" to 36",
off the table into Ongoing Reserves) is ``zooming``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.vehicles import vehicle_of
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.memo import per_makeup
from hammerlab.engine.units import Unit

SKYFIRE = "Skyfire"


def zooming(profiles: Iterable[Profile]) -> bool:
    """Whether models of ``profiles`` make a Zooming Flyer: one of them is a vehicle of
    the Flyer type (``Flyer``, ``Super-heavy Flyer``)."""
    return any((v := vehicle_of(p)) is not None and v.has_type("Flyer") for p in profiles)


is_zooming = per_makeup(zooming)
"""Whether the unit is a Zooming Flyer: :func:`zooming` of its models alive. Called
with the unit, answered from its make-up (:func:`memo.per_makeup`: asked of every
target of every estimate)."""


def _skyfire_target(profiles: Sequence[Profile]) -> bool:
    """A target Skyfire shoots at full BS: a Flyer or a Skimmer."""
    return zooming(profiles) or any(
        (v := vehicle_of(p)) is not None and v.has_type("Skimmer") for p in profiles
    )


def snap_against(target: Unit | tuple[Profile, ...], profile: WeaponProfile) -> bool:
    """Whether ``profile`` may fire only Snap Shots at ``target``: the unit shot at, or
    the profiles of its models (the odds, which ask it of a datasheet:
    ``analysis.odds_waffle``).

    7th edition, Zooming: "Zooming Flyers can only be hit by Snap Shots"
    (so Blast, Template and other weapons that cannot fire Snap Shots cannot
    fire at them). Skyfire: "A model with this special rule, or firing a
    weapon with this special rule, fires at its normal Ballistic Skill when
    shooting at Flyers, Flying Monstrous Creatures and Skimmers. However,
    unless it also has the Interceptor special rule, it can only fire Snap
    Shots at other targets." hammerlab reads Skyfire on weapons only, and has
    no Flying Monstrous Creature target here (Swooping is not modelled).
    """
    if profile.has_rule(SKYFIRE):
        shot_at = target if isinstance(target, tuple) else [m.profile for m in target.alive_models]
        return not _skyfire_target(shot_at) and not profile.has_rule("Interceptor")
    return zooming(target) if isinstance(target, tuple) else is_zooming(target)


def may_be_charged(unit: Unit) -> bool:
    """7th edition: "Zooming Flyers cannot charge, and cannot be charged"."""
    return not is_zooming(unit)
