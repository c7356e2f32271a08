"""A plug-in rule file as the agent interfaces' tests write it."""

from __future__ import annotations

from pathlib import Path

PLUGIN = '''"""Armour saves one better (never better than 2+)."""
from hammerlab.editions.waffle.points import ARMOUR_SAVE
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings


def install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(ARMOUR_SAVE, lambda battle, unit, model, sv: None if sv is None else max(2, sv - 1))


RULESET = "waffle"
RULES = (RuleOption("{name}", "Armour saves are better", "House rule", install=install),)
'''


def plugin_file(folder: Path, name: str) -> Path:
    """A plug-in file in ``folder`` with the Waffle rule ``name`` (armour saves one
    better); each test names its own, as a process knows a plug-in's rule once loaded."""
    path = folder / f"{name}.py"
    path.write_text(PLUGIN.replace("{name}", name), encoding="utf-8")
    return path
