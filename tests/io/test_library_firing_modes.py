"""A TOML unit library writes firing modes as ``mode_of`` and grenades with the
rule ``Grenade`` (the Waffle Edition's ``firing_modes``)."""

from __future__ import annotations

import pytest

from hammerlab.errors import InputError
from hammerlab.io.library import datasheets_from, parse_army

ARMY = """
army = "Test"

[weapons."Missile launcher (frag)"]
Range = "48"
S = "4"
AP = "6"
Type = "Heavy 1, Blast"
mode_of = "Missile launcher"

[weapons."Missile launcher (krak)"]
Range = "48"
S = "8"
AP = "3"
Type = "Heavy 1"
mode_of = "Missile launcher"

[weapons."Krak grenade"]
Range = "8"
S = "6"
AP = "4"
Type = "Assault 1"
keywords = ["Grenade"]

[[units]]
name = "Devastators"

[[units.models]]
name = "Marine"
profile = { WS = 4, BS = 4, S = 4, T = 4, W = 1, I = 4, A = 1, Ld = 8, Sv = "3+" }
weapons = ["Missile launcher (frag)", "Missile launcher (krak)", "Krak grenade"]
"""


def test_modes_and_grenades_are_read_from_the_library() -> None:
    (sheet,) = datasheets_from(parse_army(ARMY, "army.toml"), "army.toml", "waffle")
    read = {
        w.name: (w.mode_of, w.keywords, "mode_of" in w.characteristics) for w in sheet.weapons()
    }
    assert read == {
        "Missile launcher (frag)": ("Missile launcher", (), False),
        "Missile launcher (krak)": ("Missile launcher", (), False),
        "Krak grenade": ("", ("Grenade",), False),
    }


def test_a_mode_of_that_is_not_a_name_is_one_clear_error() -> None:
    bad = ARMY.replace('mode_of = "Missile launcher"', "mode_of = 3", 1)
    with pytest.raises(InputError) as raised:
        datasheets_from(parse_army(bad, "army.toml"), "army.toml", "waffle")
    message = str(raised.value)
    assert "army.toml" in message
    assert "weapons.Missile launcher (frag).mode_of" in message
    assert "must be the name of a weapon item" in message
