"""The search AI against the heuristic with its budget changed (the numbers in docs/ai.md).

Plays ``hammerlab tournament FILES --players search,heuristic --games N``
with fields of :class:`~hammerlab.analysis.search.Budget` set (``--budget
dice=single``, ``--budget playouts=16``) and, with ``--significance``, the
paired test's threshold (:data:`~hammerlab.analysis.search.SIGNIFICANCE`)
changed. It prints the search's wins, draws and losses, the CPU time, and how
many top-level and reaction decisions the search raced, how many left a
challenger to the heuristic's pick and how many challengers the paired test
accepted. ``--json FILE`` writes the tournament's report (as ``--json`` does,
for ``breakdown.py``); ``--compare FILE`` lists the games whose result differs
from that earlier report's (same seeds and sides); ``--changes`` lists the
accepted changes by what the heuristic picked and what the search chose
instead, most frequent first (where the heuristic's mistakes are: the Return
Fire! fix in docs/ai.md was read off this list).

    .venv/bin/python examples/matchups/search_budget.py FILES --games 5 [--seed 6] \\
        [--budget dice=single] [--significance 1] [--json OUT.json] [--compare OLD.json] \\
        [--changes]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from hammerlab.analysis import search
from hammerlab.analysis.tournament import tournament
from hammerlab.io.scenario import load_scenario

COUNTS: Counter[str] = Counter()
CHANGES: Counter[str] = Counter()
"""Each accepted change: the searching side, the decision, the heuristic's pick, the search's."""


def _counting() -> None:
    """Count the races, their challengers and the accepted ones, and list each
    accepted change (wrapping the search's own functions)."""
    race, confirm = search.race, search.SearchController.confirm
    challenge, inner = search.SearchController.challenge, search.SearchController.inner_choice
    asked: list[str] = []
    """The inner decision being searched (its kind), empty at the top level."""

    def counted_race(*args: Any) -> Any:
        challenger = race(*args)
        COUNTS["raced"] += 1
        COUNTS["challenged"] += challenger is not None
        return challenger

    def counted_confirm(self: search.SearchController, *args: Any) -> bool:
        accepted = confirm(self, *args)
        COUNTS["accepted"] += accepted
        return accepted

    def listed_inner(self: search.SearchController, battle: Any, decision: Any, pick: int) -> int:
        asked.append(decision.kind)
        try:
            return inner(self, battle, decision, pick)
        finally:
            asked.pop()

    def listed_challenge(self: search.SearchController, default: Any, *args: Any) -> Any:
        chosen = challenge(self, default, *args)
        if chosen != default:
            kind = asked[-1] if asked else default.kind
            CHANGES[f"{self.player}, {kind}: {default} -> {chosen}"] += 1
        return chosen

    search.race = counted_race  # type: ignore[assignment]
    search.SearchController.confirm = counted_confirm  # type: ignore[method-assign, assignment]
    search.SearchController.challenge = listed_challenge  # type: ignore[method-assign, assignment]
    search.SearchController.inner_choice = listed_inner  # type: ignore[method-assign]


def _budget(settings: list[str]) -> search.Budget:
    """The default budget with ``name=value`` settings (a ``ValueError`` naming the
    setting for an unknown name, a value of the wrong type or an unknown dice mode)."""
    defaults = search.Budget()
    # A field unset by default (None) takes a whole number (confirm_rounds).
    types = {
        f.name: int if getattr(defaults, f.name) is None else type(getattr(defaults, f.name))
        for f in fields(search.Budget)
    }
    changes: dict[str, Any] = {}
    for setting in settings:
        name, _, value = setting.partition("=")
        if name not in types:
            raise ValueError(f"--budget {setting}: no field {name!r} (one of {', '.join(types)})")
        try:
            changes[name] = types[name](value)
        except ValueError:
            raise ValueError(f"--budget {setting}: {value!r} is no {name} value") from None
    return replace(search.Budget(), **changes)


def _results(report: dict[str, Any]) -> dict[str, str]:
    """Each game's result for the search (W, D or L), by scenario, seed and sides."""
    out = {}
    for game in report["games"]:
        sides = ", ".join(f"{s}: {p}" for s, p in sorted(game["sides"].items()))
        key = f"{game['scenario']}, seed {game['seed']}, {sides}"
        winner = game["winner"]
        out[key] = "D" if winner is None else "W" if winner == "search" else "L"
    return out


def _old_results(parser: argparse.ArgumentParser, path: Path) -> dict[str, str]:
    """The results of the earlier report ``--compare`` names, or one line
    naming the file and what is wrong with it."""
    try:
        return _results(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as error:
        parser.error(f"--compare {path}: not a tournament report ({error})")


def main() -> None:
    """Play the tournament and print the search's record, CPU and counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--significance", type=float)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--changes", action="store_true")
    args = parser.parse_args()
    try:
        budget = _budget(args.budget)
        specs = [(load_scenario(path), str(path)) for path in args.files]
    except ValueError as error:  # InputError and DiceModeError are ValueErrors too
        parser.error(str(error))
    # Read before the games are played (minutes of them), not after.
    old_results = _old_results(parser, args.compare) if args.compare else None
    if args.significance is not None:
        search.SIGNIFICANCE = args.significance
    _counting()
    start = time.process_time()
    report = tournament(specs, ["search", "heuristic"], args.games, args.seed, budget).to_dict()
    cpu = time.process_time() - start
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    record = report["players"]["search"]
    print(
        f"{budget}: search {record['wins']} / {record['draws']} / {record['losses']} "
        f"of {record['games']}, {cpu:.0f} s of CPU ({cpu / record['games']:.1f} s a game); "
        f"{COUNTS['raced']} decisions raced, {COUNTS['challenged']} left a challenger, "
        f"{COUNTS['accepted']} accepted"
    )
    if args.changes:
        print(f"{sum(CHANGES.values())} accepted changes, most frequent first:")
        for change, times in CHANGES.most_common():
            print(f"  {times} x {change}")
    if old_results is not None:
        old, new = old_results, _results(report)
        changed = [(k, old[k], new[k]) for k in new if k in old and old[k] != new[k]]
        better = sum("LDW".index(n) > "LDW".index(o) for _, o, n in changed)
        print(f"{len(changed)} of {len(new)} results differ: {better} better, the rest worse")
        for key, was, now in changed:
            print(f"  {key}: {was} -> {now}")


if __name__ == "__main__":
    main()
