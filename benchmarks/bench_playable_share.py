"""The share of units with models that play a three-turn battle (issue 12's contract).

For each of the four shared 7th-edition catalogues (copied, unchanged, into
``tests/data/bsdata-7e``), every unit with models (or that had models before
a model was refused) is loaded from the file into a scenario (``source =``)
against built-in Ork Boyz and played for three game turns (movement,
shooting and assault phases). A unit counts when it loads and plays; a unit
the importer refuses fails at load time with its reason (an error in the
middle of a battle is a bug, and stops the benchmark).
Prints the count and share per catalogue and in all, and the time taken.
"""

from __future__ import annotations

import time
from pathlib import Path

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.turns import WIPED_OUT
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import import_file
from hammerlab.io.battlescribe.datasheets import FORMATION, NO_MODELS
from hammerlab.io.scenario import Scenario

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "bsdata-7e"
CATALOGUES = (
    "Space Marines - Codex (2015).cat",
    "Orks - Codex.cat",
    "Astra Militarum - Codex.cat",
    "Tyranids - Codex.cat",
)


def battle(path: Path, unit: str) -> Scenario:
    """``unit`` from ``path`` (first player) against built-in Ork Boyz, three turns."""
    return Scenario.model_validate(
        {
            "name": f"{unit}: three turns",
            "ruleset": "waffle",
            "seed": 3,
            "first_player": "Imported",
            "players": [{"name": "Imported", "edge": "south"}, {"name": "Orks", "edge": "north"}],
            "units": [
                {
                    "id": "imported",
                    "player": "Imported",
                    "unit": unit,
                    "source": str(path),
                    "position": [36, 14],
                },
                {"id": "enemy", "player": "Orks", "unit": "Ork Boyz", "position": [36, 30]},
            ],
            "plan": {"turns": 3, "phases": ["movement", "shooting", "assault"]},
        }
    )


def plays(path: Path, unit: str) -> bool:
    """Whether ``unit`` loads and plays the battle to its end: three turns, or fewer where
    a side is wiped out (Sudden Death ends the game then; until the twenty-first session
    such a battle was counted as not played, so most units the Boyz destroy in turn 1 or 2
    were: 112 of 545); a refusal at load time is ``False``."""
    try:
        ready = prepare(battle(path, unit), str(path.parent / "share.toml"))
    except InputError:
        return False
    play(ready.battle, ready.ruleset, ready.plan)
    return ready.battle.turn == 3 or bool(ready.battle.memory.get(WIPED_OUT))


def main() -> None:
    start = time.perf_counter()
    totals = [0, 0]
    for name in CATALOGUES:
        path = DATA / name
        result = import_file(path)
        units = [  # formations are no units (docs/importers.md: 492 of 515 are playable)
            s.name
            for s in result.datasheets
            if not any(r == NO_MODELS or r.startswith(FORMATION) for r in result.reasons(s.name))
        ]
        played = sum(plays(path, unit) for unit in units)
        totals[0] += played
        totals[1] += len(units)
        print(f"{name:36} {played:4}/{len(units):<4} ({played / len(units):.1%})")
    played, total = totals
    print(f"{'all four':36} {played:4}/{total:<4} ({played / total:.1%})")
    print(f"three-turn battles played in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
