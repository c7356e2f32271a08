"""How fast the BattleScribe importer reads the real data files in ``tests/data``.

Prints, for each file in ``tests/data``, the time to import it (parse,
index, resolve links, build every datasheet; for a catalogue this includes
loading its game system) and the ratio to a reference measured in the same
run: a plain ``defusedxml.ElementTree.parse`` of the same file.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import defusedxml.ElementTree as SafeET

from hammerlab.io.battlescribe import clear_cache, import_file

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
RUNS = 3


def best_time(action: Callable[[], object]) -> float:
    """The fastest of ``RUNS`` runs of ``action``, in seconds."""
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def import_fresh(path: Path) -> None:
    """Import ``path`` bypassing the per-process cache."""
    clear_cache()
    import_file(path)


def main() -> None:
    """Time every shared BattleScribe file."""
    files = sorted(p for p in DATA.rglob("*") if p.suffix in {".cat", ".gst", ".ros", ".rosz"})
    if not files:
        print(f"no BattleScribe files under {DATA}")
        return
    print(f"{'file':<40} {'size':>8} {'import':>9} {'parse':>9} {'ratio':>6}")
    for path in files:
        imported = best_time(partial(import_fresh, path))
        parsed = best_time(partial(SafeET.parse, path))
        size = f"{path.stat().st_size / 1e6:.1f} MB"
        print(
            f"{path.name:<40} {size:>8} {imported * 1000:>7.0f}ms {parsed * 1000:>7.0f}ms "
            f"{imported / parsed:>5.1f}x"
        )


if __name__ == "__main__":
    main()
