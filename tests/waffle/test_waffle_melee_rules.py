"""Close combat special rules of issue 12 §3: Smash, and the weapon rules a model
has itself (Fleshbane, Poisoned, Rending, Shred "If a model has this special
rule, or is attacking with a Melee weapon that has …").

The rule texts quoted are the 7th-edition rulebook's, as the BattleScribe game
system file ``tests/data/bsdata-7e/Warhammer40K.gst`` gives them.
"""

from __future__ import annotations

from conftest import (
    A,
    B,
    all_dice_used,
    asked,
    dice_purposes,
    make_battle,
    of_kind,
    profile,
    weapon,
)
from conftest import squad as make_squad
from fight_kit import CHAINSWORD, MARINE, POWER_FIST, north, south

from hammerlab.editions.waffle.fight import attacks_of, fight_sub_phase, melee_options
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.special_rules import SMASH_ATTACK, close_combat_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.units import Unit

BEAST = profile("Beast", ws=4, s=6, t=6, w=4, i=1, a=3, sv="3+", unit_type="Monstrous Creature")
"""A Monstrous Creature: WS4 S6 T6 W4 I1 A3."""
POWER_AXE = weapon("Power axe", "-", "+1", "2", "Melee, Unwieldy")
LANCE = weapon("Lance", "-", "User", "1", "Melee")


def duel(
    attacker: Profile,
    weapons: list[Weapon],
    defender: Profile,
    rules: tuple[str, ...],
    dice: list[int],
    script: list[tuple[str, str]] | None = None,
) -> tuple[Battle, Unit, Unit]:
    """One model of A with ``rules`` (a.1) against one of B (b.1) touching it."""
    a = make_squad("a", A, attacker, weapons, south([10]), name="Attackers", rules=rules)
    b = make_squad("b", B, defender, [CHAINSWORD], north([10]), name="Defenders")
    script = [*(script or []), ("move", "hold")]  # the winner's consolidation: stay put
    return make_battle(a, b, dice=dice, script_a=script), a, b


# --- Smash -------------------------------------------------------------------------


def test_smash_close_combat_attacks_are_ap2_unless_ap1() -> None:
    # "All of the close combat attacks … of a model with this special rule are resolved
    # at AP2 (unless it's attacking with an AP1 weapon)."
    _, beast, _ = duel(BEAST, [CHAINSWORD], MARINE, ("Smash",), [])
    model = beast.models[0]
    assert close_combat_weapon(beast, model, weapon_of(CHAINSWORD)).ap == 2  # AP- -> 2
    assert close_combat_weapon(beast, model, weapon_of(POWER_AXE)).ap == 2
    assert close_combat_weapon(beast, model, weapon_of(LANCE)).ap == 1  # AP1 stays
    _, marine, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    assert close_combat_weapon(marine, marine.models[0], weapon_of(CHAINSWORD)).ap is None


def test_smash_chainsword_blows_deny_a_marine_its_3_plus_save() -> None:
    # The Marine (I4) misses (1). The Beast (I1) fights with its Chainsword, A3: hits
    # on 4+ (WS4 v WS4) with 4, 4, 1; S6 v T4 wounds on 3+: 3 and 2, one wound. AP2: no
    # armour save, so the Marine dies; the Beast consolidates 1".
    battle, _, marine = duel(
        BEAST,
        [CHAINSWORD],
        MARINE,
        ("Smash",),
        [1, 4, 4, 1, 3, 2, 1],
        script=[("melee_weapon", "Chainsword")],
    )
    fight_sub_phase(battle, A)
    assert marine.destroyed
    assert not any(p.startswith("armour save") for p in dice_purposes(battle))
    assert all_dice_used(battle)


def test_smash_attack_is_one_attack_at_double_strength() -> None:
    # "it can choose instead to make a single Smash Attack … resolve the Attack at double
    # the model's Strength (to a maximum of 10)": S6 x2 = 12 -> 10, which wounds without
    # a roll (the seed's Overwhelming Strength, at S10), and S10 is double T4 or more:
    # Instant Death. One Attack although the Beast has A3. The W3 Captain misses (1);
    # the Smash Attack hits (4) and slays it; the Beast consolidates 1".
    battle, beast, marine = duel(
        BEAST,
        [CHAINSWORD],
        profile("Captain", w=3),
        ("Smash",),
        [1, 4, 1],
        script=[("melee_weapon", "Smash Attack")],
    )
    options = [w.name for w in melee_options(beast.models[0], beast)]
    assert options == ["Chainsword", "Smash Attack"]
    fight_sub_phase(battle, A)
    mine = [e for e in of_kind(battle, "blows") if e.unit == "Attackers [a]"]
    assert [(e.weapon, e.attacks) for e in mine] == [("Smash Attack", 1)]
    wounds = [e for e in of_kind(battle, "wounds") if e.weapon == "Smash Attack"]
    assert [(e.needed, e.wounds) for e in wounds] == [("auto (Overwhelming Strength)", 1)]
    assert marine.destroyed
    assert len(asked(battle, A, "melee_weapon")) == 1
    assert attacks_of(battle, beast, beast.models[0], SMASH_ATTACK) == 1
    assert all_dice_used(battle)


def test_without_smash_no_smash_attack_is_offered() -> None:
    _, marine, _ = duel(MARINE, [CHAINSWORD], MARINE, (), [])
    assert [w.name for w in melee_options(marine.models[0], marine)] == ["Chainsword"]


# --- a model's own weapon rules in close combat ---------------------------------------


def test_a_model_with_fleshbane_wounds_on_2_plus_in_close_combat() -> None:
    # "If a model has this special rule … they always Wound on a 2+ in close combat."
    # The Marine (I4) strikes first: 4 hits (4+ v WS4); S4 v T8 would be "-": 2 wounds.
    # The T8 giant (3+) fails its save (1), W1: it dies; the Marine consolidates 1".
    giant = profile("Giant", t=8, i=1, sv="3+")
    battle, _, defender = duel(MARINE, [CHAINSWORD], giant, ("Fleshbane",), [4, 2, 1, 1])
    fight_sub_phase(battle, A)
    assert dice_purposes(battle)[:2] == ["to hit (Chainsword, 4+)", "to wound (Chainsword, 2+)"]
    assert defender.destroyed
    assert all_dice_used(battle)


def test_a_model_with_poisoned_wounds_on_the_value_given_in_close_combat() -> None:
    # "it always wounds on a fixed number (generally shown in brackets), unless a lower
    # result would be required": Poisoned (2+) S4 v T4 wounds on 2+, not the chart's 4+.
    _, gaunt, _ = duel(MARINE, [CHAINSWORD], MARINE, ("Poisoned (2+)",), [])
    armed = close_combat_weapon(gaunt, gaunt.models[0], weapon_of(CHAINSWORD))
    assert armed.rule_value("Poisoned") == 2
    assert not close_combat_weapon(gaunt, gaunt.models[0], weapon_of(POWER_FIST)).has_rule(
        "Rending"
    )
