"""The Core Rules, 11th edition, as a :class:`~hammerlab.editions.base.Ruleset`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from hammerlab.editions.base import GamePlan, LuckWatch
from hammerlab.editions.core11.abilities import install
from hammerlab.editions.core11.ai import Core11AI
from hammerlab.editions.core11.charge import CHARGE
from hammerlab.editions.core11.command import COMMAND
from hammerlab.editions.core11.fight import FIGHT
from hammerlab.editions.core11.movement import MOVEMENT
from hammerlab.editions.core11.overwatch import install_overwatch
from hammerlab.editions.core11.profiles import (
    PROFILE_KEYS,
    carried_weapons,
    check_characteristics,
    defence_of,
    movement_of,
)
from hammerlab.editions.core11.shooting import SHOOTING
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import readable
from hammerlab.editions.core11.weapons import WEAPON_KEYS, WeaponError, read_weapon, weapon_problems
from hammerlab.editions.flow import Flow
from hammerlab.editions.plugins import plugin_options
from hammerlab.editions.turns import unit_lines, victory_lines
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, Profile, Weapon, unknown_characteristics
from hammerlab.engine.decisions import Controller
from hammerlab.engine.rules import Parameter, RuleOption
from hammerlab.engine.units import Unit
from hammerlab.errors import IllegalActionError, ProfileError
from hammerlab.io.wh40kdc_library import Wh40kdcLibrary

COVER_EFFECT = Parameter(
    "cover_effect",
    "worsen_bs",
    "What the benefit of cover does: worsen the attack's BS by 1 (11th edition), or add 1 "
    "to the armour save (10th edition, not for Sv 3+ or better against AP 0)",
    '13.08: "Each time a ranged attack targets a unit that has the benefit of cover against '
    'it, worsen the BS characteristic of that attack by 1." (10th edition: "add 1 to the '
    'armour saving throw")',
    choices=("worsen_bs", "improve_save"),
)


class Core11Ruleset:
    """The 11th-edition turn (Command, Movement, Shooting, Charge and Fight phases),
    shooting types and the WTC ruling."""

    name = "core11"
    title = "Core Rules, 11th edition (the whole turn; wh40kdc unit data)"
    phases: tuple[str, ...] = ("command", "movement", "shooting", "charge", "fight")
    sudden_death = ""

    def __init__(self, library: Wh40kdcLibrary | None = None) -> None:
        self.library = library or Wh40kdcLibrary()
        self._datasheets: dict[str, Datasheet] = {}

    @property
    def options(self) -> tuple[RuleOption, ...]:
        """core11 has no rule options of its own; plug-ins may add some."""
        return plugin_options(self.name)

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """What the lab may vary: the effect of cover (the 11th edition's, or the 10th's)."""
        return (COVER_EFFECT,)

    def find_unit(self, name: str) -> Datasheet:
        """A datasheet of the wh40kdc dataset (``Name`` or ``Name [faction]``).

        Read from the dataset once per name (the library finds names as
        ``name.strip().lower()``): the dataset never changes and a datasheet is
        immutable, so every battle of a scenario shares one, and the views cached
        by its profiles and weapons (``defence_of``, ``read_weapon``) are found
        by identity rather than compared field by field."""
        key = name.strip().lower()
        if key not in self._datasheets:
            self._datasheets[key] = _one_object_per_weapon(self.library.datasheet(name))
        return self._datasheets[key]

    def unit_names(self, query: str = "", army: str = "") -> list[str]:
        """Dataset unit names matching ``query`` (unit or faction) and ``army``."""
        return self.library.names(query, army)

    def unit_armies(self, query: str = "", army: str = "") -> list[tuple[str, str]]:
        """``(name, army)`` of each of :meth:`unit_names`, in their order."""
        return self.library.units(query, army)

    def validate_datasheet(self, datasheet: Datasheet) -> list[str]:
        """Profiles core11 cannot read, and weapon keywords it does not implement."""
        problems: list[str] = []
        for entry in datasheet.entries:
            try:
                defence_of(entry.profile)
            except ProfileError as error:
                problems.append(str(error))
            for weapon in entry.weapons:
                problems += weapon_problems(weapon)
        return list(dict.fromkeys(problems))

    def rule_limits(self, datasheet: Datasheet) -> list[str]:
        """None: core11 reports what it does not play among the keywords' problems."""
        return []

    def datasheet_errors(self, datasheet: Datasheet) -> list[tuple[str, str]]:
        """Profiles (``defence_of``, ``movement_of``) and weapons (``read_weapon``: dice
        expressions up to 20 dice plus 200, ``dice_expr.py``) core11 cannot read
        (:meth:`Ruleset.datasheet_errors`)."""
        errors: list[tuple[str, str]] = []
        for index, entry in enumerate(datasheet.entries):
            profile = entry.profile
            errors += [
                (f"models[{index}].profile.{key}", problem)
                for key, problem in unknown_characteristics(
                    profile.name, profile.characteristics, PROFILE_KEYS
                )
            ]
            try:
                defence_of(profile)
                movement_of(profile)
                check_characteristics(profile)
            except ProfileError as error:
                errors.append((f"models[{index}].profile", str(error)))
            for weapon in entry.weapons:
                errors += [
                    (f"weapons.{weapon.name}.{key}", problem)
                    for key, problem in unknown_characteristics(
                        f"weapon {weapon.name}", weapon.characteristics, WEAPON_KEYS
                    )
                ]
                try:
                    read_weapon(weapon)
                except WeaponError as error:
                    errors.append((f"weapons.{weapon.name}", str(error)))
        return list(dict.fromkeys(errors))

    def starting_wounds(self, profile: Profile) -> int:
        """The W characteristic."""
        return defence_of(profile).wounds

    def type_rules(self, profile: Profile) -> tuple[str, ...]:
        """None: a core11 datasheet names its abilities itself."""
        return ()

    def ai(self) -> Controller:
        """The heuristic AI (``ai.py``)."""
        return Core11AI()

    def flow(self) -> Flow:
        """The Command, Movement, Shooting, Charge and Fight phases, in turn order
        (07.02: "a series of five phases resolved in the order shown below"); at the end
        of a player's turn what a unit did "this turn" ends.

        A unit's status from the scenario (``advanced``, ``moved``...) describes its
        player's first turn when the plan has no Movement phase; with one, the
        Movement phase sets it from the move type each unit makes. At the end of a
        player's turn the flags are cleared.
        """
        return Flow((COMMAND, MOVEMENT, SHOOTING, CHARGE, FIGHT), _end_of_turn)

    @property
    def status_keys(self) -> tuple[str, ...]:
        """Only the statuses every ruleset knows (moved, advanced, charged)."""
        return ()

    def set_statuses(self, battle: Battle, statuses: Mapping[str, Mapping[str, bool]]) -> None:
        """No status of core11's own."""

    def embark(self, battle: Battle, unit_id: str, transport_id: str) -> None:
        """core11 plays no transports: a scenario's ``embarked_in`` is refused."""
        raise IllegalActionError(f"{self.name} plays no transports; remove embarked_in")

    def deployment_problem(self, datasheet: Datasheet, how: str) -> str | None:
        """core11 has no reserves and no deployment rules."""
        return f"the {self.name} ruleset has no {how.replace('_', ' ')}"

    def set_deployments(self, battle: Battle, deployments: Mapping[str, str], turns: int) -> None:
        """Nothing: :meth:`deployment_problem` refuses every unit first."""

    def start(self, battle: Battle) -> None:
        """core11's state on the battle, its units' abilities and Fire Overwatch on the
        timing windows; what core11 cannot use of the weapons on the table reported in
        the log, once each, before the first turn (``volley.readable``: never ignored
        silently, whether or not the weapon is ever fired or its unit ever picked)."""
        game = Core11Game.start(battle)
        install_overwatch(game)
        for line in install(game, self.library.ability):
            battle.say("rules", f"note: ability not modelled by hammerlab: {line}")
        for unit in battle.units.values():
            for weapon in carried_weapons(unit):
                readable(game, weapon)

    def summary(self, battle: Battle, plan: GamePlan, over: bool = True) -> Sequence[str]:
        """Models left per unit, and the winner (who leads, where the game is not ``over``)."""
        return unit_lines(battle) + victory_lines(battle, plan.victory, over)

    def watch_luck(self, battle: Battle, victory: str) -> LuckWatch | None:
        """None: core11's luck is not counted (its search values playouts as rolled)."""
        return None

    def units_off_table(self, battle: Battle) -> Sequence[tuple[Unit, str]]:
        """None: core11 keeps every unit on the table."""
        return ()

    def units_to_come(self, battle: Battle) -> int:
        """None: no core11 rule adds a unit mid-game."""
        return 0

    def outlook(self, battle: Battle, rounds: int) -> Mapping[str, float]:
        """Empty: core11's search values playouts as they stand."""
        return {}


def _one_object_per_weapon(datasheet: Datasheet) -> Datasheet:
    """``datasheet`` with equal weapons of its entries (a sergeant's bolt pistol and
    the troopers') as one object: the same datasheet by value, whose weapons the
    caches (``read_weapon``) and the grouping of weapons find by identity rather
    than by comparing their characteristics."""
    shared: dict[Weapon, Weapon] = {}
    entries = tuple(
        replace(entry, weapons=tuple(shared.setdefault(w, w) for w in entry.weapons))
        for entry in datasheet.entries
    )
    return replace(datasheet, entries=entries)


def _end_of_turn(battle: Battle, player: str) -> None:
    """What a unit did "this turn" ends with its player's turn (09.06, 09.07, 11.04:
    "Until the end of the turn")."""
    game = battle.state
    if isinstance(game, Core11Game):
        game.no_shoot.clear()
        game.no_charge.clear()
    for unit in battle.units.values():
        if unit.player == player:
            unit.status.moved = unit.status.advanced = unit.status.charged = False
