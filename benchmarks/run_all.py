"""Run every benchmark script in this folder."""

from __future__ import annotations

import runpy
from pathlib import Path

for script in sorted(Path(__file__).parent.glob("bench_*.py")):
    print(f"== {script.name}")
    runpy.run_path(str(script), run_name="__main__")
