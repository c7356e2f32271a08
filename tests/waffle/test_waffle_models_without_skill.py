"""Models written with ``-`` for WS, BS or A (they have none), read as 0.

The Tyranids catalogue's Spore Mine: ``WS - BS - S 1 T 1 W 1 I 1 A - Ld 1 Sv -``.
"""

from __future__ import annotations

from pathlib import Path

from conftest import LASGUN, MARINE, A, B, make_battle, of_kind, squad

from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.shooting import start_phase
from hammerlab.editions.waffle.tables import melee_cell
from hammerlab.engine.datasheet import Profile
from hammerlab.io.battlescribe import import_file

DATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"

SPORE_MINE = Profile(
    name="Spore Mine",
    characteristics={
        "WS": "-",
        "BS": "-",
        "S": "1",
        "T": "1",
        "W": "1",
        "I": "1",
        "A": "-",
        "Ld": "1",
        "Sv": "-",
    },
    unit_type="Infantry",
)


def test_ws_bs_and_a_written_dash_read_as_zero() -> None:
    mine = stats_of(SPORE_MINE)
    assert (mine.ws, mine.bs, mine.a, mine.s, mine.t, mine.ld, mine.sv) == (0, 0, 0, 1, 1, 1, None)
    # hit in close combat as WS 1, the chart's lowest: seed 001's To Hit Chart, row
    # WS 4, column enemy WS 1, reads 2+ (column enemy WS 0 does not exist)
    assert melee_cell(4, mine.ws) == melee_cell(4, 1) == "2+"


def test_a_model_without_ballistic_skill_fires_nothing() -> None:
    gunner = Profile(
        name="Gunless",
        characteristics=dict(SPORE_MINE.characteristics) | {"S": "3", "T": "3"},
        unit_type="Infantry",
    )
    shooters = squad("a", A, gunner, [LASGUN], [(30.0, 10.0)], name="Gunless")
    marines = squad("b", B, MARINE, [], [(30.0, 20.0)], name="Marines")
    battle = make_battle(shooters, marines)  # no dice: rolling one would fail the test
    start_phase(battle, "shooting", A)
    result = fire_weapon(battle, shooters, marines, LASGUN.name, FireOrders())
    assert not result.fired and not of_kind(battle, "shots")


def test_the_tyranid_spore_mine_clusters_are_playable() -> None:
    tyranids = import_file(DATA / "Tyranids - Codex.cat")
    clusters = [s for s in tyranids.datasheets if "Spore Cluster" in s.name.replace("Mine ", "")]
    assert len(clusters) == 9  # Spore Mine and Mucolid Spore clusters, as listed by hand
    assert all(
        {e.profile.name for e in s.entries} <= {"Spore Mine", "Mucolid Spore"} for s in clusters
    )
    assert all(tyranids.reasons(s.name) == () and s.entries for s in clusters)
