"""CPU time of ``hammerlab`` commands that should answer at once, against a bare
``python -c 'import typer, rich'`` measured in the same run.

Each command runs ``REPEATS`` times as a subprocess; its CPU time (user +
system) is the growth of ``resource.getrusage(RUSAGE_CHILDREN)`` around the
run, and the median is printed beside the reference's and as a ratio. The aim
(issue 10) is under 0.25 s for ``--help`` and ``tables``; the odds lines show
what loading a unit library costs on top. No asserts.

Run: ``.venv/bin/python benchmarks/bench_cli_startup.py``
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path
from statistics import median

REPEATS = 7
ROOT = Path(__file__).resolve().parents[1]
HAMMERLAB = [sys.executable, "-c", "from hammerlab.cli.app import main; main()"]
REFERENCE = [sys.executable, "-c", "import typer, rich"]
COMMANDS = [
    ("--help",),
    ("tables",),
    ("odds", "--help"),
    ("units", "orks"),
    ("odds", "-r", "waffle", "--attacker", "Heavy Weapons Squad", "--weapon", "Lascannon",
     "--target", "Space Marine Captain"),
    ("odds", "-r", "core11", "--attacker", "Intercessor Squad", "--weapon", "Bolt Rifle",
     "--profile", "Focused Fire",
     "--target", "Boyz"),
]  # fmt: skip


def cpu_seconds(command: list[str]) -> float:
    """The median CPU time of ``command`` over ``REPEATS`` runs, output discarded."""
    times = []
    for _ in range(REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return median(times)


def main() -> None:
    """One line per command: its CPU time, the reference's, and the ratio."""
    reference = cpu_seconds(REFERENCE)
    print(f"{'command':72} {'CPU s':>6} {'ref s':>6} {'ratio':>6}")
    for args in COMMANDS:
        spent = cpu_seconds([*HAMMERLAB, *args])
        shown = " ".join(f"'{a}'" if " " in a else a for a in ("hammerlab", *args))
        print(f"{shown[:72]:72} {spent:6.3f} {reference:6.3f} {spent / reference:6.1f}")
    print(f"(median of {REPEATS} runs; ref: python -c 'import typer, rich'; aim: --help and tables"
          " under 0.25 s)")  # fmt: skip


if __name__ == "__main__":
    main()
