"""``hammerlab tables``: an edition's charts, drawn in well under a second.

The Waffle Edition's are its melee To Hit chart and its To Wound chart; the 11th
edition's (core11) is its wound roll table, worked out by the engine's own
``editions/core11/rolls.wound_need`` for every Strength and Toughness from 1 to
:data:`CORE11_SCALE`.

The charts live in ``editions/waffle/tables.py``, which imports nothing; but
importing it as ``hammerlab.editions.waffle.tables`` first runs the packages
above it, which load the whole ruleset and the engine (about 0.3 s of CPU).
So this command loads that one file by its path, under a private module name,
and reads the charts from it: the same code the engine uses, without the rest.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import typer
from rich.table import Table

from hammerlab.cli.common import fail, print_table, usage_error

AUTOMATIC_HIT = "A: hits automatically"
AUTOMATIC_WOUND = "A: wounds automatically (Overwhelming Strength)"
DEFAULT_OVERWHELMING = 10
"""Seed 000: "an attack with S10 (And S10 only!)"; the parameter ``overwhelming_strength``'s
default, which ``tests`` check against the parameter itself."""
CHARTS_FILE = Path(__file__).resolve().parent.parent / "editions" / "waffle" / "tables.py"
CORE11_SCALE = 12
"""The highest Strength and Toughness the 11th-edition table shows (a Knight's T12;
past it each row and column goes on by the same rule: S ≥ 2T 2+ ... S ≤ T/2 6+)."""
CORE11_CAPTION = "an unmodified 1 always fails, an unmodified 6 always wounds (a critical wound)"


def _waffle_tables() -> ModuleType:
    """``editions/waffle/tables.py`` as a module of its own."""
    spec = importlib.util.spec_from_file_location("_hammerlab_waffle_charts", CHARTS_FILE)
    assert spec is not None and spec.loader is not None, CHARTS_FILE
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_tables(ruleset: str, as_json: bool, rules: tuple[str, ...] = ()) -> None:
    """Print ``ruleset``'s charts (or one JSON document). The Waffle Edition's: the
    melee To Hit chart and the To Wound chart, in both of which ``A`` is an automatic
    hit or wound; ``rules``: ``--rule NAME=VALUE`` flags of the parameters they read
    (the Strength of Overwhelming Strength). The 11th edition's: its wound roll
    table, which reads no rule parameter."""
    if ruleset == "core11":
        if rules:
            raise usage_error("--rule", "the core11 wound roll table reads no rule or parameter")
        _core11_tables(as_json)
        return
    if ruleset != "waffle":
        raise fail(f"no tables for {ruleset!r}; known: waffle, core11")
    at = _overwhelming_at(rules) if rules else DEFAULT_OVERWHELMING
    charts = _waffle_tables()
    scale = [str(n) for n in range(1, 11)]
    melee = {a: {t: str(charts.MELEE_TO_HIT[int(a) - 1][int(t) - 1]) for t in scale} for a in scale}
    wound = {s: {t: _wound_cell(charts, int(s), int(t), at) for t in scale} for s in scale}
    if as_json:
        document = {"melee_to_hit": melee, "to_wound": wound, "overwhelming_strength": at}
        typer.echo(json.dumps(document, indent=1))
        return
    automatic_wound = f"{AUTOMATIC_WOUND} at S{at}"
    title = "Melee To Hit (attacker WS down, target WS across)"
    _print_chart(title, melee, "WS", "WS", AUTOMATIC_HIT)
    _print_chart("To Wound (Strength down, Toughness across)", wound, "S", "T", automatic_wound)


def _core11_tables(as_json: bool) -> None:
    """The 11th edition's wound roll table, each cell the roll the engine needs
    (``rolls.wound_need``; importing the 11th edition's rolls loads its profiles)."""
    from hammerlab.editions.core11.rolls import wound_need

    scale = [str(n) for n in range(1, CORE11_SCALE + 1)]
    wound = {s: {t: f"{wound_need(int(s), int(t))}+" for t in scale} for s in scale}
    if as_json:
        typer.echo(json.dumps({"wound_roll": wound}, indent=1))
        return
    title = "Wound roll (Strength down, Toughness across)"
    _print_chart(title, wound, "S", "T", CORE11_CAPTION)


def _print_chart(
    title: str, chart: dict[str, dict[str, str]], rows: str, cols: str, caption: str
) -> None:
    """One chart as a table, its rows and columns in the chart's order."""
    columns = list(next(iter(chart.values())))
    table = Table(f"{rows} \\ {cols}", *columns, title=title, caption=caption)
    for key, row in chart.items():
        table.add_row(key, *(row[c] for c in columns))
    print_table(table)


def _overwhelming_at(flags: tuple[str, ...]) -> int:
    """The ``overwhelming_strength`` the ``--rule`` flags set, checked against the
    ruleset's own parameter (its bounds) as ``battle --rule`` checks it; any other
    name is refused, since no other rule changes these charts (one of the ruleset's
    as not read by them, as ``odds`` says it: ``editions.resolve_read``). Loads the
    engine's rule settings, so only when a flag is given."""
    from hammerlab.editions import resolve_read
    from hammerlab.editions.waffle.parameters import OVERWHELMING_STRENGTH
    from hammerlab.engine.rules import RuleSettingError, rule_flags

    try:
        settings = resolve_read(
            "waffle", (OVERWHELMING_STRENGTH,), rule_flags(flags), "these charts"
        )
    except RuleSettingError as error:
        raise usage_error("--rule", error) from None
    return settings.integer(OVERWHELMING_STRENGTH.name)


def _wound_cell(charts: ModuleType, strength: int, toughness: int, at: int) -> str:
    """The To Wound cell the engine rolls on: ``"A"`` where Overwhelming Strength wounds
    automatically (``tables.overwhelming`` at the rules' Strength ``at``), else the
    chart's."""
    if charts.overwhelming(strength, toughness, at):
        return "A"
    return str(charts.to_wound_cell(strength, toughness))
