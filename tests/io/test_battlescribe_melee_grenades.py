"""Issue 12 §2: grenade and bomb profiles for close combat stay usable.

7th-edition data writes a melta bomb ``Range -``, ``Strength 8``, ``AP 1``,
``Type Armourbane, Unwieldy`` (``Warhammer40K.gst``, ``Melta Bomb``) and some
catalogues a ``Krak grenade (melee)`` with Type ``-``: neither names a weapon
type, and both used to be dropped ("weapon type 'Armourbane' is not one it
knows"). They are now read as Melee weapons with their rules.
"""

from __future__ import annotations

from pathlib import Path

from test_battlescribe_wrong_units import body, entry, gun, imported

from hammerlab.editions.waffle.profiles import weapon_of


def test_a_melta_bomb_and_a_melee_krak_grenade_are_read_as_melee_weapons(
    tmp_path: Path,
) -> None:
    bombs = entry(
        "Melta bombs", "upgrade", gun("Melta Bomb", "-", "8", "1", "Armourbane, Unwieldy")
    )
    krak = entry("Krak grenades", "upgrade", gun("Krak grenade (melee)", "-", "6", "4", "-"))
    result = imported(
        tmp_path,
        entry("Squad", "unit", children=entry("Marine", "model", body("Marine"), bombs + krak)),
    )
    sheet = result.find("Squad")
    read = {w.name: w.get("Type") for w in sheet.weapons()}
    assert read == {"Melta Bomb": "Melee, Armourbane, Unwieldy", "Krak grenade (melee)": "Melee"}
    bomb = weapon_of(next(w for w in sheet.weapons() if w.name == "Melta Bomb"))
    assert (bomb.base_type, bomb.ap, bomb.has_rule("Armourbane"), bomb.has_rule("Unwieldy")) == (
        "Melee",
        1,
        True,
        True,
    )
    assert (
        "Weapon 'Melta Bomb' (Range '-', Type 'Armourbane, Unwieldy') is read as a close "
        "combat weapon: Type 'Melee, Armourbane, Unwieldy'." in sheet.notes
    )
