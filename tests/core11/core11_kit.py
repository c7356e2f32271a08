"""Small builders for core11 tests: datasheets, units at positions, battles, games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeVar

from hammerlab.editions.base import apply_rules
from hammerlab.editions.core11.abilities import install
from hammerlab.editions.core11.ruleset import Core11Ruleset
from hammerlab.editions.core11.shooting import SHOOTING
from hammerlab.editions.core11.state import Core11Game
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.controllers import FirstChoiceController, ScriptedController
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.decisions import Controller
from hammerlab.engine.dice import Dice, ScriptedDice
from hammerlab.engine.events import Event
from hammerlab.engine.geometry import Vec
from hammerlab.engine.units import Model, Unit
from phase_kit import run_phase


@cache
def ruleset() -> Core11Ruleset:
    """One shared ruleset (the wh40kdc dataset loads once)."""
    return Core11Ruleset()


def gun(
    name: str = "gun",
    range_: int = 24,
    attacks: str = "1",
    bs: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: str = "1",
    keywords: Iterable[str] = (),
) -> Weapon:
    """A ranged weapon in core11's datasheet spelling."""
    return Weapon(
        name,
        {
            "Range": f'{range_}"',
            "A": attacks,
            "BS": f"{bs}+",
            "S": str(strength),
            "AP": str(ap),
            "D": damage,
        },
        tuple(keywords),
    )


def sheet(
    name: str = "Squad",
    count: int = 1,
    weapons: Sequence[Weapon] = (),
    toughness: int = 4,
    save: int = 3,
    wounds: int = 1,
    keywords: Iterable[str] = ("INFANTRY",),
    rules: Iterable[str] = (),
    invulnerable: int | None = None,
) -> Datasheet:
    """A one-profile core11 datasheet."""
    kinds = frozenset(keywords)
    profile = Profile(
        name,
        {"M": '6"', "T": str(toughness), "Sv": f"{save}+", "W": str(wounds), "Ld": "6+",
         "OC": "1"},
        invulnerable=invulnerable,
        keywords=kinds,
    )  # fmt: skip
    return Datasheet(
        name, "test", "core11", (ModelEntry(profile, count, tuple(weapons), 32.0),),
        rules=tuple(rules), keywords=kinds,
    )  # fmt: skip


def place(uid: str, datasheet: Datasheet, player: str, at: Vec, size: int | None = None) -> Unit:
    """A unit of ``datasheet`` in a line along x, 1.5" apart, starting at ``at``."""
    models: list[Model] = []
    entries = list(datasheet.entries)
    if size is not None:
        first = entries[-1]
        fixed = sum(e.count for e in entries[:-1])
        entries[-1] = ModelEntry(first.profile, size - fixed, first.weapons, first.base_mm)
    for entry in entries:
        for _ in range(entry.count):
            number = len(models) + 1
            models.append(
                Model(
                    id=f"{uid}.{number}",
                    profile=entry.profile,
                    weapons=entry.weapons,
                    position=(at[0] + 1.5 * (number - 1), at[1]),
                    base_mm=entry.base_mm,
                    wounds_left=ruleset().starting_wounds(entry.profile),
                    rules=entry.rules,
                )
            )
    return Unit(uid, datasheet.name, player, datasheet, models)


def library_unit(uid: str, name: str, player: str, at: Vec, size: int | None = None) -> Unit:
    """A unit of the wh40kdc library, placed like :func:`place`."""
    return place(uid, ruleset().find_unit(name), player, at, size)


def battle(
    units: Sequence[Unit],
    dice: Dice | Sequence[int] = (),
    controllers: dict[str, Controller] | None = None,
    terrain: Sequence[TerrainArea] = (),
) -> Battle:
    """A battle of players ``A`` (south, active) and ``B`` (north)."""
    rolled = dice if isinstance(dice, Dice) else ScriptedDice(values=list(dice))
    people: dict[str, Controller] = {"A": FirstChoiceController(), "B": FirstChoiceController()}
    people.update(controllers or {})
    made = Battle(
        battlefield=Battlefield(terrain=tuple(terrain)),
        players=(Player("A", "south"), Player("B", "north")),
        units={u.id: u for u in units},
        dice=rolled,
        ruleset="core11",
        controllers=people,
    )
    apply_rules(made, ruleset(), {})
    return made


def game(fight: Battle) -> Core11Game:
    """A core11 game of ``fight`` with every unit's abilities installed."""
    started = Core11Game.start(fight)
    install(started, ruleset().library.ability)
    return started


def script(*steps: tuple[str, str]) -> ScriptedController:
    """A strict scripted controller."""
    return ScriptedController(steps)


def texts(fight: Battle, kind: str) -> list[str]:
    """The human text of each event of ``kind``."""
    return [e.text for e in fight.log.of_kind(kind)]


EventT = TypeVar("EventT", bound=Event)


def events(fight: Battle, cls: type[EventT]) -> list[EventT]:
    """The events of class ``cls``, in order."""
    return [e for e in fight.log.events if isinstance(e, cls)]


def shooting_phase(game: Core11Game) -> None:
    """The Shooting phase of the active player, as the flow runs it (``run_phase``)."""
    run_phase(game.battle, SHOOTING, game.battle.active_player)
