"""Units and models as they stand on the battlefield during a battle."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import overload

from hammerlab.engine.datasheet import Datasheet, Profile, Weapon, lowered
from hammerlab.engine.geometry import MM_PER_INCH, Vec


class _BaseRadius:
    """:attr:`Model.radius`: the base's radius in inches, worked out at the first
    reading and kept on the model, where later readings find it (a base never changes
    size, and every distance reads it).

    What ``functools.cached_property`` does, without the lock Python 3.11 takes at
    every first reading: a sweep makes every model anew for every battle and reads
    every model's radius, and that lock cost a microsecond a model."""

    @overload
    def __get__(self, model: None, owner: type) -> _BaseRadius: ...
    @overload
    def __get__(self, model: Model, owner: type | None = None) -> float: ...
    def __get__(self, model: Model | None, owner: type | None = None) -> float | _BaseRadius:
        if model is None:  # read off the class (documentation tools): the descriptor
            return self
        radius: float = model.base_mm / MM_PER_INCH / 2.0
        model.__dict__["radius"] = radius
        return radius


@dataclass
class Model:
    """One model: profile, wargear, base, position and wounds left."""

    id: str
    profile: Profile
    weapons: tuple[Weapon, ...]
    position: Vec
    base_mm: float = 25.0
    wounds_left: int = 1
    rules: tuple[str, ...] = ()
    """Special rules of this model alone (a character's, say)."""
    powers: tuple[Weapon, ...] = ()
    """Psychic powers the model knows (``ModelEntry.powers``)."""

    @property
    def name(self) -> str:
        """The profile name (``Space Marine``)."""
        return self.profile.name

    radius = _BaseRadius()

    @property
    def alive(self) -> bool:
        """Whether the model is still on the table."""
        return self.wounds_left > 0

    def weapon(self, name: str) -> Weapon | None:
        """The model's weapon called ``name``, if it has one."""
        for weapon in self.weapons:  # a loop, not next(generator): asked on every estimate
            if weapon.name == name:
                return weapon
        return None


@dataclass(slots=True)
class UnitStatus:
    """What a unit did in its turn, in words every edition shares; an edition keeps
    the rest of what it remembers about units in the battle's edition state."""

    moved: bool = False
    advanced: bool = False
    charged: bool = False


@dataclass
class Unit:
    """A unit in play."""

    id: str
    name: str
    player: str
    datasheet: Datasheet
    models: list[Model]
    status: UnitStatus = field(default_factory=UnitStatus)
    starting_models: int = 0

    def __post_init__(self) -> None:
        if not self.starting_models:
            self.starting_models = len(self.models)

    @property
    def alive_models(self) -> list[Model]:
        """Models still on the table."""
        return [m for m in self.models if m.wounds_left > 0]  # Model.alive, inlined: hot

    @property
    def destroyed(self) -> bool:
        """Whether every model is gone (a plain loop, neither a list nor a generator:
        asked of every unit whenever units are listed)."""
        for m in self.models:  # noqa: SIM110 (all() of a generator: twice as slow)
            if m.wounds_left > 0:
                return False
        return True

    @property
    def rules(self) -> tuple[str, ...]:
        """The unit's special rules."""
        return self.datasheet.rules

    def has_rule(self, name: str) -> bool:
        """Whether the unit, or any of its models alive, has the rule ``name``."""
        wanted = name.lower()
        if wanted in lowered(self.datasheet.rules):
            return True
        for m in self.models:  # a plain loop: asked of every unit on every estimate
            if m.rules and m.wounds_left > 0 and wanted in lowered(m.rules):
                return True
        return False

    def weapon_names(self) -> list[str]:
        """Distinct weapon names carried by models alive, first-seen order."""
        names: dict[str, None] = {}
        for model in self.alive_models:
            for weapon in model.weapons:
                names.setdefault(weapon.name, None)
        return list(names)

    @property
    def label(self) -> str:
        """How the log names the unit."""
        return f"{self.name} [{self.id}]"
