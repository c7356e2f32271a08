"""The unit library's Devastator Squad carries missile launchers with both their modes.

7th edition's missile launcher (Codex: Space Marines; the game system file's
"Frag Missiles" and "Krak Missiles") fires a frag missile, 48" S4 AP6
``Heavy 1, Blast``, or a krak missile, 48" S8 AP3 ``Heavy 1``: one wargear item with
two profiles, of which a model fires one per phase (docs/rules/waffle.md, *Firing
modes and grenades*). A Blast weapon cannot be fired as snap shots, so a Devastator
Squad that moved can still fire its launchers with the krak mode only: what
``examples/marines_vs_orks_ruins.toml`` promises ("a Heavy weapon fired after moving
(snap shots)"). The library once had the frag profile alone, and the example's moved
Devastators fired only their Sergeant's boltgun.
"""

from __future__ import annotations

from pathlib import Path

from conftest import of_kind

from hammerlab.analysis.battles import prepare
from hammerlab.editions.base import play
from hammerlab.editions.waffle.events import ShotsFired
from hammerlab.io.library import builtin_library
from hammerlab.io.scenario import load_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "marines_vs_orks_ruins.toml"


def test_the_devastators_missile_launcher_has_its_frag_and_krak_modes() -> None:
    sheet = builtin_library("waffle").find("Devastator Squad")
    (launcher_marine,) = (e for e in sheet.entries if e.profile.name.endswith("(missile launcher)"))
    modes = {
        w.name: (w.mode_of, w.get("Range"), w.get("S"), w.get("AP"), w.get("Type"))
        for w in launcher_marine.weapons
        if w.name.startswith("Missile launcher")
    }
    assert modes == {
        "Missile launcher (frag)": ("Missile launcher", "48", "4", "6", "Heavy 1, Blast"),
        "Missile launcher (krak)": ("Missile launcher", "48", "8", "3", "Heavy 1"),
    }


def test_the_example_s_moved_devastators_snap_fire_krak_missiles() -> None:
    """The example's seed: the four missile launcher Marines of the Devastator Squad,
    which start the phase having moved, fire four krak missiles as snap shots, and
    no frag missile (a Blast weapon never snap fires)."""
    scenario = load_scenario(EXAMPLE)
    ready = prepare(scenario, str(EXAMPLE), scenario.seed)
    play(ready.battle, ready.ruleset, ready.plan)
    devastators = ready.battle.unit("devastators").label
    fired = [
        (e.weapon, e.models, e.shots, e.snap)
        for e in ready.battle.log.events
        if isinstance(e, ShotsFired) and e.unit == devastators
    ]
    missiles = [f for f in fired if f[0].startswith("Missile launcher")]
    assert missiles == [("Missile launcher (krak)", 4, 4, True)]


DEVASTATORS_AT_TERMINATORS = """
name = "Devastators at Terminator Squad"
ruleset = "waffle"
seed = 1
first_player = "Ultramarines"
[plan]
turns = 1
phases = ["shooting"]
victory = "models_destroyed"
[rules]
return_fire = false
[[players]]
name = "Ultramarines"
edge = "south"
[[players]]
name = "Foes"
edge = "north"
[[units]]
id = "dev"
player = "Ultramarines"
unit = "Devastator Squad"
position = [36, 6]
[[units]]
id = "foe"
player = "Foes"
unit = "Terminator Squad"
position = [36, 36]
"""


def test_devastators_fire_krak_not_frag_at_spread_out_terminators(tmp_path: Path) -> None:
    """Session 24's review (``/work/s24/review/sense``, finding 1): the Terminators
    stand 2.57" apart (40 mm bases, radius 0.79", 1" gaps), so a frag missile's 3"
    marker over one (reach 1.5 + 0.79 = 2.29") covers that one only. A missile, BS4
    (2/3 to hit): frag 2/3 x 1 model x 1/2 (S4 against T4) x 1/6 (the 2+ save, AP6)
    = 1/18; krak 2/3 x 5/6 (S8 against T4) x 1/6 (AP3 leaves the 2+ save) = 5/54,
    better. Counted as three models a marker, frag read 3/18 = 9/54 and was fired.
    300 seeds of this scenario with krak forced: 0.26 Terminators slain, against 0.143
    with frag (the review's ``order_exp.py``)."""
    path = tmp_path / "devastators.toml"
    path.write_text(DEVASTATORS_AT_TERMINATORS)
    scenario = load_scenario(path)
    ready = prepare(scenario, str(path), 1)
    play(ready.battle, ready.ruleset, ready.plan)
    chosen = [e.answer for e in of_kind(ready.battle, "decision") if e.decision == "weapon"]
    assert chosen[0] == "Missile launcher (krak)"
