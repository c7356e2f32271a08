"""Exact odds checked against hand derivations, brute-force enumeration and icepool."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import comb, isclose
from typing import Any

import icepool
import pytest
from core11_kit import gun
from hypothesis import given, settings
from hypothesis import strategies as st

from hammerlab.analysis.odds_check import check_odds
from hammerlab.analysis.odds_request import OddsAsk, answer
from hammerlab.editions.core11.odds import KillOdds, kill_odds
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import Situation
from hammerlab.editions.core11.weapons import read_weapon


def _odds(
    attacks: str = "1",
    bs: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: str = "1",
    keywords: tuple[str, ...] = (),
    toughness: int = 4,
    save: int = 3,
    wounds: int = 1,
    models: int = 10,
    invulnerable: int | None = None,
    target_keywords: tuple[str, ...] = (),
    fnp: int | None = None,
    situation: Situation | None = None,
    firing: int = 1,
) -> KillOdds:
    weapon = read_weapon(gun("w", 24, attacks, bs, strength, ap, damage, keywords))
    target = DefenceStats(toughness, save, wounds, invulnerable, None, frozenset(target_keywords))
    return kill_odds(
        weapon, firing, target, models, situation or Situation(target_models=models), fnp
    )


def _close(a: float, b: float) -> bool:
    return isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# --- hand derivations -------------------------------------------------------------------


def test_odds_plain_binomial_by_hand() -> None:
    # BS3+: 4/6 hit; S4 v T4: 3/6 wound; Sv3+ AP0: 2/6 fail. p = 1/9 per attack.
    odds = _odds(attacks="10")
    p = 1 / 9
    for k in range(11):
        assert _close(odds.unsaved_wounds[k], comb(10, k) * p**k * (1 - p) ** (10 - k))
    assert _close(odds.models_killed[0], (8 / 9) ** 10)
    assert _close(odds.mean_models_killed, 10 / 9)


def test_odds_lethal_hits_by_hand() -> None:
    # BS4+: a 6 (1/6) wounds automatically then fails a 2+ save 1/6 of the time;
    # 4-5 (2/6) hit, wound on 4+ (1/2), fail the save 1/6: 1/36 + 1/36 = 1/18.
    odds = _odds(bs=4, keywords=("LETHAL HITS",), save=2)
    assert _close(odds.unsaved_wounds[1], 1 / 18)


def test_odds_devastating_wounds_by_hand() -> None:
    # BS2+: 5/6 hit. Wound 4-5 (2/6) then a 2+ save fails 1/6; a 6 (1/6) cannot be saved.
    odds = _odds(bs=2, keywords=("DEVASTATING WOUNDS",), save=2)
    assert _close(odds.unsaved_wounds[1], 5 / 6 * (2 / 6 * 1 / 6 + 1 / 6))


def test_odds_anti_keyword_by_hand() -> None:
    # S3 v T6 needs 6+; ANTI-INFANTRY 4+ makes 4-6 critical wounds against INFANTRY.
    base = dict(bs=2, strength=3, toughness=6, save=7, keywords=("ANTI-INFANTRY 4+",))
    assert _close(_odds(**base, target_keywords=("INFANTRY",)).unsaved_wounds[1], 5 / 6 * 3 / 6)  # type: ignore[arg-type]
    assert _close(_odds(**base, target_keywords=("VEHICLE",)).unsaved_wounds[1], 5 / 6 * 1 / 6)  # type: ignore[arg-type]


def test_odds_twin_linked_rerolls_failed_wounds_by_hand() -> None:
    # S4 v T4: 1/2, and half of the failures succeed on the re-roll: 3/4. Torrent hits.
    odds = _odds(keywords=("TWIN-LINKED", "TORRENT"), save=7)
    assert _close(odds.unsaved_wounds[1], 3 / 4)


def test_odds_heavy_cover_and_modifier_cap_by_hand() -> None:
    # BS4+: heavy, unengaged, moved no more than 3": +1 to hit (3+ on the die: 4/6).
    # Cover worsens the BS to 5+ (2/6). Both: BS 5+ and +1, a 4+ on the die (3/6).
    still = Situation(heavy_steady=True, target_models=10)
    hidden = Situation(cover=True, target_models=10)
    both = Situation(heavy_steady=True, cover=True, target_models=10)
    for situation, hits in ((still, 4 / 6), (hidden, 2 / 6), (both, 3 / 6)):
        odds = _odds(bs=4, keywords=("HEAVY",), save=7, situation=situation)
        assert _close(odds.mean_hits, hits)
    # Ignores cover: 4+ again.
    ignores = _odds(bs=4, keywords=("IGNORES COVER",), save=7, situation=hidden)
    assert _close(ignores.mean_hits, 3 / 6)


def test_odds_rapid_fire_melta_and_feel_no_pain_by_hand() -> None:
    half = Situation(half_range=True, target_models=10)
    rapid = _odds(attacks="2", keywords=("RAPID FIRE 2",), situation=half)
    assert _close(rapid.mean_attacks, 4)
    melta = _odds(damage="D6", keywords=("MELTA 2",), save=7, situation=half, bs=2)
    # 5/6 hit, 1/2 wound, D6+2 damage: 3.5 + 2.
    assert _close(melta.mean_damage, 5 / 6 * 1 / 2 * 5.5)
    numb = _odds(damage="3", save=7, bs=2, fnp=5)
    # Each of 3 points is ignored on a 5+: 2 of 3 points get through on average.
    assert _close(numb.mean_damage, 5 / 6 * 1 / 2 * 2)


def test_odds_blast_adds_attacks_per_five_models() -> None:
    assert _close(_odds(attacks="1", keywords=("BLAST 2",), models=11).mean_attacks, 1 + 2 * 2)
    # "add one additional attack dice for every five models" (bare [BLAST]): 11 // 5 = 2.
    assert _close(_odds(attacks="1", keywords=("BLAST",), models=11).mean_attacks, 1 + 2)
    # [BLAST D3]: a D3 for each five models (two D3, mean 2 each).
    assert _close(_odds(attacks="1", keywords=("BLAST D3",), models=10).mean_attacks, 1 + 4)


def test_odds_excess_damage_is_lost_by_hand() -> None:
    # Two torrent attacks, S8 v T4 (2+: 5/6), no save: U ~ Binomial(2, 5/6).
    # D3 against W2: a 1 leaves the model on 1 wound, a 2 or 3 destroys it (excess lost).
    # One wound: 1 kill w.p. 2/3. Two wounds: 2 kills w.p. 4/9, else 1 kill (5/9).
    odds = _odds(attacks="2", strength=8, damage="D3", save=7, wounds=2, models=2,
                 keywords=("TORRENT",))  # fmt: skip
    p0, p1, p2 = 1 / 36, 10 / 36, 25 / 36
    assert _close(odds.models_killed[2], p2 * 4 / 9)
    assert _close(odds.models_killed[1], p1 * 2 / 3 + p2 * 5 / 9)
    assert _close(odds.models_killed[0], p0 + p1 * 1 / 3)
    assert _close(odds.mean_damage, (2 * 5 / 6) * 2)


def test_odds_indirect_fire_by_hand() -> None:
    # 10.07: cover (-1) and 1-5 fail: only a 6 hits; stationary and spotted: 1-3 fail,
    # and 4 - 1 = 3 still reaches BS 3+: 4, 5, 6 hit.
    blind = Situation(indirect=True, target_models=10)
    seen = Situation(indirect=True, stationary=True, spotted=True, target_models=10)
    assert _close(_odds(keywords=("INDIRECT FIRE",), situation=blind).mean_hits, 1 / 6)
    assert _close(_odds(keywords=("INDIRECT FIRE",), situation=seen).mean_hits, 3 / 6)


# --- brute force: the literal sequence, state by state, in exact fractions -----------------

State = tuple[int, int, int]
"""Models destroyed, wounds left on the model being damaged, and [DEVASTATING WOUNDS]
critical wounds whose mortal wounds are still to come."""


def _brute(
    attacks: int,
    bs: int,
    wound_need: int,
    save_need: int,
    damage: list[int],
    wounds: int,
    models: int,
    sustained: int = 0,
    lethal: bool = False,
    devastating: bool = False,
    twin: bool = False,
    fnp: int | None = None,
) -> list[Fraction]:
    sixth = Fraction(1, 6)

    def damage_step(dist: dict[State, Fraction]) -> dict[State, Fraction]:
        out: dict[State, Fraction] = defaultdict(Fraction)
        for (dead, left, pending), p in dist.items():
            for amount in damage:
                outcomes = {0: Fraction(1)}
                for _ in range(amount if fnp else 0):
                    grown: dict[int, Fraction] = defaultdict(Fraction)
                    for ignored, q in outcomes.items():
                        for face in range(1, 7):
                            grown[ignored + (face >= (fnp or 7))] += q * sixth
                    outcomes = grown
                for ignored, q in outcomes.items():
                    dealt = amount - ignored
                    weight = p * q / len(damage)
                    if dead == models:
                        out[(dead, left, pending)] += weight
                    elif dealt >= left:
                        out[(dead + 1, wounds, pending)] += weight
                    else:
                        out[(dead, left - dealt, pending)] += weight
        return out

    def save_step(dist: dict[State, Fraction], critical: bool) -> dict[State, Fraction]:
        if critical and devastating:  # the attack sequence ends; mortal wounds come later
            return {(dead, left, pending + 1): p for (dead, left, pending), p in dist.items()}
        failed: dict[State, Fraction] = defaultdict(Fraction)
        kept: dict[State, Fraction] = defaultdict(Fraction)
        for state, p in dist.items():
            for face in range(1, 7):
                (kept if face != 1 and face >= save_need else failed)[state] += p * sixth
        out = damage_step(failed)
        for state, p in kept.items():
            out[state] = out.get(state, Fraction(0)) + p
        return out

    def wound_step(dist: dict[State, Fraction]) -> dict[State, Fraction]:
        out: dict[State, Fraction] = defaultdict(Fraction)
        faces = {f: sixth for f in range(1, 7)}
        if twin:
            again = {f: p for f, p in faces.items() if f != 1 and f >= wound_need}
            fail = sum((p for f, p in faces.items() if f == 1 or f < wound_need), Fraction(0))
            for f in range(1, 7):
                again[f] = again.get(f, Fraction(0)) + fail * sixth
            faces = {f: p for f, p in again.items() if f != 1 and f >= wound_need}
            faces[0] = Fraction(1) - sum(faces.values(), Fraction(0))
        for face, q in faces.items():
            part = {s: p * q for s, p in dist.items()}
            if face == 6:
                part = save_step(part, critical=True)
            elif face not in (0, 1) and face >= wound_need:
                part = save_step(part, critical=False)
            for state, p in part.items():
                out[state] += p
        return out

    states: dict[State, Fraction] = {(0, wounds, 0): Fraction(1)}
    for _ in range(attacks):
        new: dict[State, Fraction] = defaultdict(Fraction)
        for face in range(1, 7):
            dist = {s: p * sixth for s, p in states.items()}
            if face == 6:
                dist = save_step(dist, critical=False) if lethal else wound_step(dist)
                for _ in range(sustained):
                    dist = wound_step(dist)
            elif face != 1 and face >= bs:
                dist = wound_step(dist)
            for state, p in dist.items():
                new[state] += p
        states = new
    # [DEVASTATING WOUNDS]: "inflicted after resolving any normal damage inflicted by
    # those attacks": each critical wound's D mortal wounds (Feel No Pain on each) go to
    # the model being damaged, else a fresh one (06.02), "a maximum of one model for each
    # critical wound; any remaining mortal wounds [...] are lost" — a damage step.
    while any(pending for _, _, pending in states):
        waiting = {s: p for s, p in states.items() if s[2]}
        done = damage_step({(dead, left, n - 1): p for (dead, left, n), p in waiting.items()})
        states = {s: p for s, p in states.items() if not s[2]}
        for state, p in done.items():
            states[state] = states.get(state, Fraction(0)) + p
    killed = [Fraction(0)] * (models + 1)
    for (dead, _, _), p in states.items():
        killed[dead] += p
    return killed


@pytest.mark.parametrize(
    ("keywords", "flags"),
    [
        ((), {}),
        (("SUSTAINED HITS 1",), {"sustained": 1}),
        (("LETHAL HITS",), {"lethal": True}),
        (("DEVASTATING WOUNDS",), {"devastating": True}),
        (("TWIN-LINKED",), {"twin": True}),
        (("SUSTAINED HITS 2", "LETHAL HITS", "DEVASTATING WOUNDS"),
         {"sustained": 2, "lethal": True, "devastating": True}),
    ],
)  # fmt: skip
def test_odds_match_brute_force_enumeration(
    keywords: tuple[str, ...], flags: dict[str, Any]
) -> None:
    # 3 attacks BS3+, S5 v T4 (3+), AP-1 v Sv3+ (4+), D3 damage, FNP 6+, 2 models of W3.
    odds = _odds(attacks="3", strength=5, ap=-1, damage="D3", wounds=3, models=2,
                 keywords=keywords, fnp=6)  # fmt: skip
    brute = _brute(3, 3, 3, 4, [1, 2, 3], 3, 2, fnp=6, **flags)
    assert len(odds.models_killed) == len(brute)
    for exact, mine in zip(brute, odds.models_killed, strict=True):
        assert _close(mine, float(exact))


@pytest.mark.parametrize(
    ("attacker", "weapon", "target"),
    [
        # 12 attacks, S12 AP0 D3 at W2 Sv3+: a critical wound's 3 mortal wounds slay one
        # Intercessor and the third is lost.
        ("Knight Abominant", "Volkite combustor", "Intercessor Squad"),
        # D6+1 at W3 Sv2+ 4++: mortal wounds after the saves the other wound takes.
        ("Broadside Battlesuits", "Heavy rail rifle", "Terminator Squad"),
    ],
)
def test_devastating_wounds_odds_agree_with_the_engine_by_monte_carlo(
    attacker: str, weapon: str, target: str
) -> None:
    """The engine plays [DEVASTATING WOUNDS] in the order the text gives (normal damage
    first, then each critical wound's mortal wounds on one model); the odds take each
    critical wound as one more wound of damage D in the sequence (the brute force above
    plays the literal order). 2,000 volleys of the engine at fresh targets fit them."""
    ask = OddsAsk(ruleset="core11", attacker=attacker, weapon=weapon, target=target)
    check = check_odds(ask, answer(ask), 2_000, 1)
    assert check.p_value > 0.01, check


# --- icepool as an independent oracle -------------------------------------------------


def test_odds_unsaved_wounds_match_icepool_with_sustained_hits_and_dice_attacks() -> None:
    # BS3+ with SUSTAINED HITS 1: faces 1-2 no hit, 3-5 one hit, 6 two hits. Each hit: wound
    # on 4+ (1/2) and fail a 5+ save (4/6): unsaved 1/3. Attacks: D6+1.
    hits = icepool.d6.map(lambda f: 0 if f < 3 else (2 if f == 6 else 1))
    per_attack = hits @ icepool.Die({0: 2, 1: 1})
    expected = (icepool.d6 + 1) @ per_attack
    odds = _odds(attacks="D6+1", ap=-1, save=4, keywords=("SUSTAINED HITS 1",))
    for k, p in enumerate(odds.unsaved_wounds):
        assert _close(p, float(expected.probability(k)))


# --- invariants -----------------------------------------------------------------------

profiles = st.fixed_dictionaries(
    {
        "attacks": st.sampled_from(["1", "2", "D3", "D6", "2D6", "4"]),
        "bs": st.integers(2, 6),
        "strength": st.integers(2, 10),
        "ap": st.integers(-3, 0),
        "damage": st.sampled_from(["1", "2", "D3", "D6+1"]),
        "toughness": st.integers(2, 10),
        "wounds": st.integers(1, 6),
        "models": st.integers(1, 6),
        "keywords": st.sampled_from(
            [(), ("SUSTAINED HITS 1",), ("LETHAL HITS",), ("DEVASTATING WOUNDS",), ("TORRENT",)]
        ),
    }
)


@settings(max_examples=40, deadline=None)
@given(profiles, st.integers(2, 6))
def test_odds_distributions_sum_to_one_and_worse_saves_lose_more_models(
    profile: dict[str, Any],
    save: int,
) -> None:
    odds = _odds(save=save, **profile)
    assert _close(sum(odds.models_killed), 1.0)
    assert _close(sum(odds.unsaved_wounds), 1.0)
    assert len(odds.models_killed) == profile["models"] + 1
    worse = _odds(save=save + 1, **profile)
    assert worse.mean_models_killed >= odds.mean_models_killed - 1e-12
    assert worse.mean_unsaved >= odds.mean_unsaved - 1e-12


@settings(max_examples=25, deadline=None)
@given(profiles)
def test_odds_more_firing_models_kill_stochastically_more(profile: dict[str, Any]) -> None:
    one, two = _odds(**profile), _odds(firing=2, **profile)
    tail_one = tail_two = 1.0
    for k in range(len(one.models_killed)):
        assert tail_two >= tail_one - 1e-12  # P(at least k) never falls
        tail_one -= one.models_killed[k]
        tail_two -= two.models_killed[k]
