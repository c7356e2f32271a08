"""Who can see and reach whom: line of sight, range and cover for shooting."""

from __future__ import annotations

from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit


def model_sees(battle: Battle, looker: Model, target: Model) -> bool:
    """True line of sight between two models' centres through the terrain."""
    return battle.battlefield.can_see(looker.position, target.position)


def visible_models(battle: Battle, shooters: list[Model], target: Unit) -> list[Model]:
    """Models of ``target`` that at least one of ``shooters`` can see."""
    return [t for t in target.alive_models if any(model_sees(battle, s, t) for s in shooters)]


def unit_can_see(battle: Battle, unit: Unit, target: Unit) -> bool:
    """Seed 000, step 2: "The unit can shoot at an enemy unit that it can see"."""
    return bool(visible_models(battle, unit.alive_models, target))


def within(model: Model, targets: list[Model], inches: float) -> bool:
    """Whether ``model`` is within ``inches`` of at least one of ``targets``."""
    return any(base_distance(model, t) <= inches for t in targets)


def cover_save(battle: Battle, shooter: Model, target: Model, gone_to_ground: bool) -> int | None:
    """The best cover save ``target`` has against shots from ``shooter``.

    A model in, or seen through, a terrain area with a cover save gets that
    save (the base rules' "25% obscured" judged by the line between the two
    models' centres). Going to Ground improves cover by 1, or gives 6+ where
    there is none (6th/7th-edition Go to Ground).
    """
    areas = battle.battlefield.cover_between(shooter.position, target.position)
    areas += [a for a in battle.battlefield.areas_at(target.position) if a.cover_save]
    values = [a.cover_save for a in areas if a.cover_save is not None]
    best = min(values) if values else None
    return gone_to_ground_cover(best) if gone_to_ground else best


def gone_to_ground_cover(cover: int | None) -> int:
    """The cover save of a unit gone to ground: 1 better (at best 2+), or 6+ with none."""
    return 6 if cover is None else max(2, cover - 1)
