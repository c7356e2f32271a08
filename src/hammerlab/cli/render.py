"""How events look in a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from hammerlab.engine.events import Event

STYLES = {
    "phase": "bold cyan",
    "dice": "dim",
    "decision": "yellow",
    "casualty": "bold red",
    "wound": "red",
    "save": "green",
    "morale": "magenta",
    "reaction": "bold yellow",
    "shots": "bold",
    "marker": "bold",
}


def show_event(console: Console, event: Event, dice: bool = True) -> None:
    """Print one event, styled by its kind."""
    if event.kind == "dice" and not dice:
        return
    console.print(Text(event.text, style=STYLES.get(event.kind, "")))
