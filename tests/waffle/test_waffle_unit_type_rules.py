"""Rules a model has by its unit type (``special_rules.TYPE_RULES``) where they decide
deployment and transport places: 7th edition, Jump units have "the Bulky and Deep
Strike special rules" without a datasheet naming them (docs/rules/waffle.md,
interpretation 18). The close combat ones (Monstrous Creatures, Bikes) are tested
in ``test_waffle_melee_rules.py``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import A, profile
from conftest import squad as make_squad
from fight_kit import CHAINSWORD

from hammerlab.editions.waffle.ruleset import WaffleRuleset
from hammerlab.editions.waffle.special_rules import unsupported_unit_rules
from hammerlab.editions.waffle.transports import places_needed
from hammerlab.engine.datasheet import Datasheet, ModelEntry
from hammerlab.io.battlescribe import import_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
TROOPER = profile("Trooper")


def sheet(unit_type: str, rules: tuple[str, ...] = ()) -> Datasheet:
    """Five models of ``unit_type`` with a chainsword, naming ``rules`` only."""
    entry = ModelEntry(replace(TROOPER, unit_type=unit_type), 5, (CHAINSWORD,))
    return Datasheet("Squad", "test", "waffle", (entry,), rules=rules)


@pytest.mark.parametrize("unit_type", ["Jump Infantry", "Jump Infantry (Character)"])
def test_a_jump_unit_may_deep_strike_and_is_bulky_by_its_unit_type(unit_type: str) -> None:
    # No rule named, yet a Jump unit may Deep Strike ("only a unit with the rule may"),
    # and each model takes two places of Transport Capacity (Bulky): 5 x 2.
    ruleset = WaffleRuleset()
    assert ruleset.deployment_problem(sheet(unit_type), "deep_strike") is None
    jumpers = make_squad("j", A, replace(TROOPER, unit_type=unit_type), [CHAINSWORD], [(10, 10)])
    assert places_needed(jumpers) == 2


def test_infantry_needs_the_deep_strike_rule_to_deep_strike() -> None:
    ruleset = WaffleRuleset()
    problem = ruleset.deployment_problem(sheet("Infantry"), "deep_strike")
    assert problem == "Squad has no Deep Strike special rule, so it cannot use it to deploy"
    assert ruleset.deployment_problem(sheet("Infantry", ("Deep Strike",)), "deep_strike") is None
    walkers = make_squad("w", A, TROOPER, [CHAINSWORD], [(10, 10)])
    assert places_needed(walkers) == 1


def test_the_catalogue_s_gargoyles_may_deep_strike() -> None:
    # The Tyranid catalogue's Gargoyle Brood are Jump Infantry and link no Deep Strike.
    imported = import_file(DATA / "Tyranids - Codex.cat")
    gargoyles = imported.find("Gargoyle Brood")
    assert {e.profile.unit_type for e in gargoyles.entries} == {"Jump Infantry"}
    assert not any("Deep Strike" in (*gargoyles.rules, *e.rules) for e in gargoyles.entries)
    assert WaffleRuleset().deployment_problem(gargoyles, "deep_strike") is None


def test_the_rule_assault_grenades_is_not_reported_as_not_implemented() -> None:
    # difficult_charge.has_assault_grenades reads the rule on a model or its unit, so a
    # datasheet naming it plays it: no "special rule not implemented" note.
    assert unsupported_unit_rules(("Assault Grenades",)) == []
    assert WaffleRuleset().validate_datasheet(sheet("Infantry", ("Assault Grenades",))) == []


def test_armour_named_as_a_rule_is_not_reported_as_not_implemented() -> None:
    # The Astra Militarum catalogue links "Flak Armour" to each Guardsman as a rule; its
    # 5+ armour save is already the profile's Sv, so the rule changes nothing to play.
    assert unsupported_unit_rules(("Flak Armour", "Carapace Armour", "Power Armour")) == []
    imported = import_file(DATA / "Astra Militarum - Codex.cat")
    squad_sheet = imported.find("Infantry Squad")
    assert {e.profile.get("Sv") for e in squad_sheet.entries} == {"5+"}
    assert not any("Flak Armour" in p for p in WaffleRuleset().validate_datasheet(squad_sheet))
