"""What a person choosing a weapon is told of each one offered (``Decision.describe``).

From a player's review: the weapon prompt named the weapons able to fire and
nothing more, so a player learned only from the dice that a lasgun cannot hurt
a Toughness 7 monster or a Walker. Seed 000 step 3: "Select a weapon the firing
unit is equipped with"; each weapon offered is now described by how many models
would fire it and what it may do, or that it cannot hurt the target and why.

Expected figures are worked out by hand from the 6th/7th-edition charts: ten
Guardsmen (BS3: hits on 4+) 20" from Space Marines, out of a lasgun's half range
(Rapid Fire: one shot each), Strength 3 against Toughness 4 wounds on 5+, and a
3+ armour save (a lasgun's AP is '-') fails on 1-2: 10 x 1/2 x 1/3 x 1/3 = 0.556
models. Strength 3 against Toughness 7 is four below: "cannot wound" (chart
'-'). A Walker's armour is 12 front, 10 side and rear: S3 + D6 reaches 9 at most.
"""

from __future__ import annotations

from typing import Any

from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    GUARD,
    LASGUN,
    MARINE,
    WALKER,
    A,
    B,
    Placed,
    asked,
    make_battle,
    make_unit,
    profile,
    row,
    squad,
)

from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.rules.suppressive_fire import SUPPRESS
from hammerlab.editions.waffle.shooting import shooting_attack
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.units import Unit


def _details_against(target: Unit) -> dict[str, str]:
    """The weapon decision's choices, each with what it says, of ten Guardsmen with
    lasguns 20" south of ``target``, who stop without firing."""
    guard = squad("guard", A, GUARD, [LASGUN], row(20.0, 10.0, 10))
    battle = make_battle(guard, target, script_a=[("weapon", "stop")])
    shooting_attack(battle, guard, target, FireOrders())
    decision = asked(battle, A, "weapon")[0]
    return dict(zip(decision.labels(), decision.details(), strict=True))


def test_a_weapon_offered_says_how_many_fire_it_and_what_it_is_expected_to_slay() -> None:
    marines = squad("marines", B, MARINE, [], row(20.0, 31.0, 5))  # 21" centre to centre
    details = _details_against(marines)
    assert details == {"Lasgun": "10 models fire; about 0.56 models slain expected", "stop": ""}


def test_a_weapon_that_cannot_wound_the_target_s_toughness_says_so() -> None:
    monsters = squad("beasts", B, profile("Beast", t=7), [], row(20.0, 31.0, 5), name="Beasts")
    details = _details_against(monsters)
    assert details["Lasgun"] == "10 models fire; cannot hurt Beasts [beasts]: S3 cannot wound T7"


def test_a_weapon_that_cannot_beat_a_vehicle_s_armour_says_so() -> None:
    walker = squad("walker", B, WALKER, [], row(30.0, 31.0, 1), name="Sentinel")
    details = _details_against(walker)
    assert details["Lasgun"] == (
        "10 models fire; cannot hurt Sentinel [walker]: S3 cannot beat its armour from here"
    )


def test_a_weapon_offered_after_another_counts_only_the_models_yet_to_fire() -> None:
    # From a player's review (session 22, finding 1): after eight Marines fired their
    # Boltguns, the prompt still said "Bolt pistol: 5 models fire" and two fired.
    # Seed 000 step 7: select "another weapon" of those "that have yet to fire"; a
    # model fires one weapon (6th/7th edition). Four Guardsmen carry a Boltgun and a
    # Bolt pistol, two a Bolt pistol alone, 10" from the Marines (both in range).
    # Once the four have fired their Boltguns, two pistols are left: BS3 hits on 4+
    # (1/2), S4 against T4 wounds on 4+ (1/2), AP5 against a 3+ save fails on 1-2
    # (1/3): one Pistol shot each, 2 x 1/2 x 1/2 x 1/3 = 0.167 models (six: 0.50).
    both = [Placed(GUARD, [BOLTGUN, BOLT_PISTOL], at) for at in row(20.0, 10.0, 4)]
    pistols = [Placed(GUARD, [BOLT_PISTOL], at) for at in row(28.0, 10.0, 2)]
    guard = make_unit("guard", A, [*both, *pistols])
    marines = squad("marines", B, MARINE, [], row(20.0, 20.0, 5))
    battle = make_battle(guard, marines, seed=1)
    reader = _Reader(["Boltgun", "stop"])
    battle.controllers[A] = reader
    shooting_attack(battle, guard, marines, FireOrders())
    first, second = reader.read
    assert first["Bolt pistol"] == "6 models fire; about 0.50 models slain expected"
    assert second == {"Bolt pistol": "2 models fire; about 0.17 models slain expected", "stop": ""}


class _Reader:
    """Answers each decision from ``answers`` (labels, in order), reading first what
    each choice says (:meth:`Decision.details`), when it is asked, as a person does."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.read: list[dict[str, str]] = []

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        self.read.append(dict(zip(decision.labels(), decision.details(), strict=True)))
        return decision.labels().index(self.answers.pop(0))


def test_a_weapon_of_suppressive_fire_says_what_would_fall_and_that_none_is_removed() -> None:
    # From a player's review (session 22, finding 5): Suppressive Fire's weapon prompt
    # promised "models slain" of an action that slays none. Seed 000: it does "not
    # remove any models or reduce any wounds"; the target tests Morale if it "would have
    # suffered enough wounds", at -1 Ld "for each Wound". Ten Guardsmen 20" from five
    # two-wound, 2+ save models: ten lasgun shots (out of half range), each unsaved on
    # 1/2 (hit on 4+) x 1/3 (S3 against T4: 5+) x 1/6 (a 2+ save fails on 1): 10/36 =
    # 0.28 wounds. A model falls to two: E[floor(U/2)] for U ~ Binomial(10, 1/36),
    # enumerated: 0.030.
    guard = squad("guard", A, GUARD, [LASGUN], row(20.0, 10.0, 10))
    brutes = squad("brutes", B, profile("Brute", w=2, sv="2+"), [], row(20.0, 31.0, 5))
    battle = make_battle(guard, brutes, options={"suppressive_fire": True})
    reader = _Reader(["stop"])
    battle.controllers[A] = reader
    shooting_attack(battle, guard, brutes, FireOrders(action=SUPPRESS))
    assert reader.read == [
        {
            "Lasgun": "10 models fire; about 0.03 models would fall and 0.28 wounds go "
            "unsaved (Suppressive Fire removes none)",
            "stop": "",
        }
    ]
