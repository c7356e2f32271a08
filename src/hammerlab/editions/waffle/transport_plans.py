"""What the Waffle AI estimates about a unit aboard a transport: can it shoot or charge
if it disembarks now?

The estimate uses the rules' own numbers: disembarking places models within 2"
of the hull (``transports.ACCESS_DISTANCE``) and counts as the unit's move
(``transports.disembark``); a weapon reaches its effective range and fires Snap
Shots or not as the battle asks it of a unit that moved (``firepower.effective_range``,
``snap_shots.fires_snap``); a charge, after the unit's move
(``movement.move_allowance``), reaches at most the ruleset's ``max_charge_range``.
"""

from __future__ import annotations

from hammerlab.editions.waffle.firepower import effective_range
from hammerlab.editions.waffle.movement import move_allowance
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.snap_shots import fires_snap
from hammerlab.editions.waffle.transports import ACCESS_DISTANCE
from hammerlab.editions.waffle.vehicles import may_charge
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Unit


def gap_after_disembarking(battle: Battle, unit: Unit, transport: Unit) -> float | None:
    """Inches still between the unit and the nearest enemy once it is set down within
    2" of the hull, before it moves (``None``: no enemy on the table)."""
    hull = transport.alive_models[0]
    foes = [m for e in battle.enemies_of(transport) for m in e.alive_models]
    if not foes:
        return None
    nearest = min(base_distance(hull, m) for m in foes)
    return max(0.0, nearest - ACCESS_DISTANCE)


def could_shoot(battle: Battle, unit: Unit, gap: float) -> bool:
    """Whether one of the unit's shooting weapons, once it has disembarked, would fire
    in full at ``gap`` inches: asked of a copy of the unit counted as having moved,
    as a disembarked unit is, its effective range reaching ``gap``
    (:func:`firepower.effective_range`: a Salvo weapon's halved) and firing no Snap
    Shots (:func:`snap_shots.fires_snap`: a Heavy weapon after moving, unless the unit
    is Relentless; an Ordnance or Blast one, which cannot, would not fire at all)."""
    moved = unit.copy()
    moved.status.moved = True
    for model in moved.alive_models:
        for weapon in model.weapons:
            profile = weapon_of(weapon)
            if (
                profile.is_ranged
                and effective_range(moved, profile) >= gap
                and not fires_snap(battle, moved, profile, FireOrders())
            ):
                return True
    return False


def wants_to_disembark(battle: Battle, unit: Unit, transport: Unit) -> bool:
    """Disembark when the unit could then charge an enemy (after its move), or shoot
    one from where it is set down with a weapon that fires in full there
    (:func:`could_shoot`); otherwise stay aboard, where no one can shoot it.

    Its shooting is counted from where it is set down, not after its move: the move
    heuristic may well hold it there (a gun line, ``move_plans.holds_for_its_guns``),
    and a Heavy weapon, which fires Snap Shots after disembarking, gains next to
    nothing. Until session 22 (a referee's review) one weapon reaching after a full
    move was enough: an Infantry Squad left its Chimera 28" from the enemy for its
    heavy bolter, held, and fired it as Snap Shots with one lasgun in range."""
    gap = gap_after_disembarking(battle, unit, transport)
    if gap is None:
        return False
    charge = gap - move_allowance(unit)
    if may_charge(unit) and charge <= battle.settings.number("max_charge_range"):
        return True
    return could_shoot(battle, unit, gap)
