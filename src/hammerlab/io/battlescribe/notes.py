"""The importer's notes that a battle repeats as warnings.

Most notes on a unit say how its data was read (``show --from`` prints them all).
Some say what the unit cannot do as its data describes it: a weapon dropped, a
model carrying no weapon, a rule of a weapon given to none of them, a ranged
weapon that never fires, a characteristic a modifier would change kept as written.
A battle repeats those (:attr:`Datasheet.battle_notes`). Each is written as a
:class:`BattleNote` where it is made, so the kind is chosen there, not read off
how its sentence ends.
"""

from __future__ import annotations


class BattleNote(str):
    """A note on a unit that a battle repeats as a warning (see the module): a string
    like any other note, its type saying which kind it is."""

    __slots__ = ()


def battle_notes(notes: tuple[str, ...]) -> tuple[str, ...]:
    """Those of ``notes`` a battle repeats (each a :class:`BattleNote`), in order."""
    return tuple(note for note in notes if isinstance(note, BattleNote))
