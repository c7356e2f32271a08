"""7th-edition challenges in the fight sub-phase, and Champion of Chaos
(``challenges.py``).

Every battle is A's turn; A stands on y = 20 and B on y = 21 (``fight_kit``),
so the model of A at x touches the model of B at the same x. Only the fight
(:func:`fight.fight`) is played, not the assault result. Profiles have no save,
so each unsaved wound is a wound rolled; the dice are worked by hand in the
comments (WS4 against WS4 hits on 4+, S4 against T4 wounds on 4+).
"""

from __future__ import annotations

import pytest
from conftest import A, B, Placed, alive_ids, all_dice_used, asked, make_battle, make_unit, of_kind
from conftest import profile as make_profile
from fight_kit import CHAINSWORD

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.challenges import forget_refusals, open_challenges
from hammerlab.editions.waffle.characteristics import leadership
from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.fight import fight, fight_sub_phase
from hammerlab.editions.waffle.hammer_of_wrath import hammers, strike_hammers
from hammerlab.editions.waffle.state import st, state_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit

CHARACTER = "Infantry (Character)"


def hero(name: str, *, a: int = 1, i: int = 4, w: int = 1) -> Placed:
    """A Character with a chainsword (placed later)."""
    prof = make_profile(name, a=a, i=i, w=w, sv="-", unit_type=CHARACTER)
    return Placed(prof, [CHAINSWORD], (0, 0))


def placed(p: Placed, x: float, y: float, rules: tuple[str, ...] = ()) -> Placed:
    return Placed(p.profile, p.weapons, (x, y), rules)


def trooper(name: str, x: float, y: float, i: int = 3) -> Placed:
    return Placed(make_profile(name, i=i, sv="-"), [CHAINSWORD], (x, y))


def struck(battle: Battle) -> list[tuple[str, int]]:
    """(unit, models) of each BlowsStruck event."""
    return [(e.unit, e.models) for e in of_kind(battle, "blows")]


def fight_once(battle: Battle) -> None:
    fight(battle, combats(battle)[0], A)


def test_accepted_challenge_blows_go_only_to_each_other() -> None:
    # a.1 Hero (A3, I5) at x=10 touches b.2; a.2 (I3) at x=11 touches b.1.
    a = make_unit("a", A, [placed(hero("Hero", a=3, i=5), 10, 20), trooper("Grunt", 11, 20)])
    b = make_unit("b", B, [placed(hero("Sergeant", i=1, w=2), 11, 21), trooper("Trooper", 10, 21)])
    # I5: the Hero strikes only the Sergeant (not in contact with it): 3 hits
    # (6, 6, 6), 3 wounds (6, 6, 6): the Sergeant (W2) is slain by two, the
    # third is lost (never on the Trooper) but, unsaved (no save), still counts
    # for A's combat result. I3: the Grunt's wound (6, 6) goes
    # to the Trooper, the Sergeant being out of reach; the Trooper's (6, 6)
    # to the Grunt, not to the closer Hero (still in the challenge this round).
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    fight_once(battle)
    assert (alive_ids(a), alive_ids(b)) == (["a.1"], [])
    assert a.models[0].wounds_left == 1
    # A: the Hero's 3 wounds in the challenge (2 taken, 1 beyond the Sergeant's
    # last) + the Grunt's 1 = 4; B: the Trooper's 1.
    assert (st(battle, a).combat_score, st(battle, b).combat_score) == (4, 1)
    (excess,) = of_kind(battle, "excess wounds")
    assert (excess.model, excess.wounds, excess.unsaved) == ("b.1", 1, 1)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.model, issued.accepted_by, issued.barred) == (A, "a.1", "b.1", "")
    assert state_of(battle).duels == {}  # the Sergeant is slain: it is over
    assert all_dice_used(battle)


def test_a_challenge_goes_on_next_round_without_being_asked_again() -> None:
    a = make_unit("a", A, [placed(hero("Hero", i=5, w=3), 10, 20)])
    b = make_unit("b", B, [placed(hero("Sergeant", i=1, w=3), 10, 21)])
    # Round 1: the Hero misses (1), the Sergeant misses (1). Round 2: nobody is
    # asked; the same two strike each other: a miss (1), then a hit (6) and a
    # wound (6) on the Hero.
    battle = make_battle(
        a,
        b,
        dice=[1, 1, 1, 6, 6],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    fight_once(battle)
    assert state_of(battle).duels == {"a.1": "b.1", "b.1": "a.1"}
    fight_once(battle)
    assert len(asked(battle, A, "issue_challenge")) == 1
    assert a.models[0].wounds_left == 2
    assert all_dice_used(battle)


def test_only_a_character_able_to_fight_may_issue_or_accept_a_challenge() -> None:
    # 6th/7th edition: a Character must be able to fight to issue or accept a
    # challenge: engaged, or able to Pile In into base contact (3", seed 001/002
    # Pile In). a.1 (10, 20) touches the Sergeant b.1 (10, 21); a.2 at (15.5, 20)
    # touches no one and no friend of its within 2" does, but the Trooper b.2 (13, 21)
    # is sqrt(2.5² + 1²) - 1 = 1.69" from its base: it could Pile In. a.3 at (25, 20)
    # is 12.04 - 1 = 11.04" from b.2: it cannot fight, so it is not offered. Nor is
    # the far Priest b.3 (40, 21) offered to accept.
    a = make_unit(
        "a",
        A,
        [
            placed(hero("Hero"), 10, 20),
            placed(hero("Near Hero"), 15.5, 20),
            placed(hero("Far Hero"), 25, 20),
        ],
    )
    b = make_unit(
        "b",
        B,
        [
            placed(hero("Sergeant"), 10, 21),
            trooper("Trooper", 13, 21),
            placed(hero("Priest"), 40, 21),
        ],
    )
    battle = make_battle(
        a,
        b,
        script_a=[("issue_challenge", "a.2")],
        script_b=[("accept_challenge", "refuse")],
    )
    open_challenges(battle, combats(battle)[0].units, A)
    (issue,) = asked(battle, A, "issue_challenge")
    assert issue.labels() == ["no challenge", "a.1", "a.2"]
    assert issue.context.models == ("b.1",)
    (accept,) = asked(battle, B, "accept_challenge")
    assert accept.labels() == ["refuse", "b.1"]


def test_both_duellists_strike_each_other_whether_or_not_in_base_contact() -> None:
    # docs/rules/waffle.md, Challenges: "the two models strike only each other, at the
    # foe's own WS, whether or not in base contact" — both, or the one engaged would
    # strike a foe that never strikes back. A challenge stands between the Hero a.2
    # (I5), 8.94" from the nearest enemy (b.2), and the Sergeant b.1 (I1), engaged
    # (within 2" of b.2, which touches a.1). I5: the Hero piles in 3" (still out of
    # contact) and strikes the Sergeant, a miss (1); I3: the Grunt strikes the Trooper
    # (the Sergeant may not be wounded by him), a miss (1), the Trooper the Grunt, a
    # miss (1); I1: the Sergeant strikes the Hero, a miss (1).
    a = make_unit("a", A, [trooper("Grunt", 11, 20), placed(hero("Hero", i=5), 20, 20)])
    b = make_unit("b", B, [placed(hero("Sergeant", i=1), 10, 21), trooper("Trooper", 11, 21)])
    battle = make_battle(a, b, dice=[1, 1, 1, 1])
    state_of(battle).duels.update({"a.2": "b.1", "b.1": "a.2"})
    fight_once(battle)
    blows = [(e.unit, e.initiative, e.models, e.target) for e in of_kind(battle, "blows")]
    assert blows == [(a.label, 5, 1, b.label), (a.label, 3, 1, b.label),
                     (b.label, 3, 1, a.label), (b.label, 1, 1, a.label)]  # fmt: skip
    assert [m.model for m in of_kind(battle, "move")] == ["a.2"]
    assert all_dice_used(battle)


def test_refused_challenge_bars_the_chosen_character_for_this_round_only() -> None:
    a = make_unit("a", A, [placed(hero("Hero", i=5), 10, 20)])
    b = make_unit(
        "b", B, [placed(hero("Sergeant", i=1), 10, 21), placed(hero("Priest", i=1), 11, 21)]
    )
    # Round 1: B refuses; A bars the Sergeant. The Hero misses (1); only the
    # Priest strikes back and misses (1). The phase ends (fight_sub_phase forgets
    # the refusals). Round 2: no one issues; the Hero misses (1), both B
    # Characters strike (two misses: 1, 1).
    battle = make_battle(
        a,
        b,
        dice=[1, 1, 1, 1, 1],
        script_a=[
            ("issue_challenge", "a.1"),
            ("refused_character", "b.1"),
            ("issue_challenge", "no challenge"),
        ],
        script_b=[("accept_challenge", "refuse"), ("issue_challenge", "no challenge")],
    )
    fight_once(battle)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.accepted_by, issued.barred) == ("", "b.1")
    assert struck(battle) == [(a.label, 1), (b.label, 1)]
    forget_refusals(battle)
    fight_once(battle)
    assert [(e.unit, e.models) for e in of_kind(battle, "blows")][2:] == [
        (a.label, 1),
        (b.label, 2),
    ]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("dice", "sergeant_wounds", "guardsman_alive"),
    [([3, 2], 2, True), ([2, 3], 3, False)],
    ids=["duellist-hits-its-foe", "other-hit-spares-the-duellist"],
)
def test_hammer_of_wrath_keeps_to_the_challenge(
    dice: list[int], sergeant_wounds: int, guardsman_alive: bool
) -> None:
    # Hammer of Wrath is "one additional Attack", and in a challenge the two models
    # "strike only each other ... no other blow may be allocated to them". The Bikers
    # charged: a.1 (Bike Character, fighting the Sergeant b.1) touches only the
    # Guardsman b.2; a.2 touches only b.1; b.3 stands apart. The hits are struck in
    # model order, each S4 against T3 (wounds on 3+), no saves. a.1's hit goes to b.1
    # (not touching it), a.2's to b's closest model that is not fighting, b.2. First
    # case: a.1's wounds (3), b.1 keeps 2 of 3; a.2's fails (2), b.2 lives (it was
    # a.1's hit that slew b.2). Second: a.1's fails (2); a.2's (3) slays b.2, and b.1
    # keeps 3 (a.2's hit used to wound b.1).
    biker = make_profile("Biker", sv="-", unit_type="Bike")
    boss = make_profile("Biker Sergeant", sv="-", unit_type="Bike (Character)")
    a = make_unit(
        "a", A, [Placed(boss, [CHAINSWORD], (10, 20)), Placed(biker, [CHAINSWORD], (11, 20))]
    )
    sergeant = make_profile("Sergeant", t=3, w=3, sv="-", unit_type=CHARACTER)
    guardsman = make_profile("Guardsman", t=3, sv="-")
    b = make_unit(
        "b",
        B,
        [
            Placed(sergeant, [CHAINSWORD], (11, 21)),
            Placed(guardsman, [CHAINSWORD], (10, 21)),
            Placed(guardsman, [CHAINSWORD], (14, 21)),
        ],
    )
    a.status.charged = True
    battle = make_battle(a, b, dice=dice)
    state_of(battle).duels.update({"a.1": "b.1", "b.1": "a.1"})
    units = combats(battle)[0].units
    strike_hammers(battle, hammers(battle, units), units)
    assert b.models[0].wounds_left == sergeant_wounds
    assert b.models[1].alive == guardsman_alive
    assert all_dice_used(battle)


def test_champion_of_chaos_must_accept_and_rolls_a_boon_when_it_slays() -> None:
    a = make_unit("a", A, [placed(hero("Hero", i=1), 10, 20)])
    champion = placed(hero("Aspiring Champion", i=5), 10, 21, ("Champion of Chaos",))
    b = make_unit("b", B, [champion])
    # The Champion hits (6) and wounds (6): the Hero is slain before it strikes;
    # then the D66 on the Chaos Boon table: 3 then 5 is 35.
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 3, 5],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    fight_once(battle)
    assert asked(battle, B, "accept_challenge")[0].labels() == ["b.1"]  # no "refuse"
    (boon,) = of_kind(battle, "chaos boon")
    assert (boon.model, boon.slain, boon.roll) == ("b.1", "a.1", 35)
    assert alive_ids(a) == []
    assert all_dice_used(battle)


def test_champion_of_chaos_must_issue_when_the_foe_does_not() -> None:
    a = make_unit("a", A, [placed(hero("Hero", i=1), 10, 20)])
    b = make_unit("b", B, [placed(hero("Champion", i=1), 10, 21, ("Champion of Chaos",))])
    battle = make_battle(
        a,
        b,
        dice=[1, 1],  # both miss
        script_a=[("issue_challenge", "no challenge"), ("accept_challenge", "a.1")],
        script_b=[("issue_challenge", "b.1")],
    )
    fight_once(battle)
    assert asked(battle, B, "issue_challenge")[0].labels() == ["b.1"]  # no "no challenge"
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.accepted_by) == (B, "a.1")
    assert all_dice_used(battle)


def ai_battle(a_attacks: int, b_attacks: int) -> tuple[Battle, Unit, Unit]:
    """A Hero and a Grunt against a Sergeant and a Trooper: each side may refuse."""
    a = make_unit("a", A, [placed(hero("Hero", a=a_attacks), 10, 20), trooper("Grunt", 11, 20)])
    b = make_unit(
        "b", B, [placed(hero("Sergeant", a=b_attacks), 10, 21), trooper("Trooper", 11, 21)]
    )
    return make_battle(a, b, seed=1, fallback=WaffleAI()), a, b


def test_ai_issues_no_challenge_that_changes_no_models() -> None:
    # Every model alike but for the Characters' Attacks (WS4 against WS4, 1/2 to hit;
    # S4 against T4, 1/2 to wound; no save, W1): a blow slays 1/4 of a model, whether
    # at the foe's unit or at its Character alone. The Hero (A3) against the Sergeant
    # (A1), each with one more model: in a challenge the Hero's blows slay 0.75 of the
    # Sergeant instead of 0.75 of his unit, and the Sergeant's 0.25 of the Hero instead
    # of 0.25 of his (challenge_plans.challenge_worth: 0.75 - 0.75 - (0.25 - 0.25) = 0); a refusal
    # would cost the refuser its barred Character's blows, so neither side would refuse.
    # A challenge is worth 0 to either issuer: no challenge (a tie keeps "no
    # challenge"). Until session 24 the Hero issued and the Sergeant refused: his
    # blows were read at the whole unit, and refusing did not count the Hero's.
    for a_attacks, b_attacks in ((3, 1), (1, 3)):
        battle, _, _ = ai_battle(a_attacks, b_attacks)
        fight_once(battle)
        assert of_kind(battle, "challenge") == []


def test_ai_accepts_when_refusing_would_cost_more_than_the_duel() -> None:
    # The Hero (A3) issues (scripted) to the Sergeant (A2), all else as above: accepting
    # is worth 0 to A (0.75 - 0.75 - (0.5 - 0.5)), refusing 0.5 (the barred Sergeant's
    # blows at A's unit, 2 x 1/4). B accepts (until session 23 it refused every duel it
    # did not win).
    a = make_unit("a", A, [placed(hero("Hero", a=3), 10, 20), trooper("Grunt", 11, 20)])
    b = make_unit("b", B, [placed(hero("Sergeant", a=2), 10, 21), trooper("Trooper", 11, 21)])
    battle = make_battle(a, b, seed=1, script_a=[("issue_challenge", "a.1")], fallback=WaffleAI())
    open_challenges(battle, combats(battle)[0].units, A)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.model, issued.accepted_by, issued.barred) == (A, "a.1", "b.1", "")


def nob_and_guard(script_a: list[tuple[str, str]]) -> Battle:
    """Session 24's review (finding 2, ``lab_charge_over_open_ground``): a Boss Nob
    (S6 A4 W2) and two Boyz against a Guard Sergeant (S3 T3 A2) and four Guardsmen
    (T3), each model in base contact with the one across from it; WS4 all, no saves."""
    nob = make_profile("Boss Nob", s=6, w=2, a=4, i=3, sv="-", unit_type=CHARACTER)
    sergeant = make_profile("Sergeant", s=3, t=3, a=2, i=3, sv="-", unit_type=CHARACTER)
    guardsman = make_profile("Guardsman", s=3, t=3, i=3, sv="-")
    boyz = [Placed(nob, [CHAINSWORD], (10, 20)), trooper("Boy", 12, 20), trooper("Boy", 14, 20)]
    guard = [Placed(sergeant, [CHAINSWORD], (10, 21))]
    guard += [Placed(guardsman, [CHAINSWORD], (x, 21)) for x in (12, 14, 16, 18)]
    a, b = make_unit("a", A, boyz), make_unit("b", B, guard)
    return make_battle(a, b, seed=1, script_a=script_a, fallback=WaffleAI())


def test_a_guard_sergeant_accepts_a_nobs_challenge_that_would_cut_through_his_squad() -> None:
    # One round's expected models slain, each blow 1/2 to hit (WS4 against WS4):
    # the Nob's 4 blows, S6 against T3 (2+, 5/6): 4 x 1/2 x 5/6 = 5/3 Guardsmen; at the
    # Sergeant alone, at most him: 1. The Sergeant's 2 blows, S3 against T4 (5+,
    # 1/3): 2 x 1/2 x 1/3 = 1/3 of a Boy; at the Nob alone, W2: 1/6. Accepted, the
    # challenge is worth to the Orks (1 - 5/3) - (1/6 - 1/3) = -1/2; refused, the
    # barred Sergeant's 1/3 (the Nob strikes the squad all the same). The Guard take the
    # answer worth least to the Orks: accept. Until session 24 accepting scored
    # 1/3 - 5/3 (the Nob's blows at the whole squad) and refusing -1/3 (without them),
    # and the Sergeant refused.
    battle = nob_and_guard([("issue_challenge", "a.1")])
    open_challenges(battle, combats(battle)[0].units, A)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.model, issued.accepted_by, issued.barred) == (A, "a.1", "b.1", "")


def test_the_nob_issues_no_challenge_and_the_sergeant_does() -> None:
    # As above, with the AI on both sides. The Orks, first: the Guard would accept
    # (-1/2 to the Orks, against 1/3 refused), so issuing is worth -1/2: none. The
    # Guard: the Orks would accept, worth to the Guard (1/6 - 1/3) - (1 - 5/3) = 1/2,
    # or refuse with the Nob barred, his 5/3 lost: they accept (1/2 < 5/3), and the
    # Sergeant issues (1/2 > 0): the "sacrificial sergeant" who ties the Nob's blows up.
    battle = nob_and_guard([])
    open_challenges(battle, combats(battle)[0].units, A)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.model, issued.accepted_by, issued.barred) == (B, "b.1", "a.1", "")


def test_a_fragile_character_refuses_a_challenge_its_armoured_bodyguard_would_weather() -> None:
    # A Hero (A4, S4) and two Troopers (T4, no save) against an Adept (Character, S3 T3
    # A1, no save) standing behind three Guardians (T4, 2+ save), each blow 1/2 to hit.
    # The Hero's 4 blows: at the Adept alone, S4 against T3 (3+, 2/3): 4/3, so at most
    # him, 1; at the Guardians, 1/2 to wound and 1/6 past the 2+: 4 x 1/2 x 1/2 x 1/6 =
    # 1/6. The Adept's blow, S3 against T4 (5+, 1/3): 1/6, at the Hero alone or at his
    # unit. Accepted, the challenge is worth to A (1 - 1/6) - (1/6 - 1/6) = 5/6; refused,
    # the barred Adept's 1/6. B refuses (1/6 < 5/6), and A, expecting the refusal,
    # issues (1/6 > 0). Played out exactly the choice is as clear: accepting, the Adept
    # dies 1 - (2/3)^4 = 65/81 of the time, for 1/6 of the Hero; refusing, the Hero
    # slays 1/6 of a Guardian. Until session 24 A did not issue (its Hero's 1/6 at the
    # Guardians against the Adept's 1/6: no margin), and B would have accepted (1/6 -
    # 1/6 = 0 against -1/6 refusing).
    adept = make_profile("Adept", s=3, t=3, sv="-", unit_type=CHARACTER)
    guardian = make_profile("Guardian", sv="2+")
    a = make_unit(
        "a",
        A,
        [placed(hero("Hero", a=4), 10, 20), trooper("Trooper", 12, 20), trooper("Trooper", 14, 20)],
    )
    guard = [Placed(adept, [CHAINSWORD], (16, 21))]
    guard += [Placed(guardian, [CHAINSWORD], (x, 21)) for x in (10, 12, 14)]
    b = make_unit("b", B, guard)
    battle = make_battle(a, b, seed=1, fallback=WaffleAI())
    open_challenges(battle, combats(battle)[0].units, A)
    (issued,) = of_kind(battle, "challenge")
    assert (issued.player, issued.model, issued.accepted_by, issued.barred) == (A, "a.1", "", "b.1")


def test_a_unit_of_one_character_may_not_refuse_a_challenge() -> None:
    # 6th-edition Heroic Stand (7th edition p. 101 alike): "A unit that consists of only
    # a single character cannot refuse a challenge." Two lone Characters: B is offered
    # only to accept, and the AI, weaker (0.25 against 0.75), accepts.
    a = make_unit("a", A, [placed(hero("Hero", a=3), 10, 20)])
    b = make_unit("b", B, [placed(hero("Sergeant"), 10, 21)])
    battle = make_battle(a, b, seed=1, script_a=[("issue_challenge", "a.1")], fallback=WaffleAI())
    open_challenges(battle, combats(battle)[0].units, A)
    (accept,) = asked(battle, B, "accept_challenge")
    assert accept.labels() == ["b.1"]
    (issued,) = of_kind(battle, "challenge")
    assert (issued.accepted_by, issued.barred) == ("b.1", "")


def test_a_lone_character_is_never_the_one_barred_by_a_refusal() -> None:
    # The lone Character b.1 and the Sergeant c.1 of a squad both touch A's unit: B
    # may refuse (c.1's unit may hide him), and the Character barred is c.1, the only
    # one that may refuse, without A being asked.
    a = make_unit("a", A, [placed(hero("Hero"), 10, 20), trooper("Grunt", 12, 20)])
    b = make_unit("b", B, [placed(hero("Captain"), 10, 21)])
    c = make_unit("c", B, [placed(hero("Sergeant"), 12, 21), trooper("Trooper", 13, 21)])
    battle = make_battle(
        a,
        b,
        c,
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "refuse")],
    )
    open_challenges(battle, combats(battle)[0].units, A)
    (accept,) = asked(battle, B, "accept_challenge")
    assert accept.labels() == ["refuse", "b.1", "c.1"]
    assert asked(battle, A, "refused_character") == []
    (issued,) = of_kind(battle, "challenge")
    assert (issued.accepted_by, issued.barred) == ("", "c.1")


def test_a_character_that_refused_lends_no_leadership_for_the_rest_of_the_phase() -> None:
    # 6th-edition rulebook p. 64 (7th p. 101 alike), Refusing a Challenge: "his
    # Leadership cannot be used by the rest of the unit for the remainder of the
    # phase". The Sergeant (Ld10, W3) refuses and is barred; the Trooper has Ld5.
    # I5: the Hero hits (6) and wounds (6) the closest, the Sergeant (2 wounds left);
    # I3: the Trooper misses (1). A wins 1 to 0: B's Morale check is at Ld5 -1 (the
    # Trooper's), not Ld10 -1, rolled 1 + 2 = 3, passed. The units still touch: they
    # Pile In, no dice. Once the phase is over the Sergeant's Ld10 counts again.
    a = make_unit("a", A, [placed(hero("Hero", i=5), 10, 20)])
    sergeant = make_profile("Sergeant", w=3, ld=10, sv="-", unit_type=CHARACTER)
    b = make_unit(
        "b",
        B,
        [
            Placed(sergeant, [CHAINSWORD], (10, 21)),
            Placed(make_profile("Trooper", i=3, ld=5, sv="-"), [CHAINSWORD], (11, 21)),
        ],
    )
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 1, 1, 2],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "refuse")],
    )
    fight_sub_phase(battle, A)
    (issued,) = of_kind(battle, "challenge")
    assert issued.barred == "b.1"
    (check,) = of_kind(battle, "morale")
    assert (check.unit, check.leadership, check.modifier, check.passed) == (b.label, 5, -1, True)
    assert leadership(battle, b) == 10
    assert all_dice_used(battle)


def test_an_independent_character_written_into_a_squad_fights_as_one_of_it() -> None:
    # docs/scenarios.md: an Independent Character cannot join a unit; a squad led by
    # one is an inline unit whose models include it (rules = ["Independent Character"]).
    # It is one of the squad's models: the squad tests on its Ld10 (not the Trooper's
    # Ld5), and it takes a challenge inside the squad, which may refuse it (not a unit
    # of one Character).
    a = make_unit("a", A, [placed(hero("Hero"), 10, 20)])
    captain = make_profile("Captain", ld=10, sv="-", unit_type=CHARACTER)
    b = make_unit(
        "b",
        B,
        [
            Placed(captain, [CHAINSWORD], (10, 21), ("Independent Character",)),
            Placed(make_profile("Trooper", ld=5, sv="-"), [CHAINSWORD], (11, 21)),
        ],
    )
    battle = make_battle(
        a, b, script_a=[("issue_challenge", "a.1")], script_b=[("accept_challenge", "b.1")]
    )
    assert leadership(battle, b) == 10
    open_challenges(battle, combats(battle)[0].units, A)
    (accept,) = asked(battle, B, "accept_challenge")
    assert accept.labels() == ["refuse", "b.1"]
    assert state_of(battle).duels == {"a.1": "b.1", "b.1": "a.1"}
