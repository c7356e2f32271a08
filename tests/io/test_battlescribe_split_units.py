"""Units of the shared catalogues that hold both vehicles and other models become two.

Counts read by hand from ``tests/data/bsdata-7e`` (the import listing of each
unit): the Astra Militarum "Infantry Squad" of the "Infantry Platoon" holds a
Sergeant, nine Guardsmen and a Chimera; the "Hades Breaching Drill with Hades
Assault Squad (FW)" (line 46111) a Veteran Sergeant (min 1), nine Veterans (the
group "Veterans", min 9, default Veteran) and the Hades Breaching Drill (min 1, a
vehicle profile: Front 11, Side 10, Rear 10, HP 2). (The Orks "Dread Mob", a Big
Mek and three Deff Dreads, was the second case: it is a formation, whose Big Mek
and Deff Dreads are units of their own, so it is now no unit at all.)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from hammerlab.engine.datasheet import ModelEntry
from hammerlab.io.battlescribe import import_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"


def counts(entries: Iterable[ModelEntry]) -> dict[str, int]:
    """Models of each profile, in all."""
    totals: dict[str, int] = {}
    for entry in entries:
        totals[entry.profile.name] = totals.get(entry.profile.name, 0) + entry.count
    return totals


@pytest.mark.parametrize(
    ("catalogue", "unit", "kept", "vehicles"),
    [
        (
            "Astra Militarum - Codex.cat",
            "Infantry Squad (Infantry Platoon)",
            {"Sergeant": 1, "Guardsman": 9},
            {"Chimera": 1},
        ),
        (
            "Astra Militarum - Codex.cat",
            "Hades Breaching Drill with Hades Assault Squad (FW)",
            {"Veteran Sergeant": 1, "Veteran": 9},
            {"Hades Breaching Drill": 1},
        ),
    ],
)
def test_a_squad_with_its_vehicle_becomes_two_playable_units(
    catalogue: str, unit: str, kept: dict[str, int], vehicles: dict[str, int]
) -> None:
    result = import_file(DATA / catalogue)
    squad = result.find(unit)
    other = result.find(f"{unit}: {', '.join(vehicles)}")
    assert counts(squad.entries) == kept
    assert counts(other.entries) == vehicles
    assert result.reasons(squad.name) == result.reasons(other.name) == ()
    assert any(f"imported as the datasheet {other.name!r}" in note for note in squad.notes)
    assert other.notes[0].startswith(f"Split from {unit!r}")
    assert other.rules == ()  # the squad's rules stay with the squad
