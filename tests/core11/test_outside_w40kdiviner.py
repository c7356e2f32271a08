"""W40kDiviner's published 11th-edition test cases, re-asked of hammerlab's core11 odds.

W40kDiviner (github.com/aturchi/W40kDiviner, an 11th-edition damage calculator)
publishes rules-level tests whose expected values are written in closed form
(``tests/test_critical_triggers.py``, ``test_modifier_caps.py``,
``test_fnp_and_mortals.py``, ``test_indirect_fire.py``, ``test_close_quarters.py``,
``test_crit_threshold.py``, ``test_attacks_floor.py``,
``test_dice_x_and_overwatch.py``, ``test_ap_modifiers.py``, ``test_hazardous.py``,
``test_kill_chain.py``, ``test_allocation.py``). Each test below restates one of
their cases: the same weapon, target and situation, and the same closed-form
expectation (the numbers are theirs; nothing of their code is used). A comment
names the source file and the case, by the label the source gives it. Cases that
need rules or features hammerlab does not have are listed, with why, in
``docs/rules/core11.md`` ("Cross-checks against outside references").

Their ``damage mean`` is the expected damage before excess damage is lost,
which is :attr:`KillOdds.mean_damage`; a target of ten one-wound models keeps
every question away from the model count.
"""

from __future__ import annotations

from math import isclose

import pytest
from core11_kit import gun

from hammerlab.editions.core11.odds import KillOdds, kill_odds
from hammerlab.editions.core11.odds_questions import situation_of
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import Situation
from hammerlab.editions.core11.weapons import WeaponProfile, read_weapon
from hammerlab.editions.distributions import casualties, vector
from hammerlab.errors import QuestionError

NO_SAVE = 7
"""A Save characteristic no roll reaches (their ``"Sv": None``)."""


def _weapon(
    attacks: str, bs: int, strength: int, ap: int, damage: str = "1", *keywords: str
) -> WeaponProfile:
    return read_weapon(gun("w", 24, attacks, bs, strength, ap, damage, keywords))


def _target(
    toughness: int,
    save: int,
    wounds: int = 1,
    keywords: tuple[str, ...] = (),
    invulnerable: int | None = None,
) -> DefenceStats:
    return DefenceStats(toughness, save, wounds, invulnerable, None, frozenset(keywords))


def _odds(
    weapon: WeaponProfile,
    target: DefenceStats,
    situation: Situation | None = None,
    *,
    models: int = 10,
    firing: int = 1,
    fnp: int | None = None,
) -> KillOdds:
    return kill_odds(
        weapon, firing, target, models, situation or Situation(target_models=models), fnp
    )


def _same(a: float, b: float) -> bool:
    return isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# --- test_critical_triggers.py ----------------------------------------------------------
# Weapon: A6 BS3+ S8 AP-6 D1 at T4 Sv6+ W1 (VEHICLE): hit 2/3, critical hit 1/6,
# wound 5/6, no save.
A, P_HIT, P_CRIT, Q_W = 6, 2 / 3, 1 / 6, 5 / 6
P_NORM = P_HIT - P_CRIT
VEHICLE = _target(4, 6, keywords=("VEHICLE",))


def _crit(*keywords: str) -> float:
    return _odds(_weapon("6", 3, 8, -6, "1", *keywords), VEHICLE).mean_damage


def test_diviner_critical_hits_are_read_on_the_unmodified_die() -> None:
    # test_critical_triggers.py §1 "hit prob at 6s only" / "crit prob is
    # modifier-independent": BS5+ with -1 to hit (17.03's -1 here) hits on a 6 only,
    # and that 6 is a critical (SUSTAINED HITS 1 doubles it).
    engaged = Situation(engaged_target_penalty=True, target_models=10)
    five = _odds(_weapon("6", 5, 8, -6, "1", "SUSTAINED HITS 1"), VEHICLE, engaged)
    assert _same(five.mean_hits, 6 * (1 / 6 + 1 / 6))
    # §1 "unmodified 1 always fails" / "unmodified 1 is never a critical": BS2+ with
    # +1 ([HEAVY], stationary) still misses on a 1.
    steady = Situation(heavy_steady=True, target_models=10)
    two = _odds(_weapon("6", 2, 8, -6, "1", "HEAVY", "SUSTAINED HITS 1"), VEHICLE, steady)
    assert _same(two.mean_hits, 6 * (5 / 6 + 1 / 6))
    # §1 "critical succeeds vs impossible target": a 6 hits whatever the need.
    six = _odds(_weapon("6", 6, 8, -6), VEHICLE, engaged)
    assert _same(six.mean_hits, 6 * (1 / 6))


def test_diviner_what_a_critical_hit_triggers() -> None:
    # test_critical_triggers.py §2: "plain", "lethal hits", "sustained 2",
    # "sustained + lethal".
    assert _same(_crit(), A * P_HIT * Q_W)
    assert _same(_crit("LETHAL HITS"), A * (P_NORM * Q_W + P_CRIT))
    assert _same(_crit("SUSTAINED HITS 2"), A * (P_NORM * Q_W + P_CRIT * 3 * Q_W))
    assert _same(
        _crit("SUSTAINED HITS 2", "LETHAL HITS"), A * (P_NORM * Q_W + P_CRIT * (1 + 2 * Q_W))
    )


# §3-4: the same weapon at AP0 against a 3+ save (1/3 unsaved); critical wound 1/6.
SAVE3 = _target(4, 3, keywords=("VEHICLE",))
P_UNSAVED, Q_CRIT = 1 / 3, 1 / 6


def _crit3(*keywords: str) -> KillOdds:
    return _odds(_weapon("6", 3, 8, 0, "1", *keywords), SAVE3)


def test_diviner_what_a_critical_wound_triggers() -> None:
    # test_critical_triggers.py §3: "plain vs 3+ save", "devastating",
    # "anti + devastating", "sustained is driven by crit_hit_on alone".
    assert _same(_crit3().mean_damage, A * P_HIT * Q_W * P_UNSAVED)
    assert _same(
        _crit3("DEVASTATING WOUNDS").mean_damage,
        A * P_HIT * ((Q_W - Q_CRIT) * P_UNSAVED + Q_CRIT),
    )
    assert _same(
        _crit3("DEVASTATING WOUNDS", "ANTI-VEHICLE 4+").mean_damage,
        A * P_HIT * ((Q_W - 3 / 6) * P_UNSAVED + 3 / 6),
    )
    assert _same(
        _crit3("SUSTAINED HITS 1").mean_damage,
        A * (P_NORM * Q_W + P_CRIT * 2 * Q_W) * P_UNSAVED,
    )


def test_diviner_lethal_auto_wound_is_not_a_critical_wound() -> None:
    # test_critical_triggers.py §4 "lethal + devastating": with the auto-wound taken,
    # a critical hit can no longer be a [DEVASTATING WOUNDS] critical wound, and the
    # pair is worth less than [DEVASTATING WOUNDS] alone. W40kDiviner always takes
    # the auto-wound; 11th edition makes it the attacker's choice ("you can choose"),
    # so hammerlab reports the better of the two - here rolling - and says so.
    forced = A * (P_NORM * ((Q_W - 3 / 6) * P_UNSAVED + 3 / 6) + P_CRIT * P_UNSAVED)
    devastating = A * P_HIT * ((Q_W - 3 / 6) * P_UNSAVED + 3 / 6)
    assert forced < devastating
    odds = _crit3("DEVASTATING WOUNDS", "ANTI-VEHICLE 4+", "LETHAL HITS")
    assert _same(odds.mean_damage, devastating)
    assert odds.choices and "rolls to wound" in odds.choices[0]


# --- test_modifier_caps.py --------------------------------------------------------------
# A6 BS3+ S5 AP0 at T4 Sv4+: wound 2/3, unsaved 1/2; only the hit step moves.
CAPS = _target(4, 4)


def _caps(situation: Situation, *keywords: str) -> float:
    return _odds(_weapon("6", 3, 5, 0, "1", *keywords), CAPS, situation).mean_damage


def test_diviner_cover_worsens_bs_and_stacks_with_a_capped_hit_modifier() -> None:
    # test_modifier_caps.py "the two groups stack": one -1 to hit == cover (-1 BS)
    # < base; cover and a -1 to hit together are -2 (BS3+ -> 5+: half the base).
    base = _caps(Situation(target_models=10))
    one_penalty = _caps(Situation(engaged_target_penalty=True, target_models=10))
    cover = _caps(Situation(cover=True, target_models=10))
    both = _caps(Situation(cover=True, engaged_target_penalty=True, target_models=10))
    assert _same(base, 6 * (4 / 6) * (4 / 6) * (1 / 2))
    assert _same(one_penalty, cover) and cover < base
    assert _same(both, base / 2)
    # "the ROLL modifier is still clamped inside its own group": -2 to hit with cover
    # equals -1 to hit with cover.
    two_penalties = Situation(
        cover=True, engaged_target_penalty=True, close_quarters_penalty=True, target_models=10
    )
    assert _same(_caps(two_penalties), both)


def test_diviner_psychic_ignores_bs_and_hit_penalties_but_keeps_bonuses() -> None:
    # test_modifier_caps.py "Psychic drops the negatives of BOTH groups": cover's BS
    # and a -1 to hit are both ignored, a +1 to hit is kept.
    base = _caps(Situation(target_models=10))
    penalised = Situation(cover=True, engaged_target_penalty=True, target_models=10)
    assert _same(_caps(penalised, "PSYCHIC"), base)
    steady = Situation(heavy_steady=True, target_models=10)
    assert _caps(steady, "PSYCHIC", "HEAVY") > base


# --- test_fnp_and_mortals.py ------------------------------------------------------------


def test_diviner_feel_no_pain_thins_the_damage() -> None:
    # test_fnp_and_mortals.py "the numbers, end to end": "no FNP", "FNP 5+".
    # A6 BS2+ S10 AP-6 at T2 Sv6+ W9: hit 5/6, wound 5/6, no save.
    weapon, target = _weapon("6", 2, 10, -6), _target(2, 6, 9)
    assert _same(_odds(weapon, target).mean_damage, 6 * 5 / 6 * 5 / 6)
    assert _same(_odds(weapon, target, fnp=5).mean_damage, 6 * 5 / 6 * 5 / 6 * (1 - 2 / 6))


def test_diviner_devastating_wounds_ignore_armour_and_invulnerable_alike() -> None:
    # test_fnp_and_mortals.py "devastating ignores armour and invuln alike":
    # A6 BS2+ S10 AP0 [DEVASTATING WOUNDS] at T2 Sv2+ 4++ W9.
    odds = _odds(_weapon("6", 2, 10, 0, "1", "DEVASTATING WOUNDS"), _target(2, 2, 9, (), 4))
    assert _same(odds.mean_damage, 6 * 5 / 6 * ((5 / 6 - 1 / 6) * (1 / 6) + 1 / 6))


# --- test_indirect_fire.py --------------------------------------------------------------
# A6 BS3+ S8 AP-6 [INDIRECT FIRE] at T4 Sv6+: wound 5/6, no save.
INDIRECT_TARGET = _target(4, 6)


def _indirect(bs: int, names: tuple[str, ...], *keywords: str) -> float:
    weapon = _weapon("6", bs, 8, -6, "1", "INDIRECT FIRE", *keywords)
    return _odds(weapon, INDIRECT_TARGET, situation_of(names, 10, weapon)).mean_damage


def test_diviner_indirect_fire_floor_and_cover() -> None:
    # test_indirect_fire.py "no indirect mode: plain BS3+".
    assert _same(_indirect(3, ()), 6 * (2 / 3) * Q_W)
    # "indirect, no spotter": only an unmodified 6 lands (10.07: 1-5 fail).
    assert _same(_indirect(3, ("indirect",)), 6 * (1 / 6) * Q_W)
    # "indirect with spotter" (their spotter: stationary, target seen by a friend).
    spotted = ("indirect", "stationary", "spotted")
    assert _same(_indirect(3, spotted), 6 * (3 / 6) * Q_W)
    # "floor and cover combine, the stricter one wins": BS2+ worsened to 3+ by
    # cover, the floor makes it 4+.
    assert _same(_indirect(2, spotted), 6 * (3 / 6) * Q_W)
    # "ignores cover keeps the unmodified floor".
    assert _same(_indirect(2, spotted, "IGNORES COVER"), 6 * (3 / 6) * Q_W)


def test_diviner_indirect_mode_is_for_indirect_fire_weapons_only() -> None:
    # test_indirect_fire.py "keyword-gated": a weapon without the keyword does not
    # shoot indirectly (W40kDiviner skips it; hammerlab refuses the question).
    with pytest.raises(QuestionError, match="INDIRECT FIRE"):
        situation_of(("indirect",), 10, _weapon("6", 3, 8, -6))


# --- test_close_quarters.py -------------------------------------------------------------


def _close_quarters(names: tuple[str, ...], *keywords: str) -> float:
    weapon = _weapon("6", 3, 8, -6, "1", *keywords)
    return _odds(weapon, _target(4, 6, 9), situation_of(names, 10, weapon)).mean_damage


def test_diviner_close_quarters_minus_one_spares_close_quarters_weapons() -> None:
    # test_close_quarters.py "no penalty outside the mode", "-1 to hit on a normal
    # weapon", "CLOSE-QUARTERS is exempt", "PISTOL is exempt too", "...whatever the
    # casing or the spelling", "the -1 is a roll modifier and caps with the rest".
    assert _same(_close_quarters(()), A * (2 / 3) * Q_W)
    assert _same(_close_quarters(("close-quarters",)), A * (1 / 2) * Q_W)
    assert _same(_close_quarters(("close-quarters",), "CLOSE-QUARTERS"), A * (2 / 3) * Q_W)
    assert _same(_close_quarters(("close-quarters",), "PISTOL"), A * (2 / 3) * Q_W)
    assert _same(_close_quarters(("close-quarters",), "pistol"), A * (2 / 3) * Q_W)
    capped = ("close-quarters", "engaged-target")
    assert _same(_close_quarters(capped), A * (1 / 2) * Q_W)


def test_diviner_blast_never_fires_at_an_engaged_unit() -> None:
    # test_close_quarters.py "a VEHICLE fires everything but BLAST at an engaged unit".
    with pytest.raises(QuestionError, match="BLAST"):
        situation_of(("close-quarters",), 10, _weapon("6", 3, 8, -6, "1", "BLAST"))


def test_diviner_anti_keyword_matches_whatever_the_casing() -> None:
    # test_close_quarters.py "keyword matching is case-insensitive": A6 BS3+ S3 AP-6
    # Anti-Vehicle 3+ at T8 (6+ to wound; 3+ with the keyword).
    weapon = _weapon("6", 3, 3, -6, "1", "Anti-Vehicle 3+")
    plain = _odds(weapon, _target(8, 6, 9)).mean_damage
    assert _same(plain, 6 * (2 / 3) * (1 / 6))
    for spelling in ("Vehicle", "VEHICLE", "vehicle"):
        hit = _odds(weapon, _target(8, 6, 9, (spelling,))).mean_damage
        assert _same(hit, 6 * (2 / 3) * (4 / 6))


# --- test_crit_threshold.py -------------------------------------------------------------


def test_diviner_critical_wound_threshold_is_never_better_than_2_plus() -> None:
    # test_crit_threshold.py §5 "crit wound 6+ (plain)", "crit wound 2+" and "crit
    # wound 1+ -> floored to 2+" (their threshold from ANTI-X N+ here): A6 BS4+ S4 AP0 at
    # T8 (6+ to wound), no save.
    target = _target(8, NO_SAVE, 9, ("VEHICLE",))

    def damage(*keywords: str) -> float:
        return _odds(_weapon("6", 4, 4, 0, "1", *keywords), target).mean_damage

    assert _same(damage(), 6 * 0.5 * (1 / 6))
    assert _same(damage("ANTI-VEHICLE 2+"), 6 * 0.5 * (5 / 6))
    # W40kDiviner floors a written 1+ to 2+; hammerlab does not read "ANTI-K 1+" at
    # all (no rule can make an unmodified 1 succeed) and reports it as unknown.
    assert read_weapon(gun("w", 24, keywords=("ANTI-VEHICLE 1+",))).unknown == ("ANTI-VEHICLE 1+",)


# --- test_attacks_floor.py --------------------------------------------------------------
# A target that cannot save: BS2+ hits 5/6, S10 v T1 wounds 5/6, so the damage is the
# number of attacks times 25/36 (their HIT_WOUND).
HIT_WOUND = (5 / 6) * (5 / 6)
SOFT = _target(1, NO_SAVE, 99)


def test_diviner_rapid_fire_and_blast_add_to_the_attacks() -> None:
    # test_attacks_floor.py CASES "A1, RAPID FIRE 1 at half" (2 attacks), "A2, BLAST 1
    # vs 10 models" (4), and §2 "per weapon COPY": three copies at half range make 6.
    half = Situation(half_range=True, target_models=10)
    rapid = _odds(_weapon("1", 2, 10, -6, "1", "RAPID FIRE 1"), SOFT, half)
    assert _same(rapid.mean_attacks, 2) and _same(rapid.mean_damage, 2 * HIT_WOUND)
    blast = _odds(_weapon("2", 2, 10, -6, "1", "BLAST 1"), SOFT)
    assert _same(blast.mean_attacks, 4) and _same(blast.mean_damage, 4 * HIT_WOUND)
    three = _odds(_weapon("1", 2, 10, -6, "1", "RAPID FIRE 1"), SOFT, half, firing=3)
    assert _same(three.mean_attacks, 6)
    # §7 "the rapid-fire field ... is 0 when the attack is not at half range".
    far = _odds(_weapon("1", 2, 10, -6, "1", "RAPID FIRE 1"), SOFT)
    assert _same(far.mean_attacks, 1)


# --- test_dice_x_and_overwatch.py -------------------------------------------------------
# A2 BS2+ S10 AP-6 at T2 Sv6+ W9, ten models: hit 5/6, wound 5/6, no save.
DICE_TARGET = _target(2, 6, 9)
HALF = Situation(half_range=True, target_models=10)


def _dice_x(situation: Situation | None, *keywords: str) -> KillOdds:
    return _odds(_weapon("2", 2, 10, -6, "1", *keywords), DICE_TARGET, situation)


def test_diviner_rapid_fire_d3_adds_a_die() -> None:
    # test_dice_x_and_overwatch.py "no rapid fire", "rapid fire D3 at half range",
    # "...only at half range", and the attacks' distribution 2+D3 (3 to 5 attacks).
    assert _same(_dice_x(HALF).mean_damage, 2 * (5 / 6) * (5 / 6))
    rapid = _dice_x(HALF, "RAPID FIRE D3")
    assert _same(rapid.mean_damage, (2 + 2) * (5 / 6) * (5 / 6))
    assert len(rapid.unsaved_wounds) - 1 == 5
    assert _same(_dice_x(None, "RAPID FIRE D3").mean_damage, 2 * (5 / 6) * (5 / 6))


def test_diviner_blast_d3_rolls_once_per_five_models() -> None:
    # test_dice_x_and_overwatch.py "blast D3, 2 groups" and "2D3 tops out at 6 extra
    # attacks": ten models are two groups, 2 + 2D3 attacks, mean 6, at most 8.
    blast = _dice_x(None, "BLAST D3")
    assert _same(blast.mean_attacks, 2 + 4)
    assert len(blast.unsaved_wounds) - 1 == 2 + 6


def test_diviner_sustained_hits_d3_mixes_over_the_die() -> None:
    # test_dice_x_and_overwatch.py "sustained D3", "...same mean as a flat 2", and
    # "a die must not collapse to its average".
    dice = _dice_x(None, "SUSTAINED HITS D3")
    flat = _dice_x(None, "SUSTAINED HITS 2")
    expected = 2 * (5 / 6 + (1 / 6) * 2) * (5 / 6)
    assert _same(dice.mean_damage, expected) and _same(flat.mean_damage, expected)
    # Two attacks, each at most 1 + 3 hits with the die, 1 + 2 with the flat 2.
    assert len(dice.unsaved_wounds) - 1 == 8 and len(flat.unsaved_wounds) - 1 == 6


def test_diviner_melta_d6_adds_a_die_to_the_damage() -> None:
    # test_dice_x_and_overwatch.py "melta D6", "...only at half range".
    assert _same(_dice_x(HALF, "MELTA D6").mean_damage, 2 * (5 / 6) * (5 / 6) * (1 + 3.5))
    assert _same(_dice_x(None, "MELTA D6").mean_damage, 2 * (5 / 6) * (5 / 6))


# --- test_ap_modifiers.py ---------------------------------------------------------------


def test_diviner_armour_penetration_worsens_the_save() -> None:
    # test_ap_modifiers.py §2 "AP-1 baseline" and the AP 0 figure it is compared to:
    # A4 BS3+ S8 at T4 Sv4+.
    target = _target(4, 4, 3)
    ap1 = _odds(_weapon("4", 3, 8, -1), target).mean_damage
    ap0 = _odds(_weapon("4", 3, 8, 0), target).mean_damage
    assert _same(ap1, 4 * (2 / 3) * (5 / 6) * (4 / 6))
    assert _same(ap0, 4 * (2 / 3) * (5 / 6) * (3 / 6))


# --- test_hazardous.py ------------------------------------------------------------------


def test_diviner_hazardous_leaves_the_attack_alone() -> None:
    # test_hazardous.py §1 "HAZARDOUS must not touch the damage dealt": A2 BS3+ S8
    # AP-3 D2 at T5 Sv3+ W6 (3+ to wound, 6+ to save).
    target = _target(5, 3, 6)
    plain = _odds(_weapon("2", 3, 8, -3, "2"), target).mean_damage
    hazardous = _odds(_weapon("2", 3, 8, -3, "2", "HAZARDOUS"), target).mean_damage
    assert _same(plain, 2 * (2 / 3) * (4 / 6) * (5 / 6) * 2)
    assert _same(hazardous, plain)


# --- test_kill_chain.py and test_allocation.py: damage one unsaved wound at a time ------


def _exactly(n: int) -> list[float]:
    return [0.0] * n + [1.0]


def _killed(unsaved: int, damage: int, wounds: int, models: int) -> list[float]:
    dist = casualties(vector(_exactly(unsaved)), vector(_exactly(damage)), wounds, models)
    return [float(p) for p in dist]


def test_diviner_excess_damage_is_lost_one_wound_at_a_time() -> None:
    # test_kill_chain.py §1: "W=3, 2 models, three damage events of 2" -> one model
    # destroyed; "Overkill cannot destroy more models than the unit owns".
    assert _killed(3, 2, 3, 2) == [0.0, 1.0, 0.0]
    assert _killed(20, 9, 3, 2) == [0.0, 0.0, 1.0]
    # §2: ten damage into three W3 models: five hits of 2 destroy two, one hit of
    # 10 destroys one.
    assert _killed(5, 2, 3, 3) == [0.0, 0.0, 1.0, 0.0]
    assert _killed(1, 10, 3, 3) == [0.0, 1.0, 0.0, 0.0]
    # test_allocation.py §2: three events of 2 into three W2 models destroy three;
    # two events of 3 destroy two (the excess is wasted).
    assert _killed(3, 2, 2, 3) == [0.0, 0.0, 0.0, 1.0]
    assert _killed(2, 3, 2, 3) == [0.0, 0.0, 1.0, 0.0]
