"""The Shooting phase (10.00–10.07) of the Core Rules, 11th edition.

"In the Shooting phase, your units will take aim and use their ranged weapons
to fire at their chosen targets. The Shooting phase is resolved by following
these steps: 1. START OF SHOOTING PHASE 2. SHOOT 3. END OF SHOOTING PHASE"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hammerlab.editions.core11.events import ShootingTypeSelected
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import is_engaged
from hammerlab.editions.core11.profiles import carried_weapons
from hammerlab.editions.core11.shooting_worth import eligible_lines, volley_worth
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import fire, readable
from hammerlab.editions.core11.windows import END_OF_SHOOTING_PHASE, START_OF_SHOOTING_PHASE
from hammerlab.editions.flow import Phase, Picks
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Unit

DONE = "done"
"""The ``shooter`` choice that ends the Shoot step."""


@dataclass(frozen=True)
class ShootingType:
    """A shooting type: when a unit is eligible, and what it may do while shooting."""

    name: str
    rule: str
    """The seed's section number."""
    eligible: Callable[[Core11Game, Unit], bool]
    control: FireControl
    summary: str = ""
    """What the type changes of Making Attacks (04), for a person choosing it (seed 003's
    "While shooting"); ``""``: nothing (Normal shooting)."""


def _has_weapon(game: Core11Game, unit: Unit, keyword: str) -> bool:
    """Whether a model of ``unit`` has a ranged weapon with ``keyword`` (each weapon
    read once, in the order the models carry them)."""
    for weapon in carried_weapons(unit):
        profile = readable(game, weapon)
        if profile is not None and not profile.melee and profile.has(keyword):
            return True
    return False


def _monster_or_vehicle_unit(unit: Unit) -> bool:
    kinds = {k.upper() for k in unit.datasheet.keywords}
    kinds |= {k.upper() for m in unit.alive_models for k in m.profile.keywords}
    return bool({"MONSTER", "VEHICLE"} & kinds)


def normal_eligible(game: Core11Game, unit: Unit) -> bool:
    """10.04 Normal shooting: "Your unit is unengaged and did not make an advance move
    this turn." """
    return not unit.status.advanced and not is_engaged(game.battle, unit)


def assault_eligible(game: Core11Game, unit: Unit) -> bool:
    """10.05 Assault shooting: "Unengaged and made an advance move this turn." and
    "Has one or more [ASSAULT] weapons." """
    return (
        unit.status.advanced
        and not is_engaged(game.battle, unit)
        and _has_weapon(game, unit, "ASSAULT")
    )


def close_quarters_eligible(game: Core11Game, unit: Unit) -> bool:
    """10.06 Close-quarters shooting: "Engaged and did not make an advance move this
    turn." and "Has one or more [CLOSE‑QUARTERS] weapons or is a MONSTER/VEHICLE
    unit." """
    return (
        not unit.status.advanced
        and is_engaged(game.battle, unit)
        and (_has_weapon(game, unit, "CLOSE-QUARTERS") or _monster_or_vehicle_unit(unit))
    )


def indirect_eligible(game: Core11Game, unit: Unit) -> bool:
    """10.07 Indirect shooting: "Unengaged and did not make an advance move this turn."
    and "Has one or more [INDIRECT FIRE] weapons." """
    return (
        not unit.status.advanced
        and not is_engaged(game.battle, unit)
        and _has_weapon(game, unit, "INDIRECT FIRE")
    )


SHOOTING_TYPES: tuple[ShootingType, ...] = (
    ShootingType("normal", "10.04", normal_eligible, FireControl("normal")),
    ShootingType(
        "assault",
        "10.05",
        assault_eligible,
        FireControl("assault", assault_only=True),
        "only [ASSAULT] weapons (10.05)",
    ),
    ShootingType(
        "close-quarters",
        "10.06",
        close_quarters_eligible,
        FireControl("close-quarters", close_quarters=True),
        "models other than MONSTER/VEHICLE fire only [CLOSE-QUARTERS] weapons, at units "
        "engaged with it; a MONSTER/VEHICLE model's attack takes -1 to hit unless it is a "
        "[CLOSE-QUARTERS] weapon's at an engaged unit (10.06)",
    ),
    ShootingType(
        "indirect",
        "10.07",
        indirect_eligible,
        FireControl("indirect", indirect=True),
        "[INDIRECT FIRE] weapons may target unseen units; the target has cover, no hit "
        "re-rolls, and an unmodified 1-5 fails (1-3 if the unit remained stationary and "
        "a friendly unit sees the target) (10.07)",
    ),
)
"""10.02: "Normal shooting (10.04) ▫ Assault shooting (10.05) ▫ Close‑quarters
shooting (10.06) ▫ Indirect shooting (10.07)", in that order."""


def eligible_types(game: Core11Game, unit: Unit) -> list[ShootingType]:
    """The shooting types ``unit`` is eligible to make."""
    return [t for t in SHOOTING_TYPES if t.eligible(game, unit)]


def eligible_to_shoot(game: Core11Game, unit: Unit) -> bool:
    """10.02: "A unit is eligible to shoot if it is on the battlefield and has not
    already been selected to shoot this phase."

    A unit must also be eligible for at least one shooting type, since step 2
    ("Select one shooting type that unit is eligible to make") must be possible.
    A unit that made a fall-back move is not (09.07 After moving: "Until the end
    of the turn, unless otherwise stated, your unit is not eligible to shoot").
    """
    return (
        not unit.destroyed
        and unit.id not in game.selected
        and unit.id not in game.no_shoot
        and any(t.eligible(game, unit) for t in SHOOTING_TYPES)  # the first eligible settles it
    )


def _game(battle: Battle) -> Core11Game:
    """The core11 state of ``battle`` (set up by :meth:`Core11Game.start`)."""
    state = battle.state
    assert isinstance(state, Core11Game), "core11 battle not started"
    return state


def _begin(battle: Battle, player: str) -> frozenset[str]:
    battle.phase = "shooting"
    battle.emit(PhaseChanged(phase="shooting", player=player, turn=battle.turn, begins=True))
    start_of_phase(_game(battle))
    return frozenset()


def _shooters(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    game = _game(battle)
    return [u for u in game.units_of_active_player() if eligible_to_shoot(game, u)]


def _shoot(battle: Battle, unit: Unit) -> None:
    shoot_with(_game(battle), unit)


def _end(battle: Battle, player: str) -> None:
    end_of_phase(_game(battle))
    battle.emit(PhaseChanged(phase="shooting", player=player, turn=battle.turn, begins=False))


def outlook(game: Core11Game, unit: Unit, control: FireControl) -> str:
    """What shooting under ``control`` offers ``unit`` now, for a person choosing: the
    enemy units its weapons may target, closest first, each with its distance, and the
    wounds it is expected to take off them (:func:`shooting_worth.volley_worth`, the
    AI's own estimate, each weapon at the target where it does the most); or that it
    has no eligible target: 10.02's FAQ, "it just makes no attacks"."""
    targets = eligible_lines(game, unit, control)
    if not targets:
        return "no eligible target: it would make no attacks"
    where = ", ".join(f'{lines.target.label} {lines.nearest:.1f}" away' for lines in targets)
    lost = volley_worth(game, unit, control)
    return f"targets {where}; about {lost:.2f} wounds expected lost"


def describe_shooter(battle: Battle, unit: Unit) -> str:
    """What a person choosing a unit to shoot is told of it, before it is selected (a
    unit selected makes its attacks, or none): each shooting type it is eligible to make
    and what that offers (:func:`outlook`)."""
    game = _game(battle)
    return "; ".join(
        f"{kind.name}: {outlook(game, unit, kind.control)}" for kind in eligible_types(game, unit)
    )


SHOOTING = Phase(
    "shooting",
    begin=_begin,
    picks=Picks(
        "shooter",
        "Select a unit to shoot (or done)",
        _shooters,
        _shoot,
        DONE,
        describe=describe_shooter,
    ),
    end=_end,
)
"""10.00: the three steps of the Shooting phase for the active player: 10.01
start of phase; 10.02 "The active player shoots with their eligible units one
at a time, using the sequence below, until all the units they choose to shoot
with have been selected to shoot and their attacks have been resolved";
10.03 end of phase."""


def start_of_phase(game: Core11Game) -> None:
    """10.01: "Rules that are triggered at the start of the Shooting phase are
    resolved now." """
    game.board.open(Occasion(START_OF_SHOOTING_PHASE))


def shoot_with(game: Core11Game, unit: Unit) -> None:
    """10.02 steps 1–2: "Select one friendly unit that is eligible to shoot; that
    unit is selected to shoot." "Select one shooting type that unit is eligible
    to make, and resolve it with that unit."

    FAQ: "Can I select a unit to shoot ... if it doesn't have ... ranged weapons?
    Yes, it just makes no attacks and then the ... shoot type is resolved."
    """
    game.selected.add(unit.id)
    types = eligible_types(game, unit)
    chosen: ShootingType = game.choose(
        Decision(
            "shooting-type",
            unit.player,
            f"{unit.label}: which shooting type?",
            tuple(Choice(t.name, t) for t in types),
            DecisionContext(unit=unit.id),
            describe=lambda kind: "; ".join(
                part for part in (kind.summary, outlook(game, unit, kind.control)) if part
            ),
        )
    )
    game.battle.emit(ShootingTypeSelected(unit.label, chosen.name))
    fire(game, unit, chosen.control)
    # 10.04-10.07, After shooting: "Until the end of the phase, your unit is not
    # eligible to start an action." Not modelled: no unit ever starts an action (16),
    # so nothing is kept or said (docs/rules/core11.md).


def end_of_phase(game: Core11Game) -> None:
    """10.03: "Rules that are triggered at the end of the Shooting phase are resolved
    now." What lasted "until the end of the phase" ends."""
    game.board.open(Occasion(END_OF_SHOOTING_PHASE))
    game.selected.clear()
    game.barred.clear()
