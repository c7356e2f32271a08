"""docs/api.md's table of events lists every event class a battle can log, with its
kind and fields: a tool builder reads the log from that table."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import hammerlab
from hammerlab.engine.events import Event, ModelMoved

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"
ROW = re.compile(r"\| `[^`]+` \| \w+ \| `(?P<name>\w+)` \(")
"""A row of the Events table: kind, edition, then the class and its module."""


def _subclasses(kind: type[Event]) -> Iterator[type[Event]]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_event_class_is_a_row_of_the_table_with_its_kind_and_fields() -> None:
    for module in pkgutil.walk_packages(hammerlab.__path__, "hammerlab."):
        if ".web" not in module.name:  # the web app's modules log nothing of their own
            importlib.import_module(module.name)
    rows = {
        found.group("name"): line
        for line in API.read_text("utf-8").splitlines()
        if (found := ROW.match(line))
    }
    classes = set(_subclasses(Event))
    assert classes, "no event classes found"
    for event in classes:
        row = rows.get(event.__name__)
        assert row is not None, f"{event.__name__} is missing from docs/api.md's Events"
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == f"`{event.kind}`", event.__name__
        fields = [f"`{f.name}`" for f in dataclasses.fields(event)]
        assert cells[3] == (", ".join(fields) or "—"), event.__name__
    assert len(rows) == len(classes), "a row of docs/api.md's Events names no event class"


def test_a_move_too_short_to_show_in_tenths_says_its_length() -> None:
    """A user review read "piles in: (30.9,12.0) → (30.9,12.0)" as a move to nowhere:
    0.03" east then reads 0.03"; a move that shows in tenths is left as it was."""
    tiny = ModelMoved(
        unit="Boyz", model="b.1", start=(30.9, 12.0), end=(30.93, 12.0), reason="piles in"
    )
    assert tiny.text == '  b.1 (Boyz) piles in: (30.9,12.0) → (30.9,12.0) (0.03")'
    seen = ModelMoved(
        unit="Boyz", model="b.1", start=(30.9, 12.0), end=(33.9, 16.0), reason="moves"
    )
    assert seen.text == "  b.1 (Boyz) moves: (30.9,12.0) → (33.9,16.0)"
