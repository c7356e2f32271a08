"""Step-log lines a user review found garbled: a Final Shot that misses, and the
scatter direction. Only the text people read changes; the logged events keep
their fields (``--log-json`` is what tools read)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hammerlab.cli.app import app
from hammerlab.editions.waffle.events import BlowsStruck, WoundsRolled
from hammerlab.engine.events import DiceRolled

ROOT = Path(__file__).resolve().parents[1]
LONE_LASCANNON = ROOT / "examples" / "lab_final_shot_lone_lascannon.toml"
BLAST = ROOT / "examples" / "blast_and_template_blob.toml"


def _battle(scenario: Path, seed: int, log: Path) -> list[str]:
    """The step log's lines, with the JSON Lines log written to ``log``."""
    args = ["battle", str(scenario), "--seed", str(seed), "--log-json", str(log)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def _logged(log: Path, kind: str) -> list[dict[str, object]]:
    """The events of ``kind`` in a JSON Lines log."""
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
    return [e for e in events if e["kind"] == kind]


def test_no_hits_say_nothing_was_rolled_to_wound() -> None:
    event = WoundsRolled(weapon="Lascannon", target="Carnifex [c]", hits=0, needed="", wounds=0)
    assert event.text == "  0 hit(s) on Carnifex [c]: no To Wound roll"


def test_hits_still_say_what_they_wound_on() -> None:
    event = WoundsRolled(weapon="Lascannon", target="Carnifex [c]", hits=2, needed="2+", wounds=1)
    assert event.text == "  2 hit(s) on Carnifex [c] wound on 2+: 1 wound(s)"


def test_a_direction_reads_as_degrees() -> None:
    event = DiceRolled(purpose="scatter direction", sides=360, values=(92,))
    assert event.text == "  rolled scatter direction: 92°"
    assert (
        DiceRolled(purpose="to hit", sides=6, values=(3, 5)).text == "  rolled 2D6 for to hit: 3 5"
    )


def test_a_final_shot_that_misses_prints_no_empty_wound_line(tmp_path: Path) -> None:
    # Seed 5: a Final Shot of the lone Lascannon rolls a 1 to hit (3+): a miss.
    log = tmp_path / "l.jsonl"
    lines = _battle(LONE_LASCANNON, 5, log)
    assert not any("wound on :" in line for line in lines)
    assert "  0 hit(s) on Carnifex [carnifex]: no To Wound roll" in lines
    missed = [e for e in _logged(log, "wounds") if e["hits"] == 0]
    assert missed and all(e["needed"] == "" and e["wounds"] == 0 for e in missed)


def test_a_scatter_direction_is_not_run_into_its_dice_count(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    lines = _battle(BLAST, 1, log)
    shown = [line for line in lines if "direction" in line]
    assert shown and all(line.startswith("  rolled scatter direction: ") for line in shown)
    assert all(line.endswith("°") for line in shown)
    logged = [e for e in _logged(log, "dice") if e["purpose"] == "scatter direction"]
    assert len(logged) == len(shown) and all(e["sides"] == 360 for e in logged)


def test_automatic_hits_read_alike_whichever_way_they_were_recorded() -> None:
    # Blows on a tank that did not move are the chart's "A", a Hammer of Wrath hit is
    # "auto": in the step log both read "automatically", and the events keep their
    # fields (a player's review found "4 hit(s) on A" beside "1 hit(s) on auto").
    blows = BlowsStruck("Carnifex [fex]", "Scything talons", "Leman Russ [russ]", 2, 1, 4, "A", 4)
    hammer = BlowsStruck.one_automatic_hit("Carnifex [fex]", "Hammer of Wrath", "russ", 10)
    assert blows.text.endswith(": 4 hit(s) automatically")
    assert hammer.text.endswith(": 1 hit(s) automatically")
    assert (blows.needed, hammer.needed) == ("A", "auto")
    fists = BlowsStruck("Marines [a]", "Power fist", "Orks [b]", 1, 2, 2, "4+", 1)
    assert fists.text.endswith(": 1 hit(s) on 4+")


GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


def test_the_step_log_piped_or_saved_has_each_event_on_one_line() -> None:
    # A newcomer's review: into a pipe or a file, rich assumed 80 columns and broke
    # long events in two ("... is removed (Heavy bolter" / "from Infantry Squad ..."),
    # so `grep 'from Terminator Squad'` found none of the removals the Terminators
    # caused. The events are the engine's own (the same seed plays the same game):
    # each is one line of the step log, whatever its length.
    from hammerlab.analysis.game import Game
    from hammerlab.io.scenario import load_scenario

    game = Game.start(load_scenario(GUARD), str(GUARD), 1, scenario_path=str(GUARD))
    game.play()
    texts = [e.text for e in game.battle.log.events if e.kind != "dice"]
    assert max(map(len, texts)) > 80  # some would be broken at 80 columns
    args = ["battle", str(GUARD), "--seed", "1", "--no-dice"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": None})  # a pipe: no width
    assert result.exit_code == 0, result.stderr
    lines = set(result.stdout.splitlines())
    assert [t for t in texts if t not in lines] == []
    by_terminators = [t for t in texts if "is removed" in t and "from Terminator Squad" in t]
    assert by_terminators and all(t in lines for t in by_terminators)
    # a terminal's width (or COLUMNS) is still kept: the long events are broken there
    narrow = CliRunner().invoke(app, args, env={"COLUMNS": "80"}).stdout.splitlines()
    assert max(map(len, narrow)) <= 80
    assert not any(t in narrow for t in texts if len(t) > 80)


def test_show_piped_or_saved_prints_its_header_and_weapon_lines_whole() -> None:
    # The same review: show's header ("Tactical Squad (Space Marines, waffle; ⏎
    # hammerlab/library/...") and its "Weapons of ..." lines were broken at 80
    # columns. The weapons each model carries: src/hammerlab/library/waffle/
    # space_marines.toml, Tactical Squad.
    result = CliRunner().invoke(app, ["show", "Tactical Squad"], env={"COLUMNS": None})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "Tactical Squad (Space Marines, waffle; hammerlab/library/waffle/space_marines.toml)"
    )
    heavy = (
        "Weapons of 'Space Marine (heavy bolter)': "
        "Heavy bolter, Bolt pistol, Frag grenades, Krak grenades"
    )
    assert heavy in lines
