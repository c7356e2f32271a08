"""Reading a user's file with a cap on its size, whatever the file is.

A file's size as ``stat()`` gives it says nothing of a character device
(``/dev/zero``), a FIFO (``<(...)``) or ``/dev/stdin``: each reports 0 bytes and
never ends. So every file a user names (a scenario, a saved game, a log, a
plug-in, a BattleScribe file) is read through :func:`read_at_most`, which reads
at most one byte more than its cap from the stream and refuses a file longer
than the cap: no file can fill memory. The caps (``docs/scenarios.md``, *Caps*):

* a scenario: ``io.scenario.MAX_SCENARIO_BYTES`` (1,000,000 bytes);
* a saved game: :data:`MAX_SAVED_GAME_BYTES`; a JSON Lines log: :data:`MAX_LOG_BYTES`;
* a plug-in: :data:`MAX_PLUGIN_BYTES`;
* a BattleScribe file: ``io.battlescribe.source.MAX_XML_BYTES`` (50 MB).

What cannot be opened or read is the caller's ``OSError`` to word.
"""

from __future__ import annotations

from pathlib import Path

from hammerlab.errors import InputError

MEGABYTE = 1024 * 1024

MAX_SAVED_GAME_BYTES = 16 * MEGABYTE
"""The largest saved game (``battle --save``) read: the scenario as data (at most
1,000,000 bytes as TOML) and the decisions, some kilobytes a game turn (a three-turn
game is about 10 KB)."""
MAX_LOG_BYTES = 64 * MEGABYTE
"""The largest JSON Lines log (``battle --log-json``) read: a battle of 40 units and
400 models (the most a scenario places) wrote 370 KB, a three-turn example 50 KB."""
MAX_PLUGIN_BYTES = MEGABYTE
"""The largest plug-in file run (``docs/plugins.md``'s examples are a few KB)."""


def size_words(cap: int) -> str:
    """A cap as an error line says it: ``50 MB`` for whole megabytes, else bytes."""
    if cap >= MEGABYTE and cap % MEGABYTE == 0:
        return f"{cap // MEGABYTE} MB"
    return f"{cap} bytes"


def read_at_most(path: Path, cap: int, source: str) -> bytes:
    """The bytes of the file at ``path``, of which at most ``cap + 1`` are read: an
    :class:`~hammerlab.errors.InputError` naming ``source`` when there are more than
    ``cap``. ``OSError`` (no such file, a folder, no permission) is the caller's."""
    with path.open("rb") as stream:
        data = stream.read(cap + 1)
    if len(data) > cap:
        raise InputError(source, "", f"file larger than {size_words(cap)}")
    return data


def read_text_at_most(path: Path, cap: int, source: str) -> str:
    """:func:`read_at_most`, as UTF-8 text (an :class:`~hammerlab.errors.InputError`,
    ``not UTF-8 text``, where it is not)."""
    try:
        return read_at_most(path, cap, source).decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(source, "", "not UTF-8 text") from None
