"""Artillery (7th-edition unit type): guns and the crew who fire them.

7th edition, Artillery (as transcribed at scoolov.github.io/wh40000rules, "Unit
Types: Artillery"): "Artillery units consist of a number of crew models and the
gun models themselves. [...] If all the crew models are killed, the guns are
immediately removed as well." Movement: "Artillery units need at least one
crewman per gun in order for the unit to move." Shooting: "One crewman that is
within 2" of a gun in the Shooting phase can fire it. The crewmen firing the
gun cannot fire any weapons they are carrying [...] When firing the guns,
there must be a line of sight to the target from both the gun model and the
crewman firing it (unless they are Barrage weapons, of course)." Shooting at
Artillery: "the Toughness of the guns is always used whilst at least one gun
remains. Any Wounds that are caused are still allocated to the closest model".

A gun is a model of an Artillery unit type without a Strength: the 7th-edition
gun profile (``WS - BS - S - T 7 W 2 I - A - Ld - Sv 3+``, as the shared
catalogues write it); every other model of the unit is crew.
"""

from __future__ import annotations

from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.toughness import toughness as model_toughness
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.memo import per_makeup, per_object
from hammerlab.engine.units import Model, Unit

ARTILLERY = "Artillery"
"""The unit type (``Profile.unit_type``, ``Artillery`` or ``Artillery (Immobile)``)."""

CREW_REACH = 2.0
"""7th edition: "One crewman that is within 2" of a gun [...] can fire it"."""


def is_gun(model: Model) -> bool:
    """Whether ``model`` is an artillery gun: an Artillery model without a Strength
    (``S -``, read as 0)."""
    return _gun_profile(model.profile)


@per_makeup
def has_gun_alive(profiles: tuple[Profile, ...]) -> bool:
    """Whether any model alive of a unit is a gun (:func:`is_gun`, called with the
    unit: :func:`memo.per_makeup`)."""
    return any(_gun_profile(p) for p in profiles)


@per_object
def _gun_profile(profile: Profile) -> bool:
    """:func:`is_gun` of a model with ``profile``. Remembered (the profile frozen): every
    model's BS is asked whether it is a gun's (:func:`crewman_of`)."""
    stats = stats_of(profile)
    return stats.s == 0 and stats.has_type(ARTILLERY)


def guns(unit: Unit) -> list[Model]:
    """The unit's guns alive: none where its make-up has none (:func:`has_gun_alive`),
    known before any model is asked (every volley asks the Toughness it wounds at,
    :func:`shooting_toughness`, and every casualty whether guns are left uncrewed)."""
    if not has_gun_alive(unit):
        return []
    return [m for m in unit.alive_models if is_gun(m)]


def crew(unit: Unit) -> list[Model]:
    """The unit's other models alive, when it has guns (its crew); else none."""
    return [m for m in unit.alive_models if not is_gun(m)] if guns(unit) else []


def gunners(unit: Unit) -> dict[str, Model]:
    """Gun id → the crewman who fires it: for each gun in the unit's order, the
    nearest crewman within :data:`CREW_REACH` (base to base) not firing another
    gun ("One crewman [...] can fire it"; interpretation: the nearest, so every
    controller gets the same answer). A gun with no crewman left fires nothing."""
    free = crew(unit)
    manned: dict[str, Model] = {}
    for gun in guns(unit):
        near = [m for m in free if base_distance(m, gun) <= CREW_REACH]
        if near:
            nearest = min(near, key=lambda m: base_distance(m, gun))
            manned[gun.id] = nearest
            free.remove(nearest)
    return manned


def firers(unit: Unit) -> dict[str, Model | None] | None:
    """Model id → whose Ballistic Skill and sight it shoots with: a gun its
    crewman's (``None`` if none mans it), a crewman firing a gun ``None`` (it
    fires none of its own weapons), any other model its own. ``None`` for a
    unit without guns: every model shoots as itself (known from its make-up:
    :func:`has_gun_alive`, asked of every shooter of every estimate)."""
    if not has_gun_alive(unit):
        return None
    manned = gunners(unit)
    firing = {m.id for m in manned.values()}
    return {
        m.id: manned.get(m.id) if is_gun(m) else (None if m.id in firing else m)
        for m in unit.alive_models
    }


def crewman_of(battle: Battle, model: Model) -> Model:
    """The model whose Ballistic Skill ``model`` fires with: a gun's crewman
    (:func:`gunners`), else the model itself (a gun of no unit on the table, a
    copy the AI weighs, keeps its own BS 0)."""
    if not is_gun(model):
        return model
    unit = next((u for u in battle.units.values() if any(m is model for m in u.models)), None)
    return model if unit is None else gunners(unit).get(model.id, model)


def crewed_to_move(unit: Unit) -> bool:
    """Whether the unit may move: Artillery needs "at least one crewman per gun in
    order for the unit to move"."""
    return len(crew(unit)) >= len(guns(unit))


def shooting_toughness(battle: Battle, unit: Unit) -> int | None:
    """The Toughness a shooting attack wounds the unit at: "the Toughness of the guns
    is always used whilst at least one gun remains" (the guns' majority Toughness,
    the highest on a tie, each as :func:`toughness.toughness` gives it); ``None``: no
    gun is left, the unit's own applies."""
    toughness = [model_toughness(battle, unit, m) for m in guns(unit)]
    return max(toughness, key=lambda t: (toughness.count(t), t)) if toughness else None


def uncrewed_guns(unit: Unit) -> list[Model]:
    """The guns to remove now: "If all the crew models are killed, the guns are
    immediately removed as well" (a unit of guns only, with no crew ever, is
    refused at import)."""
    left = guns(unit)
    return left if left and len(left) == len(unit.alive_models) else []
