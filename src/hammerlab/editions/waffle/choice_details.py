"""What a person is told of each place a unit may be set down (``Decision.describe``).

Deep Strike, Outflank, Infiltrate and Scout offer a unit's player dozens of
points, labelled by their coordinates: the label names the answer in the log,
a replay and the lab's tallies, and says nothing a player can choose by. The
texts here say what the rules make of a place: how far the unit would stand
from the nearest enemy unit (7th edition measures "from the closest model in
one unit to the closest model in the other", base to base: a weapon's range, a
charge's reach), and the terrain it would stand in (cover, difficult or
dangerous terrain). They are worked out only when a person is asked
(``PromptController``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Vec, centre_distance
from hammerlab.engine.units import Unit


def nearest_enemy(battle: Battle, unit: Unit, spots: Sequence[Vec]) -> tuple[Unit, float] | None:
    """The enemy unit on the table nearest ``unit`` with its models alive set at
    ``spots`` (in order), and the gap between their closest bases in inches
    (``None``: no enemy on the table)."""
    models = unit.alive_models
    found: tuple[Unit, float] | None = None
    for enemy in battle.enemies_of(unit):
        gap = min(
            centre_distance(spot, other.position) - model.radius - other.radius
            for model, spot in zip(models, spots, strict=True)
            for other in enemy.alive_models
        )
        if found is None or gap < found[1]:
            found = (enemy, gap)
    return found


def nearness(battle: Battle, unit: Unit, spots: Sequence[Vec]) -> str:
    """``9.5" from Ork Boyz [boyz]``: the gap to the nearest enemy unit
    (:func:`nearest_enemy`), or ``no enemy on the table``."""
    found = nearest_enemy(battle, unit, spots)
    if found is None:
        return "no enemy on the table"
    enemy, gap = found
    return f'{max(gap, 0.0):.1f}" from {enemy.label}'


def terrain_text(battle: Battle, spots: Sequence[Vec]) -> str:
    """``in Ruined manufactorum (4+ cover, difficult)``: the terrain areas any of
    ``spots`` lies in, with what each does, or ``""`` in the open."""
    field = battle.battlefield
    areas = list(dict.fromkeys(area for spot in spots for area in field.areas_at(spot)))
    if not areas:
        return ""
    described = []
    for area in areas:
        what = [f"{area.cover_save}+ cover"] if area.cover_save else []
        what += ["difficult"] if area.difficult else []
        what += ["dangerous"] if area.dangerous else []
        described.append(f"{area.name} ({', '.join(what)})" if what else area.name)
    return "in " + ", ".join(described)


def describe_spots(battle: Battle, unit: Unit, spots: Sequence[Vec]) -> str:
    """The nearest enemy unit (:func:`nearness`), then the terrain
    (:func:`terrain_text`) of the unit's models set at ``spots``."""
    terrain = terrain_text(battle, spots)
    return ", ".join(part for part in (nearness(battle, unit, spots), terrain) if part)


def describe_shift(battle: Battle, unit: Unit, where: bool = False) -> Callable[[Vec | None], str]:
    """How a choice that moves the whole unit by a vector (Infiltrate, Scout, Outflank)
    is described: :func:`describe_spots` of its models moved so; with ``where``,
    first the unit's centre there (``to (36.0, 20.0)``: for a label that gives only
    the vector). A choice without a vector (stay, deploy normally) has no text."""

    def describe(shift: Vec | None) -> str:
        if shift is None:
            return ""
        models = unit.alive_models
        spots = [(m.position[0] + shift[0], m.position[1] + shift[1]) for m in models]
        text = describe_spots(battle, unit, spots)
        if not where:
            return text
        x = sum(s[0] for s in spots) / len(spots)
        y = sum(s[1] for s in spots) / len(spots)
        return f"to ({x:.1f}, {y:.1f}), {text}"

    return describe


def percent(chance: float) -> str:
    """A chance as a whole percentage; ``<1%`` for one that rounds to nothing but is not."""
    if 0.0 < chance < 0.005:
        return "<1%"
    return f"{chance:.0%}"
