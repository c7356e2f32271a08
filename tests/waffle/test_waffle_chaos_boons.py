"""The Chaos Boon table (``chaos_boons.py``) and the challenge's excess wounds in
the combat result (``allocation.excess_wounds``).

Each expectation is the table's text (the 6th-edition codex table the
7th-edition codex kept, as docs/rules/waffle.md cites it): "23 - +1 Attack",
"35 - Armour Save improves by 1", "32 - Return to full wounds, if unwounded gain
+1 Wound", "64 - Roll another d3+1 on this table (re-rolling Spawnhood and
Apotheosis)", and the codex's "If a boon is rolled that the character already
has, the roll has no effect". A boon is given by :func:`chaos_boons.gain_boon`
with the D66 result, so only the dice the boon itself rolls are scripted.
"""

from __future__ import annotations

import pytest
from conftest import (
    SMITE,
    A,
    B,
    Placed,
    all_dice_used,
    asked,
    make_battle,
    make_unit,
    of_kind,
    psychic_phase,
)
from conftest import profile as make_profile
from fight_kit import CHAINSWORD

from hammerlab.editions.waffle.allocation import save_taken
from hammerlab.editions.waffle.assault_results import (
    SWEEP,
    FightRecord,
    combat_result,
    sweeping_advances,
)
from hammerlab.editions.waffle.chaos_boons import (
    CHAOS_BOON_TABLE,
    boon_for,
    gain_boon,
)
from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON, fight
from hammerlab.editions.waffle.movement import run
from hammerlab.editions.waffle.orders import WoundRoll
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.editions.waffle.special_rules import close_combat_weapon, unsupported_unit_rules
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Model, Unit

CHARACTER = "Infantry (Character)"
COMBI_BOLT = Weapon(
    "Combi-melta (boltgun)",
    {"Range": "24", "S": "4", "AP": "5", "Type": "Rapid Fire"},
    mode_of="Combi-melta",
)
COMBI_MELTA = Weapon(
    "Combi-melta (meltagun)",
    {"Range": "12", "S": "8", "AP": "1", "Type": "Assault 1"},
    mode_of="Combi-melta",
)


def champion(
    weapons: tuple[Weapon, ...] = (CHAINSWORD,),
    *,
    a: int = 1,
    w: int = 1,
    sv: str = "3+",
    dice: tuple[int, ...] = (),
) -> tuple[Battle, Unit, Model]:
    """A Champion of Chaos (WS4 BS4 S4 T4 I4 Ld8, as the conftest profile) alone."""
    prof = make_profile("Aspiring Champion", a=a, w=w, sv=sv, unit_type=CHARACTER)
    unit = make_unit("b", B, [Placed(prof, list(weapons), (10, 21), ("Champion of Chaos",))])
    return make_battle(unit, dice=dice), unit, unit.models[0]


def boon(
    roll: int, *, weapons: tuple[Weapon, ...] = (CHAINSWORD,), a: int = 1, sv: str = "3+"
) -> tuple[Battle, Model]:
    """The champion after the boon of ``roll``, and its battle."""
    battle, unit, model = champion(weapons, a=a, sv=sv)
    gain_boon(battle, unit, model, roll)
    return battle, model


def test_the_table_gives_every_d66_result_one_row_and_25_boons() -> None:
    # D66: tens 1-6, units 1-6, 36 results; the table has 25 boons besides
    # Unworthy Offering, Spawnhood, Multiple Boons and Dark Apotheosis (a 2015
    # review of the table counts "the tables 25 boons").
    results = [10 * t + u for t in range(1, 7) for u in range(1, 7)]
    rows = [r for b in CHAOS_BOON_TABLE for r in b.rolls]
    assert sorted(rows) == results
    assert len(CHAOS_BOON_TABLE) == 25 + 4
    assert [boon_for(r).name for r in (11, 16, 21, 22, 35, 64, 65, 66)] == [
        "Unworthy Offering",
        "Unworthy Offering",
        "Spawnhood",
        "Spawnhood",
        "Mechanoid",  # the codex's worked example: "35 - … the Mechanoid Chaos Boon"
        "Multiple Boons",
        "Dark Apotheosis",
        "Dark Apotheosis",
    ]


@pytest.mark.parametrize(
    ("roll", "key", "before", "after"),
    [
        (23, "A", "1", "2"),  # "+1 Attack"
        (25, "S", "4", "5"),  # "+1 Strength"
        (26, "BS", "4", "5"),  # "+1 BS"
        (31, "I", "4", "5"),  # "+1 Initiative"
        (33, "T", "4", "5"),  # "+1 Toughness"
        (56, "WS", "4", "5"),  # "+1 WS"
        (35, "Sv", "3+", "2+"),  # "Armour Save improves by 1"
    ],
)
def test_characteristic_boons_raise_one_characteristic_by_one(
    roll: int, key: str, before: str, after: str
) -> None:
    battle, model = boon(roll)
    assert model.profile.get(key) == after
    others = {k: v for k, v in model.profile.characteristics.items() if k != key}
    assert others == {k: v for k, v in make_profile().characteristics.items() if k != key}
    (gained,) = of_kind(battle, "chaos boon gained")
    assert (gained.model, gained.roll, gained.outcome) == ("b.1", roll, "gained")
    assert before != after


def test_a_characteristic_is_never_raised_above_10_nor_a_save_beyond_2_plus() -> None:
    _, model = boon(23, a=10)
    assert model.profile.get("A") == "10"
    _, model = boon(35, sv="2+")
    assert model.profile.get("Sv") == "2+"
    _, model = boon(35, sv="-")  # no armour save to improve
    assert model.profile.get("Sv") == "-"


def test_bloated_heals_a_wounded_champion_or_gives_an_unwounded_one_a_wound() -> None:
    battle, unit, model = champion(w=3)
    model.wounds_left = 1
    gain_boon(battle, unit, model, 32)
    assert (model.wounds_left, model.profile.get("W")) == (3, "3")  # back to full
    battle, unit, model = champion(w=3)
    gain_boon(battle, unit, model, 32)
    assert (model.wounds_left, model.profile.get("W")) == (4, "4")  # +1 Wound


@pytest.mark.parametrize(
    ("roll", "rule"),
    [
        (24, "Eternal Warrior"),  # Fragment of Immortality
        (34, "Shrouded"),  # Shield of Force
        (43, "Poisoned"),  # "Melee attacks are Poisoned"
        (45, "Hammer of Wrath"),
        (51, "Adamantium Will"),
        (53, "Hatred"),  # "Hatred (Everything!)"
        (54, "Shred"),
        (55, "Instant Death"),  # "Melee attacks have instant death"
        (61, "Stubborn"),
        (62, "Fleet"),
        (63, "Feel No Pain"),
        (42, "Cosmic Fate"),  # "Re-roll failed armour saves" (allocation.save_taken)
        (46, "Icy Aura"),  # icy_aura.py
        (44, "Crusader"),  # Unholy Crusader: "Crusader"
        (41, "Witch-eater"),  # witch_eater.py
    ],
)
def test_rule_boons_give_the_champion_the_special_rule(roll: int, rule: str) -> None:
    _, model = boon(roll)
    assert model.rules == ("Champion of Chaos", rule)


def test_poisoned_and_instant_death_reach_the_champions_blows() -> None:
    battle, unit, model = champion()
    gain_boon(battle, unit, model, 43)
    gain_boon(battle, unit, model, 55)
    struck = close_combat_weapon(unit, model, weapon_of(CHAINSWORD))
    assert struck.has_rule("Poisoned") and struck.has_rule("Instant Death")


def test_blade_of_chaos_gives_one_melee_weapon_fleshbane() -> None:
    _, model = boon(36)
    (chainsword,) = model.weapons
    assert weapon_of(chainsword).has_rule("Fleshbane")
    assert model.rules == ("Champion of Chaos",)
    # Without a melee weapon it strikes with its close combat weapon: that has it.
    battle, unit, model = champion(weapons=())
    gain_boon(battle, unit, model, 36)
    assert close_combat_weapon(unit, model, CLOSE_COMBAT_WEAPON).has_rule("Fleshbane")


def test_gun_morph_gives_one_ranged_weapon_plus_1_strength_in_all_its_modes() -> None:
    _, model = boon(52, weapons=(CHAINSWORD, COMBI_BOLT, COMBI_MELTA))
    assert [w.get("S") for w in model.weapons] == ["User", "5", "9"]


def test_a_boon_the_champion_has_already_has_no_effect() -> None:
    battle, unit, model = champion()
    gain_boon(battle, unit, model, 23)
    gain_boon(battle, unit, model, 23)
    assert model.profile.get("A") == "2"  # not 3
    assert [e.outcome for e in of_kind(battle, "chaos boon gained")] == ["gained", "already had"]


@pytest.mark.parametrize("roll", [11, 16])
def test_unworthy_offering_changes_nothing(roll: int) -> None:
    battle, model = boon(roll)
    assert (model.profile, model.rules) == (
        make_profile("Aspiring Champion", unit_type=CHARACTER),
        ("Champion of Chaos",),
    )
    assert [e.outcome for e in of_kind(battle, "chaos boon gained")] == ["no effect"]


def test_cosmic_fate_rerolls_a_failed_armour_save_once() -> None:
    # "Re-roll failed armour saves": a 3+ save rolled 2, re-rolled 5: saved. A
    # second wound: 1, re-rolled 2: failed (no third roll). AP- chainsword blows.
    battle, unit, model = champion(dice=(2, 5, 1, 2))
    gain_boon(battle, unit, model, 42)
    wound = WoundRoll(strength=4, ap=None, source=model)
    chainsword = weapon_of(CHAINSWORD)
    assert save_taken(battle, unit, model, wound, chainsword, cover=False)
    assert not save_taken(battle, unit, model, wound, chainsword, cover=False)
    rolls = [(e.roll, e.saved) for e in of_kind(battle, "save")]
    assert rolls == [(2, False), (5, True), (1, False), (2, False)]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("roll", "form"),
    [(21, "Chaos Spawn"), (22, "Chaos Spawn"), (65, "Daemon Prince"), (66, "Daemon Prince")],
)
def test_spawnhood_and_dark_apotheosis_replace_the_champion(roll: int, form: str) -> None:
    # "21-22 Replace model with Chaos Spawn", "65-66 Replace model with Daemon
    # Prince" (test_waffle_chaos_forms.py: the new unit). A Spawn rolls its D6
    # Attacks (3).
    battle, unit, model = champion(dice=(3,) if form == "Chaos Spawn" else ())
    gain_boon(battle, unit, model, roll)
    (gained,) = of_kind(battle, "chaos boon gained")
    assert (gained.boon, gained.outcome) == (boon_for(roll).name, "gained")
    (changed,) = of_kind(battle, "champion transformed")
    assert (changed.model, changed.form) == ("b.1", form)
    assert [u.name for u in battle.units.values()] == [form]
    assert all_dice_used(battle)


def test_multiple_boons_rolls_d3_plus_1_more_rerolling_spawnhood_and_apotheosis() -> None:
    # D3 = 2: three more boons. 2,1 = 21 Spawnhood: re-rolled, 6,5 = 65 Dark
    # Apotheosis: re-rolled, 2,3 = 23 (+1 A); 2,5 = 25 (+1 S); 3,3 = 33 (+1 T).
    battle, unit, model = champion(dice=(2, 2, 1, 6, 5, 2, 3, 2, 5, 3, 3))
    gain_boon(battle, unit, model, 64)
    stats = stats_of(model.profile)
    assert (stats.a, stats.s, stats.t) == (2, 5, 5)
    events = of_kind(battle, "chaos boon gained")
    assert [(e.roll, e.outcome) for e in events] == [
        (64, "no effect"),
        (23, "gained"),
        (25, "gained"),
        (33, "gained"),
    ]
    assert all_dice_used(battle)


def test_champion_of_chaos_is_no_longer_reported_as_not_implemented() -> None:
    assert unsupported_unit_rules(("Champion of Chaos", "Champion of Chaos (Champion Only)")) == []


def hero(name: str, *, a: int = 1, i: int = 4, w: int = 1, sv: str = "-") -> Placed:
    prof = make_profile(name, a=a, i=i, w=w, sv=sv, unit_type=CHARACTER)
    return Placed(prof, [CHAINSWORD], (0, 0))


def at(p: Placed, x: float, y: float, rules: tuple[str, ...] = ()) -> Placed:
    return Placed(p.profile, p.weapons, (x, y), rules)


def test_a_champion_that_slays_its_foe_in_a_challenge_gains_the_boon_it_rolls() -> None:
    a = make_unit("a", A, [at(hero("Hero", i=1), 10, 20)])
    b = make_unit("b", B, [at(hero("Champion", i=5), 10, 21, ("Champion of Chaos",))])
    # The Champion hits (6) and wounds (6): the Hero is slain; D66 2 then 3 is
    # 23, Warp Frenzy: "+1 Attack".
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 2, 3],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    fight(battle, combats(battle)[0], A)
    assert b.models[0].profile.get("A") == "2"
    (gained,) = of_kind(battle, "chaos boon gained")
    assert (gained.boon, gained.outcome) == ("Warp Frenzy", "gained")
    assert all_dice_used(battle)


def test_wounds_beyond_a_slain_duellists_last_count_toward_the_combat_result() -> None:
    # The Hero (A3, I5) challenges the Sergeant (W1, 4+ save); B's Trooper
    # stands 3" away, out of the fight. Hits 6, 6, 6 (4+ for WS4 against WS4),
    # wounds 6, 6, 6 (4+ for S4 against T4). First wound: save 1, failed, the
    # Sergeant is slain. The two beyond its last take its save: 4 saved, 2
    # failed. A's result: 1 + 1 = 2; B's: 0. A wins by 2 (without the excess
    # wound it would be 1).
    a = make_unit("a", A, [at(hero("Hero", a=3, i=5), 10, 20)])
    b = make_unit(
        "b",
        B,
        [
            at(hero("Sergeant", i=1, sv="4+"), 10, 21),
            Placed(make_profile("Trooper", sv="-"), [CHAINSWORD], (14, 21)),
        ],
    )
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 6, 6, 6, 6, 1, 4, 2],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    combat = combats(battle)[0]
    fight(battle, combat, A)
    assert (st(battle, a).combat_score, st(battle, b).combat_score) == (2, 0)
    (excess,) = of_kind(battle, "excess wounds")
    assert (excess.model, excess.wounds, excess.unsaved) == ("b.1", 2, 1)
    outcome = combat_result(battle, combat)
    assert outcome.winner == A
    assert [(u.id, penalty) for u, penalty in outcome.losers] == [("b", 2)]
    assert all_dice_used(battle)


def test_icy_aura_hits_each_enemy_model_in_base_contact_at_initiative_1() -> None:
    # "enemy models in base contact take a Str 4 AP 5 hit at Initiative Step 1".
    # The Champion (A1, I4) at (10, 20.866) touches two Troopers (I3, no save)
    # at (9.5, 20) and (10.5, 20): centre distance 1" (0.5² + 0.866² = 1), so
    # the 1" bases touch. I4: the Champion misses
    # (1). I3: the Troopers miss (1, 1). I1: two hits, S4 against T4 wound on
    # 4+: 4 wounds the first Trooper (slain: no save), 3 fails on the second.
    prof = make_profile("Aspiring Champion", unit_type=CHARACTER)
    b = make_unit("b", B, [Placed(prof, [CHAINSWORD], (10, 20.866), ("Champion of Chaos",))])
    trooper = make_profile("Trooper", i=3, sv="-")
    a = make_unit(
        "a",
        A,
        [Placed(trooper, [CHAINSWORD], (9.5, 20)), Placed(trooper, [CHAINSWORD], (10.5, 20))],
    )
    battle = make_battle(a, b, dice=[1, 1, 1, 4, 3])
    gain_boon(battle, b, b.models[0], 46)
    fight(battle, combats(battle)[0], A)
    icy = [e for e in of_kind(battle, "blows") if e.weapon == "Icy Aura"]
    assert [(e.target, e.initiative, e.hits) for e in icy] == [(a.label, 1, 1), (a.label, 1, 1)]
    assert [m.id for m in a.alive_models] == ["a.2"]
    assert (st(battle, a).combat_score, st(battle, b).combat_score) == (0, 1)
    assert all_dice_used(battle)


def test_crusader_runs_the_highest_of_one_more_die() -> None:
    # Crusader (Warhammer40K.gst): "rolls an extra dice when making Run moves,
    # using highest result rolled": 2 and 5, so up to 5" (1D6 Run).
    prof = make_profile("Aspiring Champion", unit_type=CHARACTER)
    unit = make_unit("b", B, [Placed(prof, [CHAINSWORD], (10, 21), ("Champion of Chaos",))])
    battle = make_battle(unit, dice=[2, 5], script_b=[("move", "hold")])
    gain_boon(battle, unit, unit.models[0], 44)
    run(battle, unit)
    (move,) = asked(battle, B, "move")
    assert 'up to 5"' in move.prompt
    assert all_dice_used(battle)
    assert unsupported_unit_rules(("Crusader",)) == []


def test_crusader_adds_d3_to_the_sweeping_advance_total() -> None:
    # "adds D3 to its Sweeping Advance totals": the fleeing Troopers (I4) roll 6:
    # 10; the Champion's unit (I4) rolls 4 + 4 = 8, and the D3 1: 9, short of 10.
    prof = make_profile("Aspiring Champion", unit_type=CHARACTER)
    b = make_unit("b", B, [Placed(prof, [CHAINSWORD], (10, 21), ("Crusader",))])
    a = make_unit("a", A, [Placed(make_profile("Trooper"), [CHAINSWORD], (10, 20))])
    battle = make_battle(a, b, dice=[6, 4, 1], script_b=[("sweeping_advance", SWEEP)])
    record = FightRecord(locked={"b": {"a"}})
    sweeping_advances(battle, [b], [a], record)
    (sweep,) = of_kind(battle, "sweeping_advance")
    assert (sweep.total, sweep.fleeing_total, sweep.caught) == (9, 10, False)
    assert all_dice_used(battle)


def test_witch_eater_hits_the_psyker_whose_power_its_unit_denies() -> None:
    # "Passing a Deny the Witch roll makes enemy Psyker take a Str 6 AP 2 hit".
    # Pools: the D6 1, A 1 + Mastery Level 2 = 3, B 1. Smite's test 4, 1: one
    # success; B denies with 1 die on 6+ (no Psyker in B): 6, denied. The hit:
    # S6 against the Librarian's T4 wounds on 2+: 3; AP2 beats its 3+ armour,
    # its 4+ invulnerable save rolls 2: one wound lost (W2 to 1).
    lib = make_unit(
        "lib",
        A,
        [Placed(make_profile("Librarian", ws=5, w=2, a=2, ld=10, inv=4), [], (36, 10))],
        rules=["Psyker (Mastery Level 2)"],
    )
    lib.models[0].powers = (SMITE,)
    prof = make_profile("Aspiring Champion", unit_type=CHARACTER)
    b = make_unit("b", B, [Placed(prof, [CHAINSWORD], (36, 20), ("Champion of Chaos",))])
    battle = make_battle(
        lib,
        b,
        dice=[1, 4, 1, 6, 3, 2],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Smite"),
            ("psychic_target", "B [b]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "1 dice")],
    )
    gain_boon(battle, b, b.models[0], 41)
    psychic_phase(battle, A)
    (deny,) = of_kind(battle, "deny_the_witch")
    assert deny.denied
    (lost,) = of_kind(battle, "wound")
    assert (lost.model, lost.lost, lost.left) == ("lib.1", 1, 1)
    assert all_dice_used(battle)
