"""The plug-in files that play a battle are part of what played it: an edited plug-in
is another engine version, so the store and ``--resume`` never reuse the battles its
earlier bytes played, reports name the plug-ins (path and hash), and every worker
must load the same bytes (docs/scale.md, docs/plugins.md)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from dask_kit import local_dask
from hammerlab.analysis.engine_version import ENGINE_VERSION
from hammerlab.analysis.runners import Batch, EngineMismatchError, Runner, play_batch
from hammerlab.analysis.sweep import sweep
from hammerlab.analysis.sweep_grid import cases, parse_axes
from hammerlab.cli.app import app
from hammerlab.editions.plugins import PluginFile, load_plugin_file
from hammerlab.io.scenario import load_scenario

GUARD = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"


def _plugin(path: Path, rule: str, comment: str = "") -> tuple[str, str]:
    """Write a plug-in whose rule does nothing (what matters is which bytes played);
    its absolute path and the first 12 hex digits of the SHA-256 of its bytes."""
    text = (
        f"# {comment}\nfrom hammerlab.engine.rules import RuleOption\n"
        f"RULESET = 'waffle'\nRULES = (RuleOption({rule!r}, 'does nothing', 'House rule'),)\n"
    )
    path.write_text(text, encoding="utf-8")
    return str(path.resolve()), hashlib.sha256(text.encode()).hexdigest()[:12]


def _tally(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.stderr.strip()


def test_lab_replays_the_battles_of_an_edited_plug_in_and_names_it(tmp_path: Path) -> None:
    plugin = tmp_path / "house_lab.py"
    store = tmp_path / "s"
    path, first = _plugin(plugin, "house_lab_rule")
    lab = ["lab", str(GUARD), "--plugin", str(plugin), "--rule", "house_lab_rule"]
    lab += ["--runs", "2", "--out", str(store)]
    invoke = CliRunner().invoke
    assert _tally(invoke(app, lab)).endswith("0 battles reused from the store, 4 played and stored")
    same = invoke(app, [*lab, "--resume", "--json"])
    assert _tally(same) == ""
    document = json.loads(same.stdout)
    assert document["store"] == {"folder": str(store), "reused": 4, "played": 0}
    assert document["plugins"] == [{"path": path, "name": "house_lab.py", "hash": first}]
    assert document["engine_version"] == f"{ENGINE_VERSION}+plugins:house_lab.py@{first}"

    _, edited = _plugin(plugin, "house_lab_rule", "edited")
    again = invoke(app, [*lab, "--resume"])
    assert _tally(again).endswith("0 battles reused from the store, 4 played and stored")
    # The console wraps a long path anywhere: compare without the white space.
    assert "".join(f"Plug-ins: {path} (hash {edited})".split()) in "".join(again.stdout.split())
    # Both versions' battles are kept, each under its own engine version.
    listed = json.loads(invoke(app, ["results", str(store), "--json"]).stdout)["points"]
    assert sorted({p["engine_version"] for p in listed}) == sorted(
        f"{ENGINE_VERSION}+plugins:house_lab.py@{h}" for h in (first, edited)
    )


def test_sweep_replays_an_edited_plug_in_and_every_output_names_it(tmp_path: Path) -> None:
    plugin = tmp_path / "house_sweep.py"
    store, table, page = tmp_path / "s", tmp_path / "t.csv", tmp_path / "r.html"
    _plugin(plugin, "house_sweep_rule")
    command = ["sweep", str(GUARD), "--plugin", str(plugin), "--vary", "house_sweep_rule=off,on"]
    command += ["--runs", "2", "--out", str(store)]
    invoke = CliRunner().invoke
    assert _tally(invoke(app, command)).endswith(
        "0 battles reused from the store, 4 played and stored"
    )
    path, edited = _plugin(plugin, "house_sweep_rule", "edited")
    outputs = ["--csv", str(table), "--report", str(page)]
    resumed = invoke(app, [*command, "--resume", "--json", *outputs])
    assert resumed.exit_code == 0, resumed.output
    document = json.loads(resumed.stdout)
    assert document["store"] == {"folder": str(store), "reused": 0, "played": 4}
    named = {"path": path, "name": "house_sweep.py", "hash": edited}
    assert [p["plugins"] for p in document["points"]] == [[named], [named]]
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    assert {r["plugins"] for r in rows} == {f"{path} (hash {edited})"}
    assert {r["engine_version"] for r in rows} == {
        f"{ENGINE_VERSION}+plugins:house_sweep.py@{edited}"
    }
    assert f"Plug-ins: {path} (hash {edited})" in page.read_text(encoding="utf-8")


def test_a_worker_whose_plug_in_file_differs_refuses_the_batch(tmp_path: Path) -> None:
    plugin = tmp_path / "house_worker.py"
    path, digest = _plugin(plugin, "house_worker_rule")
    loaded = load_plugin_file(plugin)
    assert loaded == PluginFile(path, loaded.sha256, "waffle", ("house_worker_rule",))
    assert loaded.sha256[:12] == digest
    scenario = load_scenario(GUARD)
    made = Batch(scenario, str(GUARD), {"house_worker_rule": True}, (1,), (loaded,))
    assert len(play_batch(made)) == 1  # the same bytes: played
    _, other = _plugin(plugin, "house_worker_rule", "another copy")
    with pytest.raises(EngineMismatchError) as refused:
        play_batch(made)
    assert str(refused.value).startswith(
        f"a worker loaded the plug-in house_worker.py@{other} from {path}, this run needs "
        f"house_worker.py@{digest}:"
    )


def test_dask_workers_loading_the_same_plug_in_file_agree(tmp_path: Path) -> None:
    plugin = tmp_path / "house_dask.py"
    _plugin(plugin, "house_dask_rule")
    grid_cases = cases(
        [(load_scenario(GUARD), str(GUARD))],
        parse_axes(["house_dask_rule=off,on"]),
        plugins=[str(plugin)],
    )
    assert all(re.search(r"\+plugins:house_dask\.py@", c.engine_version) for c in grid_cases)
    with Runner(1) as runner:
        here = sweep(grid_cases, 2, 1, runner)
    with local_dask() as dask:
        there = sweep(grid_cases, 2, 1, dask)
    assert there == here


RAISES = """from hammerlab.editions.waffle.points import END_OF_TURN
from hammerlab.engine.rules import RuleOption

RULESET = "waffle"


def install(hooks, settings):
    def ends(battle, player):
        raise ValueError("boom at the end of a turn")

    hooks.add(END_OF_TURN, ends)


RULES = (RuleOption({name!r}, "raises", "House rule", install=install),)
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_battle_that_fails_in_a_lab_names_itself_and_how_to_replay_it(
    workers: str, tmp_path: Path
) -> None:
    rule = f"house_raises_{workers}"
    plugin = tmp_path / "raises.py"
    plugin.write_text(RAISES.format(name=rule), encoding="utf-8")
    lab = ["lab", str(GUARD), "--plugin", str(plugin), "--rule", rule, "--runs", "2"]
    result = CliRunner().invoke(app, [*lab, "--seed", "5", "--workers", workers])
    assert result.exit_code == 1
    first, *trace = result.stderr.splitlines()
    # The variant (the rule on) fails; with two workers either of its seeds may be first.
    seed = re.fullmatch(
        rf"error: {re.escape(str(GUARD))}: the battle of seed (5|6) at {rule}=on failed: "
        rf"ValueError: boom at the end of a turn; replay it: hammerlab battle "
        rf"{re.escape(str(GUARD))} --seed (\d+) --plugin {re.escape(str(plugin))} "
        rf"--rule {rule}=on",
        first,
    )
    assert seed is not None, first
    assert seed[1] == seed[2]
    assert f'File "{plugin}", line 9, in ends' in trace[-3:][0]  # the plug-in's own line
    assert trace[-1] == "ValueError: boom at the end of a turn"
    # The command replays the very battle: it fails the same way.
    replay = first.split("replay it: hammerlab ")[1].split()
    again = CliRunner().invoke(app, replay)
    assert again.exit_code == 1
    told, *again_trace = again.stderr.splitlines()
    assert told == "error: the battle failed: ValueError: boom at the end of a turn"
    assert again_trace[-1] == "ValueError: boom at the end of a turn"


SILENT_ACTION = """from dataclasses import dataclass

from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import SHOOTING_ACTIONS
from hammerlab.engine.rules import RuleOption

RULESET = "waffle"


@dataclass(frozen=True)
class Volley:  # no worth: the AI is offered it and never takes it
    label: str = {label!r}

    def targets(self, battle, unit, targets):
        return targets

    def orders(self):
        return FireOrders(action={label!r}, weapon_types=frozenset({{"Heavy"}}))


def install(hooks, settings):
    hooks.add(SHOOTING_ACTIONS, Volley())


RULES = (RuleOption({name!r}, "an action", "House rule", install=install),)
"""


def test_lab_warns_of_a_rule_s_choice_offered_and_chosen_in_neither_arm(tmp_path: Path) -> None:
    plugin = tmp_path / "silent.py"
    label = "silent volley"
    plugin.write_text(SILENT_ACTION.format(label=label, name="silent_volley"), encoding="utf-8")
    lab = ["lab", str(GUARD), "--plugin", str(plugin), "--rule", "silent_volley", "--runs", "2"]
    document = json.loads(CliRunner().invoke(app, [*lab, "--json"]).stdout)
    (row,) = [c for c in document["rule_choices"] if c["choice"] == f"action: {label}"]
    assert row["baseline_offered"] == 0 and row["variant_offered"] > 0
    assert row["baseline_chosen"] == row["variant_chosen"] == 0
    warning = (
        f"warning: action: {label} was offered {row['variant_offered']} times and chosen in "
        "neither arm; where it is what the rule offers, the rule never came into play"
    )
    assert warning in document["warnings"]
    text = CliRunner().invoke(app, lab)
    assert warning in " ".join(text.stdout.split())  # lines wrapped as the console's
