"""Snap Shots: when a weapon fires them, and why (seed 000, the 6th/7th-edition rules).

A weapon fires Snap Shots for the first cause :func:`snap_cause` finds (the orders,
shooting into a melee, a Shaken or Stunned crew, a Jink, going to ground, falling
back, regrouping, moving with a Heavy weapon, a Zooming Flyer's target); a Blast or
Template that would fire them does not fire (:func:`no_snap_shots`). Whether a unit
counts as moved for its weapons (:func:`moved_for_weapons`) is read here too: it is
one of the causes, and what halves a moving Salvo's range and shots.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from hammerlab.editions.waffle.flyers import snap_against
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.special_rules import relentless
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import (
    crew_snap_shots,
    has_vehicle_alive,
    is_vehicle,
    whole_crew_snaps,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Model, Unit


def no_snap_shots(
    battle: Battle, unit: Unit, target: Unit, weapon_name: str, orders: FireOrders
) -> str | None:
    """``"<weapon> cannot be fired as Snap Shots (<why it would>)"`` where a model of
    ``unit`` carrying ``weapon_name`` would fire Snap Shots (:func:`snap_cause`) and the
    weapon cannot (a Blast, a Template); else ``None``."""
    for model in unit.alive_models:
        weapon = model.weapon(weapon_name)
        if weapon is not None:
            profile = weapon_of(weapon)
            cause = snap_cause(battle, unit, profile, orders, target, model)
            if cause is not None and not profile.can_snap_fire:
                return f"{weapon_name} cannot be fired as Snap Shots ({cause.value})"
    return None


def moved_for_weapons(unit: Unit) -> bool:
    """Whether the unit counts as moved for Heavy/Salvo/Ordnance: it moved, and moving
    changes how it fires them (:func:`moving_changes_weapons`)."""
    return unit.status.moved and moving_changes_weapons(relentless(unit), is_vehicle(unit))


def moving_changes_weapons(is_relentless: bool, vehicle: bool) -> bool:
    """Whether a unit that moved fires its Heavy, Salvo and Ordnance weapons as one that
    moved (Snap Shots, a Salvo's lower number): not when it is Relentless, nor when it
    is a vehicle, which fires at full BS after moving at Combat Speed (7th edition;
    hammerlab moves vehicles at Combat Speed only). What the exact odds ask of a
    datasheet's firers too (``analysis.odds_waffle``), given the same two facts."""
    return not is_relentless and not vehicle


class SnapCause(Enum):
    """Why a weapon fires Snap Shots (:func:`snap_cause`), in the words a person is told
    it in (``Mortar cannot be fired as Snap Shots (the unit moved)``)."""

    SNAP_ORDERS = "Overwatch and Return Fire! are Snap Shots"
    INTO_MELEE = "it shoots into a melee"
    CREW = "its crew is Shaken or Stunned"
    JINKED = "the unit Jinked"
    GONE_TO_GROUND = "the unit has gone to ground"
    FALLING_BACK = "the unit is falling back"
    REGROUPED = "the unit regrouped this turn"
    MOVED = "the unit moved"
    AT_TARGET = "only Snap Shots may be fired at the target (a Zooming Flyer; Skyfire)"


def fires_snap(
    battle: Battle,
    unit: Unit,
    profile: WeaponProfile,
    orders: FireOrders,
    target: Unit | None = None,
    model: Model | None = None,
) -> bool:
    """Whether this weapon fires Snap Shots (at ``target``, when one is given), fired
    by ``model`` of the unit (``None``: by the unit as a whole): where
    :func:`snap_cause` finds a cause."""
    return snap_cause(battle, unit, profile, orders, target, model) is not None


def snap_cause(
    battle: Battle,
    unit: Unit,
    profile: WeaponProfile,
    orders: FireOrders,
    target: Unit | None = None,
    model: Model | None = None,
) -> SnapCause | None:
    """Why this weapon fires Snap Shots (at ``target``, when one is given), fired by
    ``model`` of the unit (``None``: by the unit as a whole), the first cause of these
    that holds; ``None`` where it fires normally.

    Seed 000: "a model with a Heavy weapon … moves and shoots in the same
    turn"; 6th/7th-edition: units gone to ground or falling back snap fire, and a
    unit that regrouped this turn "can only fire Snap Shots" (``movement_phase.regroup``);
    seed 001: shooting into a melee is "a snap shot"; 7th edition: a vehicle
    whose crew is Shaken or Stunned "can only fire Snap Shots" (that vehicle,
    :func:`vehicles.crew_snap_shots`: asked of the unit, when every vehicle of it
    does, :func:`vehicles.whole_crew_snaps`; its other models' shots are
    :func:`snaps_of`); a unit that Jinked "can only fire Snap Shots until the end
    of their next turn"; Zooming Flyers "can only be hit by Snap Shots", and
    Skyfire (:func:`flyers.snap_against`).
    """
    status = st(battle, unit)
    if orders.snap:
        return SnapCause.SNAP_ORDERS
    if orders.into_melee:
        return SnapCause.INTO_MELEE
    if whole_crew_snaps(battle, unit) if model is None else crew_snap_shots(battle, model):
        return SnapCause.CREW
    if status.jink_snap_turns > 0:
        return SnapCause.JINKED
    if status.gone_to_ground:
        return SnapCause.GONE_TO_GROUND
    if status.falling_back:
        return SnapCause.FALLING_BACK
    if status.regrouped:
        return SnapCause.REGROUPED
    if profile.is_heavy_like and moved_for_weapons(unit):
        return SnapCause.MOVED
    if target is not None and snap_against(target, profile):
        return SnapCause.AT_TARGET
    return None


def snaps_of(battle: Battle, unit: Unit, models: Sequence[Model], snap: bool) -> list[bool]:
    """Whether each of ``models`` of ``unit`` fires Snap Shots, ``snap`` being what
    :func:`fires_snap` says of the unit as a whole: a vehicle of a squadron whose own
    crew is Shaken or Stunned, or that Rammed, does (:func:`vehicles.crew_snap_shots`),
    its squadmates as the unit does. A unit with no vehicle alive reads no vehicle
    status (:func:`vehicles.has_vehicle_alive`); one model is asked alone, no make-up
    read (a model that is no vehicle never snaps by its crew)."""
    if snap:
        return [snap] * len(models)
    if len(models) == 1:
        return [crew_snap_shots(battle, models[0])]
    if not has_vehicle_alive(unit):
        return [snap] * len(models)
    return [crew_snap_shots(battle, model) for model in models]
