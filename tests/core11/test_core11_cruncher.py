"""Odds against wh40kdc's own expected-value cruncher on weapon/target pairs of its dataset.

``wh40kdc.crunch`` computes expected attacks, hits, wounds and damage after Feel
No Pain for one weapon profile against one unit profile. The pairs are every
first ranged profile (in the dataset's order) of each distinct set of keywords
that both tools implement the same way, carried by a default loadout, against
four single-profile targets, at and beyond half range. Both tools are run with
the attacker stationary and no cover; hammerlab's exact means must equal the
cruncher's expectations.
"""

from __future__ import annotations

import math
from typing import Any

import wh40kdc
from core11_kit import ruleset

from hammerlab.editions.core11.abilities import feel_no_pain_of
from hammerlab.editions.core11.odds_questions import library_answer
from hammerlab.errors import QuestionError

SAME_RULES = {
    "rapid-fire", "heavy", "torrent", "lethal-hits", "sustained-hits", "devastating-wounds",
    "anti", "twin-linked", "melta", "ignores-cover", "assault", "pistol", "close-quarters",
    "precision", "hazardous", "one-shot", "psychic", "indirect-fire", "blast",
}  # fmt: skip
"""Keywords both implement alike (or that change nothing in this comparison)."""
TARGETS = ("Intercessor Squad", "Cypher", "Invader ATV", "Termagants")
PAIRS_WANTED = 60
TARGET_MODELS = 5


def _pairs() -> list[tuple[Any, Any, int]]:
    """(unit, weapon, profile index): the first weapon of the dataset's order for each
    distinct set of keywords (with their parameters) that a default loadout carries."""
    library = ruleset().library
    pairs = []
    kinds_seen: set[str] = set()
    for unit in library.dataset.units.all:
        carried = {w.name for w in library.datasheet(unit.name).weapons()}
        for weapon in unit.weapons:
            for index, profile in enumerate(weapon.profiles):
                refs = profile.get("keywords") or []
                ids = {k["keyword_id"] for k in refs}
                kind = repr(sorted(repr(sorted(k.items())) for k in refs))
                if kind in kinds_seen or profile["range"] == "Melee" or not ids <= SAME_RULES:
                    continue
                if _name(weapon, index) in carried:
                    kinds_seen.add(kind)
                    pairs.append((unit, weapon, index))
        if len(pairs) >= PAIRS_WANTED:
            return pairs
    return pairs


def _name(weapon: Any, index: int) -> str:
    profiles = weapon.profiles
    if len(profiles) == 1 and profiles[0]["name"].lower() == weapon.name.lower():
        return str(weapon.name)
    return f"{weapon.name} ({profiles[index]['name']})"


def test_odds_equal_the_wh40kdc_cruncher_on_dataset_pairs() -> None:
    library = ruleset().library
    targets = {name: library.dataset.units.get_any(_id(name)) for name in TARGETS}
    compared = matched = 0
    keywords_seen: set[str] = set()
    for unit, weapon, index in _pairs():
        attacker = library.datasheet(unit.name)
        for target_name, target in targets.items():
            for half in (False, True):
                context = {"phase": "shooting", "withinHalfRange": half, "attackerStationary": True}
                stages = wh40kdc.crunch(
                    {
                        "attacker": {"weapon": weapon.raw, "profileIndex": index},
                        "target": {"unit": target.raw, "profileIndex": 0,
                                   "modelCount": TARGET_MODELS},
                        "modelsFiring": 1,
                        "buffs": [],
                        "context": context,
                    }
                )["stages"]  # fmt: skip
                expected = {s["name"]: s["expected"] for s in stages}
                if _bare_blast(weapon.profiles[index]):
                    continue  # 11th: +1 attack per five models; the cruncher adds none
                try:
                    answer = library_answer(
                        attacker, _name(weapon, index), None, library.datasheet(target_name),
                        1, TARGET_MODELS, ["stationary", *(["half-range"] * half)],
                        feel_no_pain_of(target_name and library.datasheet(target_name).army,
                                        library.datasheet(target_name).rules, library.ability),
                    )  # fmt: skip
                except QuestionError:
                    continue
                odds = answer.odds
                mine = (odds.mean_attacks, odds.mean_hits, odds.mean_wounds, odds.mean_damage)
                theirs = tuple(expected[k] for k in ("attacks", "hits", "wounds", "after-fnp"))
                compared += 1
                matched += all(
                    math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
                    for a, b in zip(mine, theirs, strict=True)
                )
                keywords_seen |= {k["keyword_id"] for k in weapon.profiles[index]["keywords"]}
    assert compared >= 20 * 2 and matched == compared
    assert {"rapid-fire", "heavy", "devastating-wounds", "anti", "melta"} <= keywords_seen
    assert {"lethal-hits", "sustained-hits", "twin-linked", "torrent"} <= keywords_seen


def _id(name: str) -> str:
    return str(next(u.id for u in ruleset().library.dataset.units.all if u.name == name))


def _bare_blast(profile: Any) -> bool:
    """A [BLAST] without X: the 11th edition adds "one additional attack dice for
    every five models" (hammerlab does); wh40kdc's cruncher adds nothing."""
    return any(
        k["keyword_id"] == "blast" and not (k.get("parameters") or {}).get("value")
        for k in profile["keywords"]
    )
