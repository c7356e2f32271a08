"""Firing modes and grenades in a shooting attack (7th edition; ``firing_modes``).

7th edition, weapons with several profiles: "Each time such a weapon is fired,
the controlling player must choose which profile to use." Grenades: "only one
grenade can be thrown per unit, per phase"; the model throwing it fires no other
weapon, the rest of the unit fires normally. Expected values below are worked
out by hand from the to-hit, to-wound and save charts.
"""

from __future__ import annotations

import pytest
from conftest import (
    BOLTGUN,
    GUARD,
    MARINE,
    A,
    B,
    asked,
    make_battle,
    of_kind,
    profile,
    row,
    squad,
)

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.expected import expected_attack
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import shooting_attack
from hammerlab.engine.datasheet import Profile, Weapon


def mode(name: str, item: str, s: str, ap: str, kind: str, rng: str = "24") -> Weapon:
    """One profile of the wargear item ``item``."""
    chars = {"Range": rng, "S": s, "AP": ap, "Type": kind}
    return Weapon(name=name, characteristics=chars, mode_of=item)


def grenade(name: str, s: str, ap: str, kind: str) -> Weapon:
    """A 7th-edition grenade profile (Range 8") as the importer marks it."""
    chars = {"Range": "8", "S": s, "AP": ap, "Type": kind}
    return Weapon(name=name, characteristics=chars, keywords=("Grenade",), mode_of="Grenades")


NOVA = mode("Burst cannon (nova)", "Burst cannon", "5", "5", "Assault 4")
STANDARD = mode("Burst cannon (standard)", "Burst cannon", "5", "5", "Assault 2")
SWARM = mode("Cannon (swarm)", "Cannon", "4", "5", "Assault 4")
SLUG = mode("Cannon (slug)", "Cannon", "8", "3", "Heavy 1")
FRAG = grenade("Frag grenade", "3", "-", "Assault 1, Blast")
KRAK = grenade("Krak grenade", "6", "4", "Assault 1")
MONSTER = profile("Battlesuit", unit_type="Monstrous Creature")
"""A Monstrous Creature: two weapons a phase (BS4)."""
GUARDSMEN = profile("Guardsman", t=3, sv="5+")
"""T3 5+: an AP5 weapon leaves no save."""


def test_a_model_fires_one_mode_of_an_item_even_with_two_weapons_a_phase() -> None:
    """The Monstrous Creature fires the nova mode; its standard mode is no longer
    offered, though it may fire a second weapon (the boltgun: one shot at 15").
    Every to-hit die is a 1: the nova's 4 shots and the boltgun's 1 miss."""
    shooter = squad("a", A, MONSTER, [NOVA, STANDARD, BOLTGUN], [(36.0, 10.0)])
    target = squad("b", B, GUARD, [BOLTGUN], row(30.0, 25.0, 5))
    battle = make_battle(
        shooter,
        target,
        dice=[1, 1, 1, 1, 1],
        script_a=[("weapon", NOVA.name), ("weapon", BOLTGUN.name)],
    )
    shooting_attack(battle, shooter, target, FireOrders())
    offered = [d.labels() for d in asked(battle, A, "weapon")]
    assert offered == [
        [NOVA.name, STANDARD.name, BOLTGUN.name, "stop"],
        [BOLTGUN.name, "stop"],
    ]
    assert [(e.weapon, e.shots) for e in of_kind(battle, "shots")] == [
        (NOVA.name, 4),
        (BOLTGUN.name, 1),
    ]


def test_one_model_throws_a_grenade_and_the_rest_of_the_unit_fires() -> None:
    """Three marines 6" away: one throws the krak grenade (one shot), the other
    two fire their boltguns (Rapid Fire within half range: two shots each); the
    frag grenade is not offered once the unit has thrown one."""
    shooter = squad("a", A, MARINE, [BOLTGUN, FRAG, KRAK], row(34.0, 10.0, 3))
    target = squad("b", B, GUARD, [BOLTGUN], row(34.0, 17.0, 3))
    battle = make_battle(
        shooter,
        target,
        dice=[1] * 5,
        script_a=[("weapon", KRAK.name), ("weapon", BOLTGUN.name)],
    )
    shooting_attack(battle, shooter, target, FireOrders())
    offered = [d.labels() for d in asked(battle, A, "weapon")]
    assert offered == [
        [BOLTGUN.name, FRAG.name, KRAK.name, "stop"],
        [BOLTGUN.name, "stop"],
    ]
    assert [(e.weapon, e.models, e.shots) for e in of_kind(battle, "shots")] == [
        (KRAK.name, 1, 1),
        (BOLTGUN.name, 2, 4),
    ]


def test_a_grenade_is_out_of_reach_beyond_8_inches() -> None:
    """At 13" the grenades (Range 8") are not offered; the boltguns fire one shot each."""
    shooter = squad("a", A, MARINE, [BOLTGUN, FRAG, KRAK], row(34.0, 10.0, 3))
    target = squad("b", B, GUARD, [BOLTGUN], row(34.0, 24.0, 3))
    battle = make_battle(shooter, target, dice=[1] * 3, script_a=[("weapon", BOLTGUN.name)])
    shooting_attack(battle, shooter, target, FireOrders())
    assert [d.labels() for d in asked(battle, A, "weapon")] == [[BOLTGUN.name, "stop"]]


def test_the_estimate_counts_one_mode_per_model() -> None:
    """A Monstrous Creature's best mode only: nova 4 shots x 2/3 (BS4) x 5/6
    (S5 v T3) x no save (AP5 v 5+) = 20/9; both modes would be 10/3."""
    shooter = squad("a", A, MONSTER, [NOVA, STANDARD], [(36.0, 10.0)])
    target = squad("b", B, GUARDSMEN, [BOLTGUN], row(27.0, 20.0, 10))
    battle = make_battle(shooter, target)
    assert expected_attack(battle, shooter, target, FireOrders()) == pytest.approx(20 / 9)


def test_the_estimate_counts_each_weapon_spent_as_the_one_fired() -> None:
    """A Monstrous Creature fires two weapons: the nova (20/9, as above), then not the
    standard mode of the same cannon but its boltgun, 10" away: 2 Rapid Fire shots x
    2/3 x 2/3 (S4 v T3) x no save = 8/9; 28/9 in all (the standard mode instead of
    the boltgun would be 20/9 + 2 x 2/3 x 5/6 = 30/9)."""
    shooter = squad("a", A, MONSTER, [NOVA, STANDARD, BOLTGUN], [(36.0, 10.0)])
    target = squad("b", B, GUARDSMEN, [BOLTGUN], row(27.0, 20.0, 10))
    battle = make_battle(shooter, target)
    assert expected_attack(battle, shooter, target, FireOrders()) == pytest.approx(28 / 9)


@pytest.mark.parametrize(
    ("target_profile", "best"),
    [
        # swarm 4 x 2/3 x 2/3 (S4 v T3) x 1 (AP5 v 5+) = 16/9; slug 2/3 x 5/6 = 5/9
        (GUARDSMEN, SWARM.name),
        # swarm 4 x 2/3 x 1/2 (S4 v T4) x 1/3 (3+ save) = 4/9; slug 2/3 x 5/6 x 1 = 5/9
        (MARINE, SLUG.name),
    ],
)
def test_the_ai_fires_the_mode_with_the_best_expected_value(
    target_profile: Profile, best: str
) -> None:
    """The mode listed first is not the AI's choice unless it is worth more."""
    shooter = squad("a", A, MARINE, [SLUG, SWARM], [(36.0, 10.0)])
    target = squad("b", B, target_profile, [BOLTGUN], row(27.0, 20.0, 10))
    battle = make_battle(shooter, target, dice=[1] * 4, fallback=WaffleAI())
    shooting_attack(battle, shooter, target, FireOrders())
    assert [e.weapon for e in of_kind(battle, "shots")] == [best]
