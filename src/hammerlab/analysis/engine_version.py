"""What played a battle: the package's version, a fingerprint of its code and the
plug-in files loaded (:func:`engine_version`).

Every stored battle carries it (:mod:`hammerlab.analysis.store`), and every Dask
worker must share it (:class:`~hammerlab.analysis.runners.DaskRunner`, and each
batch's plug-ins: :func:`~hammerlab.analysis.runners.play_batch`): a battle played
by other code is another battle.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from hammerlab.editions.plugins import HASH_DIGITS, PluginFile

SOURCE_SUFFIXES = (".py", ".toml")
"""The files of the package that decide how a battle is played: its code and the
datasheet library (``library/**/*.toml``). The web server's pages and scripts are not."""


def source_fingerprint(folder: Path) -> str:
    """The first 12 hex digits of a SHA-256 over every :data:`SOURCE_SUFFIXES` file
    under ``folder``: for each, in the order of its path relative to ``folder`` (POSIX
    form), the path, a NUL byte, its size in bytes, a NUL byte and its bytes.

    Only paths and bytes go in (no modification times, no line-ending or other
    normalisation), so every clone or install of the same code gives the same
    fingerprint, and any edit to a file, or a file added, removed or renamed, gives
    another. For the package's 200-odd files (1.5 MB) it takes about 7 ms (15 on a
    busy machine), mostly opening the files.
    """
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root, name)
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                files[path.relative_to(folder).as_posix()] = path
    digest = hashlib.sha256()
    for name in sorted(files):
        data = files[name].read_bytes()
        digest.update(b"%s\0%d\0%s" % (name.encode(), len(data), data))
    return digest.hexdigest()[:12]


ENGINE_VERSION = f"{version('hammerlab')}+{source_fingerprint(Path(__file__).resolve().parents[1])}"
"""Stored with every battle: the package's version and the fingerprint of the
code that plays it (:func:`source_fingerprint` of the ``hammerlab`` package this
module belongs to), computed once per process. The version alone is not enough:
it stays the same while the rules and the AI change, and a battle played by
other code is another battle, never reused by ``--resume``."""


def engine_version(plugins: Sequence[PluginFile] = ()) -> str:
    """What plays battles with ``plugins`` loaded (in loading order): :data:`ENGINE_VERSION`,
    followed by ``+plugins:`` and each plug-in's ``NAME@HASH``
    (:attr:`~hammerlab.editions.plugins.PluginFile.label`) where there are any, e.g.
    ``0.1.0+5ae389d1f28a+plugins:heavy_suppression.py@1f0c9a2b7d3e``.

    A plug-in file is code that plays the battle as much as the package is, so an
    edited plug-in gives another engine version, and the store neither reuses nor
    counts as stored the battles its earlier version played. Its path is left out
    (the same file elsewhere plays the same battles)."""
    if not plugins:
        return ENGINE_VERSION
    return ENGINE_VERSION + PLUGINS_MARK + ",".join(p.label for p in plugins)


PLUGINS_MARK = "+plugins:"
"""What stands in an engine version before its plug-ins' labels (:func:`engine_version`)."""


def stored_plugins(version: str) -> list[dict[str, Any]]:
    """The plug-in files an engine version names (:func:`engine_version`), for JSON as
    :meth:`~hammerlab.editions.plugins.PluginFile.to_dict` writes one, with the path
    ``None``: a store keeps what played a battle, not where the file was, e.g.
    ``{"path": None, "name": "brace.py", "hash": "d9e033f717b7"}``."""
    _, mark, labels = version.partition(PLUGINS_MARK)
    if not mark:
        return []
    found = re.findall(rf"(.+?)@([0-9a-f]{{{HASH_DIGITS}}})(?:,|$)", labels)
    return [{"path": None, "name": name, "hash": digest} for name, digest in found]


def plugins_line(plugins: Sequence[PluginFile]) -> str | None:
    """``Plug-ins: PATH (hash HASH); ...`` for a report, or ``None`` without any."""
    if not plugins:
        return None
    return "Plug-ins: " + "; ".join(p.text for p in plugins)
