"""One unit fights (12.05 Normal Fight: "Your unit fights as described in Making
Attacks (04)."): melee weapons, targets, attacks.

The dice are those of a shooting attack (``attacks.resolve_battery``, with a
:class:`FireControl` marked ``melee``: no cover, no half range, an invulnerable
save limited to ranged attacks does not count), so every weapon keyword
resolves as it does for ranged attacks ([LANCE] after a charge move, [LETHAL
HITS], [SUSTAINED HITS], [DEVASTATING WOUNDS], [ANTI-X], [PRECISION],
[TWIN-LINKED], [HAZARDOUS]).

Making Attacks (04) is not quoted by hammerlab's sources for melee; hammerlab
reads it as the 10th edition has it (as remembered: "each time a model makes a
melee attack, the target must be an enemy unit within Engagement Range of that
model"; a model may split its attacks between such units): each model selects one
of its melee weapons (a weapon with [EXTRA ATTACKS] is used in addition), and
selects its target among the enemy units it is within engagement range (2") of.
Models with the same weapon profile that are engaged with the same enemy units
select one target together (one decision); models engaged with different enemy
units select apart, so a unit fighting two enemy units can attack both with one
weapon (review s24, core11 1: one target per profile left the models engaged
only with the other unit without attacks). A model engaged with no enemy unit
makes no melee attacks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hammerlab.editions.core11.attacks import (
    Battery,
    resolve_battery,
    take_hazardous_tests,
    unresolved,
)
from hammerlab.editions.core11.events import TargetSelected
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import (
    ENGAGEMENT_RANGE,
    distance_to,
    engaged_with,
    unit_distance,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import readable
from hammerlab.editions.core11.weapons import WeaponProfile
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Model, Unit

MELEE = FireControl("melee", melee=True)
"""The limits on a fighting unit's attacks: melee weapons, no cover (13.08 is for
ranged attacks)."""
MELEE_WEAPON = "melee-weapon"
"""The decision of a model with several melee weapons."""


@dataclass(frozen=True)
class Reach:
    """Models of a fighting unit with one melee weapon profile (``battery``) and the
    enemy units every one of them is engaged with, closest first: the targets they may
    select."""

    battery: Battery
    foes: tuple[Unit, ...]


def _melee_weapons(game: Core11Game, model: Model) -> list[tuple[Weapon, WeaponProfile]]:
    found = []
    for weapon in model.weapons:
        profile = readable(game, weapon)
        if profile is not None and profile.melee:
            found.append((weapon, profile))
    return found


def melee_batteries(game: Core11Game, unit: Unit, foes: list[Unit]) -> list[Reach]:
    """The melee weapons each model of ``unit`` attacks with, one :class:`Battery` for
    the models of one profile engaged with the same enemy units of ``foes``, with those
    units (in the order of ``foes``): each battery selects its own target among them.
    The models of a profile engaged with none of ``foes`` are a battery with no foes:
    they make no attacks.

    Models of one kind carrying the same weapons choose alike (one decision for
    them, asked in the order of their first model)."""
    armed = [(model, _melee_weapons(game, model)) for model in unit.alive_models]
    alike: dict[tuple[str, tuple[str, ...]], list[Model]] = {}
    for model, carried in armed:
        names = tuple(w.name for w, p in carried if not p.has("EXTRA ATTACKS"))
        if names:
            alike.setdefault((model.name, names), []).append(model)
    chosen: dict[str, str] = {}
    for (name, names), models in alike.items():
        picked = game.choose(
            Decision(
                MELEE_WEAPON,
                unit.player,
                f"{unit.label}: {name} fights with which melee weapon?",
                tuple(Choice(w, w) for w in names),
                DecisionContext(unit=unit.id, models=tuple(m.id for m in models)),
            )
        )
        chosen.update((m.id, picked) for m in models)
    groups: dict[tuple[str, tuple[str, ...]], Reach] = {}
    for model, carried in armed:
        near = tuple(f for f in foes if may_fight(model, f))
        used = [(w, p) for w, p in carried if p.has("EXTRA ATTACKS")]
        main = [(w, p) for w, p in carried if not p.has("EXTRA ATTACKS")]
        used += [(w, p) for w, p in main if w.name == chosen.get(model.id)][:1]
        for weapon, profile in used:
            key = (profile.name, tuple(f.id for f in near))
            group = groups.setdefault(key, Reach(Battery(weapon, profile, []), near))
            group.battery.models.append(model)
    return list(groups.values())


def may_fight(model: Model, target: Unit) -> bool:
    """Whether ``model`` attacks ``target`` with a melee weapon: alive and within
    engagement range of one of its models."""
    return model.alive and distance_to(model, target) <= ENGAGEMENT_RANGE


def fight(game: Core11Game, unit: Unit) -> list[str]:
    """``unit`` makes its melee attacks; returns the ids of the units it attacked."""
    with game.attacks_under(MELEE):
        return _fight(game, unit)


def _fight(game: Core11Game, unit: Unit) -> list[str]:
    """:func:`fight`, its decisions asked while :attr:`Core11Game.attacking` is melee."""
    foes = sorted(engaged_with(game.battle, unit), key=lambda e: unit_distance(unit, e))
    groups = melee_batteries(game, unit, foes)
    reaching = [g for g in groups if g.foes]
    if not reaching:
        game.battle.say("fight", f"  {unit.label}: no melee weapon or no enemy in reach")
        return []
    split = Counter(g.battery.weapon.name for g in reaching)
    aimed: dict[tuple[str, str], Battery] = {}  # by profile and target: one battery each
    for group in reaching:
        battery = group.battery
        ids = tuple(m.id for m in battery.models)
        which = f" ({', '.join(ids)})" if split[battery.weapon.name] > 1 else ""
        target: str = game.choose(
            Decision(
                "target",
                unit.player,
                f"{unit.label}: target for {battery.weapon.name}{which}?",
                tuple(Choice(t.label, t.id) for t in group.foes),
                DecisionContext(unit=unit.id, weapon=battery.weapon.name, models=ids),
            )
        )
        joined = aimed.get((battery.profile.name, target))
        if joined is not None:
            joined.models.extend(battery.models)
            continue
        chosen = game.battle.unit(target)
        battery.target, battery.target_models = target, len(chosen.alive_models)
        aimed[battery.profile.name, target] = battery
        game.battle.emit(TargetSelected(unit.label, battery.weapon.name, chosen.label))
    batteries = list(aimed.values())
    for group in groups:
        if not group.foes and group.battery.weapon.name not in split:
            unresolved(game, unit, group.battery, None, "none_engaged", True)
    attacked: list[str] = []
    for battery in batteries:
        assert battery.target is not None
        target_unit = game.battle.unit(battery.target)
        if target_unit.destroyed:
            unresolved(game, unit, battery, target_unit, "target_gone", True)
            continue
        if battery.target not in attacked:
            attacked.append(battery.target)
        striking = [m for m in battery.models if may_fight(m, target_unit)]
        resolve_battery(game, unit, battery, striking, MELEE)
    take_hazardous_tests(game, unit, batteries)
    return attacked
