"""Exact odds of a volley at one vehicle: glancing, penetrating, Wrecked, Explodes!.

The hits come from :func:`odds.hit_distribution`; each hit is followed through
the same rules the battle rolls (:func:`armour.penetration_chances`, the saves
of :func:`allocation.saves_against`, :func:`vehicle_damage.damage_chances`),
as a chain over the vehicle's state: Hull Points left, Immobilised or not,
weapons left (a Weapon Destroyed with none left Immobilises, an Immobilised
result on an Immobilised vehicle takes another Hull Point), destroyed or not.
Hits on a destroyed vehicle are lost, as in the battle.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import prod

from hammerlab.editions.waffle.allocation import saves_against
from hammerlab.editions.waffle.armour import (
    GLANCING,
    PENETRATING,
    ArmourAttack,
    armour_attack,
    penetration_chances,
)
from hammerlab.editions.waffle.characteristics import invulnerable_save
from hammerlab.editions.waffle.estimate import p_at_least
from hammerlab.editions.waffle.odds import Volley, hit_distribution
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.vehicle_damage import (
    EXPLODES,
    IMMOBILISED,
    WEAPON_DESTROYED,
    WRECKED,
    blow_facing,
    damage_chances,
    damage_modifier,
)
from hammerlab.editions.waffle.vehicles import SIDE, facing_of, is_immobilised, vehicle_of
from hammerlab.editions.waffle.visibility import cover_save
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit


@dataclass(frozen=True)
class VehicleTarget:
    """One vehicle, from the facing the firers stand in."""

    armour: int
    """The Armour Value of that facing."""
    hull_points: int
    open_topped: bool = False
    weapons: int = 1
    """Weapons it carries, a pair of one name counted twice (each Weapon Destroyed takes
    one: ``vehicle_damage._destroy_weapon``; with none left it Immobilises it)."""
    invulnerable: int | None = None
    cover: int | None = None
    immobilised: bool = False
    """Already Immobilised (another Immobilised result takes a Hull Point)."""
    super_heavy: bool = False
    """A Super-heavy vehicle: penetrating hits roll nothing on the Vehicle Damage table
    (:func:`vehicle_damage.damage_vehicle`)."""


@dataclass(frozen=True)
class VehicleOdds:
    """Chances of what a volley does to one vehicle."""

    glancing: float
    """At least one glancing hit (not saved)."""
    penetrating: float
    """At least one penetrating hit (not saved)."""
    wrecked: float
    explodes: float
    hull_points_lost: tuple[float, ...]
    """Probability of each number of Hull Points lost (index = Hull Points)."""

    @property
    def destroyed(self) -> float:
        """Wrecked or Exploded."""
        return self.wrecked + self.explodes


_State = tuple[int, bool, int, str, bool, bool]
"""(Hull Points left, Immobilised, weapons left, ``""``/Wrecked/Explodes!, glanced, penetrated)."""


def _after(state: _State, outcome: str, result: str) -> _State:
    """The state after one unsaved hit of ``outcome`` with damage ``result``
    (``vehicle_damage.damage_vehicle``)."""
    hp, immobile, weapons, _, glanced, penned = state
    hp -= 1
    glanced, penned = glanced or outcome == GLANCING, penned or outcome == PENETRATING
    if result == EXPLODES:
        return hp, immobile, weapons, EXPLODES, glanced, penned
    if result == WEAPON_DESTROYED:
        if weapons:
            weapons -= 1
        else:
            result = IMMOBILISED
    if result == IMMOBILISED:
        hp -= int(immobile)
        immobile = True
    return hp, immobile, weapons, WRECKED if hp <= 0 else "", glanced, penned


@lru_cache(maxsize=4096)
def vehicle_odds(fired: Volley, attack: ArmourAttack, target: VehicleTarget) -> VehicleOdds:
    """The exact odds of ``fired`` (its hits at ``attack``) at ``target``.

    Remembered: a function of three immutable values, which the AI asks again and
    again (995 times for 18 questions in four battles of the Leman Russ example)."""
    ap = fired.weapon.ap
    cover = None if fired.weapon.ignores_cover else target.cover
    saves = saves_against(ap, None, target.invulnerable, cover)
    unsaved = prod(1.0 - p_at_least(needed) for _, needed in saves)
    chances = penetration_chances(attack, target.armour)
    table = (
        {"": Fraction(1)}
        if target.super_heavy
        else damage_chances(damage_modifier(ap, target.open_topped))
    )
    per_hit: list[tuple[str, str, float]] = [
        (GLANCING, "", float(chances[GLANCING]) * unsaved),
        *((PENETRATING, r, float(chances[PENETRATING] * p) * unsaved) for r, p in table.items()),
    ]
    start: _State = (target.hull_points, target.immobilised, target.weapons, "", False, False)
    states: dict[_State, float] = {start: 1.0}
    ending: dict[_State, float] = {}
    for count, p_count in enumerate(hit_distribution(fired)):
        if count:
            states = _one_more_hit(states, per_hit)
        for state, p in states.items():
            ending[state] = ending.get(state, 0.0) + p * float(p_count)
    lost = [0.0] * (target.hull_points + 1)
    for (hp, *_), p in ending.items():
        lost[min(target.hull_points, target.hull_points - hp)] += p
    return VehicleOdds(
        glancing=sum(p for s, p in ending.items() if s[4]),
        penetrating=sum(p for s, p in ending.items() if s[5]),
        wrecked=sum(p for s, p in ending.items() if s[3] == WRECKED),
        explodes=sum(p for s, p in ending.items() if s[3] == EXPLODES),
        hull_points_lost=tuple(lost),
    )


def _one_more_hit(
    states: dict[_State, float], per_hit: list[tuple[str, str, float]]
) -> dict[_State, float]:
    after: dict[_State, float] = {}
    for state, p in states.items():
        if state[3]:  # destroyed: the hit is lost
            after[state] = after.get(state, 0.0) + p
            continue
        nothing = 1.0 - sum(chance for _, _, chance in per_hit)
        after[state] = after.get(state, 0.0) + p * nothing
        for outcome, result, chance in per_hit:
            nxt = _after(state, outcome, result)
            after[nxt] = after.get(nxt, 0.0) + p * chance
    return after


def hit_value(
    battle: Battle,
    target: Unit,
    firer: Model,
    weapon: WeaponProfile,
    strength: int,
    melee: bool = False,
) -> float:
    """The AI's worth of one hit of ``weapon`` from ``firer`` on vehicle unit ``target``,
    in vehicles: the chance this hit destroys the closest vehicle, or the share of
    its Hull Points left it is expected to take, whichever is more (its state now:
    Hull Points left, Immobilised, weapons left; the facing the firer stands in;
    Melta within half range; its cover from the firer). A ``melee`` blow strikes
    the facing :func:`vehicle_damage.blow_facing` gives, with no cover."""
    model = min(target.alive_models, key=lambda m: base_distance(firer, m))
    vehicle = vehicle_of(model.profile)
    assert vehicle is not None
    if melee:
        facing = blow_facing(vehicle)
    else:
        facing = SIDE if weapon.barrage else facing_of(battle, target, model, firer.position)
    half = not melee and weapon.range is not None
    half = half and base_distance(firer, model) <= (weapon.range or 0.0) / 2
    attack = armour_attack(weapon, strength, half_range=half, tank_hunters=False)
    aim = VehicleTarget(
        armour=vehicle.armour(facing),
        hull_points=model.wounds_left,
        open_topped=vehicle.has_type("Open-topped"),
        weapons=len(model.weapons),
        invulnerable=invulnerable_save(battle, target, model),
        cover=None if melee else cover_save(battle, firer, target, model, gone_to_ground=False),
        immobilised=is_immobilised(battle, target, model),
        super_heavy=vehicle.super_heavy,
    )
    odds = vehicle_odds(Volley(weapon, strength, hits=1), attack, aim)
    lost = sum(i * p for i, p in enumerate(odds.hull_points_lost))
    return max(odds.destroyed, lost / max(1, model.wounds_left))
