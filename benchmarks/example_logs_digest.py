"""A digest of every example battle's full JSON log: a speed change must leave it as it was.

Issue 14 asks for a faster engine with the same rules and the same logs. This plays
every example scenario under ``examples/`` (both editions; files that are not
scenarios, such as a plug-in's, are passed over) for seeds 1 to N with the AI on both
sides, hashes each file's logs (:meth:`Game.log_json_lines`, what ``--log-json``
writes) and prints one digest for all (``ALL <digest> <files>``), with ``-v`` one line
a file. Run it on two trees: the same digest means every log is byte for byte the same.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/example_logs_digest.py [N] [-v]``
(N = 5 by default, about 20 s).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def file_digest(path: Path, seeds: int) -> str | None:
    """The digest of ``path``'s logs over seeds 1 to ``seeds``; ``None`` if it is no
    scenario file. ``path`` is relative to the tree's root (the log's header names it),
    so that two trees in two folders give the same digest."""
    try:
        spec = load_scenario(path)
    except HammerlabError:
        return None
    digest = hashlib.sha256()
    for seed in range(1, seeds + 1):
        game = Game.start(spec, str(path), seed, scenario_path=str(path))
        game.play()
        digest.update(game.log_json_lines().encode())
    return digest.hexdigest()[:16]


def main() -> None:
    """Print the digest of all, and with ``-v`` each file's."""
    seeds = next((int(a) for a in sys.argv[1:] if a.isdigit()), 5)
    verbose = "-v" in sys.argv[1:]
    total = hashlib.sha256()
    os.chdir(ROOT)
    files = sorted(Path("examples").rglob("*.toml"))
    for path in files:
        digest = file_digest(path, seeds)
        if digest is None:
            continue
        total.update(f"{path.as_posix()}:{digest}\n".encode())
        if verbose:
            print(path.as_posix(), digest)
    print("ALL", total.hexdigest()[:16], len(files))


if __name__ == "__main__":
    main()
