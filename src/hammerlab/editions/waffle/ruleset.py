"""The Waffle Edition as a :class:`~hammerlab.editions.base.Ruleset`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hammerlab.editions.base import GamePlan, LuckWatch
from hammerlab.editions.flow import Flow
from hammerlab.editions.plugins import plugin_options
from hammerlab.editions.turns import off_table_lines, unit_lines, units_in_play, victory_lines
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.assault import ASSAULT
from hammerlab.editions.waffle.challenges import CHAMPION
from hammerlab.editions.waffle.concussive import wear_off
from hammerlab.editions.waffle.fight_outlook import fight_outlook
from hammerlab.editions.waffle.infiltrate import set_infiltrators
from hammerlab.editions.waffle.luck import watch_luck
from hammerlab.editions.waffle.movement_phase import MOVEMENT
from hammerlab.editions.waffle.parameters import PARAMETERS
from hammerlab.editions.waffle.points import END_OF_TURN
from hammerlab.editions.waffle.power_from_pain import power_from_pain
from hammerlab.editions.waffle.profiles import WEAPON_KEYS, profile_keys, stats_of, weapon_of
from hammerlab.editions.waffle.psychic import PSYCHIC
from hammerlab.editions.waffle.psychic_parameters import PSYCHIC_PARAMETERS
from hammerlab.editions.waffle.psychic_powers import (
    POWER_KEYS,
    is_psyker_rule,
    mastery_problems,
    power_of,
    psychic_problems,
)
from hammerlab.editions.waffle.reserves import lost_in_reserve, set_reserves, units_off_table
from hammerlab.editions.waffle.rules import OPTIONS
from hammerlab.editions.waffle.shooting import SHOOTING
from hammerlab.editions.waffle.special_rules import (
    gargantuan_not_played,
    model_has,
    own_rules,
    partly_played,
    type_rules,
    unsupported_unit_rules,
)
from hammerlab.editions.waffle.state import SCENARIO_KEYS, set_statuses, st, state_of
from hammerlab.editions.waffle.sudden_death import game_over
from hammerlab.editions.waffle.transports import start_embarked
from hammerlab.editions.waffle.vehicles import face_the_enemy, vehicle_end_of_turn
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, Profile, unknown_characteristics
from hammerlab.engine.decisions import Controller
from hammerlab.engine.rules import Parameter, RuleOption
from hammerlab.engine.units import Unit
from hammerlab.errors import ProfileError
from hammerlab.io.bounds import MAX_WEAPONS_PER_MODEL, roll_problems
from hammerlab.io.library import Library, builtin_library


def _path(*parts: str) -> str:
    """A key path of the parts given (an empty part left out)."""
    return ".".join(part for part in parts if part)


class WaffleRuleset:
    """Waffle Edition 40K: 6th/7th-edition rules with the Waffle edits."""

    name = "waffle"
    title = "Waffle Edition (6th/7th-edition based)"
    phases: tuple[str, ...] = ("movement", "psychic", "shooting", "assault")
    sudden_death = (
        "a side wiped out at the end of a game turn loses, whatever the score (Sudden Death)"
    )

    def __init__(self, library: Library | None = None) -> None:
        self._library = library

    @property
    def library(self) -> Library:
        """The built-in unit library (loaded on first use)."""
        if self._library is None:
            self._library = builtin_library("waffle")
        return self._library

    @property
    def options(self) -> tuple[RuleOption, ...]:
        """The proposed rules and the reactions, then rules from plug-ins."""
        return OPTIONS + plugin_options(self.name)

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """Every number the rules name (``parameters.py``, ``psychic_parameters.py``)."""
        return PARAMETERS + PSYCHIC_PARAMETERS

    def find_unit(self, name: str) -> Datasheet:
        """A datasheet by name (case-insensitive)."""
        return self.library.find(name)

    def unit_names(self, query: str = "", army: str = "") -> list[str]:
        """Library names matching ``query`` (unit or army) and ``army``."""
        return self.library.names(query, army)

    def unit_armies(self, query: str = "", army: str = "") -> list[tuple[str, str]]:
        """``(name, army)`` of each of :meth:`unit_names`, in their order."""
        return self.library.units(query, army)

    def validate_datasheet(self, datasheet: Datasheet) -> list[str]:
        """Characteristics, weapon types and rules the engine cannot resolve: the
        :meth:`datasheet_errors`, then the special rules it does not implement."""
        problems = [
            f"special rule not implemented: {r}"
            for r in unsupported_unit_rules(datasheet.rules)
            if not is_psyker_rule(r)
        ]
        problems += psychic_problems(datasheet)
        problems += [problem for _, problem in self.datasheet_errors(datasheet)]
        for entry in datasheet.entries:
            problems += [
                f"{entry.profile.name}: special rule not implemented: {r}"
                for r in unsupported_unit_rules(entry.rules)
                if not is_psyker_rule(r)
            ]
            gargantuan = gargantuan_not_played(entry.profile.unit_type)
            if gargantuan is not None:
                problems.append(f"{entry.profile.name}: {gargantuan}")
            for weapon in entry.weapons:
                try:
                    unknown = weapon_of(weapon).unsupported_rules()
                except ProfileError:
                    continue  # among the datasheet errors
                problems += [f"weapon {weapon.name}: rule not implemented: {r}" for r in unknown]
        return sorted(set(problems))

    def rule_limits(self, datasheet: Datasheet) -> list[str]:
        """The rules of ``datasheet`` (its own and its models') played only in part,
        each with what is not played (:func:`special_rules.partly_played`)."""
        rules = (*datasheet.rules, *(r for e in datasheet.entries for r in e.rules))
        return [f"special rule played in part: {n}" for n in partly_played(rules)]

    def datasheet_errors(self, datasheet: Datasheet) -> list[tuple[str, str]]:
        """Profiles, weapons and powers ``stats_of``, ``weapon_of`` and ``power_of`` refuse
        (the forms they read and the bounds of ``io.bounds``), Mastery Levels and rolls
        (``Feel No Pain (0+)``: ``io.bounds.roll_problems``) out of bounds, and models
        carrying more than ``io.bounds.MAX_WEAPONS_PER_MODEL`` weapons or powers
        (:meth:`Ruleset.datasheet_errors`)."""
        errors = [
            ("rules", problem)
            for problem in [*mastery_problems(datasheet.rules), *roll_problems(datasheet.rules)]
        ]
        for index, entry in enumerate(datasheet.entries):
            model = f"models[{index}]"
            profile = entry.profile
            errors += [
                (f"{model}.profile.{key}", problem)
                for key, problem in unknown_characteristics(
                    profile.name, profile.characteristics, profile_keys(profile)
                )
            ]
            try:
                stats_of(profile)
            except ProfileError as error:
                key = "type" if error.key == "type" else _path("profile", error.key)
                errors.append((f"{model}.{key}", str(error)))
            errors += [
                (f"{model}.rules", p)
                for p in [*mastery_problems(entry.rules), *roll_problems(entry.rules)]
            ]
            for field, carried in (("weapons", entry.weapons), ("powers", entry.powers)):
                if len(carried) > MAX_WEAPONS_PER_MODEL:
                    problem = (
                        f"{entry.profile.name}: {len(carried)} {field}; a model carries at "
                        f"most {MAX_WEAPONS_PER_MODEL}"
                    )
                    errors.append((f"{model}.{field}", problem))
            for field, carried, known, read in (
                ("weapons", entry.weapons, WEAPON_KEYS, weapon_of),
                ("powers", entry.powers, POWER_KEYS, power_of),
            ):
                for item in carried:
                    owner = f"{'weapon' if field == 'weapons' else 'psychic power'} {item.name}"
                    errors += [
                        (_path(field, item.name, key), problem)
                        for key, problem in unknown_characteristics(
                            owner, item.characteristics, known
                        )
                    ]
                    try:
                        read(item)
                    except ProfileError as error:
                        errors.append((_path(field, item.name, error.key), str(error)))
        return list(dict.fromkeys(errors))

    def starting_wounds(self, profile: Profile) -> int:
        """The W characteristic."""
        return stats_of(profile).w

    def type_rules(self, profile: Profile) -> tuple[str, ...]:
        """A Monstrous Creature's, a Bike's and a Jump unit's rules
        (:data:`special_rules.TYPE_RULES`)."""
        return type_rules(profile)

    def ai(self) -> Controller:
        """The heuristic AI."""
        return WaffleAI()

    def flow(self) -> Flow:
        """Movement, psychic, shooting and assault phases; then the end of the player's
        turn; a game ends early when a side is wiped out (:mod:`sudden_death`)."""
        return Flow((MOVEMENT, PSYCHIC, SHOOTING, ASSAULT), end_of_turn, game_over)

    def start(self, battle: Battle) -> None:
        """The Waffle state on the battle (units' statuses, made on first use); each
        vehicle on the table faces the enemy (:func:`vehicles.face_the_enemy`)."""
        state_of(battle)
        for unit in battle.units.values():
            face_the_enemy(battle, unit)

    @property
    def status_keys(self) -> tuple[str, ...]:
        """Run, gone to ground, pinned, falling back, flight mode, reacted (``state.py``)."""
        return SCENARIO_KEYS

    def set_statuses(self, battle: Battle, statuses: Mapping[str, Mapping[str, bool]]) -> None:
        """Starting statuses: a pinned unit has gone to ground."""
        set_statuses(battle, statuses)

    def embark(self, battle: Battle, unit_id: str, transport_id: str) -> None:
        """The unit starts aboard the transport (``transports.start_embarked``)."""
        start_embarked(battle, unit_id, transport_id)

    def deployment_problem(self, datasheet: Datasheet, how: str) -> str | None:
        """7th edition: only a unit with the rule may Deep Strike, Outflank or Infiltrate
        (the unit's rules, or every model's for Deep Strike; Infiltrate: "Units that
        contain at least one model with this special rule"; Outflank: "any unit that
        contains at least one model with this special rule")."""
        rule = DEPLOYMENT_RULES[how]

        def has(rules: Sequence[str]) -> bool:
            return any(r.lower() == rule.lower() for r in rules)

        entries = [has(own_rules(e)) for e in datasheet.entries]
        if has(datasheet.rules) or (all(entries) if how == "deep_strike" else any(entries)):
            return None
        return f"{datasheet.name} has no {rule} special rule, so it cannot use it to deploy"

    def set_deployments(self, battle: Battle, deployments: Mapping[str, str], turns: int) -> None:
        """Units in reserve leave the table (:func:`reserves.set_reserves`); Infiltrators
        are noted (:func:`infiltrate.set_infiltrators`)."""
        reserves = {u: h for u, h in deployments.items() if h in RESERVE_DEPLOYMENTS}
        set_reserves(battle, reserves, turns)
        set_infiltrators(battle, [u for u, h in deployments.items() if h == "infiltrate"])

    def summary(self, battle: Battle, plan: GamePlan, over: bool = True) -> Sequence[str]:
        """Models left per unit (and who is fleeing or gone to ground), and the winner
        (who leads, where the game is not ``over``)."""
        shown = ("falling_back", "gone_to_ground", "pinned")

        def flags(unit: Unit) -> list[str]:
            return [f for f in shown if getattr(st(battle, unit), f)]

        return (
            unit_lines(battle, flags)
            + off_table_lines(self.units_off_table(battle))
            + victory_lines(battle, plan.victory, over)
        )

    def watch_luck(self, battle: Battle, victory: str) -> LuckWatch:
        """The luck of volleys and blows (:mod:`luck`)."""
        return watch_luck(battle, victory, self.starting_wounds)

    def units_off_table(self, battle: Battle) -> Sequence[tuple[Unit, str]]:
        """Units in reserve and aboard transports (:func:`reserves.units_off_table`)."""
        return units_off_table(battle)

    def units_to_come(self, battle: Battle) -> int:
        """One for each Champion of Chaos, on the table, in reserve or aboard a
        transport: Spawnhood and Dark Apotheosis turn it into a new unit
        (:mod:`chaos_forms`), which has none of its rules, so it happens once."""
        return sum(
            model_has(unit, model, CHAMPION)
            for unit in units_in_play(battle)
            for model in unit.models
        )

    def outlook(self, battle: Battle, rounds: int) -> Mapping[str, float]:
        """What the combats being fought are expected to bring (:mod:`fight_outlook`)."""
        return fight_outlook(battle, rounds)


DEPLOYMENT_RULES = {
    "deep_strike": "Deep Strike",
    "outflank": "Outflank",
    "infiltrate": "Infiltrate",
}
"""The special rule each way of deploying needs."""
RESERVE_DEPLOYMENTS = ("deep_strike", "outflank")
"""The deployments that keep a unit in Reserve (:func:`reserves.set_reserves`)."""


def end_of_turn(battle: Battle, player: str) -> None:
    """Clear what lasts until the end of the player's own turn.

    Morale penalties (friendly fire), the once-per-turn Reaction to Charge and
    the weapon types fired (Return Fire! and Overwatch fire in the enemy's
    turn) last until the end of the turn they happened in, whoever's units
    they are. Concussive wears off at the end of an Assault phase
    (:func:`concussive.wear_off`).
    """
    vehicle_end_of_turn(battle, player)
    for unit in battle.units.values():
        status = st(battle, unit)
        status.morale_penalty = 0
        status.reacted_this_turn = False
        status.fired_types.clear()
        if unit.player != player:
            continue
        unit.status.moved = unit.status.advanced = unit.status.charged = False
        status.has_shot = status.ran = status.retreated = False
        status.gone_to_ground = status.pinned = status.regrouped = False
        status.changed_flight_mode = False
        status.shot_target = None
    wear_off(battle)
    power_from_pain(battle)
    for rule in battle.hooks.get(END_OF_TURN):
        rule(battle, player)
    lost_in_reserve(battle, player)
