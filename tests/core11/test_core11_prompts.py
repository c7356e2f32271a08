"""What a person choosing a unit's shooting is told (``Decision.describe``), and the
questions a unit with nothing to shoot at is not asked.

From a player's review (session 22, finding 3): the core11 prompts described nothing.
A Whirlwind that sees nothing was offered Normal shooting beside Indirect, with no
word that Normal had no target; Intercessors with nothing in range were asked four
weapon questions before the log said "no eligible target"; a target prompt gave no
distance and no odds. Seed 003 lets a unit with no eligible target be selected ("it
just makes no attacks", 10.02 FAQ) and a type is eligible by the unit's state alone,
so the choices stay, each saying what it offers.

Expected figures by hand. Bases are 32 mm (1.26" across): two models 10" apart centre
to centre stand 8.74" apart. One attack of BS 3+, S4 against T4 with no save: hits on
3+ (4/6), wounds on 4+ (1/2): 1/3 of a wound. In cover, BS 4+ (13.08): 3/6 x 1/2 =
1/4. An [INDIRECT FIRE] attack at an unseen unit, none of the unit's friends seeing it
either, hits only on a 6 (10.07: "An unmodified hit roll of 1-5 fails"; a 6 always
hits): four attacks x 1/6 x 1/2 = 1/3.
"""

from __future__ import annotations

from typing import Any

from core11_kit import battle, game, gun, place, sheet, shooting_phase, texts

from hammerlab.editions.core11.shooting import shoot_with
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Decision

NO_SAVE = 7


class Reader:
    """Answers each decision from ``answers`` (labels, in order), reading first what each
    choice says (:meth:`Decision.details`), when it is asked, as a person does."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.read: list[tuple[str, dict[str, str]]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        told = dict(zip(decision.labels(), decision.details(), strict=True))
        self.read.append((decision.kind, told))
        return decision.labels().index(self.answers.pop(0))


def _profiled(name: str, group: str, range_: int) -> Weapon:
    """One profile of a weapon of several (the wh40kdc spelling: ``Weapon`` names it)."""
    return Weapon(
        name,
        {"Weapon": group, "Range": f'{range_}"', "A": "1", "BS": "3+", "S": "4", "AP": "0",
         "D": "1"},
    )  # fmt: skip


def test_the_shooter_and_shooting_type_prompts_say_what_each_type_may_target() -> None:
    wall = TerrainArea("Wall", ((5.0, 14.0), (40.0, 14.0), (40.0, 15.0), (5.0, 15.0)),
                       blocks_sight=True)  # fmt: skip
    mortar = place("a", sheet("Mortar", 1, [gun("mortar", 48, "4", keywords=["INDIRECT FIRE"])]),
                   "A", (10, 10))  # fmt: skip
    target = place("b", sheet("Target", 5, save=NO_SAVE), "B", (10, 20))
    reader = Reader(["Mortar [a]", "normal"])
    fight = battle([mortar, target], controllers={"A": reader}, terrain=[wall])
    shooting_phase(game(fight))
    (kind, shooters), (_, types) = reader.read
    indirect = 'targets Target [b] 8.7" away; about 0.33 wounds expected lost'
    assert kind == "shooter"
    assert shooters == {
        "Mortar [a]": f"normal: no eligible target: it would make no attacks; indirect: {indirect}",
        "done": "",
    }
    assert types["normal"] == "no eligible target: it would make no attacks"
    assert types["indirect"].startswith("[INDIRECT FIRE] weapons may target unseen units")
    assert "an unmodified 1-5 fails" in types["indirect"]
    assert types["indirect"].endswith(f"(10.07); {indirect}")
    assert texts(fight, "shots") == []  # Normal shooting: no attacks


def test_a_unit_with_no_eligible_target_is_asked_no_weapon_question() -> None:
    # A rifle of two profiles (12" and 24") and a [CLOSE-QUARTERS] pistol (12") on one
    # model: which profile fires, and the pistol or the others (04.01.02), are asked
    # only where an answer has an eligible target. 40" off, none has: nothing is asked,
    # the first answers are taken (the others; the first profile), which make no attacks.
    rifle = [_profiled("Rifle (near)", "Rifle", 12), _profiled("Rifle (far)", "Rifle", 24)]
    pistol = gun("pistol", 12, keywords=["CLOSE-QUARTERS"])
    others = "Rifle (near), Rifle (far)"
    for distance, answers in ((40, {}), (20, {"sidearms": others, "profile": "Rifle (far)"})):
        shooter = place("a", sheet("Shooter", 1, [*rifle, pistol]), "A", (10, 10))
        target = place("b", sheet("Target", 5, save=NO_SAVE), "B", (10, 10 + distance))
        reader = Reader(list(answers.values()))
        fight = battle([shooter, target], [1], controllers={"A": reader})  # a 1 misses
        shoot_with(game(fight), shooter)
        assert [kind for kind, _ in reader.read] == list(answers), distance
        if not answers:
            assert "  Rifle (near): no eligible target" in texts(fight, "message")
            assert texts(fight, "shots") == []


def test_a_target_prompt_says_how_far_what_is_expected_and_what_changes_the_hit_roll() -> None:
    ruin = TerrainArea("Ruin", ((28.0, 8.0), (40.0, 8.0), (40.0, 12.0), (28.0, 12.0)), cover_save=5)
    shooter = place("a", sheet("Shooter", 1, [gun()]), "A", (10, 10))
    near = place("b", sheet("Near", 5, save=NO_SAVE), "B", (10, 20))
    covered = place("c", sheet("Covered", 5, save=NO_SAVE), "B", (30, 10))
    reader = Reader(["Near [b]"])
    fight = battle([shooter, near, covered], [1], controllers={"A": reader}, terrain=[ruin])
    shoot_with(game(fight), shooter)
    ((kind, told),) = reader.read
    assert kind == "target"
    assert told == {
        "Near [b]": '8.7" away; 1 model attacks; about 0.33 wounds expected lost',
        "Covered [c]": '18.7" away; 1 model attacks; about 0.25 wounds expected lost; '
        "hit rolls: cover worsens BS by 1 (13.08)",
    }
