"""Weapon keywords of a unit written inline in a scenario (session 22 core11 review,
finding 2): a list of strings, as a library file writes them, played as seed 003 says."""

from __future__ import annotations

from typing import Any

import pytest
from core11_kit import events

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.core11.events import AttacksResolved, HitRollNeeds, ShootingTypeSelected
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.errors import InputError
from hammerlab.io.library import ArmySpec, datasheets_from
from hammerlab.io.scenario import parse_scenario

HEADER = """
name = "inline keywords"
ruleset = "core11"
first_player = "A"
[plan]
phases = ["shooting"]
[[players]]
name = "A"
[[players]]
name = "B"
edge = "north"
"""

SQUAD = "Squad [squad]"
PROFILE = """profile = { M = '6"', T = "4", Sv = "7+", W = "1", Ld = "7+", OC = "1" }"""


def weapon(name: str, keywords: str, attacks: str = "1", range_: int = 24) -> str:
    """A BS 3+ S4 AP0 D1 ranged weapon of the shooting unit, ``keywords`` as written."""
    return f"""
[units.inline.weapons."{name}"]
Range = '{range_}"'
A = "{attacks}"
BS = "3+"
S = "4"
AP = "0"
D = "1"
keywords = {keywords}
"""


def scenario(
    weapons: dict[str, str], *, gap: float = 10.0, status: str = "", terrain: str = ""
) -> str:
    """A's Squad (one Trooper carrying ``weapons``, name → table) at (30, 10); B's ten
    Foes (no weapons, no save) in a line ``gap`` inches north of it."""
    return (
        HEADER
        + terrain
        + f"""
[[units]]
id = "squad"
player = "A"
position = [30, 10]
{status}
[units.inline]
name = "Squad"
[[units.inline.models]]
name = "Trooper"
{PROFILE}
keywords = ["INFANTRY"]
weapons = {list(weapons)!r}
"""
        + "".join(weapons.values())
        + f"""
[[units]]
id = "foes"
player = "B"
position = [30, {10 + gap}]
formation = "line"
spacing = 0.2
[units.inline]
name = "Foes"
[[units.inline.models]]
name = "Grunt"
count = 10
{PROFILE}
keywords = ["INFANTRY"]
"""
    )


class Prefer:
    """Takes the first choice labelled one of ``wanted`` (else the first), and keeps
    every decision it was asked."""

    def __init__(self, *wanted: str) -> None:
        self.wanted = wanted
        self.asked: list[Decision[Any]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        self.asked.append(decision)
        labels = decision.labels()
        return next((i for i, label in enumerate(labels) if label in self.wanted), 0)


def played(text: str, a: Prefer | None = None) -> Battle:
    """The scenario played for one turn, seed 1, A by ``a``, B taking first choices."""
    ready = prepare(
        parse_scenario(text, "inline.toml"),
        "inline.toml",
        seed=1,
        controllers={"A": a or Prefer(), "B": Prefer()},
    )
    play(ready.battle, ready.ruleset, ready.plan)
    return ready.battle


def squad_types(battle: Battle) -> list[str]:
    """The shooting types A's Squad was selected to shoot with."""
    return [e.shooting_type for e in events(battle, ShootingTypeSelected) if e.unit == SQUAD]


def volleys(battle: Battle) -> list[tuple[str, str, int]]:
    return [(e.weapon, e.target, e.attacks) for e in events(battle, AttacksResolved)]


def test_an_inline_assault_weapon_is_the_only_one_an_advanced_unit_fires() -> None:
    """10.05: an advanced unit is eligible for Assault shooting only ("Unengaged and
    made an advance move this turn. Has one or more [ASSAULT] weapons.") and "can only
    select [ASSAULT] weapons": the Assault gun fires, the Rifle does not."""
    text = scenario(
        {"Assault gun": weapon("Assault gun", '["ASSAULT"]'), "Rifle": weapon("Rifle", "[]")},
        status="status = { advanced = true }",
    )
    battle = played(text)
    assert squad_types(battle) == ["assault"]
    assert volleys(battle) == [("Assault gun", "Foes [foes]", 1)]


def test_an_inline_pistol_fires_in_close_quarters_at_the_engaged_unit() -> None:
    """10.06 for a non-MONSTER/VEHICLE unit, engaged (the closest Foe 0.59" aside and
    1.5" ahead: a gap of 1.61 - 0.98 = 0.63"): "You can
    only select [CLOSE-QUARTERS] weapons" ([PISTOL] reads as it) "and you can only
    select enemy units that are engaged with your unit as targets"."""
    text = scenario(
        {"Pistol": weapon("Pistol", '["PISTOL"]'), "Rifle": weapon("Rifle", "[]")}, gap=1.5
    )
    battle = played(text)
    assert squad_types(battle) == ["close-quarters"]
    assert volleys(battle) == [("Pistol", "Foes [foes]", 1)]


def test_an_inline_indirect_fire_weapon_targets_an_unseen_unit() -> None:
    """10.07: "[INDIRECT FIRE] weapons in your unit can target units that are not
    visible"; the target has cover (BS 3+ to 4+) and, no friendly unit seeing it, "an
    unmodified hit roll of 1-5 fails". A wall that blocks sight stands between."""
    wall = """
[[terrain]]
name = "Wall"
outline = [[20, 14], [40, 14], [40, 16], [20, 16]]
blocks_sight = true
"""
    text = scenario({"Mortar": weapon("Mortar", '["INDIRECT FIRE"]', "2", 48)}, terrain=wall)
    a = Prefer("indirect")
    battle = played(text, a)
    offered = [d.labels() for d in a.asked if d.kind == "shooting-type"]
    assert offered == [["normal", "indirect"]]
    assert squad_types(battle) == ["indirect"]
    assert volleys(battle) == [("Mortar", "Foes [foes]", 2)]
    [needs] = events(battle, HitRollNeeds)
    assert (needs.need, needs.fails_up_to) == (4, 5)


def test_an_inline_blast_weapon_adds_an_attack_per_five_target_models() -> None:
    """[BLAST]: "add one additional attack dice for every five models that were in the
    target unit": A 1 at ten Foes is 1 + 2 = 3 attacks."""
    battle = played(scenario({"Frag": weapon("Frag", '["BLAST"]')}))
    assert volleys(battle) == [("Frag", "Foes [foes]", 3)]


WRONG = 'must be a list of strings, such as keywords = ["PISTOL"]'


@pytest.mark.parametrize("written", ['"PISTOL"', "[1]", "{ PISTOL = true }"])
def test_inline_weapon_keywords_of_a_wrong_type_are_refused_in_one_message(written: str) -> None:
    """Before, ``"PISTOL"`` was told "must be a list of strings" and ``["PISTOL"]``
    "Input should be a valid string". Now a list of strings is read, anything else is
    refused with one message, which a library file's weapon gives too."""
    text = scenario({"Pistol": weapon("Pistol", written)})
    with pytest.raises(InputError) as refused:
        prepare(parse_scenario(text, "inline.toml"), "inline.toml", seed=1)
    where = "units[0].inline.weapons.Pistol.keywords"
    assert (refused.value.where, refused.value.problem) == (where, WRONG)
    library = {"army": "A", "weapons": {"Pistol": {"A": "1", "keywords": "PISTOL"}}}
    with pytest.raises(InputError) as refused:
        datasheets_from(ArmySpec.model_validate(library), "army.toml", "core11")
    assert (refused.value.where, refused.value.problem) == ("weapons.Pistol.keywords", WRONG)
