"""Spawnhood and Dark Apotheosis, the Chaos Boons that turn the champion into a
Chaos Spawn or a Daemon Prince (``chaos_boons.py``).

The boon's text, as a rules question quotes the codex
(dakkadakka.com/dakkaforum/posts/list/496022.page): "The champion is now a
separate, unengaged, non-scoring unit that retains none of the champion's
special rules or wargear." So the champion leaves its unit (it is not slain:
no victory condition counts it) and a new one-model unit of the same player,
of the new form's profile and rules and nothing of the champion's, stands where
it stood, or at the nearest point out of the combat: 1" from every enemy model,
as a model that is not charging must keep (``placement.keeps_clear``).
The profiles and where they come from: docs/rules/waffle.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Final

from hammerlab.editions.waffle.placement import EPSILON, base_on_table, keeps_clear
from hammerlab.editions.waffle.random_attacks import RULE as RANDOM_ATTACKS
from hammerlab.editions.waffle.random_attacks import roll_attacks
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.engine.events import Event
from hammerlab.engine.geometry import Vec, centre_distance
from hammerlab.engine.units import Model, Unit

SEARCH_STEP: Final = 0.5
"""Inches between the rings, and between the points on a ring, tried for its base."""


@dataclass(frozen=True)
class Form:
    """What a champion becomes: the profile as the codex prints it, the unit's
    special rules, its base, and a word for the new unit's id."""

    profile: Profile
    rules: tuple[str, ...]
    base_mm: float
    slug: str


CHAOS_SPAWN: Final = Form(
    Profile(
        "Chaos Spawn",
        {
            "WS": "3",
            "BS": "0",
            "S": "5",
            "T": "5",
            "W": "3",
            "I": "3",
            "A": "D6",
            "Ld": "10",
            "Sv": "-",
        },
        unit_type="Beast",
    ),
    ("Fearless", "Fleet", "Very Bulky", RANDOM_ATTACKS, "Mutated Beyond Reason"),
    60.0,
    "spawn",
)
"""Chaos Spawn (Codex: Chaos Space Marines, 2012), as remembered (docs/rules/waffle.md):
Beast, WS3 BS0 S5 T5 W3 I3 A D6 Ld10, no save; Fearless, Fleet, Very Bulky,
Mutated Beyond Reason (not played); its D6 Attacks are :mod:`random_attacks`."""

DAEMON_PRINCE: Final = Form(
    Profile(
        "Daemon Prince",
        {
            "WS": "9",
            "BS": "5",
            "S": "6",
            "T": "5",
            "W": "4",
            "I": "8",
            "A": "5",
            "Ld": "9",
            "Sv": "-",
        },
        unit_type="Monstrous Creature (Character)",
        invulnerable=5,
    ),
    ("Fear", "Fearless"),
    60.0,
    "prince",
)
"""Daemon Prince (Codex: Chaos Space Marines, 2012), as a 2013 BattleScribe roster
prints it: "Monstrous Creature (Character)|WS:9|BS:5|S:6|T:5|W:4|I:8|A:5|LD:9",
"Rules: Daemon, Fearless"; its 3+ save is the Power Armour it may buy, which the
boon does not give. Daemon is written as what it gives (Warhammer40K.gst: "a 5+
invulnerable save, and also ... the Fear special rule")."""

FORMS: Final[dict[str, Form]] = {"Chaos Spawn": CHAOS_SPAWN, "Daemon Prince": DAEMON_PRINCE}
"""The forms by name, as the Chaos Boon table's rows name them (``Boon.value``)."""


@dataclass(frozen=True)
class ChampionTransformed(Event):
    """Spawnhood or Dark Apotheosis: ``model`` left its unit; ``unit``, a new unit of
    one ``form``, stands at (``x``, ``y``)."""

    kind: ClassVar[str] = "champion transformed"
    model: str
    boon: str
    form: str
    unit: str
    x: float
    y: float

    @property
    def text(self) -> str:
        return (
            f"{self.model}: {self.boon}, now a {self.form} (unit {self.unit}) "
            f"at ({self.x:.1f}, {self.y:.1f})"
        )


def new_model(champion: Model, form: Form) -> Model:
    """The model of ``form`` the champion becomes, at the champion's place for now
    (its id: the new unit's, :func:`form_unit_id`, then ``.1``)."""
    uid = form_unit_id(champion, form)
    wounds = form.profile.number("W")
    return Model(
        f"{uid}.1", form.profile, (), champion.position, base_mm=form.base_mm, wounds_left=wounds
    )


def form_unit_id(champion: Model, form: Form) -> str:
    """The new unit's id: the champion's model id and the form's word."""
    return f"{champion.id}-{form.slug}"


def new_form_spot(battle: Battle, champion: Model, player: str, model: Model) -> Vec | None:
    """Where ``model`` (the champion's new form) stands: the champion's place, or
    the nearest point (on rings :data:`SEARCH_STEP` apart around it) where its
    base is on the table, overlaps no other base (the champion's aside) and is
    at least 1" from every enemy base ("unengaged": :func:`placement.keeps_clear`);
    ``None`` when there is none."""
    others = [(u.player, m) for u in battle.units.values() for m in u.alive_models]
    enemies = [m for owner, m in others if owner != player]
    friends = [m for owner, m in others if owner == player and m is not champion]
    x, y = champion.position
    rings = math.ceil(math.hypot(battle.battlefield.width, battle.battlefield.height) / SEARCH_STEP)
    for ring in range(rings + 1):
        distance = ring * SEARCH_STEP
        count = max(1, math.ceil(2 * math.pi * distance / SEARCH_STEP))
        for k in range(count):
            angle = 2 * math.pi * k / count
            spot = (x + distance * math.cos(angle), y + distance * math.sin(angle))
            if (
                base_on_table(battle, model, spot)
                and keeps_clear(model, spot, enemies)
                and not any(_overlap(model, spot, friend) for friend in friends)
            ):
                return spot
    return None


def _overlap(model: Model, spot: Vec, other: Model) -> bool:
    return centre_distance(spot, other.position) < model.radius + other.radius - EPSILON


def transform(battle: Battle, unit: Unit, champion: Model, boon: str, model: Model) -> Unit:
    """The champion leaves ``unit`` (the unit counts one model fewer from the start,
    so that no victory condition counts it slain; a unit left without a model
    leaves the battle) and ``model``, placed (:func:`new_form_spot`), makes a new
    one-model unit of its form with none of the champion's rules, wargear or
    boons; a model with Random Attacks rolls its Attacks for the Assault phase it
    appears in."""
    form = FORMS[model.profile.name]
    uid = form_unit_id(champion, form)
    x, y = model.position
    battle.emit(ChampionTransformed(champion.id, boon, form.profile.name, uid, x, y))
    unit.models.remove(champion)
    unit.starting_models -= 1
    if not unit.models:
        del battle.units[unit.id]
    if RANDOM_ATTACKS in form.rules:
        roll_attacks(battle, model)
    sheet = Datasheet(
        name=form.profile.name,
        army=unit.datasheet.army,
        edition=unit.datasheet.edition,
        entries=(ModelEntry(model.profile, 1, (), form.base_mm),),
        rules=form.rules,
        source=boon,
    )
    new = Unit(uid, form.profile.name, unit.player, sheet, [model])
    battle.units[uid] = new
    return new
