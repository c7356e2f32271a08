"""How events look in a terminal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console

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


def plain_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Columns padded to their widest cell, a rule under the headers; no wrapping.

    For long listings (``hammerlab import``), where drawing rich tables costs
    more than computing what is in them.
    """
    table = [list(headers), *(list(row) for row in rows)]
    widths = [max(len(row[i]) for row in table) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)
