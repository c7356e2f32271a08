"""Run every benchmark script in this folder, each in a fresh process.

Each script runs in a process of its own, so that no benchmark's leftovers (tables of
answers, threads, a heap that workers forked from it inherit) weigh on another's
figures: run in one process, the Guard run read 31.7 and 32.8 s and one battle 5.1 ms
of CPU inside ``make bench``, against 29.8 s and 3.7 ms for ``bench_scale.py`` alone
minutes later (``docs/scale.md``, the nineteenth session).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

failed = []
for script in sorted(Path(__file__).parent.glob("bench_*.py")):
    print(f"== {script.name}", flush=True)
    if subprocess.run([sys.executable, str(script)], check=False).returncode != 0:
        failed.append(script.name)
if failed:
    sys.exit(f"benchmarks failed: {', '.join(failed)}")
