"""How much a unit may fire (6th/7th edition): its ranged weapons
(:func:`ranged_weapons`), how many of them a model fires in one shooting attack
(:func:`weapons_per_phase`: one, two for a Monstrous Creature, every one for a vehicle),
and what each weapon's type makes of its range (:func:`effective_range`: a Template's,
a moving Salvo's half) and its shots (:func:`weapon_shots`, :func:`shots_of_each`:
Rapid Fire's double at half range, a moving Salvo's lower number).
"""

from __future__ import annotations

from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.snap_shots import moved_for_weapons
from hammerlab.editions.waffle.special_rules import multi_tracker_weapons
from hammerlab.editions.waffle.vehicles import vehicle_of
from hammerlab.editions.waffle.visibility import seen_by_each
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.geometry import TEMPLATE_LENGTH, gap_table
from hammerlab.engine.memo import per_decision, per_object
from hammerlab.engine.units import Model, Unit


@per_decision
def ranged_weapons(unit: Unit) -> list[str]:
    """Names of the unit's shooting weapons, each once, in the order they are first met
    going through its models alive in order and each model's weapons in order, each
    judged by the first weapon of that name a model alive carries (one pass over the
    models, not one per name)."""
    ranged: dict[str, bool] = {}
    for model in unit.alive_models:
        for weapon in model.weapons:
            if weapon.name not in ranged:
                ranged[weapon.name] = weapon_of(weapon).is_ranged
    return [name for name, is_ranged in ranged.items() if is_ranged]


def weapons_per_phase(unit: Unit, model: Model) -> int:
    """Ranged weapons a model may fire in one shooting attack (6th/7th edition).

    One, or two for Monstrous Creatures, one more with a Multi-tracker
    (:func:`special_rules.multi_tracker_weapons`); a vehicle every weapon it has
    (7th edition: a vehicle that remained stationary or moved at Combat Speed
    "can fire all of its weapons", hammerlab moving vehicles at Combat Speed only),
    and so does a Gargantuan Creature (7th edition, as remembered: Gargantuan
    Creatures follow the Monstrous Creature rules, and may fire all their weapons).
    """
    return firing_quota(model.profile, len(model.weapons), multi_tracker_weapons(unit, model))


def firing_quota(profile: Profile, weapons: int, extra: int) -> int:
    """:func:`weapons_per_phase` of a model of ``profile`` carrying ``weapons`` weapons,
    ``extra`` the more its rules let it fire (a Multi-tracker's one); also what the odds
    of a datasheet's weapon fire (``analysis.odds_waffle``)."""
    own = _own_quota(profile)
    return weapons if own is None else own + extra


@per_object
def _own_quota(profile: Profile) -> int | None:
    """:func:`firing_quota` of a model of ``profile`` but for its wargear and rules:
    ``None`` for a vehicle or a Gargantuan Creature (it fires every weapon it carries),
    2 for a Monstrous Creature, else 1. Remembered by the profile
    (:func:`memo.per_object`: frozen), as :func:`profiles.stats_of` and
    :func:`vehicles.vehicle_of` are: asked of every model each time a volley or an
    estimate counts what it has fired."""
    if vehicle_of(profile) is not None:
        return None
    stats = stats_of(profile)
    if stats.has_type("Gargantuan"):
        return None
    return 2 if stats.has_type("Monstrous") else 1


def effective_range(unit: Unit, profile: WeaponProfile) -> float:
    """Range in inches after the weapon type's rules (a moving Salvo: half)."""
    reach = longest_range(profile)
    if profile.base_type == "Salvo" and not profile.template and moved_for_weapons(unit):
        reach /= 2
    return reach


def longest_range(profile: WeaponProfile) -> float:
    """The most :func:`effective_range` gives the weapon, whatever its unit did: a
    Template's length, else its range (a moving Salvo's is half of it)."""
    return TEMPLATE_LENGTH if profile.template else profile.range or 0.0


def shots_of_each(
    battle: Battle,
    unit: Unit,
    models: list[Model],
    profile: WeaponProfile,
    target: Unit,
    counts_within: float | None = None,
) -> list[int]:
    """The shots of each of ``models`` by weapon type (Rapid Fire doubles at half range:
    :func:`weapon_shots`).

    Half range is measured, like range in seed 000 step 3 ("within range of
    at least one visible model in the target unit"), to the target models
    each model can see, all of them read from one sight table
    (:func:`visibility.seen_by_each`) and one :func:`geometry.gap_table`.
    Overwatch: "For the purposes of range, the target of the Overwatch attack
    counts as being within 1" of the models that are firing" (seed 004,
    ``counts_within``), so Rapid Fire weapons fire twice. A shooting attack asks
    it of its firers before the dice to hit; the estimates of every volley."""
    half = (profile.range or 0.0) / 2
    moved = profile.base_type == "Salvo" and moved_for_weapons(unit)
    if profile.base_type != "Rapid Fire":
        return [weapon_shots(profile, False, moved)] * len(models)
    if counts_within is not None:
        return [weapon_shots(profile, counts_within <= half, moved)] * len(models)
    sight = seen_by_each(battle, models, target)
    gaps = gap_table(models, target.alive_models)
    return [
        weapon_shots(profile, any(gaps[at][j] <= half for j in sight[at]), moved)
        for at in range(len(models))
    ]


def weapon_shots(profile: WeaponProfile, half_range: bool, moved: bool) -> int:
    """Shots of one model: a Rapid Fire weapon twice its shots within half range
    (else its shots); a Salvo weapon the lower number when the unit ``moved``
    (Relentless aside); others as the Type prints them.

    7th edition, Rapid Fire (as remembered; neither the seeds nor the shared
    ``Warhammer40K.gst`` print it): "A model armed with a Rapid Fire weapon can
    make one shot at a target that is up to its maximum range away.
    Alternatively, it can make two shots at a target that is up to half its
    maximum range away." ``Rapid Fire N`` (the data's hurricane bolter, ``Rapid
    Fire 3``: three boltguns fired as one weapon) makes N shots, 2N within half
    range; a plain ``Rapid Fire`` is ``Rapid Fire 1`` (docs/rules/waffle.md,
    *Interpretations*, "Rapid Fire N")."""
    if profile.base_type == "Rapid Fire":
        return 2 * profile.shots if half_range else profile.shots
    if profile.base_type == "Salvo" and moved:
        return profile.salvo_moving_shots
    return profile.shots
