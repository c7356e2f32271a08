"""How many special rules named in the BattleScribe catalogues the Waffle Edition
does not implement, by the ruleset's own report (``validate_datasheet``: the
"not implemented" lines of ``hammerlab show``).

Prints the number of distinct rule names still reported, how many (unit, rule)
pairs name them, and the most common. Reads the shared catalogues
(``../shared/data/bsdata-7e``) when they are there, else the copies in
``tests/data/bsdata-7e``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from hammerlab.editions import get_ruleset
from hammerlab.io.battlescribe import import_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "bsdata-7e"
COPIES = ROOT / "tests" / "data" / "bsdata-7e"
REPORTED = re.compile(r"rule not implemented: (.*)$")
SHOWN = 25


def unsupported(folder: Path) -> Counter[str]:
    """Rule name → how many units of the catalogues in ``folder`` report it."""
    rules = get_ruleset("waffle")
    units: Counter[str] = Counter()
    for path in sorted(folder.glob("*.cat")):
        for sheet in import_file(path).datasheets:
            problems = rules.validate_datasheet(sheet)
            units.update({m.group(1) for p in problems if (m := REPORTED.search(p))})
    return units


def main() -> None:
    """Print the figures for the shared catalogues."""
    folder = SHARED if SHARED.is_dir() else COPIES
    units = unsupported(folder)
    print(f"catalogues: {folder}")
    print(
        f"{len(units)} distinct rules not implemented, named {sum(units.values())} times by units"
    )
    for name, count in units.most_common(SHOWN):
        print(f"{count:>5}  {name}")


if __name__ == "__main__":
    main()
