"""How many Fall Back moves end Trapped! in the Waffle examples (docs/rules/waffle.md, Fall Back).

Plays every Waffle Edition scenario under ``examples/`` (or the files named) for
seeds 1 to N with the AI on both sides and counts, per file and in all, the Fall
Back moves (``reaction`` events whose reaction is "falls back ...": a charge
reaction, a lost combat, a failed Morale check) and the units destroyed as
Trapped! (a ``casualty`` event whose cause is "trapped while falling back"; a
trapped unit loses every model at once, so it counts once).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_trapped.py [N] [FILE ...]

(N = 10 by default, about 30 s.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hammerlab.analysis.game import Game
from hammerlab.errors import HammerlabError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
TRAPPED = "trapped while falling back"


def counts(path: Path, seeds: int) -> tuple[int, int] | None:
    """(Fall Back moves, units Trapped!) over seeds 1 to ``seeds`` of ``path``;
    ``None`` if it is no Waffle Edition scenario."""
    try:
        spec = load_scenario(path)
    except HammerlabError:
        return None
    if spec.ruleset != "waffle":
        return None
    falls = trapped = 0
    for seed in range(1, seeds + 1):
        game = Game.start(spec, str(path), seed, scenario_path=str(path))
        game.play()
        events = game.battle.log.events
        falls += sum(
            1
            for e in events
            if e.kind == "reaction" and getattr(e, "reaction", "").startswith("falls back")
        )
        trapped += len({e.unit for e in events if getattr(e, "cause", None) == TRAPPED})
    return falls, trapped


def main() -> None:
    """Print each file's counts with a Fall Back, then the totals."""
    args = sys.argv[1:]
    seeds = next((int(a) for a in args if a.isdigit()), 10)
    os.chdir(ROOT)
    named = [Path(a) for a in args if not a.isdigit()]
    files = named or sorted(Path("examples").rglob("*.toml"))
    all_falls = all_trapped = 0
    for path in files:
        found = counts(path, seeds)
        if found is None or found[0] == 0:
            continue
        falls, trapped = found
        all_falls, all_trapped = all_falls + falls, all_trapped + trapped
        print(f"{path.as_posix()}: {trapped} of {falls} fall-backs trapped")
    print(f"ALL: {all_trapped} of {all_falls} fall-backs trapped (seeds 1 to {seeds})")


if __name__ == "__main__":
    main()
