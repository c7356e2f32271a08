"""Spawnhood and Dark Apotheosis (``chaos_forms.py``) and Random Attacks
(``random_attacks.py``).

Expectations come from the texts docs/rules/waffle.md cites: the table's
"21-22 Replace model with Chaos Spawn" and "65-66 Replace model with Daemon
Prince"; the boon's "The champion is now a separate, unengaged, non-scoring unit
that retains none of the champion's special rules or wargear"; the Chaos Spawn
as remembered (Beast, WS3 BS0 S5 T5 W3 I3 A D6 Ld10, no save; Fearless, Fleet,
Very Bulky, Mutated Beyond Reason); the Daemon Prince as a 2013 BattleScribe
roster prints it ("Monstrous Creature (Character)|WS:9|BS:5|S:6|T:5|W:4|I:8|
A:5|LD:9", "Rules: Daemon, Fearless", 3+ only with its Power Armour option) and
Daemon as Warhammer40K.gst writes it ("a 5+ invulnerable save, and also ... the
Fear special rule"); bases of 60 mm (as remembered).
"""

from __future__ import annotations

import pytest
from conftest import A, B, Placed, all_dice_used, make_battle, make_unit, of_kind
from conftest import profile as make_profile
from fight_kit import CHAINSWORD

from hammerlab.editions.turns import victory_scores
from hammerlab.editions.waffle.assault import ASSAULT
from hammerlab.editions.waffle.chaos_boons import CHAOS_BOON_TABLE, gain_boon
from hammerlab.editions.waffle.combat import combats
from hammerlab.editions.waffle.fight import CLOSE_COMBAT_WEAPON, attacks_of, fight_sub_phase
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.geometry import centre_distance
from hammerlab.engine.units import Unit

CHARACTER = "Infantry (Character)"
SPAWN_RULES = ("Fearless", "Fleet", "Very Bulky", "Random Attacks", "Mutated Beyond Reason")
SIXTY_MM_RADIUS = 60 / 25.4 / 2


def champion_unit(*others: Placed, at: tuple[float, float] = (10, 21)) -> Unit:
    """B's Aspiring Champion (Champion of Chaos, a chainsword), with ``others``."""
    prof = make_profile("Aspiring Champion", a=2, unit_type=CHARACTER)
    return make_unit("b", B, [Placed(prof, [CHAINSWORD], at, ("Champion of Chaos",)), *others])


def test_spawnhood_replaces_the_champion_with_a_chaos_spawn_unit_of_its_player() -> None:
    # No enemy near: the Spawn stands where the champion stood. Random Attacks:
    # a D6 (4) for the Assault phase it appears in.
    unit = champion_unit()
    battle = make_battle(unit, dice=[4])
    gain_boon(battle, unit, unit.models[0], 21)
    assert list(battle.units) == ["b.1-spawn"]  # the champion's unit had no one else
    spawn = battle.units["b.1-spawn"]
    assert (spawn.player, spawn.name, spawn.rules) == (B, "Chaos Spawn", SPAWN_RULES)
    (model,) = spawn.models
    assert model.profile.characteristics == {
        "WS": "3", "BS": "0", "S": "5", "T": "5", "W": "3", "I": "3", "A": "4", "Ld": "10",
        "Sv": "-",
    }  # fmt: skip
    assert model.profile.unit_type == "Beast"
    assert (model.weapons, model.rules, model.wounds_left) == ((), (), 3)
    assert model.position == (10, 21)
    assert model.radius == pytest.approx(SIXTY_MM_RADIUS)
    (gained,) = of_kind(battle, "chaos boon gained")
    assert (gained.boon, gained.outcome) == ("Spawnhood", "gained")
    (changed,) = of_kind(battle, "champion transformed")
    assert (changed.model, changed.form, changed.unit) == ("b.1", "Chaos Spawn", "b.1-spawn")
    assert [e.attacks for e in of_kind(battle, "random attacks")] == [4]
    assert all_dice_used(battle)


def test_dark_apotheosis_keeps_none_of_the_champions_boons_rules_or_wargear() -> None:
    # Warp Frenzy first (+1 Attack: A 3), then 65: the Daemon Prince has its own
    # A 5, no Champion of Chaos, no chainsword; Daemon: 5+ invulnerable and Fear.
    unit = champion_unit()
    battle = make_battle(unit)
    gain_boon(battle, unit, unit.models[0], 23)
    gain_boon(battle, unit, unit.models[0], 65)
    prince = battle.units["b.1-prince"]
    (model,) = prince.models
    stats = stats_of(model.profile)
    assert (stats.ws, stats.bs, stats.s, stats.t, stats.w, stats.i, stats.a, stats.ld) == (
        9, 5, 6, 5, 4, 8, 5, 9,
    )  # fmt: skip
    assert (stats.sv, stats.invulnerable) == (None, 5)
    assert stats.has_type("Monstrous Creature") and stats.has_type("Character")
    assert (prince.rules, model.rules, model.weapons, model.wounds_left) == (
        ("Fear", "Fearless"),
        (),
        (),
        4,
    )
    assert [(e.boon, e.outcome) for e in of_kind(battle, "chaos boon gained")] == [
        ("Warp Frenzy", "gained"),
        ("Dark Apotheosis", "gained"),
    ]
    assert all_dice_used(battle)  # a Daemon Prince rolls no Random Attacks


def test_the_new_form_stands_out_of_the_combat_at_the_nearest_ring() -> None:
    # "unengaged": the Spawn's base (60 mm, radius 1.181") keeps 1" from A's
    # Trooper (1" base, radius 0.5"), whose centre is 1" from the champion's:
    # the centres must be 2.681" apart. On the ring 1.5" round the champion's
    # place the best is 1 + 1.5 = 2.5" (too close); on the ring 2" a point at
    # angle t from straight away from the Trooper is sqrt(5 + 4 cos t) away,
    # enough for every t up to 56 degrees: the Spawn stands 2" from its place.
    trooper = Placed(make_profile("Trooper"), [CHAINSWORD], (10, 20))
    a = make_unit("a", A, [trooper])
    b = champion_unit()
    battle = make_battle(a, b, dice=[2])
    gain_boon(battle, b, b.models[0], 22)
    (model,) = battle.units["b.1-spawn"].models
    assert centre_distance(model.position, (10, 21)) == pytest.approx(2.0)
    gap = centre_distance(model.position, (10, 20)) - SIXTY_MM_RADIUS - 0.5
    assert gap >= 1.0 - 1e-6
    assert [u.id for c in combats(battle) for u in c.units] == []  # in no combat


def test_the_transformed_champion_is_not_counted_slain_by_any_victory_condition() -> None:
    # Its unit counts one model fewer from the start: the Marine beside it is
    # still its unit's one model, and nothing was destroyed.
    marine = Placed(make_profile("Marine"), [CHAINSWORD], (14, 21))
    unit = champion_unit(marine)
    battle = make_battle(unit, dice=[6])
    gain_boon(battle, unit, unit.models[0], 21)
    assert [m.id for m in battle.units["b"].models] == ["b.2"]
    assert battle.units["b"].starting_models == 1
    assert victory_scores(battle, "models_destroyed") == {A: 0, B: 0}
    assert victory_scores(battle, "kill_points") == {A: 0, B: 0}
    # The champion alone: its unit leaves the battle, and gives no kill point.
    alone = champion_unit()
    battle = make_battle(alone)
    gain_boon(battle, alone, alone.models[0], 66)
    assert victory_scores(battle, "kill_points") == {A: 0, B: 0}


def test_a_champion_that_slays_its_foe_in_a_challenge_becomes_a_spawn_and_the_fight_ends() -> None:
    # The Champion (I5) hits (6) and wounds (6) the Hero (I1, W1, no save): slain.
    # D66 2 then 1: 21, Spawnhood; the Spawn's Random Attacks: 3. The Spawn is not
    # in the combat, so neither side has a unit left in it: no winner, no Morale
    # check, no more dice (B's 1 wound still scored).
    hero = make_profile("Hero", i=1, sv="-", unit_type=CHARACTER)
    a = make_unit("a", A, [Placed(hero, [CHAINSWORD], (10, 20))])
    b = champion_unit()
    b.models[0].profile = make_profile("Champion", i=5, unit_type=CHARACTER)
    battle = make_battle(
        a,
        b,
        dice=[6, 6, 2, 1, 3],
        script_a=[("issue_challenge", "a.1")],
        script_b=[("accept_challenge", "b.1")],
    )
    fight_sub_phase(battle, A)
    assert "b" not in battle.units
    (model,) = battle.units["b.1-spawn"].models
    assert (model.position, model.profile.get("A")) == ((10, 21), "3")
    (resolved,) = of_kind(battle, "combat_result")
    assert (resolved.winner, resolved.scores) == ("", {A: 0, B: 1})
    assert all_dice_used(battle)


def test_random_attacks_are_rolled_at_the_beginning_of_each_assault_phase() -> None:
    # "At the beginning of each Assault phase roll a D6": 5, then 2 next phase;
    # the Spawn strikes that many (no charge, one weapon: no bonus).
    unit = champion_unit()
    battle = make_battle(unit, dice=[1, 5, 2])
    gain_boon(battle, unit, unit.models[0], 21)
    spawn = battle.units["b.1-spawn"]
    (model,) = spawn.models
    ASSAULT.begin(battle, A)  # the other player's Assault phase: rolled too
    assert attacks_of(battle, spawn, model, CLOSE_COMBAT_WEAPON) == 5
    ASSAULT.begin(battle, B)
    assert attacks_of(battle, spawn, model, CLOSE_COMBAT_WEAPON) == 2
    assert [e.attacks for e in of_kind(battle, "random attacks")] == [1, 5, 2]
    assert all_dice_used(battle)


def test_no_room_on_the_table_leaves_the_champion_as_it_is() -> None:
    # A 3" x 3" table holds no 60 mm base 1" from a Trooper whose base covers
    # its middle: the champion stays, the outcome says why.
    trooper = Placed(make_profile("Trooper"), [CHAINSWORD], (1.5, 1.0))
    a = make_unit("a", A, [trooper])
    b = champion_unit(at=(1.5, 2.0))
    battle = make_battle(a, b)
    battle.battlefield = Battlefield(3.0, 3.0)
    gain_boon(battle, b, b.models[0], 21)
    assert list(battle.units) == ["a", "b"] and b.models[0].alive
    assert [e.outcome for e in of_kind(battle, "chaos boon gained")] == ["no room"]
    assert of_kind(battle, "champion transformed") == []


def every_boon(battle: Battle) -> dict[int, str]:
    """Each D66 result's own outcome for a fresh champion (seeded dice)."""
    outcomes = {}
    for roll in sorted(r for boon in CHAOS_BOON_TABLE for r in boon.rolls):
        unit = champion_unit()
        battle.units = {unit.id: unit}
        seen = len(of_kind(battle, "chaos boon gained"))
        gain_boon(battle, unit, unit.models[0], roll)
        outcomes[roll] = of_kind(battle, "chaos boon gained")[seen].outcome
    return outcomes


def test_every_chaos_boon_is_played() -> None:
    # 36 D66 results: Unworthy Offering (11-16) and Multiple Boons (64) itself
    # have no effect; the 29 others, Spawnhood and Dark Apotheosis among them,
    # are gained: none is rolled and left unplayed.
    outcomes = every_boon(make_battle(seed=7))
    assert len(outcomes) == 36
    no_effect = [r for r, outcome in outcomes.items() if outcome == "no effect"]
    assert no_effect == [11, 12, 13, 14, 15, 16, 64]
    assert {outcomes[r] for r in outcomes if r not in no_effect} == {"gained"}
