"""Definitions as the 11th-edition Core Rules text has them (issue 13, part 1).

Each test quotes the rule it checks; expected values are derived by hand.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from core11_kit import battle, game, gun, library_unit, place, ruleset, script, sheet
from typer.testing import CliRunner

from hammerlab.cli.odds_cmd import register
from hammerlab.editions.core11.abilities import feel_no_pain_of, install, targeting_limit
from hammerlab.editions.core11.attacks import Battery, allocate, situations_for
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.odds_questions import plain_answer
from hammerlab.editions.core11.positions import is_engaged
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import eligible_targets, fire
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile
from hammerlab.errors import QuestionError

BASE = 32 / 25.4
"""A 32 mm base in inches: centres are this much further apart than the bases."""


def _plain(**given: Any) -> Any:
    asked: dict[str, Any] = dict(
        attacks="1", skill=3, strength=4, ap=0, damage="1", keywords=(), toughness=4, save=7,
        wounds=1, models=10, firing_models=1, invulnerable=None, feel_no_pain=None,
        target_keywords=("INFANTRY",), situation=(),
    )  # fmt: skip
    asked.update(given)
    return plain_answer(**asked)


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-12


def test_03_04_engagement_range_is_2_inches_horizontally() -> None:
    """03.04: "A model's engagement range is the area of the battlefield within 2"
    horizontally and 5" vertically of it." — 1.5" apart is engaged, 2.5" is not."""
    a = place("a", sheet("A"), "A", (10, 10))
    near = place("near", sheet("Near"), "B", (10, 10 + BASE + 1.5))
    far = place("far", sheet("Far"), "B", (30, 10 + BASE + 2.5))
    a2 = place("a2", sheet("A2"), "A", (30, 10))
    fight = battle([a, near, far, a2])
    assert is_engaged(fight, near) and is_engaged(fight, a)
    assert not is_engaged(fight, far) and not is_engaged(fight, a2)


def _engaged_target(kinds: tuple[str, ...]) -> tuple[Any, Any, Any, Battery]:
    """Shooter far from an enemy that is engaged (1") with another friendly unit."""
    weapon = gun("gun")
    shooter = place("a", sheet("Shooter", 1, [weapon]), "A", (10, 10))
    friend = place("f", sheet("Friend"), "A", (30, 20))
    enemy = place("e", sheet("Enemy", keywords=kinds), "B", (30, 20 + BASE + 1.0))
    fight = battle([shooter, friend, enemy])
    return game(fight), shooter, enemy, Battery(weapon, read_weapon(weapon), shooter.models)


def test_04_02_a_unit_engaged_with_a_friendly_unit_cannot_be_targeted() -> None:
    """04.02, while shooting: "Unless otherwise stated, each target must be: ...
    Unengaged." — even when it is engaged with another of the shooter's units."""
    played, shooter, _, battery = _engaged_target(("INFANTRY",))
    assert eligible_targets(played, shooter, battery, FireControl("normal")) == []


def test_17_03_an_engaged_monster_or_vehicle_may_be_shot_at_minus_one() -> None:
    """17.03: "In your Shooting phase, enemy MONSTER/VEHICLE units that are engaged can
    be selected as targets of ranged attacks (excluding attacks made with [BLAST]
    weapons). Each time a model makes a ranged attack that targets such a unit,
    subtract 1 from the hit roll" """
    played, shooter, enemy, battery = _engaged_target(("VEHICLE",))
    normal = FireControl("normal")
    assert eligible_targets(played, shooter, battery, normal) == [enemy]
    [situation] = situations_for(
        played, shooter, shooter.models[:1], battery.profile, enemy, normal, 1
    )
    assert situation.engaged_target_penalty
    reactive = FireControl("reactive", own_phase=False)  # not "your Shooting phase"
    assert eligible_targets(played, shooter, battery, reactive) == []
    blast = gun("mortar", keywords=["BLAST"])
    blasts = Battery(blast, read_weapon(blast), shooter.models)
    assert eligible_targets(played, shooter, blasts, normal) == []


def test_blast_cli_contract_adds_attacks_per_five_models() -> None:
    """[BLAST]: "add one additional attack dice for every five models that were in the
    target unit in the Select Targets step (rounding down)": 10 models, +2 attacks."""
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:
        """A second command, so ``odds`` is a subcommand."""

    base = ["odds", "--ruleset", "core11", "--attacks", "1", "--bs", "4", "--strength", "4",
            "--ap", "0", "--damage", "1", "--toughness", "4", "--save", "-", "--wounds", "1",
            "--target-models", "10", "--json"]  # fmt: skip
    plain = json.loads(CliRunner().invoke(app, base).stdout)
    blast = json.loads(CliRunner().invoke(app, [*base, "--keyword", "blast"]).stdout)
    # One attack: 1/2 hit, 1/2 wound, no save: 1/4 per attack; three attacks with BLAST.
    assert _close(plain["mean_models_killed"], 1 / 4)
    assert _close(blast["mean_models_killed"], 3 / 4)


def test_04_01_02_sidearms_a_model_fires_its_pistol_or_its_other_guns() -> None:
    """[CLOSE-QUARTERS]/[PISTOL]: "When using another shooting type, for each model in
    that unit (excluding MONSTER/VEHICLE models), you can only select one of the
    following to make attacks with: One or more of its [CLOSE-QUARTERS] weapons.
    One or more of its other ranged weapons." """
    weapons = [gun("pistol", keywords=["PISTOL"]), gun("rifle")]
    for choice, fired in (("rifle", "rifle"), ("pistol", "pistol")):
        shooter = place("a", sheet("Shooter", 1, weapons), "A", (10, 10))
        target = place("b", sheet("Target", 5), "B", (10, 20))
        people = {"A": script(("sidearms", choice))}
        fight = battle([shooter, target], [1], controllers=people)
        fire(game(fight), shooter, FireControl("normal"))
        assert [e.weapon for e in fight.log.of_kind("shots")] == [fired]  # type: ignore[attr-defined]


def test_05_03_character_models_are_allocated_wounds_last() -> None:
    """05.03: "No CHARACTER group can be earlier in the allocation order than a
    non-CHARACTER group." """
    hero = Profile("Hero", {"M": '6"', "T": "4", "Sv": "3+", "W": "3", "Ld": "6+", "OC": "1"},
                   keywords=frozenset({"CHARACTER", "INFANTRY"}))  # fmt: skip
    trooper = Profile("Trooper", {"M": '6"', "T": "4", "Sv": "3+", "W": "1", "Ld": "6+",
                                  "OC": "1"}, keywords=frozenset({"INFANTRY"}))  # fmt: skip
    mixed = Datasheet(
        "Squad", "test", "core11",
        (ModelEntry(hero, 1, (), 32.0), ModelEntry(trooper, 2, (), 32.0)),
        keywords=frozenset({"INFANTRY"}),
    )  # fmt: skip
    weapon = gun("gun")
    shooter = place("a", sheet("Shooter", 1, [weapon]), "A", (10, 10))
    target = place("b", mixed, "B", (10, 20))
    played = game(battle([shooter, target]))
    battery = Battery(weapon, read_weapon(weapon), shooter.models)
    assert allocate(played, shooter, battery, target).name == "Trooper"
    for model in target.models[1:]:
        model.wounds_left = 0
    assert allocate(played, shooter, battery, target).name == "Hero"


def test_lethal_hits_is_the_attackers_choice_and_the_odds_say_which() -> None:
    """[LETHAL HITS]: "you can choose for that attack to automatically wound the
    target." BS 6+: every hit is a critical hit (1/6). Sv 2+: 1/6 unsaved. S4 v T4:
    a rolled wound is a critical wound on a 6 (1/6, no save with [DEVASTATING
    WOUNDS]) or a plain wound on 4-5 (2/6): 2/6·1/6 + 1/6 = 8/36 > 1/6 automatic."""
    answer = _plain(skill=6, save=2, keywords=("LETHAL HITS", "DEVASTATING WOUNDS"))
    assert _close(answer.odds.mean_unsaved, 1 / 6 * 8 / 36)
    assert any("rolls to wound" in note for note in answer.notes)
    plain = _plain(skill=6, save=2, keywords=("LETHAL HITS",))
    assert _close(plain.odds.mean_unsaved, 1 / 6 * 1 / 6) and not plain.notes


def test_twin_linked_rerolls_the_wound_roll_when_it_pays() -> None:
    """[TWIN-LINKED]: "you can re-roll the wound roll." Torrent, S4 v T4, Sv 2+,
    [DEVASTATING WOUNDS]: a fresh roll is worth 2/6·1/6 + 1/6 = 8/36, more than a
    plain wound (1/6): fails and plain wounds are re-rolled, a 6 is kept:
    1/6 + 5/6·8/36 = 76/216."""
    answer = _plain(save=2, keywords=("TORRENT", "TWIN-LINKED", "DEVASTATING WOUNDS"))
    assert _close(answer.odds.mean_unsaved, 76 / 216)


def test_feel_no_pain_is_read_from_the_abilitys_facts_whatever_its_name() -> None:
    """Feel No Pain: "Each time a model with this ability would lose a wound, roll one
    D6: on an X+, that wound is not lost." Necron Bound Creation is one (4+)."""
    facts = ruleset().library.ability
    assert feel_no_pain_of("necrons", ["Bound Creation"], facts) == 4
    assert feel_no_pain_of("adeptus-mechanicus", ["Bound Creation"], facts) is None
    assert feel_no_pain_of("test", ["Feel No Pain 5+"], facts) == 5


def test_a_feel_no_pain_or_targeting_limit_for_one_use_or_a_while_is_not_read_as_lasting() -> None:
    """Review s23 (core11, finding 1). The dataset's Living Fortress (Custodian
    Wardens), The Lion Helm (Azrael) and Watcher in the Dark (Deathwing Terminators)
    are ``feel-no-pain`` effects of threshold 4 with ``"behavior": "activated"``,
    ``"usage": {"count": 1, "frequency": "n-per-battle"}`` and ``"duration": "phase"``
    ("Once per battle, until the end of the phase, the unit has the Feel No Pain 4+
    ability."); Omnissiah's Blessing (Tech-Priest Enginseer) lasts "Until the start of
    your next Command phase"; In The Shadow Of Great Wings is a targeting limit of
    18" that is ``reactive``, "When an enemy unit is selected, until the end of the
    phase". None holds all battle long, so none is a standing Feel No Pain or
    limit. Bound Creation (passive, permanent: 4+), the Rhino's Truesilver Aegis
    (passive, permanent, a 6" aura: 6+) and Lone Operative (passive, permanent,
    12") still are. Values from the dataset records quoted."""
    facts = ruleset().library.ability
    for army, rule in [
        ("adeptus-custodes", "Living Fortress"),
        ("adeptus-astartes", "The Lion Helm"),
        ("adeptus-astartes", "Watcher in the Dark"),
        ("adeptus-mechanicus", "Omnissiah’s Blessing"),
        ("astra-militarum", "Omnissiah’s Blessing"),
    ]:
        known = facts(army, rule)
        assert known is not None and known.effect_type == "feel-no-pain", rule
        assert feel_no_pain_of(army, [rule], facts) is None, rule
    assert feel_no_pain_of("necrons", ["Bound Creation"], facts) == 4
    assert feel_no_pain_of("adeptus-astartes", ["Truesilver Aegis (Aura)"], facts) == 6
    shadow = "In The Shadow Of Great Wings"
    assert facts("blood-angels", shadow) is not None
    assert targeting_limit("blood-angels", [shadow], facts) is None
    assert targeting_limit("adeptus-astartes", ["Lone Operative"], facts) == 12


def test_a_once_per_battle_feel_no_pain_is_reported_not_modelled_in_a_battle() -> None:
    """Review s23 (core11, finding 1): the Wardens rolled Feel No Pain 4+ in both of
    the enemy's Shooting phases. Living Fortress is once per battle, for one phase:
    the battle gives the Wardens no standing Feel No Pain and lists the ability in
    its "not modelled" notes, as it lists Resolute Will."""
    fight = battle([library_unit("cw", "Custodian Wardens", "B", (36, 26))])
    started = Core11Game.start(fight)
    unmodelled = install(started, ruleset().library.ability)
    assert "cw" not in started.feel_no_pain
    label = fight.unit("cw").label
    assert f"{label}: Living Fortress" in unmodelled
    assert f"{label}: Resolute Will" in unmodelled


def test_odds_refuse_a_target_the_weapon_cannot_target() -> None:
    """A weapon that "can only target MONSTER or VEHICLE units" is refused, with why."""
    with pytest.raises(QuestionError, match="TARGETS MONSTER/VEHICLE ONLY"):
        _plain(keywords=("TARGETS MONSTER/VEHICLE ONLY",))
    assert _plain(keywords=("TARGETS MONSTER/VEHICLE ONLY",), target_keywords=("VEHICLE",))


def test_odds_plain_models_fire_rapid_fire_per_model() -> None:
    """[RAPID FIRE 1] within half range: each of 3 models gathers 1 + 1 attack dice."""
    answer = _plain(keywords=("RAPID FIRE 1",), firing_models=3, situation=("half-range",))
    assert _close(answer.odds.mean_attacks, 6)


def test_odds_close_quarters_and_indirect_situations() -> None:
    """10.06 (MONSTER/VEHICLE): "Unless that attack is made with a [CLOSE-QUARTERS]
    weapon and targets a unit your unit is engaged with, subtract 1 from the hit
    roll." BS 3+: 4/6 hit; -1: 3/6. 10.07 needs "one or more [INDIRECT FIRE] weapons"."""
    assert _close(_plain(situation=("close-quarters",)).odds.mean_hits, 3 / 6)
    pistol = _plain(keywords=("PISTOL",), situation=("close-quarters",))
    assert _close(pistol.odds.mean_hits, 4 / 6)
    with pytest.raises(QuestionError, match="BLAST"):
        _plain(keywords=("BLAST",), situation=("close-quarters",))
    with pytest.raises(QuestionError, match="INDIRECT FIRE"):
        _plain(situation=("indirect",))
