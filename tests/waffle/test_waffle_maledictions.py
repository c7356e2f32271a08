"""Maledictions in the Psychic phase (7th edition; the ``Warhammer40K.gst`` texts
quoted in ``editions/waffle/maledictions.py``): Enfeeble and Null Zone."""

from __future__ import annotations

from conftest import (
    GUARD,
    A,
    B,
    all_dice_used,
    make_battle,
    of_kind,
    profile,
    psychic_phase,
    row,
    squad,
)
from test_waffle_psychic import ENFEEBLE, librarian

from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import through_difficult_terrain
from hammerlab.editions.waffle.maledictions import afflict, all_terrain_difficult
from hammerlab.editions.waffle.movement_phase import crosses_difficult
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.psychic_powers import power_of, unsupported_power
from hammerlab.engine.datasheet import Weapon

NULL_ZONE = Weapon(
    "6 - Null Zone",
    {"Warp Charge": "2", "Power Category": "Malediction", "Range": '24"', "Details": "..."},
)
"""Copied from Warhammer40K.gst, Discipline: Telekinesis."""

CAST_ENFEEBLE = [
    ("psyker", "Lib [lib]"),
    ("power", "Enfeeble"),
    ("psychic_target", "G [g]"),
    ("warp_dice", "1 dice"),
    ("psyker", "end phase"),
]


def test_enfeeble_and_null_zone_are_played_maledictions() -> None:
    assert unsupported_power(ENFEEBLE) is None and unsupported_power(NULL_ZONE) is None
    enfeeble = power_of(ENFEEBLE)
    assert enfeeble.is_malediction and enfeeble.targets_enemy


def test_enfeeble_gives_minus_1_strength_and_toughness_until_the_casters_next_psychic_phase() -> (
    None
):
    guard = squad("g", B, GUARD, [], row(36, 30, 2))  # S3 T4
    battle = make_battle(
        librarian(ENFEEBLE),
        guard,
        # Warp Charge 4 (pools A 6, B 4); test: 4 (one success); deny: 5 (needs 6+)
        # next Psychic phase of A: Warp Charge 1
        dice=[4, 4, 5, 1],
        script_a=[*CAST_ENFEEBLE, ("psyker", "end phase")],
        script_b=[("deny_dice", "1 dice")],
    )
    psychic_phase(battle, A)
    stats = stats_of(guard.models[0].profile)
    assert (stats.s, stats.t) == (2, 3)
    assert all_terrain_difficult(battle, guard)
    psychic_phase(battle, A)  # the caster's next Psychic phase: it ends
    stats = stats_of(guard.models[0].profile)
    assert (stats.s, stats.t) == (3, 4)
    assert not all_terrain_difficult(battle, guard)
    assert [e.begins for e in of_kind(battle, "malediction")] == [True, False]
    assert all_dice_used(battle)


def test_a_denied_enfeeble_does_nothing() -> None:
    guard = squad("g", B, GUARD, [], row(36, 30, 2))
    battle = make_battle(
        librarian(ENFEEBLE),
        guard,
        dice=[4, 4, 6],  # the deny roll of 6 matches the one success
        script_a=CAST_ENFEEBLE,
        script_b=[("deny_dice", "1 dice")],
    )
    psychic_phase(battle, A)
    assert of_kind(battle, "deny_the_witch")[0].denied
    assert of_kind(battle, "malediction") == []
    assert stats_of(guard.models[0].profile).t == 4
    assert all_dice_used(battle)


def test_enfeeble_makes_open_ground_difficult_for_moving_and_charging() -> None:
    guard = squad("g", B, GUARD, [], row(36, 30, 2))
    target = squad("t", A, GUARD, [], row(36, 36, 2))
    battle = make_battle(guard, target)
    assert not crosses_difficult(battle, guard, "advance")
    assert not through_difficult_terrain(battle, guard, target)
    afflict(battle, A, "Enfeeble", guard)
    assert crosses_difficult(battle, guard, "advance")
    assert through_difficult_terrain(battle, guard, target)


def test_null_zone_worsens_invulnerable_saves_by_2_but_not_beyond_6_plus() -> None:
    """4++ becomes 6++, 5++ stays at 6++ (not worse), no invulnerable save stays none."""
    shielded = squad("s", B, profile("Shielded", inv=4), [], [(30, 30)])
    lesser = squad("l", B, profile("Lesser", inv=5), [], [(40, 30)])
    bare = squad("b", B, profile("Bare"), [], [(50, 30)])
    battle = make_battle(shielded, lesser, bare)
    for unit in (shielded, lesser, bare):
        afflict(battle, A, "Null Zone", unit)
    assert stats_of(shielded.models[0].profile).invulnerable == 6
    assert stats_of(lesser.models[0].profile).invulnerable == 6
    assert stats_of(bare.models[0].profile).invulnerable is None


def test_the_ai_enfeebles_the_enemy_unit_with_more_models() -> None:
    """A Malediction is worth 0.1 per enemy model: five Guardsmen before two."""
    battle = make_battle(
        librarian(ENFEEBLE),
        squad("few", B, GUARD, [], row(30, 30, 2)),
        squad("many", B, GUARD, [], row(40, 30, 5)),
        seed=2,
    )
    battle.controllers[A] = WaffleAI()
    battle.controllers[B] = WaffleAI()
    psychic_phase(battle, A)
    tests = of_kind(battle, "psychic_test")
    assert [(t.power, t.target) for t in tests] == [("Enfeeble", "Many [many]")]
