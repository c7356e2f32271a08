"""Beam and Nova witchfire powers (``editions/waffle/beam_nova.py``).

Expected values are worked out by hand from the rules quoted in
``docs/rules/waffle.md`` (Psychic phase): a Beam's line runs from the Psyker
through the target's closest model out to the power's range (measured from the
Psyker's base) and every unit but the Psyker's own with a model under it, friend
or foe, suffers the power's shots as automatic hits; a Nova hits every enemy
unit the Psyker could target with it; ``ND6`` hits are rolled for each unit.
The hits are wounded and saved by the To Wound chart and the saves (S6 against
T4 wounds on 2+, S4 on 4+; AP4 beats a 5+ save, not a 3+).
"""

from __future__ import annotations

from conftest import (
    GUARD,
    MARINE,
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

from hammerlab.editions.waffle.psychic_powers import power_of, unsupported_power
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.units import Unit

FURY_OF_THE_ANCIENTS = Weapon(
    "2 - Fury of the Ancients",
    {
        "Warp Charge": "1",
        "Power Category": "Beam",
        "Range": '20"',
        "Strength": "6",
        "AP": "4",
        "Type": "Assault 1, Pinning",
        "Details": "",
    },
)
"""Copied from Warhammer40K.gst (Telepathy in the 7th-edition book)."""
SHOCKWAVE = Weapon(
    "3 - Shockwave",
    {
        "Warp Charge": "1",
        "Power Category": "Nova",
        "Range": '9"',
        "Strength": "4",
        "AP": "-",
        "Type": "Assault 2D6, Pinning",
        "Details": "",
    },
)
"""Copied from Warhammer40K.gst, Discipline: Telekinesis."""
ASSAIL = Weapon(
    "(Primaris) Assail",
    {
        "Warp Charge": "1",
        "Power Category": "Beam",
        "Range": '18"',
        "Strength": "6",
        "AP": "-",
        "Type": "Assault 1, Strikedown",
    },
)
"""Copied from Warhammer40K.gst, Discipline: Telekinesis (Strikedown is not resolved)."""
LIBRARIAN = profile("Librarian", ws=5, w=2, a=2, ld=10, inv=4)


def librarian(power: Weapon) -> Unit:
    unit = squad("lib", A, LIBRARIAN, [], [(36.0, 10.0)], rules=["Psyker (Mastery Level 2)"])
    unit.models[0].powers = (power,)
    return unit


def test_beam_and_nova_profiles_are_read_and_the_unresolved_ones_reported() -> None:
    assert unsupported_power(FURY_OF_THE_ANCIENTS) is None
    assert power_of(FURY_OF_THE_ANCIENTS).is_beam
    shockwave = power_of(SHOCKWAVE)
    assert unsupported_power(SHOCKWAVE) is None and shockwave.is_nova
    assert shockwave.hit_dice == 2
    assert shockwave.weapon is not None
    assert shockwave.weapon.characteristics["Type"] == "Assault 1, Pinning"
    assert unsupported_power(ASSAIL) == (
        "psychic power Assail: weapon rule(s) not implemented: Strikedown"
    )


def test_a_beam_hits_every_unit_under_its_line_friend_and_foe() -> None:
    guards = squad("g", B, GUARD, [], row(36, 20, 2))  # (36, 20) on the line, (38, 20) off
    friends = squad("t", A, MARINE, [], row(36, 25, 2))  # (36, 25) on the line
    beyond = squad("o", B, GUARD, [], row(36, 40, 1))  # 29.5" from the Librarian's base
    aside = squad("s", B, GUARD, [], row(50, 20, 1))  # in range, off the line
    psyker = librarian(FURY_OF_THE_ANCIENTS)
    psyker.models.extend(squad("m", A, MARINE, [], [(36, 12)]).models)  # his own: never hit
    battle = make_battle(
        psyker,
        guards,
        friends,
        beyond,
        aside,
        dice=[
            1,  # Warp Charge: pools A 3, B 1
            4,
            2,  # one 4+: Warp Charge 1
            2,  # Guardsmen: one hit, S6 against T4 wounds on 2+; AP4 beats 5+
            5,  # Marines: one hit wounds; 3+ save
            2,  # failed
            3,
            3,  # Pinning test of G: 6 against Ld 7, passed
            3,
            3,  # Pinning test of T: 6 against Ld 8, passed
            3,
            3,  # Morale check of T (1 of 2 lost), A's units first: passed
            3,
            3,  # Morale check of G (1 of 2 lost): passed
        ],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Fury of the Ancients"),
            ("psychic_target", "G [g]"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "0 dice")],
    )
    psychic_phase(battle, A)
    assert [(e.unit, e.hits) for e in of_kind(battle, "power_hits")] == [
        ("G [g]", 1),
        ("T [t]", 1),
    ]
    assert [e.model for e in of_kind(battle, "casualty")] == ["g.1", "t.1"]
    assert len(beyond.alive_models) == 1 and len(aside.alive_models) == 1
    assert len(psyker.alive_models) == 2
    assert all_dice_used(battle)


def test_a_nova_hits_every_enemy_unit_in_range_with_2d6_hits_each() -> None:
    near = squad("g", B, GUARD, [], row(36, 16, 2))  # 5" away
    side = squad("h", B, GUARD, [], row(28, 10, 3))  # 3" away (its closest model, at 32, 10)
    far = squad("o", B, GUARD, [], row(36, 30, 2))  # 19" away: out of range
    friends = squad("t", A, MARINE, [], row(40, 10, 2))  # friends are not hit
    battle = make_battle(
        librarian(SHOCKWAVE),
        near,
        side,
        far,
        friends,
        dice=[
            1,  # Warp Charge: pools A 3, B 1
            5,
            1,  # one 4+: Warp Charge 1 (no target asked: the Nova hits them all)
            1,
            1,  # G: 2D6 = 2 hits
            4,
            3,  # S4 against T4 wounds on 4+: 1 wound
            2,  # 5+ save (AP-): failed, g.1 dies
            1,
            2,  # H: 2D6 = 3 hits
            4,
            4,
            1,  # 2 wounds
            5,  # saved
            1,  # failed: h.3 (the closest, at 32, 10) dies
            3,
            3,  # Pinning test of G: passed
            3,
            3,  # Pinning test of H: passed
            3,
            3,  # Morale check of G (1 of 2 lost): passed; H lost 1 of 3 (33%): one too
            3,
            3,
        ],
        script_a=[
            ("psyker", "Lib [lib]"),
            ("power", "Shockwave"),
            ("warp_dice", "2 dice"),
        ],
        script_b=[("deny_dice", "0 dice")],
    )
    psychic_phase(battle, A)
    assert [(e.unit, e.hits) for e in of_kind(battle, "power_hits")] == [
        ("G [g]", 2),
        ("H [h]", 3),
    ]
    assert [e.model for e in of_kind(battle, "casualty")] == ["g.1", "h.3"]
    assert len(far.alive_models) == 2 and len(friends.alive_models) == 2
    assert all_dice_used(battle)
