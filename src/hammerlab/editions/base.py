"""What every edition provides to the layers above it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hammerlab.editions.flow import Flow, Play, only
from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, Profile
from hammerlab.engine.decisions import Controller
from hammerlab.engine.rules import (
    Hooks,
    Parameter,
    ParamValue,
    RuleOption,
    install_rules,
    resolve_settings,
)
from hammerlab.engine.units import Unit


@dataclass(frozen=True)
class GamePlan:
    """What to play: how many game turns, and which phases of each."""

    turns: int = 1
    phases: tuple[str, ...] = ("shooting",)
    """Phase names of the edition, in order; a turn plays each player's."""
    victory: str = "kill_points"
    """How the winner is decided: ``kill_points`` (one per enemy unit
    destroyed) or ``models_destroyed`` (one per enemy model removed)."""


VICTORY = "victory"
"""The key in ``battle.memory`` of the game's ``GamePlan.victory``, which
:func:`begin_play` records there so that an edition's AI can weigh what a
choice is worth to the score."""


class LuckWatch(Protocol):
    """What the dice of a game's attacks added to each player's value, counted
    from when it was installed (:meth:`Ruleset.watch_luck`)."""

    def margin(self, player: str, scale: Mapping[str, float] | None = None) -> float:
        """The luck of ``player``'s attacks less that of its opponent's; with
        ``scale``, the luck against each player's units divided by its scale (the
        search's ``share`` value divides each side's losses by its army's worth)."""
        ...


class Ruleset(Protocol):
    """An edition: its rules, options, unit library and AI."""

    name: str
    title: str
    phases: tuple[str, ...]
    """Phases this edition can play, in turn order."""
    sudden_death: str
    """What ends a game before its last turn and decides it whatever the score, for
    people (empty where nothing does): a report says it with the victory condition
    (:func:`~hammerlab.editions.turns.victory_text`)."""

    @property
    def options(self) -> tuple[RuleOption, ...]:
        """Rule options (proposed rules, reactions, plug-ins) with their defaults."""
        ...

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        """The numbers the edition's rules name, with defaults and quotes."""
        ...

    def find_unit(self, name: str) -> Datasheet:
        """A datasheet of the edition's unit library."""
        ...

    def unit_names(self, query: str = "", army: str = "") -> list[str]:
        """Library names whose unit or army contains ``query``, of armies containing ``army``.

        Both ignore case; ``""`` matches everything.
        """
        ...

    def unit_armies(self, query: str = "", army: str = "") -> list[tuple[str, str]]:
        """``(name, army)`` of each of :meth:`unit_names`, in their order: what a list
        of units shows, so that units of armies with like names are told apart."""
        ...

    def validate_datasheet(self, datasheet: Datasheet) -> list[str]:
        """Problems that stop the edition from using ``datasheet`` as written.

        Empty when every characteristic, weapon and rule is understood. A function of
        the datasheet's value alone: a battle's preparation remembers it.
        """
        ...

    def rule_limits(self, datasheet: Datasheet) -> list[str]:
        """Rules of ``datasheet`` the edition plays only in part, each saying what it
        does not play: notes ``hammerlab show`` prints with the problems, which a
        battle's warnings leave out (the rules' other effects are played)."""
        ...

    def datasheet_errors(self, datasheet: Datasheet) -> list[tuple[str, str]]:
        """What the edition cannot read of ``datasheet`` at all: characteristics, weapons
        or powers outside the forms and bounds its readers take.

        Each is ``(key path, problem)``, the key path that of the value in a datasheet
        written as TOML (a scenario's inline unit, a library file's unit):
        ``models[0].profile.W``, ``models[0].type``, ``weapons.NAME.Type``,
        ``powers.NAME.Range``, ``rules``. A scenario refuses an inline unit with any
        of them when it loads, rather than failing in the middle of the battle.
        """
        ...

    def starting_wounds(self, profile: Profile) -> int:
        """Wounds a model with ``profile`` starts with."""
        ...

    def type_rules(self, profile: Profile) -> tuple[str, ...]:
        """The special rules a model with ``profile`` has by its unit type, without
        its datasheet naming them (what ``hammerlab show`` lists beside its own)."""
        ...

    def ai(self) -> Controller:
        """The edition's heuristic AI controller."""
        ...

    def flow(self) -> Flow:
        """The edition's game turn: its phases and the end of a player's turn."""
        ...

    def start(self, battle: Battle) -> None:
        """Set the edition's own state up on ``battle`` before the first turn."""
        ...

    @property
    def status_keys(self) -> tuple[str, ...]:
        """Unit statuses of the edition's own a scenario may set (``[units.status]``)."""
        ...

    def set_statuses(self, battle: Battle, statuses: Mapping[str, Mapping[str, bool]]) -> None:
        """Give units their starting statuses (edition keys only), by unit id."""
        ...

    def embark(self, battle: Battle, unit_id: str, transport_id: str) -> None:
        """Start ``unit_id`` aboard the transport ``transport_id`` (a scenario's
        ``embarked_in``); a :class:`~hammerlab.errors.HammerlabError` says why it may not."""
        ...

    def deployment_problem(self, datasheet: Datasheet, how: str) -> str | None:
        """Why the unit may not deploy ``how`` (in reserve to arrive by ``deep_strike``,
        or by ``infiltrate``); ``None``: it may."""
        ...

    def set_deployments(self, battle: Battle, deployments: Mapping[str, str], turns: int) -> None:
        """How units deploy (unit id → how), before the first of ``turns`` game turns."""
        ...

    def summary(self, battle: Battle, plan: GamePlan, over: bool = True) -> Sequence[str]:
        """Lines describing the outcome (units destroyed, models left, winner); of a
        game stopped before its end (not ``over``), who leads rather than who won."""
        ...

    def watch_luck(self, battle: Battle, victory: str) -> LuckWatch | None:
        """Count the luck of every attack resolved in ``battle`` (a copy the search
        AI plays out) from now on, in the units of the ``victory`` condition's
        value; ``None`` where the edition has no exact expectation to count it by."""
        ...

    def units_off_table(self, battle: Battle) -> Sequence[tuple[Unit, str]]:
        """The units in play but off the table, out of ``battle.units`` (in reserve,
        aboard a transport), each with where it is in words (``in reserve``): what a
        game's summary, ``battle --json`` and the lab list beside the units on the
        table. Empty where the edition keeps no unit off it."""
        ...

    def units_to_come(self, battle: Battle) -> int:
        """How many units the rules may yet add to ``battle`` mid-game (the Waffle
        Edition's Chaos champion turns into a new unit): what an observation of fixed
        size (``hammerlab.agents``) keeps room for."""
        ...

    def outlook(self, battle: Battle, rounds: int) -> Mapping[str, float]:
        """Each player's expected gain, in the search AI's value, from what is under
        way on the table and goes on by itself (the combats being fought) over
        ``rounds`` more player turns; empty where the edition has no estimate."""
        ...


def apply_rules(battle: Battle, ruleset: Ruleset, *layers: Mapping[str, ParamValue]) -> None:
    """Settle ``battle``'s rule settings (defaults overlaid with each of ``layers`` in
    turn, :func:`~hammerlab.engine.rules.resolve_settings`) and install the rules
    that are on; an unknown or out-of-bounds setting is a
    :class:`~hammerlab.engine.rules.RuleSettingError`."""
    battle.settings = resolve_settings(ruleset.options, ruleset.parameters, *layers)
    battle.hooks = Hooks(ruleset.name)
    install_rules(battle.hooks, ruleset.options, battle.settings)


def describe_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    """A ruleset as ``rulesets --json`` prints it: options and parameters, with
    defaults, bounds and the rules text each comes from."""
    return {
        "title": ruleset.title,
        "phases": list(ruleset.phases),
        "options": [o.describe() for o in ruleset.options],
        "parameters": {p.name: p.describe() for p in ruleset.parameters},
    }


def begin_play(battle: Battle, ruleset: Ruleset, plan: GamePlan) -> Play:
    """A game of ``plan`` on ``battle`` about to start: the edition is set up and
    the cursor stands before the first turn (the plan's victory condition
    recorded in ``battle.memory[VICTORY]``, its turns and phases as the
    battle's :class:`~hammerlab.editions.schedule.Schedule`)."""
    battle.memory[VICTORY] = plan.victory
    ruleset.start(battle)
    play = Play(battle, only(ruleset.flow(), plan.phases), 1, plan.turns)
    phases = tuple(phase.name for phase in play.flow.phases)
    record_schedule(battle, Schedule(plan.turns, phases, tuple(play.order)))
    return play


def play(battle: Battle, ruleset: Ruleset, plan: GamePlan) -> None:
    """Play ``plan`` on ``battle`` to the end, every decision asked of the controllers.

    The cycle collector is left as the caller set it: the lab's runners play their
    batches in one block of :func:`~hammerlab.engine.collector.fewer_collections`; a
    block of its own for each battle put the collector's thresholds back at every
    battle's end, whose next allocation then ran a collection over all the battle
    had made (a steady Guard battle 3.7% more instructions, docs/scale.md)."""
    begin_play(battle, ruleset, plan).run()
