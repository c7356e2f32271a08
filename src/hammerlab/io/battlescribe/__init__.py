"""Importing BattleScribe data: game systems, catalogues and rosters.

``import_file`` reads a ``.gst``, ``.cat``, ``.ros`` or ``.rosz`` file into
engine :class:`~hammerlab.engine.datasheet.Datasheet` objects, one per unit,
each with notes on whatever could not be mapped. ``docs/importers.md``
describes the mapping, its choices and the safety limits.
"""

from hammerlab.io.battlescribe.importer import (
    ImportResult,
    clear_cache,
    import_file,
    unit_from_file,
)

__all__ = ["ImportResult", "clear_cache", "import_file", "unit_from_file"]
