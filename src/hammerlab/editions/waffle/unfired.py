"""Why a weapon is not fired, for a person choosing one (seed 000, step 3: "Models
that cannot see the target, or are not in range, cannot shoot"): each weapon of a unit
that is not offered against a target, with why (:func:`not_offered`: its models have
fired what they may, it cannot fire Snap Shots, no target model is within its range,
its template would touch a friend wherever aimed), and the weapons the casualties of
a volley left with nothing to fire at (:func:`left_unfired`).
"""

from __future__ import annotations

from collections import Counter

from hammerlab.editions.waffle.attacks import gaps_to, not_fired
from hammerlab.editions.waffle.events import WeaponLeftUnfired
from hammerlab.editions.waffle.firepower import effective_range, ranged_weapons, weapons_per_phase
from hammerlab.editions.waffle.firing_modes import may_fire
from hammerlab.editions.waffle.markers import friends_in_the_way
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.snap_shots import no_snap_shots
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Model, Unit


def _why_not(battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders) -> str:
    """Why no model of ``unit`` fires ``weapon_name``, for a person."""
    return not_fired(battle, unit, target, weapon_name, orders).detail


def not_offered(
    battle: Battle,
    unit: Unit,
    target: Unit,
    orders: FireOrders,
    spent: Counter[str],
    fired: set[str],
    able: dict[str, list[Model]],
) -> tuple[str, ...]:
    """Each ranged weapon of ``unit`` neither ``fired`` nor ``able`` to fire at
    ``target`` (:func:`attacks.able_weapons`), with why, for a person choosing a weapon: its
    models have fired what they may, it cannot fire Snap Shots (:func:`snap_shots.no_snap_shots`),
    no target model is within its range, its template would touch a friendly model
    wherever its carriers aimed it (:func:`markers.friends_in_the_way`), else
    :func:`_why_not`'s "no model can fire"."""
    return tuple(
        _why_left_out(battle, unit, target, name, orders, spent)
        for name in ranged_weapons(unit)
        if name not in fired and name not in able
    )


def _why_left_out(
    battle: Battle,
    unit: Unit,
    target: Unit,
    weapon_name: str,
    orders: FireOrders,
    spent: Counter[str],
) -> str:
    """Why no model of ``unit`` may fire ``weapon_name`` at ``target`` now (:func:`not_offered`)."""
    carriers = _carriers(unit, weapon_name)
    if spent and not any(
        may_fire(spent, unit, m, weapon_name, weapons_per_phase(unit, m)) for _, m, _ in carriers
    ):
        return f"{weapon_name}: each model carrying it has fired what it may this phase"
    snap = no_snap_shots(battle, unit, target, weapon_name, orders)
    if snap is not None:
        return snap
    reach, nearest = _reach(unit, target, carriers)
    if nearest > reach:
        gap = f'the nearest target model is {nearest:.1f}" away'
        return f'{weapon_name}: out of range ({reach:g}"; {gap})'
    return template_barred(battle, unit, target, weapon_name) or _why_not(
        battle, unit, target, weapon_name, orders
    )


def template_barred(battle: Battle, unit: Unit, target: Unit, weapon_name: str) -> str | None:
    """``"<weapon>: its template would touch a friendly model wherever aimed"`` where
    ``weapon_name`` is a template that no model of ``unit`` carrying it may aim at
    ``target`` without touching a friendly model (:func:`markers.friends_in_the_way`),
    though it sees and reaches some of it; else ``None``."""
    carriers = _carriers(unit, weapon_name)
    if carriers and all(
        (profile := weapon_of(w)).template
        and friends_in_the_way(battle, unit, model, target, profile)
        for _, model, w in carriers
    ):
        return f"{weapon_name}: its template would touch a friendly model wherever aimed"
    return None


def _carriers(unit: Unit, weapon_name: str) -> list[tuple[int, Model, Weapon]]:
    """The models alive of ``unit`` carrying ``weapon_name``, each with its place among
    the models alive (a row of :func:`attacks.gaps_to`) and its first weapon of that name."""
    return [
        (at, model, weapon)
        for at, model in enumerate(unit.alive_models)
        if (weapon := model.weapon(weapon_name)) is not None
    ]


def _reach(
    unit: Unit, target: Unit, carriers: list[tuple[int, Model, Weapon]]
) -> tuple[float, float]:
    """The longest range of the ``carriers``' weapon (:func:`firepower.effective_range`) and the gap
    from them to the nearest model of ``target``, seen or not."""
    least = gaps_to(unit, target)[1]
    reach = max(effective_range(unit, weapon_of(w)) for _, _, w in carriers)
    return reach, min(least[at] for at, _, _ in carriers)


def left_unfired(
    unit: Unit, target: Unit, spent: Counter[str], dropped: list[str]
) -> list[WeaponLeftUnfired]:
    """Of the weapons ``dropped`` (able to fire at ``target`` when the last weapon was
    selected, not fired, and able no more), those that some model carrying them could
    still fire (:func:`firing_modes.may_fire` with the attack's ``spent``): the
    casualties since took every target model it would fire at out of its range or
    sight (seed 000, step 3), said by :class:`events.WeaponLeftUnfired` with its
    range and the nearest target model's gap from those models."""
    lost = []
    for name in dropped:
        carriers = [
            carrier
            for carrier in _carriers(unit, name)
            if may_fire(spent, unit, carrier[1], name, weapons_per_phase(unit, carrier[1]))
        ]
        if carriers:
            reach, nearest = _reach(unit, target, carriers)
            lost.append(WeaponLeftUnfired(unit.label, name, target.label, reach, nearest))
    return lost
