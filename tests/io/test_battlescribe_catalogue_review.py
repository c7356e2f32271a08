"""A player's review of real catalogues (session 23), one test (or a few) per finding.

Each reads the real catalogues copied into ``tests/data``; the expected values were
read from the XML by hand (file and line quoted) or worked out from the 7th-edition
rules, never copied from the program's output.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb, isclose
from pathlib import Path

from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.io.battlescribe import import_file

BSDATA = Path(__file__).resolve().parents[1] / "data" / "bsdata-7e"
MARINES = BSDATA / "Space Marines - Codex (2015).cat"
ORKS = BSDATA / "Orks - Codex.cat"
GUARD = BSDATA / "Astra Militarum - Codex.cat"
TYRANIDS = BSDATA / "Tyranids - Codex.cat"


def odds(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def means(answer: dict[str, object]) -> dict[str, float]:
    got = answer["means"]
    assert isinstance(got, dict)
    return got


def close(a: float, b: Fraction | int) -> bool:
    return isclose(a, float(b), rel_tol=1e-9, abs_tol=1e-12)


# -- 1. "Rapid Fire 3": the hurricane bolter ------------------------------------------


def test_a_land_raider_crusader_s_hurricane_bolters_fire_12_shots_within_half_range() -> None:
    """Space Marines line 32475: the Hurricane Bolter profile, 24" S4 AP5 ``Rapid Fire
    3``; the Crusader carries "Two Hurricane Bolters" (line 8691). Rapid Fire: two shots
    of each within half range, so 2 * 3 * 2 = 12 shots at BS4 (3+): 8 hits (before: 4
    shots)."""
    answer = odds("--from", str(MARINES), "--from", str(ORKS), "--attacker",
                  "Land Raider Crusader", "--weapon", "Hurricane Bolter", "--target", "Boyz",
                  "--situation", "half-range")  # fmt: skip
    assert close(means(answer)["shots"], 12) and close(means(answer)["hits"], 8)


def test_three_centurions_fire_9_hurricane_bolter_shots_at_full_range() -> None:
    """The Centurion Devastator Squad (3 Centurions) links the same profile: 3 * 3 = 9
    shots beyond half range (before: 3)."""
    answer = odds("--from", str(MARINES), "--from", str(TYRANIDS), "--attacker",
                  "Centurion Devastator Squad", "--weapon", "Hurricane Bolter",
                  "--target", "Tervigon")  # fmt: skip
    assert close(means(answer)["shots"], 9)


def test_the_plain_odds_take_the_shots_of_a_rapid_fire_weapon() -> None:
    """``--type "Rapid Fire" --shots 3`` is ``Rapid Fire 3``: 4 models fire 3 shots
    each, 6 within half range: 24 shots at BS4, 16 hits (before: refused)."""
    answer = odds("--bs", "4", "--strength", "4", "--ap", "5", "--toughness", "4",
                  "--save", "-", "--wounds", "1", "--target-models", "10", "--type", "Rapid Fire",
                  "--shots", "3", "--models", "4", "--situation", "half-range")  # fmt: skip
    assert close(means(answer)["shots"], 24) and close(means(answer)["hits"], 16)
    assert "Rapid Fire 3" in str(answer["question"])


# -- 2. the odds at a Zooming Flyer ---------------------------------------------------


def test_the_odds_fire_snap_shots_at_a_zooming_flyer() -> None:
    """docs/rules/waffle.md, vehicle interpretation 13: every Flyer is Zooming, "Zooming
    Flyers can only be hit by Snap Shots". Five Tactical Marines' boltguns (BS4 halved:
    BS2, 5+) at the Dakkajet: 5 * 1/3 hits; S4 against its Front 10 glances on a 6 only,
    so each shot takes a Hull Point with 1/3 * 1/6 = 1/18, at most its 3 Hull Points
    (before: 10/3 hits)."""
    answer = odds("--from", str(MARINES), "--from", str(ORKS), "--attacker", "Tactical Squad",
                  "--weapon", "Boltgun", "--target", "Dakkajet")  # fmt: skip
    assert close(means(answer)["hits"], Fraction(5, 3))
    each = Fraction(1, 18)
    lost = sum(min(k, 3) * comb(5, k) * each**k * (1 - each) ** (5 - k) for k in range(6))
    assert close(means(answer)["hull_points_lost"], lost)
    assert "Snap Shots" in str(answer["question"])
    assert "Dakkajet is a Zooming Flyer: it can only be hit by Snap Shots" in str(answer["notes"])


def test_a_blast_weapon_does_not_fire_at_a_zooming_flyer_in_the_odds() -> None:
    """Seed 000: Blast weapons "cannot be fired as Snap Shots": a battle cannon's marker
    never hits the Dakkajet (before: 1 hit, 97% of a Hull Point)."""
    answer = odds("--from", str(GUARD), "--from", str(ORKS), "--attacker", "Leman Russ Squadron",
                  "--weapon", "Battle Cannon", "--target", "Dakkajet", "--hits", "1")  # fmt: skip
    assert close(means(answer)["hits"], 0) and close(means(answer)["hull_points_lost"], 0)
    assert "Battle Cannon cannot be fired as Snap Shots: it does not fire" in str(answer["notes"])


def test_a_skyfire_weapon_fires_snap_shots_at_a_ground_target_in_the_odds() -> None:
    """Skyfire (7th edition): full BS at Flyers and Skimmers, "it can only fire Snap
    Shots at other targets". The Hydra Battery's Hydra (BS3) fires two twin-linked
    Hydra Autocannons, Heavy 2: 4 shots. At Boyz, BS1 (6+) re-rolled: 1/6 + 5/6 * 1/6 =
    11/36 a shot; at the Dakkajet, BS3 (4+) re-rolled: 1/2 + 1/2 * 1/2 = 3/4 (before,
    full BS at both)."""
    guard = ["--from", str(GUARD), "--from", str(ORKS), "--attacker", "Hydra Battery",
             "--weapon", "Hydra Autocannon"]  # fmt: skip
    assert close(means(odds(*guard, "--target", "Boyz"))["hits"], 4 * Fraction(11, 36))
    assert close(means(odds(*guard, "--target", "Dakkajet"))["hits"], 4 * Fraction(3, 4))


# -- 3. 7" (Massive) blast markers ----------------------------------------------------


def test_the_macharius_battle_cannon_is_a_7_inch_blast_marker() -> None:
    """Astra Militarum: the Macharius Battle Cannon, 72" S8 AP3 ``Ordnance 1, 7" Blast``.
    It is a marker (the odds need its hits, as a battle cannon's), 7" across, and no
    note calls the marker a rule not implemented."""
    macharius = import_file(GUARD).find("Macharius (FW)")
    (cannon,) = [w for w in macharius.weapons() if w.name == "Macharius Battle Cannon"]
    assert weapon_of(cannon).blast == 7.0
    assert not [n for n in macharius.battle_notes if "Blast" in n]
    result = CliRunner().invoke(app, ["odds", "--from", str(GUARD), "--from", str(ORKS),
                                      "--attacker", "Macharius (FW)", "--weapon",
                                      "Macharius Battle Cannon", "--target", "Boyz"])  # fmt: skip
    assert result.exit_code == 2 and "give the number of hits" in result.output


# -- 4. "Unwieldly" -------------------------------------------------------------------


def test_the_haruspex_s_crushing_claws_are_unwieldy() -> None:
    """Tyranids line 43670: Crushing Claws, ``Melee, Armourbane, Unwieldly`` (the
    7th-edition crushing claws' Unwieldy): read as Unwieldy, so no note calls the rule
    not implemented."""
    haruspex = import_file(TYRANIDS).find("Haruspex")
    (claws,) = [w for w in haruspex.weapons() if w.name == "Crushing Claws"]
    assert weapon_of(claws).has_rule("Unwieldy")
    result = CliRunner().invoke(app, ["show", "--from", str(TYRANIDS), "Haruspex"])
    assert result.exit_code == 0 and "not implemented: Unwieldly" not in result.output
