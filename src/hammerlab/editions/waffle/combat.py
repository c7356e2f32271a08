"""Who is locked in combat with whom, measured on the table.

6th/7th edition: a unit is locked in combat while any of its models is in
base contact with an enemy model. A model is *engaged* (it fights) when it is
in base contact with an enemy model, or within 2" of a friendly model of its
unit that is. A *combat* is a group of units linked by base contact; a
multiple combat has more than two units.
"""

from __future__ import annotations

from dataclasses import dataclass

from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import fights_in_melee
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance, gap_table, out_of_reach
from hammerlab.engine.units import Model, Unit

CONTACT = 0.05
"""Bases closer than this (inches) touch: room for rounding when models move."""
ENGAGED_SUPPORT = 2.0


def in_contact(a: Model, b: Model) -> bool:
    """Whether two bases touch."""
    return base_distance(a, b) <= CONTACT


def units_in_contact(a: Unit, b: Unit) -> bool:
    """Whether any model of ``a`` touches any model of ``b``."""
    ours, theirs = a.alive_models, b.alive_models
    if out_of_reach(ours, theirs, CONTACT):  # far apart: no table needed
        return False
    return any(gap <= CONTACT for row in gap_table(ours, theirs) for gap in row)


def foes_in_contact(battle: Battle, unit: Unit) -> list[Unit]:
    """Enemy units in base contact with ``unit``."""
    return [e for e in battle.enemies_of(unit) if units_in_contact(unit, e)]


def engaged_models(battle: Battle, unit: Unit) -> list[Model]:
    """Models of ``unit`` that fight: in contact, or within 2" of a friend in contact.

    Both measured with :func:`gap_table` (the :func:`base_distance` of every pair,
    remembered while the models stand still), as :func:`in_contact` measures one pair.
    """
    ours = unit.alive_models
    enemies = [m for e in battle.enemies_of(unit) for m in e.alive_models]
    touching = [
        at for at, gaps in enumerate(gap_table(ours, enemies)) if any(g <= CONTACT for g in gaps)
    ]
    if not touching:
        return []
    near = gap_table(ours, [ours[at] for at in touching])
    return [
        m
        for at, m in enumerate(ours)
        if at in touching or any(g <= ENGAGED_SUPPORT for g in near[at])
    ]


@dataclass(frozen=True)
class Combat:
    """Units linked by base contact, by player."""

    units: tuple[Unit, ...]

    def side(self, player: str) -> list[Unit]:
        """The combat's units of ``player``."""
        return [u for u in self.units if u.player == player]

    @property
    def players(self) -> list[str]:
        """Players with units in the combat, in order of first appearance."""
        return list(dict.fromkeys(u.player for u in self.units))


def combats(battle: Battle) -> list[Combat]:
    """Every combat on the table, in a stable order (by the first unit's id)."""
    alive = sorted((u for u in battle.units.values() if not u.destroyed), key=lambda u: u.id)
    seen: set[str] = set()
    found: list[Combat] = []
    for unit in alive:
        if unit.id in seen or not foes_in_contact(battle, unit):
            continue
        group: list[Unit] = []
        frontier = [unit]
        while frontier:
            current = frontier.pop()
            if current.id in seen:
                continue
            seen.add(current.id)
            group.append(current)
            frontier += [e for e in foes_in_contact(battle, current) if e.id not in seen]
        found.append(Combat(tuple(sorted(group, key=lambda u: u.id))))
    return found


def refresh_locks(battle: Battle) -> None:
    """Set every unit's ``locked_in_combat`` from the table.

    7th edition (as remembered): "vehicles without a Weapon Skill are never
    locked in combat", nor is a unit whose only foes in base contact are such
    vehicles: the tank may drive off and shoot, its attackers may move, shoot
    or charge, and whoever is still in base contact fights again in a Fight
    sub-phase (:func:`combats` counts every base contact). Walkers, which have
    a Weapon Skill, lock and are locked as any unit (docs/rules/waffle.md,
    *Vehicles*, interpretation 9)."""
    for unit in battle.units.values():
        st(battle, unit).locked_in_combat = (
            not unit.destroyed
            and any(locks(foe) for foe in foes_in_contact(battle, unit))
            and locks(unit)  # asked only of a unit in contact: most are in none
        )


def locks(unit: Unit) -> bool:
    """Whether base contact with ``unit`` locks in combat: not a vehicle without a
    Weapon Skill (one whose models alive all strike no blow, :func:`fights_in_melee`)."""
    return any(fights_in_melee(m) for m in unit.alive_models)
