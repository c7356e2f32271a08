"""What the Waffle AI estimates about a unit aboard a transport: can it shoot or charge
if it disembarks now?

The estimate uses the rules' own numbers: disembarking places models within 2"
of the hull (``transports.ACCESS_DISTANCE``), then the unit moves its allowance
(``movement.move_allowance``); a weapon reaches its effective range
(``attacks.effective_range``, with the unit counted as moved, as a disembarked
unit is), a charge at most the ruleset's ``max_charge_range``.
"""

from __future__ import annotations

from hammerlab.editions.waffle.attacks import effective_range
from hammerlab.editions.waffle.movement import move_allowance
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.transports import ACCESS_DISTANCE
from hammerlab.editions.waffle.vehicles import may_charge
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Unit


def gap_after_disembarking(battle: Battle, unit: Unit, transport: Unit) -> float | None:
    """Inches still between the unit and the nearest enemy after it disembarks and
    moves its allowance straight at it (``None``: no enemy on the table)."""
    hull = transport.alive_models[0]
    foes = [m for e in battle.enemies_of(transport) for m in e.alive_models]
    if not foes:
        return None
    nearest = min(base_distance(hull, m) for m in foes)
    return max(0.0, nearest - ACCESS_DISTANCE - move_allowance(unit))


def could_shoot(unit: Unit, gap: float) -> bool:
    """Whether one of the unit's shooting weapons reaches ``gap`` inches."""
    for model in unit.alive_models:
        for weapon in model.weapons:
            profile = weapon_of(weapon)
            if profile.is_ranged and effective_range(unit, profile) >= gap:
                return True
    return False


def wants_to_disembark(battle: Battle, unit: Unit, transport: Unit) -> bool:
    """Disembark when the unit could then shoot or charge an enemy; otherwise stay
    aboard, where no one can shoot it."""
    gap = gap_after_disembarking(battle, unit, transport)
    if gap is None:
        return False
    if may_charge(unit) and gap <= battle.settings.number("max_charge_range"):
        return True
    return could_shoot(unit, gap)
