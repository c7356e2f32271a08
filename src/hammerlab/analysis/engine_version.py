"""What played a battle: the package's version and a fingerprint of its code.

Every stored battle carries it (:mod:`hammerlab.analysis.store`), and every Dask
worker must share it (:class:`~hammerlab.analysis.runners.DaskRunner`): a battle
played by other code is another battle.
"""

from __future__ import annotations

import hashlib
import os
from importlib.metadata import version
from pathlib import Path

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
