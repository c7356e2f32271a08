"""Charging through difficult terrain: Initiative 1 unless assault grenades
(``editions/waffle/difficult_charge.py``).

Expected values from the 7th-edition rule quoted in docs/rules/waffle.md
(Charge sub-phase): a Space Marine (I4) charging a Guardsman (I3) through woods
strikes at Initiative 1, after the Guardsman; with frag or plasma grenades (or
a rule that he counts as having assault grenades) at his Initiative 4, first;
krak grenades are not assault grenades. Across open ground he strikes at 4.
"""

from __future__ import annotations

import pytest
from conftest import A, B, all_dice_used, box, charge_sub_phase, make_battle, of_kind, squad, weapon
from fight_kit import CHAINSWORD, GUARD, MARINE

from hammerlab.editions.waffle.fight import fight_sub_phase
from hammerlab.editions.waffle.state import st
from hammerlab.engine.battle import Battle
from hammerlab.engine.controllers import FirstChoiceController
from hammerlab.engine.datasheet import Weapon

WOODS = box("woods", 25, 12, 35, 14, difficult=True)
"""Across the 5" between the charger at (30, 10) and the target at (30, 16)."""
FRAG = weapon("Frag Grenades", "8", "3", "-", "Assault 1, Blast")
PLASMA = weapon("Plasma Grenade", "8", "4", "4", "Assault 1, Blast")
KRAK = weapon("Krak Grenades", "8", "6", "4", "Assault 1")
FRAG_AS_THE_DATA_WRITES_IT = weapon(
    "Grenades",
    "8",
    "3",
    "-",
    "Assault 1, Blast, Don't suffer Initiative penalty for charging through cover",
)
"""The shared data's 7th-edition frag grenade profile (Warhammer40K.gst, BRB 2014 p180)."""


def charge_and_fight(
    dice: list[int], gear: tuple[Weapon, ...] = (), rules: tuple[str, ...] = (), woods: bool = True
) -> Battle:
    """The Marine charges the Guardsman (3D6 through the woods: 6 2 3, highest
    dropped, 5" against 5"; 2D6 in the open: 2 3), then the fight; ``dice``: the
    fight's To Hit rolls, all misses."""
    charger = squad(
        "a", A, MARINE, [CHAINSWORD, *gear], [(30, 10)], name="Charger", rules=list(rules)
    )
    target = squad("b", B, GUARD, [CHAINSWORD], [(30, 16)], name="Target")
    battle = make_battle(
        charger,
        target,
        dice=[*([6, 2, 3] if woods else [2, 3]), *dice],
        terrain=[WOODS] if woods else [],
        script_a=[("charger", "Charger [a]"), ("charge_target", "Target [b]")],
        script_b=[("charge_reaction", "no reaction")],
        fallback=FirstChoiceController(),
    )
    charge_sub_phase(battle, A)
    fight_sub_phase(battle, A)
    return battle


def steps(battle: Battle) -> list[tuple[str, int]]:
    return [(e.unit, e.initiative) for e in of_kind(battle, "blows")]


def test_a_charge_through_difficult_terrain_strikes_at_initiative_1() -> None:
    # The Guardsman's 1 blow at I3 (4+ to hit): 1; the Marine's 2 (1 + charge) at I1: 1 1.
    battle = charge_and_fight([1, 1, 1])
    assert st(battle, battle.unit("a")).charged_through_difficult
    assert steps(battle) == [("Target [b]", 3), ("Charger [a]", 1)]
    assert all_dice_used(battle)


@pytest.mark.parametrize(
    ("gear", "rules"),
    [
        ((FRAG,), ()),
        ((PLASMA,), ()),
        ((FRAG_AS_THE_DATA_WRITES_IT,), ()),
        ((), ("Assault Grenades",)),
    ],
)
def test_assault_grenades_let_the_charger_strike_at_its_initiative(
    gear: tuple[Weapon, ...], rules: tuple[str, ...]
) -> None:
    battle = charge_and_fight([1, 1, 1], gear, rules)  # the Marine's 2 blows first, at I4
    assert steps(battle) == [("Charger [a]", 4), ("Target [b]", 3)]
    assert all_dice_used(battle)


def test_krak_grenades_are_not_assault_grenades() -> None:
    battle = charge_and_fight([1, 1, 1], (KRAK,))
    assert steps(battle) == [("Target [b]", 3), ("Charger [a]", 1)]
    assert all_dice_used(battle)


def test_a_charge_over_open_ground_strikes_at_initiative() -> None:
    battle = charge_and_fight([1, 1, 1], woods=False)
    assert not st(battle, battle.unit("a")).charged_through_difficult
    assert steps(battle) == [("Charger [a]", 4), ("Target [b]", 3)]
    assert all_dice_used(battle)


def test_the_log_says_why_a_charger_strikes_at_initiative_1() -> None:
    # The Marine (I4) charged through the woods without assault grenades: before the
    # blows, the log says that its one model strikes at Initiative 1 (a reader saw I6
    # Genestealers never strike at step 6 and no line saying why). With frag grenades,
    # or over open ground, nothing is said.
    battle = charge_and_fight([1, 1, 1])
    (slowed,) = of_kind(battle, "slowed_charge")
    assert (slowed.unit, slowed.models) == ("Charger [a]", 1)
    assert slowed.text == (
        "Charger [a] charged through difficult terrain without assault grenades: "
        "1 model(s) strike at Initiative 1"
    )
    kinds = [e.kind for e in battle.log.events]
    assert kinds.index("slowed_charge") < kinds.index("blows")
    assert of_kind(charge_and_fight([1, 1, 1], (FRAG,)), "slowed_charge") == []
    assert of_kind(charge_and_fight([1, 1, 1], woods=False), "slowed_charge") == []
