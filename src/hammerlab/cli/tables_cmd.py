"""``hammerlab tables``: the Waffle Edition's charts, drawn in well under a second.

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

from hammerlab.cli.common import console, fail

AUTOMATIC_HIT = "A: hits automatically"
AUTOMATIC_WOUND = "A: wounds automatically (Overwhelming Strength)"
CHARTS_FILE = Path(__file__).resolve().parent.parent / "editions" / "waffle" / "tables.py"


def _waffle_tables() -> ModuleType:
    """``editions/waffle/tables.py`` as a module of its own."""
    spec = importlib.util.spec_from_file_location("_hammerlab_waffle_charts", CHARTS_FILE)
    assert spec is not None and spec.loader is not None, CHARTS_FILE
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_tables(ruleset: str, as_json: bool) -> None:
    """Print the melee To Hit chart and the To Wound chart (or one JSON document); in
    both, ``A`` is an automatic hit or wound."""
    if ruleset != "waffle":
        raise fail(f"no tables for {ruleset!r}; known: waffle")
    charts = _waffle_tables()
    scale = [str(n) for n in range(1, 11)]
    melee = {a: {t: str(charts.MELEE_TO_HIT[int(a) - 1][int(t) - 1]) for t in scale} for a in scale}
    wound = {s: {t: _wound_cell(charts, int(s), int(t)) for t in scale} for s in scale}
    if as_json:
        typer.echo(json.dumps({"melee_to_hit": melee, "to_wound": wound}, indent=1))
        return
    for title, chart, rows, cols, caption in (
        ("Melee To Hit (attacker WS down, target WS across)", melee, "WS", "WS", AUTOMATIC_HIT),
        ("To Wound (Strength down, Toughness across)", wound, "S", "T", AUTOMATIC_WOUND),
    ):
        table = Table(f"{rows} \\ {cols}", *scale, title=title, caption=caption)
        for key in scale:
            table.add_row(key, *(chart[key][c] for c in scale))
        console.print(table)


def _wound_cell(charts: ModuleType, strength: int, toughness: int) -> str:
    """The To Wound cell the engine rolls on: ``"A"`` where Overwhelming Strength wounds
    automatically (``tables.overwhelming`` at the rules' S10), else the chart's."""
    if charts.overwhelming(strength, toughness):
        return "A"
    return str(charts.to_wound_cell(strength, toughness))
